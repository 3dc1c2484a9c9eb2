//! `schemarouter eval` end to end on the smoke benchmark (`bench/smoke.yaml` over the three-tool
//! inventory in `bench/smoke/`), whose metrics are computed by hand in the benchmark's header:
//! exact numbers per router, the markdown report as an insta snapshot, the retrieved-context
//! rendering, the SVG figure, the prompt-all baseline against a mock LLM server, and the CLI.

use schemarouter::artifact::FrozenGraph;
use schemarouter::eval::metrics::{Count, Summary};
use schemarouter::eval::{
    EvalOptions, EvalReport, LlmOptions, Mode, bench, evaluate, fixtures, metrics, plots, report,
};
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

fn smoke_graph() -> FrozenGraph {
    let c =
        schemarouter::lint::check_path(Path::new("bench/smoke")).expect("smoke inventory loads");
    assert!(!c.has_errors(), "the smoke inventory checks clean");
    schemarouter::artifact::build::compile(&c.project, &c.index, &c.units)
}

fn smoke_bench() -> bench::Bench {
    bench::load(Path::new("bench/smoke.yaml")).expect("smoke bench parses")
}

fn options(mode: Mode) -> EvalOptions {
    EvalOptions {
        mode,
        seed: 42,
        resamples: 200,
        repeats: 1,
        llm: None,
    }
}

fn run(mode: Mode) -> EvalReport {
    evaluate(
        &smoke_graph(),
        &smoke_bench(),
        "smoke.yaml",
        &options(mode),
        |_, _| {},
    )
}

fn router<'r>(r: &'r EvalReport, name: &str) -> &'r Summary {
    &r.routers
        .iter()
        .find(|x| x.router == name)
        .unwrap_or_else(|| panic!("router {name}"))
        .summary
}

fn c(hit: u32, of: u32) -> Count {
    Count { hit, of }
}

#[test]
fn known_metrics_from_understanding() {
    let r = run(Mode::Understanding);
    let names: Vec<&str> = r.routers.iter().map(|x| x.router.as_str()).collect();
    assert_eq!(
        names,
        [
            "schemarouter",
            "recall",
            "minimal",
            "no-field-projection",
            "fetch-all",
            "rule-based",
            "lexical-retrieval"
        ]
    );
    assert_eq!((r.run.queries, r.run.negative_queries), (8, 1));

    // SchemaRouter (the default `core` projection): every query names its concepts and each is
    // matched on its step, so no group safety net is added (the same plans as `minimal`);
    // smoke-06 is the known routing loss.
    let s = router(&r, "schemarouter");
    assert_eq!(s.tool_exact, 7.0 / 8.0);
    assert_eq!((s.tp, s.fp, s.fn_), (9, 1, 1));
    assert_eq!(s.precision, Some(0.9));
    assert_eq!(s.recall, Some(0.9));
    assert_eq!(s.over_fetch, Some(1.0));
    assert_eq!(s.negative_right, c(1, 1));
    assert_eq!(s.param_validity, c(7, 7));
    assert_eq!(s.param_accuracy, c(7, 8));
    assert_eq!(s.executable, c(7, 7));
    assert_eq!(
        s.unit,
        c(7, 7),
        "every retrieved gold number carries its unit"
    );
    assert_eq!(s.provenance, c(9, 9));
    assert_eq!(s.licence, c(9, 9));
    assert_eq!(s.source_match, c(1, 1));

    // The paper's recall-first projection, its own row: the electronic group adds fermi_energy
    // (or band_gap) to the four electronic-intent plans on dft_db.
    let rc = router(&r, "recall");
    assert_eq!(rc.tool_exact, 7.0 / 8.0);
    assert_eq!((rc.tp, rc.fp, rc.fn_), (9, 5, 1));
    assert_eq!(rc.precision, Some(9.0 / 14.0));
    assert_eq!(rc.recall, Some(0.9));
    assert_eq!(rc.over_fetch, Some(1.4));
    assert_eq!(rc.provenance, c(9, 9));

    // Minimal projection: identifiers and concept matches only.
    let m = router(&r, "minimal");
    assert_eq!((m.tp, m.fp, m.fn_), (9, 1, 1));
    assert_eq!(m.precision, Some(0.9));
    assert_eq!(m.f1, Some(0.9));
    assert_eq!(m.over_fetch, Some(1.0));
    assert_eq!(m.context_tokens_mean, s.context_tokens_mean);
    assert!(m.context_tokens_mean < rc.context_tokens_mean);

    // fetch-all: 10 non-identifier fields per query, 10 gold fields in all.
    let f = router(&r, "fetch-all");
    assert_eq!(f.tool_exact, 0.0);
    assert_eq!((f.tp, f.fp, f.fn_), (10, 70, 0));
    assert_eq!(f.precision, Some(0.125));
    assert_eq!(f.over_fetch, Some(8.0));
    assert_eq!(f.negative_right, c(0, 1));
    assert_eq!(
        f.param_validity,
        c(0, 8),
        "papers' required `q` is never filled"
    );
    assert_eq!(f.executable, c(0, 7));
    assert_eq!(
        f.param_accuracy,
        c(4, 8),
        "only dft_db calls its parameter `formula`"
    );
    for k in [f.unit, f.provenance, f.licence] {
        assert_eq!(k.hit, 0, "baselines attach no metadata");
    }

    // rule-based: names in smoke-01 (DFT Database), smoke-04 (papers), smoke-07 (DFT
    // database, our lab).
    let b = router(&r, "rule-based");
    assert_eq!(b.tool_exact, 0.5);
    assert_eq!((b.tp, b.fp, b.fn_), (5, 9, 5));
    assert_eq!(b.recall, Some(0.5));
    assert_eq!(b.param_validity, c(2, 3));
    assert_eq!(b.executable, c(2, 7));
    assert_eq!(b.source_match, c(0, 1));

    // Per category: the ambiguous query is SchemaRouter's miss.
    let cat = |router: &str, cat: &str| -> Summary {
        r.routers
            .iter()
            .find(|x| x.router == router)
            .unwrap()
            .categories
            .iter()
            .find(|(k, _)| k == cat)
            .unwrap()
            .1
            .clone()
    };
    assert_eq!(cat("minimal", "ambiguous_query").f1, Some(0.0));
    assert_eq!(cat("minimal", "negative_query").f1, None);
    assert_eq!(cat("minimal", "negative_query").tool_exact, 1.0);
    assert_eq!(cat("minimal", "multi_field_property").f1, Some(1.0));
    // Every query is scored once per router, and CIs carry the run's seed.
    for x in &r.routers {
        assert_eq!(x.queries.len(), 8);
        let s = &x.summary;
        if let (Some(v), Some(ci)) = (s.f1, s.f1_ci) {
            assert!(ci.lo <= v && v <= ci.hi, "{}: {ci:?} around {v}", x.router);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let mut a = run(Mode::Understanding);
    let mut b = run(Mode::Understanding);
    for r in [&mut a, &mut b] {
        zero_latency(r);
    }
    assert_eq!(a, b);
}

#[test]
fn from_query_runs_the_analyzer_first() {
    let r = run(Mode::Query);
    assert_eq!(r.run.mode, Mode::Query);
    let s = router(&r, "schemarouter");
    assert_eq!(
        s.negative_right,
        c(1, 1),
        "the weather question routes nowhere"
    );
    assert!(s.tool_exact >= 0.5, "{}", s.tool_exact);
    // The baselines read the raw query in both modes.
    let u = run(Mode::Understanding);
    assert_eq!(
        router(&r, "rule-based").tool_exact,
        router(&u, "rule-based").tool_exact
    );
}

fn zero_latency(r: &mut EvalReport) {
    for x in &mut r.routers {
        x.summary.latency_p50_us = 0.0;
        x.summary.latency_p95_us = 0.0;
        for (_, s) in &mut x.categories {
            s.latency_p50_us = 0.0;
            s.latency_p95_us = 0.0;
        }
        for q in &mut x.queries {
            q.latency_us = 0.0;
        }
    }
    r.run.routing_fingerprint = "<fingerprint>".into();
}

#[test]
fn markdown_report_snapshot() {
    let mut r = run(Mode::Understanding);
    zero_latency(&mut r);
    let md = report::markdown(&r);
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(true);
    settings.bind(|| insta::assert_snapshot!("smoke_markdown", md));
    // Text and JSON carry the same routers.
    let text = report::text(&r);
    for x in &r.routers {
        assert!(text.contains(&x.router));
    }
    let json: serde_json::Value = serde_json::from_str(&report::json(&r)).unwrap();
    assert_eq!(json["routers"].as_array().unwrap().len(), 7);
    assert_eq!(json["run"]["seed"], 42);
    assert_eq!(json["routers"][0]["queries"][0]["id"], "smoke-01");
}

#[test]
fn retrieved_context_rendering() {
    let g = smoke_graph();
    let b = smoke_bench();
    let q = &b.queries[0];
    let u = q
        .understanding
        .as_ref()
        .expect("smoke-01 has a gold understanding");
    let plan = schemarouter::route::route(&g, u, &Default::default());
    let steps = metrics::steps_of(&plan);
    let text = fixtures::render_context(&g, &steps, 42);
    assert_eq!(
        text,
        fixtures::render_context(&g, &steps, 42),
        "deterministic"
    );
    assert_ne!(text, fixtures::render_context(&g, &steps, 43), "seeded");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(true);
    settings.bind(|| insta::assert_snapshot!("smoke_01_context", text));
    assert_eq!(
        fixtures::context_tokens(&g, &steps, 42),
        schemarouter::prompt::count_tokens(&text)
    );
    // Without metadata the same plan renders only key=value lines.
    let bare: Vec<metrics::PlanStep> = steps
        .iter()
        .map(|s| {
            let mut s = s.clone();
            for f in &mut s.fields {
                f.meta = None;
            }
            s
        })
        .collect();
    let bare_text = fixtures::render_context(&g, &bare, 42);
    assert!(!bare_text.contains("unit=") && !bare_text.contains("licence="));
    assert!(fixtures::context_tokens(&g, &bare, 42) < fixtures::context_tokens(&g, &steps, 42));
    assert_eq!(fixtures::context_tokens(&g, &[], 42), 0);
}

#[test]
fn context_figure_is_svg() {
    let r = run(Mode::Understanding);
    let svg = plots::context_vs_recall_svg(&r).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
    for x in &r.routers {
        assert!(svg.contains(&x.router), "label {}", x.router);
    }
    let dir = tempfile::tempdir().unwrap();
    let p = plots::write_eval_plot(dir.path(), &r).unwrap();
    assert!(p.ends_with(plots::CONTEXT_VS_RECALL));
    assert_eq!(std::fs::read_to_string(p).unwrap(), svg);
}

/// A one-thread OpenAI-compatible server answering every request with `status` and a chat
/// completion whose content is `content`.
fn mock_llm(status: u16, content: &'static str) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { break };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            let body_start = loop {
                let n = s.read(&mut chunk).unwrap_or(0);
                if n == 0 {
                    break None;
                }
                buf.extend_from_slice(&chunk[..n]);
                if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    break Some(p + 4);
                }
            };
            let Some(start) = body_start else { continue };
            let head = String::from_utf8_lossy(&buf[..start]).to_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            while buf.len() < start + len {
                let n = s.read(&mut chunk).unwrap_or(0);
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            let body =
                serde_json::json!({"choices": [{"message": {"content": content}}]}).to_string();
            let reply = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = s.write_all(reply.as_bytes());
        }
    });
    format!("http://{addr}/v1")
}

#[test]
fn prompt_all_against_a_mock_llm() {
    // The mock always plans dft_db/summary with band_gap: right tool for smoke-01, -03, -08.
    let url = mock_llm(
        200,
        r#"Here is the plan: {"steps": [{"tool": "dft_db", "endpoint": "summary", "params": {"formula": "Si"}, "fields": ["band_gap", "no_such_field"]}]}"#,
    );
    let mut opts = options(Mode::Understanding);
    opts.llm = Some(LlmOptions {
        url,
        model: "mock".into(),
        timeout: Duration::from_secs(10),
        api_key: None,
    });
    let r = evaluate(
        &smoke_graph(),
        &smoke_bench(),
        "smoke.yaml",
        &opts,
        |_, _| {},
    );
    assert_eq!(r.routers.last().unwrap().router, "prompt-all");
    assert_eq!(r.run.llm_model.as_deref(), Some("mock"));
    let p = router(&r, "prompt-all");
    assert_eq!(p.errors, 0);
    assert_eq!(p.tool_exact, 3.0 / 8.0);
    // band_gap is right only for smoke-01 and smoke-07's dft step; the unknown field is FP.
    assert_eq!((p.tp, p.fp), (2, 14));
    assert_eq!(p.unit.hit, 0);

    // A failing server: every query is an error, counted as an empty plan.
    let url = mock_llm(500, "boom");
    opts.llm.as_mut().unwrap().url = url;
    let r = evaluate(
        &smoke_graph(),
        &smoke_bench(),
        "smoke.yaml",
        &opts,
        |_, _| {},
    );
    let p = router(&r, "prompt-all");
    assert_eq!(p.errors, 8);
    assert_eq!(p.negative_right, c(1, 1));
    assert_eq!(p.executable, c(0, 7));
}

#[test]
fn cli_eval_writes_reports_and_plots() {
    let bin = env!("CARGO_BIN_EXE_schemarouter");
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    let out = std::process::Command::new(bin)
        .args(["compile", "bench/smoke", "--out"])
        .arg(&build)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plots_dir = dir.path().join("plots");
    let out = std::process::Command::new(bin)
        .args([
            "eval",
            "--bench",
            "bench/smoke.yaml",
            "--format",
            "markdown",
        ])
        .args(["--repeats", "1", "--resamples", "100", "--artifact"])
        .arg(build.join("graph.json"))
        .arg("--plots")
        .arg(&plots_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("| schemarouter |"), "{stdout}");
    assert!(stdout.contains("bootstrap B = 100"));
    assert!(plots_dir.join(plots::CONTEXT_VS_RECALL).exists());
    // JSON from the query mode parses.
    let out = std::process::Command::new(bin)
        .args(["eval", "--bench", "bench/smoke.yaml", "--from", "query"])
        .args(["--format", "json", "--repeats", "1", "--artifact"])
        .arg(build.join("graph.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["run"]["mode"], "query");
    // Usage errors exit 2.
    let out = std::process::Command::new(bin)
        .args(["eval", "--bench", "no/such/file.yaml", "--artifact"])
        .arg(build.join("graph.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = std::process::Command::new(bin)
        .args(["eval"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "--bench is required");
}

#[test]
fn dev_benchmark_parses() {
    let b = bench::load(Path::new("bench/dev.yaml")).unwrap();
    assert_eq!(b.queries.len(), 45);
    assert_eq!(b.queries.iter().filter(|q| q.is_negative()).count(), 3);
    let bad = bench::parse(
        "version: 1\ninventory: x\nqueries:\n  - id: a\n    category: nope\n    query: q\n    understanding: {}\n",
    );
    assert!(matches!(bad, Err(bench::BenchError::Invalid(_))), "{bad:?}");
    assert!(matches!(
        bench::parse("version: 2\ninventory: x\nqueries: []\n"),
        Err(bench::BenchError::Invalid(_))
    ));
    assert!(matches!(
        bench::parse("version: 1\ninventory: x\nquerys: []\n"),
        Err(bench::BenchError::Parse(_))
    ));
}
