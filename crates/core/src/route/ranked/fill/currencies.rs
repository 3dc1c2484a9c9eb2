//! Pass `currencies`: a currency the question names by its name ("from euros to Japanese
//! yen", "in pounds sterling", "Swiss francs") becomes an `Id` span of its ISO 4217 code (`EUR`,
//! `JPY`, `GBP`, `CHF`), for an endpoint with a parameter that takes a currency (named
//! `currency`, or described as a currency or an ISO 4217 code). The `typed` pass then places
//! each code as it places a code the question writes, `direction` choosing the start and the end
//! ("from EUR to JPY").
//!
//! The names are read by [`crate::search::currencies`] (ISO 4217 names, their last words and
//! the common names of `currency_names.txt`), which the search also reads: a question that
//! names a currency is about currencies.

use super::profile::Profile;
use crate::search::currencies::{codes, named};
use crate::search::spans::{Span, SpanKind, span_at};

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
    let mut found = named(question);
    // A code the question writes is an id already, but as an amount's unit ("100 USD"); a pair
    // written as one value ("EUR/USD") stays one.
    found.extend(codes(question).into_iter().filter(|c| {
        spans
            .iter()
            .any(|s| s.kind == SpanKind::Number && s.start < c.0 && c.0 < s.end)
    }));
    let added: Vec<Span> = found
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
    // An amount written before its currency ("250 euros", "100 USD") stays an amount, measured
    // in the currency (its unit, as "2 cups" is an amount for `sourceAmount`); any other span
    // inside a currency's words goes.
    for s in spans.iter_mut() {
        if s.kind != SpanKind::Number {
            continue;
        }
        if let Some(a) = added.iter().find(|a| s.start < a.start && a.start < s.end) {
            s.end = s.start + question[s.start..a.start].trim_end().len();
            s.after =
                crate::search::spans::span_at(question, SpanKind::Number, s.start, s.end).after;
        }
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
        .chain(codes(question))
        .map(|(s, e, _)| (s, e))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use serde_json::Value;
    use std::collections::BTreeMap;

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
    fn an_amount_before_its_currency_stays_an_amount() {
        let mut e = endpoint(
            "https://x.test/currency-conversion",
            &[
                ("currency_from", "query"),
                ("currency_to", "query"),
                ("amount", "query"),
            ],
        );
        e.parameters[2].ty = "integer".into();
        e.parameters[2].description = Some("Optional, an amount you are wanting to convert".into());
        for q in [
            "How much is 100 AUD in NZD?",
            "Convert 100 Australian dollars to NZD",
        ] {
            let got = filled(&e, q, &["convert", "amount"]);
            assert_eq!(
                got,
                BTreeMap::from([
                    ("amount".to_string(), Value::from(100)),
                    ("currency_from".to_string(), Value::from("AUD")),
                    ("currency_to".to_string(), Value::from("NZD")),
                ]),
                "{q}"
            );
        }
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
}
