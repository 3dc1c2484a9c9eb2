//! Pass `typed`: the question's typed spans (numbers, ids, dates, URLs, quoted strings, names)
//! paired with the parameters they fit, best pair first, each span and each parameter once.
//! The words right before a value say what it is ("order 8812", "in Lyon", "top 5").

use super::profile::Profile;
use super::words::*;
use crate::route::bind;
use crate::search::spans::{self, Span, SpanKind};
use crate::search::text;
use serde_json::Value;
use std::collections::BTreeMap;

/// Pair the typed spans with the open parameters they fit, best first, each span and each
/// parameter once (a `Slash` span already used by the `slash` pass is skipped); returns which
/// spans were used.
pub(super) fn pass(
    open: &[Profile],
    spans: &[Span],
    subject: &[String],
    used_slash: bool,
    params: &mut BTreeMap<String, Value>,
) -> Vec<bool> {
    // A span whose label names some open parameter that can take it goes to one it names, or
    // to none.
    let claimed: Vec<bool> = spans
        .iter()
        .map(|s| {
            open.iter()
                .any(|pr| pr.introduced_by(s) && fit(pr, s) > 0.0)
        })
        .collect();
    // A number whose noun names some open parameter that can take it ("with 4 bedrooms" for
    // `bedrooms`) is a count of that, never another parameter's value.
    let counts: Vec<bool> = spans
        .iter()
        .map(|s| open.iter().any(|pr| unit_names(pr, s) && fit(pr, s) > 0.0))
        .collect();
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (pi, pr) in open.iter().enumerate() {
        if params.contains_key(&pr.p.name) {
            continue;
        }
        for (si, s) in spans.iter().enumerate() {
            if (used_slash && s.kind == SpanKind::Slash)
                || (claimed[si] && !pr.introduced_by(s))
                || (counts[si] && !claimed[si] && !unit_names(pr, s))
            {
                continue;
            }
            // A value of a shape no word has (a number, a year, a date, a postcode, a link, an
            // address, quoted text) is a value, even where the index knows it as a word (its
            // description gives it as the example: "Postal Code. Example: 28546").
            let numeric = !matches!(
                s.kind,
                SpanKind::Id | SpanKind::Name | SpanKind::Object | SpanKind::Word
            );
            // A value of the shape of the parameter's example codes is that value, even when the
            // endpoint was ranked for it (its description lists "BKN" among the examples).
            let shaped = pr.shape.as_ref().is_some_and(|sh| sh.fits(&s.value))
                || pr.pattern.as_ref().is_some_and(|re| re.is_match(&s.value));
            let mut stems = text::stems(&s.value).peekable();
            if !numeric
                && !shaped
                && stems.peek().is_some()
                && stems.all(|st| subject.contains(&st))
            {
                continue;
            }
            let mut f = fit(pr, s);
            // A required parameter takes a weaker fit than an optional one.
            if pr.p.required {
                f += 1.0;
            }
            if f >= 4.0 {
                pairs.push((f, pi, si));
            }
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut span_used = vec![false; spans.len()];
    for (_, pi, si) in pairs {
        let p = open[pi].p;
        if span_used[si] || params.contains_key(&p.name) {
            continue;
        }
        if let Some(v) = value_for(&open[pi], &spans[si]) {
            params.insert(p.name.clone(), v);
            span_used[si] = true;
            if takes_several(&open[pi]) {
                listed(&open[pi], spans, si, &mut span_used, params);
            }
        }
    }
    span_used
}

/// Whether a parameter takes several values: a list (`string[]`), or a text whose name is the
/// plural of an identifier (`group_ids`, `ids`, `codes`), which takes them joined by commas.
fn takes_several(pr: &Profile) -> bool {
    pr.p.ty.ends_with("[]")
        || pr.words.last().is_some_and(|w| {
            w.strip_suffix('s')
                .is_some_and(|one| ID_WORDS.contains(&one) && !ID_WORDS.contains(&w.as_str()))
        })
}

/// The values listed with the one a parameter took (`si`): spans of the same kind right after
/// it, joined by commas, "and" or "or" only ("groups 11, 22 and 33"), each one the parameter
/// takes; the parameter then holds them all, a list as a list and a text joined by commas
/// (`11,22,33`).
fn listed(
    pr: &Profile,
    spans: &[Span],
    si: usize,
    used: &mut [bool],
    params: &mut BTreeMap<String, Value>,
) {
    let mut values: Vec<Value> = params.get(&pr.p.name).map_or(Vec::new(), |v| match v {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    });
    let mut taken = Vec::new();
    let mut last = si;
    for (sj, s) in spans.iter().enumerate().skip(si + 1) {
        // The first value's fit holds for the list's others of its kind (only the first is
        // labelled: "groups 11, 22 and 33").
        if used[sj] || !spans::joined_in_list(&spans[last], s) {
            break;
        }
        let Some(v) = value_for(pr, s) else { break };
        values.extend(match v {
            Value::Array(items) => items,
            other => vec![other],
        });
        taken.push(sj);
        last = sj;
    }
    if taken.is_empty() {
        return;
    }
    for sj in taken {
        used[sj] = true;
    }
    let value = if pr.p.ty.ends_with("[]") {
        Value::Array(values)
    } else {
        Value::String(
            values
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(","),
        )
    };
    params.insert(pr.p.name.clone(), value);
}

/// Which end of a range a value or a parameter is: the lower bound (`minYear`, "after 2019",
/// "since 2019", "from 2019", "between 2019 and ...") or the upper one (`maxYear`, "before
/// 2019", "until 2019", "... and 2021").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Bound {
    /// The lower end.
    Lower,
    /// The upper end.
    Upper,
}

/// The end of a range a parameter's name says it takes (`minYear`, `start_date`: lower;
/// `maxYear`, `endDate`, `until`: upper), if any.
pub(super) fn param_bound(pr: &Profile) -> Option<Bound> {
    if pr.named(LOWER_WORDS) {
        Some(Bound::Lower)
    } else if pr.named(UPPER_WORDS) {
        Some(Bound::Upper)
    } else {
        None
    }
}

/// The end of a range the words around a span say it is ("after 2019": lower; "before 2019":
/// upper; "between 2019 and 2021": 2019 lower, 2021 upper), if any. The cue may stand before the
/// one word that labels the value ("from zone 1 to zone 2"), and a number written right before
/// "to" or "and" of a range starts it ("zones 1 to 2").
pub(super) fn span_bound(s: &Span) -> Option<Bound> {
    let n = s.before.len();
    let between = s.before.iter().any(|w| w == "between");
    let at = |i: usize| s.before[i].as_str();
    // The cue word: right before the value, or before the noun that labels it.
    let cue = match n {
        0 => None,
        _ if LOWER_CUES.contains(&at(n - 1))
            || UPPER_CUES.contains(&at(n - 1))
            || at(n - 1) == "and" =>
        {
            Some(at(n - 1))
        }
        1 => None,
        _ if !crate::search::spans::is_function_word(at(n - 1)) => Some(at(n - 2)),
        _ => None,
    };
    let next = s.after.first().map(String::as_str);
    if cue.is_some_and(|w| LOWER_CUES.contains(&w)) {
        Some(Bound::Lower)
    } else if cue.is_some_and(|w| UPPER_CUES.contains(&w) || w == "and" && between) {
        Some(Bound::Upper)
    } else if s.kind == SpanKind::Number && (next == Some("to") || next == Some("and") && between) {
        Some(Bound::Lower)
    } else {
        None
    }
}

/// A date's or a number's fit `base` to a parameter, by the ends of a range both say: a value the
/// question bounds ("after 2024-05-01", "from zone 1") goes to the parameter of that end
/// (`start_date`, `minZone`), not to the other.
fn bounded(pr: &Profile, s: &Span, base: f64) -> f64 {
    match (param_bound(pr), span_bound(s)) {
        (Some(p), Some(q)) if p == q => base + 2.0,
        (Some(_), Some(_)) => 0.0,
        _ => base,
    }
}

/// A year's fit to a parameter named as a year: a bare year ("in 2019") to `year` rather than to
/// `maxYear`, `minYear` or `start_year`, which take it only when no plain year parameter does;
/// a year the question bounds ("since 2019", "between 2019 and 2021") to the bound of its end.
fn year_fit(pr: &Profile, s: &Span) -> f64 {
    match (param_bound(pr), span_bound(s)) {
        (None, None) => 9.0,
        (None, Some(_)) => 6.0,
        (Some(p), Some(q)) if p == q => 11.0,
        (Some(_), Some(_)) => 0.0,
        (Some(_), None) => 4.5,
    }
}

/// Parameter-name words of a code from a standard list (ISO 3166 countries, ISO 639 languages,
/// ISO 4217 currencies): `US`, `fr`, `EUR`.
pub(super) const CODE_WORDS: &[&str] = &[
    "country", "currency", "lang", "language", "locale", "market", "region",
];

/// Whether a value is shaped as such a code: two or three letters of one case.
pub(super) fn is_code(v: &str) -> bool {
    (2..=3).contains(&v.len())
        && v.chars().all(|c| c.is_ascii_alphabetic())
        && (v.chars().all(|c| c.is_ascii_uppercase()) || v.chars().all(|c| c.is_ascii_lowercase()))
}

/// Words that name a parameter taking a point as `lat,lng` (naming conventions of APIs).
const POINT_WORDS: &[&str] = &[
    "center",
    "coord",
    "coordinate",
    "coordinates",
    "latlng",
    "latlon",
    "ll",
    "location",
    "point",
    "position",
];

/// Whether a value is a latitude and a longitude written as one pair (`48.8584,2.2945`,
/// `-33.86, 151.2`): two decimal numbers of degrees in range, joined by a comma.
pub(super) fn is_point(v: &str) -> bool {
    let Some((a, b)) = v.split_once(',') else {
        return false;
    };
    let deg = |x: &str, max: f64| {
        let x = x.trim();
        x.contains('.') && x.parse::<f64>().is_ok_and(|d| d.abs() <= max)
    };
    deg(a, 90.0) && deg(b, 180.0)
}

/// A latitude or longitude written with its hemisphere (`45.76N`, `4.84 E`, `33.9S`) for a
/// parameter named as one: the value as the parameter takes it (the text as written for a
/// string, signed degrees for a number).
pub(super) fn coordinate(pr: &Profile, s: &Span) -> Option<Value> {
    let unit = s.unit.as_deref()?;
    let axis_ok = match unit {
        "n" | "s" => pr.named(&["lat", "latitude"]),
        "e" | "w" => pr.named(&["lon", "lng", "long", "longitude"]),
        _ => false,
    };
    if !axis_ok {
        return None;
    }
    if pr.numeric {
        let v: f64 = s.value.parse().ok()?;
        let signed = if matches!(unit, "s" | "w") { -v } else { v };
        return serde_json::Number::from_f64(signed).map(Value::Number);
    }
    Some(Value::String(format!("{}{}", s.value, unit.to_uppercase())))
}

/// A duration the question writes in another unit than the one a parameter counts in ("3 weeks"
/// for `days`: 21; "2 days" for `hours`: 48), when the conversion is exact: hours, days, weeks
/// and fortnights into one another. Months and years are left alone (their length in days
/// varies), and so is a parameter named by a singular unit word (`day` is a day of the month).
fn duration_in(pr: &Profile, s: &Span) -> Option<f64> {
    let hours = |w: &str| {
        text::PERIOD_UNITS
            .iter()
            .find(|(u, h)| *u == w && *h < 720)
            .map(|(_, h)| *h)
    };
    let from = hours(s.unit.as_deref()?)?;
    let to = pr
        .words
        .iter()
        .filter(|w| w.ends_with('s'))
        .find_map(|w| hours(w))?;
    let n: f64 = s.value.parse().ok()?;
    let v = n * f64::from(from) / f64::from(to);
    (from != to && v.fract() == 0.0 && v.abs() < 9e15).then_some(v)
}

/// Measures and periods: a number of them is an amount, never a count of records ("10 yards").
const MEASURES: &[&str] = &[
    "cents",
    "centimeters",
    "centimetres",
    "cups",
    "degrees",
    "dollars",
    "euros",
    "feet",
    "grams",
    "inches",
    "kilograms",
    "kilometers",
    "kilometres",
    "liters",
    "litres",
    "meters",
    "metres",
    "miles",
    "millimeters",
    "ounces",
    "percent",
    "points",
    "pounds",
    "yards",
];

/// Whether a whole number counts the records the endpoint reads ("5 random names" for
/// `/api/Name`, "3 users" for `/users`, "10 results"): the plural noun right after it, or
/// after one qualifying word, is a word of the URL path or a generic word of records, and no
/// measure or period.
pub(super) fn counts_records(pr: &Profile, s: &Span) -> bool {
    if s.kind != SpanKind::Number || s.value.contains(['.', ',']) {
        return false;
    }
    let unit = s.unit.as_deref().unwrap_or("");
    let noun = if plural(unit) {
        unit
    } else if !unit.is_empty() && !spans::is_function_word(unit) {
        s.after.first().map_or("", String::as_str)
    } else {
        ""
    };
    if !plural(noun)
        || MEASURES.contains(&noun)
        || text::PERIOD_UNITS.iter().any(|(u, _)| *u == noun)
    {
        return false;
    }
    matches!(noun, "entries" | "items" | "records" | "results" | "rows")
        || text::stems(noun).any(|st| pr.url_stems.contains(&st))
}

/// Whether a lower-case word has the shape of a plural noun (`names`, `addresses`).
fn plural(w: &str) -> bool {
    w.chars().count() >= 3
        && w.chars().all(char::is_alphabetic)
        && w.ends_with('s')
        && !w.ends_with("ss")
        && !spans::is_function_word(w)
        && !verb_shaped(w)
}

/// Whether a number's unit word (the noun written after it) names the parameter: "4 bedrooms"
/// for `bedrooms`, "3 days" for `days` (or for `hours`, by an exact conversion).
fn unit_names(pr: &Profile, s: &Span) -> bool {
    s.kind == SpanKind::Number
        && (s.unit.as_deref().is_some_and(|u| {
            u.chars().all(char::is_alphabetic)
                && (pr.words.iter().any(|w| w == u)
                    || text::stems(u).any(|st| pr.stems.contains(&st)))
        }) || duration_in(pr, s).is_some())
}

/// Whether the word after a number is the parameter's whole name ("the 2024 season" for
/// `season`), not one word of it ("2020 nfl draft" for `nflTeam`).
fn whole_name_after(pr: &Profile, s: &Span) -> bool {
    let Some(u) = s.unit.as_deref() else {
        return false;
    };
    pr.words.len() == 1 && (pr.words[0] == u || text::stems(u).eq(text::stems(&pr.words[0])))
}

/// Whether a number, unlabelled, may be an id: not a count (no count word before it, "top 5",
/// and no plural noun after it, "4 bedrooms", "5 results") and three digits or more (a bare
/// "3" is an amount or a rank far more often than a key).
pub(super) fn id_number(s: &Span) -> bool {
    let cue = s.before.iter().any(|w| COUNT_CUES.contains(&w.as_str()));
    let plural_noun = s.unit.as_deref().is_some_and(|u| {
        u.chars().count() >= 3
            && u.chars().all(char::is_alphabetic)
            && u.ends_with('s')
            && !u.ends_with("ss")
            && !spans::is_function_word(u)
            && !verb_shaped(u)
    });
    let digits = s.value.chars().filter(char::is_ascii_digit).count();
    !cue && !plural_noun && digits >= 3
}

/// How well a span fits a parameter (0: not at all). See the module docs.
pub(super) fn fit(pr: &Profile, s: &Span) -> f64 {
    let timed = matches!(s.kind, SpanKind::Date | SpanKind::Year)
        || (pr.numeric && s.kind == SpanKind::Number);
    if pr.temporal && !timed {
        return 0.0;
    }
    // A parameter named for a well-known identifier (`isbn`, `doi`) takes a value of its shape,
    // whatever kind of span holds it ("978-0-306-40615-7", "10.1038/nature14539"), and no other.
    if let Some(shaped) = super::check::shaped_as(pr, &s.value) {
        return if shaped { 9.0 } else { 0.0 };
    }
    // A value that is a word of the parameter's own name names it ("IATA" of "airport IATA
    // DEN" for `airport_iata`): it labels the value after it.
    if pr
        .words
        .iter()
        .any(|w| w.eq_ignore_ascii_case(s.value.trim()))
    {
        return 0.0;
    }
    let intro = if pr.introduced_by(s) { 6.0 } else { 0.0 };
    // A parameter of no declared type (`any`: a schema of `oneOf` an id or a slug) takes what a
    // text parameter takes.
    let string = !pr.numeric && matches!(pr.p.ty.trim_end_matches("[]"), "string" | "any");
    if let Some(f) = place_fit(pr, s, string) {
        return if f == 0.0 { 0.0 } else { f + intro };
    }
    let base = match s.kind {
        SpanKind::Url if pr.format().contains("uri") || pr.format() == "url" => 9.0,
        SpanKind::Url if pr.named(URL_WORDS) => 8.0,
        SpanKind::Email if pr.format() == "email" || pr.named(EMAIL_WORDS) => 9.0,
        // "Specifies the email address to validate" for a text `query`.
        SpanKind::Email if string && pr.described(EMAIL_WORDS) => 8.0,
        SpanKind::Phone if matches!(pr.format(), "phone" | "tel") || pr.named(PHONE_WORDS) => 9.0,
        SpanKind::Phone if string && pr.described(PHONE_WORDS) => 8.0,
        SpanKind::Path if pr.named(PATH_WORDS) => 8.0,
        // A date goes only into a parameter that takes one (its format, name or description
        // says so), never into a `from` currency or an `end` cursor.
        SpanKind::Date if !pr.dated() => 0.0,
        SpanKind::Date if pr.format().starts_with("date") => bounded(pr, s, 9.0),
        SpanKind::Date if pr.named(DATE_WORDS) || pr.temporal => bounded(pr, s, 7.0),
        SpanKind::Date => 5.0,
        SpanKind::Year if pr.named(YEAR_WORDS) => year_fit(pr, s),
        // "2019 road accidents": a year read with the next word as its unit.
        SpanKind::Number if pr.named(YEAR_WORDS) && year_like(&s.value) => year_fit(pr, s),
        SpanKind::Year if pr.numeric && pr.named(DATE_WORDS) => 5.0,
        // "the 2024 season" for a `season` described as a year, or named by the noun after it.
        SpanKind::Year | SpanKind::Number
            if year_like(&s.value)
                && !pr.named(TEXT_WORDS)
                && (pr.described(YEAR_WORDS) || whole_name_after(pr, s)) =>
        {
            year_fit(pr, s) - 1.0
        }
        SpanKind::Number if pr.numeric => {
            if pr.integer && s.value.contains('.') {
                return 0.0;
            }
            let cue = s.before.iter().any(|w| COUNT_CUES.contains(&w.as_str()))
                || s.unit.as_deref().is_some_and(|u| COUNT_CUES.contains(&u))
                || counts_records(pr, s);
            let unit_names = unit_names(pr, s);
            // "2 cups" for `sourceAmount`: a measured amount.
            let measured = pr.named(AMOUNT_WORDS)
                && s.unit
                    .as_deref()
                    .is_some_and(|u| u.chars().all(char::is_alphabetic));
            // "from zone 1 to zone 2" for `minZone` and `maxZone`: each bound to its end.
            let base =
                2.0 + if measured && !counts_records(pr, s) {
                    3.0
                } else {
                    0.0
                } + if pr.named(COUNT_WORDS) && cue {
                    5.0
                } else {
                    0.0
                } + if unit_names { 5.0 } else { 0.0 };
            bounded(pr, s, base)
        }
        SpanKind::Number if coordinate(pr, s).is_some() => 7.0,
        // A latitude and longitude written as one pair: for a parameter that takes a point,
        // and no other (it is no record's id).
        SpanKind::Id if is_point(&s.value) && string && pr.named(POINT_WORDS) => 7.0,
        SpanKind::Id if is_point(&s.value) => 0.0,
        SpanKind::Id
            if string && is_code(&s.value) && (pr.named(CODE_WORDS) || pr.described(&["iso"])) =>
        {
            6.0
        }
        // A slug is words joined by dashes, never a bare number (`{tournament_id_or_slug}`
        // takes either).
        SpanKind::Number if pr.named(&["slug"]) && !pr.named(&["id"]) => 0.0,
        // A count ("top 5", "4 bedrooms") or an unlabelled number of one or two digits is no
        // id; a number its label names is ("platform 16").
        SpanKind::Number
            if string && pr.named(ID_WORDS) && !pr.introduced_by(s) && !id_number(s) =>
        {
            0.0
        }
        SpanKind::Number | SpanKind::Id if string && pr.named(ID_WORDS) => 6.0,
        // A number its label names, for a parameter declared as text ("season 3" for a
        // string `airedSeason`); a name or a search text is no number.
        SpanKind::Number if string && !pr.named(TEXT_WORDS) && pr.titled_by(s) => 2.0,
        SpanKind::Id if pr.numeric && s.value.chars().all(|c| c.is_ascii_digit()) => 4.0,
        SpanKind::Id if string => 2.0,
        SpanKind::Slash if string && pr.named(&["repo", "repository", "project", "slug"]) => 6.0,
        SpanKind::Quoted if string && pr.named(TEXT_WORDS) => 6.0,
        SpanKind::Quoted if string => 3.0,
        // A name typed in lower case that the catalog does not know: the key of the entity an
        // endpoint reads (`/users/{username}`), else only where its words name the parameter.
        // `/albums/{id}` takes an opaque id, which a word never is, whatever labels it
        // ("my most listened artists" for `/artists/{id}`); `{videogame_id_or_slug}` takes
        // a slug too where a label names it ("the player faker").
        SpanKind::Word
            if pr.named(ID_WORDS) && !(pr.named(NAME_KEY_WORDS) && pr.introduced_by(s)) =>
        {
            0.0
        }
        // A verb or an adverb ("the line running normally") is what is said of a value, not
        // one, even right after the label noun.
        SpanKind::Word if !name_shaped(&s.value) => 0.0,
        SpanKind::Word if string && pr.in_path() => 3.0,
        SpanKind::Word if string => 1.0,
        // The key of a record written as words (`{videogame_id_or_slug}`, `{username}`) takes
        // a name or a preposition's object ("the current version of valorant").
        SpanKind::Name | SpanKind::Object
            if (string || pr.p.ty == "any") && pr.in_path() && pr.named(NAME_KEY_WORDS) =>
        {
            3.0
        }
        SpanKind::Name | SpanKind::Object if string => {
            // A place by its name, or free text (`q`) described as one ("City name").
            let textual = pr.named(TEXT_WORDS);
            // `city_id` takes an id more often than a place's name: a place after "in" or
            // "at" goes there only when no parameter takes the name itself.
            let id_named = pr.named(ID_WORDS);
            let place = pr.named(PLACE_WORDS) || (textual && pr.described(PLACE_WORDS));
            let place_cue = s
                .before
                .last()
                .is_some_and(|w| PLACE_CUES.contains(&w.as_str()));
            let kind = if s.kind == SpanKind::Name { 1.0 } else { 0.0 };
            if place && place_cue {
                (if id_named { 4.0 } else { 7.0 }) + kind
            } else if (place && !id_named) || textual {
                3.0 + kind
            } else {
                1.0 + kind
            }
        }
        _ => 0.0,
    };
    // Example codes in the description (`e.g. PHI, BKN`, `e.g. 2018`): a value of their shape
    // fits well, whatever its kind; any other fits not at all.
    let base = match &pr.shape {
        Some(shape) if shape.fits(&s.value) => base.max(7.0),
        Some(_) => 0.0,
        None => base,
    };
    // A declared `pattern` (`^VH-\d{4}$`): a value that matches it fits as well; any other not
    // at all (the execution boundary would refuse it).
    let base = match &pr.pattern {
        Some(re) if re.is_match(&s.value) => base.max(7.0),
        Some(_) => 0.0,
        None => base,
    };
    if base == 0.0 {
        return 0.0;
    }
    // "from USD to EUR": each value to the parameter of its own end (`direction`).
    let base = super::direction::directed(pr, s, base);
    // "X by Y": the work before "by", its maker after it (`makers`).
    let base = super::makers::by_maker(pr, s, base);
    if base == 0.0 {
        return 0.0;
    }
    // "tvdb id 121361" is no value for `imdbId`: half the fit, so only a required parameter
    // with nothing better takes it.
    if pr.qualifier_differs(s) {
        return (base + intro) * 0.5;
    }
    base + intro
}

/// The fit of a street address or a postcode, and of anything to a postcode parameter (`None`
/// for other spans and parameters: [`fit`] decides). An address goes whole to a parameter named
/// or described as one (`address`, `street`), else to a place it can stand for (`location`,
/// `origin`) or a free-text search, never to one part of it (`city`) or a number; a postcode to
/// a postcode parameter, else to a place or a search; a postcode parameter takes a postcode or
/// a number of five digits, nothing else (no house number, no count).
fn place_fit(pr: &Profile, s: &Span, string: bool) -> Option<f64> {
    let postal = pr.named(POSTCODE_WORDS);
    let textual = string && pr.named(TEXT_WORDS);
    let located = string && pr.named(LOCATION_WORDS);
    match s.kind {
        SpanKind::Address if string && pr.named(ADDRESS_WORDS) => Some(9.0),
        SpanKind::Address if postal || !string || pr.named(PLACE_WORDS) && !located => Some(0.0),
        SpanKind::Address if pr.described(ADDRESS_WORDS) => Some(8.0),
        SpanKind::Address if located || (textual && pr.described(PLACE_WORDS)) => Some(7.0),
        SpanKind::Address if textual => Some(5.0),
        SpanKind::Address => Some(0.0),
        SpanKind::Postcode if postal || pr.described(&["zip", "postcode", "postal"]) => Some(9.0),
        SpanKind::Postcode if located || textual || pr.named(ADDRESS_WORDS) => Some(5.0),
        SpanKind::Postcode => Some(0.0),
        SpanKind::Number
            if postal && s.value.len() == 5 && s.value.chars().all(|c| c.is_ascii_digit()) =>
        {
            Some(7.0)
        }
        _ if postal => Some(0.0),
        _ => None,
    }
}

/// The value a span gives a parameter, typed as it declares (`None` when it does not fit).
pub(super) fn value_for(pr: &Profile, s: &Span) -> Option<Value> {
    let p = pr.p;
    if s.kind == SpanKind::Number
        && let Some(v) = coordinate(pr, s)
    {
        return Some(v);
    }
    let timed = s.kind == SpanKind::Date && s.value.len() > 10;
    let raw = if s.kind == SpanKind::Date && p.format.as_deref() == Some("date-time") {
        if timed {
            s.value.clone()
        } else {
            format!("{}T00:00:00Z", s.value)
        }
    } else if timed && (p.format.as_deref() == Some("date") || p.ty == "date") {
        // A parameter of a day takes the day of a date-time.
        s.value[..10].to_string()
    } else if let Some(n) = duration_in(pr, s) {
        n.to_string()
    } else {
        s.value.clone()
    };
    let mut v = bind::coerce_one(p, Value::String(raw)).ok()?;
    // A whole number written without a decimal point stays whole (`16`, not `16.0`).
    if let Some(f) = v.as_f64()
        && !s.value.contains('.')
        && f.fract() == 0.0
        && f.abs() < 9e15
    {
        v = Value::from(f as i64);
    }
    if !p.enum_values.is_empty() && !bind::value_is_valid(p, &v) {
        return None;
    }
    Some(v)
}

#[cfg(test)]
mod record_key_tests {
    use super::super::testing::*;
    use serde_json::Value;
    use std::collections::BTreeMap;

    /// A postcode whose description gives it as the example ("Postal Code. Example: 28546")
    /// is a value, though the endpoint was ranked for it as a word of its description.
    #[test]
    fn a_value_of_no_word_shape_is_a_value_where_the_index_knows_it() {
        let mut e = endpoint(
            "https://x.test/v2.0/forecast/airquality",
            &[
                ("country", "query"),
                ("hours", "query"),
                ("postal_code", "query"),
            ],
        );
        e.parameters[0].description = Some("Country Code (2 letter).".into());
        e = typed(
            typed(e, "hours", "integer", None),
            "postal_code",
            "integer",
            None,
        );
        e.parameters[2].required = true;
        e.parameters[2].description = Some("Postal Code. Example: 28546".into());
        let known = ["ozon", "forecast", "hour", "zip", "code", "postal", "28546"];
        assert_eq!(
            filled_for(
                &e,
                "ozone forecast for zip code 28546 over the next 48 hours, hour by hour",
                &known,
                &["ozon", "forecast", "28546"]
            ),
            BTreeMap::from([
                ("hours".to_string(), Value::from(48)),
                ("postal_code".to_string(), Value::from(28546)),
            ])
        );
    }

    /// A currency pair of the description's example shape ("For example: USD/CAD,USD/EUR").
    #[test]
    fn a_pair_of_the_examples_shape_binds() {
        let mut rate = endpoint(
            "https://x.test/api/v1/Currencies/rate",
            &[("pairs", "query")],
        );
        rate.parameters[0].required = true;
        rate.parameters[0].description = Some(
            "comma separated list of currency pairs. For example: USD/CAD,USD/EUR,USD/AUD".into(),
        );
        let known = ["currenc", "rate", "pair", "exchang"];
        assert_eq!(
            filled_for(
                &rate,
                "how much did EUR/USD move today in percent",
                &known,
                &["currenc"]
            ),
            strings(&[("pairs", "EUR/USD")])
        );
        assert_eq!(
            filled_for(
                &rate,
                "what's the USD/CAD exchange rate",
                &known,
                &["exchang", "rate"]
            ),
            strings(&[("pairs", "USD/CAD")])
        );
    }

    /// A list of numbers takes the number its label names as a list of one; a key of no
    /// declared type (`any`: an id or a slug) takes the id its label names.
    #[test]
    fn list_and_untyped_parameters_take_what_their_label_names() {
        let monsters = typed(
            endpoint(
                "https://x.test/api/monsters",
                &[("challenge_rating", "query")],
            ),
            "challenge_rating",
            "number[]",
            None,
        );
        assert_eq!(
            filled_for(
                &monsters,
                "list all monsters with challenge rating 5",
                &["monster", "challeng", "rate"],
                &["monster"]
            ),
            BTreeMap::from([("challenge_rating".to_string(), serde_json::json!([5]))])
        );
        let standings = typed(
            endpoint(
                "https://x.test/tournaments/{tournament_id_or_slug}/standings",
                &[("tournament_id_or_slug", "path")],
            ),
            "tournament_id_or_slug",
            "any",
            None,
        );
        assert_eq!(
            filled_for(
                &standings,
                "show me the standings of tournament 1234 with each team's rank",
                &["tournament", "stand", "team", "rank"],
                &["stand"]
            ),
            strings(&[("tournament_id_or_slug", "1234")])
        );
    }

    #[test]
    fn a_key_written_as_words_takes_a_name_or_an_object() {
        let game = endpoint(
            "https://x.test/videogames/{videogame_id_or_slug}",
            &[("videogame_id_or_slug", "path")],
        );
        let known = ["current", "game", "version", "videogam"];
        assert_eq!(
            filled(
                &game,
                "what is the current game version of valorant",
                &known
            ),
            strings(&[("videogame_id_or_slug", "valorant")])
        );
        // An opaque id takes no word.
        let album = endpoint("https://x.test/albums/{id}", &[("id", "path")]);
        assert!(
            filled(
                &album,
                "what is the current game version of valorant",
                &known
            )
            .is_empty()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    #[test]
    fn a_list_of_values_goes_whole_to_a_parameter_that_takes_several() {
        let mut e = endpoint("https://x.test/groups", &[("group_ids", "query")]);
        e.parameters[0].required = true;
        e.parameters[0].description = Some("The IDs of the groups to retrieve.".into());
        for q in ["Retrieve groups 11, 22 and 33", "groups 11, 22 or 33"] {
            assert_eq!(
                filled(&e, q, &["group", "retriev"]),
                BTreeMap::from([("group_ids".to_string(), Value::from("11,22,33"))]),
                "{q}"
            );
        }
        let mut one = endpoint("https://x.test/group/{group_id}", &[("group_id", "path")]);
        one.parameters[0].ty = "string".into();
        assert_eq!(
            filled(&one, "Retrieve groups 11, 22 and 33", &["group", "retriev"]),
            BTreeMap::from([("group_id".to_string(), Value::from("11"))])
        );
        // Values apart are no list.
        assert_eq!(
            filled(&e, "groups 11 near the park from 2019", &["group"]),
            BTreeMap::from([("group_ids".to_string(), Value::from("11"))])
        );
    }

    #[test]
    fn numbers_go_to_the_bound_of_the_range_their_words_say() {
        let mut zones = endpoint(
            "https://x.test/fare_estimate/min_zone/{minZone}/max_zone/{maxZone}",
            &[("minZone", "path"), ("maxZone", "path")],
        );
        for p in &mut zones.parameters {
            p.ty = "integer".into();
        }
        // PTV's own descriptions.
        zones.parameters[0].description = Some("Minimum Zone travelled through ie. 1".into());
        zones.parameters[1].description = Some("Maximum Zone travelled through id. 6".into());
        for q in [
            "What is the fare from zone 1 to zone 2?",
            "fare to zone 2 from zone 1",
            "the fare between zone 1 and zone 2",
            "How much is a ticket between zone 1 and zone 2",
            "fare for zones 1 to 2",
        ] {
            assert_eq!(
                filled(&zones, q, &["fare", "zone"]),
                BTreeMap::from([
                    ("maxZone".to_string(), Value::from(2)),
                    ("minZone".to_string(), Value::from(1))
                ]),
                "{q}"
            );
        }
    }

    #[test]
    fn a_number_of_the_records_read_is_their_count() {
        let names = typed(
            endpoint(
                "https://x.test/api/Name",
                &[("nameType", "query"), ("quantity", "query")],
            ),
            "quantity",
            "integer",
            None,
        );
        for q in [
            "Generate 5 random names",
            "give me 5 names",
            "5 fake names please",
        ] {
            assert_eq!(
                filled(&names, q, &["generat", "random", "name", "fake"]).get("quantity"),
                Some(&Value::from(5)),
                "{q}"
            );
        }
        let users = typed(
            endpoint("https://x.test/users", &[("per_page", "query")]),
            "per_page",
            "integer",
            None,
        );
        assert_eq!(
            filled(&users, "list 20 users", &["list", "user"]).get("per_page"),
            Some(&Value::from(20))
        );
        assert_eq!(
            filled(
                &users,
                "show 7 results of the user search",
                &["user", "search"]
            )
            .get("per_page"),
            Some(&Value::from(7))
        );
        // A measure or a noun the endpoint does not read is no count of its records.
        let plays = typed(
            endpoint("https://x.test/plays", &[("limit", "query")]),
            "limit",
            "integer",
            None,
        );
        for q in ["plays with 10 yards to go", "plays of 3 teams"] {
            assert_eq!(
                filled(&plays, q, &["play", "team"]).get("limit"),
                None,
                "{q}"
            );
        }
    }

    #[test]
    fn a_latitude_and_longitude_pair_is_a_point() {
        assert!(is_point("48.8584,2.2945"));
        assert!(is_point("-33.86, 151.2"));
        assert!(!is_point("91.5,2.0"));
        assert!(!is_point("3,4"));
        assert!(!is_point("5500-Grand-Lake-Dr,-San-Antonio"));
    }

    #[test]
    fn a_duration_in_another_unit_is_converted_when_exact() {
        let e = endpoint(
            "https://x.test/forecast",
            &[("city", "query"), ("days", "query"), ("hours", "query")],
        );
        let e = typed(typed(e, "days", "integer", None), "hours", "integer", None);
        let days = |q: &str| filled(&e, q, &["forecast"]).get("days").cloned();
        assert_eq!(
            days("forecast for Paris for 3 weeks"),
            Some(Value::from(21))
        );
        assert_eq!(days("forecast for Paris for a fortnight"), None);
        assert_eq!(
            days("forecast for Paris for 2 fortnights"),
            Some(Value::from(28))
        );
        assert_eq!(days("forecast for Paris for 3 days"), Some(Value::from(3)));
        // Not exact, or a calendar unit: nothing is guessed.
        assert_eq!(days("forecast for Paris for 36 hours"), None);
        assert_eq!(days("forecast for Paris for 2 months"), None);
        let hours = |q: &str| filled(&e, q, &["forecast"]).get("hours").cloned();
        assert_eq!(hours("hourly forecast in Lyon for 2 days"), None);
        let only_hours = typed(
            endpoint(
                "https://x.test/hourly",
                &[("city", "query"), ("hours", "query")],
            ),
            "hours",
            "integer",
            None,
        );
        assert_eq!(
            filled(
                &only_hours,
                "hourly forecast in Lyon for 2 days",
                &["hour", "forecast"]
            )
            .get("hours"),
            Some(&Value::from(48))
        );
    }

    #[test]
    fn a_lower_case_name_the_catalog_does_not_know_keys_an_entity_in_the_path() {
        let user = endpoint("https://x.test/users/{username}", &[("username", "path")]);
        assert_eq!(
            filled(
                &user,
                "how many followers does gvanrossum have",
                &["follow"]
            ),
            BTreeMap::from([("username".to_string(), Value::from("gvanrossum"))])
        );
        // A word the catalog knows is what is asked, not a value.
        assert!(filled(&user, "how many followers does it have", &["follow"]).is_empty());
        // An opaque id is never a word; a query parameter takes a word only when named.
        let album = endpoint("https://x.test/albums/{id}", &[("id", "path")]);
        assert!(filled(&album, "who are my most listened artists", &["artist"]).is_empty());
        // Not even where the noun after the word names what the id keys.
        let artist = endpoint("https://x.test/artists/{id}", &[("id", "path")]);
        assert!(filled(&artist, "who are my most listened artists", &["artist"]).is_empty());
        let search = endpoint("https://x.test/search", &[("owner", "query")]);
        assert!(
            filled(
                &search,
                "list octocat repositories",
                &["list", "repositori"]
            )
            .is_empty()
        );
        assert_eq!(
            filled(
                &search,
                "list repositories, owner octocat",
                &["list", "repositori", "owner"]
            ),
            BTreeMap::from([("owner".to_string(), Value::from("octocat"))])
        );
    }

    #[test]
    fn a_noun_after_a_value_names_its_parameter() {
        let org = endpoint("https://x.test/orgs/{org}", &[("org", "path")]);
        for q in [
            "how many public repositories does the mozilla org have",
            "public repositories of the Mozilla org",
        ] {
            let v = filled(&org, q, &["public", "repositori", "org"]);
            assert_eq!(
                v.get("org")
                    .and_then(Value::as_str)
                    .map(str::to_lowercase)
                    .as_deref(),
                Some("mozilla"),
                "{q}"
            );
        }
    }

    #[test]
    fn the_noun_that_labels_a_value_chooses_its_parameter() {
        // "tvdb id" is no `imdbId`; a plain "id" or "imdb id" is.
        let search = endpoint(
            "https://x.test/search/series",
            &[
                ("name", "query"),
                ("imdbId", "query"),
                ("zap2itId", "query"),
            ],
        );
        assert!(
            filled_for(
                &search,
                "what network is the show with tvdb id 121361 on",
                &["network"],
                &["network"]
            )
            .is_empty()
        );
        assert_eq!(
            filled_for(
                &search,
                "the series with imdb id tt0903747",
                &["seri"],
                &["seri"]
            ),
            strings(&[("imdbId", "tt0903747")])
        );
        // Two labelled numbers, each to the parameter its label names, typed as text.
        let episodes = endpoint(
            "https://x.test/series/{id}/episodes/query",
            &[
                ("id", "path"),
                ("airedSeason", "query"),
                ("airedEpisode", "query"),
            ],
        );
        assert_eq!(
            filled(
                &episodes,
                "title of season 3 episode 5 of series 81189",
                &[]
            ),
            strings(&[("airedEpisode", "5"), ("airedSeason", "3"), ("id", "81189")])
        );
        // A labelled value is not given to a parameter its label does not name.
        let arrivals = endpoint(
            "https://x.test/stops/{id}/arrivals",
            &[("id", "path"), ("line", "query")],
        );
        assert_eq!(
            filled(&arrivals, "next bus at stop 490008660N", &[]),
            strings(&[("id", "490008660N")])
        );
        assert_eq!(
            filled(&arrivals, "next bus on line N29 at stop 490008660N", &[]),
            strings(&[("id", "490008660N"), ("line", "N29")])
        );
    }

    #[test]
    fn numbers_are_no_names_and_no_slugs() {
        let search = endpoint(
            "https://x.test/search/series",
            &[("name", "query"), ("slug", "query")],
        );
        assert!(
            filled_for(
                &search,
                "which day does series 73739 air",
                &["seri", "air", "day"],
                &["seri", "air", "day"]
            )
            .is_empty()
        );
        assert_eq!(
            filled(
                &search,
                "when does the series named \"Dark\" air",
                &["seri", "air"]
            ),
            strings(&[("name", "Dark")])
        );
    }

    #[test]
    fn from_and_to_take_the_ids_they_introduce() {
        let journey = endpoint(
            "https://x.test/journey/{from}/to/{to}",
            &[("from", "path"), ("to", "path")],
        );
        assert_eq!(
            filled(
                &journey,
                "how long from 940GZZLUKSX to 940GZZLUWLO by tube",
                &[]
            ),
            strings(&[("from", "940GZZLUKSX"), ("to", "940GZZLUWLO")])
        );
        assert_eq!(
            filled(&journey, "a route to Paris Nord from Lille", &[]),
            strings(&[("from", "Lille"), ("to", "Paris Nord")])
        );
    }

    #[test]
    fn a_date_parameter_takes_dates_and_years_only() {
        let e = typed(
            endpoint(
                "https://x.test/updated",
                &[("fromTime", "query"), ("q", "query")],
            ),
            "fromTime",
            "string",
            None,
        );
        assert_eq!(
            filled(&e, "translate 'thank you very much' into german", &[]),
            strings(&[("q", "thank you very much")])
        );
        let e = typed(
            endpoint("https://x.test/stats/{year}", &[("year", "path")]),
            "year",
            "integer",
            None,
        );
        for q in [
            "road accidents of 2019",
            "road accidents in 2019",
            "2019 road accidents",
        ] {
            assert_eq!(
                filled(&e, q, &[]).get("year"),
                Some(&Value::from(2019)),
                "{q}"
            );
        }
        let e = typed(
            endpoint("https://x.test/events", &[("startDate", "query")]),
            "startDate",
            "string",
            Some("date"),
        );
        assert!(filled(&e, "events starting soon in Lyon", &[]).is_empty());
        assert_eq!(
            filled(&e, "events from 2024-05-01", &[]),
            strings(&[("startDate", "2024-05-01")])
        );
    }

    #[test]
    fn codes_are_two_or_three_letters_of_one_case() {
        assert!(is_code("US"));
        assert!(is_code("eur"));
        assert!(!is_code("Us"));
        assert!(!is_code("USDT"));
        assert!(!is_code("U2"));
    }

    #[test]
    fn a_bare_year_goes_to_the_year_and_a_bounded_one_to_its_end() {
        let numbers = |e: crate::artifact::EndpointData| {
            let mut e = e;
            for p in &mut e.parameters {
                p.ty = "integer".into();
            }
            e
        };
        let e = numbers(endpoint(
            "https://x.test/games",
            &[
                ("maxYear", "query"),
                ("minYear", "query"),
                ("year", "query"),
            ],
        ));
        let years = |pairs: &[(&str, i64)]| -> BTreeMap<String, Value> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), Value::from(*v)))
                .collect()
        };
        for (q, want) in [
            ("games played in 2019", years(&[("year", 2019)])),
            ("2019 games", years(&[("year", 2019)])),
            ("games since 2019", years(&[("minYear", 2019)])),
            ("games after 2019", years(&[("minYear", 2019)])),
            ("games before 2019", years(&[("maxYear", 2019)])),
            ("games until 2019", years(&[("maxYear", 2019)])),
            (
                "games between 2019 and 2021",
                years(&[("maxYear", 2021), ("minYear", 2019)]),
            ),
            (
                "games from 2019 to 2021",
                years(&[("maxYear", 2021), ("minYear", 2019)]),
            ),
        ] {
            assert_eq!(filled(&e, q, &["game"]), want, "{q}");
        }
        // With no plain year parameter, a bare year still fills a bound.
        let e = numbers(endpoint(
            "https://x.test/drafts",
            &[("start_year", "query")],
        ));
        assert_eq!(
            filled(&e, "draft picks in 2020", &["draft", "pick"]),
            years(&[("start_year", 2020)])
        );
    }

    #[test]
    fn an_address_is_one_value_for_the_parameter_that_takes_one() {
        // A rent estimate: `address`, `zipCode`, `limit`, `bedrooms`.
        let e = endpoint(
            "https://x.test/avm/rent",
            &[
                ("address", "query"),
                ("zipCode", "query"),
                ("limit", "query"),
                ("bedrooms", "query"),
            ],
        );
        let e = typed(
            typed(e, "limit", "integer", None),
            "bedrooms",
            "integer",
            None,
        );
        assert_eq!(
            filled(
                &e,
                "rent estimate for 12 oak street, denver, co 80203",
                &["rent", "estim"]
            ),
            strings(&[("address", "12 oak street, denver, co 80203")])
        );
        // A postcode alone goes to the postcode parameter, a count to its noun's parameter.
        let got = filled(&e, "rentals in zip 80203 with 3 bedrooms", &["rental"]);
        assert_eq!(got.get("zipCode"), Some(&Value::from("80203")));
        assert_eq!(got.get("bedrooms"), Some(&Value::from(3)));
        assert_eq!(got.len(), 2, "{got:?}");
        // A geocoder's free text described as an address takes the whole address.
        let mut geo = endpoint(
            "https://x.test/geocode",
            &[("q", "query"), ("limit", "query")],
        );
        geo.parameters[0].description = Some("Address or place to geocode".into());
        let geo = typed(geo, "limit", "integer", None);
        assert_eq!(
            filled(
                &geo,
                "coordinates of 10 downing street, london please",
                &["coordin"]
            ),
            strings(&[("q", "10 downing street, london")])
        );
        // A British postcode to a `postcode` path parameter; a city takes no address.
        let pc = endpoint(
            "https://x.test/postcodes/{postcode}",
            &[("postcode", "path")],
        );
        assert_eq!(
            filled(&pc, "which district is SW1A 2AA in", &["district"]),
            strings(&[("postcode", "SW1A 2AA")])
        );
        let city = endpoint("https://x.test/weather", &[("city", "query")]);
        assert!(filled(&city, "weather at 15 rue de Rivoli, Paris", &["weather"]).is_empty());
    }

    #[test]
    fn a_count_goes_to_its_noun_and_never_to_an_id() {
        let e = endpoint(
            "https://x.test/listings/{id}",
            &[("id", "path"), ("bedrooms", "query"), ("limit", "query")],
        );
        let e = typed(
            typed(e, "bedrooms", "integer", None),
            "limit",
            "integer",
            None,
        );
        let ints = |pairs: &[(&str, i64)]| -> BTreeMap<String, Value> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), Value::from(*v)))
                .collect()
        };
        assert_eq!(
            filled(&e, "apartments with 4 bedrooms", &["apart"]),
            ints(&[("bedrooms", 4)])
        );
        assert_eq!(
            filled(&e, "the top 5 listings", &["list"]),
            ints(&[("limit", 5)])
        );
        assert_eq!(
            filled(&e, "listing 48213", &["list"]),
            strings(&[("id", "48213")])
        );
        // An unlabelled number of one or two digits is no id; a labelled one is.
        let p = endpoint("https://x.test/platforms/{id}", &[("id", "path")]);
        assert!(filled(&p, "show me 12", &[]).is_empty());
        assert_eq!(
            filled(&p, "when was platform 16 first active", &["first", "activ"]),
            strings(&[("id", "16")])
        );
        // A string `player_id` is no count of players.
        let q = endpoint(
            "https://x.test/players/{player_id}",
            &[("player_id", "path")],
        );
        let got = filled_for(
            &q,
            "the 3 best players",
            &["player", "best"],
            &["player", "best"],
        );
        assert!(got.is_empty(), "{got:?}");
        assert_eq!(
            filled(&q, "stats of player 20000571", &["stat"]),
            strings(&[("player_id", "20000571")])
        );
    }
}
