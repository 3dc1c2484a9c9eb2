//! The typed schema graph (paper section 4) as a petgraph `DiGraph`, built from a checked
//! project. Node ids are stable strings (`tool:materials_project`,
//! `field:materials_project/summary/band_gap`); the compiler writes the graph as sorted node and
//! edge lists, never in petgraph's own serde layout.

use super::index::{Index, field_path};
use crate::model::{Licence, Project};
use crate::units::{Unit, UnitCache, conversion_factor};
use petgraph::graph::{DiGraph, NodeIndex};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

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
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub props: BTreeMap<String, String>,
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
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub props: BTreeMap<String, String>,
}

/// An edge weight in the in-memory graph (petgraph holds the endpoints).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeData {
    /// Kind.
    pub kind: EdgeKind,
    /// Extra properties.
    pub props: BTreeMap<String, String>,
}

/// The schema graph.
pub struct SchemaGraph {
    /// The petgraph graph.
    pub graph: DiGraph<GNode, EdgeData>,
    ids: HashMap<String, NodeIndex>,
}

impl SchemaGraph {
    fn node(
        &mut self,
        id: String,
        kind: NodeKind,
        label: &str,
        props: &[(&str, String)],
    ) -> NodeIndex {
        if let Some(ix) = self.ids.get(&id) {
            return *ix;
        }
        let n = GNode {
            id: id.clone(),
            kind,
            label: label.to_string(),
            props: props
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        };
        let ix = self.graph.add_node(n);
        self.ids.insert(id, ix);
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
        use rayon::prelude::*;
        let (mut nodes, edges) = self.graph.into_nodes_edges();
        let mut order: Vec<u32> = (0..nodes.len() as u32).collect();
        // Node ids are unique, so an unstable sort gives the one order.
        order.par_sort_unstable_by(|a, b| {
            nodes[*a as usize]
                .weight
                .id
                .cmp(&nodes[*b as usize].weight.id)
        });
        let mut position = vec![0u32; nodes.len()];
        for (pos, ix) in order.iter().enumerate() {
            position[*ix as usize] = pos as u32;
        }
        let mut slots: Vec<Option<GNode>> = nodes.drain(..).map(|n| Some(n.weight)).collect();
        let nodes: Vec<GNode> = order
            .iter()
            .filter_map(|ix| slots[*ix as usize].take())
            .collect();
        let mut edges: Vec<GEdge> = edges
            .into_iter()
            .map(|e| GEdge {
                from: position[e.source().index()],
                to: position[e.target().index()],
                kind: e.weight.kind,
                props: e.weight.props,
            })
            .collect();
        // The key is the whole edge, so an unstable sort is deterministic.
        edges.par_sort_unstable_by(|a, b| {
            (a.from, a.kind, a.to, &a.props).cmp(&(b.from, b.kind, b.to, &b.props))
        });
        edges.dedup();
        (nodes, edges)
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

/// A factor as a graph property: Rust's shortest round-trip spelling (`0.001`,
/// `1.602176634e-19`), which `str::parse::<f64>` reads back to the same number.
pub fn number(x: f64) -> String {
    format!("{x:?}")
}

fn licence_id(l: &Licence) -> String {
    format!("licence:{}", l.spdx.value)
}

/// Build the schema graph of a project (expected to be free of errors).
pub fn build(p: &Project, ix: &Index, units: &UnitCache) -> SchemaGraph {
    let mut g = SchemaGraph {
        graph: DiGraph::new(),
        ids: HashMap::new(),
    };
    for d in &p.domains {
        g.node(
            format!("domain:{}", d.item.id.value),
            NodeKind::Domain,
            &d.item.id.value,
            &[],
        );
    }
    for gr in &p.groups {
        g.node(
            format!("group:{}", gr.item.id.value),
            NodeKind::FieldGroup,
            &gr.item.id.value,
            &[],
        );
    }
    let concept_units: HashMap<&str, &Unit> = p
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
            let dn = g.node(
                format!("domain:{}", d.value),
                NodeKind::Domain,
                &d.value,
                &[],
            );
            g.edge(n, dn, EdgeKind::TARGETS_DOMAIN, &[]);
        }
        for r in &i.item.required_groups {
            let gn = g.node(
                format!("group:{}", r.value),
                NodeKind::FieldGroup,
                &r.value,
                &[],
            );
            g.edge(n, gn, EdgeKind::REQUIRES_GROUP, &[]);
        }
    }
    for t in &p.tools {
        let tid = &t.id.value;
        let tn = g.node(format!("tool:{tid}"), NodeKind::Tool, &t.title.value, &[]);
        let dn = g.node(
            format!("domain:{}", t.domain.value),
            NodeKind::Domain,
            &t.domain.value,
            &[],
        );
        g.edge(tn, dn, EdgeKind::TARGETS_DOMAIN, &[]);
        if let Some(st) = &t.source_type {
            let sn = g.node(
                format!("source_type:{}", st.value),
                NodeKind::SourceType,
                &st.value,
                &[],
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
                    let cn = g.node(
                        format!("concept:{}", b.concept.value),
                        NodeKind::DomainConcept,
                        &b.concept.value,
                        &[],
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
                    let un = g.node(
                        format!("unit:{}", unit.canonical),
                        NodeKind::Unit,
                        &unit.canonical,
                        &[
                            ("dimension", unit.dim.to_string()),
                            ("si_unit", unit.dim.si_unit()),
                            ("si_factor", number(unit.factor)),
                        ],
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
                    let sn = g.node(
                        format!("source_type:{}", st.value),
                        NodeKind::SourceType,
                        &st.value,
                        &[],
                    );
                    g.edge(fnode, sn, EdgeKind::HAS_SOURCE_TYPE, &[]);
                }
                if let Some(l) = &f.licence {
                    let ln = g.node(licence_id(l), NodeKind::LicencePolicy, &l.spdx.value, &[]);
                    g.edge(fnode, ln, EdgeKind::LICENSED_UNDER, &[]);
                }
                for c in &f.concepts {
                    let cn = g.node(
                        format!("concept:{}", c.value),
                        NodeKind::DomainConcept,
                        &c.value,
                        &[],
                    );
                    let factor: Vec<(&str, String)> = field_unit
                        .zip(concept_units.get(c.value.as_str()))
                        .and_then(|(fu, cu)| conversion_factor(fu, cu))
                        .map(|k| ("factor", number(k)))
                        .into_iter()
                        .collect();
                    g.edge(fnode, cn, EdgeKind::MAPS_TO_CONCEPT, &factor);
                }
                for gr in &f.groups {
                    let gn = g.node(
                        format!("group:{}", gr.value),
                        NodeKind::FieldGroup,
                        &gr.value,
                        &[],
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
