//! YAML front-end: the spanned [`Node`] tree is built directly from the events of
//! `granit-parser` (the YAML 1.2 parser serde-saphyr itself uses), with no serde layer between.
//!
//! What it keeps, in one pass over the events:
//! - byte spans of every node and key (an alias's node is placed where the alias is used);
//! - scalars resolved by the YAML 1.2 core schema with strict booleans (`yes`/`off` stay
//!   strings, so the typed reader can say so), numbers with their spelling (`1.10`, `007`),
//!   underscored and upper-case-radix numbers kept as strings; `!!str`, `!!int`, `!!float`,
//!   `!!bool` and `!!null` honoured, other tags reported;
//! - duplicate keys with both places; merge keys (`<<: *anchor` or a list of anchors) with the
//!   YAML merge-key rule: a key the mapping sets itself overrides the merged one, an earlier
//!   merged mapping overrides a later one, and a second `<<` in one mapping is a duplicate key;
//! - anchors and aliases with the `max-aliases` budget, a bound on the nodes aliases expand to
//!   and one on the bytes they expand to (`max-file-bytes`: a file cannot grow through aliases
//!   past the size it may have when written out; the finding names the anchor); an alias inside
//!   its own anchor gets its own message;
//! - one document per file (the second `---` is reported), empty and comment-only files.
//!
//! Nesting depth is checked by the caller ([`super::parse_text`]); the builder keeps its own
//! stack, so deep input cannot overflow the call stack.

use super::LoadError;
use super::node::{Key, Node, NodeKind};
use crate::model::config::Limits;
use crate::source::Span;
use granit_parser::{Event, Parser, ScalarStyle, ScanError};
use std::collections::HashMap;
use std::rc::Rc;

/// How many nodes aliases may expand to in one file, in total (a "billion laughs" bound).
pub const MAX_ALIAS_EXPANSION: usize = 200_000;

/// Parse YAML text (one document) into a node tree.
pub fn parse(text: &str, limits: &Limits) -> Result<Node, LoadError> {
    let (node, _, duplicates) = parse_traced(text, limits)?;
    match duplicates.into_iter().find(|e| !e.is_warning()) {
        None => Ok(node),
        Some(e) => Err(e),
    }
}

/// One use of an alias (`*name`, also as a `<<` merge value): where it is written, and the anchor
/// whose value it replays. A finding about a replayed value is placed at [`AliasUse::at`]; the
/// anchor is its related information.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasUse {
    /// The alias token (`*base`).
    pub at: Span,
    /// The anchor's name (`base`).
    pub anchor: String,
    /// The anchor token (`&base`) of the value the alias replays.
    pub value: Span,
}

/// [`parse`], also returning every alias use in source order and the faults that do not stop
/// the parse, so the rest of the file is still checked: duplicate keys (the first of two entries
/// is kept and each repeat is one [`LoadError::DuplicateKey`]; a repeated `<<` is not merged)
/// and `<<` values that are not mappings (left out, one [`LoadError::Syntax`] each).
pub fn parse_traced(
    text: &str,
    limits: &Limits,
) -> Result<(Node, Vec<AliasUse>, Vec<LoadError>), LoadError> {
    let mut b = Builder::new(text, limits);
    let node = b.run()?;
    Ok((node, b.uses, b.duplicates))
}

/// An open collection on the builder's stack.
enum Frame {
    Seq {
        start: usize,
        anchor: usize,
        items: Vec<Node>,
    },
    Map {
        start: usize,
        anchor: usize,
        entries: Vec<(Key, Node)>,
        /// Key text -> index in `entries` of keys the mapping sets itself, built only once the
        /// mapping is large (a small mapping's keys are found by scanning `entries`).
        own: Option<HashMap<String, usize>>,
        /// The key waiting for its value.
        key: Option<(Key, bool)>,
        /// Entries received through `<<`, in merge order (earlier wins).
        merged: Vec<(Key, Node)>,
        /// Where the mapping's `<<` key is, once seen.
        merge_at: Option<Span>,
    },
}

struct Builder<'a> {
    text: &'a str,
    max_aliases: u64,
    aliases: u64,
    expanded: usize,
    /// The `max-file-bytes` limit, also the budget on the bytes aliases expand to.
    max_bytes: u64,
    /// The bytes aliases have expanded to so far.
    expanded_bytes: u64,
    /// Completed anchored nodes by anchor id, with their cost ([`weight`]).
    anchors: HashMap<usize, Anchored>,
    /// Anchor ids whose node is still being built (an alias to one is recursive).
    open_anchors: Vec<usize>,
    /// Every alias use, in source order.
    uses: Vec<AliasUse>,
    /// Duplicate keys found so far (the parse goes on past them).
    duplicates: Vec<LoadError>,
    /// Alias token start -> the anchor id it replays (where a merged key was written).
    replayed: HashMap<u32, usize>,
}

fn span_of(sp: &granit_parser::Span) -> Span {
    let start = sp.start.byte_offset().unwrap_or(0);
    let end = sp.end.byte_offset().unwrap_or(start).max(start);
    Span::new(start, end)
}

fn scan_error(e: &ScanError, text: &str) -> LoadError {
    let at = e
        .marker()
        .byte_offset()
        .unwrap_or(text.len())
        .min(text.len());
    let span = widen(text, at);
    if matches!(e.kind(), granit_parser::ErrorKind::UnknownAnchor) {
        let name: String = text[at..]
            .trim_start_matches('*')
            .chars()
            .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
            .collect();
        return LoadError::Syntax {
            message: format!(
                "alias references unknown anchor: no `&{name}` is defined before `*{name}`"
            ),
            span,
        };
    }
    let message = e.info();
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_string();
    // The parser marks where the token began (often the line before); point at the tab itself.
    // A tab in the indentation of the line the error is on is the cause whatever the parser
    // says ("did not find expected key").
    let line_of = |i: usize| text[..i].rfind(['\n', '\r']).map_or(0, |j| j + 1);
    let indent_tab = {
        let start = line_of(at);
        let lead = &text[start..at];
        (lead.contains('\t') && lead.chars().all(|c| c == ' ' || c == '\t'))
            .then(|| start + lead.find('\t').unwrap_or(0))
    };
    let mentioned_tab = (message.contains("found a tab") || message.ends_with("with a tab"))
        .then(|| text[at..].find('\t').map(|i| at + i))
        .flatten();
    if let Some(tab) = indent_tab.or(mentioned_tab) {
        let line_start = line_of(tab);
        let indenting = text[line_start..tab].chars().all(|c| c == ' ' || c == '\t');
        let message = if indenting {
            "a tab in the indentation: YAML indents with spaces only".to_string()
        } else {
            format!("{message} (YAML does not allow a tab here)")
        };
        return LoadError::Syntax {
            message,
            span: Span::new(tab, tab + 1),
        };
    }
    if let Some(refined) = refine_position(&message, text, at) {
        return refined;
    }
    if is_limit_message(&message) {
        let lower = message.to_lowercase();
        let message = if lower.contains("recursion") || lower.contains("nesting") {
            format!(
                "the file nests more than {PARSER_NESTING_LIMIT} levels deep (the YAML parser's nesting limit)"
            )
        } else {
            message
        };
        LoadError::Limit {
            message,
            span,
            setting: None,
        }
    } else {
        LoadError::Syntax { message, span }
    }
}

/// What a tag asks the scalar to be.
enum TagKind {
    None,
    Str,
    Int,
    Float,
    Bool,
    Null,
    /// A tag the declarations do not use (`!custom`, `!!binary`, `!!timestamp`, ...).
    Other(String),
}

fn tag_kind(tag: Option<&granit_parser::Tag>) -> TagKind {
    let Some(tag) = tag else {
        return TagKind::None;
    };
    if tag.is_yaml_core_schema() {
        return match tag.suffix() {
            "str" => TagKind::Str,
            "int" => TagKind::Int,
            "float" => TagKind::Float,
            "bool" => TagKind::Bool,
            "null" => TagKind::Null,
            // `!!map` and `!!seq` on collections are harmless; on scalars they are reported.
            other => TagKind::Other(format!("!!{other}")),
        };
    }
    // The non-specific tag `!` forces a string.
    if tag.original() == "!" {
        return TagKind::Str;
    }
    TagKind::Other(tag.original())
}

fn yaml_trim(s: &str) -> &str {
    s.trim_matches([' ', '\t', '\r', '\n'])
}

/// A decimal integer with a redundant leading zero (`0127`, `-007`).
fn leading_zero_decimal(t: &str) -> bool {
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit())
}

/// An integer in YAML 1.2 core spelling: decimal (`[-+]?[0-9]+`) without a redundant leading
/// zero, `0x` hexadecimal or `0o` octal (unsigned, lower-case prefixes). YAML 1.1 spellings
/// (`0b101`, `-0x1F`, upper-case prefixes) are not integers and stay strings.
fn parse_int(t: &str) -> Option<i128> {
    let (radix, neg, digits) = if let Some(d) = t.strip_prefix("0x") {
        (16, false, d)
    } else if let Some(d) = t.strip_prefix("0o") {
        (8, false, d)
    } else {
        let (neg, rest) = match t.as_bytes().first() {
            Some(b'-') => (true, &t[1..]),
            Some(b'+') => (false, &t[1..]),
            _ => (false, t),
        };
        if rest.starts_with('0') && rest != "0" {
            return None;
        }
        (10, neg, rest)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let mag = u128::from_str_radix(digits, radix).ok()?;
    let v = i128::try_from(mag).ok()?;
    Some(if neg { -v } else { v })
}

/// A float in YAML 1.2 spelling (`.inf`, `-.Inf`, `.nan`, or a numeral Rust parses), an
/// overflowing numeral as infinity.
fn parse_float(t: &str) -> Option<f64> {
    let (neg, unsigned) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    match unsigned {
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        ".inf" | ".Inf" | ".INF" => {
            return Some(if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            });
        }
        _ => {}
    }
    if !unsigned
        .as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_digit() || *b == b'.')
    {
        return None;
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        Ok(v) if v.is_infinite() && unsigned.as_bytes()[0].is_ascii_digit() => Some(v),
        _ => None,
    }
}

/// A number node keeping its spelling: whole numbers written without a fraction or exponent
/// are integers (`007` too), others floats.
fn number(value: f64, raw: &str) -> NodeKind {
    match raw.parse::<i64>() {
        Ok(i) if !raw.is_empty() => NodeKind::Int(i, raw.to_string()),
        _ => NodeKind::Float(value, raw.to_string()),
    }
}

/// Resolve a plain, untagged scalar by the YAML 1.2 core schema; `raw` gives the text as written
/// (asked for numbers only, which keep their spelling).
fn resolve_plain<'t>(value: &str, raw: impl FnOnce() -> &'t str) -> NodeKind {
    if matches!(value, "" | "~" | "null" | "Null" | "NULL") {
        return NodeKind::Null;
    }
    // Text that cannot start a boolean or a number is a string: no number parse is tried.
    let may_start_other = |b: &u8| {
        b.is_ascii_digit()
            || b.is_ascii_whitespace()
            || matches!(b, b'+' | b'-' | b'.' | b't' | b'T' | b'f' | b'F')
    };
    if value
        .as_bytes()
        .first()
        .is_some_and(|b| !may_start_other(b))
    {
        return NodeKind::Str(value.to_string());
    }
    let t = yaml_trim(value);
    match t {
        "true" | "True" | "TRUE" => return NodeKind::Bool(true),
        "false" | "False" | "FALSE" => return NodeKind::Bool(false),
        _ => {}
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    let upper_radix = matches!(unsigned.as_bytes(), [b'0', b'X' | b'O' | b'B', ..]);
    let signed_nan = t.len() != unsigned.len() && matches!(unsigned, ".nan" | ".NaN" | ".NAN");
    if upper_radix || signed_nan || t.contains('_') {
        return NodeKind::Str(value.to_string());
    }
    if !(t.starts_with('-') && leading_zero_decimal(t))
        && let Some(i) = parse_int(t)
    {
        if let Ok(i) = i64::try_from(i) {
            return NodeKind::Int(i, raw().to_string());
        }
        if i > 0 && u64::try_from(i).is_ok() {
            return NodeKind::Float(i as f64, raw().to_string());
        }
    }
    match parse_float(t) {
        Some(f) => number(f, raw()),
        None => NodeKind::Str(value.to_string()),
    }
}

/// Mappings with more entries than this index their keys in a hash map.
const SCAN_KEYS: usize = 16;

/// The entries a mapping is first given room for.
const MAP_CAPACITY: usize = 8;

/// Where `key` is among the keys a mapping sets itself (`entries`, before merged entries are
/// added), building the mapping's key index once it is large.
fn own_key(
    entries: &[(Key, Node)],
    own: &mut Option<HashMap<String, usize>>,
    key: &str,
) -> Option<usize> {
    if own.is_none() && entries.len() > SCAN_KEYS {
        *own = Some(
            entries
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (k.text.clone(), i))
                .collect(),
        );
    }
    match own {
        Some(index) => index.get(key).copied(),
        None => entries.iter().position(|(k, _)| k.text == key),
    }
}

/// The text a key is compared and reported by.
fn key_text(node: Node, text: &str) -> String {
    match node.kind {
        NodeKind::Str(s) => s,
        NodeKind::Null => "null".to_string(),
        NodeKind::Bool(b) => b.to_string(),
        // Integers in core spelling by value (`0x1F` is `31`), other numbers as written.
        NodeKind::Int(_, raw) | NodeKind::Float(_, raw) => match parse_int(&raw) {
            Some(i) => i.to_string(),
            None => text
                .get(node.span.start as usize..node.span.end as usize)
                .unwrap_or("")
                .to_string(),
        },
        NodeKind::Seq(_) | NodeKind::Map(_) => "<complex key>".to_string(),
    }
}

/// The span of the alias token (`*name`) an alias event reports. In flow collections the
/// parser reports an empty span where the token ends; widen it back to the `*`.
fn alias_token(text: &str, span: Span) -> Span {
    let (start, end) = (span.start as usize, span.end as usize);
    if text.get(start..end).is_some_and(|t| t.starts_with('*')) {
        return span;
    }
    let is_name = |c: char| !c.is_whitespace() && !",[]{}".contains(c);
    let before = text.get(..end).unwrap_or("");
    match before.rfind('*') {
        Some(star) if before[star + 1..].chars().all(is_name) && star + 1 < end => {
            Span::new(star, end)
        }
        _ => span,
    }
}

/// Give a replayed tree (its keys too) the span of the alias that replays it.
fn place(node: &mut Node, span: Span) {
    node.span = span;
    match &mut node.kind {
        NodeKind::Seq(items) => items.iter_mut().for_each(|n| place(n, span)),
        NodeKind::Map(entries) => {
            for (k, v) in entries {
                k.span = span;
                place(v, span);
            }
        }
        _ => {}
    }
}

/// An anchored value and what replaying it through an alias costs.
struct Anchored {
    node: Rc<Node>,
    /// Its nodes (keys count as nodes).
    nodes: usize,
    /// The bytes of its scalars and keys.
    bytes: u64,
}

/// The cost of replaying a tree through an alias: its nodes (keys count as nodes) and the bytes
/// of its scalars and keys (a scalar's text; a number's spelling; `true` as four bytes).
fn weight(node: &Node) -> (usize, u64) {
    match &node.kind {
        NodeKind::Seq(items) => items.iter().fold((1, 0), |(n, b), i| {
            let (n2, b2) = weight(i);
            (n + n2, b + b2)
        }),
        NodeKind::Map(entries) => entries.iter().fold((1, 0), |(n, b), (k, v)| {
            let (n2, b2) = weight(v);
            (n + 1 + n2, b + k.text.len() as u64 + b2)
        }),
        NodeKind::Str(t) => (1, t.len() as u64),
        NodeKind::Int(_, raw) | NodeKind::Float(_, raw) => (1, raw.len() as u64),
        NodeKind::Bool(_) | NodeKind::Null => (1, 4),
    }
}

impl Anchored {
    fn new(node: Node) -> Anchored {
        let (nodes, bytes) = weight(&node);
        Anchored {
            node: Rc::new(node),
            nodes,
            bytes,
        }
    }
}

/// The deepest flow or block nesting the YAML parser accepts (a guard against stack exhaustion,
/// not a `[limits]` setting; `max-depth` is checked on the tree afterwards).
const PARSER_NESTING_LIMIT: usize = 255;

impl<'a> Builder<'a> {
    fn new(text: &'a str, limits: &Limits) -> Self {
        Builder {
            text,
            max_aliases: limits.max_aliases,
            aliases: 0,
            expanded: 0,
            max_bytes: limits.max_file_bytes,
            expanded_bytes: 0,
            anchors: HashMap::new(),
            open_anchors: Vec::new(),
            uses: Vec::new(),
            duplicates: Vec::new(),
            replayed: HashMap::new(),
        }
    }

    fn run(&mut self) -> Result<Node, LoadError> {
        let opts = granit_parser::options! {
            simple_key_max_lookahead: 1024,
            flow_nesting_limit: PARSER_NESTING_LIMIT,
            block_nesting_limit: PARSER_NESTING_LIMIT,
            emit_comments: false,
        };
        let parser = Parser::new_from_str_with_options(self.text, opts);
        let mut stack: Vec<Frame> = Vec::new();
        let mut root: Option<Node> = None;
        let mut documents = 0usize;
        for next in parser {
            let (event, sp) = next.map_err(|e| scan_error(&e, self.text))?;
            let span = span_of(&sp);
            let done = match event {
                Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => continue,
                Event::DocumentStart(..) => {
                    documents += 1;
                    if documents > 1 {
                        // A second document with content is an error; an empty trailing one
                        // (`---` at the end) too, as the parser reports it.
                        return Err(LoadError::MultipleDocuments {
                            span: find_document_marker(self.text, span.start as usize),
                        });
                    }
                    continue;
                }
                Event::Scalar(value, style, anchor, tag) => {
                    let kind = self.scalar_kind(&value, style, tag.as_deref(), span)?;
                    let node = Node { kind, span };
                    if anchor != 0 {
                        self.anchors.insert(anchor, Anchored::new(node.clone()));
                    }
                    node
                }
                Event::Alias(id) => self.alias(id, alias_token(self.text, span))?,
                Event::SequenceStart(_, anchor, tag) => {
                    self.collection_tag(tag.as_deref(), "seq", span)?;
                    if anchor != 0 {
                        self.open_anchors.push(anchor);
                    }
                    stack.push(Frame::Seq {
                        start: span.start as usize,
                        anchor,
                        items: Vec::new(),
                    });
                    continue;
                }
                Event::MappingStart(_, anchor, tag) => {
                    self.collection_tag(tag.as_deref(), "map", span)?;
                    if anchor != 0 {
                        self.open_anchors.push(anchor);
                    }
                    stack.push(Frame::Map {
                        start: span.start as usize,
                        anchor,
                        // Most mappings of a declaration have up to 8 keys: no regrowth.
                        entries: Vec::with_capacity(MAP_CAPACITY),
                        own: None,
                        key: None,
                        merged: Vec::new(),
                        merge_at: None,
                    });
                    continue;
                }
                Event::SequenceEnd => match stack.pop() {
                    Some(Frame::Seq {
                        start,
                        anchor,
                        items,
                    }) => self.close(start, anchor, NodeKind::Seq(items)),
                    _ => continue,
                },
                Event::MappingEnd => match stack.pop() {
                    Some(Frame::Map {
                        start,
                        anchor,
                        mut entries,
                        merged,
                        merge_at,
                        ..
                    }) => {
                        self.add_merged(&mut entries, merged, merge_at);
                        self.close(start, anchor, NodeKind::Map(entries))
                    }
                    _ => continue,
                },
                _ => continue,
            };
            // Attach the finished node to its parent.
            match stack.last_mut() {
                None => {
                    if root.is_none() {
                        root = Some(done);
                    }
                }
                Some(Frame::Seq { items, .. }) => items.push(done),
                Some(Frame::Map {
                    entries,
                    own,
                    key,
                    merged,
                    merge_at,
                    ..
                }) => match key.take() {
                    None => {
                        let is_str = matches!(done.kind, NodeKind::Str(_));
                        let span = done.span;
                        let text = key_text(done, self.text);
                        let is_merge = text == "<<"
                            && is_str
                            && self.text[span.start as usize..].starts_with("<<");
                        let key_is_str = is_str;
                        *key = Some((
                            Key {
                                text,
                                span,
                                string: key_is_str,
                            },
                            is_merge,
                        ));
                    }
                    Some((k, true)) => {
                        if let Some(first) = *merge_at {
                            self.duplicates.push(LoadError::DuplicateKey {
                                key: "<<".to_string(),
                                span: k.span,
                                first: Some(first),
                            });
                        } else {
                            *merge_at = Some(k.span);
                            // A value that cannot be merged is reported and left out; the rest
                            // of the file is still read.
                            if let Some(e) = Self::merge(done, merged) {
                                self.duplicates.push(e);
                            }
                        }
                    }
                    Some((k, false)) => {
                        if let Some(i) = own_key(entries, own, &k.text) {
                            self.duplicates.push(LoadError::DuplicateKey {
                                key: k.text,
                                span: k.span,
                                first: Some(entries[i].0.span),
                            });
                            continue;
                        }
                        if let Some(own) = own {
                            own.insert(k.text.clone(), entries.len());
                        }
                        entries.push((k, done));
                    }
                },
            }
        }
        match root {
            Some(node) if node.kind != NodeKind::Null => Ok(node),
            Some(node) if !node.span.is_empty() => Err(super::null_error(self.text, node.span)),
            _ => Err(super::empty_error(self.text, '#')),
        }
    }

    /// A scalar's value: a plain scalar resolved by the YAML 1.2 core schema, a quoted one a
    /// string, a tagged one what its tag says (or the tag's error).
    fn scalar_kind(
        &self,
        value: &str,
        style: ScalarStyle,
        tag: Option<&granit_parser::Tag>,
        span: Span,
    ) -> Result<NodeKind, LoadError> {
        Ok(match (tag_kind(tag), style) {
            (TagKind::None, ScalarStyle::Plain) => match resolve_plain(value, || {
                self.text
                    .get(span.start as usize..span.end as usize)
                    .unwrap_or("")
                    .trim()
            }) {
                // `.nan` and `.inf` are no value a declaration can carry: kept as
                // the text written, so a number field reports a wrong-typed value
                // (and the rest of the file is still checked).
                NodeKind::Float(f, raw) if !f.is_finite() => NodeKind::Str(raw),
                kind => kind,
            },
            (TagKind::None | TagKind::Str, _) => NodeKind::Str(value.to_string()),
            (TagKind::Null, _) => NodeKind::Null,
            (TagKind::Bool, _) => match yaml_trim(value) {
                "true" | "True" | "TRUE" => NodeKind::Bool(true),
                "false" | "False" | "FALSE" => NodeKind::Bool(false),
                _ => return Err(self.bad_tagged(span, "!!bool", "a boolean")),
            },
            (TagKind::Int, _) => {
                match parse_int(yaml_trim(value)).and_then(|i| i64::try_from(i).ok()) {
                    Some(i) => NodeKind::Int(i, yaml_trim(value).to_string()),
                    None => return Err(self.bad_tagged(span, "!!int", "an integer")),
                }
            }
            (TagKind::Float, _) => {
                let t = yaml_trim(value);
                match parse_float(t).or_else(|| parse_int(t).map(|i| i as f64)) {
                    // Tagged a float, it is one even when written as `10`.
                    Some(f) if f.is_finite() => NodeKind::Float(f, t.to_string()),
                    _ => {
                        return Err(self.bad_tagged(span, "!!float", "a finite number"));
                    }
                }
            }
            (TagKind::Other(tag), _) => return Err(self.unknown_tag(span, &tag)),
        })
    }

    /// Add to a finished mapping the merged entries it does not set itself, after its own; a
    /// key the mapping sets over a merged one is reported (not fatal; see
    /// [`LoadError::MergeOverride`]). `merge_at` is where its `<<` key is.
    fn add_merged(
        &mut self,
        entries: &mut Vec<(Key, Node)>,
        merged: Vec<(Key, Node)>,
        merge_at: Option<Span>,
    ) {
        if merged.is_empty() {
            return;
        }
        let own: HashMap<String, Span> = entries
            .iter()
            .map(|(k, _)| (k.text.clone(), k.span))
            .collect();
        let mut seen = std::collections::HashSet::new();
        for (k, v) in merged {
            if let Some(at) = own.get(&k.text) {
                self.duplicates.push(LoadError::MergeOverride {
                    key: k.text.clone(),
                    span: *at,
                    merged: self.merged_key_origin(&k),
                    before: merge_at.is_some_and(|m| at.start < m.start),
                });
            } else if seen.insert(k.text.clone()) {
                entries.push((k, v));
            }
        }
    }

    /// Finish a collection: widen a flow collection's span to its closing bracket and record
    /// its anchor.
    fn close(&mut self, start: usize, anchor: usize, kind: NodeKind) -> Node {
        let span = flow_extent(Span::new(start, start), &kind, self.text);
        let node = Node { kind, span };
        if anchor != 0 {
            self.open_anchors.retain(|a| *a != anchor);
            self.anchors.insert(anchor, Anchored::new(node.clone()));
        }
        node
    }

    /// The value of a `<<` key: a mapping, or a list of mappings (earlier ones win). What is
    /// not a mapping is reported and left out; the mappings of a list are merged all the same
    /// (so a bad item does not also leave the mapping without the keys the others give it).
    fn merge(value: Node, merged: &mut Vec<(Key, Node)>) -> Option<LoadError> {
        let mut error = None;
        let sources = match value.kind {
            NodeKind::Map(entries) => vec![entries],
            NodeKind::Seq(items) => {
                let mut out = Vec::new();
                for item in items {
                    match item.kind {
                        NodeKind::Map(entries) => out.push(entries),
                        _ => {
                            error.get_or_insert(LoadError::Syntax {
                                message:
                                    "a `<<` merge list holds only mappings (aliases of mappings)"
                                        .to_string(),
                                span: item.span,
                            });
                        }
                    }
                }
                out
            }
            _ => {
                return Some(LoadError::Syntax {
                    message:
                        "the value of a `<<` merge key must be a mapping or a list of mappings"
                            .to_string(),
                    span: value.span,
                });
            }
        };
        for entries in sources {
            for (k, v) in entries {
                if !merged.iter().any(|(m, _)| m.text == k.text) {
                    merged.push((k, v));
                }
            }
        }
        error
    }

    /// The node an alias stands for, placed where the alias is used.
    fn alias(&mut self, id: usize, span: Span) -> Result<Node, LoadError> {
        let name = self
            .text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
            .trim_start_matches('*')
            .to_string();
        if self.open_anchors.contains(&id) {
            return Err(LoadError::Syntax {
                message: format!(
                    "the alias `*{name}` is inside the value of its own anchor `&{name}` (a recursive alias)"
                ),
                span,
            });
        }
        self.aliases += 1;
        if self.aliases > self.max_aliases {
            return Err(LoadError::Limit {
                message: format!(
                    "the file uses more than {} YAML aliases (the `max-aliases` limit)",
                    self.max_aliases
                ),
                span,
                setting: Some("max-aliases"),
            });
        }
        let Some(anchored) = self.anchors.get(&id) else {
            return Err(LoadError::Syntax {
                message: format!("unknown anchor `{name}`"),
                span,
            });
        };
        let (target, nodes, bytes) = (anchored.node.clone(), anchored.nodes, anchored.bytes);
        self.expanded += nodes;
        self.expanded_bytes = self.expanded_bytes.saturating_add(bytes);
        // Checked before the value is copied: a large anchored value used many times must stop
        // here, not after gigabytes of copies.
        if self.expanded_bytes > self.max_bytes {
            return Err(LoadError::Limit {
                message: format!(
                    "the alias `*{name}` replays the anchor `&{name}` ({bytes} bytes of text); with it the file's aliases expand to {} bytes, more than the `max-file-bytes` limit of {} bytes",
                    self.expanded_bytes, self.max_bytes
                ),
                span,
                setting: Some("max-file-bytes"),
            });
        }
        if self.expanded > MAX_ALIAS_EXPANSION {
            return Err(LoadError::Limit {
                message: format!(
                    "aliases expand to more than {MAX_ALIAS_EXPANSION} nodes (the alias expansion limit)"
                ),
                span,
                setting: None,
            });
        }
        // The anchor token (`&name`) written before its value; the value itself if not found.
        let token = format!("&{name}");
        let value = self
            .text
            .get(..target.span.start as usize)
            .and_then(|before| before.rfind(&token))
            .map_or(target.span, |i| Span::new(i, i + token.len()));
        self.replayed.insert(span.start, id);
        self.uses.push(AliasUse {
            at: span,
            anchor: name,
            value,
        });
        // Every node of the replayed value is placed where the alias is used: that is where a
        // finding about it must point (the anchor may be shared by many correct uses).
        let mut node = (*target).clone();
        place(&mut node, span);
        Ok(node)
    }

    /// Where a merged key is written: in its anchor's mapping when the merge replays an alias
    /// (the replayed copy carries the alias's span), else where the merged mapping has it.
    fn merged_key_origin(&self, key: &Key) -> Span {
        // An anchored mapping may itself hold merged or replayed keys: follow them back.
        let mut at = key.span;
        for _ in 0..16 {
            let original = self
                .replayed
                .get(&at.start)
                .and_then(|id| self.anchors.get(id))
                .and_then(|a| match &a.node.kind {
                    NodeKind::Map(entries) => entries.iter().find(|(k, _)| k.text == key.text),
                    _ => None,
                });
            match original {
                Some((k, _)) if k.span != at => at = k.span,
                _ => break,
            }
        }
        at
    }

    fn bad_tagged(&self, span: Span, tag: &str, what: &str) -> LoadError {
        LoadError::Syntax {
            message: format!("a value tagged `{tag}` must be {what}"),
            span,
        }
    }

    fn unknown_tag(&self, span: Span, tag: &str) -> LoadError {
        let before = &self.text[..span.start as usize];
        let at = before
            .rfind(tag)
            .or_else(|| before.rfind('!'))
            .map(|i| Span::new(i, (i + tag.len().max(1)).min(self.text.len())))
            .unwrap_or(span);
        LoadError::Syntax {
            message: format!(
                "the tag `{tag}` is not supported; declarations use plain YAML values (remove the tag)"
            ),
            span: at,
        }
    }

    fn collection_tag(
        &self,
        tag: Option<&granit_parser::Tag>,
        expected: &str,
        span: Span,
    ) -> Result<(), LoadError> {
        match tag_kind(tag) {
            TagKind::None => Ok(()),
            TagKind::Other(t) if t == format!("!!{expected}") => Ok(()),
            TagKind::Other(t) => Err(self.unknown_tag(span, &t)),
            _ => Err(self.unknown_tag(span, &tag.map(|t| t.original()).unwrap_or_default())),
        }
    }
}

/// The parser gives a collection's start only; for a flow collection (`[a, b]`, `{k: v}`) widen
/// the span to its closing bracket, so a diagnostic underlines the whole value. Block
/// collections keep their start (their extent is many lines).
pub(super) fn flow_extent(span: Span, kind: &NodeKind, text: &str) -> Span {
    let (open, close, last_end) = match kind {
        NodeKind::Seq(items) => ('[', ']', items.last().map(|n| n.span.end)),
        NodeKind::Map(entries) => ('{', '}', entries.last().map(|(_, n)| n.span.end)),
        _ => return span,
    };
    let start = span.start as usize;
    if !text[start.min(text.len())..].starts_with(open) {
        return span;
    }
    let from = last_end.map_or(start + 1, |e| (e as usize).max(start + 1));
    let Some(rest) = text.get(from..) else {
        return span;
    };
    // After the last item only spaces, line breaks and a trailing comma can come before the
    // closing bracket.
    for (i, c) in rest.char_indices() {
        match c {
            ' ' | '\t' | '\r' | '\n' | ',' => continue,
            c if c == close => return Span::new(start, from + i + 1),
            _ => return span,
        }
    }
    span
}

/// A one-character span at `offset` (or empty at the end of the text).
/// A syntax error placed where its cause is, when the parser marks where the token began:
/// - an unknown escape in a double-quoted string: the `\q` itself, not the opening quote;
/// - a character YAML does not allow (a raw control character): that character, not the start
///   of the value holding it;
/// - an error right after a line that opens a flow collection (`title: [OQMD`, `b: {x: 1`)
///   and does not close it: the unclosed bracket (the parser only notices at the next key);
/// - text after a quoted string that ran over lines (`title: "OMDb` left open on line 6 runs
///   to the next `"`, on line 19): the quote that opened it.
fn refine_position(message: &str, text: &str, at: usize) -> Option<LoadError> {
    let syntax = |message: String, start: usize, end: usize| LoadError::Syntax {
        message,
        span: Span::new(start, end),
    };
    if message.contains("after double-quoted scalar")
        || message.contains("after single-quoted scalar")
    {
        let (q, kind) = if message.contains("double") {
            ('"', "double-quoted")
        } else {
            ('\'', "single-quoted")
        };
        let (open, close) = quoted_string_before(text, at, q)?;
        let closed_on = text[..close].matches('\n').count() + 1;
        if !text[open..close].contains('\n') {
            return None;
        }
        return Some(syntax(
            format!(
                "the {kind} string opened here is not closed on its line: it runs to the next `{q}`, on line {closed_on}, where text follows it"
            ),
            open,
            open + 1,
        ));
    }
    let line_end = |i: usize| text[i..].find(['\n', '\r']).map_or(text.len(), |j| i + j);
    if message.contains("unknown escape character") {
        // From the opening quote: the first backslash whose next character is no YAML escape.
        let rest = text.get(at..)?;
        let mut chars = rest.char_indices().skip(1).peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return None,
                '\\' => {
                    let (j, e) = chars.next()?;
                    const ESCAPES: &str = "0abt\tnvfre \"/\\N_LPxuU\n\r";
                    if !ESCAPES.contains(e) {
                        return Some(syntax(
                            format!("unknown escape `\\{e}` in a double-quoted string"),
                            at + i,
                            at + j + e.len_utf8(),
                        ));
                    }
                }
                _ => {}
            }
        }
        return None;
    }
    if message.starts_with("unexpected character") {
        let end = line_end(at);
        let (i, c) = text[at..end].char_indices().find(|(_, c)| {
            (c.is_control() && *c != '\t') || crate::diagnostics::render::is_unsafe_control(*c)
        })?;
        return Some(syntax(
            format!(
                "the control character U+{:04X} is not allowed in YAML text (write it as an escape in a double-quoted string, or remove it)",
                c as u32
            ),
            at + i,
            at + i + c.len_utf8(),
        ));
    }
    let flow_related = message.contains("':' indicator")
        || message.contains("did not find expected ','")
        || message.contains("mapping values are not allowed");
    if !flow_related {
        return None;
    }
    // The nearest line with content before the error's line.
    let line_start = text[..at].rfind(['\n', '\r']).map_or(0, |j| j + 1);
    let mut end = line_start;
    let prev = loop {
        if end == 0 {
            return None;
        }
        let before = text[..end].trim_end_matches(['\n', '\r']);
        let start = before.rfind(['\n', '\r']).map_or(0, |j| j + 1);
        let line = &before[start..];
        let content = line.trim();
        if !content.is_empty() && !content.starts_with('#') {
            break (start, line);
        }
        end = start;
    };
    let (open, bracket) = unclosed_flow(prev.1)?;
    let close = if bracket == '[' { ']' } else { '}' };
    Some(syntax(
        format!(
            "unclosed bracket `{bracket}`: the flow {} it opens is not closed with `{close}` on its line, and the next line goes on as a block",
            if bracket == '[' { "list" } else { "mapping" }
        ),
        prev.0 + open,
        prev.0 + open + 1,
    ))
}

/// The opening and closing quotes (byte offsets) of the quoted string that ends at the last `q`
/// before `at`: in a double-quoted string a `\"` is no quote, in a single-quoted one a `''`.
fn quoted_string_before(text: &str, at: usize, q: char) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let quote = q as u8;
    // Whether the quote at byte `i` is written inside the string rather than ending it.
    let escaped = |i: usize| {
        if q == '"' {
            bytes[..i].iter().rev().take_while(|b| **b == b'\\').count() % 2 == 1
        } else {
            false
        }
    };
    let close = (0..at.min(bytes.len()))
        .rev()
        .find(|&i| bytes[i] == quote && !escaped(i))?;
    let mut i = close;
    while i > 0 {
        i -= 1;
        if bytes[i] != quote || escaped(i) {
            continue;
        }
        // `''` inside a single-quoted string is one quote written.
        if q == '\'' && i > 0 && bytes[i - 1] == quote {
            i -= 1;
            continue;
        }
        return Some((i, close));
    }
    None
}

/// The first flow collection a block line opens as a value (`key: [`, `- {`) and leaves
/// unclosed, with its byte offset in the line; brackets inside quotes and comments, and
/// inside a plain value (`title: a[b`), do not count.
fn unclosed_flow(line: &str) -> Option<(usize, char)> {
    let body = line.trim_start();
    let indent = line.len() - body.len();
    // Where the value starts: after `- ` items and after the key's `: `.
    let mut v = 0;
    loop {
        let rest = &body[v..];
        if let Some(r) = rest.strip_prefix("- ") {
            v += rest.len() - r.trim_start().len();
            continue;
        }
        break;
    }
    let rest = &body[v..];
    let value_at = if rest.starts_with(['[', '{']) {
        v
    } else {
        let colon = rest.find(": ")?;
        let after = &rest[colon + 1..];
        v + colon + 1 + (after.len() - after.trim_start().len())
    };
    let value = &body[value_at..];
    if !value.starts_with(['[', '{']) {
        return None;
    }
    let mut stack: Vec<(usize, char)> = Vec::new();
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in value.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') if prev == ' ' => break,
            (None, '[' | '{') => stack.push((indent + value_at + i, c)),
            (None, ']' | '}') => {
                stack.pop();
            }
            _ => {}
        }
        prev = c;
    }
    stack.first().copied()
}

pub(super) fn widen(text: &str, offset: usize) -> Span {
    let offset = offset.min(text.len());
    let len = text[offset..]
        .chars()
        .next()
        .map(|c| c.len_utf8())
        .unwrap_or(0);
    Span::new(offset, offset + len)
}

/// The `---` line that starts the document containing `offset`, when there is one.
pub(super) fn find_document_marker(text: &str, offset: usize) -> Span {
    if text.get(offset..).is_some_and(|t| t.starts_with("---")) {
        return Span::new(offset, offset + 3);
    }
    let before = &text[..offset.min(text.len())];
    match before.rfind("---") {
        Some(i) => Span::new(i, i + 3),
        None => widen(text, offset),
    }
}

/// A serde-saphyr error message without its position and snippet (positions are printed by
/// the renderer); used by the serde-saphyr reference front end the tests compare against.
#[cfg(test)]
pub(crate) fn clean_message(e: &serde_saphyr::Error) -> String {
    let mut msg = e.without_snippet().to_string();
    if let Some(rest) = msg.strip_prefix("error: ") {
        msg = rest.to_string();
    }
    // Drop a leading "line N column M: " (we print positions ourselves).
    if msg.starts_with("line ")
        && let Some(idx) = msg.find(": ")
    {
        msg = msg[idx + 2..].to_string();
    }
    if let Some(first) = msg.lines().next() {
        msg = first.to_string();
    }
    // Positions are printed by the renderer; drop the parser's own.
    if let Some(i) = msg.find(" at line ") {
        msg.truncate(i);
    }
    // Budget breaches come as debug text: say what they mean.
    if let Some(rest) = msg.strip_prefix("budget breached: ") {
        let what = rest.split([' ', '{']).next().unwrap_or(rest);
        msg = match what {
            "Nodes" => "the file has more YAML nodes than the parser's budget allows".to_string(),
            "Events" => "the file has more YAML events than the parser's budget allows".to_string(),
            "Aliases" => "the file uses more YAML aliases than `max-aliases` allows".to_string(),
            "Anchors" => "the file declares too many YAML anchors".to_string(),
            "Documents" => "the file has too many YAML documents".to_string(),
            "Depth" => "the file nests deeper than the parser's budget allows".to_string(),
            other => format!("the YAML parser's `{other}` budget was exceeded"),
        };
    }
    msg
}

/// Whether a parser message reports a resource budget rather than a syntax error.
pub(crate) fn is_limit_message(message: &str) -> bool {
    let m = message.to_lowercase();
    m.contains("limit exceeded")
        || m.contains("budget")
        || m.contains("recursion")
        || m.contains("recurse")
        || m.contains("too deep")
}

#[cfg(test)]
mod tests {
    #[test]
    fn alias_spans_cover_the_token_in_block_and_flow_context() {
        for text in [
            "a: &x 1\nb: *x\n",
            "a: &x 1\nb: {c: *x, d: 2}\n",
            "a: &x 1\nb: [*x]\n",
            "a: &x 1\nb: [1, *x ]\n",
        ] {
            let (_, uses, _) = parse_traced(text, &Limits::default()).unwrap();
            assert_eq!(uses.len(), 1, "{text}");
            let u = &uses[0];
            assert_eq!(
                &text[u.at.start as usize..u.at.end as usize],
                "*x",
                "{text}"
            );
            assert_eq!(
                &text[u.value.start as usize..u.value.end as usize],
                "&x",
                "{text}"
            );
            assert_eq!(u.anchor, "x");
        }
    }

    use super::*;
    use crate::load::yaml_serde::parse_reference;

    fn yaml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                if !p.ends_with("node_modules") && !p.ends_with("target") {
                    yaml_files(&p, out);
                }
            } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                out.push(p);
            }
        }
    }

    /// Every YAML file in the repository (declarations, fixtures of every loader error, rule
    /// docs' inputs, benchmark files) gives the same tree, spans and errors as the previous
    /// serde-saphyr front end.
    #[test]
    fn same_trees_and_errors_as_the_serde_front_end_on_every_repository_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in [
            "schemas", "intents", "aliases", "tests", "examples", "bench", "docs",
        ] {
            yaml_files(&root.join(dir), &mut files);
        }
        assert!(files.len() > 50, "{}", files.len());
        let limits = Limits::default();
        let mut differ = Vec::new();
        for f in &files {
            let Ok(text) = std::fs::read_to_string(f) else {
                continue;
            };
            let new = parse(&text, &limits);
            let old = parse_reference(&text, &limits);
            if f.ends_with("alias-bomb.yaml") {
                // The limit message names the limit and its value.
                let message = format!(
                    "aliases expand to more than {MAX_ALIAS_EXPANSION} nodes (the alias expansion limit)"
                );
                assert!(
                    matches!(&new, Err(LoadError::Limit { message: m, .. }) if *m == message),
                    "{new:?}"
                );
                continue;
            }
            let old = match old {
                // The parser's nesting limit is now reported with its value.
                Err(LoadError::Limit {
                    message,
                    span,
                    setting,
                }) if message == "recursion limit exceeded" => Err(LoadError::Limit {
                    message: format!(
                        "the file nests more than {PARSER_NESTING_LIMIT} levels deep (the YAML parser's nesting limit)"
                    ),
                    span,
                    setting,
                }),
                other => other,
            };
            if new != old {
                differ.push(format!(
                    "{}:\n  new {:?}\n  old {:?}",
                    f.display(),
                    short(&new),
                    short(&old)
                ));
            }
        }
        assert!(
            differ.is_empty(),
            "{} of {} differ:\n{}",
            differ.len(),
            files.len(),
            differ.join("\n")
        );
    }

    /// A generated inventory (the `gen` command's files) parses identically too.
    #[test]
    fn same_trees_as_the_serde_front_end_on_a_generated_inventory() {
        let generated = crate::synth::generate(&crate::synth::GenConfig {
            tools: 60,
            seed: 11,
            fields_per_tool: 30,
        });
        let limits = Limits::default();
        let mut yaml = 0;
        for f in &generated.files {
            if f.path.ends_with(".yaml") {
                yaml += 1;
                assert_eq!(
                    parse(&f.text, &limits),
                    parse_reference(&f.text, &limits),
                    "{}",
                    f.path
                );
            }
        }
        assert!(yaml > 60, "{yaml}");
    }

    fn short(r: &Result<Node, LoadError>) -> String {
        let s = format!("{r:?}");
        s.chars().take(400).collect()
    }

    #[test]
    fn a_bad_item_of_a_merge_list_is_left_out_alone() {
        let limits = Limits::default();
        let text = "a: &a {k: 1}\nb:\n  <<: [*a, 1]\n  m: 2\n";
        let (node, _, faults) = parse_traced(text, &limits).unwrap();
        let NodeKind::Map(top) = node.kind else {
            panic!()
        };
        let NodeKind::Map(b) = &top[1].1.kind else {
            panic!()
        };
        let keys: Vec<&str> = b.iter().map(|(k, _)| k.text.as_str()).collect();
        assert_eq!(keys, ["m", "k"]);
        assert_eq!(
            faults,
            vec![LoadError::Syntax {
                message: "a `<<` merge list holds only mappings (aliases of mappings)".into(),
                span: Span::new(27, 28),
            }]
        );
    }

    #[test]
    fn an_unclosed_flow_value_is_found_on_its_line() {
        assert_eq!(unclosed_flow("    title: [OQMD"), Some((11, '[')));
        assert_eq!(unclosed_flow("  - {id: a, b: [1, 2]"), Some((4, '{')));
        assert_eq!(unclosed_flow("- - [x"), Some((4, '[')));
        assert_eq!(unclosed_flow("[a, b"), Some((0, '[')));
        // Closed, quoted, in a plain value or in a comment: none.
        for line in [
            "title: [OQMD]",
            "title: ['a]', \"[b\"]",
            "title: a[b",
            "title: x # [note",
            "title: '[x'",
            "url: https://x.org/[a",
        ] {
            assert_eq!(unclosed_flow(line), None, "{line}");
        }
    }

    /// Scalars, keys and structures of every kind the declarations use or users get wrong.
    #[test]
    fn same_results_as_the_serde_front_end_on_snippets() {
        let snippets = [
            "a: 1",
            "a: 007",
            "a: 1.10",
            "a: 0x1F",
            "a: 0o17",
            "a: 0b101",
            "a: 0X1F",
            "a: 1_000",
            "a: -0",
            "a: +5",
            "a: -007",
            "a: 1e3",
            "a: 1E-3",
            "a: .5",
            "a: 5.",
            "a: .inf",
            "a: -.Inf",
            "a: .nan",
            "a: -.nan",
            "a: 1e999",
            "a: 18446744073709551615",
            "a: 18446744073709551616",
            "a: -9223372036854775809",
            "a: 9223372036854775807",
            "a: true",
            "a: True",
            "a: TRUE",
            "a: yes",
            "a: off",
            "a: ~",
            "a: null",
            "a: Null",
            "a:",
            "a: ''",
            "a: \"\"",
            "a: 'null'",
            "a: \"1\"",
            "a: |\n  x\n  y\n",
            "a: >\n  x\n  y\n",
            "a: !!str 1",
            "a: !!int \"7\"",
            "a: ! 12",
            "a: !!float 1",
            "1: x",
            "007: x",
            "0x1F: x",
            "1.5: x",
            "true: x",
            "~: x",
            "null: x",
            "a: [1, 2, 3]",
            "a: [1, 2, 3,]",
            "a: {b: 1, c: [x, y]}",
            "a: []",
            "a: {}",
            "a:\n  - b: 1\n    c: 2\n  - d\n",
            "a: &x {b: 1}\nc: *x\n",
            "a: &x [1, 2]\nb: *x\n",
            "a: &x 5\nb: *x\n",
            "base: &b {k: 1, m: 2}\nc:\n  <<: *b\n  n: 3\n",
            "a: 1\na: 2\n",
            "a:\n  b: 1\n  c: 2\n  b: 3\n",
            "x: [a, {b: 1, b: 2}]",
            "a: 1\n---\nb: 2\n",
            "---\na: 1\n",
            "---\na: 1\n...\n",
            "# only a comment\n",
            "",
            "\u{feff}a: 1",
            "a: 'unterminated",
            "a: [1, 2",
            "a: {b: 1",
            "a:\n- b\n  - c\n",
            "\ta: 1",
            "a: *nope",
            "a: b: c",
            "- a\nb: 1",
            "a: 1\r\nb: 2\r\n",
            "é: ü\nb: 日本\n",
            "a: \"tab\\tand\\u00e9\"",
            "? complex\n: v\n",
            "[a, b]: c",
            "a: 'it''s'",
            "a: multi\n  line plain\n",
            "a: - b",
            "a: 1 # comment\nb: 2 # more\n",
            "b: &b {k: 1}\nc:\n  k: 2\n  <<: *b\n",
            "b: &b {k: 1}\nc:\n  <<: *b\n  k: 2\n",
            "b: &b {k: 1}\nd: &d {k: 3, m: 4}\nc:\n  <<: [*b, *d]\n",
            "b: &b {k: 1}\nc:\n  <<: *b\n  <<: *b\n",
            "a: &a [*a]\n",
            "a: !custom x\n",
            "a: !!binary aGk=\n",
            "a: !!map {b: 1}\n",
            "c:\n  <<: 5\n",
        ];
        // Where the event builder says more (or more exactly) than serde-saphyr did.
        let syntax = |message: &str, start: u32, end: u32| LoadError::Syntax {
            message: message.to_string(),
            span: Span::new(start as usize, end as usize),
        };
        let unsupported = |t: &str| {
            format!(
                "the tag `{t}` is not supported; declarations use plain YAML values (remove the tag)"
            )
        };
        let intended: Vec<(&str, LoadError)> = vec![
            (
                "a: *nope",
                syntax(
                    "alias references unknown anchor: no `&nope` is defined before `*nope`",
                    3,
                    4,
                ),
            ),
            (
                "b: &b {k: 1}\nc:\n  <<: *b\n  <<: *b\n",
                LoadError::DuplicateKey {
                    key: "<<".into(),
                    span: Span::new(27, 29),
                    first: Some(Span::new(18, 20)),
                },
            ),
            (
                "a: &a [*a]\n",
                syntax(
                    "the alias `*a` is inside the value of its own anchor `&a` (a recursive alias)",
                    7,
                    9,
                ),
            ),
            ("a: !custom x\n", syntax(&unsupported("!custom"), 3, 10)),
            (
                "a: !!binary aGk=\n",
                syntax(&unsupported("!!binary"), 3, 11),
            ),
            (
                "c:\n  <<: 5\n",
                syntax(
                    "the value of a `<<` merge key must be a mapping or a list of mappings",
                    9,
                    10,
                ),
            ),
        ];
        let limits = Limits::default();
        for (s, expected) in &intended {
            assert_eq!(parse(s, &limits), Err(expected.clone()), "{s:?}");
        }
        number_tag_and_key_spellings(&limits);
        let skip = [
            "a: 0b101",
            "a: !!float 1",
            "a: !!int \"7\"",
            "[a, b]: c",
            // Checked above: kept as text, where serde-saphyr refused them.
            "a: .inf",
            "a: -.Inf",
            "a: .nan",
            "a: -.nan",
            "a: 1e999",
        ];
        let mut differ = Vec::new();
        for s in snippets {
            if skip.contains(&s) || intended.iter().any(|(i, _)| i == &s) {
                continue;
            }
            let (new, old) = (parse(s, &limits), parse_reference(s, &limits));
            if new != old {
                differ.push(format!(
                    "{s:?}\n  new {}\n  old {}",
                    short(&new),
                    short(&old)
                ));
            }
        }
        assert!(differ.is_empty(), "{}", differ.join("\n"));
    }

    /// The spellings the event builder reads otherwise than serde-saphyr did (non-finite
    /// numbers, tags, YAML 1.1 integers, complex keys), checked against the intended results.
    fn number_tag_and_key_spellings(limits: &Limits) {
        let syntax = |message: &str, start: u32, end: u32| LoadError::Syntax {
            message: message.to_string(),
            span: Span::new(start as usize, end as usize),
        };
        // Non-finite numbers stay the text written (a number field then reports the type).
        for (s, raw) in [
            ("a: .inf", ".inf"),
            ("a: -.Inf", "-.Inf"),
            ("a: .nan", ".nan"),
            ("a: 1e999", "1e999"),
        ] {
            let node = parse(s, limits).unwrap();
            let NodeKind::Map(entries) = node.kind else {
                panic!("{s}")
            };
            assert_eq!(entries[0].1.kind, NodeKind::Str(raw.to_string()), "{s}");
            assert_eq!(entries[0].1.span, Span::new(3, 3 + raw.len()), "{s}");
        }
        // A quoted number tagged `!!int` keeps its digits as its spelling (not the quotes); a
        // flow key's span covers the whole key.
        let tagged = parse("a: !!int \"7\"", limits).unwrap();
        let NodeKind::Map(entries) = tagged.kind else {
            panic!()
        };
        assert_eq!(entries[0].1.kind, NodeKind::Int(7, "7".into()));
        // YAML 1.1 integer spellings are strings under the 1.2 core schema (as `yes` and
        // `1_000` are), where serde-saphyr read them as numbers; `!!float` makes a float even
        // of `1`, so an integer field refuses it as it refuses `1e3`.
        for (s, kind) in [
            ("a: 0b101", NodeKind::Str("0b101".into())),
            ("a: -0x1F", NodeKind::Str("-0x1F".into())),
            ("a: +0o17", NodeKind::Str("+0o17".into())),
            ("a: 0x1F", NodeKind::Int(31, "0x1F".into())),
            ("a: 0o17", NodeKind::Int(15, "0o17".into())),
            ("a: -12", NodeKind::Int(-12, "-12".into())),
            ("a: !!float 1", NodeKind::Float(1.0, "1".into())),
            ("a: !!float 10", NodeKind::Float(10.0, "10".into())),
            ("a: !!int 0b101", NodeKind::Null),
        ] {
            match parse(s, limits) {
                Ok(node) => {
                    let NodeKind::Map(entries) = node.kind else {
                        panic!("{s}")
                    };
                    assert_eq!(entries[0].1.kind, kind, "{s}");
                }
                Err(e) => assert_eq!(
                    e,
                    syntax("a value tagged `!!int` must be an integer", 9, 14),
                    "{s}"
                ),
            }
        }
        let complex = parse("[a, b]: c", limits).unwrap();
        let NodeKind::Map(entries) = complex.kind else {
            panic!()
        };
        assert_eq!(entries[0].0.span, Span::new(0, 6));
    }

    /// The byte budget on alias expansion stops each shape of a large value replayed many times
    /// (a scalar, a mapping, a merge, a flow list) at the use that passes it, naming the anchor.
    #[test]
    fn aliases_expanding_past_max_file_bytes_are_refused_naming_the_anchor() {
        let limits = Limits {
            max_file_bytes: 1_000,
            ..Limits::default()
        };
        let big = "x".repeat(300);
        let map: String = (0..30).map(|i| format!("k{i:02}: vvvvvvv\n  ")).collect();
        let cases = [
            // A long string used four times (4 x 300 bytes).
            (
                format!("a: &big {big}\nb: [*big, *big, *big, *big]\n"),
                "big",
                300,
                4,
            ),
            // A mapping of 30 keys (30 x (3 + 7) bytes) used as a value and through `<<`.
            (
                format!("a: &m\n  {map}\nb: *m\nc:\n  <<: *m\nd: *m\ne: *m\n"),
                "m",
                300,
                4,
            ),
            // A list replayed inside another anchored list: the nested replays count at once.
            (
                format!("a: &l [{big}]\nb: &ll [*l, *l]\nc: [*ll, *ll]\n"),
                "ll",
                600,
                1,
            ),
        ];
        for (text, anchor, bytes, nth) in cases {
            let err = parse(&text, &limits).unwrap_err();
            let LoadError::Limit {
                message,
                span,
                setting,
            } = err
            else {
                panic!("{text}: {err:?}")
            };
            assert_eq!(setting, Some("max-file-bytes"), "{text}");
            assert!(
                message.starts_with(&format!(
                    "the alias `*{anchor}` replays the anchor `&{anchor}` ({bytes} bytes of text)"
                )),
                "{text}: {message}"
            );
            assert_eq!(
                &text[span.start as usize..span.end as usize],
                format!("*{anchor}")
            );
            // The use that passes the budget is the one reported.
            let nth_use = text
                .match_indices(&format!("*{anchor}"))
                .nth(nth - 1)
                .unwrap()
                .0;
            assert_eq!(span.start as usize, nth_use, "{text}");
        }
        // Under the budget the same shapes load.
        let text = format!("a: &big {big}\nb: [*big, *big]\n");
        assert!(parse(&text, &limits).is_ok());
    }
}
