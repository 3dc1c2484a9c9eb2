//! Property test (issue 9): the compiled artifact is the same bytes under any permutation of
//! file order (renamed files) and of map key order inside every declaration.

use proptest::prelude::*;
use schemarouter::artifact;
use schemarouter::load::node::{Node, NodeKind};
use schemarouter::load::parse_text;
use schemarouter::source::Format;
use std::path::Path;

const FIXTURE: &str = "tests/fixtures/route-mini";

fn files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for sub in ["schemas", "intents", "aliases"] {
        let mut entries: Vec<_> = std::fs::read_dir(Path::new(FIXTURE).join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let text = std::fs::read_to_string(&p).unwrap();
            out.push((
                format!("{sub}/{}", p.file_name().unwrap().to_string_lossy()),
                text,
            ));
        }
    }
    out
}

/// JSON text of a node (JSON is YAML), with map entries in an order chosen by `pick`.
fn emit(n: &Node, pick: &mut impl FnMut(usize) -> usize, out: &mut String) {
    match &n.kind {
        NodeKind::Null => out.push_str("null"),
        NodeKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        NodeKind::Int(_, raw) | NodeKind::Float(_, raw) => out.push_str(raw),
        NodeKind::Str(s) => out.push_str(&serde_json::to_string(s).unwrap()),
        NodeKind::Seq(items) => {
            out.push('[');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                emit(it, pick, out);
            }
            out.push(']');
        }
        NodeKind::Map(entries) => {
            let mut order: Vec<usize> = (0..entries.len()).collect();
            // Fisher-Yates with the supplied choices.
            for i in (1..order.len()).rev() {
                let j = pick(i + 1);
                order.swap(i, j);
            }
            out.push('{');
            for (k, idx) in order.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                let (key, v) = &entries[*idx];
                out.push_str(&serde_json::to_string(&key.text).unwrap());
                out.push(':');
                emit(v, pick, out);
            }
            out.push('}');
        }
    }
}

fn compile_files(files: &[(String, String)]) -> Vec<u8> {
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let loaded = schemarouter::load::load_sources(None, &refs);
    let c = schemarouter::lint::check_loaded(loaded);
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    let g = artifact::build::compile(&c.project, &c.index, &c.units);
    // Both forms: the compact JSON and the binary artifact.
    let mut bytes = artifact::io::to_json_bytes(&g);
    bytes.extend(artifact::io::to_bin_bytes(&g));
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn same_bytes_under_file_and_key_order(choices in proptest::collection::vec(any::<u32>(), 512), names in proptest::collection::vec("[a-z]{1,8}", 16)) {
        let original = files();
        let baseline = compile_files(&original);
        let mut c = 0usize;
        let mut pick = |n: usize| {
            c += 1;
            (choices[c % choices.len()] as usize) % n
        };
        let mut permuted = Vec::new();
        for (i, (path, text)) in original.iter().enumerate() {
            let node = parse_text(text, Format::Yaml, &Default::default()).unwrap();
            let mut json = String::new();
            emit(&node, &mut pick, &mut json);
            let (dir, _) = path.split_once('/').unwrap();
            // New names permute the order files are read in.
            permuted.push((format!("{dir}/{}_{i}.yaml", names[i % names.len()]), json));
        }
        prop_assert!(compile_files(&permuted) == baseline);
    }
}
