//! File texts of a derivation: the derived alias file (`aliases/derived.yaml`), the derived
//! intent file (`intents/derived.yaml`) and the rewritten tool files.
//!
//! A tool file is rewritten only when nothing in it would be lost: its leading comment block
//! (the editor's schema line, an import header) is kept as it is, suppression comments are
//! carried above their declarations (as a re-import does), and a file with any other comment is
//! left alone (and said so): its tool takes no part in the derivation.

use crate::import::emit;
use crate::model::{AliasFile, Concept, Domain, FieldGroup, Intent, IntentFile, Sp, Tool};
use crate::source::Format;

/// The name of the derived files in `aliases/` and `intents/`.
pub const DERIVED_FILE: &str = "derived.yaml";

/// The first lines of the derived files, after the editor's schema line.
const HEADER: &str = "# Derived by `schemarouter derive` from the tools' names, descriptions and schemas.\n\
# An entry marked `derived:` is rewritten by the next derivation; one you edit (its content no\n\
# longer matches the digest) is kept as it is. Delete the `derived:` line to make an entry\n\
# yours: derive then never changes it, nor the fields and parameters that refer to it.\n\
# Comments in this file are not kept.\n";

/// The leading comment block of a file (the lines before its first declaration), when every
/// other comment in it is a suppression comment (`# schemarouter: ...`), which a rewrite carries
/// over. Otherwise why the file cannot be rewritten. A `#` inside a value (a block scalar, a
/// quoted string, a URL fragment) is no comment: values are found by parsing the file.
pub fn leading_block(text: &str, format: Format) -> Result<String, String> {
    let (lead, others) = crate::import::emit::hand_comments(text, format)
        .ok_or_else(|| "the file does not parse".to_string())?;
    match others.first() {
        Some((line, c)) => Err(format!(
            "line {line} holds a comment (`{c}`) that rewriting the file would lose"
        )),
        None => Ok(lead),
    }
}

/// The new text of a tool file: its leading block, then the declaration with the carried
/// suppression comments.
///
/// Errors: the serialiser's message.
pub fn render_tool(
    tool: &Tool,
    format: Format,
    lead: &str,
    carried: &[emit::Carried],
) -> Result<String, String> {
    let body = emit::render_body(tool, format, carried)?;
    Ok(format!("{lead}{body}"))
}

/// The text of the derived alias file.
///
/// Errors: the serialiser's message.
pub fn render_aliases(concepts: Vec<Concept>, schema: &str) -> Result<String, String> {
    let file = AliasFile {
        concepts: concepts.into_iter().map(Sp::synthetic).collect(),
        aliases: Vec::new(),
        qualifiers: Vec::new(),
        recognisers: Vec::new(),
        cues: None,
    };
    Ok(format!(
        "# yaml-language-server: $schema={schema}\n{HEADER}{}",
        emit::to_yaml(&file)?
    ))
}

/// The text of the derived intent file.
///
/// Errors: the serialiser's message.
pub fn render_intents(
    domains: Vec<Domain>,
    groups: Vec<FieldGroup>,
    intents: Vec<Intent>,
    schema: &str,
) -> Result<String, String> {
    let file = IntentFile {
        domains: domains.into_iter().map(Sp::synthetic).collect(),
        groups: groups.into_iter().map(Sp::synthetic).collect(),
        intents: intents.into_iter().map(Sp::synthetic).collect(),
    };
    Ok(format!(
        "# yaml-language-server: $schema={schema}\n{HEADER}{}",
        emit::to_yaml(&file)?
    ))
}

/// The alias file `text` as it loads (for checking that a written file reads back).
pub fn parse_aliases(text: &str) -> Option<AliasFile> {
    parse(text)
}

/// The intent file `text` as it loads.
pub fn parse_intents(text: &str) -> Option<IntentFile> {
    parse(text)
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
    let limits = crate::model::config::Limits {
        max_file_bytes: u64::MAX,
        max_scalar_bytes: u64::MAX,
        ..Default::default()
    };
    let node = crate::load::parse_text(text, Format::Yaml, &limits).ok()?;
    crate::load::de::from_node::<T>(&node).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_with_other_comments_are_not_rewritten() {
        let ok = "# yaml-language-server: $schema=x\n# Imported by ...\nid: t\nendpoints:\n  # schemarouter: allow(SR506) -- why\n  - id: e\n    url: \"https://x.org/#frag\"\n";
        assert_eq!(
            leading_block(ok, Format::Yaml).unwrap(),
            "# yaml-language-server: $schema=x\n# Imported by ...\n"
        );
        let bad = "id: t\n# written by hand: careful\ntitle: T\n";
        assert_eq!(
            leading_block(bad, Format::Yaml).unwrap_err(),
            "line 2 holds a comment (`# written by hand: careful`) that rewriting the file would lose"
        );
        let inline = "id: t # the id\n";
        assert!(leading_block(inline, Format::Yaml).is_err());
        let toml = "id = \"t#1\"\ntitle = 'a # b'\n";
        assert_eq!(leading_block(toml, Format::Toml).unwrap(), "");
        let block = "description: |\n  ## A heading in a value\n  text # more\nid: t\n";
        assert_eq!(leading_block(block, Format::Yaml).unwrap(), "");
    }
}
