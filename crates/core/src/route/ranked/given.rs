//! The values a question gives as evidence for the endpoint that takes them.
//!
//! A value the question gives that binds to an endpoint's parameter says which endpoint is
//! meant: "Which holidays are there in BC in 2025?" gives `BC` and `2025`, and
//! `/provinces/{provinceId}` takes both where `/provinces` drops `BC`; "Convert 9:30 from
//! America/New_York to Asia/Tokyo" gives every parameter of `convert_time`. The evidence is
//! the Understanding's parameters (by key: a parameter's name or a concept its binding names)
//! and the question's typed values that identify or date something ([`Evidence`]) as the
//! ranking's trial fill binds them. A value no planned step takes makes the plan partial
//! ([`super::values_dropped`]).

use super::select::Candidate;
use crate::artifact::FrozenGraph;
use crate::route::Understanding;
use crate::search::spans::{Span, SpanKind};
use std::collections::BTreeMap;

/// What an endpoint counts for each value the question gives that it does not take when
/// another ranked endpoint takes it.
pub(super) const UNTAKEN_VALUE: f64 = 0.6;

/// One value the question gives: an Understanding parameter's key, or a typed value's text.
pub(super) type Evidence = String;

/// Whether a span's value is evidence by its shape: it identifies, dates or places something
/// (a URL, an e-mail address, a quoted title, a date, a year, a postcode, an address,
/// `owner/repo`, an id or code, a number its label names: "holiday number 12"). A bare
/// number, a name, a preposition's object or an unknown word may be any word of the request,
/// and the leftover fill pours such words into free-text parameters.
fn evidential(s: &Span) -> bool {
    (s.kind == SpanKind::Number && s.labels().next().is_some())
        || matches!(
            s.kind,
            SpanKind::Url
                | SpanKind::Email
                | SpanKind::Phone
                | SpanKind::Quoted
                | SpanKind::Date
                | SpanKind::Year
                | SpanKind::Postcode
                | SpanKind::Address
                | SpanKind::Slash
                | SpanKind::Id
        )
}

/// Whether `s` is an `owner/repo` value whose every part a parameter of its own took
/// (`owner` = `microsoft`, `repo` = `vscode` for "microsoft/vscode"): the endpoint takes the
/// value whole, in its parts.
pub(super) fn split_across(s: &Span, bound: &[String]) -> bool {
    s.kind == SpanKind::Slash && {
        let mut parts = s.value.split('/').filter(|p| !p.is_empty()).peekable();
        parts.peek().is_some() && parts.all(|p| bound.iter().any(|b| b == p))
    }
}

/// The text of a filled value (each item of a list).
pub(super) fn texts(v: &serde_json::Value) -> Vec<String> {
    match v {
        serde_json::Value::String(s) => vec![s.clone()],
        serde_json::Value::Array(items) => items.iter().flat_map(texts).collect(),
        serde_json::Value::Null => Vec::new(),
        other => vec![other.to_string()],
    }
}

/// The evidence a candidate takes: the Understanding's keys its parameters take, and the
/// evidential spans' values its trial fill bound (`trial`).
pub(super) fn taken(
    g: &FrozenGraph,
    u: &Understanding,
    spans: &[Span],
    c: &Candidate,
    trial: &BTreeMap<String, serde_json::Value>,
) -> Vec<Evidence> {
    let mut out = crate::route::algorithm::taken_keys(g, c.tool, c.endpoint, u);
    let given: Vec<String> = u.parameters.values().flat_map(texts).collect();
    let bound: Vec<String> = trial.values().flat_map(texts).collect();
    for s in spans.iter().filter(|s| evidential(s)) {
        // A value the Understanding holds is counted by its key.
        if given.contains(&s.value) || out.contains(&s.value) {
            continue;
        }
        // A value of a list the endpoint takes joined by commas ("101,102,103").
        let listed = || {
            bound
                .iter()
                .any(|b| b.contains(',') && b.split(',').any(|x| x.trim() == s.value))
        };
        if bound.contains(&s.value) || split_across(s, &bound) || listed() {
            out.push(s.value.clone());
        }
    }
    out
}

/// Fills each candidate's `takes` and `takes_given`, and scales by [`UNTAKEN_VALUE`] each
/// candidate for each value another candidate takes and it does not. `trials`: each candidate's
/// trial fill, in the order of `out`.
pub(super) fn weigh(
    g: &FrozenGraph,
    u: &Understanding,
    spans: &[Span],
    trials: &[BTreeMap<String, serde_json::Value>],
    out: &mut [Candidate],
) {
    for (c, trial) in out.iter_mut().zip(trials) {
        c.takes = taken(g, u, spans, c, trial);
    }
    let mut all: Vec<&Evidence> = out.iter().flat_map(|c| &c.takes).collect();
    all.sort();
    all.dedup();
    let all: Vec<Evidence> = all.into_iter().cloned().collect();
    for c in out.iter_mut() {
        let missed = all.iter().filter(|v| !c.takes.contains(v)).count();
        c.score *= UNTAKEN_VALUE.powi(missed as i32);
        c.lexical *= UNTAKEN_VALUE.powi(missed as i32);
        c.takes_given = all.len() >= 2 && missed == 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_that_identify_or_date_are_evidence_and_bare_words_are_not() {
        let q = crate::search::Query::new(
            "which holidays are there in BC in 2025, see https://x.test or mail a@b.org",
        );
        let kinds: Vec<(SpanKind, bool)> =
            q.spans.iter().map(|s| (s.kind, evidential(s))).collect();
        assert!(
            kinds.iter().any(|(k, e)| *k == SpanKind::Id && *e),
            "{kinds:?}"
        );
        assert!(
            kinds.iter().any(|(k, e)| *k == SpanKind::Year && *e),
            "{kinds:?}"
        );
        assert!(
            kinds.iter().any(|(k, e)| *k == SpanKind::Url && *e),
            "{kinds:?}"
        );
        assert!(
            kinds.iter().any(|(k, e)| *k == SpanKind::Email && *e),
            "{kinds:?}"
        );
        let q = crate::search::Query::new("show me holiday number 12");
        assert!(q.spans.iter().any(evidential), "{:?}", q.spans);
        let q = crate::search::Query::new("restaurants in Montreal about graph networks");
        assert!(q.spans.iter().all(|s| !evidential(s)), "{:?}", q.spans);
    }

    fn candidate(endpoint: u32, takes: &[&str]) -> Candidate {
        Candidate {
            tool: 0,
            endpoint,
            score: 1.0,
            lexical: 1.0,
            matched: 1,
            required: 0,
            identified: false,
            takes_given: false,
            answers: false,
            takes: takes.iter().map(|t| t.to_string()).collect(),
        }
    }

    #[test]
    fn a_value_a_ranked_endpoint_takes_and_no_planned_step_does_is_dropped() {
        let provinces = candidate(0, &["year"]);
        let province = candidate(1, &["BC", "year"]);
        let ranked = vec![provinces.clone(), province.clone()];
        assert_eq!(
            super::super::values_dropped(&ranked, std::slice::from_ref(&provinces)),
            vec!["BC".to_string()]
        );
        assert!(super::super::values_dropped(&ranked, &[province]).is_empty());
        // A value no endpoint takes is not the plan's to drop.
        assert!(
            super::super::values_dropped(&[candidate(0, &[])], &[candidate(0, &[])]).is_empty()
        );
    }

    #[test]
    fn an_owner_and_repo_taken_in_two_parameters_is_taken() {
        let q = crate::search::Query::new("what's the default branch of microsoft/vscode");
        let slash = q.spans.iter().find(|s| s.kind == SpanKind::Slash).unwrap();
        let bound = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(split_across(slash, &bound(&["microsoft", "vscode"])));
        assert!(!split_across(slash, &bound(&["microsoft"])));
        // Any other kind of value is taken whole or not at all.
        let q = crate::search::Query::new("holidays in BC in 2025");
        assert!(
            q.spans
                .iter()
                .all(|s| !split_across(s, &bound(&["BC", "2025"])))
        );
    }

    #[test]
    fn filled_values_are_read_as_text_item_by_item() {
        assert_eq!(texts(&serde_json::json!("BC")), vec!["BC"]);
        assert_eq!(texts(&serde_json::json!(2025)), vec!["2025"]);
        assert_eq!(texts(&serde_json::json!(["BR", "MX"])), vec!["BR", "MX"]);
        assert!(texts(&serde_json::Value::Null).is_empty());
    }
}
