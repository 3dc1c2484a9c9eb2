//! The generated alias layer: concepts (per subject), their alias texts (never one text for
//! two concepts), and field aliases.

use super::emit::{ConceptDef, capitalise};
use super::rng::SplitMix64;
use super::vocab::{Kind, Prop, Subject};
use crate::model::normalise_alias;
use std::collections::{BTreeMap, BTreeSet};

/// Swap two adjacent interior letters of the longest word (a plausible typo).
pub(super) fn typo(text: &str, r: &mut SplitMix64) -> Option<String> {
    let words: Vec<&str> = text.split(' ').collect();
    let (wi, w) = words
        .iter()
        .enumerate()
        .max_by_key(|(i, w)| (w.chars().count(), std::cmp::Reverse(*i)))?;
    let chars: Vec<char> = w.chars().collect();
    if chars.len() < 5 {
        return None;
    }
    let i = 1 + r.below(chars.len() - 3);
    if chars[i] == chars[i + 1] {
        return None;
    }
    let mut c = chars.clone();
    c.swap(i, i + 1);
    let mut out: Vec<String> = words.iter().map(|s| s.to_string()).collect();
    out[wi] = c.into_iter().collect();
    Some(out.join(" "))
}

/// The alias layer: concepts by subject, and every normalised text in use.
pub(super) struct Aliases {
    pub(super) taken: BTreeSet<String>,
    pub(super) by_subject: BTreeMap<&'static str, Vec<ConceptDef>>,
    pub(super) known: BTreeSet<String>,
    pub(super) field_aliases: Vec<(String, String, String)>,
    pub(super) count: usize,
}

impl Aliases {
    pub(super) fn claim(&mut self, text: &str) -> bool {
        let k = normalise_alias(text);
        !k.is_empty() && self.taken.insert(k)
    }

    pub(super) fn add(&mut self, subject: &'static str, mut c: ConceptDef) {
        let mut kept = Vec::new();
        for (lang, text) in std::mem::take(&mut c.aliases) {
            if self.claim(&text) {
                kept.push((lang, text));
            }
        }
        self.count += kept.len();
        c.aliases = kept;
        self.known.insert(c.id.clone());
        self.by_subject.entry(subject).or_default().push(c);
    }
}

/// The unit, dimension line and field value type of a property kind.
pub(super) fn kind_unit(kind: Kind) -> (Option<String>, Option<&'static str>) {
    match kind {
        Kind::Quantity { canonical, .. } => (Some(canonical.to_string()), None),
        Kind::Ratio { .. } => (Some("1".into()), None),
        Kind::Count => (None, Some("count")),
        _ => (None, Some("none")),
    }
}

pub(super) fn kind_type(kind: Kind) -> &'static str {
    match kind {
        Kind::Quantity { .. } | Kind::Ratio { .. } => "number",
        Kind::Count => "integer",
        Kind::Text => "string",
        Kind::Flag => "boolean",
        Kind::Date => "date",
        Kind::DateTime => "datetime",
    }
}

pub(super) fn property_concept(
    subject: &Subject,
    prop: &Prop,
    r: &mut SplitMix64,
    a: &mut Aliases,
) -> String {
    let id = format!("{}_{}", subject.id, prop.id);
    if a.known.contains(&id) {
        return id;
    }
    a.claim(&id);
    let (unit, dimension) = kind_unit(prop.kind);
    let mut aliases = vec![("en", format!("{} {}", subject.words, prop.words))];
    for syn in prop.synonyms() {
        aliases.push(("en", format!("{} {syn}", subject.words)));
    }
    aliases.push(("en", format!("{} of the {}", prop.words, subject.entity)));
    if !prop.symbol.is_empty() {
        aliases.push(("sym", format!("{}_{}", prop.symbol, subject.id)));
    }
    if let Some(t) = typo(&format!("{} {}", subject.words, prop.words), r) {
        aliases.push(("typo", t));
    }
    let unit_note = match &unit {
        Some(u) if u != "1" => format!(" Canonical unit {u}."),
        _ => String::new(),
    };
    a.add(
        subject.id,
        ConceptDef {
            id: id.clone(),
            unit,
            dimension,
            aliases,
            description: format!(
                "{} of {} {}s.{unit_note}",
                capitalise(prop.words),
                subject.words,
                subject.entity
            ),
        },
    );
    id
}

/// Identity fields every tool has: (concept suffix, words, field names by style, kind).
pub(super) const IDENTITY: &[(&str, &str, [&str; 3], Kind)] = &[
    ("name", "name", ["name", "label", "title"], Kind::Text),
    (
        "summary",
        "description",
        ["description", "summary", "notes"],
        Kind::Text,
    ),
    (
        "updated",
        "update time",
        ["updated_at", "last_modified", "modified"],
        Kind::DateTime,
    ),
    ("link", "page link", ["url", "link", "href"], Kind::Text),
];

pub(super) fn identity_concept(subject: &Subject, which: usize, a: &mut Aliases) -> String {
    let (suffix, words, _, kind) = IDENTITY[which];
    let id = format!("{}_{suffix}", subject.id);
    if a.known.contains(&id) {
        return id;
    }
    a.claim(&id);
    let (unit, dimension) = kind_unit(kind);
    let aliases = vec![
        (
            "en",
            format!("{} {} {words}", subject.words, subject.entity),
        ),
        (
            "en",
            format!("{words} of the {} {}", subject.words, subject.entity),
        ),
    ];
    a.add(
        subject.id,
        ConceptDef {
            id: id.clone(),
            unit,
            dimension,
            aliases,
            description: format!(
                "The {words} of a {} {} record.",
                subject.words, subject.entity
            ),
        },
    );
    id
}

pub(super) fn reference_concept(subject: &Subject, a: &mut Aliases) -> String {
    let id = format!("{}_reference", subject.id);
    if a.known.contains(&id) {
        return id;
    }
    a.claim(&id);
    a.add(
        subject.id,
        ConceptDef {
            id: id.clone(),
            unit: None,
            dimension: Some("none"),
            aliases: vec![
                ("en", format!("{} source reference", subject.words)),
                ("en", format!("{} reference doi", subject.words)),
            ],
            description: format!(
                "The publication a {} {} value comes from.",
                subject.words, subject.entity
            ),
        },
    );
    id
}
