//! Names of entities (recogniser kind `names`: `barium titanate` -> `BaTiO3`, `카페인` ->
//! `caffeine`). Names in the Latin script are whole words, looked up as runs of one to three
//! words (longest first; the words of one name separated by spaces or hyphens); names in other
//! scripts are found anywhere (a particle may follow: `카페인의`), longest first, and need two
//! letters. A recogniser reads no more names once a value of its concept, or of one of its
//! `unless` concepts, was read.

use super::{Extracted, Extraction, Recognisers, taken};
use crate::artifact::lexicon::RecogniserData;
use serde_json::Value;
use std::collections::HashMap;

/// Every `names` recogniser's names, indexed.
#[derive(Default)]
pub(super) struct NameIndex {
    /// Latin-script names (lower case, the words joined by one space) -> (value, recogniser):
    /// the first recogniser in artifact order that declares a name keeps it.
    latin: HashMap<String, (String, usize)>,
    /// Names in other scripts (lower case) with (value, recogniser), longest first.
    other: Vec<(String, String, usize)>,
    /// The `names` recognisers.
    readers: Vec<usize>,
}

impl NameIndex {
    /// Index the names of the `names` recognisers of `list`.
    pub(super) fn new(list: &[RecogniserData]) -> NameIndex {
        let mut index = NameIndex::default();
        for (at, r) in list.iter().enumerate().filter(|(_, r)| r.kind == "names") {
            index.readers.push(at);
            for (name, value) in &r.names {
                let lower = name.to_lowercase();
                if lower.is_ascii() {
                    let key = lower
                        .split(|c: char| !c.is_ascii_alphanumeric())
                        .filter(|w| !w.is_empty())
                        .collect::<Vec<_>>()
                        .join(" ");
                    index.latin.entry(key).or_insert((value.clone(), at));
                } else {
                    index.other.push((lower, value.clone(), at));
                }
            }
        }
        index
            .other
            .sort_by_key(|(n, _, _)| std::cmp::Reverse(n.chars().count()));
        index
    }
}

/// Whether recogniser `r` still reads: no value of its concept, nor of an `unless` concept (a
/// material id already names the entity; a name beside it only describes it).
fn wanted(r: &RecogniserData, out: &[Extracted]) -> bool {
    !out.iter()
        .any(|x| x.concept == r.concept || r.unless.contains(&x.concept))
}

/// Names in the Latin script: n-grams of words (longest first) looked up in the index.
pub(super) fn latin(rs: &Recognisers<'_>, lower: &str, x: &mut Extraction<'_>) {
    let index = &rs.names;
    if index.latin.is_empty() {
        return;
    }
    let words: Vec<(usize, usize)> = {
        let mut v = Vec::new();
        let mut start = None;
        for (i, ch) in lower.char_indices() {
            if ch.is_ascii_alphanumeric() {
                start.get_or_insert(i);
            } else if let Some(s0) = start.take() {
                v.push((s0, i));
            }
        }
        if let Some(s0) = start {
            v.push((s0, lower.len()));
        }
        v
    };
    'latin: for n in (1..=3).rev() {
        for w in words.windows(n) {
            let (s0, e0) = (w[0].0, w[n - 1].1);
            // Words of one name are separated by spaces or hyphens only.
            if w.windows(2)
                .any(|p| !lower[p[0].1..p[1].0].chars().all(|c| c == ' ' || c == '-'))
            {
                continue;
            }
            let key: String = w
                .iter()
                .map(|(a, b)| &lower[*a..*b])
                .collect::<Vec<_>>()
                .join(" ");
            if let Some((value, at)) = index.latin.get(key.as_str())
                && wanted(&rs.list[*at], &x.out)
                && !taken(&x.used, s0, e0)
            {
                x.push(&rs.list[*at].concept, Value::String(value.clone()), s0, e0);
                if !index.readers.iter().any(|&k| wanted(&rs.list[k], &x.out)) {
                    break 'latin;
                }
            }
        }
    }
}

/// Names in other scripts (Korean): substring search, longest first; a particle may follow.
pub(super) fn other(rs: &Recognisers<'_>, lower: &str, x: &mut Extraction<'_>) {
    let index = &rs.names;
    if !lower.is_ascii() {
        for (name, value, at) in &index.other {
            let r = &rs.list[*at];
            if !wanted(r, &x.out) {
                continue;
            }
            if let Some(s0) = lower.find(name.as_str()) {
                let e0 = s0 + name.len();
                let before_ok = s0 == 0
                    || !lower[..s0]
                        .chars()
                        .next_back()
                        .is_some_and(char::is_alphanumeric);
                if before_ok && name.chars().count() > 1 && !taken(&x.used, s0, e0) {
                    x.push(&r.concept, Value::String(value.clone()), s0, e0);
                }
            }
        }
    }
}
