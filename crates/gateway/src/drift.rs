//! Drift: how an MCP upstream's `tools/list` differs from the declarations the artifact holds,
//! classified with `schemarouter diff`'s codes and classes (breaking, dangerous, safe) under
//! its entity paths (`tool/<id>/endpoint/<id>/parameter/<name>`), so a warning reads like the
//! diff a re-import would show. Compared: which tools are served, each served tool's input
//! schema (parameters: present, required, type) and, when it has one, its output schema's
//! top-level properties against the declared response fields.

use schemarouter_core::artifact::{EndpointData, ParamData};
use serde_json::Value;

/// One difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drift {
    /// The `schemarouter diff` code (`endpoint-removed`, `parameter-added-required`, ...).
    pub code: &'static str,
    /// The entity path, as `diff` names it.
    pub entity: String,
}

/// Every code [`compare`] emits, with its class as `schemarouter diff` classifies it (a test of
/// the CLI checks both against the diff's own table).
pub const CODES: &[(&str, &str)] = &[
    ("endpoint-removed", "breaking"),
    ("endpoint-added", "safe"),
    ("parameter-removed", "breaking"),
    ("parameter-added-required", "breaking"),
    ("parameter-added", "safe"),
    ("parameter-made-required", "breaking"),
    ("parameter-made-optional", "safe"),
    ("parameter-type-narrowed", "breaking"),
    ("parameter-type-widened", "safe"),
    ("parameter-type-changed", "breaking"),
    ("field-removed", "breaking"),
];

/// The class of `code` (from [`CODES`]; `breaking` for a code it lacks, as `diff` does).
pub fn class_of(code: &str) -> &'static str {
    CODES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or("breaking", |(_, k)| k)
}

/// The declared type of a served JSON Schema (`integer`, `number`, `string`, `boolean`,
/// `object`, `T[]`), if it has one type.
fn served_type(s: &Value) -> Option<String> {
    let t = s.get("type")?.as_str()?;
    Some(match t {
        "array" => format!("{}[]", served_type(s.get("items")?)?),
        other => other.to_string(),
    })
}

fn parameter_drift(tool: &str, e: &EndpointData, input: &Value, out: &mut Vec<Drift>) {
    let entity = |p: &str| format!("tool/{tool}/endpoint/{}/parameter/{p}", e.id);
    let props = input.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = input
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let declared = |name: &str| e.parameters.iter().find(|p| p.name == name);
    for p in e.parameters.iter().filter(|p| !p.auth) {
        let Some(s) = props.and_then(|m| m.get(&p.name)) else {
            out.push(Drift {
                code: "parameter-removed",
                entity: entity(&p.name),
            });
            continue;
        };
        let now_required = required.contains(&p.name.as_str());
        if now_required && !p.required {
            out.push(Drift {
                code: "parameter-made-required",
                entity: entity(&p.name),
            });
        } else if !now_required && p.required {
            out.push(Drift {
                code: "parameter-made-optional",
                entity: entity(&p.name),
            });
        }
        if let Some(code) = type_change(p, s) {
            out.push(Drift {
                code,
                entity: entity(&p.name),
            });
        }
    }
    for name in props.into_iter().flat_map(|m| m.keys()) {
        if declared(name).is_none() {
            out.push(Drift {
                code: if required.contains(&name.as_str()) {
                    "parameter-added-required"
                } else {
                    "parameter-added"
                },
                entity: entity(name),
            });
        }
    }
}

/// The code of a parameter type change, if the served type differs from the declared one.
fn type_change(p: &ParamData, served: &Value) -> Option<&'static str> {
    let now = served_type(served)?;
    let was = p.ty.as_str();
    if was == now || was == "any" {
        return None;
    }
    Some(match (was, now.as_str()) {
        ("integer", "number") => "parameter-type-widened",
        ("number", "integer") => "parameter-type-narrowed",
        _ => "parameter-type-changed",
    })
}

fn field_drift(tool: &str, e: &EndpointData, output: &Value, out: &mut Vec<Drift>) {
    let Some(props) = output.get("properties").and_then(Value::as_object) else {
        return;
    };
    if e.records.is_some() {
        return;
    }
    for f in &e.fields {
        let top = f.name.split(['.', '[']).next().unwrap_or(&f.name);
        if !props.contains_key(top) {
            out.push(Drift {
                code: "field-removed",
                entity: format!("tool/{tool}/endpoint/{}/field/{}", e.id, f.name),
            });
        }
    }
}

/// The drift of `tool`'s declared MCP endpoints from `served` (the `tools/list` result's
/// tools as JSON: `name`, `inputSchema`, optional `outputSchema`), in entity order.
pub fn compare(tool: &str, declared: &[EndpointData], served: &[Value]) -> Vec<Drift> {
    let name_of = |t: &Value| t.get("name").and_then(Value::as_str).map(str::to_string);
    let mut out = Vec::new();
    for e in declared {
        let wire = e.mcp_tool.as_deref().unwrap_or(&e.id);
        match served.iter().find(|t| name_of(t).as_deref() == Some(wire)) {
            None => out.push(Drift {
                code: "endpoint-removed",
                entity: format!("tool/{tool}/endpoint/{}", e.id),
            }),
            Some(t) => {
                if let Some(input) = t.get("inputSchema") {
                    parameter_drift(tool, e, input, &mut out);
                }
                if let Some(output) = t.get("outputSchema") {
                    field_drift(tool, e, output, &mut out);
                }
            }
        }
    }
    for t in served {
        let Some(name) = name_of(t) else { continue };
        if !declared
            .iter()
            .any(|e| e.mcp_tool.as_deref().unwrap_or(&e.id) == name)
        {
            out.push(Drift {
                code: "endpoint-added",
                entity: format!("tool/{tool}/endpoint/{name}"),
            });
        }
    }
    out.sort_by(|a, b| (&a.entity, a.code).cmp(&(&b.entity, b.code)));
    out
}

/// The warning for `drift` of upstream `tool` (`None` when there is none): each change as
/// `class code entity`, breaking first.
pub fn warning(tool: &str, drift: &[Drift]) -> Option<String> {
    if drift.is_empty() {
        return None;
    }
    let rank = |c: &str| match class_of(c) {
        "breaking" => 0,
        "dangerous" => 1,
        _ => 2,
    };
    let mut d: Vec<&Drift> = drift.iter().collect();
    d.sort_by_key(|x| rank(x.code));
    let lines: Vec<String> = d
        .iter()
        .map(|x| format!("{} {} {}", class_of(x.code), x.code, x.entity))
        .collect();
    Some(format!(
        "upstream `{tool}`: tools/list differs from the declarations ({} change(s), classified as `schemarouter diff` does): {}; import the server again and review it with `schemarouter diff`",
        drift.len(),
        lines.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn endpoint(id: &str, params: Value, fields: &[&str]) -> EndpointData {
        let fields: Vec<Value> = fields
            .iter()
            .map(|f| json!({"name": f, "type": "string", "concepts": [], "groups": [], "qualifiers": {}, "concept_factors": {}}))
            .collect();
        let mut e: EndpointData = serde_json::from_value(json!({
            "id": id, "method": "MCP", "url": format!("mcp://t/{id}"), "parameters": params,
            "fields": fields, "identifiers": [], "group_fields": {}
        }))
        .unwrap();
        e.mcp_tool = Some(id.to_string());
        e
    }

    #[test]
    fn changes_get_the_diff_codes() {
        let declared = vec![
            endpoint(
                "echo",
                json!([
                    {"name": "text", "type": "string", "required": true},
                    {"name": "count", "type": "integer", "required": false},
                    {"name": "gone", "type": "string", "required": false}
                ]),
                &["text", "length"],
            ),
            endpoint("vanished", json!([]), &["result"]),
        ];
        let served = vec![
            json!({"name": "echo", "inputSchema": {"type": "object", "properties": {
                "text": {"type": "string"}, "count": {"type": "number"}, "loud": {"type": "boolean"}},
                "required": ["count", "loud"]},
                "outputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}),
            json!({"name": "fresh", "inputSchema": {"type": "object"}}),
        ];
        let d: Vec<(&str, String)> = compare("t", &declared, &served)
            .into_iter()
            .map(|d| (d.code, d.entity))
            .collect();
        let e = |s: &str| format!("tool/t/endpoint/{s}");
        assert_eq!(
            d,
            vec![
                ("field-removed", e("echo/field/length")),
                ("parameter-made-required", e("echo/parameter/count")),
                ("parameter-type-widened", e("echo/parameter/count")),
                ("parameter-removed", e("echo/parameter/gone")),
                ("parameter-added-required", e("echo/parameter/loud")),
                ("parameter-made-optional", e("echo/parameter/text")),
                ("endpoint-added", e("fresh")),
                ("endpoint-removed", e("vanished")),
            ]
        );
        assert_eq!(warning("t", &[]), None);
        let w = warning("t", &compare("t", &declared[1..], &served[1..])).unwrap();
        assert_eq!(
            w,
            "upstream `t`: tools/list differs from the declarations (2 change(s), classified as `schemarouter diff` does): breaking endpoint-removed tool/t/endpoint/vanished; safe endpoint-added tool/t/endpoint/fresh; import the server again and review it with `schemarouter diff`"
        );
    }
}
