//! HTTP APIs (OpenAPI endpoints): the request built from the endpoint's declared parameters,
//! sent with `reqwest` (TLS by rustls), with a timeout, retries with backoff for idempotent
//! methods only, `429 Retry-After` honoured, and a cap on the response body.
//!
//! Serialisation: every parameter by its OpenAPI 3 `style` and `explode` (as the import
//! recorded them; each location's default otherwise: `simple` for path and header, `form` for
//! query, cookie and form bodies), by the specification's table ([`super::style`]), with
//! RFC 3986 percent-encoding and `allowReserved`. Request bodies: a JSON object of the body
//! parameters, or, when the endpoint's `body_type` says so, `application/x-www-form-urlencoded`
//! fields (each by its `encoding` style and explode), `multipart/form-data` parts (each by its
//! `encoding` content type and headers, [`super::multipart`]), or, for any other media type
//! (`application/xml`, `text/plain`, `application/octet-stream`), the one body parameter as the
//! whole body: a string sent as it is for a text type, base64-encoded bytes (`format: byte`)
//! sent decoded for any other.

use super::multipart::{Part, json_media};
use super::style::{self, Shape, Style};
use super::{RawResponse, UpstreamError, backoff};
use crate::config::AuthKind;
use crate::secrets::{Credential, Secrets};
use schemarouter_core::artifact::{EndpointData, ParamData};
use schemarouter_core::model::ArrayEncoding;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The form-encoded request body media type.
pub const FORM: &str = "application/x-www-form-urlencoded";
/// The multipart request body media type.
pub const MULTIPART: &str = "multipart/form-data";

/// A request body, serialised.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// `application/json`: an object of the body parameters.
    Json(Value),
    /// `application/x-www-form-urlencoded`: the encoded fields.
    Form(String),
    /// `multipart/form-data` with its boundary.
    Multipart {
        /// The boundary (in the `Content-Type`).
        boundary: String,
        /// The encoded parts.
        bytes: Vec<u8>,
    },
    /// Any other media type (`application/xml`, `text/plain`, `application/octet-stream`):
    /// the one body parameter is the whole body, its text, or its bytes decoded from base64.
    Whole {
        /// The media type (the endpoint's `body_type`).
        media: String,
        /// The body.
        bytes: Vec<u8>,
    },
}

impl Body {
    /// The `Content-Type` header of the body.
    pub fn content_type(&self) -> String {
        match self {
            Body::Json(_) => "application/json".into(),
            Body::Form(_) => FORM.into(),
            Body::Multipart { boundary, .. } => format!("{MULTIPART}; boundary={boundary}"),
            Body::Whole { media, .. } => media.clone(),
        }
    }

    /// The body's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            Body::Json(v) => v.to_string().into_bytes(),
            Body::Form(s) => s.clone().into_bytes(),
            Body::Multipart { bytes, .. } | Body::Whole { bytes, .. } => bytes.clone(),
        }
    }
}

/// One HTTP request, built and ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Method (upper case).
    pub method: String,
    /// URL with path parameters filled and the query string.
    pub url: String,
    /// Headers (credential headers are added when sending, never stored here).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Option<Body>,
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

/// The style and explode a parameter sent at `location` is serialised with: as declared; else
/// a declared separator (`join`, or an array encoding joined with other than `,`) as a
/// delimited style; else the location's default (`simple` for path and header, `form`
/// otherwise). `explode` defaults to false when the items are joined, else to the style's
/// default.
fn style_of(p: &ParamData, location: &str) -> (Style, bool) {
    let joined = match &p.array {
        Some(ArrayEncoding::Joined(s)) => Some(s.as_str()),
        _ => p.join.as_deref(),
    };
    let in_url_or_header = matches!(location, "path" | "header");
    let style = match p.style.as_deref().and_then(Style::parse) {
        Some(s) => s,
        None if in_url_or_header => Style::Simple,
        None => match joined {
            Some(sep) if sep != "," => Style::Delimited(sep.to_string()),
            _ => Style::Form,
        },
    };
    let explode = p.explode.unwrap_or_else(|| match joined {
        Some(_) if !in_url_or_header => false,
        _ => style.default_explode(),
    });
    (style, explode)
}

/// The name of the placeholder a URL template starts with (`{base_url}/api/pdf`): the API's
/// base URL, which the import declares as a path parameter when the description names no
/// absolute server (or a server variable holds the host). Its value is a URL, put in as it is
/// (never percent-encoded); a base URL configured for the tool fills it instead.
pub fn leading_placeholder(url: &str) -> Option<&str> {
    let rest = url.strip_prefix('{')?;
    let name = &rest[..rest.find('}')?];
    (!name.is_empty()).then_some(name)
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
/// Errors: a path parameter with no value, a URL that does not parse, a body that cannot be
/// encoded (bytes that are not base64; a whole body that is not one string).
pub fn build(
    e: &EndpointData,
    args: &BTreeMap<String, Value>,
    base: Base<'_>,
) -> Result<Request, String> {
    let mut path = e.url.clone();
    let mut base = base;
    if let Some(name) = leading_placeholder(&e.url) {
        let text = match (base.url, args.get(name)) {
            (Some(b), _) => {
                // The configured base URL fills it, and is not put before the URL again.
                base = Base::default();
                b.to_string()
            }
            (None, Some(Value::String(v))) => v.clone(),
            (None, Some(_)) => return Err(format!("the base URL `{name}` takes a string")),
            (None, None) => String::new(),
        };
        if !text.is_empty() {
            let u = url::Url::parse(&text)
                .map_err(|why| format!("the base URL `{name}` (`{text}`) does not parse: {why}"))?;
            if !matches!(u.scheme(), "http" | "https") {
                return Err(format!(
                    "the base URL `{name}` (`{text}`) is not an http or https URL"
                ));
            }
            path = path.replacen(&format!("{{{name}}}"), text.trim_end_matches('/'), 1);
        }
    }
    let mut query: Vec<String> = Vec::new();
    let mut headers = Vec::new();
    let mut cookies: Vec<String> = Vec::new();
    let mut in_body: Vec<(&ParamData, &Value)> = Vec::new();
    for p in &e.parameters {
        let Some(v) = args.get(&p.name) else { continue };
        if leading_placeholder(&e.url) == Some(p.name.as_str()) {
            continue;
        }
        let place = location(e, p);
        if place == "body" {
            in_body.push((p, v));
            continue;
        }
        let (style, explode) = style_of(p, place);
        let shape = Shape::of(v);
        let enc = if p.allow_reserved {
            style::QUERY_RESERVED
        } else {
            style::QUERY
        };
        match place {
            "path" => {
                let text = style::path(&p.name, &shape, &style, explode);
                path = path.replace(&format!("{{{}}}", p.name), &text);
            }
            "header" => headers.push((p.name.clone(), style::header(&shape, explode))),
            "cookie" => cookies.extend(
                style::pairs(&p.name, &shape, &style, explode, style::QUERY)
                    .into_iter()
                    .map(|(k, v)| format!("{k}={v}")),
            ),
            _ => query.extend(
                style::pairs(&p.name, &shape, &style, explode, enc)
                    .into_iter()
                    .map(|(k, v)| format!("{k}={v}")),
            ),
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
        let mut q = url.query().map(str::to_string).unwrap_or_default();
        for pair in query {
            if !q.is_empty() {
                q.push('&');
            }
            q.push_str(&pair);
        }
        url.set_query(Some(&q));
    }
    Ok(Request {
        method: e.method.to_ascii_uppercase(),
        url: url.to_string(),
        headers,
        body: body(e, &in_body)?,
    })
}

/// The request body of the body parameters given, by `body_type`: form fields, multipart parts
/// (each by its style when its `encoding` declares one, [`style_based`], else by its content
/// type), a JSON object (no `body_type`, or a JSON one) or the value of the one parameter
/// declared `whole_body` (a JSON body that is an array or a scalar), an XML document (an object given for
/// an XML body, [`super::xml`]), or else the whole body of that media type ([`whole`]). `None`
/// when none is given.
fn body(e: &EndpointData, params: &[(&ParamData, &Value)]) -> Result<Option<Body>, String> {
    if params.is_empty() {
        return Ok(None);
    }
    let media = body_media(e)?;
    Ok(Some(match media.as_deref() {
        Some(FORM) => Body::Form(form_fields(params).join("&")),
        Some(MULTIPART) => {
            // A styled parameter's parts: one text part per `name=value` pair of its style.
            let styled: Vec<Vec<(String, Value)>> = params
                .iter()
                .map(|(p, v)| {
                    if !style_based(p) {
                        return Vec::new();
                    }
                    let (style, explode) = style_of(p, "body");
                    style::pairs(&p.name, &Shape::of(v), &style, explode, style::PART)
                        .into_iter()
                        .map(|(k, t)| (k, Value::String(t)))
                        .collect()
                })
                .collect();
            let mut parts: Vec<Part<'_>> = Vec::new();
            for ((p, v), pairs) in params.iter().zip(&styled) {
                if !style_based(p) {
                    parts.push(part(p, v));
                    continue;
                }
                parts.extend(pairs.iter().map(|(name, text)| Part {
                    name,
                    value: text,
                    content_type: None,
                    format: None,
                    headers: &p.part_headers,
                }));
            }
            let (boundary, bytes) = super::multipart::encode(&parts)?;
            Body::Multipart { boundary, bytes }
        }
        Some(media) if super::xml::xml_media(media) && !e.body_xml.is_empty() => {
            match whole_parameter(params) {
                Some((p, v @ (Value::Object(_) | Value::Array(_)))) => Body::Whole {
                    media: media.to_string(),
                    bytes: super::xml::write(&e.body_xml, v)
                        .map_err(|why| format!("`{}`: {why}", p.name))?,
                },
                Some((p, v)) if !v.is_string() => {
                    return Err(format!(
                        "the `{media}` request body `{}` takes its XML text (a string) or a JSON object",
                        p.name
                    ));
                }
                _ => whole(media, params)?,
            }
        }
        Some(media) if !json_media(media) => whole(media, params)?,
        _ if let Some((p, v)) = params.iter().find(|(p, _)| p.whole_body) => {
            // A JSON body that is no object (an array, a scalar): the value itself.
            if let Some((q, _)) = params.iter().find(|(q, _)| q.name != p.name) {
                return Err(format!(
                    "the request body is the value of `{}` itself (its schema is no object); `{}` cannot be sent beside it",
                    p.name, q.name
                ));
            }
            Body::Json((*v).clone())
        }
        _ => Body::Json(Value::Object(
            params
                .iter()
                .map(|(p, v)| (p.name.clone(), (*v).clone()))
                .collect(),
        )),
    }))
}

/// Whether a form or multipart body parameter is serialised by a style (OpenAPI 3.1.1: its
/// `encoding` gives `style`, `explode` or `allowReserved`, which the import records, or Swagger
/// 2.0's `collectionFormat` joins its items) rather than by its content type (the
/// specification's "content-based serialization": a primitive as text, an object as JSON).
fn style_based(p: &ParamData) -> bool {
    p.style.is_some() || p.explode.is_some() || p.allow_reserved || p.join.is_some()
}

/// The encoded `name=value` fields of an `application/x-www-form-urlencoded` body: a styled
/// parameter ([`style_based`]) by its style and explode; any other by its content type (OpenAPI
/// 3.1.1 "URL Encoded Form with JSON Values"): a primitive as its text, a list one field per
/// item, an object (or a nested list) as JSON text.
fn form_fields(params: &[(&ParamData, &Value)]) -> Vec<String> {
    let mut fields = Vec::new();
    for (p, v) in params {
        let pairs = if style_based(p) {
            let (style, explode) = style_of(p, "body");
            let enc = if p.allow_reserved {
                style::FORM_BODY_RESERVED
            } else {
                style::FORM_BODY
            };
            style::pairs(&p.name, &Shape::of(v), &style, explode, enc)
        } else {
            let items: Vec<&Value> = match v {
                Value::Array(a) => a.iter().collect(),
                other => vec![other],
            };
            let enc = style::FORM_BODY.text;
            items
                .into_iter()
                .map(|i| {
                    let text = match i {
                        Value::Object(_) | Value::Array(_) => i.to_string(),
                        other => style::text(other),
                    };
                    (enc(&p.name), enc(&text))
                })
                .collect()
        };
        fields.extend(pairs.into_iter().map(|(k, v)| format!("{k}={v}")));
    }
    fields
}

/// The multipart part of body parameter `p` with value `v`.
fn part<'a>(p: &'a ParamData, v: &'a Value) -> Part<'a> {
    Part {
        name: &p.name,
        value: v,
        content_type: p.content_type.as_deref(),
        format: p.format.as_deref(),
        headers: &p.part_headers,
    }
}

/// The parameter of a body of media type `media` sent whole (not JSON, not a form): the one
/// named `body`, else the only body parameter.
fn whole_parameter<'a, T>(params: &'a [(&'a ParamData, T)]) -> Option<&'a (&'a ParamData, T)> {
    params
        .iter()
        .find(|(p, _)| p.name == "body")
        .or(if params.len() == 1 {
            params.first()
        } else {
            None
        })
}

/// The media type the request body of `e` is sent as, by the one rule every declared media
/// type is read by ([`schemarouter_core::model::media_type_fault`]): the declared `body_type`;
/// its essence when only a parameter is faulty (`application/json; charset=utf8` is sent as
/// `application/json`); `None` for a JSON body.
///
/// Errors: a `body_type` whose type or subtype is faulty (`plain/text`, `json`): the gateway
/// cannot tell how to send the body, and says what was probably meant, before any upstream
/// call.
fn body_media(e: &EndpointData) -> Result<Option<String>, String> {
    let Some(declared) = e.body_type.as_deref() else {
        return Ok(None);
    };
    match schemarouter_core::model::media_type_fault(declared) {
        None => Ok(Some(declared.to_string())),
        Some(f) if !f.in_essence => Ok(Some(schemarouter_core::model::tool::media_essence(
            declared,
        ))),
        Some(f) => Err(format!(
            "the endpoint's request body media type `{declared}` (its `body_type`) is no media type: {}; {}",
            f.message,
            match f.suggestion {
                Some(s) => format!(
                    "declare `body_type: {s}` (or fix the source document and import again)"
                ),
                None =>
                    "declare a registered media type (or fix the source document and import again)"
                        .to_string(),
            }
        )),
    }
}

/// Whether the value of body parameter `p` of endpoint `e` is given base64-encoded and sent as
/// the bytes it holds: the parameter of a whole body declared `format: byte` (or `binary`), or a
/// multipart part of a binary media type ([`Part::takes_base64`]).
pub fn takes_base64(e: &EndpointData, p: &ParamData) -> bool {
    if location(e, p) != "body" {
        return false;
    }
    // A body whose media type is faulty is refused when it is built, saying why; its value is
    // never read as base64 meanwhile.
    match body_media(e).ok().flatten().as_deref() {
        Some(MULTIPART) => part(p, &Value::Null).takes_base64(),
        Some(FORM) | None => false,
        Some(media) if json_media(media) => false,
        Some(_) => {
            let body: Vec<(&ParamData, ())> = e
                .parameters
                .iter()
                .filter(|q| location(e, q) == "body")
                .map(|q| (q, ()))
                .collect();
            whole_parameter(&body).is_some_and(|(q, ())| q.name == p.name)
                && matches!(p.format.as_deref(), Some("byte" | "binary"))
        }
    }
}

/// A body of media type `media` sent whole: the body parameter's string, as it is, or (declared
/// `format: byte` or `binary`) decoded from base64.
///
/// Errors: no single body parameter; a value that is not a string; bytes that are not base64.
fn whole(media: &str, params: &[(&ParamData, &Value)]) -> Result<Body, String> {
    let Some((p, v)) = whole_parameter(params) else {
        let names: Vec<&str> = params.iter().map(|(p, _)| p.name.as_str()).collect();
        return Err(format!(
            "a `{media}` request body is one parameter (`body`); the arguments give {}",
            names.join(", ")
        ));
    };
    let Value::String(text) = v else {
        return Err(format!(
            "the `{media}` request body `{}` takes a string",
            p.name
        ));
    };
    let bytes = if matches!(p.format.as_deref(), Some("byte" | "binary")) {
        super::base64_bytes(text).map_err(|e| format!("`{}`: {e}", p.name))?
    } else {
        text.clone().into_bytes()
    };
    Ok(Body::Whole {
        media: media.to_string(),
        bytes,
    })
}

/// `declared` rebased: `base.declared` (when `declared` starts with it) replaced by `base.url`;
/// else its scheme and authority taken from `base.url`, and `base.url`'s path put before its
/// own path.
fn rebase(declared: &str, base: Base<'_>) -> Result<url::Url, String> {
    // The declared base is replaced only where it ends a path segment (`/api` is not the start
    // of `/apiv2`), and only when it is one (an empty prefix would match every URL).
    if let (Some(b), Some(prefix)) = (base.url, base.declared)
        && let prefix = prefix.trim_end_matches('/')
        && prefix.contains("://")
        && let Some(rest) = declared.strip_prefix(prefix)
        && (rest.is_empty() || rest.starts_with(['/', '?']))
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

/// Send `req` to `upstream` with the credentials `creds`; the body text of a 2xx answer.
///
/// A body that is no text (an image, a PDF, bytes that are not UTF-8) is returned as its
/// bytes ([`RawResponse::binary`]), never decoded as text.
///
/// Errors (credentials scrubbed from every message): timeout, connection failure, a status
/// other than 2xx (with the start of the body, or the size and type of a binary one), a body
/// over `max_bytes`.
pub async fn send(
    client: &reqwest::Client,
    upstream: &str,
    req: &Request,
    creds: &[Credential],
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
        let outcome = tokio::time::timeout(left, once(client, req, creds, limits.max_bytes)).await;
        let err = match outcome {
            Err(_) => UpstreamError::new(
                upstream,
                "timeout",
                format!(
                    "no complete answer within {} ms",
                    limits.timeout.as_millis()
                ),
            ),
            Ok(Ok(Answer::Text(text, content_type))) => {
                return Ok(RawResponse {
                    text,
                    content_type,
                    binary: None,
                    elapsed: start.elapsed(),
                });
            }
            Ok(Ok(Answer::Binary(b))) => {
                return Ok(RawResponse {
                    text: String::new(),
                    content_type: Some(b.content_type.clone()),
                    binary: Some(b),
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

/// A request that got no answer, in words: what failed, the URL it was sent to (as
/// [`shown_url`] writes it: reqwest's own message has the query, which may carry a query
/// credential) and the causes down to the operating system's error (`tcp connect error:
/// Connection refused (os error 111)`).
fn unreachable(e: &reqwest::Error, url: &str) -> UpstreamError {
    let what = if e.is_connect() {
        "cannot connect to"
    } else if e.is_timeout() {
        "timed out sending to"
    } else {
        "the request failed to"
    };
    let why = std::error::Error::source(e)
        .map(super::mcp::describe)
        .unwrap_or_else(|| "no cause given".to_string());
    UpstreamError::new(
        "",
        "unreachable",
        format!("{what} {}: {why}", shown_url(url)),
    )
}

/// `url` without what may be secret: user name and password, query and fragment (`?…` marks
/// a query left out).
fn shown_url(url: &str) -> String {
    let Ok(mut u) = url::Url::parse(url) else {
        return "the upstream".to_string();
    };
    let query = u.query().is_some_and(|q| !q.is_empty());
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u.set_query(None);
    u.set_fragment(None);
    if query {
        format!("{u}?…")
    } else {
        u.to_string()
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

/// A 2xx body: text, or bytes that are no text.
enum Answer {
    /// The text and the media type the upstream named.
    Text(String, Option<String>),
    Binary(super::Binary),
}

async fn once(
    client: &reqwest::Client,
    req: &Request,
    creds: &[Credential],
    max_bytes: usize,
) -> Result<Answer, UpstreamError> {
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
    for c in creds
        .iter()
        .filter(|c| c.auth.kind == Some(AuthKind::Query))
    {
        url.query_pairs_mut()
            .append_pair(c.auth.name.as_deref().unwrap_or("api_key"), c.value());
    }
    rb = client.request(method, url);
    for (k, v) in &req.headers {
        rb = rb.header(k, v);
    }
    for c in creds {
        match c.auth.kind {
            Some(AuthKind::Header) => {
                rb = rb.header(c.auth.name.as_deref().unwrap_or("X-API-Key"), c.value());
            }
            Some(AuthKind::Bearer) => {
                rb = rb.header("Authorization", format!("Bearer {}", c.value()));
            }
            Some(AuthKind::Basic) => {
                rb = rb.header("Authorization", format!("Basic {}", c.value()));
            }
            _ => {}
        }
    }
    if let Some(b) = &req.body {
        rb = rb.header("Content-Type", b.content_type()).body(b.bytes());
    }
    rb = rb.header(
        "Accept",
        "application/json, application/xml;q=0.9, */*;q=0.5",
    );
    let mut resp = rb.send().await.map_err(|e| unreachable(&e, &req.url))?;
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
    let content_type = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
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
    // A body that is no text (by its media type, or bytes that are not UTF-8) is kept as bytes.
    let body = if content_type
        .as_deref()
        .is_some_and(super::binary::binary_media)
    {
        Err(body)
    } else {
        String::from_utf8(body).map_err(std::string::FromUtf8Error::into_bytes)
    };
    if !(200..300).contains(&status) {
        let said = match &body {
            Ok(text) => super::mcp::truncate(text.trim(), 200),
            Err(bytes) => format!(
                "{} bytes of `{}`",
                bytes.len(),
                content_type
                    .as_deref()
                    .unwrap_or("application/octet-stream")
            ),
        };
        let mut e = UpstreamError::new(
            "",
            "status",
            format!(
                "HTTP {status}{}: {}",
                retry
                    .map(|s| format!(" (retry-after={s})"))
                    .unwrap_or_default(),
                if matches!(status, 401 | 403) {
                    format!(
                        "{said}{}the provider refused the request's credentials: check the `auth` the gateway configuration gives this tool",
                        if said.is_empty() { "" } else { "; " }
                    )
                } else {
                    said
                }
            ),
        );
        e.status = Some(status);
        return Err(e);
    }
    Ok(match body {
        Ok(text) => Answer::Text(text, content_type),
        Err(bytes) => Answer::Binary(super::Binary {
            content_type: content_type.unwrap_or_else(|| "application/octet-stream".into()),
            bytes,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A refused connection names the URL (no user, password or query: they may be
    /// credentials) and the operating system's error.
    #[tokio::test]
    async fn an_unreachable_upstream_names_its_url_and_the_os_error() {
        crate::install_tls();
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let req = Request {
            method: "GET".into(),
            url: format!("http://user:pw@127.0.0.1:{port}/v1/x?api_key=SECRET#f"),
            headers: Vec::new(),
            body: None,
        };
        let client = reqwest::Client::new();
        let Err(e) = once(&client, &req, &[], 1 << 20).await else {
            panic!("a closed port answered");
        };
        assert_eq!(
            (e.kind, e.message.as_str()),
            (
                "unreachable",
                format!("cannot connect to http://127.0.0.1:{port}/v1/x?…: client error (Connect): tcp connect error: Connection refused (os error 111)").as_str()
            )
        );
    }

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
            "https://api.example.org/v1/items/a%20b%2Fc?tags=x&tags=y&fields=f,g&pipes=p%7Cq"
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
    fn a_json_body_that_is_no_object_is_sent_as_the_value_itself() {
        let whole = |ty: &str| {
            let mut p = param("body", ty, Some("body"), None);
            p.whole_body = true;
            p
        };
        for (ty, v) in [
            ("string[]", json!(["a", "b"])),
            ("integer", json!(7)),
            ("string", json!("x")),
        ] {
            let e = endpoint("POST", "https://x.org/list", vec![whole(ty)]);
            let args = BTreeMap::from([("body".to_string(), v.clone())]);
            let r = build(&e, &args, Base::default()).unwrap();
            assert_eq!(r.body, Some(Body::Json(v)), "{ty}");
        }
        // A property named `body` of a body object stays a property.
        let e = endpoint(
            "POST",
            "https://x.org/comments",
            vec![param("body", "string", Some("body"), None)],
        );
        let args = BTreeMap::from([("body".to_string(), json!("nice"))]);
        let r = build(&e, &args, Base::default()).unwrap();
        assert_eq!(r.body, Some(Body::Json(json!({"body": "nice"}))));
        // A whole body has no companions.
        let e = endpoint(
            "POST",
            "https://x.org/list",
            vec![
                whole("string[]"),
                param("extra", "string", Some("body"), None),
            ],
        );
        let args = BTreeMap::from([
            ("body".to_string(), json!(["a"])),
            ("extra".to_string(), json!("x")),
        ]);
        assert_eq!(
            build(&e, &args, Base::default()).unwrap_err(),
            "the request body is the value of `body` itself (its schema is no object); `extra` cannot be sent beside it"
        );
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
        assert_eq!(r.body, Some(Body::Json(json!({"q": "GaN"}))));
        // A declared base that is empty, relative, or ends inside a path segment is not the
        // start of the declared URL: its scheme and authority are replaced instead.
        for declared in ["", "/", "https://api.example.org/v"] {
            let r = build(&e, &args, at("http://127.0.0.1:4010", Some(declared))).unwrap();
            assert_eq!(
                r.url, "http://127.0.0.1:4010/v2/search?limit=3",
                "{declared:?}"
            );
        }
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

    fn styled(mut p: ParamData, style: Option<&str>, explode: Option<bool>) -> ParamData {
        p.style = style.map(str::to_string);
        p.explode = explode;
        p
    }

    #[test]
    fn declared_styles_shape_the_url() {
        let e = endpoint(
            "GET",
            "https://x.org/a/{label}/b/{matrix}",
            vec![
                styled(
                    param("label", "string[]", Some("path"), None),
                    Some("label"),
                    Some(true),
                ),
                styled(
                    param("matrix", "object", Some("path"), None),
                    Some("matrix"),
                    None,
                ),
                styled(
                    param("deep", "object", Some("query"), None),
                    Some("deepObject"),
                    Some(true),
                ),
                styled(
                    param("space", "string[]", Some("query"), None),
                    Some("spaceDelimited"),
                    Some(false),
                ),
                styled(param("exploded", "object", Some("query"), None), None, None),
                styled(
                    param("X-Obj", "object", Some("header"), None),
                    None,
                    Some(true),
                ),
            ],
        );
        let args: BTreeMap<String, Value> = serde_json::from_value(json!({
            "label": ["x y", "z"], "matrix": {"R": 1, "G": 2}, "deep": {"min": 1, "max": "a&b"},
            "space": ["b", "c"], "exploded": {"k": "v"}, "X-Obj": {"a": 1, "b": 2}
        }))
        .unwrap();
        let r = build(&e, &args, Base::default()).unwrap();
        assert_eq!(
            r.url,
            "https://x.org/a/.x%20y.z/b/;matrix=G,2,R,1?deep%5Bmax%5D=a%26b&deep%5Bmin%5D=1&space=b%20c&k=v"
        );
        assert_eq!(
            r.headers,
            vec![("X-Obj".to_string(), "a=1,b=2".to_string())]
        );
        // allowReserved: RFC 3986's reserved characters a query value may hold are sent as they
        // are; `&`, `=`, `+`, `#`, `[`, `]`, a stray `%` and a space are encoded, a
        // percent-encoded triple passes; the URL parser writes `'` as `%27`. A template's query
        // is kept.
        let mut p = param("path", "string", Some("query"), None);
        p.allow_reserved = true;
        let e = endpoint("GET", "https://x.org/f?fixed=1", vec![p]);
        let args: BTreeMap<String, Value> = serde_json::from_value(
            json!({"path": "a/b:c d?e@f!g$h&i=j+k,l;m*n(o)p'q#r[s]t%26u%v"}),
        )
        .unwrap();
        let r = build(&e, &args, Base::default()).unwrap();
        assert_eq!(
            r.url,
            "https://x.org/f?fixed=1&path=a/b:c%20d?e@f!g$h%26i%3Dj%2Bk,l;m*n(o)p%27q%23r%5Bs%5Dt%26u%25v"
        );
    }

    #[test]
    fn form_and_multipart_bodies() {
        let params = || {
            vec![
                param("name", "string", Some("body"), None),
                styled(
                    param("tags", "string[]", Some("body"), None),
                    None,
                    Some(false),
                ),
                styled(
                    param("filter", "object", Some("body"), None),
                    Some("deepObject"),
                    None,
                ),
                param("meta", "object", Some("body"), None),
                param("ids", "integer[]", Some("body"), None),
            ]
        };
        let args: BTreeMap<String, Value> = serde_json::from_value(json!({
            "name": "Ga N&x", "tags": ["a", "b"], "filter": {"gap": 2},
            "meta": {"k": "v w"}, "ids": [1, 2]
        }))
        .unwrap();
        let mut e = endpoint("POST", "https://x.org/f", params());
        e.body_type = Some(FORM.into());
        let b = build(&e, &args, Base::default()).unwrap().body.unwrap();
        assert_eq!(b.content_type(), "application/x-www-form-urlencoded");
        // Styled fields by their style; the others by their content type: an object as JSON
        // text (OpenAPI 3.1.1 "URL Encoded Form with JSON Values"), a list one field per item.
        assert_eq!(
            b,
            Body::Form(
                "name=Ga+N%26x&tags=a%2Cb&filter%5Bgap%5D=2&meta=%7B%22k%22%3A%22v+w%22%7D&ids=1&ids=2"
                    .into()
            )
        );
        e.body_type = Some(MULTIPART.into());
        let b = build(&e, &args, Base::default()).unwrap().body.unwrap();
        assert_eq!(
            b.content_type(),
            "multipart/form-data; boundary=schemarouter-boundary-0"
        );
        // A styled part is the text of its style's pairs, not percent-encoded (3.1.1 Appendix
        // E), its content type ignored; the others by their content type.
        let text = String::from_utf8(b.bytes()).unwrap();
        assert_eq!(
            text,
            "--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nGa N&x\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\na,b\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"filter[gap]\"\r\n\r\n2\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"k\":\"v w\"}\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"ids\"\r\n\r\n1\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"ids\"\r\n\r\n2\r\n\
             --schemarouter-boundary-0--\r\n"
        );
        // Exploded styles give a part per pair; `allowReserved` keeps reserved characters in a
        // form body but encodes what the form encoding gives a meaning (`&`, `=`, `+`).
        let mut e = endpoint(
            "POST",
            "https://x.org/f",
            vec![
                styled(param("o", "object", Some("body"), None), Some("form"), None),
                styled(
                    param("p", "string[]", Some("body"), None),
                    Some("pipeDelimited"),
                    Some(false),
                ),
                {
                    let mut q = param("r", "string", Some("body"), None);
                    q.allow_reserved = true;
                    q
                },
            ],
        );
        let args: BTreeMap<String, Value> = serde_json::from_value(json!({
            "o": {"x": "1 2", "y": 3}, "p": ["a|b", "c"], "r": "a/b?c:d&e=f+g h%2F"
        }))
        .unwrap();
        e.body_type = Some(FORM.into());
        let b = build(&e, &args, Base::default()).unwrap().body.unwrap();
        assert_eq!(
            b,
            Body::Form("x=1+2&y=3&p=a%7Cb%7Cc&r=a/b?c:d%26e%3Df%2Bg+h%2F".into())
        );
        e.body_type = Some(MULTIPART.into());
        let text = String::from_utf8(
            build(&e, &args, Base::default())
                .unwrap()
                .body
                .unwrap()
                .bytes(),
        )
        .unwrap();
        assert_eq!(
            text,
            "--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1 2\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"y\"\r\n\r\n3\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\na|b|c\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"r\"\r\n\r\na/b?c:d&e=f+g h%2F\r\n\
             --schemarouter-boundary-0--\r\n"
        );
    }

    /// A body of another media type is the one parameter `body`: text as it is, bytes
    /// (`format: byte`) decoded from base64; anything else is refused with the reason.
    #[test]
    fn whole_bodies_of_other_media_types() {
        let body = |format: Option<&str>| {
            let mut p = param("body", "string", Some("body"), None);
            p.format = format.map(str::to_string);
            p
        };
        let send = |media: &str, format: Option<&str>, v: Value| {
            let mut e = endpoint(
                "POST",
                "https://x.org/f",
                vec![body(format), param("q", "string", Some("query"), None)],
            );
            e.body_type = Some(media.into());
            let args: BTreeMap<String, Value> =
                BTreeMap::from([("body".into(), v), ("q".into(), json!("a"))]);
            build(&e, &args, Base::default()).map(|r| (r.url, r.body.unwrap()))
        };
        let (url, b) = send("application/xml", None, json!("<a x=\"1\">é</a>")).unwrap();
        assert_eq!(url, "https://x.org/f?q=a");
        assert_eq!(b.content_type(), "application/xml");
        assert_eq!(b.bytes(), "<a x=\"1\">é</a>".as_bytes());
        let (_, b) = send("text/plain; charset=utf-8", None, json!("GaN\n")).unwrap();
        assert_eq!(
            (b.content_type(), b.bytes()),
            ("text/plain; charset=utf-8".to_string(), b"GaN\n".to_vec())
        );
        let (_, b) = send("application/octet-stream", Some("byte"), json!("AP8K")).unwrap();
        assert_eq!(
            (b.content_type(), b.bytes()),
            (
                "application/octet-stream".to_string(),
                vec![0x00, 0xff, 0x0a]
            )
        );
        assert_eq!(
            send("application/octet-stream", Some("byte"), json!("%%")).unwrap_err(),
            "`body`: not base64 (RFC 4648; the standard or the URL-safe alphabet): Invalid symbol 37, offset 0."
        );
        assert_eq!(
            send("application/xml", None, json!({"a": 1})).unwrap_err(),
            "the `application/xml` request body `body` takes a string"
        );
        // A JSON body type is the JSON object of the body parameters, as without one.
        let (_, b) = send("application/vnd.api+json", None, json!("x")).unwrap();
        assert_eq!(b, Body::Json(json!({"body": "x"})));
        // One rule for every declared media type: a faulty type or subtype is refused before
        // any upstream call, saying what was meant (never sent as bytes); a faulty parameter
        // is sent as the essence.
        assert_eq!(
            send("plain/text", Some("byte"), json!("a note")).unwrap_err(),
            "the endpoint's request body media type `plain/text` (its `body_type`) is no media type: `plain` is no top-level media type (IANA registers application, audio, example, font, haptics, image, message, model, multipart, text, video); declare `body_type: text/plain` (or fix the source document and import again)"
        );
        assert_eq!(
            send("json", None, json!("x")).unwrap_err(),
            "the endpoint's request body media type `json` (its `body_type`) is no media type: `json` is no media type (`type/subtype`); declare `body_type: application/json` (or fix the source document and import again)"
        );
        let (_, b) = send("text/plain; charset=utf8", None, json!("GaN")).unwrap();
        assert_eq!(
            (b.content_type(), b.bytes()),
            ("text/plain".to_string(), b"GaN".to_vec())
        );
        let (_, b) = send("application/json; charset=utf8", None, json!("x")).unwrap();
        assert_eq!(b, Body::Json(json!({"body": "x"})));
        let mut e = endpoint("POST", "https://x.org/f", vec![body(Some("byte"))]);
        e.body_type = Some("plain/text".into());
        assert!(!takes_base64(&e, &e.parameters[0]));
        // Which values are given base64-encoded.
        let mut e = endpoint("POST", "https://x.org/f", vec![body(Some("byte"))]);
        e.body_type = Some("application/octet-stream".into());
        assert!(takes_base64(&e, &e.parameters[0]));
        e.body_type = Some("application/xml".into());
        e.parameters = vec![body(None)];
        assert!(!takes_base64(&e, &e.parameters[0]));
        e.body_type = Some(MULTIPART.into());
        e.parameters[0].content_type = Some("image/png".into());
        assert!(takes_base64(&e, &e.parameters[0]));
    }

    /// An XML body with a `body_xml`: a JSON object is written as the XML the schema
    /// describes, a string is sent as the XML text it is.
    #[test]
    fn xml_bodies_from_json_objects() {
        let mut p = param("body", "any", Some("body"), None);
        p.format = None;
        let mut e = endpoint("PUT", "https://x.org/pet", vec![p]);
        e.body_type = Some("application/xml".into());
        e.body_xml = serde_json::from_value(json!([
            {"path": "", "name": "Pet"}, {"path": "id", "attribute": true}, {"path": "name"}
        ]))
        .unwrap();
        let send = |v: Value| {
            build(
                &e,
                &BTreeMap::from([("body".to_string(), v)]),
                Base::default(),
            )
            .map(|r| String::from_utf8(r.body.unwrap().bytes()).unwrap())
        };
        assert_eq!(
            send(json!({"name": "Rex", "id": 3})).unwrap(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Pet id=\"3\"><name>Rex</name></Pet>"
        );
        assert_eq!(send(json!("<Pet/>")).unwrap(), "<Pet/>");
        assert_eq!(
            send(json!({"id": {"x": 1}})).unwrap_err(),
            "`body`: `id` is declared an XML attribute and takes a string, number or boolean"
        );
        assert_eq!(
            send(json!(3)).unwrap_err(),
            "the `application/xml` request body `body` takes its XML text (a string) or a JSON object"
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
