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
pub(crate) fn stems_match(a: &str, b: &str) -> bool {
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
    // A concept the question names only as the label of a value ("stop 1071") says which
    // record, not which field.
    let labels = label_stems(e, q);
    let concepts: Vec<String> = u
        .domain_concepts
        .iter()
        .filter(|c| {
            let mut stems = text::stems(c).peekable();
            stems.peek().is_none() || !stems.all(|st| labels.contains(&st))
        })
        .cloned()
        .collect();
    let matched = concept_fields(g, ti, ei, &concepts, &asked, &names, &mut reasons)
        | term_fields(g, ti, ei, q, &asked, &names, &mut reasons)
        | measured_fields(e, q, &asked, &names, &mut reasons);
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
    if projection == Projection::Core {
        let counts = count_fields(e, &names, q);
        if !counts.is_empty() {
            // The count answers: the fields of the counted list's items do not
            // (`episodes[].title` for "how many episodes").
            // Nor do other fields named by the counted word alone (`owner.starred_at` beside
            // `stargazers_count` for "how many stars").
            let counted: Vec<String> = crate::search::frame::counted(&q.text)
                .unwrap_or_default()
                .iter()
                .flat_map(|w| text::stems(w).collect::<Vec<_>>())
                .collect();
            let of_count = |x: &FieldReason| match x {
                FieldReason::Term { words } => words
                    .iter()
                    .all(|w| text::stems(w).all(|st| counted.contains(&st))),
                _ => false,
            };
            reasons.retain(|f, r| {
                counts.contains(f)
                    || !(e.field_at(*f).name.contains("[]")
                        && r.iter().all(|x| matches!(x, FieldReason::Term { .. }))
                        || !r.is_empty() && r.iter().all(of_count))
            });
        }
        for f in &counts {
            reasons.entry(*f).or_default().push(FieldReason::Record);
        }
        if matched && counts.is_empty() && asks_for_several(q) {
            // Fields chosen in a list of records: each record is told by its name or title.
            let chosen: Vec<u32> = reasons
                .iter()
                .filter(|(_, r)| r.iter().any(|x| *x != FieldReason::Identifier))
                .map(|(f, _)| *f)
                .collect();
            for f in list_labels(e, &names, &chosen) {
                let v = reasons.entry(f).or_default();
                if v.iter().all(|r| *r == FieldReason::Identifier) {
                    v.push(FieldReason::Record);
                }
            }
        }
        if !counts.is_empty() {
            return (reasons, None);
        }
    }
    if matched || projection != Projection::Core {
        return (reasons, None);
    }
    // The safety net: the record's label fields, else the core fields of the endpoint's groups,
    // else the whole record.
    let labels = record_labels(e, &names);
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

/// Fields of the dimension the question asks its answer in ([`super::measured`]), where no field
/// planned so far is of it: of several, those whose names say the asked stems best.
fn measured_fields(
    e: &crate::artifact::EndpointData,
    q: &Query,
    asked: &[String],
    names: &[FieldName],
    reasons: &mut BTreeMap<u32, Vec<FieldReason>>,
) -> bool {
    let units = super::measured::asked_units(q);
    if units.is_empty() {
        return false;
    }
    let mut any = false;
    for (unit, fields) in super::measured::fields(e, &units) {
        if reasons.keys().any(|f| fields.contains(f)) {
            continue;
        }
        let mut best = best_named(fields.into_iter(), names, asked);
        // Of several the words do not tell apart, the one named for the amount (`distance`).
        let plain: Vec<u32> = best
            .iter()
            .copied()
            .filter(|f| super::measured::plainly_named(&e.field_at(*f).name, &unit))
            .collect();
        if !plain.is_empty() {
            best = plain;
        }
        for f in best {
            any = true;
            reasons.entry(f).or_default().push(FieldReason::Asked {
                field_kind: unit.dim.to_string(),
            });
        }
    }
    any
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

/// The labels the safety net projects ([`label_fields`]), read where the records are: of an
/// endpoint that returns a list of records (a records path, or a list that more than half of
/// its fields sit in: `podcasts[].`), each record's own label at its shallowest depth, not the
/// envelope's (`name` of a best-of list's genre) nor an embedded record's one level below
/// (`user.name` of an article); else [`label_fields`] as they are (`item.name` and
/// `item.artists[].name` of the one item playing).
fn record_labels(e: &crate::artifact::EndpointData, names: &[FieldName]) -> Vec<u32> {
    let own = own_labels(e, names);
    if !own.is_empty() {
        return own;
    }
    let labels = label_fields(names);
    let list = if e.records.is_some() {
        Some(String::new())
    } else {
        main_list(e.fields.iter().map(|f| f.name.as_str()))
    };
    let Some(list) = list else {
        return labels;
    };
    let inside: Vec<u32> = labels
        .iter()
        .copied()
        .filter(|f| e.field_at(*f).name.starts_with(list.as_str()))
        .collect();
    let Some(top) = inside.iter().map(|f| names[*f as usize].depth).min() else {
        return labels;
    };
    inside
        .into_iter()
        .filter(|f| names[*f as usize].depth == top)
        .collect()
}

/// The records' labels named after what the endpoint returns (`airport_name` of
/// `/nearest_airports`, `schoolName` of `/schools`, `districtName`): a label word
/// ([`LABEL_STEMS`]) after a word of the endpoint's id, URL path or records path, at the
/// shallowest depth such fields have. They tell a record where `Country.name` and
/// `Region.name` of the same record tell what it sits in.
fn own_labels(e: &crate::artifact::EndpointData, names: &[FieldName]) -> Vec<u32> {
    let own: Vec<String> = text::stems(&e.id)
        .chain(text::stems(crate::search::text::url_path(&e.url)))
        .chain(
            e.records
                .iter()
                .flat_map(|r| text::stems(r).collect::<Vec<_>>()),
        )
        .collect();
    let found: Vec<u32> = (0..names.len() as u32)
        .filter(|f| {
            let leaf = &names[*f as usize].leaf;
            // Two words and their joined stem at most (`airport`, `name`, `airportnam`).
            leaf.len() <= 3
                && leaf
                    .windows(2)
                    .any(|w| own.contains(&w[0]) && LABEL_STEMS.contains(&w[1].as_str()))
        })
        .collect();
    // Those inside the list of records the endpoint returns first (`jobs[].job_title` of
    // `/skills/{id}/related_jobs`, not the skill's own `skill_name`).
    let list = main_list(e.fields.iter().map(|f| f.name.as_str()));
    let inside: Vec<u32> = found
        .iter()
        .copied()
        .filter(|f| {
            list.as_deref()
                .is_some_and(|l| e.field_at(*f).name.starts_with(l))
        })
        .collect();
    let found = if inside.is_empty() { found } else { inside };
    let Some(top) = found.iter().map(|f| names[*f as usize].depth).min() else {
        return Vec::new();
    };
    found
        .into_iter()
        .filter(|f| names[*f as usize].depth == top)
        .collect()
}

/// The list (`data[].`) that more than half of an endpoint's fields sit in, when there is one:
/// where an endpoint without a records path keeps its records.
fn main_list<'a>(names: impl Iterator<Item = &'a str>) -> Option<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut all = 0;
    for n in names {
        all += 1;
        if let Some(i) = n.find("[].") {
            *counts.entry(&n[..i + 3]).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .find(|(_, c)| c * 2 > all)
        .map(|(p, _)| p.to_string())
}

/// Stems of field-name words that make a field an identifier or a link of its record (`id`,
/// `url`): a list's records are asked for by their other fields. Naming conventions of APIs.
const LINK_STEMS: &[&str] = &["href", "id", "link", "uri", "url", "uuid"];

/// Of the fields one asked stem matches by name, those it names only as their container:
/// of an object (`organization` in `organization.slug`), the object's label
/// (`organization.name`) when it has one, since a word that names an object asks which one it
/// is; of a list (`genres` in `genres[].id`), the records' fields but their identifiers and
/// links (`genres[].name`; `ingredients[].name`, `.quantity`, `.unit`), since a word that names
/// a list asks for its records. Fields whose last segment the stem matches are kept as they are.
fn container_labels(
    e: &crate::artifact::EndpointData,
    names: &[FieldName],
    asked: &str,
    fields: &[u32],
) -> Vec<u32> {
    let hit = |s: &str| stems_match(s, asked) || abbreviates(s, asked);
    let mut out = Vec::new();
    let mut by_container: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for &f in fields {
        if names[f as usize].leaf.iter().any(|l| hit(l)) {
            out.push(f);
            continue;
        }
        let name = e.field_at(f).name.as_str();
        let segments: Vec<&str> = name.split('.').collect();
        let container = (0..segments.len().saturating_sub(1))
            .find(|&i| text::stems(segments[i]).any(|s| hit(&s)))
            .map(|i| segments[..=i].join("."));
        match container {
            Some(c) => by_container.entry(c).or_default().push(f),
            None => out.push(f),
        }
    }
    for (container, fs) in by_container {
        if container.ends_with("[]") {
            // A list's records: their own fields, not their ids and links.
            let plain: Vec<u32> = fs
                .iter()
                .copied()
                .filter(|f| {
                    !e.field_at(*f).identifier
                        && !names[*f as usize]
                            .leaf
                            .iter()
                            .any(|l| LINK_STEMS.contains(&l.as_str()))
                })
                .collect();
            out.extend(if plain.is_empty() { fs } else { plain });
            continue;
        }
        let labels: Vec<u32> = (0..names.len() as u32)
            .filter(|g| {
                let n = e.field_at(*g).name.as_str();
                n.strip_prefix(container.as_str())
                    .and_then(|r| r.strip_prefix('.'))
                    .is_some_and(|r| !r.contains('.'))
                    && matches!(names[*g as usize].leaf.as_slice(),
                        [one] if LABEL_STEMS.contains(&one.as_str()))
            })
            .collect();
        out.extend(if labels.is_empty() { fs } else { labels });
    }
    // A field named the asked word and an id or link (`IngredientID`, `artist_url`) points at
    // what is asked for; it is not it, when fields that are it were found.
    let pointer = |f: &u32| {
        let leaf = &names[*f as usize].leaf;
        leaf.iter().any(|l| LINK_STEMS.contains(&l.as_str()))
            && leaf
                .iter()
                .all(|l| hit(l) || LINK_STEMS.contains(&l.as_str()))
    };
    if out.iter().any(|f| !pointer(f)) {
        out.retain(|f| !pointer(f));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Words that ask for several records ("which players …", "list the tags", "each genre").
/// Language data, sorted.
const SEVERAL_WORDS: &[&str] = &["all", "each", "every", "list", "which"];

/// Whether a request asks for several records, each to be told apart: it holds one of
/// [`SEVERAL_WORDS`] or a plural noun written in lower case (four letters or more, ending in
/// `s` but not `ss`, `us` or `is`, whose stem is shorter: "stories", "venues", "releases"; an
/// upper-case `SMILES` is a name).
fn asks_for_several(q: &Query) -> bool {
    crate::search::frame::words(&q.text)
        .iter()
        .any(|(a, b, w)| {
            let raw = &q.text[*a..*b];
            SEVERAL_WORDS.binary_search(&w.as_str()).is_ok()
                || (raw.chars().all(|c| c.is_lowercase())
                    && w.chars().count() >= 4
                    && w.ends_with('s')
                    && !w.ends_with("ss")
                    && !w.ends_with("us")
                    && !w.ends_with("is")
                    && !text::is_stop_word(w)
                    && text::stems(w).next().is_some_and(|st| st.len() < w.len()))
        })
}

/// The shallowest label fields ([`LABEL_STEMS`]) of an endpoint that returns a list of records
/// (it has a records path, or its labels sit inside a list: `results[].title`) whose records
/// hold a chosen field (`chosen`): the genres' names beside `genres[].name`, not the trailers'
/// names; none for one record.
fn list_labels(e: &crate::artifact::EndpointData, names: &[FieldName], chosen: &[u32]) -> Vec<u32> {
    // Labels named after what the endpoint returns first (`schoolName` of `/schools`).
    let own = own_labels(e, names);
    let labels = if own.is_empty() {
        label_fields(names)
    } else {
        own
    };
    let Some(top) = labels.iter().map(|f| names[*f as usize].depth).min() else {
        return Vec::new();
    };
    let labels: Vec<u32> = labels
        .into_iter()
        .filter(|f| names[*f as usize].depth == top)
        .collect();
    let embedded = crate::search::build::embedded_records(e.fields.iter().map(|f| f.name.as_str()));
    let own = |f: &u32| {
        let name = e.field_at(*f).name.as_str();
        !embedded
            .iter()
            .any(|p| crate::search::build::within(name, p))
            && if e.records.is_some() {
                // A record's own label (`name`), not one of a record inside it (`author.name`).
                !name.contains('.')
            } else {
                // A label inside a list that holds a chosen field.
                name.rfind("[].").is_some_and(|i| {
                    let list = &name[..i + 3];
                    chosen.iter().any(|c| e.field_at(*c).name.starts_with(list))
                })
            }
    };
    labels.into_iter().filter(own).collect()
}

/// Words of a field name that say it counts (`total`, `count`, `num_results`, `totalItems`).
/// Language data.
const COUNT_STEMS: &[&str] = &["count", "num", "number", "total"];

/// Words a count field's name may hold beside [`COUNT_STEMS`] (`total_results`, `totalItems`,
/// `resultCount`). Language data.
const COUNTED_STEMS: &[&str] = &["entri", "found", "hit", "item", "record", "result", "row"];

/// For a count question ("how many setlists …", "number of articles on …"): the number the
/// response gives for what is counted. A number whose name holds the counted word
/// (`followers`, `games_count`, `open_issues_count`) when the question's words chose it already
/// counts as chosen; else, for an endpoint that returns a list, the list's own total outside
/// its records (`total`, `num_results`, `totalItems`, `total_count`). Never a paging field
/// (`page`, `per_page`, `offset`): those say nothing about how many there are.
fn count_fields(e: &crate::artifact::EndpointData, names: &[FieldName], q: &Query) -> Vec<u32> {
    let Some(counted) = crate::search::frame::counted(&q.text) else {
        return Vec::new();
    };
    let heads: Vec<String> = counted.iter().flat_map(|w| text::stems(w)).collect();
    let numeric = |f: u32| {
        let fd = e.field_at(f);
        matches!(fd.ty.as_str(), "integer" | "number") && !fd.identifier
    };
    // A number named by the counted word (within one record, not inside a list).
    let named: Vec<u32> = (0..names.len() as u32)
        .filter(|f| numeric(*f) && !e.field_at(*f).name.contains("[]"))
        .filter(|f| {
            let n = &names[*f as usize];
            n.leaf
                .iter()
                .any(|l| heads.iter().any(|h| stems_match(l, h)))
        })
        .collect();
    if !named.is_empty() {
        return best_named(named.into_iter(), names, &heads);
    }
    // "How many kilometres" asks for an amount of a dimension ([`super::measured`]), not for
    // how many records a list holds (a number named for it, `update_frequency_hours`, is kept
    // above).
    if counted
        .first()
        .is_some_and(|w| crate::search::unit_words::unit_of(w).is_some())
        && !super::measured::asked_units(q).is_empty()
    {
        return Vec::new();
    }
    let listed = e.records.is_some() || e.fields.iter().any(|f| f.name.contains("[]"));
    if !listed {
        return Vec::new();
    }
    (0..names.len() as u32)
        .filter(|f| numeric(*f) && names[*f as usize].depth == 1)
        .filter(|f| !e.field_at(*f).name.contains("[]"))
        .filter(|f| {
            let leaf = &names[*f as usize].leaf;
            // The parts of the name, without the whole word kept beside them (`numresult`).
            let parts: Vec<&String> = leaf
                .iter()
                .filter(|l| {
                    !leaf
                        .iter()
                        .any(|p| p.len() < l.len() && l.starts_with(p.as_str()))
                })
                .collect();
            parts.iter().any(|l| COUNT_STEMS.contains(&l.as_str()))
                && parts.iter().all(|l| {
                    COUNT_STEMS.contains(&l.as_str()) || COUNTED_STEMS.contains(&l.as_str())
                })
        })
        .collect()
}

/// Fields carrying a requested concept (`concepts`: the Understanding's, by exact or alias
/// postings on this endpoint); of several fields of one concept, the ones the question's words
/// point at best ([`FieldName::rank_key`]).
fn concept_fields(
    g: &FrozenGraph,
    ti: u32,
    ei: u32,
    concepts: &[String],
    asked: &[String],
    names: &[FieldName],
    reasons: &mut BTreeMap<u32, Vec<FieldReason>>,
) -> bool {
    let mut any = false;
    for text in concepts {
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
    let labels = label_stems(e, q);
    q.stems
        .iter()
        .enumerate()
        // An implied term ("currency" of "250 euros in yen") says what the question is about,
        // not which field it asks for.
        .filter(|(i, _)| !q.is_implied(*i))
        .map(|(_, s)| s)
        .filter(|s| !naming.contains(s) && !labels.contains(s) && !only_in_keys(q, s))
        .cloned()
        .collect()
}

/// The stems of the words that label the question's values (the word right before a value:
/// "with id 0Od…", "order 8812" say which record), or the two words that name one of the
/// endpoint's parameters ("route type 0" for `route_type`).
fn label_stems(e: &crate::artifact::EndpointData, q: &Query) -> Vec<String> {
    // A label of two words names one of the endpoint's parameters ("route type 0" for
    // `route_type`).
    let params: Vec<Vec<String>> = e
        .parameters
        .iter()
        .map(|p| text::stems(&p.name).collect())
        .collect();
    q.spans
        .iter()
        // A word the catalog does not know may be no value at all ("feel colder").
        .filter(|s| s.kind != crate::search::spans::SpanKind::Word)
        .flat_map(|s| {
            let n = s.before.len();
            let pair: Vec<String> = s.before[n.saturating_sub(2)..]
                .iter()
                .flat_map(|w| text::stems(w).collect::<Vec<_>>())
                .collect();
            if n >= 2 && params.iter().any(|p| p.starts_with(&pair)) {
                pair
            } else {
                s.before
                    .last()
                    .map(|w| text::stems(w).collect())
                    .unwrap_or_default()
            }
        })
        .collect()
}

/// Whether every occurrence of the stem `stem` in the question is a piece of a value that keys
/// a record (`owner/repo`, a URL, an e-mail address, an id), not the whole of it: `lang` of
/// `rust-lang/rust` names the repository, not its `language`.
fn only_in_keys(q: &Query, stem: &str) -> bool {
    use crate::search::spans::SpanKind;
    let mut terms = q.terms.iter().filter(|t| t.stem == stem).peekable();
    terms.peek().is_some()
        && terms.all(|t| {
            q.spans.iter().any(|s| {
                matches!(
                    s.kind,
                    SpanKind::Slash | SpanKind::Url | SpanKind::Email | SpanKind::Phone | SpanKind::Id
                ) && s.start <= t.start
                    && t.end <= s.end
                    // A piece of the value, not the whole of it: a word read as an id by its
                    // shape ("SMILES") still names its field.
                    && (s.start, s.end) != (t.start, t.end)
            })
        })
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
        let raw = best_named(by_name[ai].iter().copied(), names, asked);
        if generic(raw.len() + by_desc[ai].len()) {
            continue;
        }
        let named = container_labels(e, names, a, &by_name[ai]);
        let kept = best_named(named.into_iter(), names, asked);
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

    use super::super::testing::returning as endpoint;

    fn names_of(e: &crate::artifact::EndpointData) -> Vec<FieldName> {
        e.fields.iter().map(|f| FieldName::of(&f.name)).collect()
    }

    fn named(e: &crate::artifact::EndpointData, fs: Vec<u32>) -> Vec<String> {
        fs.into_iter().map(|f| e.field_at(f).name.clone()).collect()
    }

    #[test]
    fn a_record_is_told_by_the_label_named_after_what_the_endpoint_returns() {
        let mut airports = endpoint(
            Some("airport_list[]"),
            &[
                ("airport_name", "string"),
                ("Country.name", "string"),
                ("Region.name", "string"),
                ("latitude", "number"),
            ],
        );
        airports.id = "nearest_airports_nearest_airport_list".into();
        airports.url = "https://x.test/nearest_airports".into();
        assert_eq!(
            named(&airports, record_labels(&airports, &names_of(&airports))),
            ["airport_name"]
        );
        // Inside the list of records the endpoint returns, the records' own label.
        let mut related = endpoint(
            None,
            &[
                ("skill_name", "string"),
                ("skill_uuid", "string"),
                ("jobs[].job_title", "string"),
                ("jobs[].job_uuid", "string"),
                ("jobs[].importance", "number"),
            ],
        );
        related.id = "get_skills_id_related_jobs".into();
        related.url = "https://x.test/skills/{id}/related_jobs".into();
        assert_eq!(
            named(&related, record_labels(&related, &names_of(&related))),
            ["jobs[].job_title"]
        );
        // A label named after something else is no label of the record.
        airports.id = "e".into();
        airports.url = "https://x.test/e".into();
        airports.records = None;
        assert_eq!(
            named(&airports, record_labels(&airports, &names_of(&airports))),
            ["Country.name", "Region.name"]
        );
    }

    #[test]
    fn a_list_of_records_is_told_by_each_records_own_label() {
        // Records under a records path: the record's own name, not its author's.
        let commits = endpoint(
            Some("[]"),
            &[
                ("sha", "string"),
                ("author.id", "integer"),
                ("author.name", "string"),
            ],
        );
        assert!(list_labels(&commits, &names_of(&commits), &[0]).is_empty());
        let achievements = endpoint(
            Some("results[]"),
            &[("id", "integer"), ("name", "string"), ("percent", "string")],
        );
        assert_eq!(
            named(
                &achievements,
                list_labels(&achievements, &names_of(&achievements), &[2])
            ),
            ["name"]
        );
        // A list without a records path: the label inside the list.
        let popular = endpoint(
            None,
            &[
                ("num_results", "integer"),
                ("results[].title", "string"),
                ("results[].abstract", "string"),
            ],
        );
        assert_eq!(
            named(&popular, list_labels(&popular, &names_of(&popular), &[2])),
            ["results[].title"]
        );
        // A list whose records hold no chosen field is told by nothing: a recipe's calories
        // among its good and bad nutrients, a movie's genres beside its trailers.
        let nutrition = endpoint(
            None,
            &[
                ("calories", "string"),
                ("good[].name", "string"),
                ("bad[].name", "string"),
            ],
        );
        assert!(list_labels(&nutrition, &names_of(&nutrition), &[0]).is_empty());
        let movie = endpoint(
            None,
            &[
                ("genres[].name", "string"),
                ("trailers[].name", "string"),
                ("translations[].name", "string"),
            ],
        );
        assert_eq!(
            named(&movie, list_labels(&movie, &names_of(&movie), &[0])),
            ["genres[].name"]
        );
        // One record: its fields were asked for by name, its label was not.
        let user = endpoint(
            None,
            &[
                ("login", "string"),
                ("name", "string"),
                ("location", "string"),
            ],
        );
        assert!(list_labels(&user, &names_of(&user), &[0]).is_empty());
    }

    #[test]
    fn a_word_naming_a_list_or_an_object_asks_for_its_label() {
        let movie = endpoint(
            None,
            &[
                ("genres[].id", "integer"),
                ("genres[].name", "string"),
                ("genres[].url", "string"),
                ("title", "string"),
            ],
        );
        let names = names_of(&movie);
        assert_eq!(
            named(&movie, container_labels(&movie, &names, "genr", &[0, 1, 2])),
            ["genres[].name"]
        );
        // A list's records keep their own fields.
        let recipe = endpoint(
            None,
            &[
                ("Ingredients[].IngredientID", "integer"),
                ("Ingredients[].Name", "string"),
                ("Ingredients[].Quantity", "number"),
                ("Ingredients[].Unit", "string"),
            ],
        );
        let names = names_of(&recipe);
        assert_eq!(
            named(
                &recipe,
                container_labels(&recipe, &names, "ingredi", &[0, 1, 2, 3])
            ),
            [
                "Ingredients[].Name",
                "Ingredients[].Quantity",
                "Ingredients[].Unit"
            ]
        );
        // An object: its name, not its slug and location.
        let standing = endpoint(
            None,
            &[
                ("team.acronym", "string"),
                ("team.location", "string"),
                ("team.name", "string"),
                ("wins", "integer"),
            ],
        );
        let names = names_of(&standing);
        assert_eq!(
            named(
                &standing,
                container_labels(&standing, &names, "team", &[0, 1, 2])
            ),
            ["team.name"]
        );
        // A container without a label keeps its parts; a leaf the word names stays.
        let venue = endpoint(
            None,
            &[
                ("address.line1", "string"),
                ("address.line2", "string"),
                ("mailing_address", "string"),
            ],
        );
        let names = names_of(&venue);
        assert_eq!(
            named(
                &venue,
                container_labels(&venue, &names, "address", &[0, 1, 2])
            ),
            ["address.line1", "address.line2", "mailing_address"]
        );
    }

    #[test]
    fn the_safety_net_reads_labels_where_the_records_are() {
        let labels = |e: &crate::artifact::EndpointData| named(e, record_labels(e, &names_of(e)));
        // The records of a best-of list, not the envelope's genre name.
        let best = endpoint(
            None,
            &[
                ("name", "string"),
                ("podcasts[].title", "string"),
                ("podcasts[].publisher", "string"),
                ("podcasts[].country", "string"),
            ],
        );
        assert_eq!(labels(&best), ["podcasts[].title"]);
        // Records under a records path: their own title, not their author's name.
        let articles = endpoint(
            Some("[]"),
            &[
                ("title", "string"),
                ("user.name", "string"),
                ("organization.name", "string"),
            ],
        );
        assert_eq!(labels(&articles), ["title"]);
        // One record: its item and the item's artists, as before.
        let playing = endpoint(
            None,
            &[
                ("item.name", "string"),
                ("item.artists[].name", "string"),
                ("progress_ms", "integer"),
            ],
        );
        assert_eq!(labels(&playing), ["item.name", "item.artists[].name"]);
    }

    #[test]
    fn a_request_for_several_records_is_told() {
        for q in [
            "which lsu players were picked in the 2020 draft",
            "list the achievements of game 3328",
            "new album releases in sweden this week",
            "the most viewed travel stories of the week",
            "how long is each video",
        ] {
            assert!(asks_for_several(&Query::new(q)), "{q}");
        }
        for q in [
            "SMILES of L-alanine, with and without the stereo information",
            "what is the status of show 305288",
            "how tall is the campus",
            "does it rain in lyon",
        ] {
            assert!(!asks_for_several(&Query::new(q)), "{q}");
        }
        let mut s = SEVERAL_WORDS.to_vec();
        s.sort();
        assert_eq!(s, SEVERAL_WORDS);
    }

    #[test]
    fn the_words_that_label_a_value_name_no_field() {
        let mut departures = endpoint(
            None,
            &[("departures[].stop_id", "integer"), ("routes", "object")],
        );
        departures.parameters = serde_json::from_value(serde_json::json!([
            {"name": "stop_id", "type": "integer", "required": true, "location": "path"},
            {"name": "route_type", "type": "integer", "required": true, "location": "path"}
        ]))
        .unwrap();
        let stems = |ws: &[&str]| -> Vec<String> {
            ws.iter()
                .flat_map(|w| text::stems(w).collect::<Vec<_>>())
                .collect()
        };
        // Two words label a value when together they name a parameter (`route_type`); one word
        // otherwise.
        let q = Query::new("Departures from stop 1071 on route type 0");
        assert_eq!(
            label_stems(&departures, &q),
            stems(&["stop", "route", "type"])
        );
        let q = Query::new("Departures from stop 1071 of the evening train 0");
        assert_eq!(label_stems(&departures, &q), stems(&["stop", "train"]));
    }

    #[test]
    fn a_piece_of_a_key_value_names_no_field_but_a_whole_word_does() {
        let stem = |w: &str| text::stems(w).next().unwrap();
        let q = Query::new("how many stars does rust-lang/rust have");
        assert!(only_in_keys(&q, &stem("lang")));
        assert!(!only_in_keys(&q, &stem("stars")));
        // A word read as an id by its shape is the whole value: it still names its field.
        let q = Query::new("SMILES of L-alanine, with and without the stereo information");
        assert!(!only_in_keys(&q, &stem("SMILES")));
    }

    #[test]
    fn an_amount_asked_in_a_unit_takes_the_fields_of_its_dimension() {
        let mut route = endpoint(
            None,
            &[
                ("paths[].ascend", "number"),
                ("paths[].distance", "number"),
                ("paths[].instructions[].distance", "number"),
                ("paths[].time", "integer"),
                ("paths[].instructions[].time", "integer"),
                ("paths[].points_encoded", "boolean"),
            ],
        );
        for (f, d) in [
            (0, "The total ascent, in meters."),
            (1, "The total distance, in meters."),
            (2, "The distance for this instruction, in meters."),
            (3, "The total travel time, in milliseconds."),
            (4, "The duration for this instruction, in milliseconds."),
        ] {
            route.fields[f].description = Some(d.into());
        }
        let f = |q: &str| {
            let q = Query::new(q);
            let mut reasons = BTreeMap::new();
            let names = names_of(&route);
            measured_fields(&route, &q, &q.stems, &names, &mut reasons);
            named(&route, reasons.into_keys().collect())
        };
        assert_eq!(
            f("how many kilometres is the bike route from 52.52,13.40 to 52.39,13.06"),
            ["paths[].distance"]
        );
        assert_eq!(
            f("how long does it take by car from 51.50,-0.12 to 51.75,-1.25"),
            ["paths[].time"]
        );
        // The question's words choose among the fields of the dimension.
        assert_eq!(
            f("how many minutes does each instruction take"),
            ["paths[].instructions[].time"]
        );
        // A value's unit asks for nothing; nor does a question without a unit.
        assert!(f("a route of at most 5 km").is_empty());
        assert!(f("the route from a to b").is_empty());
        // "How many kilometres" counts no records; a number named for the unit answers.
        let podcast = endpoint(
            Some("episodes[]"),
            &[
                ("update_frequency_hours", "integer"),
                ("total_episodes", "integer"),
            ],
        );
        assert_eq!(
            named(
                &podcast,
                count_fields(
                    &podcast,
                    &names_of(&podcast),
                    &Query::new("every how many hours does podcast 4d3f put out an episode")
                )
            ),
            ["update_frequency_hours"]
        );
        let paged = endpoint(
            Some("paths[]"),
            &[("total", "integer"), ("paths[].distance", "number")],
        );
        assert!(
            count_fields(
                &paged,
                &names_of(&paged),
                &Query::new("how many kilometres is the route")
            )
            .is_empty()
        );
    }

    #[test]
    fn a_count_question_takes_the_number_that_counts() {
        let setlists = endpoint(
            Some("setlist[]"),
            &[
                ("page", "integer"),
                ("itemsPerPage", "integer"),
                ("total", "integer"),
                ("eventDate", "string"),
            ],
        );
        let f = |e: &crate::artifact::EndpointData, q: &str| {
            named(e, count_fields(e, &names_of(e), &Query::new(q)))
        };
        assert_eq!(
            f(&setlists, "how many setlists are there for radiohead"),
            ["total"]
        );
        assert_eq!(f(&setlists, "number of concerts by coldplay"), ["total"]);
        // Not a count question; paging fields are no count.
        assert!(f(&setlists, "setlists of radiohead").is_empty());
        let paged = endpoint(
            Some("[]"),
            &[
                ("page", "integer"),
                ("per_page", "integer"),
                ("name", "string"),
            ],
        );
        assert!(f(&paged, "how many tags are there").is_empty());
        // Spellings of a list's total.
        let books = endpoint(
            None,
            &[("totalItems", "integer"), ("items[].title", "string")],
        );
        assert_eq!(f(&books, "how many books about dune"), ["totalItems"]);
        let nyt = endpoint(
            None,
            &[("num_results", "integer"), ("results[].title", "string")],
        );
        assert_eq!(
            f(&nyt, "how many articles are on the list"),
            ["num_results"]
        );
        // A number named by what is counted wins over the list's total.
        let genres = endpoint(
            Some("results[]"),
            &[
                ("count", "integer"),
                ("name", "string"),
                ("games_count", "integer"),
            ],
        );
        assert_eq!(
            f(&genres, "how many games does each genre have"),
            ["games_count"]
        );
        let podcast = endpoint(
            None,
            &[
                ("total_episodes", "integer"),
                ("episodes[].title", "string"),
                ("title", "string"),
            ],
        );
        assert_eq!(
            f(&podcast, "how many episodes does podcast 4d3fe7 have"),
            ["total_episodes"]
        );
        // One record without a number of the counted thing: nothing to add.
        let user = endpoint(None, &[("login", "string"), ("followers", "integer")]);
        assert!(f(&user, "how many repositories does x have").is_empty());
        assert_eq!(
            f(&user, "how many followers does gvanrossum have"),
            ["followers"]
        );
    }

    #[test]
    fn prefixes_of_four_letters_match() {
        assert!(stems_match("temp", "temperatur"));
        assert!(stems_match("stargaz", "star"));
        assert!(!stems_match("id", "idea"));
        assert!(!stems_match("name", "nation"));
    }
}
