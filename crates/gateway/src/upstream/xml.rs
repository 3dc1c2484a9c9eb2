//! XML request bodies written from a JSON argument, by the endpoint's `body_xml` (the OpenAPI
//! `xml` objects of the request body's schema, recorded by the import), with quick-xml's writer.
//!
//! The rules are OpenAPI's (3.1.1 "XML Object" and its examples; Swagger 2.0 has the same):
//!
//! - the root element is named by the root entry (the schema's `xml.name`, else its component
//!   name); a property is an element named by its `xml.name`, else by the property's name;
//! - `attribute: true`: a primitive property is an attribute of its parent element instead;
//! - a list is its items repeated under the parent, each named by the items' `xml.name`, else by
//!   the property's name (a list's own `xml.name` is ignored then); `wrapped: true` puts them in
//!   one element named by the list's `xml.name`, else the property's name; a list given for the
//!   root is wrapped in the root element;
//! - `namespace` declares `xmlns` (or `xmlns:prefix` with `prefix`) on the element, unless the
//!   same declaration is in scope already; `prefix` writes `prefix:name`;
//! - children are written in the schema's order (the order of `body_xml`), then properties the
//!   schema does not name in name order (a map's keys); `null` leaves the element out; a
//!   number or boolean is its JSON text.
//!
//! Refused with the reason (before any upstream call is made): no root entry, an object or list
//! declared as an attribute, a list directly in a list, a name that is no XML name, and text
//! holding characters XML 1.0 cannot carry.

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use schemarouter_core::artifact::XmlNodeData;
use schemarouter_core::model::XmlNode;
use serde_json::Value;
use std::collections::BTreeMap;

pub use schemarouter_core::model::tool::xml_media;

/// The XML document (with its declaration, UTF-8) of JSON value `v` by the entries `nodes`.
///
/// Errors: see the module documentation.
pub fn write(nodes: &[XmlNodeData], v: &Value) -> Result<Vec<u8>, String> {
    let by_path: BTreeMap<&str, &XmlNodeData> =
        nodes.iter().map(|n| (n.path.as_str(), n)).collect();
    let root = by_path
        .get("")
        .and_then(|n| n.name.as_deref())
        .ok_or("the request body's schema names no root element (`body_xml` has no entry with an empty path and a name)")?;
    let mut w = XmlWriter {
        nodes,
        by_path,
        out: Writer::new(Vec::new()),
        scope: Vec::new(),
    };
    w.emit(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    match v {
        Value::Array(items) => {
            let item = w.node("[]").and_then(|n| n.name.clone());
            let root_node = w.node("");
            w.open(root, root_node, &Value::Object(Default::default()), "")?;
            for i in items {
                w.element("[]", item.as_deref().unwrap_or(root), i)?;
            }
            w.close(root, root_node)?;
        }
        Value::Object(_) => w.element("", root, v)?,
        _ => return Err("an XML body is given as its text (a string) or as a JSON object".into()),
    }
    Ok(w.out.into_inner())
}

struct XmlWriter<'a> {
    nodes: &'a [XmlNodeData],
    by_path: BTreeMap<&'a str, &'a XmlNodeData>,
    out: Writer<Vec<u8>>,
    /// The namespace declarations of each open element, outermost first: (prefix or "", URI).
    scope: Vec<Vec<(String, String)>>,
}

impl<'a> XmlWriter<'a> {
    fn node(&self, path: &str) -> Option<&'a XmlNodeData> {
        self.by_path.get(path).copied()
    }

    fn emit(&mut self, e: Event<'_>) -> Result<(), String> {
        self.out
            .write_event(e)
            .map_err(|e| format!("cannot write the XML body: {e}"))
    }

    /// The written name of `name` under `node`'s prefix.
    fn qualified(node: Option<&XmlNodeData>, name: &str) -> Result<String, String> {
        check_name(name)?;
        Ok(match node.and_then(|n| n.prefix.as_deref()) {
            Some(p) if !p.is_empty() => {
                check_name(p)?;
                format!("{p}:{name}")
            }
            _ => name.to_string(),
        })
    }

    /// The value at `path`, as the element `name` (a list: its items, wrapped or not).
    fn element(&mut self, path: &str, name: &str, v: &Value) -> Result<(), String> {
        let node = self.node(path);
        match v {
            Value::Null => Ok(()),
            Value::Array(items) => {
                let items_path = format!("{path}[]");
                let item_name = self
                    .node(&items_path)
                    .and_then(|n| n.name.clone())
                    .unwrap_or_else(|| name.to_string());
                let wrapped = node.is_some_and(|n| n.wrapped);
                if wrapped {
                    let wrapper = node.and_then(|n| n.name.as_deref()).unwrap_or(name);
                    self.open(wrapper, node, &Value::Object(Default::default()), path)?;
                }
                for i in items {
                    if i.is_array() {
                        return Err(format!(
                            "`{}` holds a list inside a list, which has no XML form",
                            shown(path)
                        ));
                    }
                    self.element(&items_path, &item_name, i)?;
                }
                if wrapped {
                    let wrapper = node.and_then(|n| n.name.as_deref()).unwrap_or(name);
                    self.close(wrapper, node)?;
                }
                Ok(())
            }
            Value::Object(_) => {
                let name = node.and_then(|n| n.name.as_deref()).unwrap_or(name);
                self.open(name, node, v, path)?;
                self.children(path, v)?;
                self.close(name, node)
            }
            scalar => {
                let name = node.and_then(|n| n.name.as_deref()).unwrap_or(name);
                let text = text(scalar, path)?;
                self.open(name, node, &Value::Object(Default::default()), path)?;
                self.emit(Event::Text(BytesText::new(&text)))?;
                self.close(name, node)
            }
        }
    }

    /// The start tag of `name` with its namespace declaration and the attributes among `v`'s
    /// properties (`v` an object at `path`).
    fn open(
        &mut self,
        name: &str,
        node: Option<&XmlNodeData>,
        v: &Value,
        path: &str,
    ) -> Result<(), String> {
        let mut start = BytesStart::new(Self::qualified(node, name)?);
        let mut declared: Vec<(String, String)> = Vec::new();
        if let Some(n) = node {
            self.declare(n, &mut declared)?;
        }
        let mut attributes: Vec<(String, String)> = Vec::new();
        if let Value::Object(o) = v {
            for (key, child) in self.ordered(path, o) {
                let child_path = XmlNode::child_path(path, key);
                let Some(cn) = self.node(&child_path).filter(|n| n.attribute) else {
                    continue;
                };
                if child.is_null() {
                    continue;
                }
                if child.is_object() || child.is_array() {
                    return Err(format!(
                        "`{}` is declared an XML attribute and takes a string, number or boolean",
                        shown(&child_path)
                    ));
                }
                self.declare(cn, &mut declared)?;
                let attr_name = cn.name.as_deref().unwrap_or(key);
                attributes.push((
                    Self::qualified(Some(cn), attr_name)?,
                    text(child, &child_path)?,
                ));
            }
        }
        for (prefix, uri) in &declared {
            let key = if prefix.is_empty() {
                "xmlns".to_string()
            } else {
                format!("xmlns:{prefix}")
            };
            start.push_attribute((key.as_str(), uri.as_str()));
        }
        for (k, val) in &attributes {
            start.push_attribute((k.as_str(), val.as_str()));
        }
        self.scope.push(declared);
        self.emit(Event::Start(start))
    }

    /// Add `n`'s namespace declaration to `declared` unless it is in scope already.
    fn declare(&self, n: &XmlNodeData, declared: &mut Vec<(String, String)>) -> Result<(), String> {
        let Some(uri) = n.namespace.as_deref() else {
            return Ok(());
        };
        let prefix = n.prefix.clone().unwrap_or_default();
        if !prefix.is_empty() {
            check_name(&prefix)?;
        }
        let in_scope = self
            .scope
            .iter()
            .rev()
            .flatten()
            .find(|(p, _)| *p == prefix)
            .is_some_and(|(_, u)| u == uri);
        if !in_scope && !declared.iter().any(|(p, _)| *p == prefix) {
            if uri.chars().any(not_xml_char) {
                return Err(format!(
                    "the namespace `{uri}` holds a character XML cannot carry"
                ));
            }
            declared.push((prefix, uri.to_string()));
        }
        Ok(())
    }

    fn close(&mut self, name: &str, node: Option<&XmlNodeData>) -> Result<(), String> {
        self.scope.pop();
        self.emit(Event::End(BytesEnd::new(Self::qualified(node, name)?)))
    }

    /// The element children of the object `o` at `path`: every property that is not an
    /// attribute, in the schema's order, then the rest in name order.
    fn children(&mut self, path: &str, v: &Value) -> Result<(), String> {
        let Value::Object(o) = v else { return Ok(()) };
        for (key, child) in self.ordered(path, o) {
            let child_path = XmlNode::child_path(path, key);
            if self.node(&child_path).is_some_and(|n| n.attribute) {
                continue;
            }
            self.element(&child_path, key, child)?;
        }
        Ok(())
    }

    /// The properties of `o` (an object at `path`) in the schema's order, then the others in
    /// name order.
    fn ordered<'v>(
        &self,
        path: &str,
        o: &'v serde_json::Map<String, Value>,
    ) -> Vec<(&'v str, &'v Value)> {
        let mut out: Vec<(&str, &Value)> = Vec::with_capacity(o.len());
        for n in self.nodes {
            if let Some((k, v)) = o
                .iter()
                .find(|(k, _)| XmlNode::child_path(path, k) == n.path)
                && !out.iter().any(|(x, _)| *x == k.as_str())
            {
                out.push((k.as_str(), v));
            }
        }
        for (k, v) in o {
            if !out.iter().any(|(x, _)| *x == k.as_str()) {
                out.push((k.as_str(), v));
            }
        }
        out
    }
}

fn shown(path: &str) -> &str {
    if path.is_empty() { "the root" } else { path }
}

/// The text of a primitive (JSON's for a number or boolean).
fn text(v: &Value, path: &str) -> Result<String, String> {
    let t = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if t.chars().any(not_xml_char) {
        return Err(format!(
            "`{}` holds a character XML 1.0 cannot carry (a control character)",
            shown(path)
        ));
    }
    Ok(t)
}

/// A character outside XML 1.0's `Char` production.
fn not_xml_char(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// An XML name (XML 1.0 `Name`, without `:`, which only a prefix separates): a letter or `_`
/// first, then letters, digits, `-`, `.`, `_`.
fn check_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let ok = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | '\u{b7}'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is no XML name (a letter or `_` first, then letters, digits, `-`, `.`, `_`)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn n(path: &str, f: impl FnOnce(&mut XmlNodeData)) -> XmlNodeData {
        let mut x = XmlNodeData {
            path: path.into(),
            name: None,
            namespace: None,
            prefix: None,
            attribute: false,
            wrapped: false,
        };
        f(&mut x);
        x
    }

    fn xml(nodes: &[XmlNodeData], v: Value) -> String {
        String::from_utf8(write(nodes, &v).unwrap())
            .unwrap()
            .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
            .to_string()
    }

    /// The Swagger petstore's `Pet`: an attribute, a renamed nested object, a wrapped list
    /// with named items, an unwrapped list of objects named by the items' schema, and the
    /// schema's order rather than the JSON's name order.
    #[test]
    fn the_petstore_pet() {
        let nodes = [
            n("", |x| x.name = Some("Pet".into())),
            n("id", |x| x.attribute = true),
            n("category", |x| x.name = Some("Category".into())),
            n("category.id", |_| {}),
            n("category.name", |_| {}),
            n("name", |_| {}),
            n("photoUrls", |x| x.wrapped = true),
            n("photoUrls[]", |x| x.name = Some("photoUrl".into())),
            n("tags", |_| {}),
            n("tags[]", |x| x.name = Some("tag".into())),
            n("tags[].name", |_| {}),
            n("status", |_| {}),
        ];
        let got = xml(
            &nodes,
            json!({"status": "available", "name": "Rex & <Co>", "id": 7,
                "category": {"name": "dogs", "id": 1},
                "photoUrls": ["a.png", "b.png"], "tags": [{"name": "x"}, {"name": "y"}],
                "extra": true, "gone": null}),
        );
        assert_eq!(
            got,
            "<Pet id=\"7\"><Category><id>1</id><name>dogs</name></Category><name>Rex &amp; &lt;Co&gt;</name>\
             <photoUrls><photoUrl>a.png</photoUrl><photoUrl>b.png</photoUrl></photoUrls>\
             <tag><name>x</name></tag><tag><name>y</name></tag><status>available</status><extra>true</extra></Pet>"
        );
    }

    /// Namespaces and prefixes are declared once, where they are first used; a list's own
    /// name is used only when wrapped; a list given for the root is wrapped in the root.
    #[test]
    fn namespaces_prefixes_and_root_lists() {
        let nodes = [
            n("", |x| {
                x.name = Some("order".into());
                x.namespace = Some("urn:o".into());
            }),
            n("sku", |x| {
                x.prefix = Some("p".into());
                x.namespace = Some("urn:p".into());
                x.attribute = true;
            }),
            n("lines", |x| x.name = Some("ignored".into())),
            n("lines[]", |x| {
                x.name = Some("line".into());
                x.prefix = Some("p".into());
                x.namespace = Some("urn:p".into());
            }),
            n("note", |x| x.namespace = Some("urn:o".into())),
        ];
        assert_eq!(
            xml(&nodes, json!({"sku": "A1", "lines": [1, 2], "note": "n"})),
            "<order xmlns=\"urn:o\" xmlns:p=\"urn:p\" p:sku=\"A1\"><p:line>1</p:line><p:line>2</p:line>\
             <note>n</note></order>"
        );
        let list = [
            n("", |x| x.name = Some("Users".into())),
            n("[]", |x| x.name = Some("User".into())),
        ];
        assert_eq!(
            xml(&list, json!([{"id": 1}, {"id": 2}])),
            "<Users><User><id>1</id></User><User><id>2</id></User></Users>"
        );
    }

    #[test]
    fn what_has_no_xml_form_is_refused() {
        let nodes = [
            n("", |x| x.name = Some("a".into())),
            n("b", |x| x.attribute = true),
        ];
        let err = |v: Value| write(&nodes, &v).unwrap_err();
        assert_eq!(
            err(json!({"b": {"c": 1}})),
            "`b` is declared an XML attribute and takes a string, number or boolean"
        );
        assert_eq!(
            err(json!({"1x": 1})),
            "`1x` is no XML name (a letter or `_` first, then letters, digits, `-`, `.`, `_`)"
        );
        assert_eq!(
            err(json!({"c": [[1]]})),
            "`c` holds a list inside a list, which has no XML form"
        );
        assert_eq!(
            err(json!({"c": "\u{1}"})),
            "`c` holds a character XML 1.0 cannot carry (a control character)"
        );
        assert_eq!(
            write(&nodes[1..], &json!({})).unwrap_err(),
            "the request body's schema names no root element (`body_xml` has no entry with an empty path and a name)"
        );
        assert!(xml_media("application/atom+xml; charset=utf-8") && xml_media("text/xml"));
        assert!(!xml_media("application/json"));
    }
}
