//! Every rule's documented examples are run: each invalid example raises exactly one finding of
//! that rule, each valid example none. The docs cannot drift from behaviour.

use schemarouter::diagnostics::Diagnostic;
use schemarouter::lint::registry::{Category, RuleEntry};
use schemarouter::lint::{RULES, check_path};
use schemarouter::source::SourceMap;

/// Rules whose invalid example cannot be written as text in a page.
const NOT_REPRESENTABLE: &[&str] = &["invalid-encoding", "io-error"];

/// Write an example (files introduced by `# file: <path>` lines) into a fresh project.
fn materialise(example: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let mut current: Option<(String, String)> = None;
    let mut files = Vec::new();
    for line in example.lines() {
        if let Some(path) = line.strip_prefix("# file: ") {
            if let Some(f) = current.take() {
                files.push(f);
            }
            current = Some((path.trim().to_string(), String::new()));
        } else if let Some((_, text)) = &mut current {
            text.push_str(line);
            text.push('\n');
        } else {
            panic!("example does not start with `# file: <path>`:\n{example}");
        }
    }
    files.extend(current);
    for (path, text) in files {
        let p = dir.path().join(&path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The findings an example raises: `check` of the project, or for import rules the findings of
/// `schemarouter import openapi source/api.yaml`.
fn example_findings(entry: &RuleEntry, example: &str) -> (Vec<Diagnostic>, SourceMap) {
    let dir = materialise(example);
    let prefix = format!("{}/", dir.path().display());
    if entry.category == Category::Import {
        let req = schemarouter::import::ImportRequest {
            kind: schemarouter::import::run::Kind::OpenApi,
            sources: vec![schemarouter::import::SourceSpec::File(
                dir.path().join("source/api.yaml"),
            )],
            project: dir.path().join("project"),
            out: None,
            format: schemarouter::source::Format::Yaml,
            options: Default::default(),
            dry_run: true,
            timeout: std::time::Duration::from_secs(5),
            derive: false,
        };
        let mut o = schemarouter::import::run(&req).unwrap();
        // Name the source as the example does, without the temporary folder.
        let mut named = SourceMap::new();
        for (_, f) in o.sources.iter() {
            let mut f = f.clone();
            f.name = f.name.trim_start_matches(prefix.as_str()).to_string();
            named.add(f);
        }
        o.sources = named;
        return (o.findings, o.sources);
    }
    let c = check_path(dir.path()).unwrap();
    (c.diagnostics, c.project.sources)
}

fn findings(entry: &RuleEntry, example: &str) -> (usize, String) {
    let (diags, _) = example_findings(entry, example);
    let list: Vec<String> = diags
        .iter()
        .map(|d| format!("{} {}: {}", d.code, d.name, d.message))
        .collect();
    (
        diags.iter().filter(|d| d.code == entry.code).count(),
        list.join("\n"),
    )
}

#[test]
fn every_rule_has_docs_with_examples() {
    for e in RULES {
        let docs = e.docs();
        assert!(
            docs.starts_with(&format!("# {} ({})", e.name, e.code)),
            "{}: bad title",
            e.name
        );
        for section in [
            "## What it finds",
            "## Why it matters for routing",
            "## Fix",
            "## Invalid example",
            "## Valid example",
        ] {
            assert!(docs.contains(section), "{} lacks {section}", e.name);
        }
        assert!(!e.summary().is_empty(), "{} has no summary", e.name);
        if !NOT_REPRESENTABLE.contains(&e.name) {
            assert!(
                !e.examples("Invalid example").is_empty(),
                "{} has no invalid example",
                e.name
            );
        }
        assert!(
            !e.examples("Valid example").is_empty(),
            "{} has no valid example",
            e.name
        );
    }
}

#[test]
fn invalid_examples_raise_exactly_one_finding() {
    let mut failures = Vec::new();
    for e in RULES {
        for ex in e.examples("Invalid example") {
            let (n, all) = findings(e, &ex);
            if n != 1 {
                failures.push(format!(
                    "{} ({}): {n} findings in invalid example; all findings:\n{all}\n",
                    e.name, e.code
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn valid_examples_raise_none() {
    let mut failures = Vec::new();
    for e in RULES {
        for ex in e.examples("Valid example") {
            let (n, all) = findings(e, &ex);
            if n != 0 {
                failures.push(format!(
                    "{} ({}): {n} findings in valid example; all findings:\n{all}\n",
                    e.name, e.code
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each rule's invalid example, rendered (this rule's findings only) as human text and JSON, is
/// pinned as an insta snapshot: a change in a message, span or help shows up in review.
#[test]
fn invalid_example_renderings() {
    use schemarouter::diagnostics::render::{OutputFormat, render};
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(true);
    for e in RULES {
        for (i, ex) in e.examples("Invalid example").iter().enumerate() {
            let (diags, sources) = example_findings(e, ex);
            let mine: Vec<_> = diags.iter().filter(|d| d.code == e.code).cloned().collect();
            let human = render(OutputFormat::Human, &mine, &sources, false);
            let json = render(OutputFormat::Json, &mine, &sources, false);
            let base = format!("{}_{}", e.name.replace('-', "_"), i);
            settings.bind(|| {
                insta::assert_snapshot!(format!("{base}_human"), human);
                insta::assert_snapshot!(format!("{base}_json"), json);
            });
        }
    }
}

/// Every file of an example, by path, with its text.
fn example_files(example: &str) -> Vec<(String, String)> {
    let dir = materialise(example);
    let mut out = Vec::new();
    for line in example.lines() {
        if let Some(path) = line.strip_prefix("# file: ") {
            let path = path.trim().to_string();
            let text = std::fs::read_to_string(dir.path().join(&path)).unwrap();
            out.push((path, text));
        }
    }
    out
}

/// A rule whose docs promise a fix attaches one of that kind to its invalid example's finding;
/// applying every fix (`--unsafe-fixes`) to the invalid example gives the valid example (the one
/// at the same position when there are several, else the first), file for file; a second run changes nothing, and the fixed project loads with no new error. A rule
/// whose docs say `None` attaches no fix.
#[test]
fn documented_fixes_turn_the_invalid_example_into_the_valid_one() {
    use schemarouter::diagnostics::Severity;
    use schemarouter::diagnostics::fix::Applicability;
    use schemarouter::lint::fix::fix_project;
    let mut failures = Vec::new();
    let mut fixable = 0;
    for e in RULES.iter().filter(|e| e.category != Category::Import) {
        let kind = e.fix_kind();
        let valid = e.examples("Valid example");
        for (i, ex) in e.examples("Invalid example").into_iter().enumerate() {
            let (diags, _) = example_findings(e, &ex);
            let mine: Vec<_> = diags.iter().filter(|d| d.code == e.code).collect();
            let kinds: Vec<&str> = mine
                .iter()
                .map(|d| d.fix.as_ref().map_or("none", |f| f.applicability.as_str()))
                .collect();
            let ok = kinds.iter().all(|k| match kind {
                "safe or unsafe" => *k == "safe" || *k == "unsafe",
                other => *k == other,
            });
            if !ok {
                failures.push(format!(
                    "{}: docs say fix `{kind}`, finding has {kinds:?}",
                    e.name
                ));
            }
            if kind == "none" {
                continue;
            }
            fixable += 1;
            let dir = materialise(&ex);
            let errors = |c: &schemarouter::lint::Checked| {
                c.diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .count()
            };
            let before = errors(&check_path(dir.path()).unwrap());
            let first = fix_project(dir.path(), Applicability::Unsafe).unwrap();
            for c in &first.changes {
                std::fs::write(&c.path, &c.after).unwrap();
            }
            // The valid example of the same position, else the first.
            for (path, want) in example_files(valid.get(i).unwrap_or(&valid[0])) {
                let got = std::fs::read_to_string(dir.path().join(&path)).unwrap();
                if got != want {
                    failures.push(format!(
                        "{}: fixed {path} is\n{got}\nbut the valid example is\n{want}",
                        e.name
                    ));
                }
            }
            let second = fix_project(dir.path(), Applicability::Unsafe).unwrap();
            if !second.changes.is_empty() || second.fixed != 0 {
                failures.push(format!(
                    "{}: a second run changes {:?}",
                    e.name, second.changes
                ));
            }
            let after = check_path(dir.path()).unwrap();
            if errors(&after) > before || after.io_error {
                failures.push(format!("{}: the fixed project has new errors", e.name));
            }
        }
    }
    assert!(fixable >= 4, "only {fixable} rules with a documented fix");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
