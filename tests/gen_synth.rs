//! `schemarouter gen`: the synthetic inventory is deterministic (same seed, same bytes), valid
//! (`check` finds no errors; the only warning it may raise is the registry prompt's budget at
//! large sizes), and structured like the shipped inventory.

use schemarouter::diagnostics::Severity;
use schemarouter::lint::check_path;
use schemarouter::route::{Options, PlanStatus, Understanding};
use schemarouter::synth::{GenConfig, domain_count, generate};
use std::collections::BTreeMap;
use std::path::Path;

fn cfg(tools: usize, seed: u64) -> GenConfig {
    GenConfig {
        tools,
        seed,
        ..GenConfig::default()
    }
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

#[test]
fn same_seed_same_bytes() {
    let a = generate(&cfg(40, 7));
    let b = generate(&cfg(40, 7));
    assert_eq!(a, b);
    let c = generate(&cfg(40, 8));
    assert_ne!(a.files, c.files, "the seed matters");
    // Written twice through the CLI: byte-identical trees.
    let bin = env!("CARGO_BIN_EXE_schemarouter");
    let d1 = tempfile::tempdir().unwrap();
    let d2 = tempfile::tempdir().unwrap();
    for d in [&d1, &d2] {
        let out = std::process::Command::new(bin)
            .args(["gen", "--tools", "40", "--seed", "7", "--out"])
            .arg(d.path().join("p"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("generated 40 tools"));
    }
    let (t1, t2) = (files(&d1.path().join("p")), files(&d2.path().join("p")));
    assert_eq!(t1, t2);
    assert_eq!(t1.len(), a.files.len());
    for f in &a.files {
        assert_eq!(t1[&f.path], f.text.as_bytes(), "{}", f.path);
    }
}

fn check_generated(tools: usize, seed: u64) -> schemarouter::lint::Checked {
    let dir = tempfile::tempdir().unwrap();
    generate(&cfg(tools, seed)).write(dir.path()).unwrap();
    let c = check_path(dir.path()).unwrap();
    let errors: Vec<String> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert!(errors.is_empty(), "{tools} tools, seed {seed}: {errors:#?}");
    let warnings: Vec<String> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning && d.name != "prompt-budget")
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert!(
        warnings.is_empty(),
        "{tools} tools, seed {seed}: {warnings:#?}"
    );
    c
}

#[test]
fn output_passes_check_at_several_sizes_and_seeds() {
    for (tools, seed) in [(1, 1), (2, 5), (9, 3), (19, 42), (120, 9)] {
        check_generated(tools, seed);
    }
}

#[test]
fn structure_is_realistic() {
    let g = generate(&cfg(100, 42));
    let c = check_generated(100, 42);
    let art = schemarouter::artifact::build::compile(&c.project, &c.index, &c.units);
    let s = g.summary;
    assert_eq!(art.tools.len(), 100);
    assert_eq!(s.tools, 100);
    assert_eq!(s.fields, art.field_count());
    assert_eq!(
        s.endpoints,
        art.tools.iter().map(|t| t.endpoints.len()).sum::<usize>()
    );
    assert_eq!(s.intents, art.intents.len());
    assert_eq!(s.concepts, art.concepts.len());
    assert_eq!(s.domains, domain_count(100));
    assert_eq!(domain_count(100), 13);
    // About 30 fields per tool; every endpoint has an identifier; some tools have two endpoints.
    let per_tool = s.fields as f64 / 100.0;
    assert!((28.0..34.0).contains(&per_tool), "{per_tool}");
    assert!(
        art.tools
            .iter()
            .all(|t| t.endpoints.iter().all(|e| !e.identifiers.is_empty()))
    );
    assert!(art.tools.iter().any(|t| t.endpoints.len() == 2));
    // Every tool has provenance and a licence, and a source type.
    assert!(
        art.tools
            .iter()
            .all(|t| t.provenance.is_some() && t.licence.is_some() && t.source_type.is_some())
    );
    // Fields in convertible units (the compiled artifact records factors) and field aliases.
    let info = c
        .diagnostics
        .iter()
        .filter(|d| d.name == "convertible-unit")
        .count();
    assert!(info > 20, "{info}");
    assert!(!art.index.alias_to_field.is_empty());
    assert!(art.index.alias_to_concept.len() > 5 * art.concepts.len() / 2);
    // Parameter concepts bind (with templates and companion values somewhere).
    assert!(art.index.param_postings.len() >= 10);
    // Every intent plans: a request for the first concept of its group on a candidate.
    for i in art.intents.iter().take(20) {
        let group = &i.required_groups[0];
        let concept = i
            .candidates
            .iter()
            .find_map(|t| {
                art.tools[*t as usize].endpoints.iter().find_map(|e| {
                    let f = e.group_fields.get(group)?.first()?;
                    e.fields[*f as usize].concepts.first().cloned()
                })
            })
            .expect("a candidate provides the group");
        let u = Understanding {
            intent: Some(i.id.clone()),
            domain_concepts: vec![concept.clone()],
            ..Understanding::default()
        };
        let plan = schemarouter::route::route(&art, &u, &Options::default());
        assert_eq!(plan.steps.len(), 1, "{}", i.id);
        assert!(
            matches!(
                plan.status,
                PlanStatus::Planned | PlanStatus::MissingRequiredParameter
            ),
            "{}: {:?}",
            i.id,
            plan.status
        );
        assert!(plan.unmatched_concepts.is_empty(), "{} {concept}", i.id);
    }
}

#[test]
fn fields_option_scales_the_tool_width() {
    let narrow = generate(&GenConfig {
        tools: 20,
        seed: 1,
        fields_per_tool: 12,
    });
    let wide = generate(&GenConfig {
        tools: 20,
        seed: 1,
        fields_per_tool: 60,
    });
    let per = |n: usize| n as f64 / 20.0;
    assert!(
        per(narrow.summary.fields) < 16.0,
        "{}",
        narrow.summary.fields
    );
    assert!(per(wide.summary.fields) > 55.0, "{}", wide.summary.fields);
}

#[test]
fn cli_refuses_a_non_empty_folder_without_force() {
    let bin = env!("CARGO_BIN_EXE_schemarouter");
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("keep.txt"), "mine").unwrap();
    let out = std::process::Command::new(bin)
        .args(["gen", "--tools", "3", "--out"])
        .arg(d.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not empty"));
    let out = std::process::Command::new(bin)
        .args(["gen", "--tools", "3", "--force", "--out"])
        .arg(d.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(d.path().join("schemarouter.toml").exists());
    assert_eq!(
        std::fs::read_to_string(d.path().join("keep.txt")).unwrap(),
        "mine"
    );
    let out = std::process::Command::new(bin)
        .args(["gen", "--tools", "0", "--out"])
        .arg(d.path().join("x"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "at least one tool");
}
