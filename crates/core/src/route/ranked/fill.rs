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
use crate::search::spans::{Span, SpanKind};
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
    numeric: bool,
    integer: bool,
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
        if let Some(d) = &p.description {
            stems.extend(text::stems(d).take(12));
        }
        let base = p.ty.trim_end_matches("[]");
        Profile {
            p,
            numeric: matches!(base, "integer" | "number"),
            integer: base == "integer",
            words,
            stems,
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
    fn introduced_by(&self, s: &Span) -> bool {
        s.labels().any(|w| self.names(w))
    }

    /// Whether a word of the question is this parameter's name or a word of it (by stem), or
    /// names what the parameter keys in the URL path ("author" for `{id}` of `/authors/{id}`).
    fn names(&self, word: &str) -> bool {
        self.words.iter().any(|w| w == word)
            || text::stems(word)
                .any(|st| self.stems.iter().take(4).any(|x| *x == st) || self.keyed.contains(&st))
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
            2.0 + if pr.named(COUNT_WORDS) && cue {
                5.0
            } else {
                0.0
            } + if unit_names { 5.0 } else { 0.0 }
        }
        SpanKind::Number if coordinate(pr, s).is_some() => 7.0,
        SpanKind::Id
            if string && is_code(&s.value) && (pr.named(CODE_WORDS) || pr.described(&["iso"])) =>
        {
            6.0
        }
        SpanKind::Number | SpanKind::Id if string && pr.named(ID_WORDS) => 6.0,
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
    base + intro
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
    let before: Vec<String> = params.keys().cloned().collect();
    let used_slash = slash_pair(e, spans, params, only);
    let open: Vec<Profile> = e
        .parameters
        .iter()
        .filter(|p| !p.auth && !params.contains_key(&p.name))
        .filter(|p| only.is_none_or(|o| o.contains(&p.name)))
        .map(|p| Profile::of(p, &e.url))
        .collect();
    for pr in &open {
        if !pr.p.enum_values.is_empty()
            && let Some(v) = enum_value(pr.p, question)
        {
            params.insert(pr.p.name.clone(), v);
        }
    }
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (pi, pr) in open.iter().enumerate() {
        if params.contains_key(&pr.p.name) {
            continue;
        }
        for (si, s) in spans.iter().enumerate() {
            if used_slash && s.kind == SpanKind::Slash {
                continue;
            }
            let mut stems = text::stems(&s.value).peekable();
            if stems.peek().is_some() && stems.all(|st| subject.contains(&st)) {
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
        let mut spans = crate::search::spans::spans(question);
        crate::search::spans::unknown_words(question, &mut spans, &|st| known.contains(&st));
        let mut params = BTreeMap::new();
        fill(e, question, &spans, &mut params, None, &[]);
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

    #[test]
    fn codes_are_two_or_three_letters_of_one_case() {
        assert!(is_code("US"));
        assert!(is_code("eur"));
        assert!(!is_code("Us"));
        assert!(!is_code("USDT"));
        assert!(!is_code("U2"));
    }
}
