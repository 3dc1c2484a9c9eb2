//! Algorithm 1 of the SchemaRouter paper (section 4), over the artifact's precomputed indices.
//!
//! 1. Named tools override (resolved by id, title or declared name through the name index);
//!    unknown names are reported.
//! 2. Otherwise the candidates are the intent's precomputed candidates (domain among the intent's
//!    domains, providing one of its required groups).
//! 3. A source constraint keeps tools whose source types (tool or field override) include it.
//! 4. Requested concepts resolve through the alias layer to concept ids (and, for field aliases,
//!    to exact fields); each candidate endpoint is scored from the concept postings: per
//!    concept the best of exact (3) > alias (2) > partial (1).
//! 5. Ranking: non-web before web, more of the question's identifiers taken (a PMID, a DOI:
//!    our addition, so a tool that cannot take the record asked about is not chosen for its
//!    fields), higher score, higher priority, fewer total fields, id.
//!    Without named tools the top `k` are planned; with named tools every named tool is.
//! 6. Projection: identifiers ∪ concept matches ∪ the fields of the intent's required groups
//!    (`recall`, default); `minimal` drops the groups; `all` takes every field.
//! 7. Parameters bind through parameter concepts to the tool's own names; required parameters
//!    that cannot be bound (and have no default) set the status.
//! 8. Unit, source type, licence and provenance are attached from the artifact.

use super::{
    FieldMeta, FieldReason, MatchKindName, MultiValue, MultiValueMode, Plan, PlanStatus,
    SkippedTool, Understanding,
};
use super::{bind, candidates, ranking, steps};
use crate::artifact::{FieldKey, FrozenGraph, MatchKind, Posting, ToolData};
use crate::model::normalise_alias;
use serde_json::Value;
use std::collections::BTreeMap;

/// Field projection variants (paper ablations).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Projection {
    /// identifiers ∪ concept matches ∪ intent group fields (the paper's recall-first
    /// projection).
    Recall,
    /// identifiers ∪ concept matches.
    Minimal,
    /// identifiers ∪ concept matches ∪, when some requested concept is not matched on the step
    /// (or none is requested), the core fields of the intent's groups (fields carrying one of
    /// the group's declared `core` concepts; every field of a group that declares none). The default: the paper's safety net at a
    /// fraction of its context.
    #[default]
    Core,
    /// every field of the chosen endpoint (the no-field-projection ablation).
    All,
}

/// Router options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Tools to plan when none is named (default 1).
    pub k: usize,
    /// Field projection variant.
    pub projection: Projection,
    /// Apply the source-constraint filter (off for the `--no-source-routing` ablation).
    pub source_routing: bool,
    /// Attach per-field metadata (off for the `--no-metadata` ablation).
    pub metadata: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            k: 1,
            projection: Projection::Core,
            source_routing: true,
            metadata: true,
        }
    }
}

/// One requested concept text, resolved.
#[derive(Clone, Debug)]
pub(super) struct Requested {
    pub(super) text: String,
    pub(super) concepts: Vec<String>,
    pub(super) fields: Vec<FieldKey>,
    pub(super) field_names: Vec<FieldKey>,
}

pub(super) fn resolve_concepts(g: &FrozenGraph, u: &Understanding) -> Vec<Requested> {
    let mut out: Vec<Requested> = Vec::new();
    for text in &u.domain_concepts {
        let key = normalise_alias(text);
        if key.is_empty() || out.iter().any(|r| normalise_alias(&r.text) == key) {
            continue;
        }
        let concepts = g
            .index
            .alias_to_concept
            .get(&key)
            .cloned()
            .unwrap_or_default();
        let fields = g
            .index
            .alias_to_field
            .get(&key)
            .cloned()
            .unwrap_or_default();
        let field_names = if concepts.is_empty() && fields.is_empty() {
            g.index.field_names.get(&key).cloned().unwrap_or_default()
        } else {
            Vec::new()
        };
        out.push(Requested {
            text: text.clone(),
            concepts,
            fields,
            field_names,
        });
    }
    out
}

/// Postings of a concept restricted to one tool (binary search on the sorted list).
fn tool_postings(list: &[Posting], tool: u32) -> &[Posting] {
    let start = list.partition_point(|p| p.tool < tool);
    let end = list.partition_point(|p| p.tool <= tool);
    &list[start..end]
}

/// The matches of one requested concept on one endpoint.
#[derive(Clone, Debug, Default)]
pub(super) struct Hit {
    /// Best match-kind score over the concept's fields (exact 3, alias 2, partial 1).
    score: u32,
    /// The same over the fields that do not contradict a requested qualifier.
    score_nc: u32,
    /// Most requested qualifiers one kept field carries.
    qual: u32,
    /// Projected fields with their reasons.
    pub(super) fields: Vec<(u32, FieldReason)>,
    /// Every matching field (projected or ranking-only) with its kind score.
    seen: Vec<(u32, u32)>,
}

/// Per-endpoint matches of the requested concepts for one tool: endpoint -> requested index ->
/// hit.
pub(super) type EndpointMatches = BTreeMap<u32, BTreeMap<usize, Hit>>;

/// A requested qualifier, resolved through the qualifier vocabulary.
#[derive(Clone, Debug)]
pub(super) struct ReqQualifier {
    pub(super) key: String,
    pub(super) value: String,
    /// Normalised value (for comparing with values the vocabulary does not declare).
    pub(super) norm: String,
    /// Whether the vocabulary declares the value.
    pub(super) known: bool,
}

/// How a field stands to one requested qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum QualStatus {
    /// The field carries the requested value.
    Match,
    /// The field carries only other declared values of the key.
    Contradict,
    /// The field says nothing (or something the vocabulary cannot read) about the key.
    Unknown,
}

fn resolve_key(g: &FrozenGraph, key: &str) -> Option<String> {
    g.index.qualifier_keys.get(&normalise_alias(key)).cloned()
}

pub(super) fn resolve_qualifiers(g: &FrozenGraph, u: &Understanding) -> Vec<ReqQualifier> {
    let mut out: Vec<ReqQualifier> = Vec::new();
    for (k, v) in &u.qualifiers {
        let norm = normalise_alias(v);
        if norm.is_empty() {
            continue;
        }
        let known_key = resolve_key(g, k);
        let refs = g.index.qualifier_values.get(&norm);
        let hit = refs.and_then(|rs| match &known_key {
            Some(kk) => rs.iter().find(|r| &r.key == kk),
            None => rs.first(),
        });
        let q = match hit {
            Some(r) => ReqQualifier {
                key: r.key.clone(),
                value: r.value.clone(),
                norm: normalise_alias(&r.value),
                known: true,
            },
            None => ReqQualifier {
                key: known_key.unwrap_or_else(|| k.clone()),
                value: v.clone(),
                norm,
                known: false,
            },
        };
        if !out.iter().any(|x| x.key == q.key) {
            out.push(q);
        }
    }
    out
}

/// The alternatives a field's qualifier value names (`PBE or r2SCAN`, `PBE, PBE+U`).
fn alternatives(raw: &str) -> impl Iterator<Item = &str> {
    raw.split(" or ")
        .flat_map(|p| p.split(", "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
}

pub(super) fn qual_status(
    g: &FrozenGraph,
    f: &crate::artifact::FieldData,
    q: &ReqQualifier,
) -> QualStatus {
    let mut status = QualStatus::Unknown;
    for (fk, fv) in &f.qualifiers {
        let key = resolve_key(g, fk).unwrap_or_else(|| fk.clone());
        if key != q.key {
            continue;
        }
        let mut all_known = true;
        for alt in alternatives(fv) {
            let n = normalise_alias(alt);
            let canon = g
                .index
                .qualifier_values
                .get(&n)
                .and_then(|rs| rs.iter().find(|r| r.key == key));
            match canon {
                Some(r) if r.value == q.value => return QualStatus::Match,
                Some(_) => {}
                None if n == q.norm => return QualStatus::Match,
                None => all_known = false,
            }
        }
        if all_known {
            status = QualStatus::Contradict;
        }
    }
    status
}

/// Apply the requested qualifiers to every hit: fields that contradict one are dropped when a
/// field of the concept does not, and fields carrying more requested qualifiers win.
fn apply_qualifiers(g: &FrozenGraph, ti: u32, m: &mut EndpointMatches, quals: &[ReqQualifier]) {
    let t = g.tool_at(ti);
    for (ei, per) in m.iter_mut() {
        let e = t.endpoint_at(*ei);
        for hit in per.values_mut() {
            if quals.is_empty() {
                hit.score_nc = hit.score;
                prefer_plain(e, hit);
                continue;
            }
            let stat = |f: u32| {
                let fd = e.field_at(f);
                let mut matches = 0u32;
                let mut contra = false;
                for q in quals {
                    match qual_status(g, fd, q) {
                        QualStatus::Match => matches += 1,
                        QualStatus::Contradict => contra = true,
                        QualStatus::Unknown => {}
                    }
                }
                (matches, contra)
            };
            let mut best_nc = 0;
            let mut best_q = 0;
            for (f, kind) in &hit.seen {
                let (mq, contra) = stat(*f);
                if !contra {
                    best_nc = best_nc.max(*kind);
                    best_q = best_q.max(mq);
                }
            }
            hit.score_nc = best_nc;
            hit.qual = best_q;
            let any_nc = hit.fields.iter().any(|(f, _)| !stat(*f).1);
            if any_nc {
                hit.fields.retain(|(f, _)| {
                    let (mq, contra) = stat(*f);
                    !contra && mq >= best_q
                });
            }
            // No requested qualifier speaks to these fields: the plain ones answer.
            if best_q == 0 && hit.fields.iter().all(|(f, _)| !stat(*f).1) {
                prefer_plain(e, hit);
            }
        }
    }
}

/// Among the fields one requested concept selects on an endpoint that carry the same concepts
/// (variants of one value), when the request names no qualifier that tells them apart, keep
/// those with the fewest declared qualifiers: a qualifier marks a variant (`which: electronic`
/// beside the publication date, `form: abbreviated` beside the full journal name), and the
/// plain field answers a plain question. Fields that carry other concepts too (an account name
/// beside the amount it labels) are no variants of each other and stay.
fn prefer_plain(e: &crate::artifact::EndpointData, hit: &mut Hit) {
    if hit.fields.len() < 2 {
        return;
    }
    let fd = |f: u32| e.field_at(f);
    let fewest_among_variants = |f: u32| {
        hit.fields
            .iter()
            .filter(|(g, _)| fd(*g).concepts == fd(f).concepts)
            .map(|(g, _)| fd(*g).qualifiers.len())
            .min()
            .unwrap_or(0)
    };
    let mut keep = hit
        .fields
        .iter()
        .map(|(f, _)| fd(*f).qualifiers.len() == fewest_among_variants(*f))
        .collect::<Vec<bool>>()
        .into_iter();
    hit.fields.retain(|_| keep.next().unwrap_or(true));
}

fn match_tool(g: &FrozenGraph, ti: u32, req: &[Requested]) -> EndpointMatches {
    let mut out: EndpointMatches = BTreeMap::new();
    for (ri, r) in req.iter().enumerate() {
        // Field aliases on this tool win over the whole concept.
        let field_hits: Vec<&FieldKey> = r.fields.iter().filter(|k| k.tool == ti).collect();
        if !field_hits.is_empty() {
            for k in field_hits {
                let concept = g
                    .field(*k)
                    .concepts
                    .first()
                    .cloned()
                    .unwrap_or_else(|| r.text.clone());
                let entry = out.entry(k.endpoint).or_default().entry(ri).or_default();
                entry.score = entry.score.max(MatchKind::Exact.score());
                entry.seen.push((k.field, MatchKind::Exact.score()));
                entry.fields.push((
                    k.field,
                    FieldReason::Concept {
                        via: (normalise_alias(&concept) != normalise_alias(&r.text))
                            .then(|| r.text.clone()),
                        concept,
                        match_kind: MatchKindName::FieldAlias,
                    },
                ));
            }
            continue;
        }
        for c in &r.concepts {
            let Some(list) = g.index.concept_postings.get(c) else {
                continue;
            };
            for p in tool_postings(list, ti) {
                let entry = out.entry(p.endpoint).or_default().entry(ri).or_default();
                entry.score = entry.score.max(p.kind.score());
                entry.seen.push((p.field, p.kind.score()));
                if p.kind != MatchKind::Partial {
                    entry.fields.push((
                        p.field,
                        FieldReason::Concept {
                            concept: c.clone(),
                            via: (normalise_alias(c) != normalise_alias(&r.text))
                                .then(|| r.text.clone()),
                            match_kind: p.kind.into(),
                        },
                    ));
                }
            }
        }
        for k in r.field_names.iter().filter(|k| k.tool == ti) {
            let entry = out.entry(k.endpoint).or_default().entry(ri).or_default();
            entry.score = entry.score.max(MatchKind::Exact.score());
            entry.seen.push((k.field, MatchKind::Exact.score()));
            entry.fields.push((
                k.field,
                FieldReason::Concept {
                    concept: r.text.clone(),
                    via: None,
                    match_kind: MatchKindName::Exact,
                },
            ));
        }
    }
    out
}

/// Scores and best endpoint of a tool, or `None` when every endpoint is destructive (never
/// planned unless declared `allow_destructive`). Endpoints compare by the requested qualifiers
/// they carry when they answer every one of the `requested` concepts with a field no requested
/// qualifier contradicts (a question that names the functional it wants is answered by the
/// field computed with it, however its name is spelled), then by the concept score without
/// qualifier-contradicting fields, then the requested qualifiers they carry, then the plain
/// concept score. Among endpoints of equal score, read-only ones come before ones whose
/// annotations say they write.
///
/// A tool named as `tool/endpoint` considers that endpoint only (`pinned`).
///
/// Ties on score and group break by, in order: fewer required parameters that nothing in the
/// Understanding can fill (no default, no binding to a given parameter concept), then reading
/// before writing (annotations; HTTP `PUT`, `PATCH`, `DELETE` write, `GET` reads), then
/// declaration order.
fn best_endpoint(
    t: &ToolData,
    matches: &EndpointMatches,
    requested: usize,
    groups: &[String],
    given: &BTreeMap<String, Value>,
    pinned: Option<&u32>,
) -> Option<Ranked> {
    type Key = (
        usize,
        u32,
        u32,
        u32,
        u32,
        bool,
        std::cmp::Reverse<usize>,
        bool,
        u8,
        std::cmp::Reverse<u32>,
    );
    let mut best: Option<Key> = None;
    for (ei, e) in t.endpoints.iter().enumerate() {
        let ei = ei as u32;
        if e.destructive || pinned.is_some_and(|p| *p != ei) {
            continue;
        }
        let (score, score_nc, qual) = matches
            .get(&ei)
            .map(|m| {
                m.values().fold((0, 0, 0), |(a, b, c), h| {
                    (a + h.score, b + h.score_nc, c + h.qual)
                })
            })
            .unwrap_or((0, 0, 0));
        let covered = matches
            .get(&ei)
            .map_or(0, |m| m.values().filter(|h| h.score_nc > 0).count());
        let qual_full = if requested > 0 && covered >= requested {
            qual
        } else {
            0
        };
        let provides = groups.iter().any(|g| e.group_fields.contains_key(g));
        let unfilled = e
            .parameters
            .iter()
            .filter(|p| p.required && !p.auth && p.default.is_none() && !e.server_parameter(p))
            .filter(|p| !p.bind.iter().any(|b| given.contains_key(&b.concept)))
            .count();
        // Identifiers the question gives that this endpoint takes: an endpoint that cannot
        // take the PMID or DOI asked about would answer for other records.
        let ids = given
            .keys()
            .filter(|c| IDENTIFIER_PARAMS.contains(&c.as_str()))
            .filter(|c| {
                e.parameters
                    .iter()
                    .any(|p| p.bind.iter().any(|b| &b.concept == *c))
            })
            .count();
        let method = match e.method.as_str() {
            "GET" | "LOCAL" | "MCP" => 2,
            "POST" => 1,
            _ => 0,
        };
        let key = (
            ids,
            qual_full,
            score_nc,
            qual,
            score,
            provides,
            std::cmp::Reverse(unfilled),
            !e.writes,
            method,
            std::cmp::Reverse(ei),
        );
        if best.is_none_or(|b| key > b) {
            best = Some(key);
        }
    }
    best.map(
        |(ids, qual_full, score_nc, qual, score, _, _, _, _, std::cmp::Reverse(endpoint))| Ranked {
            ids,
            qual_full,
            score,
            score_nc,
            qual,
            endpoint,
        },
    )
}

/// Parameter concepts that identify one record (a paper, a compound, a material, a sample, a
/// company): a tool that can take the one a question gives ranks before one that cannot,
/// whatever the concept scores, since the other would answer about other records.
const IDENTIFIER_PARAMS: &[&str] = &[
    "doi",
    "pmid",
    "arxiv_id",
    "cid",
    "inchikey",
    "smiles",
    "material_id",
    "sample_id",
    "corp_code",
];

/// A tool's best endpoint and its ranking scores.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ranked {
    /// Identifier parameters of the question the endpoint takes ([`IDENTIFIER_PARAMS`]).
    pub(super) ids: usize,
    /// Requested qualifiers the endpoint's fields carry when it answers every requested
    /// concept with a field no requested qualifier contradicts, else 0: ranked before the
    /// concept scores.
    pub(super) qual_full: u32,
    /// Concept-match score (what the plan reports).
    pub(super) score: u32,
    /// Concept-match score without the fields that contradict a requested qualifier.
    pub(super) score_nc: u32,
    /// Requested qualifiers the endpoint's matched fields carry.
    pub(super) qual: u32,
    /// Endpoint index.
    pub(super) endpoint: u32,
}

/// A named target: a tool id or name, or `tool/endpoint` (the endpoint by its id), which pins
/// the step to that endpoint. `None` when no tool (or no such endpoint) answers to it.
pub(crate) fn resolve_target(g: &FrozenGraph, name: &str) -> Option<(u32, Option<u32>)> {
    if let Some(t) = g.index.tool_names.get(&normalise_alias(name)).copied() {
        return Some((t, None));
    }
    let (tool, endpoint) = name.rsplit_once('/')?;
    let t = g.index.tool_names.get(&normalise_alias(tool)).copied()?;
    let wanted = normalise_alias(endpoint);
    let ei = g
        .tool_at(t)
        .endpoints
        .iter()
        .position(|e| e.id == endpoint || normalise_alias(&e.id) == wanted)?;
    Some((t, Some(ei as u32)))
}

/// Run Algorithm 1 on an Understanding: resolve the request (lines 1-4,
/// `route::candidates`), score every candidate's endpoints and rank the tools (lines 4-5,
/// [`super::ranking`]), then project, bind and attach for each planned tool (lines 6-8,
/// `route::steps`). Candidates that were not planned are named in `alternatives` with the
/// reason they lost.
pub fn route(g: &FrozenGraph, u: &Understanding, opts: &Options) -> Plan {
    let mut plan = Plan::empty(g.routing_fingerprint.clone());
    // An out-of-scope request (an action, media, live data) gets no plan, whatever else the
    // Understanding carries.
    if let Some(reason) = u.out_of_scope.as_deref().filter(|r| !r.trim().is_empty()) {
        plan.out_of_scope = Some(reason.to_string());
        plan.status = PlanStatus::NoSuitableTool;
        return plan;
    }
    let rq = candidates::resolve(g, u, opts.source_routing, &mut plan);
    let (scored, mut dropped) = score(g, u, &rq, &mut plan);
    let (planned, lost) = if rq.has_named {
        (scored, Vec::new())
    } else {
        ranking::rank(g, scored, opts.k)
    };
    dropped.extend(rq.filtered.iter().cloned());
    ranking::alternatives(g, &planned, &lost, &dropped, &mut plan);
    let n_candidates = rq.candidates.len();
    let mut tally = steps::Tally::default();
    let cx = steps::Inputs {
        g,
        u,
        opts,
        rq: &rq,
    };
    for (rank, s) in planned.into_iter().enumerate() {
        steps::emit(&cx, (rank, n_candidates), s, &mut plan, &mut tally);
    }
    steps::finish(&rq, &tally, &mut plan);
    plan
}

/// Lines 4-5: each candidate's best endpoint and its scores. A candidate whose every endpoint
/// (or whose pinned endpoint) may destroy data is reported in `skipped_tools` when named, and
/// returned among the dropped candidates with the reason otherwise.
fn score(
    g: &FrozenGraph,
    u: &Understanding,
    rq: &candidates::Request,
    plan: &mut Plan,
) -> (Vec<ranking::Scored>, Vec<(u32, String)>) {
    let mut scored = Vec::new();
    let mut dropped = Vec::new();
    for &t in &rq.candidates {
        let mut m = match_tool(g, t, &rq.req);
        apply_qualifiers(g, t, &mut m, &rq.quals);
        let pinned = rq.pinned.get(&t);
        if let Some(r) = best_endpoint(
            g.tool_at(t),
            &m,
            rq.req.len(),
            &rq.groups,
            &u.parameters,
            pinned,
        ) {
            scored.push((t, r, m));
            continue;
        }
        let reason = match pinned {
            Some(ei) => format!(
                "its endpoint `{}` may destroy data and is not marked `allow_destructive`",
                g.tool_at(t).endpoint_at(*ei).id
            ),
            None => {
                "every endpoint of the tool may destroy data and none is marked `allow_destructive`"
                    .to_string()
            }
        };
        if rq.has_named {
            plan.skipped_tools.push(SkippedTool {
                requested: g.tool_at(t).id.clone(),
                reason,
            });
        } else {
            dropped.push((t, reason));
        }
    }
    (scored, dropped)
}

/// Whether a parameter takes several values in one call: a declared `join` separator or an
/// array type.
fn takes_list(p: &crate::artifact::ParamData) -> bool {
    p.join.is_some() || p.ty.ends_with("[]") || p.ty == "array"
}

/// The Understandings to bind for one endpoint: one per value of each multi-valued parameter
/// concept whose parameter on this endpoint takes one value, or the Understanding itself (the
/// list bound as one value) where the parameter takes a list.
pub(super) fn value_variants(
    g: &FrozenGraph,
    ti: u32,
    ei: u32,
    u: &Understanding,
) -> (Vec<Understanding>, Vec<MultiValue>) {
    let e = g.tool_at(ti).endpoint_at(ei);
    let mut variants = vec![u.clone()];
    let mut notes = Vec::new();
    for (concept, value) in &u.parameters {
        let Some(items) = value.as_array().filter(|a| a.len() > 1) else {
            continue;
        };
        let ids = parameter_concepts(g, concept);
        let params: Vec<&crate::artifact::ParamData> = ids
            .iter()
            .filter_map(|id| g.index.param_postings.get(id))
            .flatten()
            .filter(|p| p.tool == ti && p.endpoint == ei)
            .map(|p| e.parameter_at(p.parameter))
            .collect();
        if params.is_empty() {
            continue;
        }
        let list = params.iter().all(|p| takes_list(p));
        notes.push(MultiValue {
            concept: concept.clone(),
            values: items.clone(),
            tool: g.tool_at(ti).id.clone(),
            mode: if list {
                MultiValueMode::List
            } else {
                MultiValueMode::StepPerValue
            },
        });
        if !list {
            variants = variants
                .into_iter()
                .flat_map(|v| {
                    items.iter().map(move |item| {
                        let mut w = v.clone();
                        w.parameters.insert(concept.clone(), item.clone());
                        w
                    })
                })
                .collect();
        }
    }
    (variants, notes)
}

/// The metadata a plan attaches to a field (unit, conversion factor to the matched concept's canonical unit, source type, licence, provenance).
pub fn field_meta(
    g: &FrozenGraph,
    t: &ToolData,
    f: &crate::artifact::FieldData,
    reasons: &[FieldReason],
) -> FieldMeta {
    // The factor converts to the canonical unit of the concept the field was matched for (or
    // its first concept).
    let concept = reasons
        .iter()
        .find_map(|r| match r {
            FieldReason::Concept { concept, .. } if f.concepts.contains(concept) => {
                Some(concept.clone())
            }
            _ => None,
        })
        .or_else(|| f.concepts.first().cloned());
    let (factor, canonical) = match &concept {
        Some(c) => (
            f.concept_factors.get(c).copied(),
            g.concept(c).and_then(|cd| cd.unit.clone()),
        ),
        None => (None, None),
    };
    // The artifact records a factor alone; an offset scale (°C, °F) converts by factor and
    // offset, read from the two canonical spellings.
    let (factor, offset) = match (factor, f.unit.as_ref(), &canonical) {
        (None, Some(u), Some(cu)) => match offset_conversion(&u.canonical, cu) {
            Some(c) => (Some(c.factor), Some(c.offset)),
            None => (None, None),
        },
        (factor, _, _) => (factor, None),
    };
    FieldMeta {
        unit: f.unit.as_ref().map(|u| u.canonical.clone()),
        dimension: f.unit.as_ref().map(|u| u.dimension.clone()),
        unit_as_published: f.unit.as_ref().and_then(|u| u.as_published.clone()),
        factor_to_canonical: factor.filter(|_| canonical.is_some()),
        offset_to_canonical: offset.filter(|_| canonical.is_some()),
        canonical_unit: canonical.filter(|_| factor.is_some()),
        source_type: f
            .source_type
            .clone()
            .or_else(|| t.source_type.as_deref().map(std::sync::Arc::from)),
        licence: f.licence.clone().or_else(|| t.licence.clone()),
        provenance: t.provenance.clone(),
    }
}

/// The conversion between two canonical unit spellings when it needs an offset (°C → K), with
/// the built-in unit table (offset scales are built in; project extensions cannot be one).
pub fn offset_conversion(from: &str, to: &str) -> Option<crate::units::Conversion> {
    use crate::units::UnitTable;
    static T: std::sync::OnceLock<UnitTable> = std::sync::OnceLock::new();
    let t = T.get_or_init(UnitTable::builtin);
    let (a, b) = (t.parse(from).ok()?, t.parse(to).ok()?);
    crate::units::conversion(&a, &b).filter(|c| c.offset != 0.0)
}

pub(crate) type Bound = (
    BTreeMap<String, Value>,
    Vec<String>,
    Vec<String>,
    Vec<String>,
    Vec<String>,
);

/// The concept ids an Understanding's parameter key stands for: the concepts its alias names,
/// or the key itself when no alias does.
fn parameter_concepts(g: &FrozenGraph, key: &str) -> Vec<String> {
    match g.index.alias_to_concept.get(&normalise_alias(key)) {
        Some(v) => v.clone(),
        None => vec![key.to_string()],
    }
}

/// The names of the endpoint's parameters an Understanding gives a value for, by the
/// parameter's name or by a concept one of its bindings declares (whether or not the value
/// could be bound): the Understanding has decided them, so no value read from the question's
/// words goes there instead (a value that did not fit stays out, with the warning
/// [`bind_parameters`] gives, and is never replaced by another parameter's value).
pub(crate) fn addressed_parameters(
    g: &FrozenGraph,
    ti: u32,
    ei: u32,
    u: &Understanding,
) -> Vec<String> {
    let e = g.tool_at(ti).endpoint_at(ei);
    let mut names: Vec<String> = Vec::new();
    for (key, value) in &u.parameters {
        if value.is_null() {
            continue;
        }
        let ids = parameter_concepts(g, key);
        for p in &e.parameters {
            let named = &p.name == key || p.bind.iter().any(|b| ids.contains(&b.concept));
            if named && !names.contains(&p.name) {
                names.push(p.name.clone());
            }
        }
    }
    names
}

/// The keys of the Understanding's parameters (with a value) that endpoint `ei` of tool `ti`
/// takes, by a parameter's name or a concept its binding names (as [`addressed_parameters`]).
pub(crate) fn taken_keys(g: &FrozenGraph, ti: u32, ei: u32, u: &Understanding) -> Vec<String> {
    let e = g.tool_at(ti).endpoint_at(ei);
    u.parameters
        .iter()
        .filter(|(_, value)| !value.is_null())
        .filter(|(key, _)| {
            let ids = parameter_concepts(g, key);
            e.parameters
                .iter()
                .any(|p| &p.name == *key || p.bind.iter().any(|b| ids.contains(&b.concept)))
        })
        .map(|(key, _)| key.clone())
        .collect()
}

pub(crate) fn bind_parameters(g: &FrozenGraph, ti: u32, ei: u32, u: &Understanding) -> Bound {
    let e = g.tool_at(ti).endpoint_at(ei);
    // Per parameter: (binding's position in the declaration, value).
    let mut values: BTreeMap<String, Vec<(usize, Value)>> = BTreeMap::new();
    let mut set: BTreeMap<String, (usize, Value)> = BTreeMap::new();
    let mut unbound = Vec::new();
    let mut warnings = Vec::new();
    for (concept, value) in &u.parameters {
        if value.is_null() {
            continue;
        }
        let scalar = |v: &Value| matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_));
        let usable = scalar(value)
            || value
                .as_array()
                .is_some_and(|a| !a.is_empty() && a.iter().all(scalar));
        if !usable {
            warnings.push(format!(
                "parameter `{concept}` has a value that is not a string, number, boolean or list of them; not bound"
            ));
            unbound.push(concept.clone());
            continue;
        }
        let ids = parameter_concepts(g, concept);
        let mut bound_any = false;
        for id in &ids {
            let Some(list) = g.index.param_postings.get(id) else {
                continue;
            };
            for p in list.iter().filter(|p| p.tool == ti && p.endpoint == ei) {
                let param = e.parameter_at(p.parameter);
                // A list is rendered value by value (each through the template) and joined
                // below where the parameter takes a list; an array-typed parameter renders the
                // list itself.
                let items: Vec<&Value> = match value.as_array() {
                    Some(a) if takes_list(param) && !bind::is_array(param) => a.iter().collect(),
                    _ => vec![value],
                };
                for (bi, b) in param
                    .bind
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| &b.concept == id)
                {
                    for item in &items {
                        match bind::render_for(param, b.template.as_ref(), item) {
                            Ok(v) => {
                                values.entry(param.name.clone()).or_default().push((bi, v));
                                for (k, s) in &b.set {
                                    // Companion values of the first binding in declaration
                                    // order win.
                                    let slot = set.entry(k.clone()).or_insert((bi, s.to_json()));
                                    if bi < slot.0 {
                                        *slot = (bi, s.to_json());
                                    }
                                }
                                bound_any = true;
                            }
                            Err(msg) => {
                                warnings.push(format!("{}/{}: {msg}", g.tool_at(ti).id, e.id))
                            }
                        }
                    }
                }
            }
        }
        // No binding declares it: the endpoint's own parameter of that name, if it has one
        // that binds nothing (an imported endpoint's `author`), takes the value as given.
        if !bound_any
            && !ids.iter().any(|id| g.index.param_postings.contains_key(id))
            && let Some(param) = e
                .parameters
                .iter()
                .find(|p| &p.name == concept && p.bind.is_empty() && !p.auth)
        {
            match bind::render_for(param, None, value) {
                Ok(v) => {
                    values.entry(param.name.clone()).or_default().push((0, v));
                    bound_any = true;
                }
                Err(msg) => warnings.push(format!("{}/{}: {msg}", g.tool_at(ti).id, e.id)),
            }
        }
        if !bound_any {
            unbound.push(concept.clone());
        }
    }
    let mut params: BTreeMap<String, Value> = BTreeMap::new();
    for (name, vs) in values {
        let Some(param) = e.parameters.iter().find(|p| p.name == name) else {
            continue;
        };
        // The first binding in declaration order comes first (and wins when nothing joins).
        let mut vs = vs;
        vs.sort_by_key(|(bi, _)| *bi);
        let mut uniq: Vec<Value> = Vec::new();
        for (_, v) in vs {
            if !uniq.contains(&v) {
                uniq.push(v);
            }
        }
        params.insert(name, bind::combine(param, uniq));
    }
    for (k, (_, v)) in set {
        params.entry(k).or_insert(v);
    }
    let mut missing = Vec::new();
    let mut auth = Vec::new();
    for p in &e.parameters {
        if params.contains_key(&p.name) {
            continue;
        }
        if p.auth {
            if p.required {
                auth.push(p.name.clone());
            }
            continue;
        }
        if p.required {
            match &p.default {
                Some(d) => {
                    params.insert(p.name.clone(), bind::default_json(p, d));
                }
                None => missing.push(p.name.clone()),
            }
        }
    }
    (params, missing, auth, unbound, warnings)
}

/// Words an Understand step (an LLM above all) uses for the standard source types, mapped to
/// them: `measured` -> `experimental`, `computed`/`DFT` -> `calculated`, `published` ->
/// `literature`. Case and surrounding space are ignored. Returns the inventory's own spelling when
/// `c` names one of `known` (or a synonym of one), `None` otherwise.
pub fn canonical_source_type(c: &str, known: &[String]) -> Option<String> {
    let c = c.trim().to_lowercase();
    if let Some(k) = known.iter().find(|k| k.to_lowercase() == c) {
        return Some(k.clone());
    }
    let target = match c.as_str() {
        "measured" | "measurement" | "measurements" | "experiment" | "experiments"
        | "experimentally" | "lab" | "laboratory" | "empirical" | "observed" => "experimental",
        "computed" | "computational" | "computation" | "simulated" | "simulation"
        | "theoretical" | "theory" | "dft" | "predicted" | "calculation" | "calculations"
        | "ab initio" => "calculated",
        "published" | "publication" | "publications" | "paper" | "papers" | "journal"
        | "article" | "articles" | "reported" => "literature",
        _ => return None,
    };
    known.iter().find(|k| k.as_str() == target).cloned()
}
