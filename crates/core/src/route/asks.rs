//! The `core` projection's safety net for a question word that names a kind of field: "when was
//! it measured" asks for a date of the record, "who measured it" for a person, "where" for a
//! place, "how many" for a count (`question_words.txt` beside this file: the cues, as language
//! data). When a step plans no field of that kind, the endpoint's fields of the kind are added:
//! dates by their declared type (`date`, `datetime`) or the words of their name and concepts
//! (date, year, time, created, updated, published), persons, places and counts by the words of
//! theirs. A field that contradicts a requested qualifier stays out, and an identifier is never
//! added. Only the `core` projection runs this pass.

use super::algorithm::{QualStatus, qual_status, resolve_qualifiers};
use super::{Plan, PlannedField, Projection, Understanding, named};
use crate::artifact::{FieldData, FrozenGraph};
use crate::route::ranked::project::stems_match;
use crate::search::text;
use std::sync::LazyLock;

/// The cues, declared as language data in `question_words.txt` beside this file.
const CUE_DATA: &str = include_str!("question_words.txt");

/// The cues as (words, kind), in file order.
static CUES: LazyLock<Vec<(Vec<&'static str>, &'static str)>> = LazyLock::new(|| {
    super::data_lines(CUE_DATA)
        .filter_map(|l| l.split_once('='))
        .map(|(cue, kind)| (cue.split_whitespace().collect(), kind.trim()))
        .filter(|(cue, kind): &(Vec<&str>, &str)| !cue.is_empty() && !kind.is_empty())
        .collect()
});

/// Per field kind, the words of a field's name or concepts that make it one of that kind.
const KIND_WORDS: &[(&str, &[&str])] = &[
    (
        "date",
        &[
            "date",
            "year",
            "time",
            "timestamp",
            "created",
            "updated",
            "published",
            "modified",
        ],
    ),
    (
        "person",
        &[
            "author",
            "authors",
            "authorships",
            "owner",
            "operator",
            "creator",
            "editor",
            "inventor",
            "assignee",
            "submitter",
            "user",
        ],
    ),
    (
        "place",
        &[
            "location",
            "country",
            "city",
            "place",
            "address",
            "region",
            "latitude",
            "longitude",
        ],
    ),
    // "number" is no count word: `symmetry.number` is the space group's number.
    ("count", &["count", "counts"]),
];

/// Auxiliary verbs that make the word before them a question word ("when was", "who did").
const AUX: &[&str] = &[
    "was", "were", "is", "are", "did", "does", "do", "has", "have", "had", "will", "can",
];

/// A question's words (lower case; letters and digits) with, per word, whether a clause starts
/// at it (the first word, or one after `,` `;` `:` `(` `?`).
fn words(question: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut start = true;
    let mut word = String::new();
    for c in question.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
            continue;
        }
        if !word.is_empty() {
            out.push((std::mem::take(&mut word), start));
            start = false;
        }
        if matches!(c, ',' | ';' | ':' | '(' | '?' | '!') {
            start = true;
        }
    }
    out
}

/// The field kinds the question's words ask for as question words (see `question_words.txt`).
pub(super) fn kinds(question: &str) -> Vec<&'static str> {
    let w = words(question);
    let mut out: Vec<&'static str> = Vec::new();
    for (cue, kind) in CUES.iter() {
        let n = cue.len();
        let asks = (0..w.len().saturating_sub(n - 1)).any(|i| {
            let same = w[i..i + n].iter().zip(cue).all(|((a, _), b)| a == b);
            let opens = w[i].1
                || i.checked_sub(1)
                    .is_some_and(|p| matches!(w[p].0.as_str(), "and" | "or"));
            let aux = w.get(i + n).is_some_and(|(x, _)| AUX.contains(&x.as_str()));
            // A cue of two words or more is a question word wherever it stands.
            same && (opens || aux || n >= 2)
        });
        if asks && !out.contains(kind) {
            out.push(kind);
        }
    }
    out
}

/// The words of a field's name (split at `.`, `_`, `-`, `[]` and lower-to-upper case changes)
/// and of its concepts' ids.
fn field_words(f: &FieldData) -> Vec<String> {
    let mut out = Vec::new();
    let mut split = |text: &str| {
        let mut cur = String::new();
        let mut prev_lower = false;
        for c in text.chars() {
            if !c.is_alphanumeric() {
                out.push(std::mem::take(&mut cur));
                prev_lower = false;
                continue;
            }
            if c.is_uppercase() && prev_lower {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = c.is_lowercase();
            cur.extend(c.to_lowercase());
        }
        out.push(cur);
    };
    split(&f.name);
    f.concepts.iter().for_each(|c| split(c));
    out.retain(|w| !w.is_empty());
    out
}

/// Whether field `f` is of `kind`: a date by its type or words, another kind by its words; a
/// count is an integer.
pub(super) fn of_kind(f: &FieldData, kind: &str) -> bool {
    if kind == "date" && matches!(f.ty.as_str(), "date" | "datetime") {
        return true;
    }
    if kind == "count" && f.ty != "integer" {
        return false;
    }
    if kind == "date" && !matches!(f.ty.as_str(), "string" | "integer") {
        return false;
    }
    let Some((_, names)) = KIND_WORDS.iter().find(|(k, _)| *k == kind) else {
        return false;
    };
    field_words(f).iter().any(|w| names.contains(&w.as_str()))
}

/// Above this many fields of the kind asked, the question's other words choose among them
/// ([`narrowed`]).
const FEW_OF_A_KIND: usize = 3;

/// Of the fields of one kind an endpoint has, those the question asks for. A few are all kept.
/// Of more, those whose names hold the most of the question's words ("when do public ticket
/// sales start": `sales.public.startDateTime` of thirty dates), then the fewest other words;
/// when the question's words name
/// none of them, the shallowest ones (the record's own dates before those of its nested
/// parts), in field order.
fn narrowed<'f>(candidates: Vec<&'f FieldData>, question: &[String]) -> Vec<&'f FieldData> {
    if candidates.len() <= FEW_OF_A_KIND {
        return candidates;
    }
    // (question words named, the name's words that are not the question's), best first.
    let key = |f: &FieldData| {
        let words: Vec<String> = text::stems(&f.name).collect();
        let hits = question
            .iter()
            .filter(|q| words.iter().any(|w| stems_match(w, q)))
            .count();
        let extra = words
            .iter()
            .filter(|w| !question.iter().any(|q| stems_match(w, q)))
            .count();
        (std::cmp::Reverse(hits), extra)
    };
    let best = candidates.iter().map(|f| key(f)).min();
    if let Some(best) = best.filter(|(hits, _)| hits.0 > 0) {
        return candidates.into_iter().filter(|f| key(f) == best).collect();
    }
    let depth = |f: &FieldData| f.name.matches(['.', '[']).count();
    let shallowest = candidates.iter().map(|f| depth(f)).min().unwrap_or(0);
    candidates
        .into_iter()
        .filter(|f| depth(f) == shallowest)
        .collect()
}

/// Add to each step the fields of each kind the question's question words ask for, where the
/// step plans none of that kind (see the module docs).
pub(super) fn add(
    g: &FrozenGraph,
    question: &str,
    u: &Understanding,
    projection: Projection,
    metadata: bool,
    plan: &mut Plan,
) {
    if projection != Projection::Core {
        return;
    }
    let kinds = kinds(question);
    if kinds.is_empty() {
        return;
    }
    let quals = resolve_qualifiers(g, u);
    let question_stems: Vec<String> = text::stems(question).collect();
    for step in &mut plan.steps {
        let Some((_, t)) = g.tool(&step.tool) else {
            continue;
        };
        let Some(e) = t.endpoints.iter().find(|e| e.id == step.endpoint) else {
            continue;
        };
        let planned = |kind: &str| {
            step.fields.iter().any(|p| {
                e.fields
                    .iter()
                    .any(|f| f.name == p.name && !f.identifier && of_kind(f, kind))
            })
        };
        let mut added: Vec<PlannedField> = Vec::new();
        for kind in kinds.iter().filter(|k| !planned(k)) {
            let candidates: Vec<&FieldData> = e
                .fields
                .iter()
                .filter(|f| !f.identifier && of_kind(f, kind))
                .filter(|f| {
                    !quals
                        .iter()
                        .any(|q| qual_status(g, f, q) == QualStatus::Contradict)
                })
                .collect();
            for f in narrowed(candidates, &question_stems) {
                if step.fields.iter().chain(&added).any(|p| p.name == f.name) {
                    continue;
                }
                added.push(named::asked_as(g, t, f, kind, metadata));
            }
        }
        named::add_in_order(step, e, added);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_words_ask_only_as_question_words() {
        for (q, want) in [
            (
                "Who measured the bulk modulus of our BaTiO3 samples, when, and what value?",
                vec!["date", "person"],
            ),
            ("when was the paper on CsPbI3 published?", vec!["date"]),
            (
                "What year did the first perovskite paper appear",
                vec!["date"],
            ),
            ("In which country is the lab?", vec!["place"]),
            ("how many atoms are in the Cu2O cell", vec!["count"]),
            ("band gap of GaN (and when was it computed)", vec!["date"]),
            // A conjunction or a relative pronoun asks for nothing.
            (
                "Did the space group of SiO2 change when AFLOW relaxed the structure?",
                vec![],
            ),
            ("the person who measured the density of MgO", vec![]),
            ("band gap of GaN", vec![]),
        ] {
            assert_eq!(kinds(q), want, "{q}");
        }
    }

    fn field(name: &str, ty: &str, concepts: &[&str]) -> FieldData {
        serde_json::from_value(serde_json::json!({
            "name": name,
            "type": ty,
            "concepts": concepts,
        }))
        .unwrap()
    }

    #[test]
    fn fields_are_of_a_kind_by_type_or_words() {
        assert!(of_kind(&field("measured_at", "date", &[]), "date"));
        assert!(of_kind(&field("publication_year", "integer", &[]), "date"));
        assert!(of_kind(&field("createdAt", "string", &[]), "date"));
        assert!(of_kind(
            &field("x", "string", &["measurement_date"]),
            "date"
        ));
        assert!(!of_kind(&field("band_gap", "number", &[]), "date"));
        assert!(!of_kind(&field("relaxation_time", "number", &[]), "date"));
        assert!(of_kind(
            &field("operator_id", "string", &["operator"]),
            "person"
        ));
        assert!(of_kind(
            &field("authorships[].author.display_name", "string", &[]),
            "person"
        ));
        assert!(!of_kind(&field("title", "string", &[]), "person"));
        assert!(of_kind(&field("location.country", "string", &[]), "place"));
        assert!(of_kind(&field("cited_by_count", "integer", &[]), "count"));
        assert!(!of_kind(&field("count_ratio", "number", &[]), "count"));
        assert!(!of_kind(&field("natoms", "integer", &[]), "count"));
        assert!(!of_kind(&field("symmetry.number", "integer", &[]), "count"));
    }

    fn names(fs: Vec<&FieldData>) -> Vec<&str> {
        fs.into_iter().map(|f| f.name.as_str()).collect()
    }

    #[test]
    fn of_many_fields_of_a_kind_the_question_words_choose() {
        let dates: Vec<FieldData> = [
            "dates.start.localDate",
            "dates.start.dateTime",
            "dates.end.dateTime",
            "sales.public.startDateTime",
            "sales.public.endDateTime",
            "sales.presales[].startDateTime",
        ]
        .iter()
        .map(|n| field(n, "string", &[]))
        .collect();
        let all: Vec<&FieldData> = dates.iter().collect();
        let stems = |q: &str| text::stems(q).collect::<Vec<_>>();
        assert_eq!(
            names(narrowed(
                all.clone(),
                &stems("when do public ticket sales start for event vvG1IZ")
            )),
            ["sales.public.startDateTime"]
        );
        assert_eq!(
            names(narrowed(all.clone(), &stems("when does the show end"))),
            ["dates.end.dateTime"]
        );
        // No other word names one: the shallowest.
        assert_eq!(
            names(narrowed(all.clone(), &stems("when is it"))),
            [
                "dates.start.localDate",
                "dates.start.dateTime",
                "dates.end.dateTime",
                "sales.public.startDateTime",
                "sales.public.endDateTime"
            ]
        );
        // A few are all kept.
        assert_eq!(
            names(narrowed(
                all[..3].to_vec(),
                &stems("when does the show end")
            )),
            [
                "dates.start.localDate",
                "dates.start.dateTime",
                "dates.end.dateTime"
            ]
        );
    }

    use crate::route::analyzer::testing::planned_fields as fields;

    #[test]
    fn a_step_without_a_field_of_the_kind_asked_gets_them() {
        let plan = fields("Who measured the density of our Al2O3 pellets, and when?");
        assert_eq!(plan.len(), 1, "{plan:?}");
        assert_eq!(plan[0].0, "lab_notebook");
        for f in ["measured_density", "measured_at", "operator_id"] {
            assert!(plan[0].1.contains(&f.to_string()), "{f}: {plan:?}");
        }
        // Without the question word no date is added.
        let plan = fields("measured density of our Al2O3 pellets in the lab notebook");
        assert!(!plan[0].1.contains(&"measured_at".to_string()), "{plan:?}");
    }
}
