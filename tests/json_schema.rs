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
}
