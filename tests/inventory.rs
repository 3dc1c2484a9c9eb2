//! The shipped inventory (issue 3): it checks clean, every tool of the spec is there, and its
//! counts are pinned so accidental loss is caught.

use schemarouter::diagnostics::Severity;
use schemarouter::lint::check_path;
use std::path::Path;

/// Tool ids fixed by `inventory_spec.md`.
const SPEC_TOOLS: &[(&str, &[&str])] = &[
    ("materials_project", &["summary"]),
    ("oqmd", &["formationenergy"]),
    ("jarvis_dft", &["dft_3d"]),
    ("nomad", &["entries_query"]),
    ("aflow", &["aflux"]),
    ("lab_notebook", &["measurements"]),
    ("cod", &["result"]),
    ("pubchem", &["compound_property"]),
    ("arxiv", &["query"]),
    ("crossref", &["works"]),
    ("openalex", &["works"]),
    ("pubmed", &["esummary"]),
    ("europe_pmc", &["search"]),
    ("dart", &["fnltt_singl_acnt", "list"]),
    ("web_search", &["search"]),
    ("qa_forum", &["search"]),
];

#[test]
fn shipped_inventory_checks_without_errors() {
    let c = check_path(Path::new(".")).unwrap();
    let errors: Vec<_> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The remaining warnings are the three unverified licences of the facts file.
    let warnings: Vec<_> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| d.name)
        .collect();
    assert_eq!(warnings, ["unverified-licence"; 3]);
}

#[test]
fn every_spec_tool_loads_by_id() {
    let c = check_path(Path::new(".")).unwrap();
    for (id, endpoints) in SPEC_TOOLS {
        let t = c
            .project
            .tools
            .iter()
            .find(|t| t.id.value == *id)
            .unwrap_or_else(|| panic!("tool {id} missing"));
        let mut eps: Vec<&str> = t.endpoints.iter().map(|e| e.id.value.as_str()).collect();
        eps.sort();
        assert_eq!(&eps, endpoints, "endpoints of {id}");
    }
    assert_eq!(c.project.tools.len(), SPEC_TOOLS.len());
}

#[test]
fn inventory_counts() {
    let c = check_path(Path::new(".")).unwrap();
    let p = &c.project;
    let endpoints: usize = p.tools.iter().map(|t| t.endpoints.len()).sum();
    let parameters: usize = p
        .tools
        .iter()
        .flat_map(|t| t.endpoints.iter())
        .map(|e| e.parameters.len())
        .sum();
    let fields: usize = p
        .tools
        .iter()
        .flat_map(|t| t.endpoints.iter())
        .map(|e| e.fields.len())
        .sum();
    let concept_aliases: usize = p
        .concepts
        .iter()
        .map(|c| c.item.aliases.values().map(Vec::len).sum::<usize>())
        .sum();
    let counts = [
        ("tools", p.tools.len()),
        ("endpoints", endpoints),
        ("parameters", parameters),
        ("response fields", fields),
        ("concepts", p.concepts.len()),
        ("concept aliases", concept_aliases),
        ("field aliases", p.aliases.len()),
        ("groups", p.groups.len()),
        ("domains", p.domains.len()),
        ("intents", p.intents.len()),
    ];
    assert_eq!(
        counts,
        [
            ("tools", 16),
            ("endpoints", 17),
            ("parameters", 189),
            ("response fields", 398),
            ("concepts", 192),
            ("concept aliases", 1224),
            ("field aliases", 50),
            ("groups", 17),
            ("domains", 6),
            ("intents", 13),
        ]
    );
    for i in &p.intents {
        assert_eq!(
            i.item.examples.len(),
            3,
            "intent {} needs three examples",
            i.item.id.value
        );
    }
}

#[test]
fn two_tools_are_toml() {
    let c = check_path(Path::new(".")).unwrap();
    let toml: Vec<&str> = c
        .project
        .sources
        .iter()
        .filter(|(_, f)| f.name.starts_with("schemas/") && f.name.ends_with(".toml"))
        .map(|(_, f)| f.name.as_str())
        .collect();
    assert_eq!(toml, ["schemas/cod.toml", "schemas/oqmd.toml"]);
}
