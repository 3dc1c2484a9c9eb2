//! Routing speed on the shipped inventory: Algorithm 1 alone (gold-style Understandings built
//! by the lexical analyzer from the intents' example queries) and lexical Understand +
//! Algorithm 1 end to end. Targets (issue 7): p50 under 5 µs and under 50 µs.

use criterion::{Criterion, criterion_group, criterion_main};
use schemarouter::artifact::{self, FrozenGraph};
use schemarouter::route::analyzer::lexical::Lexical;
use schemarouter::route::{Options, Understanding, route};
use std::hint::black_box;
use std::path::Path;

fn shipped() -> FrozenGraph {
    let c = schemarouter::lint::check_path(Path::new(".")).expect("project");
    artifact::build::compile(&c.project, &c.index, &c.units)
}

fn bench(c: &mut Criterion) {
    let g = shipped();
    let lex = Lexical::new(&g);
    let queries: Vec<String> = g.intents.iter().flat_map(|i| i.examples.clone()).collect();
    let understandings: Vec<Understanding> = queries
        .iter()
        .map(|q| lex.analyse(q).understanding)
        .collect();
    let opts = Options::default();
    c.bench_function("algorithm1/shipped/per_query", |b| {
        let mut i = 0;
        b.iter(|| {
            let u = &understandings[i % understandings.len()];
            i += 1;
            black_box(route(&g, black_box(u), &opts))
        })
    });
    c.bench_function("lexical+algorithm1/shipped/per_query", |b| {
        let mut i = 0;
        b.iter(|| {
            let q = &queries[i % queries.len()];
            i += 1;
            let a = lex.analyse(black_box(q));
            black_box(route(&g, &a.understanding, &opts))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
