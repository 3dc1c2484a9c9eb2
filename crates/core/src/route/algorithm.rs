//! Algorithm 1 of the SchemaRouter paper (section 4), over the artifact's precomputed indices.
//!
//! 1. Named tools override (resolved by id, title or declared name through the name index);
//!    unknown names are reported.
//! 2. Otherwise the candidates are the intent's precomputed candidates (domain among the intent's
//!    domains, providing one of its required groups).
//! 3. A source constraint keeps tools whose source types (tool or field override) include it.
//! 4. Requested concepts resolve through the alias layer to concept ids (and, for field aliases,
//!    to exact fields); each candidate endpoint is scored from the concept postings: per
//!    concept the best of exact (3) > alias (2) > partial (1).
//! 5. Ranking: non-web before web, higher score, higher priority, fewer total fields, id.
//!    Without named tools the top `k` are planned; with named tools every named tool is.
//! 6. Projection: identifiers ∪ concept matches ∪ the fields of the intent's required groups
//!    (`recall`, default); `minimal` drops the groups; `all` takes every field.
//! 7. Parameters bind through parameter concepts to the tool's own names; required parameters
//!    that cannot be bound (and have no default) set the status.
//! 8. Unit, source type, licence and provenance are attached from the artifact.

use super::bind;
use super::{
    FieldMeta, FieldReason, MatchKindName, McpCall, Plan, PlanStatus, PlannedField, SkippedTool,
    Step, Understanding,
};
use crate::artifact::{FieldKey, FrozenGraph, MatchKind, Posting, ToolData};
use crate::model::normalise_alias;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Field projection variants (paper ablations).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum Projection {
    /// identifiers ∪ concept matches ∪ intent group fields (the paper's recall-first default).
    #[default]
    Recall,
    /// identifiers ∪ concept matches.
    Minimal,
    /// every field of the chosen endpoint (the no-field-projection ablation).
    All,
}

/// Router options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Tools to plan when none is named (default 1).
    pub k: usize,
    /// Field projection variant.
    pub projection: Projection,
    /// Apply the source-constraint filter (off for the `--no-source-routing` ablation).
    pub source_routing: bool,
    /// Attach per-field metadata (off for the `--no-metadata` ablation).
    pub metadata: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            k: 1,
            projection: Projection::Recall,
            source_routing: true,
            metadata: true,
        }
    }
}

/// One requested concept text, resolved.
#[derive(Clone, Debug)]
struct Requested {
    text: String,
    concepts: Vec<String>,
    fields: Vec<FieldKey>,
    field_names: Vec<FieldKey>,
}

fn resolve_concepts(g: &FrozenGraph, u: &Understanding) -> Vec<Requested> {
    let mut out: Vec<Requested> = Vec::new();
    for text in &u.domain_concepts {
        let key = normalise_alias(text);
        if key.is_empty() || out.iter().any(|r| normalise_alias(&r.text) == key) {
            continue;
        }
        let concepts = g
            .index
            .alias_to_concept
            .get(&key)
            .cloned()
            .unwrap_or_default();
        let fields = g
            .index
            .alias_to_field
            .get(&key)
            .cloned()
            .unwrap_or_default();
        let field_names = if concepts.is_empty() && fields.is_empty() {
            g.index.field_names.get(&key).cloned().unwrap_or_default()
        } else {
            Vec::new()
        };
        out.push(Requested {
            text: text.clone(),
            concepts,
            fields,
            field_names,
        });
    }
    out
}

/// Postings of a concept restricted to one tool (binary search on the sorted list).
fn tool_postings(list: &[Posting], tool: u32) -> &[Posting] {
    let start = list.partition_point(|p| p.tool < tool);
    let end = list.partition_point(|p| p.tool <= tool);
    &list[start..end]
}

/// Per-endpoint matches of the requested concepts for one tool: endpoint -> requested index ->
/// (best kind score, projected fields with their reasons).
type EndpointMatches = BTreeMap<u32, BTreeMap<usize, (u32, Vec<(u32, FieldReason)>)>>;

fn match_tool(g: &FrozenGraph, ti: u32, req: &[Requested]) -> EndpointMatches {
    let mut out: EndpointMatches = BTreeMap::new();
    for (ri, r) in req.iter().enumerate() {
        // Field aliases on this tool win over the whole concept.
        let field_hits: Vec<&FieldKey> = r.fields.iter().filter(|k| k.tool == ti).collect();
        if !field_hits.is_empty() {
            for k in field_hits {
                let concept = g
                    .field(*k)
                    .concepts
                    .first()
                    .cloned()
                    .unwrap_or_else(|| r.text.clone());
                let entry = out
                    .entry(k.endpoint)
                    .or_default()
                    .entry(ri)
                    .or_insert((0, Vec::new()));
                entry.0 = entry.0.max(MatchKind::Exact.score());
                entry.1.push((
                    k.field,
                    FieldReason::Concept {
                        via: (normalise_alias(&concept) != normalise_alias(&r.text))
                            .then(|| r.text.clone()),
                        concept,
                        match_kind: MatchKindName::FieldAlias,
                    },
                ));
            }
            continue;
        }
        for c in &r.concepts {
            let Some(list) = g.index.concept_postings.get(c) else {
                continue;
            };
            for p in tool_postings(list, ti) {
                let entry = out
                    .entry(p.endpoint)
                    .or_default()
                    .entry(ri)
                    .or_insert((0, Vec::new()));
                entry.0 = entry.0.max(p.kind.score());
                if p.kind != MatchKind::Partial {
                    entry.1.push((
                        p.field,
                        FieldReason::Concept {
                            concept: c.clone(),
                            via: (normalise_alias(c) != normalise_alias(&r.text))
                                .then(|| r.text.clone()),
                            match_kind: p.kind.into(),
                        },
                    ));
                }
            }
        }
        for k in r.field_names.iter().filter(|k| k.tool == ti) {
            let entry = out
                .entry(k.endpoint)
                .or_default()
                .entry(ri)
                .or_insert((0, Vec::new()));
            entry.0 = entry.0.max(MatchKind::Exact.score());
            entry.1.push((
                k.field,
                FieldReason::Concept {
                    concept: r.text.clone(),
                    via: None,
                    match_kind: MatchKindName::Exact,
                },
            ));
        }
    }
    out
}

/// Score and best endpoint of a tool: (score, endpoint index), or `None` when every endpoint
/// is destructive (never planned unless declared `allow_destructive`). Among endpoints of equal
/// score, read-only ones come before ones whose annotations say they write.
///
/// Ties on score and group break by, in order: fewer required parameters that nothing in the
/// Understanding can fill (no default, no binding to a given parameter concept), then reading
/// before writing (annotations; HTTP `PUT`, `PATCH`, `DELETE` write, `GET` reads), then
/// declaration order.
fn best_endpoint(
    t: &ToolData,
    matches: &EndpointMatches,
    groups: &[String],
    given: &BTreeMap<String, Value>,
) -> Option<(u32, u32)> {
    type Key = (
        u32,
        bool,
        std::cmp::Reverse<usize>,
        bool,
        u8,
        std::cmp::Reverse<u32>,
    );
    let mut best: Option<Key> = None;
    for (ei, e) in t.endpoints.iter().enumerate() {
        if e.destructive {
            continue;
        }
        let ei = ei as u32;
        let score: u32 = matches
            .get(&ei)
            .map(|m| m.values().map(|(s, _)| *s).sum())
            .unwrap_or(0);
        let provides = groups.iter().any(|g| e.group_fields.contains_key(g));
        let unfilled = e
            .parameters
            .iter()
            .filter(|p| p.required && !p.auth && p.default.is_none())
            .filter(|p| !p.bind.iter().any(|b| given.contains_key(&b.concept)))
            .count();
        let method = match e.method.as_str() {
            "GET" | "LOCAL" | "MCP" => 2,
            "POST" => 1,
            _ => 0,
        };
        let key = (
            score,
            provides,
            std::cmp::Reverse(unfilled),
            !e.writes,
            method,
            std::cmp::Reverse(ei),
        );
        if best.is_none_or(|b| key > b) {
            best = Some(key);
        }
    }
    best.map(|(s, _, _, _, _, std::cmp::Reverse(e))| (s, e))
}

fn resolve_tool(g: &FrozenGraph, name: &str) -> Option<u32> {
    g.index.tool_names.get(&normalise_alias(name)).copied()
}

/// Run Algorithm 1 on an Understanding.
pub fn route(g: &FrozenGraph, u: &Understanding, opts: &Options) -> Plan {
    let mut plan = Plan {
        status: PlanStatus::Planned,
        routing_fingerprint: g.routing_fingerprint.clone(),
        intent: None,
        source_constraint: None,
        steps: Vec::new(),
        unmatched_concepts: Vec::new(),
        skipped_tools: Vec::new(),
        not_understood: Vec::new(),
        warnings: Vec::new(),
    };
    let intent = match &u.intent {
        Some(i) => match g.intent(i) {
            Some(it) => Some(it),
            None => {
                plan.warnings.push(format!("unknown intent `{i}` ignored"));
                None
            }
        },
        None => None,
    };
    plan.intent = intent.map(|i| i.id.clone());
    let constraint = if opts.source_routing {
        u.source_constraint
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(|c| match canonical_source_type(c, &g.source_types) {
                Some(known) if known != c => {
                    plan.warnings
                        .push(format!("source constraint `{c}` read as `{known}`"));
                    known
                }
                _ => c.to_string(),
            })
    } else {
        None
    };
    if let Some(c) = &constraint
        && !g.source_types.contains(c)
    {
        plan.warnings.push(format!(
            "unknown source constraint `{c}`: no tool can satisfy it"
        ));
    }
    plan.source_constraint = constraint.clone();
    let groups: Vec<String> = intent
        .map(|i| i.required_groups.clone())
        .unwrap_or_default();

    // Lines 1-2: named tools override; otherwise the intent's candidates.
    let mut named: Vec<u32> = Vec::new();
    for name in &u.target_apis {
        match resolve_tool(g, name) {
            Some(t) => {
                if !named.contains(&t) {
                    named.push(t);
                }
            }
            None => plan.skipped_tools.push(SkippedTool {
                requested: name.clone(),
                reason: "no tool with this id or name".into(),
            }),
        }
    }
    let has_named = !u.target_apis.is_empty();
    let mut candidates: Vec<u32> = if has_named {
        named.clone()
    } else if let Some(i) = intent {
        i.candidates.clone()
    } else {
        Vec::new()
    };

    // Line 3: source filter (a field-level override counts).
    if let Some(c) = &constraint {
        candidates.retain(|t| {
            let tool = &g.tools[*t as usize];
            let ok = tool.source_types.contains(c);
            if !ok && has_named {
                plan.skipped_tools.push(SkippedTool {
                    requested: tool.id.clone(),
                    reason: format!(
                        "its source type is {} and the request asks for {c}",
                        tool.source_types.join("/")
                    ),
                });
            }
            ok
        });
    }

    let req = resolve_concepts(g, u);
    for r in &req {
        if r.concepts.is_empty() && r.fields.is_empty() && r.field_names.is_empty() {
            plan.warnings.push(format!(
                "`{}` is not a known concept, alias or field",
                r.text
            ));
        }
    }

    // Lines 4-5: score and rank.
    let mut scored: Vec<(u32, u32, u32, EndpointMatches)> = Vec::new();
    for &t in &candidates {
        let m = match_tool(g, t, &req);
        match best_endpoint(&g.tools[t as usize], &m, &groups, &u.parameters) {
            Some((score, ep)) => scored.push((t, score, ep, m)),
            None if has_named => plan.skipped_tools.push(SkippedTool {
                requested: g.tools[t as usize].id.clone(),
                reason: "every endpoint of the tool may destroy data and none is marked `allow_destructive`".to_string(),
            }),
            None => {}
        }
    }
    if !has_named {
        scored.sort_by(|a, b| {
            let ta = &g.tools[a.0 as usize];
            let tb = &g.tools[b.0 as usize];
            (
                ta.is_web,
                std::cmp::Reverse(a.1),
                std::cmp::Reverse(ta.priority),
                ta.total_fields,
                &ta.id,
            )
                .cmp(&(
                    tb.is_web,
                    std::cmp::Reverse(b.1),
                    std::cmp::Reverse(tb.priority),
                    tb.total_fields,
                    &tb.id,
                ))
        });
        scored.truncate(opts.k.max(1));
    }
    let n_candidates = candidates.len();

    // Lines 6-8: project, bind, attach.
    let mut covered: BTreeSet<usize> = BTreeSet::new();
    for (rank, (ti, score, ei, matches)) in scored.into_iter().enumerate() {
        let t = &g.tools[ti as usize];
        let e = &t.endpoints[ei as usize];
        let mut reasons: BTreeMap<u32, Vec<FieldReason>> = BTreeMap::new();
        for f in &e.identifiers {
            reasons.entry(*f).or_default().push(FieldReason::Identifier);
        }
        if let Some(m) = matches.get(&ei) {
            for (ri, (_, fields)) in m {
                if !fields.is_empty() {
                    covered.insert(*ri);
                }
                for (f, why) in fields {
                    let v = reasons.entry(*f).or_default();
                    if !v.contains(why) {
                        v.push(why.clone());
                    }
                }
            }
        }
        match opts.projection {
            Projection::Recall => {
                for gid in &groups {
                    if let Some(fs) = e.group_fields.get(gid) {
                        for f in fs {
                            reasons
                                .entry(*f)
                                .or_default()
                                .push(FieldReason::Group { group: gid.clone() });
                        }
                    }
                }
            }
            Projection::Minimal => {}
            Projection::All => {
                for f in 0..e.fields.len() as u32 {
                    reasons.entry(f).or_default().push(FieldReason::AllFields);
                }
            }
        }
        let fields: Vec<PlannedField> = reasons
            .into_iter()
            .map(|(fi, reasons)| {
                let fd = &e.fields[fi as usize];
                PlannedField {
                    name: fd.name.clone(),
                    identifier: fd.identifier,
                    meta: opts.metadata.then(|| field_meta(g, t, fd, &reasons)),
                    reasons,
                }
            })
            .collect();
        let (params, missing, auth, unbound, warnings) = bind_parameters(g, ti, ei, u);
        plan.warnings.extend(warnings);
        let why = if has_named {
            "named in the request".to_string()
        } else {
            format!(
                "rank {} of {n_candidates} candidate(s) for intent `{}` (score {score})",
                rank + 1,
                plan.intent.as_deref().unwrap_or("-")
            )
        };
        plan.steps.push(Step {
            tool: t.id.clone(),
            endpoint: e.id.clone(),
            method: e.method.clone(),
            url: e.url.clone(),
            call: e.mcp_tool.as_ref().map(|name| McpCall {
                name: name.clone(),
                arguments: params.clone(),
            }),
            records: e.records.clone(),
            params,
            missing_required: missing,
            auth,
            unbound,
            fields,
            score,
            why,
        });
    }

    for (ri, r) in req.iter().enumerate() {
        if !covered.contains(&ri) {
            plan.unmatched_concepts.push(r.text.clone());
        }
    }
    plan.status = if plan.steps.is_empty() {
        PlanStatus::NoSuitableTool
    } else if plan.steps.iter().any(|s| !s.missing_required.is_empty()) {
        PlanStatus::MissingRequiredParameter
    } else if !plan.unmatched_concepts.is_empty() || !plan.skipped_tools.is_empty() {
        PlanStatus::Partial
    } else {
        PlanStatus::Planned
    };
    plan
}

/// The metadata a plan attaches to a field (unit, conversion factor to the matched concept's canonical unit, source type, licence, provenance).
pub fn field_meta(
    g: &FrozenGraph,
    t: &ToolData,
    f: &crate::artifact::FieldData,
    reasons: &[FieldReason],
) -> FieldMeta {
    // The factor converts to the canonical unit of the concept the field was matched for (or
    // its first concept).
    let concept = reasons
        .iter()
        .find_map(|r| match r {
            FieldReason::Concept { concept, .. } if f.concepts.contains(concept) => {
                Some(concept.clone())
            }
            _ => None,
        })
        .or_else(|| f.concepts.first().cloned());
    let (factor, canonical) = match &concept {
        Some(c) => (
            f.concept_factors.get(c).copied(),
            g.concept(c).and_then(|cd| cd.unit.clone()),
        ),
        None => (None, None),
    };
    FieldMeta {
        unit: f.unit.as_ref().map(|u| u.canonical.clone()),
        dimension: f.unit.as_ref().map(|u| u.dimension.clone()),
        unit_as_published: f.unit.as_ref().and_then(|u| u.as_published.clone()),
        factor_to_canonical: factor.filter(|_| canonical.is_some()),
        canonical_unit: canonical.filter(|_| factor.is_some()),
        source_type: f
            .source_type
            .clone()
            .or_else(|| t.source_type.as_deref().map(std::sync::Arc::from)),
        licence: f.licence.clone().or_else(|| t.licence.clone()),
        provenance: t.provenance.clone(),
    }
}

type Bound = (
    BTreeMap<String, Value>,
    Vec<String>,
    Vec<String>,
    Vec<String>,
    Vec<String>,
);

fn bind_parameters(g: &FrozenGraph, ti: u32, ei: u32, u: &Understanding) -> Bound {
    let e = &g.tools[ti as usize].endpoints[ei as usize];
    // Per parameter: (binding's position in the declaration, value).
    let mut values: BTreeMap<String, Vec<(usize, Value)>> = BTreeMap::new();
    let mut set: BTreeMap<String, (usize, Value)> = BTreeMap::new();
    let mut unbound = Vec::new();
    let mut warnings = Vec::new();
    for (concept, value) in &u.parameters {
        if value.is_null() {
            continue;
        }
        let scalar = |v: &Value| matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_));
        let usable = scalar(value)
            || value
                .as_array()
                .is_some_and(|a| !a.is_empty() && a.iter().all(scalar));
        if !usable {
            warnings.push(format!(
                "parameter `{concept}` has a value that is not a string, number, boolean or list of them; not bound"
            ));
            unbound.push(concept.clone());
            continue;
        }
        let key = normalise_alias(concept);
        let ids: Vec<String> = match g.index.alias_to_concept.get(&key) {
            Some(v) => v.clone(),
            None => vec![concept.clone()],
        };
        let mut bound_any = false;
        for id in &ids {
            let Some(list) = g.index.param_postings.get(id) else {
                continue;
            };
            for p in list.iter().filter(|p| p.tool == ti && p.endpoint == ei) {
                let param = &e.parameters[p.parameter as usize];
                for (bi, b) in param
                    .bind
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| &b.concept == id)
                {
                    match bind::render_for(param, b.template.as_ref(), value) {
                        Ok(v) => {
                            values.entry(param.name.clone()).or_default().push((bi, v));
                            for (k, s) in &b.set {
                                // Companion values of the first binding in declaration order win.
                                let slot = set.entry(k.clone()).or_insert((bi, s.to_json()));
                                if bi < slot.0 {
                                    *slot = (bi, s.to_json());
                                }
                            }
                            bound_any = true;
                        }
                        Err(msg) => {
                            warnings.push(format!("{}/{}: {msg}", g.tools[ti as usize].id, e.id))
                        }
                    }
                }
            }
        }
        if !bound_any {
            unbound.push(concept.clone());
        }
    }
    let mut params: BTreeMap<String, Value> = BTreeMap::new();
    for (name, vs) in values {
        let Some(param) = e.parameters.iter().find(|p| p.name == name) else {
            continue;
        };
        // The first binding in declaration order comes first (and wins when nothing joins).
        let mut vs = vs;
        vs.sort_by_key(|(bi, _)| *bi);
        let mut uniq: Vec<Value> = Vec::new();
        for (_, v) in vs {
            if !uniq.contains(&v) {
                uniq.push(v);
            }
        }
        params.insert(name, bind::combine(param, uniq));
    }
    for (k, (_, v)) in set {
        params.entry(k).or_insert(v);
    }
    let mut missing = Vec::new();
    let mut auth = Vec::new();
    for p in &e.parameters {
        if params.contains_key(&p.name) {
            continue;
        }
        if p.auth {
            if p.required {
                auth.push(p.name.clone());
            }
            continue;
        }
        if p.required {
            match &p.default {
                Some(d) => {
                    params.insert(p.name.clone(), bind::default_json(p, d));
                }
                None => missing.push(p.name.clone()),
            }
        }
    }
    (params, missing, auth, unbound, warnings)
}

/// Words an Understand step (an LLM above all) uses for the standard source types, mapped to
/// them: `measured` -> `experimental`, `computed`/`DFT` -> `calculated`, `published` ->
/// `literature`. Case and surrounding space are ignored. Returns the inventory's own spelling when
/// `c` names one of `known` (or a synonym of one), `None` otherwise.
pub fn canonical_source_type(c: &str, known: &[String]) -> Option<String> {
    let c = c.trim().to_lowercase();
    if let Some(k) = known.iter().find(|k| k.to_lowercase() == c) {
        return Some(k.clone());
    }
    let target = match c.as_str() {
        "measured" | "measurement" | "measurements" | "experiment" | "experiments"
        | "experimentally" | "lab" | "laboratory" | "empirical" | "observed" => "experimental",
        "computed" | "computational" | "computation" | "simulated" | "simulation"
        | "theoretical" | "theory" | "dft" | "predicted" | "calculation" | "calculations"
        | "ab initio" => "calculated",
        "published" | "publication" | "publications" | "paper" | "papers" | "journal"
        | "article" | "articles" | "reported" => "literature",
        _ => return None,
    };
    known.iter().find(|k| k.as_str() == target).cloned()
}
