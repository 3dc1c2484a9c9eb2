//! Pass `coded`: an enum of codes given by name ("holidays in ontario" for a `province` enum
//! `AB`, `BC`, ..., `ON`; "prices in japan" for a `market` enum `US`, `JP`, ...). The names of
//! an enum's codes come from the parameter's own description where it pairs them (`ON -
//! Ontario`, `Ontario (ON)`, `ON: Ontario`), else from the well-known list that covers most of
//! the enum's values: ISO 3166-1 countries (alpha-2 and alpha-3, `isocountry`, with the common
//! English names of [`crate::search::text::COUNTRY_NAMES`]), ISO 639-1 languages (`isolang`),
//! and the ISO 3166-2 subdivisions of the data file `subdivisions.txt` (states, provinces,
//! territories). A list names an enum's codes only when it covers at least half of them, so
//! "canada" never gives `CA` to an enum of US states. The enum's own value is bound, as written.

use super::profile::Profile;
use crate::model::Scalar;
use crate::route::bind;
use crate::search::spans;
use crate::search::text::COUNTRY_NAMES;
use isocountry::CountryCode;
use regex::Regex;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The ISO 3166-2 subdivisions with their names (`CODE<TAB>name` lines; `#` comments).
pub(super) const SUBDIVISIONS: &str = include_str!("subdivisions.txt");

/// Longest code an enum value may be to count as a code (`NSW`, `US-CA`).
const MAX_CODE: usize = 6;

/// Most words of a name looked up (`newfoundland and labrador`).
const MAX_NAME_WORDS: usize = 4;

/// The enum's values that are codes, upper case, with their index in the enum; `None` when any
/// string value is no code (words, long values) or there are none.
fn codes_of(values: &[Scalar]) -> Option<Vec<(String, usize)>> {
    let mut out = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let Scalar::String(s) = v else { return None };
        let code = s.len() >= 2
            && s.len() <= MAX_CODE
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && s.chars().any(|c| c.is_ascii_alphabetic());
        if !code {
            return None;
        }
        out.push((s.to_ascii_uppercase(), i));
    }
    (!out.is_empty()).then_some(out)
}

/// Name -> code pairs the description writes: `ON - Ontario`, `ON: Ontario`, `ON = Ontario`,
/// `Ontario (ON)`; names lower case, codes upper case.
fn described_pairs(description: &str) -> Vec<(String, String)> {
    static RE: OnceLock<(Regex, Regex)> = OnceLock::new();
    let (code_first, name_first) = RE.get_or_init(|| {
        (
            Regex::new(r"\b([A-Za-z0-9-]{2,6})\s*(?:[-:=–—]|->)\s*([A-Za-zÀ-ÿ][A-Za-zÀ-ÿ .'’]*[A-Za-zÀ-ÿ])")
                .expect("regex"),
            Regex::new(r"([A-Za-zÀ-ÿ][A-Za-zÀ-ÿ .'’]*[A-Za-zÀ-ÿ])\s*\(([A-Za-z0-9-]{2,6})\)")
                .expect("regex"),
        )
    });
    let mut out = Vec::new();
    for c in code_first.captures_iter(description) {
        out.push((c[2].trim().to_lowercase(), c[1].to_ascii_uppercase()));
    }
    for c in name_first.captures_iter(description) {
        // The name is the last words before the parenthesis ("provinces such as Ontario (ON)").
        let words: Vec<&str> = c[1].split_whitespace().collect();
        for n in 1..=MAX_NAME_WORDS.min(words.len()) {
            let name = words[words.len() - n..].join(" ").to_lowercase();
            out.push((name, c[2].to_ascii_uppercase()));
        }
    }
    out
}

/// The names of a well-known list, each with its code (upper case) and the other code forms
/// an enum may write it in (a subdivision's code without its country prefix).
type List = Vec<(String, Vec<String>)>;

/// The well-known lists of codes: countries and subdivisions (languages: [`languages_of`]).
fn lists() -> &'static [List] {
    static LISTS: OnceLock<Vec<List>> = OnceLock::new();
    LISTS.get_or_init(|| {
        let mut countries: List = Vec::new();
        for c in CountryCode::iter() {
            let codes = vec![c.alpha2().to_string(), c.alpha3().to_string()];
            let name = c.name().to_lowercase();
            let short = super::codes::short_name(&name);
            if short != name {
                countries.push((short, codes.clone()));
            }
            countries.push((name, codes));
        }
        for (name, code) in COUNTRY_NAMES {
            let codes = CountryCode::for_alpha2(code)
                .map(|c| vec![c.alpha2().to_string(), c.alpha3().to_string()])
                .unwrap_or_else(|_| vec![code.to_string()]);
            countries.push((name.to_string(), codes));
        }
        let mut subdivisions: List = Vec::new();
        for line in SUBDIVISIONS.lines() {
            let Some((code, name)) = line.split_once('\t') else {
                continue;
            };
            if line.starts_with('#') {
                continue;
            }
            let short = code.split_once('-').map_or(code, |(_, s)| s);
            subdivisions.push((name.trim().to_string(), vec![code.into(), short.into()]));
        }
        vec![countries, subdivisions]
    })
}

/// The ISO 639-1 languages among `codes`, by their English names (isolang reads a code, so the
/// list is the enum's own).
fn languages_of(codes: &[(String, usize)]) -> List {
    codes
        .iter()
        .filter(|(c, _)| c.len() == 2)
        .filter_map(|(c, _)| isolang::Language::from_639_1(&c.to_lowercase()))
        .filter_map(|l| {
            Some((
                l.to_name().to_lowercase(),
                vec![l.to_639_1()?.to_uppercase()],
            ))
        })
        .collect()
}

/// Name -> enum index for `codes`: the description's pairs, else the well-known list covering
/// the most of the enum's codes (at least half of them).
fn names_for(pr: &Profile, codes: &[(String, usize)]) -> Vec<(String, usize)> {
    let index = |code: &str| codes.iter().find(|(c, _)| c == code).map(|&(_, i)| i);
    let described: Vec<(String, usize)> =
        described_pairs(pr.p.description.as_deref().unwrap_or(""))
            .into_iter()
            .filter_map(|(n, c)| index(&c).map(|i| (n, i)))
            .collect();
    if !described.is_empty() {
        return described;
    }
    let languages = languages_of(codes);
    let mut best: Option<(usize, &List)> = None;
    for list in lists().iter().chain([&languages]) {
        let covered = codes
            .iter()
            .filter(|(c, _)| list.iter().any(|(_, forms)| forms.contains(c)))
            .count();
        if covered * 2 >= codes.len() && best.is_none_or(|(n, _)| covered > n) {
            best = Some((covered, list));
        }
    }
    let Some((_, list)) = best else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|(name, forms)| {
            forms
                .iter()
                .find_map(|f| index(f))
                .map(|i| (name.clone(), i))
        })
        .collect()
}

/// Fill each open enum of codes whose code the question gives by name (the first name, the
/// longest run of words); returns the byte ranges of the names so used (no other value).
pub(super) fn pass(
    question: &str,
    open: &[Profile],
    params: &mut BTreeMap<String, Value>,
) -> Vec<(usize, usize)> {
    let mut used = Vec::new();
    let (toks, words) = spans::lower_words(question);
    for pr in open {
        if params.contains_key(&pr.p.name) || pr.p.enum_values.is_empty() {
            continue;
        }
        let Some(codes) = codes_of(&pr.p.enum_values) else {
            continue;
        };
        let names = names_for(pr, &codes);
        if names.is_empty() {
            continue;
        }
        let found = (0..words.len()).find_map(|i| {
            (1..=MAX_NAME_WORDS.min(words.len() - i))
                .rev()
                .find_map(|n| {
                    let phrase = words[i..i + n].join(" ");
                    names
                        .iter()
                        .find(|(name, _)| *name == phrase)
                        .map(|&(_, idx)| (idx, (toks[i].0, toks[i + n - 1].1)))
                })
        });
        let Some((idx, at)) = found else { continue };
        let v = bind::scalar_json(&pr.p.enum_values[idx]);
        if bind::value_is_valid(pr.p, &v) {
            params.insert(pr.p.name.clone(), v);
            used.push(at);
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    fn coded(
        url: &str,
        name: &str,
        values: &[&str],
        description: Option<&str>,
    ) -> crate::artifact::EndpointData {
        let mut e = endpoint(url, &[(name, "query")]);
        e.parameters[0].enum_values = values
            .iter()
            .map(|v| Scalar::String(v.to_string()))
            .collect();
        e.parameters[0].description = description.map(str::to_string);
        e
    }

    #[test]
    fn a_subdivision_named_gives_its_code() {
        let provinces = [
            "AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT",
        ];
        let e = coded("https://x.test/holidays", "province", &provinces, None);
        assert_eq!(
            filled(&e, "holidays in Ontario", &["holiday"]),
            strings(&[("province", "ON")])
        );
        assert_eq!(
            filled(
                &e,
                "statutory holidays of british columbia in 2025",
                &["holiday"]
            ),
            strings(&[("province", "BC")])
        );
        let states = coded(
            "https://x.test/legislators",
            "state",
            &["al", "ak", "ca", "ny", "tx", "wa"],
            None,
        );
        assert_eq!(
            filled(&states, "who represents new york", &["repres"]),
            strings(&[("state", "ny")])
        );
        // "canada" is no state: the country list covers too few of the states' codes.
        assert!(filled(&states, "legislators in canada", &["legisl"]).is_empty());
        let au = coded(
            "https://x.test/events",
            "region",
            &["NSW", "VIC", "QLD", "WA", "SA", "TAS"],
            None,
        );
        assert_eq!(
            filled(&au, "events in new south wales", &["event"]),
            strings(&[("region", "NSW")])
        );
    }

    #[test]
    fn a_country_or_language_enum_named_gives_its_code() {
        let e = coded(
            "https://x.test/charts",
            "market",
            &["US", "GB", "JP", "DE", "FR"],
            None,
        );
        assert_eq!(
            filled(&e, "top charts in japan", &["chart"]),
            strings(&[("market", "JP")])
        );
        let e = coded(
            "https://x.test/stats",
            "iso",
            &["USA", "DEU", "FRA", "ITA"],
            None,
        );
        assert_eq!(
            filled(&e, "cases in germany", &["case"]),
            strings(&[("iso", "DEU")])
        );
        let e = coded(
            "https://x.test/words",
            "lang",
            &["en", "fr", "es", "de"],
            None,
        );
        assert_eq!(
            filled(&e, "words in spanish", &["word"]),
            strings(&[("lang", "es")])
        );
    }

    #[test]
    fn the_description_pairs_codes_with_names() {
        let e = coded(
            "https://x.test/jobs",
            "level",
            &["JR", "MID", "SR"],
            Some("Seniority: JR - junior, MID - intermediate, SR - senior"),
        );
        assert_eq!(
            filled(&e, "senior rust jobs", &["job", "rust"]),
            strings(&[("level", "SR")])
        );
        let e = coded(
            "https://x.test/rates",
            "zone",
            &["EU", "NA"],
            Some("The zone: Europe (EU) or North America (NA)"),
        );
        assert_eq!(
            filled(&e, "rates in north america", &["rate"]),
            strings(&[("zone", "NA")])
        );
        // An enum of words is no enum of codes.
        let e = coded("https://x.test/x", "sort", &["newest", "oldest"], None);
        assert!(filled(&e, "news in japan", &["news"]).is_empty());
    }
}
