//! Pass `places`: a city written with its country or state code after it ("in berlin de",
//! "paris fr", "london, uk", "seattle, wa") fills a city parameter with the city as written and
//! a country parameter (or, when the code names no country or no country parameter is open, a
//! state parameter) with the code as written (`uk` as the `codes` pass writes it: `GB`), for an endpoint that asks for both apart. The codes are the
//! ISO 3166-1 alpha-2 countries and the ISO 3166-2:US states (standard lists, no domain's).

use super::profile::Profile;
use super::words::{ID_WORDS, PLACE_CUES};
use crate::search::spans;
use isocountry::CountryCode;
use serde_json::Value;
use std::collections::BTreeMap;

/// ISO 3166-2:US subdivision codes (the states, DC and the territories), lower case.
const US_STATES: &[&str] = &[
    "ak", "al", "ar", "as", "az", "ca", "co", "ct", "dc", "de", "fl", "ga", "gu", "hi", "ia", "id",
    "il", "in", "ks", "ky", "la", "ma", "md", "me", "mi", "mn", "mo", "mp", "ms", "mt", "nc", "nd",
    "ne", "nh", "nj", "nm", "nv", "ny", "oh", "ok", "or", "pa", "pr", "ri", "sc", "sd", "tn", "tx",
    "ut", "va", "vi", "vt", "wa", "wi", "wv", "wy",
];

/// Most words a city's name holds ("salt lake city", "rio de janeiro").
const MAX_CITY_WORDS: usize = 3;

/// Fill a city and its country or state code; returns the byte range of the words used.
pub(super) fn pass(
    question: &str,
    open: &[Profile],
    params: &mut BTreeMap<String, Value>,
) -> Vec<(usize, usize)> {
    let free = |list: &[&str]| {
        open.iter().find(|pr| {
            !params.contains_key(&pr.p.name)
                && !pr.numeric
                && pr.named(list)
                && !pr.named(ID_WORDS)
                && pr.p.enum_values.is_empty()
        })
    };
    let city = free(&["city", "town"]);
    let country = free(&["country"]);
    let state = free(&["state", "province"]);
    let Some(city) = city else {
        return Vec::new();
    };
    if country.is_none() && state.is_none() {
        return Vec::new();
    }
    let toks = spans::word_tokens(question);
    let word = |i: usize| question[toks[i].0..toks[i].1].to_lowercase();
    for i in 1..toks.len() {
        let code = word(i);
        if code.len() != 2 || !code.chars().all(|c| c.is_ascii_alphabetic()) {
            continue;
        }
        // A code that is also an English word ("is", "in", "us") counts only in upper case or
        // after a city a place word introduces.
        let wordlike = spans::is_function_word(&code);
        if wordlike
            && code != "us"
            && !question[toks[i].0..toks[i].1]
                .chars()
                .all(|c| c.is_ascii_uppercase())
        {
            continue;
        }
        // `uk` is reserved in ISO 3166-1 for the United Kingdom and written by everyone.
        let is_country = CountryCode::for_alpha2_caseless(&code).is_ok() || code == "uk";
        let is_state = US_STATES.contains(&code.as_str());
        let taker = match (country, state) {
            (Some(c), _) if is_country => c,
            (_, Some(s)) if is_state => s,
            _ => continue,
        };
        // The code ends the place: the question ends, or punctuation or a function word follows.
        let ends = i + 1 == toks.len()
            || !question[toks[i].1..toks[i + 1].0].trim().is_empty()
            || spans::is_function_word(&word(i + 1));
        if !ends {
            continue;
        }
        // The city: up to three words right before the code (a comma between them at most),
        // after a place word ("in", "at", "for") or the start of a clause.
        let mut first = i;
        while first > 0 && i - first < MAX_CITY_WORDS {
            let gap = &question[toks[first - 1].1..toks[first].0];
            let w = word(first - 1);
            if (first < i && !gap.trim().is_empty())
                || (first == i && !matches!(gap.trim(), "" | ","))
                || spans::is_function_word(&w)
                || !w.chars().all(char::is_alphabetic)
            {
                break;
            }
            first -= 1;
        }
        if first == i {
            continue;
        }
        let cued = if first == 0 {
            !wordlike
        } else {
            let w = word(first - 1);
            PLACE_CUES.contains(&w.as_str()) || w == "for"
        };
        if !cued {
            continue;
        }
        let name = &question[toks[first].0..toks[i - 1].1];
        params.insert(city.p.name.clone(), Value::from(name));
        // `uk` is no alpha-2 code (`GB` is): the `codes` pass writes it as the parameter
        // takes it.
        if code == "uk" {
            return vec![(toks[first].0, toks[i - 1].1)];
        }
        let written = &question[toks[i].0..toks[i].1];
        params.insert(taker.p.name.clone(), Value::from(written));
        return vec![(toks[first].0, toks[i].1)];
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn a_city_and_its_code_fill_city_and_country_apart() {
        let e = endpoint(
            "https://x.test/current/airquality",
            &[("city", "query"), ("country", "query"), ("state", "query")],
        );
        let known = ["air", "qualiti", "index", "weather", "hot", "feel"];
        for (q, city, cc) in [
            (
                "what is the air quality index in berlin de right now",
                "berlin",
                "de",
            ),
            (
                "how hot does it feel outside in miami us right now",
                "miami",
                "us",
            ),
            ("air quality in Paris FR", "Paris", "FR"),
            ("weather for london, uk today", "london", "GB"),
            ("air quality in rio de janeiro br", "rio de janeiro", "br"),
        ] {
            assert_eq!(
                filled(&e, q, &known),
                strings(&[("city", city), ("country", cc)]),
                "{q}"
            );
        }
    }

    #[test]
    fn a_state_code_fills_the_state_when_no_country_is_asked() {
        let e = endpoint(
            "https://x.test/listings",
            &[("city", "query"), ("state", "query")],
        );
        let known = ["rental", "list", "activ", "bedroom"];
        assert_eq!(
            filled(&e, "show active rental listings in seattle, wa", &known),
            strings(&[("city", "seattle"), ("state", "wa")])
        );
        // No code after the city: this pass binds nothing (the others may).
        let got = filled(&e, "rental listings in seattle with 3 bedrooms", &known);
        assert_eq!(got.get("state"), None);
    }
}
