//! The alias layer, compared as the router sees it: every normalised alias text (a concept's
//! alias or a stand-alone alias; not a concept's own id) with the concepts and exact fields it
//! means. Which language list an alias sits in, and where it is declared, is not a change. The
//! aliases of a removed (added) concept or field are reported with it, not one by one: a removed
//! concept's message names each of its aliases as removed or re-pointed, and an alias that now
//! means another concept is also an `alias-repointed` change of its own.

use super::{Ctx, pairs};
use crate::artifact::FrozenGraph;
use crate::diff::entity as ent;
use crate::diff::model::codes;
use crate::model::normalise_alias;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// What one alias text means.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Targets {
    /// Concept ids.
    pub concepts: BTreeSet<String>,
    /// Field paths `tool/endpoint/field`.
    pub fields: BTreeSet<String>,
}

impl Targets {
    fn to_json(&self) -> Value {
        json!({"concepts": self.concepts, "fields": self.fields})
    }

    fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .concepts
            .iter()
            .map(|c| format!("concept `{c}`"))
            .collect();
        parts.extend(self.fields.iter().map(|f| format!("field `{f}`")));
        if parts.is_empty() {
            "nothing".to_string()
        } else {
            parts.join(", ")
        }
    }
}

/// Alias text -> targets, from the artifact's indices.
pub(crate) fn alias_map(g: &FrozenGraph) -> BTreeMap<String, Targets> {
    let mut m: BTreeMap<String, Targets> = BTreeMap::new();
    for (text, concepts) in &g.index.alias_to_concept {
        let t = m.entry(text.clone()).or_default();
        for c in concepts {
            if normalise_alias(c) != *text {
                t.concepts.insert(c.clone());
            }
        }
    }
    for (text, keys) in &g.index.alias_to_field {
        let t = m.entry(text.clone()).or_default();
        for k in keys {
            let tool = &g.tools[k.tool as usize];
            let ep = &tool.endpoints[k.endpoint as usize];
            let f = &ep.fields[k.field as usize];
            t.fields.insert(format!("{}/{}/{}", tool.id, ep.id, f.name));
        }
    }
    m.retain(|_, t| !t.concepts.is_empty() || !t.fields.is_empty());
    m
}

/// Every field path of a graph.
fn field_paths(g: &FrozenGraph) -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    for t in &g.tools {
        for e in &t.endpoints {
            for f in &e.fields {
                s.insert(format!("{}/{}/{}", t.id, e.id, f.name));
            }
        }
    }
    s
}

pub(super) fn aliases(cx: &mut Ctx) {
    // Old targets under the new ids of renamed concepts and tools: a rename re-points no alias.
    let mut om = alias_map(&cx.old.graph);
    for t in om.values_mut() {
        t.concepts = t
            .concepts
            .iter()
            .map(|c| cx.renames.concept(c).to_string())
            .collect();
        t.fields = t
            .fields
            .iter()
            .map(|f| match f.split_once('/') {
                Some((tool, rest)) if cx.renames.tools.contains_key(tool) => {
                    format!("{}/{rest}", cx.renames.tools[tool])
                }
                _ => f.clone(),
            })
            .collect();
    }
    let nm = alias_map(&cx.new.graph);
    // On the old side a concept's own id resolves to it. When a renamed concept keeps its old id
    // as an alias, that text still means the concept: not a change (the rename reports it).
    for (o, n) in &cx.renames.concepts {
        let text = normalise_alias(o);
        if nm.get(&text).is_some_and(|t| t.concepts.contains(n)) {
            om.entry(text).or_default().concepts.insert(n.clone());
        }
    }
    let new_fields = field_paths(&cx.new.graph);
    let new_concepts: BTreeSet<&str> = cx
        .new
        .graph
        .concepts
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    let old_fields: BTreeSet<String> = field_paths(&cx.old.graph)
        .into_iter()
        .map(|f| match f.split_once('/') {
            Some((tool, rest)) if cx.renames.tools.contains_key(tool) => {
                format!("{}/{rest}", cx.renames.tools[tool])
            }
            _ => f,
        })
        .collect();
    let old_concepts: BTreeSet<String> = cx
        .old
        .graph
        .concepts
        .iter()
        .map(|c| cx.renames.concept(&c.id).to_string())
        .collect();
    // A target that no longer exists on the new side is reported with the target itself.
    let survives = |t: &Targets| Targets {
        concepts: t
            .concepts
            .iter()
            .filter(|c| new_concepts.contains(c.as_str()))
            .cloned()
            .collect(),
        fields: t
            .fields
            .iter()
            .filter(|f| new_fields.contains(*f))
            .cloned()
            .collect(),
    };
    for (text, o, n) in pairs(
        om.iter().map(|(k, v)| (k.as_str(), v)),
        nm.iter().map(|(k, v)| (k.as_str(), v)),
    ) {
        let e = ent::alias(text);
        let shown = cx
            .new
            .locator
            .alias_text(text)
            .or_else(|| cx.old.locator.alias_text(text))
            .unwrap_or(text)
            .to_string();
        let text = shown.as_str();
        match (o, n) {
            (Some(o), None) => {
                let alive = survives(o);
                if alive.concepts.is_empty() && alive.fields.is_empty() {
                    continue;
                }
                cx.removed(
                    codes::ALIAS_REMOVED,
                    &e,
                    &[],
                    Some(o.to_json()),
                    format!(
                        "alias `{text}` was removed (it meant {}); queries using it may stop resolving",
                        o.describe()
                    ),
                );
            }
            (None, Some(n)) => {
                // The aliases of a new concept (or of a new field) come with it.
                let known = n.concepts.iter().any(|c| old_concepts.contains(c))
                    || n.fields.iter().any(|f| old_fields.contains(f));
                if !known {
                    continue;
                }
                cx.added(
                    codes::ALIAS_ADDED,
                    &e,
                    &[],
                    Some(n.to_json()),
                    format!("alias `{text}` was added (it means {})", n.describe()),
                );
            }
            (Some(o), Some(n)) if o != n => {
                let lost = Targets {
                    concepts: o.concepts.difference(&n.concepts).cloned().collect(),
                    fields: o.fields.difference(&n.fields).cloned().collect(),
                };
                let gained = Targets {
                    concepts: n.concepts.difference(&o.concepts).cloned().collect(),
                    fields: n.fields.difference(&o.fields).cloned().collect(),
                };
                let gained_any = !gained.concepts.is_empty() || !gained.fields.is_empty();
                // A meaning lost because its concept or field was removed counts when the alias
                // now means something else: it was re-pointed, not merely extended.
                let lost_raw_any = !lost.concepts.is_empty() || !lost.fields.is_empty();
                let lost = survives(&lost);
                let lost_any = !lost.concepts.is_empty()
                    || !lost.fields.is_empty()
                    || (gained_any && lost_raw_any);
                let (code, msg) = match (lost_any, gained_any) {
                    (true, true) => (
                        codes::ALIAS_REPOINTED,
                        format!(
                            "alias `{text}` now means {} (it meant {})",
                            n.describe(),
                            o.describe()
                        ),
                    ),
                    (true, false) => (
                        codes::ALIAS_TARGET_REMOVED,
                        format!(
                            "alias `{text}` no longer means {} (it still means {})",
                            lost.describe(),
                            n.describe()
                        ),
                    ),
                    (false, true) => (
                        codes::ALIAS_TARGET_ADDED,
                        format!(
                            "alias `{text}` now also means {} (it meant {})",
                            gained.describe(),
                            o.describe()
                        ),
                    ),
                    (false, false) => continue,
                };
                let ol = cx.old.locator.attr(&e, None);
                let nl = cx.new.locator.attr(&e, None);
                cx.emit(code, &e, Some(o.to_json()), Some(n.to_json()), msg, ol, nl);
            }
            _ => {}
        }
    }
}

/// What became of the aliases of concept `id`, removed on the new side: "its aliases: `gap`
/// removed, `eg` re-pointed to concept `fermi_energy`" (empty when it had none).
pub(super) fn fate_of_aliases(cx: &Ctx, id: &str) -> String {
    let om = alias_map(&cx.old.graph);
    let nm = alias_map(&cx.new.graph);
    let parts: Vec<String> = om
        .iter()
        .filter(|(_, t)| t.concepts.contains(id))
        .map(|(text, _)| {
            let shown = cx.old.locator.alias_text(text).unwrap_or(text);
            match nm.get(text) {
                Some(n) => format!("`{shown}` re-pointed to {}", n.describe()),
                None => format!("`{shown}` removed"),
            }
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("; its aliases: {}", parts.join(", "))
    }
}
