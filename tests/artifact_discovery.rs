//! Where `compile` writes and where the artifact readers look (issue 17, part 10): `compile PATH`
//! writes into `PATH/build` and prints the full paths; `route` (and `eval`, `extract`, `serve`,
//! `mcp`) without `--artifact` reads the newer of `build/graph.bin` and `build/graph.json` of the
//! project holding the working directory; `stats --format markdown` prints Markdown tables.

use std::path::Path;
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_schemarouter"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A copy of the shipped project in a fresh folder.
fn shipped_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        for e in std::fs::read_dir(root.join(sub)).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, dir.path().join(sub).join(p.file_name().unwrap())).unwrap();
        }
    }
    std::fs::copy(
        root.join("schemarouter.toml"),
        dir.path().join("schemarouter.toml"),
    )
    .unwrap();
    dir
}

fn route_in(cwd: &Path, extra: &[&str]) -> Output {
    bin()
        .current_dir(cwd)
        .args(["route", "--json", "band gap of GaN"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn compile_path_writes_into_path_build_and_prints_full_paths() {
    let project = shipped_copy();
    let elsewhere = tempfile::tempdir().unwrap();
    let out = bin()
        .current_dir(elsewhere.path())
        .arg("compile")
        .arg(project.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let build = std::path::absolute(project.path().join("build")).unwrap();
    let stdout = text(&out.stdout);
    let tail = format!(
        " -> {}, {}\n",
        build.join("graph.json").display(),
        build.join("intent_prompt.txt").display()
    );
    assert!(stdout.ends_with(&tail), "{stdout}");
    assert!(build.join("graph.json").is_file());
    assert!(build.join("intent_prompt.txt").is_file());
    // Nothing was written where the command ran.
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    // `--check` compares the same folder by default.
    let check = bin()
        .current_dir(elsewhere.path())
        .args(["compile", "--check"])
        .arg(project.path())
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    assert!(text(&check.stdout).starts_with("up to date: compiled materials-16 1.0.0"));
}

#[test]
fn route_finds_the_artifact_of_the_enclosing_project() {
    let project = shipped_copy();
    let status = bin()
        .args(["compile", "--format", "both"])
        .arg(project.path())
        .status()
        .unwrap();
    assert!(status.success());
    let at_root = route_in(project.path(), &[]);
    assert_eq!(at_root.status.code(), Some(0), "{}", text(&at_root.stderr));
    // From a subfolder the project root is found through `schemarouter.toml`.
    let nested = route_in(&project.path().join("schemas"), &[]);
    assert_eq!(nested.status.code(), Some(0), "{}", text(&nested.stderr));
    assert_eq!(at_root.stdout, nested.stdout);
    // The same plan as naming either form.
    let explicit = route_in(project.path(), &["--artifact", "build/graph.json"]);
    assert_eq!(explicit.stdout, at_root.stdout);
    let plan: serde_json::Value = serde_json::from_slice(&at_root.stdout).unwrap();
    assert_eq!(plan["plan"]["status"], "planned");
}

#[test]
fn route_without_an_artifact_names_what_it_looked_for() {
    let project = shipped_copy();
    let out = route_in(&project.path().join("intents"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let build = project.path().join("build");
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: no compiled artifact found (looked for `{}` and `{}`)\nhelp: compile the project first (`schemarouter compile {}`), or pass --artifact FILE\n",
            build.join("graph.bin").display(),
            build.join("graph.json").display(),
            project.path().display()
        )
    );
    // At the root the paths are relative.
    let out = route_in(project.path(), &[]);
    assert_eq!(
        text(&out.stderr),
        "error: no compiled artifact found (looked for `build/graph.bin` and `build/graph.json`)\nhelp: compile the project first (`schemarouter compile .`), or pass --artifact FILE\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn eval_and_extract_use_the_same_discovery() {
    let project = shipped_copy();
    let eval = bin()
        .current_dir(project.path())
        .args(["eval", "--bench", "missing.yaml"])
        .output()
        .unwrap();
    assert_eq!(eval.status.code(), Some(2));
    assert!(
        text(&eval.stderr).starts_with("error: no compiled artifact found"),
        "{}",
        text(&eval.stderr)
    );
    let extract = bin()
        .current_dir(project.path())
        .args(["extract", "--plan", "plan.json", "--response", "1=r.json"])
        .output()
        .unwrap();
    assert_eq!(extract.status.code(), Some(2));
    assert!(
        text(&extract.stderr).starts_with("error: no compiled artifact found"),
        "{}",
        text(&extract.stderr)
    );
}

#[test]
fn stats_markdown_is_two_tables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = bin()
        .args(["stats", "--format", "markdown"])
        .arg(root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let md = text(&out.stdout);
    assert!(
        md.starts_with("| node kind | count |\n|---|---:|\n| Domain | 6 |\n"),
        "{md}"
    );
    assert!(md.contains("| Tool | 16 |\n"), "{md}");
    assert!(
        md.ends_with(
            "\n\n| routing prompt | tokens (o200k_base) |\n|---|---:|\n| intent registry (ours) | 681 |\n| prompt-all (whole schema) | 13789 |\n| ratio | 20.2x |\n"
        ),
        "{md}"
    );
    let json = bin()
        .args(["stats", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["prompt_tokens"], 681);
    assert_eq!(v["nodes"]["Tool"], 16);
}
