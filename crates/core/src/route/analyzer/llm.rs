//! The LLM Understand step: any OpenAI-compatible chat-completions server (vLLM, Ollama,
//! llama.cpp server) given by URL and model name, sent the generated intent-registry prompt.
//!
//! The reply is parsed leniently (a JSON object, possibly inside a code fence) into an
//! Understanding; names are kept as written, so unknown intents, tools, concepts, parameter
//! concepts and source types are reported by Understanding validation
//! ([`crate::route::vocabulary`]) exactly as for an `--understanding` file. Malformed JSON is
//! retried once, then reported as an error. Nothing is sent anywhere unless an `Llm` is built and
//! asked.

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

    /// The chat-completions address requests go to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
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

/// Read a parsed reply into an Understanding; returns it and warnings.
///
/// Names are kept as the model wrote them (tool names are mapped to tool ids when known), so an
/// unknown intent, tool, concept, parameter or source type is reported by
/// [`vocabulary::validate`](crate::route::vocabulary::validate) exactly as it is for an
/// `--understanding` file. Only values of the wrong JSON type are dropped, each with a warning.
pub fn sanitise(g: &FrozenGraph, v: &Value) -> (Understanding, Vec<String>) {
    let mut w = Vec::new();
    let mut u = Understanding::default();
    let mut wrong = |key: &str, what: &str, got: &Value| {
        w.push(format!(
            "dropped `{key}` from the LLM reply: expected {what}, found {}",
            json_kind(got)
        ))
    };
    match v.get("intent") {
        Some(Value::String(i)) if !i.trim().is_empty() && i != "null" => u.intent = Some(i.clone()),
        None | Some(Value::Null) | Some(Value::String(_)) => {}
        Some(other) => wrong("intent", "a string or null", other),
    }
    match v.get("domain_concepts") {
        Some(Value::Array(cs)) => {
            for c in cs {
                match c {
                    Value::String(c) => u.domain_concepts.push(c.clone()),
                    other => wrong("domain_concepts[]", "a string", other),
                }
            }
        }
        None | Some(Value::Null) => {}
        Some(other) => wrong("domain_concepts", "an array of strings", other),
    }
    match v.get("parameters") {
        Some(Value::Object(ps)) => {
            for (k, val) in ps {
                if !val.is_null() {
                    u.parameters.insert(k.clone(), val.clone());
                }
            }
        }
        None | Some(Value::Null) => {}
        Some(other) => wrong("parameters", "an object", other),
    }
    match v.get("target_apis") {
        Some(Value::Array(ts)) => {
            for t in ts {
                let Value::String(t) = t else {
                    wrong("target_apis[]", "a string", t);
                    continue;
                };
                let id = match g.index.tool_names.get(&normalise_alias(t)) {
                    Some(i) => g.tool_at(*i).id.clone(),
                    None => t.clone(),
                };
                if !u.target_apis.contains(&id) {
                    u.target_apis.push(id);
                }
            }
        }
        None | Some(Value::Null) => {}
        Some(other) => wrong("target_apis", "an array of strings", other),
    }
    match v.get("source_constraint") {
        Some(Value::String(s)) if !s.trim().is_empty() && s != "null" => {
            u.source_constraint = Some(s.clone())
        }
        None | Some(Value::Null) | Some(Value::String(_)) => {}
        Some(other) => wrong("source_constraint", "a string or null", other),
    }
    (u, w)
}

/// "a number", "an array", ... for a JSON value.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
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
