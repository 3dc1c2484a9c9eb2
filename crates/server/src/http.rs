//! The HTTP JSON API (`schemarouter serve`, tokio + axum) over the server [`Core`]. Described by
//! the OpenAPI 3.1 document `docs/http-api.openapi.json` (served at `/openapi.json`).
//!
//! | route | answer |
//! |---|---|
//! | `POST /v1/route` | `{"question"}` or `{"understanding"}` (+ `k`, `projection`) -> `{understanding, plan, artifact_hash}` |
//! | `POST /v1/search` | `{"query"}` (+ `k`) -> `{query, hits, artifact_hash}`: ranked endpoints |
//! | `GET /v1/intents` | the artifact's intents |
//! | `GET /v1/prompt` | the Understand-step prompt (text) |
//! | `GET /v1/tools/{id}` | one tool as the artifact holds it |
//! | `GET /healthz`, `GET /readyz` | liveness; readiness with the artifact summary |
//! | `GET /metrics` | OpenMetrics text |
//! | `GET /openapi.json` | the API description |
//!
//! Every request passes one guard: bearer token (when configured), the concurrency limit, the
//! request timeout, metrics and the request log. Every error is JSON
//! (`{"error": {"code", "message"}}`) with a 4xx status for bad requests (400 a body that is
//! not a route request or could not be read, 401 no token, 404 unknown route or tool, 405 wrong
//! method, 408 too slow, 413 body too large) and 503 when overloaded. Only bytes that are no
//! HTTP request at all get hyper's own bodiless 400 (hyper answers them before any service runs).

use super::core::{ApiError, Core, Held, parse_route_request, parse_search_request};
use axum::Router;
use axum::body::Body;
use axum::extract::{Extension, MatchedPath, Path, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::sync::Arc;
use std::time::Instant;

/// Response header naming the content hash of the artifact that answered.
pub const ARTIFACT_HEADER: HeaderName = HeaderName::from_static("x-artifact-hash");

/// A JSON response.
fn json(status: StatusCode, body: Vec<u8>, hash: Option<&str>) -> Response {
    let mut r = (status, body).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if let Some(h) = hash.and_then(|h| HeaderValue::from_str(h).ok()) {
        r.headers_mut().insert(ARTIFACT_HEADER, h);
    }
    r
}

fn to_json<T: serde::Serialize>(v: &T) -> Vec<u8> {
    // Our values always serialise (string keys, finite numbers).
    serde_json::to_vec(v).unwrap_or_default()
}

/// The JSON error response for `e`.
pub fn error_response(e: &ApiError) -> Response {
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::BAD_REQUEST);
    let mut r = json(status, to_json(&e.body()), None);
    if e.status == 401 {
        r.headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    if e.status == 503 {
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    r
}

/// [`error_response`] for a request answered before its body was read: with
/// `Connection: close` ([`closing`]).
fn unread_body(e: &ApiError) -> Response {
    closing(error_response(e))
}

/// `r` with `Connection: close`. A server that answers without reading the request body closes
/// the connection after the answer (the unread bytes cannot be told from a next request); the
/// header says so, so that a client does not send its next request on a connection about to
/// close (it got "server disconnected without sending a response").
pub(crate) fn closing(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}

/// The router of the HTTP API, guarded (see [`guarded`]).
pub fn router(core: Arc<Core>) -> Router {
    router_with(core, Router::new())
}

/// [`router`] with more routes (`extra`, whose state is already given: the gateway's
/// `POST /v1/call` and `POST /v1/ask`) under the same guard, fallbacks and metrics.
pub fn router_with(core: Arc<Core>, extra: Router) -> Router {
    let api = Router::new()
        .route("/v1/route", post(route))
        .route("/v1/search", post(search))
        .route("/v1/intents", get(intents))
        .route("/v1/prompt", get(prompt))
        .route("/v1/tools/{id}", get(tool))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
        .with_state(core.clone())
        .merge(extra)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    guarded(api, core)
}

/// Put the shared guard in front of every route of `router` (also used by the MCP server's
/// streamable HTTP transport).
pub fn guarded(router: Router, core: Arc<Core>) -> Router {
    router.layer(axum::middleware::from_fn_with_state(core, guard))
}

/// The guard: bearer token, concurrency permit, request timeout; then metrics and the request
/// log line (route, status, latency, artifact hash).
async fn guard(State(core): State<Arc<Core>>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |m| m.as_str().to_string());
    core.metrics.start();
    let auth = core.authorize(
        req.headers()
            .get(header::AUTHORIZATION)
            .map(HeaderValue::as_bytes),
    );
    let resp = match auth.and_then(|()| core.permit()) {
        Err(e) => error_response(&e),
        Ok(permit) => {
            let permit = Held(Arc::new(permit));
            let mut req = req;
            req.extensions_mut().insert(permit.clone());
            let r = match tokio::time::timeout(core.limits.request_timeout, next.run(req)).await {
                Ok(r) => r,
                Err(_) => error_response(&ApiError {
                    status: 408,
                    code: "timeout",
                    message: format!(
                        "the request took longer than {} ms (--request-timeout-ms); send the whole body at once",
                        core.limits.request_timeout.as_millis()
                    ),
                }),
            };
            drop(permit);
            r
        }
    };
    let latency = start.elapsed();
    let status = resp.status().as_u16();
    core.metrics.finish(&route, status, latency);
    if core.logs_requests() {
        // The artifact that answered, or (for answers that did not use it) the one served.
        let hash = resp
            .headers()
            .get(ARTIFACT_HEADER)
            .and_then(|h| h.to_str().ok())
            .map_or_else(
                || core.snapshot().summary.content_hash.clone(),
                str::to_string,
            );
        core.log_request("http", &route, status, latency, &hash);
    }
    resp
}

async fn route(
    State(core): State<Arc<Core>>,
    held: Option<Extension<Held>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let bytes = match json_body(&core, &headers, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let result = match parse_route_request(&bytes) {
        Ok(req) => {
            let core = core.clone();
            Core::off_the_runtime(held.map(|h| h.0), move || {
                let s = core.snapshot();
                core.route_on(&s, &req)
            })
            .await
        }
        Err(e) => Err(e),
    };
    match result {
        Ok(r) => {
            let hash = r.artifact_hash.clone();
            json(StatusCode::OK, to_json(&r), Some(&hash))
        }
        Err(e) => error_response(&e),
    }
}

async fn search(
    State(core): State<Arc<Core>>,
    held: Option<Extension<Held>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let bytes = match json_body(&core, &headers, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let result = match parse_search_request(&bytes) {
        Ok(req) => {
            let core = core.clone();
            Core::off_the_runtime(held.map(|h| h.0), move || {
                let s = core.snapshot();
                core.search_on(&s, &req)
            })
            .await
        }
        Err(e) => Err(e),
    };
    match result {
        Ok(r) => {
            let hash = r.artifact_hash.clone();
            json(StatusCode::OK, to_json(&r), Some(&hash))
        }
        Err(e) => error_response(&e),
    }
}

/// A JSON request body, read up to `--max-body-bytes`, or the error response: 415 for another
/// content type or a compressed body, 413 for a body (or a declared length) over the limit
/// (answered after draining what the client sends, within [`crate::body`]'s bounds, and with
/// `Connection: close`), 400 for a body that cannot be read.
pub async fn json_body(
    core: &Core,
    headers: &HeaderMap,
    body: Body,
) -> Result<axum::body::Bytes, Response> {
    if let Some(ct) = headers.get(header::CONTENT_TYPE) {
        let ct = ct.to_str().unwrap_or("").to_ascii_lowercase();
        if !ct.starts_with("application/json") && !ct.contains("+json") {
            return Err(unread_body(&ApiError {
                status: 415,
                code: "unsupported_media_type",
                message: format!(
                    "the body must be JSON (Content-Type: application/json), not `{ct}`"
                ),
            }));
        }
    }
    // The body is read as sent: a compressed body would be reported as "not valid JSON".
    if let Some(ce) = headers.get(header::CONTENT_ENCODING) {
        let ce = ce.to_str().unwrap_or("").trim().to_ascii_lowercase();
        if !ce.is_empty() && ce != "identity" {
            return Err(unread_body(&ApiError {
                status: 415,
                code: "unsupported_media_type",
                message: format!(
                    "the body must be sent uncompressed (Content-Encoding `{ce}` is not supported); leave out Content-Encoding or send `identity`"
                ),
            }));
        }
    }
    let max = core.limits.max_body_bytes;
    // A declared length beyond the limit is refused from the header: the body is not waited
    // for (a client announcing 99999999999 bytes and sending two would otherwise hold the
    // request until --request-timeout-ms).
    // A body announced within the drain bound is read and dropped first, so that a client that
    // writes it all before reading still gets the answer ([`crate::body`]).
    if declared_length_exceeds(headers, max) {
        if crate::body::worth_draining(headers) {
            crate::body::drain(body, 0).await;
        }
        return Err(unread_body(&payload_too_large(max)));
    }
    match crate::body::read_limited(body, max).await {
        Ok(bytes) => Ok(bytes),
        Err(crate::body::BodyError::TooLarge) => Err(unread_body(&payload_too_large(max))),
        Err(crate::body::BodyError::Unreadable(e)) => {
            Err(error_response(&body_read_error(&e, max)))
        }
    }
}

/// The error for a request body that could not be read: 413 `payload_too_large` when it exceeds
/// `max` bytes (`http_body_util::LengthLimitError`, which `axum::body::to_bytes` reports as the
/// error's source), else 400 `invalid_request`: a body hyper could not decode (a malformed
/// chunk-size line, a chunk shorter than its size, a connection closed before the body ended).
fn body_read_error(e: &axum::Error, max: usize) -> ApiError {
    if exceeds_length_limit(e) {
        return payload_too_large(max);
    }
    // The innermost cause says what was wrong (e.g. hyper's "invalid chunk size line").
    let cause = causes(e)
        .last()
        .map_or_else(String::new, ToString::to_string);
    ApiError::bad(
        "invalid_request",
        format!(
            "the request body could not be read: {cause}; send the body with a correct Content-Length or well-formed chunked encoding"
        ),
    )
}

/// 413 `payload_too_large`: the body is (or is declared to be) larger than `max` bytes.
fn payload_too_large(max: usize) -> ApiError {
    ApiError {
        status: 413,
        code: "payload_too_large",
        message: format!(
            "the body is larger than {max} bytes (--max-body-bytes); send one question or Understanding per request"
        ),
    }
}

/// Whether the request's `Content-Length` declares more than `max` bytes. Hyper has already
/// refused a malformed or repeated-and-conflicting `Content-Length`, so a value that does not
/// read as a number here is left to the body reader. Both faces use it (the route body here,
/// the MCP body screen in [`crate::mcp`]).
pub(crate) fn declared_length_exceeds(headers: &HeaderMap, max: usize) -> bool {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .is_some_and(|n| n > max as u64)
}

/// Whether `axum::body::to_bytes` failed because the body exceeded its limit: the error's
/// sources hold an `http_body_util::LengthLimitError` (what the `http_body_util::Limited` inside
/// `to_bytes` reports), recognised by its type, not by its text. Both faces use it (the route
/// body here, the MCP body screen in [`crate::mcp`]).
pub(crate) fn exceeds_length_limit(e: &axum::Error) -> bool {
    causes(e).any(|e| e.is::<http_body_util::LengthLimitError>())
}

/// `e` and its sources, outermost first.
fn causes<'a>(
    e: &'a (dyn std::error::Error + 'static),
) -> impl Iterator<Item = &'a (dyn std::error::Error + 'static)> {
    std::iter::successors(Some(e), |e| (*e).source())
}

async fn intents(State(core): State<Arc<Core>>) -> Response {
    let s = core.snapshot();
    let list: Vec<serde_json::Value> = s
        .graph()
        .intents
        .iter()
        .map(|i| {
            serde_json::json!({
                "id": i.id,
                "description": i.description,
                "domains": i.domains,
                "required_groups": i.required_groups,
                "examples": i.examples,
            })
        })
        .collect();
    let body = serde_json::json!({"intents": list, "artifact_hash": s.summary.content_hash});
    json(
        StatusCode::OK,
        to_json(&body),
        Some(&s.summary.content_hash),
    )
}

async fn prompt(State(core): State<Arc<Core>>) -> Response {
    let s = core.snapshot();
    let mut r = (StatusCode::OK, s.prompt.clone()).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if let Ok(h) = HeaderValue::from_str(&s.summary.content_hash) {
        r.headers_mut().insert(ARTIFACT_HEADER, h);
    }
    r
}

async fn tool(
    State(core): State<Arc<Core>>,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Response {
    // A path segment that is not UTF-8 once percent-decoded (`/v1/tools/%ff`): the usual JSON
    // error, not the extractor's plain text.
    let Path(id) = match id {
        Ok(id) => id,
        Err(e) => {
            return error_response(&ApiError {
                status: 400,
                code: "invalid_request",
                message: format!("{}; a tool id is UTF-8 text", e.body_text()),
            });
        }
    };
    let s = core.snapshot();
    match s.graph().tool(&id) {
        Some((_, t)) => {
            let body = serde_json::json!({"tool": t, "artifact_hash": s.summary.content_hash});
            json(
                StatusCode::OK,
                to_json(&body),
                Some(&s.summary.content_hash),
            )
        }
        None => {
            let ids: Vec<&str> = s.graph().tools.iter().map(|t| t.id.as_str()).collect();
            let shown = if ids.len() > 20 {
                format!("{}, ... ({} in all)", ids[..20].join(", "), ids.len())
            } else {
                ids.join(", ")
            };
            error_response(&ApiError {
                status: 404,
                code: "unknown_tool",
                message: format!("no tool `{id}` in the artifact; known tools: {shown}"),
            })
        }
    }
}

async fn healthz() -> Response {
    json(StatusCode::OK, br#"{"status":"ok"}"#.to_vec(), None)
}

async fn readyz(State(core): State<Arc<Core>>) -> Response {
    let s = core.snapshot();
    let body = serde_json::json!({"status": "ready", "artifact": s.summary});
    json(
        StatusCode::OK,
        to_json(&body),
        Some(&s.summary.content_hash),
    )
}

async fn metrics(State(core): State<Arc<Core>>) -> Response {
    let mut r = (StatusCode::OK, core.metrics.encode()).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
    );
    r
}

/// Where the server listens, put into every request by [`serve`]: `GET /openapi.json` names it
/// in `servers`.
#[derive(Clone)]
struct ServedAt {
    /// `http://ADDR`, the bound address (the URL of the `listening` event).
    url: Arc<str>,
    /// The OpenAPI document for `url`, rendered on first request.
    openapi: Arc<std::sync::OnceLock<String>>,
}

/// The OpenAPI document; its `servers` is the address the server listens on (the committed
/// document's default address when the router runs without [`serve`]).
async fn openapi(served: Option<axum::Extension<ServedAt>>) -> Response {
    let body = match served {
        Some(axum::Extension(s)) => s
            .openapi
            .get_or_init(|| super::openapi::document_for_server(&s.url))
            .as_bytes()
            .to_vec(),
        None => super::openapi::DOCUMENT.as_bytes().to_vec(),
    };
    json(StatusCode::OK, body, None)
}

async fn not_found(method: Method, uri: Uri) -> Response {
    error_response(&ApiError {
        status: 404,
        code: "not_found",
        message: format!(
            "no route {method} {}; the API is described at GET /openapi.json",
            uri.path()
        ),
    })
}

/// The method a path is served with: the read-only routes answer GET, every other route
/// (`/v1/route`, `/v1/search`, and the gateway's `/v1/call` and `/v1/ask` merged into this
/// router) answers POST.
fn allowed_method(path: &str) -> &'static str {
    const GET_PATHS: [&str; 6] = [
        "/v1/intents",
        "/v1/prompt",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
    ];
    if GET_PATHS.contains(&path) || path.starts_with("/v1/tools/") {
        "GET"
    } else {
        "POST"
    }
}

async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    let allowed = allowed_method(uri.path());
    let mut r = error_response(&ApiError {
        status: 405,
        code: "method_not_allowed",
        message: format!("{method} is not allowed on {}; use {allowed}", uri.path()),
    });
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allowed));
    r
}

/// Serve `router` on `listener` until `shutdown` resolves; then stop accepting, let requests in
/// flight finish, and return. Each connection is HTTP/1.1 (hyper, with keep-alive) and must
/// send each request's headers within `header_timeout` (the server's `--request-timeout-ms`):
/// a client that opens a connection and never finishes its request line and headers, or leaves a
/// kept-alive connection idle that long, is disconnected (as nginx's `client_header_timeout`
/// does, without an answer: no request was read to answer). The listener's address is what
/// `GET /openapi.json` names in `servers`.
///
/// Errors: none at present (a failed `accept` is retried after a short pause, as `axum::serve`
/// does: running out of file descriptors must not stop the server).
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    header_timeout: std::time::Duration,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::server::graceful::GracefulShutdown;
    let router = match listener.local_addr() {
        Ok(addr) => router.layer(axum::Extension(ServedAt {
            url: format!("http://{addr}").into(),
            openapi: Arc::default(),
        })),
        Err(_) => router,
    };
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Answers go out as soon as they are written: without TCP_NODELAY an answer written in
        // more than one segment waits for the client's delayed ACK (up to 40 ms on Linux).
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        let mut builder = hyper::server::conn::http1::Builder::new();
        // Half-closed connections (`curl --data ... | nc -N`, a client that shuts down its
        // sending side after the request) still get their answer: without this hyper ends the
        // connection unanswered when the read side reaches end-of-file.
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .half_close(true);
        let conn = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A connection's own failure (reset, malformed request, timeout) ends only it.
            let _ = conn.await;
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The status and JSON body answered for a body that could not be read.
    fn answer(e: &axum::Error, max: usize) -> (u16, serde_json::Value) {
        let a = body_read_error(e, max);
        (a.status, a.body())
    }

    /// A 405 names the method the path is served with: POST for the routing and the gateway's
    /// execution routes, GET for the read-only ones.
    #[test]
    fn a_wrong_method_is_told_the_one_the_path_is_served_with() {
        for (path, method) in [
            ("/v1/route", "POST"),
            ("/v1/search", "POST"),
            ("/v1/call", "POST"),
            ("/v1/ask", "POST"),
            ("/v1/intents", "GET"),
            ("/v1/prompt", "GET"),
            ("/v1/tools/weather_api", "GET"),
            ("/healthz", "GET"),
            ("/readyz", "GET"),
            ("/metrics", "GET"),
            ("/openapi.json", "GET"),
        ] {
            assert_eq!(allowed_method(path), method, "{path}");
        }
    }

    /// A body beyond the limit is recognised by the error's type; an error that merely says
    /// "length limit" is not one.
    #[tokio::test]
    async fn the_length_limit_is_recognised_by_type_not_text() {
        let e = axum::body::to_bytes(Body::from(vec![b'x'; 5]), 4)
            .await
            .unwrap_err();
        assert!(exceeds_length_limit(&e));
        assert_eq!(
            answer(&e, 4),
            (
                413,
                json!({"error": {"code": "payload_too_large", "message": "the body is larger than 4 bytes (--max-body-bytes); send one question or Understanding per request"}})
            )
        );
        let within = axum::body::to_bytes(Body::from(vec![b'x'; 4]), 4).await;
        assert_eq!(within.unwrap().len(), 4);
        let lookalike = axum::Error::new(std::io::Error::other("length limit exceeded"));
        assert!(!exceeds_length_limit(&lookalike));
        assert_eq!(
            answer(&lookalike, 4),
            (
                400,
                json!({"error": {"code": "invalid_request", "message": "the request body could not be read: length limit exceeded; send the body with a correct Content-Length or well-formed chunked encoding"}})
            )
        );
    }
}
