//! Algorithm 1, lines 1-4: the request resolved against the artifact before any scoring: the
//! intent, the source constraint, the tools ruled out, the tools named (with pinned
//! endpoints), the candidates (named tools, else the intent's precomputed candidates) after the
//! source filter, the requested concepts and the requested qualifiers.

use super::algorithm::{
    ReqQualifier, Requested, canonical_source_type, resolve_concepts, resolve_qualifiers,
    resolve_target,
};
use super::{Plan, SkippedTool, Understanding};
use crate::artifact::{FrozenGraph, IntentData};
use crate::model::normalise_alias;
use std::collections::BTreeMap;

/// The request of one Understanding, resolved (Algorithm 1, lines 1-4).
pub(super) struct Request {
    /// The intent's required field groups.
    pub(super) groups: Vec<String>,
    /// Tool indices named `tool/endpoint`, with the endpoint the step must use.
    pub(super) pinned: BTreeMap<u32, u32>,
    /// Whether the request names tools (then every named tool is planned).
    pub(super) has_named: bool,
    /// The candidates, in the order Algorithm 1 considers them.
    pub(super) candidates: Vec<u32>,
    /// Intent candidates the source filter removed, with the reason (for `alternatives`).
    pub(super) filtered: Vec<(u32, String)>,
    /// The requested concepts, resolved through the alias layer.
    pub(super) req: Vec<Requested>,
    /// The requested qualifiers, resolved through the qualifier vocabulary.
    pub(super) quals: Vec<ReqQualifier>,
}

/// Resolve the Understanding `u` into a [`Request`], writing the plan's `intent`,
/// `source_constraint`, `excluded_tools`, `skipped_tools` and warnings on the way.
pub(super) fn resolve(
    g: &FrozenGraph,
    u: &Understanding,
    source_routing: bool,
    plan: &mut Plan,
) -> Request {
    let intent = resolve_intent(g, u, plan);
    plan.intent = intent.map(|i| i.id.clone());
    let constraint = if source_routing {
        resolve_constraint(g, u, plan)
    } else {
        None
    };
    plan.source_constraint = constraint.clone();
    let groups: Vec<String> = intent
        .map(|i| i.required_groups.clone())
        .unwrap_or_default();
    let excluded = resolve_excluded(g, u, plan);
    let (named, pinned, has_named) = resolve_named(g, u, &excluded, plan);
    let mut candidates: Vec<u32> = if has_named {
        named
    } else if let Some(i) = intent {
        i.candidates.clone()
    } else {
        Vec::new()
    };
    candidates.retain(|t| !excluded.contains(t));
    let filtered = filter_by_source(g, constraint.as_deref(), has_named, &mut candidates, plan);
    let req = resolve_concepts(g, u);
    for r in &req {
        if r.concepts.is_empty() && r.fields.is_empty() && r.field_names.is_empty() {
            plan.warnings.push(format!(
                "`{}` is not a known concept, alias or field",
                r.text
            ));
        }
    }
    Request {
        groups,
        pinned,
        has_named,
        candidates,
        filtered,
        req,
        quals: resolve_qualifiers(g, u),
    }
}

/// The Understanding's intent, or `None` (with a warning when it names an unknown one).
fn resolve_intent<'g>(
    g: &'g FrozenGraph,
    u: &Understanding,
    plan: &mut Plan,
) -> Option<&'g IntentData> {
    let i = u.intent.as_ref()?;
    let found = g.intent(i);
    if found.is_none() {
        plan.warnings.push(format!("unknown intent `{i}` ignored"));
    }
    found
}

/// The source constraint in the inventory's spelling (a synonym read with a warning), or `None`.
fn resolve_constraint(g: &FrozenGraph, u: &Understanding, plan: &mut Plan) -> Option<String> {
    let c = u
        .source_constraint
        .as_deref()
        .filter(|s| !s.trim().is_empty())?;
    let c = match canonical_source_type(c, &g.source_types) {
        Some(known) if known != c => {
            plan.warnings
                .push(format!("source constraint `{c}` read as `{known}`"));
            known
        }
        _ => c.to_string(),
    };
    if !g.source_types.contains(&c) {
        plan.warnings.push(format!(
            "unknown source constraint `{c}`: no tool can satisfy it"
        ));
    }
    Some(c)
}

/// The tools the request rules out, each reported in `excluded_tools`.
fn resolve_excluded(g: &FrozenGraph, u: &Understanding, plan: &mut Plan) -> Vec<u32> {
    let mut excluded: Vec<u32> = Vec::new();
    for name in &u.excluded_apis {
        let Some(t) = resolve_target(g, name).map(|(t, _)| t) else {
            plan.warnings.push(format!(
                "excluded tool `{name}` is not a tool id or name; nothing excluded"
            ));
            continue;
        };
        if excluded.contains(&t) {
            continue;
        }
        excluded.push(t);
        let id = &g.tool_at(t).id;
        plan.excluded_tools.push(SkippedTool {
            requested: id.clone(),
            reason: if normalise_alias(name) == normalise_alias(id) {
                "ruled out by the request".to_string()
            } else {
                format!("ruled out by the request (\"{name}\")")
            },
        });
    }
    excluded
}

/// Lines 1-2: the tools the request names (not ruled out), the endpoints pinned by
/// `tool/endpoint`, and whether the request names tools at all (an unknown name counts: the
/// plan then reports it rather than answering from other tools).
fn resolve_named(
    g: &FrozenGraph,
    u: &Understanding,
    excluded: &[u32],
    plan: &mut Plan,
) -> (Vec<u32>, BTreeMap<u32, u32>, bool) {
    let mut named: Vec<u32> = Vec::new();
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
        || u.target_apis.iter().any(|n| {
            resolve_target(g, n)
                .map(|(t, _)| t)
                .is_none_or(|t| !excluded.contains(&t))
        });
    (named, pinned, has_named)
}

/// Line 3: keep the candidates whose source types include the constraint. A named tool that
/// fails it is reported in `skipped_tools`; an intent candidate that fails it is returned with
/// the reason (the plan names it among the alternatives).
fn filter_by_source(
    g: &FrozenGraph,
    constraint: Option<&str>,
    has_named: bool,
    candidates: &mut Vec<u32>,
    plan: &mut Plan,
) -> Vec<(u32, String)> {
    let mut filtered = Vec::new();
    let Some(c) = constraint else {
        return filtered;
    };
    candidates.retain(|t| {
        let tool = g.tool_at(*t);
        if tool.source_types.iter().any(|s| s == c) {
            return true;
        }
        let reason = format!(
            "its source type is {} and the request asks for {c}",
            tool.source_types.join("/")
        );
        if has_named {
            plan.skipped_tools.push(SkippedTool {
                requested: tool.id.clone(),
                reason,
            });
        } else {
            filtered.push((*t, reason));
        }
        false
    });
    filtered
}
