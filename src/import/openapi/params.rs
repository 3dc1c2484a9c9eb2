//! The parameters of one OpenAPI operation, in passes: the path item's and the operation's
//! `parameters` (the operation's entry wins for the same `name` and `in`), the query string a
//! path template may hold, the request body's properties, the security schemes' credentials,
//! and a path parameter for each `{placeholder}` no one declares. Parameters the router cannot
//! tell apart are then kept once ([`keep_one_of_each_name`]).

use super::super::path_template::{PathTemplate, QueryValue};
use super::{
    BodyMedia, FORM_MEDIA, Mapper, PARAMETER, Spec, auth_params, body_media, first_media_schema,
    follow_object, form_encoding, openapi_style, placeholders, property_at, same_credential,
    str_at, swagger_collection, swagger_form_media,
};
use crate::diagnostics::Severity;
use crate::import::codes;
use crate::import::refs::Loc;
use crate::model::{ParamLocation, Parameter, Scalar, Sp, ValueType};
use serde_json::Value;

/// The operation whose parameters are collected.
pub(super) struct Operation<'a, 'o> {
    /// The specification the document follows.
    pub spec: Spec,
    /// The whole document (security schemes).
    pub doc: &'a Value,
    /// The operation object.
    pub op: &'o Loc<'a>,
    /// The path item's `parameters`.
    pub path_params: Option<Loc<'a>>,
    /// The path template, split at its query string.
    pub tpl: &'o PathTemplate<'o>,
    /// The `base_url` parameter the endpoint needs when the document names no absolute server.
    pub base: Option<Sp<Parameter>>,
}

/// Parameters collected so far, each with where it comes from.
#[derive(Default)]
struct Collected<'a> {
    params: Vec<Sp<Parameter>>,
    origins: Vec<Origin<'a>>,
}

/// Where a parameter comes from: the place findings about it point at, and whether the
/// description declares it (else the import made it from the path template or the server).
#[derive(Clone)]
struct Origin<'a> {
    at: Loc<'a>,
    declared: bool,
}

impl<'a> Collected<'a> {
    fn push(&mut self, p: Sp<Parameter>, at: Loc<'a>, declared: bool) {
        self.params.push(p);
        self.origins.push(Origin { at, declared });
    }
}

/// The parameters of operation `o`, one per name as the router reads names.
pub(super) fn parameters<'a>(m: &mut Mapper<'a>, o: &Operation<'a, '_>) -> Vec<Sp<Parameter>> {
    let mut c = Collected::default();
    if let Some(b) = &o.base {
        c.push(b.clone(), o.op.clone(), false);
    }
    let list = declared_list(m, o);
    let satisfied = declared(m, o, &list, &mut c);
    query_string(o, &list, &satisfied, &mut c);
    request_body(m, o, &mut c);
    security(o, &mut c);
    unfilled_placeholders(m, o, &mut c);
    let mut in_url = placeholders(o.tpl.route);
    if o.base.is_some() {
        in_url.push(super::BASE_PARAM.to_string());
    }
    let mut kept = keep_one_of_each_name(m, c, &in_url);
    for p in &mut kept {
        if is_undeclared_credential(&p.value) {
            p.value.auth = Some(Sp::synthetic(true));
        }
    }
    kept
}

/// Endings of a parameter name (lower case, `-` and `_` removed) that only a credential has:
/// `api_key`, `X-ListenAPI-Key`, `access_token`, `Ocp-Apim-Subscription-Key`.
const CREDENTIAL_ENDINGS: &[&str] = &[
    "apikey",
    "apitoken",
    "apisecret",
    "accesstoken",
    "authtoken",
    "authkey",
    "secretkey",
    "clientsecret",
    "subscriptionkey",
];

/// A credential the description does not declare as a security scheme but names and describes
/// as one (`key`: "Your registered API key", `api_key`, `access_token`): the client supplies it,
/// and the router must never fill it from a question. A name that can only be a credential
/// (`api_key`, `apikey`, `x-api-key`, `X-ListenAPI-Key`, `access_token`, the `Authorization`
/// header) suffices; a shorter one (`key`, `token`, `appid`, `app_key`) needs a description that
/// says so ("Your registered API key", "Authentication Parameter", "Your API app id"; an `appid`
/// described as "The app id of the game" names a record),
/// and a header `X-…-Key` or `X-…-Token` needs to be required or so described (an optional
/// `X-Idempotency-Key` is none).
fn is_undeclared_credential(p: &Parameter) -> bool {
    let location = p.location.as_ref().map(|l| l.value);
    if p.is_auth() || location == Some(ParamLocation::Body) {
        return false;
    }
    let lower = p.name.value.to_lowercase();
    let name = lower.replace(['-', '_'], "");
    let header = location == Some(ParamLocation::Header);
    if CREDENTIAL_ENDINGS.iter().any(|e| name.ends_with(e))
        || (header && matches!(name.as_str(), "authorization" | "proxyauthorization"))
    {
        return true;
    }
    let required = p.required.as_ref().is_some_and(|r| r.value);
    let x_secret = header
        && lower.starts_with("x-")
        && ["-key", "-token", "-secret"]
            .iter()
            .any(|e| lower.ends_with(e))
        && !lower.contains("idempotency");
    let description = p
        .description
        .as_ref()
        .map(|d| d.value.to_lowercase())
        .unwrap_or_default();
    let says = [
        "api key",
        "apikey",
        "api-key",
        "access token",
        "auth token",
        "authentication",
        "credential",
        // SchoolDigger's `appID` and `appKey`: "Your API app id", "Your API app key".
        "your api",
        "app key",
        "application key",
    ]
    .iter()
    .any(|w| description.contains(w));
    (x_secret && (required || says))
        || (matches!(name.as_str(), "key" | "token" | "appid" | "appkey") && says)
}

/// The operation's and the path item's `parameters` entries (references followed), the
/// operation's winning for the same `name` and `in`; an entry repeated within one list is
/// reported.
fn declared_list<'a>(m: &mut Mapper<'a>, o: &Operation<'a, '_>) -> Vec<Loc<'a>> {
    let mut list: Vec<Loc<'a>> = Vec::new();
    // Which of the two lists each entry of `list` came from.
    let mut origin: Vec<usize> = Vec::new();
    for (from, src) in [o.op.get("parameters"), o.path_params.clone()]
        .into_iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|s| (i, s)))
    {
        let Value::Array(a) = src.value else { continue };
        for i in 0..a.len() {
            let Some(p) = src.get(&i.to_string()) else {
                continue;
            };
            let Some(p) = follow_object(m, p, &PARAMETER) else {
                continue;
            };
            let key = (str_at(p.value, "name"), str_at(p.value, "in"));
            if let Some(at) = list
                .iter()
                .position(|q| (str_at(q.value, "name"), str_at(q.value, "in")) == key)
            {
                // Twice in one list is the document's fault (OpenAPI: "MUST NOT include
                // duplicated parameters"); an operation's entry over the path item's is the
                // override the specification defines.
                if origin[at] == from
                    && let (Some(name), Some(place)) = key
                {
                    let ctx = m.context.clone();
                    m.report(
                        codes::UNSUPPORTED_NAME,
                        Severity::Warning,
                        &p,
                        format!("`{ctx}`: parameter `{name}` (in {place}) is listed twice in one `parameters` list; the second is not imported"),
                        "an OpenAPI parameter list holds each name and `in` once; remove the repeated entry from the document",
                    );
                }
                continue;
            }
            list.push(p);
            origin.push(from);
        }
    }
    list
}

/// The declared parameters (Swagger 2.0 `body` and `formData` ones as body parameters). A path
/// parameter whose `{name}` stands in the path template's query string (`?q={name}`) is that
/// query parameter (named by its key). Returns the keys of the query string's pairs a declared
/// parameter took.
fn declared<'a>(
    m: &mut Mapper<'a>,
    o: &Operation<'a, '_>,
    list: &[Loc<'a>],
    c: &mut Collected<'a>,
) -> Vec<String> {
    let spec = o.spec;
    let mut satisfied = Vec::new();
    let mut form_body: Vec<(Sp<Parameter>, Loc<'a>)> = Vec::new();
    for p in list {
        let Some(name) = str_at(p.value, "name") else {
            let ctx = m.context.clone();
            m.report(
                codes::UNSUPPORTED_NAME,
                Severity::Warning,
                p,
                format!("`{ctx}`: a parameter without a `name` (or not an object); not imported"),
                "every OpenAPI parameter object has a `name` and an `in`",
            );
            continue;
        };
        let loc_name = match str_at(p.value, "in") {
            Some(l @ ("path" | "query" | "header" | "cookie")) => l,
            Some(l @ ("body" | "formData")) if spec == Spec::Swagger2 => l,
            other => {
                let ctx = m.context.clone();
                let found = match (other, p.value.get("in")) {
                    (Some(l), _) => format!("`in: {l}`"),
                    (None, Some(v)) => format!("`in: {v}`"),
                    (None, None) => "no `in`".to_string(),
                };
                m.report(
                    codes::UNSUPPORTED_NAME,
                    Severity::Warning,
                    p,
                    format!(
                        "`{ctx}`: parameter `{name}` has {found}, which is no parameter location; not imported"
                    ),
                    if spec == Spec::Swagger2 {
                        "`in` is one of path, query, header, body or formData"
                    } else {
                        "`in` is one of path, query, header or cookie"
                    },
                );
                continue;
            }
        };
        let required = p.value.get("required") == Some(&Value::Bool(true)) || loc_name == "path";
        match (spec, loc_name) {
            (Spec::Swagger2, "body") => {
                // A body of a media type that is not JSON or a form (`consumes`) is sent whole.
                if let Some(media) = swagger_body_media(o.op.value, o.doc)
                    .filter(|m| !FORM_MEDIA.contains(&m.as_str()))
                {
                    c.push(whole_body(p, &media, required), p.clone(), true);
                } else if let Some(s) = p.get("schema") {
                    for q in m.body_parameters(&s, required, Some(ParamLocation::Body)) {
                        let at = property_at(&s, &q.value.name.value);
                        c.push(q, at, true);
                    }
                }
                continue;
            }
            (Spec::Swagger2, "formData") => {
                let mut q = m.parameter(name, Some(p), required, Some(ParamLocation::Body));
                swagger_collection(&mut q, p.value);
                // A file is uploaded as its bytes (given base64-encoded).
                if str_at(p.value, "type") == Some("file") {
                    q.value.format = Some(Sp::synthetic("binary".into()));
                }
                form_body.push((q, p.clone()));
                continue;
            }
            _ => {}
        }
        let mut location = match loc_name {
            "path" => ParamLocation::Path,
            "header" => ParamLocation::Header,
            "cookie" => ParamLocation::Cookie,
            _ => ParamLocation::Query,
        };
        let mut sent_as = name;
        if location == ParamLocation::Path && !placeholders(o.tpl.route).iter().any(|n| n == name) {
            match o.tpl.pair_of(name) {
                // `?key={name}`: the value goes into the query string, under its key.
                Some(pair) => {
                    location = ParamLocation::Query;
                    sent_as = pair.key.as_str();
                    satisfied.push(pair.key.clone());
                }
                None => {
                    let ctx = m.context.clone();
                    let path = o.tpl.written;
                    m.report(
                        codes::UNSUPPORTED_NAME,
                        Severity::Warning,
                        p,
                        format!(
                            "`{ctx}`: path parameter `{name}` has no `{{{name}}}` in the path `{path}`; imported as declared, but its value has no place in the URL"
                        ),
                        format!(
                            "put `{{{name}}}` in the path, or declare the parameter where it is sent (`in: query`, `in: header`)"
                        ),
                    );
                }
            }
        }
        let schema = match spec {
            Spec::Swagger2 => Some(p.clone()),
            Spec::OpenApi3 => p.get("schema").or_else(|| first_media_schema(p)),
        };
        let mut q = m.parameter(sent_as, schema.as_ref(), required, Some(location));
        if q.value.description.is_none()
            && let Some(d) = str_at(p.value, "description")
        {
            q.value.description = Some(Sp::synthetic(d.to_string()));
        }
        match spec {
            Spec::OpenApi3 => openapi_style(&mut q, p.value, location),
            Spec::Swagger2 => swagger_collection(&mut q, p.value),
        }
        c.push(q, p.clone(), true);
    }
    for (q, p) in form_body {
        c.push(q, p, true);
    }
    satisfied
}

/// A query parameter for each pair of the path template's query string that no declared
/// parameter took: `key={name}` a required string, `key=text` a required string whose one
/// value (`enum`, `default`) is the text. A declared query parameter named by the key is that
/// parameter already.
fn query_string<'a>(
    o: &Operation<'a, '_>,
    list: &[Loc<'a>],
    satisfied: &[String],
    c: &mut Collected<'a>,
) {
    for pair in &o.tpl.query {
        let declared_query = list.iter().any(|p| {
            str_at(p.value, "name") == Some(pair.key.as_str())
                && str_at(p.value, "in") == Some("query")
        });
        if declared_query || satisfied.contains(&pair.key) {
            continue;
        }
        let written = match &pair.value {
            QueryValue::Placeholder(n) => format!("{}={{{n}}}", pair.key),
            QueryValue::Fixed(v) => format!("{}={v}", pair.key),
        };
        let mut q = Parameter::new(pair.key.clone(), ValueType::String);
        q.required = Some(Sp::synthetic(true));
        q.location = Some(Sp::synthetic(ParamLocation::Query));
        q.description = Some(Sp::synthetic(match &pair.value {
            QueryValue::Placeholder(_) => format!(
                "Query parameter written in the path template (`{written}`); the description declares no parameter for it."
            ),
            QueryValue::Fixed(_) => {
                format!("Fixed query parameter written in the path template (`{written}`).")
            }
        }));
        if let QueryValue::Fixed(v) = &pair.value {
            q.enum_values = Some(vec![Sp::synthetic(Scalar::String(v.clone()))]);
            q.default = Some(Sp::synthetic(Scalar::String(v.clone())));
        }
        c.push(Sp::synthetic(q), o.op.clone(), false);
    }
}

/// The OpenAPI 3 operation's `requestBody` (a reference followed).
fn request_body_object<'a>(m: &mut Mapper<'a>, op: &Loc<'a>) -> Option<Loc<'a>> {
    let body = op.get("requestBody")?;
    match body.value.get("$ref").and_then(Value::as_str) {
        Some(r) => m.r.follow(&body, r).ok(),
        None => Some(body),
    }
}

/// OpenAPI 3 request body: one parameter per property; for a form encoding, each property's
/// `encoding` entry (`style`, `explode`, `allowReserved`; a multipart part's `contentType` and
/// `headers`) kept on its parameter. A body of another media type (XML, plain text, bytes) is
/// one parameter `body`: a string, the body's text, or its bytes base64-encoded
/// (`format: byte`) for a media type that is not text ([`crate::model::text_media`]).
fn request_body<'a>(m: &mut Mapper<'a>, o: &Operation<'a, '_>, c: &mut Collected<'a>) {
    if o.spec != Spec::OpenApi3 {
        return;
    }
    let Some(body) = request_body_object(m, o.op) else {
        return;
    };
    let required = body.value.get("required") == Some(&Value::Bool(true));
    let (s, media) = match body_media(&body) {
        Some(BodyMedia::Fields(s, media)) => (s, media),
        Some(BodyMedia::Whole(media)) => {
            c.push(whole_body(&body, &media, required), body.clone(), true);
            return;
        }
        None => return,
    };
    let encoding = media.and_then(|k| body.get("content")?.get(k)?.get("encoding"));
    for mut q in m.body_parameters(&s, required, Some(ParamLocation::Body)) {
        if let (Some(e), Some(k)) = (
            encoding.as_ref().and_then(|e| e.get(&q.value.name.value)),
            media,
        ) {
            form_encoding(m, &mut q, &e, k);
        }
        let at = property_at(&s, &q.value.name.value);
        c.push(q, at, true);
    }
}

/// The one parameter `body` of a request body of media type `media` sent whole: a string, the
/// text itself for a text type, else the bytes base64-encoded (`format: byte`).
fn whole_body(body: &Loc<'_>, media: &str, required: bool) -> Sp<Parameter> {
    let text = crate::model::text_media(media);
    let what = if text {
        format!("the request body ({media}) as text")
    } else {
        format!("the request body ({media}): its bytes, base64-encoded (RFC 4648)")
    };
    let description = match str_at(body.value, "description").map(str::trim) {
        Some(d) if !d.is_empty() => format!("{d} ({what})"),
        _ => format!("{}{}", what[..1].to_uppercase(), &what[1..]),
    };
    Sp::synthetic(Parameter {
        required: required.then(|| Sp::synthetic(true)),
        location: Some(Sp::synthetic(ParamLocation::Body)),
        format: (!text).then(|| Sp::synthetic("byte".to_string())),
        description: Some(Sp::synthetic(description)),
        ..Parameter::new("body", ValueType::String)
    })
}

/// The media type of the endpoint's request body when it is not JSON: a form
/// (`application/x-www-form-urlencoded`, `multipart/form-data`) or a body sent whole (XML,
/// text, bytes): OpenAPI 3's chosen `requestBody` media type, or Swagger 2.0's `consumes` for
/// `formData` parameters. `None` for a JSON body, or when no parameter is sent in the body.
pub(super) fn body_type<'a>(
    m: &mut Mapper<'a>,
    spec: Spec,
    doc: &Value,
    op: &Loc<'a>,
    params: &[Sp<Parameter>],
) -> Option<Sp<String>> {
    report_media_types(m, spec, op);
    let in_body = params.iter().any(|p| {
        p.value
            .location
            .as_ref()
            .is_some_and(|l| l.value == ParamLocation::Body)
    });
    if !in_body {
        return None;
    }
    match spec {
        Spec::OpenApi3 => match body_media(&request_body_object(m, op)?)? {
            BodyMedia::Fields(_, media) => media.map(|m| Sp::synthetic(m.to_string())),
            BodyMedia::Whole(media) => Some(Sp::synthetic(media)),
        },
        Spec::Swagger2 => {
            // `in: formData` or `in: body`, written in the operation or referenced from
            // `#/parameters`.
            let located = |p: &Value, place: &str| {
                let p = match str_at(p, "$ref").and_then(|r| r.strip_prefix("#/parameters/")) {
                    Some(name) => doc.get("parameters").and_then(|d| d.get(name)),
                    None => Some(p),
                };
                p.and_then(|p| str_at(p, "in")) == Some(place)
            };
            let any_in = |place: &str| {
                op.value
                    .get("parameters")
                    .and_then(Value::as_array)
                    .is_some_and(|a| a.iter().any(|p| located(p, place)))
            };
            if any_in("formData") {
                return Some(Sp::synthetic(swagger_form_media(op.value, doc).to_string()));
            }
            swagger_body_media(op.value, doc).map(Sp::synthetic)
        }
    }
}

/// Every request-body media type of the operation that is not one by the one rule
/// ([`crate::model::media_type_fault`]): OpenAPI 3's `requestBody.content` keys, Swagger 2.0's
/// `consumes` (the operation's, else the document's), each reported (SR711) where it is
/// written. One whose type or subtype is faulty is never chosen to send (the body is sent as
/// another of its types, or not imported; Swagger 2.0: as JSON, its default); one whose
/// parameter is faulty is sent as its essence.
fn report_media_types<'a>(m: &mut Mapper<'a>, spec: Spec, op: &Loc<'a>) {
    let r = m.r;
    let list = match spec {
        Spec::OpenApi3 => request_body_object(m, op).and_then(|b| b.get("content")),
        Spec::Swagger2 => op.get("consumes").or_else(|| r.scoped(op.doc, "/consumes")),
    };
    let Some(list) = list else { return };
    let entries: Vec<(String, Loc<'a>)> = match list.value {
        Value::Object(o) => o
            .keys()
            .filter_map(|k| Some((k.clone(), list.get(k)?)))
            .collect(),
        Value::Array(a) => (0..a.len())
            .filter_map(|i| {
                let at = list.get(&i.to_string())?;
                Some((at.value.as_str()?.to_string(), at))
            })
            .collect(),
        _ => return,
    };
    let valid = entries
        .iter()
        .filter(|(k, _)| super::sendable_media(&crate::model::tool::media_essence(k)))
        .count();
    for (k, at) in &entries {
        let Some(f) = crate::model::media_type_fault(k) else {
            continue;
        };
        // The document's own `consumes` is reported once, not for every operation.
        let ctx = if at.pointer.starts_with("/consumes") {
            "the document".to_string()
        } else {
            format!("`{}`", m.context)
        };
        let what = match (f.in_essence, valid) {
            (false, _) => format!("it is sent as `{}`", crate::model::tool::media_essence(k)),
            (true, 0) if spec == Spec::Swagger2 => {
                "the body is sent as JSON, as without `consumes`".to_string()
            }
            (true, 0) => "the request body is not imported".to_string(),
            (true, _) => "the request body is sent as another of its media types".to_string(),
        };
        let help = match &f.suggestion {
            Some(s) => format!("write `{s}` in the document and import again"),
            None => "write a registered media type (`type/subtype`, RFC 6838; `charset` a registered character set) in the document and import again".to_string(),
        };
        let message = format!(
            "{ctx}: `{k}` is no valid request body media type ({}); {what}",
            f.message
        );
        if !m.findings.iter().any(|d| d.message == message) {
            m.report(
                codes::INVALID_MEDIA_TYPE,
                Severity::Warning,
                at,
                message,
                help,
            );
        }
    }
}

/// Swagger 2.0: the media type an `in: body` parameter is sent as, by the operation's
/// `consumes` (else the document's), as OpenAPI 3 request bodies are chosen ([`body_media`]):
/// `None` (JSON) when the list is absent, empty or names a JSON type; else a form type it names,
/// else its XML types first, then other text types, then the rest, each in name order (a
/// wildcard is no media type to send).
pub(super) fn swagger_body_media(op: &Value, doc: &Value) -> Option<String> {
    let consumes = op.get("consumes").or_else(|| doc.get("consumes"))?;
    let names: Vec<String> = consumes
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .map(crate::model::tool::media_essence)
        .collect();
    if names.is_empty() || names.iter().any(|n| super::is_json(n)) {
        return None;
    }
    if let Some(form) = FORM_MEDIA.iter().find(|f| names.iter().any(|n| n == *f)) {
        return Some((*form).to_string());
    }
    let mut others: Vec<String> = names
        .into_iter()
        .filter(|k| super::sendable_media(k) && !k.contains('*'))
        .collect();
    others.sort_by_key(|k| {
        let xml = k.ends_with("/xml") || k.ends_with("+xml");
        (!xml, !crate::model::text_media(k), k.clone())
    });
    others.into_iter().next()
}

/// The schema of the request body sent whole as `media` (an XML type): OpenAPI 3's
/// `requestBody.content` entry of that type, or Swagger 2.0's `in: body` parameter's.
pub(super) fn whole_body_schema<'a>(
    m: &mut Mapper<'a>,
    spec: Spec,
    op: &Loc<'a>,
    media: &str,
) -> Option<Loc<'a>> {
    match spec {
        Spec::OpenApi3 => {
            let content = request_body_object(m, op)?.get("content")?;
            let key = content.value.as_object()?.keys().find(|k| {
                k.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .eq_ignore_ascii_case(media)
            })?;
            content.get(key)?.get("schema")
        }
        Spec::Swagger2 => {
            let params = op.get("parameters")?;
            let n = params.value.as_array()?.len();
            (0..n).find_map(|i| {
                let p = params.get(&i.to_string())?;
                let p = match p.value.get("$ref").and_then(Value::as_str) {
                    Some(r) => m.r.follow(&p, r).ok()?,
                    None => p,
                };
                (str_at(p.value, "in") == Some("body"))
                    .then(|| p.get("schema"))
                    .flatten()
            })
        }
    }
}

/// Security schemes become `auth` parameters; one the operation also lists as a parameter (the
/// same name and place) is one credential, written as the scheme's.
fn security<'a>(o: &Operation<'a, '_>, c: &mut Collected<'a>) {
    for a in auth_params(o.spec, o.doc, o.op.value) {
        match c.params.iter_mut().find(|q| same_credential(q, &a)) {
            Some(q) => {
                let required = q.value.required.as_ref().is_some_and(|r| r.value)
                    || a.value.required.as_ref().is_some_and(|r| r.value);
                *q = a;
                q.value.required = required.then(|| Sp::synthetic(true));
            }
            None => c.push(a, o.op.clone(), true),
        }
    }
}

/// Every `{placeholder}` of the path needs a path parameter to fill it: one is made for each
/// that has none (a string, required), and reported.
fn unfilled_placeholders<'a>(m: &mut Mapper<'a>, o: &Operation<'a, '_>, c: &mut Collected<'a>) {
    for name in placeholders(o.tpl.route) {
        let filled = c.params.iter().any(|p| {
            p.value.name.value == name
                && p.value
                    .location
                    .as_ref()
                    .is_some_and(|l| l.value == ParamLocation::Path)
        });
        if filled {
            continue;
        }
        let ctx = m.context.clone();
        let key = crate::model::normalise_id(&name);
        let elsewhere = c
            .params
            .iter()
            .find(|p| crate::model::normalise_id(&p.value.name.value) == key);
        let (has, what) = match elsewhere {
            Some(p) if p.value.name.value == name => (
                "no path parameter (only one sent elsewhere)".to_string(),
                "a required path parameter of that one's type",
            ),
            Some(p) => (
                format!(
                    "no path parameter (only `{}`, sent elsewhere)",
                    p.value.name.value
                ),
                "a required path parameter of that one's type",
            ),
            None => (
                "no parameter".to_string(),
                "a required string path parameter",
            ),
        };
        m.report(
            codes::UNSUPPORTED_NAME,
            Severity::Warning,
            o.op,
            format!("`{ctx}`: the path placeholder `{{{name}}}` has {has}; imported as {what}"),
            "declare the path parameter in the description (`in: path`, `required: true`) with its type",
        );
        let mut q = m.parameter(&name, None, true, Some(ParamLocation::Path));
        q.value.description = Some(Sp::synthetic(
            "Path segment (the description declares no parameter for it).".to_string(),
        ));
        c.push(q, o.op.clone(), false);
    }
}

/// The help of a finding about two parameters of one name.
const ONE_NAME_HELP: &str = "parameter names must be unique within an endpoint, compared as the router compares them (case and `-`, `_` or spaces aside); the one kept is the path parameter the URL needs, else the one the description declares over one made from the path template, else the first; declare the other by hand under another name if a plan needs it";

/// Keep one parameter of each name as the router reads names (`normalise_id`: `maxItems` and
/// `MaxItems`, `lat` and `Lat`, `api-key` and `api_key` are one), reporting the others (SR706,
/// at the one left out). Which one is kept:
///
/// 1. a path parameter whose `{name}` the URL holds (`in_url`): the URL needs it;
/// 2. else one the description declares over one the import made (from the path template);
/// 3. else the first (the operation's parameters, the path item's, the body's, the security
///    schemes').
///
/// A kept parameter the import made takes the type, format, enumeration, default and
/// description of the declared one it replaces (the description knows the value; the template
/// only where it goes). A name with `/` or control characters is reported and left out.
fn keep_one_of_each_name<'a>(
    m: &mut Mapper<'a>,
    c: Collected<'a>,
    in_url: &[String],
) -> Vec<Sp<Parameter>> {
    let place = |p: &Sp<Parameter>| {
        p.value.location.as_ref().map_or_else(
            || "query".to_string(),
            |l| format!("{:?}", l.value).to_lowercase(),
        )
    };
    let needed = |p: &Sp<Parameter>| {
        p.value
            .location
            .as_ref()
            .is_some_and(|l| l.value == ParamLocation::Path)
            && in_url.contains(&p.value.name.value)
    };
    let mut out: Vec<Sp<Parameter>> = Vec::new();
    let mut out_from: Vec<Origin<'a>> = Vec::new();
    for (p, here) in c.params.into_iter().zip(c.origins) {
        let key = crate::model::normalise_id(&p.value.name.value);
        let same = out.iter().position(|q| {
            super::super::schema::same_name(&q.value.name.value, &p.value.name.value)
                || crate::model::normalise_id(&q.value.name.value) == key
        });
        if let Some(at) = same {
            let new_wins = if needed(&p) != needed(&out[at]) {
                needed(&p)
            } else {
                here.declared && !out_from[at].declared
            };
            report_one_name(m, &out[at], &p, new_wins, &place, &out_from[at], &here);
            let (mut winner, mut from, loser, loser_from) = if new_wins {
                (p, here, out[at].clone(), out_from[at].clone())
            } else {
                (out[at].clone(), out_from[at].clone(), p, here)
            };
            if !from.declared && loser_from.declared {
                take_declared(&mut winner, &loser);
                from.declared = true;
            }
            out[at] = winner;
            out_from[at] = from;
            continue;
        }
        if p.value.name.value.contains('/') || p.value.name.value.chars().any(char::is_control) {
            let ctx = m.context.clone();
            m.report(
                codes::UNSUPPORTED_NAME,
                Severity::Warning,
                &here.at,
                format!(
                    "`{ctx}`: parameter name `{}` contains `/` or control characters; not imported",
                    p.value.name.value
                ),
                "declare the parameter by hand if a plan needs it",
            );
            continue;
        }
        out.push(p);
        out_from.push(here);
    }
    out
}

/// Report that of two parameters of one name, `first` and `second` (in the order they were
/// met), one is left out: `first` when `first_dropped`, else `second`. The finding points at
/// the one left out.
fn report_one_name(
    m: &mut Mapper<'_>,
    first: &Sp<Parameter>,
    second: &Sp<Parameter>,
    first_dropped: bool,
    place: &dyn Fn(&Sp<Parameter>) -> String,
    first_from: &Origin<'_>,
    second_from: &Origin<'_>,
) {
    let ctx = m.context.clone();
    let (a, b) = (place(first), place(second));
    let (dropped, at) = if first_dropped {
        (first, first_from)
    } else {
        (second, second_from)
    };
    let (n1, n2) = (&first.value.name.value, &second.value.name.value);
    let message = if super::super::schema::same_name(n1, n2) {
        let which = if a == b {
            if first_dropped {
                "the first"
            } else {
                "the second"
            }
            .to_string()
        } else {
            format!("the {} one", place(dropped))
        };
        format!(
            "`{ctx}`: parameter `{n2}` is declared twice ({a} and {b}); {which} is not imported"
        )
    } else {
        format!(
            "`{ctx}`: parameters `{n1}` ({a}) and `{n2}` ({b}) are one name to the router (they differ only in case or separators); `{}` ({}) is not imported",
            dropped.value.name.value,
            place(dropped)
        )
    };
    m.report(
        codes::UNSUPPORTED_NAME,
        Severity::Warning,
        &at.at,
        message,
        ONE_NAME_HELP,
    );
}

/// What the description declares about a value, carried into the parameter the import made for
/// the same value (a path placeholder's): type, format, enumeration, default, description,
/// bounds.
fn take_declared(made: &mut Sp<Parameter>, declared: &Sp<Parameter>) {
    let d = &declared.value;
    let p = &mut made.value;
    p.ty = d.ty.clone();
    p.format = d.format.clone();
    p.enum_values = d.enum_values.clone();
    p.default = d.default.clone();
    p.description = d.description.clone();
    p.minimum = d.minimum.clone();
    p.maximum = d.maximum.clone();
    p.exclusive_minimum = d.exclusive_minimum.clone();
    p.exclusive_maximum = d.exclusive_maximum.clone();
    p.min_length = d.min_length.clone();
    p.max_length = d.max_length.clone();
    p.pattern = d.pattern.clone();
    p.min_items = d.min_items.clone();
    p.max_items = d.max_items.clone();
}

#[cfg(test)]
mod credential_tests {
    use super::*;

    fn param(name: &str, description: Option<&str>) -> Parameter {
        let mut p = Parameter::new(name, ValueType::parse("string").unwrap());
        p.description = description.map(|d| Sp::synthetic(d.to_string()));
        p
    }

    #[test]
    fn undeclared_credentials_are_told_by_name_and_description() {
        assert!(is_undeclared_credential(&param("api_key", None)));
        assert!(is_undeclared_credential(&param("X-API-Key", None)));
        assert!(is_undeclared_credential(&param(
            "key",
            Some("Your registered API key.")
        )));
        assert!(is_undeclared_credential(&param(
            "appid",
            Some("Your unique API key (you can always find it on your account page)")
        )));
        assert!(!is_undeclared_credential(&param(
            "key",
            Some("The sort key")
        )));
        // Oxford Dictionaries' headers.
        for name in ["app_id", "app_key"] {
            assert!(is_undeclared_credential(&param(
                name,
                Some("App Key Authentication Parameter")
            )));
        }
        // SchoolDigger's query parameters.
        assert!(is_undeclared_credential(&param(
            "appID",
            Some("Your API app id")
        )));
        assert!(is_undeclared_credential(&param(
            "appKey",
            Some("Your API app key")
        )));
        assert!(!is_undeclared_credential(&param(
            "appid",
            Some("The Steam application id of the game")
        )));
        assert!(!is_undeclared_credential(&param(
            "appid",
            Some("The app id of the game")
        )));
        assert!(!is_undeclared_credential(&param("token", None)));
        assert!(is_undeclared_credential(&param("access-token", None)));
        assert!(is_undeclared_credential(&param(
            "Ocp-Apim-Subscription-Key",
            None
        )));
        // Headers: `Authorization`, and `X-…-Key` when required or described as a key.
        let header = |name: &str, required: bool, description: Option<&str>| {
            let mut p = param(name, description);
            p.location = Some(Sp::synthetic(ParamLocation::Header));
            p.required = required.then(|| Sp::synthetic(true));
            p
        };
        assert!(is_undeclared_credential(&header(
            "X-ListenAPI-Key",
            true,
            None
        )));
        assert!(is_undeclared_credential(&header(
            "X-Vendor-Key",
            true,
            None
        )));
        assert!(is_undeclared_credential(&header(
            "Authorization",
            false,
            None
        )));
        assert!(is_undeclared_credential(&header(
            "X-Session-Token",
            false,
            Some("The access token of the session")
        )));
        assert!(!is_undeclared_credential(&header(
            "X-Vendor-Key",
            false,
            None
        )));
        assert!(!is_undeclared_credential(&header(
            "X-Idempotency-Key",
            true,
            None
        )));
        assert!(!is_undeclared_credential(&header(
            "X-Request-Id",
            true,
            None
        )));
        assert!(!is_undeclared_credential(&header(
            "Accept-Language",
            true,
            None
        )));
        // A query parameter named `authorization` is no header credential.
        assert!(!is_undeclared_credential(&param("authorization", None)));
        assert!(!is_undeclared_credential(&param(
            "keyword",
            Some("API key words")
        )));
    }
}
