//! XML responses (arXiv's Atom feed) read into the JSON shape field paths walk: the root
//! element's content is the document; a child element is a key under its qualified name as
//! written (`entry`, `arxiv:comment`, `opensearch:totalResults`), several children of one name
//! an array in document order; attributes are `@name` keys; an element with text and no
//! attributes or children is its text; otherwise its text is `#text`. Every value is a string
//! (XML has no numbers), so projection decodes it by the declared type. Parsing is quick-xml's.

use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};
use serde_json::{Map, Value};

/// Deepest element nesting read (JSON input has serde_json's limit of 128).
pub const MAX_DEPTH: usize = 256;

/// An XML parse error: message and byte offset.
pub type XmlError = (String, usize);

#[derive(Default)]
struct Node {
    map: Map<String, Value>,
    text: String,
    has_children: bool,
}

impl Node {
    fn start(e: &BytesStart<'_>) -> Result<Node, String> {
        let mut n = Node::default();
        for a in e.attributes() {
            let a = a.map_err(|e| e.to_string())?;
            let key = a.key.as_ref().to_string();
            if key == "xmlns" || key.starts_with("xmlns:") {
                continue;
            }
            let value = a
                .normalized_value(XmlVersion::Implicit1_0)
                .map_err(|e| e.to_string())?
                .into_owned();
            n.map.insert(format!("@{key}"), Value::String(value));
        }
        Ok(n)
    }

    fn finish(self) -> Value {
        let text = self.text.trim();
        if self.map.is_empty() && !self.has_children {
            return Value::String(text.to_string());
        }
        let mut map = self.map;
        if !text.is_empty() {
            map.insert("#text".into(), Value::String(text.to_string()));
        }
        Value::Object(map)
    }
}

fn add(parent: &mut Node, name: String, v: Value) {
    parent.has_children = true;
    match parent.map.get_mut(&name) {
        // Element values are strings or objects, so an array is the list of earlier repeats.
        Some(Value::Array(a)) => a.push(v),
        Some(existing) => {
            let first = existing.take();
            *existing = Value::Array(vec![first, v]);
        }
        None => {
            parent.map.insert(name, v);
        }
    }
}

/// Read an XML document. Errors carry the byte offset of the problem.
pub fn parse(text: &str) -> Result<Value, XmlError> {
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<(String, Node)> = Vec::new();
    let mut root: Option<Value> = None;
    loop {
        let pos = reader.buffer_position() as usize;
        let ev = reader.read_event().map_err(|e| (e.to_string(), pos))?;
        match ev {
            Event::Start(e) => {
                if stack.len() >= MAX_DEPTH {
                    return Err((format!("elements nested deeper than {MAX_DEPTH}"), pos));
                }
                let name = e.name().as_ref().to_string();
                let node = Node::start(&e).map_err(|m| (m, pos))?;
                stack.push((name, node));
            }
            Event::Empty(e) => {
                let name = e.name().as_ref().to_string();
                let v = Node::start(&e).map_err(|m| (m, pos))?.finish();
                match stack.last_mut() {
                    Some((_, parent)) => add(parent, name, v),
                    None => root = Some(v),
                }
            }
            Event::End(_) => {
                let Some((name, node)) = stack.pop() else {
                    return Err(("closing tag without an opening tag".into(), pos));
                };
                let v = node.finish();
                match stack.last_mut() {
                    Some((_, parent)) => add(parent, name, v),
                    None => root = Some(v),
                }
            }
            Event::Text(t) => {
                if let Some((_, n)) = stack.last_mut() {
                    n.text.push_str(&t.xml_content(XmlVersion::Implicit1_0));
                }
            }
            Event::CData(t) => {
                if let Some((_, n)) = stack.last_mut() {
                    n.text.push_str(&t.xml_content(XmlVersion::Implicit1_0));
                }
            }
            Event::GeneralRef(r) => {
                if let Some((_, n)) = stack.last_mut() {
                    if let Ok(Some(c)) = r.resolve_char_ref() {
                        n.text.push(c);
                    } else {
                        let name = r.into_inner();
                        match quick_xml::escape::resolve_predefined_entity(&name) {
                            Some(s) => n.text.push_str(s),
                            None => return Err((format!("unknown entity `&{name};`"), pos)),
                        }
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some((name, _)) = stack.last() {
        return Err((format!("element <{name}> is not closed"), text.len()));
    }
    root.ok_or_else(|| ("no root element".to_string(), 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn atom_shape() {
        let doc = r#"<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <opensearch:totalResults>2</opensearch:totalResults>
  <entry><title>A &amp; B
   on two lines</title><category term="cond-mat" scheme="s"/><category term="physics"/>
    <author><name>X</name></author></entry>
</feed>"#;
        let v = parse(doc).unwrap();
        assert_eq!(
            v,
            json!({"opensearch:totalResults": "2", "entry": {"title": "A & B\n   on two lines",
                "category": [{"@term": "cond-mat", "@scheme": "s"}, {"@term": "physics"}],
                "author": {"name": "X"}}})
        );
        assert!(parse("<feed><entry></feed>").is_err());
        assert_eq!(
            parse("<a>&nope;</a>").unwrap_err().0,
            "unknown entity `&nope;`"
        );
    }
}
