//! Search speed at 10,000 endpoints (issue 36: under 1 ms per query in process): `search::rank`
//! lexical (BM25F) and hybrid (BM25F + the cosine of `search::dense`), and the question's
//! embedding alone. The catalog is generated (`schemarouter gen`, seed 7) until it has 10,000
//! endpoints. The hybrid benchmarks run when `SCHEMAROUTER_EMBEDDINGS` names a weights folder
//! (the `wordllama/` folder of PyPI's `wordllama` wheel); the one-time load and the compile-time
//! embedding of every endpoint are printed, not benchmarked.
//!
//! `SCHEMAROUTER_EMBEDDINGS=/path/to/wordllama cargo bench --bench search`

use criterion::{Criterion, criterion_group, criterion_main};
use schemarouter::artifact::{self, FrozenGraph};
use schemarouter::search::{self, Query, dense};
use std::hint::black_box;
use std::time::Instant;

const ENDPOINTS: usize = 10_000;

fn catalog() -> FrozenGraph {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut tools = ENDPOINTS * 5 / 6;
    loop {
        let g = schemarouter::synth::generate(&schemarouter::synth::GenConfig {
            tools,
            seed: 7,
            ..Default::default()
        });
        if g.summary.endpoints >= ENDPOINTS {
            g.write(dir.path()).expect("write");
            break;
        }
        tools += tools / 20 + 1;
    }
    let c = schemarouter::lint::check_path(dir.path()).expect("project");
    artifact::build::compile(&c.project, &c.index, &c.units)
}

fn queries(g: &FrozenGraph) -> Vec<String> {
    let mut q: Vec<String> = g.intents.iter().flat_map(|i| i.examples.clone()).collect();
    q.extend(
        [
            "where can I find the band gap of silicon",
            "save the results to a file",
            "what is the weather in London tomorrow",
        ]
        .map(String::from),
    );
    q
}

fn bench(c: &mut Criterion) {
    let mut g = catalog();
    let n = g.index.search_offsets.last().copied().unwrap_or(0);
    eprintln!("catalog: {} tools, {n} endpoints", g.tools.len());
    let qs = queries(&g);
    c.bench_function("search/rank/lexical/10k_endpoints", |b| {
        let mut i = 0;
        b.iter(|| {
            let q = Query::new(&qs[i % qs.len()]);
            i += 1;
            black_box(search::rank(&g, black_box(&q)))
        })
    });
    let Some(folder) = std::env::var_os(dense::ENV) else {
        eprintln!(
            "{} is not set: the hybrid search is not measured",
            dense::ENV
        );
        return;
    };
    let t = Instant::now();
    let m = dense::load(std::path::Path::new(&folder)).expect("weights");
    eprintln!(
        "weights loaded in {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    dense::index(&mut g, &m, dense::DEFAULT_WEIGHT);
    eprintln!(
        "{n} endpoints embedded in {:.1} ms; vectors {} bytes",
        t.elapsed().as_secs_f64() * 1e3,
        g.index
            .search_vectors
            .as_ref()
            .map_or(0, |v| v.vectors.len())
    );
    assert_eq!(dense::activate(&g, None), dense::Activation::Dense);
    c.bench_function("search/embed/question", |b| {
        let mut i = 0;
        b.iter(|| {
            let q = &qs[i % qs.len()];
            i += 1;
            black_box(m.embed(black_box(q)))
        })
    });
    c.bench_function("search/rank/hybrid/10k_endpoints", |b| {
        let mut i = 0;
        b.iter(|| {
            let q = Query::new(&qs[i % qs.len()]);
            i += 1;
            black_box(search::rank(&g, black_box(&q)))
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
