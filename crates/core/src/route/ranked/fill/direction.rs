//! Direction words: of two values of one kind ("from USD to EUR", "EUR from USD", "base USD",
//! "JFK to LAX"), which one goes to the parameter of the start (`from`, `base`, `source`,
//! `origin`) and which to the parameter of the end (`to`, `target`, `destination`). The words
//! around a value say its end, not the order of the values: [`super::typed::fit`] gives a value
//! the parameter of its own end and never the other's.

use super::profile::Profile;
use crate::search::spans::{Span, SpanKind};

/// One end of a way or a conversion.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum End {
    /// Where it starts (`from`, `base`, `source`).
    Start,
    /// Where it ends (`to`, `target`, `destination`).
    Finish,
}

/// Parameter-name words of the start of a way or a conversion.
const START_NAMES: &[&str] = &["base", "from", "origin", "orig", "source", "src"];
/// Parameter-name words of the end of a way or a conversion.
const FINISH_NAMES: &[&str] = &["dest", "destination", "target", "to", "into"];
/// Words right before a value that make it the start ("from USD", "base USD").
const START_CUES: &[&str] = &["base", "from", "source", "origin"];
/// Words right before a value that make it the end ("to EUR", "into yen").
const FINISH_CUES: &[&str] = &["to", "into", "target", "destination"];

/// The end a parameter's name says it takes, if any (`base_currency`, `from`, `to_station`).
pub(super) fn param_end(pr: &Profile) -> Option<End> {
    if pr.named(START_NAMES) {
        Some(End::Start)
    } else if pr.named(FINISH_NAMES) {
        Some(End::Finish)
    } else {
        None
    }
}

/// The end the words around a span say it is, if any: the word right before it ("from USD",
/// "to EUR"); a code or a number written right before "to" or "into" ("USD to EUR") is the
/// start (a word is not: "3 tablespoons of sugar into ounces").
pub(super) fn span_end(s: &Span) -> Option<End> {
    let last = s.before.last().map(String::as_str);
    let next = s.after.first().map(String::as_str);
    if last.is_some_and(|w| START_CUES.contains(&w)) {
        Some(End::Start)
    } else if last.is_some_and(|w| FINISH_CUES.contains(&w)) {
        Some(End::Finish)
    } else if matches!(s.kind, SpanKind::Id | SpanKind::Number)
        && next.is_some_and(|w| matches!(w, "to" | "into"))
    {
        Some(End::Start)
    } else {
        None
    }
}

/// A fit `base` adjusted by the ends both say: the same end adds, the other end rules the
/// value out.
pub(super) fn directed(pr: &Profile, s: &Span, base: f64) -> f64 {
    match (param_end(pr), span_end(s)) {
        (Some(p), Some(q)) if p == q => base + 3.0,
        (Some(_), Some(_)) => 0.0,
        _ => base,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn a_value_goes_to_the_parameter_of_its_end_whatever_the_order() {
        let mut one = endpoint(
            "https://x.test/latest/{base_currency}",
            &[("base_currency", "path")],
        );
        one.parameters[0].description = Some(
            "**Base Currency**. *Example: USD*. You an use any of the ISO 4217 currency codes"
                .into(),
        );
        let known = ["exchang", "rate", "latest"];
        for q in [
            "exchange rate from USD to EUR",
            "USD to EUR exchange rate",
            "EUR exchange rate from USD",
            "latest rates with base USD",
        ] {
            assert_eq!(
                filled(&one, q, &known),
                strings(&[("base_currency", "USD")]),
                "{q}"
            );
            // The endpoint ranked for "USD" too (its description's example).
            assert_eq!(
                filled_for(
                    &one,
                    q,
                    &["exchang", "rate", "usd"],
                    &["exchang", "rate", "usd"]
                ),
                strings(&[("base_currency", "USD")]),
                "{q}"
            );
        }
        let two = endpoint(
            "https://x.test/convert",
            &[("from", "query"), ("to", "query")],
        );
        for q in [
            "convert from USD to EUR",
            "convert to EUR from USD",
            "convert USD to EUR",
        ] {
            assert_eq!(
                filled(&two, q, &["convert"]),
                strings(&[("from", "USD"), ("to", "EUR")]),
                "{q}"
            );
        }
        let stations = endpoint(
            "https://x.test/journey",
            &[("origin", "query"), ("destination", "query")],
        );
        for q in [
            "flights from JFK to LAX",
            "flights to LAX from JFK",
            "JFK to LAX flights",
        ] {
            assert_eq!(
                filled(&stations, q, &["flight"]),
                strings(&[("origin", "JFK"), ("destination", "LAX")]),
                "{q}"
            );
        }
    }
}
