//! The typed graph made tool by tool in parallel (`graph::build::build_sorted`, what `compile`
//! uses) equals the one-thread builder sorted (`build(..).into_sorted()`), node for node and
//! edge for edge: on the shipped project, on a generated inventory, and on projects whose tools
//! repeat ids (where the parallel builder falls back to the one-thread one).

use schemarouter::artifact::build::unit_cache;
use schemarouter::graph::build::{build, build_sorted};
use schemarouter::lint::{check_loaded, check_path};
use schemarouter::load::load_sources;
use schemarouter::synth::{GenConfig, generate};
use std::path::Path;

/// Both builders on a checked project; returns (nodes, edges) counts.
fn same_graph(c: &schemarouter::lint::Checked) -> (usize, usize) {
    let cache = unit_cache(&c.project, &c.units);
    let parallel = build_sorted(&c.project, &c.index, &cache);
    let serial = build(&c.project, &c.index, &cache).into_sorted();
    assert_eq!(parallel.0.len(), serial.0.len());
    assert_eq!(parallel.1.len(), serial.1.len());
    for (a, b) in parallel.0.iter().zip(&serial.0) {
        assert_eq!(a, b);
    }
    for (a, b) in parallel.1.iter().zip(&serial.1) {
        assert_eq!(a, b);
    }
    (parallel.0.len(), parallel.1.len())
}

#[test]
fn shipped_project_graph_is_the_same_either_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let c = check_path(root).unwrap();
    assert!(!c.has_errors());
    let (nodes, edges) = same_graph(&c);
    // Every kind of edge the builder makes is in the shipped graph (aliases that name a field,
    // unit factors, licences and source types on fields included).
    let cache = unit_cache(&c.project, &c.units);
    let (_, e) = build_sorted(&c.project, &c.index, &cache);
    let kinds: std::collections::BTreeSet<_> = e.iter().map(|e| format!("{:?}", e.kind)).collect();
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        [
            "ALIASED_AS",
            "BINDS_PARAMETER",
            "HAS_ENDPOINT",
            "HAS_PARAMETER",
            "HAS_SOURCE_TYPE",
            "IN_GROUP",
            "LICENSED_UNDER",
            "MAPS_TO_CONCEPT",
            "MEASURED_IN",
            "REQUIRES_GROUP",
            "RETURNS",
            "TARGETS_DOMAIN",
        ]
    );
    assert_eq!((nodes, edges), (903, 1696));
}

#[test]
fn generated_inventory_graph_is_the_same_either_way() {
    let dir = tempfile::tempdir().unwrap();
    generate(&GenConfig {
        tools: 400,
        seed: 11,
        ..GenConfig::default()
    })
    .write(dir.path())
    .unwrap();
    let c = check_path(dir.path()).unwrap();
    assert_eq!(same_graph(&c), (19842, 52157));
}

/// The shipped project's files, with `extra` files added (path relative to the root, text).
fn shipped_with(extra: &[(&str, String)]) -> schemarouter::lint::Checked {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, String)> = Vec::new();
    for folder in ["schemas", "intents", "aliases"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
            files.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    files.extend(extra.iter().map(|(n, t)| (n.to_string(), t.clone())));
    let config = std::fs::read_to_string(root.join("schemarouter.toml")).unwrap();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    check_loaded(load_sources(Some(&config), &refs))
}

#[test]
fn repeated_ids_give_the_same_graph_either_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let aflow = std::fs::read_to_string(root.join("schemas/aflow.yaml")).unwrap();
    // A second tool with the same id, whose title (its node's label) differs: the first wins.
    let twin = aflow.replacen("title: AFLOW", "title: AFLOW again", 1);
    // One endpoint listed twice in a tool of another id.
    let start = aflow.find("  - id: aflux").unwrap();
    let end = aflow[start + 1..]
        .find("\n  - id: ")
        .map_or(aflow.len(), |i| start + 1 + i);
    let endpoint = &aflow[start..end];
    let doubled = aflow
        .replacen("id: aflow\n", "id: aflow_doubled\n", 1)
        .replacen(endpoint, &format!("{endpoint}\n{endpoint}"), 1);
    for extra in [
        vec![("schemas/aflow_twin.yaml", twin)],
        vec![("schemas/aflow_doubled.yaml", doubled)],
    ] {
        let c = shipped_with(&extra);
        assert!(c.has_errors(), "the repeats are errors for check");
        same_graph(&c);
    }
}
