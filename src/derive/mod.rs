//! The derived concept layer: concepts, aliases, identifier fields, field groups, parameter
//! bindings and intents, derived from what a project's tools already say (names, descriptions,
//! parameter and response schemas), and written as declarations a person can read, diff and
//! edit (`aliases/derived.yaml`, `intents/derived.yaml`, and the fields' `concepts`, `groups`
//! and `identifier` and the parameters' `bind` in the tool files).
//!
//! The passes, each in its own file:
//!
//! 1. [`owner`]: which existing entries are the deriver's (marked `derived: blake3:<hex>`,
//!    unchanged), edited by a person (kept), or a person's (never touched); references to the
//!    deriver's entries are taken off fields and parameters before deriving again, so a second
//!    run gives the same bytes;
//! 2. [`identifiers`]: `id`, `*_id`, `uuid`, `url`, keys other endpoints take as path
//!    parameters;
//! 3. [`endpoints`]: each endpoint's action and resource;
//! 4. [`concepts`]: response and parameter concepts shared across endpoints and tools;
//! 5. [`aliases`]: each concept's aliases that lead to it alone;
//! 6. [`intents`]: one field group and one intent per action and resource;
//! 7. [`files`] and [`mod@run`]: the file texts and the all-or-nothing write.
//!
//! Derivation is a pure function of the project ([`derive()`]); tools are read in id order, so
//! file names and order do not change the result.

pub mod aliases;
pub mod concepts;
pub mod endpoints;
pub mod files;
pub mod identifiers;
pub mod intents;
pub mod owner;
pub mod run;
pub mod terms;

use crate::model::{
    Binding, Concept, ConceptKind, FieldGroup, Intent, Project, Sp, Tool, normalise_id,
};
use owner::{Owner, Owners};
use std::collections::{BTreeMap, BTreeSet};

pub use run::{DeriveOutcome, DeriveRequest, derive_project};

/// What a derivation proposes.
#[derive(Clone, Debug, Default)]
pub struct Layer {
    /// The derived tools, in the order they were given.
    pub tools: Vec<Tool>,
    /// Derived concepts (marked), sorted by id.
    pub concepts: Vec<Concept>,
    /// Derived field groups (marked), sorted by id.
    pub groups: Vec<FieldGroup>,
    /// Derived intents (marked), sorted by id.
    pub intents: Vec<Intent>,
    /// Counts.
    pub stats: Stats,
}

/// What a derivation counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Response concepts.
    pub response_concepts: usize,
    /// Parameter concepts.
    pub parameter_concepts: usize,
    /// Aliases over all derived concepts.
    pub aliases: usize,
    /// Field groups.
    pub groups: usize,
    /// Intents.
    pub intents: usize,
    /// Fields newly marked as identifiers.
    pub identifiers: usize,
    /// Fields that carry a derived concept.
    pub fields_with_concepts: usize,
    /// Parameters bound to a derived concept.
    pub bindings: usize,
}

/// Take the deriver's references off a tool: concepts and groups the deriver manages, bindings
/// to its concepts, references to concepts no file declares (an entry of the derived layer a
/// person deleted: [`restore_dangling`] puts back the ones not derived again), and a response
/// field's reference to a person's parameter concept (always an error, `SR105`: the field's
/// concept is derived again under a free id).
fn strip(tool: &mut Tool, owners: &Owners, parameter_ids: &BTreeSet<String>) {
    let undeclared = |id: &str| owners.concept_taken(id).is_none();
    for e in &mut tool.endpoints {
        for f in &mut e.value.fields {
            f.value.concepts.retain(|c| {
                !owners.concept_managed(&c.value)
                    && !undeclared(&c.value)
                    && !parameter_ids.contains(&normalise_id(&c.value))
            });
            f.value.groups.retain(|g| !owners.group_managed(&g.value));
        }
        for p in &mut e.value.parameters {
            p.value.bind.retain(|b| {
                !owners.concept_managed(&b.value.concept.value)
                    && !undeclared(&b.value.concept.value)
            });
        }
    }
}

/// Put back the references to undeclared concepts that [`strip`] took off `before` and the
/// derivation did not declare again: a person's dangling reference stays for `check` to report.
fn restore_dangling(tool: &mut Tool, before: &Tool, owners: &Owners, derived: &BTreeSet<String>) {
    let derived: BTreeSet<String> = derived.iter().map(|d| normalise_id(d)).collect();
    let lost =
        |id: &str| owners.concept_taken(id).is_none() && !derived.contains(&normalise_id(id));
    for (e, old) in tool.endpoints.iter_mut().zip(&before.endpoints) {
        for (f, old) in e.value.fields.iter_mut().zip(&old.value.fields) {
            for c in &old.value.concepts {
                if lost(&c.value) && !f.value.concepts.iter().any(|k| k.value == c.value) {
                    f.value.concepts.push(c.clone());
                }
            }
        }
        for (p, old) in e.value.parameters.iter_mut().zip(&old.value.parameters) {
            for b in &old.value.bind {
                let id = &b.value.concept.value;
                if lost(id) && !p.value.bind.iter().any(|k| &k.value.concept.value == id) {
                    p.value.bind.push(b.clone());
                }
            }
        }
    }
}

/// The normalised ids of a person's parameter concepts (`kind: parameter`).
fn person_parameter_concepts(project: &Project, owners: &Owners) -> BTreeSet<String> {
    project
        .concepts
        .iter()
        .filter(|c| c.item.kind.as_ref().map(|k| k.value) == Some(ConceptKind::Parameter))
        .filter(|c| owners.concept_taken(&c.item.id.value) == Some(Owner::Person))
        .map(|c| normalise_id(&c.item.id.value))
        .collect()
}

/// The most common text of a count map (ties: the shortest, then the first in order).
fn most_common(m: &BTreeMap<String, usize>) -> Option<String> {
    m.iter()
        .max_by(|a, b| {
            a.1.cmp(b.1)
                .then(b.0.len().cmp(&a.0.len()))
                .then(b.0.cmp(a.0))
        })
        .map(|(k, _)| k.clone())
}

/// Derive the concept layer over `tools` (declarations of `project`, whose existing
/// concept-layer entries `owners` classifies).
pub fn derive(project: &Project, tools: Vec<Tool>, owners: &Owners) -> Layer {
    let before = tools.clone();
    let parameter_ids = person_parameter_concepts(project, owners);
    let mut tools = tools;
    for t in &mut tools {
        strip(t, owners, &parameter_ids);
    }
    let mut stats = Stats::default();
    for t in &mut tools {
        stats.identifiers += identifiers::mark(t);
    }
    let mut order: Vec<usize> = (0..tools.len()).collect();
    order.sort_by(|a, b| {
        normalise_id(&tools[*a].id.value)
            .cmp(&normalise_id(&tools[*b].id.value))
            .then(a.cmp(b))
    });
    // Index the tools in id order, so clustering never sees file order.
    let sorted: Vec<Tool> = order.iter().map(|i| tools[*i].clone()).collect();
    let infos: Vec<Vec<endpoints::EndpointInfo>> = sorted
        .iter()
        .map(|t| {
            t.endpoints
                .iter()
                .map(|e| endpoints::describe(t, &e.value))
                .collect()
        })
        .collect();
    let abbr = concepts::Abbreviations::of(&sorted);
    let mut sorted = sorted;
    let (concepts, concept_stats) =
        settle_concepts(project, &mut sorted, &infos, &abbr, owners, &parameter_ids);
    stats.response_concepts = concept_stats.0;
    stats.parameter_concepts = concept_stats.1;
    stats.aliases = concepts
        .iter()
        .map(|c| c.aliases.values().map(Vec::len).sum::<usize>())
        .sum();
    let identity: Vec<usize> = (0..sorted.len()).collect();
    let (groups, intents) = groups_and_intents(&mut sorted, &infos, &identity, owners);
    stats.groups = groups.len();
    stats.intents = intents.len();
    let derived_concepts: BTreeSet<String> = concepts.iter().map(|c| c.id.value.clone()).collect();
    for t in &sorted {
        for e in &t.endpoints {
            stats.fields_with_concepts += e
                .value
                .fields
                .iter()
                .filter(|f| {
                    f.value
                        .concepts
                        .iter()
                        .any(|c| derived_concepts.contains(&c.value))
                })
                .count();
            stats.bindings += e
                .value
                .parameters
                .iter()
                .filter(|p| {
                    p.value
                        .bind
                        .iter()
                        .any(|b| derived_concepts.contains(&b.value.concept.value))
                })
                .count();
        }
    }
    // Back to the order the tools were given in.
    let mut out: Vec<Option<Tool>> = vec![None; tools.len()];
    for (pos, t) in order.iter().zip(sorted) {
        out[*pos] = Some(t);
    }
    let mut tools: Vec<Tool> = out.into_iter().flatten().collect();
    for (t, old) in tools.iter_mut().zip(&before) {
        restore_dangling(t, old, owners, &derived_concepts);
    }
    Layer {
        tools,
        concepts,
        groups,
        intents,
        stats,
    }
}

/// Two response concepts whose ids differ only by case or separators, or are equal (a key of
/// one class and another key's class-qualified id, both `mode_text`), would be one concept
/// declared twice: the later ones (in id order, then by their first field) get `_2`, `_3`, ...,
/// skipping ids a person's concepts hold.
fn unique_ids(concepts: &mut [concepts::Proposed], taken_by_person: impl Fn(&str) -> bool) {
    concepts.sort_by(|a, b| a.id.cmp(&b.id).then_with(|| a.fields.cmp(&b.fields)));
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for c in concepts.iter_mut() {
        if seen.insert(normalise_id(&c.id)) {
            continue;
        }
        let base = c.id.clone();
        let mut n = 2;
        while taken_by_person(&format!("{base}_{n}"))
            || !seen.insert(normalise_id(&format!("{base}_{n}")))
        {
            n += 1;
        }
        c.id = format!("{base}_{n}");
    }
}

/// Propose response and parameter concepts, put them on fields and parameters, settle their
/// aliases; returns the marked concepts and the (response, parameter) counts.
fn settle_concepts(
    project: &Project,
    tools: &mut [Tool],
    infos: &[Vec<endpoints::EndpointInfo>],
    abbr: &concepts::Abbreviations,
    owners: &Owners,
    parameter_ids: &BTreeSet<String>,
) -> (Vec<Concept>, (usize, usize)) {
    let response = concepts::response(tools, infos, abbr, |(t, e, f)| {
        tools[t].endpoints[e].value.fields[f]
            .value
            .concepts
            .is_empty()
    });
    let params = concepts::parameters(tools, abbr, |(t, e, p)| {
        let p = &tools[t].endpoints[e].value.parameters[p].value;
        !p.is_auth() && p.bind.is_empty()
    });
    let person = |id: &str| owners.concept_taken(id) == Some(Owner::Person);
    // A response concept whose id a person's parameter concept holds is derived under
    // `<id>_2` (`_3`, ...): the field cannot carry the person's concept (SR105).
    let mut kept: Vec<concepts::Proposed> = response
        .into_iter()
        .filter_map(|mut c| {
            if parameter_ids.contains(&normalise_id(&c.id)) {
                let base = c.id.clone();
                let mut n = 2;
                while person(&format!("{base}_{n}")) {
                    n += 1;
                }
                c.id = format!("{base}_{n}");
            }
            (!person(&c.id)).then_some(c)
        })
        .collect();
    unique_ids(&mut kept, person);
    let mut by_id: BTreeMap<String, usize> = kept
        .iter()
        .enumerate()
        .map(|(i, c)| (normalise_id(&c.id), i))
        .collect();
    for p in params {
        if person(&p.id) {
            continue;
        }
        match by_id.get(&normalise_id(&p.id)) {
            Some(&i) => {
                kept[i].params.extend(p.params.iter().copied());
                for (a, n) in &p.aliases {
                    *kept[i].aliases.entry(a.clone()).or_default() += n;
                }
            }
            None => {
                by_id.insert(normalise_id(&p.id), kept.len());
                kept.push(p);
            }
        }
    }
    kept.sort_by(|a, b| a.id.cmp(&b.id));
    // Put them on fields and parameters.
    for c in &kept {
        for &(t, e, f) in &c.fields {
            tools[t].endpoints[e].value.fields[f]
                .value
                .concepts
                .push(Sp::synthetic(c.id.clone()));
        }
        for &(t, e, p) in &c.params {
            tools[t].endpoints[e].value.parameters[p]
                .value
                .bind
                .push(Sp::synthetic(Binding {
                    concept: Sp::synthetic(c.id.clone()),
                    template: None,
                    set: BTreeMap::new(),
                }));
        }
    }
    let field_names: Vec<(&str, Vec<String>)> = tools
        .iter()
        .flat_map(|t| t.endpoints.iter())
        .flat_map(|e| e.value.fields.iter())
        .map(|f| {
            (
                f.value.name.value.as_str(),
                f.value.concepts.iter().map(|c| c.value.clone()).collect(),
            )
        })
        .collect();
    let taken = aliases::Taken::new(project, person, field_names.into_iter());
    let ids: Vec<String> = kept.iter().map(|c| c.id.clone()).collect();
    let cands: Vec<aliases::Candidates> = kept.iter().map(|c| c.aliases.clone()).collect();
    let settled = aliases::settle(&ids, &cands, &taken);
    let mut counts = (0, 0);
    let mut out = Vec::new();
    for (c, al) in kept.into_iter().zip(settled) {
        let parameter = c.fields.is_empty();
        if parameter {
            counts.1 += 1;
        } else {
            counts.0 += 1;
        }
        if owners.concept_taken(&c.id) == Some(Owner::Edited) {
            // A person edited the entry: theirs stays, fields still point at it.
            continue;
        }
        let description = most_common(&c.descriptions).map(|d| intents::cut(&d, 30));
        out.push(owner::mark_concept(Concept {
            id: Sp::synthetic(c.id),
            kind: parameter.then(|| Sp::synthetic(ConceptKind::Parameter)),
            unit: None,
            dimension: None,
            aliases: al
                .into_iter()
                .map(|(k, v)| (k, v.into_iter().map(Sp::synthetic).collect()))
                .collect(),
            description: description.map(Sp::synthetic),
            companions: Vec::new(),
            derived: None,
        }));
    }
    (out, counts)
}

/// Cluster endpoints into groups and intents, put the groups on fields; returns the marked
/// groups and intents.
fn groups_and_intents(
    tools: &mut [Tool],
    infos: &[Vec<endpoints::EndpointInfo>],
    order: &[usize],
    owners: &Owners,
) -> (Vec<FieldGroup>, Vec<Intent>) {
    let taken = |id: &str, map: &BTreeMap<String, Owner>| {
        map.get(&normalise_id(id)) == Some(&Owner::Person)
    };
    let clusters: Vec<intents::Cluster> = intents::clusters(tools, infos, order)
        .into_iter()
        .filter(|c| !taken(&c.id, &owners.groups))
        .collect();
    let mut groups = Vec::new();
    let mut summaries: Vec<Vec<Option<String>>> = Vec::new();
    let mut tool_of: Vec<BTreeSet<usize>> = Vec::new();
    for c in &clusters {
        for &(t, e) in &c.endpoints {
            for f in &mut tools[t].endpoints[e].value.fields {
                f.value.groups.push(Sp::synthetic(c.id.clone()));
            }
        }
        summaries.push(
            c.endpoints
                .iter()
                .map(|&(t, e)| infos[t][e].summary.clone())
                .collect(),
        );
        tool_of.push(c.endpoints.iter().map(|(t, _)| *t).collect());
        if owners.groups.get(&normalise_id(&c.id)) != Some(&Owner::Edited) {
            groups.push(owner::mark_group(FieldGroup {
                id: Sp::synthetic(c.id.clone()),
                description: Some(Sp::synthetic(format!(
                    "What the endpoints that {} {} return.",
                    c.action.verb(),
                    c.resource.join(" ")
                ))),
                core: intents::core(tools, c)
                    .into_iter()
                    .map(Sp::synthetic)
                    .collect(),
                derived: None,
            }));
        }
    }
    let tool_ids: Vec<String> = tools.iter().map(|t| t.id.value.clone()).collect();
    let planned = intents::plan(
        &clusters,
        &tool_of,
        &tool_ids,
        &summaries,
        intents::MAX_INTENTS,
    );
    let mut out = Vec::new();
    for p in planned {
        let id = normalise_id(&p.id);
        if taken(&p.id, &owners.intents) || owners.intents.get(&id) == Some(&Owner::Edited) {
            continue;
        }
        let mut domains: Vec<String> = p
            .members
            .iter()
            .flat_map(|m| tool_of[*m].iter())
            .map(|t| tools[*t].domain.value.clone())
            .collect();
        domains.sort();
        domains.dedup();
        let all: Vec<Option<String>> = p
            .members
            .iter()
            .flat_map(|m| summaries[*m].iter().cloned())
            .collect();
        out.push(owner::mark_intent(Intent {
            id: Sp::synthetic(p.id.clone()),
            description: Sp::synthetic(p.description),
            domains: domains.into_iter().map(Sp::synthetic).collect(),
            required_groups: p
                .members
                .iter()
                .map(|m| Sp::synthetic(clusters[*m].id.clone()))
                .collect(),
            examples: intents::examples(&all)
                .into_iter()
                .map(Sp::synthetic)
                .collect(),
            entities: Vec::new(),
            derived: None,
        }));
    }
    (groups, out)
}
