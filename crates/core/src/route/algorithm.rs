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

use super::bind;
use super::{
    FieldMeta, FieldReason, MatchKindName, McpCall, MultiValue, MultiValueMode, Plan, PlanStatus,
    PlannedField, SkippedTool, Step, Understanding, UnmatchedQualifier,
};
use crate::artifact::{FieldKey, FrozenGraph, MatchKind, Posting, ToolData};
use crate::model::normalise_alias;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

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
struct Requested {
    text: String,
    concepts: Vec<String>,
    fields: Vec<FieldKey>,
    field_names: Vec<FieldKey>,
}

fn resolve_concepts(g: &FrozenGraph, u: &Understanding) -> Vec<Requested> {
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
struct Hit {
    /// Best match-kind score over the concept's fields (exact 3, alias 2, partial 1).
    score: u32,
    /// The same over the fields that do not contradict a requested qualifier.
    score_nc: u32,
    /// Most requested qualifiers one kept field carries.
    qual: u32,
    /// Projected fields with their reasons.
    fields: Vec<(u32, FieldReason)>,
    /// Every matching field (projected or ranking-only) with its kind score.
    seen: Vec<(u32, u32)>,
}

/// Per-endpoint matches of the requested concepts for one tool: endpoint -> requested index ->
/// hit.
type EndpointMatches = BTreeMap<u32, BTreeMap<usize, Hit>>;

/// A requested qualifier, resolved through the qualifier vocabulary.
#[derive(Clone, Debug)]
struct ReqQualifier {
    key: String,
    value: String,
    /// Normalised value (for comparing with values the vocabulary does not declare).
    norm: String,
    /// Whether the vocabulary declares the value.
    known: bool,
}

/// How a field stands to one requested qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum QualStatus {
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

fn resolve_qualifiers(g: &FrozenGraph, u: &Understanding) -> Vec<ReqQualifier> {
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

fn qual_status(g: &FrozenGraph, f: &crate::artifact::FieldData, q: &ReqQualifier) -> QualStatus {
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
/// planned unless declared `allow_destructive`). Endpoints compare by the concept score without
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
    groups: &[String],
    given: &BTreeMap<String, Value>,
    pinned: Option<&u32>,
) -> Option<Ranked> {
    type Key = (
        usize,
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
        let provides = groups.iter().any(|g| e.group_fields.contains_key(g));
        let unfilled = e
            .parameters
            .iter()
            .filter(|p| p.required && !p.auth && p.default.is_none())
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
        |(ids, score_nc, qual, score, _, _, _, _, std::cmp::Reverse(endpoint))| Ranked {
            ids,
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
struct Ranked {
    /// Identifier parameters of the question the endpoint takes ([`IDENTIFIER_PARAMS`]).
    ids: usize,
    /// Concept-match score (what the plan reports).
    score: u32,
    /// Concept-match score without the fields that contradict a requested qualifier.
    score_nc: u32,
    /// Requested qualifiers the endpoint's matched fields carry.
    qual: u32,
    /// Endpoint index.
    endpoint: u32,
}

fn resolve_tool(g: &FrozenGraph, name: &str) -> Option<u32> {
    resolve_target(g, name).map(|(t, _)| t)
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

/// Run Algorithm 1 on an Understanding.
pub fn route(g: &FrozenGraph, u: &Understanding, opts: &Options) -> Plan {
    let mut plan = Plan {
        status: PlanStatus::Planned,
        routing_fingerprint: g.routing_fingerprint.clone(),
        intent: None,
        source_constraint: None,
        steps: Vec::new(),
        unmatched_concepts: Vec::new(),
        skipped_tools: Vec::new(),
        not_understood: Vec::new(),
        excluded_tools: Vec::new(),
        unmatched_qualifiers: Vec::new(),
        multi_values: Vec::new(),
        out_of_scope: None,
        warnings: Vec::new(),
    };
    // An out-of-scope request (an action, media, live data) gets no plan, whatever else the
    // Understanding carries.
    if let Some(reason) = u.out_of_scope.as_deref().filter(|r| !r.trim().is_empty()) {
        plan.out_of_scope = Some(reason.to_string());
        plan.status = PlanStatus::NoSuitableTool;
        return plan;
    }
    let intent = match &u.intent {
        Some(i) => match g.intent(i) {
            Some(it) => Some(it),
            None => {
                plan.warnings.push(format!("unknown intent `{i}` ignored"));
                None
            }
        },
        None => None,
    };
    plan.intent = intent.map(|i| i.id.clone());
    let constraint = if opts.source_routing {
        u.source_constraint
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(|c| match canonical_source_type(c, &g.source_types) {
                Some(known) if known != c => {
                    plan.warnings
                        .push(format!("source constraint `{c}` read as `{known}`"));
                    known
                }
                _ => c.to_string(),
            })
    } else {
        None
    };
    if let Some(c) = &constraint
        && !g.source_types.contains(c)
    {
        plan.warnings.push(format!(
            "unknown source constraint `{c}`: no tool can satisfy it"
        ));
    }
    plan.source_constraint = constraint.clone();
    let groups: Vec<String> = intent
        .map(|i| i.required_groups.clone())
        .unwrap_or_default();

    // Tools the request rules out.
    let mut excluded: Vec<u32> = Vec::new();
    for name in &u.excluded_apis {
        match resolve_tool(g, name) {
            Some(t) => {
                if !excluded.contains(&t) {
                    excluded.push(t);
                    plan.excluded_tools.push(SkippedTool {
                        requested: g.tool_at(t).id.clone(),
                        reason: if normalise_alias(name) == normalise_alias(&g.tool_at(t).id) {
                            "ruled out by the request".to_string()
                        } else {
                            format!("ruled out by the request (\"{name}\")")
                        },
                    });
                }
            }
            None => plan.warnings.push(format!(
                "excluded tool `{name}` is not a tool id or name; nothing excluded"
            )),
        }
    }

    // Lines 1-2: named tools override; otherwise the intent's candidates.
    let mut named: Vec<u32> = Vec::new();
    // Tools named with an endpoint (`tool/endpoint`): the step uses that endpoint.
    let mut pinned: BTreeMap<u32, u32> = BTreeMap::new();
    for name in &u.target_apis {
        match resolve_target(g, name) {
            Some((t, _)) if excluded.contains(&t) => {}
            Some((t, endpoint)) => {
                if !named.contains(&t) {
                    named.push(t);
                }
                if let Some(ei) = endpoint {
                    pinned.entry(t).or_insert(ei);
                }
            }
            None => plan.skipped_tools.push(SkippedTool {
                requested: name.clone(),
                reason: "no tool with this id or name".into(),
            }),
        }
    }
    let has_named = !named.is_empty()
        || u.target_apis
            .iter()
            .any(|n| resolve_tool(g, n).is_none_or(|t| !excluded.contains(&t)));
    let mut candidates: Vec<u32> = if has_named {
        named.clone()
    } else if let Some(i) = intent {
        i.candidates.clone()
    } else {
        Vec::new()
    };
    candidates.retain(|t| !excluded.contains(t));

    // Line 3: source filter (a field-level override counts).
    if let Some(c) = &constraint {
        candidates.retain(|t| {
            let tool = g.tool_at(*t);
            let ok = tool.source_types.contains(c);
            if !ok && has_named {
                plan.skipped_tools.push(SkippedTool {
                    requested: tool.id.clone(),
                    reason: format!(
                        "its source type is {} and the request asks for {c}",
                        tool.source_types.join("/")
                    ),
                });
            }
            ok
        });
    }

    let req = resolve_concepts(g, u);
    for r in &req {
        if r.concepts.is_empty() && r.fields.is_empty() && r.field_names.is_empty() {
            plan.warnings.push(format!(
                "`{}` is not a known concept, alias or field",
                r.text
            ));
        }
    }
    let quals = resolve_qualifiers(g, u);

    // Lines 4-5: score and rank (concept score without qualifier-contradicting fields, then
    // the requested qualifiers carried, then the plain concept score, then priority).
    let mut scored: Vec<(u32, Ranked, EndpointMatches)> = Vec::new();
    for &t in &candidates {
        let mut m = match_tool(g, t, &req);
        apply_qualifiers(g, t, &mut m, &quals);
        match best_endpoint(g.tool_at(t), &m, &groups, &u.parameters, pinned.get(&t)) {
            Some(r) => scored.push((t, r, m)),
            None if has_named => plan.skipped_tools.push(SkippedTool {
                requested: g.tool_at(t).id.clone(),
                reason: match pinned.get(&t) {
                    Some(ei) => format!(
                        "its endpoint `{}` may destroy data and is not marked `allow_destructive`",
                        g.tool_at(t).endpoint_at(*ei).id
                    ),
                    None => "every endpoint of the tool may destroy data and none is marked `allow_destructive`".to_string(),
                },
            }),
            None => {}
        }
    }
    if !has_named {
        scored.sort_by(|a, b| {
            let ta = g.tool_at(a.0);
            let tb = g.tool_at(b.0);
            (
                ta.is_web,
                std::cmp::Reverse(a.1.ids),
                std::cmp::Reverse(a.1.score_nc),
                std::cmp::Reverse(a.1.qual),
                std::cmp::Reverse(a.1.score),
                std::cmp::Reverse(ta.priority),
                ta.total_fields,
                &ta.id,
            )
                .cmp(&(
                    tb.is_web,
                    std::cmp::Reverse(b.1.ids),
                    std::cmp::Reverse(b.1.score_nc),
                    std::cmp::Reverse(b.1.qual),
                    std::cmp::Reverse(b.1.score),
                    std::cmp::Reverse(tb.priority),
                    tb.total_fields,
                    &tb.id,
                ))
        });
        scored.truncate(opts.k.max(1));
    }
    let n_candidates = candidates.len();

    // Lines 6-8: project, bind, attach.
    let mut covered: BTreeSet<usize> = BTreeSet::new();
    let mut qual_met: BTreeSet<usize> = BTreeSet::new();
    for (rank, (ti, ranked, matches)) in scored.into_iter().enumerate() {
        let ei = ranked.endpoint;
        let score = ranked.score;
        let t = g.tool_at(ti);
        let e = t.endpoint_at(ei);
        let mut reasons: BTreeMap<u32, Vec<FieldReason>> = BTreeMap::new();
        for f in &e.identifiers {
            reasons.entry(*f).or_default().push(FieldReason::Identifier);
        }
        let mut step_covered: BTreeSet<usize> = BTreeSet::new();
        if let Some(m) = matches.get(&ei) {
            for (ri, hit) in m {
                if !hit.fields.is_empty() {
                    covered.insert(*ri);
                    step_covered.insert(*ri);
                }
                for (f, why) in &hit.fields {
                    for (qi, q) in quals.iter().enumerate() {
                        if qual_status(g, e.field_at(*f), q) == QualStatus::Match {
                            qual_met.insert(qi);
                        }
                    }
                    let v = reasons.entry(*f).or_default();
                    if !v.contains(why) {
                        v.push(why.clone());
                    }
                }
            }
        }
        match opts.projection {
            Projection::Recall => {
                for gid in &groups {
                    if let Some(fs) = e.group_fields.get(gid) {
                        for f in fs {
                            reasons
                                .entry(*f)
                                .or_default()
                                .push(FieldReason::Group { group: gid.clone() });
                        }
                    }
                }
            }
            Projection::Core => {
                // The safety net, only where it is needed: when some requested concept is not
                // matched on this step (or none is requested), the core fields of the intent's
                // groups.
                if step_covered.len() < req.len() || req.is_empty() {
                    for gid in &groups {
                        let core = g
                            .groups
                            .binary_search_by(|x| x.id.as_str().cmp(gid))
                            .ok()
                            .map(|i| &g.groups[i].core);
                        let (Some(fs), Some(core)) = (e.group_fields.get(gid), core) else {
                            continue;
                        };
                        // A group that declares no core keeps the whole group (the recall
                        // projection's behaviour; rule group-without-core flags it).
                        for f in fs {
                            let fd = e.field_at(*f);
                            if (core.is_empty() || fd.concepts.iter().any(|c| core.contains(c)))
                                && !quals
                                    .iter()
                                    .any(|q| qual_status(g, fd, q) == QualStatus::Contradict)
                            {
                                reasons
                                    .entry(*f)
                                    .or_default()
                                    .push(FieldReason::Group { group: gid.clone() });
                            }
                        }
                    }
                }
            }
            Projection::Minimal => {}
            Projection::All => {
                for f in 0..e.fields.len() as u32 {
                    reasons.entry(f).or_default().push(FieldReason::AllFields);
                }
            }
        }
        let fields: Vec<PlannedField> = reasons
            .into_iter()
            .map(|(fi, reasons)| {
                let fd = e.field_at(fi);
                PlannedField {
                    name: fd.name.clone(),
                    identifier: fd.identifier,
                    meta: opts.metadata.then(|| field_meta(g, t, fd, &reasons)),
                    reasons,
                }
            })
            .collect();
        let mut why = if has_named {
            "named in the request".to_string()
        } else {
            format!(
                "rank {} of {n_candidates} candidate(s) for intent `{}` (score {score})",
                rank + 1,
                plan.intent.as_deref().unwrap_or("-")
            )
        };
        if !quals.is_empty() && !has_named {
            let wanted: Vec<String> = quals
                .iter()
                .map(|q| format!("{} = {}", q.key, q.value))
                .collect();
            why.push_str(&format!(
                "; {} of {} requested qualifier(s) carried ({})",
                ranked.qual,
                quals.len(),
                wanted.join(", ")
            ));
        }
        // Say so when a step writes (its annotations, or `PUT`, `PATCH`, `DELETE`): a plan is
        // for fetching, and carrying this one out changes data.
        let http_write = matches!(e.method.as_str(), "PUT" | "PATCH" | "DELETE");
        if e.writes || http_write {
            let w = format!(
                "`{}/{}` changes data ({}): carrying out this plan writes; confirm before running it",
                t.id,
                e.id,
                if http_write {
                    format!("HTTP {}", e.method)
                } else {
                    "annotated as not read-only".to_string()
                }
            );
            if !plan.warnings.contains(&w) {
                plan.warnings.push(w);
            }
        }
        // A named tool with no requested concept: nothing selects a field to project.
        if fields.is_empty() && !e.fields.is_empty() && req.is_empty() {
            let w = format!(
                "no concept of the request selects a field of `{}/{}`, so none is projected ({} field(s) with the projection `all`)",
                t.id,
                e.id,
                e.fields.len()
            );
            if !plan.warnings.contains(&w) {
                plan.warnings.push(w);
            }
        }
        // A named tool that declares no field for any requested concept: its step fetches
        // identifiers (and group core fields) only; say so rather than plan a silent call.
        if has_named && !req.is_empty() && step_covered.is_empty() {
            let wanted: Vec<String> = req.iter().map(|r| format!("`{}`", r.text)).collect();
            let w = format!(
                "`{}/{}` was named, but declares no field for {}; its step fetches {}",
                t.id,
                e.id,
                wanted.join(", "),
                if fields.iter().all(|f| f.identifier) {
                    "identifiers only"
                } else {
                    "only the core fields of the intent's groups"
                }
            );
            if !plan.warnings.contains(&w) {
                plan.warnings.push(w);
            }
        }
        // Several values of one parameter concept: one step with the list where the tool's
        // parameter takes one, one step per value otherwise.
        let (variants, multi) = value_variants(g, ti, ei, u);
        plan.multi_values.extend(multi);
        for vu in variants {
            let (params, missing, auth, unbound, warnings) = bind_parameters(g, ti, ei, &vu);
            for w in warnings {
                if !plan.warnings.contains(&w) {
                    plan.warnings.push(w);
                }
            }
            plan.steps.push(Step {
                tool: t.id.clone(),
                endpoint: e.id.clone(),
                method: e.method.clone(),
                url: e.url.clone(),
                call: e.mcp_tool.as_ref().map(|name| McpCall {
                    name: name.clone(),
                    arguments: params.clone(),
                }),
                records: e.records.clone(),
                params,
                missing_required: missing,
                auth,
                unbound,
                fields: fields.clone(),
                score,
                why: why.clone(),
            });
        }
    }

    for (ri, r) in req.iter().enumerate() {
        if !covered.contains(&ri) {
            plan.unmatched_concepts.push(r.text.clone());
        }
    }
    for (qi, q) in quals.iter().enumerate() {
        if qual_met.contains(&qi) {
            continue;
        }
        let reason = if !q.known {
            format!(
                "`{}` is not a declared value of qualifier `{}`; no field is known to carry it",
                q.value, q.key
            )
        } else if plan.steps.is_empty() {
            "no step was planned".to_string()
        } else {
            format!(
                "no planned field carries {} = {}; the concept's fields are projected whatever their {}",
                q.key, q.value, q.key
            )
        };
        plan.unmatched_qualifiers.push(UnmatchedQualifier {
            key: q.key.clone(),
            value: q.value.clone(),
            reason,
        });
    }
    plan.status = if plan.steps.is_empty() {
        PlanStatus::NoSuitableTool
    } else if plan.steps.iter().any(|s| !s.missing_required.is_empty()) {
        PlanStatus::MissingRequiredParameter
    } else if !plan.unmatched_concepts.is_empty() || !plan.skipped_tools.is_empty() {
        PlanStatus::Partial
    } else {
        PlanStatus::Planned
    };
    plan
}

/// Whether a parameter takes several values in one call: a declared `join` separator or an
/// array type.
fn takes_list(p: &crate::artifact::ParamData) -> bool {
    p.join.is_some() || p.ty.ends_with("[]") || p.ty == "array"
}

/// The Understandings to bind for one endpoint: one per value of each multi-valued parameter
/// concept whose parameter on this endpoint takes one value, or the Understanding itself (the
/// list bound as one value) where the parameter takes a list.
fn value_variants(
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
        let key = normalise_alias(concept);
        let ids: Vec<String> = match g.index.alias_to_concept.get(&key) {
            Some(v) => v.clone(),
            None => vec![concept.clone()],
        };
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
    FieldMeta {
        unit: f.unit.as_ref().map(|u| u.canonical.clone()),
        dimension: f.unit.as_ref().map(|u| u.dimension.clone()),
        unit_as_published: f.unit.as_ref().and_then(|u| u.as_published.clone()),
        factor_to_canonical: factor.filter(|_| canonical.is_some()),
        canonical_unit: canonical.filter(|_| factor.is_some()),
        source_type: f
            .source_type
            .clone()
            .or_else(|| t.source_type.as_deref().map(std::sync::Arc::from)),
        licence: f.licence.clone().or_else(|| t.licence.clone()),
        provenance: t.provenance.clone(),
    }
}

pub(crate) type Bound = (
    BTreeMap<String, Value>,
    Vec<String>,
    Vec<String>,
    Vec<String>,
    Vec<String>,
);

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
        let key = normalise_alias(concept);
        let ids: Vec<String> = match g.index.alias_to_concept.get(&key) {
            Some(v) => v.clone(),
            None => vec![concept.clone()],
        };
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
