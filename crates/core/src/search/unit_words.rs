//! Units written as words or symbols, read in the unit table's canonical spelling: the one
//! reading the fill's passes `systems` ("in fahrenheit") and `measures` ("15 minutes",
//! `totalMins`) and the projection's `measured` ("how many kilometres") share, with the unit a
//! description names ("The total distance, in meters.").

use crate::search::spans;
use crate::units::{Unit, UnitTable};
use std::sync::OnceLock;

/// Unit names the unit table knows by symbol only (see the file's header).
const NAMES: &str = include_str!("unit_names.txt");

/// The unit table, built once.
pub(crate) fn table() -> &'static UnitTable {
    static TABLE: OnceLock<UnitTable> = OnceLock::new();
    TABLE.get_or_init(UnitTable::builtin)
}

/// The unit names of `unit_names.txt` (`name WORD SYMBOL` lines): word, symbol.
fn names() -> &'static [(String, String)] {
    static PARSED: OnceLock<Vec<(String, String)>> = OnceLock::new();
    PARSED.get_or_init(|| {
        NAMES
            .lines()
            .filter_map(|l| {
                let mut w = l.strip_prefix("name ")?.split_whitespace();
                Some((w.next()?.to_string(), w.next()?.to_string()))
            })
            .collect()
    })
}

/// The canonical spelling of a unit written as `w`: a spelling the unit table knows ("°F",
/// "fahrenheit", "celsius", "mph"), a unit word ("miles"), or a published symbol of three
/// characters or fewer or with a sign in it (`km/h`, `degF`); never a function word ("in"), a
/// number, or a longer word the table reads only by accident of its prefixes.
pub(crate) fn unit_of(w: &str) -> Option<String> {
    let w = w.trim_matches(|c: char| matches!(c, '`' | '\'' | '"' | '.' | ',' | ':' | '(' | ')'));
    if !w.chars().any(|c| c.is_alphabetic() || c == '°')
        || spans::is_function_word(&w.to_lowercase())
    {
        return None;
    }
    // A plural spelled out ("miles", "inches", "mins") is its singular's unit.
    let singular = [w.strip_suffix("es"), w.strip_suffix('s')];
    for (k, form) in std::iter::once(w)
        .chain(singular.into_iter().flatten())
        .enumerate()
    {
        let lower = form.to_lowercase();
        if let Some((_, symbol)) = names().iter().find(|(n, _)| *n == lower) {
            return table().parse(symbol).ok().map(|u| u.canonical);
        }
        let long = form.chars().count() > 3 || (k > 0 && form.chars().count() == 3);
        let known = long && table().parse(form).is_ok()
            || crate::units::published::word_to_symbol(form).is_some();
        if known && let Ok(u) = table().parse_published(form) {
            return Some(u.canonical);
        }
    }
    // A short published symbol (`mph`, `km`) or one with a sign in it (`km/h`, `degF`).
    let symbol = w.chars().count() <= 3 || !w.chars().all(char::is_alphabetic);
    symbol
        .then(|| table().parse_published(w).ok().map(|u| u.canonical))
        .flatten()
}

/// The unit a description says its value is in: a unit named right after "in" or "in units of"
/// ("The total distance, in meters.", "Travel time in milliseconds"), or alone in parentheses
/// after a space ("Elevation (m)"); the first such, parsed by the unit table.
pub(crate) fn described(description: &str) -> Option<Unit> {
    let words: Vec<&str> = description
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '.' | '(' | ')'))
        .filter(|w| !w.is_empty())
        .collect();
    let after_in = words.iter().enumerate().find_map(|(i, w)| {
        let cue = w.eq_ignore_ascii_case("in")
            || (i > 0
                && words[i - 1].eq_ignore_ascii_case("units")
                && w.eq_ignore_ascii_case("of"));
        cue.then(|| words.get(i + 1).and_then(|n| unit_of(n)))
            .flatten()
    });
    // A parenthesis after a space: "station(s)" is a plural, not seconds.
    let parenthesised = || {
        description.match_indices(" (").find_map(|(at, _)| {
            let inner = description[at + 2..].split(')').next()?.trim();
            (!inner.is_empty() && !inner.contains(char::is_whitespace))
                .then(|| unit_of(inner))
                .flatten()
        })
    };
    let canonical = after_in.or_else(parenthesised)?;
    table().parse(&canonical).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_description_names_its_unit_after_in_or_in_parentheses() {
        let canon = |d: &str| described(d).map(|u| u.canonical);
        assert_eq!(canon("The total distance, in meters."), Some("m".into()));
        assert_eq!(
            canon("The total travel time, in milliseconds. Read more."),
            Some("ms".into())
        );
        assert_eq!(canon("Value in units of kilograms"), Some("kg".into()));
        assert_eq!(canon("Elevation of the station (ft)"), Some("ft".into()));
        assert_eq!(canon("Name of the place in the local language"), None);
        assert_eq!(canon("Count of items (see below)"), None);
        assert_eq!(canon("The id of the station(s) to read"), None);
    }
}
