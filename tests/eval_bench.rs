//! Benchmark validation in `schemarouter eval`: files that do not parse, gold names the
//! artifact does not declare (warnings, or errors with `--strict`), duplicate query ids. The
//! benchmark files are real files under `tests/fixtures/eval-bench/`, run against the smoke
//! inventory (`bench/smoke/`) compiled into a temporary folder; stderr is compared line for line.

use schemarouter::eval::bench::{self, BenchError, Pos, Problem, RefKind};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_schemarouter");
const DIR: &str = "tests/fixtures/eval-bench";
const FORMAT_HELP: &str = "help: a benchmark is one YAML document with `version: 1`, `inventory` and `queries`; each query has `id`, `category`, `query`, `understanding` and `gold` (format: bench/README.md)";

/// The smoke inventory compiled into `dir`; returns the artifact path.
fn smoke_artifact(dir: &Path) -> PathBuf {
    let out = Command::new(BIN)
        .args(["compile", "bench/smoke", "--out"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join("graph.json")
}

/// `eval` of a fixture with fast settings and `extra` arguments.
fn eval(artifact: &Path, file: &str, extra: &[&str]) -> Output {
    Command::new(BIN)
        .args(["eval", "--repeats", "1", "--resamples", "20", "--bench"])
        .arg(format!("{DIR}/{file}"))
        .arg("--artifact")
        .arg(artifact)
        .args(extra)
        .output()
        .unwrap()
}

fn stderr_lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stderr.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_file_that_is_not_yaml_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let plots = dir.path().join("plots");
    let out = eval(
        &artifact,
        "bad-yaml.yaml",
        &["--plots", plots.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/bad-yaml.yaml:7:12: not a valid benchmark: unclosed quote",
            FORMAT_HELP,
        ]
    );
    assert!(out.stdout.is_empty(), "no report");
    assert!(!plots.exists(), "no figure");
}

#[test]
fn a_file_of_the_wrong_shape_gets_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let out = eval(&artifact, "wrong-shape.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/wrong-shape.yaml:4:1: not a valid benchmark: unknown key `querys`",
            "help: did you mean `queries`?",
        ]
    );
    assert!(out.stdout.is_empty());
}

/// A broken bench file is read by the loader's YAML front end and its strict tree reader, as a
/// declaration file is: the fault at its exact line and column, with the reader's help line.
#[test]
fn a_broken_gold_step_is_placed_exactly_with_a_help_line() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let out = eval(&artifact, "broken-step.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/broken-step.yaml:12:9: not a valid benchmark: missing required key `endpoint`",
            "help: add `endpoint` to this map",
        ]
    );
    let out = eval(&artifact, "wrong-type.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/wrong-type.yaml:13:18: not a valid benchmark: expected a list, found the string `band_gap`",
            "help: write a list, even of one item: `[band_gap]`, or one `- item` per line",
        ]
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn duplicate_query_ids_name_both_places() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let out = eval(&artifact, "duplicate-id.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/duplicate-id.yaml:17:9: query id `q-01` is used twice",
            "note: tests/fixtures/eval-bench/duplicate-id.yaml:5:9: first used here",
            "help: give every query its own id",
        ]
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn unknown_tools_warn_and_are_still_scored() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let out = eval(&artifact, "unknown-tool.yaml", &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr_lines(&out),
        [
            "warning: tests/fixtures/eval-bench/unknown-tool.yaml:10:15: query `t-01`: gold tool `dft_bd` is not in the artifact (did you mean `dft_db`?)",
            "warning: tests/fixtures/eval-bench/unknown-tool.yaml:19:15: query `t-02`: gold tool `oqmd` is not in the artifact",
            "warning: 2 gold references in tests/fixtures/eval-bench/unknown-tool.yaml unknown to the artifact (smoke-3 1.0.0); their queries are scored, but those scores do not measure routing",
            "help: fix the names in the benchmark (or recompile the artifact if the inventory changed)",
        ]
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["run"]["queries"], 2);
    assert_eq!(
        v["run"]["unknown_gold_references"],
        serde_json::json!([
            {"query": "t-01", "kind": "tool", "name": "dft_bd", "suggestion": "dft_db", "step": 0},
            {"query": "t-02", "kind": "tool", "name": "oqmd", "step": 0},
        ])
    );
    // Both queries are scored: every router has a score per query.
    assert_eq!(v["routers"][0]["queries"].as_array().unwrap().len(), 2);
}

#[test]
fn unknown_names_below_known_tools_get_suggestions() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let out = eval(&artifact, "unknown-field.yaml", &["--format", "markdown"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr_lines(&out),
        [
            "warning: tests/fixtures/eval-bench/unknown-field.yaml:8:29: query `f-01`: gold intent `thermodynamic_stabilty` is not in the artifact (did you mean `thermodynamic_stability`?)",
            "warning: tests/fixtures/eval-bench/unknown-field.yaml:12:18: query `f-01`: endpoint `dft_db/summary` has no parameter `formla` (did you mean `formula`?)",
            "warning: tests/fixtures/eval-bench/unknown-field.yaml:13:36: query `f-01`: endpoint `dft_db/summary` has no response field `densty` (did you mean `density`?)",
            "warning: tests/fixtures/eval-bench/unknown-field.yaml:20:19: query `f-02`: tool `lab` has no endpoint `measurement` (did you mean `measurements`?)",
            "warning: tests/fixtures/eval-bench/unknown-field.yaml:31:28: query `f-03`: endpoint `dft_db/summary` has no response field `colour`",
            "warning: 5 gold references in tests/fixtures/eval-bench/unknown-field.yaml unknown to the artifact (smoke-3 1.0.0); their queries are scored, but those scores do not measure routing",
            "help: fix the names in the benchmark (or recompile the artifact if the inventory changed)",
        ]
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let first = stdout.lines().next().unwrap();
    assert!(
        first.ends_with("; 5 gold references unknown to the artifact, in 3 queries (f-01, f-02, f-03): their scores do not measure routing."),
        "{first}"
    );
}

#[test]
fn queries_without_a_gold_understanding_run_from_the_query_only() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let out = eval(
        &artifact,
        "no-understanding.yaml",
        &["--from", "query", "--format", "json"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["run"]["queries"], 3);
    assert_eq!(v["run"]["negative_queries"], 1);
    let ids: Vec<&str> = v["routers"][0]["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["u-01", "u-02", "u-03"]);

    // The default `--from understanding` names each query that lacks one and routes nothing.
    let plots = dir.path().join("plots");
    let out = eval(
        &artifact,
        "no-understanding.yaml",
        &["--plots", plots.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/no-understanding.yaml:6:9: query `u-01` has no gold `understanding`, which `--from understanding` (the default) routes on",
            "error: tests/fixtures/eval-bench/no-understanding.yaml:23:9: query `u-03` has no gold `understanding`, which `--from understanding` (the default) routes on",
            "help: run with `--from query` (the lexical Understand step reads each question), or add the gold Understanding (format: bench/README.md)",
        ]
    );
    assert!(out.stdout.is_empty(), "no report");
    assert!(!plots.exists(), "no figure");
}

#[test]
fn a_benchmark_with_no_gold_understanding_at_all_says_so_once() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let file = dir.path().join("none.yaml");
    std::fs::write(
        &file,
        "version: 1\ninventory: smoke-3\nqueries:\n  - id: a\n    category: negative_query\n    query: q\n  - id: b\n    category: negative_query\n    query: r\n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .args(["eval", "--repeats", "1", "--resamples", "20", "--bench"])
        .arg(&file)
        .arg("--artifact")
        .arg(&artifact)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            format!("error: {}: `--from understanding` (the default) routes on each query's gold `understanding`, and none of its 2 queries have one", file.display()),
            "help: run with `--from query` (the lexical Understand step reads each question), or add the gold Understanding (format: bench/README.md)".to_string(),
        ]
    );
}

#[test]
fn strict_turns_unknown_names_into_errors() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let plots = dir.path().join("plots");
    let out = eval(
        &artifact,
        "unknown-tool.yaml",
        &["--strict", "--plots", plots.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/unknown-tool.yaml:10:15: query `t-01`: gold tool `dft_bd` is not in the artifact (did you mean `dft_db`?)",
            "error: tests/fixtures/eval-bench/unknown-tool.yaml:19:15: query `t-02`: gold tool `oqmd` is not in the artifact",
            "error: 2 gold references in tests/fixtures/eval-bench/unknown-tool.yaml unknown to the artifact (smoke-3 1.0.0); not evaluated (--strict)",
            "help: fix the names in the benchmark (or recompile the artifact if the inventory changed)",
        ]
    );
    assert!(out.stdout.is_empty(), "no report");
    assert!(!plots.exists(), "no figure");
}

#[test]
fn strict_passes_a_clean_benchmark_and_names_a_mismatched_inventory() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let out = Command::new(BIN)
        .args(["eval", "--strict", "--repeats", "1", "--resamples", "20"])
        .args(["--bench", "bench/smoke.yaml", "--artifact"])
        .arg(&artifact)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The smoke benchmark against the shipped inventory: every gold tool is unknown, and the
    // help line names the two inventories.
    let out = Command::new(BIN)
        .args(["eval", "--strict", "--bench", "bench/smoke.yaml"])
        .args(["--artifact", "build/graph.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines = stderr_lines(&out);
    assert_eq!(lines.len(), 10, "{lines:?}");
    assert_eq!(
        lines[0],
        "error: bench/smoke.yaml:31:15: query `smoke-01`: gold tool `dft_db` is not in the artifact"
    );
    assert_eq!(
        lines[9],
        "help: the benchmark is written for inventory `smoke-3`, the artifact is `materials-16`: pass --artifact compiled from `smoke-3`"
    );
}

#[test]
fn a_renamed_inventory_with_every_name_known_is_a_warning_or_a_strict_error() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let text = std::fs::read_to_string("bench/smoke.yaml")
        .unwrap()
        .replace("inventory: smoke-3", "inventory: smoke-4");
    assert!(text.contains("inventory: smoke-4"));
    let bench_file = dir.path().join("renamed.yaml");
    std::fs::write(&bench_file, text).unwrap();
    let run = |extra: &[&str]| {
        Command::new(BIN)
            .args(["eval", "--repeats", "1", "--resamples", "20", "--bench"])
            .arg(&bench_file)
            .arg("--artifact")
            .arg(&artifact)
            .args(extra)
            .output()
            .unwrap()
    };
    let file = bench_file.display().to_string();
    let expected = |level: &str| {
        vec![
            format!("{level}: {file}: the benchmark is written for inventory `smoke-4`, the artifact is `smoke-3` (1.0.0); every gold name resolves, so the queries are scored"),
            "help: pass --artifact compiled from `smoke-4`, or set `inventory: smoke-3` in the benchmark if it is meant for this one".to_string(),
        ]
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr_lines(&out), expected("warning"));
    assert!(!out.stdout.is_empty());
    let out = run(&["--strict"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr_lines(&out), expected("error"));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_gold_understanding_is_optional() {
    let b = bench::parse(
        "version: 1\ninventory: x\nqueries:\n  - id: a\n    category: negative_query\n    query: q\n  - id: b\n    category: negative_query\n    query: r\n    understanding: null\n  - id: c\n    category: negative_query\n    query: s\n    understanding: {intent: null}\n",
    )
    .unwrap();
    assert_eq!(b.queries[0].understanding, None);
    assert_eq!(b.queries[1].understanding, None);
    assert_eq!(b.queries[2].understanding, Some(Default::default()));
    assert_eq!(bench::without_understanding(&b), [0, 1]);
}

#[test]
fn parse_errors_carry_positions_and_help() {
    let e = bench::parse("version: 1\ninventory: x\nquerys: []\n").unwrap_err();
    let BenchError::Parse(p) = &e else {
        panic!("{e:?}")
    };
    assert_eq!(
        *p,
        Problem {
            message: "not a valid benchmark: unknown key `querys`".into(),
            at: Some(Pos { line: 3, column: 1 }),
            related: vec![],
            help: Some("did you mean `queries`?".into()),
        }
    );
    assert_eq!(
        e.to_string(),
        "line 3, column 1: not a valid benchmark: unknown key `querys`"
    );

    for version in ["-1", "1.5", "\"one\"", "99999999999", "[1]", "~"] {
        let e =
            bench::parse(&format!("version: {version}\ninventory: x\nqueries: []\n")).unwrap_err();
        assert_eq!(
            e.render("b.yaml"),
            "error: b.yaml:1:10: not a valid benchmark: `version` must be the number 1\nhelp: set `version: 1`\n",
            "version: {version}"
        );
    }

    let e = bench::parse("version: 2\ninventory: x\nqueries: []\n").unwrap_err();
    assert_eq!(
        e.render("b.yaml"),
        "error: b.yaml:1:10: version 2 is not supported (only 1)\nhelp: set `version: 1`\n"
    );

    let e = bench::parse(
        "version: 1\ninventory: x\nqueries:\n  - id: a\n    category: chemcial_lookup\n    query: q\n    understanding: {}\n",
    )
    .unwrap_err();
    assert_eq!(
        e.render("b.yaml"),
        "error: b.yaml:5:15: query `a` has unknown category `chemcial_lookup`\nhelp: did you mean `chemical_lookup`?\n"
    );

    let e = bench::parse("version: 1\ninventory: x\nqueries: []\n---\nversion: 1\n").unwrap_err();
    assert_eq!(
        e.render("b.yaml"),
        format!(
            "error: b.yaml:4:1: not a valid benchmark: a second YAML document starts here; a benchmark is one document\n{FORMAT_HELP}\n"
        )
    );

    let e = bench::parse("version: 1\nversion: 1\ninventory: x\nqueries: []\n").unwrap_err();
    assert_eq!(
        e.render("b.yaml"),
        format!(
            "error: b.yaml:2:1: not a valid benchmark: duplicate key `version`\n{FORMAT_HELP}\n"
        )
    );

    let e = bench::load(Path::new("tests/fixtures/eval-bench/no-such-file.yaml")).unwrap_err();
    assert!(matches!(e, BenchError::Io(_)));
    assert!(
        e.render("x.yaml")
            .starts_with("error: x.yaml: cannot read the benchmark: ")
    );
}

#[test]
fn unknown_references_in_the_library() {
    let c = schemarouter::lint::check_path(Path::new("bench/smoke")).unwrap();
    let g = schemarouter::artifact::build::compile(&c.project, &c.index, &c.units);
    let (b, locs) =
        bench::load_located(Path::new("tests/fixtures/eval-bench/unknown-field.yaml")).unwrap();
    let u = bench::unknown_references(&g, &b);
    type Row<'a> = (&'a str, RefKind, &'a str, Option<&'a str>, Option<Pos>);
    let got: Vec<Row> = u
        .iter()
        .map(|r| {
            (
                r.query.as_str(),
                r.kind,
                r.name.as_str(),
                r.suggestion.as_deref(),
                locs.of(r),
            )
        })
        .collect();
    let at = |line, column| Some(Pos { line, column });
    assert_eq!(
        got,
        [
            (
                "f-01",
                RefKind::Intent,
                "thermodynamic_stabilty",
                Some("thermodynamic_stability"),
                at(8, 29)
            ),
            (
                "f-01",
                RefKind::Parameter,
                "formla",
                Some("formula"),
                at(12, 18)
            ),
            (
                "f-01",
                RefKind::Field,
                "densty",
                Some("density"),
                at(13, 36)
            ),
            (
                "f-02",
                RefKind::Endpoint,
                "measurement",
                Some("measurements"),
                at(20, 19)
            ),
            ("f-03", RefKind::Field, "colour", None, at(31, 28)),
        ]
    );
    // The shipped benchmark names only what the shipped inventory declares.
    let shipped = schemarouter::artifact::FrozenGraph::load(Path::new("build/graph.json")).unwrap();
    let dev = bench::load(Path::new("bench/dev.yaml")).unwrap();
    assert_eq!(bench::unknown_references(&shipped, &dev), vec![]);
}

#[test]
fn gold_fields_written_from_the_root_are_read_inside_the_records() {
    // crossref/works keeps its records at `message.items[]`: a gold field written as the full
    // path from the response's root names the field `title`; a name that is neither stays and
    // is reported.
    let shipped = schemarouter::artifact::FrozenGraph::load(Path::new("build/graph.json")).unwrap();
    let mut b = bench::parse(
        "version: 1\ninventory: materials-16\nqueries:\n  - id: r-01\n    category: literature_search\n    query: titles of works on perovskites\n    gold:\n      - tool: crossref\n        endpoint: works\n        fields: [\"message.items[].title\", title, \"message.items[].colour\", message.total-results]\n",
    )
    .unwrap();
    bench::resolve_records_paths(&shipped, &mut b);
    assert_eq!(
        b.queries[0].gold[0].fields,
        [
            "title",
            "title",
            "message.items[].colour",
            "message.total-results"
        ]
    );
    let names: Vec<String> = bench::unknown_references(&shipped, &b)
        .into_iter()
        .map(|r| r.name)
        .collect();
    assert_eq!(names, ["message.items[].colour", "message.total-results"]);
}

#[test]
fn an_empty_benchmark_is_an_error_not_an_empty_report() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let out = eval(&artifact, "no-queries.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/no-queries.yaml:3:1: the benchmark has no queries: there is nothing to evaluate",
            "help: add queries under `queries`, each with `id`, `category`, `query`, `understanding` and `gold` (format: bench/README.md)",
        ]
    );
    assert!(out.stdout.is_empty(), "no report");
}

#[test]
fn a_benchmark_that_is_not_utf8_names_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    // `qé-1` written in Latin-1: the byte 0xE9 at line 4, column 10.
    let out = eval(&artifact, "latin-1.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/latin-1.yaml:4:10: the benchmark is not valid UTF-8 (first bad byte at offset 48)",
            "help: save the file as UTF-8",
        ]
    );
    assert!(out.stdout.is_empty(), "no report");
}

#[test]
fn a_plots_path_that_is_a_file_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let file = dir.path().join("plots");
    std::fs::write(&file, "not a folder").unwrap();
    let out = eval(
        &artifact,
        "../../../bench/smoke.yaml",
        &["--plots", file.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            format!(
                "error: --plots {}: the path exists and is not a folder",
                file.display()
            ),
            "help: pass a folder to --plots (it is created when missing)".to_string(),
        ]
    );
    assert!(out.stdout.is_empty(), "no report");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder");
}

#[test]
fn parser_budgets_are_said_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = smoke_artifact(dir.path());
    let help = "help: split the benchmark into smaller files, nest less deeply, or use fewer YAML anchors and aliases";
    // Nested YAML aliases that would expand to 10^9 items.
    let out = eval(&artifact, "alias-bomb.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/alias-bomb.yaml:15:18: not a valid benchmark: aliases expand to more than 200000 nodes (the alias expansion limit)",
            help,
        ]
    );
    let out = eval(&artifact, "too-deep.yaml", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_lines(&out),
        [
            "error: tests/fixtures/eval-bench/too-deep.yaml:3:265: not a valid benchmark: the file nests more than 255 levels deep (the YAML parser's nesting limit)",
            help,
        ]
    );
}
