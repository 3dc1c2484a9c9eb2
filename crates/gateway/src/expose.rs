//! The upstream tools re-exposed one to one (`schemarouter gateway --expose`), for agents that
//! already know their tools: one MCP tool per declared endpoint, named as the upstream names it
//! (an MCP endpoint's MCP tool name; else, or when two would share a name, `TOOL__ENDPOINT`),
//! described by its declaration, its input schema from the declared parameters; a call runs
//! `call` on it, so its output is trimmed to the declared fields with their reader context.
//! The list is made from the artifact served at start.

use rmcp::model::{JsonObject, Tool};
use schemarouter_core::artifact::{EndpointData, FrozenGraph, ParamData};
use schemarouter_core::search::Hit;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One re-exposed endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exposed {
    /// The MCP tool name.
    pub name: String,
    /// Tool id.
    pub tool: String,
    /// Endpoint id.
    pub endpoint: String,
}

fn schema_type(ty: &str) -> Value {
    if let Some(item) = ty.strip_suffix("[]") {
        return json!({"type": "array", "items": schema_type(item)});
    }
    match ty {
        "integer" | "number" | "boolean" | "object" | "string" => json!({"type": ty}),
        "date" => json!({"type": "string", "format": "date"}),
        "datetime" => json!({"type": "string", "format": "date-time"}),
        _ => json!({}),
    }
}

/// The JSON Schema of endpoint `e`'s arguments (credential parameters left out: the gateway
/// sends them), with each parameter's declared bounds (`minimum`, `maxLength`, `pattern`,
/// `maxItems`, ...; a list's number and text bounds on its `items`). A value the gateway sends as bytes (a binary request body or multipart part)
/// is a string with `contentEncoding: base64` (each item of a list), saying so in its
/// description; the one parameter of a whole text body (`application/xml`, `text/plain`) has
/// the body's `contentMediaType`.
pub fn input_schema(e: &EndpointData) -> Value {
    let mut props = serde_json::Map::new();
    let mut required = Vec::new();
    for p in e.parameters.iter().filter(|p| !p.auth) {
        let mut s = schema_type(&p.ty);
        if !p.enum_values.is_empty() {
            s["enum"] = serde_json::to_value(&p.enum_values).unwrap_or_default();
        }
        // The declared bounds: item counts on the list, the others on its items (or the value).
        for (key, limit) in p.bounds.json_schema() {
            if s["type"] == "array" && !matches!(key, "minItems" | "maxItems") {
                s["items"][key] = limit;
            } else {
                s[key] = limit;
            }
        }
        let mut description = p.description.clone();
        if crate::upstream::http::takes_base64(e, p) {
            let string = if s["type"] == "array" {
                &mut s["items"]
            } else {
                &mut s
            };
            string["type"] = json!("string");
            string["contentEncoding"] = json!("base64");
            let note = "Bytes, base64-encoded (RFC 4648).";
            description = Some(match description {
                Some(d) if !d.contains("base64") => format!("{d} {note}"),
                Some(d) => d,
                None => note.to_string(),
            });
        } else if let Some(media) = whole_text_body(e, p) {
            s["contentMediaType"] = json!(media);
        }
        if let Some(d) = &description {
            s["description"] = json!(d);
        }
        if p.required && p.default.is_none() {
            required.push(p.name.clone());
        }
        props.insert(p.name.clone(), s);
    }
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

/// The media type of `e`'s body when `p` is the whole body as text (`body`, of a body type that
/// is neither JSON nor a form).
fn whole_text_body<'a>(e: &'a EndpointData, p: &ParamData) -> Option<&'a str> {
    let media = e.body_type.as_deref()?;
    let form = media == crate::upstream::http::FORM || media == crate::upstream::http::MULTIPART;
    (!form
        && !crate::upstream::multipart::json_media(media)
        && p.name == "body"
        && p.location.as_deref().is_none_or(|l| l == "body"))
    .then_some(media)
}

/// Every endpoint of `g` the configuration allows (destructive ones only when allowed; function
/// endpoints, which the gateway cannot call, never), named without clashes with `taken`.
pub fn endpoints(
    g: &FrozenGraph,
    config: &crate::config::GatewayConfig,
    taken: &[&str],
) -> Vec<(Exposed, Tool)> {
    let mut wanted: Vec<(String, Exposed, Tool)> = Vec::new();
    for t in g.tools.iter() {
        for e in &t.endpoints {
            // A function tool's endpoint cannot be called: it is not offered.
            if crate::boundary::refused_by(config, &t.id, e).is_some() || crate::local(e) {
                continue;
            }
            let qualified = format!("{}__{}", t.id, e.id);
            let name = e.mcp_tool.clone().unwrap_or_else(|| qualified.clone());
            let description = e
                .description
                .clone()
                .unwrap_or_else(|| format!("{} ({})", t.title, e.id));
            let schema = match input_schema(e) {
                Value::Object(o) => o,
                _ => JsonObject::new(),
            };
            let tool = Tool::new(name.clone(), description, Arc::new(schema))
                .with_title(format!("{}: {}", t.title, e.id));
            wanted.push((
                qualified,
                Exposed {
                    name,
                    tool: t.id.clone(),
                    endpoint: e.id.clone(),
                },
                tool,
            ));
        }
    }
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for (_, x, _) in &wanted {
        *count.entry(x.name.clone()).or_default() += 1;
    }
    wanted
        .into_iter()
        .map(|(qualified, mut x, mut tool)| {
            if count[&x.name] > 1 || taken.contains(&x.name.as_str()) {
                x.name = qualified;
                tool.name = x.name.clone().into();
            }
            (x, tool)
        })
        .collect()
}

/// Search hits as the gateway serves them (`search_tools`): those it would refuse to call left
/// out (the `allow_list` and `destructive` checks, [`crate::boundary::refused_by`], and
/// function endpoints), ranks renumbered; `call` the name of the tool an agent calls on it
/// here (`name_of`: its `--expose` name; `None` without `--expose`, where `call` takes the
/// tool and endpoint ids), never the upstream's own MCP tool name.
pub fn served_hits<'g>(
    hits: Vec<Hit>,
    config: &crate::config::GatewayConfig,
    endpoint: impl Fn(&str, &str) -> Option<&'g EndpointData>,
    name_of: impl Fn(&str, &str) -> Option<String>,
) -> Vec<Hit> {
    hits.into_iter()
        .filter(|h| {
            endpoint(&h.tool, &h.endpoint).is_some_and(|e| {
                crate::boundary::refused_by(config, &h.tool, e).is_none() && !crate::local(e)
            })
        })
        .enumerate()
        .map(|(i, mut h)| {
            h.rank = i + 1;
            h.call = name_of(&h.tool, &h.endpoint);
            h
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A destructive endpoint the configuration does not allow is left out of the hits (a call
    /// would be refused `destructive`), one off the allow-list too; the others are named by
    /// their exposed tool (an HTTP endpoint's `TOOL__ENDPOINT` too), ranks renumbered.
    #[test]
    fn search_hits_name_what_the_gateway_serves() {
        let ep = |id: &str, destructive: bool| -> EndpointData {
            serde_json::from_value(json!({
                "id": id, "method": "MCP", "url": "mcp://fs", "destructive": destructive,
                "mcp_tool": id, "parameters": [], "fields": [], "identifiers": [], "group_fields": {}
            }))
            .unwrap()
        };
        let endpoints = [
            ("fs", ep("write_file", true)),
            ("fs", ep("read_file", false)),
            ("web", ep("get_page", false)),
            ("other", ep("x", false)),
        ];
        let hit = |rank: usize, tool: &str, endpoint: &str| Hit {
            rank,
            tool: tool.into(),
            endpoint: endpoint.into(),
            score: 1.0,
            method: "MCP".into(),
            url: String::new(),
            call: Some(endpoint.into()),
            matched: Vec::new(),
            similarity: None,
        };
        let hits = vec![
            hit(1, "fs", "write_file"),
            hit(2, "web", "get_page"),
            hit(3, "other", "x"),
            hit(4, "fs", "read_file"),
        ];
        let config = crate::config::GatewayConfig {
            allow: vec!["fs".into(), "web".into()],
            ..Default::default()
        };
        let served = served_hits(
            hits,
            &config,
            |t, e| {
                endpoints
                    .iter()
                    .find(|(tt, x)| *tt == t && x.id == e)
                    .map(|(_, x)| x)
            },
            |t, e| {
                Some(if t == "web" {
                    format!("{t}__{e}")
                } else {
                    e.to_string()
                })
            },
        );
        let got: Vec<(usize, &str, Option<&str>)> = served
            .iter()
            .map(|h| (h.rank, h.endpoint.as_str(), h.call.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (1, "get_page", Some("web__get_page")),
                (2, "read_file", Some("read_file"))
            ]
        );
    }

    /// The declared bounds are in the input schema: a number's and a text's on the value, a
    /// list's item counts on the list and its items' bounds on `items`.
    #[test]
    fn the_input_schema_shows_the_declared_bounds() {
        let e: EndpointData = serde_json::from_value(json!({
            "id": "search", "method": "GET", "url": "https://x.org/s",
            "parameters": [
                {"name": "limit", "type": "integer", "required": false,
                 "bounds": {"minimum": 1, "maximum": 100}},
                {"name": "q", "type": "string", "required": true,
                 "bounds": {"min_length": 2, "pattern": "^[a-z ]+$"}},
                {"name": "scores", "type": "number[]", "required": false,
                 "bounds": {"exclusive_minimum": 0, "exclusive_maximum": 0.5, "max_items": 3}}
            ],
            "fields": [], "identifiers": [], "group_fields": {}
        }))
        .unwrap();
        assert_eq!(
            input_schema(&e),
            json!({"type": "object", "additionalProperties": false, "required": ["q"], "properties": {
                "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                "q": {"type": "string", "minLength": 2, "pattern": "^[a-z ]+$"},
                "scores": {"type": "array", "maxItems": 3,
                           "items": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.5}}
            }})
        );
    }
}
