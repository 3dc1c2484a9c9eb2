//! Compile a checked project into a [`FrozenGraph`]: sort everything, attach per-field metadata
//! (canonical unit, dimension, factors to concept units, effective source type and licence),
//! precompute Algorithm 1's indices, and hash.

use super::*;
use crate::graph::build as gbuild;
use crate::graph::index::Index;
use crate::model::{Licence, Project, normalise_alias};
use crate::units::{UnitTable, conversion_factor};
use std::sync::Arc;

fn licence_data(l: &Licence) -> LicenceData {
    LicenceData {
        spdx: l.spdx.value.clone(),
        wording: l.wording.as_ref().map(|s| s.value.clone()),
        url: l.url.as_ref().map(|s| s.value.clone()),
        attribution: l.attribution.as_ref().map(|s| s.value.clone()),
        verified: l.is_verified(),
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

/// [`compile`] without the content hash (empty): for callers that write the artifact with
/// [`super::io::write_json`], which computes the hash while writing.
pub fn compile_unhashed(p: &Project, ix: &Index, units: &UnitTable) -> FrozenGraph {
    // The typed graph and the routing tables are independent: build them in parallel.
    let (graph, mut fg) = rayon::join(
        || {
            let (nodes, edges) = gbuild::build(p, ix, units).into_sorted();
            GraphData { nodes, edges }
        },
        || compile_tables(p, ix, units),
    );
    fg.graph = graph;
    fg.routing_fingerprint = routing_fingerprint(&fg);
    fg
}

/// Everything of the artifact but the graph (left empty) and the fingerprint.
fn compile_tables(p: &Project, _ix: &Index, units: &UnitTable) -> FrozenGraph {
    // Concept canonical units.
    let mut concept_units = BTreeMap::new();
    let mut concepts: Vec<ConceptData> = Vec::new();
    let mut seen_concepts = std::collections::BTreeSet::new();
    for c in &p.concepts {
        if !seen_concepts.insert(c.item.id.value.clone()) {
            continue;
        }
        let unit = c
            .item
            .unit
            .as_ref()
            .and_then(|u| units.parse(&u.value).ok());
        let dimension = match (&unit, &c.item.dimension) {
            (Some(u), _) => Some(u.dim.to_string()),
            (None, Some(d)) => Some(d.value.clone()),
            _ => None,
        };
        if let Some(u) = &unit {
            concept_units.insert(c.item.id.value.clone(), u.clone());
        }
        concepts.push(ConceptData {
            id: c.item.id.value.clone(),
            kind: match c.item.kind() {
                crate::model::ConceptKind::Response => "response".into(),
                crate::model::ConceptKind::Parameter => "parameter".into(),
            },
            unit: unit.map(|u| Arc::from(u.canonical)),
            dimension,
            aliases: c
                .item
                .aliases
                .iter()
                .map(|(lang, v)| (lang.clone(), v.iter().map(|s| s.value.clone()).collect()))
                .collect(),
            description: opt(&c.item.description),
        });
    }
    concepts.sort_by(|a, b| a.id.cmp(&b.id));

    // Tools, sorted by id; endpoints by id; parameters and fields by name.
    let mut tool_order: Vec<usize> = (0..p.tools.len()).collect();
    tool_order.sort_by(|a, b| p.tools[*a].id.value.cmp(&p.tools[*b].id.value));
    tool_order.dedup_by(|a, b| p.tools[*a].id.value == p.tools[*b].id.value);
    let mut tools = Vec::new();
    for &ti in &tool_order {
        let t = &p.tools[ti];
        let tool_st = opt(&t.source_type);
        let mut source_types = std::collections::BTreeSet::new();
        if let Some(st) = &tool_st {
            source_types.insert(st.clone());
        }
        let mut endpoints = Vec::new();
        let mut total = 0u32;
        let mut eps: Vec<_> = t.endpoints.iter().collect();
        eps.sort_by(|a, b| a.id.value.cmp(&b.id.value));
        eps.dedup_by(|a, b| a.id.value == b.id.value);
        for e in eps {
            let mut params: Vec<ParamData> = e
                .parameters
                .iter()
                .map(|x| ParamData {
                    name: x.name.value.clone(),
                    ty: x.ty.value.to_string(),
                    enum_values: x
                        .enum_values
                        .as_ref()
                        .map(|v| v.iter().map(|s| s.value.clone()).collect())
                        .unwrap_or_default(),
                    required: x.is_required(),
                    auth: x.is_auth(),
                    default: x.default.as_ref().map(|d| d.value.clone()),
                    bind: x
                        .bind
                        .iter()
                        .map(|b| BindingData {
                            concept: b.concept.value.clone(),
                            template: b.template.as_ref().map(|t| t.value.clone()),
                            set: b
                                .set
                                .iter()
                                .map(|(k, v)| (k.clone(), v.value.clone()))
                                .collect(),
                        })
                        .collect(),
                    join: opt(&x.join),
                    description: opt(&x.description),
                })
                .collect();
            params.sort_by(|a, b| a.name.cmp(&b.name));
            params.dedup_by(|a, b| a.name == b.name);
            let mut fields: Vec<FieldData> = Vec::new();
            for f in &e.fields {
                let unit = f.unit.as_ref().and_then(|u| units.parse(&u.value).ok());
                let mut concept_factors = BTreeMap::new();
                if let Some(u) = &unit {
                    for c in &f.concepts {
                        if let Some(cu) = concept_units.get(&c.value)
                            && let Some(factor) = conversion_factor(u, cu)
                        {
                            concept_factors.insert(c.value.clone(), factor);
                        }
                    }
                }
                let st = opt(&f.source_type).or_else(|| tool_st.clone());
                if let Some(s) = &st {
                    source_types.insert(s.clone());
                }
                let mut groups: Vec<String> = f.groups.iter().map(|g| g.value.clone()).collect();
                groups.sort();
                groups.dedup();
                let mut cs: Vec<String> = f.concepts.iter().map(|g| g.value.clone()).collect();
                cs.sort();
                cs.dedup();
                fields.push(FieldData {
                    name: f.name.value.clone(),
                    ty: f.ty.value.to_string(),
                    unit: unit.map(|u| UnitData {
                        dimension: Arc::from(u.dim.to_string()),
                        as_published: f
                            .unit_as_published
                            .as_ref()
                            .map(|s| s.value.clone())
                            .filter(|s| *s != u.canonical)
                            .map(Arc::from),
                        canonical: Arc::from(u.canonical),
                    }),
                    identifier: f.is_identifier(),
                    groups,
                    concepts: cs,
                    qualifiers: f
                        .qualifiers
                        .iter()
                        .map(|(k, v)| (k.clone(), v.value.clone()))
                        .collect(),
                    concept_factors,
                    source_type: st.map(Arc::from),
                    licence: f.licence.as_ref().map(|l| Arc::new(licence_data(l))),
                    encoding: f.encoding.as_ref().map(|e| e.value.to_string()),
                    missing_value: opt(&f.missing_value),
                    required: f.required.as_ref().map(|r| r.value),
                    nullable: f.nullable.as_ref().map(|r| r.value),
                    description: opt(&f.description),
                });
            }
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
                id: e.id.value.clone(),
                method: serde_json::to_value(e.method.value)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                url: e.url.value.clone(),
                mcp_tool: opt(&e.mcp_tool),
                destructive: e.is_destructive() && !e.destructive_allowed(),
                writes: e
                    .annotations
                    .as_ref()
                    .and_then(|a| a.read_only.as_ref())
                    .is_some_and(|r| !r.value),
                description: opt(&e.description),
                records: opt(&e.records),
                parameters: params,
                fields,
                identifiers,
                group_fields,
            });
        }
        let mut names: Vec<String> = t.names.iter().map(|n| n.value.clone()).collect();
        names.sort();
        names.dedup();
        tools.push(ToolData {
            id: t.id.value.clone(),
            title: t.title.value.clone(),
            names,
            description: opt(&t.description),
            domain: t.domain.value.clone(),
            is_web: tool_st.as_deref() == Some("web") || t.domain.value == "web",
            source_type: tool_st,
            source_types: source_types.into_iter().collect(),
            priority: t.priority.as_ref().map(|x| x.value).unwrap_or(0),
            total_fields: total,
            provenance: t.provenance.as_ref().map(|pv| {
                Arc::new(ProvenanceData {
                    publisher: opt(&pv.publisher),
                    method: opt(&pv.method),
                    citation: opt(&pv.citation),
                    url: opt(&pv.url),
                })
            }),
            licence: t.licence.as_ref().map(|l| Arc::new(licence_data(l))),
            endpoints,
        });
    }

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
        tools,
        intents,
        concepts,
        domains,
        groups,
        source_types: p.source_types(),
        index,
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

/// Lower-case words of a name, split on everything that is not a letter or digit.
fn name_words(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The qualifier vocabulary's indices: every key and key alias -> key, every value and value
/// alias -> (key, value). Self-contained: reads only `p.qualifiers`.
fn qualifier_indices(p: &Project, ix: &mut Indices) {
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
    let mut ix = Indices::default();
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

    // Concept postings.
    for (ti, t) in tools.iter().enumerate() {
        for (ei, e) in t.endpoints.iter().enumerate() {
            for (fi, f) in e.fields.iter().enumerate() {
                let (full, leaf) = field_names(&f.name);
                for c in &f.concepts {
                    let Some(texts) = concept_aliases.get(c.as_str()) else {
                        continue;
                    };
                    let kind = if texts.contains(&full) || texts.contains(&leaf) {
                        MatchKind::Exact
                    } else {
                        MatchKind::Alias
                    };
                    ix.concept_postings
                        .entry(c.clone())
                        .or_default()
                        .push(Posting {
                            tool: ti as u32,
                            endpoint: ei as u32,
                            field: fi as u32,
                            kind,
                        });
                }
            }
        }
    }
    // Partial postings: a field whose name has every word of the concept id (`density` in
    // `density_atomic`) without carrying the concept. Ranking only. Found through an inverted
    // index of name words, so the cost grows with matches, not with concepts × fields.
    let mut by_word: std::collections::HashMap<String, Vec<FieldKey>> =
        std::collections::HashMap::new();
    for (ti, t) in tools.iter().enumerate() {
        for (ei, e) in t.endpoints.iter().enumerate() {
            for (fi, f) in e.fields.iter().enumerate() {
                let k = FieldKey {
                    tool: ti as u32,
                    endpoint: ei as u32,
                    field: fi as u32,
                };
                let mut words = name_words(&f.name);
                words.sort();
                words.dedup();
                for w in words {
                    by_word.entry(w).or_default().push(k);
                }
            }
        }
    }
    for c in concepts {
        if c.kind != "response" {
            continue;
        }
        let words = name_words(&c.id);
        if words.is_empty() || words.iter().all(|w| w.len() < 3) {
            continue;
        }
        let Some(rarest) = words
            .iter()
            .map(|w| by_word.get(w))
            .min_by_key(|v| v.map_or(0, Vec::len))
            .flatten()
        else {
            continue;
        };
        for k in rarest {
            let f = &tools[k.tool as usize].endpoints[k.endpoint as usize].fields[k.field as usize];
            if f.concepts.contains(&c.id) {
                continue;
            }
            let fw = name_words(&f.name);
            if words.iter().all(|w| fw.contains(w)) {
                ix.concept_postings
                    .entry(c.id.clone())
                    .or_default()
                    .push(Posting {
                        tool: k.tool,
                        endpoint: k.endpoint,
                        field: k.field,
                        kind: MatchKind::Partial,
                    });
            }
        }
    }
    for v in ix.concept_postings.values_mut() {
        v.sort();
    }
    // Parameter postings.
    for (ti, t) in tools.iter().enumerate() {
        for (ei, e) in t.endpoints.iter().enumerate() {
            for (pi, param) in e.parameters.iter().enumerate() {
                for b in &param.bind {
                    let v = ix.param_postings.entry(b.concept.clone()).or_default();
                    let k = ParamPosting {
                        tool: ti as u32,
                        endpoint: ei as u32,
                        parameter: pi as u32,
                    };
                    if !v.contains(&k) {
                        v.push(k);
                    }
                }
            }
        }
    }
    // Field names.
    for (ti, t) in tools.iter().enumerate() {
        for (ei, e) in t.endpoints.iter().enumerate() {
            for (fi, f) in e.fields.iter().enumerate() {
                let (full, leaf) = field_names(&f.name);
                let k = FieldKey {
                    tool: ti as u32,
                    endpoint: ei as u32,
                    field: fi as u32,
                };
                for key in [full, leaf] {
                    let v = ix.field_names.entry(key).or_default();
                    if !v.contains(&k) {
                        v.push(k);
                    }
                }
            }
        }
    }
    // Tool names.
    for (ti, t) in tools.iter().enumerate() {
        for n in std::iter::once(&t.id)
            .chain(std::iter::once(&t.title))
            .chain(t.names.iter())
        {
            ix.tool_names.entry(normalise_alias(n)).or_insert(ti as u32);
        }
    }
    ix
}

/// blake3 of what can change a plan: the artifact serialised without descriptions, example
/// queries, the tool version, the project version and the hashes (streamed, no copy).
pub fn routing_fingerprint(fg: &FrozenGraph) -> String {
    // Buffered: MessagePack emits many tiny writes, and blake3 is fast only on large chunks.
    let mut w = std::io::BufWriter::with_capacity(1 << 18, blake3::Hasher::new());
    super::with_mode(super::SerMode::Routing, || {
        let _ = rmp_serde::encode::write_named(&mut w, fg);
    });
    match w.into_inner() {
        Ok(hasher) => hasher.finalize().to_hex().to_string(),
        Err(_) => String::new(),
    }
}
