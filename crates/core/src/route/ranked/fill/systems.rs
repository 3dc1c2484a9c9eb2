//! Pass `systems`: a `units` parameter whose values are unit systems (`metric`, `us`,
//! `imperial`, `uk`) takes the system of the unit the question asks for ("the temperature in
//! fahrenheit" gives `units: us`). The parameter's own description says which value measures in
//! which units where it lists them (`` * `us`: Imperial units (`°F`, `mph`, `in`) ``); else the
//! declared systems of `unit_systems.txt` do. Units are compared in the unit table's canonical
//! spelling, so "fahrenheit", "degrees fahrenheit", `°F` and `degF` are one unit.

use super::profile::Profile;
use crate::model::Scalar;
use crate::route::bind;
use crate::search::unit_words::{table, unit_of};
use regex::Regex;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The declared unit systems (see the file's header).
const SYSTEMS: &str = include_str!("unit_systems.txt");

/// Words before the unit a question asks for ("in fahrenheit", "into miles", "using celsius").
const CUES: &[&str] = &["in", "into", "using", "as"];

/// The declared systems: names, and units in canonical spelling.
fn systems() -> &'static [(Vec<String>, Vec<String>)] {
    static PARSED: OnceLock<Vec<(Vec<String>, Vec<String>)>> = OnceLock::new();
    PARSED.get_or_init(|| {
        SYSTEMS
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| {
                let (names, units) = l.split_once('\t')?;
                let units = units
                    .split_whitespace()
                    .filter_map(|u| table().parse_published(u).ok())
                    .map(|u| u.canonical)
                    .collect();
                Some((
                    names.split_whitespace().map(str::to_string).collect(),
                    units,
                ))
            })
            .collect()
    })
}

/// The units and system names the question asks for: the words after a cue ("in fahrenheit",
/// "in degrees celsius", "in metric").
fn asked(question: &str) -> (Vec<String>, Vec<String>) {
    let words: Vec<&str> = question
        .split_whitespace()
        .map(|w| w.trim_end_matches(['?', '.', ',', '!', ';']))
        .collect();
    let (mut units, mut names) = (Vec::new(), Vec::new());
    for (i, w) in words.iter().enumerate() {
        if !CUES.contains(&w.to_lowercase().as_str()) {
            continue;
        }
        let mut next = words.get(i + 1).copied();
        if next.is_some_and(|n| matches!(n.to_lowercase().as_str(), "degrees" | "degree")) {
            next = words.get(i + 2).copied();
        }
        let Some(next) = next else { continue };
        let lower = next.to_lowercase();
        if systems().iter().any(|(n, _)| n.contains(&lower)) {
            names.push(lower);
        } else if let Some(u) = unit_of(next) {
            units.push(u);
        }
    }
    (units, names)
}

/// The description's text about each value: a line that opens with a value (a list item:
/// `` * `us`: Imperial units ``) is that value's whole; in other lines each value owns the text
/// up to the next value ("`metric` for Celsius, `imperial` for Fahrenheit").
fn items<'v>(description: &str, values: &'v [String]) -> Vec<(&'v str, String)> {
    let mut out = Vec::new();
    for line in description.lines() {
        let lower = line.to_lowercase();
        let mut at: Vec<(usize, &str)> = Vec::new();
        for v in values {
            let lv = v.to_lowercase();
            let mut from = 0;
            while let Some(k) = lower[from..].find(&lv) {
                let (a, b) = (from + k, from + k + lv.len());
                let bounded = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
                if bounded(lower[..a].chars().next_back()) && bounded(lower[b..].chars().next()) {
                    at.push((a, v.as_str()));
                }
                from = b;
            }
        }
        at.sort();
        let Some(&(first, head)) = at.first() else {
            continue;
        };
        let opens = lower[..first].chars().all(|c| !c.is_alphanumeric());
        if opens {
            out.push((head, line[first..].to_string()));
            continue;
        }
        for (k, &(a, v)) in at.iter().enumerate() {
            let end = at.get(k + 1).map_or(line.len(), |n| n.0);
            out.push((v, line[a..end].to_string()));
        }
    }
    out
}

/// The words a description quotes (in backticks or quotes), each once: the values it lists
/// (`` `us` ``, `'metric'`), short function words such as `us` included.
fn quoted(description: &str) -> Vec<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r#"[`'"“‘]([A-Za-z][A-Za-z0-9_-]{0,29})[`'"”’]"#).expect("regex")
    });
    let mut out: Vec<String> = Vec::new();
    for c in re.captures_iter(description) {
        let v = c[1].to_string();
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The values a parameter may take: its enum's text values, else the keywords its description
/// quotes; a value that is itself a unit (`` `miles` `` in prose about visibility) is none.
fn values_of(pr: &Profile) -> Vec<String> {
    let listed: Vec<String> = if pr.p.enum_values.is_empty() {
        quoted(pr.p.description.as_deref().unwrap_or(""))
    } else {
        pr.p.enum_values
            .iter()
            .filter_map(|v| match v {
                Scalar::String(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    };
    listed
        .into_iter()
        .filter(|v| unit_of(v).is_none())
        .collect()
}

/// The one value that measures in an asked unit, by the description's items, else by the
/// declared systems; `None` when none or several do.
fn chosen(pr: &Profile, units: &[String], names: &[String]) -> Option<String> {
    let values = values_of(pr);
    if values.len() < 2 {
        return None;
    }
    let description = pr.p.description.as_deref().unwrap_or("");
    let mut hits: Vec<&str> = items(description, &values)
        .into_iter()
        .filter(|(_, text)| {
            text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')'))
                .filter_map(unit_of)
                .any(|u| units.contains(&u))
        })
        .map(|(v, _)| v)
        .collect();
    hits.dedup();
    if let [one] = hits.as_slice() {
        return Some(one.to_string());
    }
    // The declared systems: those holding an asked unit or named by the question.
    let mut by_system: Vec<&String> = Vec::new();
    for (sys_names, sys_units) in systems() {
        let asked = units.iter().any(|u| sys_units.contains(u))
            || names.iter().any(|n| sys_names.contains(n));
        if asked {
            by_system.extend(
                values
                    .iter()
                    .filter(|v| sys_names.contains(&v.to_lowercase())),
            );
        }
    }
    by_system.dedup();
    match by_system.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// Fill each open unit-system parameter (named `unit`, `units` or `system`, not a number) with
/// the system of the unit the question asks for.
pub(super) fn pass(question: &str, open: &[Profile], params: &mut BTreeMap<String, Value>) {
    let takers: Vec<&Profile> = open
        .iter()
        .filter(|pr| {
            !pr.numeric
                && !params.contains_key(&pr.p.name)
                && pr.named(&["unit", "units", "system"])
        })
        .collect();
    if takers.is_empty() {
        return;
    }
    let (units, names) = asked(question);
    if units.is_empty() && names.is_empty() {
        return;
    }
    for pr in takers {
        if let Some(v) = chosen(pr, &units, &names)
            && let Ok(v) = bind::coerce(pr.p, Value::String(v))
        {
            params.insert(pr.p.name.clone(), v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    fn described(description: &str, values: &[&str]) -> crate::artifact::EndpointData {
        let mut e = endpoint(
            "https://x.test/point",
            &[("place_id", "query"), ("units", "query")],
        );
        e.parameters[1].description = Some(description.into());
        e.parameters[1].enum_values = values
            .iter()
            .map(|v| Scalar::String(v.to_string()))
            .collect();
        e
    }

    const METEOSOURCE: &str = "Unit system to be used. The available values are:\n\n\
        * `auto`: Select the system automatically, based on the forecast location.\n\
        * `metric`: Metric (SI) units (`°C`, `mm/h`, `m/s`, `cm`, `km`, `hPa`).\n\
        * `us`: Imperial units (`°F`, `in/h`, `mph`, `in`, `mi`, `Hg`).\n\
        * `uk`: Same as ``metric``, except that visibility is in `miles` and wind speeds are in `mph`.\n\
        * `ca`: Same as ``metric``, except that wind speeds are in `km/h` and pressure is in `kPa`.";

    fn units(e: &crate::artifact::EndpointData, q: &str) -> Option<Value> {
        filled(e, q, &["temperature", "wind", "speed"])
            .get("units")
            .cloned()
    }

    #[test]
    fn the_description_says_which_value_measures_in_the_asked_unit() {
        let e = described(METEOSOURCE, &[]);
        assert_eq!(
            units(&e, "current temperature in chicago in fahrenheit"),
            Some("us".into())
        );
        assert_eq!(
            units(&e, "temperature in lyon in degrees celsius"),
            Some("metric".into())
        );
        assert_eq!(
            units(&e, "temperature in lyon in °C"),
            Some("metric".into())
        );
        assert_eq!(units(&e, "wind speed in oslo in km/h"), Some("ca".into()));
        // Two values list miles (`us` and `uk`): the declared systems choose `us`.
        assert_eq!(units(&e, "visibility in leeds in miles"), Some("us".into()));
        // No unit asked, or a place after "in": nothing.
        assert_eq!(units(&e, "current temperature in chicago"), None);
        assert_eq!(units(&e, "temperature in paris"), None);
    }

    #[test]
    fn the_declared_systems_choose_where_the_description_is_silent() {
        let e = described("Units of measurement.", &["standard", "metric", "imperial"]);
        assert_eq!(
            units(&e, "temperature in boston in fahrenheit"),
            Some("imperial".into())
        );
        assert_eq!(
            units(&e, "temperature in boston in celsius"),
            Some("metric".into())
        );
        assert_eq!(
            units(&e, "temperature in boston in kelvin"),
            Some("standard".into())
        );
        assert_eq!(
            units(&e, "wind speed in boston in mph"),
            Some("imperial".into())
        );
        // A system named by another of its names.
        assert_eq!(
            units(&e, "forecast for boston in us units"),
            Some("imperial".into())
        );
        // Values that are units themselves are the enum pass's, not this one's.
        let e = described("Temperature unit.", &["celsius", "fahrenheit"]);
        assert_eq!(units(&e, "temperature in boston in kelvin"), None);
    }
}
