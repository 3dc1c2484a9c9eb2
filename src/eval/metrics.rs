//! The paper's planning and downstream-proxy metrics (Tables 1, 2, 4, 5 and 6), per query and
//! aggregated, with seeded bootstrap confidence intervals.
//!
//! Definitions (also printed in the markdown report, [`DEFINITIONS`]):
//! - Steps are matched to gold steps by (tool, endpoint). Fields are compared by exact name and
//!   only non-identifier fields count.
//! - TP = planned fields of a step that are gold fields of the same step; FP = planned fields not
//!   gold (every planned field of a step the gold lacks, and every field of a plan for a negative
//!   query); FN = gold fields not planned. Precision, recall and F1 are micro-averaged: counts
//!   are summed over queries (or over a category's queries) before dividing.
//! - Bootstrap CI: `B` resamples of the queries with replacement, drawn with
//!   [`crate::synth::rng::SplitMix64`] from the reported seed (the same draws for every router);
//!   the metric is recomputed on each resample, resamples where it is undefined are dropped, and
//!   the interval is `[v[floor(0.025 m)], v[ceil(0.975 m) - 1]]` of the `m` sorted values.

use super::bench::BenchQuery;
use crate::artifact::{EndpointData, FrozenGraph, ParamData};
use crate::route::bind::{value_is_valid, value_text};
use crate::route::{FieldMeta, Plan};
use crate::synth::rng::SplitMix64;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Metric definitions as (name, definition), for reports.
pub const DEFINITIONS: &[(&str, &str)] = &[
    (
        "tool exact",
        "share of queries whose set of planned (tool, endpoint) pairs equals the gold set; a negative query (empty gold) is right when the plan is empty",
    ),
    (
        "field P / R / F1",
        "precision TP/(TP+FP), recall TP/(TP+FN) and F1 = 2TP/(2TP+FP+FN) (= 2PR/(P+R)) over non-identifier fields, steps matched by (tool, endpoint); TP, FP and FN are summed over queries (micro average); planned fields of unmatched steps and of plans for negative queries are FP, gold fields of unplanned steps are FN",
    ),
    (
        "95% CI",
        "percentile bootstrap over queries: B resamples with replacement (SplitMix64 from the reported seed, the same resamples for every router), interval [v(floor(0.025m)), v(ceil(0.975m)-1)] of the m sorted resample values where the metric is defined",
    ),
    (
        "param validity",
        "share of non-empty plans in which every step names a declared tool endpoint, every planned parameter is declared on it with a value of the declared type (and in its enum), and every required non-auth parameter is bound",
    ),
    (
        "param accuracy",
        "share of gold steps that are planned with every gold parameter present and equal in value (compared as text: 2 equals \"2\")",
    ),
    (
        "executable",
        "share of positive queries (non-empty gold) whose plan is non-empty and parameter-valid",
    ),
    (
        "over-fetch",
        "planned non-identifier fields / gold fields, both summed over all queries (1.0 = as many fields as needed)",
    ),
    (
        "unit",
        "share of retrieved gold fields of type number whose planned field carries a unit",
    ),
    (
        "provenance",
        "share of retrieved gold fields whose planned field carries provenance (publisher or citation)",
    ),
    (
        "licence",
        "share of retrieved gold fields whose planned field carries a licence",
    ),
    (
        "source match",
        "share of queries with a gold source constraint whose plan is non-empty and whose every planned non-identifier field has that source type in the artifact (the data's real source type, whether or not the plan states it)",
    ),
    (
        "context tokens",
        "o200k_base tokens of the retrieval a reader LLM would get: per step a `[tool/endpoint]` line and one `name=value` line per planned field (identifiers included) with deterministic seeded fixture values, plus `name.unit=`, `source_type=`, `licence=`, `attribution=` and `provenance=` lines when the plan carries that metadata; mean over all queries (an empty plan has 0)",
    ),
    (
        "latency",
        "wall time of one routing call (Understand step included with --from query), the median of R repeats per query; reported as the median and the p95 (nearest rank, v[ceil(0.95n)-1]) over queries",
    ),
];

/// A planned field, as the metrics see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanField {
    /// Provider's field name.
    pub name: String,
    /// Identifier flag (identifiers never count in field metrics).
    pub identifier: bool,
    /// Metadata the plan attaches (absent for routers that attach none).
    pub meta: Option<FieldMeta>,
}

/// A planned step, as the metrics see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanStep {
    /// Tool id.
    pub tool: String,
    /// Endpoint id.
    pub endpoint: String,
    /// Parameters in the tool's own names.
    pub params: BTreeMap<String, Value>,
    /// Planned fields.
    pub fields: Vec<PlanField>,
}

/// The steps of a router [`Plan`].
pub fn steps_of(plan: &Plan) -> Vec<PlanStep> {
    plan.steps
        .iter()
        .map(|s| PlanStep {
            tool: s.tool.clone(),
            endpoint: s.endpoint.clone(),
            params: s.params.clone(),
            fields: s
                .fields
                .iter()
                .map(|f| PlanField {
                    name: f.name.clone(),
                    identifier: f.identifier,
                    meta: f.meta.clone(),
                })
                .collect(),
        })
        .collect()
}

/// A hit count over eligible items.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Count {
    /// Items that meet the criterion.
    pub hit: u32,
    /// Eligible items.
    pub of: u32,
}

impl Count {
    fn add(&mut self, hit: bool) {
        self.of += 1;
        self.hit += u32::from(hit);
    }

    fn merge(&mut self, o: Count) {
        self.hit += o.hit;
        self.of += o.of;
    }

    /// hit / of, undefined when nothing is eligible.
    pub fn rate(self) -> Option<f64> {
        (self.of > 0).then(|| f64::from(self.hit) / f64::from(self.of))
    }
}

/// The score of one router on one query.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct QueryScore {
    /// Query id.
    pub id: String,
    /// Category.
    pub category: String,
    /// Gold plan is empty.
    pub negative: bool,
    /// Planned (tool, endpoint) set equals the gold set.
    pub tool_exact: bool,
    /// Planned non-identifier fields that are gold.
    pub tp: u32,
    /// Planned non-identifier fields that are not gold.
    pub fp: u32,
    /// Gold fields not planned.
    pub fn_: u32,
    /// Planned steps.
    pub steps: u32,
    /// Every step parameter-valid (undefined for an empty plan).
    pub params_valid: Option<bool>,
    /// Gold steps planned with the gold parameter values.
    pub param_accuracy: Count,
    /// Non-empty and parameter-valid (undefined for a negative query).
    pub executable: Option<bool>,
    /// Retrieved gold number fields that carry a unit.
    pub unit: Count,
    /// Retrieved gold fields that carry provenance.
    pub provenance: Count,
    /// Retrieved gold fields that carry a licence.
    pub licence: Count,
    /// The plan honours the gold source constraint (undefined without one).
    pub source_match: Option<bool>,
    /// Retrieved-context tokens.
    pub context_tokens: u32,
    /// Routing latency, microseconds.
    pub latency_us: f64,
    /// The router failed (LLM errors); the plan counts as empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The endpoint a step names, if the artifact declares it.
pub fn endpoint<'g>(g: &'g FrozenGraph, tool: &str, endpoint: &str) -> Option<&'g EndpointData> {
    g.tool(tool)
        .and_then(|(_, t)| t.endpoints.iter().find(|e| e.id == endpoint))
}

/// Whether a step's parameters are valid on its endpoint: every parameter declared with a value
/// of the declared type (and in its enum), every required non-auth parameter bound.
pub fn params_valid(parameters: &[ParamData], params: &BTreeMap<String, Value>) -> bool {
    let declared = params.iter().all(|(name, v)| {
        parameters
            .iter()
            .find(|p| &p.name == name)
            .is_some_and(|p| value_is_valid(p, v))
    });
    let required = parameters
        .iter()
        .filter(|p| p.required && !p.auth)
        .all(|p| params.contains_key(&p.name));
    declared && required
}

/// Field counts (TP, FP, FN) of a plan against gold steps, on non-identifier fields.
pub fn field_counts(plan: &[PlanStep], gold: &[super::bench::GoldStep]) -> (u32, u32, u32) {
    let mut planned: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    for s in plan {
        let e = planned
            .entry((s.tool.as_str(), s.endpoint.as_str()))
            .or_default();
        e.extend(
            s.fields
                .iter()
                .filter(|f| !f.identifier)
                .map(|f| f.name.as_str()),
        );
    }
    let mut golds: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    for s in gold {
        golds
            .entry((s.tool.as_str(), s.endpoint.as_str()))
            .or_default()
            .extend(s.fields.iter().map(String::as_str));
    }
    let (mut tp, mut fp, mut fn_) = (0u32, 0u32, 0u32);
    for (k, fs) in &planned {
        let g = golds.get(k);
        for f in fs {
            if g.is_some_and(|g| g.contains(f)) {
                tp += 1;
            } else {
                fp += 1;
            }
        }
    }
    for (k, gs) in &golds {
        let p = planned.get(k);
        fn_ += gs
            .iter()
            .filter(|f| !p.is_some_and(|p| p.contains(*f)))
            .count() as u32;
    }
    (tp, fp, fn_)
}

/// Whether the planned (tool, endpoint) set equals the gold set.
pub fn tool_exact(plan: &[PlanStep], gold: &[super::bench::GoldStep]) -> bool {
    let p: BTreeSet<(&str, &str)> = plan
        .iter()
        .map(|s| (s.tool.as_str(), s.endpoint.as_str()))
        .collect();
    let g: BTreeSet<(&str, &str)> = gold
        .iter()
        .map(|s| (s.tool.as_str(), s.endpoint.as_str()))
        .collect();
    p == g
}

/// Score one plan for one query (context tokens and latency are filled in by the caller).
pub fn score(g: &FrozenGraph, q: &BenchQuery, plan: &[PlanStep]) -> QueryScore {
    let (tp, fp, fn_) = field_counts(plan, &q.gold);
    let valid = plan.iter().all(|s| {
        endpoint(g, &s.tool, &s.endpoint).is_some_and(|e| params_valid(&e.parameters, &s.params))
    });
    let mut out = QueryScore {
        id: q.id.clone(),
        category: q.category.clone(),
        negative: q.is_negative(),
        tool_exact: tool_exact(plan, &q.gold),
        tp,
        fp,
        fn_,
        steps: plan.len() as u32,
        params_valid: (!plan.is_empty()).then_some(valid),
        executable: (!q.is_negative()).then_some(!plan.is_empty() && valid),
        ..QueryScore::default()
    };
    for gs in &q.gold {
        let step = plan
            .iter()
            .find(|s| s.tool == gs.tool && s.endpoint == gs.endpoint);
        out.param_accuracy.add(step.is_some_and(|s| {
            gs.params.iter().all(|(k, v)| {
                s.params
                    .get(k)
                    .is_some_and(|pv| pv == v || value_text(pv) == value_text(v))
            })
        }));
        let (Some(step), Some(ep)) = (step, endpoint(g, &gs.tool, &gs.endpoint)) else {
            continue;
        };
        for name in &gs.fields {
            let Some(pf) = step.fields.iter().find(|f| &f.name == name) else {
                continue;
            };
            let meta = pf.meta.as_ref();
            let is_number = ep
                .fields
                .iter()
                .find(|f| &f.name == name)
                .is_some_and(|f| f.ty == "number" || f.ty == "number[]");
            if is_number {
                out.unit.add(meta.is_some_and(|m| m.unit.is_some()));
            }
            out.provenance.add(meta.is_some_and(|m| {
                m.provenance
                    .as_ref()
                    .is_some_and(|p| p.publisher.is_some() || p.citation.is_some())
            }));
            out.licence.add(meta.is_some_and(|m| m.licence.is_some()));
        }
    }
    if let Some(c) = (q.understanding.as_ref()).and_then(|u| u.source_constraint.as_deref()) {
        let all_match = plan.iter().all(|s| {
            let ep = endpoint(g, &s.tool, &s.endpoint);
            s.fields.iter().filter(|f| !f.identifier).all(|f| {
                ep.and_then(|e| e.fields.iter().find(|fd| fd.name == f.name))
                    .and_then(|fd| fd.source_type.as_deref())
                    == Some(c)
            })
        });
        out.source_match = Some(!plan.is_empty() && all_match);
    }
    out
}

/// A 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Ci {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

/// Aggregated metrics of one router over a set of queries.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Queries.
    pub queries: usize,
    /// Tool exact rate.
    pub tool_exact: f64,
    /// Its CI (overall only).
    pub tool_exact_ci: Option<Ci>,
    /// Summed TP.
    pub tp: u32,
    /// Summed FP.
    pub fp: u32,
    /// Summed FN.
    pub fn_: u32,
    /// Micro precision (undefined when nothing was planned).
    pub precision: Option<f64>,
    /// Its CI.
    pub precision_ci: Option<Ci>,
    /// Micro recall (undefined without gold fields).
    pub recall: Option<f64>,
    /// Its CI.
    pub recall_ci: Option<Ci>,
    /// Micro F1.
    pub f1: Option<f64>,
    /// Its CI.
    pub f1_ci: Option<Ci>,
    /// Share of negative queries answered with an empty plan.
    pub negative_right: Count,
    /// Planned non-identifier fields / gold fields.
    pub over_fetch: Option<f64>,
    /// Non-empty plans that are parameter-valid.
    pub param_validity: Count,
    /// Gold steps planned with the gold parameter values.
    pub param_accuracy: Count,
    /// Positive queries with an executable plan.
    pub executable: Count,
    /// Unit completeness.
    pub unit: Count,
    /// Provenance completeness.
    pub provenance: Count,
    /// Licence completeness.
    pub licence: Count,
    /// Source-type match.
    pub source_match: Count,
    /// Mean retrieved-context tokens per query.
    pub context_tokens_mean: f64,
    /// Total retrieved-context tokens.
    pub context_tokens_total: u64,
    /// Median routing latency, microseconds.
    pub latency_p50_us: f64,
    /// 95th-percentile routing latency, microseconds.
    pub latency_p95_us: f64,
    /// Queries where the router failed.
    pub errors: usize,
}

fn div(a: u32, b: u32) -> Option<f64> {
    (b > 0).then(|| f64::from(a) / f64::from(b))
}

/// Precision, recall and F1 from summed counts: P = TP/(TP+FP), R = TP/(TP+FN) and
/// F1 = 2TP/(2TP+FP+FN) (the harmonic mean of P and R where both are defined, 0 when nothing
/// right was planned but something was planned or missed); each undefined when its denominator
/// is 0.
pub fn prf(tp: u32, fp: u32, fn_: u32) -> (Option<f64>, Option<f64>, Option<f64>) {
    (
        div(tp, tp + fp),
        div(tp, tp + fn_),
        div(2 * tp, 2 * tp + fp + fn_),
    )
}

/// The median of values (mean of the middle two for an even count; 0 when empty).
pub fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Nearest-rank percentile `p` in (0, 1]: `v[ceil(p n) - 1]` of the sorted values (0 when empty).
pub fn percentile(values: &[f64], p: f64) -> f64 {
    let mut v: Vec<f64> = values.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    let rank = (p * v.len() as f64).ceil().max(1.0) as usize;
    v[rank.min(v.len()) - 1]
}

/// Aggregate query scores (no confidence intervals).
pub fn summarise(scores: &[QueryScore]) -> Summary {
    let mut s = Summary {
        queries: scores.len(),
        ..Summary::default()
    };
    let mut exact = 0u32;
    let mut latencies = Vec::with_capacity(scores.len());
    for q in scores {
        exact += u32::from(q.tool_exact);
        s.tp += q.tp;
        s.fp += q.fp;
        s.fn_ += q.fn_;
        if q.negative {
            s.negative_right.add(q.steps == 0);
        }
        if let Some(v) = q.params_valid {
            s.param_validity.add(v);
        }
        s.param_accuracy.merge(q.param_accuracy);
        if let Some(e) = q.executable {
            s.executable.add(e);
        }
        s.unit.merge(q.unit);
        s.provenance.merge(q.provenance);
        s.licence.merge(q.licence);
        if let Some(m) = q.source_match {
            s.source_match.add(m);
        }
        s.context_tokens_total += u64::from(q.context_tokens);
        latencies.push(q.latency_us);
        s.errors += usize::from(q.error.is_some());
    }
    s.tool_exact = if scores.is_empty() {
        0.0
    } else {
        f64::from(exact) / scores.len() as f64
    };
    (s.precision, s.recall, s.f1) = prf(s.tp, s.fp, s.fn_);
    s.over_fetch = div(s.tp + s.fp, s.tp + s.fn_);
    s.context_tokens_mean = if scores.is_empty() {
        0.0
    } else {
        s.context_tokens_total as f64 / scores.len() as f64
    };
    s.latency_p50_us = median(&latencies);
    s.latency_p95_us = percentile(&latencies, 0.95);
    s
}

/// Percentile-bootstrap interval of a metric over resampled queries (see the module docs).
pub fn bootstrap_ci(
    scores: &[QueryScore],
    seed: u64,
    resamples: usize,
    metric: impl Fn(&[&QueryScore]) -> Option<f64>,
) -> Option<Ci> {
    if scores.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = SplitMix64::new(seed);
    let n = scores.len();
    let mut values = Vec::with_capacity(resamples);
    let mut sample: Vec<&QueryScore> = Vec::with_capacity(n);
    for _ in 0..resamples {
        sample.clear();
        for _ in 0..n {
            sample.push(&scores[rng.below(n)]);
        }
        if let Some(v) = metric(&sample) {
            values.push(v);
        }
    }
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let m = values.len() as f64;
    let lo = (0.025 * m).floor() as usize;
    let hi = ((0.975 * m).ceil() as usize).clamp(1, values.len()) - 1;
    Some(Ci {
        lo: values[lo.min(values.len() - 1)],
        hi: values[hi],
    })
}

fn summed(sample: &[&QueryScore]) -> (u32, u32, u32) {
    sample
        .iter()
        .fold((0, 0, 0), |(a, b, c), q| (a + q.tp, b + q.fp, c + q.fn_))
}

/// Aggregate query scores with bootstrap CIs for tool exact, precision, recall and F1.
pub fn summarise_with_ci(scores: &[QueryScore], seed: u64, resamples: usize) -> Summary {
    let mut s = summarise(scores);
    s.tool_exact_ci = bootstrap_ci(scores, seed, resamples, |v| {
        Some(v.iter().filter(|q| q.tool_exact).count() as f64 / v.len() as f64)
    });
    s.precision_ci = bootstrap_ci(scores, seed, resamples, |v| {
        let (tp, fp, fn_) = summed(v);
        prf(tp, fp, fn_).0
    });
    s.recall_ci = bootstrap_ci(scores, seed, resamples, |v| {
        let (tp, fp, fn_) = summed(v);
        prf(tp, fp, fn_).1
    });
    s.f1_ci = bootstrap_ci(scores, seed, resamples, |v| {
        let (tp, fp, fn_) = summed(v);
        prf(tp, fp, fn_).2
    });
    s
}
