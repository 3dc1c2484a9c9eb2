//! `schemarouter diff` against git revisions, on a temporary repository made in the test (init,
//! commit, modify, `diff git:HEAD~1 .`), plus the shipped inventory at the crate root diffed
//! against itself and against `git:HEAD`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_schemarouter")
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Diff Test",
            "-c",
            "user.email=diff@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn diff(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .arg("diff")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("schemarouter runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
}

fn base() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff/base")
}

fn remove_nsites(project: &Path) {
    let p = project.join("schemas/alpha.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    let edited = text.replace("      - name: nsites\n        type: integer\n", "");
    assert_ne!(text, edited);
    std::fs::write(&p, edited).unwrap();
}

/// A repository with the base project at its root and in `sub/`, committed twice: the second
/// commit removes a field in both.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    copy_dir(&base(), root);
    copy_dir(&base(), &root.join("sub"));
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    remove_nsites(root);
    remove_nsites(&root.join("sub"));
    git(root, &["commit", "-q", "-a", "-m", "remove nsites"]);
    dir
}

#[test]
fn diff_against_the_previous_commit() {
    let dir = repo();
    let root = dir.path();
    let status_before = git(root, &["status", "--porcelain"]);
    let o = diff(root, &["git:HEAD~1", "."]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("field-removed  tool/alpha/endpoint/summary/field/nsites"),
        "{out}"
    );
    assert!(out.contains("at old schemas/alpha.yaml:73:15"), "{out}");
    assert!(out.contains("1 breaking, 0 dangerous, 0 safe"), "{out}");
    // The working tree and the index are untouched.
    assert_eq!(git(root, &["status", "--porcelain"]), status_before);

    // Same revision and working tree: nothing.
    let o = diff(root, &["git:HEAD", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("No schema changes."));

    // Two revisions, no working tree at all.
    let o = diff(root, &["git:HEAD~1", "git:HEAD", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["breaking"], 1);
    assert_eq!(v["changes"][0]["code"], "field-removed");
    assert_eq!(
        v["changes"][0]["old_location"]["file"],
        "schemas/alpha.yaml"
    );
}

#[test]
fn diff_a_sub_folder_at_a_revision() {
    let dir = repo();
    let root = dir.path();
    let o = diff(root, &["git:HEAD~1:sub", "sub", "--format", "github"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // Annotations point at the new side's file, relative to the repository root.
    assert!(
        out.starts_with("::error file=sub/schemas/alpha.yaml,line=14,col=9,"),
        "{out}"
    );
    // From inside the sub-folder, `./` paths are relative to the current folder.
    let o = diff(&root.join("sub"), &["git:HEAD~1:./", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let o = diff(&root.join("sub"), &["git:HEAD:.", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn uncommitted_edits_show_against_head() {
    let dir = repo();
    let root = dir.path();
    let p = root.join("intents/registry.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        text.replace("- Fermi level of Si", "- Fermi level of silicon"),
    )
    .unwrap();
    let o = diff(root, &["git:HEAD", "."]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("examples-changed  intent/electronic_property"),
        "{out}"
    );
    let o = diff(root, &["git:HEAD", ".", "--fail-on", "none"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn bad_revisions_and_paths_are_usage_errors() {
    let dir = repo();
    let root = dir.path();
    for (args, message) in [
        (
            ["git:no-such-ref", "."],
            "error: git:no-such-ref: unknown git revision `no-such-ref`",
        ),
        (
            ["git:HEAD:nowhere", "."],
            "error: git:HEAD:nowhere: `nowhere` does not exist at `HEAD`",
        ),
        (
            ["git:HEAD:sub/intents/registry.yaml", "."],
            "is not a folder at `HEAD`",
        ),
        (["git:", "."], "names no revision"),
        // A folder that is no project is named by revision and path, never by the temporary
        // folder the revision's tree was written to.
        (
            ["git:HEAD:sub/schemas", "."],
            "error: git:HEAD:sub/schemas: `HEAD:sub/schemas` is not a schema project",
        ),
    ] {
        let o = diff(root, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    // Outside any repository.
    let plain = tempfile::tempdir().unwrap();
    copy_dir(&base(), plain.path());
    let o = diff(plain.path(), &["git:HEAD", "."]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("not inside a git repository"), "{err}");
}

/// The shipped inventory at the crate root: no changes against itself, against its compiled
/// artifact and against `git:HEAD`.
#[test]
fn shipped_inventory_has_no_changes_against_itself_and_head() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = diff(root, &[".", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("No schema changes."), "{}", stdout(&o));
    // The compiled artifact against the folder: the same schema.
    let o = diff(root, &["build/graph.json", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("No schema changes."), "{}", stdout(&o));
    // Needs the crate's git checkout (skipped when the sources are not a repository).
    if Command::new("git")
        .args(["rev-parse", "--verify", "-q", "HEAD"])
        .current_dir(root)
        .output()
        .is_ok_and(|o| o.status.success())
    {
        let o = diff(root, &["git:HEAD", ".", "--format", "json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            v["changes"],
            serde_json::json!([]),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(0));
    }
}
