//! The OpenAPI 3.1 description of the HTTP API. Paths and responses are written here; the
//! request, Understanding and plan schemas come from the Rust types (schemars), their `$defs`
//! moved under `components/schemas`. The committed `docs/http-api.openapi.json` is this
//! document (`schemarouter serve --openapi`; a test keeps them equal) and is what
//! `GET /openapi.json` serves, its `servers` naming the address the server listens on
//! ([`document_for_server`]).

use super::core::{RouteRequest, SearchRequest, Searched};
use crate::route::{Plan, Understanding};
use serde_json::{Map, Value, json};

/// The committed document, served at `/openapi.json` (with the server's own address).
pub const DOCUMENT: &str = include_str!("../../../docs/http-api.openapi.json");

/// The `servers` URL of the committed document: `schemarouter serve`'s default `--bind`.
pub const DEFAULT_SERVER_URL: &str = "http://127.0.0.1:8080";

/// The committed document with `servers` set to `[{"url": url}]` (the address a running server
/// listens on, e.g. `http://127.0.0.1:43117`); everything else byte for byte as committed
/// (`document_for_server(DEFAULT_SERVER_URL) == DOCUMENT`).
pub fn document_for_server(url: &str) -> String {
    let mut doc: Value = match serde_json::from_str(DOCUMENT) {
        Ok(v) => v,
        // The committed document is JSON (a test reads it back); serve it as it is otherwise.
        Err(_) => return DOCUMENT.to_string(),
    };
    if let Some(o) = doc.as_object_mut() {
        o.insert("servers".into(), json!([{"url": url}]));
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// Rewrite `#/$defs/X` references to `#/components/schemas/X`.
fn rewrite_refs(v: &mut Value) {
    match v {
        Value::Object(o) => {
            if let Some(Value::String(r)) = o.get_mut("$ref")
                && let Some(name) = r.strip_prefix("#/$defs/")
            {
                *r = format!("#/components/schemas/{name}");
            }
            for x in o.values_mut() {
                rewrite_refs(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(rewrite_refs),
        _ => {}
    }
}

/// Add a schemars root schema (and its `$defs`) to `schemas` under `name`.
fn hoist(schemas: &mut Map<String, Value>, name: &str, mut root: Value) {
    rewrite_refs(&mut root);
    if let Some(o) = root.as_object_mut() {
        o.remove("$schema");
        if let Some(Value::Object(defs)) = o.remove("$defs") {
            for (k, d) in defs {
                if let Some(old) = schemas.get(&k) {
                    assert_eq!(old, &d, "two different schemas named {k}");
                }
                schemas.insert(k, d);
            }
        }
    }
    schemas.insert(name.to_string(), root);
}

fn schema_of<T: schemars::JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default()
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn json_response(description: &str, schema: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": reference(schema)}}
    })
}

fn errors(extra: &[(&str, &str)]) -> Map<String, Value> {
    let mut m = Map::new();
    for (code, d) in extra {
        m.insert(code.to_string(), json_response(d, "Error"));
    }
    m.insert(
        "401".into(),
        json_response(
            "A bearer token is required (--token-file) and missing or wrong",
            "Error",
        ),
    );
    m.insert(
        "503".into(),
        json_response(
            "Too many requests at once (--max-concurrency); retry",
            "Error",
        ),
    );
    m.insert(
        "default".into(),
        json_response("Any other error (405 wrong method, 408 timeout, 500 `artifact_unreadable`: the served artifact names a tool or field it does not have)", "Error"),
    );
    m
}

fn get_op(id: &str, summary: &str, ok: Value, extra: &[(&str, &str)]) -> Value {
    let mut responses = errors(extra);
    responses.insert("200".into(), ok);
    json!({"get": {"operationId": id, "summary": summary, "responses": responses}})
}

/// The document's component schemas: the request and response types (from the Rust types)
/// and the JSON answers written by hand.
fn schemas() -> Map<String, Value> {
    let mut schemas = Map::new();
    hoist(&mut schemas, "RouteRequest", schema_of::<RouteRequest>());
    hoist(&mut schemas, "Understanding", schema_of::<Understanding>());
    hoist(&mut schemas, "Plan", schema_of::<Plan>());
    hoist(&mut schemas, "SearchRequest", schema_of::<SearchRequest>());
    hoist(&mut schemas, "SearchResponse", schema_of::<Searched>());
    let hash = json!({"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "blake3 content hash of the artifact (hex)"});
    let extra = json!({
        "RouteResponse": {
            "type": "object",
            "description": "The Understanding that was planned, the plan, and the artifact that produced it.",
            "properties": {
                "understanding": reference("Understanding"),
                "plan": reference("Plan"),
                "artifact_hash": hash
            },
            "required": ["understanding", "plan", "artifact_hash"],
            "additionalProperties": false
        },
        "Intent": {
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "description": {"type": "string"},
                "domains": {"type": "array", "items": {"type": "string"}},
                "required_groups": {"type": "array", "items": {"type": "string"}},
                "examples": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["id", "description", "domains", "required_groups", "examples"],
            "additionalProperties": false
        },
        "IntentsResponse": {
            "type": "object",
            "properties": {
                "intents": {"type": "array", "items": reference("Intent")},
                "artifact_hash": hash
            },
            "required": ["intents", "artifact_hash"],
            "additionalProperties": false
        },
        "ToolResponse": {
            "type": "object",
            "properties": {
                "tool": {
                    "type": "object",
                    "description": "The tool as the artifact holds it: id, title, names, domain, source type, priority, provenance, licence, endpoints with parameters and response fields (see `schemarouter schema tool` for the declaration it was compiled from).",
                    "properties": {
                        "id": {"type": "string"},
                        "title": {"type": "string"},
                        "endpoints": {"type": "array", "items": {"type": "object"}}
                    },
                    "required": ["id", "title", "endpoints"]
                },
                "artifact_hash": hash
            },
            "required": ["tool", "artifact_hash"],
            "additionalProperties": false
        },
        "ArtifactSummary": {
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "project": {"type": "string"},
                "version": {"type": "string"},
                "format_version": {"type": "integer", "minimum": 1},
                "tool_version": {"type": "string"},
                "content_hash": hash,
                "routing_fingerprint": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                "tools": {"type": "integer", "minimum": 0},
                "endpoints": {"type": "integer", "minimum": 0},
                "fields": {"type": "integer", "minimum": 0},
                "concepts": {"type": "integer", "minimum": 0},
                "intents": {"type": "integer", "minimum": 0},
                "loaded_at": {"type": "number", "description": "Unix time (seconds) when the artifact was loaded"},
                "load_ms": {"type": "number", "minimum": 0, "description": "Time to read, verify and prepare the artifact (ms)"}
            },
            "required": ["path", "project", "version", "format_version", "tool_version", "content_hash", "routing_fingerprint", "tools", "endpoints", "fields", "concepts", "intents", "loaded_at", "load_ms"],
            "additionalProperties": false
        },
        "Health": {
            "type": "object",
            "properties": {"status": {"const": "ok"}},
            "required": ["status"],
            "additionalProperties": false
        },
        "Ready": {
            "type": "object",
            "properties": {"status": {"const": "ready"}, "artifact": reference("ArtifactSummary")},
            "required": ["status", "artifact"],
            "additionalProperties": false
        },
        "Error": {
            "type": "object",
            "properties": {
                "error": {
                    "type": "object",
                    "properties": {
                        "code": {
                            "type": "string",
                            "enum": ["invalid_json", "invalid_request", "question_too_long", "unauthorized", "not_found", "unknown_tool", "method_not_allowed", "timeout", "payload_too_large", "unsupported_media_type", "overloaded", "artifact_unreadable"]
                        },
                        "message": {"type": "string", "minLength": 1, "description": "What is wrong and what to send instead"}
                    },
                    "required": ["code", "message"],
                    "additionalProperties": false
                }
            },
            "required": ["error"],
            "additionalProperties": false
        }
    });
    if let Value::Object(o) = extra {
        schemas.extend(o);
    }
    schemas
}

/// The OpenAPI 3.1 document (pretty JSON with a final newline).
pub fn document() -> String {
    let schemas = schemas();
    let mut route_responses = errors(&[
        (
            "400",
            "Not JSON, not a route request, or a request to fix (the message says what)",
        ),
        ("413", "The body is larger than --max-body-bytes"),
        (
            "415",
            "The body is not JSON, or is compressed (Content-Encoding)",
        ),
    ]);
    route_responses.insert(
        "200".into(),
        json_response(
            "The plan, with the Understanding and the artifact hash",
            "RouteResponse",
        ),
    );
    let mut search_responses = errors(&[
        (
            "400",
            "Not JSON, not a search request, or a request to fix (the message says what)",
        ),
        ("413", "The body is larger than --max-body-bytes"),
        (
            "415",
            "The body is not JSON, or is compressed (Content-Encoding)",
        ),
    ]);
    search_responses.insert(
        "200".into(),
        json_response(
            "The ranked endpoints, best first, with the artifact hash",
            "SearchResponse",
        ),
    );
    let doc = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "schemarouter HTTP API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Route questions to tools and response fields over one loaded schemarouter artifact (the SchemaRouter paper's Understand step and Algorithm 1). Every answer carries the content hash of the artifact that produced it (also in the X-Artifact-Hash header). Errors are JSON with a stable code and a message that says what to fix.",
            "license": {"name": "See the repository"}
        },
        "servers": [{"url": DEFAULT_SERVER_URL}],
        "security": [{}, {"bearer": []}],
        "paths": {
            "/v1/route": {
                "post": {
                    "operationId": "route",
                    "summary": "Plan a question or an Understanding",
                    "requestBody": {
                        "required": true,
                        "content": {"application/json": {"schema": reference("RouteRequest")}}
                    },
                    "responses": route_responses
                }
            },
            "/v1/search": {
                "post": {
                    "operationId": "search",
                    "summary": "Rank the endpoints for a question (tool search)",
                    "requestBody": {
                        "required": true,
                        "content": {"application/json": {"schema": reference("SearchRequest")}}
                    },
                    "responses": search_responses
                }
            },
            "/v1/intents": get_op("intents", "The artifact's intents", json_response("The intents", "IntentsResponse"), &[]),
            "/v1/prompt": get_op("prompt", "The Understand-step (intent-registry) prompt", json!({
                "description": "The prompt text",
                "content": {"text/plain": {"schema": {"type": "string"}}}
            }), &[]),
            "/v1/tools/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}, "description": "Tool id"}],
                "get": {
                    "operationId": "tool",
                    "summary": "One tool as the artifact holds it",
                    "responses": {
                        "200": json_response("The tool", "ToolResponse"),
                        "400": json_response("The id is not UTF-8 text once percent-decoded (`invalid_request`)", "Error"),
                        "404": json_response("No tool with this id (the message lists the known ones)", "Error"),
                        "401": json_response("A bearer token is required (--token-file) and missing or wrong", "Error"),
                        "503": json_response("Too many requests at once (--max-concurrency); retry", "Error"),
                        "default": json_response("Any other error (405 wrong method, 408 timeout, 500 `artifact_unreadable`: the served artifact names a tool or field it does not have)", "Error")
                    }
                }
            },
            "/healthz": get_op("healthz", "Liveness", json_response("The server is up", "Health"), &[]),
            "/readyz": get_op("readyz", "Readiness and the loaded artifact", json_response("An artifact is loaded", "Ready"), &[]),
            "/metrics": get_op("metrics", "Metrics (OpenMetrics text, scraped by Prometheus)", json!({
                "description": "Requests by route and status, latency histograms, requests in flight, the artifact served, reloads",
                "content": {"application/openmetrics-text": {"schema": {"type": "string"}}}
            }), &[]),
            "/openapi.json": get_op("openapi", "This document", json!({
                "description": "The OpenAPI 3.1 description",
                "content": {"application/json": {"schema": {"type": "object"}}}
            }), &[])
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "Required when the server runs with --token-file"}}
        }
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn committed_document_is_current() {
        assert!(
            super::DOCUMENT == super::document(),
            "docs/http-api.openapi.json is stale: run `schemarouter serve --openapi > docs/http-api.openapi.json`"
        );
    }

    #[test]
    fn served_document_names_the_server_and_keeps_the_rest() {
        use serde_json::{Value, json};
        // The default address gives the committed bytes back: nothing else is re-rendered.
        assert!(super::document_for_server(super::DEFAULT_SERVER_URL) == super::DOCUMENT);
        let served = super::document_for_server("http://[::1]:43117");
        assert!(served.ends_with("}\n"));
        let mut served: Value = serde_json::from_str(&served).unwrap();
        assert_eq!(served["servers"], json!([{"url": "http://[::1]:43117"}]));
        served["servers"] = json!([{"url": super::DEFAULT_SERVER_URL}]);
        let committed: Value = serde_json::from_str(super::DOCUMENT).unwrap();
        assert_eq!(served, committed);
    }
}
