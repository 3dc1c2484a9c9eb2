//! Renamed concepts, field groups and intents: a declaration removed under one id and added
//! under another with the same content is one rename, not a removal plus many additions.
//!
//! The evidence is the content a consumer relies on, as for renamed response fields (same
//! concepts, unit and type): a concept's kind and unit (or dimension) must agree, and it is
//! paired by its alias texts, the fields that carry it and the parameters that bind from it (its
//! old id kept as an alias of the new concept counts as shared); a field group by its member
//! fields and core concepts; an intent (whose domains must agree) by its required groups, entity
//! kinds and example queries. Each kind's evidence is a set, and a
//! removed and an added declaration are one rename when their sets overlap by at least half
//! (Jaccard index >= 0.5, so a rename with a small edit is still a rename) and each is the
//! other's single best match: two equally good candidates claim no rename, and the diff falls
//! back to a removal and additions. Concepts are paired first, then groups (whose core concepts
//! are compared under the concept renames), then intents (under both).

use crate::artifact::FrozenGraph;
use crate::model::normalise_alias;
use std::collections::{BTreeMap, BTreeSet};

/// The least Jaccard index of two declarations' evidence that makes them one rename.
pub const THRESHOLD: f64 = 0.5;

/// Old id -> new id, per kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renames {
    /// Renamed concepts.
    pub concepts: BTreeMap<String, String>,
    /// Renamed field groups.
    pub groups: BTreeMap<String, String>,
    /// Renamed intents.
    pub intents: BTreeMap<String, String>,
    /// Renamed tools (by overlap of their endpoints, fields and URLs).
    pub tools: BTreeMap<String, String>,
}

impl Renames {
    /// A concept id of the old side under its new-side id.
    pub fn concept<'a>(&'a self, id: &'a str) -> &'a str {
        self.concepts.get(id).map(String::as_str).unwrap_or(id)
    }

    /// A group id of the old side under its new-side id.
    pub fn group<'a>(&'a self, id: &'a str) -> &'a str {
        self.groups.get(id).map(String::as_str).unwrap_or(id)
    }

    /// The new ids of renamed old ids (old ids that were not renamed stay).
    pub fn concepts_of(&self, ids: &[String]) -> Vec<String> {
        ids.iter().map(|c| self.concept(c).to_string()).collect()
    }

    /// The new ids of renamed old group ids.
    pub fn groups_of(&self, ids: &[String]) -> Vec<String> {
        ids.iter().map(|g| self.group(g).to_string()).collect()
    }
}

/// What one declaration is recognised by.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Evidence {
    /// Must be equal for a rename (kind and unit of a concept, domains of an intent).
    key: String,
    /// Compared by overlap.
    items: BTreeSet<String>,
}

/// The Jaccard index of two evidence sets with equal keys (0 otherwise, or when either is empty).
fn score(a: &Evidence, b: &Evidence) -> f64 {
    if a.key != b.key || a.items.is_empty() || b.items.is_empty() {
        return 0.0;
    }
    let common = a.items.intersection(&b.items).count();
    let all = a.items.union(&b.items).count();
    common as f64 / all as f64
}

/// Pair removed with added declarations: each pair is the other's single best match with a score
/// of at least [`THRESHOLD`]. Deterministic: inputs are id-keyed ordered maps.
fn pair_up(
    removed: &BTreeMap<String, Evidence>,
    added: &BTreeMap<String, Evidence>,
) -> BTreeMap<String, String> {
    pair_up_by(removed, added, |_, re, _, ae| score(re, ae))
}

/// [`pair_up`] with a pairwise score.
fn pair_up_by(
    removed: &BTreeMap<String, Evidence>,
    added: &BTreeMap<String, Evidence>,
    score: impl Fn(&str, &Evidence, &str, &Evidence) -> f64,
) -> BTreeMap<String, String> {
    let scores: BTreeMap<(&str, &str), f64> = removed
        .iter()
        .flat_map(|(r, re)| {
            added
                .iter()
                .map(|(a, ae)| ((r.as_str(), a.as_str()), score(r, re, a, ae)))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut out = BTreeMap::new();
    for r in removed.keys() {
        let Some(a) = best(
            added
                .keys()
                .map(|a| (a.as_str(), scores[&(r.as_str(), a.as_str())])),
        ) else {
            continue;
        };
        let back = best(
            removed
                .keys()
                .map(|x| (x.as_str(), scores[&(x.as_str(), a)])),
        );
        if back == Some(r.as_str()) {
            out.insert(r.clone(), a.to_string());
        }
    }
    out
}

/// The single best candidate (highest score, no tie) when it reaches [`THRESHOLD`].
fn best<'a>(candidates: impl Iterator<Item = (&'a str, f64)>) -> Option<&'a str> {
    let mut top: Option<(&str, f64)> = None;
    let mut tied = false;
    for (o, s) in candidates {
        match top {
            Some((_, t)) if s < t => {}
            Some((_, t)) if s == t => tied = true,
            _ => {
                top = Some((o, s));
                tied = false;
            }
        }
    }
    match top {
        Some((o, s)) if s >= THRESHOLD && !tied => Some(o),
        _ => None,
    }
}

/// A concept's score: the old id kept as an alias of the new concept counts as a shared item.
fn concept_score(r: &str, re: &Evidence, _a: &str, ae: &Evidence) -> f64 {
    let kept = format!("alias:{}", normalise_alias(r));
    if !ae.items.contains(&kept) {
        return score(re, ae);
    }
    let mut re = re.clone();
    re.items.insert(kept);
    score(&re, ae)
}

/// `tool/endpoint/field` of every field, with the field.
fn fields(g: &FrozenGraph) -> impl Iterator<Item = (String, &crate::artifact::FieldData)> {
    g.tools.iter().flat_map(|t| {
        t.endpoints.iter().flat_map(move |e| {
            e.fields
                .iter()
                .map(move |f| (format!("{}/{}/{}", t.id, e.id, f.name), f))
        })
    })
}

/// Concept id -> its alias texts (normalised, own id excluded), carrying fields and binding
/// parameters, as evidence items.
fn concept_evidence(g: &FrozenGraph) -> BTreeMap<String, Evidence> {
    let mut m: BTreeMap<String, Evidence> = g
        .concepts
        .iter()
        .map(|c| {
            let key = format!(
                "{}|{}",
                c.kind,
                c.unit.as_deref().or(c.dimension.as_deref()).unwrap_or("")
            );
            (
                c.id.clone(),
                Evidence {
                    key,
                    items: BTreeSet::new(),
                },
            )
        })
        .collect();
    for (text, targets) in super::alias::alias_map(g) {
        for c in &targets.concepts {
            if let Some(e) = m.get_mut(c) {
                e.items.insert(format!("alias:{text}"));
            }
        }
    }
    for (path, f) in fields(g) {
        for c in &f.concepts {
            if let Some(e) = m.get_mut(c) {
                e.items.insert(format!("field:{path}"));
            }
        }
    }
    for t in &g.tools {
        for e in &t.endpoints {
            for p in &e.parameters {
                for b in &p.bind {
                    if let Some(ev) = m.get_mut(&b.concept) {
                        ev.items
                            .insert(format!("parameter:{}/{}/{}", t.id, e.id, p.name));
                    }
                }
            }
        }
    }
    m
}

/// Group id -> its member fields and core concepts (under `concept_of`).
fn group_evidence(
    g: &FrozenGraph,
    concept_of: &dyn Fn(&str) -> String,
) -> BTreeMap<String, Evidence> {
    let mut m: BTreeMap<String, Evidence> = g
        .groups
        .iter()
        .map(|gr| {
            let items = gr
                .core
                .iter()
                .map(|c| format!("core:{}", concept_of(c)))
                .collect();
            (
                gr.id.clone(),
                Evidence {
                    key: String::new(),
                    items,
                },
            )
        })
        .collect();
    for (path, f) in fields(g) {
        for gr in &f.groups {
            if let Some(e) = m.get_mut(gr) {
                e.items.insert(format!("field:{path}"));
            }
        }
    }
    m
}

/// Intent id -> its required groups and entity kinds (under the renames) and example queries;
/// its domains are the key.
fn intent_evidence(
    g: &FrozenGraph,
    group_of: &dyn Fn(&str) -> String,
    concept_of: &dyn Fn(&str) -> String,
) -> BTreeMap<String, Evidence> {
    g.intents
        .iter()
        .map(|i| {
            let mut domains = i.domains.clone();
            domains.sort();
            let mut items: BTreeSet<String> = i
                .required_groups
                .iter()
                .map(|x| format!("group:{}", group_of(x)))
                .collect();
            items.extend(
                i.entities
                    .iter()
                    .map(|x| format!("entity:{}", concept_of(x))),
            );
            items.extend(
                i.examples
                    .iter()
                    .map(|x| format!("example:{}", normalise_alias(x))),
            );
            (
                i.id.clone(),
                Evidence {
                    key: domains.join(","),
                    items,
                },
            )
        })
        .collect()
}

/// Keep the entries whose id is on one side only.
fn only(mine: BTreeMap<String, Evidence>, other: &BTreeSet<&str>) -> BTreeMap<String, Evidence> {
    mine.into_iter()
        .filter(|(id, _)| !other.contains(id.as_str()))
        .collect()
}

/// Find the renamed concepts, groups and intents between two graphs.
pub fn find(old: &FrozenGraph, new: &FrozenGraph) -> Renames {
    // Evidence is gathered only for a kind with ids on both sides only (the common case of no
    // removal costs one pass over the ids).
    let one_sided = |o: &BTreeSet<&str>, n: &BTreeSet<&str>| {
        o.difference(n).next().is_some() && n.difference(o).next().is_some()
    };
    let oc: BTreeSet<&str> = old.concepts.iter().map(|c| c.id.as_str()).collect();
    let nc: BTreeSet<&str> = new.concepts.iter().map(|c| c.id.as_str()).collect();
    let concepts = if one_sided(&oc, &nc) {
        pair_up_by(
            &only(concept_evidence(old), &nc),
            &only(concept_evidence(new), &oc),
            concept_score,
        )
    } else {
        BTreeMap::new()
    };
    let concept_of = |c: &str| concepts.get(c).cloned().unwrap_or_else(|| c.to_string());
    let same = |c: &str| c.to_string();
    let og: BTreeSet<&str> = old.groups.iter().map(|g| g.id.as_str()).collect();
    let ng: BTreeSet<&str> = new.groups.iter().map(|g| g.id.as_str()).collect();
    let groups = if one_sided(&og, &ng) {
        pair_up(
            &only(group_evidence(old, &concept_of), &ng),
            &only(group_evidence(new, &same), &og),
        )
    } else {
        BTreeMap::new()
    };
    let group_of = |g: &str| groups.get(g).cloned().unwrap_or_else(|| g.to_string());
    let oi: BTreeSet<&str> = old.intents.iter().map(|i| i.id.as_str()).collect();
    let ni: BTreeSet<&str> = new.intents.iter().map(|i| i.id.as_str()).collect();
    let intents = if one_sided(&oi, &ni) {
        pair_up(
            &only(intent_evidence(old, &group_of, &concept_of), &ni),
            &only(intent_evidence(new, &same, &same), &oi),
        )
    } else {
        BTreeMap::new()
    };
    let ot: BTreeSet<&str> = old.tools.iter().map(|t| t.id.as_str()).collect();
    let nt: BTreeSet<&str> = new.tools.iter().map(|t| t.id.as_str()).collect();
    let tools = if one_sided(&ot, &nt) {
        pair_up(
            &only(tool_evidence(old), &nt),
            &only(tool_evidence(new), &ot),
        )
    } else {
        BTreeMap::new()
    };
    Renames {
        concepts,
        groups,
        intents,
        tools,
    }
}

/// A tool's evidence: its domain must agree; it is recognised by its endpoints' ids, methods and
/// URLs and their fields' names (a tool renamed with the same API behind it shares nearly all).
fn tool_evidence(g: &FrozenGraph) -> BTreeMap<String, Evidence> {
    g.tools
        .iter()
        .map(|t| {
            let mut items = BTreeSet::new();
            for e in &t.endpoints {
                items.insert(format!("endpoint {} {} {}", e.id, e.method, e.url));
                for f in &e.fields {
                    items.insert(format!("field {}/{}", e.id, f.name));
                }
            }
            (
                t.id.clone(),
                Evidence {
                    key: t.domain.clone(),
                    items,
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(key: &str, items: &[&str]) -> Evidence {
        Evidence {
            key: key.into(),
            items: items.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn m(rows: &[(&str, Evidence)]) -> BTreeMap<String, Evidence> {
        rows.iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn pairs_the_single_best_match() {
        let r = m(&[("a", ev("", &["x", "y"]))]);
        let a = m(&[("b", ev("", &["x", "y"])), ("c", ev("", &["z"]))]);
        assert_eq!(pair_up(&r, &a), [("a".into(), "b".into())].into());
        // A small edit (2 of 3 shared) is still a rename.
        let a = m(&[("b", ev("", &["x", "y", "w"]))]);
        assert_eq!(pair_up(&r, &a).len(), 1);
        // Too little overlap, another key, or nothing to compare: no rename.
        let a = m(&[("b", ev("", &["x", "v", "w"]))]);
        assert!(pair_up(&r, &a).is_empty());
        let a = m(&[("b", ev("k", &["x", "y"]))]);
        assert!(pair_up(&r, &a).is_empty());
        assert!(pair_up(&m(&[("a", ev("", &[]))]), &m(&[("b", ev("", &[]))])).is_empty());
    }

    #[test]
    fn ties_claim_no_rename() {
        let r = m(&[("a", ev("", &["x", "y"]))]);
        let a = m(&[("b", ev("", &["x", "y"])), ("c", ev("", &["x", "y"]))]);
        assert!(pair_up(&r, &a).is_empty());
        let r = m(&[("a", ev("", &["x", "y"])), ("d", ev("", &["x", "y"]))]);
        let a = m(&[("b", ev("", &["x", "y"]))]);
        assert!(pair_up(&r, &a).is_empty());
    }
}
