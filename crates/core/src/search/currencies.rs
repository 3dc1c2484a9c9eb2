//! Currencies a question names in words ("euros", "Japanese yen", "pounds sterling") or by
//! their ISO 4217 code next to an amount ("250 USD"), read by the search and by the route's
//! `currencies` fill pass.
//!
//! A question that names a currency is about currencies, though it may write no word a catalog
//! indexes ("How much is 250 euros in yen?"): [`super::Query::new`] adds the stem of
//! "currency" as an implied term ([`super::Query::implied_terms`]). [`implied`] gives the ranges that
//! imply it: none when every currency named is also a unit of measure or another word ("5
//! pounds into kilograms", "is it real": `also-word` in the data file).
//!
//! The names are the ISO 4217 English names of the `iso_currency` crate (without funds,
//! special units and superseded codes), each also by its last word when no other currency
//! shares it ("yen", "baht"), plus the common names in `currency_names.txt` (language data,
//! not any catalog's). A question's words are read singular ("euros", "pounds sterling").

use iso_currency::{Currency, IntoEnumIterator};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The most words a currency's name takes ("trinidad and tobago dollar").
const LONGEST: usize = 5;

/// Words between two currencies that make them a pair ("USD to EUR", "EUR vs GBP").
const CONNECTORS: &[&str] = &["and", "from", "in", "into", "per", "to", "versus", "vs"];

/// The data file, declared beside this module.
const DATA: &str = include_str!("currency_names.txt");

/// The data file's lines without comments and blank lines.
fn data_lines() -> impl Iterator<Item = &'static str> {
    DATA.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
}

/// Currency names that are also units of measure or other words (`also-word` lines: "pound",
/// "real").
fn also_words() -> impl Iterator<Item = &'static str> {
    data_lines()
        .filter_map(|l| l.strip_prefix("also-word "))
        .flat_map(str::split_whitespace)
}

/// Byte ranges of the currencies `question` names that make it a question about currencies:
/// every currency name and every code of [`codes`]; none when each name is also a unit of
/// measure or another word (`also-word`) and no code or other currency is named.
pub fn implied(question: &str) -> Vec<(usize, usize)> {
    let names = named(question);
    // The codes are read beside the names found once (a pair across a connector needs them).
    let codes = codes_beside(question, &names);
    let mut found: Vec<(usize, usize, bool)> = names
        .iter()
        .map(|&(s, e, _)| {
            let word = question[s..e].to_lowercase();
            let other = also_words().any(|u| word == u || singular(&word) == u);
            (s, e, other)
        })
        .chain(codes.into_iter().map(|(s, e, _)| (s, e, false)))
        .collect();
    if found.iter().all(|f| f.2) {
        return Vec::new();
    }
    found.sort();
    found.into_iter().map(|(s, e, _)| (s, e)).collect()
}

/// The upper-case ISO 4217 codes `question` writes as currencies: next to a number ("250
/// USD", "EUR 40") or paired with another currency, adjacent ("USD/EUR") or across a
/// connecting word ("USD to EUR", "yen in USD"). A code alone is as often an acronym ("ALL",
/// "TOP"). Byte range and code, in text order.
pub fn codes(question: &str) -> Vec<(usize, usize, &'static str)> {
    codes_beside(question, &named(question))
}

/// [`codes`] with the currencies `question` names given (`names`, what [`named`] gives), so that
/// a caller that reads them too reads them once.
fn codes_beside(
    question: &str,
    names: &[(usize, usize, &'static str)],
) -> Vec<(usize, usize, &'static str)> {
    let (toks, _) = super::spans::lower_words(question);
    let numeric = |i: usize| {
        toks.get(i).is_some_and(|&(a, b)| {
            question[a..b]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
    };
    let coded: Vec<(usize, &'static str)> = (0..toks.len())
        .filter_map(|i| {
            let w = &question[toks[i].0..toks[i].1];
            let c = Currency::from_code(w)?;
            (w.len() == 3
                && w.chars().all(|c| c.is_ascii_uppercase())
                && !c.is_fund()
                && !c.is_special())
            .then(|| (i, c.code()))
        })
        .collect();
    // Token indices of every currency: the names' first words, and the codes.
    let mut at: Vec<usize> = names
        .iter()
        .filter_map(|n| toks.iter().position(|t| t.0 == n.0))
        .chain(coded.iter().map(|c| c.0))
        .collect();
    at.sort_unstable();
    let connector =
        |i: usize| CONNECTORS.contains(&question[toks[i].0..toks[i].1].to_lowercase().as_str());
    let paired = |i: usize| {
        at.iter().any(|&j| {
            let (a, b) = (i.min(j), i.max(j));
            b == a + 1 || (b == a + 2 && connector(a + 1))
        })
    };
    coded
        .into_iter()
        .filter(|&(i, _)| numeric(i + 1) || i.checked_sub(1).is_some_and(numeric) || paired(i))
        .map(|(i, code)| (toks[i].0, toks[i].1, code))
        .collect()
}

/// The currencies `question` names: byte range and ISO 4217 code, in text order.
pub fn named(question: &str) -> Vec<(usize, usize, &'static str)> {
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
        for line in data_lines() {
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
    use super::*;

    fn words(q: &str) -> Vec<&str> {
        implied(q).into_iter().map(|(s, e)| &q[s..e]).collect()
    }

    #[test]
    fn common_names_are_read() {
        let codes = |q: &str| -> Vec<&str> { named(q).into_iter().map(|n| n.2).collect() };
        assert_eq!(codes("100 Swedish crowns in Danish crowns"), ["SEK", "DKK"]);
        assert_eq!(codes("fifty quid in roubles"), ["GBP", "RUB"]);
        assert_eq!(codes("a few bucks in Brazilian real"), ["USD", "BRL"]);
    }

    #[test]
    fn named_currencies_imply_currency() {
        assert_eq!(words("How much is 250 euros in yen?"), ["euros", "yen"]);
        assert_eq!(words("Convert 100 USD to EUR"), ["USD", "EUR"]);
        assert_eq!(words("What is 40 GBP worth"), ["GBP"]);
        assert_eq!(words("convert 5 pounds to dollars"), ["pounds", "dollars"]);
        // A currency name that is also a unit, alone, is the unit.
        assert_eq!(words("5 pounds into kilograms"), Vec::<&str>::new());
        // An upper-case code alone, away from an amount, is an acronym ("ALL", "TOP").
        assert_eq!(words("Show ALL the TOP stories"), Vec::<&str>::new());
        assert_eq!(
            words("USD/EUR and EUR vs GBP"),
            ["USD", "EUR", "EUR", "GBP"]
        );
        assert_eq!(words("Who directed Blade Runner?"), Vec::<&str>::new());
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
