//! Pass `codes`: a country or a language the question names ("in france", "the uk", "in
//! german") fills a parameter that takes its ISO code: a country parameter (named `country`,
//! `region`, `market`, or described as an ISO 3166 / country code) gets the ISO 3166-1 alpha-2
//! code (`isocountry`, plus the common English names in [`crate::search::text::COUNTRY_NAMES`]),
//! a language parameter (named `lang`, `language`, or described as an ISO 639 / language code)
//! the ISO 639-1 code (`isolang`). The code is written in the case the parameter's enum values,
//! default or description examples use (`FR` or `fr`), upper case for a country and lower case
//! for a language otherwise. A parameter whose description speaks of a name and of no code
//! ("The country's name") takes the name as written. A state the question names ("in Ohio",
//! "New South Wales") fills a state or province parameter with no enum that takes a code ("Two
//! character state (e.g. 'CA')") with the code of `subdivisions.txt`, without its country
//! prefix (`OH`, `NSW`).

use super::profile::Profile;
use crate::model::value::Scalar;
use crate::route::bind;
use crate::search::languages::language;
use crate::search::spans;
use crate::search::text::COUNTRY_NAMES;
use isocountry::CountryCode;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

/// What kind of code a parameter takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Country,
    /// A country parameter described as taking the name ("The country's name, e.g. chile").
    CountryName,
    Language,
    /// A state, province or territory by its code (`st`: "Two character state (e.g. 'CA')").
    State,
}

/// The kind of code `pr` takes, if any: by its name, else by its description.
fn kind(pr: &Profile) -> Option<Kind> {
    if pr.numeric {
        return None;
    }
    let d = pr.p.description.as_deref().unwrap_or("").to_lowercase();
    let coded = d.contains("code") || d.contains("iso");
    if pr.named(&["country", "countries", "region", "market"])
        || (coded && (d.contains("3166") || d.contains("country")))
    {
        // "The country's name, e.g. chile": the name is its value, as the question writes it.
        let named = d.split(|c: char| !c.is_alphanumeric()).any(|w| w == "name");
        return Some(if named && !coded {
            Kind::CountryName
        } else {
            Kind::Country
        });
    }
    if pr.named(&["lang", "language", "languages"])
        || (coded && (d.contains("639") || d.contains("language")))
    {
        return Some(Kind::Language);
    }
    // A code: the description says so, or shows two capitals as its example ('CA').
    let two_capitals = pr.p.description.as_deref().is_some_and(|d| {
        d.split(|c: char| !c.is_alphanumeric())
            .any(|w| w.len() == 2 && w.chars().all(|c| c.is_ascii_uppercase()))
    });
    if pr.named(&["state", "st", "province"])
        && pr.p.enum_values.is_empty()
        && (coded || two_capitals || d.contains("abbreviat") || d.contains("two"))
    {
        return Some(Kind::State);
    }
    None
}

/// The code (without its country prefix: `OH`, `ON`, `NSW`) of the state, province or
/// territory `subdivisions.txt` names `phrase` (lower case).
fn subdivision(phrase: &str) -> Option<&'static str> {
    static NAMES: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            super::coded::SUBDIVISIONS
                .lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| {
                    let (code, name) = l.split_once('\t')?;
                    Some((name.trim(), code.split_once('-').map_or(code, |(_, s)| s)))
                })
                .collect()
        })
        .get(phrase)
        .copied()
}

/// The states, provinces and territories the question names (codes without prefix), in the
/// order written: the longest run of up to four words ("district of columbia").
fn states(question: &str) -> Vec<Named> {
    let (toks, words) = spans::lower_words(question);
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let hit = (1..=4.min(words.len() - i))
            .rev()
            .find_map(|n| subdivision(&words[i..i + n].join(" ")).map(|c| (n, c)));
        match hit {
            Some((n, c)) => {
                out.push((c, (toks[i].0, toks[i + n - 1].1)));
                i += n;
            }
            None => i += 1,
        }
    }
    out
}

/// Whether `value` may go to `pr`: for a parameter that takes a language code, or a country
/// (named `country`, or described by ISO 3166 or as a country code; not `region` or `market`,
/// which take other places too), a code or a name of its kind ("serendipity" is no
/// `source_lang`, "Germany" no `country_code` of a parameter that takes IP addresses); true for
/// any other parameter, and for a value of the parameter's enum.
pub(super) fn admits(pr: &Profile, value: &str) -> bool {
    let Some(k) = kind(pr) else {
        return true;
    };
    let v = value.trim();
    let lower = v.to_lowercase();
    let listed = pr.p.enum_values.iter().any(|e| match e {
        Scalar::String(s) => s.eq_ignore_ascii_case(v),
        _ => false,
    });
    if listed {
        return true;
    }
    match k {
        Kind::Country | Kind::CountryName => {
            // What the description opens with is what the value is ("The 2 digit country
            // code"); a country code mentioned later is about the value ("the phone number,
            // with its country code").
            let head = pr.p.description.as_deref().unwrap_or("").to_lowercase();
            let head: Vec<&str> = head
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .take(5)
                .collect();
            let strict = pr.named(&["country", "countries"])
                || pr.described(&["3166"])
                || head.contains(&"country");
            !strict
                || country(&lower).is_some()
                || CountryCode::for_alpha2_caseless(v).is_ok()
                || CountryCode::for_alpha3_caseless(v).is_ok()
        }
        Kind::State => true,
        Kind::Language => {
            // A tag with a region or a script ("en-GB", "zh_Hant") is its language's.
            let base = lower.split(['-', '_']).next().unwrap_or("");
            language(&lower).is_some()
                || isolang::Language::from_639_1(base).is_some()
                // A three-letter code of a major language ("deu", "eng"); rare languages'
                // codes are English words too ("the", "car").
                || isolang::Language::from_639_3(base).is_some_and(|l| l.to_639_1().is_some())
        }
    }
}

/// A code and the byte range of the name the question writes for it.
type Named = (&'static str, (usize, usize));

/// The countries the question names (alpha-2 codes) and the languages (ISO 639-1 codes), in
/// the order written.
pub(super) fn named(question: &str) -> (Vec<Named>, Vec<Named>) {
    let (toks, words) = spans::lower_words(question);
    let mut countries = Vec::new();
    let mut languages = Vec::new();
    let mut i = 0;
    while i < words.len() {
        // A code written after its label ("in country us", "country code de", "language fr"):
        // the code itself, though it is also a word ("us", "it").
        if let Some((code, at)) = labelled_code(&words, i) {
            match code {
                Labelled::Country(c) => countries.push((c, toks[at])),
                Labelled::Language(l) => languages.push((l, toks[at])),
            }
            i = at + 1;
            continue;
        }
        // The longest run of up to five words that names a country.
        let hit = (1..=5.min(words.len() - i)).rev().find_map(|n| {
            let phrase = words[i..i + n].join(" ");
            country(&phrase).map(|c| (n, c))
        });
        if let Some((n, c)) = hit {
            countries.push((c, (toks[i].0, toks[i + n - 1].1)));
            i += n;
            continue;
        }
        if let Some(l) = language(&words[i]) {
            languages.push((l, toks[i]));
        }
        i += 1;
    }
    (countries, languages)
}

/// A code found after its label.
enum Labelled {
    Country(&'static str),
    Language(&'static str),
}

/// The code right after a label at word `i` ("country us", "country code de", "language
/// fr", "lang de"), with the index of the code's word: an ISO 3166-1 alpha-2 or alpha-3 code
/// after "country", an ISO 639-1 code after "language" or "lang".
fn labelled_code(words: &[String], i: usize) -> Option<(Labelled, usize)> {
    let label = words[i].as_str();
    let mut at = i + 1;
    if words.get(at).is_some_and(|w| w == "code") {
        at += 1;
    }
    let w = words.get(at)?;
    match label {
        "country" => {
            let c = match w.len() {
                2 => CountryCode::for_alpha2_caseless(w).ok()?,
                3 => CountryCode::for_alpha3_caseless(w).ok()?,
                _ => return None,
            };
            Some((Labelled::Country(c.alpha2()), at))
        }
        "language" | "lang" if w.len() == 2 => {
            let l = isolang::Language::from_639_1(w)?;
            Some((Labelled::Language(l.to_639_1()?), at))
        }
        _ => None,
    }
}

/// The alpha-2 code of a country named by `phrase` (lower case): its ISO 3166-1 name, the name
/// before a parenthesis or a comma ("bolivia"), or a common English name.
fn country(phrase: &str) -> Option<&'static str> {
    if let Some((_, code)) = COUNTRY_NAMES.iter().find(|(n, _)| *n == phrase) {
        return Some(code);
    }
    iso_names().get(phrase).copied().flatten()
}

/// An ISO 3166-1 name before a parenthesis or a comma ("bolivia" of "bolivia (plurinational
/// state of)", "korea" of "korea, republic of").
pub(super) fn short_name(name: &str) -> String {
    name.split([',', '('])
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

/// The ISO 3166-1 names in lower case, whole and before a parenthesis or a comma, with their
/// alpha-2 code; `None` for a short name two countries share ("korea" names neither). Built
/// once: [`country`] is asked for every run of a question's words.
fn iso_names() -> &'static HashMap<String, Option<&'static str>> {
    static NAMES: OnceLock<HashMap<String, Option<&'static str>>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: HashMap<String, Option<&'static str>> = HashMap::new();
        for c in CountryCode::iter() {
            let name = c.name().to_lowercase();
            let short = short_name(&name);
            let mut add = |n: String| match names.get(&n) {
                Some(Some(code)) if *code != c.alpha2() => {
                    names.insert(n, None);
                }
                Some(_) => {}
                None => {
                    names.insert(n, Some(c.alpha2()));
                }
            };
            if short != name {
                add(short);
            }
            add(name);
        }
        names
    })
}

/// Whether the parameter writes its codes in lower case: its enum values, its default, or the
/// two-letter examples of its description say so; `None` when nothing does.
fn lower_case(pr: &Profile) -> Option<bool> {
    // Borrowed, and only the two-letter ones: a long enum is read once, nothing copied.
    let mut samples: Vec<&str> =
        pr.p.enum_values
            .iter()
            .chain(pr.p.default.iter())
            .filter_map(|v| match v {
                Scalar::String(s) if s.len() == 2 => Some(s.as_str()),
                _ => None,
            })
            .collect();
    if let Some(d) = &pr.p.description {
        // A two-letter word of the prose ("is", "of", "to") is no code sample, though isolang
        // reads some as languages (`is` Icelandic).
        // Nor is a piece of a link (`en` of `https://en.wikipedia.org/...`).
        samples.extend(
            d.split_whitespace()
                .filter(|t| !t.contains("://") && !t.contains("www."))
                .flat_map(|t| t.split(|c: char| !c.is_ascii_alphabetic()))
                .filter(|w| w.len() == 2)
                .filter(|w| {
                    let l = w.to_lowercase();
                    !(crate::search::text::is_stop_word(&l)
                        || crate::search::text::is_light_word(&l))
                }),
        );
    }
    let codes: Vec<&str> = samples
        .into_iter()
        .filter(|s| {
            CountryCode::for_alpha2_caseless(s).is_ok()
                || isolang::Language::from_639_1(&s.to_lowercase()).is_some()
        })
        .collect();
    let lower = codes
        .iter()
        .filter(|s| s.chars().all(|c| c.is_ascii_lowercase()))
        .count();
    let upper = codes
        .iter()
        .filter(|s| s.chars().all(|c| c.is_ascii_uppercase()))
        .count();
    (lower + upper > 0).then_some(lower > upper)
}

/// The words of a parameter's name that the question does not say (`publisher` of
/// `publisher_region` for "the best podcasts in the uk"): of several parameters that take a
/// country, the one the question names best takes it (`region`, not `publisher_region`;
/// `publisher_region` for "podcasts by publishers in the uk").
fn unasked_words(pr: &Profile, asked: &[String]) -> usize {
    pr.words
        .iter()
        .filter(|w| {
            crate::search::text::stems(w)
                .next()
                .is_some_and(|st| !asked.contains(&st))
        })
        .count()
}

/// Fill the open country and language parameters from the names the question writes, the
/// first name of each kind to the parameter of that kind whose name holds the fewest words the
/// question does not say ([`unasked_words`]; the first of those); returns the byte ranges of
/// the names so used (no other value).
/// Byte ranges of the countries and languages `question` names that some parameter of `open`
/// takes by its code (a language name for a language parameter): values the endpoint knows.
pub(super) fn ranges(question: &str, open: &[Profile]) -> Vec<(usize, usize)> {
    let kinds: Vec<Kind> = open.iter().filter_map(kind).collect();
    if kinds.is_empty() {
        return Vec::new();
    }
    let (countries, languages) = named(question);
    let mut out = Vec::new();
    if kinds
        .iter()
        .any(|k| matches!(k, Kind::Country | Kind::CountryName))
    {
        out.extend(countries.iter().map(|(_, at)| *at));
    }
    if kinds.contains(&Kind::Language) {
        out.extend(languages.iter().map(|(_, at)| *at));
    }
    if kinds.contains(&Kind::State) {
        out.extend(states(question).iter().map(|(_, at)| *at));
    }
    out
}

pub(super) fn pass(
    question: &str,
    open: &[Profile],
    params: &mut BTreeMap<String, Value>,
) -> Vec<(usize, usize)> {
    let mut used = Vec::new();
    let takers: Vec<(&Profile, Kind)> = open
        .iter()
        .filter(|pr| !params.contains_key(&pr.p.name))
        .filter_map(|pr| kind(pr).map(|k| (pr, k)))
        .collect();
    if takers.is_empty() {
        return used;
    }
    let (countries, languages) = named(question);
    let states = states(question);
    for want in [
        Kind::State,
        Kind::Country,
        Kind::CountryName,
        Kind::Language,
    ] {
        let code = match want {
            Kind::Country | Kind::CountryName => countries.first(),
            Kind::Language => languages.first(),
            Kind::State => states.first(),
        };
        // A name a state took is no country ("Georgia").
        if want != Kind::State && code.is_some_and(|(_, at)| used.contains(at)) {
            continue;
        }
        let Some(&(code, at)) = code else { continue };
        let asked: Vec<String> = crate::search::text::stems(question).collect();
        let Some((pr, _)) = takers
            .iter()
            .filter(|(_, k)| *k == want)
            .min_by_key(|(pr, _)| unasked_words(pr, &asked))
        else {
            continue;
        };
        let lower = lower_case(pr).unwrap_or(want == Kind::Language);
        let text = if want == Kind::CountryName {
            question[at.0..at.1].to_string()
        } else if lower {
            code.to_lowercase()
        } else {
            code.to_uppercase()
        };
        let Ok(v) = bind::coerce(pr.p, Value::String(text)) else {
            continue;
        };
        if !pr.p.enum_values.is_empty() && !bind::value_is_valid(pr.p, &v) {
            continue;
        }
        params.insert(pr.p.name.clone(), v);
        used.push(at);
    }
    used
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::{CountryCode, country, iso_names, language};

    /// A state named in words fills a state parameter that takes a code with its code.
    #[test]
    fn a_state_named_fills_a_state_code() {
        let mut e = endpoint(
            "https://x.test/v2.0/schools",
            &[("st", "query"), ("q", "query")],
        );
        e.parameters[0].description = Some(
            "Two character state (e.g. 'CA') (optional -- leave blank to search entire U.S.)"
                .into(),
        );
        for (q, want) in [
            ("top ranked high schools in Ohio", "OH"),
            ("schools in ontario", "ON"),
            ("schools in the District of Columbia", "DC"),
        ] {
            assert_eq!(
                filled(&e, q, &["school", "rank", "high"]).get("st"),
                Some(&serde_json::Value::from(want)),
                "{q}"
            );
        }
        // Nothing says the parameter takes a code: the name stays as written.
        e.parameters[0].description = Some("Filter by state".into());
        assert_eq!(
            filled(
                &e,
                "top ranked high schools in Ohio",
                &["school", "rank", "high"]
            )
            .get("st"),
            Some(&serde_json::Value::from("Ohio"))
        );
    }

    /// A code written after its label is that code, though "us" and "it" are words too.
    #[test]
    fn a_code_after_its_label_is_the_code() {
        let mut e = endpoint(
            "https://x.test/chart.tracks.get",
            &[("country", "query"), ("lang", "query")],
        );
        e.parameters[0].description = Some("A valid ISO 3166 country code".into());
        e.parameters[0].default = Some(crate::model::value::Scalar::String("us".into()));
        for (q, want) in [
            (
                "top 10 tracks on the chart in country us",
                strings(&[("country", "us")]),
            ),
            (
                "top tracks for country code IT",
                strings(&[("country", "it")]),
            ),
            ("top tracks in country deu", strings(&[("country", "de")])),
            (
                "top tracks with lyrics in language fr",
                strings(&[("lang", "fr")]),
            ),
        ] {
            assert_eq!(
                filled(&e, q, &["top", "track", "chart", "lyric"]),
                want,
                "{q}"
            );
        }
        // No label, or not a code after it: nothing.
        assert!(filled(&e, "top tracks for us", &["top", "track"]).is_empty());
        assert!(filled(&e, "country music top tracks", &["top", "track", "music"]).is_empty());
    }

    #[test]
    fn the_name_tables_answer_as_a_scan_of_the_standards_does() {
        // The scan the tables replace: every country whose name or short name is the phrase.
        let scan = |phrase: &str| {
            let mut found = CountryCode::iter().filter(|c| {
                let name = c.name().to_lowercase();
                let short = name
                    .split([',', '('])
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string();
                name == phrase || short == phrase
            });
            let first = found.next()?;
            found.next().is_none().then(|| first.alpha2())
        };
        for c in CountryCode::iter() {
            let name = c.name().to_lowercase();
            let short = super::short_name(&name);
            for phrase in [name.as_str(), short.as_str()] {
                assert_eq!(
                    iso_names().get(phrase).copied().flatten(),
                    scan(phrase),
                    "{phrase}"
                );
            }
        }
        assert_eq!(country("korea"), None);
        assert_eq!(country("bolivia"), Some("BO"));
        assert_eq!(language("french"), Some("fr"));
        assert_eq!(language("klingon"), None);
    }

    #[test]
    fn country_and_language_names_fill_their_codes() {
        let mut e = endpoint(
            "https://x.test/best",
            &[("region", "query"), ("language", "query")],
        );
        e.parameters[0].description =
            Some("Country codes (e.g., us, jp, gb...) from `GET /regions`".into());
        for (q, want) in [
            ("the best podcasts in the uk", strings(&[("region", "gb")])),
            ("the best podcasts in france", strings(&[("region", "fr")])),
            (
                "best podcasts in south korea in english",
                strings(&[("language", "en"), ("region", "kr")]),
            ),
            ("best podcasts in german", strings(&[("language", "de")])),
        ] {
            assert_eq!(filled(&e, q, &["best", "podcast"]), want, "{q}");
        }
        // Upper case where the description writes the codes so; a name two countries share
        // ("korea") is none.
        let mut e = endpoint("https://x.test/new-releases", &[("country", "query")]);
        e.parameters[0].description = Some("An ISO 3166-1 alpha-2 country code, e.g. `SE`".into());
        assert_eq!(
            filled(&e, "new releases in sweden", &["new", "releas"]),
            strings(&[("country", "SE")])
        );
        // Of two country parameters, the one whose name the question says more of.
        let mut e = endpoint(
            "https://x.test/best",
            &[("publisher_region", "query"), ("region", "query")],
        );
        for p in &mut e.parameters {
            p.description = Some("Country code (e.g., us, gb)".into());
        }
        assert_eq!(
            filled(&e, "the best podcasts in the uk", &["best", "podcast"]),
            strings(&[("region", "gb")])
        );
        assert_eq!(
            filled(&e, "podcasts by publishers from france", &["podcast"]),
            strings(&[("publisher_region", "fr")])
        );
        let mut e = endpoint(
            "https://x.test/search",
            &[("language", "query"), ("interface_language", "query")],
        );
        e.parameters[1].description = Some("Language of the interface".into());
        assert_eq!(
            filled(&e, "articles in german", &["articl"]),
            strings(&[("language", "de")])
        );
        // A country parameter described as a name takes the name as written.
        let mut e = endpoint(
            "https://x.test/countries/{country}/cases",
            &[("country", "path")],
        );
        e.parameters[0].description = Some("The country's name, e.g. chile".into());
        assert_eq!(
            filled(&e, "cases in chile", &["case"]),
            strings(&[("country", "chile")])
        );
        e.parameters[0].description = Some("Country name or ISO 3166 code, e.g. CL".into());
        assert_eq!(
            filled(&e, "cases in chile", &["case"]),
            strings(&[("country", "CL")])
        );
        // Two-letter words of the prose are no lower-case samples ("is", "of", "to").
        let mut e = endpoint("https://x.test/new-releases", &[("country", "query")]);
        e.parameters[0].description = Some(
            "A country: an [ISO 3166-1 alpha-2 country code](http://en.wikipedia.org/wiki/ISO_3166-1). \
             If it is omitted, all of them; up to 50"
                .into(),
        );
        assert_eq!(
            filled(&e, "new releases in sweden", &["new", "releas"]),
            strings(&[("country", "SE")])
        );
        assert_eq!(super::country("korea"), None);
        assert_eq!(super::country("bolivia"), Some("BO"));
        assert_eq!(super::language("french"), Some("fr"));
    }
}
