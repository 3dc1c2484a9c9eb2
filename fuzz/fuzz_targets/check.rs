//! Fuzz the loader and every rule: one fuzzed declaration file (kind and format chosen by the
//! first byte) added to a small valid project, checked, rendered in every format and, when it
//! has no errors, compiled and routed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schemarouter::diagnostics::render::{OutputFormat, render};

const BASE: &[(&str, &str)] = &[
    ("intents/registry.yaml", include_str!("../../tests/fixtures/route-mini/intents/registry.yaml")),
    ("aliases/concepts.yaml", include_str!("../../tests/fixtures/route-mini/aliases/concepts.yaml")),
    ("schemas/alpha.yaml", include_str!("../../tests/fixtures/route-mini/schemas/alpha.yaml")),
    ("schemas/lit.yaml", include_str!("../../tests/fixtures/route-mini/schemas/lit.yaml")),
];

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let folder = ["schemas", "intents", "aliases"][(sel % 3) as usize];
    let ext = if sel & 4 != 0 { "toml" } else { "yaml" };
    let name = format!("{folder}/fuzzed.{ext}");
    let mut files: Vec<(&str, &str)> = BASE.to_vec();
    files.push((&name, &text));
    let config = (sel & 8 != 0).then_some("[lint]\nfail-level = \"warn\"\n");
    let loaded = schemarouter::load::load_sources(config, &files);
    let checked = schemarouter::lint::check_loaded(loaded);
    for f in [
        OutputFormat::Human,
        OutputFormat::Concise,
        OutputFormat::Json,
        OutputFormat::Sarif,
        OutputFormat::Github,
        OutputFormat::Gitlab,
        OutputFormat::Junit,
    ] {
        let _ = render(f, &checked.diagnostics, &checked.project.sources, false);
    }
    if !checked.has_errors() {
        let g = schemarouter::artifact::build::compile(&checked.project, &checked.index, &checked.units);
        let bytes = schemarouter::artifact::io::to_json_bytes(&g);
        let back = schemarouter::artifact::io::load_bytes(&bytes).expect("own artifact loads");
        assert_eq!(back, g);
        let lex = schemarouter::route::analyzer::lexical::Lexical::new(&g);
        let a = lex.analyse(&text.chars().take(200).collect::<String>());
        let _ = schemarouter::route::route(&g, &a.understanding, &Default::default());
    }
});
