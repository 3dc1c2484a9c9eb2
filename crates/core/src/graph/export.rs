//! Graph exports: Graphviz DOT and Mermaid for pictures, a Cypher script for loading the graph
//! into Kuzu ([`CypherDialect::Kuzu`]) or Neo4j / FalkorDB ([`CypherDialect::Neo4j`]).
//! Optionally restricted to one tool's or one intent's neighbourhood (computed with petgraph
//! over the artifact's node and edge lists).

use super::build::{GEdge, GNode, NodeKind};
use crate::artifact::FrozenGraph;
use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeSet, HashMap};

/// The part of the graph to export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Focus {
    /// Everything.
    All,
    /// A tool, its endpoints, parameters and fields, and what those point at.
    Tool(String),
    /// An intent, its groups and domains, and its candidate tools.
    Intent(String),
}

/// Select nodes and edges. Errors: the focus names no tool or intent.
pub fn select(g: &FrozenGraph, focus: &Focus) -> Result<(Vec<GNode>, Vec<GEdge>), String> {
    let (start, depth, extra): (String, usize, Vec<String>) = match focus {
        Focus::All => return Ok((g.graph.nodes.clone(), g.graph.edges.clone())),

        Focus::Tool(t) => {
            if g.tool(t).is_none() {
                return Err(format!("no tool `{t}` in the artifact"));
            }
            (format!("tool:{t}"), 3, Vec::new())
        }
        Focus::Intent(i) => {
            let Some(it) = g.intent(i) else {
                return Err(format!("no intent `{i}` in the artifact"));
            };
            let extra = it
                .candidates
                .iter()
                .map(|c| format!("tool:{}", g.tools[*c as usize].id))
                .collect();
            (format!("intent:{i}"), 1, extra)
        }
    };
    let mut pg: DiGraph<usize, usize> = DiGraph::new();
    let mut ids: HashMap<&str, NodeIndex> = HashMap::new();
    let mut index: Vec<NodeIndex> = Vec::with_capacity(g.graph.nodes.len());
    for (i, n) in g.graph.nodes.iter().enumerate() {
        let ix = pg.add_node(i);
        ids.insert(n.id.as_str(), ix);
        index.push(ix);
    }
    for (i, e) in g.graph.edges.iter().enumerate() {
        if let (Some(a), Some(b)) = (index.get(e.from as usize), index.get(e.to as usize)) {
            pg.add_edge(*a, *b, i);
        }
    }
    let mut keep: BTreeSet<usize> = BTreeSet::new();
    let mut frontier: Vec<NodeIndex> = ids.get(start.as_str()).into_iter().copied().collect();
    for x in &extra {
        if let Some(ix) = ids.get(x.as_str()) {
            keep.insert(pg[*ix]);
        }
    }
    for _ in 0..=depth {
        let mut next = Vec::new();
        for n in frontier {
            if keep.insert(pg[n]) {
                next.extend(pg.neighbors_directed(n, Direction::Outgoing));
            }
        }
        frontier = next;
    }
    // Renumber the kept nodes and their edges.
    let kept: Vec<usize> = keep.iter().copied().collect();
    let renumber: HashMap<usize, u32> = kept
        .iter()
        .enumerate()
        .map(|(n, o)| (*o, n as u32))
        .collect();
    let nodes: Vec<GNode> = kept.iter().map(|i| g.graph.nodes[*i].clone()).collect();
    let edges = g
        .graph
        .edges
        .iter()
        .filter_map(|e| {
            Some(GEdge {
                from: *renumber.get(&(e.from as usize))?,
                to: *renumber.get(&(e.to as usize))?,
                kind: e.kind,
                props: e.props.clone(),
            })
        })
        .collect();
    Ok((nodes, edges))
}

fn shape(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Tool => "box3d",
        NodeKind::Endpoint => "box",
        NodeKind::Parameter => "cds",
        NodeKind::ResponseField => "note",
        NodeKind::DomainConcept => "ellipse",
        NodeKind::Unit => "plaintext",
        NodeKind::SourceType => "hexagon",
        NodeKind::LicencePolicy => "component",
        NodeKind::FieldGroup => "folder",
        NodeKind::Intent => "diamond",
        NodeKind::Domain => "doubleoctagon",
    }
}

/// A DOT quoted string's content: `"` escaped; `\` doubled (Graphviz reads `\\` in a label as
/// one backslash); line breaks (LF, CR, CRLF) as the label line break `\n`; NUL, which Graphviz
/// cannot read, shown as `\0`.
fn dot_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {
                chars.next_if_eq(&'\n');
                out.push_str("\\n");
            }
            '\0' => out.push_str("\\\\0"),
            c => out.push(c),
        }
    }
    out
}

/// Graphviz DOT.
pub fn to_dot(nodes: &[GNode], edges: &[GEdge]) -> String {
    let mut out =
        String::from("digraph schema {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n");
    for n in nodes {
        out.push_str(&format!(
            "  \"{}\" [label=\"{}\", shape={}];\n",
            dot_escape(&n.id),
            dot_escape(&n.label),
            shape(n.kind)
        ));
    }
    for e in edges {
        out.push_str(&format!(
            "  \"{}\" -> \"{}\" [label=\"{:?}\"];\n",
            dot_escape(&nodes[e.from as usize].id),
            dot_escape(&nodes[e.to as usize].id),
            e.kind
        ));
    }
    out.push_str("}\n");
    out
}

/// A label as Mermaid shows it literally: `"`, `<`, `>` and `#` as Mermaid's entity codes
/// (`#quot;`, `#lt;`, `#gt;`, `#35;`), so a quote does not end the label and `<Forum>` is not
/// taken for an HTML tag and dropped.
fn mermaid_text(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    for c in label.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '#' => out.push_str("#35;"),
            c => out.push(c),
        }
    }
    out
}

/// Mermaid flowchart.
pub fn to_mermaid(nodes: &[GNode], edges: &[GEdge]) -> String {
    let mut out = String::from("flowchart LR\n");
    for (i, n) in nodes.iter().enumerate() {
        let label = mermaid_text(&n.label);
        let (open, close) = match n.kind {
            NodeKind::Tool => ("[[", "]]"),
            NodeKind::Intent => ("{", "}"),
            NodeKind::DomainConcept => ("([", "])"),
            NodeKind::FieldGroup | NodeKind::Domain => ("[/", "/]"),
            _ => ("[", "]"),
        };
        out.push_str(&format!("  n{i}{open}\"{label}\"{close}\n"));
    }
    for e in edges {
        out.push_str(&format!("  n{} -->|{:?}| n{}\n", e.from, e.kind, e.to));
    }
    out
}

/// Mermaid's default `maxTextSize`: a longer diagram text is replaced by an error message.
/// Mermaid counts JavaScript string length, that is UTF-16 code units. Site configuration
/// cannot raise it from inside a diagram (it is one of Mermaid's `secure` keys).
pub const MERMAID_MAX_TEXT: usize = 50_000;

/// Mermaid's default `maxEdges`: a flowchart with more edges fails to render.
pub const MERMAID_MAX_EDGES: usize = 500;

/// A Mermaid diagram too large for Mermaid's default limits (and so for GitHub's renderer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MermaidTooLarge {
    /// Diagram length in UTF-16 code units (Mermaid's measure).
    pub text_len: usize,
    /// Edge count.
    pub edges: usize,
}

impl std::fmt::Display for MermaidTooLarge {
    /// Names the limit(s) exceeded and their values.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut over = Vec::new();
        if self.text_len > MERMAID_MAX_TEXT {
            over.push(format!(
                "{} characters (Mermaid's maxTextSize is {MERMAID_MAX_TEXT})",
                self.text_len
            ));
        }
        if self.edges > MERMAID_MAX_EDGES {
            over.push(format!(
                "{} edges (Mermaid's maxEdges is {MERMAID_MAX_EDGES})",
                self.edges
            ));
        }
        write!(
            f,
            "the Mermaid diagram would have {}, so stock Mermaid and GitHub cannot render it",
            over.join(" and ")
        )
    }
}

/// Mermaid flowchart within Mermaid's default limits ([`MERMAID_MAX_TEXT`] characters,
/// [`MERMAID_MAX_EDGES`] edges). Errors: the diagram would exceed either limit.
pub fn to_mermaid_checked(nodes: &[GNode], edges: &[GEdge]) -> Result<String, MermaidTooLarge> {
    let text = to_mermaid(nodes, edges);
    let text_len = text.encode_utf16().count();
    if text_len > MERMAID_MAX_TEXT || edges.len() > MERMAID_MAX_EDGES {
        return Err(MermaidTooLarge {
            text_len,
            edges: edges.len(),
        });
    }
    Ok(text)
}

/// Which Cypher the script is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CypherDialect {
    /// openCypher as Neo4j 5 and FalkorDB read it: one index on `id` per node label, then
    /// `CREATE` / `MATCH ... CREATE` statements, one per line (line breaks and tabs in strings
    /// are escaped as `\n`, `\r`, `\t`).
    #[default]
    Neo4j,
    /// Kuzu: `CREATE NODE TABLE` and `CREATE REL TABLE` definitions with typed columns first
    /// (Kuzu has a schema), then the same data statements. Kuzu reads no escapes other than
    /// `\\` and `\'`, so other characters are written as they are; a statement may span lines.
    Kuzu,
}

/// A typed property value of the Cypher export.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Str(String),
    Float(f64),
    List(Vec<String>),
}

impl Value {
    fn kuzu_type(&self) -> &'static str {
        match self {
            Value::Str(_) => "STRING",
            Value::Float(_) => "DOUBLE",
            Value::List(_) => "STRING[]",
        }
    }
}

/// Typed properties of one node or edge, in output order.
type Props = Vec<(String, Value)>;

/// One edge of the Cypher export: its end nodes, relationship type and properties.
struct EdgeRow<'a> {
    from: &'a GNode,
    to: &'a GNode,
    kind: String,
    props: Props,
}

/// Graph properties that hold numbers (written by [`super::build::number`]).
const NUMBER_PROPS: [&str; 2] = ["si_factor", "factor"];

fn typed(key: &str, v: &str) -> Value {
    if NUMBER_PROPS.contains(&key)
        && let Ok(x) = v.parse::<f64>()
        && x.is_finite()
    {
        return Value::Float(x);
    }
    Value::Str(v.to_string())
}

/// A Cypher string literal. Both dialects escape `\` and `'`; the Neo4j dialect also escapes
/// line feed, carriage return and tab (`\n`, `\r`, `\t`, so each statement stays on one line),
/// and NUL as `\u0000` (FalkorDB reads no `\uXXXX` escape and cannot hold a NUL, so there it
/// stays those six characters). Kuzu reads no escapes but `\\` and `\'`, and takes every
/// character as it is. Every other character is written as it is: openCypher allows any
/// character but `'` and `\` in a quoted string.
fn cypher_str(s: &str, dialect: CypherDialect) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c if dialect == CypherDialect::Kuzu => out.push(c),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\u0000"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

fn cypher_value(v: &Value, dialect: CypherDialect) -> String {
    match v {
        Value::Str(s) => cypher_str(s, dialect),
        Value::Float(x) => format!("{x:?}"),
        Value::List(xs) => {
            let items: Vec<String> = xs.iter().map(|x| cypher_str(x, dialect)).collect();
            format!("[{}]", items.join(", "))
        }
    }
}

/// A label or property name, backquoted unless it is a plain identifier.
fn ident(s: &str) -> String {
    let plain = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        s.to_string()
    } else {
        format!("`{}`", s.replace('`', "``"))
    }
}

fn props_map(props: &[(String, Value)], dialect: CypherDialect) -> String {
    let items: Vec<String> = props
        .iter()
        .map(|(k, v)| format!("{}: {}", ident(k), cypher_value(v, dialect)))
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// Alias texts of each concept (all languages, in the artifact's order, each text once).
fn concept_aliases(g: &FrozenGraph) -> HashMap<String, Vec<String>> {
    g.concepts
        .iter()
        .filter(|c| !c.aliases.is_empty())
        .map(|c| {
            let mut seen = BTreeSet::new();
            let texts = c
                .aliases
                .values()
                .flatten()
                .filter(|t| seen.insert(t.as_str()))
                .cloned()
                .collect();
            (format!("concept:{}", c.id), texts)
        })
        .collect()
}

/// Kuzu's schema for the rows: a `CREATE NODE TABLE` per node label with one typed column per
/// property that label's nodes have (`id` and `label` first, the rest sorted), and a
/// `CREATE REL TABLE` per relationship type with every (from, to) label pair it joins and its
/// property columns, sorted.
fn kuzu_schema(node_rows: &[(String, Props)], edge_rows: &[EdgeRow]) -> String {
    use std::collections::BTreeMap;
    let mut out = String::new();
    let mut tables: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
    for (label, props) in node_rows {
        let cols = tables.entry(label).or_default();
        for (k, v) in props.iter().skip(2) {
            cols.insert(k, v.kuzu_type());
        }
    }
    for (label, cols) in &tables {
        let mut c = vec!["id STRING".to_string(), "label STRING".to_string()];
        c.extend(cols.iter().map(|(k, t)| format!("{} {t}", ident(k))));
        c.push("PRIMARY KEY (id)".to_string());
        out.push_str(&format!(
            "CREATE NODE TABLE {}({});\n",
            ident(label),
            c.join(", ")
        ));
    }
    let mut pairs: BTreeMap<&str, BTreeSet<(String, String)>> = BTreeMap::new();
    let mut cols: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
    for e in edge_rows {
        let from_to = (format!("{:?}", e.from.kind), format!("{:?}", e.to.kind));
        pairs.entry(&e.kind).or_default().insert(from_to);
        let c = cols.entry(&e.kind).or_default();
        for (k, v) in &e.props {
            c.insert(k, v.kuzu_type());
        }
    }
    for (kind, pairs) in &pairs {
        let mut c: Vec<String> = pairs
            .iter()
            .map(|(a, b)| format!("FROM {} TO {}", ident(a), ident(b)))
            .collect();
        c.extend(cols[kind].iter().map(|(k, t)| format!("{} {t}", ident(k))));
        out.push_str(&format!(
            "CREATE REL TABLE {}({});\n",
            ident(kind),
            c.join(", ")
        ));
    }
    out
}

/// A Cypher script that creates the selected nodes and edges, in the given dialect.
///
/// Every node gets its label from its kind (`Tool`, `ResponseField`, ...) and the properties
/// `id` (the stable id, unique) and `label`, plus its graph properties; a concept also gets
/// `aliases` (its alias texts from `g`, all languages). Units carry `dimension`, `si_unit` and
/// `si_factor` (multiply a value in the unit by `si_factor` to get it in `si_unit`);
/// `MEASURED_IN` carries `as_published` when the provider spells the unit differently, and
/// `MAPS_TO_CONCEPT` carries `factor` to the concept's unit. Numbers are `DOUBLE`s, aliases a
/// `STRING[]`, everything else `STRING`. Nodes come in the artifact's (id-sorted) order, then
/// edges in theirs, so the same artifact gives the same bytes.
pub fn to_cypher(
    g: &FrozenGraph,
    nodes: &[GNode],
    edges: &[GEdge],
    dialect: CypherDialect,
) -> String {
    let aliases = concept_aliases(g);
    let node_rows: Vec<(String, Props)> = nodes
        .iter()
        .map(|n| {
            let mut props = vec![
                ("id".to_string(), Value::Str(n.id.clone())),
                ("label".to_string(), Value::Str(n.label.clone())),
            ];
            for (k, v) in &n.props {
                props.push((k.clone(), typed(k, v)));
            }
            if let Some(a) = aliases.get(&n.id) {
                props.push(("aliases".to_string(), Value::List(a.clone())));
            }
            (format!("{:?}", n.kind), props)
        })
        .collect();
    let edge_rows: Vec<EdgeRow> = edges
        .iter()
        .filter_map(|e| {
            Some(EdgeRow {
                from: nodes.get(e.from as usize)?,
                to: nodes.get(e.to as usize)?,
                kind: format!("{:?}", e.kind),
                props: e
                    .props
                    .iter()
                    .map(|(k, v)| (k.clone(), typed(k, v)))
                    .collect(),
            })
        })
        .collect();
    let mut out = String::new();
    match dialect {
        CypherDialect::Neo4j => {
            let labels: BTreeSet<&str> = node_rows.iter().map(|(l, _)| l.as_str()).collect();
            for l in labels {
                out.push_str(&format!("CREATE INDEX FOR (n:{}) ON (n.id);\n", ident(l)));
            }
        }
        CypherDialect::Kuzu => out.push_str(&kuzu_schema(&node_rows, &edge_rows)),
    }
    for (l, props) in &node_rows {
        out.push_str(&format!(
            "CREATE (:{} {});\n",
            ident(l),
            props_map(props, dialect)
        ));
    }
    for EdgeRow {
        from,
        to,
        kind,
        props,
    } in &edge_rows
    {
        let rel_props = if props.is_empty() {
            String::new()
        } else {
            format!(" {}", props_map(props, dialect))
        };
        out.push_str(&format!(
            "MATCH (a:{:?} {{id: {}}}), (b:{:?} {{id: {}}}) CREATE (a)-[:{}{rel_props}]->(b);\n",
            from.kind,
            cypher_str(&from.id, dialect),
            to.kind,
            cypher_str(&to.id, dialect),
            ident(kind),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::build::EdgeKind;

    fn node(id: &str, kind: NodeKind, label: &str) -> GNode {
        GNode {
            id: id.to_string(),
            kind,
            label: label.to_string(),
            props: Default::default(),
        }
    }

    fn edges(n: usize) -> Vec<GEdge> {
        (0..n)
            .map(|_| GEdge {
                from: 0,
                to: 1,
                kind: EdgeKind::HAS_ENDPOINT,
                props: Default::default(),
            })
            .collect()
    }

    #[test]
    fn mermaid_labels_keep_quotes_tags_and_hashes() {
        assert_eq!(
            mermaid_text(r#"Iris "Clinical" <Forum> #1 {x}"#),
            "Iris #quot;Clinical#quot; #lt;Forum#gt; #35;1 {x}"
        );
    }

    #[test]
    fn mermaid_edge_limit_is_inclusive() {
        let nodes = [
            node("tool:a", NodeKind::Tool, "a"),
            node("endpoint:a/b", NodeKind::Endpoint, "b"),
        ];
        assert!(to_mermaid_checked(&nodes, &edges(MERMAID_MAX_EDGES)).is_ok());
        let err = to_mermaid_checked(&nodes, &edges(MERMAID_MAX_EDGES + 1)).unwrap_err();
        assert_eq!(err.edges, 501);
        assert_eq!(
            err.to_string(),
            "the Mermaid diagram would have 501 edges (Mermaid's maxEdges is 500), so stock \
             Mermaid and GitHub cannot render it"
        );
    }

    #[test]
    fn mermaid_text_limit_counts_utf16_units() {
        // "flowchart LR\n" + "  n0[\"" + label + "\"]\n" is 22 units plus the label.
        let label = "😀".repeat((MERMAID_MAX_TEXT - 22) / 2);
        let at = [node("endpoint:a/b", NodeKind::Endpoint, &label)];
        let text = to_mermaid_checked(&at, &[]).unwrap();
        assert_eq!(text.encode_utf16().count(), MERMAID_MAX_TEXT);
        assert!(text.len() > MERMAID_MAX_TEXT, "more bytes than units");
        let over = [node(
            "endpoint:a/b",
            NodeKind::Endpoint,
            &format!("{label}x"),
        )];
        let err = to_mermaid_checked(&over, &[]).unwrap_err();
        assert_eq!((err.text_len, err.edges), (MERMAID_MAX_TEXT + 1, 0));
        assert!(
            err.to_string()
                .contains("50001 characters (Mermaid's maxTextSize is 50000)")
        );
    }

    #[test]
    fn cypher_strings_escape_per_dialect() {
        let s = "it's \\ \"q\"\n\r\t\0\u{1} é 😀";
        assert_eq!(
            cypher_str(s, CypherDialect::Neo4j),
            "'it\\'s \\\\ \"q\"\\n\\r\\t\\u0000\u{1} é 😀'"
        );
        assert_eq!(
            cypher_str(s, CypherDialect::Kuzu),
            "'it\\'s \\\\ \"q\"\n\r\t\0\u{1} é 😀'"
        );
        assert_eq!(ident("label"), "label");
        assert_eq!(ident("odd key"), "`odd key`");
        assert_eq!(ident("a`b"), "`a``b`");
    }

    #[test]
    fn dot_strings() {
        assert_eq!(
            dot_escape("a\"b\\c\nd\r\ne\rf\0g é"),
            "a\\\"b\\\\c\\nd\\ne\\nf\\\\0g é"
        );
    }

    #[test]
    fn typed_properties() {
        assert_eq!(
            typed("si_factor", "1.602176634e-19"),
            Value::Float(1.602176634e-19)
        );
        assert_eq!(typed("factor", "0.001"), Value::Float(0.001));
        assert_eq!(typed("unit", "0.001"), Value::Str("0.001".into()));
        assert_eq!(
            cypher_value(&Value::Float(1e-30), CypherDialect::Neo4j),
            "1e-30"
        );
        assert_eq!(cypher_value(&Value::Float(1.0), CypherDialect::Kuzu), "1.0");
        assert_eq!(
            cypher_value(
                &Value::List(vec!["a".into(), "b'c".into()]),
                CypherDialect::Kuzu
            ),
            "['a', 'b\\'c']"
        );
    }
}
