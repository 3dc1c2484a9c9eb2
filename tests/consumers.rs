//! The outputs as the programs that consume them read them:
//!
//! - `check --format junit` and `diff --format junit` validated against the JUnit XSD `tests/junit-10.xsd` (the MIT-licensed
//!   "junit-10.xsd" by Gregory Boissinot, as shipped in pytest's source distribution on PyPI,
//!   `testing/example_scripts/junit-10.xsd`, kept as published) with PyPI `xmlschema`;
//! - `check --format sarif` run through the SARIF Multitool's `validate` with the SARIF and the
//!   GitHub rule sets (`--rule-kind "Sarif;Gh"`: what GitHub code scanning requires of an
//!   upload); no result of level error or warning may come back;
//! - `graph --format mermaid` subgraphs rendered by mermaid-cli (in Debian's Chromium), and the
//!   limit the Mermaid export refuses beyond shown to be Mermaid's own (500 edges render, 501 do
//!   not);
//! - `graph --format dot` of the whole shipped graph rendered by Graphviz.
//!
//! They run on projects with findings of every severity, project-wide ones among them (with and
//! without a configuration file), under every `--fail-level`. `.ci/run` installs the programs
//! (`tests/consumers/package.json`, Chromium and Graphviz from Debian, `xmlschema` into
//! `.venv`). Without them the tests say so and pass, except under `CI`, where a missing program
//! is a failure.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The program, if installed; under CI its absence fails the test.
fn installed(p: PathBuf) -> Option<PathBuf> {
    if p.exists() {
        return Some(p);
    }
    if std::env::var_os("CI").is_some() {
        panic!("{} is not installed (.ci/run installs it)", p.display());
    }
    eprintln!(
        "skipped: {} is not installed (run the install steps of .ci/run)",
        p.display()
    );
    None
}

/// Projects whose findings cover every severity, project-wide findings with a configuration
/// file (`multi-finding`) and without one (`every-error`), and clean ones.
const PROJECTS: [&str; 6] = [
    "tests/fixtures/multi-finding",
    "tests/fixtures/fixable",
    "tests/fixtures/every-error",
    "tests/fixtures/typed-values",
    "tests/fixtures/valid-yaml",
    ".",
];

/// A project whose strings hold quotes, backslashes, line breaks and control characters.
const STRINGS: &str = "tests/fixtures/graph-strings";

const FAIL_LEVELS: [&str; 3] = ["error", "warning", "info"];

/// Run the CLI from the repository root; returns stdout and the exit code.
fn schemarouter(args: &[&str]) -> (Vec<u8>, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    let code = o.status.code().unwrap();
    assert!(
        code == 0 || code == 1,
        "{args:?} exited {code}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (o.stdout, code)
}

/// Every project under every fail level, in `format`, written to `dir`; returns the files.
fn check_outputs(format: &str, dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for (i, project) in PROJECTS.iter().enumerate() {
        for level in FAIL_LEVELS {
            let (out, _) =
                schemarouter(&["check", project, "--format", format, "--fail-level", level]);
            let path = dir.join(format!("{i}-{level}.{format}"));
            std::fs::write(&path, out).unwrap();
            files.push(path);
        }
    }
    files
}

/// The findings actually cover every severity and project-wide findings.
#[test]
fn the_projects_have_findings_of_every_severity() {
    let mut levels = std::collections::BTreeSet::new();
    let mut project_wide = 0;
    for project in PROJECTS {
        let (out, _) = schemarouter(&["check", project, "--format", "json"]);
        let v: Value = serde_json::from_slice(&out).unwrap();
        for d in v["diagnostics"].as_array().unwrap() {
            levels.insert(d["severity"].as_str().unwrap().to_string());
            if d["location"].is_null() {
                project_wide += 1;
            }
        }
    }
    assert_eq!(
        levels.into_iter().collect::<Vec<_>>(),
        ["error", "info", "warning"]
    );
    assert!(project_wide >= 2, "{project_wide} project-wide findings");
}

/// xmlschema's errors for each file (one line per file: `name: N errors: first error`).
fn xsd_errors(py: &Path, files: &[PathBuf]) -> Vec<String> {
    let script = r#"
import sys, xmlschema
schema = xmlschema.XMLSchema(sys.argv[1])
for path in sys.argv[2:]:
    errors = list(schema.iter_errors(path))
    first = str(errors[0]).splitlines()[0] if errors else ""
    print(f"{path}: {len(errors)} errors: {first}")
"#;
    let o = Command::new(py)
        .arg("-c")
        .arg(script)
        .arg(root().join("tests/junit-10.xsd"))
        .args(files)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
#[ignore = "needs .venv with xmlschema (.ci/run): run with --include-ignored"]
fn junit_output_validates_against_the_junit_xsd() {
    let py = root().join(".venv/bin/python");
    let has_xmlschema = Command::new(&py)
        .args(["-c", "import xmlschema"])
        .output()
        .is_ok_and(|o| o.status.success());
    if installed(py.clone()).is_none() {
        return;
    }
    if !has_xmlschema {
        assert!(
            std::env::var_os("CI").is_none(),
            "xmlschema is not installed in .venv (.ci/run installs it)"
        );
        eprintln!("skipped: xmlschema is not installed in .venv");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = check_outputs("junit", dir.path());
    // `diff --format junit` too, under every gate.
    for gate in ["breaking", "dangerous", "none"] {
        let (out, _) = schemarouter(&[
            "diff",
            "tests/fixtures/diff/pr/old",
            "tests/fixtures/diff/pr/new",
            "--format",
            "junit",
            "--fail-on",
            gate,
        ]);
        assert!(String::from_utf8_lossy(&out).contains("<failure ") || gate == "none");
        let path = dir.path().join(format!("diff-{gate}.junit"));
        std::fs::write(&path, out).unwrap();
        files.push(path);
    }
    // The validator is strict: a test case without its required `name` is rejected.
    let broken = dir.path().join("broken.junit");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let cut = text.replacen("<testcase name=", "<testcase title=", 1);
    assert_ne!(cut, text);
    std::fs::write(&broken, cut).unwrap();
    files.push(broken);
    let report = xsd_errors(&py, &files);
    assert_eq!(report.len(), files.len());
    for line in &report[..report.len() - 1] {
        assert!(line.contains(": 0 errors: "), "{line}");
    }
    let last = report.last().unwrap();
    assert!(!last.contains(": 0 errors: "), "{last}");
}

/// Results of level error or warning that the SARIF Multitool reports for a SARIF file (with
/// the SARIF and GitHub rule sets), as `RULE: message` lines.
fn multitool_findings(multitool: &Path, sarif: &Path) -> Vec<String> {
    let out = sarif.with_extension("validation.sarif");
    let o = Command::new(multitool)
        .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
        .args(["validate", "--rule-kind", "Sarif;Gh", "-o"])
        .arg(&out)
        .arg(sarif)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| matches!(r["level"].as_str(), None | Some("error" | "warning")))
        .map(|r| {
            format!(
                "{}: {}",
                r["ruleId"].as_str().unwrap_or("?"),
                r["message"]["arguments"]
            )
        })
        .collect()
}

#[test]
#[ignore = "needs the SARIF Multitool from npm in tests/consumers (.ci/run): run with --include-ignored"]
fn sarif_output_passes_the_sarif_multitool_with_github_rules() {
    let Some(multitool) = installed(
        root()
            .join("tests/consumers/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"),
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let files = check_outputs("sarif", dir.path());
    for f in &files {
        let findings = multitool_findings(&multitool, f);
        assert!(
            findings.is_empty(),
            "{}:\n{}",
            f.display(),
            findings.join("\n")
        );
    }
    // Results carry fixes (the `fixable` fixture), and the Multitool does check them: a
    // replacement's region on line 0 is an error.
    let mut fixed: Value = serde_json::from_slice(&std::fs::read(&files[3]).unwrap()).unwrap();
    let results = fixed["runs"][0]["results"].as_array_mut().unwrap();
    assert!(results.iter().all(|r| r["fixes"].is_array()), "{results:?}");
    results[0]["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]["startLine"] =
        0.into();
    let broken_fix = dir.path().join("broken-fix.sarif");
    std::fs::write(&broken_fix, serde_json::to_vec_pretty(&fixed).unwrap()).unwrap();
    let findings = multitool_findings(&multitool, &broken_fix);
    assert!(
        findings.iter().any(|f| f.starts_with("JSON1008: ")),
        "{findings:?}"
    );
    // The GitHub rules do run: a result without a location is an error.
    let mut sarif: Value = serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
    sarif["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("locations");
    let broken = dir.path().join("broken.sarif");
    std::fs::write(&broken, serde_json::to_vec_pretty(&sarif).unwrap()).unwrap();
    let findings = multitool_findings(&multitool, &broken);
    assert!(
        findings.iter().any(|f| f.starts_with("GH1015: ")),
        "{findings:?}"
    );
}

/// Render a Mermaid file to SVG with mermaid-cli; returns whether it succeeded and the SVG.
fn mmdc(mmdc: &Path, input: &Path) -> (bool, String) {
    let out = input.with_extension("svg");
    let o = Command::new(mmdc)
        .arg("-q")
        .arg("-p")
        .arg(root().join("tests/consumers/puppeteer.json"))
        .arg("-i")
        .arg(input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let svg = std::fs::read_to_string(&out).unwrap_or_default();
    (o.status.success(), svg)
}

fn mermaid_tools() -> Option<PathBuf> {
    installed(PathBuf::from("/usr/bin/chromium"))?;
    installed(root().join("tests/consumers/node_modules/.bin/mmdc"))
}

#[test]
#[ignore = "needs chromium and mermaid-cli from npm in tests/consumers (.ci/run): run with --include-ignored"]
fn mermaid_subgraphs_render_in_mermaid_cli() {
    let Some(bin) = mermaid_tools() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (flag, id, label) in [
        ("--tool", "oqmd", "formationenergy"),
        ("--intent", "electronic_property", "electronic_property"),
        // A whole small project whose tool title has quotes, backslashes and line breaks.
        (
            "",
            STRINGS,
            "It's \"MP\" \\ C:\\path\\ <br />2nd line<br />3rd",
        ),
    ] {
        let args = if flag.is_empty() {
            vec!["graph", id, "--format", "mermaid"]
        } else {
            vec!["graph", "--format", "mermaid", flag, id]
        };
        let (text, code) = schemarouter(&args);
        let id = id.rsplit('/').next().unwrap();
        assert_eq!(code, 0);
        let input = dir.path().join(format!("{id}.mmd"));
        std::fs::write(&input, &text).unwrap();
        let (ok, svg) = mmdc(&bin, &input);
        assert!(ok, "{flag} {id} did not render");
        assert!(
            svg.starts_with("<svg") && svg.contains(label),
            "{flag} {id}"
        );
        assert!(!svg.contains("Maximum text size"), "{flag} {id}");
    }
}

/// The export's edge limit is Mermaid's: 500 edges render, 501 fail.
#[test]
#[ignore = "needs chromium and mermaid-cli from npm in tests/consumers (.ci/run): run with --include-ignored"]
fn mermaid_cli_fails_beyond_the_edge_limit_the_export_refuses() {
    let Some(bin) = mermaid_tools() else {
        return;
    };
    let limit = schemarouter::graph::export::MERMAID_MAX_EDGES;
    let dir = tempfile::tempdir().unwrap();
    for (edges, renders) in [(limit, true), (limit + 1, false)] {
        let mut text = String::from("flowchart LR\n");
        for i in 0..edges {
            text.push_str(&format!("  n{i} --> n{}\n", i + 1));
        }
        let input = dir.path().join(format!("e{edges}.mmd"));
        std::fs::write(&input, text).unwrap();
        assert_eq!(mmdc(&bin, &input).0, renders, "{edges} edges");
    }
}

/// Render a DOT export with Graphviz; returns the SVG.
fn render_dot(dot: &Path, project: &str, dir: &Path) -> String {
    let (text, code) = schemarouter(&["graph", project, "--format", "dot"]);
    assert_eq!(code, 0);
    let src = dir.join("graph.dot");
    std::fs::write(&src, &text).unwrap();
    let out = dir.join("graph.svg");
    let o = Command::new(dot)
        .arg("-Tsvg")
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(&out).unwrap()
}

#[test]
#[ignore = "needs graphviz `dot` (.ci/run): run with --include-ignored"]
fn the_whole_graph_renders_in_graphviz() {
    let Some(dot) = installed(PathBuf::from("/usr/bin/dot")) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let svg = render_dot(&dot, ".", dir.path());
    assert!(svg.contains("<svg") && svg.contains("tool:oqmd"));
    // Quotes, backslashes, CRLF and LF line breaks and a NUL in a title: one label, three lines.
    let svg = render_dot(&dot, STRINGS, dir.path());
    for line in [
        ">It&#39;s &quot;MP&quot; \\ C:\\path\\ </text>",
        ">2nd line</text>",
        ">3rd\ttab \u{1} \\0 \u{2028} Å 😀 ; MATCH (n) DETACH DELETE n //</text>",
    ] {
        assert!(svg.contains(line), "{line}");
    }
}
