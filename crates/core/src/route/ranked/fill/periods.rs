//! Pass `periods`: a period of time the question names relative to now ("today", "this week",
//! "the past 7 days", "last month", "this year"; the words are language data in
//! [`crate::search::text`]) fills a period parameter: the enum value that names it (`7`, `week`,
//! `7d`), a number of days (or hours) for a parameter named as one, or a from/to date pair (a
//! lone lower bound, or a lone `date` for a day) counted back from the reference date, the run's
//! date unless `SCHEMAROUTER_TODAY` (`YYYY-MM-DD`) says otherwise.

use super::profile::Profile;
use super::typed::{Bound, param_bound};
use crate::route::bind;
use crate::search::spans::{self, Span, SpanKind};
use crate::search::text::{PERIOD_MODIFIERS, PERIOD_UNITS, PERIOD_WORDS};
use serde_json::Value;
use std::collections::BTreeMap;

/// A period of time the question names, ending `back` days before the reference date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Period {
    /// Its length in hours.
    pub(super) hours: u32,
    /// How many days before the reference date it ends (1 for "yesterday").
    pub(super) back: u32,
    /// Byte range of the words that name it in the question.
    pub(super) start: usize,
    /// End of the byte range (exclusive).
    pub(super) end: usize,
}

impl Period {
    /// Its length in whole days (at least one).
    fn days(&self) -> u32 {
        self.hours.div_ceil(24).max(1)
    }

    /// The unit its length is one of (`day`, `week`, `month`, `year`, `hour`), if any.
    fn unit(&self) -> Option<&'static str> {
        match self.hours {
            1 => Some("hour"),
            24 => Some("day"),
            168 => Some("week"),
            720 => Some("month"),
            8760 => Some("year"),
            _ => None,
        }
    }

    /// The short forms of its length an enum may list (`7d`, `1w`, `24h`, `1m`, `1y`).
    fn short_forms(&self) -> Vec<String> {
        let d = self.days();
        let mut out = vec![format!("{d}d"), format!("{}h", self.hours)];
        if d.is_multiple_of(7) {
            out.push(format!("{}w", d / 7));
        }
        if d.is_multiple_of(30) {
            out.push(format!("{}m", d / 30));
        }
        if d.is_multiple_of(365) {
            out.push(format!("{}y", d / 365));
        }
        out
    }
}

/// The first period of time the question names ([`Period`]), if any.
pub(super) fn find(question: &str) -> Option<Period> {
    let (toks, words) = spans::lower_words(question);
    let unit = |w: &str| PERIOD_UNITS.iter().find(|(u, _)| *u == w).map(|(_, h)| *h);
    for (i, w) in words.iter().enumerate() {
        if let Some((_, hours, back)) = PERIOD_WORDS.iter().find(|(x, _, _)| x == w) {
            let (start, end) = toks[i];
            return Some(Period {
                hours: *hours,
                back: *back,
                start,
                end,
            });
        }
        // "this week", "the past 7 days", "of the week" (a unit in the singular after "the").
        let the = w == "the" && i > 0 && matches!(words[i - 1].as_str(), "of" | "over" | "for");
        if !(PERIOD_MODIFIERS.contains(&w.as_str()) || the) {
            continue;
        }
        let mut j = i + 1;
        let mut n = 1;
        if !the && let Some(k) = words.get(j).and_then(|x| x.parse::<u32>().ok()) {
            n = k;
            j += 1;
        }
        let Some(next) = words.get(j) else { continue };
        if the && next.ends_with('s') {
            continue;
        }
        if let Some(h) = unit(next)
            && n > 0
        {
            return Some(Period {
                hours: h.saturating_mul(n),
                back: 0,
                start: toks[i].0,
                end: toks[j].1,
            });
        }
    }
    None
}

/// Parameter-name words of a period, or of a number of days or hours back.
const PERIOD_PARAM_WORDS: &[&str] = &[
    "days",
    "duration",
    "interval",
    "lookback",
    "period",
    "range",
    "span",
    "time",
    "timeframe",
    "timespan",
    "window",
];

/// Fill the open period parameters from the period the question names; returns its byte range
/// when it bound something (the spans inside it are no other values).
pub(super) fn pass(
    question: &str,
    open: &[Profile],
    spans: &[Span],
    today: i64,
    params: &mut BTreeMap<String, Value>,
) -> Option<(usize, usize)> {
    let period = find(question)?;
    let mut bound = false;
    for pr in open {
        if params.contains_key(&pr.p.name) {
            continue;
        }
        let v = if pr.p.enum_values.is_empty() {
            length(pr, &period)
        } else {
            enum_for(pr, &period)
        };
        if let Some(v) = v.and_then(|v| bind::coerce(pr.p, v).ok()) {
            params.insert(pr.p.name.clone(), v);
            bound = true;
        }
    }
    // Dates the question writes win over dates counted back.
    let dated = spans
        .iter()
        .any(|s| matches!(s.kind, SpanKind::Date | SpanKind::Year));
    if !dated {
        bound |= dates(open, &period, today, params);
    }
    bound.then_some((period.start, period.end))
}

/// A number of days (or hours) for a number parameter named as a period or a count of days.
fn length(pr: &Profile, period: &Period) -> Option<Value> {
    if !pr.numeric || !pr.named(PERIOD_PARAM_WORDS) && !pr.named(&["hours"]) {
        return None;
    }
    if pr.named(&["hours"]) {
        return Some(Value::from(period.hours));
    }
    Some(Value::from(period.days()))
}

/// The enum value that names the period: a number of days for an enum of numbers whose
/// parameter is named or described as a period or days (`1 | 7 | 30`), else a value that writes
/// its unit (`week`, `last_week`) or a short form (`7d`); the value with the most of the
/// question's words first.
fn enum_for(pr: &Profile, period: &Period) -> Option<Value> {
    let texts: Vec<(String, Value)> =
        pr.p.enum_values
            .iter()
            .map(|v| {
                let j = bind::scalar_json(v);
                (bind::value_text(&j).to_lowercase(), j)
            })
            .collect();
    if texts.iter().all(|(t, _)| t.parse::<f64>().is_ok()) {
        let periodic = pr.named(PERIOD_PARAM_WORDS)
            || pr.described(&["day", "days", "hours", "period", "week", "month"]);
        if !periodic {
            return None;
        }
        let want = if pr.named(&["hours"]) {
            period.hours
        } else {
            period.days()
        };
        return texts
            .into_iter()
            .find(|(t, _)| t.parse::<f64>().ok() == Some(f64::from(want)))
            .map(|(_, v)| v);
    }
    let unit = period.unit();
    let short = period.short_forms();
    texts
        .into_iter()
        .filter_map(|(t, v)| {
            let words: Vec<&str> = t
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            let names = words.iter().any(|w| {
                short.iter().any(|s| s == w)
                    || unit.is_some_and(|u| {
                        w.strip_suffix('s').unwrap_or(w) == u
                            || (u == "day" && *w == "daily")
                            || w.strip_suffix("ly") == Some(u)
                    })
                    || (period.hours == 24 && period.back == 0 && *w == "today")
            });
            // The value with no other word (`week`) before one with more (`last_week`).
            names.then_some((words.len(), v))
        })
        .min_by_key(|(n, _)| *n)
        .map(|(_, v)| v)
}

/// A from/to date pair counted back from the reference date (a lone lower bound; a lone `date`
/// for a period of one day); returns whether it bound any.
fn dates(
    open: &[Profile],
    period: &Period,
    today: i64,
    params: &mut BTreeMap<String, Value>,
) -> bool {
    let end = today - i64::from(period.back);
    let start = end - i64::from(period.days()) + 1;
    let free = |pr: &&Profile| pr.dated() && !pr.numeric && !params.contains_key(&pr.p.name);
    let lower = open
        .iter()
        .filter(free)
        .find(|pr| param_bound(pr) == Some(Bound::Lower));
    let upper = open
        .iter()
        .filter(free)
        .find(|pr| param_bound(pr) == Some(Bound::Upper));
    let day = open
        .iter()
        .filter(free)
        .find(|pr| param_bound(pr).is_none() && pr.named(&["date", "day"]));
    let mut pairs: Vec<(&Profile, i64)> = Vec::new();
    match (lower, upper, day) {
        (Some(l), Some(u), _) => pairs.extend([(l, start), (u, end)]),
        (Some(l), None, _) => pairs.push((l, start)),
        (None, _, Some(d)) if period.days() == 1 => pairs.push((d, end)),
        _ => {}
    }
    let mut bound = false;
    for (pr, day) in pairs {
        let mut text = iso_date(day);
        if pr.format() == "date-time" {
            text.push_str("T00:00:00Z");
        }
        if let Ok(v) = bind::coerce(pr.p, Value::String(text)) {
            params.insert(pr.p.name.clone(), v);
            bound = true;
        }
    }
    bound
}

/// The reference date of relative periods, in days since 1970-01-01: `SCHEMAROUTER_TODAY`
/// (`YYYY-MM-DD`) when set and valid, else today's date in UTC.
pub(super) fn reference_day() -> i64 {
    if let Ok(v) = std::env::var("SCHEMAROUTER_TODAY")
        && let Some(d) = parse_iso(&v)
    {
        return d;
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| (d.as_secs() / 86_400) as i64)
}

/// Days since 1970-01-01 of an ISO date `YYYY-MM-DD`.
fn parse_iso(s: &str) -> Option<i64> {
    let mut it = s.trim().splitn(3, '-');
    let y: i64 = it.next()?.parse().ok()?;
    let m: i64 = it.next()?.parse().ok()?;
    let d: i64 = it.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from civil (H. Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// The ISO date `YYYY-MM-DD` of a day counted from 1970-01-01 (civil from days).
fn iso_date(z: i64) -> String {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::model::value::Scalar;

    fn days_of(q: &str) -> Option<(u32, u32)> {
        find(q).map(|p| (p.days(), p.back))
    }

    #[test]
    fn relative_periods_are_read_in_their_phrasings() {
        for (q, want) in [
            ("the most viewed articles today", Some((1, 0))),
            ("what was shared yesterday", Some((1, 1))),
            ("most emailed stories this week", Some((7, 0))),
            ("shared over the past 30 days", Some((30, 0))),
            ("the last 7 days", Some((7, 0))),
            ("in the last 24 hours", Some((1, 0))),
            ("over the last day", Some((1, 0))),
            ("the top stories of the week", Some((7, 0))),
            ("the biggest movers last month", Some((30, 0))),
            ("releases this year", Some((365, 0))),
            ("the week ahead forecast", None),
            ("days of the weeks", None),
            ("who won the 2019 title", None),
        ] {
            assert_eq!(days_of(q), want, "{q}");
        }
    }

    #[test]
    fn dates_count_in_the_civil_calendar() {
        assert_eq!(parse_iso("1970-01-01"), Some(0));
        assert_eq!(parse_iso("2024-03-01"), Some(19_783));
        assert_eq!(iso_date(19_783), "2024-03-01");
        assert_eq!(iso_date(19_782), "2024-02-29");
        assert_eq!(parse_iso("2024-13-01"), None);
    }

    fn with_enum(
        mut e: crate::artifact::EndpointData,
        values: &[&str],
    ) -> crate::artifact::EndpointData {
        e.parameters[0].enum_values = values.iter().map(|v| Scalar::String((*v).into())).collect();
        e
    }

    #[test]
    fn a_period_fills_the_enum_value_that_names_it() {
        let mut days = with_enum(
            endpoint(
                "https://x.test/viewed/{time-period}.json",
                &[("time-period", "path")],
            ),
            &["1", "7", "30"],
        );
        days.parameters[0].description = Some("Number of days: a day, a week or a month".into());
        for (q, want) in [
            ("the most viewed stories today", "1"),
            ("most viewed this week", "7"),
            ("the most viewed over the past month", "30"),
        ] {
            assert_eq!(
                filled(&days, q, &["view"]),
                strings(&[("time-period", want)]),
                "{q}"
            );
        }
        let named = with_enum(
            endpoint("https://x.test/top", &[("t", "query")]),
            &["hour", "day", "week", "month", "year", "all"],
        );
        assert_eq!(
            filled(&named, "top posts this year", &["top", "post"]),
            strings(&[("t", "year")])
        );
        let short = with_enum(
            endpoint("https://x.test/trending", &[("range", "query")]),
            &["24h", "7d", "30d"],
        );
        assert_eq!(
            filled(
                &short,
                "trending repositories over the past week",
                &["trend"]
            ),
            strings(&[("range", "7d")])
        );
    }

    #[test]
    fn a_period_fills_a_number_of_days_or_a_date_pair() {
        let e = typed(
            endpoint("https://x.test/stats", &[("days", "query")]),
            "days",
            "integer",
            None,
        );
        assert_eq!(
            filled(&e, "downloads in the past 30 days", &["download"]).get("days"),
            Some(&Value::from(30))
        );
        let e = endpoint(
            "https://x.test/commits",
            &[("since", "query"), ("until", "query")],
        );
        let open: Vec<Profile> = e
            .parameters
            .iter()
            .map(|p| Profile::of(p, &e.url))
            .collect();
        let mut params = BTreeMap::new();
        let today = parse_iso("2024-03-01").expect("date");
        let got = pass("commits of the last 7 days", &open, &[], today, &mut params);
        assert!(got.is_some());
        assert_eq!(
            params,
            strings(&[("since", "2024-02-24"), ("until", "2024-03-01")])
        );
        // A date the question writes wins.
        let mut params = BTreeMap::new();
        let spans = crate::search::spans::spans("commits since 2024-01-01 this week");
        assert!(
            pass(
                "commits since 2024-01-01 this week",
                &open,
                &spans,
                today,
                &mut params
            )
            .is_none()
        );
    }
}
