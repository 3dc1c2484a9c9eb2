//! Routing a question no declared intent covers: rank, then plan.
//!
//! Algorithm 1 plans from an intent's candidate tools (or the tools a request names). A catalog
//! imported yesterday has no hand-written intents, and a question outside every declared intent
//! gets no candidates. [`route_question`] then plans from the ranked endpoints (the compiled
//! search index, [`crate::search`]):
//!
//! 1. rank every endpoint against the question (BM25F), leaving out destructive endpoints (unless
//!    declared `allow_destructive`), tools the request rules out, and tools of another source
//!    type than the request asks for; an endpoint that writes ranks lower for a question asked
//!    as a question, and one whose required parameters the question can fill ranks higher;
//! 2. decide "no tool" from the catalog itself: the best endpoint must match enough of the
//!    question's words that the index knows ([`MIN_COVERAGE`], [`MIN_WEIGHT`], calibrated on
//!    negatives; see `bench/README.md`), else the plan is empty and says why;
//! 3. plan up to `k` steps, one per distinct need: after the best endpoint, each next one is
//!    chosen for the question's words it adds ([`select`]);
//! 4. per step, project fields by the requested concepts and by the question's words in field
//!    names ([`project`]), identifiers always; bind parameters through declared bindings, then
//!    fill the rest from the question's typed spans ([`spans`], [`fill`]).

pub mod fill;
pub mod project;
mod select;
pub mod spans;

use super::algorithm::{bind_parameters, field_meta, resolve_target};
use super::{McpCall, Options, Plan, PlanStatus, PlannedField, Step, Understanding};
use crate::artifact::FrozenGraph;
use crate::search::{self, Query};
use std::collections::BTreeMap;

pub use select::{MIN_COVERAGE, MIN_WEIGHT};

/// Plan a question: Algorithm 1 on its Understanding ([`super::route_checked`]), and when that
/// gives no step (no intent fits, no tool is named, and the request is not out of scope by a
/// declared topic), a plan from the ranked endpoints (see the module docs).
pub fn route_question(g: &FrozenGraph, question: &str, u: &Understanding, opts: &Options) -> Plan {
    let mut plan = super::route_checked(g, u, opts);
    if !plan.steps.is_empty() || plan.out_of_scope.is_some() || !u.target_apis.is_empty() {
        return plan;
    }
    plan_ranked(g, question, u, opts, &mut plan);
    plan
}

/// The text to rank when only an Understanding is at hand (`route --understanding`): its
/// concepts, qualifier values and parameter values.
pub fn question_of(u: &Understanding) -> String {
    let mut words: Vec<String> = u.domain_concepts.clone();
    words.extend(u.qualifiers.values().cloned());
    for (k, v) in &u.parameters {
        words.push(k.replace('_', " "));
        words.push(super::bind::value_text(v));
    }
    words.join(" ")
}

/// The ranked part of [`route_question`]: fills `plan` (which Algorithm 1 left without steps).
fn plan_ranked(g: &FrozenGraph, question: &str, u: &Understanding, opts: &Options, plan: &mut Plan) {
    let q = Query::new(question);
    let ranking = search::rank(g, &q);
    let spans = spans::spans(&q.text);
    let excluded: Vec<u32> = u
        .excluded_apis
        .iter()
        .filter_map(|n| resolve_target(g, n).map(|(t, _)| t))
        .collect();
    let candidates = select::candidates(
        g,
        &q,
        &ranking,
        &spans,
        &excluded,
        plan.source_constraint.as_deref(),
    );
    let chosen = match select::choose(g, &q, &ranking, &candidates, &spans, opts.k.max(1)) {
        Ok(c) => c,
        Err(reason) => {
            plan.out_of_scope = Some(reason.clone());
            plan.warnings.push(format!("no suitable tool: {reason}"));
            plan.status = PlanStatus::NoSuitableTool;
            return;
        }
    };
    let n = candidates.len();
    for (rank, c) in chosen.iter().enumerate() {
        let step = step_for(g, c, u, &q, &spans, opts, plan);
        let mut step = step;
        step.why = format!(
            "rank {} of {n} endpoint(s) ranked for the request (score {:.3}; words: {}){}",
            rank + 1,
            c.score,
            q.words(c.matched).join(", "),
            if c.filled_required < c.required {
                format!(
                    "; {} of {} required parameter(s) filled from the request",
                    c.filled_required, c.required
                )
            } else {
                String::new()
            }
        );
        plan.steps.push(step);
    }
    let covered: Vec<String> = plan
        .steps
        .iter()
        .flat_map(|s| s.fields.iter())
        .flat_map(|f| f.reasons.iter())
        .filter_map(|r| match r {
            super::FieldReason::Concept { concept, via, .. } => {
                Some(via.clone().unwrap_or_else(|| concept.clone()))
            }
            _ => None,
        })
        .collect();
    plan.unmatched_concepts.retain(|c| !covered.contains(c));
    plan.status = if !plan.not_understood.is_empty() {
        PlanStatus::NotUnderstood
    } else if plan.steps.iter().any(|s| !s.missing_required.is_empty()) {
        PlanStatus::MissingRequiredParameter
    } else if !plan.unmatched_concepts.is_empty() {
        PlanStatus::Partial
    } else {
        PlanStatus::Planned
    };
}

/// One step on a chosen endpoint: projection, bindings, filled parameters, metadata.
fn step_for(
    g: &FrozenGraph,
    c: &select::Candidate,
    u: &Understanding,
    q: &Query,
    spans: &[spans::Span],
    opts: &Options,
    plan: &mut Plan,
) -> Step {
    let t = g.tool_at(c.tool);
    let e = t.endpoint_at(c.endpoint);
    let (reasons, note) = project::project(g, c.tool, c.endpoint, u, q, opts.projection);
    if let Some(n) = note {
        plan.warnings.push(n);
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
    let (mut params, _, auth, unbound, warnings) = bind_parameters(g, c.tool, c.endpoint, u);
    for w in warnings {
        if !plan.warnings.contains(&w) {
            plan.warnings.push(w);
        }
    }
    // Defaults `bind_parameters` put in for required parameters come after what the question
    // says: take them out, fill, and put back what stays open.
    let defaults: BTreeMap<String, serde_json::Value> = e
        .parameters
        .iter()
        .filter(|p| p.required && p.default.is_some())
        .filter_map(|p| params.remove_entry(&p.name))
        .collect();
    fill::fill(e, &q.text, spans, &mut params);
    for (k, v) in defaults {
        params.entry(k).or_insert(v);
    }
    let missing: Vec<String> = e
        .parameters
        .iter()
        .filter(|p| p.required && !p.auth && !params.contains_key(&p.name))
        .map(|p| p.name.clone())
        .collect();
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
    Step {
        tool: t.id.clone(),
        endpoint: e.id.clone(),
        method: e.method.clone(),
        url: e.url.clone(),
        records: e.records.clone(),
        call: e.mcp_tool.as_ref().map(|name| McpCall {
            name: name.clone(),
            arguments: params.clone(),
        }),
        params,
        missing_required: missing,
        auth,
        unbound,
        fields,
        score: 0,
        why: String::new(),
    }
}
