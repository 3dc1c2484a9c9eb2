//! The GitHub Action (`action.yml`, composite): its steps run `action/run.sh MODE` with the
//! inputs as environment variables. These tests check that the action file and the script agree,
//! and run the script the way the action runs it on a temporary git repository holding a pull
//! request with breaking changes and a check error.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_schemarouter")
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Action Test",
            "-c",
            "user.email=action@example.invalid",
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
    String::from_utf8_lossy(&out.stdout).trim().to_string()
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
fn the_action_runs_the_modes_of_its_script() {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let action: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    let script = std::fs::read_to_string(root().join("action/run.sh")).unwrap();
    assert_eq!(action["runs"]["using"], "composite");
    let inputs = action["inputs"].as_object().unwrap();
    let steps = action["runs"]["steps"].as_array().unwrap();
    let mut modes = Vec::new();
    for step in steps {
        if let Some(run) = step["run"].as_str() {
            assert_eq!(step["shell"], "bash", "{step}");
            let mode = run
                .strip_prefix("\"$GITHUB_ACTION_PATH/action/run.sh\" ")
                .unwrap_or_else(|| panic!("{run}"));
            assert!(script.contains(&format!("\n{mode})\n")), "{mode}");
            modes.push(mode.to_string());
        }
        // Every variable the step sets is documented in the script, every input it reads is
        // declared.
        for (var, value) in step["env"].as_object().into_iter().flatten() {
            assert!(script.contains(var.as_str()), "{var}");
            let value = value.as_str().unwrap();
            if let Some(name) = value.strip_prefix("${{ inputs.") {
                let name = name.trim_end_matches(" }}");
                assert!(inputs.contains_key(name), "{name}");
            }
        }
    }
    assert_eq!(modes, ["install", "check", "diff", "gate"]);
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
        })
        .expect("a SARIF upload step");
    assert_eq!(
        upload["with"]["sarif_file"],
        "${{ steps.check.outputs.sarif }}"
    );
    // The script is executable, as the action runs it directly.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(root().join("action/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111);
    }
}

/// A repository whose `main` holds `proj` as tests/fixtures/diff/pr/old and whose working tree
/// (the pull request) holds pr/new: four breaking changes, two dangerous, one check error.
fn pull_request() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q"]);
    copy_dir(&root().join("tests/fixtures/diff/pr/old"), &d.join("proj"));
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "base"]);
    let base = git(d, &["rev-parse", "HEAD"]);
    std::fs::remove_dir_all(d.join("proj")).unwrap();
    copy_dir(&root().join("tests/fixtures/diff/pr/new"), &d.join("proj"));
    (dir, base)
}

struct Step {
    code: i32,
    stdout: String,
    output: String,
    summary: String,
}

/// Run one step as action.yml does: `"$GITHUB_ACTION_PATH/action/run.sh" MODE` under bash, in
/// the repository, with GitHub's files and the step's variables.
fn step(repo: &Path, mode: &str, env: &[(&str, &str)]) -> Step {
    let output = repo.join("github_output");
    let summary = repo.join("step_summary");
    let _ = std::fs::remove_file(&output);
    let _ = std::fs::remove_file(&summary);
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!("\"$GITHUB_ACTION_PATH/action/run.sh\" {mode}"))
        .current_dir(repo)
        .env("GITHUB_ACTION_PATH", root())
        .env("GITHUB_OUTPUT", &output)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("SR_BIN", bin())
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    Step {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        output: std::fs::read_to_string(&output).unwrap_or_default(),
        summary: std::fs::read_to_string(&summary).unwrap_or_default(),
    }
}

#[test]
fn check_writes_annotations_sarif_and_its_exit_code() {
    let (dir, _) = pull_request();
    let d = dir.path();
    let s = step(
        d,
        "check",
        &[("SR_PATH", "proj"), ("SR_SARIF", "out.sarif")],
    );
    // The step itself passes: the gate decides.
    assert_eq!(s.code, 0, "{}", s.stdout);
    assert_eq!(s.output, "check-exit=1\nsarif=out.sarif\n");
    let errors: Vec<&str> = s
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error "))
        .collect();
    assert_eq!(errors.len(), 1, "{}", s.stdout);
    assert!(errors[0].starts_with("::error file=proj/"), "{}", errors[0]);
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("out.sarif")).unwrap()).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(
        results.len(),
        s.stdout.lines().filter(|l| l.starts_with("::")).count()
    );
    assert!(
        results
            .iter()
            .all(|r| r["partialFingerprints"]["schemarouter/v1"].is_string())
    );
    assert!(
        s.summary.starts_with("### schemarouter check\n\n```\n"),
        "{}",
        s.summary
    );

    // Recorded in a baseline, the finding no longer fails the check.
    let w = Command::new(bin())
        .args(["check", "proj", "--write-baseline", "base.json"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(w.status.success());
    let s = step(
        d,
        "check",
        &[("SR_PATH", "proj"), ("SR_BASELINE", "base.json")],
    );
    assert_eq!(s.output, "check-exit=0\nsarif=schemarouter.sarif\n");
    assert!(!s.stdout.contains("::error"), "{}", s.stdout);
}

#[test]
fn diff_gates_the_pull_request_with_fail_on() {
    let (dir, base) = pull_request();
    let d = dir.path();
    let env = |fail_on: &'static str| {
        vec![
            ("SR_PATH", "proj"),
            ("SR_BASE_SHA", base.as_str()),
            ("SR_FAIL_ON", fail_on),
        ]
    };
    let s = step(d, "diff", &env("breaking"));
    assert_eq!(s.code, 0);
    assert_eq!(s.output, "diff-exit=1\n");
    assert_eq!(
        s.stdout
            .lines()
            .filter(|l| l.starts_with("::error "))
            .count(),
        4,
        "{}",
        s.stdout
    );
    assert!(s.summary.contains("breaking"), "{}", s.summary);
    // A gate that does not fail writes no `::error`.
    let s = step(d, "diff", &env("none"));
    assert_eq!(s.output, "diff-exit=0\n");
    assert!(!s.stdout.contains("::error"), "{}", s.stdout);
    assert_eq!(
        s.stdout
            .lines()
            .filter(|l| l.starts_with("::warning "))
            .count(),
        7,
        "{}",
        s.stdout
    );
    // Outside a pull request there is nothing to compare.
    let s = step(d, "diff", &[("SR_PATH", "proj")]);
    assert_eq!((s.code, s.output.as_str()), (0, "diff-exit=0\n"));
}

#[test]
fn gate_and_install() {
    let d = tempfile::tempdir().unwrap();
    for (check, diff, code) in [
        ("0", "0", 0),
        ("1", "0", 1),
        ("0", "1", 1),
        ("2", "", 1),
        ("0", "", 0),
    ] {
        let s = step(
            d.path(),
            "gate",
            &[("CHECK_EXIT", check), ("DIFF_EXIT", diff)],
        );
        assert_eq!(s.code, code, "{check} {diff}: {}", s.stdout);
    }
    // With a binary given, nothing is built.
    let s = step(d.path(), "install", &[]);
    assert_eq!(s.code, 0);
    assert_eq!(s.stdout, format!("schemarouter: using {}\n", bin()));
    let s = step(d.path(), "other", &[]);
    assert_eq!(s.code, 2);
}
