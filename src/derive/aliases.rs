//! Settling the aliases of derived concepts: each concept keeps its candidates that lead to it
//! alone. A text is dropped when it is the concept's own id (every id is an alias of itself),
//! when another concept (derived or a person's) has it as id or alias, when two derived concepts
//! propose it, or when it is the name of a field that carries another concept (rule
//! `alias-shadows-field`); duplicates after normalisation go too. At most eight aliases a
//! concept, the most often seen first; per language (`en`, or `zh` / `ja` / `ko` for text in
//! those scripts).

use super::terms::{lang_of, plural};
use crate::model::{Project, normalise_alias, normalise_id};
use std::collections::{BTreeMap, BTreeSet};

/// Most aliases a derived concept keeps.
const MAX_ALIASES: usize = 8;

/// A concept's candidates: alias text and how often it was seen.
pub type Candidates = BTreeMap<String, usize>;

/// The texts that lead elsewhere: every concept id and alias of the person's concepts, with the
/// concept each leads to; and every field name (full path and last segment) with the concepts
/// its fields carry.
pub struct Taken {
    person: BTreeMap<String, String>,
    fields: BTreeMap<String, BTreeSet<String>>,
}

impl Taken {
    /// From the project's person-owned concepts and stand-alone aliases, and the fields of the
    /// derived tools with the concepts they will carry (`(name, concepts)` pairs).
    pub fn new<'a>(
        p: &Project,
        person: impl Fn(&str) -> bool,
        fields: impl Iterator<Item = (&'a str, Vec<String>)>,
    ) -> Taken {
        let mut t = Taken {
            person: BTreeMap::new(),
            fields: BTreeMap::new(),
        };
        for c in &p.concepts {
            if !person(&c.item.id.value) {
                continue;
            }
            let id = c.item.id.value.clone();
            t.person.insert(normalise_alias(&id), id.clone());
            for texts in c.item.aliases.values() {
                for a in texts {
                    t.person.insert(normalise_alias(&a.value), id.clone());
                }
            }
        }
        for a in &p.aliases {
            if let Some(c) = &a.item.concept {
                t.person
                    .insert(normalise_alias(&a.item.text.value), c.value.clone());
            }
        }
        for (name, concepts) in fields {
            let plain = name.replace("[]", "");
            let leaf = plain.rsplit('.').next().unwrap_or(&plain).to_string();
            for key in [normalise_alias(&plain), normalise_alias(&leaf)] {
                t.fields
                    .entry(key)
                    .or_default()
                    .extend(concepts.iter().cloned());
            }
        }
        t
    }
}

/// The settled aliases of each derived concept (`ids[i]` with `candidates[i]`), per language.
pub fn settle(
    ids: &[String],
    candidates: &[Candidates],
    taken: &Taken,
) -> Vec<BTreeMap<String, Vec<String>>> {
    // Who proposes each text (ids count as their own concept's).
    let mut proposers: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for (i, id) in ids.iter().enumerate() {
        proposers.entry(normalise_alias(id)).or_default().insert(i);
    }
    let with_plurals: Vec<Candidates> = candidates
        .iter()
        .map(|c| {
            let mut all = c.clone();
            for (text, n) in c {
                if let Some((head, last)) = text.rsplit_once(' ').or(Some(("", text.as_str()))) {
                    let p = plural(last);
                    if p != last {
                        let t = if head.is_empty() {
                            p
                        } else {
                            format!("{head} {p}")
                        };
                        all.entry(t).or_insert(*n);
                    }
                }
            }
            all
        })
        .collect();
    for (i, c) in with_plurals.iter().enumerate() {
        for text in c.keys() {
            proposers
                .entry(normalise_alias(text))
                .or_default()
                .insert(i);
        }
    }
    let mut out = Vec::with_capacity(ids.len());
    for (i, id) in ids.iter().enumerate() {
        let own = normalise_id(id);
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut ranked: Vec<(&String, &usize)> = with_plurals[i].iter().collect();
        ranked.sort_by(|a, b| {
            b.1.cmp(a.1)
                .then(a.0.len().cmp(&b.0.len()))
                .then(a.0.cmp(b.0))
        });
        let mut by_lang: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut kept = 0;
        for (text, _) in ranked {
            let key = normalise_alias(text);
            let shadows = taken
                .fields
                .get(&key)
                .is_some_and(|cs| cs.iter().any(|c| c != id));
            if key.is_empty()
                || key == own
                || key.chars().count() < 2
                || key.chars().all(|c| c.is_ascii_digit() || c == '_')
                || taken.person.contains_key(&key)
                || proposers.get(&key).is_some_and(|p| p.len() > 1)
                || shadows
                || !seen.insert(key)
            {
                continue;
            }
            by_lang
                .entry(lang_of(text).to_string())
                .or_default()
                .push(text.clone());
            kept += 1;
            if kept == MAX_ALIASES {
                break;
            }
        }
        for v in by_lang.values_mut() {
            v.sort();
        }
        out.push(by_lang);
    }
    out
}
