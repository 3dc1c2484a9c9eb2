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
            "\n\n| routing prompt | tokens (o200k_base) |\n|---|---:|\n| intent registry (ours) | 688 |\n| prompt-all (whole schema) | 13844 |\n| ratio | 20.1x |\n"
        ),
        "{md}"
    );
    let json = bin()
        .args(["stats", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["prompt_tokens"], 688);
    assert_eq!(v["nodes"]["Tool"], 16);
}

#[test]
fn an_overlong_question_is_a_usage_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let q = "band gap of GaN ".repeat(700);
    let out = bin()
        .current_dir(root)
        .args(["route", "--artifact", "build/graph.json", &q])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: the query is 11200 characters long; `route` takes one question of at most 10000 characters\nhelp: ask one question at a time (a routed question is a sentence or two, not a document)\n"
    );
}

/// The shipped project without its `schemarouter.toml`.
fn copy_without_config() -> tempfile::TempDir {
    let dir = shipped_copy();
    std::fs::remove_file(dir.path().join("schemarouter.toml")).unwrap();
    dir
}

#[test]
fn without_a_config_the_folder_with_schemas_and_intents_is_the_project() {
    let project = copy_without_config();
    let status = bin()
        .args(["compile"])
        .arg(project.path())
        .status()
        .unwrap();
    assert!(status.success());
    let at_root = route_in(project.path(), &[]);
    assert_eq!(at_root.status.code(), Some(0), "{}", text(&at_root.stderr));
    let nested = route_in(&project.path().join("schemas"), &[]);
    assert_eq!(nested.status.code(), Some(0), "{}", text(&nested.stderr));
    assert_eq!(at_root.stdout, nested.stdout);
    // Only `aliases/` beside `schemas/` does as well.
    std::fs::remove_dir_all(project.path().join("intents")).unwrap();
    let aliases_only = route_in(&project.path().join("aliases"), &[]);
    assert_eq!(aliases_only.status.code(), Some(0));
    assert_eq!(aliases_only.stdout, at_root.stdout);
}

#[test]
fn outside_any_project_the_error_names_the_folders_searched() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("a/b");
    std::fs::create_dir_all(&deep).unwrap();
    // A `schemas/` folder alone does not make a project.
    std::fs::create_dir_all(dir.path().join("a/schemas")).unwrap();
    let out = route_in(&deep, &[]);
    assert_eq!(out.status.code(), Some(2));
    let searched: Vec<String> = deep
        .ancestors()
        .map(|a| format!("`{}`", a.display()))
        .collect();
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: no compiled artifact found: no folder holds `schemarouter.toml` or a `schemas/` folder beside `intents/` or `aliases/` (searched {}), and there is no `build/graph.bin` or `build/graph.json` here\nhelp: pass --artifact FILE, or run `schemarouter compile PROJECT` (it writes PROJECT/build/graph.json) and run this command inside PROJECT\n",
            searched.join(", ")
        )
    );
    // A folder holding only a deployed artifact is still served from its own `build/`.
    std::fs::create_dir_all(deep.join("build")).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("build/graph.json"), deep.join("build/graph.json")).unwrap();
    let out = route_in(&deep, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn check_compile_and_stats_outside_a_project_say_what_a_project_holds() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in ["check", "compile", "stats"] {
        let out = bin().current_dir(dir.path()).arg(cmd).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        assert_eq!(
            text(&out.stderr),
            "error: `.` is not a schema project: it has none of the folders `schemas/`, `intents/` and `aliases/`\nhelp: a schema project is a folder holding `schemas/` (tool declarations, .yaml or .toml), usually `intents/` and `aliases/`, and optionally `schemarouter.toml`\n",
            "{cmd}"
        );
    }
}

#[test]
fn check_compile_and_stats_in_a_subfolder_name_the_project() {
    let project = shipped_copy();
    let deep = project.path().join("schemas/drafts");
    std::fs::create_dir_all(&deep).unwrap();
    for cmd in ["check", "compile", "stats"] {
        let out = bin().current_dir(&deep).arg(cmd).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: `.` is not a schema project: it has none of the folders `schemas/`, `intents/` and `aliases/`\nhelp: `.` lies inside the schema project `../..`: run `schemarouter {cmd} ../..`\n"
            ),
            "{cmd}"
        );
    }
    // The same without the configuration file (the folders make the project).
    std::fs::remove_file(project.path().join("schemarouter.toml")).unwrap();
    let out = bin()
        .current_dir(project.path())
        .args(["check", "aliases"])
        .output()
        .unwrap();
    assert_eq!(
        text(&out.stderr),
        "error: `aliases` is not a schema project: it has none of the folders `schemas/`, `intents/` and `aliases/`\nhelp: `aliases` lies inside the schema project `.`: run `schemarouter check .`\n"
    );
}

#[test]
fn compile_says_when_it_removes_the_other_form_and_check_lists_what_it_verified() {
    let project = shipped_copy();
    let build = std::path::absolute(project.path().join("build")).unwrap();
    let run = |args: &[&str]| {
        bin()
            .current_dir(project.path())
            .args(args)
            .output()
            .unwrap()
    };
    let both = run(&["compile", "--format", "both"]);
    assert_eq!(both.status.code(), Some(0), "{}", text(&both.stderr));
    assert!(
        !text(&both.stderr).contains("removed"),
        "{}",
        text(&both.stderr)
    );
    // `--check` of the JSON form verifies the binary form beside it as well.
    let check = run(&["compile", "--check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    let listed = format!(
        "; verified {}, {}, {}\n",
        build.join("graph.json").display(),
        build.join("intent_prompt.txt").display(),
        build.join("graph.bin").display()
    );
    assert!(text(&check.stdout).starts_with("up to date: compiled materials-16 1.0.0: 16 tools"));
    assert!(
        text(&check.stdout).ends_with(&listed),
        "{}",
        text(&check.stdout)
    );
    // Compiling one form removes the other, and says so.
    let json = run(&["compile"]);
    assert_eq!(json.status.code(), Some(0));
    assert!(
        text(&json.stderr).ends_with(
            "note: removed stale build/graph.bin (the other artifact form; readers would otherwise pick the newer of the two)\n"
        ),
        "{}",
        text(&json.stderr)
    );
    assert!(!build.join("graph.bin").exists());
    let bin_only = run(&["compile", "--format", "bin"]);
    assert!(
        text(&bin_only.stderr).ends_with(
            "note: removed stale build/graph.json (the other artifact form; readers would otherwise pick the newer of the two)\n"
        ),
        "{}",
        text(&bin_only.stderr)
    );
    let check = run(&["compile", "--check", "--format", "bin"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    assert!(
        text(&check.stdout).ends_with(&format!(
            "; verified {}, {}\n",
            build.join("graph.bin").display(),
            build.join("intent_prompt.txt").display()
        )),
        "{}",
        text(&check.stdout)
    );
    // A stale file: exit 1, the command to run as help.
    std::fs::write(build.join("intent_prompt.txt"), "old\n").unwrap();
    let stale = run(&["compile", "--check", "--format", "bin"]);
    assert_eq!(stale.status.code(), Some(1));
    let err = text(&stale.stderr);
    let (note, rest) = err.split_once('\n').unwrap();
    assert!(note.starts_with("note: check found "), "{err}");
    assert_eq!(
        rest,
        "stale: build/intent_prompt.txt differs from the sources\nerror: the committed artifact does not match the sources\nhelp: run `schemarouter compile . --out build --format bin` and commit the result\n"
    );
}

/// The command `compile --check` gives to rewrite stale files repeats every option that changes
/// the bytes written: `--pretty` as well as `--format`.
#[test]
fn compile_check_help_repeats_every_option_that_changes_the_written_bytes() {
    let project = shipped_copy();
    let run = |args: &[&str]| {
        bin()
            .current_dir(project.path())
            .args(args)
            .output()
            .unwrap()
    };
    for (options, hint) in [
        (&["--pretty"][..], "--pretty"),
        (
            &["--format", "both", "--pretty"][..],
            "--format both --pretty",
        ),
        (&["--format", "both"][..], "--format both"),
    ] {
        let write = run(&[&["compile", ".", "--out", "chk"][..], options].concat());
        assert_eq!(write.status.code(), Some(0), "{}", text(&write.stderr));
        std::fs::write(project.path().join("chk/intent_prompt.txt"), "edited\n").unwrap();
        let check = run(&[&["compile", ".", "--out", "chk", "--check"][..], options].concat());
        assert_eq!(check.status.code(), Some(1), "{}", text(&check.stderr));
        let err = text(&check.stderr);
        assert!(
            err.ends_with(&format!(
                "stale: chk/intent_prompt.txt differs from the sources\nerror: the committed artifact does not match the sources\nhelp: run `schemarouter compile . --out chk {hint}` and commit the result\n"
            )),
            "{options:?}: {err}"
        );
        // The command given writes what `--check` then finds current.
        let again = run(&[&["compile", ".", "--out", "chk"][..], options].concat());
        assert_eq!(again.status.code(), Some(0));
        let check = run(&[&["compile", ".", "--out", "chk", "--check"][..], options].concat());
        assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    }
}

#[test]
fn compile_with_out_naming_a_file_exits_2_and_writes_nothing() {
    let project = shipped_copy();
    let file = project.path().join("afile");
    std::fs::write(&file, "keep me\n").unwrap();
    for check in [false, true] {
        let mut cmd = bin();
        cmd.current_dir(project.path())
            .args(["compile", "--out", "afile"]);
        if check {
            cmd.arg("--check");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        let verb = if check { "compared" } else { "written" };
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: `afile` exists and is not a folder; nothing was {verb}\nhelp: pass a folder to --out (it is created when missing)\n"
            )
        );
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me\n");
    assert!(!project.path().join("build").exists());
}

/// A copy of the `route-mini` fixture project in a temporary folder.
fn mini_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let proj = dir.path();
    for sub in ["schemas", "aliases", "intents"] {
        std::fs::create_dir_all(proj.join(sub)).unwrap();
        for e in std::fs::read_dir(Path::new("tests/fixtures/route-mini").join(sub)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), proj.join(sub).join(e.file_name())).unwrap();
        }
    }
    std::fs::copy(
        "tests/fixtures/route-mini/schemarouter.toml",
        proj.join("schemarouter.toml"),
    )
    .unwrap();
    dir
}

/// Issue 38: `compile --format bin` in a project whose `build/graph.json` git tracks keeps that
/// file current instead of deleting it (and says so); `--check` then verifies both forms.
#[test]
fn a_tracked_artifact_of_the_other_form_is_kept_current_not_removed() {
    let dir = mini_copy();
    let proj = dir.path();
    let sr = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_schemarouter"))
            .current_dir(proj)
            .args(args)
            .output()
            .unwrap()
    };
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .args(["-c", "user.name=T", "-c", "user.email=t@example.invalid"])
            .args([
                "-c",
                "commit.gpgsign=false",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(proj)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    assert_eq!(sr(&["compile", "."]).status.code(), Some(0));
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "project and build"]);
    let bin = sr(&["compile", ".", "--format", "bin"]);
    assert_eq!(bin.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&bin.stderr).ends_with(
            "note: also wrote build/graph.json (the other artifact form): git tracks it, so it is kept current rather than removed; pass `--format both` to ask for it, or `git rm` it to stop\n"
        ),
        "{}",
        String::from_utf8_lossy(&bin.stderr)
    );
    assert!(proj.join("build/graph.json").is_file());
    assert!(proj.join("build/graph.bin").is_file());
    let check = sr(&["compile", ".", "--check", "--format", "bin"]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

/// Issue 38: a compile refused because a file does not load shows, beside the errors, the note
/// `check` shows of the checks that were skipped.
#[test]
fn a_refused_compile_shows_the_checks_skipped_note() {
    let dir = mini_copy();
    let proj = dir.path();
    std::fs::write(proj.join("schemas/bad.yaml"), "id: bad\ntitle: [unclosed\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .current_dir(proj)
        .args(["compile", "."])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("SR001(parse-error)"), "{err}");
    assert!(
        err.contains(
            "SR012(checks-skipped)\n\n  ☞ some declaration files could not be read; skipped:"
        ),
        "{err}"
    );
    assert!(
        err.ends_with("error: refusing to compile: `schemarouter check` found 1 error(s)\nhelp: fix the errors above (`schemarouter check .` shows every finding), then run `schemarouter compile` again\n"),
        "{err}"
    );
}
