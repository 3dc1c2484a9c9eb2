//! Fuzz the schema diff: the input is split at the first NUL into two versions of one
//! declaration file over a small base project; both are compiled (when they check clean) and
//! diffed both ways and against themselves (which must be empty), in every output format.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schemarouter::diff::{self, Side};

const BASE: &[(&str, &str)] = &[
    ("intents/registry.yaml", include_str!("../../tests/fixtures/route-mini/intents/registry.yaml")),
    ("aliases/concepts.yaml", include_str!("../../tests/fixtures/route-mini/aliases/concepts.yaml")),
    ("schemas/alpha.yaml", include_str!("../../tests/fixtures/route-mini/schemas/alpha.yaml")),
];

fn side(name: &str, text: &str) -> Option<Side> {
    let mut files: Vec<(&str, &str)> = BASE.to_vec();
    files.push((name, text));
    let checked = schemarouter::lint::check_loaded(schemarouter::load::load_sources(None, &files));
    if checked.has_errors() {
        return None;
    }
    let g = schemarouter::artifact::build::compile(&checked.project, &checked.index, &checked.units);
    Some(Side::from_graph(g, name))
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let cut = rest.iter().position(|b| *b == 0).unwrap_or(rest.len());
    let a = String::from_utf8_lossy(&rest[..cut]);
    let b = String::from_utf8_lossy(rest.get(cut + 1..).unwrap_or(&[]));
    let folder = ["schemas", "intents", "aliases"][(sel % 3) as usize];
    let name = format!("{folder}/fuzzed.yaml");
    let (Some(old), Some(new)) = (side(&name, &a), side(&name, &b)) else { return };
    assert!(diff::diff(&old, &old).changes.is_empty(), "diff(A, A) must be empty");
    for (x, y) in [(&old, &new), (&new, &old)] {
        let report = diff::diff(x, y);
        for f in [
            diff::render::DiffFormat::Human,
            diff::render::DiffFormat::Json,
            diff::render::DiffFormat::Markdown,
            diff::render::DiffFormat::Github,
            diff::render::DiffFormat::Junit,
        ] {
            let _ = diff::render::render(f, &report, Default::default());
        }
    }
});
