//! TOML front-end: the `toml` crate's span-keeping document parser into a [`Node`] tree.
//! Duplicate keys and redefined tables are TOML syntax errors and are reported as such.

use super::LoadError;
use super::node::{Key, Node, NodeKind};
use crate::source::Span;
use toml::de::{DeTable, DeValue};

fn span_of(r: std::ops::Range<usize>) -> Span {
    Span::new(r.start, r.end)
}

/// The first line that nests about as deep as the parser's limit, by its count of `.`, `[` and
/// `{` outside strings (the parser reports no position for its recursion limit on table
/// headers and dotted keys).
fn deepest_line(text: &str) -> Option<Span> {
    let mut offset = 0;
    let mut best: Option<(usize, Span)> = None;
    for line in text.split_inclusive('\n') {
        let mut depth = 0usize;
        let mut in_string: Option<char> = None;
        for c in line.chars() {
            match (in_string, c) {
                (None, '#') => break,
                (None, '"' | '\'') => in_string = Some(c),
                (Some(q), c) if c == q => in_string = None,
                (None, '.' | '[' | '{') => depth += 1,
                _ => {}
            }
        }
        let trimmed = line.trim_end_matches(['\n', '\r']);
        if depth >= 64 && best.is_none_or(|(d, _)| depth > d) {
            best = Some((depth, Span::new(offset, offset + trimmed.len())));
        }
        offset += line.len();
    }
    best.map(|(_, s)| s)
}

fn convert(v: &DeValue<'_>, span: Span, text: &str) -> Node {
    let kind = match v {
        // A multi-line string keeps the file's line breaks, and TOML lets a reader normalise
        // them: CR LF becomes LF, so a checkout with Windows line ends (`core.autocrlf`) gives
        // the same artifact, as YAML block scalars do.
        DeValue::String(s)
            if text
                .get(span.start as usize..)
                .is_some_and(|t| t.starts_with("\"\"\"") || t.starts_with("'''")) =>
        {
            NodeKind::Str(s.replace("\r\n", "\n"))
        }
        DeValue::String(s) => NodeKind::Str(s.to_string()),
        DeValue::Integer(i) => {
            let raw = i.as_str().replace('_', "");
            match i64::from_str_radix(&raw, i.radix()) {
                Ok(n) => NodeKind::Int(n, i.to_string()),
                // Beyond i64: a decimal stays a (finite) number as written, so an integer
                // field reports it as too large; anything else stays text.
                Err(_) => match raw.parse::<f64>() {
                    Ok(f) if f.is_finite() && i.radix() == 10 => NodeKind::Float(f, i.to_string()),
                    _ => NodeKind::Str(i.to_string()),
                },
            }
        }
        DeValue::Float(f) => {
            let raw = f.as_str();
            match raw.replace('_', "").parse::<f64>() {
                Ok(v) if v.is_finite() => NodeKind::Float(v, raw.to_string()),
                // `nan`, `inf` and out-of-range numbers: no value a declaration can carry; kept
                // as the text written so a number field reports it (as YAML's `.nan` is).
                _ => NodeKind::Str(raw.to_string()),
            }
        }
        DeValue::Boolean(b) => NodeKind::Bool(*b),
        DeValue::Datetime(d) => NodeKind::Str(d.to_string()),
        DeValue::Array(items) => NodeKind::Seq(
            items
                .iter()
                .map(|i| convert(i.get_ref(), span_of(i.span()), text))
                .collect(),
        ),
        DeValue::Table(t) => NodeKind::Map(table_entries(t, text)),
    };
    Node { kind, span }
}

fn table_entries(t: &DeTable<'_>, text: &str) -> Vec<(Key, Node)> {
    t.iter()
        .map(|(k, v)| {
            (
                Key {
                    text: k.get_ref().to_string(),
                    span: span_of(k.span()),
                    string: true,
                },
                convert(v.get_ref(), span_of(v.span()), text),
            )
        })
        .collect()
}

/// Parse TOML text into a node tree.
pub fn parse(text: &str) -> Result<Node, LoadError> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let shift = text.len() - body.len();
    match DeTable::parse(body) {
        Ok(doc) => {
            let mut node = Node {
                kind: NodeKind::Map(table_entries(doc.get_ref(), body)),
                span: span_of(doc.span()),
            };
            if shift > 0 {
                shift_spans(&mut node, shift as u32);
            }
            if matches!(&node.kind, NodeKind::Map(m) if m.is_empty()) {
                return Err(super::empty_error(text, '#'));
            }
            Ok(node)
        }
        Err(e) => {
            let span = e.span().map(span_of).unwrap_or_default();
            let span = Span {
                start: span.start + shift as u32,
                end: span.end + shift as u32,
            };
            let message = e.message().trim().to_string();
            if message.starts_with("duplicate key") {
                let key = text
                    .get(span.start as usize..span.end as usize)
                    .unwrap_or("?")
                    .trim()
                    .trim_matches('"')
                    .to_string();
                let first = first_key_before(text, &key, span.start as usize);
                return Err(LoadError::DuplicateKey { key, span, first });
            }
            if super::yaml::is_limit_message(&message) {
                let (message, span) = if message.contains("recurs") {
                    (
                        "the file nests deeper than the TOML parser's nesting limit (about 80 levels of tables, arrays and dotted keys)".to_string(),
                        if span.start == 0 && span.end == 0 {
                            deepest_line(text).unwrap_or(span)
                        } else {
                            span
                        },
                    )
                } else {
                    (message, span)
                };
                return Err(LoadError::Limit {
                    message,
                    span,
                    setting: None,
                });
            }
            Err(LoadError::Syntax { message, span })
        }
    }
}

fn shift_spans(node: &mut Node, by: u32) {
    node.span.start += by;
    node.span.end += by;
    match &mut node.kind {
        NodeKind::Seq(items) => items.iter_mut().for_each(|i| shift_spans(i, by)),
        NodeKind::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
            k.span.start += by;
            k.span.end += by;
            shift_spans(v, by);
        }),
        _ => {}
    }
}

/// The earlier line of the same table that assigns `key` (for a duplicate-key label).
fn first_key_before(text: &str, key: &str, before: usize) -> Option<Span> {
    let head = text.get(..before)?;
    let mut offset = head.len();
    for line in head
        .split_inclusive('\n')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        offset -= line.len();
        let t = line.trim_start();
        if t.starts_with('[') {
            return None;
        }
        let lead = line.len() - t.len();
        for candidate in [key.to_string(), format!("\"{key}\"")] {
            if let Some(rest) = t.strip_prefix(&candidate)
                && rest.trim_start().starts_with('=')
            {
                let start = offset + lead;
                return Some(Span::new(start, start + candidate.len()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> NodeKind {
        let NodeKind::Map(entries) = parse(text).unwrap().kind else {
            panic!("{text}")
        };
        entries[0].1.kind.clone()
    }

    #[test]
    fn multi_line_strings_read_the_same_with_crlf_and_lf_line_ends() {
        for (lf, crlf) in [
            (
                "d = \"\"\"\none\ntwo\n\"\"\"\n",
                "d = \"\"\"\r\none\r\ntwo\r\n\"\"\"\r\n",
            ),
            ("d = '''\none\ntwo'''\n", "d = '''\r\none\r\ntwo'''\r\n"),
        ] {
            assert_eq!(value(lf), value(crlf), "{crlf:?}");
            assert_eq!(
                value(crlf),
                NodeKind::Str(
                    if lf.contains("'''") {
                        "one\ntwo"
                    } else {
                        "one\ntwo\n"
                    }
                    .into()
                )
            );
        }
        // A one-line string keeps what its escapes spell; a BOM moves no span.
        assert_eq!(
            value("d = \"a\\r\\nb\"\r\n"),
            NodeKind::Str("a\r\nb".into())
        );
        assert_eq!(
            value("\u{feff}d = \"\"\"\r\nx\r\n\"\"\"\r\n"),
            NodeKind::Str("x\n".into())
        );
    }
}
