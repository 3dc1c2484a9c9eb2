//! Parameters filled from the question's typed spans, for an endpoint no declared binding
//! fully serves (an imported catalog): each parameter's type, `format`, enum values, name and
//! description say what kind of value it takes, and the words right before a value say what it
//! is ("order 8812", "in Lyon", "top 5").
//!
//! Before the passes, `numerals` adds the numbers, years and months the question writes in words
//! ("tag twelve", "twenty twenty-six", "april 2024" for a month parameter) to its spans, and
//! `currencies` the ISO 4217 code of each currency the question names ("euros to Japanese
//! yen"), where a parameter takes a currency.
//!
//! [`fill`] runs named passes in order, each in a file of its own; a pass fills only the
//! parameters still open, so an earlier pass wins:
//!
//! 1. `slash`: `owner/repo` for a URL template's `{a}/{b}` pair;
//! 2. `headers`: header and cookie parameters, only where the question names them;
//! 3. `labels`: a name beside the noun that names a path parameter becomes a span;
//! 4. `enums`: enum values the question names (as written, else in another form of their
//!    words: "synonyms" for `synonym`);
//!    `coded`: an enum of codes given by name ("holidays in ontario" for `ON`), by the
//!    description's pairs or the well-known list (countries, languages, subdivisions in
//!    `subdivisions.txt`) that covers the enum;
//!    `systems`: a `units` parameter of unit systems takes the system of the unit asked for
//!    ("in fahrenheit" gives `us` where the description lists `°F` under `us`; else
//!    `unit_systems.txt` says), before `keywords` would bind a unit quoted in its prose;
//! 5. `keywords`: a keyword value the parameter's description quotes (`"last-used" can be
//!    used to specify the last used budget`) and the question writes;
//!    `naming`: the name a question gives a thing ("a tag called X", "rename tag 7 to X") into
//!    a parameter that takes a name; when a plan is made (not while ranking), `flags`: a yes/no
//!    parameter named by its word ("federal holidays" for `federal`), and `site`: the name after
//!    "on"/"at"/"from" into a `site`/`platform` parameter ("on stackoverflow");
//! 6. `places`: a city with its country or state code after it ("in berlin de", "seattle, wa")
//!    into a city parameter and a country (or state) parameter apart;
//! 7. `codes`: a country or a language the question names into a parameter that takes its
//!    ISO 3166-1 / ISO 639-1 code;
//! 8. `coords`: a latitude-longitude pair (`35.78, -78.64`) into `lat` and `lon` apart, every
//!    pair into a list of points, or the pairs after "from" and "to" into a start and an end
//!    point;
//! 9. `periods`: a relative period ("this week", "the past 30 days") into a period parameter: the
//!    enum value naming it, a number of days, or a from/to date pair;
//!    `measures`: an amount with its unit ("within 15 minutes") into the one number parameter
//!    that measures in a unit of its dimension, converted (`time_limit` "In seconds." takes
//!    900);
//! 10. `typed`: typed spans paired with the parameters they fit, best pair first, each span and
//!     each parameter once: a street address whole to an `address` (never its house number to a
//!     `zip` or a `limit`), a postcode to a postcode parameter, a count to the parameter its noun
//!     names ("4 bedrooms") and never to an id, a count of the records the endpoint reads ("list
//!     20 users" for `/users`) to its count parameter, a value of the shape of a description's example
//!     codes (`examples`: "e.g. PHI, BKN") and no other; of two values of one kind, each to the
//!     parameter of its end by the words around it (`direction`: "from USD to EUR", "USD to
//!     EUR", "base USD" give `base_currency` USD); "X by Y" gives the work to a `track` or
//!     `title` and its maker to an `artist` or `author` (`makers`);
//! 11. `units`: the unit of an amount, and the target unit asked for;
//! 12. `leftover`: a free-text parameter takes the question's leftover content words (not in
//!     [`fill_spans`]);
//! 13. `check`: the type check of every value bound: a date only into a parameter that takes
//!     one, a number only into a number parameter (a whole one into an `integer`), a value of
//!     the examples' shape only where the description gives example codes; a date written in
//!     the form the description gives (`datefmt`: `dd-MM-yyyy`, `e.g. 2015-JUL-31`).
//!
//! After planning, [`open_required`] fills a required parameter left open: an enum's JSON form,
//! else its declared default, else an enum's neutral value ("all"); else it stays open.
//! The word lists (`words`) are English naming conventions of parameters (a `limit` takes a
//! count, a `city` a place), not any domain's knowledge.

mod check;
mod coded;
mod codes;
mod coords;
mod currencies;
mod datefmt;
mod direction;
mod enums;
mod examples;
mod flags;
mod headers;
mod keywords;
mod labels;
mod leftover;
mod makers;
mod measures;
mod naming;
mod numerals;
mod open;
mod periods;
mod places;
mod profile;
mod site;
mod slash;
mod systems;
#[cfg(test)]
mod testing;
mod typed;
mod units;
mod words;

use crate::artifact::EndpointData;
use crate::search::spans::{Span, SpanKind};
use crate::search::text;
use profile::Profile;
use serde_json::Value;
use std::collections::BTreeMap;

pub use open::open_required;

/// Whether a parameter is a key written as words (its name holds `slug`, `name`, `username`,
/// `login` or `handle`: `videogame_id_or_slug`): a name the question types in lower case may
/// be its value, where an opaque id (`{id}`, `{mbid}`) takes none.
pub fn takes_names(p: &crate::artifact::ParamData) -> bool {
    text::split_identifier(&p.name)
        .into_iter()
        .any(|(s, e)| words::NAME_KEY_WORDS.contains(&p.name[s..e].to_lowercase().as_str()))
}

/// Byte ranges of the words of `question` that name a value a parameter of `e` takes by its
/// name: a currency ("euros" for a currency code), a country or a language ("Spanish" for a
/// language code). Such words are known to the endpoint, though no indexed word of it.
pub fn named_value_ranges(e: &EndpointData, question: &str) -> Vec<(usize, usize)> {
    let open: Vec<Profile> = e
        .parameters
        .iter()
        .filter(|p| !p.auth)
        .map(|p| Profile::of(p, &e.url))
        .collect();
    let mut out = currencies::ranges(question, &open);
    out.extend(codes::ranges(question, &open));
    out
}

/// The values `text` names by word that parameters take as codes, with their byte ranges:
/// currencies as ISO 4217 codes ("euros": `EUR`), countries as ISO 3166-1 alpha-2 codes
/// ("France": `FR`), languages as ISO 639-1 codes ("Spanish": `es`), units by their symbols
/// ("pounds": `lb`), in text order.
pub fn named_codes(text: &str) -> Vec<(usize, usize, String)> {
    let mut out: Vec<(usize, usize, String)> = crate::search::currencies::named(text)
        .into_iter()
        .map(|(s, e, c)| (s, e, c.to_string()))
        .collect();
    let (countries, languages) = codes::named(text);
    out.extend(
        countries
            .into_iter()
            .chain(languages)
            .map(|(code, (s, e))| (s, e, code.to_string())),
    );
    let (toks, _) = crate::search::spans::lower_words(text);
    out.extend(
        toks.into_iter().filter_map(|(s, e)| {
            crate::search::unit_words::unit_of(&text[s..e]).map(|u| (s, e, u))
        }),
    );
    out.sort();
    out
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

/// [`fill`] from typed spans only, without the question's leftover words or the dates of
/// relative periods: what ranking counts as parameters the question gives (leftover words fit
/// any free-text parameter and "today" any date parameter, so they say nothing about which
/// endpoint the question asks for).
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

/// The passes of [`fill`], in order (see the module docs).
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
    let used_slash = slash::slash_pair(e, spans, params, only);
    let open: Vec<Profile> = e
        .parameters
        .iter()
        .filter(|p| !p.auth && !params.contains_key(&p.name))
        .filter(|p| only.is_none_or(|o| o.contains(&p.name)))
        .map(|p| Profile::of(p, &e.url))
        .collect();
    headers::pass(question, &open, params);
    let open: Vec<Profile> = open.into_iter().filter(|pr| !pr.named_only()).collect();
    let mut spans = spans.to_vec();
    numerals::add(question, &open, &mut spans);
    currencies::add(question, &open, &mut spans);
    // A name beside its label noun replaces the object that held both ("on the central line").
    let named = labels::label_neighbours(question, &open, &spans, subject);
    spans.retain(|x| {
        x.kind != SpanKind::Object || !named.iter().any(|n| n.start < x.end && x.start < n.end)
    });
    spans.extend(named);
    spans.sort_by_key(|s| (s.start, s.end));
    let spans = spans.as_slice();
    enums::pass(question, &open, params);
    let coded_names = coded::pass(question, &open, params);
    systems::pass(question, &open, params);
    let asked: Vec<String> = text::stems(&e.url).collect();
    let mut keyword_words = keywords::pass(question, &open, &asked, params);
    keyword_words.extend(naming::pass(question, &open, params));
    if leftovers {
        keyword_words.extend(flags::pass(question, &open, params));
        keyword_words.extend(site::pass(question, &open, params));
    }
    // A city with its code ("berlin de") before `codes`, which would read "de" alone.
    let mut names = places::pass(question, &open, params);
    names.extend(coded_names);
    names.extend(codes::pass(question, &open, params));
    names.extend(coords::pass(&open, spans, params));
    // The words of a country, a language or a relative period that bound a parameter are no
    // other value ("the last 7 days" gives no `limit` 7).
    let today = periods::reference_day();
    let mut spans = spans.to_vec();
    let mut taken = names;
    taken.extend(keyword_words.iter().copied());
    let before_periods: Vec<String> = params.keys().cloned().collect();
    taken.extend(periods::pass(question, &open, &spans, today, params));
    taken.extend(measures::pass(&open, &spans, params));
    if !leftovers {
        // Ranking: a date read from "today" or "last week" fits any date parameter (a
        // historical endpoint's `date` as well as a forecast's), so it is no evidence for an
        // endpoint; a period's enum value or number of days is ("of the week" -> `week`).
        params.retain(|k, v| {
            before_periods.contains(k) || !v.as_str().is_some_and(check::date_shaped)
        });
    }
    spans.retain(|s| taken.iter().all(|&(a, b)| s.end <= a || b <= s.start));
    let spans = spans.as_slice();
    let span_used = typed::pass(&open, spans, subject, used_slash, params);
    units::units(question, &open, spans, params);
    if leftovers {
        let own: Vec<String> = text::stems(&e.url).collect();
        // The words of a keyword or a given name are bound already: no leftover.
        let mut spans = spans.to_vec();
        let mut span_used = span_used;
        for &(a, b) in &keyword_words {
            spans.push(crate::search::spans::span_at(
                question,
                SpanKind::Quoted,
                a,
                b,
            ));
            span_used.push(true);
        }
        leftover::leftover(question, &open, &spans, &span_used, subject, &own, params);
    }
    let filled: Vec<String> = params
        .keys()
        .filter(|k| !before.contains(k))
        .cloned()
        .collect();
    check::pass(&open, filled, params)
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;

    /// A number after "NOUN of" goes to the parameter the noun names ("a vote of 8", "a
    /// rating of 4"), not to another number parameter.
    #[test]
    fn a_number_after_its_noun_and_of() {
        let votes = typed(
            typed(
                endpoint(
                    "https://x.test/user/votes/shows/{show_id}",
                    &[("show_id", "path"), ("vote", "body")],
                ),
                "show_id",
                "integer",
                None,
            ),
            "vote",
            "integer",
            None,
        );
        assert_eq!(
            filled(&votes, "give show 169 a vote of 8", &["show", "vote"]),
            BTreeMap::from([
                ("show_id".to_string(), Value::from(169)),
                ("vote".to_string(), Value::from(8))
            ])
        );
        let rated = typed(
            endpoint(
                "https://x.test/movies",
                &[("page", "query"), ("min_rating", "query")],
            ),
            "min_rating",
            "number",
            None,
        );
        let rated = typed(rated, "page", "integer", None);
        assert_eq!(
            filled(&rated, "movies with a rating of 7.5", &["movi"]),
            BTreeMap::from([("min_rating".to_string(), Value::from(7.5))])
        );
    }

    /// "today" fills a date parameter when the endpoint is planned, but ranking does not count
    /// it: any endpoint with a date parameter (a historical one too) would take it.
    #[test]
    fn ranking_takes_no_date_from_a_relative_period() {
        let e = typed(
            endpoint("https://x.test/time_machine", &[("date", "query")]),
            "date",
            "string",
            Some("date"),
        );
        for q in ["is it windy today", "how cold was it yesterday"] {
            let spans = crate::search::spans::spans(q);
            let mut ranked = BTreeMap::new();
            assert!(
                fill_spans(&e, q, &spans, &mut ranked, None, &[]).is_empty(),
                "{q}"
            );
            let mut planned = BTreeMap::new();
            assert_eq!(
                fill(&e, q, &spans, &mut planned, None, &[]),
                ["date"],
                "{q}"
            );
        }
    }
}
