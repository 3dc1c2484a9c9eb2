//! The typed schema graph (paper section 4) as a petgraph `DiGraph`, built from a checked
//! project. Node ids are stable strings (`tool:materials_project`,
//! `field:materials_project/summary/band_gap`); the compiler writes the graph as sorted node and
//! edge lists, never in petgraph's own serde layout.

use super::index::{Index, field_path};
use crate::model::{Licence, Project};
use crate::units::{Unit, UnitCache, conversion};
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Node kinds of the schema graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum NodeKind {
    /// A tool.
    Tool,
    /// An endpoint of a tool.
    Endpoint,
    /// A request parameter.
    Parameter,
    /// A response field.
    ResponseField,
    /// A domain concept.
    DomainConcept,
    /// A unit (canonical spelling); properties `dimension`, `si_unit` (the dimension's coherent
    /// SI unit) and `si_factor` (value in `si_unit` = value in this unit × `si_factor`).
    Unit,
    /// A source type.
    SourceType,
    /// A licence (SPDX expression or LicenseRef).
    LicencePolicy,
    /// A field group.
    FieldGroup,
    /// An intent.
    Intent,
    /// A domain.
    Domain,
}

/// Edge kinds of the schema graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub enum EdgeKind {
    /// Tool -> Endpoint.
    HAS_ENDPOINT,
    /// Endpoint -> Parameter.
    HAS_PARAMETER,
    /// Endpoint -> ResponseField.
    RETURNS,
    /// ResponseField -> Unit; property `as_published` (the provider's spelling) when it differs
    /// from the canonical one.
    MEASURED_IN,
    /// Tool or ResponseField (override) -> SourceType.
    HAS_SOURCE_TYPE,
    /// Tool or ResponseField (override) -> LicencePolicy.
    LICENSED_UNDER,
    /// ResponseField -> DomainConcept; property `factor` (value in the concept's unit = value
    /// in the field's unit × factor) when both have units of one dimension.
    MAPS_TO_CONCEPT,
    /// DomainConcept -> ResponseField, for an alias text that means exactly that field.
    ALIASED_AS,
    /// ResponseField -> FieldGroup.
    IN_GROUP,
    /// Intent -> FieldGroup.
    REQUIRES_GROUP,
    /// Intent or Tool -> Domain.
    TARGETS_DOMAIN,
    /// DomainConcept -> Parameter (the parameter is bound from the concept).
    BINDS_PARAMETER,
}

/// String properties of a node or an edge, sorted by key without repeats. A sorted vector
/// rather than a `BTreeMap`: an entity has at most a few, a map's first leaf is about 550 bytes,
/// and a 10,000-tool graph has over a million nodes and edges. Written as a map, in key order,
/// exactly as a `BTreeMap` is, and ordered like one (pair by pair).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Props(Vec<(String, String)>);

impl Props {
    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.0
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()
            .map(|i| &self.0[i].1)
    }

    /// (key, value) pairs in key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&String, &String)> + Clone {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl FromIterator<(String, String)> for Props {
    /// Sorted by key; of pairs with one key the last is kept (as collecting a `BTreeMap` does).
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> Props {
        let mut v: Vec<(String, String)> = iter.into_iter().collect();
        // Stable: pairs with one key keep their order, and the last one is kept below.
        v.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(String, String)> = Vec::with_capacity(v.len());
        for pair in v {
            match out.last_mut() {
                Some(last) if last.0 == pair.0 => *last = pair,
                _ => out.push(pair),
            }
        }
        Props(out)
    }
}

impl<'a> IntoIterator for &'a Props {
    type Item = (&'a String, &'a String);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, String)>,
        fn(&'a (String, String)) -> (&'a String, &'a String),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl Serialize for Props {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Props {
    /// A map without repeated keys (``duplicate key `k` ``).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Props, D::Error> {
        let m = crate::json::unique_map::<_, String>(d, None)?;
        Ok(Props(m.into_iter().collect()))
    }
}

impl<'de> crate::json::UniqueMap<'de> for Props {
    fn deserialize_unique<D: serde::Deserializer<'de>>(
        d: D,
        name: &'static str,
    ) -> Result<Props, D::Error> {
        let m = crate::json::unique_map::<_, String>(d, Some(name))?;
        Ok(Props(m.into_iter().collect()))
    }
}

/// Read a node's `props` (in an artifact), refusing a repeated key.
fn node_props<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Props, D::Error> {
    crate::json::UniqueMap::deserialize_unique(d, "graph.nodes[].props")
}

/// Read an edge's `props` (in an artifact), refusing a repeated key.
fn edge_props<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Props, D::Error> {
    crate::json::UniqueMap::deserialize_unique(d, "graph.edges[].props")
}

/// A node: stable id, kind, display label and string properties.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GNode {
    /// Stable id (`kind:path`).
    pub id: String,
    /// Kind.
    pub kind: NodeKind,
    /// Short display label.
    pub label: String,
    /// Extra properties (sorted).
    #[serde(
        default,
        skip_serializing_if = "Props::is_empty",
        deserialize_with = "node_props"
    )]
    pub props: Props,
}

/// An edge as written in the artifact: indices into the sorted node list, kind and optional
/// properties.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GEdge {
    /// Index of the source node in the sorted node list.
    pub from: u32,
    /// Index of the target node in the sorted node list.
    pub to: u32,
    /// Kind.
    pub kind: EdgeKind,
    /// Extra properties (sorted).
    #[serde(
        default,
        skip_serializing_if = "Props::is_empty",
        deserialize_with = "edge_props"
    )]
    pub props: Props,
}

/// An edge weight in the in-memory graph (petgraph holds the endpoints).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeData {
    /// Kind.
    pub kind: EdgeKind,
    /// Extra properties.
    pub props: Props,
}

/// The schema graph.
pub struct SchemaGraph {
    /// The petgraph graph.
    pub graph: DiGraph<GNode, EdgeData>,
    /// Node index by id (an FxHash map: at 10,000 tools the ids and the shared nodes below are
    /// looked up millions of times on one thread, and nothing iterates them).
    ids: FxHashMap<String, NodeIndex>,
    /// Nodes many others point at (domains, groups, concepts, units, source types), by id
    /// prefix and then the rest of the id: found again without formatting the id.
    shared: FxHashMap<&'static str, FxHashMap<String, NodeIndex>>,
}

impl SchemaGraph {
    fn new() -> SchemaGraph {
        SchemaGraph {
            graph: DiGraph::new(),
            ids: FxHashMap::default(),
            shared: FxHashMap::default(),
        }
    }

    fn node(
        &mut self,
        id: String,
        kind: NodeKind,
        label: &str,
        props: &[(&str, String)],
    ) -> NodeIndex {
        let slot = match self.ids.entry(id) {
            std::collections::hash_map::Entry::Occupied(o) => return *o.get(),
            std::collections::hash_map::Entry::Vacant(v) => v,
        };
        let n = GNode {
            id: slot.key().clone(),
            kind,
            label: label.to_string(),
            props: props
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        };
        let ix = self.graph.add_node(n);
        slot.insert(ix);
        ix
    }

    /// The node `{prefix}:{key}`, added (with `props()`) when it is new.
    fn shared(
        &mut self,
        prefix: &'static str,
        key: &str,
        kind: NodeKind,
        label: &str,
        props: impl FnOnce() -> Vec<(&'static str, String)>,
    ) -> NodeIndex {
        if let Some(ix) = self.shared.get(prefix).and_then(|m| m.get(key)) {
            return *ix;
        }
        let ix = self.node(format!("{prefix}:{key}"), kind, label, &props());
        self.shared
            .entry(prefix)
            .or_default()
            .insert(key.to_string(), ix);
        ix
    }

    fn edge(&mut self, from: NodeIndex, to: NodeIndex, kind: EdgeKind, props: &[(&str, String)]) {
        let e = EdgeData {
            kind,
            props: props
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        };
        self.graph.add_edge(from, to, e);
    }

    /// Node index by stable id.
    pub fn find(&self, id: &str) -> Option<NodeIndex> {
        self.ids.get(id).copied()
    }

    /// [`Self::sorted`], consuming the graph (no copies of the nodes; sorts in parallel).
    pub fn into_sorted(self) -> (Vec<GNode>, Vec<GEdge>) {
        let (nodes, edges) = self.graph.into_nodes_edges();
        let nodes: Vec<GNode> = nodes.into_iter().map(|n| n.weight).collect();
        let (nodes, position) = sort_nodes(nodes);
        let edges: Vec<GEdge> = edges
            .into_iter()
            .map(|e| GEdge {
                from: position[e.source().index()],
                to: position[e.target().index()],
                kind: e.weight.kind,
                props: e.weight.props,
            })
            .collect();
        (nodes, sort_edges(edges))
    }

    /// Nodes sorted by id, and edges as indices into that order, sorted by (from, kind, to,
    /// props) without duplicates.
    pub fn sorted(&self) -> (Vec<GNode>, Vec<GEdge>) {
        let mut order: Vec<NodeIndex> = self.graph.node_indices().collect();
        order.sort_by(|a, b| self.graph[*a].id.cmp(&self.graph[*b].id));
        let mut position = vec![0u32; self.graph.node_count()];
        for (pos, ix) in order.iter().enumerate() {
            position[ix.index()] = pos as u32;
        }
        let nodes: Vec<GNode> = order.iter().map(|ix| self.graph[*ix].clone()).collect();
        let mut edges: Vec<GEdge> = self
            .graph
            .edge_indices()
            .filter_map(|e| {
                let (a, b) = self.graph.edge_endpoints(e)?;
                let w = &self.graph[e];
                Some(GEdge {
                    from: position[a.index()],
                    to: position[b.index()],
                    kind: w.kind,
                    props: w.props.clone(),
                })
            })
            .collect();
        edges.sort_by(|a, b| {
            (a.from, a.kind, a.to, &a.props).cmp(&(b.from, b.kind, b.to, &b.props))
        });
        edges.dedup();
        (nodes, edges)
    }

    /// Count of nodes per kind.
    pub fn counts(&self) -> BTreeMap<NodeKind, usize> {
        let mut m = BTreeMap::new();
        for n in self.graph.node_weights() {
            *m.entry(n.kind).or_insert(0) += 1;
        }
        m
    }
}

/// Nodes sorted by id (ids must be unique for the order to be the one order), in place: the
/// list's own buffer is reused and the permutation is applied by following its cycles (at
/// 10,000 tools a second and third node list were about 90 MB of the compile peak). Also
/// returns each node's new position, by old position.
fn sort_nodes(mut nodes: Vec<GNode>) -> (Vec<GNode>, Vec<u32>) {
    use rayon::prelude::*;
    // The ids sit beside their positions, so a comparison reads two strings, not two nodes
    // (ids are unique, so the unstable sort has one result).
    let mut keyed: Vec<(&str, u32)> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i as u32))
        .collect();
    keyed.par_sort_unstable();
    let order: Vec<u32> = keyed.into_iter().map(|(_, i)| i).collect();
    let mut position = vec![0u32; nodes.len()];
    for (pos, ix) in order.iter().enumerate() {
        position[*ix as usize] = pos as u32;
    }
    let mut placed = vec![false; nodes.len()];
    for start in 0..nodes.len() {
        // Position `p` takes the node that was at `order[p]`.
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at] as usize;
            if from == start {
                break;
            }
            nodes.swap(at, from);
            at = from;
        }
    }
    (nodes, position)
}

/// Edges sorted by (from, kind, to, props), without repeats. The key is the whole edge, so an
/// unstable (parallel) sort is deterministic.
fn sort_edges(mut edges: Vec<GEdge>) -> Vec<GEdge> {
    use rayon::prelude::*;
    edges.par_sort_unstable_by(|a, b| {
        (a.from, a.kind, a.to, &a.props).cmp(&(b.from, b.kind, b.to, &b.props))
    });
    edges.dedup();
    edges
}

/// A factor as a graph property: Rust's shortest round-trip spelling (`0.001`,
/// `1.602176634e-19`), which `str::parse::<f64>` reads back to the same number.
pub fn number(x: f64) -> String {
    format!("{x:?}")
}

fn licence_id(l: &Licence) -> String {
    format!("licence:{}", l.spdx.value)
}

/// The nodes every tool may point at that the project declares (domains, field groups,
/// concepts) and the intents with their edges; returns each declared concept's unit (the last
/// declaration of an id wins, as in a map).
fn declared_part<'a>(
    g: &mut SchemaGraph,
    p: &'a Project,
    units: &'a UnitCache,
) -> FxHashMap<&'a str, &'a Unit> {
    for d in &p.domains {
        g.shared(
            "domain",
            &d.item.id.value,
            NodeKind::Domain,
            &d.item.id.value,
            Vec::new,
        );
    }
    for gr in &p.groups {
        g.shared(
            "group",
            &gr.item.id.value,
            NodeKind::FieldGroup,
            &gr.item.id.value,
            Vec::new,
        );
    }
    let concept_units: FxHashMap<&str, &Unit> = p
        .concepts
        .iter()
        .filter_map(|c| {
            let u = units.get(&c.item.unit.as_ref()?.value)?;
            Some((c.item.id.value.as_str(), &u.unit))
        })
        .collect();
    for c in &p.concepts {
        let mut props = vec![("kind", format!("{:?}", c.item.kind()).to_lowercase())];
        if let Some(u) = &c.item.unit {
            props.push(("unit", u.value.clone()));
        }
        g.node(
            format!("concept:{}", c.item.id.value),
            NodeKind::DomainConcept,
            &c.item.id.value,
            &props,
        );
    }
    for i in &p.intents {
        let n = g.node(
            format!("intent:{}", i.item.id.value),
            NodeKind::Intent,
            &i.item.id.value,
            &[],
        );
        for d in &i.item.domains {
            let dn = g.shared("domain", &d.value, NodeKind::Domain, &d.value, Vec::new);
            g.edge(n, dn, EdgeKind::TARGETS_DOMAIN, &[]);
        }
        for r in &i.item.required_groups {
            let gn = g.shared("group", &r.value, NodeKind::FieldGroup, &r.value, Vec::new);
            g.edge(n, gn, EdgeKind::REQUIRES_GROUP, &[]);
        }
    }
    concept_units
}

/// Build the schema graph of a project (expected to be free of errors). [`build_sorted`] gives
/// the same graph sorted, faster.
pub fn build(p: &Project, ix: &Index, units: &UnitCache) -> SchemaGraph {
    let mut g = SchemaGraph::new();
    let concept_units = declared_part(&mut g, p, units);
    for t in &p.tools {
        let tid = &t.id.value;
        let tn = g.node(format!("tool:{tid}"), NodeKind::Tool, &t.title.value, &[]);
        let dn = g.shared(
            "domain",
            &t.domain.value,
            NodeKind::Domain,
            &t.domain.value,
            Vec::new,
        );
        g.edge(tn, dn, EdgeKind::TARGETS_DOMAIN, &[]);
        if let Some(st) = &t.source_type {
            let sn = g.shared(
                "source_type",
                &st.value,
                NodeKind::SourceType,
                &st.value,
                Vec::new,
            );
            g.edge(tn, sn, EdgeKind::HAS_SOURCE_TYPE, &[]);
        }
        if let Some(l) = &t.licence {
            let ln = g.node(licence_id(l), NodeKind::LicencePolicy, &l.spdx.value, &[]);
            g.edge(tn, ln, EdgeKind::LICENSED_UNDER, &[]);
        }
        for e in &t.endpoints {
            let eid = format!("{tid}/{}", e.id.value);
            let en = g.node(
                format!("endpoint:{eid}"),
                NodeKind::Endpoint,
                &e.id.value,
                &[("url", e.url.value.clone())],
            );
            g.edge(tn, en, EdgeKind::HAS_ENDPOINT, &[]);
            for param in &e.parameters {
                let pn = g.node(
                    format!("param:{eid}/{}", param.name.value),
                    NodeKind::Parameter,
                    &param.name.value,
                    &[("type", param.ty.value.to_string())],
                );
                g.edge(en, pn, EdgeKind::HAS_PARAMETER, &[]);
                for b in &param.bind {
                    let cn = g.shared(
                        "concept",
                        &b.concept.value,
                        NodeKind::DomainConcept,
                        &b.concept.value,
                        Vec::new,
                    );
                    g.edge(cn, pn, EdgeKind::BINDS_PARAMETER, &[]);
                }
            }
            for f in &e.fields {
                let fid = format!("field:{}", field_path(tid, &e.id.value, &f.name.value));
                let fnode = g.node(
                    fid,
                    NodeKind::ResponseField,
                    &f.name.value,
                    &[("type", f.ty.value.to_string())],
                );
                g.edge(en, fnode, EdgeKind::RETURNS, &[]);
                let field_unit = f
                    .unit
                    .as_ref()
                    .and_then(|u| units.get(&u.value))
                    .map(|c| &c.unit);
                if let Some(unit) = field_unit {
                    let un = g.shared(
                        "unit",
                        &unit.canonical,
                        NodeKind::Unit,
                        &unit.canonical,
                        || unit_props(unit),
                    );
                    let published: Vec<(&str, String)> = f
                        .unit_as_published
                        .as_ref()
                        .filter(|s| s.value != unit.canonical)
                        .map(|s| ("as_published", s.value.clone()))
                        .into_iter()
                        .collect();
                    g.edge(fnode, un, EdgeKind::MEASURED_IN, &published);
                }
                if let Some(st) = &f.source_type {
                    let sn = g.shared(
                        "source_type",
                        &st.value,
                        NodeKind::SourceType,
                        &st.value,
                        Vec::new,
                    );
                    g.edge(fnode, sn, EdgeKind::HAS_SOURCE_TYPE, &[]);
                }
                if let Some(l) = &f.licence {
                    let ln = g.node(licence_id(l), NodeKind::LicencePolicy, &l.spdx.value, &[]);
                    g.edge(fnode, ln, EdgeKind::LICENSED_UNDER, &[]);
                }
                for c in &f.concepts {
                    let cn = g.shared(
                        "concept",
                        &c.value,
                        NodeKind::DomainConcept,
                        &c.value,
                        Vec::new,
                    );
                    let factor: Vec<(&str, String)> = field_unit
                        .zip(concept_units.get(c.value.as_str()))
                        .and_then(|(fu, cu)| conversion(fu, cu))
                        .map(conversion_props)
                        .unwrap_or_default();
                    g.edge(fnode, cn, EdgeKind::MAPS_TO_CONCEPT, &factor);
                }
                for gr in &f.groups {
                    let gn = g.shared(
                        "group",
                        &gr.value,
                        NodeKind::FieldGroup,
                        &gr.value,
                        Vec::new,
                    );
                    g.edge(fnode, gn, EdgeKind::IN_GROUP, &[]);
                }
            }
        }
    }
    for a in &p.aliases {
        let al = &a.item.value;
        let Some(fpath) = &al.field else { continue };
        let Some(r) = ix.field_paths.get(&fpath.value) else {
            continue;
        };
        let (_, _, f) = super::index::resolve(p, *r);
        let concept = al
            .concept
            .as_ref()
            .map(|c| c.value.clone())
            .or_else(|| f.concepts.first().map(|c| c.value.clone()));
        let Some(concept) = concept else { continue };
        let (Some(cn), Some(fnode)) = (
            g.find(&format!("concept:{concept}")),
            g.find(&format!("field:{}", fpath.value)),
        ) else {
            continue;
        };
        g.edge(
            cn,
            fnode,
            EdgeKind::ALIASED_AS,
            &[("alias", al.text.value.clone())],
        );
    }
    g
}

/// A field-to-concept edge's conversion: `factor`, and `offset` (added after the factor) for
/// an offset temperature scale (°C → K: factor 1, offset 273.15).
fn conversion_props(c: crate::units::Conversion) -> Vec<(&'static str, String)> {
    let mut v = vec![("factor", number(c.factor))];
    if c.offset != 0.0 {
        v.push(("offset", number(c.offset)));
    }
    v
}

/// A unit node's properties.
fn unit_props(unit: &Unit) -> Vec<(&'static str, String)> {
    vec![
        ("dimension", unit.dim.to_string()),
        ("si_unit", unit.dim.si_unit()),
        ("si_factor", number(unit.factor)),
    ]
    .into_iter()
    .chain((unit.offset != 0.0).then(|| ("si_offset", number(unit.offset))))
    .collect()
}

/// One property.
fn one(key: &str, value: String) -> Props {
    Props(vec![(key.to_string(), value)])
}

/// The shared nodes a tool's nodes point at, by key (read by the tools' threads).
struct Shared<'g> {
    domain: &'g FxHashMap<String, NodeIndex>,
    source_type: &'g FxHashMap<String, NodeIndex>,
    licence: &'g FxHashMap<String, NodeIndex>,
    unit: &'g FxHashMap<String, NodeIndex>,
    concept: &'g FxHashMap<String, NodeIndex>,
    group: &'g FxHashMap<String, NodeIndex>,
}

fn at(map: &FxHashMap<String, NodeIndex>, key: &str) -> Option<u32> {
    map.get(key).map(|ix| ix.index() as u32)
}

/// How many nodes [`tool_part`] makes for a tool.
fn tool_node_count(t: &crate::model::Tool) -> usize {
    1 + t
        .endpoints
        .iter()
        .map(|e| 1 + e.parameters.len() + e.fields.len())
        .sum::<usize>()
}

/// A tool's own nodes, numbered from `first`, and every edge from or to them.
struct Part {
    first: u32,
    nodes: Vec<GNode>,
    edges: Vec<GEdge>,
}

impl Part {
    /// Add a node; returns its number.
    fn node(&mut self, id: String, kind: NodeKind, label: &str, props: Props) -> u32 {
        self.nodes.push(GNode {
            id,
            kind,
            label: label.to_string(),
            props,
        });
        self.first + self.nodes.len() as u32 - 1
    }

    /// Add an edge with properties.
    fn edge_with(&mut self, from: u32, to: u32, kind: EdgeKind, props: Props) {
        self.edges.push(GEdge {
            from,
            to,
            kind,
            props,
        });
    }

    /// Add an edge without properties.
    fn edge(&mut self, from: u32, to: u32, kind: EdgeKind) {
        self.edge_with(from, to, kind, Props::default());
    }
}

/// A tool's own nodes (tool, endpoints, parameters, response fields), numbered from `first`,
/// and every edge from or to them, exactly as [`build`] adds them. `None` when a shared node
/// it points at was not made beforehand (the caller then builds the graph as [`build`] does).
fn tool_part(
    t: &crate::model::Tool,
    first: u32,
    shared: &Shared<'_>,
    units: &UnitCache,
    concept_units: &FxHashMap<&str, &Unit>,
) -> Option<(Vec<GNode>, Vec<GEdge>)> {
    let mut g = Part {
        first,
        nodes: Vec::with_capacity(tool_node_count(t)),
        edges: Vec::new(),
    };
    let tid = &t.id.value;
    let tn = g.node(
        format!("tool:{tid}"),
        NodeKind::Tool,
        &t.title.value,
        Props::default(),
    );
    g.edge(
        tn,
        at(shared.domain, &t.domain.value)?,
        EdgeKind::TARGETS_DOMAIN,
    );
    if let Some(st) = &t.source_type {
        let sn = at(shared.source_type, &st.value)?;
        g.edge(tn, sn, EdgeKind::HAS_SOURCE_TYPE);
    }
    if let Some(l) = &t.licence {
        g.edge(
            tn,
            at(shared.licence, &l.spdx.value)?,
            EdgeKind::LICENSED_UNDER,
        );
    }
    for e in &t.endpoints {
        let eid = format!("{tid}/{}", e.id.value);
        let en = g.node(
            format!("endpoint:{eid}"),
            NodeKind::Endpoint,
            &e.id.value,
            one("url", e.url.value.clone()),
        );
        g.edge(tn, en, EdgeKind::HAS_ENDPOINT);
        for param in &e.parameters {
            let pn = g.node(
                format!("param:{eid}/{}", param.name.value),
                NodeKind::Parameter,
                &param.name.value,
                one("type", param.ty.value.to_string()),
            );
            g.edge(en, pn, EdgeKind::HAS_PARAMETER);
            for b in &param.bind {
                let cn = at(shared.concept, &b.concept.value)?;
                g.edge(cn, pn, EdgeKind::BINDS_PARAMETER);
            }
        }
        for f in &e.fields {
            let fnode = g.node(
                format!("field:{}", field_path(tid, &e.id.value, &f.name.value)),
                NodeKind::ResponseField,
                &f.name.value,
                one("type", f.ty.value.to_string()),
            );
            g.edge(en, fnode, EdgeKind::RETURNS);
            let field_unit = f
                .unit
                .as_ref()
                .and_then(|u| units.get(&u.value))
                .map(|c| &c.unit);
            if let Some(unit) = field_unit {
                let un = at(shared.unit, &unit.canonical)?;
                let published = f
                    .unit_as_published
                    .as_ref()
                    .filter(|s| s.value != unit.canonical)
                    .map(|s| one("as_published", s.value.clone()))
                    .unwrap_or_default();
                g.edge_with(fnode, un, EdgeKind::MEASURED_IN, published);
            }
            if let Some(st) = &f.source_type {
                let sn = at(shared.source_type, &st.value)?;
                g.edge(fnode, sn, EdgeKind::HAS_SOURCE_TYPE);
            }
            if let Some(l) = &f.licence {
                let ln = at(shared.licence, &l.spdx.value)?;
                g.edge(fnode, ln, EdgeKind::LICENSED_UNDER);
            }
            for c in &f.concepts {
                let cn = at(shared.concept, &c.value)?;
                let factor = field_unit
                    .zip(concept_units.get(c.value.as_str()))
                    .and_then(|(fu, cu)| conversion(fu, cu))
                    .map(|c| {
                        Props(
                            conversion_props(c)
                                .into_iter()
                                .map(|(k, v)| (k.to_string(), v))
                                .collect(),
                        )
                    })
                    .unwrap_or_default();
                g.edge_with(fnode, cn, EdgeKind::MAPS_TO_CONCEPT, factor);
            }
            for gr in &f.groups {
                g.edge(fnode, at(shared.group, &gr.value)?, EdgeKind::IN_GROUP);
            }
        }
    }
    Some((g.nodes, g.edges))
}

/// [`build`] followed by [`SchemaGraph::into_sorted`], with each tool's own nodes and edges made
/// in parallel: the shared nodes (domains, groups, concepts, intents, and every unit, source
/// type and licence a tool points at, in [`build`]'s order so a unit's properties come from its
/// first field) are made first, one thread; then the tools, on rayon threads, numbered from
/// per-tool offsets; then one sort. Gives the same bytes as `build(..).into_sorted()` (tested):
/// nodes are identified by id and edges are sorted and deduplicated by their whole value, so
/// the order they are made in does not show. When two of the tools' nodes share an id (a
/// duplicate tool, endpoint, parameter or field, which `check` reports as errors) it falls
/// back to [`build`], whose first-one-wins merging it does not repeat.
pub fn build_sorted(p: &Project, ix: &Index, units: &UnitCache) -> (Vec<GNode>, Vec<GEdge>) {
    use rayon::prelude::*;
    let mut g = SchemaGraph::new();
    let concept_units = declared_part(&mut g, p, units);
    // Every shared node a tool points at, in build's order.
    for t in &p.tools {
        let d = &t.domain.value;
        g.shared("domain", d, NodeKind::Domain, d, Vec::new);
        if let Some(st) = &t.source_type {
            let st = &st.value;
            g.shared("source_type", st, NodeKind::SourceType, st, Vec::new);
        }
        if let Some(l) = &t.licence {
            let l = &l.spdx.value;
            g.shared("licence", l, NodeKind::LicencePolicy, l, Vec::new);
        }
        for e in &t.endpoints {
            for b in e.parameters.iter().flat_map(|x| x.bind.iter()) {
                let c = &b.concept.value;
                g.shared("concept", c, NodeKind::DomainConcept, c, Vec::new);
            }
            for f in &e.fields {
                if let Some(unit) = f
                    .unit
                    .as_ref()
                    .and_then(|u| units.get(&u.value))
                    .map(|c| &c.unit)
                {
                    let u = &unit.canonical;
                    g.shared("unit", u, NodeKind::Unit, u, || unit_props(unit));
                }
                if let Some(st) = &f.source_type {
                    let st = &st.value;
                    g.shared("source_type", st, NodeKind::SourceType, st, Vec::new);
                }
                if let Some(l) = &f.licence {
                    let l = &l.spdx.value;
                    g.shared("licence", l, NodeKind::LicencePolicy, l, Vec::new);
                }
                for c in &f.concepts {
                    let c = &c.value;
                    g.shared("concept", c, NodeKind::DomainConcept, c, Vec::new);
                }
                for gr in &f.groups {
                    let gr = &gr.value;
                    g.shared("group", gr, NodeKind::FieldGroup, gr, Vec::new);
                }
            }
        }
    }
    let empty = FxHashMap::default();
    let map = |prefix: &str| g.shared.get(prefix).unwrap_or(&empty);
    let shared = Shared {
        domain: map("domain"),
        source_type: map("source_type"),
        licence: map("licence"),
        unit: map("unit"),
        concept: map("concept"),
        group: map("group"),
    };
    let mut first = Vec::with_capacity(p.tools.len());
    let mut next = g.graph.node_count();
    for t in &p.tools {
        first.push(next as u32);
        next += tool_node_count(t);
    }
    let parts: Option<Vec<(Vec<GNode>, Vec<GEdge>)>> = p
        .tools
        .par_iter()
        .zip(first.par_iter())
        .map(|(t, first)| tool_part(t, *first, &shared, units, &concept_units))
        .collect();
    let (Some(parts), Ok(_)) = (parts, u32::try_from(next)) else {
        return build(p, ix, units).into_sorted();
    };
    let (shared_nodes, shared_edges) = g.graph.into_nodes_edges();
    let mut nodes: Vec<GNode> = Vec::with_capacity(next);
    nodes.extend(shared_nodes.into_iter().map(|n| n.weight));
    let mut edges: Vec<GEdge> = shared_edges
        .into_iter()
        .map(|e| GEdge {
            from: e.source().index() as u32,
            to: e.target().index() as u32,
            kind: e.weight.kind,
            props: e.weight.props,
        })
        .collect();
    edges.reserve(parts.iter().map(|(_, e)| e.len()).sum());
    for (n, e) in parts {
        nodes.extend(n);
        edges.extend(e);
    }
    let (nodes, position) = sort_nodes(nodes);
    if nodes.par_windows(2).any(|w| w[0].id == w[1].id) {
        return build(p, ix, units).into_sorted();
    }
    for e in &mut edges {
        e.from = position[e.from as usize];
        e.to = position[e.to as usize];
    }
    // Aliases that name one field, as in build (after it, so their nodes are found by id).
    let find = |id: &str| nodes.binary_search_by(|n| n.id.as_str().cmp(id)).ok();
    for a in &p.aliases {
        let al = &a.item.value;
        let Some(fpath) = &al.field else { continue };
        let Some(r) = ix.field_paths.get(&fpath.value) else {
            continue;
        };
        let (_, _, f) = super::index::resolve(p, *r);
        let concept = al
            .concept
            .as_ref()
            .map(|c| c.value.as_str())
            .or_else(|| f.concepts.first().map(|c| c.value.as_str()));
        let Some(concept) = concept else { continue };
        let (Some(cn), Some(fnode)) = (
            find(&format!("concept:{concept}")),
            find(&format!("field:{}", fpath.value)),
        ) else {
            continue;
        };
        edges.push(GEdge {
            from: cn as u32,
            to: fnode as u32,
            kind: EdgeKind::ALIASED_AS,
            props: one("alias", al.text.value.clone()),
        });
    }
    (nodes, sort_edges(edges))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn props(pairs: &[(&str, &str)]) -> Props {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn sorting_in_place_gives_the_copying_sort() {
        // Nodes added in a scrambled id order (permutation cycles of many lengths) with edges
        // between them, repeated edges included.
        let mut g = SchemaGraph {
            graph: DiGraph::new(),
            ids: FxHashMap::default(),
            shared: FxHashMap::default(),
        };
        let mut x: u64 = 7;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize
        };
        let mut ix = Vec::new();
        for _ in 0..700 {
            let n = next() % 500;
            ix.push(g.node(
                format!("n:{n:03}"),
                NodeKind::Tool,
                "l",
                &[("k", n.to_string())],
            ));
        }
        for _ in 0..2000 {
            let (a, b) = (ix[next() % ix.len()], ix[next() % ix.len()]);
            g.edge(a, b, EdgeKind::IN_GROUP, &[]);
        }
        let copied = g.sorted();
        let (nodes, edges) = g.into_sorted();
        assert!(nodes.windows(2).all(|w| w[0].id < w[1].id));
        assert_eq!(nodes, copied.0);
        assert_eq!(edges, copied.1);
    }

    #[test]
    fn props_are_written_read_and_ordered_as_a_btreemap() {
        let cases: [&[(&str, &str)]; 4] = [
            &[],
            &[("type", "number")],
            &[("si_unit", "m"), ("dimension", "L"), ("si_factor", "0.001")],
            &[("b", "2"), ("a", "1"), ("b", "3")],
        ];
        for c in cases {
            let (p, m) = (props(c), map(c));
            assert_eq!(
                serde_json::to_string(&p).unwrap(),
                serde_json::to_string(&m).unwrap()
            );
            assert_eq!(
                rmp_serde::to_vec_named(&p).unwrap(),
                rmp_serde::to_vec_named(&m).unwrap()
            );
            let back: Props = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
            assert_eq!(back, p);
            assert_eq!(p.len(), m.len());
            assert_eq!(p.iter().collect::<Vec<_>>(), m.iter().collect::<Vec<_>>());
            for (k, v) in &m {
                assert_eq!(p.get(k), Some(v));
            }
            assert_eq!(p.get("zzz"), None);
        }
        // The last of repeated keys wins, as in a map.
        assert_eq!(
            props(&[("b", "2"), ("a", "1"), ("b", "3")])
                .get("b")
                .unwrap(),
            "3"
        );
        // Ordered pair by pair, as maps are.
        let sets: [&[(&str, &str)]; 5] = [
            &[],
            &[("a", "1")],
            &[("a", "1"), ("b", "0")],
            &[("a", "2")],
            &[("b", "0")],
        ];
        for x in sets {
            for y in sets {
                assert_eq!(props(x).cmp(&props(y)), map(x).cmp(&map(y)), "{x:?} {y:?}");
            }
        }
    }
}
