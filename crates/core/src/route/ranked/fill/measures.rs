//! Pass `measures`: an amount with its unit ("within 15 minutes", "45 minutes or less", "a
//! 2 km radius") fills the one open number parameter that measures in a unit of the same
//! dimension, converted into that unit: `time_limit` ("In seconds.") takes 900 for "15
//! minutes", `totalMins` 45 for "45 minutes", `radius` ("in meters") 2000 for "2 km". The
//! parameter's unit is read from its description ("in seconds", "(meters)") or its name
//! (`totalMins`, `timeout_ms`), in the unit table's spelling, so the conversion is the unit
//! system's own.

use super::profile::Profile;
use crate::route::bind;
use crate::search::spans::{Span, SpanKind};
use crate::search::unit_words::{self, table, unit_of};
use crate::units::Unit;
use serde_json::Value;
use std::collections::BTreeMap;

/// The unit a parameter measures in: the unit its description names
/// ([`unit_words::described`]), else a word of its name that is a unit.
fn unit_of_param(pr: &Profile) -> Option<Unit> {
    if let Some(u) = pr.p.description.as_deref().and_then(unit_words::described) {
        return Some(u);
    }
    let canonical = pr.words.iter().find_map(|w| unit_of(w))?;
    table().parse(&canonical).ok()
}

/// The unit of an amount the question writes ("15 minutes", "2km").
fn unit_of_span(s: &Span) -> Option<Unit> {
    let u = s.unit.as_deref()?;
    let canonical = unit_of(u)?;
    table().parse(&canonical).ok()
}

/// Fill the one open number parameter of each amount's dimension (see the module docs);
/// returns the byte ranges of the amounts so used.
pub(super) fn pass(
    open: &[Profile],
    spans: &[Span],
    params: &mut BTreeMap<String, Value>,
) -> Vec<(usize, usize)> {
    let measured: Vec<(&Profile, Unit)> = open
        .iter()
        .filter(|pr| pr.numeric && !params.contains_key(&pr.p.name))
        .filter_map(|pr| unit_of_param(pr).map(|u| (pr, u)))
        .collect();
    let mut used = Vec::new();
    if measured.is_empty() {
        return used;
    }
    for s in spans.iter().filter(|s| s.kind == SpanKind::Number) {
        let Some(from) = unit_of_span(s) else {
            continue;
        };
        let Ok(n) = s.value.parse::<f64>() else {
            continue;
        };
        let takers: Vec<&(&Profile, Unit)> = measured
            .iter()
            .filter(|(pr, to)| {
                !params.contains_key(&pr.p.name) && crate::units::conversion(&from, to).is_some()
            })
            .collect();
        let [(pr, to)] = takers.as_slice() else {
            continue;
        };
        let Some(c) = crate::units::conversion(&from, to) else {
            continue;
        };
        let v = c.apply(n);
        let v = if pr.integer {
            if (v - v.round()).abs() > 1e-9 {
                continue;
            }
            Value::from(v.round() as i64)
        } else if v.fract() == 0.0 && v.abs() < 9e15 {
            Value::from(v as i64)
        } else {
            Value::from(v)
        };
        if let Ok(v) = bind::coerce_one(pr.p, v) {
            params.insert(pr.p.name.clone(), v);
            used.push((s.start, s.end));
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::Value;
    use std::collections::BTreeMap;

    fn isochrone() -> crate::artifact::EndpointData {
        let mut e = endpoint(
            "https://x.test/isochrone",
            &[
                ("point", "query"),
                ("time_limit", "query"),
                ("distance_limit", "query"),
                ("buckets", "query"),
            ],
        );
        for (i, d) in [
            (
                1,
                "Specify which time the vehicle should travel. In seconds.",
            ),
            (
                2,
                "Specify which distance the vehicle should travel. In meters.",
            ),
            (3, "Number by which to divide the given `time_limit`."),
        ] {
            e.parameters[i].ty = "integer".into();
            e.parameters[i].description = Some(d.into());
        }
        e
    }

    #[test]
    fn an_amount_fills_the_parameter_of_its_dimension_in_its_unit() {
        let e = isochrone();
        let known = ["area", "reach", "isochron"];
        assert_eq!(
            filled(
                &e,
                "what area can i reach within 15 minutes by bike",
                &known
            )
            .get("time_limit"),
            Some(&Value::from(900))
        );
        assert_eq!(
            filled(&e, "what area can i reach within 2.5 km", &known).get("distance_limit"),
            Some(&Value::from(2500))
        );
        // A count of no unit is no measure.
        assert_eq!(
            filled(&e, "split the area i can reach into 4 buckets", &known).get("time_limit"),
            None
        );
        let mut recipes = endpoint("https://x.test/recipes", &[("totalMins", "query")]);
        recipes.parameters[0].ty = "integer".into();
        assert_eq!(
            filled(
                &recipes,
                "lasagna recipes i can make in 45 minutes or less",
                &["recip"]
            ),
            BTreeMap::from([("totalMins".to_string(), Value::from(45))])
        );
        assert_eq!(
            filled(&recipes, "lasagna recipes ready in 2 hours", &["recip"]),
            BTreeMap::from([("totalMins".to_string(), Value::from(120))])
        );
    }
}
