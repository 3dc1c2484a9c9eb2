//! The `core` projection's safety net, read from the question's own words: beside a field
//! projected for a requested concept, a related field of the same endpoint whose own words the
//! question uses. "How far apart are the Voigt and **Reuss** bounds of the bulk modulus" names
//! `bulk_modulus.reuss` beside `bulk_modulus.voigt`; "how much comes from the **ions** versus the
//! **electrons**" names `e_ionic` and `e_electronic` beside `e_total`; "is the gap **direct**"
//! names `is_gap_direct` beside `band_gap`; "the moment on each **site**" names `spinD` beside
//! `spin_atom`. The concepts the Understand step read chose one field; the question asks for the
//! value in several ways.
//!
//! Two fields are related when their names (the last two path segments) or their concepts share
//! a content word. A field's own words are those of its name, concepts and qualifier values that
//! the projected field's lack, and the words of its description that the projected field's
//! description and name lack. A question word names an own word when their stems are equal, when
//! one is the other with an adjective's suffix (`ion` / `ionic`, `electron` / `electronic`),
//! or when the own word is the question word with a negating prefix (`uncorrected` for
//! "corrections": a question about the corrected value and the value before it). Only the `core`
//! projection runs this pass (`minimal` keeps what the concepts chose, `recall` the groups).

use super::algorithm::field_meta;
use super::{FieldReason, Plan, PlannedField, Projection, Step};
use crate::artifact::{EndpointData, FieldData, FrozenGraph, ToolData};
use crate::search::text;

/// Add to each step the fields the question names apart (see the module docs).
pub(super) fn add(
    g: &FrozenGraph,
    question: &str,
    projection: Projection,
    metadata: bool,
    plan: &mut Plan,
) {
    if projection != Projection::Core {
        return;
    }
    let question = question_stems(question);
    if question.is_empty() {
        return;
    }
    for step in &mut plan.steps {
        let Some((_, t)) = g.tool(&step.tool) else {
            continue;
        };
        let Some(e) = t.endpoints.iter().find(|e| e.id == step.endpoint) else {
            continue;
        };
        let anchors: Vec<Words> = step
            .fields
            .iter()
            .filter(|f| {
                f.reasons
                    .iter()
                    .any(|r| matches!(r, FieldReason::Concept { .. }))
            })
            .filter_map(|f| e.fields.iter().find(|x| x.name == f.name))
            .map(Words::of)
            .collect();
        let projected: Vec<String> = anchors
            .iter()
            .flat_map(|a| a.labels.iter().chain(&a.path).cloned())
            .collect();
        let asked: Vec<String> = question
            .iter()
            .filter(|q| !projected.contains(q))
            .cloned()
            .collect();
        let mut added: Vec<PlannedField> = Vec::new();
        if asked.is_empty() {
            continue;
        }
        let described: Vec<String> = anchors
            .iter()
            .flat_map(|a| a.description.iter().cloned())
            .collect();
        let heads: Vec<String> = projected
            .iter()
            .filter(|w| w.chars().count() >= 3)
            .map(|w| head(w, 2))
            .collect();
        for cand in e.fields.iter().filter(|c| !c.identifier) {
            if step.fields.iter().any(|f| f.name == cand.name)
                || !may_relate(cand, &heads)
                || !may_name(cand, &asked)
            {
                continue;
            }
            let words = Words::of(cand);
            let Some(of) = anchors
                .iter()
                .find(|a| related(a, &words) && names_apart(a, &words, &asked, &described))
            else {
                continue;
            };
            added.push(variant_of(g, t, cand, &of.field.name, metadata));
        }
        add_in_order(step, e, added);
    }
}

/// Field `cand` of tool `t` planned as a variant of the projected field `of` (reason
/// `Variant`), with its metadata when `metadata`.
pub(super) fn variant_of(
    g: &FrozenGraph,
    t: &ToolData,
    cand: &FieldData,
    of: &str,
    metadata: bool,
) -> PlannedField {
    let reasons = vec![FieldReason::Variant { of: of.to_string() }];
    PlannedField {
        name: cand.name.clone(),
        identifier: false,
        meta: metadata.then(|| field_meta(g, t, cand, &reasons)),
        reasons,
    }
}

/// Field `cand` of tool `t` planned as a field of group `group` the question names as a whole
/// (reason `Group`), with its metadata when `metadata`.
pub(super) fn in_group(
    g: &FrozenGraph,
    t: &ToolData,
    cand: &FieldData,
    group: &str,
    metadata: bool,
) -> PlannedField {
    let reasons = vec![FieldReason::Group {
        group: group.to_string(),
    }];
    PlannedField {
        name: cand.name.clone(),
        identifier: false,
        meta: metadata.then(|| field_meta(g, t, cand, &reasons)),
        reasons,
    }
}

/// Field `cand` of tool `t` planned because a question word asks for a field of its kind
/// (`kind`: date, person, place, count; reason `Asked`), with its metadata when `metadata`.
pub(super) fn asked_as(
    g: &FrozenGraph,
    t: &ToolData,
    cand: &FieldData,
    kind: &str,
    metadata: bool,
) -> PlannedField {
    let reasons = vec![FieldReason::Asked {
        field_kind: kind.to_string(),
    }];
    PlannedField {
        name: cand.name.clone(),
        identifier: false,
        meta: metadata.then(|| field_meta(g, t, cand, &reasons)),
        reasons,
    }
}

/// Add `added` to a step's fields, keeping them all in endpoint `e`'s field order.
pub(super) fn add_in_order(step: &mut Step, e: &EndpointData, added: Vec<PlannedField>) {
    if added.is_empty() {
        return;
    }
    step.fields.extend(added);
    step.fields.sort_by_key(|f| position(e, &f.name));
}

/// The first letters of a stem, all but `spare` of them and at least three: what any word the
/// stem came from starts with (`energi` from "energy": `energ`).
fn head(stem: &str, spare: usize) -> String {
    let n = stem.chars().count();
    stem.chars().take(n.saturating_sub(spare).max(3)).collect()
}

/// A cheap test before [`related`]: whether the field's name or concepts (in lower case) hold
/// the head of a word of the projected fields' names and concepts.
fn may_relate(f: &FieldData, heads: &[String]) -> bool {
    let mut hay = f.name.to_lowercase();
    for c in &f.concepts {
        hay.push(' ');
        hay.push_str(c);
    }
    heads.iter().any(|h| hay.contains(h.as_str()))
}

/// A cheap test before stemming a field's words: whether a word of its text (name parts,
/// concepts, qualifier values, description, in lower case) could be one [`names`] accepts for an
/// asked stem: the stem itself (a stem under three letters: only that), or a word that starts
/// with the stem's head, after a negating prefix or not.
fn may_name(f: &FieldData, asked: &[String]) -> bool {
    let mut words: Vec<String> = Vec::new();
    for (a, b) in text::split_identifier(&f.name) {
        words.push(f.name[a..b].to_lowercase());
    }
    let mut prose: Vec<&str> = f.concepts.iter().map(String::as_str).collect();
    prose.extend(f.qualifiers.values().map(String::as_str));
    prose.extend(f.description.as_deref());
    for p in prose {
        words.extend(
            p.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase),
        );
    }
    asked.iter().any(|q| {
        let n = q.chars().count();
        if n < 3 {
            return words.iter().any(|w| w == q);
        }
        let head = head(q, 3);
        words.iter().any(|w| {
            w.starts_with(&head)
                || ["un", "non", "in", "im", "dis"]
                    .iter()
                    .any(|p| w.strip_prefix(p).is_some_and(|r| r.starts_with(&head)))
        })
    })
}

/// A field's position on its endpoint (fields not found last).
fn position(e: &EndpointData, name: &str) -> usize {
    e.fields
        .iter()
        .position(|f| f.name == name)
        .unwrap_or(usize::MAX)
}

/// The question's content stems, without light words ("next", "few", "now") and without the
/// words of the projected fields' names and concepts (they named what is projected already).
fn question_stems(question: &str) -> Vec<String> {
    let text = text::normalise(question);
    let mut out: Vec<String> = Vec::new();
    for t in text::terms(&text) {
        let word = text[t.start..t.end].to_lowercase();
        if text::is_light_word(&word) || out.contains(&t.stem) {
            continue;
        }
        out.push(t.stem);
    }
    out
}

/// Words of a field name that say of what a value is, not which value: a list item's `type`, a
/// record's `value`, a wrapper's `data` or `items`. A field whose name differs from a projected one only by such words is
/// named apart by its description.
const GENERIC_NAME_WORDS: &[&str] = &["data", "item", "kind", "type", "valu"];

/// The stems of the parts of a field's path, its last `segments` segments split as identifiers
/// (`bulk_modulus.reuss`: bulk, modulus, reuss; `band_gap[].type`: band, gap, type). Single
/// letters are left out (`spinD`: spin).
fn path_stems(f: &FieldData, segments: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for segment in f.name.rsplit('.').take(segments) {
        let segment = segment.replace("[]", "");
        for (a, b) in text::split_identifier(&segment) {
            for st in text::stems(&segment[a..b]) {
                if st.chars().count() > 1 && !out.contains(&st) {
                    out.push(st);
                }
            }
        }
    }
    out
}

/// A field's stems, read once per step: its name's last two segments with its concepts'
/// (`labels`: what relates two fields, so that a long path's common prefix such as
/// `results.properties` relates nothing), its whole path's (`path`: what sets two fields apart,
/// `hourly.data[].wind.dir` from `current.wind.dir`), and its description's and qualifier
/// values' (`description`).
struct Words<'a> {
    field: &'a FieldData,
    path: Vec<String>,
    labels: Vec<String>,
    description: Vec<String>,
}

impl<'a> Words<'a> {
    fn of(field: &'a FieldData) -> Words<'a> {
        let path = path_stems(field, usize::MAX);
        let mut labels = path_stems(field, 2);
        for c in &field.concepts {
            labels.extend(text::stems(c));
        }
        let mut description: Vec<String> = field
            .description
            .as_deref()
            .map(|d| text::stems(d).collect())
            .unwrap_or_default();
        for v in field.qualifiers.values() {
            description.extend(text::stems(v));
        }
        Words {
            field,
            path,
            labels,
            description,
        }
    }
}

/// Whether two fields' names or concepts share a content word of three letters or more.
fn related(f: &Words, g: &Words) -> bool {
    g.labels
        .iter()
        .any(|w| w.chars().count() >= 3 && f.labels.contains(w))
}

/// Whether the question names `g` apart from `f` (see the module docs): every word of `g`'s
/// name that `f`'s name and concepts lack is named by the question; or, when those words only
/// say of what a value is (`type`) and `g`'s name adds nothing else to `f`'s name, a word of
/// `g`'s description or qualifiers that no projected field's description (`described`) holds
/// ("ask" in "ask exchange" beside the projected "bid price" and "ask price" names nothing).
fn names_apart(f: &Words, g: &Words, asked: &[String], described: &[String]) -> bool {
    let generic = |w: &String| GENERIC_NAME_WORDS.contains(&w.as_str());
    let named = |w: &&String| asked.iter().any(|q| names(q, w));
    let known = |w: &String| f.labels.contains(w) || f.path.contains(w);
    let own_name: Vec<&String> = g
        .path
        .iter()
        .filter(|w| !known(w) && !text::is_light_word(w) && !generic(w))
        .collect();
    if !own_name.is_empty() {
        return own_name.iter().all(named);
    }
    // Its path adds nothing but such words to `f`'s path (`spinD` beside `spin_atom`), not only
    // to `f`'s concepts (`energy_atom` beside a formation energy is another quantity).
    if g.path.iter().any(|w| !f.path.contains(w) && !generic(w)) {
        return false;
    }
    g.description
        .iter()
        .filter(|w| !described.contains(w) && !known(w) && !text::is_light_word(w))
        .any(|w| named(&w))
}

/// English suffixes that make an adjective of a noun (`ion` -> `ionic`, `electron` ->
/// `electronic`, `nature` -> `natural`): language data, as the stop words are.
const ADJECTIVE_SUFFIXES: &[&str] = &["al", "ar", "ary", "ial", "ic", "ical", "ive", "ous"];

/// Whether a question stem `q` names a field's own stem `w`: equal, one the other with an
/// adjective's suffix ([`ADJECTIVE_SUFFIXES`], from three letters up), or `w` the negation of `q` (`un`, `non`, `in`,
/// `im`, `dis` before it, `q` four letters or more).
fn names(q: &str, w: &str) -> bool {
    if q == w {
        return true;
    }
    let (short, long) = if q.len() <= w.len() { (q, w) } else { (w, q) };
    if short.chars().count() >= 3
        && long
            .strip_prefix(short)
            .is_some_and(|rest| ADJECTIVE_SUFFIXES.contains(&rest))
    {
        return true;
    }
    q.chars().count() >= 4
        && ["un", "non", "in", "im", "dis"]
            .iter()
            .any(|p| w.strip_prefix(p) == Some(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, concepts: &[&str], description: &str) -> FieldData {
        serde_json::from_value(serde_json::json!({
            "name": name,
            "type": "number",
            "concepts": concepts,
            "description": description,
        }))
        .unwrap()
    }

    fn named(f: &FieldData, g: &FieldData, question: &str) -> bool {
        let (f, g) = (Words::of(f), Words::of(g));
        let asked: Vec<String> = question_stems(question)
            .into_iter()
            .filter(|q| !f.labels.contains(q))
            .collect();
        related(&f, &g) && names_apart(&f, &g, &asked, &f.description)
    }

    #[test]
    fn a_variant_the_question_names_is_kept() {
        let voigt = field(
            "bulk_modulus.voigt",
            &["bulk_modulus_voigt"],
            "Voigt average.",
        );
        let reuss = field(
            "bulk_modulus.reuss",
            &["bulk_modulus_reuss"],
            "Reuss average.",
        );
        assert!(named(
            &voigt,
            &reuss,
            "the Voigt and Reuss bounds of the bulk modulus"
        ));
        assert!(!named(&voigt, &reuss, "the Voigt bulk modulus of Si"));
        let total = field(
            "e_total",
            &["dielectric_constant"],
            "Total dielectric constant, ionic plus electronic.",
        );
        let ionic = field(
            "e_ionic",
            &["dielectric_constant_ionic"],
            "Ionic contribution to the dielectric constant.",
        );
        assert!(named(
            &total,
            &ionic,
            "how much comes from the ions versus the electrons"
        ));
        assert!(!named(&total, &ionic, "dielectric constant of SrTiO3"));
        let corrected = field(
            "energy_per_atom",
            &["total_energy"],
            "Corrected total energy.",
        );
        let raw = field(
            "uncorrected_energy_per_atom",
            &["uncorrected_total_energy"],
            "Total energy before energy corrections.",
        );
        assert!(named(
            &corrected,
            &raw,
            "energy before and after the corrections"
        ));
        assert!(!named(&corrected, &raw, "energy per atom of Fe2O3"));
    }

    #[test]
    fn unrelated_fields_and_shared_words_name_nothing() {
        let gap = field("band_gap", &["band_gap"], "Band gap.");
        let direct = field(
            "is_gap_direct",
            &["direct_gap"],
            "Whether the band gap is direct.",
        );
        let density = field(
            "density",
            &["density"],
            "Mass density, direct from the cell.",
        );
        assert!(named(
            &gap,
            &direct,
            "is the band gap of InP direct or indirect"
        ));
        // Related, but "gap" is a word both have.
        assert!(!named(&gap, &direct, "the band gap of InP"));
        // `density` shares no word with `band_gap`.
        assert!(!named(&gap, &density, "is the band gap of InP direct"));
    }

    #[test]
    fn every_word_that_sets_a_name_apart_must_be_named() {
        let voigt = field(
            "bulk_modulus.voigt",
            &["bulk_modulus_voigt"],
            "Voigt average.",
        );
        let shear = field(
            "shear_modulus.reuss",
            &["shear_modulus_reuss"],
            "Reuss average.",
        );
        // "Reuss" is named, "shear" is not: another quantity.
        assert!(!named(
            &voigt,
            &shear,
            "the Voigt and Reuss bounds of the bulk modulus"
        ));
        let atom = field(
            "spin_atom",
            &["magnetic_moment_per_atom"],
            "Moment per atom.",
        );
        let sites = field(
            "spinD",
            &["site_magnetic_moments"],
            "Spin decomposition, the moment of each atom in site order.",
        );
        assert!(named(
            &atom,
            &sites,
            "the average per atom and the moment on each site"
        ));
        assert!(!named(
            &atom,
            &sites,
            "the magnetic moment per atom of Fe3O4"
        ));
        // `energy` is in the projected field's concept, not its name: another quantity.
        let formation = field(
            "enthalpy_formation_atom",
            &["formation_energy_per_atom"],
            "Formation enthalpy per atom.",
        );
        let energy = field(
            "energy_atom",
            &["total_energy"],
            "Total energy per atom of the cell.",
        );
        assert!(!named(
            &formation,
            &energy,
            "formation enthalpy per atom and the total for the cell"
        ));
        // A list item's `type` beside its `value`: named apart by its description.
        let value = field(
            "electronic.band_gap[].value",
            &["band_gap"],
            "Band gap value.",
        );
        let kind = field(
            "electronic.band_gap[].type",
            &[],
            "Gap type per band_gap entry: direct or indirect.",
        );
        assert!(named(
            &value,
            &kind,
            "which band gaps of ZnO, direct or indirect?"
        ));
        assert!(!named(&value, &kind, "which band gaps of ZnO are there?"));
        // Another record of the response (`hourly` beside `current`) is not named by a word of
        // its description alone.
        let now = field("current.wind.dir", &["wind_dir"], "Wind direction.");
        let hourly = field(
            "hourly.data[].wind.dir",
            &["wind_dir"],
            "Wind direction, today by the hour.",
        );
        assert!(!named(
            &now,
            &hourly,
            "wind speed and direction in wellington today"
        ));
        assert!(named(
            &now,
            &hourly,
            "wind direction now and hourly in wellington"
        ));
    }

    #[test]
    fn words_name_their_forms() {
        assert!(names("ion", "ionic"));
        assert!(names("electron", "electronic"));
        assert!(names("correct", "uncorrect"));
        assert!(!names("at", "atom"));
        assert!(!names("cell", "cellular"));
        assert!(!names("form", "formation"));
        // "ask" names no `asksize`: `size` is no adjective's suffix.
        assert!(!names("ask", "asksiz"));
    }
}
