//! Declaration file text for an imported tool: the JSON-Schema comment for editors, a header
//! that names the source, its version and content hash, then the tool serialised by
//! `serde-saphyr` (YAML) or `toml` (TOML). Suppression comments carried over from the previous
//! version of the file ([`Carried`]) are re-inserted above the declaration they covered.

use crate::load::de::from_node;
use crate::load::node::NodeKind;
use crate::model::Tool;
use crate::model::config::Limits;
use crate::source::{Format, SourceFile};
use std::path::{Component, Path, PathBuf};

/// The declaration a carried comment stands above.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// A top-level key of the tool (`licence`, `endpoints`).
    TopKey(String),
    /// An endpoint, by id.
    Endpoint(String),
    /// A parameter: endpoint id and parameter name.
    Parameter(String, String),
    /// A response field: endpoint id and field name.
    Field(String, String),
}

/// Comment lines to re-insert above a declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carried {
    /// Where they go.
    pub anchor: Anchor,
    /// The comment lines, without indentation (`# schemarouter: allow(...) -- reason`).
    pub lines: Vec<String>,
}

/// What the header says about the source.
#[derive(Clone, Debug)]
pub struct Header {
    /// The import kind (`openapi`, `mcp`, `openai`).
    pub kind: String,
    /// The source as named on the command line.
    pub source: String,
    /// What it is (`OpenAPI 3.0.3`).
    pub source_kind: String,
    /// Its own version.
    pub version: Option<String>,
    /// `blake3:<hex>` of the source bytes.
    pub hash: String,
}

/// Lexical relative path from folder `from` to file `to` (both absolute or both relative to
/// the same folder).
pub fn relative(from: &Path, to: &Path) -> PathBuf {
    let f: Vec<Component> = from.components().collect();
    let t: Vec<Component> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c.as_os_str());
    }
    out
}

/// The file text for `tool`. `schema_path` is the path of `tool.schema.json` relative to the
/// file's folder.
///
/// Errors: the serialiser's message (no known input produces one).
pub fn render(
    tool: &Tool,
    format: Format,
    header: &Header,
    schema_path: &str,
    carried: &[Carried],
) -> Result<String, String> {
    let version = header
        .version
        .as_deref()
        .map(|v| format!(", version {v}"))
        .unwrap_or_default();
    let head = format!(
        "# Imported by `schemarouter import {}` from {} ({}{version}; {}).\n\
         # Re-importing updates endpoints, parameters, fields, types and descriptions; concepts,\n\
         # units, groups, source type, licence wording, aliases and priority added here are kept.\n",
        header.kind, header.source, header.source_kind, header.hash
    );
    let body = render_body(tool, format, carried)?;
    let first = match format {
        Format::Yaml => format!("# yaml-language-server: $schema={schema_path}\n"),
        Format::Toml => format!("#:schema {schema_path}\n"),
    };
    Ok(format!("{first}{head}{body}"))
}

/// The declaration text of `tool` (no leading comments), with the carried suppression comments
/// re-inserted above their declarations.
///
/// Errors: the serialiser's message (no known input produces one).
pub fn render_body(tool: &Tool, format: Format, carried: &[Carried]) -> Result<String, String> {
    let body = match format {
        Format::Yaml => to_yaml(tool)?,
        Format::Toml => toml::to_string(tool).map_err(|e| e.to_string())?,
    };
    Ok(if carried.is_empty() {
        body
    } else {
        reattach(&body, format, carried)
    })
}

/// A declaration value as YAML, in the layout every written declaration file uses (lists
/// indented under their key; floats in a spelling that loads back as the same number).
///
/// Errors: the serialiser's message.
pub fn to_yaml<T: serde::Serialize>(value: &T) -> Result<String, String> {
    let opts = serde_saphyr::ser_options! {
        compact_list_indent: false,
    };
    Ok(plain_floats(
        serde_saphyr::to_string_with_options(value, opts).map_err(|e| e.to_string())?,
    ))
}

/// YAML text with every float serde-saphyr wrote in its YAML 1.1 exponent spelling (`1.0e-7`,
/// `1.0e+300`: a `.0` mantissa, a signed exponent) rewritten in Rust's shortest spelling (`1e-7`,
/// `1e300`), which is a YAML 1.2 core-schema float too. The loader keeps a number written in a
/// spelling other than its canonical one as written ([`crate::model::Scalar::Spelled`]), so the
/// saphyr spelling would not load back to the plain number the import meant to write.
fn plain_floats(text: String) -> String {
    // Only a digit followed by an exponent marker can be such a float.
    let exponent = text
        .as_bytes()
        .windows(2)
        .any(|w| w[0].is_ascii_digit() && matches!(w[1], b'e' | b'E'));
    if !exponent {
        return text;
    }
    let limits = Limits {
        max_file_bytes: u64::MAX,
        max_scalar_bytes: u64::MAX,
        ..Limits::default()
    };
    let Ok(node) = crate::load::parse_text(&text, Format::Yaml, &limits) else {
        return text;
    };
    let mut edits: Vec<(crate::source::Span, String)> = Vec::new();
    let mut stack = vec![&node];
    while let Some(n) = stack.pop() {
        match &n.kind {
            NodeKind::Float(f, raw)
                if f.is_finite()
                    && raw.contains(['e', 'E'])
                    && *raw != f.to_string()
                    && *raw != format!("{f:?}") =>
            {
                edits.push((n.span, format!("{f:?}")));
            }
            NodeKind::Seq(items) => stack.extend(items),
            NodeKind::Map(entries) => stack.extend(entries.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    if edits.is_empty() {
        return text;
    }
    edits.sort_by_key(|(s, _)| s.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for (span, spelling) in edits {
        let (start, end) = (span.start as usize, span.end as usize);
        if start < at || end > text.len() || text.get(start..end).is_none() {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(&spelling);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// The spanned tool of a file text, if it loads.
pub fn parse_tool(text: &str, format: Format) -> Option<Tool> {
    let limits = Limits {
        max_file_bytes: u64::MAX,
        max_scalar_bytes: u64::MAX,
        ..Limits::default()
    };
    let node = crate::load::parse_text(text, format, &limits).ok()?;
    from_node::<Tool>(&node).ok()
}

/// The 0-based line where each anchor's declaration starts in `text`.
pub fn anchor_lines(
    tool: &Tool,
    file: &SourceFile,
    top_keys: &[(String, usize)],
) -> Vec<(Anchor, usize)> {
    let line = |s: crate::source::Span| file.line_col(s.start as usize).0 - 1;
    let mut out = Vec::new();
    for (k, l) in top_keys {
        out.push((Anchor::TopKey(k.clone()), *l));
    }
    for e in &tool.endpoints {
        let id = e.value.id.value.clone();
        out.push((Anchor::Endpoint(id.clone()), line(e.span)));
        for p in &e.value.parameters {
            out.push((
                Anchor::Parameter(id.clone(), p.value.name.value.clone()),
                line(p.span),
            ));
        }
        for f in &e.value.fields {
            out.push((
                Anchor::Field(id.clone(), f.value.name.value.clone()),
                line(f.span),
            ));
        }
    }
    out
}

/// Top-level keys and their 0-based lines (lines that start with a key at column 0; in TOML,
/// the keys before the first table header, and the headers: a key after a header belongs to
/// that table, unindented as it is).
pub fn top_keys(text: &str, format: Format) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut in_table = false;
    for (i, l) in text.lines().enumerate() {
        let key = match format {
            Format::Yaml if !l.starts_with([' ', '#', '-', '\t']) => l.split(':').next(),
            Format::Toml if l.starts_with('[') => {
                in_table = true;
                Some(l.trim_matches(['[', ']', ' ']))
            }
            Format::Toml if !in_table && !l.starts_with([' ', '#', '\t']) => l.split('=').next(),
            _ => None,
        };
        if let Some(k) = key.map(str::trim).filter(|k| !k.is_empty()) {
            out.push((k.to_string(), i));
        }
    }
    out
}

fn reattach(body: &str, format: Format, carried: &[Carried]) -> String {
    let Some(tool) = parse_tool(body, format) else {
        return body.to_string();
    };
    let file = SourceFile::new("new", "new", body.to_string());
    let anchors = anchor_lines(&tool, &file, &top_keys(body, format));
    let mut inserts: Vec<(usize, &Carried)> = Vec::new();
    for c in carried {
        if let Some((_, l)) = anchors.iter().find(|(a, _)| *a == c.anchor) {
            inserts.push((*l, c));
        }
    }
    inserts.sort_by_key(|(l, _)| *l);
    let mut out = String::with_capacity(body.len() + 256);
    let mut next = inserts.iter().peekable();
    for (i, line) in body.lines().enumerate() {
        while let Some((l, c)) = next.peek() {
            if *l != i {
                break;
            }
            let indent: String = line.chars().take_while(|c| *c == ' ').collect();
            for text in &c.lines {
                out.push_str(&indent);
                out.push_str(text);
                out.push('\n');
            }
            next.next();
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The leading comment block of a file (the lines before its first declaration, blank lines
/// after it excluded) and every other comment in it that is not a suppression comment
/// (`# schemarouter: ...`, which a rewrite carries over), by line (from 1); `None` when the file
/// does not parse. A `#` inside a value (a block scalar, a quoted string, a URL fragment) is no
/// comment: values are found by parsing the file.
pub fn hand_comments(text: &str, format: Format) -> Option<(String, Vec<(usize, String)>)> {
    let limits = crate::model::config::Limits {
        max_file_bytes: u64::MAX,
        max_scalar_bytes: u64::MAX,
        ..Default::default()
    };
    let node = crate::load::parse_text(text, format, &limits).ok()?;
    let mut values: Vec<(usize, usize)> = Vec::new();
    let mut stack = vec![&node];
    while let Some(n) = stack.pop() {
        match &n.kind {
            NodeKind::Seq(items) => stack.extend(items),
            NodeKind::Map(entries) => {
                for (k, v) in entries {
                    values.push((k.span.start as usize, k.span.end as usize));
                    stack.push(v);
                }
            }
            _ => values.push((n.span.start as usize, n.span.end as usize)),
        }
    }
    values.sort_unstable();
    let inside = |at: usize| {
        let i = values.partition_point(|(s, _)| *s <= at);
        // Values do not nest (collections are not values here): the one that starts last
        // before `at` is the only one that can hold it.
        i > 0 && at < values[i - 1].1
    };
    let mut lead = String::new();
    let mut others = Vec::new();
    let mut in_lead = true;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim();
        if in_lead && (t.is_empty() || t.starts_with('#')) {
            lead.push_str(line);
            offset += line.len();
            continue;
        }
        in_lead = false;
        let mut prev = ' ';
        for (j, c) in line.char_indices() {
            if c == '#' && prev.is_whitespace() && !inside(offset + j) {
                if !line[j..].starts_with("# schemarouter:") {
                    others.push((i + 1, line[j..].trim_end().to_string()));
                }
                break;
            }
            prev = c;
        }
        offset += line.len();
    }
    // The block's trailing blank lines belong to the body.
    while lead.ends_with("\n\n") {
        lead.pop();
    }
    Some((lead, others))
}

/// Suppression comments of an existing file, with the declaration each stands above (or on).
/// Comments whose declaration cannot be identified are returned as the second list (reported,
/// never dropped silently).
pub fn carried_comments(
    text: &str,
    format: Format,
    tool: &Tool,
) -> (Vec<Carried>, Vec<(usize, String)>) {
    let file = SourceFile::new("old", "old", text.to_string());
    let anchors = anchor_lines(tool, &file, &top_keys(text, format));
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<Carried> = Vec::new();
    let mut lost = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let Some(at) = l.find("# schemarouter:") else {
            i += 1;
            continue;
        };
        let own_line = l[..at].trim().is_empty();
        let comment = l[at..].trim_end().to_string();
        // The declaration it covers: the next line with content, or this one.
        let mut target = i;
        if own_line {
            target = i + 1;
            while target < lines.len() && {
                let t = lines[target].trim();
                t.is_empty() || t.starts_with('#')
            } {
                target += 1;
            }
        }
        // In TOML a comment inside a table (below its `[[endpoints.fields]]` header, above one
        // of its keys) covers the table's declaration, as `check` reads it.
        if format == Format::Toml
            && !anchors.iter().any(|(_, l)| *l == target)
            && let Some(header) = (0..i).rev().find(|&h| lines[h].starts_with('['))
        {
            target = header;
        }
        // The innermost declaration starting on that line (fields and parameters are listed
        // after their endpoint, so the last match is the innermost).
        match anchors.iter().rev().find(|(_, l)| *l == target) {
            Some((a, _)) => match out.iter_mut().find(|c| c.anchor == *a) {
                Some(c) => c.lines.push(comment),
                None => out.push(Carried {
                    anchor: a.clone(),
                    lines: vec![comment],
                }),
            },
            None => lost.push((i + 1, comment)),
        }
        i += 1;
    }
    (out, lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative(
                Path::new("/p/schemas"),
                Path::new("/p/docs/schema/tool.schema.json")
            ),
            PathBuf::from("../docs/schema/tool.schema.json")
        );
        assert_eq!(
            relative(Path::new("/p/schemas/sub"), Path::new("/p/docs/x.json")),
            PathBuf::from("../../docs/x.json")
        );
    }

    const OLD: &str = "id: t\ntitle: T\ndomain: d\n# schemarouter: allow(missing-licence) -- internal\nsource_type: web\nendpoints:\n  - id: e\n    method: GET\n    url: https://x.org\n    fields:\n      # schemarouter: allow(unreachable-field) -- kept for debugging\n      - name: a\n        type: string\n      - name: b  # schemarouter: allow(missing-unit) -- dimensionless\n        type: number\n";

    #[test]
    fn suppression_comments_are_found_and_reattached() {
        let tool = parse_tool(OLD, Format::Yaml).unwrap();
        let (carried, lost) = carried_comments(OLD, Format::Yaml, &tool);
        assert!(lost.is_empty());
        assert_eq!(
            carried.iter().map(|c| c.anchor.clone()).collect::<Vec<_>>(),
            vec![
                Anchor::TopKey("source_type".into()),
                Anchor::Field("e".into(), "a".into()),
                Anchor::Field("e".into(), "b".into()),
            ]
        );
        let header = Header {
            kind: "openapi".into(),
            source: "a.yaml".into(),
            source_kind: "OpenAPI 3.0.0".into(),
            version: Some("1".into()),
            hash: "blake3:00".into(),
        };
        let text = render(&tool, Format::Yaml, &header, "../s.json", &carried).unwrap();
        assert!(
            text.contains("# schemarouter: allow(missing-licence) -- internal\nsource_type: web\n"),
            "{text}"
        );
        assert!(text.contains("      # schemarouter: allow(unreachable-field) -- kept for debugging\n      - name: a\n"), "{text}");
        assert!(
            text.contains(
                "      # schemarouter: allow(missing-unit) -- dimensionless\n      - name: b\n"
            ),
            "{text}"
        );
        // The text loads back to the same tool.
        assert_eq!(parse_tool(&text, Format::Yaml).unwrap(), tool);
    }

    /// In TOML, keys inside tables are not indented: a comment inside a field's table (above
    /// its `name`) covers that field, never a top-level key of the same name elsewhere.
    #[test]
    fn toml_comments_inside_a_table_stay_with_its_declaration() {
        let old = "id = \"t\"\ntitle = \"T\"\ndomain = \"d\"\n\n[[endpoints]]\nid = \"a\"\nmethod = \"GET\"\nurl = \"https://x.org/a\"\n\n[[endpoints.fields]]\nname = \"v\"\ntype = \"string\"\n\n[[endpoints]]\nid = \"b\"\nmethod = \"GET\"\nurl = \"https://x.org/b\"\n\n[[endpoints.fields]]\n# schemarouter: allow(SR506) -- inside the table\nname = \"v\"\ntype = \"string\"\n";
        let tool = parse_tool(old, Format::Toml).unwrap();
        let (carried, lost) = carried_comments(old, Format::Toml, &tool);
        assert!(lost.is_empty(), "{lost:?}");
        assert_eq!(
            carried.iter().map(|c| c.anchor.clone()).collect::<Vec<_>>(),
            vec![Anchor::Field("b".into(), "v".into())]
        );
    }

    #[test]
    fn exponent_floats_load_back_as_the_same_number() {
        let src = "id: t\ntitle: T\ndomain: d\nendpoints:\n  - id: e\n    method: GET\n    url: https://x.org\n    parameters:\n      - name: tol\n        type: number\n        default: 0.0000001\n        enum: [1e-6, 0.5, 1e300, -2.5e-9, 1e16]\n";
        let tool = parse_tool(src, Format::Yaml).unwrap();
        let header = Header {
            kind: "openapi".into(),
            source: "a.json".into(),
            source_kind: "OpenAPI 3.0.3".into(),
            version: Some("1".into()),
            hash: "blake3:00".into(),
        };
        let text = render(&tool, Format::Yaml, &header, "../s.json", &[]).unwrap();
        assert!(text.contains("default: 1e-7\n"), "{text}");
        assert!(text.contains("- 1e-6\n"), "{text}");
        assert!(text.contains("- 0.5\n"), "{text}");
        assert!(text.contains("- 1e300\n"), "{text}");
        assert!(text.contains("- -2.5e-9\n"), "{text}");
        assert!(text.contains("- 1e16\n"), "{text}");
        assert_eq!(parse_tool(&text, Format::Yaml).unwrap(), tool);
    }
}
