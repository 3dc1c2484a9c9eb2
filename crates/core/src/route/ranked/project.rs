//! Which response fields of a ranked endpoint a plan keeps: Algorithm 1's projection (lines
//! 6-8: identifiers, fields of the requested concepts, the safety net of the group's core
//! fields) with one more way to match, for catalogs whose concept layer is thin: the question's
//! words in the field's name (or its description).

use crate::artifact::{FrozenGraph, MatchKind};
use crate::model::normalise_alias;
use crate::route::{FieldReason, Projection, Understanding};
use crate::search::{Query, text};
use std::collections::BTreeMap;

/// The stems of a field description's first sentence (at most 16).
fn description_terms(description: Option<&str>) -> Vec<String> {
    description
        .map(|d| {
            let first = d.split(". ").next().unwrap_or(d);
            text::stems(first).take(16).collect()
        })
        .unwrap_or_default()
}

/// The stems of the one-word values a field's description quotes when it quotes two or more
/// ("State of the issue; either 'open' or 'closed'" gives `open`, `close`): a question that
/// names one asks for the field ("is issue 4512 still open?"), not for fields whose names hold
/// the word (`open_issues`). One quoted word alone (`The object type: "track"`) names the
/// record's kind, not a value to ask about.
fn quoted_values(description: Option<&str>) -> Vec<String> {
    let Some(d) = description else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for q in ['\'', '"', '`'] {
        let parts: Vec<&str> = d.split(q).collect();
        // Odd pieces sit between a pair of quotes.
        for inner in parts
            .iter()
            .skip(1)
            .step_by(2)
            .take(parts.len().saturating_sub(1) / 2)
        {
            let words: Vec<String> = text::stems(inner).collect();
            if let [one] = words.as_slice()
                && inner.len() <= 24
                && !inner.contains(char::is_whitespace)
            {
                out.push(one.clone());
            }
        }
    }
    if out.len() < 2 {
        out.clear();
    }
    out
}

/// Whether two stems match: equal, or one a prefix of the other of at least four letters
/// (`temp` and `temperatur`, `star` and `stargaz`).
fn stems_match(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.len() >= 4 && long.starts_with(short) && short.chars().all(char::is_alphabetic)
}

/// The projection of one endpoint, field index -> reasons, and a note when the safety net was
/// all there was to go on.
pub fn project(
    g: &FrozenGraph,
    ti: u32,
    ei: u32,
    u: &Understanding,
    q: &Query,
    projection: Projection,
) -> (BTreeMap<u32, Vec<FieldReason>>, Option<String>) {
    let t = g.tool_at(ti);
    let e = t.endpoint_at(ei);
    let mut reasons: BTreeMap<u32, Vec<FieldReason>> = BTreeMap::new();
    for f in &e.identifiers {
        reasons.entry(*f).or_default().push(FieldReason::Identifier);
    }
    if projection == Projection::All {
        for f in 0..e.fields.len() as u32 {
            reasons.entry(f).or_default().push(FieldReason::AllFields);
        }
        return (reasons, None);
    }
    let asked = asked_stems(g, ti, ei, q);
    let names: Vec<FieldName> = e.fields.iter().map(|f| FieldName::of(&f.name)).collect();
    let matched = concept_fields(g, ti, ei, u, &asked, &names, &mut reasons)
        | term_fields(g, ti, ei, q, &asked, &names, &mut reasons);
    if projection == Projection::Recall {
        for (gid, fs) in &e.group_fields {
            for f in fs {
                reasons
                    .entry(*f)
                    .or_default()
                    .push(FieldReason::Group { group: gid.clone() });
            }
        }
    }
    if matched || projection != Projection::Core {
        return (reasons, None);
    }
    // The safety net: the record's label fields, else the core fields of the endpoint's groups,
    // else the whole record.
    let labels = label_fields(&names);
    if !labels.is_empty() {
        for f in labels {
            reasons.entry(f).or_default().push(FieldReason::Record);
        }
        return (reasons, None);
    }
    let mut any = false;
    for (gid, fs) in &e.group_fields {
        let core = g
            .groups
            .binary_search_by(|x| x.id.as_str().cmp(gid))
            .ok()
            .map(|i| &g.groups[i].core);
        let Some(core) = core.filter(|c| !c.is_empty()) else {
            continue;
        };
        for f in fs {
            if e.field_at(*f).concepts.iter().any(|c| core.contains(c)) {
                any = true;
                reasons
                    .entry(*f)
                    .or_default()
                    .push(FieldReason::Group { group: gid.clone() });
            }
        }
    }
    if any {
        return (reasons, None);
    }
    for f in 0..e.fields.len() as u32 {
        reasons.entry(f).or_default().push(FieldReason::Record);
    }
    let note = format!(
        "no field of `{}/{}` matches the request's words or concepts and it declares no group core: all {} field(s) are projected",
        t.id,
        e.id,
        e.fields.len()
    );
    (reasons, Some(note))
}

/// The last path segments that name a record for a reader: a question that points at no field
/// of an endpoint ("top tracks of artist …", "magazines about woodworking", "what song am I
/// listening to") asks which records, and a record is told by its name or title.
const LABEL_STEMS: &[&str] = &["name", "titl"];

/// The label fields of an endpoint ([`LABEL_STEMS`] as the whole last segment), the shallowest
/// and those one level below them (`item.name`, `item.artists[].name`); none when the endpoint
/// has none.
fn label_fields(names: &[FieldName]) -> Vec<u32> {
    let labels: Vec<u32> = (0..names.len() as u32)
        .filter(|f| {
            let n = &names[*f as usize];
            matches!(n.leaf.as_slice(), [one] if LABEL_STEMS.contains(&one.as_str()))
        })
        .collect();
    let Some(top) = labels.iter().map(|f| names[*f as usize].depth).min() else {
        return Vec::new();
    };
    labels
        .into_iter()
        .filter(|f| names[*f as usize].depth <= top + 1)
        .collect()
}

/// Fields carrying a requested concept (exact or alias postings on this endpoint); of several
/// fields of one concept, the ones the question's words point at best ([`FieldName::rank_key`]).
fn concept_fields(
    g: &FrozenGraph,
    ti: u32,
    ei: u32,
    u: &Understanding,
    asked: &[String],
    names: &[FieldName],
    reasons: &mut BTreeMap<u32, Vec<FieldReason>>,
) -> bool {
    let mut any = false;
    for text in &u.domain_concepts {
        let key = normalise_alias(text);
        let concepts = g
            .index
            .alias_to_concept
            .get(&key)
            .cloned()
            .unwrap_or_default();
        for c in concepts {
            let Some(list) = g.index.concept_postings.get(&c) else {
                continue;
            };
            let on_endpoint: Vec<_> = list
                .iter()
                .filter(|p| p.tool == ti && p.endpoint == ei && p.kind != MatchKind::Partial)
                .collect();
            let best = best_named(on_endpoint.iter().map(|p| p.field), names, asked);
            for p in on_endpoint.into_iter().filter(|p| best.contains(&p.field)) {
                any = true;
                let why = FieldReason::Concept {
                    concept: c.clone(),
                    via: (normalise_alias(&c) != key).then(|| text.clone()),
                    match_kind: p.kind.into(),
                };
                let v = reasons.entry(p.field).or_default();
                if !v.contains(&why) {
                    v.push(why);
                }
            }
        }
    }
    any
}

/// The question's stems that may name a field: not a word of the endpoint's own name (those
/// say which endpoint, not which field) nor the label of a value (the word right before it:
/// "with id 0Od…", "order 8812" say which record).
fn asked_stems(g: &FrozenGraph, ti: u32, ei: u32, q: &Query) -> Vec<String> {
    let t = g.tool_at(ti);
    let e = t.endpoint_at(ei);
    let naming: Vec<String> = text::stems(&e.id)
        .chain(e.mcp_tool.iter().flat_map(|m| text::stems(m)))
        .chain(text::stems(&t.id))
        .chain(t.names.iter().flat_map(|n| text::stems(n)))
        .collect();
    let labels: Vec<String> = q
        .spans
        .iter()
        // A word the catalog does not know may be no value at all ("feel colder").
        .filter(|s| s.kind != crate::search::spans::SpanKind::Word)
        .filter_map(|s| s.before.last())
        .flat_map(|w| text::stems(w).collect::<Vec<_>>())
        .collect();
    q.stems
        .iter()
        .filter(|s| !naming.contains(s) && !labels.contains(s))
        .cloned()
        .collect()
}

/// Whether a field-name stem is an abbreviation of an asked stem: three letters that begin a
/// word of five or more (`dir` for "direction", `max` for "maximum").
fn abbreviates(field: &str, asked: &str) -> bool {
    field.len() == 3
        && asked.len() >= 5
        && asked.starts_with(field)
        && field.chars().all(char::is_alphabetic)
}

/// How one field's name answers the asked stems: the stems of its whole path, and of its last
/// segment alone.
struct FieldName {
    path: Vec<String>,
    leaf: Vec<String>,
    depth: usize,
}

impl FieldName {
    fn of(name: &str) -> FieldName {
        let leaf = name.rsplit('.').next().unwrap_or(name);
        FieldName {
            path: text::stems(name).collect(),
            leaf: text::stems(leaf).collect(),
            depth: name.split('.').count(),
        }
    }

    fn matches(&self, asked: &str) -> bool {
        self.path
            .iter()
            .any(|n| stems_match(n, asked) || abbreviates(n, asked))
    }

    /// Which of the fields that match one asked stem say it best: those whose path matches the
    /// most asked stems (`hourly.data[].temperature` for "the hourly temperatures"), then whose
    /// last segment holds the fewest words not asked (`temperature` before `soil_temperature`),
    /// then the shallowest (`current.temperature` before `daily.data[].afternoon.temperature`).
    fn rank_key(&self, asked: &[String]) -> (usize, usize, usize) {
        let hits = asked.iter().filter(|a| self.matches(a)).count();
        let extra = self
            .leaf
            .iter()
            .filter(|l| !asked.iter().any(|a| stems_match(l, a) || abbreviates(l, a)))
            .count();
        (usize::MAX - hits, extra, self.depth)
    }
}

/// Of some fields, those whose names say the asked stems best ([`FieldName::rank_key`]), in
/// the order given.
fn best_named(
    fields: impl Iterator<Item = u32>,
    names: &[FieldName],
    asked: &[String],
) -> Vec<u32> {
    let keyed: Vec<(_, u32)> = fields
        .map(|f| (names[f as usize].rank_key(asked), f))
        .collect();
    let Some(best) = keyed.iter().map(|(k, _)| *k).min() else {
        return Vec::new();
    };
    keyed
        .into_iter()
        .filter(|(k, _)| *k == best)
        .map(|(_, f)| f)
        .collect()
}

/// Fields whose name holds a word of the question that is not a word of the endpoint's own
/// name (those say which endpoint, not which field) nor the label of a value, or whose
/// description's first sentence holds two. Of the fields one word matches by name, only the
/// best are kept ([`FieldName::rank_key`]): "the temperature in Lyon right now" wants one
/// temperature, not every temperature of every forecast period. A word that matches more than a
/// third of the endpoint's fields (and more than three) chooses none by itself, but still counts
/// in the ranking (`hourly` in "the hourly temperatures").
fn term_fields(
    g: &FrozenGraph,
    ti: u32,
    ei: u32,
    q: &Query,
    asked: &[String],
    names: &[FieldName],
    reasons: &mut BTreeMap<u32, Vec<FieldReason>>,
) -> bool {
    let e = g.tool_at(ti).endpoint_at(ei);
    if asked.is_empty() {
        return false;
    }
    let descs: Vec<Vec<String>> = e
        .fields
        .iter()
        .map(|f| description_terms(f.description.as_deref()))
        .collect();
    let values: Vec<Vec<String>> = e
        .fields
        .iter()
        .map(|f| quoted_values(f.description.as_deref()))
        .collect();
    // Per asked stem: the fields whose name matches it, and those whose description does; a
    // stem that is a value some field's description quotes names that field only.
    let mut by_name: Vec<Vec<u32>> = vec![Vec::new(); asked.len()];
    let mut by_desc: Vec<Vec<u32>> = vec![Vec::new(); asked.len()];
    let valued: Vec<Vec<u32>> = asked
        .iter()
        .map(|a| {
            (0..e.fields.len() as u32)
                .filter(|f| values[*f as usize].contains(a))
                .collect()
        })
        .collect();
    for (fi, (name, desc)) in names.iter().zip(&descs).enumerate() {
        for (ai, a) in asked.iter().enumerate() {
            if !valued[ai].is_empty() {
                if valued[ai].contains(&(fi as u32)) {
                    by_name[ai].push(fi as u32);
                }
            } else if name.matches(a) {
                by_name[ai].push(fi as u32);
            } else if desc.iter().any(|d| d == a) {
                by_desc[ai].push(fi as u32);
            }
        }
    }
    let generic = |n: usize| n > 3 && n * 3 > e.fields.len();
    let mut desc_hits: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut name_hits: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for (ai, a) in asked.iter().enumerate() {
        let kept = best_named(by_name[ai].iter().copied(), names, asked);
        if generic(kept.len() + by_desc[ai].len()) {
            continue;
        }
        for f in kept {
            name_hits.entry(f).or_default().push(a.clone());
        }
        for f in &by_desc[ai] {
            desc_hits.entry(*f).or_default().push(a.clone());
        }
    }
    for (f, ws) in desc_hits {
        if ws.len() >= 2 {
            name_hits.entry(f).or_default().extend(ws);
        }
    }
    let any = !name_hits.is_empty();
    for (f, stems) in name_hits {
        let mask = q
            .stems
            .iter()
            .enumerate()
            .filter(|(_, s)| stems.contains(s))
            .fold(0u64, |m, (i, _)| m | (1 << i));
        reasons.entry(f).or_default().push(FieldReason::Term {
            words: q.words(mask),
        });
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_word_values_a_description_quotes_are_read() {
        assert_eq!(
            quoted_values(Some("State of the issue; either 'open' or 'closed'")),
            ["open", "close"]
        );
        assert_eq!(
            quoted_values(Some("The \"type\" of item: `album`, `single`.")),
            ["type", "album", "singl"]
        );
        // A quoted phrase or an apostrophe is no value; one quoted word names a kind.
        assert!(quoted_values(Some("the user's own 'saved items list'")).is_empty());
        assert!(quoted_values(Some("The object type: \"track\".")).is_empty());
        assert!(quoted_values(None).is_empty());
    }

    /// The label fields of an endpoint whose fields are named `names`, by name.
    fn labels_of(names: &[&str]) -> Vec<String> {
        let fields: Vec<FieldName> = names.iter().map(|n| FieldName::of(n)).collect();
        label_fields(&fields)
            .into_iter()
            .map(|f| names[f as usize].to_string())
            .collect()
    }

    #[test]
    fn a_record_is_told_by_its_name_or_title() {
        // A track of a top-tracks list: its name, not its markets or disc number.
        assert_eq!(
            labels_of(&[
                "available_markets",
                "disc_number",
                "duration_ms",
                "id",
                "name"
            ]),
            ["name"]
        );
        // The item playing and its artists' names, one level below.
        assert_eq!(
            labels_of(&[
                "item.name",
                "item.artists[].name",
                "item.album.artists[].name",
                "progress_ms"
            ]),
            ["item.name", "item.artists[].name"]
        );
        // A volume's title; a subtitle or a file name is no label.
        assert_eq!(
            labels_of(&[
                "items[].volumeInfo.title",
                "items[].volumeInfo.subtitle",
                "items[].kind",
                "items[].selfLink"
            ]),
            ["items[].volumeInfo.title"]
        );
        assert!(labels_of(&["file_name", "etag", "kind"]).is_empty());
        assert!(labels_of(&[]).is_empty());
    }

    #[test]
    fn prefixes_of_four_letters_match() {
        assert!(stems_match("temp", "temperatur"));
        assert!(stems_match("stargaz", "star"));
        assert!(!stems_match("id", "idea"));
        assert!(!stems_match("name", "nation"));
    }
}
