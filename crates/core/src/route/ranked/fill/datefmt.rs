//! The form a date parameter takes, as its description writes it: a pattern (`dd-MM-yyyy`,
//! `YYYY-MMM-DD`, `yyyyMMdd`, `MM/DD/YYYY`) or an example date (`2015-JUL-31`, `31/07/2015`,
//! `20150731`). A date read from the question (always ISO `YYYY-MM-DD` in its span) is bound in
//! that form; with none (or `format: date`), ISO.

use super::examples::examples;
use regex::Regex;
use std::sync::OnceLock;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// One part of a date form.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// `yyyy`.
    Year,
    /// `yy`.
    ShortYear,
    /// `MM` (two digits) or `M` (no leading zero).
    Month { padded: bool },
    /// `MMM` (`Jul`, `JUL`, `jul`) or `MMMM` (`July`).
    MonthName { full: bool, case: Case },
    /// `dd` or `d`.
    Day { padded: bool },
    /// A separator written as is.
    Lit(String),
}

/// The case a month's name is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    Upper,
    Lower,
    Title,
}

/// A date form read from a description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct DateForm(Vec<Part>);

fn pattern_re() -> &'static Regex {
    static P: OnceLock<Regex> = OnceLock::new();
    P.get_or_init(|| {
        Regex::new(r"(?i)\b(y{2,4}|m{1,4}|d{1,2})([-/. ]?)(y{2,4}|m{1,4}|d{1,2})([-/. ]?)(y{2,4}|m{1,4}|d{1,2})\b")
            .expect("date pattern")
    })
}

impl DateForm {
    /// The date form a description gives (a pattern first, else an example date), unless it is
    /// ISO `YYYY-MM-DD`, which is what a span holds already.
    pub(super) fn of(description: &str) -> Option<DateForm> {
        let form = pattern_re()
            .captures_iter(description)
            .find_map(|c| from_pattern(&c, description))
            .or_else(|| examples(description).iter().find_map(|e| from_example(e)))?;
        let iso = DateForm(vec![
            Part::Year,
            Part::Lit("-".into()),
            Part::Month { padded: true },
            Part::Lit("-".into()),
            Part::Day { padded: true },
        ]);
        (form != iso).then_some(form)
    }

    /// `iso` (`YYYY-MM-DD`, a time after it dropped) written in this form; `None` when it is
    /// no ISO date.
    pub(super) fn render(&self, iso: &str) -> Option<String> {
        let b = iso.get(..10)?;
        let (y, rest) = b.split_once('-')?;
        let (m, d) = rest.split_once('-')?;
        let (m, d): (usize, u32) = (m.parse().ok()?, d.parse().ok()?);
        if y.len() != 4 || !(1..=12).contains(&m) {
            return None;
        }
        let mut out = String::new();
        for p in &self.0 {
            match p {
                Part::Year => out.push_str(y),
                Part::ShortYear => out.push_str(&y[2..]),
                Part::Month { padded: true } => out.push_str(&format!("{m:02}")),
                Part::Month { padded: false } => out.push_str(&m.to_string()),
                Part::MonthName { full, case } => {
                    let name = MONTHS[m - 1];
                    let name = if *full { name } else { &name[..3] };
                    out.push_str(&match case {
                        Case::Upper => name.to_uppercase(),
                        Case::Lower => name.to_lowercase(),
                        Case::Title => name.to_string(),
                    });
                }
                Part::Day { padded: true } => out.push_str(&format!("{d:02}")),
                Part::Day { padded: false } => out.push_str(&d.to_string()),
                Part::Lit(s) => out.push_str(s),
            }
        }
        Some(out)
    }
}

/// A form from a pattern's three groups (`dd-MM-yyyy`): one year, one month and one day; the
/// case of a month name's letters follows an example date of the same description when it
/// gives one (`JUL` in "e.g. 2015-JUL-31"), else the pattern's (`MMM`: upper, `mmm`: lower).
fn from_pattern(c: &regex::Captures, description: &str) -> Option<DateForm> {
    let mut parts = Vec::new();
    let (mut y, mut m, mut d) = (0, 0, 0);
    for i in 1..=5 {
        let g = c.get(i).map_or("", |g| g.as_str());
        if i % 2 == 0 {
            if !g.is_empty() {
                parts.push(Part::Lit(g.to_string()));
            }
            continue;
        }
        let n = g.len();
        let lower = g.to_ascii_lowercase();
        parts.push(match lower.chars().next() {
            Some('y') => {
                y += 1;
                if n == 2 { Part::ShortYear } else { Part::Year }
            }
            Some('m') => {
                m += 1;
                if n >= 3 {
                    let example_case = examples(description)
                        .iter()
                        .find_map(|e| from_example(e))
                        .and_then(|f| {
                            f.0.into_iter().find_map(|p| match p {
                                Part::MonthName { case, .. } => Some(case),
                                _ => None,
                            })
                        });
                    let case = example_case.unwrap_or(if g.chars().all(|c| c.is_uppercase()) {
                        Case::Upper
                    } else if g.chars().all(|c| c.is_lowercase()) {
                        Case::Lower
                    } else {
                        Case::Title
                    });
                    Part::MonthName { full: n == 4, case }
                } else {
                    Part::Month { padded: n == 2 }
                }
            }
            _ => {
                d += 1;
                Part::Day { padded: n == 2 }
            }
        });
    }
    (y == 1 && m == 1 && d == 1).then_some(DateForm(parts))
}

/// A form from an example date: four digits are the year, letters the month's name, and of
/// the one- or two-digit groups the one above 12 is the day; when both could be either, a year
/// before them or a `/` between them says month first (`2016-12-01`, `07/04/2015`), another
/// separator day first.
fn from_example(e: &str) -> Option<DateForm> {
    if e.len() == 8 && e.chars().all(|c| c.is_ascii_digit()) {
        let (y, m, d) = (&e[..4], &e[4..6], &e[6..]);
        let ok = (1800..2200).contains(&y.parse::<u32>().ok()?)
            && (1..=12).contains(&m.parse::<u32>().ok()?)
            && (1..=31).contains(&d.parse::<u32>().ok()?);
        return ok.then(|| {
            DateForm(vec![
                Part::Year,
                Part::Month { padded: true },
                Part::Day { padded: true },
            ])
        });
    }
    // Runs of digits, of letters and of anything else: field, separator, field, separator, field.
    let class = |c: char| {
        if c.is_ascii_digit() {
            0
        } else if c.is_alphabetic() {
            1
        } else {
            2
        }
    };
    let mut groups: Vec<(String, bool)> = Vec::new(); // (text, is separator)
    for c in e.chars() {
        match groups.last_mut() {
            Some((t, _)) if t.chars().next().is_some_and(|x| class(x) == class(c)) => t.push(c),
            _ => groups.push((c.to_string(), class(c) == 2)),
        }
    }
    let fields: Vec<&String> = groups.iter().filter(|(_, s)| !s).map(|(t, _)| t).collect();
    if fields.len() != 3 || groups.len() != 5 || !groups[1].1 || !groups[3].1 {
        return None;
    }
    let sep = groups[1].0.clone();
    let mut parts: Vec<Option<Part>> = vec![None; 3];
    let mut numbers: Vec<(usize, u32, usize)> = Vec::new();
    let (mut year, mut month) = (false, false);
    for (i, f) in fields.iter().enumerate() {
        if f.chars().all(|c| c.is_ascii_digit()) {
            if f.len() == 4 {
                year = true;
                parts[i] = Some(Part::Year);
            } else if f.len() <= 2 {
                numbers.push((i, f.parse().ok()?, f.len()));
            } else {
                return None;
            }
        } else if f.chars().all(char::is_alphabetic) {
            let lower = f.to_lowercase();
            if !MONTHS.iter().any(|name| {
                let name = name.to_lowercase();
                name == lower || (lower.len() == 3 && name.starts_with(&lower))
            }) {
                return None;
            }
            month = true;
            let case = if f.chars().all(char::is_uppercase) {
                Case::Upper
            } else if f.chars().all(char::is_lowercase) {
                Case::Lower
            } else {
                Case::Title
            };
            parts[i] = Some(Part::MonthName {
                full: f.len() > 3,
                case,
            });
        } else {
            return None;
        }
    }
    if !year {
        return None;
    }
    match (month, numbers.as_slice()) {
        (true, [(i, d, len)]) if (1..=31).contains(d) => {
            parts[*i] = Some(Part::Day { padded: *len == 2 });
        }
        (false, [(i, a, la), (j, b, lb)]) => {
            let month_first = if *a > 12 && *b <= 12 {
                false
            } else if *b > 12 && *a <= 12 {
                true
            } else if *a <= 12 && *b <= 12 {
                // Ambiguous (`2021-12-01`, `01/02/2015`): a year written first is followed by
                // the month (ISO 8601 and every year-first convention; year-day-month is not in
                // use); a year written last follows `MM/DD` with a slash (US) and `DD-MM` or
                // `DD.MM` otherwise.
                parts[0] == Some(Part::Year) || sep == "/"
            } else {
                return None;
            };
            let (mi, ml, di, dl) = if month_first {
                (*i, *la, *j, *lb)
            } else {
                (*j, *lb, *i, *la)
            };
            parts[mi] = Some(Part::Month { padded: ml == 2 });
            parts[di] = Some(Part::Day { padded: dl == 2 });
        }
        _ => return None,
    }
    let mut out = Vec::new();
    for (k, p) in parts.into_iter().enumerate() {
        out.push(p?);
        if k < 2 {
            out.push(Part::Lit(groups[2 * k + 1].0.clone()));
        }
    }
    Some(DateForm(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(description: &str, iso: &str) -> Option<String> {
        DateForm::of(description).and_then(|f| f.render(iso))
    }

    #[test]
    fn a_date_is_written_as_the_description_shows() {
        for (d, want) in [
            ("the date of the event (format dd-MM-yyyy)", "25-12-2023"),
            ("The date must be in yyyyMMdd format", "20231225"),
            ("The date of the game(s), e.g. 2015-JUL-31", "2023-DEC-25"),
            ("Date in YYYY-MMM-DD form, e.g. 2017-SEP-01", "2023-DEC-25"),
            ("Date as YYYY-MMM-DD", "2023-DEC-25"),
            (
                "Day of the show, like 31/07/2015 (example: 31/07/2015)",
                "25/12/2023",
            ),
            ("US date, MM/DD/YYYY", "12/25/2023"),
            ("Date, e.g. 07/04/2015", "12/25/2023"),
            ("Date, for example 2015-07-31T00:00", "2023-12-25"),
            ("Date, e.g. 20150731", "20231225"),
            ("Date, e.g. Jul 4 2015", "Dec 25 2023"),
            // Year first, both numbers 12 or less: year-month-day.
            (
                "The budget month in ISO format (e.g. 2016-12-01)",
                "2023-12-25",
            ),
            ("Day, e.g. 2016/11/05", "2023/12/25"),
        ] {
            assert_eq!(
                bound(d, "2023-12-25").unwrap_or_else(|| "2023-12-25".into()),
                want,
                "{d}"
            );
        }
        // ISO, or no form at all: the span's value as it is.
        assert_eq!(DateForm::of("The date in the format yyyy-mm-dd."), None);
        assert_eq!(DateForm::of("Start date, e.g. 2024-01-31"), None);
        // An ambiguous example with the year first is year-month-day (ISO), never
        // year-day-month; with the year last, a slash is US month/day, a dash or dot day-month.
        for d in [
            "arrival date in ISO 8601 format (e.g. `2021-12-01`)",
            "e.g. 2020-03-01T00:00:00Z",
            "e.g. 2021/02/03",
        ] {
            assert_eq!(
                bound(d, "2025-07-03").unwrap_or_else(|| "2025-07-03".into()),
                if d.contains('/') {
                    "2025/07/03"
                } else {
                    "2025-07-03"
                },
                "{d}"
            );
        }
        assert_eq!(
            bound("e.g. 01.02.2015", "2025-07-03").as_deref(),
            Some("03.07.2025")
        );
        assert_eq!(
            bound("e.g. 01/02/2015", "2025-07-03").as_deref(),
            Some("07/03/2025")
        );
        assert_eq!(DateForm::of("The day the show airs"), None);
        assert_eq!(DateForm::of("Time in HHmm format"), None);
        assert_eq!(
            bound("format dd-MM-yyyy", "2019-08-18").as_deref(),
            Some("18-08-2019")
        );
    }

    #[test]
    fn a_date_in_words_is_bound_in_the_parameter_s_form() {
        use super::super::testing::*;
        use serde_json::Value;
        let mut e = endpoint("https://x.test/scores/{date}", &[("date", "path")]);
        e.parameters[0].description =
            Some("The date of the game(s). Examples: 2017-JUL-31, 2017-SEP-01.".into());
        for q in [
            "scores on december 25, 2023",
            "scores on 25 dec 2023",
            "scores on the 25th of December 2023",
            "scores on 2023-12-25",
        ] {
            assert_eq!(
                filled(&e, q, &["score"]),
                strings(&[("date", "2023-DEC-25")]),
                "{q}"
            );
        }
        let mut s = endpoint(
            "https://x.test/search/setlists",
            &[("date", "query"), ("artistName", "query")],
        );
        s.parameters[0].description = Some("the date of the event (format dd-MM-yyyy)".into());
        assert_eq!(
            filled(&s, "setlists of 18-08-2019", &["setlist"]).get("date"),
            Some(&Value::from("18-08-2019"))
        );
        // `format: date` and no form in the description: ISO.
        let iso = typed(
            endpoint("https://x.test/history", &[("day", "query")]),
            "day",
            "string",
            Some("date"),
        );
        assert_eq!(
            filled(&iso, "history of december 25, 2023", &["histori"]),
            strings(&[("day", "2023-12-25")])
        );
    }
}
