//! Pass `currencies`: a currency the question names by its name ("from euros to Japanese
//! yen", "in pounds sterling", "Swiss francs") becomes an `Id` span of its ISO 4217 code (`EUR`,
//! `JPY`, `GBP`, `CHF`), for an endpoint with a parameter that takes a currency (named
//! `currency`, or described as a currency or an ISO 4217 code). The `typed` pass then places
//! each code as it places a code the question writes, `direction` choosing the start and the end
//! ("from EUR to JPY").
//!
//! The names are the ISO 4217 English names of the `iso_currency` crate (without funds,
//! special units and superseded codes), each also by its last word when no other currency
//! shares it ("yen", "baht"), plus the common names in `currency_names.txt`. A question's
//! words are read singular ("euros", "pounds sterling").

use super::profile::Profile;
use crate::search::spans::{Span, SpanKind, span_at};
use iso_currency::{Currency, IntoEnumIterator};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The most words a currency's name takes ("trinidad and tobago dollar").
const LONGEST: usize = 5;

/// Whether a parameter takes a currency: its name says `currency` (`base_currency`,
/// `currencies`), or its description speaks of a currency or of ISO 4217.
fn takes_currency(pr: &Profile) -> bool {
    if pr.numeric {
        return false;
    }
    pr.named(&["currency", "currencies"]) || pr.described(&["currency", "currencies", "4217"])
}

/// Add an `Id` span with the ISO 4217 code for every currency name the question writes,
/// replacing the spans inside it (the object "euros", the unknown word "yen"); nothing when
/// no open parameter takes a currency.
pub(super) fn add(question: &str, open: &[Profile], spans: &mut Vec<Span>) {
    if !open.iter().any(takes_currency) {
        return;
    }
    let added: Vec<Span> = named(question)
        .into_iter()
        .map(|(start, end, code)| {
            let mut s = span_at(question, SpanKind::Id, start, end);
            s.value = code.to_string();
            s
        })
        .collect();
    if added.is_empty() {
        return;
    }
    spans.retain(|s| !added.iter().any(|a| s.start < a.end && a.start < s.end));
    spans.extend(added);
    spans.sort_by_key(|s| (s.start, s.end));
}

/// Byte ranges of the currencies `question` names, when a parameter of `open` takes one: values
/// the endpoint knows.
pub(super) fn ranges(question: &str, open: &[Profile]) -> Vec<(usize, usize)> {
    if !open.iter().any(takes_currency) {
        return Vec::new();
    }
    named(question)
        .into_iter()
        .map(|(s, e, _)| (s, e))
        .collect()
}

/// The currencies `question` names: byte range and ISO 4217 code, in text order.
fn named(question: &str) -> Vec<(usize, usize, &'static str)> {
    let (toks, words) = crate::search::spans::lower_words(question);
    let singular: Vec<String> = words.iter().map(|w| singular(w)).collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let hit = (1..=LONGEST.min(words.len() - i)).rev().find_map(|n| {
            // Only the last word of a name is plural ("pounds sterling" reads the first).
            let plain = words[i..i + n].join(" ");
            let read = singular[i..i + n].join(" ");
            currency(&plain)
                .or_else(|| currency(&read))
                .or_else(|| {
                    (n == 2)
                        .then(|| currency(&format!("{} {}", singular[i], words[i + 1])))
                        .flatten()
                })
                .map(|c| (n, c))
        });
        match hit {
            Some((n, code)) => {
                found.push((toks[i].0, toks[i + n - 1].1, code));
                i += n;
            }
            None => i += 1,
        }
    }
    found
}

/// A word without its plural ending ("euros", "francs", "pesos"); "swiss" and short words stay.
fn singular(w: &str) -> String {
    match w.strip_suffix('s') {
        Some(stem) if w.len() > 3 && !stem.ends_with('s') => stem.to_string(),
        _ => w.to_string(),
    }
}

/// The ISO 4217 code of the currency `name` (lower case) names, if exactly one.
fn currency(name: &str) -> Option<&'static str> {
    names().get(name).copied().flatten()
}

/// Every currency name in lower case with its code; `None` for a name two currencies share
/// ("won": North and South Korean). Built once.
fn names() -> &'static HashMap<String, Option<&'static str>> {
    static NAMES: OnceLock<HashMap<String, Option<&'static str>>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut iso: HashMap<String, Option<&'static str>> = HashMap::new();
        let add = |names: &mut HashMap<String, Option<&'static str>>, n: String, code| match names
            .get(&n)
        {
            Some(Some(c)) if *c != code => {
                names.insert(n, None);
            }
            Some(_) => {}
            None => {
                names.insert(n, Some(code));
            }
        };
        for c in Currency::iter() {
            if c.is_fund() || c.is_special() || c.is_superseded().is_some() {
                continue;
            }
            let code = c.code();
            for name in forms(c.name()) {
                if let Some(head) = name.rsplit(' ').next().filter(|h| *h != name) {
                    add(&mut iso, head.to_string(), code);
                }
                add(&mut iso, name, code);
            }
        }
        // The common names come first: "dollar" is the US dollar, whatever else shares it.
        let mut names: HashMap<String, Option<&'static str>> = HashMap::new();
        for line in crate::route::data_lines(include_str!("currency_names.txt")) {
            if let Some((name, code)) = line.rsplit_once(' ')
                && let Some(c) = Currency::from_code(code)
            {
                names.insert(name.to_string(), Some(c.code()));
            }
        }
        for (n, c) in iso {
            names.entry(n).or_insert(c);
        }
        names
    })
}

/// The lower-case forms of an ISO 4217 name: as written, without a parenthesis ("renminbi
/// yuan" of "Renminbi (Chinese) yuan"), with its parenthesis' words ("renminbi chinese yuan"),
/// each of a pair written with a slash ("swedish krona", "swedish kronor").
fn forms(name: &str) -> Vec<String> {
    let lower = name.to_lowercase();
    let mut out = Vec::new();
    let without: String = {
        let mut depth = 0;
        lower
            .chars()
            .filter(|c| {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                depth == 0 && *c != ')'
            })
            .collect()
    };
    let flat = lower.replace(['(', ')'], "");
    for n in [without, flat] {
        let n = n.split_whitespace().collect::<Vec<_>>().join(" ");
        match n.split_once('/') {
            Some((a, b)) => {
                // "swedish krona/kronor": the words before the last one, then each ending.
                let stem = a.rsplit_once(' ').map_or("", |(s, _)| s);
                out.push(a.to_string());
                out.push(format!("{stem} {b}").trim().to_string());
            }
            None => out.push(n),
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    fn codes(q: &str) -> Vec<(String, String)> {
        let e = endpoint(
            "https://x.test/pair/{base_currency}/{target_currency}",
            &[("base_currency", "path"), ("target_currency", "path")],
        );
        let open: Vec<Profile> = e
            .parameters
            .iter()
            .map(|p| Profile::of(p, &e.url))
            .collect();
        let mut spans = crate::search::spans::spans(q);
        add(q, &open, &mut spans);
        spans
            .into_iter()
            .filter(|s| s.kind == SpanKind::Id)
            .map(|s| (q[s.start..s.end].to_string(), s.value))
            .collect()
    }

    #[test]
    fn currency_names_become_iso_codes() {
        assert_eq!(
            codes("What is the exchange rate from euros to Japanese yen today?"),
            [
                ("euros".into(), "EUR".into()),
                ("Japanese yen".into(), "JPY".into())
            ]
        );
        assert_eq!(
            codes("convert 20 pounds sterling into Swiss francs"),
            [
                ("pounds sterling".into(), "GBP".into()),
                ("Swiss francs".into(), "CHF".into())
            ]
        );
        assert_eq!(
            codes("how many Thai baht for a US dollar"),
            [
                ("Thai baht".into(), "THB".into()),
                ("US dollar".into(), "USD".into())
            ]
        );
        assert_eq!(
            codes("rupees to swedish kronor"),
            [("swedish kronor".into(), "SEK".into())]
        );
        // A name two currencies share names neither: "won" is North or South Korean.
        assert_eq!(codes("yen to won"), [("yen".into(), "JPY".into())]);
        assert_eq!(
            codes("yuan to baht"),
            [("yuan".into(), "CNY".into()), ("baht".into(), "THB".into())]
        );
    }

    #[test]
    fn no_currency_parameter_no_currency() {
        let e = endpoint("https://x.test/convert", &[("weight", "query")]);
        let open: Vec<Profile> = e
            .parameters
            .iter()
            .map(|p| Profile::of(p, &e.url))
            .collect();
        let q = "5 pounds into kilograms";
        let mut spans = crate::search::spans::spans(q);
        let before = spans.clone();
        add(q, &open, &mut spans);
        assert_eq!(spans, before);
    }

    #[test]
    fn iso_forms() {
        assert_eq!(
            forms("Renminbi (Chinese) yuan"),
            ["renminbi chinese yuan", "renminbi yuan"]
        );
        assert_eq!(
            forms("Swedish krona/kronor"),
            ["swedish krona", "swedish kronor"]
        );
    }
}
