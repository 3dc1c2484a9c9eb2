//! The gateway's two faces over the server's: MCP tools `call` and `ask` (an
//! [`Extension`] of the server's MCP handler: `route`, `search_tools`, `explain_plan`,
//! `list_intents` stay as they are) and `POST /v1/call`, `POST /v1/ask` beside the HTTP API.
//!
//! Errors: bad arguments and boundary refusals are MCP tool errors (`isError: true`, `_meta.code`
//! `invalid_request` or `refused`, `_meta.check` the failed check) and HTTP 400 / 403; an
//! upstream failure is a JSON-RPC error (-32603, `data.code` `upstream_<kind>`, `data.upstream`
//! the tool) and HTTP 502 (504 for a timeout). The gateway keeps serving either way.

use crate::Gateway;
use crate::execute::{Answer, AskRequest, CallRequest, Failure};
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use rmcp::model::{
    CallToolResult, ContentBlock, ErrorCode, ErrorData, JsonObject, MetaObject, Tool,
    ToolAnnotations,
};
use schemarouter_server::mcp::{Extension, ExtensionCall};
use serde_json::{Value, json};
use std::sync::Arc;

/// The MCP side of the gateway: `call`, `ask`, and the re-exposed upstream tools.
pub struct Tools {
    gateway: Arc<Gateway>,
    exposed: Vec<(crate::expose::Exposed, Tool)>,
}

impl Tools {
    /// The tools over `gateway`; with `expose`, every allowed endpoint of the served artifact as
    /// a tool of its own ([`crate::expose`]).
    pub fn new(gateway: Arc<Gateway>, expose: bool) -> Tools {
        let exposed = if expose {
            let s = gateway.core.snapshot();
            let taken = [
                "route",
                "search_tools",
                "explain_plan",
                "list_intents",
                "call",
                "ask",
            ];
            crate::expose::endpoints(s.graph(), &gateway.config, &taken)
        } else {
            Vec::new()
        };
        Tools { gateway, exposed }
    }
}

fn object(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(o) => Arc::new(o),
        _ => Arc::new(JsonObject::new()),
    }
}

/// Input schema of `call`.
pub fn call_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "tool": {"type": "string", "description": "Tool id (as `search_tools` and `route` give it)."},
            "endpoint": {"type": "string", "description": "Endpoint id (default: the tool's only endpoint)."},
            "arguments": {"type": "object", "description": "Arguments in the tool's own parameter names. Bytes (a binary request body such as application/octet-stream, declared `format: byte`; a multipart part of a binary media type) are given as a base64 string; an XML or plain-text request body as the string `body`."},
            "fields": {"type": "array", "items": {"type": "string"}, "description": "Response fields to keep (default: every declared field). Name only those you need: the fields left out are the tokens saved."},
            "plan": {"type": "object", "description": "A plan `route` returned, executed step by step (instead of `tool`)."},
            "raw": {"type": "boolean", "description": "Also return the raw responses, capped."}
        },
        "additionalProperties": false
    })
}

/// Input schema of `ask`.
pub fn ask_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "question": {"type": "string", "description": "The question."},
            "understanding": {"type": "object", "description": "An Understanding (see the `understand` prompt), instead of the question."},
            "k": {"type": "integer", "minimum": 1, "maximum": 1000},
            "projection": {"type": "string", "enum": ["core", "recall", "minimal", "all"]},
            "raw": {"type": "boolean", "description": "Also return the raw responses, capped."}
        },
        "additionalProperties": false
    })
}

fn executes() -> ToolAnnotations {
    ToolAnnotations::new().read_only(false).open_world(true)
}

fn parse<T: serde::de::DeserializeOwned>(args: Option<JsonObject>) -> Result<T, Failure> {
    serde_json::from_value(Value::Object(args.unwrap_or_default()))
        .map_err(|e| Failure::Invalid(format!("invalid arguments: {e}")))
}

impl Extension for Tools {
    fn tools(&self) -> Vec<Tool> {
        vec![
            Tool::new(
                "call",
                "Execute one tool endpoint upstream (or a plan from `route`) and get only the declared (or named) response fields, each with unit, source type, licence and provenance, plus the tokens the raw response held and the tokens you received. The raw response only with `raw: true`, capped.",
                object(call_schema()),
            )
            .with_title("Call a tool through the gateway")
            .with_annotations(executes()),
            Tool::new(
                "ask",
                "Answer a question: route it to a plan, execute every step upstream (earlier records fill later parameters through declared bindings), and get one reader context with the planned fields only. A plan that is not executed (no suitable tool, not understood, out of scope) is answered with its status and the reason, and no upstream is called.",
                object(ask_schema()),
            )
            .with_title("Ask: plan, execute, project")
            .with_annotations(executes()),
        ]
        .into_iter()
        .chain(self.exposed.iter().map(|(_, t)| t.clone()))
        .collect()
    }

    fn served_hits(
        &self,
        hits: Vec<schemarouter_core::search::Hit>,
    ) -> Vec<schemarouter_core::search::Hit> {
        let s = self.gateway.core.snapshot();
        let g = s.graph();
        crate::expose::served_hits(
            hits,
            &self.gateway.config,
            |tool, endpoint| {
                g.tool(tool)
                    .and_then(|(_, t)| t.endpoints.iter().find(|e| e.id == endpoint))
            },
            |tool, endpoint| {
                self.exposed
                    .iter()
                    .find(|(x, _)| x.tool == tool && x.endpoint == endpoint)
                    .map(|(x, _)| x.name.clone())
            },
        )
    }

    fn call<'a>(&'a self, name: &'a str, args: Option<JsonObject>) -> ExtensionCall<'a> {
        Box::pin(async move {
            let exposed = self.exposed.iter().find(|(x, _)| x.name == name);
            let r = match (name, exposed) {
                (_, Some((x, _))) => {
                    let arguments = args.unwrap_or_default().into_iter().collect();
                    self.gateway
                        .call(CallRequest {
                            tool: Some(x.tool.clone()),
                            endpoint: Some(x.endpoint.clone()),
                            arguments,
                            ..CallRequest::default()
                        })
                        .await
                }
                ("call", None) => match parse::<CallRequest>(args) {
                    Ok(req) => self.gateway.call(req).await,
                    Err(f) => Err(f),
                },
                _ => match parse::<AskRequest>(args) {
                    Ok(req) => self.gateway.ask(req).await,
                    Err(f) => Err(f),
                },
            };
            mcp_result(name, r)
        })
    }
}

/// An answer or failure as an MCP result.
pub fn mcp_result(tool: &str, r: Result<Answer, Failure>) -> Result<CallToolResult, ErrorData> {
    match r {
        Ok(a) => {
            // A plan `ask` did not execute says why in place of a reader context.
            let text = a.reason.clone().unwrap_or_else(|| a.context.clone());
            let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
            result.structured_content = Some(serde_json::to_value(&a).unwrap_or_default());
            Ok(result)
        }
        Err(Failure::Upstream(e)) => Err(ErrorData::new(
            ErrorCode::INTERNAL_ERROR,
            e.to_string(),
            Some(
                json!({"code": format!("upstream_{}", e.kind), "upstream": e.upstream, "status": e.status}),
            ),
        )),
        Err(f) => {
            let (code, check) = match &f {
                Failure::Refused(r) => ("refused", Some(r.check)),
                _ => ("invalid_request", None),
            };
            let mut result =
                CallToolResult::error(vec![ContentBlock::text(format!("`{tool}`: {f}"))]);
            let mut meta = MetaObject::new();
            meta.insert("code".into(), json!(code));
            if let Some(c) = check {
                meta.insert("check".into(), json!(c));
            }
            result.meta = Some(meta);
            Ok(result)
        }
    }
}

/// `POST /v1/call` and `POST /v1/ask` (for [`schemarouter_server::http::router_with`]).
pub fn http_routes(gw: Arc<Gateway>) -> axum::Router {
    axum::Router::new()
        .route("/v1/call", axum::routing::post(http_call))
        .route("/v1/ask", axum::routing::post(http_ask))
        .with_state(gw)
}

async fn body<T: serde::de::DeserializeOwned>(
    gw: &Gateway,
    headers: &HeaderMap,
    b: Body,
) -> Result<T, Response> {
    let bytes = schemarouter_server::http::json_body(&gw.core, headers, b).await?;
    if let Err(e) = schemarouter_core::json::check_no_repeated_keys(&bytes) {
        return Err(http_failure(&Failure::Invalid(format!(
            "the body is not valid JSON: {e}"
        ))));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| http_failure(&Failure::Invalid(format!("not a valid request: {e}"))))
}

async fn http_call(State(gw): State<Arc<Gateway>>, headers: HeaderMap, b: Body) -> Response {
    let start = std::time::Instant::now();
    match body::<CallRequest>(&gw, &headers, b).await {
        Ok(req) => timed(http_answer(gw.call(req).await), start),
        Err(r) => r,
    }
}

async fn http_ask(State(gw): State<Arc<Gateway>>, headers: HeaderMap, b: Body) -> Response {
    let start = std::time::Instant::now();
    match body::<AskRequest>(&gw, &headers, b).await {
        Ok(req) => timed(http_answer(gw.ask(req).await), start),
        Err(r) => r,
    }
}

/// `r` with a `Server-Timing` header (W3C Server Timing): `gateway;dur=MS`, the gateway's own
/// time for the request from the handler's start (the body read included) to the answer's
/// bytes, upstream calls included (each one's time is in the answer's `calls[].upstream_ms`).
/// `bench/gateway_overhead.py` reads it to tell the gateway's time from the loopback hops'.
fn timed(mut r: Response, start: std::time::Instant) -> Response {
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if let Ok(v) = header::HeaderValue::from_str(&format!("gateway;dur={ms:.3}")) {
        r.headers_mut().insert("server-timing", v);
    }
    r
}

fn json_response(status: StatusCode, v: &Value) -> Response {
    json_bytes(status, v.to_string().into_bytes())
}

fn json_bytes(status: StatusCode, bytes: Vec<u8>) -> Response {
    let mut r = Response::new(Body::from(bytes));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    r
}

/// An answer serialised straight to bytes (no intermediate JSON tree), or the failure.
fn http_answer(r: Result<Answer, Failure>) -> Response {
    match r.map(|a| serde_json::to_vec(&a)) {
        Ok(Ok(bytes)) => json_bytes(StatusCode::OK, bytes),
        Ok(Err(e)) => http_failure(&Failure::Invalid(format!(
            "the answer cannot be serialised: {e}"
        ))),
        Err(f) => http_failure(&f),
    }
}

fn http_failure(f: &Failure) -> Response {
    let (status, body) = match f {
        Failure::Invalid(m) => (
            StatusCode::BAD_REQUEST,
            json!({"error": {"code": "invalid_request", "message": m}}),
        ),
        Failure::Refused(r) => (
            StatusCode::from_u16(r.http_status()).unwrap_or(StatusCode::FORBIDDEN),
            json!({"error": {"code": "refused", "check": r.check, "message": f.to_string()}}),
        ),
        Failure::Upstream(e) => (
            if e.kind == "timeout" {
                StatusCode::GATEWAY_TIMEOUT
            } else {
                StatusCode::BAD_GATEWAY
            },
            json!({"error": {"code": format!("upstream_{}", e.kind), "upstream": e.upstream, "status": e.status, "message": e.to_string()}}),
        ),
    };
    json_response(status, &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemarouter_core::route::{Plan, PlanStatus};

    /// A plan `ask` does not execute is an ordinary MCP result (no error), its text the reason
    /// and its structured content the answer with the status and the plan.
    #[test]
    fn a_plan_not_executed_is_a_result_saying_why() {
        let mut plan = Plan::empty("f".into());
        plan.status = PlanStatus::NotUnderstood;
        let answer = Answer {
            artifact_hash: "h".into(),
            status: Some(plan.status),
            reason: Some("the plan is not executed (status `not_understood`)".into()),
            plan: Some(plan),
            partial: false,
            steps: Vec::new(),
            issues: Vec::new(),
            context: String::new(),
            calls: Vec::new(),
            tokens: std::collections::BTreeMap::from([
                ("raw".to_string(), 0),
                ("delivered".to_string(), 0),
            ]),
            bindings: Vec::new(),
            raw: Vec::new(),
        };
        let r = serde_json::to_value(mcp_result("ask", Ok(answer)).unwrap()).unwrap();
        assert_eq!(
            (
                &r["isError"],
                &r["content"],
                &r["structuredContent"]["status"],
                &r["structuredContent"]["plan"]["status"],
                &r["structuredContent"]["steps"]
            ),
            (
                &json!(false),
                &json!([{"type": "text", "text": "the plan is not executed (status `not_understood`)"}]),
                &json!("not_understood"),
                &json!("not_understood"),
                &json!([])
            )
        );
    }
}
