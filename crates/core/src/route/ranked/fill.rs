//! Parameters filled from the question's typed spans, for an endpoint no declared binding
//! fully serves (an imported catalog): each parameter's type, `format`, enum values, name and
//! description say what kind of value it takes, and the words right before a value say what it
//! is ("order 8812", "in Lyon", "top 5"). Pairs are chosen best first, each span and each
//! parameter once.
//!
//! The word lists below are English naming conventions of parameters (a `limit` takes a count,
//! a `city` a place), not any domain's knowledge.

use crate::artifact::{EndpointData, ParamData};
use crate::route::bind;
use crate::search::spans::{self, Span, SpanKind};
use crate::search::text;
use serde_json::Value;
use std::collections::BTreeMap;

/// Parameter-name words of a count or page size.
const COUNT_WORDS: &[&str] = &[
    "count", "k", "limit", "max", "maximum", "n", "num", "number", "per", "results", "size", "top",
];
/// Words next to a number that make it a count ("top 5", "5 results").
const COUNT_CUES: &[&str] = &[
    "first", "items", "last", "latest", "most", "recent", "results", "top",
];
/// Parameter-name words of an amount measured in a unit (`sourceAmount`, `quantity`).
const AMOUNT_WORDS: &[&str] = &["amount", "qty", "quantity", "value"];
/// Parameter-name words of the unit an amount is wanted in (`targetUnit`, `to_unit`).
const TARGET_WORDS: &[&str] = &["dest", "destination", "output", "target", "to"];
/// Parameter-name words of free text: a search query, a title, a name.
const TEXT_WORDS: &[&str] = &[
    "keyword", "keywords", "name", "prompt", "q", "query", "question", "search", "term", "text",
    "title", "topic",
];
/// Parameter-name words of a place.
const PLACE_WORDS: &[&str] = &[
    "address",
    "area",
    "city",
    "country",
    "destination",
    "location",
    "origin",
    "place",
    "region",
    "state",
    "town",
];
/// Prepositions before a place.
const PLACE_CUES: &[&str] = &["at", "from", "in", "near", "to"];
/// Parameter-name words of an identifier.
const ID_WORDS: &[&str] = &[
    "code",
    "id",
    "identifier",
    "isbn",
    "key",
    "number",
    "ref",
    "slug",
    "symbol",
    "ticker",
];
/// Parameter-name words of a date.
const DATE_WORDS: &[&str] = &[
    "after", "before", "date", "day", "end", "from", "since", "start", "until",
];
const URL_WORDS: &[&str] = &["href", "link", "site", "uri", "url", "website"];
const PATH_WORDS: &[&str] = &["dir", "directory", "file", "filename", "folder", "path"];

/// What a parameter's declaration says about the values it takes.
struct Profile<'a> {
    p: &'a ParamData,
    /// Lower-case words of its name (`order_id` -> `order`, `id`).
    words: Vec<String>,
    /// Stems of its name and description.
    stems: Vec<String>,
    /// How many of `stems` come from its name.
    name_stems: usize,
    numeric: bool,
    integer: bool,
    /// Whether it takes a point in time (`format: date`/`date-time`, or named as a date or a
    /// time: `fromTime`, `startDate`): only a date or a year is its value, never words.
    temporal: bool,
    /// Stems of the URL path segment right before the parameter's placeholder, which names
    /// what it keys (`authors` for `/authors/{id}`): "author 7" fills that `id`.
    keyed: Vec<String>,
}

impl<'a> Profile<'a> {
    fn of(p: &'a ParamData, url: &str) -> Profile<'a> {
        let words: Vec<String> = text::split_identifier(&p.name)
            .into_iter()
            .map(|(s, e)| p.name[s..e].to_lowercase())
            .collect();
        let mut stems: Vec<String> = text::stems(&p.name).collect();
        let name_stems = stems.len();
        if let Some(d) = &p.description {
            stems.extend(text::stems(d).take(12));
        }
        let base = p.ty.trim_end_matches("[]");
        let format = p.format.as_deref().unwrap_or("");
        let temporal = format.starts_with("date")
            || format.starts_with("time")
            || words
                .iter()
                .any(|w| matches!(w.as_str(), "date" | "time" | "datetime" | "timestamp"));
        Profile {
            p,
            numeric: matches!(base, "integer" | "number"),
            integer: base == "integer",
            temporal,
            words,
            stems,
            name_stems,
            keyed: keyed_by(url, &p.name),
        }
    }

    fn named(&self, list: &[&str]) -> bool {
        self.words.iter().any(|w| list.contains(&w.as_str()))
    }

    fn described(&self, list: &[&str]) -> bool {
        let d = self.p.description.as_deref().unwrap_or("").to_lowercase();
        list.iter()
            .any(|w| d.split(|c: char| !c.is_alphanumeric()).any(|x| x == *w))
    }

    fn format(&self) -> &str {
        self.p.format.as_deref().unwrap_or("")
    }

    /// Whether a word labelling a span ([`Span::labels`]) names this parameter ("order 8812"
    /// for `order_id`, "the mozilla org" for `org`).
    /// A function word after a value labels nothing ("how long from X": `long` is no `from`).
    fn introduced_by(&self, s: &Span) -> bool {
        s.labels()
            .filter(|w| !(s.after.first() == Some(*w) && spans::is_function_word(w)))
            .any(|w| self.names(w))
            && !self.qualifier_differs(s)
    }

    /// Whether the span's label is a generic id word qualified by a content word this
    /// parameter's name does not hold: "tvdb id 121361" for `imdbId` (whose own qualifier is
    /// `imdb`), not "imdb id 121361" nor "id 121361".
    fn qualifier_differs(&self, s: &Span) -> bool {
        let [.., qualifier, label] = s.before.as_slice() else {
            return false;
        };
        let qualified_name = self.words.iter().any(|w| !ID_WORDS.contains(&w.as_str()));
        ID_WORDS.contains(&label.as_str())
            && qualified_name
            && qualifier.chars().all(char::is_alphabetic)
            && !spans::is_function_word(qualifier)
            && !self.names(qualifier)
    }

    /// Whether the parameter travels in an HTTP header or a cookie: request metadata, filled
    /// only where the question names it (`X-Request-Id: abc`).
    fn in_header(&self) -> bool {
        matches!(self.p.location.as_deref(), Some("header" | "cookie"))
    }

    /// Whether a word of the question is this parameter's name or a word of it (by stem), or
    /// names what the parameter keys in the URL path ("author" for `{id}` of `/authors/{id}`).
    fn names(&self, word: &str) -> bool {
        self.words.iter().any(|w| w == word)
            || text::stems(word)
                .any(|st| self.stems.iter().take(4).any(|x| *x == st) || self.keyed.contains(&st))
    }

    /// Whether a label of the span names this parameter by its own name or by the path segment
    /// it keys ("season 3" for `airedSeason`), not only by a word of its description.
    fn titled_by(&self, s: &Span) -> bool {
        self.introduced_by(s)
            && s.labels().any(|w| {
                self.words.iter().any(|x| x == w)
                    || text::stems(w).any(|st| {
                        self.stems[..self.name_stems].contains(&st) || self.keyed.contains(&st)
                    })
            })
    }

    /// Whether the endpoint's URL path holds this parameter: the key of the entity it reads
    /// (`/users/{username}`).
    fn in_path(&self) -> bool {
        self.p.location.as_deref() == Some("path")
    }
}

/// The stems of the literal path segment right before `{name}` in `url` (none when the
/// placeholder opens the path or follows another placeholder).
fn keyed_by(url: &str, name: &str) -> Vec<String> {
    let placeholder = format!("/{{{name}}}");
    let Some(at) = url.find(&placeholder) else {
        return Vec::new();
    };
    let head = &url[..at];
    let segment = head.rsplit('/').next().unwrap_or("");
    if segment.contains(['{', '}', ':', '.']) {
        return Vec::new();
    }
    text::stems(segment).collect()
}

/// Parameter-name words of a code from a standard list (ISO 3166 countries, ISO 639 languages,
/// ISO 4217 currencies): `US`, `fr`, `EUR`.
const CODE_WORDS: &[&str] = &[
    "country", "currency", "lang", "language", "locale", "market", "region",
];

/// Whether a value is shaped as such a code: two or three letters of one case.
fn is_code(v: &str) -> bool {
    (2..=3).contains(&v.len())
        && v.chars().all(|c| c.is_ascii_alphabetic())
        && (v.chars().all(|c| c.is_ascii_uppercase()) || v.chars().all(|c| c.is_ascii_lowercase()))
}

/// A latitude or longitude written with its hemisphere (`45.76N`, `4.84 E`, `33.9S`) for a
/// parameter named as one: the value as the parameter takes it (the text as written for a
/// string, signed degrees for a number).
fn coordinate(pr: &Profile, s: &Span) -> Option<Value> {
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

/// How well a span fits a parameter (0: not at all). See the module docs.
fn fit(pr: &Profile, s: &Span) -> f64 {
    let timed = matches!(s.kind, SpanKind::Date | SpanKind::Year)
        || (pr.numeric && s.kind == SpanKind::Number);
    if pr.temporal && !timed {
        return 0.0;
    }
    let intro = if pr.introduced_by(s) { 6.0 } else { 0.0 };
    let string = !pr.numeric && pr.p.ty.trim_end_matches("[]") == "string";
    let base = match s.kind {
        SpanKind::Url if pr.format().contains("uri") || pr.format() == "url" => 9.0,
        SpanKind::Url if pr.named(URL_WORDS) => 8.0,
        SpanKind::Email if pr.format() == "email" || pr.named(&["email", "mail"]) => 9.0,
        SpanKind::Path if pr.named(PATH_WORDS) => 8.0,
        SpanKind::Date if pr.format().starts_with("date") => 9.0,
        SpanKind::Date if pr.named(DATE_WORDS) => 7.0,
        SpanKind::Year if pr.named(&["year", "years"]) => 9.0,
        // "2019 road accidents": a year read with the next word as its unit.
        SpanKind::Number if pr.named(&["year", "years"]) && year_like(&s.value) => 9.0,
        SpanKind::Year if pr.numeric && pr.named(DATE_WORDS) => 5.0,
        SpanKind::Number if pr.numeric => {
            if pr.integer && s.value.contains('.') {
                return 0.0;
            }
            let cue = s.before.iter().any(|w| COUNT_CUES.contains(&w.as_str()))
                || s.unit.as_deref().is_some_and(|u| COUNT_CUES.contains(&u));
            let unit_names = s.unit.as_deref().is_some_and(|u| {
                pr.words.iter().any(|w| w == u) || text::stems(u).any(|st| pr.stems.contains(&st))
            });
            // "2 cups" for `sourceAmount`: a measured amount.
            let measured = pr.named(AMOUNT_WORDS)
                && s.unit
                    .as_deref()
                    .is_some_and(|u| u.chars().all(char::is_alphabetic));
            2.0 + if measured { 3.0 } else { 0.0 }
                + if pr.named(COUNT_WORDS) && cue {
                    5.0
                } else {
                    0.0
                }
                + if unit_names { 5.0 } else { 0.0 }
        }
        SpanKind::Number if coordinate(pr, s).is_some() => 7.0,
        SpanKind::Id
            if string && is_code(&s.value) && (pr.named(CODE_WORDS) || pr.described(&["iso"])) =>
        {
            6.0
        }
        // A slug is words joined by dashes, never a bare number.
        SpanKind::Number if pr.named(&["slug"]) => 0.0,
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
        // ("my most listened artists" for `/artists/{id}`).
        SpanKind::Word if pr.named(ID_WORDS) => 0.0,
        // A verb or an adverb ("the line running normally") is what is said of a value, not
        // one, even right after the label noun.
        SpanKind::Word if !name_shaped(&s.value) => 0.0,
        SpanKind::Word if string && pr.in_path() => 3.0,
        SpanKind::Word if string => 1.0,
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

/// Whether a number is written as a year (four digits, 1800 to 2199).
fn year_like(v: &str) -> bool {
    v.len() == 4 && v.parse::<u32>().is_ok_and(|y| (1800..2200).contains(&y))
}

/// Whether a lower-case word has the shape of a verb form or an adverb (`running`,
/// `normally`, `delayed`), which a name rarely has.
fn verb_shaped(w: &str) -> bool {
    let n = w.chars().count();
    (w.ends_with("ing") && n > 5) || (w.ends_with("ly") && n > 4) || (w.ends_with("ed") && n >= 6)
}

/// Adjectives of rank and amount, which say what is asked of a value, not which one.
const RANK_WORDS: &[&str] = &[
    "bad", "best", "better", "few", "good", "less", "many", "more", "much", "new", "old", "worse",
    "worst",
];

/// Generic adjectives of time and state, which say which version of a thing is asked for
/// ("the current weather", "latest commits", "new releases"), never a value.
const GENERIC_WORDS: &[&str] = &[
    "current",
    "currently",
    "latest",
    "newest",
    "oldest",
    "popular",
    "present",
    "previous",
    "recent",
    "upcoming",
];

/// Whether an unlabelled lower-case word may be a name: no verb form or adverb, no word of
/// rank or amount ("best", "latest", "top").
fn name_shaped(w: &str) -> bool {
    !verb_shaped(w) && !generic(w)
}

/// Whether a lower-case word is a word of rank, amount, time or state ([`RANK_WORDS`],
/// [`GENERIC_WORDS`], "top", "first"): it qualifies what is asked, it is no value.
fn generic(w: &str) -> bool {
    RANK_WORDS.contains(&w) || GENERIC_WORDS.contains(&w) || COUNT_CUES.contains(&w)
}

/// Words that stand before a name and its label noun ("the central line", "on line 4").
const DETERMINERS: &[&str] = &["a", "an", "the", "this", "that", "on", "for", "of", "at"];

/// Words right next to a noun that names a path parameter of the endpoint, which no span holds:
/// the name of the thing it keys ("the victoria line" for `/Line/{ids}`, "line victoria" after
/// a determiner). The catalog may know the word, so [`spans::unknown_words`] leaves it out,
/// or a preposition's object holds it with its label; its label says it is a value. Function words, verbs and adverbs, and words the endpoint was
/// ranked for are none.
fn label_neighbours(
    question: &str,
    open: &[Profile],
    spans: &[Span],
    subject: &[String],
) -> Vec<Span> {
    let toks = spans::word_tokens(question);
    let word = |i: usize| question[toks[i].0..toks[i].1].to_lowercase();
    let free = |i: usize| {
        let (s, e) = toks[i];
        let w = word(i);
        !spans
            .iter()
            .any(|x| s < x.end && x.start < e && x.kind != SpanKind::Object)
            && w.chars().all(char::is_alphabetic)
            && !spans::is_function_word(&w)
            && name_shaped(&w)
            && !text::stems(&w).any(|st| subject.contains(&st))
    };
    let labels = |i: usize| {
        let w = word(i);
        open.iter()
            .any(|pr| pr.in_path() && !pr.numeric && !pr.in_header() && pr.names(&w))
    };
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if !labels(i) {
            continue;
        }
        let determiner = |j: usize| DETERMINERS.contains(&word(j).as_str());
        if i >= 2 && free(i - 1) && determiner(i - 2) {
            out.push(spans::span_at(
                question,
                SpanKind::Word,
                toks[i - 1].0,
                toks[i - 1].1,
            ));
        }
        if i >= 1 && i + 1 < toks.len() && free(i + 1) && determiner(i - 1) {
            out.push(spans::span_at(
                question,
                SpanKind::Word,
                toks[i + 1].0,
                toks[i + 1].1,
            ));
        }
    }
    out.dedup_by_key(|s| s.start);
    out
}

/// The value written right after a header or cookie parameter's name in the question
/// (`X-Request-Id: abc-1`, `x-request-id=abc-1`), the only way such a parameter is filled.
fn named_header_value(name: &str, question: &str) -> Option<String> {
    let q = question.to_lowercase();
    let n = name.to_lowercase();
    let mut from = 0;
    while let Some(at) = q[from..].find(&n).map(|i| i + from) {
        from = at + n.len();
        let bounded =
            |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '-' || c == '_'));
        if !bounded(q[..at].chars().last()) || !bounded(q[from..].chars().next()) {
            continue;
        }
        let rest = question[from..].trim_start();
        let rest = rest.strip_prefix([':', '=']).unwrap_or(rest).trim_start();
        let rest = rest.trim_start_matches(['"', '\'', '`']);
        let value: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ';' | '"' | '\'' | '`'))
            .collect();
        let value = value.trim_end_matches(['.', '?', '!']).to_string();
        if !value.is_empty() {
            return Some(value);
        }
    }
    None
}

/// Enum values the question names, per parameter: the longest value written in the question
/// (case, `_`, `-` and spaces ignored), on word boundaries.
fn enum_value(p: &ParamData, question: &str) -> Option<Value> {
    let norm = |s: &str| {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let q = format!(" {} ", norm(question));
    p.enum_values
        .iter()
        .filter_map(|v| {
            let text = bind::value_text(&bind::scalar_json(v));
            let n = norm(&text);
            // A one-letter value ("S" for scientific units) is no word of a question.
            (n.chars().count() > 1 && q.contains(&format!(" {n} "))).then_some((n.len(), v))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, v)| bind::scalar_json(v))
}

/// The value a span gives a parameter, typed as it declares (`None` when it does not fit).
fn value_for(pr: &Profile, s: &Span) -> Option<Value> {
    let p = pr.p;
    if s.kind == SpanKind::Number
        && let Some(v) = coordinate(pr, s)
    {
        return Some(v);
    }
    let raw = if s.kind == SpanKind::Date && p.format.as_deref() == Some("date-time") {
        format!("{}T00:00:00Z", s.value)
    } else {
        s.value.clone()
    };
    let mut v = bind::coerce(p, Value::String(raw)).ok()?;
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

/// Parameter-name words of free text that takes a name as people write it in running text
/// (a team, a ticker symbol, a food): with [`TEXT_WORDS`], the parameters [`leftover`] fills.
const FREE_WORDS: &[&str] = &[
    "artist",
    "author",
    "food",
    "ingredient",
    "ingredients",
    "player",
    "symbol",
    "team",
    "ticker",
];

/// Description stems of a parameter that takes a value from a standard list or format (an IANA
/// time zone, an ISO code), which the question's leftover words are not.
const CODED_STEMS: &[&str] = &["code", "iana", "identifi", "iso", "rfc"];

/// Whether a parameter takes free text (a search, a name, a title, a team, a symbol): a string
/// with no enum and no format, not a date, named as free text, or a required query parameter
/// named as none of an id, a date, a place, a link, a count or a unit (a path parameter keys an
/// entity: [`fit`] fills it).
fn free_text(pr: &Profile) -> bool {
    let string = !pr.numeric && pr.p.ty.trim_end_matches("[]") == "string";
    if !string
        || pr.temporal
        || pr.in_header()
        || pr.p.location.as_deref() == Some("body")
        || !pr.p.enum_values.is_empty()
        || !pr.format().is_empty()
    {
        return false;
    }
    // Plural names name the same kind of value (`ids`, `dates`).
    let singular: Vec<&str> = pr
        .words
        .iter()
        .map(|w| w.strip_suffix('s').unwrap_or(w))
        .collect();
    let named = |l: &[&str]| pr.named(l) || singular.iter().any(|w| l.contains(w));
    named(TEXT_WORDS)
        || named(FREE_WORDS)
        || (pr.p.required
            && !pr.in_path()
            && !pr.stems[pr.name_stems..]
                .iter()
                .any(|s| CODED_STEMS.contains(&s.as_str()))
            && ![
                ID_WORDS,
                DATE_WORDS,
                PLACE_WORDS,
                URL_WORDS,
                PATH_WORDS,
                COUNT_WORDS,
                &["unit", "units"],
            ]
            .iter()
            .any(|l| named(l)))
}

/// The question's leftover content: runs of adjacent words that no value holds (or that only a
/// word span, a preposition's object or a capitalised name holds, still unused), without
/// function words, verbs of the request frame, words
/// of rank or time, words the endpoint was ranked for (`subject`), or a single verb-shaped word. A run right before an id word labels another
/// value ("tvdb id 121361"), it is none. Best first: a preposition's object or a name, then the
/// longest, then the last.
fn leftover_runs(question: &str, spans: &[Span], used: &[bool], subject: &[String]) -> Vec<Span> {
    let mut runs: Vec<(usize, usize, bool)> = Vec::new();
    for (a, b) in spans::word_tokens(question) {
        // Another kind of value (a number, an id, a date) or a value already bound.
        let holder = spans
            .iter()
            .zip(used)
            .find(|(s, _)| a < s.end && s.start < b);
        let strong = match holder {
            Some((s, u))
                if *u || !matches!(s.kind, SpanKind::Word | SpanKind::Object | SpanKind::Name) =>
            {
                continue;
            }
            Some((s, _)) => s.kind != SpanKind::Word,
            None => false,
        };
        let w = question[a..b].to_lowercase();
        let mut stems = text::stems(&w).peekable();
        let asked = stems.peek().is_some() && stems.all(|st| subject.contains(&st));
        if asked
            || spans::is_function_word(&w)
            || GENERIC_WORDS.contains(&w.as_str())
            || COUNT_CUES.contains(&w.as_str())
            || ID_WORDS.contains(&w.as_str())
            || FRAME_VERBS.contains(&w.as_str())
            || !w.chars().any(char::is_alphabetic)
        {
            continue;
        }
        match runs.last_mut() {
            Some(last) if question[last.1..a].trim().is_empty() => {
                last.1 = b;
                last.2 |= strong;
            }
            _ => runs.push((a, b, strong)),
        }
    }
    let mut out: Vec<(bool, usize, Span)> = runs
        .into_iter()
        .filter_map(|(a, b, strong)| {
            let span = spans::span_at(question, SpanKind::Word, a, b);
            let single = !question[a..b].contains(char::is_whitespace);
            let labels_next = span
                .after
                .first()
                .is_some_and(|w| ID_WORDS.contains(&w.as_str()));
            let lower = question[a..b].to_lowercase();
            // A title may hold a verb form or an adjective ("breaking bad"); a run of words of
            // rank or state only ("best new") is none.
            // An adverb says what is done, as in a predicate ("running normally").
            let weak = if single {
                !name_shaped(&lower)
            } else {
                lower.split_whitespace().all(generic)
                    || lower
                        .split_whitespace()
                        .any(|w| w.ends_with("ly") && w.chars().count() > 4)
            };
            (!labels_next && !weak).then_some((strong, b - a, span))
        })
        .collect();
    out.sort_by(|x, y| {
        y.0.cmp(&x.0)
            .then(y.1.cmp(&x.1))
            .then(y.2.start.cmp(&x.2.start))
    });
    out.into_iter().map(|(_, _, s)| s).collect()
}

/// A free-text parameter ([`free_text`]) nothing filled takes the question's leftover content
/// ([`leftover_runs`]): "when did breaking bad first air" gives `name` "breaking bad", "which
/// wine goes with steak" gives `food` "steak". One run per parameter, named ones first.
fn leftover(
    question: &str,
    open: &[Profile],
    spans: &[Span],
    used: &[bool],
    subject: &[String],
    params: &mut BTreeMap<String, Value>,
) {
    let mut takers: Vec<&Profile> = open
        .iter()
        .filter(|pr| !params.contains_key(&pr.p.name) && free_text(pr))
        .collect();
    takers.sort_by_key(|pr| (!pr.p.required, !pr.named(TEXT_WORDS), !pr.named(FREE_WORDS)));
    // The question's free text is one value: an optional parameter takes it only when no
    // free-text parameter holds a value yet (`q` and `author` of one search get one of them).
    let mut text_given = open
        .iter()
        .any(|pr| params.contains_key(&pr.p.name) && free_text(pr));
    for pr in takers {
        if !pr.p.required && text_given {
            continue;
        }
        // A word the endpoint was ranked for only through this parameter's own description
        // (`food`: "a dish (\"steak\")") is the value it asks for, not what is asked.
        let described: Vec<String> =
            pr.p.description
                .as_deref()
                .map(|d| text::stems(d).collect())
                .unwrap_or_default();
        let asked: Vec<String> = subject
            .iter()
            .filter(|st| !described.contains(st))
            .cloned()
            .collect();
        let taken: Vec<String> = params
            .values()
            .filter_map(Value::as_str)
            .map(str::to_lowercase)
            .collect();
        let run = leftover_runs(question, spans, used, &asked)
            .into_iter()
            .find(|r| !taken.contains(&r.value.to_lowercase()));
        if let Some(run) = run
            && let Ok(v) = bind::coerce(pr.p, Value::String(run.value))
        {
            params.insert(pr.p.name.clone(), v);
            text_given = true;
        }
    }
}

/// Verbs of the request frame and question words ("find", "show me", "what can i cook"),
/// which ask, never name a value.
const FRAME_VERBS: &[&str] = &[
    "about",
    "ask",
    "buy",
    "check",
    "come",
    "comes",
    "cook",
    "did",
    "does",
    "find",
    "get",
    "give",
    "go",
    "goes",
    "help",
    "know",
    "like",
    "list",
    "look",
    "make",
    "need",
    "out",
    "play",
    "recommend",
    "say",
    "search",
    "see",
    "show",
    "tell",
    "use",
    "want",
    "well",
    "whats",
];

/// Enum values that ask for no restriction.
const NEUTRAL_VALUES: &[&str] = &["all", "any", "both", "everything"];

/// A required enum parameter the question leaves open takes its neutral value ("all", "any",
/// "all-sections"; case and separators ignored) instead of staying missing; returns a note per
/// parameter so filled, for the plan to say so.
pub fn neutral_defaults(e: &EndpointData, params: &mut BTreeMap<String, Value>) -> Vec<String> {
    let mut notes = Vec::new();
    for p in e.parameters.iter().filter(|p| p.required && !p.auth) {
        if params.contains_key(&p.name) {
            continue;
        }
        let neutral = p.enum_values.iter().find(|v| {
            let t = bind::value_text(&bind::scalar_json(v)).to_lowercase();
            t.split(|c: char| !c.is_alphanumeric())
                .next()
                .is_some_and(|first| NEUTRAL_VALUES.contains(&first))
        });
        if let Some(v) = neutral {
            let v = bind::scalar_json(v);
            notes.push(format!(
                "`{}/{}`: required parameter `{}` not given by the request; set to its neutral value {}",
                e.id, p.name, p.name, v
            ));
            params.insert(p.name.clone(), v);
        }
    }
    notes
}

/// Unit parameters (`unit`, `sourceUnit`, `targetUnit`): the unit word of the amount the
/// question gives ("2 cups" -> `cups`), and for a target unit the unit asked for ("how many
/// grams ...", "... in grams", "... into ounces"), which is not the amount's own.
fn units(question: &str, open: &[Profile], spans: &[Span], params: &mut BTreeMap<String, Value>) {
    let amount = spans.iter().find_map(|s| {
        let u = s.unit.as_deref()?;
        (s.kind == SpanKind::Number && u.chars().count() > 1 && u.chars().all(char::is_alphabetic))
            .then_some(u)
    });
    let Some(unit) = amount else { return };
    let words: Vec<String> = question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let asked = words.windows(2).find_map(|w| {
        let cue = matches!(w[0].as_str(), "many" | "much" | "in" | "into" | "to");
        let word = &w[1];
        (cue && word != unit
            && word.chars().all(char::is_alphabetic)
            && !spans::is_function_word(word))
        .then(|| word.clone())
    });
    for pr in open
        .iter()
        .filter(|pr| !pr.numeric && pr.named(&["unit", "units"]))
    {
        if params.contains_key(&pr.p.name) {
            continue;
        }
        let value = if pr.named(TARGET_WORDS) {
            asked.clone()
        } else {
            Some(unit.to_string())
        };
        if let Some(v) = value.and_then(|v| bind::coerce(pr.p, Value::String(v)).ok()) {
            params.insert(pr.p.name.clone(), v);
        }
    }
}

/// `owner/repo` written in the question for a URL template with `{a}/{b}`: both filled.
fn slash_pair(
    e: &EndpointData,
    spans: &[Span],
    params: &mut BTreeMap<String, Value>,
    only: Option<&[String]>,
) -> bool {
    let Some(s) = spans.iter().find(|s| s.kind == SpanKind::Slash) else {
        return false;
    };
    let url = &e.url;
    let mut rest = url.as_str();
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let a = &after[..close];
        if let Some(next) = after[close + 1..].strip_prefix("/{")
            && let Some(end) = next.find('}')
        {
            let b = &next[..end];
            let allowed = only.is_none_or(|o| o.iter().any(|x| x == a) && o.iter().any(|x| x == b));
            if allowed && !params.contains_key(a) && !params.contains_key(b) {
                let (x, y) = s.value.split_once('/').unwrap_or((&s.value, ""));
                params.insert(a.to_string(), Value::String(x.to_string()));
                params.insert(b.to_string(), Value::String(y.to_string()));
                return true;
            }
        }
        rest = &after[close + 1..];
    }
    false
}

/// Fill the endpoint's unbound, non-credential parameters (only those named in `only`, when
/// given) from the question's spans; returns the names filled. `params` holds what declared
/// bindings already gave. A span made only of `subject` stems (the words the endpoint was
/// ranked for: "UV" in "the UV index in Sydney") is what is asked, not a value.
pub fn fill(
    e: &EndpointData,
    question: &str,
    spans: &[Span],
    params: &mut BTreeMap<String, Value>,
    only: Option<&[String]>,
    subject: &[String],
) -> Vec<String> {
    fill_with(e, question, spans, params, only, subject, true)
}

/// [`fill`] from typed spans only, without the question's leftover words: what ranking counts
/// as parameters the question gives (leftover words fit any free-text parameter, so they say
/// nothing about which endpoint the question asks for).
pub fn fill_spans(
    e: &EndpointData,
    question: &str,
    spans: &[Span],
    params: &mut BTreeMap<String, Value>,
    only: Option<&[String]>,
    subject: &[String],
) -> Vec<String> {
    fill_with(e, question, spans, params, only, subject, false)
}

fn fill_with(
    e: &EndpointData,
    question: &str,
    spans: &[Span],
    params: &mut BTreeMap<String, Value>,
    only: Option<&[String]>,
    subject: &[String],
    leftovers: bool,
) -> Vec<String> {
    let before: Vec<String> = params.keys().cloned().collect();
    let used_slash = slash_pair(e, spans, params, only);
    let open: Vec<Profile> = e
        .parameters
        .iter()
        .filter(|p| !p.auth && !params.contains_key(&p.name))
        .filter(|p| only.is_none_or(|o| o.contains(&p.name)))
        .map(|p| Profile::of(p, &e.url))
        .collect();
    // Headers and cookies: only by name, never from free text.
    for pr in open.iter().filter(|pr| pr.in_header()) {
        if let Some(raw) = named_header_value(&pr.p.name, question)
            && let Ok(v) = bind::coerce(pr.p, Value::String(raw))
        {
            params.insert(pr.p.name.clone(), v);
        }
    }
    let open: Vec<Profile> = open.into_iter().filter(|pr| !pr.in_header()).collect();
    let mut spans = spans.to_vec();
    // A name beside its label noun replaces the object that held both ("on the central line").
    let named = label_neighbours(question, &open, &spans, subject);
    spans.retain(|x| {
        x.kind != SpanKind::Object || !named.iter().any(|n| n.start < x.end && x.start < n.end)
    });
    spans.extend(named);
    spans.sort_by_key(|s| (s.start, s.end));
    let spans = spans.as_slice();
    for pr in &open {
        if !pr.p.enum_values.is_empty()
            && let Some(v) = enum_value(pr.p, question)
        {
            params.insert(pr.p.name.clone(), v);
        }
    }
    // A span whose label names some open parameter goes to one it names, or to none.
    let claimed: Vec<bool> = spans
        .iter()
        .map(|s| open.iter().any(|pr| pr.introduced_by(s)))
        .collect();
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (pi, pr) in open.iter().enumerate() {
        if params.contains_key(&pr.p.name) {
            continue;
        }
        for (si, s) in spans.iter().enumerate() {
            if (used_slash && s.kind == SpanKind::Slash) || (claimed[si] && !pr.introduced_by(s)) {
                continue;
            }
            // A number, a year or a date is a value, even where the index knows it as a word.
            let numeric = matches!(s.kind, SpanKind::Number | SpanKind::Year | SpanKind::Date);
            let mut stems = text::stems(&s.value).peekable();
            if !numeric && stems.peek().is_some() && stems.all(|st| subject.contains(&st)) {
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
        }
    }
    units(question, &open, spans, params);
    if leftovers {
        leftover(question, &open, spans, &span_used, subject, params);
    }
    params
        .keys()
        .filter(|k| !before.contains(k))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endpoint from its JSON form (robust to fields added to the artifact later).
    fn endpoint(url: &str, params: &[(&str, &str)]) -> EndpointData {
        let parameters: Vec<Value> = params
            .iter()
            .map(|(name, location)| {
                serde_json::json!({"name": name, "type": "string", "enum_values": [],
                    "required": *location == "path", "auth": false, "bind": [],
                    "location": location})
            })
            .collect();
        serde_json::from_value(serde_json::json!({"id": "e", "method": "GET", "url": url,
            "parameters": parameters, "fields": [], "identifiers": [], "group_fields": {}}))
        .expect("endpoint json")
    }

    /// The parameters `question` fills on `e`, with the catalog knowing only `known` stems.
    fn filled(e: &EndpointData, question: &str, known: &[&str]) -> BTreeMap<String, Value> {
        filled_for(e, question, known, &[])
    }

    /// [`filled`], for an endpoint ranked for the `subject` stems.
    fn filled_for(
        e: &EndpointData,
        question: &str,
        known: &[&str],
        subject: &[&str],
    ) -> BTreeMap<String, Value> {
        let mut spans = crate::search::spans::spans(question);
        crate::search::spans::unknown_words(question, &mut spans, &|st| known.contains(&st));
        let mut params = BTreeMap::new();
        let subject: Vec<String> = subject.iter().map(|s| s.to_string()).collect();
        fill(e, question, &spans, &mut params, None, &subject);
        params
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
    fn a_label_naming_the_path_segment_fills_its_key() {
        assert_eq!(keyed_by("https://x.test/v1/authors/{id}", "id"), ["author"]);
        assert!(keyed_by("https://x.test/{id}", "id").is_empty());
        assert!(keyed_by("https://x.test/{a}/{b}", "b").is_empty());
        // An integer id: a bare number fits it weakly; its label makes it the key.
        let known = ["nationality", "author", "book"];
        for (url, want) in [
            ("https://x.test/authors/{id}", Some(7)),
            ("https://x.test/books/{id}", None),
        ] {
            let mut e = endpoint(url, &[("id", "path")]);
            e.parameters[0].ty = "integer".into();
            let got = filled(&e, "what nationality is author 7", &known);
            assert_eq!(got.get("id").and_then(Value::as_i64), want, "{url}");
        }
    }

    /// `e` with parameter `name` re-typed and described.
    fn typed(mut e: EndpointData, name: &str, ty: &str, format: Option<&str>) -> EndpointData {
        let p = e
            .parameters
            .iter_mut()
            .find(|p| p.name == name)
            .expect("parameter");
        p.ty = ty.into();
        p.format = format.map(str::to_string);
        e
    }

    fn strings(pairs: &[(&str, &str)]) -> BTreeMap<String, Value> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), Value::from(*v)))
            .collect()
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
    fn an_amount_takes_its_unit_and_a_target_unit_the_one_asked_for() {
        let mut convert = endpoint(
            "https://x.test/convert",
            &[
                ("ingredientName", "query"),
                ("sourceAmount", "query"),
                ("sourceUnit", "query"),
                ("targetUnit", "query"),
            ],
        );
        for p in &mut convert.parameters {
            p.required = true;
        }
        convert.parameters[1].ty = "number".into();
        let want = |amount: i64, source: &str, target: &str, name: &str| {
            BTreeMap::from([
                ("ingredientName".to_string(), Value::from(name)),
                ("sourceAmount".to_string(), Value::from(amount)),
                ("sourceUnit".to_string(), Value::from(source)),
                ("targetUnit".to_string(), Value::from(target)),
            ])
        };
        assert_eq!(
            filled(
                &convert,
                "how many grams is 2 cups of butter",
                &["gram", "cup"]
            ),
            want(2, "cups", "grams", "butter")
        );
        assert_eq!(
            filled(
                &convert,
                "convert 3 tablespoons of sugar into ounces",
                &["convert"]
            ),
            want(3, "tablespoons", "ounces", "sugar")
        );
        // The index may know "2" as a word the endpoint was ranked for; it is a value still.
        assert_eq!(
            filled_for(
                &convert,
                "how many grams is 2 cups of butter",
                &["gram", "cup", "2"],
                &["2", "gram"]
            ),
            want(2, "cups", "grams", "butter")
        );
        // No amount with a unit: no unit either.
        let got = filled(&convert, "how many grams of butter", &["gram"]);
        assert!(
            !got.contains_key("sourceUnit") && !got.contains_key("targetUnit"),
            "{got:?}"
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
    fn verbs_adverbs_and_function_words_are_no_values() {
        let status = endpoint("https://x.test/line/{ids}/status", &[("ids", "path")]);
        for q in [
            "is it running normally right now",
            "when is the next one due",
            "the best ones according to them",
        ] {
            assert!(filled(&status, q, &[]).is_empty(), "{q}");
        }
        // A name beside the noun that names the key is the value, known word or not.
        assert_eq!(
            filled(
                &status,
                "is the victoria line running normally",
                &["victoria", "line"]
            ),
            strings(&[("ids", "victoria")])
        );
        assert_eq!(
            filled(
                &status,
                "any disruptions on the central line",
                &["central", "line"]
            ),
            strings(&[("ids", "central")])
        );
        assert_eq!(
            filled(&status, "any delays on line bakerloo", &["line", "delay"]),
            strings(&[("ids", "bakerloo")])
        );
        let road = endpoint("https://x.test/road/{ids}", &[("ids", "path")]);
        assert_eq!(
            filled(
                &road,
                "what's the traffic like on the a2 road",
                &["traffic", "road"]
            ),
            strings(&[("ids", "a2")])
        );
        assert_eq!(
            filled(&road, "is road m25 closed", &["road"]),
            strings(&[("ids", "m25")])
        );
    }

    #[test]
    fn headers_are_filled_only_where_the_question_names_them() {
        let mut e = endpoint(
            "https://x.test/podcasts/{id}",
            &[
                ("id", "path"),
                ("X-Request-Id", "header"),
                ("session", "cookie"),
            ],
        );
        e.parameters[1].required = true;
        assert_eq!(
            filled(
                &e,
                "episodes of podcast 4d3fe717742d4963a85562e9f84d8c79",
                &[]
            ),
            strings(&[("id", "4d3fe717742d4963a85562e9f84d8c79")])
        );
        assert_eq!(
            filled(&e, "podcast 4d3fe717742d4963 with X-Request-Id: abc-1", &[]),
            strings(&[("X-Request-Id", "abc-1"), ("id", "4d3fe717742d4963")])
        );
        assert_eq!(
            named_header_value("session", "session=xyz please"),
            Some("xyz".into())
        );
        assert_eq!(named_header_value("session", "the sessions list"), None);
    }

    #[test]
    fn leftover_content_words_fill_a_free_text_parameter() {
        let series = endpoint("https://x.test/search/series", &[("name", "query")]);
        for (q, subject, want) in [
            (
                "when did breaking bad first air",
                &["first", "air"][..],
                "breaking bad",
            ),
            (
                "what year did elden ring come out",
                &["year"][..],
                "elden ring",
            ),
            (
                "is the latest season of severance out",
                &["season"][..],
                "severance",
            ),
        ] {
            assert_eq!(
                filled_for(&series, q, subject, subject),
                strings(&[("name", want)]),
                "{q}"
            );
        }
        // A team, a ticker in lower case.
        let games = endpoint("https://x.test/games", &[("team", "query")]);
        for (q, want) in [
            ("when does ohio state play next", "ohio state"),
            ("last score of the Alabama games", "Alabama"),
        ] {
            assert_eq!(
                filled_for(&games, q, &["game", "score"], &["game", "score"]),
                strings(&[("team", want)]),
                "{q}"
            );
        }
        let quote = endpoint("https://x.test/quote", &[("symbol", "query")]);
        assert_eq!(
            filled_for(
                &quote,
                "share price of aapl",
                &["share", "price"],
                &["share", "price"]
            ),
            strings(&[("symbol", "aapl")])
        );
        // A required parameter described with the word the endpoint was ranked for: the word
        // is its value.
        let mut wine = endpoint("https://x.test/wine", &[("food", "query")]);
        wine.parameters[0].required = true;
        wine.parameters[0].description = Some("A dish (\"steak\") or an ingredient".into());
        assert_eq!(
            filled_for(
                &wine,
                "which wine goes well with steak",
                &["wine", "steak"],
                &["wine", "steak"]
            ),
            strings(&[("food", "steak")])
        );
        // Generic adjectives, verbs of the request and words of rank are no values.
        for q in [
            "show me the current top series",
            "find the latest new series",
            "is the series running normally",
            "list the best series",
        ] {
            assert!(
                filled_for(&series, q, &["seri"], &["seri"]).is_empty(),
                "{q}"
            );
        }
    }

    #[test]
    fn a_required_enum_left_open_takes_its_neutral_value() {
        let mut e = endpoint(
            "https://x.test/news",
            &[("section", "query"), ("order", "query")],
        );
        e.parameters[0].required = true;
        e.parameters[0].enum_values = ["world", "all-sections"]
            .map(|v| crate::model::value::Scalar::String(v.into()))
            .to_vec();
        e.parameters[1].required = true;
        e.parameters[1].enum_values = ["newest", "oldest"]
            .map(|v| crate::model::value::Scalar::String(v.into()))
            .to_vec();
        let mut params = BTreeMap::new();
        let notes = neutral_defaults(&e, &mut params);
        assert_eq!(params, strings(&[("section", "all-sections")]));
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn codes_are_two_or_three_letters_of_one_case() {
        assert!(is_code("US"));
        assert!(is_code("eur"));
        assert!(!is_code("Us"));
        assert!(!is_code("USDT"));
        assert!(!is_code("U2"));
    }
}
