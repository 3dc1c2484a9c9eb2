//! A broken `schemarouter.toml` (issue 38, part 1): `check` reports it with its place and help
//! and exits 1, never checking the declarations with default settings in place of a file that
//! does not read; `compile` writes nothing; `route` and `search` refuse to read the project's
//! artifact with default settings (exit 2).

use std::path::Path;
use std::process::{Command, Output};

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
