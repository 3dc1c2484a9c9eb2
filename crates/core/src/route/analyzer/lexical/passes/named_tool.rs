//! Pass `named_tool`: a question with no intent that names tools (or asks for concepts) gets a
//! plan of the named tools only, with a warning saying so. Without concepts, the question's own
//! words choose among a named tool's endpoints ("convert currency with openai_tools" ->
//! `openai_tools/convert_currency`; an endpoint id written in the question names it); a value
//! written after the name of a parameter the named tools' endpoints declare ("city Paris", "job id
//! 7sX8", `origin=MAD`) binds that parameter by its own name.
//!
//! Runs when the reading has no intent but concepts or tools; writes the Understanding's tools
//! (with endpoints), concepts, parameters and source constraint, and the warnings.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::phrases::mentions;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::{content_words, words_of};
use crate::route::analyzer::params;
use std::collections::{BTreeMap, HashSet};

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    if r.intent.is_some() || (r.concepts.is_empty() && r.tools.is_empty()) {
        return Flow::Next;
    }
    let Reading {
        query,
        tokens,
        extracted,
        concepts,
        tools,
        source_constraint,
        understanding: u,
        warnings,
        ..
    } = r;
    warnings.push(if tools.is_empty() {
        "no intent fits the evidence; the plan will be empty unless a tool is named".to_string()
    } else {
        "no intent fits the evidence; the plan uses the named tool only".to_string()
    });
    // Without concepts, the question's own words choose among a named tool's endpoints
    // ("convert currency with openai_tools" -> `openai_tools/convert_currency`).
    let query_words = words_of(tokens);
    // A value written after the name of a parameter the named tools' endpoints declare
    // ("city Paris", "job id 7sX8", `origin=MAD`, `timezone: "Europe/Paris"`) binds that
    // parameter by its own name (and tells their endpoints apart).
    let mut by_name: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    for t in tools.iter() {
        let tool = g.tool_at(*t);
        for e in &tool.endpoints {
            for p in e.parameters.iter().filter(|p| !p.auth) {
                if by_name.contains_key(&p.name) {
                    continue;
                }
                if let Some(v) = params::value_after_name(query, &p.name) {
                    by_name.insert(p.name.clone(), serde_json::Value::String(v));
                }
            }
        }
    }
    let lower = query.to_lowercase();
    u.target_apis = tools
        .iter()
        .map(|t| {
            let tool = g.tool_at(*t);
            // An endpoint id written in the question ("tcgdex get_card_prices") names
            // that endpoint; the longest one written, when several are.
            let written = tool
                .endpoints
                .iter()
                .filter(|e| !e.destructive && e.id.chars().count() > 2)
                .filter(|e| mentions(&lower, &e.id.to_lowercase()))
                .max_by_key(|e| e.id.len())
                .map(|e| (e.id.clone(), None));
            match written.or_else(|| {
                concepts
                    .is_empty()
                    .then(|| endpoint_by_words(tool, &query_words, &by_name))
                    .flatten()
            }) {
                Some((e, tie)) => {
                    warnings.extend(tie);
                    format!("{}/{e}", tool.id)
                }
                None => tool.id.clone(),
            }
        })
        .collect();
    if !u.target_apis.is_empty() {
        for m in concepts.iter() {
            u.domain_concepts.push(lx.requested(m));
        }
        // Values no parameter takes, by concept or by its own name ("IP" read as a
        // formula where no tool takes a formula), would only leave the plan unbound.
        let takes = |c: &str| {
            g.index.param_postings.contains_key(c)
                || tools.iter().any(|t| {
                    g.tool_at(*t)
                        .endpoints
                        .iter()
                        .any(|e| e.parameters.iter().any(|p| p.name == c))
                })
        };
        for e in extracted.iter() {
            if takes(&e.concept) {
                u.parameters
                    .entry(e.concept.to_string())
                    .or_insert_with(|| e.value.clone());
            }
        }
        for (name, v) in by_name {
            u.parameters.entry(name).or_insert(v);
        }
        // A source kind the named tools do not carry ("articles" in a question to a
        // shop's API) is no constraint on them.
        u.source_constraint = source_constraint.clone().filter(|st| {
            tools
                .iter()
                .any(|t| g.tool_at(*t).source_types.iter().any(|s| s == st))
        });
    }
    Flow::Next
}

/// The endpoint of `tool` the question's words point at, when one shares at least one content
/// word with it (`query_words`, without the words of the tool's own id, title and names). The
/// endpoint's own id counts first (its operationId or function name: "list all bots" is
/// `list_bots`, whatever `list_bot_versions`'s description says), then how many of the values
/// the question gives by parameter name (`given`) it takes ("timezone Europe/Paris" is
/// `get_current_time`'s), then fewer words of its id the question does not ask ("weather" is
/// `get_weather`, not `get_weather_forecast`), then the words its description shares, then
/// reading before writing (annotations; `GET`, local and MCP calls before `POST` before other
/// methods, as the router's own ranking), then id order. A tie only id order breaks comes with
/// a warning naming the others (the user can name `tool/endpoint`). Destructive endpoints are
/// never chosen here. `None` when no endpoint shares a word.
fn endpoint_by_words(
    tool: &crate::artifact::ToolData,
    query_words: &HashSet<String>,
    given: &BTreeMap<String, serde_json::Value>,
) -> Option<(String, Option<String>)> {
    use std::cmp::Reverse;
    if tool.endpoints.len() < 2 {
        return None;
    }
    let mut naming = content_words(&tool.id.replace('_', " "));
    naming.extend(content_words(&tool.title));
    for n in &tool.names {
        naming.extend(content_words(n));
    }
    let asked: HashSet<&String> = query_words
        .iter()
        .filter(|w| !naming.contains(*w))
        .collect();
    // (id words shared, given values taken, id words not asked, description words shared,
    // writes, method rank, order, id)
    type Key<'a> = (
        Reverse<usize>,
        Reverse<usize>,
        usize,
        Reverse<usize>,
        bool,
        u8,
        usize,
        &'a str,
    );
    let mut scores: Vec<Key> = tool
        .endpoints
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.destructive)
        .map(|(i, e)| {
            let id_words = content_words(&e.id.replace('_', " "));
            let unasked = id_words
                .iter()
                .filter(|w| !asked.contains(w) && !naming.contains(*w))
                .count();
            let by_id = asked.iter().filter(|w| id_words.contains(**w)).count();
            let described = e
                .description
                .as_deref()
                .map(content_words)
                .unwrap_or_default();
            let by_description = asked
                .iter()
                .filter(|w| described.contains(**w) && !id_words.contains(**w))
                .count();
            let takes = e
                .parameters
                .iter()
                .filter(|p| given.contains_key(&p.name))
                .count();
            let method = match e.method.as_str() {
                "GET" | "LOCAL" | "MCP" => 0,
                "POST" => 1,
                _ => 2,
            };
            (
                Reverse(by_id),
                Reverse(takes),
                unasked,
                Reverse(by_description),
                e.writes,
                method,
                i,
                e.id.as_str(),
            )
        })
        .collect();
    scores.sort();
    let &(by_id, takes, unasked, by_description, writes, method, _, id) = scores.first()?;
    if by_id.0 + by_description.0 == 0 {
        return None;
    }
    let key = (by_id, takes, unasked, by_description, writes, method);
    let tied: Vec<&str> = scores[1..]
        .iter()
        .filter(|s| (s.0, s.1, s.2, s.3, s.4, s.5) == key)
        .map(|s| s.7)
        .collect();
    let warning = (!tied.is_empty()).then(|| {
        format!(
            "endpoints `{id}` and `{}` of tool `{}` match the request's words equally; took `{id}` (the first in id order); name `{}/<endpoint>` to choose",
            tied.join("`, `"),
            tool.id,
            tool.id
        )
    });
    Some((id.to_string(), warning))
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::lexical::Lexical;
    use crate::route::analyzer::testing::shipped;

    #[test]
    fn named_tools_without_an_intent_are_asked_as_named() {
        let a = Lexical::new(shipped())
            .analyse("What does the web say about the 2025 PubChem SMILES rename?");
        assert_eq!(a.understanding.intent, None);
        assert_eq!(a.understanding.target_apis, ["web_search", "pubchem"]);
        assert_eq!(a.understanding.domain_concepts, ["smiles"]);
        assert_eq!(
            a.warnings,
            ["no intent fits the evidence; the plan uses the named tool only"]
        );
    }
}
