//! The Understand step's domain knowledge is the project's declaration (alias-file keys
//! `recognisers` and `cues`, compiled into the artifact's `lexicon`): a project that declares
//! none of it gets none of the shipped inventory's behaviour (no formula or identifier read, no
//! source cue, no topic refused), and the same project with the declarations gets it.

use schemarouter::artifact::{self, FrozenGraph};
use schemarouter::lint::check_path;
use schemarouter::route::Understanding;
use schemarouter::route::analyzer::lexical::Lexical;
use std::path::Path;

fn compile(root: &Path) -> FrozenGraph {
    let c = check_path(root).unwrap();
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    artifact::build::compile(&c.project, &c.index, &c.units)
}

/// A small materials project: one tool that takes a formula and a DOI, an intent, the
/// concepts; `with_lexicon` adds declarations of the shipped inventory's kinds.
fn project(with_lexicon: bool) -> FrozenGraph {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let write = |path: &str, text: &str| std::fs::write(dir.path().join(path), text).unwrap();
    write(
        "schemas/db.yaml",
        "id: db\ntitle: Materials DB\ndomain: materials\nsource_type: calculated\nendpoints:\n  - id: search\n    method: GET\n    url: https://db.example/search\n    parameters:\n      - {name: formula, type: string, bind: [{concept: formula}]}\n      - {name: doi, type: string, bind: [{concept: doi}]}\n    fields:\n      - {name: id, type: string, identifier: true}\n      - {name: band_gap, type: number, unit: eV, groups: [electronic], concepts: [band_gap]}\n",
    );
    write(
        "intents/i.yaml",
        "domains:\n  - id: materials\ngroups:\n  - id: electronic\nintents:\n  - id: electronic_property\n    description: Electronic properties of a material.\n    domains: [materials]\n    required_groups: [electronic]\n    entities: [formula]\n",
    );
    write(
        "aliases/a.yaml",
        "concepts:\n  - id: band_gap\n    unit: eV\n    aliases: {en: [band gap]}\n  - id: formula\n    kind: parameter\n  - id: doi\n    kind: parameter\n",
    );
    if with_lexicon {
        write(
            "aliases/lexicon.yaml",
            "recognisers:\n  - {concept: formula, kind: formula, entity: true, multiple: true}\n  - {concept: formula, kind: names, entity: true, names: {gallium nitride: GaN}}\n  - {concept: doi, kind: doi, entity: true}\ncues:\n  source_types:\n    - {source_type: calculated, words: [dft, calculated]}\n  out_of_scope:\n    - {topic: weather, reason: 'a weather request (`{cue}`)', words: [weather]}\n",
        );
    }
    compile(dir.path())
}

fn understand(g: &FrozenGraph, q: &str) -> Understanding {
    Lexical::new(g).analyse(q).understanding
}

#[test]
fn a_project_that_declares_nothing_reads_no_domain_knowledge() {
    let g = project(false);
    assert!(g.lexicon.is_empty());
    let u = understand(&g, "band gap of GaN from DFT");
    assert_eq!(u.intent.as_deref(), Some("electronic_property"));
    assert!(u.parameters.is_empty(), "{u:?}");
    assert_eq!(u.source_constraint, None);
    let u = understand(&g, "band gap of gallium nitride, doi 10.1063/1.4812323");
    assert!(u.parameters.is_empty(), "{u:?}");
    let u = understand(&g, "What's the current weather in London?");
    assert_eq!(u.out_of_scope, None, "{u:?}");
}

#[test]
fn the_same_project_with_its_declarations_reads_them() {
    let g = project(true);
    let u = understand(&g, "band gap of GaN and AlN from DFT");
    assert_eq!(u.intent.as_deref(), Some("electronic_property"));
    assert_eq!(
        u.parameters.get("formula"),
        Some(&serde_json::json!(["GaN", "AlN"]))
    );
    assert_eq!(u.source_constraint.as_deref(), Some("calculated"));
    let u = understand(&g, "band gap of gallium nitride");
    assert_eq!(u.parameters.get("formula"), Some(&serde_json::json!("GaN")));
    let u = understand(&g, "band gap in 10.1063/1.4812323");
    assert_eq!(
        u.parameters.get("doi"),
        Some(&serde_json::json!("10.1063/1.4812323"))
    );
    let u = understand(&g, "What's the current weather in London?");
    assert_eq!(
        u.out_of_scope.as_deref(),
        Some("a weather request (`weather`)")
    );
    // An entity alone picks the intent declared for it.
    let u = understand(&g, "gallium nitride?");
    assert_eq!(u.intent.as_deref(), Some("electronic_property"));
}

/// The findings `check` gives for one alias file, as `code message` lines.
fn findings(alias_file: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    std::fs::write(dir.path().join("aliases/a.yaml"), alias_file).unwrap();
    let c = check_path(dir.path()).unwrap();
    c.diagnostics
        .iter()
        .filter(|d| d.code.starts_with("SR1") || d.code.starts_with("SR2"))
        .filter(|d| d.code != "SR205")
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}

#[test]
fn bad_declarations_are_reported() {
    assert_eq!(
        findings("concepts:\n  - {id: doi, kind: parameter}\nrecognisers:\n  - concept: doi\n"),
        ["SR208 recogniser of `doi` names no kind and no pattern"]
    );
    assert_eq!(
        findings(
            "concepts:\n  - {id: doi, kind: parameter}\nrecognisers:\n  - {concept: doi, kind: pattern}\n"
        ),
        ["SR209 recogniser of `doi` is of kind `pattern` but has no `pattern`"]
    );
    assert_eq!(
        findings(
            "concepts:\n  - {id: doi, kind: parameter}\nrecognisers:\n  - {concept: doi, pattern: '(?<=x)1'}\n"
        ),
        [
            "SR209 the pattern of the recogniser of `doi` does not compile: look-around, including look-ahead and look-behind, is not supported"
        ]
    );
    assert_eq!(
        findings(
            "recognisers:\n  - {concept: dio, kind: doi, unless: [formula]}\ncues:\n  source_types:\n    - {source_type: measured, words: [measured]}\n"
        ),
        [
            "SR103 a recogniser references undeclared concept `dio`",
            "SR103 a recogniser references undeclared concept `formula`",
            "SR104 source-type cue has unknown source type `measured`",
        ]
    );
}

#[test]
fn a_concepts_companions_are_checked_and_answer_it() {
    // An undeclared companion is a dangling reference.
    assert_eq!(
        findings(
            "concepts:\n  - {id: is_stable, dimension: none, companions: [energy_above_hul]}\n"
        ),
        [
            "SR103 the `companions` of concept `is_stable` references undeclared concept `energy_above_hul`"
        ]
    );
    // A concept no field carries is not orphaned when a field carries one of its companions.
    let dir = tempfile::tempdir().unwrap();
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    std::fs::write(
        dir.path().join("aliases/a.yaml"),
        "concepts:\n  - {id: bulk_modulus, unit: GPa}\n  - {id: hardness, unit: GPa, companions: [bulk_modulus]}\n  - {id: toughness, unit: GPa}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("schemas/t.yaml"),
        "id: t\ntitle: T\ndomain: d\nendpoints:\n  - id: e\n    method: GET\n    url: https://example.org/e\n    fields:\n      - {name: id, type: string, identifier: true}\n      - {name: k, type: number, unit: GPa, concepts: [bulk_modulus]}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("intents/i.yaml"), "domains:\n  - id: d\n").unwrap();
    let c = check_path(dir.path()).unwrap();
    let orphans: Vec<String> = c
        .diagnostics
        .iter()
        .filter(|d| d.code == "SR205")
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        orphans,
        ["concept `toughness` is orphaned: no response field carries it"]
    );
}
