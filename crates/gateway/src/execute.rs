//! `call` and `ask`: check at the boundary ([`crate::boundary`]), execute upstream, project the
//! response to the planned or declared fields with the core's `extract` (records path, declared
//! types, units, source type, licence, provenance), and count the tokens of the raw responses
//! against what the agent receives (o200k_base).

use crate::Gateway;
use crate::boundary::{self, Refusal};
use crate::tokens::count as count_tokens;
use crate::upstream::UpstreamError;
use schemarouter_core::artifact::{EndpointData, FrozenGraph};
use schemarouter_core::extract::{self, StepResult, render};
use schemarouter_core::route::algorithm::field_meta;
use schemarouter_core::route::{McpCall, Plan, PlannedField, Step};
use schemarouter_server::{RouteRequest, Snapshot};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Input of `call` (MCP tool and `POST /v1/call`): one endpoint with arguments, or a plan
/// `route` returned (every step executed as planned).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallRequest {
    /// Tool id.
    #[serde(default)]
    pub tool: Option<String>,
    /// Endpoint id (default: the tool's only endpoint).
    #[serde(default)]
    pub endpoint: Option<String>,
    /// Arguments, in the tool's own parameter names.
    #[serde(default)]
    pub arguments: BTreeMap<String, Value>,
    /// Response fields to keep (default: every declared field).
    #[serde(default)]
    pub fields: Option<Vec<String>>,
    /// A plan from `route` (instead of `tool`): its fingerprint is checked first.
    #[serde(default)]
    pub plan: Option<Plan>,
    /// Also return the raw responses (capped at `raw_cap_bytes`).
    #[serde(default)]
    pub raw: bool,
}

/// Input of `ask`: a question or an Understanding, routed, then every step executed.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AskRequest {
    /// The question.
    #[serde(default)]
    pub question: Option<String>,
    /// An Understanding (instead of the question).
    #[serde(default)]
    pub understanding: Option<schemarouter_core::route::Understanding>,
    /// Tools to plan when none is named.
    #[serde(default)]
    pub k: Option<u64>,
    /// Field projection (`core`, `recall`, `minimal`, `all`).
    #[serde(default)]
    pub projection: Option<schemarouter_server::core::ProjectionName>,
    /// Also return the raw responses (capped).
    #[serde(default)]
    pub raw: bool,
}

/// Accounting of one executed step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallAccount {
    /// Tool id.
    pub tool: String,
    /// Endpoint id.
    pub endpoint: String,
    /// Milliseconds the upstream took.
    pub upstream_ms: f64,
    /// Bytes of the raw response.
    pub raw_bytes: usize,
    /// o200k_base tokens of the raw response.
    pub raw_tokens: usize,
    /// o200k_base tokens of this step's reader context (what the agent receives).
    pub delivered_tokens: usize,
    /// The reader context's form: `full` or `compact`, whichever holds fewer tokens
    /// ([`reader_context`]).
    pub context: &'static str,
}

/// The reader context of one projected step, its o200k_base tokens and its form: of the full
/// form ([`render::Form::Full`]: one `name = value unit` line per field and record, one line
/// per attribution part) and the compact one ([`render::Form::Compact`]: one record on one
/// line, several as a table with each unit once in its column's head, the attribution on one
/// `source:` line), the one that holds fewer tokens (the full one on a tie). Both keep every
/// planned field's value, unit and conversion, the source type, licence, attribution and
/// provenance. `said` names the earlier step of the same answer that gave the same source
/// attribution ([`render::step`]): this step's context refers to it instead of repeating it.
pub fn reader_context(r: &StepResult, said: Option<&str>) -> (String, usize, &'static str) {
    let full = render::step(r, render::Form::Full, said);
    let n = count_tokens(&full);
    let compact = render::step(r, render::Form::Compact, said);
    let m = count_tokens(&compact);
    if m < n {
        (compact, m, render::Form::Compact.name())
    } else {
        (full, n, render::Form::Full.name())
    }
}

/// A raw response, returned on request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RawText {
    /// Step index.
    pub step: usize,
    /// The body, cut at `raw_cap_bytes` (a binary body: its base64, cut on a 4-character
    /// boundary).
    pub text: String,
    /// Whether it was cut.
    pub truncated: bool,
    /// A binary body's media type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// `base64` for a binary body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<&'static str>,
    /// Whether a configured credential the body held was replaced by `[redacted]` (in a binary
    /// body, in its bytes before base64): the text or bytes then differ from the upstream's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub redacted: bool,
}

/// What one upstream answer gives the projection and the accounting.
struct Received {
    /// The text the raw side of the accounting counts (scrubbed; a binary body's base64); the
    /// document projected unless `document` replaces it.
    counted: std::sync::Arc<String>,
    /// The document projected instead (`{"result": ...}`, [`text_result`]; a binary summary).
    document: Option<String>,
    /// Bytes of the raw response.
    bytes: usize,
    /// The raw response, when asked for.
    raw: Option<RawText>,
    /// What the issues say of how a text answer was read ([`read_text`]).
    note: Option<String>,
}

/// What one executed step gives the answer ([`Gateway::step`]).
struct Done {
    result: StepResult,
    issues: Vec<extract::report::Issue>,
    call: CallAccount,
    context: String,
    raw: Option<RawText>,
}

/// The answer of `call` and `ask`.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The artifact that planned and projected.
    pub artifact_hash: String,
    /// The plan executed (for `ask`; also the plan not executed, see `status`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<Plan>,
    /// `ask` of a plan that is not executed ([`executes`]): its status as `route` names it
    /// (`no_suitable_tool`, `not_understood`); no upstream was called and `steps` is empty.
    /// Left out when the plan was executed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<schemarouter_core::route::PlanStatus>,
    /// Why the plan was not executed ([`not_executed`]): the status, then what the plan says
    /// (the names and values the Understanding gave that the artifact refuses, or the
    /// out-of-scope reason). Left out when the plan was executed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Some step failed after earlier ones answered: the answer holds the steps that ran, and
    /// `issues` the failed step (kind `step_failed`). Left out when every step ran.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// One projection per step.
    pub steps: Vec<StepResult>,
    /// Projection findings (missing fields, typed mismatches).
    pub issues: Vec<extract::report::Issue>,
    /// The reader context: every planned field with unit, source type, licence, provenance.
    pub context: String,
    /// Per step: time, raw size, raw and delivered tokens.
    pub calls: Vec<CallAccount>,
    /// Totals: `{"raw": N, "delivered": M}`, and `over_raw` (`M - N`) when the reader context
    /// holds more tokens than the raw responses did.
    pub tokens: BTreeMap<String, usize>,
    /// Bindings from earlier steps' records that filled later steps' parameters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bindings: Vec<String>,
    /// Raw responses (only when asked for).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub raw: Vec<RawText>,
}

impl Answer {
    /// The answer of `ask` to a plan it does not execute ([`executes`]): the plan, its status
    /// and the reason ([`not_executed`]); no step, no call, no reader context, no tokens.
    pub fn not_executed(s: &Snapshot, plan: Plan) -> Answer {
        Answer {
            artifact_hash: s.summary.content_hash.clone(),
            status: Some(plan.status),
            reason: Some(not_executed(&plan)),
            plan: Some(plan),
            partial: false,
            steps: Vec::new(),
            issues: Vec::new(),
            context: String::new(),
            calls: Vec::new(),
            tokens: BTreeMap::from([("raw".to_string(), 0), ("delivered".to_string(), 0)]),
            bindings: Vec::new(),
            raw: Vec::new(),
        }
    }
}

/// Why `call` or `ask` gave no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// Bad input (HTTP 400, MCP tool error).
    Invalid(String),
    /// A boundary check failed (HTTP 400 / 403 / 404 / 409 by check, [`Refusal::http_status`];
    /// MCP tool error naming the check).
    Refused(Refusal),
    /// The upstream failed (HTTP 502/504, JSON-RPC error naming the upstream).
    Upstream(UpstreamError),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Invalid(m) => f.write_str(m),
            Failure::Refused(r) => write!(f, "refused by the `{}` check: {}", r.check, r.message),
            Failure::Upstream(e) => e.fmt(f),
        }
    }
}

/// The step `call` executes for `tool`/`endpoint` with `args`, keeping `fields` (default every
/// declared field), each with the metadata a plan attaches.
pub fn call_step(
    g: &FrozenGraph,
    tool: &str,
    e: &EndpointData,
    args: &BTreeMap<String, Value>,
    fields: Option<&[String]>,
) -> Result<Step, Failure> {
    let t = g
        .tool(tool)
        .map(|(_, t)| t)
        .ok_or_else(|| Failure::Invalid(format!("no tool `{tool}`")))?;
    if let Some(names) = fields
        && let Some(bad) = names
            .iter()
            .find(|n| !e.fields.iter().any(|f| &f.name == *n))
    {
        let all: Vec<&str> = e.fields.iter().map(|f| f.name.as_str()).collect();
        return Err(Failure::Invalid(format!(
            "`{bad}` is not a response field of `{tool}/{}`; its fields: {}",
            e.id,
            all.join(", ")
        )));
    }
    let planned = e
        .fields
        .iter()
        .filter(|f| fields.is_none_or(|n| n.contains(&f.name)))
        .map(|f| PlannedField {
            name: f.name.clone(),
            identifier: f.identifier,
            reasons: Vec::new(),
            meta: Some(field_meta(g, t, f, &[])),
        })
        .collect();
    Ok(Step {
        tool: tool.to_string(),
        endpoint: e.id.clone(),
        method: e.method.clone(),
        url: e.url.clone(),
        records: e.records.clone(),
        params: args.clone(),
        call: e.mcp_tool.as_ref().map(|n| McpCall {
            name: n.clone(),
            arguments: args.clone(),
        }),
        missing_required: Vec::new(),
        auth: Vec::new(),
        unbound: Vec::new(),
        fields: planned,
        score: 0,
        rank_score: None,
        why: "called through the gateway".into(),
    })
}

/// The document a response is read as when it is not the upstream's JSON or XML as it is:
/// - an empty body (HTTP 204 No Content, a 2xx with nothing to say) is the empty JSON object:
///   one record with none of its declared fields, never a malformed answer;
/// - an endpoint declared with the one field `result` (as the import declares an HTTP
///   response that is not JSON, "the body as text", and an MCP tool without an
///   `outputSchema`, "the tool's result content") gets its text as that field:
///   `{"result": "<the text>"}`. For HTTP, a body that is not JSON (text, XML, HTML); for MCP, a
///   result with no `structuredContent` whose text content is not JSON, or that holds an
///   image, audio or blob content: then `result` lists the contents in order, a text as its
///   text, a binary one as its summary (`type`, `content_type`, `bytes`, `sha256`).
///
/// `None` for every other endpoint or response.
pub fn text_result(e: &EndpointData, raw: &str) -> Option<String> {
    if raw.trim().is_empty() {
        return Some("{}".to_string());
    }
    if e.fields.len() != 1 || e.fields[0].name != "result" {
        return None;
    }
    if e.mcp_tool.is_none() {
        return serde_json::from_str::<serde::de::IgnoredAny>(raw)
            .is_err()
            .then(|| serde_json::json!({ "result": raw }).to_string());
    }
    let v: Value = serde_json::from_str(raw).ok()?;
    if v.get("structuredContent").is_some_and(|s| !s.is_null()) {
        return None;
    }
    let content = v.get("content")?.as_array()?;
    // Images, audio and blobs are summarised, never passed on as their base64 data.
    let binaries: Vec<Value> = content
        .iter()
        .filter_map(crate::upstream::binary::mcp_content)
        .collect();
    if !binaries.is_empty() {
        let items: Vec<Value> = content
            .iter()
            .filter_map(|c| {
                crate::upstream::binary::mcp_content(c).or_else(|| c.get("text").cloned())
            })
            .collect();
        return Some(serde_json::json!({ "result": items }).to_string());
    }
    let texts: Vec<&str> = content
        .iter()
        .filter(|c| c.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|c| c.get("text").and_then(Value::as_str))
        .collect();
    if texts.is_empty() || (texts.len() == 1 && serde_json::from_str::<Value>(texts[0]).is_ok()) {
        return None;
    }
    Some(serde_json::json!({ "result": texts.join("\n") }).to_string())
}

/// The text of an MCP `tools/call` result that holds no `structuredContent` and only text
/// contents, none of them one JSON document (each content a block of its own); `None` for any
/// other answer.
fn mcp_plain_text(raw: &str) -> Option<String> {
    /// The parts of a `tools/call` result read here (the rest skipped unread).
    #[derive(Deserialize)]
    struct CallResult {
        #[serde(default, rename = "structuredContent")]
        structured: Option<serde::de::IgnoredAny>,
        #[serde(default, rename = "isError")]
        is_error: Option<bool>,
        #[serde(default)]
        content: Vec<Content>,
    }
    #[derive(Deserialize)]
    struct Content {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        text: Option<String>,
    }
    let v: CallResult = serde_json::from_str(raw).ok()?;
    if v.structured.is_some() || v.is_error == Some(true) || v.content.is_empty() {
        return None;
    }
    let texts: Vec<String> = v
        .content
        .into_iter()
        .map(|c| (c.kind == "text").then_some(c.text).flatten())
        .collect::<Option<_>>()?;
    if let [one] = texts.as_slice()
        && serde_json::from_str::<serde::de::IgnoredAny>(one).is_ok()
    {
        return None;
    }
    Some(texts.join("\n\n"))
}

/// The document an answer of endpoint `e` is read as ([`text_result`], else `None`: the answer
/// as it is), and what the issues say of it. An MCP answer in plain text
/// ([`crate::text_records`]: blank-line separated blocks of `Key: value` lines, as `git_log`
/// and many MCP servers print lists):
/// - at an endpoint that declares response fields (not the one field `result`), read as its
///   records, placed at the endpoint's records path, so that projection applies; a text that
///   is not records, or records the records path cannot hold, is left as it is and the issue
///   says why (the fields are then reported missing);
/// - at an endpoint declared with the one field `result`, kept whole there as declared; when it
///   reads as repeated records (two or more: one `Echo: hi` line is no list), the issue names
///   their keys, which declared as fields would be projected.
pub fn read_text(e: &EndpointData, raw: &str) -> (Option<String>, Option<String>) {
    let document = text_result(e, raw);
    if e.mcp_tool.is_none() {
        return (document, None);
    }
    let Some(text) = mcp_plain_text(raw) else {
        return (document, None);
    };
    let sole_result = e.fields.len() == 1 && e.fields[0].name == "result";
    let parsed = crate::text_records::parse(&text);
    match (parsed, sole_result) {
        (Ok(r), true) if r.records.len() > 1 => {
            let note = format!(
                "the text content is kept whole as the declared field `result`, but it reads as {} record(s) of `Key: value` lines ({}): declare those as response fields (records path `[]`) to have them projected",
                r.records.len(),
                r.keys.join(", ")
            );
            (document, Some(note))
        }
        (_, true) => (document, None),
        (Ok(r), false) => match crate::text_records::document(r.records, e.records.as_deref()) {
            Ok(v) => (Some(v.to_string()), None),
            Err(why) => (
                None,
                Some(format!(
                    "the text content reads as records of `Key: value` lines, but {why}; it is left as it is"
                )),
            ),
        },
        (Err(why), false) => (
            None,
            Some(format!(
                "the text content is neither JSON nor records of `Key: value` lines ({why}); it is left as it is"
            )),
        ),
    }
}

/// A function tool's endpoint ([`crate::local`]) is never called: the gateway cannot.
fn not_local(tool: &str, e: &EndpointData) -> Result<(), Failure> {
    if !crate::local(e) {
        return Ok(());
    }
    Err(Failure::Invalid(format!(
        "`{tool}/{}` is a function tool (method LOCAL, `{}`): the gateway cannot call it; the agent's runtime executes function tools",
        e.id, e.url
    )))
}

/// Whether `text` starts as an HTML document does (`<!DOCTYPE html`, `<html`, any case).
fn looks_like_html(text: &str) -> bool {
    let b = text.trim_start().as_bytes();
    let starts = |p: &[u8]| b.len() >= p.len() && b[..p.len()].eq_ignore_ascii_case(p);
    starts(b"<!doctype html") || starts(b"<html")
}

/// Whether a media type the upstream named is JSON (`application/json`, `*+json`).
fn declared_json(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|t| {
        let m = schemarouter_core::model::tool::media_essence(t);
        m == "application/json" || m.ends_with("+json")
    })
}

/// Why the answer `text` of `endpoint`, of the media type the upstream named, cannot be read.
/// A body the upstream declared JSON is judged as JSON (what it looks like instead: HTML, XML,
/// text), never by the reader's guess of its format; any other: `why`, the reader's message.
pub fn unreadable(endpoint: &str, content_type: Option<&str>, text: &str, why: &str) -> String {
    if !declared_json(content_type) {
        return format!("the answer of `{endpoint}` cannot be read: {why}");
    }
    let not_json = match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => return format!("the answer of `{endpoint}` cannot be read: {why}"),
        Err(e) => e.to_string(),
    };
    let looks = if looks_like_html(text) {
        "; it looks like HTML (an error or login page?)"
    } else if text.trim_start().starts_with('<') {
        "; it looks like XML"
    } else {
        ""
    };
    format!(
        "the answer of `{endpoint}` is declared `{}` but is not JSON ({not_json}){looks}",
        content_type.unwrap_or_default()
    )
}

/// Whether `ask` executes `plan`: a plan with steps whose status is `planned`, `partial` (the
/// steps answer part of the request, as the status says) or `missing_required_parameter` (a
/// later step's parameter may come from an earlier step's records, [`crate::bind`]; a step
/// still missing one is refused at the boundary). Never a plan of status `no_suitable_tool`
/// or `not_understood` (the Understanding names what the artifact does not know, or gives a
/// value a parameter cannot take: steps planned from the rest would answer another request),
/// nor an out-of-scope request.
pub fn executes(plan: &Plan) -> bool {
    use schemarouter_core::route::PlanStatus;
    !plan.steps.is_empty()
        && plan.out_of_scope.is_none()
        && matches!(
            plan.status,
            PlanStatus::Planned | PlanStatus::Partial | PlanStatus::MissingRequiredParameter
        )
}

/// Why `ask` does not execute `plan` ([`executes`]): the plan's status as `route` names it,
/// then what the plan says: the names the Understanding gave that the artifact does not have
/// (with their did-you-mean) and the values it refuses before any other warning, else the
/// out-of-scope reason.
pub fn not_executed(plan: &Plan) -> String {
    let status = serde_json::to_value(plan.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let mut why: Vec<&str> = plan.warnings.iter().map(String::as_str).collect();
    if why.is_empty() {
        why.extend(plan.out_of_scope.as_deref());
    }
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(": {}", why.join("; "))
    };
    let what = if plan.steps.is_empty() {
        "the plan has no step to execute"
    } else {
        "the plan is not executed"
    };
    format!("{what} (status `{status}`){why}; no upstream was called; `route` explains why")
}

/// A plan of `steps` on `g`.
pub fn plan_of(g: &FrozenGraph, steps: Vec<Step>) -> Plan {
    Plan {
        steps,
        ..Plan::empty(g.routing_fingerprint.clone())
    }
}

impl Gateway {
    /// `call`: execute one endpoint (or a plan passed in) and project its response.
    pub async fn call(&self, mut req: CallRequest) -> Result<Answer, Failure> {
        let s = self.core.snapshot();
        let g = s.graph();
        let plan = match (&req.plan, &req.tool) {
            (Some(_), Some(_)) => {
                return Err(Failure::Invalid(
                    "give `plan` alone, or `tool` (with `endpoint` and `arguments`)".into(),
                ));
            }
            (Some(p), None) => {
                boundary::fingerprint(g, &p.routing_fingerprint).map_err(Failure::Refused)?;
                p.clone()
            }
            (None, Some(tool)) => {
                let endpoint = match &req.endpoint {
                    Some(e) => e.clone(),
                    None => match g.tool(tool).map(|(_, t)| &t.endpoints) {
                        Some(es) if es.len() == 1 => es[0].id.clone(),
                        Some(es) if !es.is_empty() => {
                            let ids: Vec<&str> = es.iter().map(|e| e.id.as_str()).collect();
                            return Err(Failure::Invalid(format!(
                                "tool `{tool}` has {} endpoints; name one with `endpoint`: {}",
                                es.len(),
                                ids.join(", ")
                            )));
                        }
                        _ => String::new(),
                    },
                };
                let e = boundary::endpoint(g, &self.config, tool, &endpoint)
                    .map_err(Failure::Refused)?;
                not_local(tool, e)?;
                boundary::whole_integers(e, &mut req.arguments);
                boundary::arguments(e, &req.arguments, self.http_base(tool).is_some())
                    .map_err(Failure::Refused)?;
                plan_of(
                    g,
                    vec![call_step(
                        g,
                        tool,
                        e,
                        &req.arguments,
                        req.fields.as_deref(),
                    )?],
                )
            }
            (None, None) => {
                return Err(Failure::Invalid(
                    "give `tool` (with `endpoint` and `arguments`) or a `plan` from `route`".into(),
                ));
            }
        };
        self.run(&s, plan, false, req.raw).await
    }

    /// `ask`: route the question (or Understanding), execute every step (earlier steps' records
    /// fill later steps' unbound parameters through their declared bindings), project. A plan
    /// that is not executed ([`executes`]: no suitable tool, not understood, out of scope) is
    /// the answer as it is, with its status and the reason ([`Answer::not_executed`]); no
    /// upstream is called.
    pub async fn ask(&self, req: AskRequest) -> Result<Answer, Failure> {
        let s = self.core.snapshot();
        let routed = self
            .core
            .route_on(
                &s,
                &RouteRequest {
                    question: req.question,
                    understanding: req.understanding,
                    k: req.k,
                    projection: req.projection,
                },
            )
            .map_err(|e| Failure::Invalid(e.message))?;
        if !executes(&routed.plan) {
            return Ok(Answer::not_executed(&s, routed.plan));
        }
        self.run(&s, routed.plan, true, req.raw).await
    }

    /// Check and execute every step of `plan` in order, then project. A step whose upstream
    /// fails after earlier steps answered ends the run with a partial answer: the steps that
    /// ran (records, accounting), the failed step as an issue of kind `step_failed` and a line
    /// of the reader context, and `partial: true`; when the first step fails, nothing answered
    /// and the failure is the answer. A refusal at the boundary refuses the whole request.
    async fn run(
        &self,
        s: &Snapshot,
        mut plan: Plan,
        show_plan: bool,
        raw: bool,
    ) -> Result<Answer, Failure> {
        let g = s.graph();
        let mut results: Vec<StepResult> = Vec::new();
        let mut issues = Vec::new();
        let mut calls = Vec::new();
        let mut raws = Vec::new();
        let mut bindings = Vec::new();
        let mut pending = std::mem::take(&mut plan.steps);
        let total = pending.len();
        let mut contexts: Vec<String> = Vec::new();
        let mut partial = false;
        // Each source's attribution is said once per answer: by the first step that has it.
        let mut said: BTreeMap<String, String> = BTreeMap::new();
        while !pending.is_empty() {
            // Bindings first: a step whose required parameters earlier records fill runs after
            // the steps that give them (the first ready step in plan order; else the first).
            for st in &mut pending {
                bindings.extend(crate::bind::fill(g, &results, st));
            }
            let next = pending
                .iter()
                .position(|st| crate::bind::ready(g, st))
                .unwrap_or(0);
            plan.steps.push(pending.remove(next));
            let i = plan.steps.len() - 1;
            let e = boundary::endpoint(
                g,
                &self.config,
                &plan.steps[i].tool,
                &plan.steps[i].endpoint,
            )
            .map_err(Failure::Refused)?;
            boundary::whole_integers(e, &mut plan.steps[i].params);
            let step = plan.steps[i].clone();
            not_local(&step.tool, e)?;
            boundary::arguments(e, &step.params, self.http_base(&step.tool).is_some())
                .map_err(Failure::Refused)?;
            let done = match self.step(g, e, &step, i, raw, &mut said).await {
                Ok(done) => done,
                Err(err) if results.is_empty() => {
                    return Err(Failure::Upstream(in_step(err, &step, i, total)));
                }
                Err(err) => {
                    let issue = failed_step(err, &step, i, total, &pending);
                    contexts.push(format!(
                        "[{}/{}] failed: {}\n",
                        step.tool, step.endpoint, issue.message
                    ));
                    issues.push(issue);
                    plan.steps.append(&mut pending);
                    partial = true;
                    break;
                }
            };
            issues.extend(done.issues);
            calls.push(done.call);
            contexts.push(done.context);
            raws.extend(done.raw);
            results.push(done.result);
        }
        // One step: its context is the whole context, rendered and counted already.
        let (context, delivered) = match (calls.as_slice(), contexts.len()) {
            ([one], 1) => (contexts.concat(), one.delivered_tokens),
            _ => {
                let context = contexts.concat();
                let n = count_tokens(&context);
                (context, n)
            }
        };
        let raw_total: usize = calls.iter().map(|c| c.raw_tokens).sum();
        let mut tokens = BTreeMap::from([
            ("raw".to_string(), raw_total),
            ("delivered".to_string(), delivered),
        ]);
        // Said, not hidden: the reader context (values with units, source type, licence,
        // provenance) costs more than the raw responses did.
        if delivered > raw_total {
            tokens.insert("over_raw".to_string(), delivered - raw_total);
        }
        Ok(Answer {
            artifact_hash: s.summary.content_hash.clone(),
            plan: show_plan.then_some(plan),
            status: None,
            reason: None,
            partial,
            steps: results,
            issues,
            context,
            calls,
            tokens,
            bindings,
            raw: raws,
        })
    }

    /// Execute step `i` (on endpoint `e`, checked at the boundary) and project its answer:
    /// its projection, issues, accounting, reader context (its source's attribution said
    /// unless `said` holds it already) and, when asked for, its raw response.
    async fn step(
        &self,
        g: &FrozenGraph,
        e: &EndpointData,
        step: &Step,
        i: usize,
        raw: bool,
        said: &mut BTreeMap<String, String>,
    ) -> Result<Done, UpstreamError> {
        let response = self.execute(e, step).await;
        if let Err(err) = &response {
            self.core.metrics.gateway_call(&step.tool, err.kind);
        }
        let mut response = response?;
        // The one upstream header passed on (the media type) may echo a credential too.
        response.content_type = response.content_type.map(|t| self.secrets.scrub_owned(t));
        if let Some(b) = &mut response.binary {
            b.content_type = self.secrets.scrub(&b.content_type);
        }
        let elapsed = response.elapsed;
        let declared_type = response.content_type.clone();
        let got = self.received(e, step, response, raw.then_some(i))?;
        let mut issues: Vec<extract::report::Issue> = got
            .note
            .as_ref()
            .map(|message| extract::report::Issue {
                step: i,
                tool: step.tool.clone(),
                endpoint: step.endpoint.clone(),
                field: None,
                kind: extract::report::IssueKind::Shape,
                count: 0,
                records: Vec::new(),
                message: message.clone(),
            })
            .into_iter()
            .collect();
        let text = got.counted;
        // Counted beside the parsing and the projection (the count does not depend on them).
        let raw_count = crate::tokens::RawCount::start(&text);
        // An HTML page the upstream declared JSON (a login or error page) is never read as
        // the XML it may well be; XML mislabelled JSON is still read.
        let parsed = if got.document.is_none()
            && declared_json(declared_type.as_deref())
            && looks_like_html(&text)
        {
            Err(String::new())
        } else {
            extract::parse_step_response(
                got.document.as_deref().unwrap_or(&text),
                Some(&step.tool),
                g,
                step,
            )
            .map_err(|err| err.message)
        };
        let doc = parsed.map_err(|why| {
            self.core.metrics.gateway_call(&step.tool, "malformed");
            UpstreamError::new(
                &step.tool,
                "malformed",
                unreadable(
                    &step.endpoint,
                    declared_type.as_deref(),
                    &text,
                    &self.secrets.scrub(&why),
                ),
            )
        })?;
        self.core.metrics.gateway_call(&step.tool, "ok");
        let one = plan_of(g, vec![step.clone()]);
        let mut x = extract::extract_with(g, &one, &[doc], false)
            .map_err(|err| UpstreamError::new(&step.tool, "malformed", err.message))?;
        let r = x.steps.remove(0);
        for mut issue in x.issues {
            issue.step = i;
            issues.push(issue);
        }
        let key = render::attribution_key(&r);
        let at = key.as_ref().and_then(|k| said.get(k)).map(String::as_str);
        let (context, delivered_tokens, form) = reader_context(&r, at);
        if let Some(k) = key {
            said.entry(k)
                .or_insert_with(|| format!("{}/{}", r.tool, r.endpoint));
        }
        let raw_tokens = raw_count.finish().await;
        self.core
            .metrics
            .gateway_tokens(&step.tool, raw_tokens, delivered_tokens);
        Ok(Done {
            call: CallAccount {
                tool: step.tool.clone(),
                endpoint: step.endpoint.clone(),
                upstream_ms: (elapsed.as_secs_f64() * 1e6).round() / 1e3,
                raw_bytes: got.bytes,
                raw_tokens,
                delivered_tokens,
                context: form,
            },
            context,
            raw: got.raw,
            issues,
            result: r,
        })
    }

    /// What the answer of `step` (on endpoint `e`) gives the projection, the accounting and,
    /// for step `raw` when the request asked for it, the raw response. An upstream may echo a
    /// credential back: it never reaches the agent (the text is scrubbed, a binary body's bytes
    /// too, before they are summarised or encoded; `raw` then says `redacted`). A binary body (an
    /// image, a PDF) is never read as text: an endpoint declared with the one field `result`
    /// gets its summary there (media type, bytes, SHA-256), any other endpoint fails
    /// `malformed`; its raw response is its base64, cut at `raw_cap_bytes`, and the raw side of
    /// the accounting counts that base64 (what the bytes cost an agent passed them).
    fn received(
        &self,
        e: &EndpointData,
        step: &Step,
        response: crate::upstream::RawResponse,
        raw: Option<usize>,
    ) -> Result<Received, UpstreamError> {
        use crate::upstream::binary;
        let cap = self.config.raw_cap_bytes;
        let Some(b) = response.binary else {
            // An MCP result's images, audio and blobs are checked in their bytes, not only as
            // the base64 the text writes them in.
            let (text, in_blobs) = if e.method.eq_ignore_ascii_case("MCP") {
                self.secrets.scrub_mcp_blobs(response.text)
            } else {
                (response.text, false)
            };
            let (text, redacted) = self.secrets.scrub_flagged(text);
            let redacted = redacted || in_blobs;
            let text = std::sync::Arc::new(text);
            let raw = raw.map(|step| RawText {
                step,
                text: text[..text.floor_char_boundary(cap.min(text.len()))].to_string(),
                truncated: text.len() > cap,
                content_type: None,
                encoding: None,
                redacted,
            });
            let (document, note) = read_text(e, &text);
            return Ok(Received {
                document,
                bytes: text.len(),
                counted: text,
                raw,
                note,
            });
        };
        // An upstream may echo a credential inside bytes too: scrubbed before anything is made
        // of them (the summary, the base64 of `raw`, the accounting).
        let scrubbed = self.secrets.scrub_bytes(&b.bytes);
        let redacted = scrubbed.is_some();
        let bytes: &[u8] = scrubbed.as_deref().unwrap_or(&b.bytes);
        let summary = binary::summary(&b.content_type, bytes);
        if !(e.fields.len() == 1 && e.fields[0].name == "result") {
            self.core.metrics.gateway_call(&step.tool, "malformed");
            return Err(UpstreamError::new(
                &step.tool,
                "malformed",
                format!(
                    "the answer of `{}` is {} bytes of `{}` (sha256 {}), not the text its declared fields are read from",
                    step.endpoint,
                    bytes.len(),
                    b.content_type,
                    summary["sha256"].as_str().unwrap_or_default()
                ),
            ));
        }
        let raw = raw.map(|step| {
            let (text, truncated) = binary::base64_capped(bytes, cap);
            RawText {
                step,
                text,
                truncated,
                content_type: Some(b.content_type.clone()),
                encoding: Some("base64"),
                redacted,
            }
        });
        Ok(Received {
            counted: std::sync::Arc::new(binary::base64_all(bytes)),
            document: Some(serde_json::json!({ "result": summary }).to_string()),
            bytes: bytes.len(),
            raw,
            note: None,
        })
    }

    /// One upstream call for `step` on endpoint `e`.
    async fn execute(
        &self,
        e: &EndpointData,
        step: &Step,
    ) -> Result<crate::upstream::RawResponse, UpstreamError> {
        let timeout = self.config.timeout(&step.tool);
        if e.method.eq_ignore_ascii_case("MCP") {
            let up = self.mcp_upstream(&step.tool)?;
            let name = e.mcp_tool.clone().unwrap_or_else(|| e.id.clone());
            let args: serde_json::Map<String, Value> = step.params.clone().into_iter().collect();
            let r = up
                .call(&name, args, timeout)
                .await
                .map_err(|err| UpstreamError {
                    message: self.secrets.scrub(&err.message),
                    ..err
                })?;
            if r.text.len() > self.config.max_response_bytes {
                return Err(UpstreamError::new(
                    &step.tool,
                    "too_large",
                    format!(
                        "the answer has {} bytes, more than the {}-byte cap (max_response_bytes)",
                        r.text.len(),
                        self.config.max_response_bytes
                    ),
                ));
            }
            return Ok(r);
        }
        let base = self.http_base(&step.tool);
        let declared = self
            .config
            .upstreams
            .get(&step.tool)
            .and_then(|u| u.declared_base.as_deref());
        let base = crate::upstream::http::Base {
            url: base.as_deref(),
            declared,
        };
        let req = crate::upstream::http::build(e, &step.params, base)
            .map_err(|m| UpstreamError::new(&step.tool, "not_configured", m))?;
        crate::upstream::http::send(
            &self.client,
            &step.tool,
            &req,
            self.secrets.get(&step.tool),
            &self.secrets,
            crate::upstream::http::Limits {
                timeout,
                retries: self.config.retries,
                max_bytes: self.config.max_response_bytes,
            },
        )
        .await
    }
}

/// An upstream failure of the first step (`i`, from 0) of a plan of `total` steps, when nothing
/// answered before it: its message led by the step when the plan has several ("step 1 of 2
/// (`faults/materials`): ..."), so an agent knows which one failed.
fn in_step(mut err: UpstreamError, step: &Step, i: usize, total: usize) -> UpstreamError {
    if total > 1 {
        err.message = format!(
            "step {} of {total} (`{}/{}`): {}",
            i + 1,
            step.tool,
            step.endpoint,
            err.message
        );
    }
    err
}

/// The issue of a partial answer (kind `step_failed`): step `i` (from 0) of `total` failed
/// after the steps before it answered (their records are in the answer); the steps `not_run`
/// after it were not executed. Its message is the upstream's error (`upstream \`faults\`
/// failed (status): ...`) led by the step and what the answer holds.
fn failed_step(
    err: UpstreamError,
    step: &Step,
    i: usize,
    total: usize,
    not_run: &[Step],
) -> extract::report::Issue {
    let names: Vec<String> = not_run
        .iter()
        .map(|s| format!("`{}/{}`", s.tool, s.endpoint))
        .collect();
    let skipped = if names.is_empty() {
        String::new()
    } else {
        format!("; not run: {}", names.join(", "))
    };
    extract::report::Issue {
        step: i,
        tool: step.tool.clone(),
        endpoint: step.endpoint.clone(),
        field: None,
        kind: extract::report::IssueKind::StepFailed,
        count: 0,
        records: Vec::new(),
        message: format!(
            "step {} of {total} failed, the answer holds the {i} step{} before it{skipped}: {err}",
            i + 1,
            if i == 1 { "" } else { "s" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn endpoint(fields: Value, mcp: bool) -> EndpointData {
        let mut e: EndpointData = serde_json::from_value(json!({
            "id": "echo", "method": "MCP", "url": "mcp://x/echo", "parameters": [],
            "fields": fields, "identifiers": [], "group_fields": {}
        }))
        .unwrap();
        e.mcp_tool = mcp.then(|| "echo".to_string());
        e
    }

    /// The issue of a partial answer names the failed step, what the answer holds, the steps
    /// not run and the upstream's error; the first step's failure is the answer, led by it.
    #[test]
    fn a_failed_step_is_an_issue_naming_what_ran_and_what_did_not() {
        let step = |endpoint: &str| -> Step {
            serde_json::from_value(
                json!({"tool": "faults", "endpoint": endpoint, "method": "GET",
                "url": "https://x.org", "params": {}, "fields": [], "score": 0, "why": ""}),
            )
            .unwrap()
        };
        let err = || UpstreamError::new("faults", "status", "HTTP 500: no");
        let issue = failed_step(
            err(),
            &step("materials"),
            1,
            4,
            &[step("details"), step("echo")],
        );
        assert_eq!(
            serde_json::to_value(&issue).unwrap(),
            json!({"step": 1, "tool": "faults", "endpoint": "materials", "kind": "step_failed", "count": 0,
                   "message": "step 2 of 4 failed, the answer holds the 1 step before it; not run: `faults/details`, `faults/echo`: upstream `faults` failed (status): HTTP 500: no"})
        );
        assert_eq!(
            in_step(err(), &step("materials"), 0, 2).to_string(),
            "upstream `faults` failed (status): step 1 of 2 (`faults/materials`): HTTP 500: no"
        );
        assert_eq!(
            in_step(err(), &step("materials"), 0, 1).to_string(),
            "upstream `faults` failed (status): HTTP 500: no"
        );
    }

    /// `ask` executes a plan with steps of status `planned`, `partial` or
    /// `missing_required_parameter` (bindings may fill a later step), never one that is not
    /// understood, has no suitable tool or is out of scope; the reason says which.
    #[test]
    fn only_a_plan_of_an_executing_status_is_executed() {
        use schemarouter_core::route::PlanStatus;
        let step: Step = serde_json::from_value(json!({"tool": "faults", "endpoint": "materials",
            "method": "GET", "url": "https://x.org", "params": {}, "fields": [], "score": 0, "why": ""}))
        .unwrap();
        let plan = |status: PlanStatus, steps: usize, out_of_scope: Option<&str>| {
            let mut p = Plan::empty("f".into());
            p.status = status;
            p.steps = vec![step.clone(); steps];
            p.out_of_scope = out_of_scope.map(str::to_string);
            p
        };
        for (status, steps, out, want) in [
            (PlanStatus::Planned, 1, None, true),
            (PlanStatus::Partial, 2, None, true),
            (PlanStatus::MissingRequiredParameter, 2, None, true),
            (PlanStatus::NotUnderstood, 1, None, false),
            (PlanStatus::NoSuitableTool, 1, None, false),
            (PlanStatus::Planned, 0, None, false),
            (PlanStatus::Planned, 1, Some("ordering food"), false),
        ] {
            assert_eq!(
                executes(&plan(status, steps, out)),
                want,
                "{status:?} {steps} {out:?}"
            );
        }
        let mut p = plan(PlanStatus::NotUnderstood, 1, None);
        p.warnings = vec!["unknown concept `vibes` (no close match in the artifact)".into()];
        assert_eq!(
            not_executed(&p),
            "the plan is not executed (status `not_understood`): unknown concept `vibes` (no close match in the artifact); no upstream was called; `route` explains why"
        );
        assert_eq!(
            not_executed(&plan(PlanStatus::NoSuitableTool, 0, Some("ordering food"))),
            "the plan has no step to execute (status `no_suitable_tool`): ordering food; no upstream was called; `route` explains why"
        );
    }

    #[test]
    fn a_body_declared_json_is_judged_as_json() {
        assert_eq!(
            unreadable(
                "e",
                Some("application/json"),
                "<html>not json",
                "invalid XML: x"
            ),
            "the answer of `e` is declared `application/json` but is not JSON (expected value at line 1 column 1); it looks like HTML (an error or login page?)"
        );
        assert_eq!(
            unreadable(
                "e",
                Some("application/problem+json; charset=utf-8"),
                "{\"ok\": tru",
                "w"
            ),
            "the answer of `e` is declared `application/problem+json; charset=utf-8` but is not JSON (EOF while parsing a value at line 1 column 10)"
        );
        assert!(looks_like_html(" \n<!DOCTYPE HTML><p>") && !looks_like_html("<feed/>"));
        assert_eq!(
            unreadable("e", Some("text/html"), "<html>", "invalid XML: x"),
            "the answer of `e` cannot be read: invalid XML: x"
        );
    }

    /// An MCP text answer of `Key: value` blocks: records where the endpoint declares fields
    /// (at its records path), kept whole under `result` with a note naming the keys, and a text
    /// that is no records left as it is with the reason.
    #[test]
    fn text_records_are_read_where_fields_are_declared() {
        let field = |n: &str| json!({"name": n, "type": "string", "concepts": [], "groups": [], "qualifiers": {}, "concept_factors": {}});
        let answer = |text: &str| json!({"content": [{"type": "text", "text": text}]}).to_string();
        let log = answer(
            "Commit history:\nCommit: a1\nAuthor: T\nMessage: one\n\nCommit: b2\nAuthor: T\nMessage: two\n",
        );
        let mut e = endpoint(json!([field("commit"), field("message")]), true);
        e.records = Some("[]".into());
        assert_eq!(
            read_text(&e, &log),
            (
                Some(r#"[{"author":"T","commit":"a1","message":"one"},{"author":"T","commit":"b2","message":"two"}]"#.to_string()),
                None
            )
        );
        e.records = None;
        assert_eq!(
            read_text(&e, &log),
            (None, Some("the text content reads as records of `Key: value` lines, but the text holds 2 records and the endpoint declares no records path (one record); it is left as it is".to_string()))
        );
        assert_eq!(
            read_text(&e, &answer("Repository status:\nOn branch main\n")),
            (None, Some("the text content is neither JSON nor records of `Key: value` lines (line 2 is no `Key: value` line); it is left as it is".to_string()))
        );
        let whole = endpoint(json!([field("result")]), true);
        assert_eq!(
            read_text(&whole, &log),
            (
                Some(r#"{"result":"Commit history:\nCommit: a1\nAuthor: T\nMessage: one\n\nCommit: b2\nAuthor: T\nMessage: two\n"}"#.to_string()),
                Some("the text content is kept whole as the declared field `result`, but it reads as 2 record(s) of `Key: value` lines (commit, author, message): declare those as response fields (records path `[]`) to have them projected".to_string())
            )
        );
        // Prose under `result` is as declared: nothing to say. JSON text and structured
        // content are the projection's.
        assert_eq!(read_text(&whole, &answer("just words")).1, None);
        assert_eq!(read_text(&whole, &answer("Echo: hi")).1, None);
        assert_eq!(read_text(&e, &answer("{\"commit\": \"a1\"}")), (None, None));
        assert_eq!(
            read_text(
                &e,
                r#"{"content":[{"type":"text","text":"Commit: a"}],"structuredContent":{"commit":"a"}}"#
            ),
            (None, None)
        );
    }

    #[test]
    fn plain_text_results_become_the_result_field() {
        let result = json!([{"name": "result", "type": "any", "concepts": [], "groups": [], "qualifiers": {}, "concept_factors": {}}]);
        let e = endpoint(result.clone(), true);
        let text =
            r#"{"content":[{"type":"text","text":"Echo: hi"},{"type":"text","text":"bye"}]}"#;
        assert_eq!(
            text_result(&e, text).as_deref(),
            Some(r#"{"result":"Echo: hi\nbye"}"#)
        );
        // JSON text, structured content, another tool kind: left to the projection.
        assert_eq!(
            text_result(&e, r#"{"content":[{"type":"text","text":"{\"a\":1}"}]}"#),
            None
        );
        assert_eq!(
            text_result(
                &e,
                r#"{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":1}}"#
            ),
            None
        );
        // An HTTP endpoint's body that is not JSON (text, XML) is the text of `result`; a JSON
        // body is left to the projection.
        let http = endpoint(result, false);
        assert_eq!(text_result(&http, text), None);
        assert_eq!(
            text_result(&http, "<a>x</a>\n").as_deref(),
            Some(r#"{"result":"<a>x</a>\n"}"#)
        );
        assert_eq!(
            text_result(&http, "plain words").as_deref(),
            Some(r#"{"result":"plain words"}"#)
        );
        // Images and blobs are summarised, the texts around them kept in order.
        let text = r#"{"content":[{"type":"text","text":"a tiny image:"},{"type":"image","data":"YWJj","mimeType":"image/png"}]}"#;
        assert_eq!(
            text_result(&e, text).as_deref(),
            Some(
                r#"{"result":["a tiny image:",{"bytes":3,"content_type":"image/png","sha256":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad","type":"image"}]}"#
            )
        );
        // An empty body (204 No Content) is the empty object, whatever the endpoint declares.
        let fields = json!([{"name": "id", "type": "string", "concepts": [], "groups": [], "qualifiers": {}, "concept_factors": {}}]);
        assert_eq!(
            text_result(&endpoint(fields, false), " \r\n").as_deref(),
            Some("{}")
        );
    }
}
