//! Variants of one value on one endpoint: the fields that publish the quantity a projected field
//! holds in another way (another averaging scheme, basis, method or correction), read from the
//! declarations' structure alone, so any catalog has them: both numeric, of one type, in units of
//! one dimension apart from the basis (eV/atom and eV/cell; μB/cell and μB/f.u.), and named as
//! one quantity: siblings under one parent (`shear_modulus.voigt`, `shear_modulus.vrh`), names
//! that differ in their last word only (`enthalpy_formation_atom`, `enthalpy_formation_cell`),
//! a name that extends the other (`total_magnetization`,
//! `total_magnetization_normalized_formula_units`), or the same concepts declared on fields
//! under different parents (one value published in two places of a record).
//!
//! The `core` projection adds them beside a field projected for a requested concept when the
//! request names no qualifier that rules them out (the "projection safety net": a
//! question that does not say which variant it means is answered with all of them, not with the
//! whole group).

use crate::artifact::FieldData;

/// The words of a field path: split at `.`, `_`, `-` and `[]`, lower case.
fn words(name: &str) -> Vec<String> {
    name.split(['.', '_', '-', '[', ']'])
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The quantity of a unit's dimension without its basis ("energy per atom" -> "energy").
fn base_dimension(f: &FieldData) -> Option<&str> {
    f.unit
        .as_ref()
        .map(|u| u.dimension.split(" per ").next().unwrap_or(&u.dimension))
}

/// Words of a field name that mark it as the total of parts published beside it (`e_total`
/// beside `e_ionic` and `e_electronic`).
const TOTAL_WORDS: &[&str] = &["total", "sum", "overall"];

/// Whether a request that asked with `asked` (the concept id or the text the request used)
/// chose `f` over its variant `g`: its words hold a word of `f`'s name that `g`'s lacks
/// ("K_VRH" chooses `bulk_modulus.vrh` over `bulk_modulus.voigt`, "formation enthalpy per atom"
/// `enthalpy_formation_atom` over `enthalpy_formation_cell`). A total and its parts never
/// choose each other out: the total is read with the parts it is made of (`e_total` with
/// `e_ionic` and `e_electronic` for "the dielectric constant"), and a part with the total it
/// belongs to ("the ionic contribution" keeps `e_total`).
pub(super) fn chosen_over(f: &FieldData, g: &FieldData, asked: &str) -> bool {
    let (a, b) = (words(&f.name), words(&g.name));
    let own: Vec<&String> = a.iter().filter(|w| !b.contains(w)).collect();
    let theirs = b.iter().filter(|w| !a.contains(w));
    let total = |w: &String| TOTAL_WORDS.contains(&w.as_str());
    if own.iter().any(|w| total(w)) || theirs.clone().any(total) {
        return false;
    }
    let asked: Vec<String> = asked
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    own.iter().any(|w| asked.iter().any(|x| x == *w))
}

/// Whether `f`'s description names `g` (its whole path, or its last two segments when they
/// hold a separator: "the estimator is in bulk_modulus[].type"): the declaration says the value
/// is read with that field.
pub(super) fn named_by(f: &FieldData, g: &FieldData) -> bool {
    let Some(d) = f.description.as_deref() else {
        return false;
    };
    if f.name == g.name {
        return false;
    }
    let segments: Vec<&str> = g.name.rsplitn(3, '.').collect();
    let short = match segments.as_slice() {
        [last, parent, _] | [last, parent] => format!("{parent}.{last}"),
        _ => g.name.clone(),
    };
    let mentions = |text: &str| {
        text.len() >= 6
            && text.contains(['.', '_'])
            && d.match_indices(text).any(|(i, _)| {
                let before = d[..i].chars().next_back();
                let after = d[i + text.len()..].chars().next();
                let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
                edge(before) && edge(after)
            })
    };
    mentions(&g.name) || mentions(&short)
}

/// Whether `g` is a variant of `f` (see the module documentation).
pub(super) fn is_variant(f: &FieldData, g: &FieldData) -> bool {
    if !comparable(f, g) || base_dimension(f) != base_dimension(g) {
        return false;
    }
    // The same concepts under another parent: one value published in two places of the
    // record (`band_gap[].value` and `band_structure_electronic.band_gap[].value`), unless a
    // qualifier tells them apart (`carrier: electron` and `carrier: hole` are two values).
    let apart = f
        .qualifiers
        .iter()
        .any(|(k, v)| g.qualifiers.get(k).is_some_and(|w| w != v));
    if !f.concepts.is_empty() && f.concepts == g.concepts && !apart {
        return true;
    }
    let (a, b) = (words(&f.name), words(&g.name));
    if negated_prefix(&a, &b) || negated_prefix(&b, &a) {
        return true;
    }
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return false;
    }
    let (short, long) = (a.len().min(b.len()), a.len().max(b.len()));
    // Names differing in their last word only, or one extending the other.
    (a.len() == b.len() && common == a.len() - 1) || (common == short && long > short)
}

/// Whether the name `long` is the name `short` after one negated participle (`un-...-ed`,
/// `non-...-ed`: the value before a correction, relaxation or normalisation):
/// `uncorrected_energy_per_atom` beside `energy_per_atom`, `unrelaxed_volume` beside `volume`
/// (`universal_anisotropy` is no negation of `anisotropy`).
fn negated_prefix(long: &[String], short: &[String]) -> bool {
    long.len() == short.len() + 1
        && long[1..] == *short
        && ["un", "non"].iter().any(|p| {
            long[0]
                .strip_prefix(p)
                .is_some_and(|rest| rest.len() >= 4 && rest.ends_with("ed"))
        })
}

/// Whether one of two numeric fields of one type has a name that extends the other's, whatever
/// their units (`total_magnetization_normalized_vol`, in μB/Å³, beside `total_magnetization`, in
/// μB per cell): the same value normalised another way. A question that asks for every variant
/// of a value ([`super::every`]) is answered with these too.
pub(super) fn extends(f: &FieldData, g: &FieldData) -> bool {
    if !comparable(f, g) {
        return false;
    }
    let (a, b) = (words(&f.name), words(&g.name));
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    !short.is_empty() && long.len() > short.len() && long.starts_with(short)
}

/// Two distinct fields, both numeric and of one type.
fn comparable(f: &FieldData, g: &FieldData) -> bool {
    let numeric = |t: &str| matches!(t, "number" | "integer");
    f.name != g.name && f.ty == g.ty && numeric(&f.ty)
}

/// Count bases a value may be published per, as a unit's dimension names them, with the word
/// a count field of that basis carries ("natoms", "number of atoms"; "formula units").
const COUNT_BASES: &[(&str, &str)] = &[("atom", "atom"), ("formula unit", "formula")];

/// Words of a concept id that say only its basis or total, not which quantity it is.
const BASIS_WORDS: &[&str] = &[
    "per", "atom", "atomic", "cell", "unit", "formula", "fu", "total",
];

/// The quantity and count basis of a per-count dimension ("volume per atom" -> ("volume",
/// "atom"); "energy per formula unit" -> ("energy", "formula unit")); none for another one.
pub(super) fn per_count(dimension: &str) -> Option<(&str, &'static str)> {
    let (quantity, basis) = dimension.split_once(" per ")?;
    COUNT_BASES
        .iter()
        .find(|(b, _)| *b == basis)
        .map(|(b, _)| (quantity, *b))
}

/// Whether `f` publishes, for the whole cell, the quantity a concept `concept` of dimension
/// `quantity` per count gives per count: numeric, its unit of the quantity itself or of the
/// quantity per cell, and named as the concept (every word of the concept's id but its basis
/// words is a word of the field's name or of one of its concepts: `cell_volume` and `volume`
/// for `volume_per_atom`; `formation_energy_per_cell` for `formation_energy`).
pub(super) fn whole_cell_value(f: &FieldData, concept: &str, quantity: &str) -> bool {
    let Some(u) = &f.unit else { return false };
    let per_cell = format!("{quantity} per cell");
    if !matches!(f.ty.as_str(), "number" | "integer")
        || !(&*u.dimension == quantity || *u.dimension == *per_cell)
    {
        return false;
    }
    let own: Vec<String> = words(concept)
        .into_iter()
        .filter(|w| !BASIS_WORDS.contains(&w.as_str()))
        .collect();
    let mut theirs = words(&f.name);
    f.concepts.iter().for_each(|c| theirs.extend(words(c)));
    !own.is_empty() && own.iter().all(|w| theirs.contains(w))
}

/// Whether `f` counts the basis `basis` of the cell ("atom": `natoms`, `nsites` whose concept
/// says "number of atoms"): an integer without a unit whose name, or the id, aliases or
/// description of one of its concepts (`concept_text`), holds the basis word.
pub(super) fn counts(f: &FieldData, basis: &str, concept_text: &dyn Fn(&str) -> String) -> bool {
    let Some((_, word)) = COUNT_BASES.iter().find(|(b, _)| *b == basis) else {
        return false;
    };
    if f.ty != "integer" || f.unit.is_some() {
        return false;
    }
    f.name.to_lowercase().contains(word)
        || f.concepts
            .iter()
            .any(|c| concept_text(c).to_lowercase().contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::UnitData;

    fn field(name: &str, ty: &str, dimension: Option<&str>) -> FieldData {
        let mut f: FieldData = serde_json::from_value(serde_json::json!({
            "name": name,
            "type": ty,
        }))
        .unwrap();
        f.unit = dimension.map(|d| UnitData {
            canonical: "u".into(),
            dimension: d.into(),
            as_published: None,
        });
        f
    }

    #[test]
    fn averaging_schemes_bases_and_extensions_are_variants() {
        let e = |n| field(n, "number", Some("pressure"));
        assert!(is_variant(
            &e("shear_modulus.vrh"),
            &e("shear_modulus.voigt")
        ));
        let a = field("enthalpy_formation_atom", "number", Some("energy per atom"));
        let c = field("enthalpy_formation_cell", "number", Some("energy per cell"));
        assert!(is_variant(&a, &c));
        let m = field(
            "total_magnetization",
            "number",
            Some("magnetic moment per cell"),
        );
        let fu = field(
            "total_magnetization_normalized_formula_units",
            "number",
            Some("magnetic moment per formula unit"),
        );
        assert!(is_variant(&m, &fu));
    }

    #[test]
    fn one_value_published_under_two_parents_is_a_variant() {
        let mut a = field(
            "results.electronic.band_gap[].value",
            "number",
            Some("energy"),
        );
        a.concepts = vec!["band_gap".into()];
        let mut b = field(
            "results.electronic.band_structure.band_gap[].value",
            "number",
            Some("energy"),
        );
        b.concepts = vec!["band_gap".into()];
        assert!(is_variant(&a, &b) && is_variant(&b, &a));
        assert!(!chosen_over(&a, &b, "band gap") && !chosen_over(&b, &a, "band gap"));
        // Other concepts, no concepts, another dimension or a text field: not variants.
        let mut c = b.clone();
        c.concepts = vec!["fermi_level".into()];
        assert!(!is_variant(&a, &c));
        let (mut a0, mut b0) = (a.clone(), b.clone());
        a0.concepts.clear();
        b0.concepts.clear();
        assert!(!is_variant(&a0, &b0));
        let mut d = field("results.dos.band_gap", "number", Some("length"));
        d.concepts = vec!["band_gap".into()];
        assert!(!is_variant(&a, &d));
        let mut t = field("results.electronic.band_gap[].label", "string", None);
        t.concepts = vec!["band_gap".into()];
        assert!(!is_variant(&a, &t));
        // A qualifier of one key with two values tells them apart; one only on one does not.
        let m = |n: &str, carrier: &str| {
            let mut f = field(n, "number", Some("mass"));
            f.concepts = vec!["effective_mass".into()];
            f.qualifiers.insert("carrier".into(), carrier.into());
            f
        };
        assert!(!is_variant(
            &m("avg_elec_mass", "electron"),
            &m("avg_hole_mass", "hole")
        ));
        let mut b2 = b.clone();
        b2.qualifiers.insert("from".into(), "band structure".into());
        assert!(is_variant(&a, &b2));
    }

    #[test]
    fn a_value_before_its_correction_is_a_variant() {
        let e = |n| field(n, "number", Some("energy per atom"));
        assert!(is_variant(
            &e("energy_per_atom"),
            &e("uncorrected_energy_per_atom")
        ));
        assert!(is_variant(
            &e("uncorrected_energy_per_atom"),
            &e("energy_per_atom")
        ));
        let v = |n| field(n, "number", Some("volume"));
        assert!(is_variant(&v("volume"), &v("unrelaxed_volume")));
        assert!(is_variant(&v("cell.volume"), &v("nonrelaxed.cell.volume")));
        // Another leading word is another quantity (formation energy is no total energy).
        assert!(!is_variant(
            &e("energy_per_atom"),
            &e("formation_energy_per_atom")
        ));
        // "until" is no negation, and a short "un" word is none either.
        assert!(!is_variant(&v("volume"), &v("until_volume")));
        assert!(!is_variant(&v("volume"), &v("unit_volume")));
        let d = |n| field(n, "number", None);
        assert!(!is_variant(&d("anisotropy"), &d("universal_anisotropy")));
    }

    #[test]
    fn other_quantities_types_and_unrelated_names_are_not() {
        let d = field("density", "number", Some("density"));
        let da = field("density_atomic", "number", Some("volume per atom"));
        assert!(!is_variant(&d, &da));
        let g = field("band_gap", "number", Some("energy"));
        let t = field("band_gap_type", "string", None);
        assert!(!is_variant(&g, &t));
        let h = field("energy_above_hull", "number", Some("energy per atom"));
        let f = field(
            "formation_energy_per_atom",
            "number",
            Some("energy per atom"),
        );
        assert!(!is_variant(&h, &f));
        let s1 = field("formula_pretty", "string", None);
        let s2 = field("formula_anonymous", "string", None);
        assert!(!is_variant(&s1, &s2));
    }

    #[test]
    fn a_name_extending_another_extends_it_in_any_unit() {
        let m = field(
            "total_magnetization",
            "number",
            Some("magnetic moment per cell"),
        );
        let v = field(
            "total_magnetization_normalized_vol",
            "number",
            Some("L^-1·I"),
        );
        assert!(!is_variant(&m, &v));
        assert!(extends(&m, &v) && extends(&v, &m));
        // Siblings differing in their last word do not extend each other.
        let t = field("e_total", "number", None);
        let i = field("e_ionic", "number", None);
        assert!(!extends(&t, &i));
        // Nor does a text field, or a field of another type.
        let s = field("band_gap_type", "string", None);
        let g = field("band_gap", "number", Some("energy"));
        assert!(!extends(&g, &s));
        let n = field("band_gap_count", "integer", None);
        assert!(!extends(&g, &n));
    }

    #[test]
    fn a_description_naming_another_field_names_it() {
        let mut v = field(
            "results.mechanical.bulk_modulus[].value",
            "number",
            Some("pressure"),
        );
        v.description =
            Some("Bulk modulus value(s); the estimator is in bulk_modulus[].type.".into());
        let t = field("results.mechanical.bulk_modulus[].type", "string", None);
        let other = field("results.mechanical.shear_modulus[].type", "string", None);
        assert!(named_by(&v, &t));
        assert!(!named_by(&v, &other));
        assert!(!named_by(&t, &v));
    }

    #[test]
    fn a_request_naming_the_variant_or_a_total_chooses_it() {
        let e = |n| field(n, "number", Some("pressure"));
        let (vrh, voigt) = (e("bulk_modulus.vrh"), e("bulk_modulus.voigt"));
        assert!(chosen_over(&vrh, &voigt, "K_VRH"));
        assert!(!chosen_over(&vrh, &voigt, "bulk modulus"));
        let a = field("enthalpy_formation_atom", "number", Some("energy per atom"));
        let c = field("enthalpy_formation_cell", "number", Some("energy per cell"));
        assert!(chosen_over(&a, &c, "formation enthalpy per atom"));
        assert!(!chosen_over(&a, &c, "formation_energy"));
    }

    #[test]
    fn a_total_and_its_parts_are_kept_together() {
        let t = field("e_total", "number", None);
        let i = field("e_ionic", "number", None);
        assert!(is_variant(&t, &i));
        assert!(!chosen_over(&t, &i, "dielectric_constant"));
        assert!(!chosen_over(&i, &t, "dielectric_constant"));
        // A question naming the part keeps the total it belongs to.
        assert!(!chosen_over(&i, &t, "ionic dielectric constant"));
        // Other spellings of a total, as the last word or the first.
        let e = |n| field(n, "number", Some("magnetic moment per cell"));
        let (sum, site) = (e("moment_sum"), e("moment_site"));
        assert!(!chosen_over(&sum, &site, "magnetic moment"));
        assert!(!chosen_over(&site, &sum, "moment per site"));
        let (all, part) = (e("overall.moment"), e("orbital.moment"));
        assert!(!chosen_over(&all, &part, "moment"));
        // Parts without a total still choose by the words asked.
        let (x, y) = (e("moment_spin"), e("moment_orbital"));
        assert!(chosen_over(&x, &y, "spin moment"));
    }

    #[test]
    fn a_per_atom_value_is_answered_by_the_cell_value_and_the_atom_count() {
        assert_eq!(per_count("volume per atom"), Some(("volume", "atom")));
        assert_eq!(
            per_count("magnetic moment per formula unit"),
            Some(("magnetic moment", "formula unit"))
        );
        assert_eq!(per_count("energy per cell"), None);
        assert_eq!(per_count("pressure"), None);
        // The cell value: of the quantity (or per cell), named as the concept.
        let mut v = field("volume", "number", Some("volume"));
        v.concepts = vec!["cell_volume".into()];
        assert!(whole_cell_value(&v, "volume_per_atom", "volume"));
        let c = field("enthalpy_formation_cell", "number", Some("energy per cell"));
        assert!(!whole_cell_value(&c, "formation_energy", "energy"));
        let mut c2 = c.clone();
        c2.concepts = vec!["formation_energy_per_cell".into()];
        assert!(whole_cell_value(&c2, "formation_energy", "energy"));
        // Another quantity of the same dimension, or the value per atom again, is not.
        let mut t = field("energy", "number", Some("energy"));
        t.concepts = vec!["total_energy".into()];
        assert!(!whole_cell_value(&t, "formation_energy", "energy"));
        let d = field("density_atomic", "number", Some("volume per atom"));
        assert!(!whole_cell_value(&d, "volume_per_atom", "volume"));
        // The count: an integer without a unit whose name or concept holds the basis word.
        let text = |c: &str| match c {
            "nsites" => "nsites number of sites number of atoms".to_string(),
            other => other.to_string(),
        };
        let n = field("natoms", "integer", None);
        assert!(counts(&n, "atom", &text));
        let mut s = field("nsites", "integer", None);
        s.concepts = vec!["nsites".into()];
        assert!(counts(&s, "atom", &text));
        let e = field("nelements", "integer", None);
        assert!(!counts(&e, "atom", &text));
        let f = field("natoms", "number", Some("volume"));
        assert!(!counts(&f, "atom", &text));
        assert!(!counts(&n, "formula unit", &text));
    }
}
