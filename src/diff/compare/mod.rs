//! The comparison of two sides' compiled forms.
//!
//! Everything is keyed by id or name, so reordering files, keys or list items is never a
//! change; lists without meaningful order (names, groups, concepts, enum values, domains,
//! examples) compare as sets. A removed entity is reported once, not with all its children.
//! Each changed attribute of an entity is its own change with its own class.

mod alias;
pub mod rename;
mod tool;
pub mod value;

use super::entity as ent;
use super::model::{Change, Location, codes};
use super::side::Side;
use crate::artifact::NamedData;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use value::{UnitChange, UnitRef, json, s, set_json, show};

/// Collects changes with their locations.
pub(crate) struct Ctx<'a> {
    /// The old side.
    pub old: &'a Side,
    /// The new side.
    pub new: &'a Side,
    /// Concepts, groups and intents renamed between the sides.
    pub renames: rename::Renames,
    /// New entity path -> old entity path of renamed entities, so that their other changes are
    /// located on both sides.
    pub old_paths: BTreeMap<String, String>,
    /// Changes so far, unsorted.
    pub out: Vec<Change>,
}

impl Ctx<'_> {
    /// Record a change.
    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        code: &'static str,
        entity: &str,
        old: Option<Value>,
        new: Option<Value>,
        message: String,
        old_location: Option<Location>,
        new_location: Option<Location>,
    ) -> &mut Change {
        let mut c = Change::new(code, entity, old, new, message);
        c.old_location = old_location;
        c.new_location = new_location;
        self.out.push(c);
        self.out.last_mut().expect("just pushed")
    }

    /// The old side's path of an entity (differs for renamed entities and for the entities
    /// nested in a renamed tool: `tool/new/endpoint/e` is `tool/old/endpoint/e`).
    fn old_path<'p>(&'p self, entity: &'p str) -> std::borrow::Cow<'p, str> {
        if let Some(p) = self.old_paths.get(entity) {
            return std::borrow::Cow::Borrowed(p.as_str());
        }
        for (new, old) in &self.old_paths {
            if let Some(rest) = entity.strip_prefix(new.as_str())
                && rest.starts_with('/')
            {
                return std::borrow::Cow::Owned(format!("{old}{rest}"));
            }
        }
        std::borrow::Cow::Borrowed(entity)
    }

    /// Record a change of one attribute, located at the attribute on both sides.
    fn attr(
        &mut self,
        code: &'static str,
        entity: &str,
        attr: &str,
        old: Option<Value>,
        new: Option<Value>,
        message: String,
    ) -> &mut Change {
        let ol = self.old.locator.attr(&self.old_path(entity), Some(attr));
        let nl = self.new.locator.attr(entity, Some(attr));
        self.emit(code, entity, old, new, message, ol, nl)
    }

    /// Record a change of one item of a list attribute (a group of a field, an enum value).
    #[allow(clippy::too_many_arguments)]
    fn item(
        &mut self,
        code: &'static str,
        entity: &str,
        attr: &str,
        item: &str,
        old: Option<Value>,
        new: Option<Value>,
        message: String,
    ) -> &mut Change {
        let ol = self.old.locator.item(&self.old_path(entity), attr, item);
        let nl = self.new.locator.item(entity, attr, item);
        self.emit(code, entity, old, new, message, ol, nl)
    }

    /// Record a removal: located at the entity on the old side and at its nearest surviving
    /// parent on the new side.
    fn removed(
        &mut self,
        code: &'static str,
        entity: &str,
        parents: &[&str],
        old: Option<Value>,
        message: String,
    ) -> &mut Change {
        let ol = self.old.locator.attr(entity, None);
        let nl = self.new.locator.first(parents);
        self.emit(code, entity, old, None, message, ol, nl)
    }

    /// Record a rename: located at the old declaration on the old side and at the new one on the
    /// new side, under the old entity path.
    fn renamed(
        &mut self,
        code: &'static str,
        old_entity: &str,
        new_entity: &str,
        old_id: &str,
        new_id: &str,
        message: String,
    ) -> &mut Change {
        let ol = self.old.locator.attr(old_entity, None);
        let nl = self.new.locator.attr(new_entity, None);
        self.emit(code, old_entity, s(old_id), s(new_id), message, ol, nl)
    }

    /// Record an addition, located at the entity on the new side.
    fn added(
        &mut self,
        code: &'static str,
        entity: &str,
        parents: &[&str],
        new: Option<Value>,
        message: String,
    ) -> &mut Change {
        let ol = self.old.locator.first(parents);
        let nl = self.new.locator.attr(entity, None);
        self.emit(code, entity, None, new, message, ol, nl)
    }

    /// `description-changed` when the descriptions differ.
    fn description(&mut self, entity: &str, what: &str, old: Option<&str>, new: Option<&str>) {
        if old != new {
            self.attr(
                codes::DESCRIPTION_CHANGED,
                entity,
                "description",
                old.and_then(s),
                new.and_then(s),
                format!("description of {what} changed"),
            );
        }
    }

    /// A unit change of `entity` (a field or a concept).
    fn unit(&mut self, entity: &str, what: &str, old: Option<UnitRef>, new: Option<UnitRef>) {
        let oj = old.map(|u| Value::String(u.canonical.to_string()));
        let nj = new.map(|u| Value::String(u.canonical.to_string()));
        match (old, new) {
            (None, None) => {}
            (None, Some(n)) => {
                self.attr(
                    codes::UNIT_ADDED,
                    entity,
                    "unit",
                    None,
                    nj,
                    format!("{what} now declares unit {}", n.canonical),
                );
            }
            (Some(o), None) => {
                self.attr(
                    codes::UNIT_REMOVED,
                    entity,
                    "unit",
                    oj,
                    None,
                    format!(
                        "{what} no longer declares a unit (was {}); values lose their unit",
                        o.canonical
                    ),
                );
            }
            (Some(o), Some(n)) => {
                let dims = |u: UnitRef| u.dimension.map(|d| format!(" ({d})")).unwrap_or_default();
                match value::unit_change(o, &self.old.units, n, &self.new.units) {
                    None => {}
                    Some(UnitChange::Dimension) => {
                        self.attr(
                            codes::UNIT_CHANGED_DIMENSION,
                            entity,
                            "unit",
                            oj,
                            nj,
                            format!(
                                "unit of {what} changed from {}{} to {}{}: another dimension or basis, values are not comparable",
                                o.canonical,
                                dims(o),
                                n.canonical,
                                dims(n)
                            ),
                        );
                    }
                    Some(UnitChange::Shifted(conv)) => {
                        self.attr(
                            codes::UNIT_RESCALED,
                            entity,
                            "unit",
                            oj,
                            nj,
                            format!(
                                "unit of {what} changed from {} to {}{}: values change as absolute temperatures (new = old {}); consumers read the numbers in the old unit",
                                o.canonical,
                                n.canonical,
                                dims(n),
                                conv.describe()
                            ),
                        );
                    }
                    Some(UnitChange::Rescaled(factor)) => {
                        let how = match factor {
                            Some(f) => format!(
                                "values rescale by a factor of {} (new = old × {})",
                                super::model::format_factor(f),
                                super::model::format_factor(f)
                            ),
                            None => "values rescale by an unknown factor".to_string(),
                        };
                        let c = self.attr(
                            codes::UNIT_RESCALED,
                            entity,
                            "unit",
                            oj,
                            nj,
                            format!(
                                "unit of {what} changed from {} to {}{}: {how}; consumers read the numbers in the old unit",
                                o.canonical,
                                n.canonical,
                                dims(n)
                            ),
                        );
                        c.factor = factor;
                    }
                    Some(UnitChange::Respelled) => {
                        self.attr(
                            codes::UNIT_RESPELLED,
                            entity,
                            "unit",
                            oj,
                            nj,
                            format!(
                                "unit of {what} is now spelled {} (was {}); same unit, factor 1",
                                n.canonical, o.canonical
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// Set differences: (removed, added), each sorted.
pub(crate) fn set_diff<'a>(
    old: impl IntoIterator<Item = &'a String>,
    new: impl IntoIterator<Item = &'a String>,
) -> (Vec<&'a String>, Vec<&'a String>) {
    let o: BTreeSet<&String> = old.into_iter().collect();
    let n: BTreeSet<&String> = new.into_iter().collect();
    (
        o.difference(&n).copied().collect(),
        n.difference(&o).copied().collect(),
    )
}

/// Union of two id-keyed maps, in key order: (key, old, new).
pub(crate) fn pairs<'a, T>(
    old: impl IntoIterator<Item = (&'a str, &'a T)>,
    new: impl IntoIterator<Item = (&'a str, &'a T)>,
) -> Vec<(&'a str, Option<&'a T>, Option<&'a T>)> {
    let mut m: BTreeMap<&str, (Option<&T>, Option<&T>)> = BTreeMap::new();
    for (k, v) in old {
        m.entry(k).or_default().0.get_or_insert(v);
    }
    for (k, v) in new {
        m.entry(k).or_default().1.get_or_insert(v);
    }
    m.into_iter().map(|(k, (o, n))| (k, o, n)).collect()
}

/// Compare two sides; the changes come out sorted (class, entity, code, values).
pub fn compare(old: &Side, new: &Side) -> Vec<Change> {
    let renames = rename::find(&old.graph, &new.graph);
    let mut old_paths = BTreeMap::new();
    for (kind, map) in [
        (ent::concept as fn(&str) -> String, &renames.concepts),
        (ent::group, &renames.groups),
        (ent::intent, &renames.intents),
        (ent::tool, &renames.tools),
    ] {
        for (o, n) in map {
            old_paths.insert(kind(n), kind(o));
        }
    }
    let mut cx = Ctx {
        old,
        new,
        renames,
        old_paths,
        out: Vec::new(),
    };
    tool::tools(&mut cx);
    intents(&mut cx);
    named(&mut cx, Kind::Group);
    named(&mut cx, Kind::Domain);
    concepts(&mut cx);
    alias::aliases(&mut cx);
    let mut out = cx.out;
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    out.dedup_by(|a, b| a.fingerprint == b.fingerprint);
    out
}

fn intents(cx: &mut Ctx) {
    let og = &cx.old.graph;
    let ng = &cx.new.graph;
    let rows = pairs(
        og.intents.iter().map(|i| (i.id.as_str(), i)),
        ng.intents.iter().map(|i| (i.id.as_str(), i)),
    );
    let renames = cx.renames.intents.clone();
    let renamed_to: BTreeSet<&String> = renames.values().collect();
    for (id, o, n) in rows {
        let e = ent::intent(id);
        match (o, n) {
            (Some(o), None) => {
                if let Some(to) = renames.get(id) {
                    let Some(n) = ng.intents.iter().find(|i| i.id == *to) else {
                        continue;
                    };
                    let ne = ent::intent(to);
                    cx.renamed(
                        codes::INTENT_RENAMED,
                        &e,
                        &ne,
                        id,
                        to,
                        format!(
                            "intent `{id}` was renamed to `{to}` (same domains, matched by its required groups and examples); Understand outputs naming `{id}` now give not_understood plans, the prompt lists `{to}`"
                        ),
                    );
                    intent_attrs(cx, &ne, to, o, n);
                    continue;
                }
                cx.removed(
                    codes::INTENT_REMOVED,
                    &e,
                    &[],
                    s(id),
                    format!("intent `{id}` was removed"),
                );
            }
            (None, Some(_)) => {
                if renamed_to.contains(&id.to_string()) {
                    continue;
                }
                cx.added(
                    codes::INTENT_ADDED,
                    &e,
                    &[],
                    s(id),
                    format!("intent `{id}` was added"),
                );
            }
            (Some(o), Some(n)) => intent_attrs(cx, &e, id, o, n),
            (None, None) => {}
        }
    }
}

/// The attribute changes of one intent (`o` and `n` may have different ids when renamed; `e`
/// and `id` are the new side's).
fn intent_attrs(
    cx: &mut Ctx,
    e: &str,
    id: &str,
    o: &crate::artifact::IntentData,
    n: &crate::artifact::IntentData,
) {
    let old_groups = cx.renames.groups_of(&o.required_groups);
    let (rm, add) = set_diff(&old_groups, &n.required_groups);
    if !rm.is_empty() || !add.is_empty() {
        cx.attr(
            codes::INTENT_GROUPS_CHANGED,
            e,
            "required_groups",
            set_json(&old_groups),
            set_json(&n.required_groups),
            format!(
                "required groups of intent `{id}` changed from {} to {}",
                show(set_json(&old_groups).as_ref()),
                show(set_json(&n.required_groups).as_ref())
            ),
        );
    }
    let (rm, add) = set_diff(&o.domains, &n.domains);
    if !rm.is_empty() || !add.is_empty() {
        cx.attr(
            codes::INTENT_DOMAINS_CHANGED,
            e,
            "domains",
            set_json(&o.domains),
            set_json(&n.domains),
            format!(
                "domains of intent `{id}` changed from {} to {}",
                show(set_json(&o.domains).as_ref()),
                show(set_json(&n.domains).as_ref())
            ),
        );
    }
    cx.description(
        e,
        &format!("intent `{id}`"),
        Some(o.description.as_str()),
        Some(n.description.as_str()),
    );
    let (rm, add) = set_diff(&o.examples, &n.examples);
    if !rm.is_empty() || !add.is_empty() {
        cx.attr(
            codes::EXAMPLES_CHANGED,
            e,
            "examples",
            set_json(&o.examples),
            set_json(&n.examples),
            format!(
                "example queries of intent `{id}` changed ({} removed, {} added)",
                rm.len(),
                add.len()
            ),
        );
    }
}

/// Groups and domains: id and description only.
#[derive(Clone, Copy)]
enum Kind {
    Group,
    Domain,
}

/// What differs between groups and domains.
struct NamedKind {
    what: &'static str,
    removed: &'static str,
    added: &'static str,
    path: fn(&str) -> String,
}

fn named(cx: &mut Ctx, kind: Kind) {
    let (ol, nl, k): (&[NamedData], &[NamedData], NamedKind) = match kind {
        Kind::Group => (
            &cx.old.graph.groups,
            &cx.new.graph.groups,
            NamedKind {
                what: "group",
                removed: codes::GROUP_REMOVED,
                added: codes::GROUP_ADDED,
                path: ent::group,
            },
        ),
        Kind::Domain => (
            &cx.old.graph.domains,
            &cx.new.graph.domains,
            NamedKind {
                what: "domain",
                removed: codes::DOMAIN_REMOVED,
                added: codes::DOMAIN_ADDED,
                path: ent::domain,
            },
        ),
    };
    let what = k.what;
    let rows = pairs(
        ol.iter().map(|g| (g.id.as_str(), g)),
        nl.iter().map(|g| (g.id.as_str(), g)),
    );
    let renames = match kind {
        Kind::Group => cx.renames.groups.clone(),
        Kind::Domain => BTreeMap::new(),
    };
    let renamed_to: BTreeSet<&String> = renames.values().collect();
    for (id, o, n) in rows {
        let e = (k.path)(id);
        match (o, n) {
            (Some(o), None) => {
                if let Some(to) = renames.get(id)
                    && let Some(n) = nl.iter().find(|g| g.id == *to)
                {
                    let ne = (k.path)(to);
                    cx.renamed(
                        codes::GROUP_RENAMED,
                        &e,
                        &ne,
                        id,
                        to,
                        format!(
                            "{what} `{id}` was renamed to `{to}` (matched by its member fields and core concepts); Understand outputs never name groups, plans project the same fields and name `{to}` as their reason"
                        ),
                    );
                    cx.description(
                        &ne,
                        &format!("{what} `{to}`"),
                        o.description.as_deref(),
                        n.description.as_deref(),
                    );
                    continue;
                }
                cx.removed(
                    k.removed,
                    &e,
                    &[],
                    s(id),
                    format!("{what} `{id}` was removed"),
                );
            }
            (None, Some(_)) => {
                if renamed_to.contains(&id.to_string()) {
                    continue;
                }
                cx.added(k.added, &e, &[], s(id), format!("{what} `{id}` was added"));
            }
            (Some(o), Some(n)) => cx.description(
                &e,
                &format!("{what} `{id}`"),
                o.description.as_deref(),
                n.description.as_deref(),
            ),
            (None, None) => {}
        }
    }
}

fn concepts(cx: &mut Ctx) {
    let rows = pairs(
        cx.old.graph.concepts.iter().map(|c| (c.id.as_str(), c)),
        cx.new.graph.concepts.iter().map(|c| (c.id.as_str(), c)),
    );
    let renames = cx.renames.concepts.clone();
    let renamed_to: BTreeSet<&String> = renames.values().collect();
    let new_aliases = alias::alias_map(&cx.new.graph);
    for (id, o, n) in rows {
        let e = ent::concept(id);
        match (o, n) {
            (Some(o), None) => {
                if let Some(to) = renames.get(id)
                    && let Some(n) = cx.new.graph.concepts.iter().find(|c| c.id == *to)
                {
                    let ne = ent::concept(to);
                    let kept = new_aliases
                        .get(&crate::model::normalise_alias(id))
                        .is_some_and(|t| t.concepts.contains(to));
                    let (code, message) = if kept {
                        (
                            codes::CONCEPT_RENAMED_OLD_ID_KEPT,
                            format!(
                                "concept `{id}` was renamed to `{to}` (same kind and unit, matched by its aliases, fields and bindings) and `{id}` is kept as its alias: Understand outputs naming `{id}` still resolve, plans name `{to}`"
                            ),
                        )
                    } else {
                        (
                            codes::CONCEPT_RENAMED,
                            format!(
                                "concept `{id}` was renamed to `{to}` (same kind and unit, matched by its aliases, fields and bindings); Understand outputs naming `{id}` now give not_understood plans (keep `{id}` as an alias of `{to}` to keep them working)"
                            ),
                        )
                    };
                    cx.renamed(code, &e, &ne, id, to, message);
                    concept_attrs(cx, &ne, to, o, n);
                    continue;
                }
                cx.removed(
                    codes::CONCEPT_REMOVED,
                    &e,
                    &[],
                    s(id),
                    format!(
                        "concept `{id}` was removed{}",
                        alias::fate_of_aliases(cx, id)
                    ),
                );
            }
            (None, Some(_)) => {
                if renamed_to.contains(&id.to_string()) {
                    continue;
                }
                cx.added(
                    codes::CONCEPT_ADDED,
                    &e,
                    &[],
                    s(id),
                    format!("concept `{id}` was added"),
                );
            }
            (Some(o), Some(n)) => concept_attrs(cx, &e, id, o, n),
            (None, None) => {}
        }
    }
}

/// The attribute changes of one concept (`e` and `id` are the new side's).
fn concept_attrs(
    cx: &mut Ctx,
    e: &str,
    id: &str,
    o: &crate::artifact::ConceptData,
    n: &crate::artifact::ConceptData,
) {
    if o.kind != n.kind {
        cx.attr(
            codes::CONCEPT_KIND_CHANGED,
            e,
            "kind",
            s(&o.kind),
            s(&n.kind),
            format!(
                "concept `{id}` changed from a {} concept to a {} concept",
                o.kind, n.kind
            ),
        );
    }
    fn unit(c: &crate::artifact::ConceptData) -> Option<UnitRef<'_>> {
        c.unit.as_deref().map(|u| UnitRef {
            canonical: u,
            dimension: c.dimension.as_deref(),
        })
    }
    let what = format!("concept `{id}`");
    cx.unit(e, &what, unit(o), unit(n));
    if o.unit.is_none() && n.unit.is_none() && o.dimension != n.dimension {
        cx.attr(
            codes::CONCEPT_DIMENSION_CHANGED,
            e,
            "dimension",
            json(&o.dimension),
            json(&n.dimension),
            format!(
                "dimension of {what} changed from {} to {}",
                o.dimension.as_deref().unwrap_or("none declared"),
                n.dimension.as_deref().unwrap_or("none declared")
            ),
        );
    }
    cx.description(e, &what, o.description.as_deref(), n.description.as_deref());
}
