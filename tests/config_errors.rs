//! A broken `schemarouter.toml` (issue 38, part 1): `check` reports it with its place and help
//! and exits 1, never checking the declarations with default settings in place of a file that
//! does not read; `compile` writes nothing; `route` and `search` refuse to read the project's
//! artifact with default settings (exit 2), and so do the other commands that read a project or
//! its artifact: `extract`, `eval`, the servers (`serve`, `mcp`, `gateway`, which never start)
//! and `import` (which writes nothing).

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn run(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .current_dir(cwd)
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A copy of the shipped project in a fresh folder, its tool folder named `tools`
/// (`[paths] schemas = "tools"`) when `tools` is set.
fn shipped_copy(tools: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in ["schemas", "intents", "aliases"] {
        let to = dir.path().join(if tools && sub == "schemas" {
            "tools"
        } else {
            sub
        });
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(root.join(sub)).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
    std::fs::copy(
        root.join("schemarouter.toml"),
        dir.path().join("schemarouter.toml"),
    )
    .unwrap();
    dir
}

fn append_config(dir: &Path, extra: &str) {
    let p = dir.join("schemarouter.toml");
    let mut t = std::fs::read_to_string(&p).unwrap();
    t.push_str(extra);
    std::fs::write(p, t).unwrap();
}

/// The finding lines of `check --format concise` (the summary and statistics left out).
fn finding_lines(o: &Output) -> Vec<String> {
    text(&o.stdout)
        .lines()
        .filter(|l| l.contains("]"))
        .filter(|l| !l.starts_with(' '))
        .map(str::to_string)
        .collect()
}

/// A TOML syntax error leaves no setting to go by: the file's own finding (place, help) and one
/// saying that nothing else was read, exit 1; never "not a schema project" (the project's
/// folders are named by the file that does not read) and never findings of default settings.
#[test]
fn a_config_that_is_not_toml_is_reported_and_nothing_else_is_checked() {
    let dir = shipped_copy(true);
    append_config(dir.path(), "\n[paths]\nschemas = \"tools\"\n[lint\n");
    let o = run(dir.path(), &["check", ".", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(
        finding_lines(&o),
        vec![
            "schemarouter.toml:14:6: error[SR001/parse-error] invalid TOML: unclosed table, expected `]` (help: fix the TOML syntax at this position)".to_string(),
            "<project>: info[SR012/checks-skipped] schemarouter.toml cannot be read; no declaration file was read or checked (help: fix schemarouter.toml and run `schemarouter check` again (declarations are never checked with default settings in place of a configuration that does not read))".to_string(),
        ]
    );
    assert!(
        text(&o.stdout).ends_with("Found 1 error, 0 warnings, 1 info.\n"),
        "{}",
        text(&o.stdout)
    );
    // The human form shows the span and the help.
    let o = run(dir.path(), &["check", "."]);
    assert_eq!(o.status.code(), Some(1));
    let human = text(&o.stdout);
    for want in [
        "× invalid TOML: unclosed table, expected `]`",
        "╭─[schemarouter.toml:14:6]",
        " 14 │ [lint",
        "help: fix the TOML syntax at this position",
    ] {
        assert!(human.contains(want), "{want:?} not in\n{human}");
    }
}

/// A setting of the wrong type is an error at its place; the settings that do read are kept
/// (`[paths] schemas = "tools"`), so the declarations are checked as configured, not with
/// default paths (before: 64 errors and 209 warnings about a `schemas/` folder that is not
/// there).
#[test]
fn a_setting_of_the_wrong_type_is_an_error_and_the_other_settings_are_kept() {
    let dir = shipped_copy(true);
    append_config(
        dir.path(),
        "\n[paths]\nschemas = \"tools\"\n\n[search]\ndense-weight = \"five\"\n",
    );
    let o = run(dir.path(), &["check", ".", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let lines = finding_lines(&o);
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains(": error[")).collect();
    assert_eq!(
        errors,
        vec![
            "schemarouter.toml:16:16: error[SR007/invalid-value] expected a number, found the string `five` (help: write a number, e.g. `1.5`)"
        ],
        "{lines:#?}"
    );
    assert!(
        text(&o.stdout).contains("Found 1 error, 3 warnings, 17 infos.\n"),
        "{}",
        text(&o.stdout)
    );
}

/// An unknown key (`[search] k`) is an error: `check` exits 1, `compile` refuses and writes
/// nothing (no folder, no temporary file; an earlier artifact is left as it was), and `route`
/// and `search` refuse to read the artifact compiled before the file broke (exit 2), naming
/// the file, the place and the help.
#[test]
fn an_unknown_key_fails_check_and_compile_and_stops_route_and_search() {
    let dir = shipped_copy(false);
    let p = dir.path();
    append_config(p, "\n[search]\nk = \"five\"\n");
    let o = run(p, &["check", ".", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        finding_lines(&o).contains(
            &"schemarouter.toml:13:1: error[SR006/unknown-key] unknown key `k` (help: expected one of: embeddings, dense-weight)".to_string()
        ),
        "{}",
        text(&o.stdout)
    );

    let o = run(p, &["compile", "."]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr)
            .contains("error: refusing to compile: `schemarouter check` found 1 error(s)\n"),
        "{}",
        text(&o.stderr)
    );
    assert!(!p.join("build").exists());

    // An artifact compiled while the file was good.
    let broken = std::fs::read_to_string(p.join("schemarouter.toml")).unwrap();
    let good = broken.replace("\n[search]\nk = \"five\"\n", "");
    std::fs::write(p.join("schemarouter.toml"), &good).unwrap();
    let o = run(p, &["compile", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let before = std::fs::read(p.join("build/graph.json")).unwrap();
    std::fs::write(p.join("schemarouter.toml"), &broken).unwrap();
    let o = run(p, &["compile", "."]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read(p.join("build/graph.json")).unwrap(), before);
    let mut names: Vec<String> = std::fs::read_dir(p.join("build"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["graph.json", "intent_prompt.txt"]);

    let refusal = "error: `schemarouter.toml` has 1 error(s); the artifact is not read with default settings in place of the faulty ones\n  schemarouter.toml:13:1: error[SR006/unknown-key] unknown key `k`\n    help: expected one of: embeddings, dense-weight\nhelp: fix the configuration (`schemarouter check .` shows every finding), then compile the project again\n";
    for args in [
        &["route", "band gap of GaN"][..],
        &["search", "band gap"][..],
        &["route", "--artifact", "build/graph.json", "band gap of GaN"][..],
    ] {
        let o = run(p, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&o.stdout), "", "{args:?}");
        assert_eq!(text(&o.stderr), refusal, "{args:?}");
    }
    // Fixed: they read it again.
    std::fs::write(p.join("schemarouter.toml"), &good).unwrap();
    let o = run(p, &["search", "band gap", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

/// [`run`] with stdin closed and a bound on the time: a server that starts in spite of the
/// broken file is killed after 60 s (and the test fails on its exit code), never left running.
fn run_bounded(cwd: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .current_dir(cwd)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// A copy of the shipped project compiled while its configuration was good, then broken by an
/// unknown key (`[search] k`, line 13).
fn compiled_then_broken() -> tempfile::TempDir {
    let dir = shipped_copy(false);
    let p = dir.path();
    let o = run(p, &["compile", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    append_config(p, "\n[search]\nk = \"five\"\n");
    dir
}

/// What every command that reads the artifact says of the broken file (stderr, whole).
const REFUSAL: &str = "error: `schemarouter.toml` has 1 error(s); the artifact is not read with default settings in place of the faulty ones\n  schemarouter.toml:13:1: error[SR006/unknown-key] unknown key `k`\n    help: expected one of: embeddings, dense-weight\nhelp: fix the configuration (`schemarouter check .` shows every finding), then compile the project again\n";

/// `args` run in `dir` exit 2 with [`REFUSAL`] as their whole stderr and nothing on stdout.
fn assert_refused(dir: &Path, args: &[&str]) {
    let o = run_bounded(dir, args);
    assert_eq!(
        (o.status.code(), text(&o.stdout), text(&o.stderr)),
        (Some(2), String::new(), REFUSAL.to_string()),
        "{args:?}"
    );
}

/// `serve` refuses to start with default settings in place of a broken `schemarouter.toml`:
/// exit 2, the diagnostic on stderr, no `listening` line; `--artifact` named or discovered.
#[test]
fn serve_refuses_to_start_on_a_broken_config() {
    let dir = compiled_then_broken();
    assert_refused(dir.path(), &["serve", "--bind", "127.0.0.1:0"]);
    assert_refused(
        dir.path(),
        &[
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            "build/graph.json",
        ],
    );
    // `--openapi` reads no project: it still prints the description.
    let o = run_bounded(dir.path(), &["serve", "--openapi"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

/// `mcp` (stdio and HTTP) refuses to start on a broken `schemarouter.toml`.
#[test]
fn mcp_refuses_to_start_on_a_broken_config() {
    let dir = compiled_then_broken();
    assert_refused(dir.path(), &["mcp"]);
    assert_refused(
        dir.path(),
        &["mcp", "--transport", "http", "--bind", "127.0.0.1:0"],
    );
}

/// `gateway` refuses to start on a broken `schemarouter.toml`: the one its artifact is read
/// with, and the one of the project `--project` names for its declarations (with an artifact
/// from elsewhere).
#[test]
fn gateway_refuses_to_start_on_a_broken_config() {
    let dir = compiled_then_broken();
    let p = dir.path();
    assert_refused(p, &["gateway"]);
    assert_refused(
        p,
        &["gateway", "--transport", "http", "--bind", "127.0.0.1:0"],
    );
    // An artifact no configuration is read with, beside a broken project named by `--project`.
    let elsewhere = tempfile::tempdir().unwrap();
    let artifact = elsewhere.path().join("graph.json");
    std::fs::copy(p.join("build/graph.json"), &artifact).unwrap();
    let o = run_bounded(
        p,
        &[
            "gateway",
            "--artifact",
            artifact.to_str().unwrap(),
            "--project",
            ".",
        ],
    );
    assert_eq!(
        (o.status.code(), text(&o.stdout), text(&o.stderr)),
        (
            Some(2),
            String::new(),
            "error: `schemarouter.toml` has 1 error(s); the project is not read with default settings in place of the faulty ones\n  schemarouter.toml:13:1: error[SR006/unknown-key] unknown key `k`\n    help: expected one of: embeddings, dense-weight\nhelp: fix the configuration (`schemarouter check .` shows every finding), then run the command again\n".to_string()
        )
    );
}

/// `eval` (and `eval scaling --artifact`) refuse the artifact of a broken `schemarouter.toml`
/// before reading the benchmark.
#[test]
fn eval_refuses_the_artifact_of_a_broken_config() {
    let dir = compiled_then_broken();
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/dev.yaml");
    assert_refused(dir.path(), &["eval", "--bench", bench.to_str().unwrap()]);
    assert_refused(
        dir.path(),
        &[
            "eval",
            "scaling",
            "--sizes",
            "10",
            "--artifact",
            "build/graph.json",
        ],
    );
}

/// `extract` refuses the artifact of a broken `schemarouter.toml` before reading the plan.
#[test]
fn extract_refuses_the_artifact_of_a_broken_config() {
    let dir = compiled_then_broken();
    std::fs::write(dir.path().join("plan.json"), "{}").unwrap();
    std::fs::write(dir.path().join("r.json"), "{}").unwrap();
    assert_refused(
        dir.path(),
        &["extract", "--plan", "plan.json", "--response", "1=r.json"],
    );
}

/// `import` into a project whose `schemarouter.toml` is broken writes nothing (it would write
/// where the default `[paths]` say, under the default `[limits]`): exit 2, the file's errors
/// named in the message.
#[test]
fn import_refuses_a_project_with_a_broken_config() {
    let dir = compiled_then_broken();
    let p = dir.path();
    let listing = |p: &Path| {
        let mut names: Vec<String> = walk(p);
        names.sort();
        names
    };
    let before = listing(p);
    let spec =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/petstore-3.0.yaml");
    let o = run_bounded(
        p,
        &[
            "import",
            "openapi",
            spec.to_str().unwrap(),
            "--project",
            ".",
        ],
    );
    assert_eq!(
        (o.status.code(), text(&o.stdout), text(&o.stderr)),
        (
            Some(2),
            String::new(),
            "error: `./schemarouter.toml` has 1 error(s) (13:1: unknown key `k`); an import does not write with default settings in place of the faulty ones\nhelp: fix the configuration (`schemarouter check .` shows every finding), then import again\n".to_string()
        )
    );
    assert_eq!(listing(p), before);
}

/// Every file under `dir`, relative to it.
fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out
}
