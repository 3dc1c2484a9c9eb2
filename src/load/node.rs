//! The format-neutral value tree both front-ends (YAML, TOML) produce: every node and every map
//! key carries its byte span, and numbers keep the text they were written as.

use crate::source::Span;

/// A map key with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    /// Key text.
    pub text: String,
    /// Where the key is written.
    pub span: Span,
    /// Whether the key is written as a string (plain or quoted text), not as a number, a
    /// boolean, null or a collection (whose [`Key::text`] is a spelling made for messages).
    pub string: bool,
}

/// One value of a declaration file.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// What the value is.
    pub kind: NodeKind,
    /// Where it is written (for YAML aliases: where the alias is used).
    pub span: Span,
}

/// The value of a [`Node`].
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// `null`, `~` or an empty value.
    Null,
    /// `true` / `false` (YAML 1.2 spellings only; `no` and `off` are strings).
    Bool(bool),
    /// An integer, with the text it was written as (`007`).
    Int(i64, String),
    /// A float, with the text it was written as (`1.10`).
    Float(f64, String),
    /// A string.
    Str(String),
    /// A sequence / array.
    Seq(Vec<Node>),
    /// A mapping / table, in source order.
    Map(Vec<(Key, Node)>),
}

impl Node {
    /// The span a finding about this node points at. A block mapping or list has only a start
    /// (its extent is many lines), so a finding about it would have no length in JSON and
    /// SARIF: it points at the mapping's first key (a list, at its first item's), which is
    /// where the mapping starts. Other nodes, and empty or flow collections, keep their span.
    pub fn finding_span(&self) -> Span {
        if !self.span.is_empty() {
            return self.span;
        }
        let inner = match &self.kind {
            NodeKind::Map(entries) => entries.first().map(|(k, _)| k.span),
            NodeKind::Seq(items) => items.first().map(Node::finding_span),
            _ => None,
        };
        match inner {
            Some(s) if !s.is_empty() && s.start >= self.span.start => s,
            _ => self.span,
        }
    }

    /// A short description of the node's kind for messages ("a string `no`", "a map").
    pub fn describe(&self) -> String {
        match &self.kind {
            NodeKind::Null => "null".to_string(),
            NodeKind::Bool(b) => format!("the boolean `{b}`"),
            NodeKind::Int(_, raw) => format!("the integer `{raw}`"),
            NodeKind::Float(_, raw) => format!("the number `{raw}`"),
            NodeKind::Str(s) => {
                let shown: String = s.chars().take(40).collect();
                format!("the string `{shown}`")
            }
            NodeKind::Seq(_) => "a list".to_string(),
            NodeKind::Map(_) => "a map".to_string(),
        }
    }

    /// Depth of the deepest nesting under this node (a scalar has depth 1).
    pub fn depth(&self) -> usize {
        match &self.kind {
            NodeKind::Seq(items) => 1 + items.iter().map(Node::depth).max().unwrap_or(0),
            NodeKind::Map(entries) => 1 + entries.iter().map(|(_, v)| v.depth()).max().unwrap_or(0),
            _ => 1,
        }
    }
}
