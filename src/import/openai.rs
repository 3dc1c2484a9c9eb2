//! Function-tool lists of model APIs: one tool per file, one endpoint per function
//! (`method: LOCAL`, `url: function://<name>`: the application calls the function itself).
//!
//! Accepted shapes: OpenAI Chat Completions tools (`[{"type": "function", "function": {"name",
//! "description", "parameters"}}]`), the Responses API's flat form (`[{"type": "function",
//! "name", "parameters"}]`), Anthropic tools (`[{"name", "description", "input_schema"}]`), the
//! legacy `functions` list, and any of these wrapped in an object under `tools` or
//! `functions` (a saved request body). `parameters` / `input_schema` become parameters by the
//! shared JSON-Schema mapping; function tools declare no result schema, so each endpoint gets
//! one `result` field and a finding.

use super::refs::{Loc, Resolver};
use super::schema::Mapper;
use super::{Imported, Options, codes};
use crate::diagnostics::Severity;
use crate::model::{Endpoint, HttpMethod, Sp, Tool};
use serde_json::Value;
use std::collections::BTreeSet;

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A function object of the file: the object holding `name`, and the key of its schema.
type Function<'a> = (Loc<'a>, &'static str);

/// Where a file is no function-tool list: the document itself (`None`), or the first entry of
/// the list that is no function tool, with its index.
type NotAFunction<'a> = (Loc<'a>, Option<usize>);

/// The function objects of the file, or where it holds something else.
fn functions<'a>(root: &Loc<'a>) -> Result<Vec<Function<'a>>, NotAFunction<'a>> {
    let not_a_list = || (root.clone(), None);
    let list = match root.value {
        Value::Array(_) => root.clone(),
        Value::Object(o) if o.contains_key("tools") => root.get("tools").ok_or_else(not_a_list)?,
        Value::Object(o) if o.contains_key("functions") => {
            root.get("functions").ok_or_else(not_a_list)?
        }
        Value::Object(o) if o.contains_key("name") => {
            return one(root).map(|f| vec![f]).ok_or_else(not_a_list);
        }
        _ => return Err(not_a_list()),
    };
    let Value::Array(a) = list.value else {
        return Err((list.clone(), None));
    };
    let mut out = Vec::new();
    for i in 0..a.len() {
        let item = list.get(&i.to_string()).ok_or_else(not_a_list)?;
        // Built-in tools of the model API (`web_search_preview`, `computer_20241022`, ...) are
        // not the application's functions: kept aside, reported by the caller.
        let ty = item.value.get("type").and_then(Value::as_str);
        if ty.is_some_and(|t| t != "function" && t != "custom") {
            out.push((item, "built-in"));
            continue;
        }
        match one(&item) {
            Some(f) => out.push(f),
            None => return Err((item, Some(i))),
        }
    }
    Ok(out)
}

fn one<'a>(item: &Loc<'a>) -> Option<(Loc<'a>, &'static str)> {
    if let Some(f) = item.get("function").filter(|f| f.value.is_object()) {
        return Some((f, "parameters"));
    }
    if item.value.get("input_schema").is_some() {
        return Some((item.clone(), "input_schema"));
    }
    if item.value.get("name").is_some() {
        return Some((item.clone(), "parameters"));
    }
    None
}

/// How function tools are named in messages.
const NAMING: super::ToolNaming = super::ToolNaming {
    a_tool: "a function tool",
    tool: "function tool",
    name_help: "every function tool has a `name`",
    repeat_help: "a model calls a function by its name, so each name is listed once; remove the repeated entry",
    fallback_id: "function",
    called_by: "the endpoint's url (`function://<name>`)",
};

/// Berkeley Function-Calling Leaderboard files write Python type names in their function
/// schemas (`"type": "dict"`, `"float"`, `"tuple"`): read as the JSON Schema types they stand
/// for (`object`, `number`, `array`), in place. Returns the JSON pointer of each type rewritten.
pub fn bfcl_types(v: &mut Value) -> Vec<String> {
    fn walk(v: &mut Value, at: String, out: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                if let Some(Value::String(t)) = o.get_mut("type") {
                    let json = match t.as_str() {
                        "dict" => Some("object"),
                        "float" => Some("number"),
                        "tuple" => Some("array"),
                        _ => None,
                    };
                    if let Some(j) = json {
                        *t = j.to_string();
                        out.push(format!("{at}/type"));
                    }
                }
                for (k, x) in o.iter_mut() {
                    if k != "type" {
                        walk(x, format!("{at}/{}", super::doc::escape_segment(k)), out);
                    }
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter_mut().enumerate() {
                    walk(x, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, String::new(), &mut out);
    out
}

/// Import a function-tool list (the resolver's root document).
pub fn import(r: &Resolver, opts: &Options) -> Imported {
    let mut m = Mapper::new(r);
    let root = r.root();
    let fns = match functions(&root) {
        Ok(fns) => fns,
        Err((at, index)) => {
            let what = match index {
                // Counted from 1, as a person counts the list's entries.
                Some(i) => format!(
                    "entry {} of the list is not a function tool: expected `{{\"type\": \"function\", \"function\": {{...}}}}` (OpenAI) or `{{\"name\", \"input_schema\"}}` (Anthropic)",
                    i + 1
                ),
                None => "not a function-tool list: expected a list of `{\"type\": \"function\", \"function\": {...}}` (OpenAI) or `{\"name\", \"input_schema\"}` (Anthropic) objects".to_string(),
            };
            let help = if index.is_some() {
                "give the entry its `function` object (with `name` and `parameters`), or remove it"
            } else {
                "save the `tools` array of your chat request; for an MCP server use `schemarouter import mcp`"
            };
            m.report(codes::UNSUPPORTED_SOURCE, Severity::Error, &at, what, help);
            return Imported::failed(m.findings);
        }
    };
    let tool_id = opts
        .tool
        .clone()
        .unwrap_or_else(|| super::tool_id(&opts.source_stem, "functions"));
    let mut used = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut endpoints = Vec::new();
    for (i, (f, schema_key)) in fns.iter().enumerate() {
        if *schema_key == "built-in" {
            let ty = f.value.get("type").and_then(Value::as_str).unwrap_or("");
            m.report(
                codes::UNSUPPORTED_SOURCE,
                Severity::Warning,
                f,
                format!("`{ty}` is a built-in tool of the model API, not a function the application calls; not imported"),
                "only function (and Anthropic `custom`) tools are imported",
            );
            continue;
        }
        let Some(name) = super::list_tool_name(&mut m, f, &NAMING, &mut seen) else {
            continue;
        };
        let id = super::list_endpoint_id(&mut m, f, &NAMING, name, i + 1, &mut used);
        if !opts.selects(&[id.as_str(), name]) {
            continue;
        }
        m.begin(format!("{tool_id}/{id}"));
        let mut e = Endpoint {
            id: Sp::synthetic(id),
            method: Sp::synthetic(HttpMethod::Local),
            url: Sp::synthetic(format!("function://{}", super::mcp::url_segment(name))),
            description: str_at(f.value, "description").map(|s| Sp::synthetic(s.to_string())),
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
            fields: vec![super::result_field(
                "The function's return value (function tools declare no result schema).",
            )],
        };
        if *schema_key == "parameters"
            && f.value.get("parameters").is_none()
            && f.value.get("inputSchema").is_some()
        {
            m.report(
                codes::UNSUPPORTED_SOURCE,
                Severity::Error,
                f,
                format!("function tool `{name}` has `inputSchema` (an MCP tool's key) and no `parameters`: this looks like an MCP tools/list result"),
                "import it with `schemarouter import mcp`",
            );
            continue;
        }
        // A function without `parameters` takes no arguments (valid for OpenAI).
        if let Some(s) = r.scoped(f.doc, &format!("{}/{schema_key}", f.pointer)) {
            match super::argument_schema_fault(s.value) {
                Some((severity, fault)) => {
                    m.report(
                        codes::UNSUPPORTED_SOURCE,
                        severity,
                        &s,
                        format!("`{schema_key}` of function tool `{name}` {fault}"),
                        "function arguments are an object: `{\"type\": \"object\", \"properties\": {...}}`",
                    );
                    if severity == Severity::Error {
                        continue;
                    }
                }
                None => e.parameters = m.body_parameters(&s, true, None),
            }
        }
        endpoints.push(Sp::synthetic(e));
    }
    if !endpoints.is_empty() {
        m.report(
            codes::NO_RESPONSE_SCHEMA,
            Severity::Info,
            &root,
            format!(
                "function tools declare no result schema; each of the {} endpoint(s) has one field `result`",
                endpoints.len()
            ),
            "field projection cannot help for function tools unless you declare their result fields by hand",
        );
    }
    m.require_endpoints(
        endpoints.len(),
        &root,
        opts.only.as_ref().map(|g| g.text()),
        "the list declares no functions",
    );
    let domain = opts.domain_for(&tool_id);
    Imported {
        tool: Some(Tool {
            id: Sp::synthetic(tool_id.clone()),
            title: Sp::synthetic(opts.source_stem.clone()),
            names: Vec::new(),
            description: None,
            domain: Sp::synthetic(domain),
            source_type: None,
            priority: None,
            provenance: None,
            licence: None,
            mcp_server: None,
            server_url: None,
            endpoints,
        }),
        source_kind: "function-tool list".to_string(),
        source_version: None,
        findings: m.findings,
        previous_id: None,
    }
}
