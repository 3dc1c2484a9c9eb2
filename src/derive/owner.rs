//! Who owns a concept-layer entry: the deriver or a person.
//!
//! `derive` marks every concept, field group and intent it writes with `derived:
//! blake3:<hex>`, the digest of the entry as written (the entry serialised without the mark).
//! Reading a project back:
//!
//! - an entry in the derived file whose content still matches its digest is the deriver's
//!   ([`Owner::Derived`]): the next derivation replaces it;
//! - an entry in the derived file whose content no longer matches its digest was edited by a
//!   person ([`Owner::Edited`]): it is kept as it is, and fields are still attached to it by the
//!   derivation;
//! - an entry without the mark, or one declared in another file, is a person's
//!   ([`Owner::Person`]): the deriver never writes an entry of that id, and never adds or removes
//!   a reference to it on fields and parameters.

use crate::model::{Concept, FieldGroup, Intent, Project, Sp, normalise_id};
use crate::source::FileId;
use std::collections::{BTreeMap, BTreeSet};

/// Who owns an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Written by the deriver and unchanged since.
    Derived,
    /// Written by the deriver, then edited by a person (content and digest differ).
    Edited,
    /// A person's.
    Person,
}

/// The digest that marks a derived entry ([`crate::model::derived_digest`]).
pub fn digest<T: serde::Serialize>(entry: &T) -> String {
    crate::model::derived_digest(entry)
}

/// Mark a concept as derived (its digest computed without the mark).
pub fn mark_concept(mut c: Concept) -> Concept {
    c.derived = None;
    c.derived = Some(Sp::synthetic(digest(&c)));
    c
}

/// Mark a field group as derived.
pub fn mark_group(mut g: FieldGroup) -> FieldGroup {
    g.derived = None;
    g.derived = Some(Sp::synthetic(digest(&g)));
    g
}

/// Mark an intent as derived.
pub fn mark_intent(mut i: Intent) -> Intent {
    i.derived = None;
    i.derived = Some(Sp::synthetic(digest(&i)));
    i
}

fn owner_of<T: serde::Serialize>(
    mark: Option<&Sp<String>>,
    entry: &T,
    in_derived_file: bool,
) -> Owner {
    match mark {
        Some(m) if in_derived_file => {
            if digest(entry) == m.value {
                Owner::Derived
            } else {
                Owner::Edited
            }
        }
        _ => Owner::Person,
    }
}

/// The owners of a project's concept-layer entries, by normalised id.
#[derive(Debug, Default)]
pub struct Owners {
    /// Concepts.
    pub concepts: BTreeMap<String, Owner>,
    /// Field groups.
    pub groups: BTreeMap<String, Owner>,
    /// Intents.
    pub intents: BTreeMap<String, Owner>,
}

impl Owners {
    /// Read from a project; `derived_files` are the files the deriver writes.
    pub fn of(p: &Project, derived_files: &BTreeSet<FileId>) -> Owners {
        let mut o = Owners::default();
        // A person's declaration of an id anywhere wins over a derived one of the same id.
        fn put(map: &mut BTreeMap<String, Owner>, id: &str, owner: Owner) {
            let e = map.entry(normalise_id(id)).or_insert(owner);
            if owner == Owner::Person {
                *e = Owner::Person;
            }
        }
        for c in &p.concepts {
            let inside = derived_files.contains(&c.file);
            let owner = owner_of(c.item.derived.as_ref(), &c.item.value, inside);
            put(&mut o.concepts, &c.item.id.value, owner);
        }
        for g in &p.groups {
            let inside = derived_files.contains(&g.file);
            let owner = owner_of(g.item.derived.as_ref(), &g.item.value, inside);
            put(&mut o.groups, &g.item.id.value, owner);
        }
        for i in &p.intents {
            let inside = derived_files.contains(&i.file);
            let owner = owner_of(i.item.derived.as_ref(), &i.item.value, inside);
            put(&mut o.intents, &i.item.id.value, owner);
        }
        o
    }

    /// Whether references to this concept on fields and parameters are the deriver's to manage.
    pub fn concept_managed(&self, id: &str) -> bool {
        matches!(
            self.concepts.get(&normalise_id(id)),
            Some(Owner::Derived | Owner::Edited)
        )
    }

    /// Whether references to this group on fields are the deriver's to manage.
    pub fn group_managed(&self, id: &str) -> bool {
        matches!(
            self.groups.get(&normalise_id(id)),
            Some(Owner::Derived | Owner::Edited)
        )
    }

    /// Whether a concept id is a person's (or an edited derived entry the deriver must keep).
    pub fn concept_taken(&self, id: &str) -> Option<Owner> {
        self.concepts.get(&normalise_id(id)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_ignores_the_mark_and_sees_an_edit() {
        let c = Concept {
            id: Sp::synthetic("stock_price".into()),
            kind: None,
            unit: None,
            dimension: None,
            aliases: BTreeMap::from([(
                "en".to_string(),
                vec![Sp::synthetic("stock prices".to_string())],
            )]),
            description: None,
            companions: Vec::new(),
            derived: None,
        };
        let marked = mark_concept(c.clone());
        let d = marked.derived.clone().unwrap().value;
        assert_eq!(d, digest(&c));
        assert!(d.starts_with("blake3:") && d.len() == 19, "{d}");
        assert_eq!(
            owner_of(marked.derived.as_ref(), &marked, true),
            Owner::Derived
        );
        let mut edited = marked.clone();
        edited
            .aliases
            .get_mut("en")
            .unwrap()
            .push(Sp::synthetic("share price".into()));
        assert_eq!(
            owner_of(edited.derived.as_ref(), &edited, true),
            Owner::Edited
        );
        assert_eq!(
            owner_of(marked.derived.as_ref(), &marked, false),
            Owner::Person
        );
        assert_eq!(owner_of(None, &c, true), Owner::Person);
    }
}
