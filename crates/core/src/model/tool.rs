//! Tool declarations (one per file under `schemas/`): tool, endpoint, parameter, response field,
//! provenance and licence. These mirror the paper's schema-graph node kinds (section 4).

use super::spanned::Sp;
use super::value::{Scalar, Template, ValueType};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A tool: one external API or internal store the agent may call (paper section 4, node `Tool`).
///
/// A file under `schemas/` declares exactly one tool at its top level.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    /// Stable snake_case id (`materials_project`). Referenced by plans, benchmarks and named-tool
    /// requests.
    pub id: Sp<String>,
    /// Display title (`Materials Project`).
    pub title: Sp<String>,
    /// Other names users say for this tool, in any language (`MP`, `머티리얼즈 프로젝트`). Used to
    /// resolve named tools in the Understand step; the id and title always count as names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<Sp<String>>,
    /// What the tool holds, in one or two sentences (never sent in the routing prompt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
    /// The domain id this tool serves (declared under `intents/`).
    pub domain: Sp<String>,
    /// Source type of the tool's data: `experimental`, `calculated`, `literature`,
    /// `regulatory_filing`, `web`, or an extra type declared in `schemarouter.toml`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_type: Option<Sp<String>>,
    /// Ranking tie-breaker after the concept-match score: higher is preferred (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<Sp<i64>>,
    /// Who publishes the data and how it was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Sp<Provenance>>,
    /// The data licence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub licence: Option<Sp<Licence>>,
    /// The MCP server this tool's `MCP` endpoints are called on (set by `import mcp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_server: Option<Sp<McpServer>>,
    /// The server URL an HTTP tool's endpoint URLs start with, base path included: an OpenAPI
    /// document's server (`https://api.rentcast.io/v1`), recorded by `import openapi` when it
    /// has a path. The gateway's `--upstream TOOL=URL` (or `base_url`) replaces this part of
    /// each endpoint URL that starts with it, as mock servers such as Prism serve the
    /// document's paths without the base path; without it only the scheme and host are replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_url: Option<Sp<String>>,
    /// The callable endpoints (at least one).
    pub endpoints: Vec<Sp<Endpoint>>,
}

/// How to reach the MCP server of a tool whose endpoints are MCP tools (`method: MCP`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct McpServer {
    /// The server's own name (`serverInfo.name` from `initialize`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Sp<String>>,
    /// The server's own version (`serverInfo.version`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<Sp<String>>,
    /// The command line that starts the server on stdio (`npx -y @modelcontextprotocol/server-memory`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Sp<String>>,
    /// The streamable-HTTP endpoint of the server (`http://127.0.0.1:8000/mcp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Sp<String>>,
}

/// Provenance of a tool's data (paper section 4: provenance attached to every planned field).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// Organisation that publishes the data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<Sp<String>>,
    /// How the values were made (`DFT, GGA/GGA+U and r2SCAN`, `UV-Vis spectroscopy`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<Sp<String>>,
    /// Citation to give, preferably a DOI (`10.1063/1.4812323`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub citation: Option<Sp<String>>,
    /// Web page describing the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Sp<String>>,
}

/// A data licence: an SPDX expression or a `LicenseRef-*` id with the provider's wording.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Licence {
    /// SPDX licence expression (`CC-BY-4.0`, `CC0-1.0`) or `LicenseRef-<name>` for custom terms.
    pub spdx: Sp<String>,
    /// The provider's own wording, for `LicenseRef-*` and per-record licences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wording: Option<Sp<String>>,
    /// Where the terms are published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Sp<String>>,
    /// Attribution text to show with the data (required by the CC-BY family).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribution: Option<Sp<String>>,
    /// False when the licence could not be confirmed from the provider (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<Sp<bool>>,
}

impl Licence {
    /// Whether the licence is declared verified (absent means verified).
    pub fn is_verified(&self) -> bool {
        self.verified.as_ref().is_none_or(|v| v.value)
    }
}

/// HTTP method of an endpoint.
#[derive(
    Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum HttpMethod {
    /// GET
    Get,
    /// POST
    Post,
    /// PUT
    Put,
    /// PATCH
    Patch,
    /// DELETE
    Delete,
    /// HEAD
    Head,
    /// OPTIONS
    Options,
    /// TRACE
    Trace,
    /// Not HTTP (a local store or a file download).
    Local,
    /// An MCP tool, called with `tools/call` on the tool's `mcp_server`; `mcp_tool` names it.
    Mcp,
}

impl HttpMethod {
    /// The upper-case spelling used in declarations and plans (`GET`, `MCP`).
    pub fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
            HttpMethod::Put => "PUT",
            HttpMethod::Patch => "PATCH",
            HttpMethod::Delete => "DELETE",
            HttpMethod::Head => "HEAD",
            HttpMethod::Options => "OPTIONS",
            HttpMethod::Trace => "TRACE",
            HttpMethod::Local => "LOCAL",
            HttpMethod::Mcp => "MCP",
        }
    }
}

/// One callable endpoint of a tool (paper node `Endpoint`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    /// Endpoint id, unique within the tool (`summary`).
    pub id: Sp<String>,
    /// HTTP method (`GET`, `POST`, ...; `LOCAL` for an internal store; `MCP` for an MCP tool).
    pub method: Sp<HttpMethod>,
    /// Full URL or URL template of the endpoint (`mcp://<server>/<tool>` for an MCP tool).
    pub url: Sp<String>,
    /// What the endpoint returns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
    /// For `method: MCP`: the MCP tool name sent in `tools/call` (the provider's spelling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_tool: Option<Sp<String>>,
    /// The provider's OpenAPI `operationId` when the id was derived from the method and path
    /// instead, because the operationId looks machine-generated (it repeats the path's words,
    /// ends with the method, holds a version: `resource__1.0_artist__mbid__getArtist_GET`);
    /// kept so that the provider's name is still found, and to match the endpoint on re-import.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<Sp<String>>,
    /// Behaviour hints (MCP tool annotations; also set for HTTP endpoints by hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Sp<Annotations>>,
    /// True when a destructive endpoint may be planned (see the `destructive-endpoint` rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_destructive: Option<Sp<bool>>,
    /// True when the provider marks the endpoint deprecated (OpenAPI `deprecated: true` on the
    /// operation): the router plans it only when no live endpoint of the tool serves the same
    /// words (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<Sp<bool>>,
    /// Where the records sit in the response (`data[]`, `message.items[]`, `result.{}` for the
    /// object members of a map keyed by id, `[]` for a top-level array); the response root is one
    /// record by default. Field names are paths inside one record; a field no record carries is
    /// looked up in the envelope (the response root).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<Sp<String>>,
    /// Media type of the request body when it is not JSON (OpenAPI `requestBody.content`):
    /// `application/x-www-form-urlencoded` or `multipart/form-data`, whose body parameters are
    /// sent as form fields or parts, each by its `style` and `explode` (the OpenAPI `encoding`
    /// object's); or any other type, whose one body parameter `body` is the whole body: text
    /// for a text type (`text/plain`, `application/xml`, `*+xml`, `text/*`), base64-encoded
    /// bytes (`format: byte`) for any other (`application/octet-stream`, `image/png`).
    /// Absent: a JSON object of the body parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_type: Option<Sp<String>>,
    /// How a JSON object given for an XML request body (`body_type` `application/xml`,
    /// `text/xml`, `*+xml`) is written as XML: one entry per element of the request body's
    /// schema, in the schema's order, with its OpenAPI `xml` object (name, namespace, prefix,
    /// attribute, wrapped). The entry with the empty path names the root element. Absent: the
    /// body parameter is the XML text only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub body_xml: Vec<Sp<XmlNode>>,
    /// Where the response fields come from when the source gives no response schema: `example`
    /// when the importer inferred them from a response example (the names and types of one
    /// sample: a field the example lacks is missing, and a field that was `null` has no type).
    /// Absent: from the source's schema, or written by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields_inferred: Option<Sp<String>>,
    /// Request parameters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<Sp<Parameter>>,
    /// Response fields.
    #[serde(default)]
    pub fields: Vec<Sp<ResponseField>>,
}

/// How one element (or attribute) of an XML request body is written: the OpenAPI `xml` object
/// of the schema at `path` (OpenAPI 3.1.1 "XML Object"; Swagger 2.0's is the same).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct XmlNode {
    /// Where the value sits in the JSON argument, by property names ([`XmlNode::child_path`]):
    /// empty for the root, `id`, `category.name`, `tags` (a list), `tags[]` (its items),
    /// `tags[].name`.
    pub path: Sp<String>,
    /// The element's (or attribute's) name when it is not the property's name (the root's
    /// name: the `xml` object's, else the schema's component name). For a list, the wrapping
    /// element's name (only when `wrapped`); its items are named by the `[]` entry, else by the
    /// property's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Sp<String>>,
    /// The namespace URI (`xmlns`, or `xmlns:prefix` with `prefix`) declared on the element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<Sp<String>>,
    /// The prefix the name is written with (`prefix:name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<Sp<String>>,
    /// The value is an attribute of its parent element rather than an element (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<Sp<bool>>,
    /// A list's items are wrapped in one element (default false: the items are repeated
    /// elements directly in the parent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wrapped: Option<Sp<bool>>,
}

impl XmlNode {
    /// The path of property `key` of the object at `parent` (`""` + `id` = `id`,
    /// `tags[]` + `name` = `tags[].name`); a list's items are at `parent[]`.
    pub fn child_path(parent: &str, key: &str) -> String {
        if parent.is_empty() {
            key.to_string()
        } else {
            format!("{parent}.{key}")
        }
    }
}

/// Behaviour hints of an endpoint, after MCP's `ToolAnnotations` (revision 2025-06-18). Hints
/// are not guarantees: they come from the server.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Annotations {
    /// The endpoint does not modify its environment (MCP `readOnlyHint`; default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<Sp<bool>>,
    /// The endpoint may perform destructive updates (MCP `destructiveHint`; MCP's default is true
    /// when `read_only` is false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive: Option<Sp<bool>>,
    /// Calling it twice with the same arguments has no further effect (MCP `idempotentHint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<Sp<bool>>,
    /// The endpoint reaches an open world of external entities (MCP `openWorldHint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world: Option<Sp<bool>>,
}

impl Endpoint {
    /// Whether the endpoint may destroy data: its annotations say so (explicitly, or by MCP's
    /// default: `destructive` absent and `read_only: false`), or it is an HTTP `DELETE`.
    pub fn is_destructive(&self) -> bool {
        if let Some(a) = &self.annotations {
            if let Some(d) = &a.destructive {
                return d.value;
            }
            if let Some(r) = &a.read_only {
                return !r.value;
            }
        }
        self.method.value == HttpMethod::Delete
    }

    /// Whether the declaration allows planning a destructive endpoint (absent means no).
    pub fn destructive_allowed(&self) -> bool {
        self.allow_destructive.as_ref().is_some_and(|a| a.value)
    }
}

/// Where a parameter is sent (OpenAPI `in`, plus `body` for JSON request-body properties).
#[derive(
    Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "lowercase")]
pub enum ParamLocation {
    /// The URL query string.
    Query,
    /// A `{name}` segment of the URL template.
    Path,
    /// An HTTP header.
    Header,
    /// A cookie.
    Cookie,
    /// A property of the JSON request body (or of an MCP tool's `arguments`).
    Body,
}

/// The essence of a media type (RFC 9110, section 8.3.1): its type and subtype in lower case,
/// without parameters (`Application/JSON; charset=utf-8` -> `application/json`).
pub fn media_essence(media: &str) -> String {
    media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether `media` is an XML media type (`application/xml`, `text/xml`, `*+xml`), by its
/// essence.
pub fn xml_media(media: &str) -> bool {
    let m = media_essence(media);
    m.ends_with("/xml") || m.ends_with("+xml")
}

/// The top-level media types IANA registers (RFC 6838 section 4.2; `haptics` since RFC 9695).
const TOP_LEVEL_TYPES: &[&str] = &[
    "application",
    "audio",
    "example",
    "font",
    "haptics",
    "image",
    "message",
    "model",
    "multipart",
    "text",
    "video",
];

/// Character sets a `charset` parameter names, in IANA's preferred spelling (the Character
/// Sets registry's names and the WHATWG Encoding Standard's labels that servers read).
const CHARSETS: &[&str] = &[
    "utf-8",
    "utf-16",
    "utf-16be",
    "utf-16le",
    "utf-32",
    "us-ascii",
    "iso-8859-1",
    "iso-8859-2",
    "iso-8859-5",
    "iso-8859-7",
    "iso-8859-9",
    "iso-8859-15",
    "windows-1250",
    "windows-1251",
    "windows-1252",
    "shift_jis",
    "euc-jp",
    "iso-2022-jp",
    "euc-kr",
    "gb2312",
    "gbk",
    "gb18030",
    "big5",
    "koi8-r",
];

/// Subtypes written without their type (`json`), with the media type meant.
const BARE_SUBTYPES: &[(&str, &str)] = &[
    ("json", "application/json"),
    ("xml", "application/xml"),
    ("yaml", "application/yaml"),
    ("pdf", "application/pdf"),
    ("zip", "application/zip"),
    ("octet-stream", "application/octet-stream"),
    ("x-www-form-urlencoded", "application/x-www-form-urlencoded"),
    ("form-data", "multipart/form-data"),
    ("plain", "text/plain"),
    ("text", "text/plain"),
    ("html", "text/html"),
    ("csv", "text/csv"),
    ("png", "image/png"),
    ("jpeg", "image/jpeg"),
];

/// Why a media type as declared cannot be sent as a request's `Content-Type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaTypeFault {
    /// What is wrong (`` `plain` is no top-level media type ``).
    pub message: String,
    /// The media type probably meant, when one is clear (`text/plain`).
    pub suggestion: Option<String>,
    /// Whether the fault is in the essence (type and subtype), so the type's kind is unknown;
    /// else only in a parameter, and the essence stands.
    pub in_essence: bool,
}

/// The one rule a declared media type is read by (request bodies and parts): `None` when
/// `media` is a media type, else its fault. RFC 9110 section 8.3.1: `type "/" subtype` of
/// token characters, then `;`-separated `name=value` parameters (a token or a quoted string);
/// the type is one IANA registers (`plain/text` is not); a `charset` parameter names a
/// registered character set (`utf8` is not: `utf-8`). A range (`*/*`, `text/*`) passes: OpenAPI
/// allows one as a content key, and no request is sent as it.
pub fn media_type_fault(media: &str) -> Option<MediaTypeFault> {
    let mut pieces = media.split(';');
    let essence = pieces.next().unwrap_or("").trim();
    let lower = essence.to_ascii_lowercase();
    let fault = |message: String, suggestion: Option<String>| MediaTypeFault {
        message,
        suggestion,
        in_essence: true,
    };
    let Some((ty, sub)) = lower.split_once('/') else {
        let meant = BARE_SUBTYPES
            .iter()
            .find(|(bare, _)| *bare == lower)
            .map(|(_, m)| m.to_string());
        return Some(fault(
            format!("`{essence}` is no media type (`type/subtype`)"),
            meant,
        ));
    };
    if !is_token(ty) || !(is_token(sub) || sub == "*") || (ty == "*" && sub != "*") {
        return Some(fault(
            format!("`{essence}` is no media type (`type/subtype`, each a token)"),
            None,
        ));
    }
    if ty != "*" && !TOP_LEVEL_TYPES.contains(&ty) {
        let swapped = TOP_LEVEL_TYPES
            .contains(&sub)
            .then(|| format!("{sub}/{ty}"));
        return Some(fault(
            format!(
                "`{ty}` is no top-level media type (IANA registers {})",
                TOP_LEVEL_TYPES.join(", ")
            ),
            swapped,
        ));
    }
    for p in pieces.map(str::trim).filter(|p| !p.is_empty()) {
        let fault = |message: String, suggestion: Option<String>| MediaTypeFault {
            message,
            suggestion,
            in_essence: false,
        };
        let Some((name, value)) = p.split_once('=') else {
            return Some(fault(format!("the parameter `{p}` has no `=value`"), None));
        };
        let (name, value) = (name.trim(), value.trim());
        let quoted = value.len() >= 2 && value.starts_with('"') && value.ends_with('"');
        if !is_token(name) || !(quoted || is_token(value)) {
            return Some(fault(
                format!("the parameter `{p}` is no `name=value` of tokens (or a quoted value)"),
                None,
            ));
        }
        let value = value.trim_matches('"').to_ascii_lowercase();
        if name.eq_ignore_ascii_case("charset") && !CHARSETS.contains(&value.as_str()) {
            let squash = |s: &str| s.replace(['-', '_'], "");
            let meant = CHARSETS
                .iter()
                .find(|c| squash(c) == squash(&value))
                .map(|c| format!("{lower}; charset={c}"));
            return Some(fault(
                format!("`{value}` is no registered character set"),
                meant,
            ));
        }
    }
    None
}

/// RFC 9110 section 5.6.2: one or more `tchar`.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Whether a request body or multipart part of media type `media` carries text (sent as the
/// string given) rather than bytes (given base64-encoded): `text/*`, XML (`application/xml`,
/// `*+xml`), JSON (`application/json`, `*+json`), YAML, form encoding, and the script and query
/// languages sent as text (`application/javascript`, `application/graphql`, `application/sql`).
/// Parameters (`; charset=...`) and case are ignored.
pub fn text_media(media: &str) -> bool {
    let m = media_essence(media);
    m.starts_with("text/")
        || [
            "/xml", "+xml", "/json", "+json", "/yaml", "+yaml", "/x-yaml",
        ]
        .iter()
        .any(|s| m.ends_with(s))
        || [
            "application/x-www-form-urlencoded",
            "application/javascript",
            "application/ecmascript",
            "application/graphql",
            "application/sql",
            "application/x-ndjson",
        ]
        .contains(&m.as_str())
}

/// A request parameter (paper node `Parameter`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    /// The provider's own parameter name (`formula`, `composition`, `per-page`).
    pub name: Sp<String>,
    /// Value type.
    #[serde(rename = "type")]
    pub ty: Sp<ValueType>,
    /// Allowed values, when the parameter is an enumeration.
    #[serde(default, rename = "enum", skip_serializing_if = "Option::is_none")]
    pub enum_values: Option<Vec<Sp<Scalar>>>,
    /// Whether every call must give it (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<Sp<bool>>,
    /// The provider's default value (the router sends it when a required parameter is not bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Sp<Scalar>>,
    /// Least value of a number (JSON Schema `minimum`; an item's, for a list of numbers).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "sp_whole"
    )]
    pub minimum: Option<Sp<f64>>,
    /// Greatest value of a number (JSON Schema `maximum`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "sp_whole"
    )]
    pub maximum: Option<Sp<f64>>,
    /// A number must be greater than this (JSON Schema 2019+ / OpenAPI 3.1 `exclusiveMinimum`;
    /// OpenAPI 3.0's `exclusiveMinimum: true` with `minimum` is imported as this).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "sp_whole"
    )]
    pub exclusive_minimum: Option<Sp<f64>>,
    /// A number must be less than this (JSON Schema `exclusiveMaximum`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "sp_whole"
    )]
    pub exclusive_maximum: Option<Sp<f64>>,
    /// Fewest characters of a text (JSON Schema `minLength`, in Unicode scalar values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<Sp<u64>>,
    /// Most characters of a text (JSON Schema `maxLength`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<Sp<u64>>,
    /// A regular expression a text matches somewhere (JSON Schema `pattern`, ECMA-262; anchor
    /// it with `^...$` to match the whole text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Sp<String>>,
    /// Fewest items of a list (JSON Schema `minItems`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<Sp<u64>>,
    /// Most items of a list (JSON Schema `maxItems`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<Sp<u64>>,
    /// True for credentials (API keys) the client supplies itself; never bound from a query and
    /// never reported missing in a plan (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<Sp<bool>>,
    /// How Understand-step parameters (keyed by parameter concept) bind to this parameter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bind: Vec<Sp<Binding>>,
    /// Separator used when several bindings fill this parameter in one plan (e.g. `,`); without
    /// it, the first binding in declaration order wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join: Option<Sp<String>>,
    /// What the parameter means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
    /// Where the value is sent (default: the query string, or the body for `POST`/`MCP`).
    #[serde(default, rename = "in", skip_serializing_if = "Option::is_none")]
    pub location: Option<Sp<ParamLocation>>,
    /// JSON-Schema `format` of the value as published (`int64`, `uri`, `email`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<Sp<String>>,
    /// OpenAPI serialisation style when it is not the location's default (`form`, `simple`,
    /// `spaceDelimited`, `pipeDelimited`, `deepObject`, `matrix`, `label`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<Sp<String>>,
    /// Whether array items are sent as repeated parameters (`true`, the default for arrays, as
    /// OpenAPI 3's `form` style does) or joined into one value (`false`; with `join` as the
    /// separator, `,` by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explode: Option<Sp<bool>>,
    /// OpenAPI `allowReserved`: RFC 3986 reserved characters (`:/?#[]@!$&'()*+,;=`) in the
    /// value are sent as they are rather than percent-encoded (query parameters and
    /// form-encoded body fields; default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_reserved: Option<Sp<bool>>,
    /// Media type of this body parameter's part of a `multipart/form-data` body (OpenAPI
    /// `encoding.contentType`: `image/png`, `application/xml`, `application/json`; a list or a
    /// wildcard as published, the first type sent, `application/octet-stream` for a wildcard).
    /// A part of a binary media type takes its value base64-encoded and is sent as the decoded
    /// bytes; absent means OpenAPI's defaults (`text/plain` for a primitive,
    /// `application/json` for an object, `application/octet-stream` for `format: binary`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<Sp<String>>,
    /// Headers of this body parameter's `multipart/form-data` part with the value each is sent
    /// with (OpenAPI `encoding.headers` whose schema fixes one value: `const`, a one-value
    /// `enum`, or `default`). `Content-Type` is not one of them (see `content_type`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub part_headers: BTreeMap<String, Sp<String>>,
    /// True when this body parameter is the whole JSON request body rather than one property of
    /// a body object: the request body's schema is not an object (an array, a string, a
    /// number), so the value itself is sent (`["a", "b"]`, not `{"body": ["a", "b"]}`). The
    /// import sets it on the one parameter `body` of such a body (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_body: Option<Sp<bool>>,
}

impl Parameter {
    /// A parameter with a name and a type and nothing else declared (for generated
    /// declarations).
    pub fn new(name: impl Into<String>, ty: ValueType) -> Parameter {
        Parameter {
            name: Sp::synthetic(name.into()),
            ty: Sp::synthetic(ty),
            enum_values: None,
            required: None,
            default: None,
            auth: None,
            bind: Vec::new(),
            join: None,
            description: None,
            location: None,
            format: None,
            style: None,
            explode: None,
            allow_reserved: None,
            content_type: None,
            part_headers: BTreeMap::new(),
            whole_body: None,
            minimum: None,
            maximum: None,
            exclusive_minimum: None,
            exclusive_maximum: None,
            min_length: None,
            max_length: None,
            pattern: None,
            min_items: None,
            max_items: None,
        }
    }

    /// The bounds the declaration gives the parameter's value.
    pub fn bounds(&self) -> Bounds {
        let number = |n: &Option<Sp<f64>>| n.as_ref().map(|n| n.value);
        let count = |n: &Option<Sp<u64>>| n.as_ref().map(|n| n.value);
        Bounds {
            minimum: number(&self.minimum),
            maximum: number(&self.maximum),
            exclusive_minimum: number(&self.exclusive_minimum),
            exclusive_maximum: number(&self.exclusive_maximum),
            min_length: count(&self.min_length),
            max_length: count(&self.max_length),
            pattern: self.pattern.as_ref().map(|p| p.value.clone()),
            min_items: count(&self.min_items),
            max_items: count(&self.max_items),
        }
    }

    /// Whether the parameter is required (absent means optional).
    pub fn is_required(&self) -> bool {
        self.required.as_ref().is_some_and(|r| r.value)
    }

    /// Whether the parameter is a client credential (absent means no).
    pub fn is_auth(&self) -> bool {
        self.auth.as_ref().is_some_and(|r| r.value)
    }
}

/// What a parameter's value must keep besides its type and enum: the JSON Schema validation
/// keywords a declaration gives (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`
/// of a number; `minLength`, `maxLength`, `pattern` of a text; `minItems`, `maxItems` of a
/// list; a list's items keep the number and text bounds). In the artifact (`bounds` of a
/// parameter, left out when empty); the gateway checks arguments against them and shows them
/// in the input schemas it exposes.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct Bounds {
    /// `minimum`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "whole"
    )]
    pub minimum: Option<f64>,
    /// `maximum`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "whole"
    )]
    pub maximum: Option<f64>,
    /// `exclusiveMinimum` (a number).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "whole"
    )]
    pub exclusive_minimum: Option<f64>,
    /// `exclusiveMaximum` (a number).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "whole"
    )]
    pub exclusive_maximum: Option<f64>,
    /// `minLength`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    /// `maxLength`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    /// `pattern`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// `minItems`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// `maxItems`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
}

impl Bounds {
    /// Whether no bound is given.
    pub fn is_empty(&self) -> bool {
        *self == Bounds::default()
    }

    /// The bounds as JSON Schema keywords (`minimum`, `exclusiveMinimum`, `minLength`, ...),
    /// a whole number written as an integer (`100`, not `100.0`), in this order: the numeric
    /// bounds, the text bounds, the list bounds.
    pub fn json_schema(&self) -> Vec<(&'static str, serde_json::Value)> {
        let mut out = Vec::new();
        for (key, n) in [
            ("minimum", self.minimum),
            ("maximum", self.maximum),
            ("exclusiveMinimum", self.exclusive_minimum),
            ("exclusiveMaximum", self.exclusive_maximum),
        ] {
            if let Some(n) = n {
                out.push((key, number_value(n)));
            }
        }
        for (key, n) in [
            ("minLength", self.min_length),
            ("maxLength", self.max_length),
        ] {
            if let Some(n) = n {
                out.push((key, n.into()));
            }
        }
        if let Some(p) = &self.pattern {
            out.push(("pattern", p.as_str().into()));
        }
        for (key, n) in [("minItems", self.min_items), ("maxItems", self.max_items)] {
            if let Some(n) = n {
                out.push((key, n.into()));
            }
        }
        out
    }
}

/// `n` as a JSON number: a whole number within a double's exact integers as an integer (`100`),
/// any other as itself (`0.5`).
pub fn number_value(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        (n as i64).into()
    } else {
        serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, serde_json::Value::Number)
    }
}

/// Serialise a declared bound as [`number_value`] writes it (`maximum: 100`, not `100.0`).
fn sp_whole<S: serde::Serializer>(n: &Option<Sp<f64>>, s: S) -> Result<S::Ok, S::Error> {
    whole(&n.as_ref().map(|n| n.value), s)
}

/// Serialise a bound as [`number_value`] writes it.
fn whole<S: serde::Serializer>(n: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match n {
        Some(n) => number_value(*n).serialize(s),
        None => s.serialize_none(),
    }
}

/// How an array-typed parameter's items are sent, as its declaration says (OpenAPI 3
/// serialisation: `style` and `explode`, with each location's default).
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ArrayEncoding {
    /// One `name=item` query parameter (or cookie) per item: OpenAPI `form` with `explode: true`,
    /// the default for the query string. Plans carry the items as a JSON array.
    Repeated,
    /// One value, the items joined with the separator: `join`, `explode: false` (`,`),
    /// `spaceDelimited` (` `), `pipeDelimited` (`|`), or the `simple` style of path and header
    /// parameters (`,`). Plans carry the joined string.
    Joined(String),
    /// A JSON array in the request body (`in: body`, or the default for `POST` and `MCP`). Plans
    /// carry the JSON array.
    Json,
}

impl Parameter {
    /// How this parameter's items are sent, when its type is an array (`None` otherwise).
    /// `method` is the endpoint's method (a `POST` or `MCP` endpoint sends undeclared locations
    /// in the body).
    pub fn array_encoding(&self, method: HttpMethod) -> Option<ArrayEncoding> {
        if !matches!(self.ty.value, ValueType::Array(_)) {
            return None;
        }
        let location = self.location.as_ref().map(|l| l.value).unwrap_or(
            if matches!(method, HttpMethod::Post | HttpMethod::Mcp) {
                ParamLocation::Body
            } else {
                ParamLocation::Query
            },
        );
        if location == ParamLocation::Body {
            return Some(ArrayEncoding::Json);
        }
        if let Some(j) = &self.join {
            return Some(ArrayEncoding::Joined(j.value.clone()));
        }
        let style = self.style.as_ref().map(|s| s.value.as_str());
        match style {
            Some("spaceDelimited") => return Some(ArrayEncoding::Joined(" ".into())),
            Some("pipeDelimited") => return Some(ArrayEncoding::Joined("|".into())),
            _ => {}
        }
        let explode = self.explode.as_ref().map(|e| e.value);
        match (location, explode) {
            (_, Some(false)) => Some(ArrayEncoding::Joined(",".into())),
            (ParamLocation::Path | ParamLocation::Header, None) => {
                Some(ArrayEncoding::Joined(",".into()))
            }
            _ => Some(ArrayEncoding::Repeated),
        }
    }
}

/// A binding from a parameter concept to a tool parameter (paper Algorithm 1, parameter binding).
///
/// `template` renders the value (`{value}` placeholder, optional transforms
/// `{value|hill_spaced}`, `{value|alphabetical}`, `{value|elements_csv}`, `{value|element_count}`,
/// `{value|lower}`, `{value|upper}`); `set` fixes companion parameters of the same endpoint
/// (PubChem `namespace: name` when `identifier` is bound from `compound_name`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Binding {
    /// Parameter concept id (declared under `aliases/` with `kind: parameter`).
    pub concept: Sp<String>,
    /// How the value is rendered (default `{value}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Sp<Template>>,
    /// Companion parameters fixed by this binding: parameter name -> value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, Sp<Scalar>>,
}

/// A response field (paper node `ResponseField`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ResponseField {
    /// The provider's JSON key path, exactly as published: nested keys joined with `.`, arrays of
    /// objects written `[]` (`bulk_modulus.vrh`, `authorships[].author.display_name`).
    pub name: Sp<String>,
    /// Value type (the meaning, e.g. `number` even when the provider sends a string; see
    /// `encoding`).
    #[serde(rename = "type")]
    pub ty: Sp<ValueType>,
    /// Unit in canonical spelling (`eV/atom`, `Å^3`, `g/cm^3`, `μB`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<Sp<String>>,
    /// The provider's own unit spelling when it differs (`Ao^3`, `&Aring;<sup>3</sup>`, `m ** 3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_as_published: Option<Sp<String>>,
    /// True for fields that identify the record (always projected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identifier: Option<Sp<bool>>,
    /// Field groups this field belongs to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Sp<String>>,
    /// Response concepts this field carries (the alias layer's targets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub concepts: Vec<Sp<String>>,
    /// Qualifiers that distinguish this field from others of the same concept
    /// (`method: TBmBJ`, `average: Voigt`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub qualifiers: BTreeMap<String, Sp<String>>,
    /// Overrides the tool's source type for this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_type: Option<Sp<String>>,
    /// Overrides the tool's licence for this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // Boxed: few fields override the licence, and a declaration is 144 bytes.
    pub licence: Option<Box<Sp<Licence>>>,
    /// How the value travels when it differs from `type` (`string` for numbers sent as JSON
    /// strings, as COD and PubChem do).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<Sp<ValueType>>,
    /// The provider's missing-value marker (`na` in JARVIS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing_value: Option<Sp<String>>,
    /// What the field holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
    /// Whether every record carries the field (the response schema's `required`; absent means
    /// unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<Sp<bool>>,
    /// Whether the value may be `null` (JSON Schema `nullable` or a `null` type).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nullable: Option<Sp<bool>>,
    /// JSON-Schema `format` of the value as published (`int64`, `uri`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<Sp<String>>,
}

impl ResponseField {
    /// A field with a name and a type and nothing else declared (for generated declarations).
    pub fn new(name: impl Into<String>, ty: ValueType) -> ResponseField {
        ResponseField {
            name: Sp::synthetic(name.into()),
            ty: Sp::synthetic(ty),
            unit: None,
            unit_as_published: None,
            identifier: None,
            groups: Vec::new(),
            concepts: Vec::new(),
            qualifiers: BTreeMap::new(),
            source_type: None,
            licence: None,
            encoding: None,
            missing_value: None,
            description: None,
            required: None,
            nullable: None,
            format: None,
        }
    }

    /// Whether the field is an identifier (absent means no).
    pub fn is_identifier(&self) -> bool {
        self.identifier.as_ref().is_some_and(|i| i.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One rule for every declared media type: the essence's grammar and registered top-level
    /// type, the parameters' grammar and a registered charset, each fault with the type meant
    /// when it is clear.
    #[test]
    fn media_types_are_read_by_one_rule() {
        let fault = |m: &str| media_type_fault(m).map(|f| (f.message, f.suggestion, f.in_essence));
        for ok in [
            "application/json",
            "Application/JSON; charset=UTF-8",
            "text/plain;charset=\"utf-8\"",
            "application/vnd.api+json",
            "multipart/form-data; boundary=x",
            "text/*",
            "*/*",
        ] {
            assert_eq!(fault(ok), None, "{ok}");
        }
        assert_eq!(
            fault("plain/text"),
            Some((
                "`plain` is no top-level media type (IANA registers application, audio, example, font, haptics, image, message, model, multipart, text, video)".into(),
                Some("text/plain".into()),
                true
            ))
        );
        assert_eq!(
            fault("json"),
            Some((
                "`json` is no media type (`type/subtype`)".into(),
                Some("application/json".into()),
                true
            ))
        );
        assert_eq!(
            fault("application/json; charset=utf8"),
            Some((
                "`utf8` is no registered character set".into(),
                Some("application/json; charset=utf-8".into()),
                false
            ))
        );
        assert_eq!(
            fault("application/json; charset"),
            Some((
                "the parameter `charset` has no `=value`".into(),
                None,
                false
            ))
        );
        assert_eq!(fault("application/ json").map(|f| f.2), Some(true));
        assert_eq!(fault("*/json").map(|f| f.2), Some(true));
        assert_eq!(
            fault("text/plain; charset=klingon").map(|f| f.1),
            Some(None)
        );
    }

    fn p(ty: &str, f: impl FnOnce(&mut Parameter)) -> Parameter {
        let mut p = Parameter::new("ids", ValueType::parse(ty).unwrap());
        f(&mut p);
        p
    }

    #[test]
    fn array_encodings_follow_the_declaration() {
        use ArrayEncoding::*;
        let get = HttpMethod::Get;
        assert_eq!(p("string", |_| {}).array_encoding(get), None);
        assert_eq!(p("string[]", |_| {}).array_encoding(get), Some(Repeated));
        assert_eq!(
            p("string[]", |_| {}).array_encoding(HttpMethod::Post),
            Some(Json)
        );
        assert_eq!(
            p("string[]", |x| x.join = Some(Sp::synthetic(";".into()))).array_encoding(get),
            Some(Joined(";".into()))
        );
        assert_eq!(
            p("string[]", |x| x.explode = Some(Sp::synthetic(false))).array_encoding(get),
            Some(Joined(",".into()))
        );
        assert_eq!(
            p("string[]", |x| x.style =
                Some(Sp::synthetic("pipeDelimited".into())))
            .array_encoding(get),
            Some(Joined("|".into()))
        );
        assert_eq!(
            p("integer[]", |x| x.location =
                Some(Sp::synthetic(ParamLocation::Path)))
            .array_encoding(get),
            Some(Joined(",".into()))
        );
        assert_eq!(
            p("integer[]", |x| x.location =
                Some(Sp::synthetic(ParamLocation::Body)))
            .array_encoding(get),
            Some(Json)
        );
    }
}
