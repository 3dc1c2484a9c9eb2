//! Helpers of the passes' unit tests: endpoints from their JSON form, and what a question fills.

use super::fill;
use crate::artifact::EndpointData;
use serde_json::Value;
use std::collections::BTreeMap;

/// An endpoint from its JSON form (robust to fields added to the artifact later).
pub(super) fn endpoint(url: &str, params: &[(&str, &str)]) -> EndpointData {
    let parameters: Vec<Value> = params
        .iter()
        .map(|(name, location)| {
            serde_json::json!({"name": name, "type": "string", "enum_values": [],
                "required": *location == "path", "auth": false, "bind": [],
                "location": location})
        })
        .collect();
    serde_json::from_value(serde_json::json!({"id": "e", "method": "GET", "url": url,
        "parameters": parameters, "fields": [], "identifiers": [], "group_fields": {}}))
    .expect("endpoint json")
}

/// The parameters `question` fills on `e`, with the catalog knowing only `known` stems.
pub(super) fn filled(e: &EndpointData, question: &str, known: &[&str]) -> BTreeMap<String, Value> {
    filled_for(e, question, known, &[])
}

/// [`filled`], for an endpoint ranked for the `subject` stems.
pub(super) fn filled_for(
    e: &EndpointData,
    question: &str,
    known: &[&str],
    subject: &[&str],
) -> BTreeMap<String, Value> {
    let mut spans = crate::search::spans::spans(question);
    crate::search::spans::unknown_words(question, &mut spans, &|st| known.contains(&st));
    let mut params = BTreeMap::new();
    let subject: Vec<String> = subject.iter().map(|s| s.to_string()).collect();
    fill(e, question, &spans, &mut params, None, &subject);
    params
}

/// `e` with parameter `name` re-typed and described.
pub(super) fn typed(
    mut e: EndpointData,
    name: &str,
    ty: &str,
    format: Option<&str>,
) -> EndpointData {
    let p = e
        .parameters
        .iter_mut()
        .find(|p| p.name == name)
        .expect("parameter");
    p.ty = ty.into();
    p.format = format.map(str::to_string);
    e
}

pub(super) fn strings(pairs: &[(&str, &str)]) -> BTreeMap<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), Value::from(*v)))
        .collect()
}
