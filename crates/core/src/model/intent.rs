//! Intent files (under `intents/`): domains, field groups and intents.

use super::spanned::Sp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A file under `intents/`. Any of the three lists may be absent; a project may split them over
/// several files.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct IntentFile {
    /// Domains (paper node `Domain`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<Sp<Domain>>,
    /// Field groups (paper node `FieldGroup`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Sp<FieldGroup>>,
    /// Intents (paper node `Intent`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intents: Vec<Sp<Intent>>,
}

/// A domain: a family of tools an intent may target (`materials_property`, `literature`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Domain {
    /// Domain id.
    pub id: Sp<String>,
    /// What belongs to the domain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
}

/// A field group: a named set of response fields an intent may require (`electronic`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FieldGroup {
    /// Group id.
    pub id: Sp<String>,
    /// What the group's fields describe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
    /// The group's core concepts: its fields that carry one of them are the core fields, the
    /// rest are extended. The `core` projection adds only core fields as its safety net
    /// (rule `group-without-core` flags required groups that declare none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub core: Vec<Sp<String>>,
    /// Set by `schemarouter derive` on the entries it writes: `blake3:<hex>`, the digest of the
    /// entry as derived. `derive` replaces an entry whose content still matches its digest; one a
    /// person edited (content and digest differ) is kept as it is; an entry without this key is
    /// a person's, and `derive` never writes, removes or re-references it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived: Option<Sp<String>>,
}

/// An intent: a kind of question (paper node `Intent`; the Understand step picks one).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Intent {
    /// Intent id (`electronic_property`).
    pub id: Sp<String>,
    /// One line, fit for the generated intent-registry prompt.
    pub description: Sp<String>,
    /// Domains whose tools can answer it (Algorithm 1 candidate filter).
    pub domains: Vec<Sp<String>>,
    /// Field groups a candidate tool must provide one of; their fields are projected.
    pub required_groups: Vec<Sp<String>>,
    /// Example queries (used by the offline analyzer and shown in docs; not in the prompt).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Sp<String>>,
    /// Parameter concepts (entity kinds: `formula`, `compound_name`, `doi`, `corp_code`) for
    /// which this intent is the default when a question names only the entity ("pyrite?",
    /// "caffeine"): the offline Understand step picks it and says so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<Sp<String>>,
    /// Set by `schemarouter derive` on the entries it writes: `blake3:<hex>`, the digest of the
    /// entry as derived. `derive` replaces an entry whose content still matches its digest; one a
    /// person edited (content and digest differ) is kept as it is; an entry without this key is
    /// a person's, and `derive` never writes, removes or re-references it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived: Option<Sp<String>>,
}
