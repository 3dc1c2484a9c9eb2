//! The LLM Understand step: any OpenAI-compatible chat-completions server (vLLM, Ollama,
//! llama.cpp server) given by URL and model name, sent the generated intent-registry prompt.
//!
//! The reply is parsed leniently (a JSON object, possibly inside a code fence) and sanitised
//! against the artifact: unknown intents, tools, concepts, parameter concepts and source types are
//! dropped with a warning. Malformed JSON is retried once, then reported as an error. Nothing is
//! sent anywhere unless an `Llm` is built and asked.

use super::{Analysis, Analyzer, AnalyzerError};
use crate::artifact::FrozenGraph;
use crate::model::normalise_alias;
use crate::route::Understanding;
use serde_json::Value;
use std::time::Duration;

/// An OpenAI-compatible chat-completions client.
pub struct Llm<'g> {
    g: &'g FrozenGraph,
    endpoint: String,
    model: String,
    prompt: String,
    api_key: Option<String>,
    agent: ureq::Agent,
}

impl<'g> Llm<'g> {
    /// A client for `url` (a base like `http://127.0.0.1:8000/v1` or the full
    /// `.../chat/completions` address) and `model`, sending `prompt` as the system message.
    /// `timeout` bounds each request; `api_key` is sent as a bearer token when given.
    pub fn new(
        g: &'g FrozenGraph,
        url: &str,
        model: &str,
        prompt: String,
        timeout: Duration,
        api_key: Option<String>,
    ) -> Llm<'g> {
        let url = url.trim_end_matches('/');
        let endpoint = if url.ends_with("/chat/completions") {
            url.to_string()
        } else {
            format!("{url}/chat/completions")
        };
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .build()
            .into();
        Llm {
            g,
            endpoint,
            model: model.to_string(),
            prompt,
            api_key,
            agent,
        }
    }

    fn ask(&self, query: &str) -> Result<String, AnalyzerError> {
        chat(
            &self.agent,
            &self.endpoint,
            &self.model,
            self.api_key.as_deref(),
            &self.prompt,
            query,
        )
        .map_err(|message| AnalyzerError { message })
    }
}

/// One OpenAI-compatible chat completion at temperature 0: `system` and `user` messages posted
/// to `endpoint` (`.../chat/completions`), with a bearer token when `api_key` is given.
/// Returns `choices[0].message.content`.
///
/// Errors (as a message): the request fails, the server answers non-2xx (with the first 200
/// characters of its body), the reply is not JSON or has no content.
pub fn chat(
    agent: &ureq::Agent,
    endpoint: &str,
    model: &str,
    api_key: Option<&str>,
    system: &str,
    user: &str,
) -> Result<String, String> {
    let body = serde_json::json!({
        "model": model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ],
    });
    let mut req = agent
        .post(endpoint)
        .header("Content-Type", "application/json");
    if let Some(k) = api_key {
        req = req.header("Authorization", &format!("Bearer {k}"));
    }
    let resp = req
        .send(body.to_string())
        .map_err(|e| format!("LLM request to {endpoint} failed: {e}"))?;
    let status = resp.status().as_u16();
    let text = resp
        .into_body()
        .read_to_string()
        .map_err(|e| format!("cannot read the LLM reply: {e}"))?;
    if !(200..300).contains(&status) {
        return Err(format!(
            "LLM server answered HTTP {status}: {}",
            text.chars().take(200).collect::<String>()
        ));
    }
    let v: Value =
        serde_json::from_str(&text).map_err(|e| format!("LLM server reply is not JSON: {e}"))?;
    v.pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| "LLM reply has no choices[0].message.content".to_string())
}

/// The JSON object inside a model reply (plain, or in a ``` fence, or surrounded by prose).
pub fn extract_json(content: &str) -> Option<Value> {
    let start = content.find('{')?;
    let end = content.rfind('}')?;
    if end < start {
        return None;
    }
    serde_json::from_str(&content[start..=end]).ok()
}

/// Sanitise a parsed reply against the artifact; returns the Understanding and warnings.
pub fn sanitise(g: &FrozenGraph, v: &Value) -> (Understanding, Vec<String>) {
    let mut w = Vec::new();
    let mut u = Understanding::default();
    match v.get("intent") {
        Some(Value::String(i)) if g.intent(i).is_some() => u.intent = Some(i.clone()),
        Some(Value::String(i)) => w.push(format!("dropped unknown intent `{i}`")),
        _ => {}
    }
    if let Some(Value::Array(cs)) = v.get("domain_concepts") {
        for c in cs.iter().filter_map(Value::as_str) {
            let k = normalise_alias(c);
            let known = g.index.alias_to_concept.contains_key(&k)
                || g.index.alias_to_field.contains_key(&k)
                || g.index.field_names.contains_key(&k);
            if known {
                u.domain_concepts.push(c.to_string());
            } else {
                w.push(format!("dropped unknown concept `{c}`"));
            }
        }
    }
    if let Some(Value::Object(ps)) = v.get("parameters") {
        for (k, val) in ps {
            let key = normalise_alias(k);
            let known = g.index.param_postings.contains_key(k)
                || g.index.alias_to_concept.get(&key).is_some_and(|ids| {
                    ids.iter().any(|id| g.index.param_postings.contains_key(id))
                });
            if known && !val.is_null() {
                u.parameters.insert(k.clone(), val.clone());
            } else if !val.is_null() {
                w.push(format!("dropped unknown parameter concept `{k}`"));
            }
        }
    }
    if let Some(Value::Array(ts)) = v.get("target_apis") {
        for t in ts.iter().filter_map(Value::as_str) {
            match g.index.tool_names.get(&normalise_alias(t)) {
                Some(i) => {
                    let id = g.tools[*i as usize].id.clone();
                    if !u.target_apis.contains(&id) {
                        u.target_apis.push(id);
                    }
                }
                None => w.push(format!("dropped unknown tool `{t}`")),
            }
        }
    }
    match v.get("source_constraint") {
        Some(Value::String(s)) if g.source_types.contains(s) => {
            u.source_constraint = Some(s.clone())
        }
        Some(Value::String(s)) if !s.is_empty() && s != "null" => {
            w.push(format!("dropped unknown source constraint `{s}`"))
        }
        _ => {}
    }
    (u, w)
}

impl Analyzer for Llm<'_> {
    fn understand(&self, query: &str) -> Result<Analysis, AnalyzerError> {
        let mut last = String::new();
        for attempt in 0..2 {
            let content = self.ask(query)?;
            match extract_json(&content) {
                Some(v) => {
                    let (understanding, mut warnings) = sanitise(self.g, &v);
                    if attempt > 0 {
                        warnings.insert(
                            0,
                            "the first LLM reply was not valid JSON; retried once".into(),
                        );
                    }
                    return Ok(Analysis {
                        understanding,
                        warnings,
                    });
                }
                None => last = content,
            }
        }
        Err(AnalyzerError {
            message: format!(
                "the LLM reply was not a JSON object twice; last reply: {}",
                last.chars().take(200).collect::<String>()
            ),
        })
    }
}
