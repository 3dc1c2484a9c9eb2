//! Algorithm 1, line 7 (our addition): the Understanding's numeric ranges bound to the planned
//! endpoint's range parameters.
//!
//! A parameter filters one field from below or above when its name is the field's name (its
//! last segment or its whole path) or the concept's id, with a bound word before or after it
//! (`band_gap_min`, `min_band_gap`, `minBandGap`, `band_gap.gte`, `band_gap[lte]`,
//! `band_gap__gt`, `max-price`), or when its description names the field or concept and says
//! which bound it is ("Lower bound on bulk_modulus.vrh"). The bound is converted from the unit
//! the question wrote to the field's unit (meV -> eV, MPa -> GPa, K -> °C with its offset: "between
//! 300 and 400 K" sends 26.85 and 126.85 to a parameter over a °C field); a range whose unit does not
//! fit the field's, or that no parameter takes, is named in a warning rather than dropped
//! silently.

use super::ValueRange;
use crate::artifact::{EndpointData, FieldData, FrozenGraph, ParamData};
use crate::model::normalise_alias;
use crate::units::{UnitTable, conversion};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Words of a parameter name that make it a lower bound.
const LOWER: &[&str] = &[
    "min", "minimum", "gte", "ge", "gt", "from", "lower", "low", "above", "over", "start", "least",
];
/// Words of a parameter name that make it an upper bound.
const UPPER: &[&str] = &[
    "max", "maximum", "lte", "le", "lt", "to", "upper", "high", "below", "under", "end", "most",
];
/// Phrases of a parameter description that make it a lower (upper) bound.
const LOWER_TEXT: &[&str] = &[
    "lower bound",
    "minimum",
    "at least",
    "greater than",
    "more than",
];
const UPPER_TEXT: &[&str] = &[
    "upper bound",
    "maximum",
    "at most",
    "less than",
    "lower than",
];

fn units() -> &'static UnitTable {
    static T: OnceLock<UnitTable> = OnceLock::new();
    T.get_or_init(UnitTable::builtin)
}

/// Which side of a range a parameter bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Lower,
    Upper,
}

/// The lower-case words of a name ([`crate::model::destructive::words`]: split at separators
/// and camelCase humps).
fn name_words(name: &str) -> Vec<String> {
    crate::model::destructive::words(name)
        .into_iter()
        .map(|w| w.to_lowercase())
        .collect()
}

/// The side a parameter bounds and the words of what it bounds, from its name: a bound word
/// first or last, the rest naming the field.
fn by_name(p: &ParamData) -> Option<(Side, String)> {
    let w = name_words(&p.name);
    if w.len() < 2 {
        return None;
    }
    let side = |x: &str| {
        if LOWER.contains(&x) {
            Some(Side::Lower)
        } else if UPPER.contains(&x) {
            Some(Side::Upper)
        } else {
            None
        }
    };
    if let Some(s) = side(&w[w.len() - 1]) {
        return Some((s, w[..w.len() - 1].join("_")));
    }
    side(&w[0]).map(|s| (s, w[1..].join("_")))
}

/// The names a field answers to as a range's target: its whole path and its last segment, as
/// name words joined by `_`, and its concepts' ids.
fn targets(f: &FieldData) -> Vec<String> {
    let mut out = vec![name_words(&f.name).join("_")];
    if let Some(leaf) = f.name.rsplit(['.', ']']).next() {
        out.push(name_words(leaf).join("_"));
    }
    out.extend(f.concepts.iter().map(|c| name_words(c).join("_")));
    out
}

/// The parameter of `e` that bounds field `f` on `side`, if any.
fn parameter_for<'e>(e: &'e EndpointData, f: &FieldData, side: Side) -> Option<&'e ParamData> {
    let names = targets(f);
    let usable =
        |p: &&ParamData| !p.auth && matches!(p.ty.as_str(), "number" | "integer" | "string");
    if let Some(p) = e
        .parameters
        .iter()
        .filter(usable)
        .find(|p| by_name(p).is_some_and(|(s, what)| s == side && names.contains(&what)))
    {
        return Some(p);
    }
    // The description says so: "Lower bound on bulk_modulus.vrh, GPa".
    e.parameters.iter().filter(usable).find(|p| {
        let Some(d) = p.description.as_deref().map(str::to_lowercase) else {
            return false;
        };
        let names_it = d.contains(&f.name.to_lowercase())
            || f.concepts.iter().any(|c| d.contains(&c.to_lowercase()));
        let cues = match side {
            Side::Lower => LOWER_TEXT,
            Side::Upper => UPPER_TEXT,
        };
        names_it && cues.iter().any(|c| d.contains(c))
    })
}

/// The fields of `e` a range keyed `key` is about: those carrying the concept it names (through
/// the alias layer), else those whose name is it.
fn fields_for<'e>(g: &FrozenGraph, e: &'e EndpointData, key: &str) -> Vec<&'e FieldData> {
    let norm = normalise_alias(key);
    let concepts: Vec<String> = g
        .index
        .alias_to_concept
        .get(&norm)
        .cloned()
        .unwrap_or_else(|| vec![key.to_string()]);
    let by_concept: Vec<&FieldData> = e
        .fields
        .iter()
        .filter(|f| f.concepts.iter().any(|c| concepts.contains(c)))
        .collect();
    if !by_concept.is_empty() {
        return by_concept;
    }
    e.fields
        .iter()
        .filter(|f| normalise_alias(&f.name) == norm)
        .collect()
}

/// The bound `v` (in `unit`, or the field's own unit when `None`) in the field's unit, or an
/// explanation of why it cannot be converted.
fn convert(v: f64, unit: Option<&str>, f: &FieldData) -> Result<f64, String> {
    let (Some(from), Some(to)) = (unit, f.unit.as_ref()) else {
        return Ok(v);
    };
    let to = to.canonical.as_ref();
    if from == to {
        return Ok(v);
    }
    let parsed = (units().parse(from), units().parse(to));
    match parsed {
        (Ok(a), Ok(b)) => conversion(&a, &b)
            .map(|c| c.apply(v))
            .ok_or_else(|| format!("`{from}` is no unit of `{}` (in {to})", f.name)),
        _ => Err(format!("`{from}` cannot be converted to `{to}`")),
    }
}

/// A bound as the parameter's JSON value: a number (an integer for integer parameters,
/// rounded inward), or its text for string parameters.
fn value_of(v: f64, p: &ParamData, side: Side) -> Value {
    let v = (v * 1e12).round() / 1e12;
    match p.ty.as_str() {
        "integer" => {
            let i = match side {
                Side::Lower => v.ceil(),
                Side::Upper => v.floor(),
            };
            Value::from(i as i64)
        }
        "string" => Value::from(format_number(v)),
        _ if v.fract() == 0.0 && v.abs() < 1e15 => Value::from(v as i64),
        _ => Value::from(v),
    }
}

fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Bind every range of `ranges` to `e`'s parameters (those not already set), returning the
/// warnings for bounds that could not be sent. `step` names the endpoint in warnings
/// (`tool/endpoint`).
pub(super) fn bind(
    g: &FrozenGraph,
    e: &EndpointData,
    step: &str,
    ranges: &BTreeMap<String, ValueRange>,
    params: &mut BTreeMap<String, Value>,
) -> Vec<String> {
    let mut warnings = Vec::new();
    for (key, range) in ranges {
        let fields = fields_for(g, e, key);
        for (side, bound) in [(Side::Lower, range.min), (Side::Upper, range.max)] {
            let Some(v) = bound.filter(|v| v.is_finite()) else {
                continue;
            };
            let written = format!(
                "{} {}{}",
                if side == Side::Lower {
                    "lower bound"
                } else {
                    "upper bound"
                },
                format_number(v),
                range
                    .unit
                    .as_deref()
                    .map(|u| format!(" {u}"))
                    .unwrap_or_default()
            );
            let found = fields
                .iter()
                .find_map(|f| parameter_for(e, f, side).map(|p| (*f, p)));
            let Some((f, p)) = found else {
                warnings.push(format!(
                    "the {written} on `{key}` is not sent: `{step}` has no parameter that filters it; filter the records after fetching"
                ));
                continue;
            };
            if params.contains_key(&p.name) {
                continue;
            }
            match convert(v, range.unit.as_deref(), f) {
                Ok(x) => {
                    params.insert(p.name.clone(), value_of(x, p, side));
                }
                Err(why) => warnings.push(format!(
                    "the {written} on `{key}` is not sent to `{step}` parameter `{}`: {why}",
                    p.name
                )),
            }
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_words_at_every_separator_and_hump() {
        assert_eq!(name_words("minBandGap"), ["min", "band", "gap"]);
        assert_eq!(name_words("band_gap[lte]"), ["band", "gap", "lte"]);
        assert_eq!(name_words("bulk_modulus.vrh"), ["bulk", "modulus", "vrh"]);
        assert_eq!(name_words("max-price"), ["max", "price"]);
        assert_eq!(name_words("band_gap__gt"), ["band", "gap", "gt"]);
    }

    fn param(name: &str, ty: &str, description: Option<&str>) -> ParamData {
        ParamData {
            name: name.into(),
            ty: ty.into(),
            enum_values: Vec::new(),
            required: false,
            auth: false,
            default: None,
            bind: Vec::new(),
            join: None,
            array: None,
            style: None,
            explode: None,
            allow_reserved: false,
            whole_body: false,
            bounds: Default::default(),
            content_type: None,
            part_headers: Default::default(),
            format: None,
            location: None,
            description: description.map(str::to_string),
        }
    }

    #[test]
    fn a_bound_word_first_or_last_makes_a_range_parameter() {
        for (name, side, what) in [
            ("band_gap_min", Side::Lower, "band_gap"),
            ("minBandGap", Side::Lower, "band_gap"),
            ("band_gap.gte", Side::Lower, "band_gap"),
            ("band_gap[lte]", Side::Upper, "band_gap"),
            ("max-price", Side::Upper, "price"),
            ("priceTo", Side::Upper, "price"),
        ] {
            assert_eq!(
                by_name(&param(name, "number", None)),
                Some((side, what.to_string())),
                "{name}"
            );
        }
        assert_eq!(by_name(&param("min", "number", None)), None);
        assert_eq!(by_name(&param("formula", "string", None)), None);
    }

    #[test]
    fn integer_bounds_round_inward_and_strings_keep_the_text() {
        assert_eq!(
            value_of(10.5, &param("n", "integer", None), Side::Lower),
            Value::from(11)
        );
        assert_eq!(
            value_of(10.5, &param("n", "integer", None), Side::Upper),
            Value::from(10)
        );
        assert_eq!(
            value_of(2.0, &param("n", "number", None), Side::Upper),
            Value::from(2)
        );
        assert_eq!(
            value_of(1.2, &param("n", "number", None), Side::Upper),
            Value::from(1.2)
        );
        assert_eq!(
            value_of(1.2, &param("n", "string", None), Side::Upper),
            Value::from("1.2")
        );
    }
}
