//! The reader context of projection, on the development benchmark's gold plans answered with the
//! eval fixtures' values, against the eval harness's context-token estimate: they must agree
//! within 10% (mean over the queries).

use schemarouter::artifact::FrozenGraph;
use schemarouter::eval::{bench, fixtures, metrics};
use schemarouter::extract::{self, Document};
use schemarouter::route::{FieldReason, Plan, PlanStatus, PlannedField, Step};
use std::collections::BTreeMap;
use std::path::Path;

fn gold_plan(g: &FrozenGraph, q: &bench::BenchQuery) -> Plan {
    let steps = q
        .gold
        .iter()
        .filter_map(|s| {
            let (_, t) = g.tool(&s.tool)?;
            let e = t.endpoints.iter().find(|e| e.id == s.endpoint)?;
            let fields = s
                .fields
                .iter()
                .filter_map(|name| {
                    let f = e.fields.iter().find(|f| &f.name == name)?;
                    let reasons = vec![FieldReason::AllFields];
                    Some(PlannedField {
                        name: f.name.clone(),
                        identifier: f.identifier,
                        meta: Some(schemarouter::route::algorithm::field_meta(
                            g, t, f, &reasons,
                        )),
                        reasons,
                    })
                })
                .collect();
            Some(Step {
                tool: s.tool.clone(),
                endpoint: s.endpoint.clone(),
                method: e.method.clone(),
                url: e.url.clone(),
                records: e.records.clone(),
                call: None,
                params: BTreeMap::new(),
                missing_required: vec![],
                auth: vec![],
                unbound: vec![],
                fields,
                score: 0,
                rank_score: None,
                why: String::new(),
            })
        })
        .collect();
    Plan {
        status: PlanStatus::Planned,
        routing_fingerprint: g.routing_fingerprint.clone(),
        intent: None,
        source_constraint: None,
        steps,
        unmatched_concepts: vec![],
        skipped_tools: vec![],
        not_understood: vec![],
        excluded_tools: vec![],
        unmatched_qualifiers: vec![],
        multi_values: vec![],
        out_of_scope: None,
        alternatives: vec![],
        warnings: vec![],
    }
}

/// (queries with a gold plan, mean eval estimate, mean projection tokens, largest per-query
/// relative difference).
fn compare(seed: u64) -> (usize, f64, f64, f64) {
    let g = FrozenGraph::load_routing(Path::new("build/graph.json")).unwrap();
    let b = bench::load(Path::new("bench/dev.yaml")).unwrap();
    let (mut n, mut est, mut got, mut worst) = (0usize, 0f64, 0f64, 0f64);
    for q in &b.queries {
        let plan = gold_plan(&g, q);
        if plan.steps.is_empty() {
            continue;
        }
        let estimate = fixtures::context_tokens(&g, &metrics::steps_of(&plan), seed) as f64;
        let docs: Vec<Document> = plan
            .steps
            .iter()
            .map(|s| {
                let names: Vec<&str> = s.fields.iter().map(|f| f.name.as_str()).collect();
                Document::Json(fixtures::response(&g, &s.tool, &s.endpoint, &names, seed))
            })
            .collect();
        let x = extract::extract(&g, &plan, &docs).unwrap();
        let missing: Vec<_> = x
            .issues
            .iter()
            .filter(|i| i.kind != extract::report::IssueKind::NoValue)
            .collect();
        assert!(missing.is_empty(), "{}: {missing:?}", q.id);
        n += 1;
        est += estimate;
        got += x.context_tokens.unwrap_or(0) as f64;
        worst = worst.max((x.context_tokens.unwrap_or(0) as f64 - estimate).abs() / estimate);
    }
    (n, est / n as f64, got / n as f64, worst)
}

#[test]
fn reader_context_agrees_with_the_eval_estimate() {
    let (n, est, got, worst) = compare(42);
    eprintln!(
        "{n} gold plans: eval estimate {est:.1} tokens, projection {got:.1} tokens, worst query {:.1}%",
        worst * 100.0
    );
    assert_eq!(
        (n, format!("{est:.1}"), format!("{got:.1}")),
        (42, "134.7".to_string(), "130.0".to_string())
    );
    assert!(
        (got - est).abs() / est <= 0.10,
        "mean reader context {got:.1} vs eval estimate {est:.1}"
    );
}
