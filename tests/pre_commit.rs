//! `.pre-commit-hooks.yaml`, tried with `pre-commit try-repo` (PyPI's pre-commit; .ci/run
//! installs it into the CI virtual environment): the hook checks the project when a declaration
//! file changed, fails on a finding, and is skipped when no declaration file changed. The
//! `schemarouter-check-system` hook is run (the binary under test on PATH); the
//! `schemarouter-check` hook, which builds this repository with cargo, must declare the same
//! command and files. Without pre-commit the test fails under CI=true and is skipped locally.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// pre-commit from `SCHEMAROUTER_TEST_PRE_COMMIT`, the CI virtual environment or PATH.
fn pre_commit() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SCHEMAROUTER_TEST_PRE_COMMIT") {
        return Some(PathBuf::from(p));
    }
    let venv = root().join(".venv/bin/pre-commit");
    if venv.exists() {
        return Some(venv);
    }
    Command::new("pre-commit")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| PathBuf::from("pre-commit"))
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Hook Test",
            "-c",
            "user.email=hook@example.invalid",
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
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn both_hooks_declare_the_same_check() {
    let text = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let hooks: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    let hooks = hooks.as_array().unwrap();
    let ids: Vec<&str> = hooks.iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["schemarouter-check", "schemarouter-check-system"]);
    assert_eq!(hooks[0]["language"], "rust");
    assert_eq!(hooks[1]["language"], "system");
    for key in ["entry", "files", "pass_filenames"] {
        assert_eq!(hooks[0][key], hooks[1][key], "{key}");
    }
}

struct Tried {
    code: i32,
    out: String,
}

fn try_repo(pre_commit: &Path, hooks: &Path, repo: &Path, home: &Path, files: &[&str]) -> Tried {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_schemarouter"))
        .parent()
        .unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let o = Command::new(pre_commit)
        .args([
            "try-repo",
            hooks.to_str().unwrap(),
            "schemarouter-check-system",
            "--files",
        ])
        .args(files)
        .current_dir(repo)
        .env("PATH", path)
        .env("PRE_COMMIT_HOME", home)
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    Tried {
        code: o.status.code().unwrap_or(-1),
        out: format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    }
}

#[test]
#[ignore = "needs pre-commit in .venv (.ci/run): run with --include-ignored"]
fn try_repo_checks_the_project_when_declarations_change() {
    let Some(pc) = pre_commit() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "pre-commit is missing: .ci/run installs it into .venv (pip install pre-commit)"
        );
        eprintln!(
            "skipped: pre-commit is not installed (pip install pre-commit, or set SCHEMAROUTER_TEST_PRE_COMMIT)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let home = dir.path().join("pre-commit-home");
    // The hooks repository: this repository's manifest, committed (pre-commit reads the
    // manifest of a commit; this checkout's may not be committed yet).
    let hooks = dir.path().join("hooks");
    std::fs::create_dir(&hooks).unwrap();
    std::fs::copy(
        root().join(".pre-commit-hooks.yaml"),
        hooks.join(".pre-commit-hooks.yaml"),
    )
    .unwrap();
    git(&hooks, &["init", "-q"]);
    git(&hooks, &["add", "."]);
    git(&hooks, &["commit", "-q", "-m", "hooks"]);
    copy_dir(&root().join("tests/fixtures/valid-yaml"), &repo);
    std::fs::write(repo.join("README.md"), "notes\n").unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "clean"]);
    let tool = std::fs::read_dir(repo.join("schemas"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "yaml"))
        .unwrap();
    let tool_rel = format!("schemas/{}", tool.file_name().unwrap().to_string_lossy());

    let clean = try_repo(&pc, &hooks, &repo, &home, &[&tool_rel]);
    assert_eq!(clean.code, 0, "{}", clean.out);
    assert!(clean.out.contains("schemarouter check"), "{}", clean.out);
    assert!(clean.out.contains("Passed"), "{}", clean.out);

    // An unknown key in a tool file fails the hook with the finding.
    let text = std::fs::read_to_string(&tool).unwrap();
    std::fs::write(&tool, format!("{text}colour: blue\n")).unwrap();
    git(&repo, &["add", "."]);
    let broken = try_repo(&pc, &hooks, &repo, &home, &[&tool_rel]);
    assert_eq!(broken.code, 1, "{}", broken.out);
    assert!(broken.out.contains("Failed"), "{}", broken.out);
    assert!(
        broken.out.contains(&format!("{tool_rel}:"))
            && broken
                .out
                .contains("error[SR006/unknown-key] unknown key `colour`"),
        "{}",
        broken.out
    );
    // No declaration file among the changed ones: the hook does not run.
    let other = try_repo(&pc, &hooks, &repo, &home, &["README.md"]);
    assert_eq!(other.code, 0, "{}", other.out);
    assert!(
        other.out.contains("(no files to check)Skipped"),
        "{}",
        other.out
    );
}
