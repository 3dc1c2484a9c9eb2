//! The `core` projection's safety net for a question that asks for every variant of a value or
//! for the parts of a total ("with the upper and lower bounds", "in every normalisation it
//! offers", "what is it made up of", "each one"): the cue words are language data
//! (`every_cues.txt` beside this file), not code. Beside each field projected for a requested
//! concept, such a question keeps the fields of the same endpoint that publish that value in
//! another way: the other fields of the concept (one per record kind, per method or per
//! direction), its variants ([`variants::is_variant`]: another averaging scheme, basis or
//! correction, or a part beside the total, whatever the question's words chose), and the fields
//! whose name extends its name in any unit ([`variants::extends`]: `total_magnetization_normalized_vol`
//! beside `total_magnetization`). A field that contradicts a requested qualifier stays out.
//! The core fields of a group the safety net kept, and a concept's companions (the number
//! behind a label), are read in every way too. Only the `core`
//! projection runs this pass (`minimal` keeps what the concepts chose, `recall`
//! the groups).

use super::algorithm::{QualStatus, qual_status, resolve_qualifiers};
use super::{FieldReason, Plan, PlannedField, Projection, Understanding};
use super::{named, variants};
use crate::artifact::{FieldData, FrozenGraph};
use std::sync::LazyLock;

/// Words that name a field group as a whole when the question names no concept ("the elastic
/// properties", "the thermal data", "magnetic stuff"), declared as language data in
/// `group_cues.txt` beside this file.
const GROUP_CUE_DATA: &str = include_str!("group_cues.txt");

/// The group cue words, in file order.
static GROUP_CUES: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| super::data_lines(GROUP_CUE_DATA).collect());

/// The `core` projection's safety net for a question that names its intent's one field group
/// as a whole ("the elastic properties of WC", "pull the AGL thermal data", "the magnetism of
/// CrI3"): no concept is requested and a group cue word or the group's own name
/// ([`names_group`]) is in the question, so each step keeps every field of that
/// group that no requested qualifier contradicts, where most of the group's fields are numbers
/// (the core fields alone answer "pyrite?" or "papers on perovskites", whose questions hold no
/// such word, a literature search for "data on perovskites", and an intent of several groups).
pub(super) fn add_group(
    g: &FrozenGraph,
    question: &str,
    u: &Understanding,
    projection: Projection,
    metadata: bool,
    plan: &mut Plan,
) {
    if projection != Projection::Core || !u.domain_concepts.is_empty() {
        return;
    }
    let Some(intent) = plan.intent.as_deref().and_then(|i| g.intent(i)) else {
        return;
    };
    let [gid] = intent.required_groups.as_slice() else {
        return;
    };
    if !words(question)
        .iter()
        .any(|w| GROUP_CUES.contains(&w.as_str()))
        && !names_group(question, gid)
    {
        return;
    }
    let quals = resolve_qualifiers(g, u);
    for step in &mut plan.steps {
        let Some((_, t)) = g.tool(&step.tool) else {
            continue;
        };
        let Some(e) = t.endpoints.iter().find(|e| e.id == step.endpoint) else {
            continue;
        };
        // A group of properties (most of its fields numbers), not of a record's descriptive
        // fields ("data on perovskites" in a literature search keeps the bibliographic core).
        let fields = e.group_fields.get(gid).map_or(&[][..], Vec::as_slice);
        let numeric = fields
            .iter()
            .filter(|f| matches!(e.field_at(**f).ty.as_str(), "number" | "integer"))
            .count();
        if numeric * 2 < fields.len() {
            continue;
        }
        let mut added: Vec<PlannedField> = Vec::new();
        for f in fields {
            let fd = e.field_at(*f);
            if step.fields.iter().any(|x| x.name == fd.name)
                || quals
                    .iter()
                    .any(|q| qual_status(g, fd, q) == QualStatus::Contradict)
            {
                continue;
            }
            added.push(named::in_group(g, t, fd, gid, metadata));
        }
        named::add_in_order(step, e, added);
    }
}

/// Whether a word of `question` names the group `gid` itself, in any form of its stem ("the
/// magnetism of CrI3" for `magnetic`, "mechanics" for `mechanical`): a word of five letters or
/// more whose Snowball stem is that of a word of the group's id.
fn names_group(question: &str, gid: &str) -> bool {
    use crate::search::text::stems;
    let group: Vec<String> = stems(gid).filter(|s| s.len() >= 5).collect();
    stems(question).any(|s| group.contains(&s))
}

/// The cue phrases, declared as language data in `every_cues.txt` beside this file.
const CUE_DATA: &str = include_str!("every_cues.txt");

/// The cue phrases as word lists, in file order.
static CUES: LazyLock<Vec<Vec<&'static str>>> = LazyLock::new(|| {
    super::data_lines(CUE_DATA)
        .map(|l| l.split_whitespace().collect())
        .collect()
});

/// The words of a question in lower case (letters and digits; `'` and `’` end a word).
fn words(question: &str) -> Vec<String> {
    question
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The cue of `question` that asks for every variant of a value, the first declared.
pub(super) fn cue(question: &str) -> Option<String> {
    let words = words(question);
    CUES.iter()
        .find(|cue| {
            words
                .windows(cue.len())
                .any(|w| w.iter().zip(cue.iter()).all(|(a, b)| a == b))
        })
        .map(|cue| cue.join(" "))
}

/// Words that quantify what follows them ("every game", "all of its moduli"); the other cues
/// name variants or parts themselves.
const QUANTIFIERS: &[&str] = &["all", "every", "each", "both", "whichever", "whatever"];

/// Whether every quantifier of a question (its `words`, its cue `cue`) quantifies the records an
/// endpoint at `url` lists: a word among the three after it is a literal segment of the URL's
/// path, in the same stem ("final scores of every clemson game" to `/games`: every game is
/// every record, which the list already returns, not every variant of the score). A question
/// whose cue is another ("the bounds", "made up of") is never this.
fn quantifies_records(words: &[String], cue: &str, url: &str) -> bool {
    use crate::search::text::stems;
    if !QUANTIFIERS.contains(&cue) {
        return false;
    }
    let path = url
        .split_once("://")
        .map_or(url, |(_, r)| r.split_once('/').map_or("", |(_, p)| p));
    let segments: Vec<String> = path
        .split(['/', '?', '#', '-', '_', '.'])
        .filter(|s| !s.is_empty() && !s.starts_with('{'))
        .flat_map(|s| stems(s).collect::<Vec<_>>())
        .collect();
    let at: Vec<usize> = words
        .iter()
        .enumerate()
        .filter(|(_, w)| QUANTIFIERS.contains(&w.as_str()))
        .map(|(i, _)| i)
        .collect();
    !at.is_empty()
        && at.iter().all(|&i| {
            words[i + 1..words.len().min(i + 4)]
                .iter()
                .any(|w| stems(w).any(|st| segments.contains(&st)))
        })
}

/// Add to each step every variant of its fields projected for a requested concept, when the
/// question asks for every variant (see the module docs).
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
    let Some(cue) = cue(question) else {
        return;
    };
    let question_words = words(question);
    let quals = resolve_qualifiers(g, u);
    for step in &mut plan.steps {
        let Some((_, t)) = g.tool(&step.tool) else {
            continue;
        };
        let Some(e) = t.endpoints.iter().find(|e| e.id == step.endpoint) else {
            continue;
        };
        if quantifies_records(&question_words, &cue, &e.url) {
            continue;
        }
        // The fields projected for a requested concept, with that concept, and the core
        // fields of a group the safety net kept and the companions of a requested concept (the
        // number behind a label), with their first concept.
        let anchors: Vec<(&FieldData, &str)> = step
            .fields
            .iter()
            .filter_map(|f| {
                let fd = e.fields.iter().find(|x| x.name == f.name)?;
                let concept = f.reasons.iter().find_map(|r| match r {
                    FieldReason::Concept { concept, .. } => Some(concept.as_str()),
                    FieldReason::Group { .. } | FieldReason::Companion { .. } => {
                        fd.concepts.first().map(String::as_str)
                    }
                    _ => None,
                })?;
                Some((fd, concept))
            })
            .collect();
        let mut added: Vec<PlannedField> = Vec::new();
        for cand in e.fields.iter().filter(|c| !c.identifier) {
            if step
                .fields
                .iter()
                .chain(&added)
                .any(|f| f.name == cand.name)
                || quals
                    .iter()
                    .any(|q| qual_status(g, cand, q) == QualStatus::Contradict)
            {
                continue;
            }
            let Some((of, _)) = anchors.iter().find(|(a, concept)| {
                cand.concepts.iter().any(|c| c.as_str() == *concept)
                    || variants::is_variant(a, cand)
                    || variants::extends(a, cand)
            }) else {
                continue;
            };
            added.push(named::variant_of(g, t, cand, &of.name, metadata));
        }
        named::add_in_order(step, e, added);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantifier_over_the_records_a_path_lists_asks_for_no_variant() {
        let over =
            |q: &str, url: &str| cue(q).is_some_and(|c| quantifies_records(&words(q), &c, url));
        let games = "https://api.test/games";
        assert!(over(
            "final scores of every clemson game in the 2018 season",
            games
        ));
        assert!(over("list all games of the season", games));
        // What the quantifier counts is no record of the path, or the cue is another.
        assert!(!over(
            "the magnetisation of Fe in every normalisation",
            "https://api.test/materials/summary/"
        ));
        assert!(!over("all of its moduli", games));
        assert!(!over("the upper and lower bounds of the games", games));
        assert!(!over("the final score of one game", games));
    }

    #[test]
    fn a_group_is_named_by_any_form_of_its_stem() {
        for (q, gid, want) in [
            (
                "what does MP say about the magnetism of CrI3",
                "magnetic",
                true,
            ),
            ("magnetic ordering of Fe", "magnetic", true),
            ("the mechanics of tungsten carbide", "mechanical", true),
            ("electronics of GaAs", "electronic", true),
            (
                "the dielectric response of BaTiO3",
                "dielectric_optical",
                true,
            ),
            ("the structure of NaCl", "structural", true),
            // Another group's word, a word inside another word.
            ("the magnetism of CrI3", "electronic", false),
            ("optics of MoS2", "dielectric_optical", true),
            ("the elastic properties", "thermodynamic", false),
            ("electromagnetism", "magnetic", false),
        ] {
            assert_eq!(names_group(q, gid), want, "{q} / {gid}");
        }
    }

    #[test]
    fn cues_are_whole_words_in_a_row() {
        for (q, want) in [
            (
                "shear modulus of W, with the upper and lower bounds please",
                Some("bounds"),
            ),
            (
                "magnetic moment of MnBi in every normalisation",
                Some("every"),
            ),
            (
                "what's the dielectric constant and what is it made up of?",
                Some("made up of"),
            ),
            (
                "the band gaps and what kind of calculation each one came from",
                Some("each"),
            ),
            ("total energy broken down by term", Some("broken down")),
            (
                "MP magnetisation of MnBi, whatever normalisation they use",
                Some("whatever"),
            ),
            ("the Voigt bound of the bulk modulus", None),
            ("the upper bound of the bulk modulus", None),
            ("band gap of GaN", None),
            // Inside another word it is no cue ("ball", "eachother" are not "all", "each").
            ("ball milling of eachother", None),
        ] {
            assert_eq!(cue(q).as_deref(), want, "{q}");
        }
    }

    #[test]
    fn every_cue_line_is_lower_case_words() {
        assert!(!CUES.is_empty());
        for cue in CUES.iter() {
            for w in cue {
                assert!(
                    w.chars().all(|c| c.is_lowercase() || c.is_ascii_digit()),
                    "{cue:?}"
                );
            }
        }
    }

    use crate::route::analyzer::testing::planned_fields as fields;

    fn one(tool: &str, names: &[&str]) -> Vec<(String, Vec<String>)> {
        vec![(
            tool.to_string(),
            names.iter().map(|n| n.to_string()).collect(),
        )]
    }

    #[test]
    fn the_parts_of_a_total_and_every_normalisation_are_kept() {
        let dielectric = ["e_electronic", "e_ionic", "e_total"];
        for q in [
            "dielectric constant of BaTiO3 in the Materials Project, broken down into its contributions",
            "what is the MP dielectric constant of SrTiO3 composed of?",
        ] {
            assert_eq!(fields(q), one("materials_project", &dielectric), "{q}");
        }
        // Without the cue the total keeps its parts too (`variants::chosen_over`).
        assert_eq!(
            fields("dielectric constant of BaTiO3 in the Materials Project"),
            one("materials_project", &dielectric)
        );
        let moments = [
            "total_magnetization",
            "total_magnetization_normalized_formula_units",
            "total_magnetization_normalized_vol",
        ];
        assert_eq!(
            fields("magnetic moment of Fe3O4 on MP, all normalisations please"),
            one("materials_project", &moments)
        );
        // A value the group's core kept (no concept of the question publishes it) is read in
        // every normalisation too.
        let plan = fields("How strongly magnetic is MnBi? MP numbers, whatever normalisation");
        for m in moments {
            assert!(plan[0].1.contains(&m.to_string()), "{m}: {plan:?}");
        }
    }

    #[test]
    fn every_field_of_the_concept_and_no_contradicted_one() {
        // Two records of one endpoint publish the band gap (the plain one and the one read
        // from the band structure).
        assert_eq!(
            fields("NOMAD band gaps of GaAs, each of them"),
            one(
                "nomad",
                &[
                    "results.properties.electronic.band_gap[].value",
                    "results.properties.electronic.band_structure_electronic.band_gap[].value"
                ]
            )
        );
        // A requested functional keeps its directions and leaves the other functional's out.
        assert_eq!(
            fields("every TBmBJ dielectric constant of GaN in JARVIS"),
            one("jarvis_dft", &["mepsx", "mepsy", "mepsz"])
        );
    }
}
