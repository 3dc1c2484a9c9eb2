//! Every missing required key of a declaration file at once.
//!
//! serde's derive stops at the first missing key, so a file missing `title`, `domain` and
//! `endpoints` would take three runs to fix. When the typed read reports a missing key, the
//! loader walks the node tree against the declaration's JSON Schema (the one
//! `schemarouter schema tool|intent|alias` prints, generated from the same Rust types) and
//! reports each missing required key of each map, in source order.

use super::node::{Node, NodeKind};
use crate::model::FileKind;
use crate::source::Span;
use serde_json::Value;

/// One missing required key: the map that lacks it (its span) and the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingKey {
    /// Span of the map node that should hold the key.
    pub map: Span,
    /// The key's name.
    pub key: String,
}

/// The missing required keys of a file of `kind` whose node tree is `node`, outermost first and
/// in source order. Config files are not covered (all their keys are optional); they give an
/// empty list.
pub fn missing_keys(node: &Node, kind: FileKind) -> Vec<MissingKey> {
    if kind == FileKind::Config {
        return Vec::new();
    }
    let schema: Value =
        serde_json::from_str(&crate::model::json_schema(kind)).unwrap_or(Value::Null);
    let mut out = Vec::new();
    walk(node, &schema, &schema, &mut out);
    out
}

/// `s` with a local `$ref` (`#/$defs/Name`) followed.
fn resolve<'a>(s: &'a Value, root: &'a Value) -> &'a Value {
    let mut s = s;
    // References in these schemas are one level deep; the bound guards against cycles.
    for _ in 0..8 {
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) => match r.strip_prefix("#/").map(|p| root.pointer(&format!("/{p}"))) {
                Some(Some(target)) => s = target,
                _ => return s,
            },
            None => return s,
        }
    }
    s
}

/// The alternative of `s` (itself, or one branch of `anyOf` / `oneOf`) that describes a node of
/// this shape: one with `properties` or `additionalProperties` for a map, `items` for a list.
fn shaped<'a>(node: &Node, s: &'a Value, root: &'a Value) -> Option<&'a Value> {
    let s = resolve(s, root);
    let fits = |c: &Value| match &node.kind {
        NodeKind::Map(_) => {
            c.get("properties").is_some() || c.get("additionalProperties").is_some()
        }
        NodeKind::Seq(_) => c.get("items").is_some(),
        _ => false,
    };
    if fits(s) {
        return Some(s);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(alts) = s.get(key).and_then(Value::as_array) {
            for alt in alts {
                if let Some(found) = shaped(node, alt, root) {
                    return Some(found);
                }
            }
        }
    }
    None
}

fn walk(node: &Node, s: &Value, root: &Value, out: &mut Vec<MissingKey>) {
    let Some(s) = shaped(node, s, root) else {
        return;
    };
    match &node.kind {
        NodeKind::Map(entries) => {
            if let Some(required) = s.get("required").and_then(Value::as_array) {
                for key in required.iter().filter_map(Value::as_str) {
                    if !entries.iter().any(|(k, _)| k.text == key) {
                        out.push(MissingKey {
                            map: node.span,
                            key: key.to_string(),
                        });
                    }
                }
            }
            let props = s.get("properties").and_then(Value::as_object);
            let extra = s.get("additionalProperties").filter(|v| v.is_object());
            for (k, v) in entries {
                if let Some(child) = props.and_then(|p| p.get(&k.text)).or(extra) {
                    walk(v, child, root, out);
                }
            }
        }
        NodeKind::Seq(items) => {
            if let Some(item) = s.get("items") {
                for v in items {
                    walk(v, item, root, out);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::config::Limits;
    use crate::source::Format;

    fn keys(text: &str, kind: FileKind) -> Vec<String> {
        let node = super::super::parse_text(text, Format::Yaml, &Limits::default()).unwrap();
        missing_keys(&node, kind)
            .into_iter()
            .map(|m| format!("{}..{} {}", m.map.start, m.map.end, m.key))
            .collect()
    }

    #[test]
    fn every_missing_key_of_a_tool_in_source_order() {
        let text = "id: x\nendpoints:\n  - id: e\n    parameters:\n      - name: q\n    fields:\n      - type: number\n";
        let found = keys(text, FileKind::Tool);
        let got: Vec<&str> = found.iter().map(|s| s.split_once(' ').unwrap().1).collect();
        assert_eq!(got, ["title", "domain", "method", "url", "type", "name"]);
    }

    #[test]
    fn a_complete_file_has_none_and_config_is_not_covered() {
        let text = "id: x\ntitle: X\ndomain: d\nendpoints:\n  - id: e\n    method: GET\n    url: https://example.org/x\n";
        assert_eq!(keys(text, FileKind::Tool), Vec::<String>::new());
        assert_eq!(keys("a: 1\n", FileKind::Config), Vec::<String>::new());
    }

    #[test]
    fn intents_and_aliases() {
        let text = "domains:\n  - description: no id\nintents:\n  - id: i\n";
        let got: Vec<String> = keys(text, FileKind::Intent)
            .into_iter()
            .map(|s| s.split_once(' ').unwrap().1.to_string())
            .collect();
        assert_eq!(got, ["id", "description", "domains", "required_groups"]);
    }
}
