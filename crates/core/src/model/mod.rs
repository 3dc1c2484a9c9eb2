//! The declaration model: what the files under `schemas/`, `intents/` and `aliases/` say, with the
//! span of every value a diagnostic may need.
//!
//! The node kinds follow the SchemaRouter paper's schema graph (section 4): Tool, Endpoint,
//! Parameter, ResponseField, FieldGroup, Domain, Intent, DomainConcept (here [`Concept`]), plus
//! aliases, units, source types, provenance and licences. This module depends on nothing else
//! in the crate but [`crate::source`].

pub mod bounds;
pub mod concept;
pub mod config;
pub mod destructive;
pub mod identifier;
pub mod intent;
pub mod lexicon;
pub mod spanned;
pub mod tool;
pub mod value;

pub use concept::{AliasDecl, AliasFile, Concept, ConceptKind, QualifierDecl, QualifierValue};
pub use config::{Config, LevelSetting, Profile};
pub use intent::{Domain, FieldGroup, Intent, IntentFile};
pub use lexicon::{CuesDecl, RecogniserDecl, SourceCueDecl, TopicDecl};
pub use spanned::Sp;
pub use tool::{
    Annotations, ArrayEncoding, Binding, Bounds, Endpoint, HttpMethod, Licence, McpServer,
    ParamLocation, Parameter, Provenance, ResponseField, Tool, XmlNode, media_type_fault,
    number_value, text_media,
};
pub use value::{Scalar, Template, ValueType};

use crate::source::{FileId, SourceMap, Span};
use std::path::PathBuf;
use unicode_normalization::UnicodeNormalization;

/// The five source types every project knows (paper section 4); a project may add more in
/// `schemarouter.toml` (`source-types`).
pub const BUILTIN_SOURCE_TYPES: &[&str] = &[
    "experimental",
    "calculated",
    "literature",
    "regulatory_filing",
    "web",
];

/// The digest that marks an entry `schemarouter derive` wrote (`derived: blake3:<hex>`):
/// `blake3:` and the first 12 hex digits of the blake3 of the entry's JSON form without its
/// `derived` key. An entry whose mark differs from its digest was edited by a person.
pub fn derived_digest<T: serde::Serialize>(entry: &T) -> String {
    let mut v = serde_json::to_value(entry).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("derived");
    }
    let bytes = serde_json::to_vec(&v).unwrap_or_default();
    let hex = blake3::hash(&bytes).to_hex();
    format!("blake3:{}", &hex[..12])
}

/// A declaration together with the file it came from.
#[derive(Clone, Debug)]
pub struct Decl<T> {
    /// The declaring file.
    pub file: FileId,
    /// The declaration and its span in that file.
    pub item: Sp<T>,
}

impl<T> std::ops::Deref for Decl<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.item.value
    }
}

/// The kind of a declaration file, from the folder it sits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    /// A file under `schemas/`: one tool.
    Tool,
    /// A file under `intents/`: domains, groups and intents.
    Intent,
    /// A file under `aliases/`: concepts and aliases.
    Alias,
    /// `schemarouter.toml`.
    Config,
}

impl FileKind {
    /// Name used on the command line (`schemarouter schema tool`).
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Tool => "tool",
            FileKind::Intent => "intent",
            FileKind::Alias => "alias",
            FileKind::Config => "config",
        }
    }
}

/// Everything a project declares, in deterministic order (files sorted by path, declarations in
/// file order). Built by `schemarouter::load::load_project` (the linter crate).
#[derive(Clone, Debug, Default)]
pub struct Project {
    /// Project root on disk.
    pub root: PathBuf,
    /// The configuration (defaults when there is no `schemarouter.toml`).
    pub config: Config,
    /// The configuration file, when there is one.
    pub config_file: Option<FileId>,
    /// All loaded files.
    pub sources: SourceMap,
    /// Kind of each loaded file, indexed by file id.
    pub file_kinds: Vec<FileKind>,
    /// Tools, one per tool file.
    pub tools: Vec<Decl<Tool>>,
    /// Domains.
    pub domains: Vec<Decl<Domain>>,
    /// Field groups.
    pub groups: Vec<Decl<FieldGroup>>,
    /// Intents.
    pub intents: Vec<Decl<Intent>>,
    /// Concepts.
    pub concepts: Vec<Decl<Concept>>,
    /// Stand-alone aliases.
    pub aliases: Vec<Decl<AliasDecl>>,
    /// Qualifier keys with their values and aliases.
    pub qualifiers: Vec<Decl<QualifierDecl>>,
    /// Recognisers of parameter values.
    pub recognisers: Vec<Decl<RecogniserDecl>>,
    /// Source-type cue words.
    pub source_cues: Vec<Decl<SourceCueDecl>>,
    /// Topics no tool serves.
    pub scope_topics: Vec<Decl<TopicDecl>>,
}

impl Project {
    /// Source types known to this project: the built-ins plus the configured extras.
    pub fn source_types(&self) -> Vec<String> {
        let mut v: Vec<String> = BUILTIN_SOURCE_TYPES.iter().map(|s| s.to_string()).collect();
        v.extend(self.config.source_types.iter().map(|s| s.value.clone()));
        v
    }

    /// A location (file and span) for diagnostics.
    pub fn loc(&self, file: FileId, span: Span) -> (FileId, Span) {
        (file, span)
    }
}

/// Normalise an id or alias text for comparison: Unicode NFKC, lower case, and every run of
/// whitespace, `-` and `_` turned into a single `_`, with leading and trailing ones dropped.
/// Other punctuation, `.` included (it separates the segments of field paths), is kept.
/// `Band-Gap`, ` band  gap ` and `band_gap` all give `band_gap`; `a.b` stays `a.b`; NFC and NFD
/// spellings of `Å` agree.
pub fn normalise_id(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_sep = false;
    // NFKC leaves ASCII unchanged: skip it on the (common) ASCII path.
    if s.is_ascii() {
        for c in s.chars() {
            if c.is_whitespace() || c == '-' || c == '_' {
                pending_sep = true;
            } else {
                if pending_sep && !out.is_empty() {
                    out.push('_');
                }
                pending_sep = false;
                out.push(c.to_ascii_lowercase());
            }
        }
        return out;
    }
    for c in s.nfkc().flat_map(|c| c.to_lowercase()) {
        if c.is_whitespace() || c == '-' || c == '_' {
            pending_sep = true;
        } else {
            if pending_sep && !out.is_empty() {
                out.push('_');
            }
            pending_sep = false;
            out.push(c);
        }
    }
    out
}

/// Normalise alias text for matching queries: the same as [`normalise_id`] (case, spaces, `-`,
/// `_`, and NFKC, which also maps the two micro signs and the two angstrom signs to one code
/// point each); other punctuation is kept, so `μB` and `K_VRH` survive.
pub fn normalise_alias(s: &str) -> String {
    normalise_id(s)
}

/// The JSON Schema (draft 2020-12, pretty JSON with a final newline) of a declaration file kind,
/// generated from the Rust types.
pub fn json_schema(kind: FileKind) -> String {
    let schema = match kind {
        FileKind::Tool => schemars::schema_for!(Tool),
        FileKind::Intent => schemars::schema_for!(IntentFile),
        FileKind::Alias => schemars::schema_for!(AliasFile),
        FileKind::Config => schemars::schema_for!(Config),
    };
    let mut s = serde_json::to_string_pretty(&schema).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_normalise_case_separators_and_unicode() {
        assert_eq!(normalise_id("Band-Gap"), "band_gap");
        assert_eq!(normalise_id("band  gap"), "band_gap");
        assert_eq!(normalise_id(" band_gap "), "band_gap");
        // As documented: `.` is kept, leading and trailing separators go.
        assert_eq!(normalise_id("a.b"), "a.b");
        assert_eq!(normalise_id("_-x-_"), "x");
        // NFC vs NFD
        assert_eq!(normalise_id("\u{00C5}"), normalise_id("A\u{030A}"));
        // both micro signs
        assert_eq!(normalise_id("\u{00B5}B"), normalise_id("\u{03BC}B"));
        assert_eq!(normalise_id("밴드 갭"), "밴드_갭");
    }
}
