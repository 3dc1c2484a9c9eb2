//! HTTP APIs (OpenAPI endpoints): the request built from the endpoint's declared parameters,
//! sent with `reqwest` (TLS by rustls), with a timeout, retries with backoff for idempotent
//! methods only, `429 Retry-After` honoured, and a cap on the response body.
//!
//! Serialisation (OpenAPI 3 `style` / `explode`, as the import recorded them in each
//! parameter's array encoding):
//!
//! - `path`: `simple` (the default): a scalar percent-encoded into `{name}`, an array joined
//!   with `,` (or the declared separator);
//! - `query`: `form` (the default) with `explode: true`: `name=a&name=b` for an array, one
//!   `key=value` pair per property for an object; `explode: false`, `spaceDelimited` and
//!   `pipeDelimited`: one value joined with `,`, ` ` or `|`;
//! - `header`: `simple`: a scalar, or an array joined with `,`;
//! - `cookie`: `form`: `name=value` pairs in one `Cookie` header;
//! - `body` (and parameters with no location on `POST`, `PUT` and `PATCH`): one JSON object
//!   of the body parameters.
//!
//! Not covered: `matrix` and `label` path styles, `deepObject` query objects (an object in the
//! query is sent exploded as `form`), `multipart/form-data` and form-encoded bodies.

use super::{RawResponse, UpstreamError, backoff};
use crate::config::AuthKind;
use crate::secrets::{Credential, Secrets};
use schemarouter_core::artifact::{EndpointData, ParamData};
use schemarouter_core::model::ArrayEncoding;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Characters percent-encoded in a path segment (RFC 3986 unreserved pass).
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// One HTTP request, built and ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Method (upper case).
    pub method: String,
    /// URL with path parameters filled and the query string.
    pub url: String,
    /// Headers (credential headers are added when sending, never stored here).
    pub headers: Vec<(String, String)>,
    /// JSON body.
    pub body: Option<Value>,
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn joined(v: &Value, sep: &str) -> String {
    match v {
        Value::Array(items) => items.iter().map(scalar_text).collect::<Vec<_>>().join(sep),
        other => scalar_text(other),
    }
}

fn location(e: &EndpointData, p: &ParamData) -> &'static str {
    match p.location.as_deref() {
        Some("path") => "path",
        Some("query") => "query",
        Some("header") => "header",
        Some("cookie") => "cookie",
        Some("body") => "body",
        _ if e.url.contains(&format!("{{{}}}", p.name)) => "path",
        _ if matches!(e.method.as_str(), "POST" | "PUT" | "PATCH") => "body",
        _ => "query",
    }
}

/// Where to send a tool's requests instead of its declared URLs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Base<'a> {
    /// The replacement base URL.
    pub url: Option<&'a str>,
    /// The declared prefix it replaces (else: scheme and authority).
    pub declared: Option<&'a str>,
}

/// Build the request of endpoint `e` with `args` (already checked against the declared
/// parameters), its URL rebased by `base` (see [`Base`]).
///
/// Errors: a path parameter with no value, a URL that does not parse.
pub fn build(
    e: &EndpointData,
    args: &BTreeMap<String, Value>,
    base: Base<'_>,
) -> Result<Request, String> {
    let mut path = e.url.clone();
    let mut query: Vec<(String, String)> = Vec::new();
    let mut headers = Vec::new();
    let mut cookies = Vec::new();
    let mut body = serde_json::Map::new();
    for p in &e.parameters {
        let Some(v) = args.get(&p.name) else { continue };
        let sep = match &p.array {
            Some(ArrayEncoding::Joined(s)) => s.as_str(),
            _ => ",",
        };
        match location(e, p) {
            "path" => {
                let text = joined(v, sep);
                let enc = percent_encoding::utf8_percent_encode(&text, SEGMENT).to_string();
                path = path.replace(&format!("{{{}}}", p.name), &enc);
            }
            "query" => match (v, &p.array) {
                (Value::Array(items), Some(ArrayEncoding::Joined(s))) => {
                    query.push((
                        p.name.clone(),
                        items.iter().map(scalar_text).collect::<Vec<_>>().join(s),
                    ));
                }
                (Value::Array(_), Some(ArrayEncoding::Json)) => {
                    query.push((p.name.clone(), v.to_string()))
                }
                (Value::Array(items), _) => {
                    query.extend(items.iter().map(|i| (p.name.clone(), scalar_text(i))));
                }
                (Value::Object(o), _) => {
                    query.extend(o.iter().map(|(k, x)| (k.clone(), scalar_text(x))))
                }
                _ => query.push((p.name.clone(), scalar_text(v))),
            },
            "header" => headers.push((p.name.clone(), joined(v, sep))),
            "cookie" => cookies.push(format!("{}={}", p.name, joined(v, sep))),
            _ => {
                body.insert(p.name.clone(), v.clone());
            }
        }
    }
    if let Some(missing) = e
        .parameters
        .iter()
        .find(|p| location(e, p) == "path" && path.contains(&format!("{{{}}}", p.name)))
    {
        return Err(format!(
            "the path parameter `{}` has no value",
            missing.name
        ));
    }
    if !cookies.is_empty() {
        headers.push(("Cookie".into(), cookies.join("; ")));
    }
    let mut url = rebase(&path, base)?;
    if !query.is_empty() {
        url.query_pairs_mut()
            .extend_pairs(query.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    }
    Ok(Request {
        method: e.method.to_ascii_uppercase(),
        url: url.to_string(),
        headers,
        body: (!body.is_empty()).then_some(Value::Object(body)),
    })
}

/// `declared` rebased: `base.declared` (when `declared` starts with it) replaced by `base.url`;
/// else its scheme and authority taken from `base.url`, and `base.url`'s path put before its
/// own path.
fn rebase(declared: &str, base: Base<'_>) -> Result<url::Url, String> {
    if let (Some(b), Some(prefix)) = (base.url, base.declared)
        && let Some(rest) = declared.strip_prefix(prefix.trim_end_matches('/'))
    {
        let joined = format!("{}{rest}", b.trim_end_matches('/'));
        return url::Url::parse(&joined)
            .map_err(|e| format!("the rebased URL `{joined}` does not parse: {e}"));
    }
    let mut u = url::Url::parse(declared)
        .map_err(|e| format!("the declared URL `{declared}` does not parse: {e}"))?;
    let Some(base) = base.url else {
        return Ok(u);
    };
    let b = url::Url::parse(base)
        .map_err(|e| format!("the upstream base URL `{base}` does not parse: {e}"))?;
    let path = format!("{}{}", b.path().trim_end_matches('/'), u.path());
    u.set_scheme(b.scheme())
        .map_err(|()| format!("cannot use the scheme of `{base}`"))?;
    u.set_host(b.host_str())
        .map_err(|e| format!("cannot use the host of `{base}`: {e}"))?;
    u.set_port(b.port())
        .map_err(|()| format!("cannot use the port of `{base}`"))?;
    u.set_path(&path);
    Ok(u)
}

/// Whether retrying `method` cannot repeat an effect.
pub fn idempotent(method: &str) -> bool {
    matches!(method, "GET" | "HEAD" | "PUT" | "DELETE" | "OPTIONS")
}

/// Limits of one call.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Whole call, retries and waits included.
    pub timeout: Duration,
    /// Retries of idempotent methods.
    pub retries: u32,
    /// Largest body.
    pub max_bytes: usize,
}

/// Send `req` to `upstream` with `cred`; the body text of a 2xx answer.
///
/// Errors (credentials scrubbed from every message): timeout, connection failure, a status
/// other than 2xx (with the start of the body), a body over `max_bytes`, a body that is not
/// UTF-8.
pub async fn send(
    client: &reqwest::Client,
    upstream: &str,
    req: &Request,
    cred: Option<&Credential>,
    secrets: &Secrets,
    limits: Limits,
) -> Result<RawResponse, UpstreamError> {
    let start = Instant::now();
    let deadline = start + limits.timeout;
    let retries = if idempotent(&req.method) {
        limits.retries
    } else {
        0
    };
    let mut attempt = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let outcome = tokio::time::timeout(left, once(client, req, cred, limits.max_bytes)).await;
        let err = match outcome {
            Err(_) => UpstreamError::new(
                upstream,
                "timeout",
                format!(
                    "no complete answer within {} ms",
                    limits.timeout.as_millis()
                ),
            ),
            Ok(Ok(text)) => {
                return Ok(RawResponse {
                    text,
                    elapsed: start.elapsed(),
                });
            }
            Ok(Err(e)) => e,
        };
        let err = UpstreamError {
            upstream: upstream.to_string(),
            message: secrets.scrub(&err.message),
            ..err
        };
        let retryable =
            err.kind == "unreachable" || matches!(err.status, Some(429 | 502 | 503 | 504));
        if !retryable || attempt >= retries {
            return Err(err);
        }
        let wait = retry_after(&err).unwrap_or_else(|| backoff(attempt));
        if Instant::now() + wait >= deadline {
            return Err(UpstreamError {
                message: format!(
                    "{}; the next attempt (in {} ms) would pass the {} ms timeout",
                    err.message,
                    wait.as_millis(),
                    limits.timeout.as_millis()
                ),
                ..err
            });
        }
        tokio::time::sleep(wait).await;
        attempt += 1;
    }
}

/// The `Retry-After` seconds a 429 carried (kept in the message as `retry-after=N`).
fn retry_after(e: &UpstreamError) -> Option<Duration> {
    let i = e.message.find("retry-after=")?;
    let n: String = e.message[i + 12..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    n.parse::<u64>().ok().map(Duration::from_secs)
}

async fn once(
    client: &reqwest::Client,
    req: &Request,
    cred: Option<&Credential>,
    max_bytes: usize,
) -> Result<String, UpstreamError> {
    let method = reqwest::Method::from_bytes(req.method.as_bytes()).map_err(|_| {
        UpstreamError::new(
            "",
            "not_configured",
            format!("`{}` is no HTTP method", req.method),
        )
    })?;
    let mut url = url::Url::parse(&req.url)
        .map_err(|e| UpstreamError::new("", "not_configured", e.to_string()))?;
    let mut rb;
    if let Some(c) = cred
        && c.auth.kind == Some(AuthKind::Query)
    {
        url.query_pairs_mut()
            .append_pair(c.auth.name.as_deref().unwrap_or("api_key"), c.value());
    }
    rb = client.request(method, url);
    for (k, v) in &req.headers {
        rb = rb.header(k, v);
    }
    match cred {
        Some(c) if c.auth.kind == Some(AuthKind::Header) => {
            rb = rb.header(c.auth.name.as_deref().unwrap_or("X-API-Key"), c.value());
        }
        Some(c) if c.auth.kind == Some(AuthKind::Bearer) => {
            rb = rb.header("Authorization", format!("Bearer {}", c.value()));
        }
        _ => {}
    }
    if let Some(b) = &req.body {
        rb = rb
            .header("Content-Type", "application/json")
            .body(b.to_string());
    }
    rb = rb.header(
        "Accept",
        "application/json, application/xml;q=0.9, */*;q=0.5",
    );
    let mut resp = rb.send().await.map_err(|e| {
        // reqwest's message names the URL, which may carry a query credential: say less.
        let what = if e.is_connect() {
            "cannot connect"
        } else if e.is_timeout() {
            "timed out"
        } else {
            "the request failed"
        };
        UpstreamError::new(
            "",
            "unreachable",
            format!(
                "{what}: {}",
                std::error::Error::source(&e)
                    .map(|s| s.to_string())
                    .unwrap_or_default()
            ),
        )
    })?;
    let status = resp.status().as_u16();
    if let Some(len) = resp.content_length()
        && len as usize > max_bytes
    {
        return Err(UpstreamError::new(
            "",
            "too_large",
            format!(
                "the answer declares {len} bytes, more than the {max_bytes}-byte cap (max_response_bytes)"
            ),
        ));
    }
    let retry = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let mut body = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(c)) => {
                if body.len() + c.len() > max_bytes {
                    return Err(UpstreamError::new(
                        "",
                        "too_large",
                        format!(
                            "the answer is longer than the {max_bytes}-byte cap (max_response_bytes)"
                        ),
                    ));
                }
                body.extend_from_slice(&c);
            }
            Ok(None) => break,
            Err(e) => {
                return Err(UpstreamError::new(
                    "",
                    "unreachable",
                    format!(
                        "the answer broke off: {}",
                        std::error::Error::source(&e)
                            .map(|s| s.to_string())
                            .unwrap_or_else(|| "connection closed".into())
                    ),
                ));
            }
        }
    }
    let text = String::from_utf8(body)
        .map_err(|_| UpstreamError::new("", "malformed", "the answer is not UTF-8 text"))?;
    if !(200..300).contains(&status) {
        let mut e = UpstreamError::new(
            "",
            "status",
            format!(
                "HTTP {status}{}: {}",
                retry
                    .map(|s| format!(" (retry-after={s})"))
                    .unwrap_or_default(),
                super::mcp::truncate(text.trim(), 200)
            ),
        );
        e.status = Some(status);
        return Err(e);
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn param(
        name: &str,
        ty: &str,
        location: Option<&str>,
        array: Option<ArrayEncoding>,
    ) -> ParamData {
        serde_json::from_value::<ParamData>(json!({"name": name, "type": ty, "required": false}))
            .map(|mut p| {
                p.location = location.map(str::to_string);
                p.array = array;
                p
            })
            .unwrap()
    }

    fn endpoint(method: &str, url: &str, params: Vec<ParamData>) -> EndpointData {
        let mut e: EndpointData = serde_json::from_value(json!({
            "id": "e", "method": method, "url": url, "parameters": [], "fields": [],
            "identifiers": [], "group_fields": {}
        }))
        .unwrap();
        e.parameters = params;
        e
    }

    #[test]
    fn parameters_are_serialised_by_location_and_style() {
        let e = endpoint(
            "GET",
            "https://api.example.org/v1/items/{id}",
            vec![
                param("id", "string", Some("path"), None),
                param(
                    "tags",
                    "string[]",
                    Some("query"),
                    Some(ArrayEncoding::Repeated),
                ),
                param(
                    "fields",
                    "string[]",
                    Some("query"),
                    Some(ArrayEncoding::Joined(",".into())),
                ),
                param(
                    "pipes",
                    "string[]",
                    Some("query"),
                    Some(ArrayEncoding::Joined("|".into())),
                ),
                param("X-Trace", "string", Some("header"), None),
                param("session", "string", Some("cookie"), None),
            ],
        );
        let args: BTreeMap<String, Value> = serde_json::from_value(json!({
            "id": "a b/c", "tags": ["x", "y"], "fields": ["f", "g"], "pipes": ["p", "q"],
            "X-Trace": "t1", "session": "s1"
        }))
        .unwrap();
        let r = build(&e, &args, Base::default()).unwrap();
        assert_eq!(
            r.url,
            "https://api.example.org/v1/items/a%20b%2Fc?tags=x&tags=y&fields=f%2Cg&pipes=p%7Cq"
        );
        assert_eq!(
            r.headers,
            vec![
                ("X-Trace".to_string(), "t1".to_string()),
                ("Cookie".to_string(), "session=s1".to_string())
            ]
        );
        assert_eq!(r.body, None);
    }

    #[test]
    fn bodies_and_base_urls() {
        let e = endpoint(
            "POST",
            "https://api.example.org/v2/search",
            vec![
                param("q", "string", None, None),
                param("limit", "integer", Some("query"), None),
            ],
        );
        let args: BTreeMap<String, Value> =
            serde_json::from_value(json!({"q": "GaN", "limit": 3})).unwrap();
        let at = |url, declared| Base {
            url: Some(url),
            declared,
        };
        let r = build(&e, &args, at("http://127.0.0.1:4010/mock", None)).unwrap();
        assert_eq!(r.url, "http://127.0.0.1:4010/mock/v2/search?limit=3");
        let r = build(
            &e,
            &args,
            at("http://127.0.0.1:4010", Some("https://api.example.org/v2/")),
        )
        .unwrap();
        assert_eq!(r.url, "http://127.0.0.1:4010/search?limit=3");
        assert_eq!(r.body, Some(json!({"q": "GaN"})));
        let e = endpoint(
            "GET",
            "https://x.org/{id}",
            vec![param("id", "string", Some("path"), None)],
        );
        assert_eq!(
            build(&e, &BTreeMap::new(), Base::default()).unwrap_err(),
            "the path parameter `id` has no value"
        );
    }

    #[test]
    fn only_idempotent_methods_are_retried() {
        assert!(idempotent("GET") && idempotent("PUT") && idempotent("DELETE"));
        assert!(!idempotent("POST") && !idempotent("PATCH"));
        let e = UpstreamError::new("u", "status", "HTTP 429 (retry-after=2): slow down");
        assert_eq!(retry_after(&e), Some(Duration::from_secs(2)));
    }
}
