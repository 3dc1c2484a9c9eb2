//! Variants of one value on one endpoint: the fields that publish the quantity a projected field
//! holds in another way (another averaging scheme, basis, method or correction), read from the
//! declarations' structure alone, so any catalog has them: both numeric, of one type, in units of
//! one dimension apart from the basis (eV/atom and eV/cell; μB/cell and μB/f.u.), and named as
//! one quantity: siblings under one parent (`shear_modulus.voigt`, `shear_modulus.vrh`), names
//! that differ in their last word only (`enthalpy_formation_atom`, `enthalpy_formation_cell`),
//! or a name that extends the other (`total_magnetization`,
//! `total_magnetization_normalized_formula_units`).
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

/// Whether a request that asked with `asked` (the concept id or the text the request used)
/// chose `f` over its variant `g`: its words hold a word of `f`'s name that `g`'s lacks
/// ("K_VRH" chooses `bulk_modulus.vrh` over `bulk_modulus.voigt`, "formation enthalpy per atom"
/// `enthalpy_formation_atom` over `enthalpy_formation_cell`), or `f` is the total of which `g`
/// is a part (`e_total` answers "the dielectric constant"; `e_ionic` is a detail).
pub(super) fn chosen_over(f: &FieldData, g: &FieldData, asked: &str) -> bool {
    let (a, b) = (words(&f.name), words(&g.name));
    let own: Vec<&String> = a.iter().filter(|w| !b.contains(w)).collect();
    let asked: Vec<String> = asked
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    own.iter()
        .any(|w| w.as_str() == "total" || asked.iter().any(|x| x == *w))
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
    let (a, b) = (words(&f.name), words(&g.name));
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return false;
    }
    let (short, long) = (a.len().min(b.len()), a.len().max(b.len()));
    // Names differing in their last word only, or one extending the other.
    (a.len() == b.len() && common == a.len() - 1) || (common == short && long > short)
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
        let t = field("e_total", "number", None);
        let i = field("e_ionic", "number", None);
        assert!(chosen_over(&t, &i, "dielectric_constant"));
        assert!(!chosen_over(&i, &t, "dielectric_constant"));
    }
}
