//! Numbers and months written in words, as typed spans for the passes after it: "tag twelve"
//! and "the top five" give numbers (12, 5), "twenty twenty-six" and "two thousand and four"
//! give years (2026, 2004), and "april 2024" gives the month's first day (`2024-04-01`) where
//! an open parameter takes a month (named or described as one: `month`, "The budget month in
//! ISO format"). The number words are English language data ([`super::words`]), no domain's.

use super::profile::Profile;
use super::words::{MONTH_NAMES, NUMBER_TENS, NUMBER_UNITS};
use crate::search::spans::{Span, SpanKind, span_at};

/// The words of `question` (letters only, lower case) with their byte ranges; a hyphenated
/// number ("twenty-six") is two words.
fn words(question: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in question.char_indices().chain([(question.len(), ' ')]) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i, question[s..i].to_lowercase()));
                start = None;
            }
            _ => {}
        }
    }
    out
}

fn unit(w: &str) -> Option<u32> {
    NUMBER_UNITS
        .iter()
        .position(|u| *u == w)
        .map(|i| i as u32 + 1)
}

fn tens(w: &str) -> Option<u32> {
    NUMBER_TENS
        .iter()
        .position(|u| *u == w)
        .map(|i| (i as u32 + 2) * 10)
}

/// A number below 100 written from word `i` ("twelve", "twenty six", "twenty-six"): its value
/// and how many words it takes.
fn below_hundred(ws: &[(usize, usize, String)], i: usize) -> Option<(u32, usize)> {
    let w = &ws.get(i)?.2;
    if let Some(t) = tens(w) {
        let next = ws.get(i + 1).filter(|n| n.0 <= ws[i].1 + 1);
        if let Some(u) = next.and_then(|n| unit(&n.2)).filter(|&u| u < 10) {
            return Some((t + u, 2));
        }
        return Some((t, 1));
    }
    unit(w).map(|u| (u, 1))
}

/// A number written in words from word `i`: a year ("twenty twenty-six", "nineteen
/// ninety-nine", "two thousand and four", "two thousand twenty four") or a number below a
/// thousand ("twelve", "three hundred and five"); its value, whether it is a year, and the
/// number of words it takes.
fn number_at(ws: &[(usize, usize, String)], i: usize) -> Option<(u32, bool, usize)> {
    let (first, n1) = below_hundred(ws, i)?;
    let at = |k: usize| ws.get(k).map(|w| w.2.as_str());
    // "two thousand (and) twenty four"
    if at(i + n1) == Some("thousand") && first < 10 {
        let mut k = i + n1 + 1;
        if at(k) == Some("and") {
            k += 1;
        }
        let (rest, n2) = below_hundred(ws, k).unwrap_or((0, 0));
        let used = if n2 == 0 { n1 + 1 } else { k - i + n2 };
        return Some((first * 1000 + rest, true, used));
    }
    // "twenty twenty-six", "nineteen ninety-nine": a century and two digits.
    if (10..100).contains(&first)
        && let Some((second, n2)) = below_hundred(ws, i + n1)
        && (10..100).contains(&second)
    {
        return Some((first * 100 + second, true, n1 + n2));
    }
    // "three hundred (and) five"
    if at(i + n1) == Some("hundred") && first < 10 {
        let mut k = i + n1 + 1;
        if at(k) == Some("and") {
            k += 1;
        }
        let (rest, n2) = below_hundred(ws, k).unwrap_or((0, 0));
        let used = if n2 == 0 { n1 + 1 } else { k - i + n2 };
        return Some((first * 100 + rest, false, used));
    }
    Some((first, false, n1))
}

/// Spans for the numbers and years the question writes in words, and for "month year" where
/// an open parameter takes a month; spans they replace (an unknown word "twelve", a year that
/// is part of "april 2024") are dropped. "one" alone is no number ("which one").
pub(super) fn add(question: &str, open: &[Profile], spans: &mut Vec<Span>) {
    let ws = words(question);
    let mut added: Vec<Span> = Vec::new();
    let mut i = 0;
    while i < ws.len() {
        match number_at(&ws, i) {
            Some((v, year, n)) if !(n == 1 && v == 1) => {
                let (start, end) = (ws[i].0, ws[i + n - 1].1);
                let kind = if year && (1000..=2999).contains(&v) {
                    SpanKind::Year
                } else {
                    SpanKind::Number
                };
                let mut s = span_at(question, kind, start, end);
                s.value = v.to_string();
                added.push(s);
                i += n;
            }
            _ => i += 1,
        }
    }
    if open.iter().any(takes_month) {
        for (k, w) in ws.iter().enumerate() {
            let Some(m) = MONTH_NAMES.iter().position(|x| *x == w.2) else {
                continue;
            };
            let mut y = k + 1;
            if ws.get(y).is_some_and(|x| x.2 == "of") {
                y += 1;
            }
            let Some(year) = ws.get(y).filter(|x| {
                x.2.len() == 4
                    && x.2.chars().all(|c| c.is_ascii_digit())
                    && question[w.1..x.0]
                        .chars()
                        .all(|c| c.is_whitespace() || c == ',' || c.is_alphabetic())
            }) else {
                continue;
            };
            let mut s = span_at(question, SpanKind::Date, w.0, year.1);
            s.value = format!("{}-{:02}-01", year.2, m + 1);
            added.push(s);
        }
    }
    if added.is_empty() {
        return;
    }
    // A span inside one added here, or that holds a date's month or year, is replaced.
    spans.retain(|s| {
        !added.iter().any(|a| {
            (a.start <= s.start && s.end <= a.end)
                || (a.kind == SpanKind::Date && s.start < a.end && a.start < s.end)
        })
    });
    // A span the question already types (a written date "May 1, 2024") keeps its place.
    added.retain(|a| {
        !spans
            .iter()
            .any(|s| s.kind == SpanKind::Date && s.start < a.end && a.start < s.end)
    });
    spans.extend(added);
    spans.sort_by_key(|s| (s.start, s.end));
}

/// Whether a parameter takes a month: a date (or text) parameter named `month` or described as
/// "the … month".
fn takes_month(pr: &Profile) -> bool {
    !pr.numeric
        && (pr.words.iter().any(|w| w == "month")
            || (pr.temporal
                && pr
                    .p
                    .description
                    .as_deref()
                    .is_some_and(|d| d.to_lowercase().contains(" month"))))
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use std::collections::BTreeMap;

    fn numbers(q: &str) -> Vec<(SpanKind, String)> {
        let mut spans = Vec::new();
        add(q, &[], &mut spans);
        spans.into_iter().map(|s| (s.kind, s.value)).collect()
    }

    #[test]
    fn numbers_and_years_in_words() {
        use SpanKind::{Number, Year};
        let n = |k: SpanKind, v: &str| (k, v.to_string());
        assert_eq!(numbers("holiday number twelve"), [n(Number, "12")]);
        assert_eq!(numbers("the top five"), [n(Number, "5")]);
        assert_eq!(numbers("holidays in twenty twenty-six"), [n(Year, "2026")]);
        assert_eq!(numbers("films of nineteen ninety nine"), [n(Year, "1999")]);
        assert_eq!(numbers("two thousand and four"), [n(Year, "2004")]);
        assert_eq!(numbers("two thousand twenty four"), [n(Year, "2024")]);
        assert_eq!(numbers("forty-two answers"), [n(Number, "42")]);
        assert_eq!(numbers("three hundred and five"), [n(Number, "305")]);
        assert_eq!(numbers("which one is it"), []);
    }

    #[test]
    fn a_number_in_words_fills_like_digits() {
        let e = typed(
            endpoint("https://x.test/tags/{tag_id}/shows", &[("tag_id", "path")]),
            "tag_id",
            "integer",
            None,
        );
        assert_eq!(
            filled(&e, "what shows are under tag twelve", &["show", "tag"]),
            BTreeMap::from([("tag_id".to_string(), serde_json::json!(12))])
        );
        let y = typed(
            endpoint("https://x.test/holidays", &[("year", "query")]),
            "year",
            "integer",
            None,
        );
        assert_eq!(
            filled(&y, "holidays in twenty twenty-six", &["holiday"]),
            BTreeMap::from([("year".to_string(), serde_json::json!(2026))])
        );
    }

    #[test]
    fn a_month_and_year_fill_a_month_parameter() {
        let mut e = typed(
            endpoint(
                "https://x.test/budgets/{budget_id}/months/{month}",
                &[("month", "path")],
            ),
            "month",
            "date",
            None,
        );
        e.parameters[0].description =
            Some("The budget month in ISO format (e.g. 2016-12-01)".to_string());
        for (q, want) in [
            ("what did i budget in april 2024", "2024-04-01"),
            ("spending in March of 2025", "2025-03-01"),
        ] {
            assert_eq!(
                filled(&e, q, &["budget"]),
                strings(&[("month", want)]),
                "{q}"
            );
        }
        // A plain date parameter keeps its year: "april 2024" is no day.
        let d = typed(
            endpoint("https://x.test/weather", &[("date", "query")]),
            "date",
            "string",
            Some("date"),
        );
        assert!(
            !filled(&d, "weather in april 2024", &["weather"])
                .get("date")
                .is_some_and(|v| v == "2024-04-01")
        );
    }
}
