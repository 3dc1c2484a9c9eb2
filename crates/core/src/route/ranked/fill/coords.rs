//! Pass `coords`: latitude-longitude pairs (`40.7,-74.0`, `35.78, -78.64`) into the parameters
//! that take them. An endpoint that asks for a latitude and a longitude apart (`lat` and `lon`,
//! `latitude` and `lng`) takes the first pair's two halves; one that takes a list of points
//! (`point[]`) takes every pair in the order written; one that takes a start and an end point
//! apart (`from_point`, `to_point`) takes the pair after "from" and the pair after "to".
//! A point goes as `latitude,longitude` without a space, the form such parameters declare.

use super::profile::Profile;
use super::typed::is_point;
use super::words::{LOWER_CUES, TARGET_WORDS};
use crate::search::spans::{Span, SpanKind};
use serde_json::Value;
use std::collections::BTreeMap;

/// Parameter-name words of a latitude.
const LAT_WORDS: &[&str] = &["lat", "latitude"];
/// Parameter-name words of a longitude.
const LON_WORDS: &[&str] = &["lon", "lng", "long", "longitude"];
/// Parameter-name words of a parameter that takes a point as `lat,lng`.
const POINT_PARAM_WORDS: &[&str] = &[
    "coord",
    "coordinate",
    "coordinates",
    "latlng",
    "latlon",
    "point",
];
/// Parameter-name words of the start of a way (`from_point`, `origin`).
const START_WORDS: &[&str] = &["from", "origin", "source", "start"];

/// Fill latitude/longitude parameters from the question's point spans; returns the byte ranges
/// of the spans used.
pub(super) fn pass(
    open: &[Profile],
    spans: &[Span],
    params: &mut BTreeMap<String, Value>,
) -> Vec<(usize, usize)> {
    let points: Vec<&Span> = spans
        .iter()
        .filter(|s| s.kind == SpanKind::Id && is_point(&s.value))
        .collect();
    let mut used = Vec::new();
    let Some(first) = points.first() else {
        return used;
    };
    let free = |params: &BTreeMap<String, Value>, list: &[&str]| {
        open.iter()
            .find(|pr| !params.contains_key(&pr.p.name) && pr.words.len() <= 2 && pr.named(list))
    };
    // Halves: `lat` and `lon` apart.
    if let (Some(lat), Some(lon)) = (free(params, LAT_WORDS), free(params, LON_WORDS))
        && !std::ptr::eq(lat, lon)
        && let Some((a, b)) = first.value.split_once(',')
        && let (Some(va), Some(vb)) = (degree(lat, a), degree(lon, b))
    {
        params.insert(lat.p.name.clone(), va);
        params.insert(lon.p.name.clone(), vb);
        used.push((first.start, first.end));
        return used;
    }
    // A start and an end point apart (`from_point`, `to_point`): by the word before each pair.
    let ends = |list: &[&str]| {
        open.iter().find(|pr| {
            !params.contains_key(&pr.p.name) && pr.named(POINT_PARAM_WORDS) && pr.named(list)
        })
    };
    if points.len() >= 2
        && let (Some(from), Some(to)) = (ends(START_WORDS), ends(TARGET_WORDS))
    {
        let start: &Span = points
            .iter()
            .find(|s| {
                s.before
                    .last()
                    .is_some_and(|w| LOWER_CUES.contains(&w.as_str()))
            })
            .unwrap_or(&points[0]);
        let others = || points.iter().filter(|s| s.start != start.start);
        let end: &Span = others()
            .find(|s| s.before.last().is_some_and(|w| w == "to"))
            .or_else(|| others().next())
            .unwrap_or(&points[1]);
        for (pr, s) in [(from, start), (to, end)] {
            params.insert(pr.p.name.clone(), as_declared(pr, vec![joined(&s.value)]));
            used.push((s.start, s.end));
        }
        return used;
    }
    // A list of points: every pair, in the order written.
    if let Some(list) = open.iter().find(|pr| {
        !params.contains_key(&pr.p.name)
            && pr.p.ty.ends_with("[]")
            && pr.words.len() == 1
            && pr.named(POINT_PARAM_WORDS)
    }) {
        let values: Vec<String> = points.iter().map(|s| joined(&s.value)).collect();
        params.insert(list.p.name.clone(), as_declared(list, values));
        used.extend(points.iter().map(|s| (s.start, s.end)));
    }
    used
}

/// A point as such parameters take it: `latitude,longitude`, no space.
fn joined(v: &str) -> String {
    v.split(',').map(str::trim).collect::<Vec<_>>().join(",")
}

/// Values for a parameter: an array for a list parameter, else the first value.
fn as_declared(pr: &Profile, values: Vec<String>) -> Value {
    if pr.p.ty.ends_with("[]") {
        Value::from(values)
    } else {
        Value::from(values.into_iter().next().unwrap_or_default())
    }
}

/// One half of a pair as the parameter takes it: a number for a number parameter, else the text.
fn degree(pr: &Profile, v: &str) -> Option<Value> {
    let v = v.trim();
    if pr.numeric {
        v.parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
    } else {
        Some(Value::from(v))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::{Value, json};

    #[test]
    fn a_pair_fills_a_latitude_and_a_longitude_apart() {
        let e = typed(
            typed(
                endpoint(
                    "https://x.test/alerts",
                    &[("lat", "query"), ("lon", "query")],
                ),
                "lat",
                "number",
                Some("double"),
            ),
            "lon",
            "number",
            Some("double"),
        );
        for q in [
            "are there any severe weather alerts for 35.78, -78.64",
            "alerts at 35.78,-78.64 please",
            "what alerts are active around (35.78, -78.64)?",
        ] {
            let got = filled(&e, q, &["alert"]);
            assert_eq!(got.get("lat"), Some(&json!(35.78)), "{q}");
            assert_eq!(got.get("lon"), Some(&json!(-78.64)), "{q}");
        }
        // Text parameters take the halves as written; `lng` is a longitude too.
        let e = endpoint(
            "https://x.test/geo",
            &[("latitude", "query"), ("lng", "query")],
        );
        assert_eq!(
            filled(&e, "legislators for 39.74, -104.99", &["legisl"]),
            strings(&[("latitude", "39.74"), ("lng", "-104.99")])
        );
    }

    #[test]
    fn a_list_of_points_takes_every_pair_in_order() {
        let mut e = endpoint("https://x.test/route", &[("point", "query")]);
        e.parameters[0].ty = "string[]".into();
        let got = filled(
            &e,
            "how long by car from 51.5074,-0.1278 to 51.7520, -1.2577",
            &["car", "long"],
        );
        assert_eq!(
            got.get("point"),
            Some(&json!(["51.5074,-0.1278", "51.7520,-1.2577"]))
        );
        let got = filled(
            &e,
            "travel time matrix between 52.52,13.40 and 48.14,11.58 and 50.11,8.68",
            &["travel", "time", "matrix"],
        );
        assert_eq!(
            got.get("point"),
            Some(&json!(["52.52,13.40", "48.14,11.58", "50.11,8.68"]))
        );
    }

    #[test]
    fn start_and_end_points_go_by_their_direction_words() {
        let e = endpoint(
            "https://x.test/matrix",
            &[("from_point", "query"), ("to_point", "query")],
        );
        for q in [
            "times from 52.52,13.40 to 48.14,11.58",
            "times to 48.14,11.58 from 52.52,13.40",
        ] {
            let got = filled(&e, q, &["time"]);
            assert_eq!(
                got.get("from_point"),
                Some(&Value::from("52.52,13.40")),
                "{q}"
            );
            assert_eq!(
                got.get("to_point"),
                Some(&Value::from("48.14,11.58")),
                "{q}"
            );
        }
    }
}
