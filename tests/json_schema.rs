//! The committed JSON Schemas under `docs/schema/` match the Rust types.

use schemarouter::model::{FileKind, json_schema};

#[test]
fn committed_json_schemas_are_current() {
    for kind in [
        FileKind::Tool,
        FileKind::Intent,
        FileKind::Alias,
        FileKind::Config,
    ] {
        let path = format!("docs/schema/{}.schema.json", kind.name());
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == json_schema(kind),
            "{path} is stale: run `schemarouter schema {} > {path}`",
            kind.name()
        );
    }
    for (name, text) in [
        ("understanding", schemarouter::route::understanding_schema()),
        ("plan", schemarouter::route::plan_schema()),
    ] {
        let path = format!("docs/schema/{name}.schema.json");
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "{path} is stale: run `schemarouter schema {name} > {path}`"
        );
    }
}

#[test]
fn rules_docs_are_current() {
    let committed = std::fs::read_to_string("docs/rules.md").unwrap_or_default();
    assert!(
        committed == schemarouter::lint::registry::rules_markdown(),
        "docs/rules.md is stale: run `schemarouter rules --format markdown > docs/rules.md`"
    );
}
