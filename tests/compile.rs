//! The compiler (issue 5): golden prompt, determinism under file order, renaming and format,
//! tamper detection, round trip of the indices, stats, graph exports.

use schemarouter::artifact::{self, FrozenGraph, LoadError, io};
use schemarouter::lint::check_path;
use schemarouter::model::{AliasFile, IntentFile};
use std::path::{Path, PathBuf};

fn compile(root: &Path) -> (FrozenGraph, Vec<u8>, String) {
    let c = check_path(root).unwrap();
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    let g = artifact::build::compile(&c.project, &c.index, &c.units);
    let bytes = io::to_json_bytes(&g);
    let prompt = schemarouter::prompt::render(&g, None);
    (g, bytes, prompt)
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(true);
    s
}

fn copy_tree(from: &Path, to: &Path, rename: &dyn Fn(&str) -> String) {
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(to.join(sub)).unwrap();
        let mut entries: Vec<PathBuf> = std::fs::read_dir(from.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            std::fs::copy(&p, to.join(sub).join(rename(&name))).unwrap();
        }
    }
    std::fs::copy(from.join("schemarouter.toml"), to.join("schemarouter.toml")).unwrap();
}

#[test]
fn shipped_prompt_is_golden() {
    let (_, _, prompt) = compile(Path::new("."));
    settings().bind(|| insta::assert_snapshot!("shipped_intent_prompt", prompt));
    let tokens = schemarouter::prompt::count_tokens(&prompt);
    assert_eq!(
        tokens, 688,
        "the shipped prompt stays under the project's prompt-budget (700)"
    );
}

#[test]
fn committed_artifact_is_current() {
    let (_, bytes, prompt) = compile(Path::new("."));
    assert!(
        std::fs::read("build/graph.json").unwrap() == bytes,
        "build/graph.json is stale: run `schemarouter compile . --out build`"
    );
    assert_eq!(
        std::fs::read_to_string("build/intent_prompt.txt").unwrap(),
        prompt
    );
}

#[test]
fn same_bytes_twice_and_under_renamed_and_reordered_files() {
    let (_, a, _) = compile(Path::new("."));
    let (_, b, _) = compile(Path::new("."));
    assert!(a == b);
    let dir = tempfile::tempdir().unwrap();
    // Renaming reverses the sorted order of the files.
    copy_tree(Path::new("."), dir.path(), &|n: &str| {
        let (stem, ext) = n.rsplit_once('.').unwrap();
        let inv: String = stem
            .chars()
            .map(|c| {
                if c.is_ascii_lowercase() {
                    (b'z' - (c as u8 - b'a')) as char
                } else {
                    c
                }
            })
            .collect();
        format!("x_{inv}.{ext}")
    });
    let (_, c, _) = compile(dir.path());
    assert!(a == c, "renamed files changed the artifact");
}

#[test]
fn yaml_and_toml_renderings_compile_to_the_same_bytes() {
    let root = Path::new(".");
    let checked = check_path(root).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    std::fs::copy("schemarouter.toml", dir.path().join("schemarouter.toml")).unwrap();
    let p = &checked.project;
    for t in &p.tools {
        let name = &p.sources.get(t.file).name;
        let stem = Path::new(name).file_stem().unwrap().to_string_lossy();
        let text = toml::to_string(&t.item.value).unwrap();
        std::fs::write(
            dir.path().join("schemas").join(format!("{stem}.toml")),
            text,
        )
        .unwrap();
    }
    let intents = IntentFile {
        domains: p.domains.iter().map(|d| d.item.clone()).collect(),
        groups: p.groups.iter().map(|d| d.item.clone()).collect(),
        intents: p.intents.iter().map(|d| d.item.clone()).collect(),
    };
    std::fs::write(
        dir.path().join("intents/all.toml"),
        toml::to_string(&intents).unwrap(),
    )
    .unwrap();
    let aliases = AliasFile {
        concepts: p.concepts.iter().map(|d| d.item.clone()).collect(),
        aliases: p.aliases.iter().map(|d| d.item.clone()).collect(),
        qualifiers: p.qualifiers.iter().map(|d| d.item.clone()).collect(),
        recognisers: p.recognisers.iter().map(|d| d.item.clone()).collect(),
        cues: Some(schemarouter::model::Sp::synthetic(
            schemarouter::model::CuesDecl {
                source_types: p.source_cues.iter().map(|d| d.item.clone()).collect(),
                out_of_scope: p.scope_topics.iter().map(|d| d.item.clone()).collect(),
            },
        )),
    };
    std::fs::write(
        dir.path().join("aliases/all.toml"),
        toml::to_string(&aliases).unwrap(),
    )
    .unwrap();
    let (_, yaml_bytes, _) = compile(root);
    let (_, toml_bytes, _) = compile(dir.path());
    assert!(
        yaml_bytes == toml_bytes,
        "TOML rendering compiled differently"
    );
}

#[test]
fn tampered_truncated_and_newer_artifacts_are_refused() {
    let (g, bytes, _) = compile(Path::new("."));
    assert_eq!(io::load_bytes(&bytes).unwrap(), g);
    // Tamper with a value.
    let text = String::from_utf8(bytes.clone()).unwrap();
    let tampered = text.replacen("\"priority\":90", "\"priority\":91", 1);
    assert_ne!(tampered, text);
    assert!(matches!(
        io::load_bytes(tampered.as_bytes()),
        Err(LoadError::HashMismatch { .. })
    ));
    // Truncate.
    assert!(matches!(
        io::load_bytes(&bytes[..bytes.len() / 2]),
        Err(LoadError::Malformed(_))
    ));
    // Newer format.
    let newer = text.replacen("\"format_version\":3", "\"format_version\":99", 1);
    let err = io::load_bytes(newer.as_bytes()).unwrap_err();
    assert!(
        matches!(
            err,
            LoadError::NewerFormat {
                found: 99,
                supported: 3
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "the artifact has format version 99, newer than this schemarouter reads (3); upgrade schemarouter or recompile the artifact"
    );
    // Binary form round-trips and detects tampering too.
    let bin = io::to_bin_bytes(&g);
    assert_eq!(io::load_bytes(&bin).unwrap(), g);
    let mut bad = bin.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert!(matches!(
        io::load_bytes(&bad),
        Err(LoadError::HashMismatch { .. })
    ));
}

#[test]
fn routing_fingerprint_ignores_prose() {
    let (a, _, _) = compile(Path::new("."));
    let dir = tempfile::tempdir().unwrap();
    copy_tree(Path::new("."), dir.path(), &|n: &str| n.to_string());
    let ip = dir.path().join("intents/intents.yaml");
    let itext = std::fs::read_to_string(&ip).unwrap();
    let edited = itext.replacen(
        "What is the band gap of GaAs in the Materials Project?",
        "What is the gap of GaAs in MP?",
        1,
    );
    assert_ne!(edited, itext);
    std::fs::write(&ip, edited).unwrap();
    let (b, _, _) = compile(dir.path());
    let p = dir.path().join("schemas/materials_project.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    assert_ne!(a.content_hash, b.content_hash);
    assert_eq!(a.routing_fingerprint, b.routing_fingerprint);
    // A routing change moves the fingerprint.
    let edited = text.replacen("priority: 90", "priority: 5", 1);
    std::fs::write(&p, edited).unwrap();
    let (c, _, _) = compile(dir.path());
    assert_ne!(a.routing_fingerprint, c.routing_fingerprint);
}

#[test]
fn indices_round_trip_and_match_the_sources() {
    let (g, bytes, _) = compile(Path::new("."));
    let loaded = io::load_bytes(&bytes).unwrap();
    assert_eq!(loaded.index, g.index);
    // Spot checks against the declarations.
    let (mp, _) = g.tool("materials_project").unwrap();
    assert_eq!(g.index.tool_names.get("mp"), Some(&(mp as u32)));
    assert!(g.index.alias_to_concept["band_gap"].contains(&"band_gap".to_string()));
    let postings = &g.index.concept_postings["band_gap"];
    let exact: Vec<String> = postings
        .iter()
        .filter(|p| p.kind == artifact::MatchKind::Exact)
        .map(|p| {
            format!(
                "{}/{}",
                g.tools[p.tool as usize].id,
                g.field(artifact::FieldKey {
                    tool: p.tool,
                    endpoint: p.endpoint,
                    field: p.field
                })
                .name
            )
        })
        .collect();
    assert!(
        exact.contains(&"materials_project/band_gap".to_string()),
        "{exact:?}"
    );
    let intent = g.intent("crystal_structure").unwrap();
    let cands: Vec<&str> = intent
        .candidates
        .iter()
        .map(|c| g.tools[*c as usize].id.as_str())
        .collect();
    assert!(
        cands.contains(&"cod") && cands.contains(&"materials_project"),
        "{cands:?}"
    );
    // NOMAD joules convert to eV.
    let (ni, nomad) = g.tool("nomad").unwrap();
    let _ = ni;
    let f = nomad.endpoints[0]
        .fields
        .iter()
        .find(|f| f.name == "results.properties.electronic.band_gap[].value")
        .unwrap();
    assert_eq!(f.concept_factors["band_gap"], 6.241509074460763e18);
}

#[test]
fn stats_snapshot() {
    let (g, _, prompt) = compile(Path::new("."));
    let s = schemarouter::cli::stats(&g, &prompt);
    let table = schemarouter::cli::stats_table(&s);
    settings().bind(|| insta::assert_snapshot!("shipped_stats", table));
    assert!(
        s.prompt_all_tokens > 5 * s.prompt_tokens,
        "{} vs {}",
        s.prompt_all_tokens,
        s.prompt_tokens
    );
}

#[test]
fn graph_exports() {
    use schemarouter::graph::export::{self, Focus};
    let (g, _, _) = compile(Path::new("."));
    let (nodes, edges) = export::select(&g, &Focus::Tool("oqmd".into())).unwrap();
    let dot = export::to_dot(&nodes, &edges);
    assert!(dot.starts_with("digraph schema {") && dot.ends_with("}\n"));
    assert!(dot.contains("\"tool:oqmd\" -> \"endpoint:oqmd/formationenergy\""));
    let mermaid = export::to_mermaid(&nodes, &edges);
    assert!(mermaid.starts_with("flowchart LR\n"));
    let cypher = export::to_cypher(&g, &nodes, &edges, export::CypherDialect::Neo4j);
    assert!(cypher.contains("CREATE (:Tool {id: 'tool:oqmd'"));
    assert!(export::select(&g, &Focus::Tool("nope".into())).is_err());
}

/// The DOT export renders as a PNG in Graphviz (under CI a missing `dot` fails the test).
#[test]
#[ignore = "needs graphviz `dot` (.ci/run): run with --include-ignored"]
fn the_dot_export_renders_in_graphviz() {
    use schemarouter::graph::export::{self, Focus};
    if std::process::Command::new("dot")
        .arg("-V")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "graphviz `dot` is not installed (.ci/run installs it)"
        );
        eprintln!("skipped: graphviz `dot` is not installed");
        return;
    }
    let (g, _, _) = compile(Path::new("."));
    let (nodes, edges) = export::select(&g, &Focus::Tool("oqmd".into())).unwrap();
    let dot = export::to_dot(&nodes, &edges);
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("g.dot");
    std::fs::write(&src, &dot).unwrap();
    let out = std::process::Command::new("dot")
        .args(["-Tpng", "-o"])
        .arg(dir.path().join("g.png"))
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::metadata(dir.path().join("g.png")).unwrap().len() > 1000);
}
