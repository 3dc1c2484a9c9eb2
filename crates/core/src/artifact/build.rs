//! Compile a checked project into a [`FrozenGraph`]: sort everything, attach per-field metadata
//! (canonical unit, dimension, factors to concept units, effective source type and licence),
//! precompute Algorithm 1's indices, and hash.

use super::*;
use crate::graph::build as gbuild;
use crate::graph::index::Index;
use crate::model::{Decl, Licence, Project, Tool, normalise_alias};
use crate::units::{UnitCache, UnitTable, conversion_factor};
use rayon::prelude::*;
use std::sync::Arc;

fn licence_data(l: Licence) -> LicenceData {
    let verified = l.is_verified();
    LicenceData {
        spdx: l.spdx.value,
        wording: l.wording.map(|s| s.value),
        url: l.url.map(|s| s.value),
        attribution: l.attribution.map(|s| s.value),
        verified,
    }
}

fn opt(s: &Option<crate::model::Sp<String>>) -> Option<String> {
    s.as_ref().map(|v| v.value.clone())
}

/// Compile the project. The project should have passed `check` without errors; anything that
/// does not resolve (an unparseable unit, a dangling reference) is left out rather than guessed.
pub fn compile(p: &Project, ix: &Index, units: &UnitTable) -> FrozenGraph {
    let mut fg = compile_unhashed(p, ix, units);
    fg.content_hash = super::io::json_content_hash(&fg);
    fg
}

/// Every unit spelling of the project (concept units and field units), each parsed once.
pub fn unit_cache(p: &Project, units: &UnitTable) -> UnitCache {
    let concepts = p
        .concepts
        .iter()
        .filter_map(|c| c.item.unit.as_ref().map(|u| u.value.as_str()));
    let fields = p
        .tools
        .iter()
        .flat_map(|t| t.endpoints.iter())
        .flat_map(|e| e.fields.iter())
        .filter_map(|f| f.unit.as_ref().map(|u| u.value.as_str()));
    UnitCache::new(units, concepts.chain(fields))
}

/// [`compile`] without the content hash (empty): for callers that write the artifact with
/// [`super::io::write_json`], which computes the hash while writing.
pub fn compile_unhashed(p: &Project, ix: &Index, units: &UnitTable) -> FrozenGraph {
    let cache = unit_cache(p, units);
    // The typed graph and the routing tables are independent: build them in parallel.
    let (graph, mut fg) = rayon::join(
        || {
            let (nodes, edges) = gbuild::build_sorted(p, ix, &cache);
            GraphData { nodes, edges }
        },
        || compile_tables(p, p.tools.iter().collect(), &cache),
    );
    fg.graph = graph;
    fg.routing_fingerprint = routing_fingerprint(&fg);
    fg
}

/// [`compile_unhashed`] that consumes the checked project, so that it and the artifact never
/// peak together: the typed graph is built first, then each tool's declaration is freed as
/// soon as its routing table is built (on rayon threads, collected in tool order).
pub fn compile_owned(mut p: Project, ix: Index, units: &UnitTable) -> FrozenGraph {
    let cache = unit_cache(&p, units);
    let (nodes, edges) = gbuild::build_sorted(&p, &ix, &cache);
    drop(ix);
    let tools = std::mem::take(&mut p.tools);
    let mut fg = compile_tables(&p, tools, &cache);
    drop(p);
    fg.graph = GraphData { nodes, edges };
    fg.routing_fingerprint = routing_fingerprint(&fg);
    fg
}

/// Shared strings for the values many fields repeat (source types), so each is one allocation
/// and is written once in `graph.bin`.
#[derive(Default)]
struct Interner(std::collections::HashMap<String, Arc<str>>);

impl Interner {
    fn get(&self, s: &str) -> Arc<str> {
        self.0.get(s).cloned().unwrap_or_else(|| Arc::from(s))
    }
}

/// A tool declaration the compiler consumes (owned: its strings are moved into the routing
/// table) or copies (borrowed).
trait ToolDecl: std::borrow::Borrow<Decl<Tool>> + Send {
    fn into_tool(self) -> Tool;
}

impl ToolDecl for Decl<Tool> {
    fn into_tool(self) -> Tool {
        self.item.value
    }
}

impl ToolDecl for &Decl<Tool> {
    fn into_tool(self) -> Tool {
        self.item.value.clone()
    }
}

/// Everything of the artifact but the graph (left empty) and the fingerprint. `tools` are the
/// tool declarations, borrowed (copied) or owned (moved into the tables as they are converted).
fn compile_tables<T: ToolDecl>(
    p: &Project,
    mut tools_in: Vec<T>,
    cache: &UnitCache,
) -> FrozenGraph {
    // Concept canonical units.
    let mut concept_units = BTreeMap::new();
    let mut concepts: Vec<ConceptData> = Vec::new();
    let mut seen_concepts = std::collections::BTreeSet::new();
    for c in &p.concepts {
        if !seen_concepts.insert(c.item.id.value.clone()) {
            continue;
        }
        let unit = c.item.unit.as_ref().and_then(|u| cache.get(&u.value));
        let dimension = match (&unit, &c.item.dimension) {
            (Some(u), _) => Some(u.dimension.to_string()),
            (None, Some(d)) => Some(d.value.clone()),
            _ => None,
        };
        if let Some(u) = &unit {
            concept_units.insert(c.item.id.value.clone(), u.unit.clone());
        }
        concepts.push(ConceptData {
            id: c.item.id.value.clone(),
            kind: match c.item.kind() {
                crate::model::ConceptKind::Response => "response".into(),
                crate::model::ConceptKind::Parameter => "parameter".into(),
            },
            unit: unit.map(|u| u.canonical.clone()),
            dimension,
            aliases: c
                .item
                .aliases
                .iter()
                .map(|(lang, v)| (lang.clone(), v.iter().map(|s| s.value.clone()).collect()))
                .collect(),
            description: opt(&c.item.description),
            companions: c.item.companions.iter().map(|s| s.value.clone()).collect(),
        });
    }
    concepts.sort_by(|a, b| a.id.cmp(&b.id));

    // Source types every field may repeat.
    let mut interner = Interner::default();
    for t in &tools_in {
        let t: &Tool = t.borrow();
        let field_sts = t
            .endpoints
            .iter()
            .flat_map(|e| e.fields.iter())
            .filter_map(|f| f.source_type.as_ref());
        for st in t.source_type.iter().chain(field_sts) {
            if !interner.0.contains_key(&st.value) {
                interner
                    .0
                    .insert(st.value.clone(), Arc::from(st.value.as_str()));
            }
        }
    }

    // Tools, sorted by id (the first of duplicate ids wins), converted in parallel and
    // collected in that order; endpoints by id; parameters and fields by name.
    tools_in.sort_by(|a, b| {
        let (a, b): (&Tool, &Tool) = (a.borrow(), b.borrow());
        a.id.value.cmp(&b.id.value)
    });
    tools_in.dedup_by(|a, b| {
        let (a, b): (&Tool, &Tool) = ((*a).borrow(), (*b).borrow());
        a.id.value == b.id.value
    });
    let tools: Vec<ToolData> = tools_in
        .into_par_iter()
        .map(|t| compile_tool(t.into_tool(), &concept_units, cache, &interner))
        .collect();

    // Intents with candidates (Algorithm 1, lines 3-5, precomputed).
    let mut intents: Vec<IntentData> = Vec::new();
    for i in &p.intents {
        let it = &i.item;
        if intents.iter().any(|x| x.id == it.id.value) {
            continue;
        }
        let domains: Vec<String> = it.domains.iter().map(|d| d.value.clone()).collect();
        let groups: Vec<String> = it.required_groups.iter().map(|d| d.value.clone()).collect();
        let candidates = tools
            .iter()
            .enumerate()
            .filter(|(_, t)| domains.contains(&t.domain))
            .filter(|(_, t)| {
                t.endpoints
                    .iter()
                    .any(|e| groups.iter().any(|g| e.group_fields.contains_key(g)))
            })
            .map(|(i, _)| i as u32)
            .collect();
        intents.push(IntentData {
            id: it.id.value.clone(),
            description: it.description.value.clone(),
            domains,
            required_groups: groups,
            examples: it.examples.iter().map(|e| e.value.clone()).collect(),
            candidates,
            entities: it.entities.iter().map(|e| e.value.clone()).collect(),
            derived: it.derived.is_some(),
        });
    }
    intents.sort_by(|a, b| a.id.cmp(&b.id));

    let index = build_indices(p, &tools, &concepts);

    let mut domains: Vec<NamedData> = p
        .domains
        .iter()
        .map(|d| NamedData {
            id: d.item.id.value.clone(),
            description: opt(&d.item.description),
            core: Vec::new(),
        })
        .collect();
    domains.sort_by(|a, b| a.id.cmp(&b.id));
    domains.dedup_by(|a, b| a.id == b.id);
    let mut groups: Vec<NamedData> = p
        .groups
        .iter()
        .map(|d| NamedData {
            id: d.item.id.value.clone(),
            description: opt(&d.item.description),
            core: d.item.core.iter().map(|c| c.value.clone()).collect(),
        })
        .collect();
    groups.sort_by(|a, b| a.id.cmp(&b.id));
    groups.dedup_by(|a, b| a.id == b.id);

    FrozenGraph {
        format_version: FORMAT_VERSION,
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        project: ProjectInfo {
            name: p.config.project.name.clone(),
            version: p.config.project.version.clone(),
        },
        content_hash: String::new(),
        routing_fingerprint: String::new(),
        graph: GraphData::default(),
        tools: tools.into(),
        intents,
        concepts,
        domains,
        groups,
        source_types: p.source_types(),
        lexicon: super::lexicon::build(p),
        index,
    }
}

/// A declared parameter's routing table entry (`method` is its endpoint's: it decides where an
/// array without a declared location is sent).
fn param_data(x: crate::model::Parameter, method: crate::model::HttpMethod) -> ParamData {
    let (required, auth, array) = (x.is_required(), x.is_auth(), x.array_encoding(method));
    let allow_reserved = x.allow_reserved.as_ref().is_some_and(|a| a.value);
    let whole_body = x.whole_body.as_ref().is_some_and(|w| w.value);
    let bounds = x.bounds();
    ParamData {
        name: x.name.value,
        ty: x.ty.value.to_string(),
        enum_values: x
            .enum_values
            .map(|v| v.into_iter().map(|s| s.value).collect())
            .unwrap_or_default(),
        required,
        auth,
        default: x.default.map(|d| d.value),
        bounds,
        bind: x
            .bind
            .into_iter()
            .map(|b| {
                let b = b.value;
                BindingData {
                    concept: b.concept.value,
                    template: b.template.map(|t| t.value),
                    set: b.set.into_iter().map(|(k, v)| (k, v.value)).collect(),
                }
            })
            .collect(),
        join: x.join.map(|j| j.value),
        array,
        format: x.format.map(|f| f.value),
        location: x.location.map(|l| {
            serde_json::to_value(l.value)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        }),
        style: x.style.map(|s| s.value),
        explode: x.explode.map(|e| e.value),
        allow_reserved,
        whole_body,
        content_type: x.content_type.map(|c| c.value),
        part_headers: x
            .part_headers
            .into_iter()
            .map(|(k, v)| (k, v.value))
            .collect(),
        description: x.description.map(|d| d.value),
    }
}

/// One tool's routing table (Algorithm 1 reads these: endpoints, parameters with bindings,
/// fields with their attachable metadata). Consumes the declaration: its strings are moved into
/// the table rather than copied (at 10,000 tools the copies and the frees of the originals were
/// most of this step's time).
fn compile_tool(
    t: Tool,
    concept_units: &BTreeMap<String, crate::units::Unit>,
    cache: &UnitCache,
    interner: &Interner,
) -> ToolData {
    let Tool {
        id,
        title,
        names,
        description,
        domain,
        source_type,
        priority,
        provenance,
        licence,
        endpoints: declared_endpoints,
        ..
    } = t;
    let tool_st = source_type.map(|s| s.value);
    let mut source_types = std::collections::BTreeSet::new();
    if let Some(st) = &tool_st {
        source_types.insert(st.clone());
    }
    let mut endpoints = Vec::new();
    let mut total = 0u32;
    let mut eps = declared_endpoints;
    // Stable: of endpoints with one id the first is kept.
    eps.sort_by(|a, b| a.id.value.cmp(&b.id.value));
    eps.dedup_by(|a, b| a.id.value == b.id.value);
    for e in eps {
        let e = e.value;
        let destructive = e.unplannable();
        let writes = e
            .annotations
            .as_ref()
            .and_then(|a| a.read_only.as_ref())
            .is_some_and(|r| !r.value);
        let method = e.method.value;
        let mut params: Vec<ParamData> = e
            .parameters
            .into_iter()
            .map(|x| param_data(x.value, method))
            .collect();
        params.sort_by(|a, b| a.name.cmp(&b.name));
        params.dedup_by(|a, b| a.name == b.name);
        let mut fields: Vec<FieldData> = Vec::with_capacity(e.fields.len());
        for f in e.fields {
            let f = f.value;
            let unit = f.unit.as_ref().and_then(|u| cache.get(&u.value));
            let mut concept_factors = BTreeMap::new();
            if let Some(u) = unit.map(|u| &u.unit) {
                for c in &f.concepts {
                    if let Some(cu) = concept_units.get(&c.value)
                        && let Some(factor) = conversion_factor(u, cu)
                    {
                        concept_factors.insert(c.value.clone(), factor);
                    }
                }
            }
            let identifier = f.is_identifier();
            let st = f.source_type.map(|s| s.value).or_else(|| tool_st.clone());
            if let Some(s) = &st {
                source_types.insert(s.clone());
            }
            let mut groups: Vec<String> = f.groups.into_iter().map(|g| g.value).collect();
            groups.sort();
            groups.dedup();
            let mut cs: Vec<String> = f.concepts.into_iter().map(|g| g.value).collect();
            cs.sort();
            cs.dedup();
            fields.push(FieldData {
                name: f.name.value,
                ty: f.ty.value.to_string(),
                unit: unit.map(|u| UnitData {
                    dimension: u.dimension.clone(),
                    as_published: f
                        .unit_as_published
                        .as_ref()
                        .filter(|s| *s.value != *u.canonical)
                        .map(|s| Arc::from(s.value.as_str())),
                    canonical: u.canonical.clone(),
                }),
                identifier,
                groups,
                concepts: cs,
                qualifiers: f
                    .qualifiers
                    .into_iter()
                    .map(|(k, v)| (k, v.value))
                    .collect(),
                concept_factors,
                source_type: st.as_deref().map(|s| interner.get(s)),
                licence: f.licence.map(|l| Arc::new(licence_data(l.value))),
                encoding: f.encoding.map(|e| e.value.to_string()),
                missing_value: f.missing_value.map(|m| m.value),
                required: f.required.map(|r| r.value),
                nullable: f.nullable.map(|r| r.value),
                description: f.description.map(|d| d.value),
            });
        }
        // Stable: of fields with one name the first is kept.
        fields.sort_by(|a, b| a.name.cmp(&b.name));
        fields.dedup_by(|a, b| a.name == b.name);
        let identifiers = fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.identifier)
            .map(|(i, _)| i as u32)
            .collect();
        let mut group_fields: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        for (i, f) in fields.iter().enumerate() {
            for g in &f.groups {
                group_fields.entry(g.clone()).or_default().push(i as u32);
            }
        }
        total += fields.len() as u32;
        endpoints.push(EndpointData {
            id: e.id.value,
            method: serde_json::to_value(method)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            url: e.url.value,
            mcp_tool: e.mcp_tool.map(|m| m.value),
            destructive,
            writes,
            deprecated: e.deprecated.as_ref().is_some_and(|d| d.value),
            description: e.description.map(|d| d.value),
            records: e.records.map(|r| r.value),
            body_type: e.body_type.map(|b| b.value),
            body_xml: e
                .body_xml
                .into_iter()
                .map(|n| {
                    let n = n.value;
                    XmlNodeData {
                        path: n.path.value,
                        name: n.name.map(|x| x.value),
                        namespace: n.namespace.map(|x| x.value),
                        prefix: n.prefix.map(|x| x.value),
                        attribute: n.attribute.is_some_and(|x| x.value),
                        wrapped: n.wrapped.is_some_and(|x| x.value),
                    }
                })
                .collect(),
            parameters: params,
            fields,
            identifiers,
            group_fields,
        });
    }
    let mut names: Vec<String> = names.into_iter().map(|n| n.value).collect();
    names.sort();
    names.dedup();
    ToolData {
        is_web: tool_st.as_deref() == Some("web") || domain.value == "web",
        id: id.value,
        title: title.value,
        names,
        description: description.map(|d| d.value),
        domain: domain.value,
        source_type: tool_st,
        source_types: source_types.into_iter().collect(),
        priority: priority.map(|x| x.value).unwrap_or(0),
        total_fields: total,
        provenance: provenance.map(|pv| {
            let pv = pv.value;
            Arc::new(ProvenanceData {
                publisher: pv.publisher.map(|s| s.value),
                method: pv.method.map(|s| s.value),
                citation: pv.citation.map(|s| s.value),
                url: pv.url.map(|s| s.value),
            })
        }),
        licence: licence.map(|l| Arc::new(licence_data(l.value))),
        endpoints,
    }
}

/// Normalised tokens of a field name's last path segment (`bulk_modulus.vrh` -> `vrh`,
/// `results.properties.electronic.band_gap[].value` -> `value`), and of the whole name.
fn field_names(name: &str) -> (String, String) {
    let full = normalise_alias(&name.replace("[]", ""));
    let leaf = name
        .rsplit('.')
        .next()
        .unwrap_or(name)
        .trim_end_matches("[]");
    (full, normalise_alias(leaf))
}

/// A field's names as the indices key them: the full path and the leaf (both normalised, see
/// [`field_names`]) and its distinct name words, sorted (see [`name_words`]).
struct FieldNames {
    full: String,
    leaf: String,
    words: Vec<String>,
}

impl FieldNames {
    fn of(name: &str) -> FieldNames {
        let (full, leaf) = field_names(name);
        let mut words = name_words(name);
        words.sort();
        words.dedup();
        FieldNames { full, leaf, words }
    }
}

/// Lower-case words of a name, split on everything that is not a letter or digit.
fn name_words(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// [`Indices`] while it is built (ordered maps, converted at the end).
#[derive(Default)]
struct IndexMaps {
    alias_to_concept: BTreeMap<String, Vec<String>>,
    alias_to_field: BTreeMap<String, Vec<FieldKey>>,
    concept_postings: BTreeMap<String, Vec<Posting>>,
    param_postings: BTreeMap<String, Vec<ParamPosting>>,
    tool_names: BTreeMap<String, u32>,
    field_names: BTreeMap<String, Vec<FieldKey>>,
    max_alias_words: u32,
    qualifier_values: BTreeMap<String, Vec<QualifierRef>>,
    qualifier_keys: BTreeMap<String, String>,
    search_terms: BTreeMap<String, Vec<crate::search::TermPosting>>,
    search_offsets: Vec<u32>,
}

impl From<IndexMaps> for Indices {
    fn from(m: IndexMaps) -> Indices {
        Indices {
            alias_to_concept: m.alias_to_concept.into(),
            alias_to_field: m.alias_to_field.into(),
            concept_postings: m.concept_postings.into(),
            param_postings: m.param_postings.into(),
            tool_names: m.tool_names.into(),
            field_names: m.field_names.into(),
            max_alias_words: m.max_alias_words,
            qualifier_values: m.qualifier_values.into(),
            qualifier_keys: m.qualifier_keys.into(),
            search_terms: m.search_terms.into(),
            search_offsets: m.search_offsets,
            search_vectors: None,
        }
    }
}

/// The qualifier vocabulary's indices: every key and key alias -> key, every value and value
/// alias -> (key, value). Self-contained: reads only `p.qualifiers`.
fn qualifier_indices(p: &Project, ix: &mut IndexMaps) {
    for q in &p.qualifiers {
        let d = &q.item.value;
        let key = d.key.value.clone();
        for text in std::iter::once(&d.key).chain(d.aliases.iter()) {
            let n = normalise_alias(&text.value);
            if !n.is_empty() {
                ix.qualifier_keys.entry(n).or_insert_with(|| key.clone());
            }
        }
        for v in &d.values {
            let v = &v.value;
            let r = QualifierRef {
                key: key.clone(),
                value: v.value.value.clone(),
            };
            for text in std::iter::once(&v.value).chain(v.aliases.iter()) {
                let n = normalise_alias(&text.value);
                if n.is_empty() {
                    continue;
                }
                let e = ix.qualifier_values.entry(n).or_default();
                if !e.contains(&r) {
                    e.push(r.clone());
                }
            }
        }
    }
    for v in ix.qualifier_values.values_mut() {
        v.sort();
    }
}

fn build_indices(p: &Project, tools: &[ToolData], concepts: &[ConceptData]) -> Indices {
    build_index_maps(p, tools, concepts).into()
}

fn build_index_maps(p: &Project, tools: &[ToolData], concepts: &[ConceptData]) -> IndexMaps {
    let mut ix = IndexMaps::default();
    // Alias texts -> concepts (concept ids are aliases of themselves).
    let mut concept_aliases: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for c in concepts {
        let mut texts = vec![normalise_alias(&c.id)];
        for v in c.aliases.values() {
            texts.extend(v.iter().map(|s| normalise_alias(s)));
        }
        texts.sort();
        texts.dedup();
        for t in &texts {
            let e = ix.alias_to_concept.entry(t.clone()).or_default();
            if !e.contains(&c.id) {
                e.push(c.id.clone());
            }
        }
        concept_aliases.insert(&c.id, texts);
    }
    // Stand-alone aliases.
    for a in &p.aliases {
        let al = &a.item.value;
        let key = normalise_alias(&al.text.value);
        if let Some(c) = &al.concept
            && concepts.iter().any(|x| x.id == c.value)
        {
            let e = ix.alias_to_concept.entry(key.clone()).or_default();
            if !e.contains(&c.value) {
                e.push(c.value.clone());
            }
        }
        if let Some(fp) = &al.field {
            let mut parts = fp.value.splitn(3, '/');
            let (Some(t), Some(e), Some(f)) = (parts.next(), parts.next(), parts.next()) else {
                continue;
            };
            let Ok(ti) = tools.binary_search_by(|x| x.id.as_str().cmp(t)) else {
                continue;
            };
            let Some(ei) = tools[ti].endpoints.iter().position(|x| x.id == e) else {
                continue;
            };
            let Some(fi) = tools[ti].endpoints[ei]
                .fields
                .iter()
                .position(|x| x.name == f)
            else {
                continue;
            };
            let k = FieldKey {
                tool: ti as u32,
                endpoint: ei as u32,
                field: fi as u32,
            };
            let v = ix.alias_to_field.entry(key).or_default();
            if !v.contains(&k) {
                v.push(k);
            }
        }
    }
    for v in ix.alias_to_concept.values_mut() {
        v.sort();
    }
    for v in ix.alias_to_field.values_mut() {
        v.sort();
    }
    qualifier_indices(p, &mut ix);
    ix.max_alias_words = ix
        .alias_to_concept
        .keys()
        .chain(ix.alias_to_field.keys())
        .chain(ix.qualifier_values.keys())
        .map(|k| k.split('_').count() as u32)
        .max()
        .unwrap_or(1);

    // Each field's normalised names and name words, computed once and in parallel. The
    // postings below are made in parallel too (tool by tool, concept by concept), and every list
    // is put in one order before it is stored, so the result does not depend on scheduling.
    let names: Vec<Vec<Vec<FieldNames>>> = tools
        .par_iter()
        .map(|t| {
            t.endpoints
                .iter()
                .map(|e| e.fields.iter().map(|f| FieldNames::of(&f.name)).collect())
                .collect()
        })
        .collect();
    let ((concept_postings, field_names), (param_postings, tool_names)) = rayon::join(
        || {
            rayon::join(
                || concept_postings(tools, concepts, &concept_aliases, &names),
                || field_name_index(&names),
            )
        },
        || rayon::join(|| param_postings(tools), || tool_name_index(tools)),
    );
    ix.concept_postings = concept_postings;
    ix.field_names = field_names;
    ix.param_postings = param_postings;
    ix.tool_names = tool_names;
    // The field names (about 80 MB at 10,000 tools) and alias texts are not needed by the
    // search index: free them first, so the index is built in their place (the peak RSS of
    // `compile` is reached while the index is built).
    drop(names);
    drop(concept_aliases);
    let search = crate::search::build::build(tools, concepts);
    ix.search_terms = search.terms;
    ix.search_offsets = search.offsets;
    ix
}

/// Concept id -> postings: a field carrying the concept matches exactly when its name (full or
/// last segment) is one of the concept's alias texts, by alias otherwise; a field whose name has
/// every word of a response concept's id (`density` in `density_atomic`) without carrying it
/// matches partially (ranking only), found through an inverted index of name words so the cost
/// grows with matches, not with concepts × fields. Each list in posting order.
fn concept_postings(
    tools: &[ToolData],
    concepts: &[ConceptData],
    concept_aliases: &BTreeMap<&str, Vec<String>>,
    names: &[Vec<Vec<FieldNames>>],
) -> BTreeMap<String, Vec<Posting>> {
    let (mut all, by_word) = rayon::join(
        || {
            tools
                .par_iter()
                .zip(names.par_iter())
                .enumerate()
                .flat_map_iter(|(ti, (t, tn))| {
                    let mut out: Vec<(&str, Posting)> = Vec::new();
                    for (ei, (e, en)) in t.endpoints.iter().zip(tn).enumerate() {
                        for (fi, (f, n)) in e.fields.iter().zip(en).enumerate() {
                            for c in &f.concepts {
                                let Some(texts) = concept_aliases.get(c.as_str()) else {
                                    continue;
                                };
                                let kind = if texts.contains(&n.full) || texts.contains(&n.leaf) {
                                    MatchKind::Exact
                                } else {
                                    MatchKind::Alias
                                };
                                out.push((
                                    c.as_str(),
                                    Posting {
                                        tool: ti as u32,
                                        endpoint: ei as u32,
                                        field: fi as u32,
                                        kind,
                                    },
                                ));
                            }
                        }
                    }
                    out
                })
                .collect::<Vec<_>>()
        },
        || {
            let mut by_word: std::collections::HashMap<&str, Vec<FieldKey>> =
                std::collections::HashMap::new();
            for (k, n) in keyed(names) {
                for w in &n.words {
                    by_word.entry(w.as_str()).or_default().push(k);
                }
            }
            by_word
        },
    );
    let partial: Vec<(&str, Posting)> = concepts
        .par_iter()
        .filter(|c| c.kind == "response")
        .flat_map_iter(|c| {
            let mut out = Vec::new();
            let words = name_words(&c.id);
            if words.is_empty() || words.iter().all(|w| w.len() < 3) {
                return out;
            }
            let Some(rarest) = words
                .iter()
                .map(|w| by_word.get(w.as_str()))
                .min_by_key(|v| v.map_or(0, Vec::len))
                .flatten()
            else {
                return out;
            };
            for k in rarest {
                let f =
                    &tools[k.tool as usize].endpoints[k.endpoint as usize].fields[k.field as usize];
                if f.concepts.contains(&c.id) {
                    continue;
                }
                let fw = &names[k.tool as usize][k.endpoint as usize][k.field as usize].words;
                if words.iter().all(|w| fw.binary_search(w).is_ok()) {
                    out.push((
                        c.id.as_str(),
                        Posting {
                            tool: k.tool,
                            endpoint: k.endpoint,
                            field: k.field,
                            kind: MatchKind::Partial,
                        },
                    ));
                }
            }
            out
        })
        .collect();
    drop(by_word);
    all.extend(partial);
    // The key is the whole pair, so an unstable sort gives the one order.
    all.par_sort_unstable();
    all.chunk_by(|a, b| a.0 == b.0)
        .map(|run| (run[0].0.to_string(), run.iter().map(|(_, p)| *p).collect()))
        .collect()
}

/// Every field's names with its key, in key order.
fn keyed(names: &[Vec<Vec<FieldNames>>]) -> impl Iterator<Item = (FieldKey, &FieldNames)> {
    names.iter().enumerate().flat_map(|(ti, t)| {
        t.iter().enumerate().flat_map(move |(ei, e)| {
            e.iter().enumerate().map(move |(fi, n)| {
                let k = FieldKey {
                    tool: ti as u32,
                    endpoint: ei as u32,
                    field: fi as u32,
                };
                (k, n)
            })
        })
    })
}

/// Normalised field name (full path and last segment) -> fields, in field order.
fn field_name_index(names: &[Vec<Vec<FieldNames>>]) -> BTreeMap<String, Vec<FieldKey>> {
    let mut field_names: std::collections::HashMap<&str, Vec<FieldKey>> =
        std::collections::HashMap::new();
    for (k, n) in keyed(names) {
        for key in [&n.full, &n.leaf] {
            let v = field_names.entry(key.as_str()).or_default();
            // Increasing keys: a repeat (`full` equal to `leaf`) is the last one.
            if v.last() != Some(&k) {
                v.push(k);
            }
        }
    }
    let mut sorted: Vec<(&str, Vec<FieldKey>)> = field_names.into_iter().collect();
    // Keys are distinct (they were a map's).
    sorted.par_sort_unstable_by(|a, b| a.0.cmp(b.0));
    sorted
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// Parameter concept -> parameters bound from it, in parameter order.
fn param_postings(tools: &[ToolData]) -> BTreeMap<String, Vec<ParamPosting>> {
    let mut out: BTreeMap<String, Vec<ParamPosting>> = BTreeMap::new();
    for (ti, t) in tools.iter().enumerate() {
        for (ei, e) in t.endpoints.iter().enumerate() {
            for (pi, param) in e.parameters.iter().enumerate() {
                for b in &param.bind {
                    let v = out.entry(b.concept.clone()).or_default();
                    let k = ParamPosting {
                        tool: ti as u32,
                        endpoint: ei as u32,
                        parameter: pi as u32,
                    };
                    // Keys come in increasing order, so a repeat is the last one pushed (a
                    // linear `contains` made this quadratic in a concept's postings).
                    if v.last() != Some(&k) {
                        v.push(k);
                    }
                }
            }
        }
    }
    out
}

/// Normalised tool id, title and names -> tool index (the first tool wins a shared name).
fn tool_name_index(tools: &[ToolData]) -> BTreeMap<String, u32> {
    let normalised: Vec<Vec<String>> = tools
        .par_iter()
        .map(|t| {
            std::iter::once(&t.id)
                .chain(std::iter::once(&t.title))
                .chain(t.names.iter())
                .map(|n| normalise_alias(n))
                .collect()
        })
        .collect();
    let mut out = BTreeMap::new();
    for (ti, names) in normalised.into_iter().enumerate() {
        for n in names {
            out.entry(n).or_insert(ti as u32);
        }
    }
    out
}

/// blake3 of what can change a plan: the routing tables and indices serialised (MessagePack,
/// named fields) without descriptions, example queries, the tool version, the project version
/// and the hashes. The typed graph is left out (Algorithm 1 never reads it). Each tool's table
/// is hashed on its own, in parallel, and the digest is taken over the rest followed by the
/// tools' digests in tool order, so the value does not depend on the thread count.
pub fn routing_fingerprint(fg: &FrozenGraph) -> String {
    #[derive(serde::Serialize)]
    struct Rest<'a> {
        format_version: u32,
        project: &'a ProjectInfo,
        intents: &'a [IntentData],
        concepts: &'a [ConceptData],
        domains: &'a [NamedData],
        groups: &'a [NamedData],
        source_types: &'a [String],
        lexicon: &'a super::lexicon::Lexicon,
        index: &'a Indices,
    }
    fn digest(v: &impl serde::Serialize) -> blake3::Hash {
        // Buffered: MessagePack emits many tiny writes, and blake3 is fast only on large chunks.
        let mut w = std::io::BufWriter::with_capacity(1 << 16, blake3::Hasher::new());
        super::with_mode(super::SerMode::Routing, || {
            let _ = rmp_serde::encode::write_named(&mut w, v);
        });
        match w.into_inner() {
            Ok(h) => h.finalize(),
            Err(_) => blake3::Hash::from_bytes([0; 32]),
        }
    }
    let (rest, tools) = rayon::join(
        || {
            digest(&Rest {
                format_version: fg.format_version,
                project: &fg.project,
                intents: &fg.intents,
                concepts: &fg.concepts,
                domains: &fg.domains,
                groups: &fg.groups,
                source_types: &fg.source_types,
                lexicon: &fg.lexicon,
                index: &fg.index,
            })
        },
        || {
            (0..fg.tools.len())
                .into_par_iter()
                .map(|i| digest(&fg.tools[i]))
                .collect::<Vec<_>>()
        },
    );
    let mut h = blake3::Hasher::new();
    h.update(b"schemarouter routing fingerprint 2\0");
    h.update(rest.as_bytes());
    h.update(&(tools.len() as u64).to_le_bytes());
    for t in &tools {
        h.update(t.as_bytes());
    }
    h.finalize().to_hex().to_string()
}
