//! Scale benchmarks (issue 9): load + check + compile, artifact load (JSON and binary), and
//! Algorithm 1 / lexical Understand latency, on the shipped inventory and on inventories made
//! by the generator. Sizes come from `SR_BENCH_SIZES` (default `1000,5000,10000`; the shipped
//! inventory is always included).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use schemarouter::artifact::{self, FrozenGraph, io};
use schemarouter::route::analyzer::lexical::Lexical;
use schemarouter::route::{Options, route};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn projects() -> Vec<(String, PathBuf, Option<tempfile::TempDir>)> {
    let mut out = vec![("shipped".to_string(), PathBuf::from("."), None)];
    let sizes = std::env::var("SR_BENCH_SIZES").unwrap_or_else(|_| "1000,5000,10000".into());
    for n in sizes
        .split(',')
        .filter_map(|s| s.trim().parse::<usize>().ok())
    {
        let dir = tempfile::tempdir().expect("temp dir");
        let generated = schemarouter::synth::generate(&schemarouter::synth::GenConfig {
            tools: n,
            seed: 7,
            ..Default::default()
        });
        generated.write(dir.path()).expect("write inventory");
        out.push((format!("gen-{n}"), dir.path().to_path_buf(), Some(dir)));
    }
    out
}

fn compile(root: &Path) -> FrozenGraph {
    let c = schemarouter::lint::check_path(root).expect("project");
    artifact::build::compile(&c.project, &c.index, &c.units)
}

fn bench(c: &mut Criterion) {
    let projects = projects();
    let mut g = c.benchmark_group("check+compile");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, root, _) in &projects {
        g.bench_with_input(BenchmarkId::from_parameter(name), root, |b, root| {
            b.iter(|| black_box(compile(root)))
        });
    }
    g.finish();

    let graphs: Vec<(String, FrozenGraph)> = projects
        .iter()
        .map(|(n, r, _)| (n.clone(), compile(r)))
        .collect();
    let mut g = c.benchmark_group("artifact-load");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for (name, graph) in &graphs {
        let json = io::to_json_bytes(graph);
        let bin = io::to_bin_bytes(graph);
        // Parse + verify only: dropping the result is not part of a load (the CLI frees it off
        // the main thread), so it is kept out of the timing.
        g.bench_with_input(BenchmarkId::new("json", name), &json, |b, bytes| {
            b.iter_with_large_drop(|| io::load_bytes(bytes).expect("load"))
        });
        g.bench_with_input(BenchmarkId::new("bin", name), &bin, |b, bytes| {
            b.iter_with_large_drop(|| io::load_bytes(bytes).expect("load"))
        });
        // What `route` and `eval` do: the graph section verified but not built.
        g.bench_with_input(BenchmarkId::new("json-routing", name), &json, |b, bytes| {
            b.iter_with_large_drop(|| io::load_routing_bytes(bytes).expect("load"))
        });
        g.bench_with_input(BenchmarkId::new("bin-routing", name), &bin, |b, bytes| {
            b.iter_with_large_drop(|| io::load_routing_bytes(bytes).expect("load"))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("routing");
    for (name, graph) in &graphs {
        let lex = Lexical::new(graph);
        let queries: Vec<String> = graph
            .intents
            .iter()
            .flat_map(|i| i.examples.clone())
            .collect();
        if queries.is_empty() {
            continue;
        }
        let understandings: Vec<_> = queries
            .iter()
            .map(|q| lex.analyse(q).understanding)
            .collect();
        let opts = Options::default();
        g.bench_function(BenchmarkId::new("algorithm1", name), |b| {
            let mut i = 0;
            b.iter(|| {
                i += 1;
                black_box(route(
                    graph,
                    &understandings[i % understandings.len()],
                    &opts,
                ))
            })
        });
        g.bench_function(BenchmarkId::new("lexical", name), |b| {
            let mut i = 0;
            b.iter(|| {
                i += 1;
                black_box(lex.analyse(&queries[i % queries.len()]))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
