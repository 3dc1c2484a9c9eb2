//! The `body_xml` of an XML request body: one entry per element of the body's schema, in the
//! schema's order, with its OpenAPI `xml` object (`name`, `namespace`, `prefix`, `attribute`,
//! `wrapped`), so that the gateway can write a JSON object given for the body as the XML the
//! schema describes. The root's name is the schema's `xml.name`, else its component name (the
//! last segment of its `$ref`: `#/components/schemas/Pet`, `#/definitions/Pet`); a root with
//! neither gives no entries (the body is then its XML text only).
//!
//! `$ref`s are followed (a sibling `xml` beside a `$ref` wins, as OpenAPI 3.1 allows), `allOf`
//! members add their properties to the same element, a schema met again inside itself stops
//! there, and the walk stops after [`MAX_NODES`] entries or [`MAX_DEPTH`] levels. A property
//! whose name holds `.`, `[` or `]` cannot be told apart in a path and has no entry (the gateway
//! then writes it by its name, after the schema's properties).

use crate::import::refs::{Loc, Resolver};
use crate::model::{Sp, XmlNode};
use serde_json::Value;

/// Most entries of one body.
pub const MAX_NODES: usize = 500;
/// Deepest nesting followed.
pub const MAX_DEPTH: usize = 12;

/// The entries of the XML request body whose schema is at `schema`.
pub(super) fn body_xml(r: &Resolver, schema: &Loc<'_>) -> Vec<Sp<XmlNode>> {
    let mut w = Walk {
        r,
        out: Vec::new(),
        stack: Vec::new(),
    };
    let (resolved, component, xml) = w.resolve(schema.clone());
    let root_name = xml
        .and_then(|x| x.get("name"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or(component);
    if root_name.is_none() {
        return Vec::new();
    }
    w.walk("", resolved, xml, root_name, 0);
    w.out.into_iter().map(Sp::synthetic).collect()
}

struct Walk<'a> {
    r: &'a Resolver,
    out: Vec<XmlNode>,
    /// The schemas being walked (cycle guard).
    stack: Vec<String>,
}

impl<'a> Walk<'a> {
    /// `loc` with its `$ref`s followed; the first reference's last segment (the component
    /// name); the `xml` object that applies (a sibling of the first `$ref`, else the target's).
    fn resolve(&self, loc: Loc<'a>) -> (Loc<'a>, Option<String>, Option<&'a Value>) {
        let mut cur = loc;
        let mut component = None;
        let mut xml = cur.value.get("xml");
        for _ in 0..16 {
            let Some(reference) = cur.value.get("$ref").and_then(Value::as_str) else {
                break;
            };
            if component.is_none() {
                component = reference
                    .rsplit('/')
                    .next()
                    .filter(|s| !s.is_empty() && !s.contains('#'))
                    .map(str::to_string);
            }
            match self.r.follow(&cur, reference) {
                Ok(t) => cur = t,
                Err(_) => break,
            }
            if xml.is_none() {
                xml = cur.value.get("xml");
            }
        }
        (cur, component, xml)
    }

    /// The entry of the schema `s` at `path` (named `name` when given), then its items and
    /// properties.
    fn walk(
        &mut self,
        path: &str,
        s: Loc<'a>,
        xml: Option<&'a Value>,
        name: Option<String>,
        depth: usize,
    ) {
        if self.out.len() >= MAX_NODES || depth > MAX_DEPTH || self.stack.contains(&s.key()) {
            return;
        }
        let text = |k: &str| {
            xml.and_then(|x| x.get(k))
                .and_then(Value::as_str)
                .map(|v| Sp::synthetic(v.to_string()))
        };
        let flag = |k: &str| {
            (xml.and_then(|x| x.get(k)) == Some(&Value::Bool(true))).then(|| Sp::synthetic(true))
        };
        self.out.push(XmlNode {
            path: Sp::synthetic(path.to_string()),
            name: name.map(Sp::synthetic).or_else(|| text("name")),
            namespace: text("namespace"),
            prefix: text("prefix"),
            attribute: flag("attribute"),
            wrapped: flag("wrapped"),
        });
        self.stack.push(s.key());
        self.members(path, &s, depth);
        self.stack.pop();
    }

    /// The items and properties of `s` (and of its `allOf` members) under `path`.
    fn members(&mut self, path: &str, s: &Loc<'a>, depth: usize) {
        if let Some(items) = s.get("items").filter(|i| i.value.is_object()) {
            let (items, component, xml) = self.resolve(items);
            let items_path = format!("{path}[]");
            // The root's items are named as a component would be; a property's by its name.
            let name = if path.is_empty() { component } else { None };
            let name = xml
                .and_then(|x| x.get("name"))
                .and_then(Value::as_str)
                .map(str::to_string)
                .or(name);
            self.walk(&items_path, items, xml, name, depth + 1);
        }
        if let Some(props) = s.get("properties") {
            let doc = &self.r.docs[props.doc];
            let mut keys: Vec<(u32, &String)> = props
                .value
                .as_object()
                .map(|o| {
                    o.keys()
                        .map(|k| {
                            let at = format!("{}/{}", props.pointer, escape(k));
                            (doc.span_of(&at).start, k)
                        })
                        .collect()
                })
                .unwrap_or_default();
            keys.sort();
            for (_, k) in keys {
                if k.is_empty() || k.contains(['.', '[', ']']) {
                    continue;
                }
                let Some(sub) = props.get(k) else { continue };
                let (sub, _, xml) = self.resolve(sub);
                self.walk(&XmlNode::child_path(path, k), sub, xml, None, depth + 1);
            }
        }
        if let Some(Value::Array(all)) = s.value.get("allOf") {
            for i in 0..all.len() {
                let Some(member) = s.get("allOf").and_then(|a| a.get(&i.to_string())) else {
                    continue;
                };
                let (member, _, _) = self.resolve(member);
                if self.stack.contains(&member.key()) {
                    continue;
                }
                self.stack.push(member.key());
                self.members(path, &member, depth + 1);
                self.stack.pop();
            }
        }
    }
}

fn escape(key: &str) -> String {
    crate::import::doc::escape_segment(key)
}
