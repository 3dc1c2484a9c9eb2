//! The metric functions of `schemarouter eval` against hand-computed examples: field counts and
//! tool exact (including the empty gold of negative queries), micro P/R/F1 and over-fetch,
//! parameter validity, latency percentiles, and the seeded bootstrap CI (exact numbers).

use schemarouter::artifact::ParamData;
use schemarouter::eval::bench::GoldStep;
use schemarouter::eval::metrics::{
    Count, PlanField, PlanStep, QueryScore, bootstrap_ci, field_counts, median, params_valid,
    percentile, prf, summarise, summarise_with_ci, tool_exact,
};
use schemarouter::model::Scalar;
use serde_json::{Value, json};
use std::collections::BTreeMap;

fn step(tool: &str, endpoint: &str, fields: &[&str], ids: &[&str]) -> PlanStep {
    let mut fs: Vec<PlanField> = fields
        .iter()
        .map(|f| PlanField {
            name: f.to_string(),
            identifier: false,
            meta: None,
        })
        .collect();
    fs.extend(ids.iter().map(|f| PlanField {
        name: f.to_string(),
        identifier: true,
        meta: None,
    }));
    PlanStep {
        tool: tool.into(),
        endpoint: endpoint.into(),
        params: BTreeMap::new(),
        fields: fs,
    }
}

fn gold(tool: &str, endpoint: &str, fields: &[&str]) -> GoldStep {
    GoldStep {
        tool: tool.into(),
        endpoint: endpoint.into(),
        params: BTreeMap::new(),
        fields: fields.iter().map(|f| f.to_string()).collect(),
    }
}

#[test]
fn field_counts_per_step_ignore_identifiers() {
    // Gold: mp/summary {band_gap, density}; jarvis/dft_3d {mbj_bandgap}.
    // Plan: mp/summary {band_gap, efermi, material_id*}; oqmd/fe {delta_e}.
    // TP = band_gap; FP = efermi + delta_e (a step the gold lacks); FN = density + mbj_bandgap.
    let plan = vec![
        step("mp", "summary", &["band_gap", "efermi"], &["material_id"]),
        step("oqmd", "fe", &["delta_e"], &["entry_id"]),
    ];
    let g = vec![
        gold("mp", "summary", &["band_gap", "density"]),
        gold("jarvis", "dft_3d", &["mbj_bandgap"]),
    ];
    assert_eq!(field_counts(&plan, &g), (1, 2, 2));
    assert!(!tool_exact(&plan, &g));
    // The same field under another endpoint of the same tool is not a match.
    let plan = vec![step("mp", "other", &["band_gap"], &[])];
    assert_eq!(
        field_counts(&plan, &[gold("mp", "summary", &["band_gap"])]),
        (0, 1, 1)
    );
}

#[test]
fn tool_exact_is_set_equality() {
    let g = vec![gold("a", "x", &["f"]), gold("b", "y", &["g"])];
    let plan = vec![step("b", "y", &[], &[]), step("a", "x", &[], &[])];
    assert!(tool_exact(&plan, &g), "order does not matter");
    let plan = vec![step("a", "x", &[], &[])];
    assert!(!tool_exact(&plan, &g), "a missing step is not exact");
    let plan = vec![
        step("a", "x", &[], &[]),
        step("b", "y", &[], &[]),
        step("c", "z", &[], &[]),
    ];
    assert!(!tool_exact(&plan, &g), "an extra step is not exact");
}

#[test]
fn negative_queries_are_right_when_the_plan_is_empty() {
    assert!(tool_exact(&[], &[]));
    assert_eq!(field_counts(&[], &[]), (0, 0, 0));
    let plan = vec![step("web", "search", &["title", "snippet"], &["url"])];
    assert!(!tool_exact(&plan, &[]));
    // Every non-identifier field planned for a negative query is a false positive.
    assert_eq!(field_counts(&plan, &[]), (0, 2, 0));
}

#[test]
fn micro_precision_recall_f1() {
    // 3 TP, 1 FP, 2 FN: P = 3/4, R = 3/5, F1 = 6/9.
    let (p, r, f) = prf(3, 1, 2);
    assert_eq!(p, Some(0.75));
    assert_eq!(r, Some(0.6));
    assert!((f.unwrap() - 2.0 / 3.0).abs() < 1e-12);
    // Nothing planned, nothing gold: all undefined (a negative query answered right).
    assert_eq!(prf(0, 0, 0), (None, None, None));
    // Nothing planned but gold exists: precision undefined, recall and F1 zero.
    assert_eq!(prf(0, 0, 4), (None, Some(0.0), Some(0.0)));
    // Only false positives (a negative query answered with fields).
    assert_eq!(prf(0, 3, 0), (Some(0.0), None, Some(0.0)));
}

fn score(id: &str, tp: u32, fp: u32, fn_: u32, exact: bool) -> QueryScore {
    QueryScore {
        id: id.into(),
        category: "single_tool_property".into(),
        negative: tp + fn_ == 0,
        tool_exact: exact,
        tp,
        fp,
        fn_,
        steps: u32::from(tp + fp > 0),
        ..QueryScore::default()
    }
}

#[test]
fn summaries_sum_counts_before_dividing() {
    // q1: 1 TP 0 FP; q2: 1 TP 3 FP 1 FN; q3 (negative, empty plan): nothing.
    // Micro: TP 2, FP 3, FN 1 -> P 0.4, R 2/3, F1 = 4/(4+3+1) = 0.5.
    // (A macro average of per-query precision would be (1 + 0.25)/2 = 0.625.)
    let scores = vec![
        score("q1", 1, 0, 0, true),
        score("q2", 1, 3, 1, false),
        score("q3", 0, 0, 0, true),
    ];
    let s = summarise(&scores);
    assert_eq!((s.tp, s.fp, s.fn_), (2, 3, 1));
    assert_eq!(s.precision, Some(0.4));
    assert!((s.recall.unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(s.f1, Some(0.5));
    assert!((s.tool_exact - 2.0 / 3.0).abs() < 1e-12);
    // Over-fetch: planned non-identifier fields (5) / gold fields (3).
    assert!((s.over_fetch.unwrap() - 5.0 / 3.0).abs() < 1e-12);
    assert_eq!(s.negative_right, Count { hit: 1, of: 1 });
}

fn param(name: &str, ty: &str, required: bool) -> ParamData {
    ParamData {
        name: name.into(),
        ty: ty.into(),
        enum_values: vec![],
        required,
        auth: false,
        default: None,
        bind: vec![],
        join: None,
        array: None,
        style: None,
        explode: None,
        allow_reserved: false,
        whole_body: false,
        bounds: Default::default(),
        content_type: None,
        part_headers: Default::default(),
        description: None,
        format: None,
        location: None,
    }
}

fn params(pairs: &[(&str, Value)]) -> BTreeMap<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

#[test]
fn parameter_validity() {
    let mut key = param("x-api-key", "string", true);
    key.auth = true;
    let mut ns = param("namespace", "string", true);
    ns.enum_values = vec![Scalar::String("cid".into()), Scalar::String("name".into())];
    let declared = vec![
        key,
        ns,
        param("identifier", "string", true),
        param("nspecies", "integer", false),
    ];
    let ok = params(&[
        ("namespace", json!("name")),
        ("identifier", json!("caffeine")),
    ]);
    assert!(
        params_valid(&declared, &ok),
        "auth parameters need not be bound"
    );
    let with_int = params(&[
        ("namespace", json!("cid")),
        ("identifier", json!("702")),
        ("nspecies", json!(2)),
    ]);
    assert!(params_valid(&declared, &with_int));
    // Wrong type.
    let bad_type = params(&[
        ("namespace", json!("cid")),
        ("identifier", json!("702")),
        ("nspecies", json!("two")),
    ]);
    assert!(!params_valid(&declared, &bad_type));
    // Outside the enum.
    let bad_enum = params(&[("namespace", json!("inchi")), ("identifier", json!("x"))]);
    assert!(!params_valid(&declared, &bad_enum));
    // Undeclared parameter.
    let undeclared = params(&[
        ("namespace", json!("name")),
        ("identifier", json!("caffeine")),
        ("formula", json!("C8H10N4O2")),
    ]);
    assert!(!params_valid(&declared, &undeclared));
    // A required parameter unbound.
    let missing = params(&[("namespace", json!("name"))]);
    assert!(!params_valid(&declared, &missing));
}

#[test]
fn latency_percentiles() {
    let v = [5.0, 1.0, 4.0, 2.0, 3.0];
    assert_eq!(median(&v), 3.0);
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    assert_eq!(median(&[]), 0.0);
    // Nearest rank: ceil(0.95 * 5) = 5th value; ceil(0.95 * 20) = 19th.
    assert_eq!(percentile(&v, 0.95), 5.0);
    let twenty: Vec<f64> = (1..=20).map(f64::from).collect();
    assert_eq!(percentile(&twenty, 0.95), 19.0);
    assert_eq!(percentile(&twenty, 0.5), 10.0);
}

fn bench_scores() -> Vec<QueryScore> {
    vec![
        score("a", 1, 0, 0, true),
        score("b", 2, 1, 0, true),
        score("c", 0, 2, 1, false),
        score("d", 1, 1, 1, false),
        score("e", 0, 0, 0, true),
        score("f", 3, 0, 1, true),
    ]
}

#[test]
fn bootstrap_ci_with_a_fixed_seed_gives_exact_numbers() {
    let scores = bench_scores();
    let s = summarise_with_ci(&scores, 7, 200);
    // Point estimates: TP 7, FP 4, FN 3.
    assert_eq!((s.tp, s.fp, s.fn_), (7, 4, 3));
    let p = s.precision_ci.unwrap();
    let r = s.recall_ci.unwrap();
    let f = s.f1_ci.unwrap();
    let t = s.tool_exact_ci.unwrap();
    assert_eq!(
        (p.lo, p.hi),
        (PRECISION_CI.0, PRECISION_CI.1),
        "precision {p:?}"
    );
    assert_eq!((r.lo, r.hi), (RECALL_CI.0, RECALL_CI.1), "recall {r:?}");
    assert_eq!((f.lo, f.hi), (F1_CI.0, F1_CI.1), "f1 {f:?}");
    assert_eq!((t.lo, t.hi), (EXACT_CI.0, EXACT_CI.1), "tool exact {t:?}");
    // The same seed gives the same interval; another seed (almost surely) another one.
    assert_eq!(summarise_with_ci(&scores, 7, 200), s);
    assert_ne!(
        summarise_with_ci(&scores, 8, 200).precision_ci,
        s.precision_ci
    );
}

// Pinned (SplitMix64 seed 7, B = 200, interval [v[5], v[194]] of the sorted resample values).
// Every bound is a ratio of small integer counts of some resample, e.g. precision 2/7 is a
// resample with TP 2 and FP 5; IEEE division is correctly rounded, so `2.0 / 7.0` is exactly
// the value computed from the counts.
const PRECISION_CI: (f64, f64) = (2.0 / 7.0, 11.0 / 12.0);
const RECALL_CI: (f64, f64) = (3.0 / 7.0, 8.0 / 9.0);
const F1_CI: (f64, f64) = (1.0 / 3.0, 7.0 / 8.0);
const EXACT_CI: (f64, f64) = (1.0 / 3.0, 1.0);

#[test]
fn bootstrap_of_identical_queries_is_degenerate_and_bounds_are_ordered() {
    let same: Vec<QueryScore> = (0..10)
        .map(|i| score(&i.to_string(), 2, 1, 1, true))
        .collect();
    let ci = bootstrap_ci(&same, 1, 100, |v| {
        let (tp, fp, fn_) = v
            .iter()
            .fold((0, 0, 0), |(a, b, c), q| (a + q.tp, b + q.fp, c + q.fn_));
        prf(tp, fp, fn_).0
    })
    .unwrap();
    assert!((ci.lo - 2.0 / 3.0).abs() < 1e-12 && (ci.hi - 2.0 / 3.0).abs() < 1e-12);
    let s = summarise_with_ci(&bench_scores(), 3, 500);
    for (v, ci) in [
        (s.precision, s.precision_ci),
        (s.recall, s.recall_ci),
        (s.f1, s.f1_ci),
    ] {
        let (v, ci) = (v.unwrap(), ci.unwrap());
        assert!(ci.lo <= v && v <= ci.hi, "{ci:?} around {v}");
    }
    // No queries, no interval.
    assert!(bootstrap_ci(&[], 1, 100, |_| Some(1.0)).is_none());
}
