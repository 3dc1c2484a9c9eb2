//! CI output formats: every format of `check --format` rendered for the `multi-finding` fixture
//! (several severities in several files, a secondary label in another file, a non-ASCII line)
//! and pinned as insta snapshots in the top-level `snapshots/` folder, plus exact checks of key
//! fields, SARIF validation against the SARIF 2.1.0 JSON Schema, byte-identical re-rendering, and
//! GitLab fingerprints that survive line shifts.

use schemarouter::diagnostics::render::{OutputFormat, render};
use schemarouter::diagnostics::{Diagnostic, Severity};
use schemarouter::lint::{Checked, RULES, check_path};
use schemarouter::source::SourceMap;
use serde_json::Value;
use std::path::Path;

const MULTI: &str = "tests/fixtures/multi-finding";
const VALID: &str = "tests/fixtures/valid-yaml";

const FORMATS: [(OutputFormat, &str); 7] = [
    (OutputFormat::Human, "human"),
    (OutputFormat::Concise, "concise"),
    (OutputFormat::Json, "json"),
    (OutputFormat::Sarif, "sarif"),
    (OutputFormat::Github, "github"),
    (OutputFormat::Gitlab, "gitlab"),
    (OutputFormat::Junit, "junit"),
];

fn checked(root: impl AsRef<Path>) -> Checked {
    check_path(root.as_ref()).expect("fixture loads")
}

fn out(format: OutputFormat, c: &Checked) -> String {
    render(format, &c.diagnostics, &c.project.sources, false)
}

fn json(s: &str) -> Value {
    serde_json::from_str(s).expect("valid JSON")
}

/// The SARIF 2.1.0 JSON Schema (tests/sarif-schema-2.1.0.json, as shipped in serde-sarif's
/// sources), compiled with format checks (`uri`, `uri-reference`, ...) on.
///
/// One `pattern` in the schema (`run.language`) has an unescaped `]`, which ECMA-262 only
/// accepts under its web-compatibility annex, so the validator's meta-schema check rejects it;
/// it is escaped here, in memory, to the same meaning. The file itself is kept as published.
fn sarif_validator() -> jsonschema::Validator {
    let text = include_str!("sarif-schema-2.1.0.json");
    let bad = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert!(
        text.contains(bad),
        "the known bad pattern moved; revisit this workaround"
    );
    let schema = json(&text.replace(bad, r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$""#));
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("SARIF schema compiles")
}

fn sarif_errors(sarif: &Value) -> Vec<String> {
    sarif_validator()
        .iter_errors(sarif)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Validate a SARIF log against the SARIF 2.1.0 JSON Schema.
fn assert_valid_sarif(sarif: &Value) {
    let errors = sarif_errors(sarif);
    assert!(
        errors.is_empty(),
        "SARIF is invalid:\n{}",
        errors.join("\n")
    );
}

#[test]
fn the_schema_check_rejects_broken_sarif() {
    let c = checked(MULTI);
    let good = json(&out(OutputFormat::Sarif, &c));
    let mut bad = good.clone();
    bad["version"] = "2.0.0".into();
    assert!(!sarif_errors(&bad).is_empty());
    let mut bad = good.clone();
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        0.into();
    assert!(!sarif_errors(&bad).is_empty());
    let mut bad = good;
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        "a b\\c".into();
    assert!(
        !sarif_errors(&bad).is_empty(),
        "uri-reference format is checked"
    );
}

/// The SARIF log with each `tool.driver.rules` entry cut down to `"<id> <name> <level>"`: the
/// rule texts come from the rules' documentation (checked field by field in `sarif_fields`), and
/// a doc edit should not change this snapshot.
fn condense_sarif_rules(text: &str) -> String {
    let mut sarif = json(text);
    let rules = &mut sarif["runs"][0]["tool"]["driver"]["rules"];
    let short: Vec<Value> = rules
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            Value::from(format!(
                "{} {} {}",
                r["id"].as_str().unwrap(),
                r["name"].as_str().unwrap(),
                r["defaultConfiguration"]["level"].as_str().unwrap()
            ))
        })
        .collect();
    *rules = Value::from(short);
    let mut s = serde_json::to_string_pretty(&sarif).unwrap();
    s.push('\n');
    s
}

#[test]
fn every_format_snapshot() {
    let c = checked(MULTI);
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(true);
    for (format, name) in FORMATS {
        let mut text = out(format, &c);
        if format == OutputFormat::Sarif {
            text = condense_sarif_rules(&text);
        }
        settings.bind(|| insta::assert_snapshot!(format!("multi_finding_{name}"), text));
    }
}

#[test]
fn fixture_has_the_intended_findings() {
    let c = checked(MULTI);
    let found: Vec<(&str, Severity)> = c.diagnostics.iter().map(|d| (d.name, d.severity)).collect();
    for expected in [
        ("dangling-alias", Severity::Error),
        ("dangling-reference", Severity::Error),
        ("unknown-key", Severity::Error),
        ("suppression-without-reason", Severity::Warning),
        ("ignored-file", Severity::Info),
    ] {
        assert!(
            found.contains(&expected),
            "{expected:?} missing from {found:?}"
        );
    }
    // The `allow(unknown-domain)` comment does suppress the unknown domain.
    assert!(
        !found.iter().any(|(n, _)| *n == "unknown-domain"),
        "{found:?}"
    );
    // A secondary label in another file than the primary one.
    assert!(c.diagnostics.iter().any(|d| {
        d.primary
            .as_ref()
            .is_some_and(|p| d.secondary.iter().any(|s| s.file != p.file))
    }));
}

#[test]
fn rendering_twice_is_byte_identical() {
    let a = checked(MULTI);
    let b = checked(MULTI);
    for (format, name) in FORMATS {
        let first = out(format, &a);
        assert_eq!(first, out(format, &a), "{name} differs on the same input");
        assert_eq!(first, out(format, &b), "{name} differs between runs");
    }
}

#[test]
fn github_annotation_lines() {
    let c = checked(MULTI);
    let text = out(OutputFormat::Github, &c);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), c.diagnostics.len());
    // Columns count characters: the Korean alias text before the span is 5 characters, 13 bytes.
    assert!(
        lines.contains(&"::error file=aliases/concepts.yaml,line=12,col=55,endLine=12,endColumn=92,title=SR201 dangling-alias::alias `밴드갭 폭` names field `materials_project/summary/material_id`, which does not carry concept `band_gap`%0Aschemas/mp.yaml:28:15: the field%0Ahelp: add `band_gap` to the field's concepts in materials_project, or drop `concept:` from the alias"),
        "{text}"
    );
    assert!(
        lines.contains(&"::warning file=intents/registry.yaml,line=12,col=5,endLine=12,endColumn=42,title=SR902 suppression-without-reason::suppression has no reason%0Ahelp: add `-- <why this finding is acceptable>` after the rule list"),
        "{text}"
    );
    assert!(
        lines.contains(&"::notice file=schemas/notes.txt,line=1,col=1,endLine=1,endColumn=1,title=SR011 ignored-file::`schemas/notes.txt` is not a .yaml, .yml or .toml file and was skipped%0Ahelp: rename it with a declaration extension if it holds declarations"),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with(
            "::error file=schemarouter.toml,line=6,col=1,endLine=6,endColumn=11,title=SR006 unknown-key::unknown key `fail-levle`%0Ahelp: did you mean `fail-level`?"
        )),
        "{text}"
    );
}

#[test]
fn sarif_fields() {
    let c = checked(MULTI);
    let sarif = json(&out(OutputFormat::Sarif, &c));
    assert_eq!(sarif["version"], "2.1.0");
    assert!(sarif["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let runs = sarif["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "schemarouter");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(
        driver["informationUri"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), RULES.len());
    for (rule, entry) in rules.iter().zip(RULES) {
        assert_eq!(rule["id"], entry.code);
        assert_eq!(rule["name"], entry.name);
        assert_eq!(rule["shortDescription"]["text"], entry.summary());
        assert_eq!(rule["fullDescription"]["text"], entry.docs());
        assert_eq!(rule["help"]["markdown"], entry.docs());
        let level = match entry.default_severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
        };
        assert_eq!(rule["defaultConfiguration"]["level"], level);
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), c.diagnostics.len());
    for (r, d) in results.iter().zip(&c.diagnostics) {
        assert_eq!(r["ruleId"], d.code);
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], d.code);
        assert!(
            r["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with(&d.message)
        );
        assert_eq!(
            r["relatedLocations"].as_array().map_or(0, Vec::len),
            d.secondary.len()
        );
    }
    let alias = results.iter().find(|r| r["ruleId"] == "SR201").unwrap();
    let loc = &alias["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "aliases/concepts.yaml");
    assert_eq!(loc["region"]["startLine"], 12);
    assert_eq!(loc["region"]["startColumn"], 55);
    assert_eq!(loc["region"]["endColumn"], 92);
    let related = &alias["relatedLocations"][0];
    assert_eq!(related["message"]["text"], "the field");
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        "schemas/mp.yaml"
    );
    let note = results.iter().find(|r| r["ruleId"] == "SR011").unwrap();
    assert_eq!(note["level"], "note");
}

#[test]
fn sarif_validates_against_the_schema() {
    let c = checked(MULTI);
    assert_valid_sarif(&json(&out(OutputFormat::Sarif, &c)));
}

#[test]
fn sarif_for_a_clean_project_has_empty_results() {
    let c = checked(VALID);
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    let sarif = json(&out(OutputFormat::Sarif, &c));
    assert_eq!(sarif["runs"][0]["results"], serde_json::json!([]));
    assert_eq!(
        sarif["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .len(),
        RULES.len()
    );
    assert_valid_sarif(&sarif);
}

#[test]
fn clean_project_in_every_format() {
    let c = checked(VALID);
    assert_eq!(out(OutputFormat::Github, &c), "");
    assert_eq!(out(OutputFormat::Gitlab, &c), "[]\n");
    let junit = out(OutputFormat::Junit, &c);
    assert!(junit.contains("tests=\"1\" failures=\"0\""), "{junit}");
    assert!(!junit.contains("<failure"), "{junit}");
}

#[test]
fn finding_without_a_file() {
    let d = Diagnostic::new(
        "SR007",
        "invalid-value",
        Severity::Error,
        "unit `bohr` in [units] is not valid: 5% off, \"really\" <bad>",
    )
    .help("write it as `<number> <unit>`");
    let diags = [d];
    let sources = SourceMap::new();
    let sarif = json(&render(OutputFormat::Sarif, &diags, &sources, false));
    let result = &sarif["runs"][0]["results"][0];
    assert!(result.get("locations").is_none(), "{result}");
    assert_eq!(result["ruleId"], "SR007");
    assert_valid_sarif(&sarif);
    assert_eq!(
        render(OutputFormat::Github, &diags, &sources, false),
        "::error title=SR007 invalid-value::unit `bohr` in [units] is not valid: 5%25 off, \"really\" <bad>%0Ahelp: write it as `<number> <unit>`\n"
    );
    let gitlab = json(&render(OutputFormat::Gitlab, &diags, &sources, false));
    assert_eq!(gitlab[0]["location"]["path"], ".");
    assert_eq!(gitlab[0]["location"]["lines"]["begin"], 1);
    let junit = render(OutputFormat::Junit, &diags, &sources, false);
    assert!(
        junit.contains(
            "<testsuite name=\"&lt;project&gt;\" tests=\"1\" failures=\"1\" errors=\"0\">"
        ),
        "{junit}"
    );
    assert!(
        junit.contains("message=\"unit `bohr` in [units] is not valid: 5% off, &quot;really&quot; &lt;bad&gt;\" type=\"SR007\""),
        "{junit}"
    );
}

#[test]
fn gitlab_report_shape() {
    let c = checked(MULTI);
    let report = json(&out(OutputFormat::Gitlab, &c));
    let issues = report.as_array().unwrap();
    assert_eq!(issues.len(), c.diagnostics.len());
    for (i, d) in issues.iter().zip(&c.diagnostics) {
        assert_eq!(i["check_name"], d.name);
        let severity = match d.severity {
            Severity::Error => "critical",
            Severity::Warning => "major",
            Severity::Info => "info",
        };
        assert_eq!(i["severity"], severity);
        assert!(i["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
        assert!(i["description"].as_str().unwrap().contains(&d.message));
    }
    let prints: std::collections::BTreeSet<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(prints.len(), issues.len(), "fingerprints are unique");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn fingerprints(c: &Checked) -> Vec<(String, String)> {
    json(&out(OutputFormat::Gitlab, c))
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["check_name"].as_str().unwrap().to_string(),
                i["fingerprint"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn gitlab_fingerprints_survive_line_shifts() {
    let before = checked(MULTI);
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new(MULTI), dir.path());
    // Unrelated edits: comment lines at the top of every declaration file with a finding.
    for f in [
        "aliases/concepts.yaml",
        "schemas/mp.yaml",
        "intents/registry.yaml",
    ] {
        let p = dir.path().join(f);
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, format!("# edited\n# again\n{text}")).unwrap();
    }
    let p = dir.path().join("schemas/oqmd.toml");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, format!("# edited\n{text}")).unwrap();
    let after = checked(dir.path());
    let lines = |c: &Checked| -> Vec<u64> {
        json(&out(OutputFormat::Gitlab, c))
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["location"]["lines"]["begin"].as_u64().unwrap())
            .collect()
    };
    assert_ne!(lines(&before), lines(&after), "the edit shifted lines");
    let mut a = fingerprints(&before);
    let mut b = fingerprints(&after);
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn gitlab_fingerprints_distinguish_identical_findings() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new(MULTI), dir.path());
    // A second endpoint with the same dangling group on a field of the same name: same code,
    // path and message as the first.
    let p = dir.path().join("schemas/mp.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        format!(
            "{text}  - id: details\n    method: GET\n    url: https://api.materialsproject.org/materials/details/\n    fields:\n      - name: band_gap\n        type: number\n        unit: eV\n        groups: [electronic, thermodynamics]\n        concepts: [band_gap]\n"
        ),
    )
    .unwrap();
    let c = checked(dir.path());
    let prints: Vec<String> = fingerprints(&c)
        .into_iter()
        .filter(|(name, _)| name == "dangling-reference")
        .map(|(_, f)| f)
        .collect();
    assert_eq!(prints.len(), 2, "{prints:?}");
    assert_ne!(prints[0], prints[1]);
    // The first occurrence keeps the fingerprint it had without the second.
    let before: Vec<String> = fingerprints(&checked(MULTI))
        .into_iter()
        .filter(|(name, _)| name == "dangling-reference")
        .map(|(_, f)| f)
        .collect();
    assert_eq!(before, prints[..1]);
}

/// GitHub code scanning's rules (the SARIF Multitool's GitHub validation): every result has a
/// location with a relative artifact URI and a region starting at line 1 or later; here for
/// projects whose findings include project-wide ones (checks skipped after a failed file, a
/// prompt over budget), with and without a configuration file.
#[test]
fn every_sarif_result_has_a_location_even_project_wide_ones() {
    for (root, anchor) in [
        ("tests/fixtures/every-error", "aliases/concepts.yaml"),
        (MULTI, "schemarouter.toml"),
        ("tests/fixtures/typed-values", ""),
    ] {
        let c = checked(root);
        let sarif = json(&out(OutputFormat::Sarif, &c));
        assert_valid_sarif(&sarif);
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{root}");
        for r in results {
            let loc = &r["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap_or_else(|| {
                panic!("{root}: result without a location: {r}");
            });
            assert!(!uri.starts_with('/') && !uri.contains("://"), "{uri}");
            assert!(loc["region"]["startLine"].as_i64().unwrap() >= 1);
        }
        if c.diagnostics.iter().any(|d| d.primary.is_none()) {
            let project_wide = results
                .iter()
                .find(|r| r["locations"][0]["message"]["text"] == "project-wide finding")
                .unwrap();
            assert_eq!(
                project_wide["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], anchor,
                "{root}"
            );
        }
    }
}

/// JUnit: a finding fails its case when it fails the run (`--fail-level`), and case names carry
/// no line numbers (so a case keeps its history when lines above it move).
#[test]
fn junit_honours_the_fail_level_and_names_have_no_positions() {
    use schemarouter::diagnostics::render::junit::render_with;
    let c = checked("tests/fixtures/typed-values");
    let errors = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    assert_eq!((errors, warnings), (6, 5));
    let count = |xml: &str| xml.matches("<failure ").count();
    let at_error = render_with(&c.diagnostics, &c.project.sources, Some(Severity::Error));
    assert_eq!(count(&at_error), 6);
    assert!(
        at_error.contains("tests=\"11\" failures=\"6\""),
        "{at_error}"
    );
    let at_warning = render_with(&c.diagnostics, &c.project.sources, Some(Severity::Warning));
    assert_eq!(count(&at_warning), 11);
    assert!(at_warning.contains("tests=\"11\" failures=\"11\""));
    let off = render_with(&c.diagnostics, &c.project.sources, None);
    assert_eq!(count(&off), 0);
    // Names: rule and message, no `line:column`; unique within a suite.
    let names: Vec<&str> = at_error
        .split("<testcase name=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert_eq!(names.len(), 11);
    // No `LINE:COL` and no `at N` anywhere in a name.
    let has_position = |n: &str| {
        let b = n.as_bytes();
        (1..b.len().saturating_sub(1))
            .any(|i| b[i] == b':' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
            || n.split("at ")
                .skip(1)
                .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    };
    assert!(has_position("x 3:4 y") && has_position("at 12") && !has_position("SR110 a"));
    for n in &names {
        assert!(!has_position(n), "{n}");
    }
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
    // Moving every finding down a line leaves the names unchanged.
    let shifted = std::env::temp_dir().join(format!("sr-junit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&shifted);
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(shifted.join(sub)).unwrap();
        for e in std::fs::read_dir(Path::new("tests/fixtures/typed-values").join(sub)).unwrap() {
            let e = e.unwrap();
            let text = std::fs::read_to_string(e.path()).unwrap();
            std::fs::write(
                shifted.join(sub).join(e.file_name()),
                format!("# moved\n{text}"),
            )
            .unwrap();
        }
    }
    let c2 = checked(&shifted);
    let again = render_with(&c2.diagnostics, &c2.project.sources, Some(Severity::Error));
    let names2: Vec<&str> = again
        .split("<testcase name=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert_eq!(names, names2);
    std::fs::remove_dir_all(&shifted).unwrap();
}

/// A copy of `valid-yaml` with four fixable findings written in: a YAML 1.1 boolean, a repeated
/// enum value, an unused suppression and a licence id in lower case with spaces.
const FIXABLE: &str = "tests/fixtures/fixable";

#[test]
fn fixes_in_json_and_sarif_snapshot() {
    let c = checked(FIXABLE);
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(true);
    let json_text = out(OutputFormat::Json, &c);
    let sarif_text = out(OutputFormat::Sarif, &c);
    assert_valid_sarif(&json(&sarif_text));
    settings.bind(|| insta::assert_snapshot!("fixable_json", json_text));
    settings.bind(|| insta::assert_snapshot!("fixable_sarif", condense_sarif_rules(&sarif_text)));
}

/// Every finding of the fixture has a fix in both formats, each SARIF replacement is the JSON
/// edit (same region, same text), and applying the JSON edits by byte range to the file gives
/// the text `check --fix` writes.
#[test]
fn json_and_sarif_fixes_are_the_same_edits_as_check_fix() {
    let c = checked(FIXABLE);
    let j = json(&out(OutputFormat::Json, &c));
    let s = json(&out(OutputFormat::Sarif, &c));
    let diags = j["diagnostics"].as_array().unwrap();
    let results = s["runs"][0]["results"].as_array().unwrap();
    assert_eq!(diags.len(), 4);
    assert_eq!(results.len(), 4);
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for (d, r) in diags.iter().zip(results) {
        let fix = &d["fix"];
        assert_eq!(fix["applicability"], "safe", "{d}");
        let sfix = &r["fixes"].as_array().unwrap()[0];
        assert_eq!(sfix["description"]["text"], fix["message"]);
        assert_eq!(sfix["properties"]["applicability"], fix["applicability"]);
        let changes = sfix["artifactChanges"].as_array().unwrap();
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0]["artifactLocation"]["uri"], "schemas/mp.yaml");
        let reps = changes[0]["replacements"].as_array().unwrap();
        let jedits = fix["edits"].as_array().unwrap();
        assert_eq!(reps.len(), jedits.len());
        for (e, rep) in jedits.iter().zip(reps) {
            let region = &rep["deletedRegion"];
            assert_eq!(region["startLine"], e["line"]);
            assert_eq!(region["startColumn"], e["column"]);
            assert_eq!(region["endLine"], e["end_line"]);
            assert_eq!(region["endColumn"], e["end_column"]);
            assert_eq!(rep["insertedContent"]["text"], e["content"]);
            assert_eq!(e["file"], "schemas/mp.yaml");
            let start = e["offset"].as_u64().unwrap() as usize;
            let end = start + e["length"].as_u64().unwrap() as usize;
            edits.push((start, end, e["content"].as_str().unwrap().to_string()));
        }
    }
    let by_name: std::collections::BTreeMap<&str, &Value> = diags
        .iter()
        .map(|d| (d["name"].as_str().unwrap(), &d["fix"]))
        .collect();
    assert_eq!(by_name["yaml11-boolean"]["message"], "quote `yes`");
    assert_eq!(by_name["yaml11-boolean"]["edits"][0]["content"], "\"yes\"");
    assert_eq!(by_name["invalid-licence"]["message"], "write `CC-BY-4.0`");
    assert_eq!(by_name["invalid-licence"]["edits"][0]["length"], 9);
    edits.sort();
    let path = Path::new(FIXABLE).join("schemas/mp.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut fixed = String::new();
    let mut at = 0;
    for (start, end, content) in &edits {
        fixed.push_str(&text[at..*start]);
        fixed.push_str(content);
        at = *end;
    }
    fixed.push_str(&text[at..]);
    let outcome = schemarouter::lint::fix::fix_project(
        Path::new(FIXABLE),
        schemarouter::diagnostics::fix::Applicability::Safe,
    )
    .unwrap();
    assert_eq!(outcome.changes.len(), 1);
    assert_eq!(outcome.changes[0].after, fixed);
}
