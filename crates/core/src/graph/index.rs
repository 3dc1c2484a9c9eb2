//! Symbol tables over a loaded [`Project`]: declarations by id, fields by concept and by group,
//! fields by path. Built once, shared by the lint rules and the compiler.

use crate::model::{Endpoint, Project, ResponseField, Tool};
use std::collections::BTreeMap;

/// A response field's position in the project: indices of the tool, endpoint and field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldRef {
    /// Index into `project.tools`.
    pub tool: usize,
    /// Index into the tool's endpoints.
    pub endpoint: usize,
    /// Index into the endpoint's fields.
    pub field: usize,
}

/// A parameter's position: tool, endpoint and parameter indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ParamRef {
    /// Index into `project.tools`.
    pub tool: usize,
    /// Index into the tool's endpoints.
    pub endpoint: usize,
    /// Index into the endpoint's parameters.
    pub parameter: usize,
}

/// Lookups over a project. Ids map to the first declaration with that id (duplicates are
/// reported by the `duplicate-id` rule).
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// Tool id -> index into `project.tools`.
    pub tools: BTreeMap<String, usize>,
    /// Domain id -> index into `project.domains`.
    pub domains: BTreeMap<String, usize>,
    /// Group id -> index into `project.groups`.
    pub groups: BTreeMap<String, usize>,
    /// Intent id -> index into `project.intents`.
    pub intents: BTreeMap<String, usize>,
    /// Concept id -> index into `project.concepts`.
    pub concepts: BTreeMap<String, usize>,
    /// Concept id -> fields that declare it (in project order).
    pub fields_by_concept: BTreeMap<String, Vec<FieldRef>>,
    /// Group id -> fields in the group (in project order).
    pub fields_by_group: BTreeMap<String, Vec<FieldRef>>,
    /// Parameter concept id -> parameters bound from it.
    pub params_by_concept: BTreeMap<String, Vec<ParamRef>>,
    /// `tool/endpoint/field` -> field (first declaration).
    pub field_paths: BTreeMap<String, FieldRef>,
    /// Domain id -> tools in that domain (indices into `project.tools`, in order).
    pub tools_by_domain: BTreeMap<String, Vec<usize>>,
    /// Per tool (index into `project.tools`): the groups its fields belong to.
    pub tool_groups: Vec<std::collections::BTreeSet<String>>,
}

impl Index {
    /// Build the lookups.
    pub fn build(p: &Project) -> Index {
        // The maps filled in one pass over the declarations, beside the field paths (the
        // larger part, itself parallel).
        let (mut ix, field_paths) = rayon::join(|| Self::build_maps(p), || Self::field_paths(p));
        ix.field_paths = field_paths;
        ix
    }

    fn build_maps(p: &Project) -> Index {
        let mut ix = Index::default();
        for (i, t) in p.tools.iter().enumerate() {
            ix.tools.entry(t.id.value.clone()).or_insert(i);
        }
        for (i, d) in p.domains.iter().enumerate() {
            ix.domains.entry(d.item.id.value.clone()).or_insert(i);
        }
        for (i, g) in p.groups.iter().enumerate() {
            ix.groups.entry(g.item.id.value.clone()).or_insert(i);
        }
        for (i, it) in p.intents.iter().enumerate() {
            ix.intents.entry(it.item.id.value.clone()).or_insert(i);
        }
        for (i, c) in p.concepts.iter().enumerate() {
            ix.concepts.entry(c.item.id.value.clone()).or_insert(i);
        }
        for (ti, t) in p.tools.iter().enumerate() {
            push_ref(&mut ix.tools_by_domain, &t.domain.value, ti);
            ix.tool_groups
                .push(tool_groups(t).into_iter().map(str::to_string).collect());
            for (ei, e) in t.endpoints.iter().enumerate() {
                for (fi, f) in e.fields.iter().enumerate() {
                    let r = FieldRef {
                        tool: ti,
                        endpoint: ei,
                        field: fi,
                    };
                    for c in &f.concepts {
                        push_ref(&mut ix.fields_by_concept, &c.value, r);
                    }
                    for g in &f.groups {
                        push_ref(&mut ix.fields_by_group, &g.value, r);
                    }
                }
                for (pi, param) in e.parameters.iter().enumerate() {
                    for b in &param.bind {
                        push_ref(
                            &mut ix.params_by_concept,
                            &b.concept.value,
                            ParamRef {
                                tool: ti,
                                endpoint: ei,
                                parameter: pi,
                            },
                        );
                    }
                }
            }
        }
        ix
    }

    /// Field paths: formatted in parallel, then sorted (stably, so of repeated paths the first
    /// declaration comes first and is kept) and bulk-loaded.
    fn field_paths(p: &Project) -> BTreeMap<String, FieldRef> {
        use rayon::prelude::*;
        let mut paths: Vec<(String, FieldRef)> = p
            .tools
            .par_iter()
            .enumerate()
            .flat_map_iter(|(ti, t)| {
                t.endpoints.iter().enumerate().flat_map(move |(ei, e)| {
                    e.fields.iter().enumerate().map(move |(fi, f)| {
                        (
                            field_path(&t.id.value, &e.id.value, &f.name.value),
                            FieldRef {
                                tool: ti,
                                endpoint: ei,
                                field: fi,
                            },
                        )
                    })
                })
            })
            .collect();
        paths.par_sort_by(|a, b| a.0.cmp(&b.0));
        paths.dedup_by(|later, first| later.0 == first.0);
        paths.into_iter().collect()
    }
}

/// Append `r` to the list of `key`, allocating the key only when it is new.
fn push_ref<R>(map: &mut BTreeMap<String, Vec<R>>, key: &str, r: R) {
    match map.get_mut(key) {
        Some(v) => v.push(r),
        None => {
            map.insert(key.to_string(), vec![r]);
        }
    }
}

/// The path of a field: `tool/endpoint/field`.
pub fn field_path(tool: &str, endpoint: &str, field: &str) -> String {
    // Built by hand: one allocation of the exact size, without the formatting machinery (it
    // runs once per field in the index, the graph and the routing tables).
    let mut s = String::with_capacity(tool.len() + endpoint.len() + field.len() + 2);
    s.push_str(tool);
    s.push('/');
    s.push_str(endpoint);
    s.push('/');
    s.push_str(field);
    s
}

/// Resolve a [`FieldRef`] to its tool, endpoint and field.
pub fn resolve(p: &Project, r: FieldRef) -> (&Tool, &Endpoint, &ResponseField) {
    let t = &p.tools[r.tool];
    let e = &t.endpoints[r.endpoint];
    let f = &e.fields[r.field];
    (t, e, f)
}

/// Groups a tool provides (any field of any endpoint in the group).
pub fn tool_groups(tool: &Tool) -> std::collections::BTreeSet<&str> {
    tool.endpoints
        .iter()
        .flat_map(|e| e.fields.iter())
        .flat_map(|f| f.groups.iter().map(|g| g.value.as_str()))
        .collect()
}

/// Candidate tools of an intent (Algorithm 1, candidate filter): tools whose domain is among the
/// intent's domains and that provide at least one of its required groups. Indices into
/// `project.tools`, in project order. Looks only at the tools of the intent's domains.
pub fn intent_candidates(ix: &Index, intent: &crate::model::Intent) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for d in &intent.domains {
        let Some(tools) = ix.tools_by_domain.get(&d.value) else {
            continue;
        };
        for &t in tools {
            if intent
                .required_groups
                .iter()
                .any(|g| ix.tool_groups[t].contains(&g.value))
            {
                out.push(t);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
