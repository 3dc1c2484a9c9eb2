//! Property tests: the loader never panics, whatever the bytes.

use proptest::prelude::*;
use schemarouter::load::{de, parse_text};
use schemarouter::model::config::Limits;
use schemarouter::model::{AliasFile, IntentFile, Tool};
use schemarouter::source::Format;

fn read_all(text: &str, format: Format) {
    if let Ok(node) = parse_text(text, format, &Limits::default()) {
        let _ = de::from_node::<Tool>(&node);
        let _ = de::from_node::<IntentFile>(&node);
        let _ = de::from_node::<AliasFile>(&node);
    }
}

/// Fragments that make YAML- and TOML-shaped text.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("id: x\n".to_string()),
        Just("  - ".to_string()),
        Just("endpoints:\n".to_string()),
        Just("fields: [".to_string()),
        Just("]".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("&a ".to_string()),
        Just("*a".to_string()),
        Just("<<: ".to_string()),
        Just("---\n".to_string()),
        Just("[[endpoints]]\n".to_string()),
        Just("name = \"x\"\n".to_string()),
        Just("\"".to_string()),
        Just("'".to_string()),
        Just("# c\n".to_string()),
        Just("\r\n".to_string()),
        Just("\t".to_string()),
        Just("Å μ 한".to_string()),
        Just("\u{feff}".to_string()),
        Just("1.10".to_string()),
        Just("no".to_string()),
        Just(": ".to_string()),
        "[a-z_]{1,6}".prop_map(|s| s),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        read_all(&text, Format::Yaml);
        read_all(&text, Format::Toml);
    }

    #[test]
    fn shaped_text_never_panics(parts in proptest::collection::vec(fragment(), 0..60)) {
        let text: String = parts.concat();
        read_all(&text, Format::Yaml);
        read_all(&text, Format::Toml);
    }
}
