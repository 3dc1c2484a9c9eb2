//! Pass `ranges`: numeric ranges and bounds the question puts on a concept it names: "band gap
//! between 2 and 3 eV", "from 2 to 3 eV", "2-3 eV", "above 1.5 eV", "at most 0.5 eV",
//! "100 GPa or more", "> 1.5 eV" (with or without a unit, the unit written apart or glued to
//! the number).
//!
//! A range belongs to the concept named closest before it (a few words back: "band gap of at
//! least 2 eV") or, failing that, right after it ("above 1.5 eV band gap"); when the range has
//! a unit, a concept whose declared dimension differs is passed over ("band gap above 2 eV and
//! bulk modulus below 100 GPa"). Numbers another parameter took (a year, a count, an id) are
//! not ranges. The cue words are English grammar, not any project's domain.
//!
//! Runs after `understanding`; reads the query, tokens, `extracted`, `concepts` with
//! `concept_at`; writes the Understanding's `ranges`.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::Token;
use crate::units::UnitTable;
use std::sync::OnceLock;

/// Cues of a lower bound before the number, as word sequences (normalised tokens).
const LOWER_BEFORE: &[&[&str]] = &[
    &["above"],
    &["over"],
    &["exceeding"],
    &["exceeds"],
    &["beyond"],
    &["greater", "than"],
    &["more", "than"],
    &["higher", "than"],
    &["larger", "than"],
    &["bigger", "than"],
    &["at", "least"],
    &["no", "less", "than"],
    &["not", "less", "than"],
    &["minimum"],
    &["min"],
    &["starting", "at"],
];

/// Cues of an upper bound before the number.
const UPPER_BEFORE: &[&[&str]] = &[
    &["below"],
    &["under"],
    &["less", "than"],
    &["lower", "than"],
    &["smaller", "than"],
    &["fewer", "than"],
    &["at", "most"],
    &["no", "more", "than"],
    &["not", "more", "than"],
    &["up", "to"],
    &["maximum"],
    &["max"],
];

/// Cues after the number (and its unit): "2 eV or more", "100 GPa and below".
const LOWER_AFTER: &[&[&str]] = &[
    &["or", "more"],
    &["or", "higher"],
    &["or", "above"],
    &["or", "greater"],
    &["or", "larger"],
    &["and", "above"],
    &["and", "up"],
    &["or", "over"],
];
const UPPER_AFTER: &[&[&str]] = &[
    &["or", "less"],
    &["or", "lower"],
    &["or", "below"],
    &["or", "fewer"],
    &["or", "smaller"],
    &["and", "below"],
    &["or", "under"],
];

/// Words that may stand between a concept and its range ("band gap of at least", "band gap is
/// between", "with a band gap in the range").
const BETWEEN_CONCEPT_AND_RANGE: &[&str] = &[
    "of",
    "is",
    "are",
    "be",
    "with",
    "a",
    "an",
    "the",
    "that",
    "which",
    "has",
    "have",
    "having",
    "value",
    "values",
    "in",
    "range",
    "within",
    "equal",
    "to",
    "being",
    "somewhere",
];

/// How many tokens back (forward) a concept may stand from the range it bounds.
const REACH_BACK: usize = 6;
const REACH_AHEAD: usize = 3;

fn units() -> &'static UnitTable {
    static T: OnceLock<UnitTable> = OnceLock::new();
    T.get_or_init(UnitTable::builtin)
}

/// One range read from the question: the bounds, the unit, the token span it covers.
#[derive(Debug, PartialEq)]
struct Read {
    min: Option<f64>,
    max: Option<f64>,
    unit: Option<String>,
    first: usize,
    last: usize,
}

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let taken = |t: &Token| {
        r.extracted
            .iter()
            .any(|e| t.range.0 < e.range.1 && e.range.0 < t.range.1)
    };
    let mut i = 0;
    let mut found: Vec<Read> = Vec::new();
    while i < r.tokens.len() {
        if taken(&r.tokens[i]) {
            i += 1;
            continue;
        }
        match read_at(&r.query, &r.tokens, i) {
            Some(read) if !r.tokens[read.first..=read.last].iter().any(taken) => {
                i = read.last + 1;
                found.push(read);
            }
            _ => i += 1,
        }
    }
    for read in found {
        let Some(key) = owner(lx, r, &read) else {
            continue;
        };
        let entry = r.understanding.ranges.entry(key).or_default();
        if read.min.is_some() {
            entry.min = read.min;
        }
        if read.max.is_some() {
            entry.max = read.max;
        }
        if read.unit.is_some() {
            entry.unit = read.unit;
        }
    }
    Flow::Next
}

/// The concept a range bounds: the closest mention before it (only filler words between), else
/// the one right after it; one whose declared dimension differs from the range's unit is
/// passed over. Returns the concept as the Understanding names it.
fn owner(lx: &Lexical<'_>, r: &Reading, read: &Read) -> Option<String> {
    let start = r.tokens[read.first].range.0;
    let end = r.tokens[read.last].range.1;
    let dim = read
        .unit
        .as_deref()
        .and_then(|u| units().parse(u).ok())
        .map(|u| u.dim.to_string());
    let fits = |k: usize| {
        let Some(d) = &dim else { return true };
        r.concepts[k].1.iter().all(|c| {
            lx.g.concept(c)
                .and_then(|cd| cd.dimension.as_deref())
                .is_none_or(|cd| cd == d)
        })
    };
    let between = |a: usize, b: usize| -> Vec<&Token> {
        r.tokens
            .iter()
            .filter(|t| t.range.0 >= a && t.range.1 <= b)
            .collect()
    };
    let before = (0..r.concepts.len())
        .filter(|&k| r.concept_at[k].1 <= start && fits(k))
        .max_by_key(|&k| r.concept_at[k].1)
        .filter(|&k| {
            let gap = between(r.concept_at[k].1, start);
            gap.len() <= REACH_BACK
                && gap
                    .iter()
                    .all(|t| BETWEEN_CONCEPT_AND_RANGE.contains(&t.norm.as_str()))
        });
    let after = || {
        (0..r.concepts.len())
            .filter(|&k| r.concept_at[k].0 >= end && fits(k))
            .min_by_key(|&k| r.concept_at[k].0)
            .filter(|&k| between(end, r.concept_at[k].0).len() <= REACH_AHEAD)
    };
    let k = before.or_else(after)?;
    Some(lx.requested(&r.concepts[k]))
}

/// A range starting at token `i` (its cue or its first number), if one does.
fn read_at(query: &str, tokens: &[Token], i: usize) -> Option<Read> {
    let words = |k: usize, cue: &[&str]| {
        cue.iter()
            .enumerate()
            .all(|(j, w)| tokens.get(k + j).is_some_and(|t| t.norm == *w))
    };
    // "between N and M", "from N to M".
    for (lead, join) in [("between", "and"), ("from", "to")] {
        if tokens[i].norm == lead
            && let Some((lo, u1, k)) = quantity(query, tokens, i + 1)
            && tokens.get(k).is_some_and(|t| t.norm == join)
            && let Some((hi, u2, last)) = quantity(query, tokens, k + 1)
        {
            // "between 400 and 300 K" is the same range.
            let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
            return Some(Read {
                min: Some(lo),
                max: Some(hi),
                unit: u2.or(u1),
                first: i,
                last: last - 1,
            });
        }
    }
    // A cue word before the number.
    for (cues, lower) in [(LOWER_BEFORE, true), (UPPER_BEFORE, false)] {
        for cue in cues {
            if words(i, cue)
                && let Some((v, unit, next)) = quantity(query, tokens, i + cue.len())
            {
                return Some(bound(v, lower, unit, i, next - 1));
            }
        }
    }
    // A comparison sign before the number: "> 1.5 eV", "band gap >= 2".
    if let Some(lower) = sign_before(query, tokens, i)
        && let Some((v, unit, next)) = quantity(query, tokens, i)
    {
        return Some(bound(v, lower, unit, i, next - 1));
    }
    // "N-M unit" (one token, the unit glued or next).
    if let Some((lo, hi, glued)) = dashed(query, &tokens[i]) {
        let next = tokens.get(i + 1).map(|n| &query[n.range.0..n.range.1]);
        let degrees = degree_unit(query, tokens[i].range.1).map(|(u, end)| {
            let last = tokens[i + 1..]
                .iter()
                .take_while(|n| n.range.1 <= end)
                .count();
            (u, i + last)
        });
        let (unit, last) = match (glued, next) {
            (Some(u), _) => (Some(u), i),
            (None, _) if degrees.is_some() => degrees.map_or((None, i), |(u, l)| (Some(u), l)),
            (None, Some(n)) if is_unit(n) => (Some(n.to_string()), i + 1),
            (None, _) => (None, i),
        };
        return unit.is_some().then_some(Read {
            min: Some(lo),
            max: Some(hi),
            unit,
            first: i,
            last,
        });
    }
    // "N to M unit", "N – M unit" (a dash between spaces), and "N unit or more".
    let (v, unit, next) = quantity(query, tokens, i)?;
    let spaced_dash = next > 0
        && tokens.get(next).is_some_and(|t| {
            matches!(
                query[tokens[next - 1].range.1..t.range.0].trim(),
                "-" | "–" | "—"
            )
        });
    let upper = if spaced_dash {
        // The dash is the range's, not the upper bound's sign.
        quantity(query, tokens, next).map(|(hi, u, last)| (hi.abs(), u, last))
    } else if tokens.get(next).is_some_and(|t| t.norm == "to") {
        quantity(query, tokens, next + 1)
    } else {
        None
    };
    if let Some((hi, u2, last)) = upper
        && (u2.is_some() || unit.is_some())
    {
        return Some(Read {
            min: Some(v),
            max: Some(hi),
            unit: u2.or(unit),
            first: i,
            last: last - 1,
        });
    }
    for (cues, lower) in [(LOWER_AFTER, true), (UPPER_AFTER, false)] {
        for cue in cues {
            if words(next, cue) {
                return Some(bound(v, lower, unit, i, next + cue.len() - 1));
            }
        }
    }
    None
}

fn bound(v: f64, lower: bool, unit: Option<String>, first: usize, last: usize) -> Read {
    Read {
        min: lower.then_some(v),
        max: (!lower).then_some(v),
        unit,
        first,
        last,
    }
}

/// Whether a comparison sign stands right before token `i`: `>`, `>=`, `≥` (a lower bound),
/// `<`, `<=`, `≤` (an upper bound).
fn sign_before(query: &str, tokens: &[Token], i: usize) -> Option<bool> {
    let from = if i == 0 { 0 } else { tokens[i - 1].range.1 };
    let gap = query[from..tokens[i].range.0].trim();
    match gap {
        ">" | ">=" | "≥" | "=>" => Some(true),
        "<" | "<=" | "≤" | "=<" => Some(false),
        _ => None,
    }
}

/// A number at token `i`, with its unit (glued, "2.5eV", or the next token when it parses as a
/// unit that is no plain word), and the index of the first token after it.
fn quantity(query: &str, tokens: &[Token], i: usize) -> Option<(f64, Option<String>, usize)> {
    let t = tokens.get(i)?;
    let raw = &query[t.range.0..t.range.1];
    // "2-3 eV" is a range, not one number.
    if dashed(query, t).is_some() {
        return None;
    }
    let (num, glued) = split_number(raw)?;
    let num = if negated(query, t.range.0) { -num } else { num };
    if glued.is_empty()
        && let Some((unit, end)) = degree_unit(query, t.range.1)
    {
        let next = tokens[i + 1..]
            .iter()
            .position(|n| n.range.0 >= end)
            .map_or(tokens.len(), |k| i + 1 + k);
        return Some((num, Some(unit), next));
    }
    if !glued.is_empty() {
        return is_unit(glued).then(|| (num, Some(glued.to_string()), i + 1));
    }
    if let Some(n) = tokens.get(i + 1) {
        let next = &query[n.range.0..n.range.1];
        if let Some(m) = tokens.get(i + 2)
            && let Some(unit) = unit_name(next, Some(&query[m.range.0..m.range.1]))
        {
            return Some((num, Some(unit), i + 3));
        }
        if is_unit(next) {
            return Some((num, Some(next.to_string()), i + 2));
        }
        if let Some(unit) = unit_name(next, None) {
            return Some((num, Some(unit), i + 2));
        }
    }
    Some((num, None, i + 1))
}

/// Whether the number starting at byte `at` is written with a minus sign (`-10 °C`, `−40`):
/// a `-` or `−` right before it that does not join it to a word or number before (`2-3` is a
/// range, `mp-13` an id).
fn negated(query: &str, at: usize) -> bool {
    let head = &query[..at];
    let Some(sign) = head.chars().next_back().filter(|c| matches!(c, '-' | '−')) else {
        return false;
    };
    head[..head.len() - sign.len_utf8()]
        .chars()
        .next_back()
        .is_none_or(|c| c.is_whitespace() || matches!(c, '(' | '[' | '=' | '>' | '<' | '≥' | '≤'))
}

/// A unit written by its name after a number, as people write it in a question ("300 kelvin",
/// "100 gigapascals", "77 degrees fahrenheit"), read with the published-unit grammar: the
/// unit's canonical spelling. With `second`, the two words together, when they name another
/// unit than the first alone ("degrees fahrenheit" is no angle). Plain words the unit table
/// does not read ("materials", "or") are none.
fn unit_name(first: &str, second: Option<&str>) -> Option<String> {
    let word = |w: &str| w.chars().count() >= 3 && w.chars().all(char::is_alphabetic);
    if !word(first) {
        return None;
    }
    let Some(second) = second else {
        return units().parse_published(first).ok().map(|u| u.canonical);
    };
    if !word(second) {
        return None;
    }
    let both = units().parse_published(&format!("{first} {second}")).ok()?;
    let alone = units().parse_published(first).ok().map(|u| u.dim);
    (alone != Some(both.dim)).then_some(both.canonical)
}

/// A temperature unit written with a degree sign right after a number (`300 °C`, `212°F`,
/// `50 ℃`), which the tokens do not hold (`°` is no word character): the unit and the byte
/// where it ends.
fn degree_unit(query: &str, from: usize) -> Option<(String, usize)> {
    let rest = query.get(from..)?;
    let skipped = rest.len() - rest.trim_start().len();
    let rest = &rest[skipped..];
    if !rest.starts_with(['°', '℃', '℉']) {
        return None;
    }
    let len: usize = rest
        .chars()
        .take_while(|&c| c.is_alphabetic() || matches!(c, '°' | '℃' | '℉'))
        .map(char::len_utf8)
        .sum();
    let unit = &rest[..len];
    let temperature = crate::units::Dimension::from_name("temperature");
    (units().parse(unit).ok().map(|u| u.dim) == temperature)
        .then(|| (unit.to_string(), from + skipped + len))
}

/// `2-3`, `2–3eV`: a range written as one token.
fn dashed(query: &str, t: &Token) -> Option<(f64, f64, Option<String>)> {
    let raw = &query[t.range.0..t.range.1];
    let (a, b) = raw.split_once(['-', '–'])?;
    let lo: f64 = a.parse().ok()?;
    let (hi, glued) = split_number(b)?;
    if glued.is_empty() {
        Some((lo, hi, None))
    } else {
        is_unit(glued).then(|| (lo, hi, Some(glued.to_string())))
    }
}

/// A leading decimal number and the text glued after it (`"2.5eV"` -> `(2.5, "eV")`).
fn split_number(raw: &str) -> Option<(f64, &str)> {
    let end = raw
        .char_indices()
        .find(|&(k, c)| !(c.is_ascii_digit() || (c == '.' && k > 0)))
        .map(|(k, _)| k)
        .unwrap_or(raw.len());
    let num = raw[..end].trim_end_matches('.');
    if num.is_empty() {
        return None;
    }
    Some((num.parse().ok()?, &raw[num.len()..]))
}

/// Whether `s` is a unit spelling: it parses, and it is not an everyday word the unit table
/// happens to know (single letters such as `a` or `m` only count glued to a number).
fn is_unit(s: &str) -> bool {
    // A number is no unit (the unit table reads `1.7` as a dimensionless factor): "1.1 – 1.7".
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && !matches!(
            s,
            "a" | "A" | "in" | "at" | "and" | "or" | "to" | "h" | "s" | "m"
        )
        && units().parse(s).is_ok()
}

#[cfg(test)]
mod tests {
    use crate::route::ValueRange;
    use crate::route::analyzer::testing::understand;

    fn range(min: Option<f64>, max: Option<f64>, unit: Option<&str>) -> ValueRange {
        ValueRange {
            min,
            max,
            unit: unit.map(str::to_string),
        }
    }

    #[test]
    fn ranges_and_bounds_on_the_concept_named_before_them() {
        for (q, want) in [
            (
                "materials with a band gap between 2 and 3 eV",
                range(Some(2.0), Some(3.0), Some("eV")),
            ),
            (
                "band gap from 1.1 to 1.7 eV oxides",
                range(Some(1.1), Some(1.7), Some("eV")),
            ),
            (
                "semiconductors with band gap 2-3 eV",
                range(Some(2.0), Some(3.0), Some("eV")),
            ),
            (
                "semiconductors with band gap 2–3 eV",
                range(Some(2.0), Some(3.0), Some("eV")),
            ),
            (
                "band gap of 1.1 – 1.7 eV",
                range(Some(1.1), Some(1.7), Some("eV")),
            ),
            (
                "band gap of 1.1 - 1.7 eV",
                range(Some(1.1), Some(1.7), Some("eV")),
            ),
            ("band gap above 1.5 eV", range(Some(1.5), None, Some("eV"))),
            (
                "band gap of at least 2eV",
                range(Some(2.0), None, Some("eV")),
            ),
            (
                "band gap of at most 0.5 eV",
                range(None, Some(0.5), Some("eV")),
            ),
            ("band gap > 1.5", range(Some(1.5), None, None)),
            ("band gap 3 eV or more", range(Some(3.0), None, Some("eV"))),
            (
                "band gap less than 1200 meV",
                range(None, Some(1200.0), Some("meV")),
            ),
        ] {
            let u = understand(q);
            assert_eq!(u.ranges.get("band_gap"), Some(&want), "{q}: {u:?}");
            assert_eq!(u.ranges.len(), 1, "{q}: {u:?}");
        }
    }

    #[test]
    fn a_range_after_its_concept_and_ranges_on_two_concepts() {
        let u = understand("above 1.5 eV band gap");
        assert_eq!(
            u.ranges.get("band_gap"),
            Some(&range(Some(1.5), None, Some("eV")))
        );
        let u = understand("band gap above 2 eV and bulk modulus below 100 GPa");
        assert_eq!(
            u.ranges.get("band_gap"),
            Some(&range(Some(2.0), None, Some("eV")))
        );
        assert_eq!(
            u.ranges.get("bulk_modulus"),
            Some(&range(None, Some(100.0), Some("GPa")))
        );
    }

    #[test]
    fn signs_unit_names_and_inverted_ranges() {
        for (q, want) in [
            (
                "band gap between -2 and -1 eV",
                range(Some(-2.0), Some(-1.0), Some("eV")),
            ),
            (
                "band gap above −0.5 eV",
                range(Some(-0.5), None, Some("eV")),
            ),
            (
                "band gap between 3 and 2 eV",
                range(Some(2.0), Some(3.0), Some("eV")),
            ),
            (
                "band gap above 2 electronvolts",
                range(Some(2.0), None, Some("eV")),
            ),
        ] {
            let u = understand(q);
            assert_eq!(u.ranges.get("band_gap"), Some(&want), "{q}: {u:?}");
        }
        // A dash between two numbers is a range, not a sign.
        let u = understand("band gap 2-3 eV");
        assert_eq!(
            u.ranges.get("band_gap"),
            Some(&range(Some(2.0), Some(3.0), Some("eV")))
        );
    }

    #[test]
    fn unit_names_of_one_or_two_words() {
        assert_eq!(super::unit_name("kelvin", None).as_deref(), Some("K"));
        assert_eq!(
            super::unit_name("gigapascals", None).as_deref(),
            Some("GPa")
        );
        assert_eq!(
            super::unit_name("degrees", Some("fahrenheit")).as_deref(),
            Some("°F")
        );
        assert_eq!(super::unit_name("degrees", Some("materials")), None);
        assert_eq!(super::unit_name("materials", None), None);
        assert_eq!(super::unit_name("or", None), None);
    }

    #[test]
    fn numbers_of_other_parameters_and_loose_numbers_are_no_ranges() {
        for q in [
            "papers on band gap engineering published between 2019 and 2021",
            "band gap of GaN",
            "top 5 materials by band gap",
            "band gap of mp-149",
        ] {
            let u = understand(q);
            assert!(u.ranges.is_empty(), "{q}: {u:?}");
        }
    }
}
