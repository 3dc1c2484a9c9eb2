//! Findings baselines and fingerprints: `check --write-baseline` / `--baseline`, SARIF's
//! `partialFingerprints`, GitLab's `fingerprint`, and the property that fingerprints survive
//! unrelated edits (comment and blank lines inserted, other entities' descriptions edited).

use proptest::prelude::*;
use schemarouter::diagnostics::fingerprint::fingerprints;
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

/// A project in memory: its configuration's text and its declaration files (relative path,
/// text), sorted.
type Project = (Option<String>, Vec<(String, String)>);

/// A project's declaration files (relative path, text), sorted, and its configuration.
fn project_files(dir: &Path) -> Project {
    let mut files = Vec::new();
    for kind in ["schemas", "intents", "aliases"] {
        let Ok(rd) = std::fs::read_dir(dir.join(kind)) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".yaml") || name.ends_with(".toml") {
                files.push((
                    format!("{kind}/{name}"),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    files.sort();
    let config = std::fs::read_to_string(dir.join("schemarouter.toml")).ok();
    (config, files)
}

/// (code, message, line, fingerprint) of every finding, in sorted order.
fn findings(
    config: Option<&str>,
    files: &[(String, String)],
) -> Vec<(&'static str, String, usize, String)> {
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let checked = schemarouter::lint::check_loaded(schemarouter::load::load_sources(config, &refs));
    let fps = fingerprints(&checked.diagnostics, &checked.project.sources);
    checked
        .diagnostics
        .iter()
        .zip(fps)
        .map(|(d, f)| {
            let line = d.primary.as_ref().map_or(0, |l| {
                checked
                    .project
                    .sources
                    .get(l.file)
                    .line_col(l.span.start as usize)
                    .0
            });
            (d.code, d.message.clone(), line, f.hash)
        })
        .collect()
}

/// Lines before which a comment or blank line may go without changing any value: YAML lines
/// that start a key or a list item outside block scalars, TOML lines that start a table or a
/// key outside multi-line strings. With the indentation to give a comment there.
fn safe_lines(text: &str, toml: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut block: Option<usize> = None;
    let mut in_string = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if toml {
            let starts = trimmed.starts_with('[')
                || trimmed.split_once('=').is_some_and(|(k, _)| {
                    let k = k.trim();
                    !k.is_empty() && k.chars().all(|c| c.is_alphanumeric() || "_-.".contains(c))
                });
            if !in_string && indent == 0 && starts {
                out.push((i, 0));
            }
            if line.matches("\"\"\"").count() % 2 == 1 {
                in_string = !in_string;
            }
            continue;
        }
        if let Some(k) = block {
            if trimmed.is_empty() || indent > k {
                continue;
            }
            block = None;
        }
        let key = trimmed.split_once(':').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_alphanumeric() || "_-".contains(c))
        });
        if key || trimmed.starts_with("- ") {
            out.push((i, indent));
        }
        let t = line.trim_end();
        if t.ends_with(['>', '|'])
            || t.ends_with(">-")
            || t.ends_with("|-")
            || t.ends_with(">+")
            || t.ends_with("|+")
        {
            block = Some(indent);
        }
    }
    out
}

/// One unrelated edit: 0 inserts a comment line, 1 a blank line, 2 edits a description.
fn edit(text: &str, toml: bool, kind: u8, pick: usize) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    match kind {
        0 | 1 => {
            let safe = safe_lines(text, toml);
            if safe.is_empty() {
                return text.to_string();
            }
            let (at, indent) = safe[pick % safe.len()];
            let new = if kind == 0 {
                format!("{}# an unrelated comment {pick}", " ".repeat(indent))
            } else {
                String::new()
            };
            lines.insert(at, new);
        }
        _ => {
            let descs: Vec<usize> = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| {
                    let t = l.trim_start();
                    if toml {
                        t.starts_with("description = \"")
                            && t.ends_with('"')
                            && !t.ends_with("\"\"\"")
                    } else {
                        t.strip_prefix("description: ").is_some_and(|v| {
                            !v.starts_with(['>', '|', '"', '\'', '&', '*', '[', '{'])
                                && !v.contains(" #")
                        })
                    }
                })
                .map(|(i, _)| i)
                .collect();
            if descs.is_empty() {
                return text.to_string();
            }
            let i = descs[pick % descs.len()];
            let l = &mut lines[i];
            if toml {
                l.insert_str(l.len() - 1, " (edited)");
            } else {
                l.push_str(" (edited)");
            }
        }
    }
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Projects with findings of many rules, in YAML and TOML.
fn projects() -> Vec<Project> {
    [
        root(),
        root().join("tests/fixtures/multi-finding"),
        root().join("tests/fixtures/typed-values"),
    ]
    .iter()
    .map(|d| project_files(d))
    .collect()
}

#[test]
fn a_line_added_above_every_finding_keeps_every_fingerprint() {
    for (config, files) in projects() {
        let before = findings(config.as_deref(), &files);
        assert!(!before.is_empty());
        let moved: Vec<(String, String)> = files
            .iter()
            .map(|(n, t)| (n.clone(), format!("# a new first line\n{t}")))
            .collect();
        let config = config.map(|c| format!("# a new first line\n{c}"));
        let after = findings(config.as_deref(), &moved);
        assert_eq!(before.len(), after.len());
        for (b, a) in before.iter().zip(&after) {
            assert_eq!((b.0, &b.1, &b.3), (a.0, &a.1, &a.3));
            if b.2 > 0 {
                assert_eq!(a.2, b.2 + 1, "{b:?}");
            }
        }
    }
}

proptest! {
    // Seeded: the same 40 edit sequences on every run and machine.
    #![proptest_config(ProptestConfig {
        cases: 40,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(39),
        ..ProptestConfig::default()
    })]

    /// Random unrelated edits elsewhere in the files keep every finding's fingerprint.
    #[test]
    fn unrelated_edits_keep_fingerprints(
        project in 0usize..3,
        edits in proptest::collection::vec((any::<usize>(), 0u8..3, any::<usize>()), 1..8),
    ) {
        let all = projects();
        let (config, files) = &all[project];
        let before = findings(config.as_deref(), files);
        let mut edited = files.clone();
        for (file, kind, pick) in edits {
            let f = &mut edited[file % files.len()];
            let toml = f.0.ends_with(".toml");
            f.1 = edit(&f.1, toml, kind, pick);
        }
        let after = findings(config.as_deref(), &edited);
        let strip = |v: &[(&'static str, String, usize, String)]| {
            let mut v: Vec<_> = v.iter().map(|(c, m, _, f)| (*c, m.replace(" (edited)", ""), f.clone())).collect();
            v.sort();
            v
        };
        prop_assert_eq!(strip(&before), strip(&after));
    }
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

/// A copy of the multi-finding fixture in a temporary folder, as `proj`.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("tests/fixtures/multi-finding"),
        &dir.path().join("proj"),
    );
    dir
}

#[test]
fn write_baseline_then_only_new_findings() {
    let dir = project();
    let d = dir.path();
    let w = run(&["check", "proj", "--write-baseline", "base.json"], d);
    assert_eq!(w.code, 0, "{}{}", w.stdout, w.stderr);
    assert_eq!(w.stdout, "");
    assert_eq!(
        w.stderr,
        "wrote 8 finding(s) to the baseline `base.json`; `schemarouter check --baseline base.json` reports only new ones\n"
    );
    let text = std::fs::read_to_string(d.join("base.json")).unwrap();
    // Same findings, same bytes: from inside the project too.
    let again = run(
        &["check", ".", "--write-baseline", "../again.json"],
        &d.join("proj"),
    );
    assert_eq!(again.code, 0);
    assert_eq!(std::fs::read_to_string(d.join("again.json")).unwrap(), text);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["schemarouter-baseline"], 1);
    let entries = v["findings"].as_array().unwrap();
    let keys: Vec<(String, String, String)> = entries
        .iter()
        .map(|e| {
            (
                e["file"].as_str().unwrap().to_string(),
                e["path"].as_str().unwrap().to_string(),
                e["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert!(
        keys.contains(&(
            "schemas/mp.yaml".to_string(),
            "endpoints.summary.fields.band_gap.groups.thermodynamics".to_string(),
            "SR103".to_string()
        )),
        "{keys:?}"
    );

    // Nothing new: exit 0, and the findings are counted, not shown.
    let b = run(
        &[
            "check",
            "proj",
            "--baseline",
            "base.json",
            "--format",
            "concise",
        ],
        d,
    );
    assert_eq!(b.code, 0, "{}{}", b.stdout, b.stderr);
    assert_eq!(
        b.stdout,
        "No problems found.\n8 finding(s) recorded in the baseline `base.json` not shown.\n"
    );

    // Lines added above the findings; one finding's group renamed: one new, one entry stale.
    let mp = d.join("proj/schemas/mp.yaml");
    let t = std::fs::read_to_string(&mp).unwrap();
    std::fs::write(
        &mp,
        format!(
            "# moved down\n\n{}",
            t.replace("thermodynamics", "thermodynamicz")
        ),
    )
    .unwrap();
    let b = run(
        &[
            "check",
            "proj",
            "--baseline",
            "base.json",
            "--format",
            "concise",
        ],
        d,
    );
    assert_eq!(b.code, 1, "{}{}", b.stdout, b.stderr);
    assert_eq!(
        b.stdout,
        "proj/schemas/mp.yaml:37:30: error[SR103/dangling-reference] field `band_gap` references undeclared group `thermodynamicz` (help: declare group `thermodynamicz` (under `intents/`), or remove the reference)\n\
         \n\
         Findings per rule:\n\
         1  SR103  dangling-reference  error\n\
         Found 1 error, 0 warnings, 0 infos.\n\
         7 finding(s) recorded in the baseline `base.json` not shown.\n\
         1 baseline entry no longer matches (fixed, or the entity renamed); `--write-baseline base.json` drops it:\n  \
         schemas/mp.yaml endpoints.summary.fields.band_gap.groups.thermodynamics: SR103[dangling-reference] field `band_gap` references undeclared group `thermodynamics`\n"
    );
    // Machine formats keep stdout one document; the note goes to stderr.
    let j = run(
        &[
            "check",
            "proj",
            "--baseline",
            "base.json",
            "--format",
            "json",
        ],
        d,
    );
    assert_eq!(j.code, 1);
    let doc: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(doc["diagnostics"].as_array().unwrap().len(), 1, "{doc}");
    assert!(
        j.stderr
            .starts_with("7 finding(s) recorded in the baseline"),
        "{}",
        j.stderr
    );
}

#[test]
fn a_bad_baseline_is_a_usage_error() {
    let dir = project();
    let d = dir.path();
    let r = run(&["check", "proj", "--baseline", "missing.json"], d);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("error: cannot read the baseline `missing.json`: "),
        "{}",
        r.stderr
    );
    std::fs::write(
        d.join("bad.json"),
        "{\"schemarouter-baseline\": 1, \"findings\": [], \"extra\": 1}",
    )
    .unwrap();
    let r = run(&["check", "proj", "--baseline", "bad.json"], d);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("error: `bad.json` is not a schemarouter baseline: unknown field `extra`"),
        "{}",
        r.stderr
    );
    let r = run(
        &[
            "check",
            "proj",
            "--baseline",
            "a.json",
            "--write-baseline",
            "b.json",
        ],
        d,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run(
        &["check", "proj", "--write-baseline", "no/such/folder/b.json"],
        d,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("error: cannot write the baseline `no/such/folder/b.json`"),
        "{}",
        r.stderr
    );
}

/// The fingerprints of SARIF (`partialFingerprints`) and GitLab (`fingerprint`) are the
/// baseline's, and stay when lines are inserted above the findings.
#[test]
fn sarif_and_gitlab_carry_the_baseline_fingerprints() {
    let dir = project();
    let d = dir.path();
    run(&["check", "proj", "--write-baseline", "base.json"], d);
    let base: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("base.json")).unwrap()).unwrap();
    let mut want: Vec<String> = base["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["fingerprint"].as_str().unwrap().to_string())
        .collect();
    want.sort();
    let collect = |d: &Path| {
        let s: serde_json::Value =
            serde_json::from_str(&run(&["check", "proj", "--format", "sarif"], d).stdout).unwrap();
        let mut sarif: Vec<String> = s["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["partialFingerprints"]["schemarouter/v1"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        sarif.sort();
        let g: serde_json::Value =
            serde_json::from_str(&run(&["check", "proj", "--format", "gitlab"], d).stdout).unwrap();
        let mut gitlab: Vec<String> = g
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["fingerprint"].as_str().unwrap().to_string())
            .collect();
        gitlab.sort();
        (sarif, gitlab)
    };
    assert_eq!(collect(d), (want.clone(), want.clone()));
    for f in [
        "schemas/mp.yaml",
        "schemas/oqmd.toml",
        "intents/registry.yaml",
        "aliases/concepts.yaml",
    ] {
        let p = d.join("proj").join(f);
        let t = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, format!("# one more line\n{t}")).unwrap();
    }
    assert_eq!(collect(d), (want.clone(), want));
}

#[test]
fn statistics_prints_only_the_table() {
    let r = run(
        &["check", "tests/fixtures/multi-finding", "--statistics"],
        &root(),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "1  SR006  unknown-key                 error\n\
         1  SR011  ignored-file                info\n\
         1  SR012  checks-skipped              info\n\
         1  SR103  dangling-reference          error\n\
         1  SR201  dangling-alias              error\n\
         1  SR406  missing-provenance          warning\n\
         1  SR505  unroutable-tool             warning\n\
         1  SR902  suppression-without-reason  warning\n"
    );
}
