//! The Understand step's own readings, the same for every project: years and year ranges
//! ("since 2020", "2019-21", "between 2018 and 2020", "published in 2020"), years stated for a
//! concept of the project (recogniser kind `year`: "FY2021", "2021년", a bare year), result
//! counts ("top 5", "10 papers"), authors (a capitalised name after `by`) and quoted titles.

use super::Extraction;
use super::patterns::{PATTERNS, group};
use super::taken;
use serde_json::Value;

/// Capitalised words that start a phrase after `by` but are not a personal name.
const NOT_NAMES: &[&str] = &[
    "The", "This", "That", "These", "Those", "A", "An", "Which", "What", "Whom", "Each", "Using",
    "Source", "Year", "Date", "Type", "Default",
];

/// Push the year of each match (its first group, as an integer) for `concept`. "after 2020"
/// starts in 2021 and "before 2020" ends in 2019 (bounds are inclusive; "since" and "until"
/// include the year); with a month ("after March 2020") the year itself is still in the range.
fn push_years<'h>(
    x: &mut Extraction<'_>,
    matches: impl Iterator<Item = regex::Captures<'h>>,
    concept: &str,
) {
    for c in matches {
        let Some(m) = group(&c) else { continue };
        let lead = c.get(0).map(|a| a.as_str().to_ascii_lowercase());
        let strict = lead.as_deref().map_or(0, |l| {
            let bare = l.split_whitespace().count() == 2;
            match concept {
                "year_from" if bare && l.starts_with("after") => 1,
                "year_to" if bare && l.starts_with("before") => -1,
                _ => 0,
            }
        });
        if let Ok(y) = m.as_str().parse::<i64>() {
            x.push(concept, Value::from(y + strict), m.start(), m.end());
        }
    }
}

/// Years and year ranges (`year_from`, `year_to`); publication years ("published in 2020",
/// "papers from 2021") only when `publication`.
pub(super) fn years(query: &str, publication: bool, x: &mut Extraction<'_>) {
    let p = &PATTERNS;
    let has_digit = query.bytes().any(|b| b.is_ascii_digit());
    let numeric = if has_digit { query } else { "" };
    for c in p.year_range.captures_iter(numeric) {
        let (Some(a), Some(b)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let before = numeric[..a.start()].trim_end().to_ascii_lowercase();
        // "and" joins a range only after "between" ("2019 and 2021 papers" are two years).
        let joined_by_and = numeric[a.end()..b.start()]
            .trim()
            .eq_ignore_ascii_case("and");
        if joined_by_and && !before.ends_with("between") {
            continue;
        }
        let (Ok(from), Ok(to)) = (a.as_str().parse::<i64>(), b.as_str().parse::<i64>()) else {
            continue;
        };
        // "2019-21": the century of the first year.
        let to = if b.as_str().len() == 2 {
            from / 100 * 100 + to
        } else {
            to
        };
        // Not a range: an id or page range written with years' digits ("2019-2015"), or a
        // span from a word like "1990-2100-..." that the word boundary let through.
        if to < from || taken(&x.used, a.start(), b.end()) {
            continue;
        }
        x.push("year_from", Value::from(from), a.start(), a.end());
        x.push("year_to", Value::from(to), b.start(), b.end());
    }
    if publication {
        for c in p.year_in.captures_iter(numeric) {
            let (Some(all), Some(y)) = (c.get(0), c.get(1)) else {
                continue;
            };
            let Ok(year) = y.as_str().parse::<i64>() else {
                continue;
            };
            // Consumed with the year: "published in" (no `journal` then), or the preposition.
            let text = &numeric[all.start()..y.start()];
            let lower = text.to_ascii_lowercase();
            let lead = ["published", "appeared", "released", "came out"]
                .iter()
                .filter_map(|w| lower.find(w))
                .min()
                .unwrap_or_else(|| {
                    text.trim_end()
                        .rfind(char::is_whitespace)
                        .map_or(0, |i| i + 1)
                });
            let lead_start = all.start() + lead;
            if taken(&x.used, lead_start, y.end()) {
                continue;
            }
            x.push("year_from", Value::from(year), lead_start, y.end());
            x.used.pop();
            x.push("year_to", Value::from(year), lead_start, y.end());
        }
    }
    push_years(x, p.year_from.captures_iter(numeric), "year_from");
    push_years(x, p.year_to.captures_iter(numeric), "year_to");
}

/// Years stated for `concept` ("in 2021", "FY2021", "fiscal year 2021", "2021년"), and a bare
/// year when the question gives no range ("operating profit 2022").
pub(super) fn stated_years(query: &str, concept: &str, x: &mut Extraction<'_>) {
    let p = &PATTERNS;
    let stated = p
        .year_ko
        .captures_iter(query)
        .chain(p.fiscal.captures_iter(query));
    push_years(x, stated, concept);
    let ranged = x
        .out
        .iter()
        .any(|e| e.concept == "year_from" || e.concept == "year_to");
    if !ranged {
        push_years(x, p.bare_year.captures_iter(query), concept);
    }
}

/// Result counts (`max_results`), authors (`author`: a capitalised name after `by`, not
/// `published by`, a publisher, nor a name starting with an article or question word; the
/// analyzer drops names of tools) and quoted titles (`title`).
pub(super) fn counts_authors_titles(query: &str, lower: &str, x: &mut Extraction<'_>) {
    let p = &PATTERNS;
    let has_digit = query.bytes().any(|b| b.is_ascii_digit());
    let numeric = if has_digit { query } else { "" };
    for c in p.max_results.captures_iter(numeric) {
        let Some(m) = group(&c) else { continue };
        if let Ok(n) = m.as_str().parse::<i64>()
            && (1..=1000).contains(&n)
        {
            x.push("max_results", Value::from(n), m.start(), m.end());
        }
    }
    // Authors: a capitalised name after `by` (not `published by`, a publisher; not a name
    // starting with an article or question word). The analyzer drops names of tools.
    for c in p
        .author
        .captures_iter(if lower.contains("by") || lower.contains("author") {
            query
        } else {
            ""
        })
    {
        let all = c.get(0).expect("match");
        let m = c.get(1).expect("group");
        let name = m.as_str();
        let name = name
            .strip_suffix("'s")
            .or(name.strip_suffix("’s"))
            .unwrap_or(name);
        let first = name.split_whitespace().next().unwrap_or("");
        let before = lower[..all.start()].trim_end();
        if before.ends_with("published") || before.ends_with("cited") || NOT_NAMES.contains(&first)
        {
            continue;
        }
        x.push(
            "author",
            Value::String(name.to_string()),
            m.start(),
            m.start() + name.len(),
        );
    }
    for c in p.quoted.captures_iter(query) {
        let Some((group, m)) = c
            .iter()
            .enumerate()
            .skip(1)
            .find_map(|(i, m)| m.map(|m| (i, m)))
        else {
            continue;
        };
        // Single quotes (groups 5 and 6) also mark terms ("translate 'band gap'"): a title
        // there has three words at least.
        if group >= 5 && m.as_str().split_whitespace().count() < 3 {
            continue;
        }
        x.push(
            "title",
            Value::String(m.as_str().trim().into()),
            m.start(),
            m.end(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::get;
    use serde_json::Value;

    #[test]
    fn years_and_counts() {
        assert_eq!(
            get("papers published since 2022; list titles", "year_from"),
            Some(2022.into())
        );
        assert_eq!(get("2020년 이후 논문", "year_from"), Some(2020.into()));
        assert_eq!(
            get("DART filings of 00164779 since January 2024", "year_from"),
            Some(2024.into())
        );
        assert_eq!(
            get("DART filings of 00164779 since January 2024", "fiscal_year"),
            None
        );
        assert_eq!(
            get("papers published before Sept. 2019", "year_to"),
            Some(2019.into())
        );
        // "after" and "before" a bare year exclude it; "since" and "until" include it.
        assert_eq!(get("preprints after 2020", "year_from"), Some(2021.into()));
        assert_eq!(get("preprints since 2020", "year_from"), Some(2020.into()));
        assert_eq!(get("papers before 2019", "year_to"), Some(2018.into()));
        assert_eq!(get("papers until 2019", "year_to"), Some(2019.into()));
        assert_eq!(
            get("papers after March 2020", "year_from"),
            Some(2020.into())
        );
        // Ranges of years, both ends; not a date, and "and" only after "between".
        for (q, from, to) in [
            (
                "perovskite LEDs published 2019–2021",
                Some(2019),
                Some(2021),
            ),
            ("papers on MXenes 2019-21", Some(2019), Some(2021)),
            ("works from 2015 to 2018", Some(2015), Some(2018)),
            ("papers between 2018 and 2020", Some(2018), Some(2020)),
            (
                "papers on graphene published in 2020",
                Some(2020),
                Some(2020),
            ),
            ("preprints from 2021 on MXenes", Some(2021), Some(2021)),
            ("compare 2018 and 2020 papers", None, None),
            ("deposited on 2021-03-15", None, None),
        ] {
            assert_eq!(get(q, "year_from"), from.map(Value::from), "{q}");
            assert_eq!(get(q, "year_to"), to.map(Value::from), "{q}");
        }
        assert_eq!(
            get("find 3 arXiv papers on electrolytes", "max_results"),
            Some(3.into())
        );
        assert_eq!(
            get("Find up to 5 arXiv preprints", "max_results"),
            Some(5.into())
        );
        assert_eq!(
            get("give me 10 results on MOFs", "max_results"),
            Some(10.into())
        );
        assert_eq!(get("2023 papers on MOFs", "max_results"), None);
        assert_eq!(
            get(
                "DART에서 고유번호 00126380 회사의 2023년 사업보고서 기준 매출액",
                "corp_code"
            ),
            Some("00126380".into())
        );
        assert_eq!(
            get(
                "DART에서 고유번호 00126380 회사의 2023년 사업보고서 기준 매출액",
                "fiscal_year"
            ),
            Some(2023.into())
        );
        assert_eq!(
            get(
                "DART에서 고유번호 00126380 회사의 2023년 사업보고서 기준 매출액",
                "report_code"
            ),
            Some("11011".into())
        );
    }

    #[test]
    fn authors_and_bare_filing_years() {
        assert_eq!(
            get("articles by Prof. Anubhav Jain since 2019", "author"),
            Some("Anubhav Jain".into())
        );
        assert_eq!(
            get("work by Jan van der Berg's group", "author"),
            Some("Jan van der Berg".into())
        );
        assert_eq!(get("papers published by Elsevier", "author"), None);
        assert_eq!(get("sorted by The Date field", "author"), None);
        assert_eq!(get("band gap by DFT", "author"), None);
        // "Li Chen" is a name, not lithium.
        assert_eq!(get("papers by Li Chen", "formula"), None);
        assert_eq!(
            get("net income 2019 in the annual report (DART)", "fiscal_year"),
            Some(2019.into())
        );
        assert_eq!(get("papers on MOFs, 2019", "fiscal_year"), None);
    }

    #[test]
    fn titles_in_every_kind_of_quotes() {
        let t = |s: &str| Some(Value::String(s.to_string()));
        for (q, want) in [
            (
                "who cited \"Attention Is All You Need\"",
                "Attention Is All You Need",
            ),
            (
                "who cited “Attention Is All You Need”?",
                "Attention Is All You Need",
            ),
            (
                "who cited 'Attention Is All You Need'?",
                "Attention Is All You Need",
            ),
            (
                "who cited ‘Attention Is All You Need’",
                "Attention Is All You Need",
            ),
            (
                "wer zitiert „Attention Is All You Need“",
                "Attention Is All You Need",
            ),
            (
                "qui cite « Attention Is All You Need » ?",
                "Attention Is All You Need",
            ),
            (
                "「Attention Is All You Need」を引用した論文",
                "Attention Is All You Need",
            ),
            (
                "the paper 'Li-ion cathode coatings: a review', 2021",
                "Li-ion cathode coatings: a review",
            ),
        ] {
            assert_eq!(get(q, "title"), t(want), "{q}");
        }
        // Apostrophes and a quoted single word are no titles.
        for q in [
            "what's the band gap of GaN's wurtzite phase",
            "band gap of 'GaN'",
            "Translate 'band gap' into Japanese",
            "what does ‘band gap’ mean",
            "the authors' paper on cathodes isn't cited",
        ] {
            assert_eq!(get(q, "title"), None, "{q}");
        }
    }
}
