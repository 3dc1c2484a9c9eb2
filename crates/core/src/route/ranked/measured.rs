//! The projection's pass `measured`: a question that asks for an amount of one dimension asks
//! for the fields measured in it. A unit word asks after "in" ("the distance in miles") or "how
//! many" / "how much" ("how many kilometres is the bike route"), and a question word of a
//! dimension asks by itself ("how far", "how long does it take": `measured_cues.txt` beside
//! this file, language data). A unit written after a number is a value the question gives
//! ("within 15 minutes"), not one it asks for. A field's unit is its declared one, else the
//! unit its description names ("The total distance, in meters."); of several fields of the
//! dimension, those whose names say the question's words best ([`super::project`]'s ranking:
//! `paths[].distance` before `paths[].instructions[].distance`).

use crate::artifact::EndpointData;
use crate::search::spans::SpanKind;
use crate::search::unit_words::{described, table, unit_of};
use crate::search::{Query, text};
use crate::units::Unit;
use std::sync::LazyLock;

/// The cues, declared as language data in `measured_cues.txt` beside this file.
const CUE_DATA: &str = include_str!("measured_cues.txt");

/// The cues as (words, a unit of the dimension asked), in file order.
static CUES: LazyLock<Vec<(Vec<&'static str>, Unit)>> = LazyLock::new(|| {
    crate::route::data_lines(CUE_DATA)
        .filter(|l| !l.starts_with("name "))
        .filter_map(|l| l.split_once('='))
        .filter_map(|(cue, unit)| {
            let words: Vec<&str> = cue.split_whitespace().collect();
            let unit = table().parse(unit.trim()).ok()?;
            (!words.is_empty()).then_some((words, unit))
        })
        .collect()
});

/// The plain names of a dimension's amount (`name WORD = UNIT` lines) as (word, unit).
static PLAIN_NAMES: LazyLock<Vec<(&'static str, Unit)>> = LazyLock::new(|| {
    crate::route::data_lines(CUE_DATA)
        .filter_map(|l| l.strip_prefix("name "))
        .filter_map(|l| l.split_once('='))
        .filter_map(|(w, unit)| Some((w.trim(), table().parse(unit.trim()).ok()?)))
        .collect()
});

/// Whether a field name's last segment holds a plain name of `unit`'s dimension (`distance`
/// for a length, `duration` for a time).
pub(super) fn plainly_named(name: &str, unit: &Unit) -> bool {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    text::split_identifier(leaf).into_iter().any(|(a, b)| {
        let w = leaf[a..b].to_lowercase();
        PLAIN_NAMES
            .iter()
            .any(|(n, u)| *n == w && u.dim == unit.dim)
    })
}

/// The question's words in lower case with their byte ranges (letters, digits, `°` and `/`).
fn words(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        let part = c.is_alphanumeric() || matches!(c, '°' | '/');
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((text[s..i].to_lowercase(), s, i));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The units the question asks its answer in (see the module docs); dimensionless ones are
/// left out (a percentage names no one kind of field).
pub(super) fn asked_units(q: &Query) -> Vec<Unit> {
    let w = words(&q.text);
    // Byte ranges of numbers: the unit word right after one is a value's unit.
    let numbers: Vec<usize> = q
        .spans
        .iter()
        .filter(|s| s.kind == SpanKind::Number)
        .map(|s| s.end)
        .collect();
    let mut out: Vec<Unit> = Vec::new();
    let mut push = |u: Unit| {
        if !u.dim.is_dimensionless() && !out.iter().any(|o| o.dim == u.dim) {
            out.push(u);
        }
    };
    for (i, (word, start, _)) in w.iter().enumerate() {
        let after_number = numbers
            .iter()
            .any(|end| *end <= *start && q.text[*end..*start].trim().is_empty());
        let asks = i > 0 && w[i - 1].0 == "in"
            || i > 1 && w[i - 2].0 == "how" && matches!(w[i - 1].0.as_str(), "many" | "much");
        if after_number || !asks {
            continue;
        }
        if let Some(u) = unit_of(word).and_then(|c| table().parse(&c).ok()) {
            push(u);
        }
    }
    for (cue, unit) in CUES.iter() {
        let n = cue.len();
        let found = (0..w.len().saturating_sub(n - 1))
            .any(|i| w[i..i + n].iter().zip(cue).all(|((a, _, _), b)| a == b));
        if found {
            push(unit.clone());
        }
    }
    out
}

/// The unit a field's value is in: its declared unit, else the one its description names, else
/// a unit spelled out as a word of its name (`estimated_diameter.kilometers.max`,
/// `duration_seconds`; a word of four letters or more: `min` in `temp_min` is no minute).
fn unit_of_field(e: &EndpointData, f: u32) -> Option<Unit> {
    let fd = e.field_at(f);
    if let Some(u) = &fd.unit {
        return table().parse(&u.canonical).ok();
    }
    if let Some(u) = fd.description.as_deref().and_then(described) {
        return Some(u);
    }
    text::split_identifier(&fd.name)
        .into_iter()
        .map(|(a, b)| &fd.name[a..b])
        .filter(|w| w.chars().count() >= 4)
        .find_map(|w| unit_of(w).and_then(|c| table().parse(&c).ok()))
}

/// Per asked unit, the unit and the endpoint's fields (not identifiers) measured in its
/// dimension.
pub(super) fn fields(e: &EndpointData, asked: &[Unit]) -> Vec<(Unit, Vec<u32>)> {
    let units: Vec<Option<Unit>> = (0..e.fields.len() as u32)
        .map(|f| {
            (!e.field_at(f).identifier)
                .then(|| unit_of_field(e, f))
                .flatten()
        })
        .collect();
    asked
        .iter()
        .map(|a| {
            let of_dim: Vec<u32> = units
                .iter()
                .enumerate()
                .filter(|(_, u)| {
                    u.as_ref()
                        .is_some_and(|u| crate::units::conversion(a, u).is_some())
                })
                .map(|(f, _)| f as u32)
                .collect();
            (a.clone(), of_dim)
        })
        .filter(|(_, fs)| !fs.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(q: &str) -> Vec<String> {
        asked_units(&Query::new(q))
            .into_iter()
            .map(|u| u.dim.to_string())
            .collect()
    }

    #[test]
    fn units_and_dimension_words_ask_and_a_value_s_unit_does_not() {
        assert_eq!(
            canon("how many kilometres is the bike route from a to b"),
            ["length"]
        );
        assert_eq!(canon("the distance of the walk in miles"), ["length"]);
        assert_eq!(canon("how far is it from the station"), ["length"]);
        assert_eq!(canon("how long does it take by car to oxford"), ["time"]);
        assert_eq!(canon("how hot is it in fahrenheit"), ["temperature"]);
        // A unit after a number is a value the question gives.
        assert_eq!(
            canon("what can i reach within 15 minutes by bike"),
            Vec::<String>::new()
        );
        assert_eq!(canon("routes in 15 minutes"), Vec::<String>::new());
        // A bare unit word, a percentage, a place after "in": no ask.
        assert_eq!(canon("the minutes of the meeting"), Vec::<String>::new());
        assert_eq!(canon("the share in percent"), Vec::<String>::new());
        assert_eq!(canon("the weather in paris"), Vec::<String>::new());
        // Things counted are no units.
        for q in [
            "how many points did lebron score",
            "how many stars does rust have",
            "how many followers does x have",
            "how many pages does the book have",
            "how many items are in stock",
            "how many episodes are there",
            "how many people live in paris",
            "how many hit points does a goblin have",
        ] {
            assert_eq!(canon(q), Vec::<String>::new(), "{q}");
        }
        assert_eq!(canon("how many days until the launch"), ["time"]);
    }
}
