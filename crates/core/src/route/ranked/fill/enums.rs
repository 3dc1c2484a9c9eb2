//! Pass `enums`: enum values the question names; and after every pass, a required enum left
//! open takes its neutral value ([`neutral_defaults`]).

use super::profile::Profile;
use crate::artifact::{EndpointData, ParamData};
use crate::route::bind;
use serde_json::Value;
use std::collections::BTreeMap;

/// Fill each enum parameter of `open` with the value the question names, if any.
pub(super) fn pass(question: &str, open: &[Profile], params: &mut BTreeMap<String, Value>) {
    for pr in open {
        if !pr.p.enum_values.is_empty()
            && let Some(v) = enum_value(pr.p, question)
        {
            params.insert(pr.p.name.clone(), v);
        }
    }
}

/// Enum values the question names, per parameter: the longest value written in the question
/// (case, `_`, `-` and spaces ignored), on word boundaries.
pub(super) fn enum_value(p: &ParamData, question: &str) -> Option<Value> {
    let norm = |s: &str| {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let q = format!(" {} ", norm(question));
    p.enum_values
        .iter()
        .filter_map(|v| {
            let text = bind::value_text(&bind::scalar_json(v));
            let n = norm(&text);
            // A one-letter value ("S" for scientific units) is no word of a question.
            (n.chars().count() > 1 && q.contains(&format!(" {n} "))).then_some((n.len(), v))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, v)| bind::scalar_json(v))
}

/// Enum values that ask for no restriction.
pub(super) const NEUTRAL_VALUES: &[&str] = &["all", "any", "both", "everything"];

/// A required enum parameter the question leaves open takes its neutral value ("all", "any",
/// "all-sections"; case and separators ignored) instead of staying missing; returns a note per
/// parameter so filled, for the plan to say so.
pub fn neutral_defaults(e: &EndpointData, params: &mut BTreeMap<String, Value>) -> Vec<String> {
    let mut notes = Vec::new();
    for p in e.parameters.iter().filter(|p| p.required && !p.auth) {
        if params.contains_key(&p.name) {
            continue;
        }
        let neutral = p.enum_values.iter().find(|v| {
            let t = bind::value_text(&bind::scalar_json(v)).to_lowercase();
            t.split(|c: char| !c.is_alphanumeric())
                .next()
                .is_some_and(|first| NEUTRAL_VALUES.contains(&first))
        });
        if let Some(v) = neutral {
            let v = bind::scalar_json(v);
            notes.push(format!(
                "`{}/{}`: required parameter `{}` not given by the request; set to its neutral value {}",
                e.id, p.name, p.name, v
            ));
            params.insert(p.name.clone(), v);
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    #[test]
    fn a_required_enum_left_open_takes_its_neutral_value() {
        let mut e = endpoint(
            "https://x.test/news",
            &[("section", "query"), ("order", "query")],
        );
        e.parameters[0].required = true;
        e.parameters[0].enum_values = ["world", "all-sections"]
            .map(|v| crate::model::value::Scalar::String(v.into()))
            .to_vec();
        e.parameters[1].required = true;
        e.parameters[1].enum_values = ["newest", "oldest"]
            .map(|v| crate::model::value::Scalar::String(v.into()))
            .to_vec();
        let mut params = BTreeMap::new();
        let notes = neutral_defaults(&e, &mut params);
        assert_eq!(params, strings(&[("section", "all-sections")]));
        assert_eq!(notes.len(), 1);
    }
}
