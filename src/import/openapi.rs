//! OpenAPI 3.0 / 3.1 and Swagger 2.0 documents: one tool per document, one endpoint per
//! operation. The full mapping table is in `docs/import.md`.

mod params;
mod xml;

use super::path_template::PathTemplate;
use super::refs::{Loc, Resolver};
use super::schema::Mapper;
use super::{Imported, Options, codes, endpoint_id, licence_from, snake, summary_text};
use crate::diagnostics::Severity;
use crate::model::{
    Endpoint, HttpMethod, ParamLocation, Parameter, Provenance, Sp, Tool, ValueType,
};
use serde_json::Value;
use std::collections::BTreeSet;

const METHODS: &[(&str, HttpMethod)] = &[
    ("get", HttpMethod::Get),
    ("put", HttpMethod::Put),
    ("post", HttpMethod::Post),
    ("delete", HttpMethod::Delete),
    ("options", HttpMethod::Options),
    ("head", HttpMethod::Head),
    ("patch", HttpMethod::Patch),
    ("trace", HttpMethod::Trace),
];

/// Which specification a document follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spec {
    Swagger2,
    OpenApi3,
}

/// The version keys of a document: the key, what its value must be, an example, and how the
/// version reads unquoted in YAML (a number).
const VERSION_KEYS: [(&str, &str, &str, &str); 2] = [
    ("openapi", "a string like \"3.1.0\"", "3.1.0", "3.1"),
    ("swagger", "the string \"2.0\"", "2.0", "2.0"),
];

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The specification a document follows (`OpenAPI 3.1.0`), or `None` after reporting why it
/// is no OpenAPI or Swagger document this importer reads (SR705).
fn specification(m: &mut Mapper<'_>, root: &Loc<'_>) -> Option<(Spec, String)> {
    let doc = root.value;
    match (str_at(doc, "openapi"), str_at(doc, "swagger")) {
        (Some(v), _) if v.starts_with("3.") => Some((Spec::OpenApi3, format!("OpenAPI {v}"))),
        (_, Some("2.0")) => Some((Spec::Swagger2, "Swagger 2.0".to_string())),
        (Some(v), _) | (_, Some(v)) => {
            m.report(
                codes::UNSUPPORTED_SOURCE,
                Severity::Error,
                &root
                    .get("openapi")
                    .or_else(|| root.get("swagger"))
                    .unwrap_or(root.clone()),
                format!("OpenAPI version `{v}` is not supported (3.0, 3.1 and Swagger 2.0 are)"),
                "convert the document to OpenAPI 3.x first",
            );
            None
        }
        (None, None) => {
            // The key is there, but its value is no version string (`"openapi": 3`, or YAML's
            // unquoted `openapi: 3.1` and `swagger: 2.0`, which are numbers).
            if let Some((key, must_be, example, bare, at)) =
                VERSION_KEYS
                    .iter()
                    .find_map(|&(key, must_be, example, bare)| {
                        root.get(key).map(|at| (key, must_be, example, bare, at))
                    })
            {
                let kind = match at.value {
                    Value::String(_) => "an empty string",
                    v => super::kind_of(v),
                };
                m.report(
                    codes::UNSUPPORTED_SOURCE,
                    Severity::Error,
                    &at,
                    format!("the `{key}` version must be {must_be}, not {kind}"),
                    format!("write it in quotes: `\"{key}\": \"{example}\"` (JSON) or `{key}: \"{example}\"` (YAML, where an unquoted `{bare}` is a number)"),
                );
                return None;
            }
            let hint = if doc.get("tools").is_some() || doc.as_array().is_some() {
                "this looks like a tool list: use `schemarouter import mcp` or `import openai`"
            } else {
                "an OpenAPI document starts with `openapi: 3.x` (or `swagger: \"2.0\"`)"
            };
            m.report(
                codes::UNSUPPORTED_SOURCE,
                Severity::Error,
                root,
                "not an OpenAPI or Swagger document: it has no `openapi` or `swagger` version key",
                hint,
            );
            None
        }
    }
}

/// The tool's id and names from the document's provider, service, host, title and paths (see
/// [`super::naming`]).
fn identity_of(
    doc: &Value,
    info: &Value,
    host: Option<&str>,
    title: &str,
    opts: &Options,
) -> super::naming::Identity {
    super::naming::identity(&super::naming::Evidence {
        provider: str_at(info, "x-providerName"),
        service: str_at(info, "x-serviceName"),
        host,
        title,
        stem: &opts.source_stem,
        path_words: super::naming::path_words(
            doc.get("paths")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|m| m.keys().map(String::as_str)),
        ),
    })
}

/// Import one OpenAPI or Swagger document (the resolver's root document).
pub fn import(r: &Resolver, opts: &Options) -> Imported {
    let mut m = Mapper::new(r);
    let root = r.root();
    let doc = root.value;
    let Some((spec, spec_name)) = specification(&mut m, &root) else {
        return Imported::failed(m.findings);
    };
    let info = doc.get("info").cloned().unwrap_or(Value::Null);
    let title = str_at(&info, "title")
        .map(str::to_string)
        .unwrap_or_else(|| opts.source_stem.clone());
    let base = base_url(spec, doc);
    let host = base.host();
    let identity = identity_of(doc, &info, host.as_deref(), &title, opts);
    let tool_id = opts.tool.clone().unwrap_or_else(|| identity.id.clone());

    let mut endpoints: Vec<Sp<Endpoint>> = Vec::new();
    let mut used_ids = BTreeSet::new();
    let mut total_fields = 0usize;
    let Some(paths) = root.get("paths") else {
        m.report(
            codes::UNSUPPORTED_SOURCE,
            Severity::Error,
            &root,
            "the document has no `paths`: there is nothing to import",
            "add the API's operations under `paths` (webhook-only documents cannot be imported)",
        );
        return Imported::failed(m.findings);
    };
    let Value::Object(path_map) = paths.value else {
        m.report(
            codes::UNSUPPORTED_SOURCE,
            Severity::Error,
            &paths,
            "`paths` is not a map of paths to path items",
            "write `paths:` as a map (`/pets: {get: ...}`)",
        );
        return Imported::failed(m.findings);
    };
    let ids = EndpointIds::new(path_map);
    for path in path_map.keys() {
        let Some(item) = paths.get(path) else {
            continue;
        };
        // A path item may itself be a reference (OpenAPI 3.x).
        // No endpoint yet: a finding here names none.
        m.context.clear();
        let Some(item) = follow_object(&mut m, item, &PATH_ITEM) else {
            continue;
        };
        if !item.value.is_object() {
            continue;
        }
        if !path_key_ok(&mut m, &paths, path) {
            continue;
        }
        let path_params = item.get("parameters");
        let path_servers = server_of(item.value);
        let tpl = PathTemplate::parse(path);
        let mut query_reported = false;
        for (mname, method) in METHODS {
            let Some(op) = item.get(mname) else { continue };
            if !op.value.is_object() {
                continue;
            }
            let op_id = str_at(op.value, "operationId");
            let (id, shared_op_id, generated_op_id) = ids.id(op_id, mname, &tpl, &mut used_ids);
            if !opts.selects(&[id.as_str(), op_id.unwrap_or(""), path]) {
                continue;
            }
            m.begin(format!("{tool_id}/{id}"));
            m.resource = super::records::resource_of_path(path).map(str::to_string);
            if tpl.has_query() && !query_reported {
                query_reported = true;
                report_query_string(&mut m, &item, &tpl, &id);
            }
            if let Some(o) = shared_op_id {
                let at = op.get("operationId").unwrap_or_else(|| op.clone());
                m.report(
                    codes::UNSUPPORTED_NAME,
                    Severity::Warning,
                    &at,
                    format!(
                        "operationId `{o}` is used by {} operations; this one ({} {path}) is imported as `{id}`, from its method and path",
                        ids.op_id_uses[&snake(o)],
                        mname.to_uppercase()
                    ),
                    "OpenAPI requires each operationId to be unique: give each operation its own",
                );
            }
            let server = server_of(op.value)
                .or_else(|| path_servers.clone())
                .map(|s| resolve_server(&s, &base))
                .unwrap_or_else(|| base.clone());
            let mut e = endpoint_of(
                &id,
                *method,
                join_url(&server.url, tpl.route),
                summary_text(op.value),
            );
            e.operation_id = generated_op_id.map(|o| Sp::synthetic(o.to_string()));
            e.deprecated = (op.value.get("deprecated") == Some(&Value::Bool(true)))
                .then(|| Sp::synthetic(true));
            e.parameters = params::parameters(
                &mut m,
                &params::Operation {
                    spec,
                    doc,
                    op: &op,
                    path_params: path_params.clone(),
                    tpl: &tpl,
                    base: server.placeholder.as_deref().map(base_param),
                },
            );
            e.body_type = params::body_type(&mut m, spec, doc, &op, &e.parameters);
            body_xml(&mut m, spec, &op, &mut e);
            // Response fields from the success response.
            response(&mut m, spec, doc, &op, &mut e);
            total_fields += e.fields.len() + e.parameters.len();
            endpoints.push(Sp::synthetic(e));
            if total_fields > super::schema::MAX_DOCUMENT_FIELDS {
                m.report(
                    codes::EXPANSION_LIMIT,
                    Severity::Error,
                    &op,
                    format!(
                        "the document expands to more than {} fields and parameters (after {} operations); too large for one declaration file",
                        super::schema::MAX_DOCUMENT_FIELDS,
                        endpoints.len()
                    ),
                    "import a part of the API with `--only` (e.g. `--only '/users/*'`)",
                );
                return Imported::failed(m.findings);
            }
        }
    }
    m.require_endpoints(
        endpoints.len(),
        &paths,
        opts.only.as_ref().map(|g| g.text()),
        "the document declares no operations",
    );
    no_fields_at_all(&mut m, &paths, &endpoints);

    let provenance = Provenance {
        publisher: str_at(&info, "x-providerName")
            .or_else(|| info.get("contact").and_then(|c| str_at(c, "name")))
            .map(|s| Sp::synthetic(s.to_string())),
        method: None,
        citation: None,
        url: info
            .get("contact")
            .and_then(|c| str_at(c, "url"))
            .or_else(|| doc.get("externalDocs").and_then(|c| str_at(c, "url")))
            .map(str::to_string)
            .or_else(|| base.origin())
            .map(Sp::synthetic),
    };
    let licence = licence(&mut m, &root, &info);
    let domain = opts.domain_for(&tool_id);
    let previous_id =
        (opts.tool.is_none() && identity.title_id != tool_id).then(|| identity.title_id.clone());
    let names = identity
        .names
        .into_iter()
        .filter(|n| crate::model::normalise_id(n) != crate::model::normalise_id(&tool_id))
        .map(Sp::synthetic)
        .collect();
    let tool = Tool {
        id: Sp::synthetic(tool_id),
        title: Sp::synthetic(title),
        names,
        description: info
            .get("description")
            .and_then(Value::as_str)
            .and_then(super::first_paragraph)
            .map(Sp::synthetic),
        domain: Sp::synthetic(domain),
        source_type: None,
        priority: None,
        provenance: (provenance.publisher.is_some() || provenance.url.is_some())
            .then(|| Sp::synthetic(provenance)),
        licence: licence.map(Sp::synthetic),
        mcp_server: None,
        server_url: base.with_path().map(Sp::synthetic),
        endpoints,
    };
    Imported {
        tool: Some(tool),
        source_kind: spec_name,
        source_version: match info.get("version") {
            Some(Value::String(s)) => Some(s.trim().to_string()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        },
        findings: m.findings,
        previous_id,
    }
}

/// The response fields (and records path) of an operation, from its success response: the
/// JSON schema's fields, one `result` field for a schema-less or non-JSON body (SR707), none
/// without a success response or content.
fn response<'a>(m: &mut Mapper<'a>, spec: Spec, doc: &Value, op: &Loc<'a>, e: &mut Endpoint) {
    if let Some((status, resp)) = success_response(m, op) {
        {
            // Swagger 2.0: the media types are the operation's `produces` (or the
            // document's); when it lists no JSON type, the schema describes XML or text.
            // A scalar schema (`type: file`, `type: string`) still says what the body
            // is, whatever its media type.
            let scalar_schema = resp
                .value
                .get("schema")
                .and_then(|s| s.get("type"))
                .and_then(Value::as_str)
                .is_some_and(|t| matches!(t, "file" | "string" | "integer" | "number" | "boolean"));
            let swagger_other = (spec == Spec::Swagger2 && !scalar_schema)
                .then(|| swagger_non_json_produces(op.value, doc))
                .flatten();
            let schema = match spec {
                Spec::Swagger2 if swagger_other.is_some() => None,
                Spec::Swagger2 => match resp.get("schema") {
                    Some(s) => Some((Some(s), "application/json".to_string())),
                    // No schema, but a JSON example: its fields are inferred from it.
                    None => super::example::swagger_example(resp.value)
                        .map(|_| (None, "application/json".to_string())),
                },
                Spec::OpenApi3 => json_media(&resp),
            };
            let example = |media: &str| match spec {
                Spec::OpenApi3 => resp
                    .value
                    .get("content")
                    .and_then(|c| c.get(media))
                    .and_then(|mt| super::example::media_example(mt, doc)),
                Spec::Swagger2 => super::example::swagger_example(resp.value),
            };
            match schema {
                Some((Some(s), media)) => {
                    let before = m.findings.len();
                    let (fields, records) = m.response_fields(&s);
                    // A schema that describes nothing (an object without properties, an
                    // untyped value) beside an example: the example says more.
                    let opaque = matches!(&fields[..], [f] if f.value.name.value == "result"
                        && matches!(f.value.ty.value, ValueType::Any | ValueType::Object));
                    match example(&media).filter(|ex| opaque && (ex.is_object() || ex.is_array())) {
                        Some(ex) => {
                            m.findings.truncate(before);
                            let what = "has a schema that names no fields";
                            from_example(m, &resp, ex, (&status, &media, what), e);
                        }
                        None => {
                            e.fields = fields;
                            e.records = records.map(Sp::synthetic);
                        }
                    }
                }
                Some((None, media)) if let Some(ex) = example(&media) => {
                    from_example(m, &resp, ex, (&status, &media, "has no schema"), e);
                }
                Some((None, media)) => {
                    e.fields = vec![super::result_field(&format!(
                        "The {status} response body ({media}); the description gives no schema."
                    ))];
                    let ctx = m.context.clone();
                    m.report(
                        codes::NO_RESPONSE_SCHEMA,
                        Severity::Info,
                        &resp,
                        format!("`{ctx}`: the {status} response (`{media}`) has no schema; imported as one field `result`"),
                        "field projection cannot select parts of a response without a schema; add one to the description, or declare the fields by hand",
                    );
                }
                None if spec == Spec::OpenApi3
                    && resp.value.get("content").is_some_and(|c| {
                        c.is_null() || c.as_object().is_some_and(|o| o.is_empty())
                    }) =>
                {
                    let ctx = m.context.clone();
                    let at = resp.get("content").unwrap_or_else(|| resp.clone());
                    m.report(
                        codes::NO_RESPONSE_SCHEMA,
                        Severity::Warning,
                        &at,
                        format!("`{ctx}`: the {status} response's `content` is empty (no media type, no schema); imported with no fields"),
                        "write the response's media type and schema under `content` (is the document cut short?), or delete the empty `content:` if the response has no body",
                    );
                }
                None => {
                    if let Some(media) = other_media(&resp).or(swagger_other) {
                        let mut field = super::result_field(&format!(
                            "The {status} response body ({media}), as {}.",
                            if is_text_media(&media) {
                                "text"
                            } else {
                                "bytes"
                            }
                        ));
                        if is_text_media(&media) {
                            field.value.ty = Sp::synthetic(crate::model::ValueType::String);
                        }
                        e.fields = vec![field];
                        let ctx = m.context.clone();
                        m.report(
                            codes::NO_RESPONSE_SCHEMA,
                            Severity::Info,
                            &resp,
                            format!("`{ctx}`: the {status} response is `{media}`, not JSON; imported as one field `result`"),
                            "field projection cannot select parts of a non-JSON response",
                        );
                    }
                }
            }
        }
    }
}

/// Report a `paths` key that does not start with `/`: a blank one names no URL (its
/// operations are skipped: `false`), another is imported as `/path` (`true`).
fn path_key_ok(m: &mut Mapper<'_>, paths: &Loc<'_>, path: &str) -> bool {
    if path.starts_with('/') {
        return true;
    }
    let at = paths.get(path).unwrap_or_else(|| paths.clone());
    let shown = if path.is_empty() {
        "the empty path `\"\"`".to_string()
    } else {
        format!("path `{path}`")
    };
    if path.trim().is_empty() {
        m.report(
            codes::UNSUPPORTED_NAME,
            Severity::Warning,
            &at,
            format!("{shown} under `paths` names no URL: its operations are not imported"),
            "OpenAPI paths start with `/` (`/` for the server's root): write the path the operations are served at",
        );
        return false;
    }
    m.report(
        codes::UNSUPPORTED_NAME,
        Severity::Warning,
        &at,
        format!("{shown} does not start with `/`: imported as `/{path}`"),
        format!("OpenAPI paths start with `/`: write `/{path}` in the description"),
    );
    true
}

/// SR707 once for a document none of whose operations declares a response body (no schema,
/// no example, no content): every plan on it would project no field, and an agent would be
/// told nothing of what comes back.
fn no_fields_at_all(m: &mut Mapper<'_>, paths: &Loc<'_>, endpoints: &[Sp<Endpoint>]) {
    if endpoints.is_empty() || endpoints.iter().any(|e| !e.value.fields.is_empty()) {
        return;
    }
    m.context.clear();
    m.report(
        codes::NO_RESPONSE_SCHEMA,
        Severity::Warning,
        paths,
        format!(
            "none of the {} operation(s) declares a response body (no `content`, schema or example in a success response): plans on this tool project no response field",
            endpoints.len()
        ),
        "add each success response's `content` with a schema (or an example) to the description and import it again",
    );
}

/// The response fields of a response given only by an example (`what` says why the schema
/// does not serve: none, or one that names no fields): inferred from the example's
/// value ([`super::example::infer`]), the endpoint marked `fields_inferred: example`, and an
/// SR707 finding that says so.
fn from_example(
    m: &mut Mapper<'_>,
    resp: &Loc<'_>,
    example: &Value,
    (status, media, what): (&str, &str, &str),
    e: &mut Endpoint,
) {
    let schema = super::example::infer(example);
    let at = Loc {
        doc: resp.doc,
        value: &schema,
        pointer: resp.pointer.clone(),
        scope: resp.scope.clone(),
    };
    let (fields, records) = m.response_fields(&at);
    e.fields = fields;
    e.records = records.map(Sp::synthetic);
    e.fields_inferred = Some(Sp::synthetic("example".to_string()));
    let ctx = m.context.clone();
    m.report(
        codes::NO_RESPONSE_SCHEMA,
        Severity::Info,
        resp,
        format!(
            "`{ctx}`: the {status} response (`{media}`) {what}; its {} field(s) are inferred from the response example (`fields_inferred: example`)",
            e.fields.len()
        ),
        "an example shows one sample: check the types (a field that was `null` has none) and add the fields it lacks, or add a schema to the description",
    );
}

/// The licence `info.license` states (SPDX when recognised; a `LicenseRef-` one is reported,
/// SR708).
fn licence(m: &mut Mapper<'_>, root: &Loc<'_>, info: &Value) -> Option<crate::model::Licence> {
    let licence = info.get("license").and_then(|l| {
        licence_from(
            str_at(l, "identifier").or_else(|| str_at(l, "name")),
            str_at(l, "url"),
            "`info.license` of the API description",
        )
    });
    if let Some(l) = &licence
        && l.spdx.value.starts_with("LicenseRef-")
        && let Some(at) = root.get("info").and_then(|i| i.get("license"))
    {
        m.report(
            codes::UNRECOGNISED_LICENCE,
            Severity::Info,
            &at,
            format!("licence `{}` is not an SPDX id; imported as `{}`", str_at(at.value, "name").unwrap_or(""), l.spdx.value),
            "write the SPDX expression in `licence.spdx` if there is one (https://spdx.org/licenses/)",
        );
    }
    licence
}

/// The base URL of the API, or a `{base_url}` placeholder when the document names no absolute
/// server.
#[derive(Clone, Debug)]
struct Base {
    url: String,
    /// Set when `url` starts with a placeholder parameter.
    placeholder: Option<String>,
}

impl Base {
    /// The host of an absolute base URL (`api.github.com`), without user or port.
    fn host(&self) -> Option<String> {
        let origin = self.origin()?;
        let (_, rest) = origin.split_once("://")?;
        let host = rest.rsplit('@').next()?.split(':').next()?;
        (!host.is_empty()).then(|| host.to_string())
    }

    /// The base URL when it is absolute and has a path beyond `/` (`https://api.x.org/v1`):
    /// the part of the endpoint URLs a gateway's base URL replaces. `None` for a bare origin,
    /// which the gateway replaces without being told.
    fn with_path(&self) -> Option<String> {
        let origin = self.origin()?;
        let url = self.url.trim_end_matches('/');
        (url.len() > origin.len() && url.starts_with(&origin)).then(|| url.to_string())
    }

    fn origin(&self) -> Option<String> {
        if self.placeholder.is_some() {
            return None;
        }
        let (scheme, rest) = self.url.split_once("://")?;
        let host = rest.split('/').next()?;
        Some(format!("{scheme}://{host}"))
    }
}

const BASE_PARAM: &str = "base_url";

fn base_param(hint: &str) -> Sp<Parameter> {
    Sp::synthetic(Parameter {
        required: Some(Sp::synthetic(true)),
        description: Some(Sp::synthetic(format!(
            "The API's base URL (scheme and host): {hint}"
        ))),
        location: Some(Sp::synthetic(ParamLocation::Path)),
        format: Some(Sp::synthetic("uri".to_string())),
        ..Parameter::new(BASE_PARAM, crate::model::ValueType::String)
    })
}

/// The first `servers` entry of an object, with its variables.
/// The first server of `servers` (with its variables), except that an `http://` first server
/// gives way to the `https://` one listed with the same address after it (AWS descriptions list
/// the plain-text endpoint first).
fn server_of(v: &Value) -> Option<(String, Value)> {
    let servers = v.get("servers")?.as_array()?;
    fn url_of(s: &Value) -> Option<&str> {
        s.get("url").and_then(Value::as_str).map(str::trim)
    }
    let first = servers.first()?;
    let mut chosen = first;
    if let Some(rest) = url_of(first).and_then(|u| strip_scheme(u, "http://"))
        && let Some(secure) = servers[1..].iter().find(|s| {
            url_of(s)
                .and_then(|u| strip_scheme(u, "https://"))
                .is_some_and(|r| r == rest)
        })
    {
        chosen = secure;
    }
    let url = url_of(chosen)?.to_string();
    Some((url, chosen.get("variables").cloned().unwrap_or(Value::Null)))
}

/// `url` without `scheme` (matched case-insensitively), when it starts with it.
fn strip_scheme<'a>(url: &'a str, scheme: &str) -> Option<&'a str> {
    (url.len() >= scheme.len() && url[..scheme.len()].eq_ignore_ascii_case(scheme))
        .then(|| &url[scheme.len()..])
}

/// An endpoint with its id, method, URL and description, and nothing else yet.
fn endpoint_of(id: &str, method: HttpMethod, url: String, description: Option<String>) -> Endpoint {
    Endpoint {
        id: Sp::synthetic(id.to_string()),
        method: Sp::synthetic(method),
        url: Sp::synthetic(url),
        description: description.map(Sp::synthetic),
        records: None,
        mcp_tool: None,
        annotations: None,
        fields_inferred: None,
        operation_id: None,
        allow_destructive: None,
        deprecated: None,
        body_type: None,
        body_xml: Vec::new(),
        parameters: Vec::new(),
        fields: Vec::new(),
    }
}

/// Substitute server variables with their defaults.
fn substitute(url: &str, vars: &Value) -> String {
    let mut out = url.to_string();
    if let Value::Object(o) = vars {
        for (k, v) in o {
            let d = v
                .get("default")
                .map(|d| match d {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .unwrap_or_default();
            out = out.replace(&format!("{{{k}}}"), &d);
        }
    }
    out
}

fn resolve_server((url, vars): &(String, Value), base: &Base) -> Base {
    let url = encode_spaces(&substitute(url, vars));
    if let Some((scheme, _)) = url.split_once("://") {
        if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") {
            return Base {
                url,
                placeholder: None,
            };
        }
        return Base {
            url: format!("{{{BASE_PARAM}}}"),
            placeholder: Some(format!(
                "the description's server `{url}` is not an http(s) address"
            )),
        };
    }
    // A network-path reference (`//host/path`, RFC 3986 section 4.2): the host it names, with
    // the scheme of the document's own base, else https.
    if let Some(rest) = url.strip_prefix("//")
        && rest.split('/').next().is_some_and(|host| !host.is_empty())
    {
        let scheme = base
            .origin()
            .and_then(|o| o.split_once("://").map(|(s, _)| s.to_ascii_lowercase()))
            .unwrap_or_else(|| "https".to_string());
        return Base {
            url: format!("{scheme}:{url}"),
            placeholder: None,
        };
    }
    // A relative server URL: relative to the document's own base.
    match base.origin() {
        Some(o) if url.starts_with('/') => Base {
            url: format!("{o}{url}"),
            placeholder: None,
        },
        _ => Base {
            placeholder: Some(format!(
                "the description gives only the relative server `{url}`"
            )),
            url: format!(
                "{{{BASE_PARAM}}}{}",
                if url.starts_with('/') {
                    url.clone()
                } else {
                    format!("/{url}")
                }
            ),
        },
    }
}

fn base_url(spec: Spec, doc: &Value) -> Base {
    match spec {
        Spec::OpenApi3 => {
            let origin = doc
                .get("info")
                .and_then(|i| i.get("x-origin"))
                .and_then(Value::as_array)
                .and_then(|a| a.first())
                .and_then(|o| str_at(o, "url"))
                .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
                .and_then(|u| {
                    let (scheme, rest) = u.split_once("://")?;
                    Some(format!("{scheme}://{}", rest.split('/').next()?))
                });
            match server_of(doc) {
                Some(s) => {
                    let fallback = Base {
                        url: origin.clone().unwrap_or_default(),
                        placeholder: origin.is_none().then(String::new),
                    };
                    resolve_server(&s, &fallback)
                }
                None => Base {
                    url: format!("{{{BASE_PARAM}}}"),
                    placeholder: Some("the description names no server".to_string()),
                },
            }
        }
        Spec::Swagger2 => {
            let base_path = str_at(doc, "basePath").unwrap_or("");
            let base_path = base_path.trim_end_matches('/');
            match str_at(doc, "host") {
                Some(host) => {
                    let schemes: Vec<&str> = doc
                        .get("schemes")
                        .and_then(Value::as_array)
                        .map(|a| a.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    let scheme = if schemes.is_empty() || schemes.contains(&"https") {
                        "https"
                    } else {
                        schemes[0]
                    };
                    Base {
                        url: format!("{scheme}://{host}{base_path}"),
                        placeholder: None,
                    }
                }
                None => Base {
                    url: format!("{{{BASE_PARAM}}}{base_path}"),
                    placeholder: Some("the description names no `host`".to_string()),
                },
            }
        }
    }
}

/// The `{name}` placeholders of a path template, in order.
/// Whether a media type is text (`text/*`, XML, YAML, CSV, form encoding), so that a response
/// of it is one string rather than bytes.
fn is_text_media(media: &str) -> bool {
    let m = media.trim().to_ascii_lowercase();
    let essence = m.split(';').next().unwrap_or_default().trim();
    essence.starts_with("text/")
        || essence.ends_with("/xml")
        || essence.ends_with("+xml")
        || essence.ends_with("/yaml")
        || essence.ends_with("/x-yaml")
        || essence.ends_with("/csv")
        || essence == "application/x-www-form-urlencoded"
}

fn placeholders(path: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let name = &rest[open + 1..open + close];
        if !name.is_empty() && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
        rest = &rest[open + close + 1..];
    }
    out
}

fn join_url(server: &str, path: &str) -> String {
    let s = server.trim_end_matches('/');
    let path = encode_spaces(path);
    if path.starts_with('/') {
        format!("{s}{path}")
    } else {
        format!("{s}/{path}")
    }
}

/// Whitespace in a URL percent-encoded (a URL cannot hold it; some descriptions write it).
fn encode_spaces(url: &str) -> String {
    if !url.chars().any(char::is_whitespace) {
        return url.to_string();
    }
    let mut out = String::with_capacity(url.len() + 8);
    for c in url.trim().chars() {
        if c.is_whitespace() {
            let mut b = [0u8; 4];
            for byte in c.encode_utf8(&mut b).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// For a request body of an XML media type whose schema names its root element: the schema's
/// `body_xml` entries, and the body parameter `body` typed `any` (its XML text, or a JSON
/// object written as the XML the schema describes).
fn body_xml<'a>(m: &mut Mapper<'a>, spec: Spec, op: &Loc<'a>, e: &mut Endpoint) {
    let Some(media) = e.body_type.as_ref().map(|b| b.value.clone()) else {
        return;
    };
    let essence = media.split(';').next().unwrap_or("").trim();
    if !(essence.ends_with("/xml") || essence.ends_with("+xml")) {
        return;
    }
    let Some(schema) = params::whole_body_schema(m, spec, op, essence) else {
        return;
    };
    let nodes = xml::body_xml(m.r, &schema);
    if nodes.is_empty() {
        return;
    }
    let Some(p) = e
        .parameters
        .iter_mut()
        .find(|p| p.value.name.value == "body")
    else {
        return;
    };
    p.value.ty = Sp::synthetic(ValueType::Any);
    let root = nodes[0]
        .value
        .name
        .as_ref()
        .map_or("", |n| n.value.as_str());
    let what = format!(
        "the request body ({media}): its XML text, or a JSON object written as the `{root}` element the schema describes"
    );
    p.value.description = Some(Sp::synthetic(
        match p.value.description.as_ref().map(|d| d.value.as_str()) {
            Some(d) if d.contains(" (the request body (") => {
                format!(
                    "{} ({what})",
                    d.split(" (the request body (").next().unwrap_or(d)
                )
            }
            _ => format!("{}{}", what[..1].to_uppercase(), &what[1..]),
        },
    ));
    e.body_xml = nodes;
}

/// OpenAPI 3 `style` / `explode`, kept only where they differ from the location's default.
fn openapi_style(p: &mut Sp<Parameter>, v: &Value, location: ParamLocation) {
    let default_style = match location {
        ParamLocation::Query | ParamLocation::Cookie => "form",
        _ => "simple",
    };
    let style = str_at(v, "style").unwrap_or(default_style);
    if style != default_style {
        p.value.style = Some(Sp::synthetic(style.to_string()));
    }
    let default_explode = style == "form";
    if let Some(Value::Bool(x)) = v.get("explode")
        && *x != default_explode
    {
        p.value.explode = Some(Sp::synthetic(*x));
    }
    if location == ParamLocation::Query && v.get("allowReserved") == Some(&Value::Bool(true)) {
        p.value.allow_reserved = Some(Sp::synthetic(true));
    }
    // Arrays are sent as OpenAPI 3 sends them by default: say so when not repeated.
    if matches!(p.value.ty.value, crate::model::ValueType::Array(_))
        && p.value.explode.is_none()
        && !default_explode
        && location == ParamLocation::Query
    {
        p.value.explode = Some(Sp::synthetic(false));
    }
}

/// Swagger 2.0 `collectionFormat` of array parameters (default `csv`: comma-joined).
fn swagger_collection(p: &mut Sp<Parameter>, v: &Value) {
    if !matches!(p.value.ty.value, crate::model::ValueType::Array(_)) {
        return;
    }
    match str_at(v, "collectionFormat").unwrap_or("csv") {
        // Repeated parameters: the declaration's default for arrays.
        "multi" => {}
        "ssv" => {
            p.value.style = Some(Sp::synthetic("spaceDelimited".into()));
            p.value.explode = Some(Sp::synthetic(false));
        }
        "pipes" => {
            p.value.style = Some(Sp::synthetic("pipeDelimited".into()));
            p.value.explode = Some(Sp::synthetic(false));
        }
        "tsv" => {
            p.value.style = Some(Sp::synthetic("tabDelimited".into()));
            p.value.explode = Some(Sp::synthetic(false));
        }
        _ => {
            p.value.join = Some(Sp::synthetic(",".into()));
            p.value.explode = Some(Sp::synthetic(false));
        }
    }
}

pub(super) fn is_json(media: &str) -> bool {
    let m = crate::model::tool::media_essence(media);
    m == "application/json" || m.ends_with("+json") || m == "*/*" || m == "application/*"
}

/// The schema of the JSON media type of a `content` map, preferring `application/json`.
fn json_media<'a>(holder: &Loc<'a>) -> Option<(Option<Loc<'a>>, String)> {
    let content = holder.get("content")?;
    let Value::Object(o) = content.value else {
        return None;
    };
    let mut keys: Vec<&String> = o.keys().filter(|k| is_json(k)).collect();
    keys.sort_by_key(|k| {
        let k = k.to_ascii_lowercase();
        (!k.starts_with("application/json"), !k.ends_with("+json"), k)
    });
    let k = keys.first()?;
    let media = content.get(k)?;
    Some((media.get("schema"), (*k).clone()))
}

/// A non-JSON media type of a response, if it has any content.
/// The first media type of a Swagger 2.0 operation's `produces` (else the document's) when that
/// list names no JSON type; `None` when it names one, or is absent or empty (JSON assumed).
fn swagger_non_json_produces(op: &Value, doc: &Value) -> Option<String> {
    let produces = op
        .get("produces")
        .or_else(|| doc.get("produces"))?
        .as_array()?;
    let names: Vec<&str> = produces.iter().filter_map(Value::as_str).collect();
    if names.is_empty() || names.iter().any(|m| is_json(m)) {
        return None;
    }
    Some(names[0].to_string())
}

fn other_media(holder: &Loc<'_>) -> Option<String> {
    let content = holder.value.get("content")?.as_object()?;
    content.keys().next().cloned()
}

fn first_media_schema<'a>(p: &Loc<'a>) -> Option<Loc<'a>> {
    let content = p.get("content")?;
    let k = content.value.as_object()?.keys().next()?.clone();
    content.get(&k)?.get("schema")
}

/// The media types of request bodies the gateway sends as form fields (anything else with a
/// schema is sent as JSON).
pub(super) const FORM_MEDIA: [&str; 2] =
    ["application/x-www-form-urlencoded", "multipart/form-data"];

/// How an OpenAPI 3 request body is sent.
pub(super) enum BodyMedia<'a> {
    /// JSON (the media type `None`) or a form encoding (`Some`): one parameter per property of
    /// the schema.
    Fields(Loc<'a>, Option<&'static str>),
    /// Any other media type (`application/xml`, `text/plain`, `application/octet-stream`): the
    /// whole body is one parameter `body`, text or base64-encoded bytes
    /// ([`crate::model::text_media`]).
    Whole(String),
}

/// How a request body is sent: JSON first (a JSON media type without a schema: no body
/// parameters), then the form encodings, then any other media type (XML types first, then
/// other text types, then the rest, each in name order).
pub(super) fn body_media<'a>(body: &Loc<'a>) -> Option<BodyMedia<'a>> {
    if let Some((s, _)) = json_media(body) {
        return s.map(|s| BodyMedia::Fields(s, None));
    }
    let content = body.get("content")?;
    for k in FORM_MEDIA {
        if let Some(s) = content.get(k).and_then(|m| m.get("schema")) {
            return Some(BodyMedia::Fields(s, Some(k)));
        }
    }
    let mut others: Vec<String> = content
        .value
        .as_object()?
        .keys()
        .map(|k| crate::model::tool::media_essence(k))
        .filter(|k| sendable_media(k) && !k.contains('*') && !FORM_MEDIA.contains(&k.as_str()))
        .collect();
    others.sort_by_key(|k| {
        let xml = k.ends_with("/xml") || k.ends_with("+xml");
        (!xml, !crate::model::text_media(k), k.clone())
    });
    others.into_iter().next().map(BodyMedia::Whole)
}

/// Whether a request body's media type essence `k` may be chosen to send: it is a media type
/// by the one rule ([`crate::model::media_type_fault`]; the import reports one that is not, as
/// SR711, and never picks it).
pub(super) fn sendable_media(k: &str) -> bool {
    crate::model::media_type_fault(k).is_none_or(|f| !f.in_essence)
}

/// OpenAPI 3 `encoding` of one property of a form-encoded request body (`style`, `explode`,
/// `allowReserved`): when any of them is given, the style is kept as the body parameter's own
/// (`form` by default), `explode` where it differs from the style's default, and
/// `allowReserved`; for `multipart/form-data` also the part's `contentType` and the
/// `headers` whose schema fixes a value (`const`, a one-value `enum`, `default`). A header with
/// no value to send is reported (SR709) and left out; `Content-Type` among the headers is
/// ignored, as the specification says.
fn form_encoding(m: &mut Mapper<'_>, p: &mut Sp<Parameter>, encoding: &Loc<'_>, media: &str) {
    let e = encoding.value;
    // Any of the three makes the property style-serialised (OpenAPI 3.1.1: "equivalent to using
    // `schema` with `in: query`"; without them it is sent by its content type, an object as
    // JSON): the style is then written even when it is `form`.
    let styled = ["style", "explode", "allowReserved"]
        .iter()
        .any(|k| e.get(*k).is_some());
    if styled {
        let style = str_at(e, "style").unwrap_or("form");
        p.value.style = Some(Sp::synthetic(style.to_string()));
    }
    let style = p.value.style.as_ref().map_or("form", |s| s.value.as_str());
    if let Some(Value::Bool(x)) = e.get("explode")
        && *x != (style == "form")
    {
        p.value.explode = Some(Sp::synthetic(*x));
    }
    if e.get("allowReserved") == Some(&Value::Bool(true)) {
        p.value.allow_reserved = Some(Sp::synthetic(true));
    }
    if media != FORM_MEDIA[1] {
        return;
    }
    if let Some(t) = str_at(e, "contentType").map(str::trim)
        && !t.is_empty()
        && !t.contains(['\r', '\n'])
    {
        p.value.content_type = Some(Sp::synthetic(t.to_string()));
    }
    let Some(headers) = encoding.get("headers") else {
        return;
    };
    let names: Vec<String> = headers
        .value
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    for name in names {
        if name.eq_ignore_ascii_case("content-type") {
            continue;
        }
        let Some(h) = headers.get(&name) else {
            continue;
        };
        let h = match h.value.get("$ref").and_then(Value::as_str) {
            Some(r) => match m.r.follow(&h, r) {
                Ok(h) => h,
                Err(_) => continue,
            },
            None => h,
        };
        let value = h
            .value
            .get("schema")
            .and_then(part_header_value)
            .filter(|v| {
                name.bytes().all(|b| b.is_ascii_graphic() && b != b':') && !v.contains(['\r', '\n'])
            });
        match value {
            Some(v) => {
                p.value.part_headers.insert(name, Sp::synthetic(v));
            }
            None => {
                let ctx = m.context.clone();
                let param = p.value.name.value.clone();
                m.report(
                    codes::DROPPED_PARAMETER_VALUE,
                    Severity::Warning,
                    &h,
                    format!("`{ctx}`: the header `{name}` of the multipart part `{param}` has no value to send (its schema fixes none: no `const`, one-value `enum` or `default`); the part is sent without it"),
                    "give the header's schema a `const` or `default` if the provider needs it, or declare `part_headers` on the parameter by hand",
                );
            }
        }
    }
}

/// The one value a header's schema fixes: `const`, a one-value `enum`, else `default` (a
/// string, number or boolean, as text).
fn part_header_value(schema: &Value) -> Option<String> {
    let v = schema
        .get("const")
        .or_else(|| match schema.get("enum").and_then(Value::as_array) {
            Some(a) if a.len() == 1 => a.first(),
            _ => None,
        })
        .or_else(|| schema.get("default"))?;
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    }
}

/// Swagger 2.0: the media type of an operation's `formData` parameters (its `consumes`, else
/// the document's; `multipart/form-data` when it names that, or when a parameter is a file),
/// `application/x-www-form-urlencoded` otherwise.
fn swagger_form_media(op: &Value, doc: &Value) -> &'static str {
    let consumes = op.get("consumes").or_else(|| doc.get("consumes"));
    let names: Vec<&str> = consumes
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let file = op
        .get("parameters")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|p| str_at(p, "type") == Some("file")));
    let urlencoded = names
        .iter()
        .any(|n| n.starts_with("application/x-www-form-urlencoded"));
    if file || (!urlencoded && names.iter().any(|n| n.starts_with("multipart/form-data"))) {
        FORM_MEDIA[1]
    } else {
        FORM_MEDIA[0]
    }
}

/// The success response: 200, else 201, else the first 2xx (or `2XX`); with no 2xx response,
/// `default` (it then describes every status, success included: generators such as
/// flask-smorest and many hand-written descriptions give the result there alone).
fn success_response<'a>(m: &mut Mapper<'a>, op: &Loc<'a>) -> Option<(String, Loc<'a>)> {
    let responses = op.get("responses")?;
    let Value::Object(o) = responses.value else {
        return None;
    };
    let mut codes: Vec<&String> = o
        .keys()
        .filter(|k| k.starts_with('2') && k.len() == 3)
        .collect();
    codes.sort_by_key(|k| {
        (
            k.as_str() != "200",
            k.as_str() != "201",
            k.to_ascii_uppercase(),
        )
    });
    let k = match codes.first() {
        Some(k) => k.to_string(),
        None if o.contains_key("default") => "default".to_string(),
        None => return None,
    };
    let resp = responses.get(&k)?;
    let resp = follow_object(m, resp, &RESPONSE)?;
    Some((k, resp))
}

/// An object that a `$ref` may stand for (not a schema: those are the mapper's), for messages.
struct Referent {
    /// What it is, with its article (`a parameter`).
    a: &'static str,
    /// What a reference to it should point at.
    help: &'static str,
}

const PARAMETER: Referent = Referent {
    a: "a parameter",
    help: "point the reference at a parameter object (with a `name` and an `in`), e.g. one under `#/components/parameters`",
};
const PATH_ITEM: Referent = Referent {
    a: "a path item",
    help: "point the reference at a path item (a map of operations such as `get:`), or write the operations under the path",
};
const RESPONSE: Referent = Referent {
    a: "a response",
    help: "point the reference at a response object (with a `description` and its `content`), e.g. one under `#/components/responses`",
};

/// Follow the `$ref`s of a parameter, path item or response (a reference may lead to another
/// reference) to the object they stand for. A reference that leads nowhere, or a chain that
/// comes back to a reference already followed (a cycle, which never reaches the object), is
/// reported, and gives `None`.
fn follow_object<'a>(m: &mut Mapper<'a>, loc: Loc<'a>, what: &Referent) -> Option<Loc<'a>> {
    let mut cur = loc;
    // The objects holding the references followed so far, and each one's reference.
    let mut chain: Vec<(String, String)> = Vec::new();
    while let Some(r) = cur.value.get("$ref").and_then(Value::as_str) {
        let target = match m.r.follow(&cur, r) {
            Ok(t) => t,
            Err(_) => {
                let _ = m.view(&cur); // reports the unresolved reference
                return None;
            }
        };
        chain.push((cur.key(), r.to_string()));
        let Some(start) = chain.iter().position(|(k, _)| *k == target.key()) else {
            cur = target;
            continue;
        };
        // `cur`'s reference leads back to `chain[start]`: the cycle is the references from there.
        if m.first_cycle_at(&cur) {
            let refs: Vec<&str> = chain[start..].iter().map(|(_, r)| r.as_str()).collect();
            let message = if refs.len() == 1 {
                format!(
                    "`$ref: {r}` refers to itself: a reference cycle that never reaches {}",
                    what.a
                )
            } else {
                let mut cycle: Vec<String> = Vec::new();
                // Each place is named by the reference that leads to it; the first by the
                // reference that closes the cycle.
                cycle.push(format!("`{r}`"));
                cycle.extend(refs[..refs.len() - 1].iter().map(|x| format!("`{x}`")));
                cycle.push(format!("`{r}`"));
                format!(
                    "`$ref: {r}` leads back to a reference already followed: a reference cycle ({}) that never reaches {}",
                    cycle.join(" → "),
                    what.a
                )
            };
            let ctx = m.context.clone();
            let at = cur.get("$ref").unwrap_or_else(|| cur.clone());
            let message = if ctx.is_empty() {
                message
            } else {
                format!("{message} (first met in `{ctx}`)")
            };
            m.report(
                codes::REFERENCE_CYCLE,
                Severity::Error,
                &at,
                message,
                what.help,
            );
        }
        return None;
    }
    Some(cur)
}

/// How endpoint ids are made for a document: the `operationId` in snake case, else method and
/// path; operations that share an operationId (OpenAPI requires them unique) take theirs from
/// method and path, which do not depend on document order (a numbered suffix would move to
/// another operation when the source gains one). A query string written into a path template
/// is left out of the path's words, unless another operation has the same method and the same
/// path without it (`/current?city={city}`, `/current?lat={lat}&lon={lon}`): then its keys
/// tell them apart (`get_current_by_city`, `get_current_by_lat_lon`).
struct EndpointIds<'d> {
    /// How many operations use each operationId (in snake case).
    op_id_uses: std::collections::BTreeMap<String, usize>,
    /// How many operations use each method and path without its query string.
    route_uses: std::collections::BTreeMap<(&'d str, String), usize>,
}

impl<'d> EndpointIds<'d> {
    fn new(path_map: &serde_json::Map<String, Value>) -> EndpointIds<'d> {
        let mut op_id_uses: std::collections::BTreeMap<String, usize> = Default::default();
        let mut route_uses: std::collections::BTreeMap<(&str, String), usize> = Default::default();
        for (path, item) in path_map {
            let Some(item) = item.as_object() else {
                continue;
            };
            let route = snake(PathTemplate::parse(path).route);
            for (mname, _) in METHODS {
                let Some(op) = item.get(*mname) else { continue };
                *route_uses.entry((*mname, route.clone())).or_default() += 1;
                if let Some(o) = str_at(op, "operationId") {
                    *op_id_uses.entry(snake(o)).or_default() += 1;
                }
            }
        }
        EndpointIds {
            op_id_uses,
            route_uses,
        }
    }

    /// The unique id of the `method` operation of path `tpl` with operationId `op_id`, the
    /// operationId when other operations share it, and the operationId when it looks
    /// machine-generated ([`super::generated_operation_id`]; the id is then made from the
    /// method and the path without its version segments).
    fn id<'o>(
        &self,
        op_id: Option<&'o str>,
        method: &'d str,
        tpl: &PathTemplate<'_>,
        used: &mut BTreeSet<String>,
    ) -> (String, Option<&'o str>, Option<&'o str>) {
        let generated = op_id.filter(|o| super::generated_operation_id(o, method, tpl.route));
        let op_id = op_id.filter(|_| generated.is_none());
        let shared_op_id = op_id.filter(|o| self.op_id_uses.get(&snake(o)).is_some_and(|n| *n > 1));
        let route = if generated.is_some() {
            snake(&super::path_without_versions(tpl.route))
        } else {
            snake(tpl.route)
        };
        let shared_route = self
            .route_uses
            .get(&(method, snake(tpl.route)))
            .is_some_and(|n| *n > 1);
        let query = if shared_route || shared_op_id.is_some() {
            tpl.query_words()
        } else {
            String::new()
        };
        let words = [route, query]
            .into_iter()
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("_");
        let id = match shared_op_id {
            Some(o) => {
                let base = if words.is_empty() {
                    format!("{}_{method}", snake(o))
                } else {
                    format!("{}_{method}_{words}", snake(o))
                };
                super::unique(base, used)
            }
            None => endpoint_id(op_id, method, &words, used),
        };
        (id, shared_op_id, generated)
    }
}

/// Report (once per path, SR706 warning) a query string written into a path template: what it
/// was read as.
fn report_query_string(m: &mut Mapper<'_>, item: &Loc<'_>, tpl: &PathTemplate<'_>, id: &str) {
    let keys: Vec<String> = tpl.query.iter().map(|p| format!("`{}`", p.key)).collect();
    let mut message = format!(
        "the path `{}` holds a query string; read as the path `{}`",
        tpl.written, tpl.route
    );
    if !keys.is_empty() {
        message.push_str(&format!(" with the query parameter(s) {}", keys.join(", ")));
    }
    message.push_str(&format!(" (endpoint `{id}`)"));
    if !tpl.unread.is_empty() {
        let unread: Vec<String> = tpl.unread.iter().map(|u| format!("`{u}`")).collect();
        message.push_str(&format!(
            "; {} name(s) no parameter and {} not imported",
            unread.join(", "),
            if unread.len() == 1 { "is" } else { "are" }
        ));
    }
    m.report(
        codes::UNSUPPORTED_NAME,
        Severity::Warning,
        item,
        message,
        "an OpenAPI path holds no query string: declare query parameters with `in: query` (a fixed value as a one-value `enum`) and keep the path to its route",
    );
}

/// `auth` parameters for the security requirements of an operation (or the document).
fn auth_params(spec: Spec, doc: &Value, op: &Value) -> Vec<Sp<Parameter>> {
    let reqs = op.get("security").or_else(|| doc.get("security"));
    let Some(Value::Array(alternatives)) = reqs else {
        return Vec::new();
    };
    let schemes = match spec {
        Spec::OpenApi3 => doc.get("components").and_then(|c| c.get("securitySchemes")),
        Spec::Swagger2 => doc.get("securityDefinitions"),
    };
    let optional = alternatives
        .iter()
        .any(|a| a.as_object().is_some_and(|o| o.is_empty()));
    let mut out: Vec<Sp<Parameter>> = Vec::new();
    let mut per_alternative: Vec<BTreeSet<String>> = Vec::new();
    for alt in alternatives {
        let Value::Object(o) = alt else { continue };
        let mut names = BTreeSet::new();
        for scheme_name in o.keys() {
            let Some(s) = schemes.and_then(|s| s.get(scheme_name)) else {
                continue;
            };
            let ty = str_at(s, "type").unwrap_or("");
            // A bearer token (`Authorization: Bearer ...`): the gateway sends it so.
            let http_scheme = |name: &str| {
                ty == "http" && str_at(s, "scheme").is_some_and(|sc| sc.eq_ignore_ascii_case(name))
            };
            let bearer = matches!(ty, "oauth2" | "openIdConnect") || http_scheme("bearer");
            // HTTP basic credentials (`Authorization: Basic ...`): the gateway encodes a user and
            // a password so.
            let basic = ty == "basic" || http_scheme("basic");
            let (name, location, what) = match ty {
                "apiKey" => {
                    let Some(n) = str_at(s, "name") else { continue };
                    let loc = match str_at(s, "in") {
                        Some("header") => ParamLocation::Header,
                        Some("cookie") => ParamLocation::Cookie,
                        _ => ParamLocation::Query,
                    };
                    (
                        n.to_string(),
                        loc,
                        format!("API key (security scheme `{scheme_name}`)"),
                    )
                }
                "http" | "basic" | "oauth2" | "openIdConnect" => {
                    let what = match (ty, str_at(s, "scheme")) {
                        ("http", Some(sc)) => format!("`{sc}` credentials"),
                        ("basic", _) => "HTTP basic credentials".to_string(),
                        ("oauth2", _) => "an OAuth 2 bearer token".to_string(),
                        ("openIdConnect", _) => "an OpenID Connect bearer token".to_string(),
                        _ => "credentials".to_string(),
                    };
                    (
                        "Authorization".to_string(),
                        ParamLocation::Header,
                        format!(
                            "{what} (security scheme `{scheme_name}`), sent as the `Authorization` header"
                        ),
                    )
                }
                _ => continue,
            };
            names.insert(name.clone());
            if out.iter().any(|p| p.value.name.value == name) {
                continue;
            }
            out.push(Sp::synthetic(Parameter {
                auth: Some(Sp::synthetic(true)),
                description: Some(Sp::synthetic(what)),
                location: Some(Sp::synthetic(location)),
                format: match (bearer, basic) {
                    (true, _) => Some(Sp::synthetic("bearer".to_string())),
                    (_, true) => Some(Sp::synthetic("basic".to_string())),
                    _ => None,
                },
                ..Parameter::new(name, crate::model::ValueType::String)
            }));
        }
        per_alternative.push(names);
    }
    for p in &mut out {
        let needed = !optional
            && !per_alternative.is_empty()
            && per_alternative
                .iter()
                .all(|a| a.contains(&p.value.name.value));
        if needed {
            p.value.required = Some(Sp::synthetic(true));
        }
    }
    out
}

/// Whether parameter `p` sends the credential of security-scheme parameter `auth`: the same
/// place and name (header names compared without case, as HTTP does).
fn same_credential(p: &Sp<Parameter>, auth: &Sp<Parameter>) -> bool {
    let place = |x: &Sp<Parameter>| x.value.location.as_ref().map(|l| l.value);
    let Some(at) = place(auth) else {
        return false;
    };
    if place(p) != Some(at) {
        return false;
    }
    let (a, b) = (&p.value.name.value, &auth.value.name.value);
    match at {
        ParamLocation::Header => a.eq_ignore_ascii_case(b),
        _ => a == b,
    }
}

/// Where property `name` of the object schema at `schema` is declared: its entry under
/// `properties` when the schema lists it there directly, else the schema (a reference, or
/// properties merged from `allOf` members).
fn property_at<'a>(schema: &Loc<'a>, name: &str) -> Loc<'a> {
    schema
        .get("properties")
        .and_then(|p| p.get(name))
        .unwrap_or_else(|| schema.clone())
}
