//! MCP `tools/list` results (saved to a file, or read from a live server by [`super::mcp_client`]):
//! one tool per server, one endpoint per MCP tool (`method: MCP`, `mcp_tool: <name>`).
//!
//! `inputSchema` becomes parameters and `outputSchema` response fields, by the shared JSON-Schema
//! mapping; each tool's schemas are JSON Schema documents of their own, so `#/$defs/...`
//! references resolve inside them. A tool without `outputSchema` gets one `result` field and a
//! finding (field projection cannot help). `annotations` become the endpoint's hints.
//!
//! Accepted file shapes: a `tools/list` result (`{"tools": [...], "nextCursor": ...}`), the
//! JSON-RPC response around it (`{"jsonrpc": "2.0", "result": {...}}`), a list of either (the
//! pages of one listing), or a bare list of tools; an optional `serverInfo` (and
//! `instructions`) names the server, at the top level or beside `tools` in the JSON-RPC
//! `result` (an `initialize` result saved with the listing), whichever shape the file has.

use super::refs::{Loc, Resolver};
use super::schema::Mapper;
use super::{Imported, Options, codes};
use crate::diagnostics::Severity;
use crate::model::{Annotations, Endpoint, HttpMethod, McpServer, Sp, Tool};
use serde_json::Value;
use std::collections::BTreeSet;

/// Where the server came from (for the tool's `mcp_server`).
#[derive(Clone, Debug, Default)]
pub struct ServerOrigin {
    /// The command line (stdio).
    pub command: Option<String>,
    /// The URL (streamable HTTP).
    pub url: Option<String>,
}

/// The tool objects of a `tools/list` file, as locations.
fn tool_locs<'a>(root: &Loc<'a>, out: &mut Vec<Loc<'a>>) -> bool {
    match root.value {
        Value::Object(o) if o.contains_key("result") => match root.get("result") {
            Some(r) => tool_locs(&r, out),
            None => false,
        },
        Value::Object(o) if o.contains_key("tools") => {
            let Some(t) = root.get("tools") else {
                return false;
            };
            let Value::Array(a) = t.value else {
                return false;
            };
            for i in 0..a.len() {
                out.extend(t.get(&i.to_string()));
            }
            true
        }
        Value::Array(a) => {
            let mut ok = true;
            for i in 0..a.len() {
                let Some(item) = root.get(&i.to_string()) else {
                    continue;
                };
                if item.value.get("name").is_some() && item.value.get("tools").is_none() {
                    out.push(item);
                } else {
                    ok &= tool_locs(&item, out);
                }
            }
            ok
        }
        _ => false,
    }
}

/// The `nextCursor` of the file's last page when it is set (a string that is not empty): the
/// listing continues beyond what was saved. For a list of pages, only the last page counts
/// (earlier pages carry the cursor of the page after them).
fn open_cursor<'a>(root: &Loc<'a>) -> Option<Loc<'a>> {
    match root.value {
        Value::Object(o) if o.contains_key("result") => open_cursor(&root.get("result")?),
        Value::Object(o) if o.contains_key("tools") => root
            .get("nextCursor")
            .filter(|c| c.value.as_str().is_some_and(|s| !s.is_empty())),
        Value::Array(a) => {
            let last = a
                .iter()
                .rposition(|p| p.get("tools").is_some() || p.get("result").is_some())?;
            open_cursor(&root.get(&last.to_string())?)
        }
        _ => None,
    }
}

/// The objects that may carry the server's `serverInfo` and `instructions` (the keys of an
/// `initialize` result), in document order: the top level, the JSON-RPC `result` around a
/// `tools/list` result (where a saved `initialize` result may have been merged beside `tools`),
/// and the same in each page of a list of pages. The first one that has a key gives it.
fn server_places<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(o) => {
            out.push(v);
            if let Some(r) = o.get("result") {
                server_places(r, out);
            }
        }
        Value::Array(a) => {
            for item in a {
                // A bare tool (as `tool_locs` tells them apart) names no server.
                if !(item.get("name").is_some() && item.get("tools").is_none()) {
                    server_places(item, out);
                }
            }
        }
        _ => {}
    }
}

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// How MCP tools are named in messages.
const NAMING: super::ToolNaming = super::ToolNaming {
    a_tool: "an MCP tool",
    tool: "MCP tool",
    name_help: "every tool in `tools/list` has a `name` (MCP revision 2025-06-18, `Tool`)",
    repeat_help: "a server lists each tool name once (`tools/call` names the tool); check the server's tool list",
    fallback_id: "tool",
    called_by: "the endpoint's `mcp_tool` (the name `tools/call` sends)",
};

/// Import a `tools/list` result (the resolver's root document).
pub fn import(r: &Resolver, opts: &Options, origin: &ServerOrigin) -> Imported {
    let mut m = Mapper::new(r);
    let root = r.root();
    let mut tools = Vec::new();
    if !tool_locs(&root, &mut tools) {
        let (message, hint) = not_a_tools_list(&root);
        m.report(
            codes::UNSUPPORTED_SOURCE,
            Severity::Error,
            &root,
            &message,
            hint,
        );
        return Imported::failed(m.findings);
    }
    if let Some(cursor) = open_cursor(&root) {
        m.report(
            codes::UNSUPPORTED_SOURCE,
            Severity::Warning,
            &cursor,
            format!(
                "the saved listing continues: `nextCursor` is {}, so the tools of later pages are not in this file",
                cursor.value
            ),
            "save every page (a list of the `tools/list` results, following `nextCursor` until a page has none), or import from the live server with `--command` or `--url`, which follows the pages",
        );
    }
    let mut places = Vec::new();
    server_places(root.value, &mut places);
    let info = places
        .iter()
        .find_map(|p| p.get("serverInfo").filter(|i| i.is_object()))
        .cloned()
        .unwrap_or(Value::Null);
    let instructions = places.iter().find_map(|p| str_at(p, "instructions"));
    let server_name = str_at(&info, "name").map(str::to_string);
    let title = str_at(&info, "title")
        .or(server_name.as_deref())
        .map(str::to_string)
        .unwrap_or_else(|| opts.source_stem.clone());
    let tool_id = opts
        .tool
        .clone()
        .unwrap_or_else(|| super::tool_id(&title, &opts.source_stem));
    let mut used = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut endpoints = Vec::new();
    for (i, t) in tools.iter().enumerate() {
        let Some(name) = super::list_tool_name(&mut m, t, &NAMING, &mut seen) else {
            continue;
        };
        let id = super::list_endpoint_id(&mut m, t, &NAMING, name, i + 1, &mut used);
        if !opts.selects(&[id.as_str(), name]) {
            continue;
        }
        m.begin(format!("{tool_id}/{id}"));
        m.resource = super::records::resource_of_tool(name).map(str::to_string);
        let description = str_at(t.value, "description")
            .or_else(|| str_at(t.value, "title"))
            .map(str::to_string);
        let mut e = Endpoint {
            id: Sp::synthetic(id.clone()),
            method: Sp::synthetic(HttpMethod::Mcp),
            url: Sp::synthetic(format!("mcp://{tool_id}/{}", url_segment(name))),
            description: description.map(Sp::synthetic),
            records: None,
            mcp_tool: Some(Sp::synthetic(name.to_string())),
            annotations: annotations(t.value.get("annotations")),
            fields_inferred: None,
            operation_id: None,
            allow_destructive: None,
            deprecated: None,
            body_type: None,
            body_xml: Vec::new(),
            parameters: Vec::new(),
            fields: Vec::new(),
        };
        let base = format!("{}/inputSchema", t.pointer);
        match r.scoped(t.doc, &base) {
            None => {
                if let Some(k) = ["input_schema", "parameters", "function"]
                    .into_iter()
                    .find(|k| t.value.get(k).is_some())
                {
                    m.report(
                        codes::UNSUPPORTED_SOURCE,
                        Severity::Error,
                        t,
                        format!("MCP tool `{name}` has `{k}` (a key of OpenAI / Anthropic function tools) and no `inputSchema`: this looks like a function-tool list"),
                        "import it with `schemarouter import openai`",
                    );
                    continue;
                }
                m.report(
                    codes::UNSUPPORTED_SOURCE,
                    Severity::Warning,
                    t,
                    format!("MCP tool `{name}` has no `inputSchema`; imported with no parameters"),
                    "every MCP tool declares its arguments as an object schema in `inputSchema` (MCP revision 2025-06-18, `Tool`)",
                );
            }
            Some(input) => match super::argument_schema_fault(input.value) {
                Some((severity, fault)) => {
                    m.report(
                        codes::UNSUPPORTED_SOURCE,
                        severity,
                        &input,
                        format!("`inputSchema` of MCP tool `{name}` {fault}"),
                        "MCP tool arguments are an object: `{\"type\": \"object\", \"properties\": {...}}`",
                    );
                    if severity == Severity::Error {
                        continue;
                    }
                }
                None => e.parameters = m.body_parameters(&input, true, None),
            },
        }
        let out_ptr = format!("{}/outputSchema", t.pointer);
        let output = r.scoped(t.doc, &out_ptr);
        let malformed = output.as_ref().is_some_and(|l| !l.value.is_object());
        if let Some(bad) = output.as_ref().filter(|l| !l.value.is_object()) {
            m.report(
                codes::UNSUPPORTED_SOURCE,
                Severity::Warning,
                bad,
                format!(
                    "`outputSchema` of MCP tool `{name}` is {}, not a JSON Schema object; imported with one field `result`",
                    super::kind_of(bad.value)
                ),
                "an MCP tool's structured result is an object: `{\"type\": \"object\", \"properties\": {...}}` (MCP revision 2025-06-18, `Tool.outputSchema`)",
            );
        }
        match output.filter(|l| l.value.is_object()) {
            Some(output) => {
                let (fields, records) = m.response_fields(&output);
                e.fields = fields;
                e.records = records.map(Sp::synthetic);
            }
            None => {
                e.fields = vec![super::result_field(
                    "The tool's result content (the tool declares no outputSchema).",
                )];
                if malformed {
                    endpoints.push(Sp::synthetic(e));
                    continue;
                }
                m.report(
                    codes::NO_RESPONSE_SCHEMA,
                    Severity::Warning,
                    t,
                    format!("MCP tool `{name}` declares no `outputSchema`; imported with one field `result`"),
                    "field projection cannot help for this tool: its whole result reaches the reader. Ask the server to declare an outputSchema (MCP 2025-06-18), or declare the fields by hand",
                );
            }
        }
        endpoints.push(Sp::synthetic(e));
    }
    m.require_endpoints(
        endpoints.len(),
        &root,
        opts.only.as_ref().map(|g| g.text()),
        "the server lists no tools",
    );
    let server = McpServer {
        name: server_name.clone().map(Sp::synthetic),
        version: str_at(&info, "version").map(|s| Sp::synthetic(s.to_string())),
        command: origin.command.clone().map(Sp::synthetic),
        url: origin.url.clone().map(Sp::synthetic),
    };
    let has_server = server.name.is_some() || server.command.is_some() || server.url.is_some();
    let domain = opts.domain_for(&tool_id);
    let tool = Tool {
        id: Sp::synthetic(tool_id),
        title: Sp::synthetic(title),
        names: Vec::new(),
        description: instructions
            .and_then(super::first_paragraph)
            .map(Sp::synthetic),
        domain: Sp::synthetic(domain),
        source_type: None,
        priority: None,
        provenance: None,
        licence: None,
        mcp_server: has_server.then(|| Sp::synthetic(server)),
        server_url: None,
        endpoints,
    };
    Imported {
        tool: Some(tool),
        source_kind: "MCP tools/list".to_string(),
        source_version: str_at(&info, "version").map(str::to_string),
        findings: m.findings,
        previous_id: None,
    }
}

/// Why a document is not a `tools/list` result, and what to do (a saved JSON-RPC error, an
/// OpenAPI document, a function-tool list).
fn not_a_tools_list(root: &Loc<'_>) -> (String, &'static str) {
    // A function-tool list (OpenAI `{"type": "function", ...}`, Anthropic `input_schema`).
    let function_list = root.value.as_array().is_some_and(|a| {
        a.first().is_some_and(|t| {
            t.get("function").is_some()
                || t.get("type").and_then(Value::as_str) == Some("function")
                || t.get("input_schema").is_some()
                || (t.get("parameters").is_some() && t.get("inputSchema").is_none())
        })
    });
    // A saved JSON-RPC error response: say what the server said.
    let rpc_error = root
        .value
        .get("error")
        .filter(|_| root.value.get("result").is_none());
    if let Some(e) = rpc_error {
        let code = e.get("code").map(Value::to_string).unwrap_or_default();
        let text = e
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("(no message)");
        (
            format!(
                "not an MCP tools/list result: the saved response is a JSON-RPC error ({}{text})",
                if code.is_empty() {
                    String::new()
                } else {
                    format!("{code}: ")
                }
            ),
            "the server refused `tools/list`; save a response that has a `result`",
        )
    } else {
        (
            "not an MCP tools/list result: no `tools` list found".to_string(),
            if root.value.get("openapi").is_some() || root.value.get("swagger").is_some() {
                "this is an OpenAPI document: use `schemarouter import openapi`"
            } else if function_list {
                "this is a function-tool list (OpenAI or Anthropic form): use `schemarouter import openai`"
            } else {
                "save the `result` of a `tools/list` request: `{\"tools\": [{\"name\": ..., \"inputSchema\": {...}}]}`"
            },
        )
    }
}

/// MCP tool annotations as endpoint hints.
fn annotations(v: Option<&Value>) -> Option<Sp<Annotations>> {
    let v = v?;
    let b = |k: &str| v.get(k).and_then(Value::as_bool).map(Sp::synthetic);
    let a = Annotations {
        read_only: b("readOnlyHint"),
        destructive: b("destructiveHint"),
        idempotent: b("idempotentHint"),
        open_world: b("openWorldHint"),
    };
    (a != Annotations::default()).then(|| Sp::synthetic(a))
}

/// A tool name as one URL path segment (percent-encoding what a URL cannot hold).
pub(super) fn url_segment(name: &str) -> String {
    let mut s = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_segments_are_encoded() {
        assert_eq!(url_segment("get_file info"), "get_file%20info");
        assert_eq!(url_segment("a/b"), "a%2Fb");
    }
}
