//! The gateway's additions to the HTTP API's OpenAPI 3.1 document: `POST /v1/call` and
//! `POST /v1/ask`, their request and answer schemas, and the gateway's error body. The
//! routing server renders `GET /openapi.json` (its own routes, `servers` naming the bound
//! address); [`layer`] extends that document on the way out, so the gateway's description
//! names every route it serves and the server stays free of the gateway's types.

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use axum::response::Response;
use serde_json::{Map, Value, json};

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn json_response(description: &str, schema: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": reference(schema)}}
    })
}

/// The responses of `call` and `ask`.
fn responses() -> Value {
    // The kinds of a 502 are the outcomes of the one table but `ok` and `timeout` (a 504).
    let kinds: Vec<&str> = schemarouter_server::metrics::GATEWAY_OUTCOMES
        .iter()
        .copied()
        .filter(|o| !matches!(*o, "ok" | "timeout"))
        .collect();
    let failed = format!(
        "The upstream failed (`upstream_<kind>`: {}; `upstream` names it)",
        kinds.join(", ")
    );
    json!({
        "200": json_response("The projected answer: one result per executed step with the planned fields only (unit, source type, licence, provenance), the reader context, and the tokens of the raw responses and of what the agent received; for `ask`, a plan that is not executed (no suitable tool, not understood, out of scope) with its `status` and `reason`, no upstream called", "GatewayAnswer"),
        "400": json_response("Not JSON, not a valid request, or a request to fix (`invalid_request`; the message says what), or arguments that do not fit the declared parameters (`refused`, `check`: `arguments`)", "GatewayError"),
        "401": json_response("A bearer token is required (--token-file) and missing or wrong", "Error"),
        "403": json_response("The deployment does not allow the step (`refused`; `check` is `allow_list` or `destructive`)", "GatewayError"),
        "404": json_response("The artifact has no such tool or endpoint (`refused`, `check`: `endpoint`)", "GatewayError"),
        "409": json_response("The plan was made on another artifact (`refused`, `check`: `fingerprint`): route again", "GatewayError"),
        "413": json_response("The body is larger than --max-body-bytes", "Error"),
        "415": json_response("The body is not JSON, or is compressed (Content-Encoding)", "Error"),
        "502": json_response(&failed, "GatewayError"),
        "503": json_response("Too many requests at once (--max-concurrency); retry", "Error"),
        "504": json_response("The upstream did not answer within its timeout (`upstream_timeout`)", "GatewayError"),
        "default": json_response("Any other error (405 wrong method, 408 timeout)", "Error")
    })
}

fn schemas() -> Value {
    let mut call = crate::faces::call_schema();
    call["description"] = json!(
        "One endpoint with arguments (`tool`, `endpoint`, `arguments`, `fields`), or a plan from `route` (`plan`); `raw` also returns the raw responses, capped."
    );
    call["properties"]["plan"] = reference("Plan");
    let mut ask = crate::faces::ask_schema();
    ask["description"] =
        json!("A question, or an Understanding, routed to a plan whose steps are executed.");
    ask["properties"]["understanding"] = reference("Understanding");
    let count = json!({"type": "integer", "minimum": 0});
    json!({
        "GatewayCallRequest": call,
        "GatewayAskRequest": ask,
        "GatewayAnswer": {
            "type": "object",
            "description": "What the agent receives: the planned fields of every executed step and the accounting.",
            "properties": {
                "artifact_hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                "plan": reference("Plan"),
                "status": {"enum": ["planned", "partial", "missing_required_parameter", "no_suitable_tool", "not_understood"], "description": "`ask` of a plan that is not executed (no suitable tool, not understood, out of scope): its status; no upstream was called and `steps` is empty. Left out when the plan was executed."},
                "reason": {"type": "string", "description": "Why the plan was not executed: the status and what the plan says (unknown names, refused values, the out-of-scope reason). Left out when the plan was executed."},
                "partial": {"const": true, "description": "A step failed after earlier steps answered: the answer holds the steps that ran, and `issues` names the failed one (kind `step_failed`). Left out when every step ran."},
                "steps": {"type": "array", "items": {
                    "type": "object",
                    "description": "One step's projection: its fields with metadata, its records (values in the declared types, converted to the canonical unit where declared), and who to credit.",
                    "properties": {
                        "tool": {"type": "string"}, "endpoint": {"type": "string"},
                        "format": {"enum": ["json", "xml"]}, "records_path": {"type": "string"},
                        "fields": {"type": "array", "items": {"type": "object"}},
                        "envelope": {"type": "object"}, "envelope_canonical": {"type": "object"},
                        "records": {"type": "array", "items": {"type": "object"}},
                        "source": {"type": "object"}
                    },
                    "required": ["tool", "endpoint", "format", "fields", "records", "source"]
                }},
                "issues": {"type": "array", "items": {"type": "object", "properties": {
                    "step": count, "tool": {"type": "string"}, "endpoint": {"type": "string"},
                    "field": {"type": "string"}, "kind": {"type": "string", "description": "`shape`, `missing`, `no_value`, `type_mismatch`, `unknown_field`: a projection finding; `step_failed`: the step failed and the answer is partial."}, "count": count,
                    "records": {"type": "array", "items": {"type": "string"}}, "message": {"type": "string"}
                }, "required": ["step", "tool", "endpoint", "kind", "count", "message"]}},
                "context": {"type": "string", "description": "The reader context: every planned field with unit, source type, licence and provenance."},
                "calls": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "tool": {"type": "string"}, "endpoint": {"type": "string"},
                        "upstream_ms": {"type": "number", "minimum": 0},
                        "raw_bytes": count, "raw_tokens": count, "delivered_tokens": count,
                        "context": {"enum": ["full", "compact"], "description": "The reader context's form: full or compact, whichever holds fewer tokens."}
                    },
                    "required": ["tool", "endpoint", "upstream_ms", "raw_bytes", "raw_tokens", "delivered_tokens", "context"],
                    "additionalProperties": false
                }},
                "tokens": {
                    "type": "object", "description": "o200k_base tokens: of the raw responses and of the reader context delivered; `over_raw`, when the reader context holds more tokens than the raw responses, by how many.",
                    "properties": {"raw": count, "delivered": count, "over_raw": {"type": "integer", "minimum": 1}},
                    "required": ["raw", "delivered"], "additionalProperties": false
                },
                "bindings": {"type": "array", "items": {"type": "string"}},
                "raw": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"step": count, "text": {"type": "string"}, "truncated": {"type": "boolean"},
                                   "content_type": {"type": "string", "description": "A binary body's media type (its text is then base64)."},
                                   "encoding": {"enum": ["base64"]},
                                   "redacted": {"type": "boolean", "description": "A configured credential the body held was replaced by `[redacted]` (in a binary body, in its bytes before base64)."}},
                    "required": ["step", "text", "truncated"], "additionalProperties": false
                }}
            },
            "required": ["artifact_hash", "steps", "issues", "context", "calls", "tokens"],
            "additionalProperties": false
        },
        "GatewayError": {
            "type": "object",
            "properties": {"error": {
                "type": "object",
                "properties": {
                    "code": {"type": "string", "pattern": "^(invalid_request|refused|upstream_[a-z_]+)$"},
                    "message": {"type": "string", "minLength": 1},
                    "check": {"enum": ["fingerprint", "endpoint", "allow_list", "destructive", "arguments"]},
                    "upstream": {"type": "string"},
                    "status": {"type": ["integer", "null"]}
                },
                "required": ["code", "message"],
                "additionalProperties": false
            }},
            "required": ["error"],
            "additionalProperties": false
        }
    })
}

/// `doc` (the HTTP API's document) with the gateway's paths and schemas added.
pub fn extend(doc: &mut Value) {
    let op = |id: &str, summary: &str, request: &str| {
        json!({"post": {
            "operationId": id,
            "summary": summary,
            "requestBody": {"required": true, "content": {"application/json": {"schema": reference(request)}}},
            "responses": responses()
        }})
    };
    if let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) {
        paths.insert(
            "/v1/call".into(),
            op(
                "call",
                "Execute one endpoint (or a plan) upstream and get the planned fields only",
                "GatewayCallRequest",
            ),
        );
        paths.insert(
            "/v1/ask".into(),
            op(
                "ask",
                "Route a question, execute every step upstream, and get one reader context",
                "GatewayAskRequest",
            ),
        );
    }
    if let (Some(schemas), Value::Object(extra)) = (
        doc.pointer_mut("/components/schemas")
            .and_then(Value::as_object_mut),
        schemas(),
    ) {
        schemas.extend(extra);
    }
    if let Some(info) = doc.get_mut("info").and_then(Value::as_object_mut) {
        info.insert("title".into(), json!("schemarouter gateway HTTP API"));
    }
}

/// `router` with [`layer`] in front: its `GET /openapi.json` describes the gateway's routes too.
pub fn describe(router: axum::Router) -> axum::Router {
    router.layer(axum::middleware::from_fn(layer))
}

/// Middleware for the gateway's HTTP router: a successful `GET /openapi.json` is [`extend`]ed.
pub async fn layer(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let is_doc = req.method() == Method::GET && req.uri().path() == "/openapi.json";
    let resp = next.run(req).await;
    if !is_doc || resp.status() != StatusCode::OK {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 16 << 20).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let Ok(mut doc) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    extend(&mut doc);
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(text))
}

/// The HTTP API's committed document with the gateway's additions (`servers` as committed).
pub fn document() -> String {
    let mut doc: Value = serde_json::from_str(schemarouter_server::openapi::DOCUMENT)
        .unwrap_or_else(|_| Value::Object(Map::new()));
    extend(&mut doc);
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    #[test]
    fn the_gateway_routes_are_described_and_their_references_resolve() {
        let doc: Value = serde_json::from_str(&super::document()).unwrap();
        for (path, id) in [("/v1/call", "call"), ("/v1/ask", "ask")] {
            assert_eq!(doc["paths"][path]["post"]["operationId"], id);
        }
        // Every `$ref` names a schema the document has.
        fn refs(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(o) => {
                    if let Some(Value::String(r)) = o.get("$ref") {
                        out.push(r.clone());
                    }
                    o.values().for_each(|x| refs(x, out));
                }
                Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
                _ => {}
            }
        }
        let mut all = Vec::new();
        refs(&doc, &mut all);
        let missing: Vec<&String> = all
            .iter()
            .filter(|r| doc.pointer(&r[1..]).is_none())
            .collect();
        assert_eq!(missing, Vec::<&String>::new());
        assert!(all.contains(&"#/components/schemas/GatewayAnswer".to_string()));
    }

    /// The 502's kinds and the outcomes docs/gateway.md lists come from the one table.
    #[test]
    fn the_outcomes_are_those_of_the_one_table() {
        let doc: Value = serde_json::from_str(&super::document()).unwrap();
        assert_eq!(
            doc["paths"]["/v1/call"]["post"]["responses"]["502"]["description"],
            "The upstream failed (`upstream_<kind>`: crashed, unreachable, restarting, status, too_large, malformed, tool_error, not_configured; `upstream` names it)"
        );
        let listed: Vec<String> = schemarouter_server::metrics::GATEWAY_OUTCOMES
            .iter()
            .map(|o| format!("`{o}`"))
            .collect();
        let docs = include_str!("../../../docs/gateway.md").replace('\n', " ");
        assert!(
            docs.contains(&listed.join(", ")),
            "docs/gateway.md lists other outcomes"
        );
    }
}
