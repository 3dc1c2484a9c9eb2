//! Graph exports: Graphviz DOT and Mermaid for pictures, Cypher `CREATE` statements for loading
//! the graph into Kuzu or Neo4j. Optionally restricted to one tool's or one intent's
//! neighbourhood (computed with petgraph over the artifact's node and edge lists).

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

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
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

/// Mermaid flowchart.
pub fn to_mermaid(nodes: &[GNode], edges: &[GEdge]) -> String {
    let mut out = String::from("flowchart LR\n");
    for (i, n) in nodes.iter().enumerate() {
        let label = n.label.replace('"', "#quot;");
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

fn cypher_str(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Cypher `CREATE` statements (Neo4j / Kuzu-compatible property graph).
pub fn to_cypher(nodes: &[GNode], edges: &[GEdge]) -> String {
    let mut out = String::new();
    for n in nodes {
        let mut props = vec![
            format!("id: {}", cypher_str(&n.id)),
            format!("label: {}", cypher_str(&n.label)),
        ];
        for (k, v) in &n.props {
            props.push(format!("{k}: {}", cypher_str(v)));
        }
        out.push_str(&format!(
            "CREATE (:{:?} {{{}}});\n",
            n.kind,
            props.join(", ")
        ));
    }
    for e in edges {
        let (Some(from), Some(to)) = (nodes.get(e.from as usize), nodes.get(e.to as usize)) else {
            continue;
        };
        let (a, b) = (&from.kind, &to.kind);
        let props: Vec<String> = e
            .props
            .iter()
            .map(|(k, v)| format!("{k}: {}", cypher_str(v)))
            .collect();
        let props = if props.is_empty() {
            String::new()
        } else {
            format!(" {{{}}}", props.join(", "))
        };
        out.push_str(&format!(
            "MATCH (a:{a:?} {{id: {}}}), (b:{b:?} {{id: {}}}) CREATE (a)-[:{:?}{props}]->(b);\n",
            cypher_str(&from.id),
            cypher_str(&to.id),
            e.kind
        ));
    }
    out
}
