//! The previous YAML front-end, kept only as the reference the event builder ([`super::yaml`])
//! is tested against: serde-saphyr parses (YAML 1.2 core schema with strict booleans, duplicate
//! keys rejected, merge keys expanded, alias and depth budgets) into a spanned [`Node`] tree.

use super::LoadError;
use super::node::{Key, Node, NodeKind};
use super::yaml::{clean_message, find_document_marker, flow_extent, is_limit_message, widen};
use crate::model::config::Limits;
use crate::source::Span;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;
use std::fmt;

/// The raw serde-saphyr view: a value with its locations.
struct YNode(Spanned<YValue>);

enum YValue {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<YNode>),
    Map(Vec<(YNode, YNode)>),
}

impl<'de> Deserialize<'de> for YNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(YNode(Spanned::<YValue>::deserialize(d)?))
    }
}

impl<'de> Deserialize<'de> for YValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = YValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any YAML value")
            }
            fn visit_unit<E>(self) -> Result<YValue, E> {
                Ok(YValue::Null)
            }
            fn visit_none<E>(self) -> Result<YValue, E> {
                Ok(YValue::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<YValue, D::Error> {
                YValue::deserialize(d)
            }
            fn visit_bool<E>(self, v: bool) -> Result<YValue, E> {
                Ok(YValue::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<YValue, E> {
                Ok(YValue::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<YValue, E> {
                Ok(YValue::UInt(v))
            }
            fn visit_i128<E>(self, v: i128) -> Result<YValue, E> {
                Ok(YValue::Float(v as f64))
            }
            fn visit_u128<E>(self, v: u128) -> Result<YValue, E> {
                Ok(YValue::Float(v as f64))
            }
            fn visit_f64<E>(self, v: f64) -> Result<YValue, E> {
                Ok(YValue::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<YValue, E> {
                Ok(YValue::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<YValue, E> {
                Ok(YValue::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<YValue, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element()? {
                    v.push(x);
                }
                Ok(YValue::Seq(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<YValue, A::Error> {
                let mut v = Vec::new();
                while let Some(entry) = a.next_entry()? {
                    v.push(entry);
                }
                Ok(YValue::Map(v))
            }
        }
        d.deserialize_any(V)
    }
}

fn span_of(loc: &serde_saphyr::Location, text: &str) -> Span {
    let sp = loc.span();
    match (sp.byte_offset(), sp.byte_len()) {
        (Some(o), Some(l)) => Span::new(o as usize, (o + l) as usize),
        _ => {
            // Fall back to line/column (1-based, characters).
            let line = loc.line() as usize;
            let col = loc.column() as usize;
            let start = offset_of_line_col(text, line, col);
            Span::new(start, start)
        }
    }
}

fn offset_of_line_col(text: &str, line: usize, col: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return offset
                + l.char_indices()
                    .nth(col.saturating_sub(1))
                    .map(|(b, _)| b)
                    .unwrap_or(l.len());
        }
        offset += l.len();
    }
    text.len()
}

fn convert(n: YNode, text: &str) -> Node {
    let span = span_of(&n.0.referenced, text);
    let raw = || {
        let d = span_of(&n.0.defined, text);
        text.get(d.start as usize..d.end as usize)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let kind = match n.0.value {
        YValue::Null => NodeKind::Null,
        YValue::Bool(b) => NodeKind::Bool(b),
        YValue::Int(i) => NodeKind::Int(i, raw()),
        YValue::UInt(u) => match i64::try_from(u) {
            Ok(i) => NodeKind::Int(i, raw()),
            Err(_) => NodeKind::Float(u as f64, raw()),
        },
        YValue::Float(f) => {
            let r = raw();
            // Whole numbers written without a fraction or exponent (`007`) are integers.
            match r.parse::<i64>() {
                Ok(i) if !r.is_empty() => NodeKind::Int(i, r),
                _ => NodeKind::Float(f, r),
            }
        }
        YValue::Str(s) => NodeKind::Str(s),
        YValue::Seq(items) => NodeKind::Seq(items.into_iter().map(|i| convert(i, text)).collect()),
        YValue::Map(entries) => NodeKind::Map(
            entries
                .into_iter()
                .map(|(k, v)| {
                    let kspan = span_of(&k.0.referenced, text);
                    let string = matches!(k.0.value, YValue::Str(_));
                    let ktext = match k.0.value {
                        YValue::Str(s) => s,
                        YValue::Null => "null".to_string(),
                        YValue::Bool(b) => b.to_string(),
                        YValue::Int(i) => i.to_string(),
                        YValue::UInt(u) => u.to_string(),
                        YValue::Float(_) => text
                            .get(kspan.start as usize..kspan.end as usize)
                            .unwrap_or("")
                            .to_string(),
                        YValue::Seq(_) | YValue::Map(_) => "<complex key>".to_string(),
                    };
                    (
                        Key {
                            text: ktext,
                            span: kspan,
                            string,
                        },
                        convert(v, text),
                    )
                })
                .collect(),
        ),
    };
    let span = flow_extent(span, &kind, text);
    Node { kind, span }
}

/// Parser options: YAML 1.2 core schema (strict booleans, no underscores in numbers), and
/// budgets derived from the project's `[limits]` so that a file within `max-file-bytes` is never
/// refused by a hidden budget; alias expansion is bounded by `max-aliases` and the replay limits.
fn options(limits: &Limits) -> serde_saphyr::Options {
    let max_aliases = limits.max_aliases.min(usize::MAX as u64) as usize;
    let bytes = limits.max_file_bytes.min(usize::MAX as u64 / 4) as usize;
    serde_saphyr::options! {
        strict_booleans: true,
        underscored_numbers_as_strings: true,
        budget: serde_saphyr::budget! {
            max_aliases: max_aliases,
            max_documents: 16,
            // Every node takes at least one byte of text; events are a few per node.
            max_nodes: bytes.max(250_000),
            max_events: bytes.saturating_mul(4).max(1_000_000),
            max_total_scalar_bytes: bytes.max(1 << 20),
            enforce_alias_anchor_ratio: false,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 200_000,
            max_replay_stack_depth: 32,
            max_alias_expansions_per_anchor: max_aliases,
        },
    }
}

/// Parse YAML text (one document) into a node tree.
pub fn parse(text: &str, limits: &Limits) -> Result<Node, LoadError> {
    let docs: Result<Vec<YNode>, _> =
        serde_saphyr::from_multiple_with_options(text, options(limits));
    match docs {
        Ok(docs) => {
            let mut docs = docs.into_iter();
            let Some(first) = docs.next() else {
                return Err(super::empty_error(text, '#'));
            };
            if let Some(second) = docs.next() {
                let span = span_of(&second.0.referenced, text);
                let marker = find_document_marker(text, span.start as usize);
                return Err(LoadError::MultipleDocuments { span: marker });
            }
            let node = convert(first, text);
            if node.kind == NodeKind::Null {
                if !node.span.is_empty() {
                    return Err(super::null_error(text, node.span));
                }
                return Err(super::empty_error(text, '#'));
            }
            Ok(node)
        }
        Err(e) => {
            let span = e.location().map(|l| span_of(&l, text)).unwrap_or_default();
            let span = if span.is_empty() {
                widen(text, span.start as usize)
            } else {
                span
            };
            match e.without_snippet() {
                serde_saphyr::Error::DuplicateMappingKey { key, .. } => {
                    Err(LoadError::DuplicateKey {
                        key: key.clone().unwrap_or_else(|| "?".to_string()),
                        span: key_span(text, span),
                        first: None,
                    })
                }
                serde_saphyr::Error::MultipleDocuments { .. } => {
                    Err(LoadError::MultipleDocuments { span })
                }
                serde_saphyr::Error::Budget { .. }
                | serde_saphyr::Error::AliasReplayLimitExceeded { .. }
                | serde_saphyr::Error::AliasExpansionLimitExceeded { .. }
                | serde_saphyr::Error::AliasReplayStackDepthExceeded { .. }
                | serde_saphyr::Error::AliasReplayCounterOverflow { .. } => Err(LoadError::Limit {
                    message: clean_message(&e),
                    span,
                    setting: None,
                }),
                _ => {
                    let message = clean_message(&e);
                    if is_limit_message(&message) {
                        Err(LoadError::Limit {
                            message,
                            span,
                            setting: None,
                        })
                    } else {
                        Err(LoadError::Syntax { message, span })
                    }
                }
            }
        }
    }
}

/// The span of the key text starting at `span.start` (up to the `:`).
fn key_span(text: &str, span: Span) -> Span {
    let start = span.start as usize;
    let rest = text.get(start..).unwrap_or("");
    let end = rest
        .find([':', '\n', '\r'])
        .map(|i| start + i)
        .unwrap_or(start + rest.len());
    let key = text.get(start..end).unwrap_or("").trim_end();
    Span::new(start, start + key.len())
}

/// Parse with duplicate keys passed through (used only to locate the first of two duplicates).
pub fn parse_passthrough(text: &str) -> Option<Node> {
    let mut opts = options(&Limits::default());
    opts.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    let docs: Vec<YNode> = serde_saphyr::from_multiple_with_options(text, opts).ok()?;
    docs.into_iter().next().map(|d| convert(d, text))
}

/// Find the first occurrence of the key repeated at `second` by re-reading with duplicates
/// passed through.
fn yaml_first_duplicate(text: &str, second: Span) -> Option<Span> {
    parse_passthrough(text).and_then(|n| find_dup(&n, second))
}

fn find_dup(n: &Node, second: Span) -> Option<Span> {
    match &n.kind {
        NodeKind::Map(entries) => {
            if let Some(pos) = entries
                .iter()
                .position(|(k, _)| k.span.start == second.start)
            {
                let text = &entries[pos].0.text;
                return entries[..pos]
                    .iter()
                    .find(|(k, _)| &k.text == text)
                    .map(|(k, _)| k.span);
            }
            entries.iter().find_map(|(_, v)| find_dup(v, second))
        }
        NodeKind::Seq(items) => items.iter().find_map(|i| find_dup(i, second)),
        _ => None,
    }
}

/// [`parse`] with the first of two duplicate keys located, as the loader did.
pub fn parse_reference(text: &str, limits: &Limits) -> Result<Node, LoadError> {
    match parse(text, limits) {
        Err(LoadError::DuplicateKey { key, span, .. }) => {
            let first = yaml_first_duplicate(text, span);
            Err(LoadError::DuplicateKey { key, span, first })
        }
        other => other,
    }
}
