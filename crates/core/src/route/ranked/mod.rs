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
//!    question's words that the index knows ([`MIN_COVERAGE`], [`MIN_WEIGHT_SHARE`], calibrated on
//!    negatives; see `bench/README.md`), and more than one incidental word: a best endpoint that
//!    matches one content word, not what the question asks about ("how many downloads …"
//!    matched by `month` only), makes no plan either; else the plan is empty and says why;
//! 3. plan up to `k` steps, one per distinct need: after the best endpoint, each next one is
//!    chosen for the question's words it adds (`select`);
//! 4. per step, project fields by the requested concepts and by the question's words in field
//!    names ([`project`]), identifiers always; bind parameters through declared bindings, then
//!    fill the rest from the question's typed spans ([`crate::search::spans`], [`fill`]).

mod absent;
mod destructive;
pub mod fill;
mod given;
mod measured;
pub mod project;
mod record;
mod select;
mod siblings;
#[cfg(test)]
mod testing;

use super::algorithm::{addressed_parameters, bind_parameters, field_meta, resolve_target};
use super::{McpCall, Options, Plan, PlanStatus, PlannedField, Step, Understanding};
use crate::artifact::FrozenGraph;
use crate::search::{self, Query};
use std::collections::BTreeMap;

pub use select::{MIN_COVERAGE, MIN_WEIGHT_SHARE, min_weight};

/// Plan a question: Algorithm 1 on its Understanding ([`super::route_checked`]), and when that
/// gives no step (no intent fits, no tool is named, and the request is not out of scope by a
/// declared topic), a plan from the ranked endpoints (see the module docs).
///
/// An intent written by `schemarouter derive` is a cluster of endpoints by resource and action,
/// not a person's statement of what a kind of question needs: the question is then ranked over
/// every endpoint. A step of Algorithm 1 that lacks a
/// required parameter gets it from the question's typed spans when one fits ([`fill`]).
pub fn route_question(g: &FrozenGraph, question: &str, u: &Understanding, opts: &Options) -> Plan {
    let mut plan = plan_question(g, question, u, opts);
    // Steps planned here after Algorithm 1 are held to the declared types as its own are.
    super::vocabulary::refuse_values(g, u, &mut plan);
    plan
}

/// [`route_question`] before the values of the steps it adds are checked.
fn plan_question(g: &FrozenGraph, question: &str, u: &Understanding, opts: &Options) -> Plan {
    let derived = u
        .intent
        .as_deref()
        .and_then(|i| g.intent(i))
        .filter(|i| i.derived && u.target_apis.is_empty());
    if let Some(intent) = derived {
        let mut open = u.clone();
        open.intent = None;
        let mut plan = super::route_checked(g, &open, opts);
        plan.intent = Some(intent.id.clone());
        if plan.out_of_scope.is_none() {
            plan_ranked(g, question, u, opts, &mut plan);
        }
        if let Some(own) = plan.steps.first().and_then(|s| endpoint_intent(g, s)) {
            if own != intent.id {
                plan.warnings.push(intent_changed(&intent.id, &own));
            }
            plan.intent = Some(own);
        }
        return plan;
    }
    let mut plan = super::route_checked(g, u, opts);
    if super::vocabulary::refuses_a_value(&plan) {
        // Refused: nothing is ranked in place of the steps the value was refused by.
        return plan;
    }
    if !plan.steps.is_empty() {
        let declared_intent = u
            .intent
            .as_deref()
            .and_then(|i| g.intent(i))
            .is_some_and(|i| !i.derived);
        if !u.target_apis.is_empty() && !declared_intent {
            if let Some(reason) = named_action_missing(g, question, u) {
                plan.steps.clear();
                plan.out_of_scope = Some(reason.clone());
                plan.warnings.push(format!("no suitable tool: {reason}"));
                plan.status = PlanStatus::NoSuitableTool;
                return plan;
            }
            rerank_named(g, question, u, opts, &mut plan);
        }
        fill_missing(g, question, &mut plan);
        if !u.target_apis.is_empty() && plan.steps.len() < opts.k {
            top_up(g, question, u, opts, &mut plan);
        }
        return plan;
    }
    if plan.out_of_scope.is_some() || !u.target_apis.is_empty() {
        return plan;
    }
    plan_ranked(g, question, u, opts, &mut plan);
    if plan.intent.is_none() {
        plan.intent = plan.steps.first().and_then(|s| endpoint_intent(g, s));
    }
    plan
}

/// The derived intent of a planned step's endpoint: the derived group (a derived intent's id
/// is its group's) that most of the endpoint's fields belong to, ties to the smaller id. A
/// plan ranked over every endpoint reports the intent of the endpoint it chose, not the one
/// the Understanding guessed (a read of `/recipe/{id}` is `get_recipe`, even when the question's
/// words named the group of `delete_recipe`, which returns the same record).
fn endpoint_intent(g: &FrozenGraph, step: &Step) -> Option<String> {
    let (_, tool) = g.tool(&step.tool)?;
    let endpoint = tool.endpoints.iter().find(|e| e.id == step.endpoint)?;
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for group in endpoint.fields.iter().flat_map(|f| &f.groups) {
        if g.intent(group).is_some_and(|i| i.derived) {
            *counts.entry(group.as_str()).or_default() += 1;
        }
    }
    let best = counts.values().copied().max()?;
    counts
        .into_iter()
        .find(|&(_, n)| n == best)
        .map(|(id, _)| id.to_string())
}

/// Why a plan's intent differs from the Understanding's: the Understanding's was a derived
/// cluster of endpoints, and the plan reports the intent of the endpoint it chose.
fn intent_changed(understood: &str, planned: &str) -> String {
    format!(
        "intent: the Understanding's intent `{understood}` is a derived cluster of endpoints; the question was ranked over every endpoint, and the plan's intent `{planned}` is that of the endpoint ranked first"
    )
}

/// A request to act on a named tool ("cancel my ticketmaster order 48213") that no endpoint of
/// the named tools names or describes: the tool is named, the action is not one it offers.
fn named_action_missing(g: &FrozenGraph, question: &str, u: &Understanding) -> Option<String> {
    let tools: Vec<u32> = u
        .target_apis
        .iter()
        .filter_map(|n| resolve_target(g, n).map(|(t, _)| t))
        .collect();
    let endpoints = tools
        .iter()
        .flat_map(|&t| (0..g.tool_at(t).endpoints.len() as u32).map(move |e| (t, e)));
    select::action_missing(g, &crate::search::text::normalise(question), endpoints)
}

/// A tool named without an endpoint and with no declared intent to choose one: its endpoint is
/// the one the question ranks best among the tool's ("What time is it in Tokyo" to a `time` tool asks
/// for its current time, not for a conversion), when Algorithm 1's choice (by concepts) differs.
fn rerank_named(
    g: &FrozenGraph,
    question: &str,
    u: &Understanding,
    opts: &Options,
    plan: &mut Plan,
) {
    let pinned: Vec<u32> = u
        .target_apis
        .iter()
        .filter_map(|n| resolve_target(g, n))
        .filter(|(_, e)| e.is_some())
        .map(|(t, _)| t)
        .collect();
    let q = Query::in_catalog(g, question);
    let ranking = search::rank(g, &q);
    let candidates = select::candidates(
        g,
        &q,
        &ranking,
        &[],
        plan.source_constraint.as_deref(),
        reads(question, u),
        u,
    );
    for i in 0..plan.steps.len() {
        let Some((ti, _)) = g.tool(&plan.steps[i].tool) else {
            continue;
        };
        let ti = ti as u32;
        let same_tool = plan
            .steps
            .iter()
            .filter(|s| s.tool == plan.steps[i].tool)
            .count();
        if pinned.contains(&ti) || same_tool > 1 {
            continue;
        }
        let acting = !reads(question, u) && select::acts(question);
        if let Some(reason) = destructive::refusal(g, &ranking, acting, Some(ti)) {
            plan.steps.clear();
            plan.out_of_scope = Some(reason.clone());
            plan.warnings.push(format!("no suitable tool: {reason}"));
            plan.status = PlanStatus::NoSuitableTool;
            return;
        }
        let Some(best) = candidates.iter().find(|c| c.tool == ti) else {
            continue;
        };
        if g.tool_at(ti).endpoint_at(best.endpoint).id == plan.steps[i].endpoint {
            fill_open(g, best, u, &q, &mut plan.steps[i]);
            continue;
        }
        let mut step = step_for(g, best, u, &q, &q.spans, opts, plan);
        step.why = format!(
            "named in the request; its endpoint ranked first of the tool's for the request (score {:.3}; words: {})",
            best.score,
            q.words(best.matched).join(", ")
        );
        plan.steps[i] = step;
    }
}

/// The parameters of a step Algorithm 1 chose (the endpoint the ranking chose too) that the
/// Understanding gave no value for, filled from the question as a ranked step's are ("Find
/// jokes about cats" to a named jokes tool: `query` "cats").
fn fill_open(
    g: &FrozenGraph,
    c: &select::Candidate,
    u: &Understanding,
    q: &Query,
    step: &mut Step,
) {
    let e = g.tool_at(c.tool).endpoint_at(c.endpoint);
    let given = addressed_parameters(g, c.tool, c.endpoint, u);
    let open: Vec<String> = e
        .parameters
        .iter()
        .filter(|p| !given.contains(&p.name) && !step.params.contains_key(&p.name))
        .map(|p| p.name.clone())
        .collect();
    fill::fill(
        e,
        &q.text,
        &q.spans,
        &mut step.params,
        Some(&open),
        &q.stems_in(c.matched),
    );
    step.missing_required
        .retain(|m| !step.params.contains_key(m));
    if let Some(call) = &mut step.call {
        call.arguments = step.params.clone();
    }
}

/// Required parameters Algorithm 1 could not bind, filled from the question's typed spans
/// where one fits; the plan's status follows.
fn fill_missing(g: &FrozenGraph, question: &str, plan: &mut Plan) {
    if plan.steps.iter().all(|s| s.missing_required.is_empty()) {
        return;
    }
    let q = Query::in_catalog(g, question);
    let spans = &q.spans;
    for s in &mut plan.steps {
        if s.missing_required.is_empty() {
            continue;
        }
        let Some((ti, t)) = g.tool(&s.tool) else {
            continue;
        };
        let Some(e) = t.endpoints.iter().find(|e| e.id == s.endpoint) else {
            continue;
        };
        let _ = ti;
        let filled = fill::fill(
            e,
            &q.text,
            spans,
            &mut s.params,
            Some(&s.missing_required),
            &[],
        );
        s.missing_required.retain(|m| !filled.contains(m));
        if let Some(call) = &mut s.call {
            call.arguments = s.params.clone();
        }
    }
    if plan.status == PlanStatus::MissingRequiredParameter
        && plan.steps.iter().all(|s| s.missing_required.is_empty())
    {
        plan.status = if plan.unmatched_concepts.is_empty() && plan.skipped_tools.is_empty() {
            PlanStatus::Planned
        } else {
            PlanStatus::Partial
        };
    }
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

/// Whether the request reads: a question, a request opened with a verb of asking, or an
/// Understanding given without a question (its words are [`question_of`]; the Understand step
/// extracts an information need).
fn reads(question: &str, u: &Understanding) -> bool {
    select::asks(question) || question == question_of(u)
}

/// With `k` above the steps the named tools gave, the rest from the ranked endpoints: a request
/// that names one tool may need others too ("… from arXiv, and save a summary to notes.md").
fn top_up(g: &FrozenGraph, question: &str, u: &Understanding, opts: &Options, plan: &mut Plan) {
    let q = Query::in_catalog(g, question);
    let ranking = search::rank(g, &q);
    let spans = &q.spans;
    let excluded: Vec<u32> = u
        .excluded_apis
        .iter()
        .filter_map(|n| resolve_target(g, n).map(|(t, _)| t))
        .collect();
    let planned: Vec<(String, String)> = plan.tool_endpoints();
    let candidates: Vec<select::Candidate> = select::candidates(
        g,
        &q,
        &ranking,
        &excluded,
        plan.source_constraint.as_deref(),
        reads(question, u),
        u,
    )
    .into_iter()
    .filter(|c| {
        let t = g.tool_at(c.tool);
        !planned.contains(&(t.id.clone(), t.endpoint_at(c.endpoint).id.clone()))
    })
    .collect();
    let room = opts.k - plan.steps.len();
    let Ok(more) = select::choose(g, &q, &ranking, &candidates, spans, room) else {
        return;
    };
    for c in more {
        let mut step = step_for(g, &c, u, &q, spans, opts, plan);
        step.why = format!(
            "ranked for the request beside the named tool(s) (score {:.3}; words: {})",
            c.score,
            q.words(c.matched).join(", ")
        );
        plan.steps.push(step);
    }
}

/// The ranked part of [`route_question`]: fills `plan` (which Algorithm 1 left without steps).
fn plan_ranked(
    g: &FrozenGraph,
    question: &str,
    u: &Understanding,
    opts: &Options,
    plan: &mut Plan,
) {
    let q = Query::in_catalog(g, question);
    let ranking = search::rank(g, &q);
    let spans = &q.spans;
    let excluded: Vec<u32> = u
        .excluded_apis
        .iter()
        .filter_map(|n| resolve_target(g, n).map(|(t, _)| t))
        .collect();
    let candidates = select::candidates(
        g,
        &q,
        &ranking,
        &excluded,
        plan.source_constraint.as_deref(),
        reads(question, u),
        u,
    );
    let acting = !reads(question, u) && select::acts(question);
    let chosen = match destructive::refusal(g, &ranking, acting, None).map_or_else(
        || select::choose(g, &q, &ranking, &candidates, spans, opts.k.max(1)),
        Err,
    ) {
        Ok(c) => c,
        Err(reason) => {
            plan.out_of_scope = Some(reason.clone());
            plan.warnings.push(format!("no suitable tool: {reason}"));
            plan.status = PlanStatus::NoSuitableTool;
            return;
        }
    };
    let n = candidates.len();
    explain_ranked(&mut plan.warnings);
    for (rank, c) in chosen.iter().enumerate() {
        let mut step = step_for(g, c, u, &q, spans, opts, plan);
        // The step's own parameters say how many required ones are filled: the Understanding's
        // values count too, not only what the ranking's trial fill found.
        let filled = c.required.saturating_sub(step.missing_required.len());
        step.why = format!(
            "rank {} of {n} endpoint(s) ranked for the request (score {:.3}; words: {}){}",
            rank + 1,
            c.score,
            q.words(c.matched).join(", "),
            if filled < c.required {
                format!(
                    "; {filled} of {} required parameter(s) filled from the request",
                    c.required
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
    let dropped = values_dropped(&candidates, &chosen);
    for value in &dropped {
        let note = match u.parameters.get(value) {
            Some(v) => format!(
                "the request gives `{value}` = {v}, which no planned step takes: the plan answers without it"
            ),
            None => format!(
                "the request gives `{value}`, which an endpoint of the catalog takes and no planned step does: the plan answers without it"
            ),
        };
        if !plan.warnings.contains(&note) {
            plan.warnings.push(note);
        }
    }
    // A step that adds no word of the request to the ones before it (another tool serving the
    // same words) is an alternative, not a need of the question: it never decides the status.
    let mut covered = 0u64;
    let needed: Vec<bool> = chosen
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let adds = i == 0 || c.matched & !covered != 0;
            covered |= c.matched;
            adds
        })
        .collect();
    plan.status = if !plan.not_understood.is_empty() {
        PlanStatus::NotUnderstood
    } else if plan
        .steps
        .iter()
        .zip(&needed)
        .any(|(s, &n)| n && !s.missing_required.is_empty())
    {
        PlanStatus::MissingRequiredParameter
    } else if !plan.unmatched_concepts.is_empty() || !dropped.is_empty() {
        PlanStatus::Partial
    } else {
        PlanStatus::Planned
    };
}

/// The values the question gives ([`given`]) that a ranked endpoint takes and no chosen one
/// does: the plan answers without them, so it is partial, and says so ("holidays in BC in
/// 2025" planned on `/provinces` with `year` only drops `BC`).
fn values_dropped(candidates: &[select::Candidate], chosen: &[select::Candidate]) -> Vec<String> {
    let mut out: Vec<String> = candidates
        .iter()
        .flat_map(|c| c.takes.iter())
        .filter(|v| !chosen.iter().any(|c| c.takes.contains(v)))
        .cloned()
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The analyzer's note that no intent fits says what happens next from what it knows: "the
/// plan will be empty unless a tool is named". A plan ranked from the endpoints is not
/// empty: the note then says where its steps come from.
fn explain_ranked(warnings: &mut [String]) {
    for w in warnings.iter_mut() {
        if let Some(head) = w.strip_suffix(EMPTY_UNLESS_NAMED) {
            *w = format!("{head}{RANKED_INSTEAD}");
        }
    }
}

/// The end of the analyzer's note for a plan that will be empty.
const EMPTY_UNLESS_NAMED: &str = "the plan will be empty unless a tool is named";

/// What [`explain_ranked`] puts in its place.
const RANKED_INSTEAD: &str =
    "the steps are the catalog's endpoints ranked for the request's words (see each step's why)";

/// One step on a chosen endpoint: projection, bindings, filled parameters, metadata.
fn step_for(
    g: &FrozenGraph,
    c: &select::Candidate,
    u: &Understanding,
    q: &Query,
    spans: &[crate::search::spans::Span],
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
    // Parameters the Understanding gave a value for are its decision, bound or not.
    let given = addressed_parameters(g, c.tool, c.endpoint, u);
    let open: Vec<String> = e
        .parameters
        .iter()
        .filter(|p| !given.contains(&p.name))
        .map(|p| p.name.clone())
        .collect();
    let only = (!given.is_empty()).then_some(open.as_slice());
    fill::fill(e, &q.text, spans, &mut params, only, &q.stems_in(c.matched));
    for note in fill::open_required(e, defaults, &mut params) {
        if !plan.warnings.contains(&note) {
            plan.warnings.push(note);
        }
    }
    let missing: Vec<String> = e
        .parameters
        .iter()
        .filter(|p| p.required && !p.auth && !e.server_parameter(p))
        .filter(|p| !params.contains_key(&p.name))
        .map(|p| p.name.clone())
        .collect();
    if select::writes(e) {
        let w = format!(
            "`{}/{}` changes data ({}): carrying out this plan writes; confirm before running it",
            t.id,
            e.id,
            if e.writes {
                "annotated as not read-only".to_string()
            } else {
                format!("HTTP {}", e.method)
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
        rank_score: Some((c.score * 1000.0).round() / 1000.0),
        why: String::new(),
    }
}
