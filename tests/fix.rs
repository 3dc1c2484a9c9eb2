//! `check --fix`, `--unsafe-fixes`, `--diff` and `--add-suppressions` on real files, YAML and
//! TOML, whose comments, key order and formatting must survive the edits.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], cwd: &Path) -> Run {
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// The shipped YAML fixture with fixable findings written in: a YAML 1.1 boolean, a repeated
/// enum value, an unused suppression and a licence id in lower case, each near a comment.
fn yaml_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("tests/fixtures/valid-yaml"), dir.path());
    let p = dir.path().join("schemas/mp.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    let text = text
        .replace(
            "      - name: formula\n        type: string\n",
            "      - name: formula\n        type: string\n        description: yes  # kept comment\n        enum: [a, b, a]  # kept too\n        default: a\n",
        )
        .replace(
            "    fields:\n",
            "    # schemarouter: allow(missing-unit) -- nothing here any more\n    fields:\n",
        )
        .replace("  spdx: CC-BY-4.0\n", "  spdx: cc-by-4.0 # lower case\n");
    std::fs::write(&p, text).unwrap();
    dir
}

/// The shipped TOML fixture with a repeated enum value, a lower-case licence id and an unused
/// suppression next to comments.
fn toml_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("tests/fixtures/valid-toml"), dir.path());
    let p = dir.path().join("schemas/mp.toml");
    let text = std::fs::read_to_string(&p).unwrap();
    let text = text
        .replace(
            "name = \"formula\"\ntype = \"string\"\n",
            "name = \"formula\"\ntype = \"string\"\n# values as published\nenum = [\"a\", \"b\", \"a\"]\n",
        )
        .replace(
            "spdx = \"CC-BY-4.0\"\n",
            "# lower case id\nspdx = \"cc-by-4.0\"  # schemarouter: allow(missing-unit, unit-conflict) -- old\n",
        );
    std::fs::write(&p, text).unwrap();
    dir
}

fn read(dir: &Path, path: &str) -> String {
    std::fs::read_to_string(dir.join(path)).unwrap()
}

#[test]
fn fix_edits_yaml_in_place_keeping_comments_and_a_second_run_changes_nothing() {
    let dir = yaml_project();
    let before = read(dir.path(), "schemas/mp.yaml");
    let r = run(&["check", ".", "--format", "concise"], dir.path());
    assert_eq!(r.stdout.matches("[SR").count(), 4, "{}", r.stdout);
    let r = run(&["check", ".", "--fix", "--format", "concise"], dir.path());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout, "No problems found.\n");
    assert_eq!(r.stderr, "4 fixed in 1 file(s) (0 remaining)\n");
    let want = before
        .replace(
            "description: yes  # kept comment",
            "description: \"yes\"  # kept comment",
        )
        .replace("enum: [a, b, a]  # kept too", "enum: [a, b]  # kept too")
        .replace(
            "    # schemarouter: allow(missing-unit) -- nothing here any more\n",
            "",
        )
        .replace(
            "spdx: cc-by-4.0 # lower case",
            "spdx: CC-BY-4.0 # lower case",
        );
    assert_eq!(read(dir.path(), "schemas/mp.yaml"), want);
    let r = run(&["check", ".", "--fix"], dir.path());
    assert_eq!(r.stderr, "0 fixed in 0 file(s) (0 remaining)\n");
    assert_eq!(read(dir.path(), "schemas/mp.yaml"), want);
}

#[test]
fn fix_edits_toml_in_place_keeping_comments() {
    let dir = toml_project();
    let before = read(dir.path(), "schemas/mp.toml");
    let r = run(&["check", ".", "--fix", "--format", "concise"], dir.path());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stderr, "4 fixed in 1 file(s) (0 remaining)\n",
        "{}",
        r.stdout
    );
    let want = before
        .replace("enum = [\"a\", \"b\", \"a\"]", "enum = [\"a\", \"b\"]")
        .replace(
            "spdx = \"cc-by-4.0\"  # schemarouter: allow(missing-unit, unit-conflict) -- old\n",
            "spdx = \"CC-BY-4.0\"\n",
        );
    assert_eq!(read(dir.path(), "schemas/mp.toml"), want);
    let r = run(&["check", ".", "--fix"], dir.path());
    assert_eq!(r.stderr, "0 fixed in 0 file(s) (0 remaining)\n");
}

#[test]
fn diff_previews_without_writing_and_exits_1() {
    let dir = yaml_project();
    let before = read(dir.path(), "schemas/mp.yaml");
    let r = run(&["check", ".", "--diff"], dir.path());
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stderr, "4 would be fixed in 1 file(s) (0 remaining)\n");
    assert_eq!(read(dir.path(), "schemas/mp.yaml"), before);
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(true);
    settings.bind(|| insta::assert_snapshot!("fix_diff_yaml", r.stdout));
    let r = run(&["check", ".", "--diff"], toml_project().path());
    assert_eq!(r.code, 1);
    settings.bind(|| insta::assert_snapshot!("fix_diff_toml", r.stdout));
    // Nothing to fix: an empty diff and exit 0.
    let clean = tempfile::tempdir().unwrap();
    copy_dir(&root().join("tests/fixtures/valid-yaml"), clean.path());
    let r = run(&["check", ".", "--diff"], clean.path());
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
}

#[test]
fn add_suppressions_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("tests/fixtures/valid-yaml"), dir.path());
    let p = dir.path().join("schemas/mp.yaml");
    let text = read(dir.path(), "schemas/mp.yaml");
    // A field without its unit (missing-unit) and a YAML 1.1 boolean in a block list item.
    let text = text.replace(
        "        type: number\n        unit: eV\n",
        "        type: number  # unit?\n",
    );
    assert!(text.contains("# unit?"));
    std::fs::write(&p, text.replace("names: [MP]\n", "names: [MP, on]\n")).unwrap();
    let r = run(&["check", ".", "--format", "concise"], dir.path());
    assert_eq!(r.stdout.matches("[SR").count(), 2, "{}", r.stdout);
    let r = run(
        &[
            "check",
            ".",
            "--add-suppressions",
            "imported; reviewed in #12",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout, "No problems found.\n");
    assert_eq!(r.stderr, "2 suppressed in 1 file(s) (0 remaining)\n");
    let after = read(dir.path(), "schemas/mp.yaml");
    assert!(after.contains(
        "# schemarouter: allow(yaml11-boolean) -- imported; reviewed in #12\nnames: [MP, on]\n"
    ));
    assert!(after.contains(
        "      # schemarouter: allow(missing-unit) -- imported; reviewed in #12\n      - name: band_gap\n"
    ));
    let r = run(&["check", ".", "--add-suppressions", "again"], dir.path());
    assert_eq!(r.stderr, "0 suppressed in 0 file(s) (0 remaining)\n");
    assert_eq!(read(dir.path(), "schemas/mp.yaml"), after);
    let r = run(&["check", "."], dir.path());
    assert_eq!((r.code, r.stdout.as_str()), (0, "No problems found.\n"));
    // A reason is required.
    let r = run(&["check", ".", "--add-suppressions", " "], dir.path());
    assert_eq!(r.code, 2);
}

#[test]
fn unsafe_fixes_apply_only_with_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("tests/fixtures/valid-yaml"), dir.path());
    let p = dir.path().join("schemas/mp.yaml");
    let text =
        read(dir.path(), "schemas/mp.yaml").replace("  spdx: CC-BY-4.0\n", "  spdx: GPLv3\n");
    std::fs::write(&p, &text).unwrap();
    let r = run(&["check", ".", "--fix", "--format", "concise"], dir.path());
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "0 fixed in 0 file(s) (1 remaining)\n");
    assert_eq!(read(dir.path(), "schemas/mp.yaml"), text);
    let r = run(
        &["check", ".", "--unsafe-fixes", "--format", "concise"],
        dir.path(),
    );
    assert_eq!(
        r.stderr, "1 fixed in 1 file(s) (0 remaining)\n",
        "{}",
        r.stdout
    );
    assert_eq!(
        read(dir.path(), "schemas/mp.yaml"),
        text.replace("spdx: GPLv3\n", "spdx: GPL-3.0-only\n")
    );
}

/// Every file of the project under `dir`, by path relative to it, with its bytes.
fn snapshot_files(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.insert(p.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    out
}

/// `tests/fixtures/fix-breaks-loading`: a safe fix (quote a YAML 1.1 boolean) would push its
/// file past `[limits] max-file-bytes`, so the file would no longer load. `check --fix` (and
/// `--unsafe-fixes`) leave every file byte-identical, say which file was left and which error the
/// fix would bring, and report the finding as still there; `--diff` shows no change.
#[test]
fn a_fix_that_would_break_loading_is_rolled_back_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("tests/fixtures/fix-breaks-loading"),
        dir.path(),
    );
    let before = snapshot_files(dir.path());
    let r = run(&["check", ".", "--format", "concise"], dir.path());
    assert_eq!(r.stdout.matches("[SR").count(), 1, "{}", r.stdout);
    assert!(r.stdout.contains("SR016"), "{}", r.stdout);
    let size = before[Path::new("schemas/mp.yaml")].len();
    let why = format!(
        "warning: left `schemas/mp.yaml` as it was: its fixes would bring error SR009 in `schemas/mp.yaml`: `schemas/mp.yaml` is {} bytes, larger than the limit of {size} bytes\n",
        size + 2
    );
    for flag in ["--fix", "--unsafe-fixes"] {
        let r = run(&["check", ".", flag, "--format", "concise"], dir.path());
        // The remaining finding is a warning: exit 0 at the default `--fail-level error`.
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        assert_eq!(
            r.stderr,
            format!("{why}0 fixed in 0 file(s) (1 remaining)\n"),
            "{flag}"
        );
        assert!(r.stdout.contains("SR016"), "{}", r.stdout);
        assert_eq!(snapshot_files(dir.path()), before, "{flag} wrote a file");
    }
    let r = run(&["check", ".", "--diff"], dir.path());
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    assert_eq!(
        r.stderr,
        format!("{why}0 would be fixed in 0 file(s) (1 remaining)\n")
    );
    assert_eq!(snapshot_files(dir.path()), before);
}
