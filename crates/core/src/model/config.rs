//! `schemarouter.toml`: the project configuration. Every section is optional; defaults are the
//! conventional layout (`schemas/`, `intents/`, `aliases/`) and every rule at its default level.

use super::spanned::Sp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The project's configuration file, at the project root (its folder is the project root): the
/// one spelling of its name, for the loader, the command line, the generator and dense search.
pub const CONFIG_FILE: &str = "schemarouter.toml";

/// The whole configuration file.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    /// Project name and version (recorded in the compiled artifact).
    #[serde(default)]
    pub project: ProjectMeta,
    /// Declaration folders, relative to the project root.
    #[serde(default)]
    pub paths: Paths,
    /// Lint settings.
    #[serde(default)]
    pub lint: LintConfig,
    /// Source types beyond the built-in five.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_types: Vec<Sp<String>>,
    /// Extra units: symbol -> definition in the unit grammar (`bohr = "0.529177210903 Å"`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub units: BTreeMap<String, Sp<String>>,
    /// Intent-registry prompt settings.
    #[serde(default)]
    pub prompt: PromptConfig,
    /// Schema-diff settings.
    #[serde(default)]
    pub diff: DiffConfig,
    /// Input limits.
    #[serde(default)]
    pub limits: Limits,
    /// Search settings.
    #[serde(default)]
    pub search: SearchConfig,
}

/// Search settings: the dense signal's weights (see `search::dense`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SearchConfig {
    /// A local folder holding static token embeddings as a registry package ships them (one
    /// `*.safetensors` table and a `tokenizers` JSON file, e.g. the `wordllama` folder of PyPI's
    /// `wordllama` wheel), relative to the project root. `compile` then stores one vector per
    /// endpoint and the search is hybrid; the environment variable `SCHEMAROUTER_EMBEDDINGS`
    /// overrides where the folder is. Nothing is downloaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embeddings: Option<Sp<String>>,
    /// Weight of the cosine against the query's best BM25F score in the hybrid score (default
    /// 2.5; 0 to 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dense_weight: Option<Sp<f64>>,
}

/// Project identity.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProjectMeta {
    /// Project name (default `schemarouter-project`).
    #[serde(default = "default_name")]
    pub name: String,
    /// Project version (default `0.0.0`).
    #[serde(default = "default_version")]
    pub version: String,
}

fn default_name() -> String {
    "schemarouter-project".to_string()
}
fn default_version() -> String {
    "0.0.0".to_string()
}

impl Default for ProjectMeta {
    fn default() -> Self {
        ProjectMeta {
            name: default_name(),
            version: default_version(),
        }
    }
}

/// Declaration folders.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Paths {
    /// Tool files (default `schemas`).
    #[serde(default = "default_schemas")]
    pub schemas: String,
    /// Intent, group and domain files (default `intents`).
    #[serde(default = "default_intents")]
    pub intents: String,
    /// Concept and alias files (default `aliases`).
    #[serde(default = "default_aliases")]
    pub aliases: String,
}

fn default_schemas() -> String {
    "schemas".into()
}
fn default_intents() -> String {
    "intents".into()
}
fn default_aliases() -> String {
    "aliases".into()
}

impl Default for Paths {
    fn default() -> Self {
        Paths {
            schemas: default_schemas(),
            intents: default_intents(),
            aliases: default_aliases(),
        }
    }
}

/// A rule level in the configuration.
#[derive(
    Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
#[serde(rename_all = "lowercase")]
pub enum LevelSetting {
    /// The rule does not run.
    Off,
    /// Informational.
    Info,
    /// Warning (`warning` is accepted too).
    #[serde(alias = "warning")]
    Warn,
    /// Error.
    Error,
}

/// A lint profile: which rules run (after buf's `MINIMAL` / `STANDARD` categories). Each rule
/// declares in the rule table the lowest profile it belongs to; a profile runs its own rules and
/// those of the profiles below it. `[lint.rules]` levels apply on top (a rule set there runs
/// whatever the profile).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    Deserialize,
    Serialize,
    JsonSchema,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Faults only: files that do not load, broken references, invalid units and licences,
    /// destructive endpoints, suppressions. What `import` writes for a new project: quiet about
    /// the gaps a person fills over months (concepts, identifiers, groups, licence checks).
    Minimal,
    /// Faults and gaps: every rule at its default level (the default).
    #[default]
    Standard,
    /// Standard, and what a reviewed project should no longer have (derived concept-layer
    /// entries no person has reviewed).
    Strict,
}

impl Profile {
    /// The spelling in `schemarouter.toml` (`minimal`, `standard`, `strict`).
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Minimal => "minimal",
            Profile::Standard => "standard",
            Profile::Strict => "strict",
        }
    }

    /// Every profile, smallest first.
    pub const ALL: [Profile; 3] = [Profile::Minimal, Profile::Standard, Profile::Strict];
}

/// Lint settings.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LintConfig {
    /// Which rules run: `minimal` (faults), `standard` (faults and gaps; the default) or `strict`
    /// (standard, and unreviewed derived entries). `schemarouter rules` shows each rule's
    /// profiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<Sp<Profile>>,
    /// Lowest severity that makes `check` exit 1 (`error` by default; `warn` or `info` are
    /// stricter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_level: Option<Sp<LevelSetting>>,
    /// Glob patterns (relative to the project root) of declaration files to skip.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<Sp<String>>,
    /// Per-rule level, by rule name or code: `unit-conflict = "error"`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rules: BTreeMap<String, Sp<LevelSetting>>,
    /// Token budget for the generated intent-registry prompt (rule `prompt-budget`; default 600).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_budget: Option<Sp<u32>>,
}

/// Prompt settings.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PromptConfig {
    /// A template file (relative to the project root) with the placeholders `{{intents}}`,
    /// `{{parameter_concepts}}`, `{{tool_names}}` and `{{source_types}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Sp<String>>,
}

/// Diff settings.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DiffConfig {
    /// Accepted changes: they no longer fail the gate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accept: Vec<Sp<Acceptance>>,
}

/// One accepted change.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Acceptance {
    /// The change's fingerprint as printed by `schemarouter diff`.
    pub fingerprint: Sp<String>,
    /// Why the change is intended.
    pub reason: Sp<String>,
}

/// Input limits; a file or project beyond them is refused with a clear error.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Limits {
    /// Largest declaration file, in bytes (default 8 MiB).
    #[serde(default = "default_max_file_bytes")]
    pub max_file_bytes: u64,
    /// Largest total of all declaration files, in bytes (default 1 GiB).
    #[serde(default = "default_max_project_bytes")]
    pub max_project_bytes: u64,
    /// Most declaration files (default 100,000).
    #[serde(default = "default_max_files")]
    pub max_files: u64,
    /// Deepest nesting of maps and lists (default 64).
    #[serde(default = "default_max_depth")]
    pub max_depth: u32,
    /// Most YAML alias uses per file (default 10,000).
    #[serde(default = "default_max_aliases")]
    pub max_aliases: u64,
    /// Longest string value or key, in bytes (default 256 KiB): a title or description is
    /// written into the intent-registry prompt, whose exact token count costs time in the
    /// length of its longest unbroken word.
    #[serde(default = "default_max_scalar_bytes")]
    pub max_scalar_bytes: u64,
    /// Most values of one `enum` list (default 10,000): the router reads a parameter's enum
    /// for each question, and a list this long is better a free parameter.
    #[serde(default = "default_max_enum_values")]
    pub max_enum_values: u64,
}

fn default_max_file_bytes() -> u64 {
    8 * 1024 * 1024
}
fn default_max_project_bytes() -> u64 {
    1024 * 1024 * 1024
}
fn default_max_files() -> u64 {
    100_000
}
fn default_max_depth() -> u32 {
    64
}
fn default_max_aliases() -> u64 {
    10_000
}
fn default_max_scalar_bytes() -> u64 {
    256 * 1024
}
fn default_max_enum_values() -> u64 {
    10_000
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: default_max_file_bytes(),
            max_project_bytes: default_max_project_bytes(),
            max_files: default_max_files(),
            max_depth: default_max_depth(),
            max_aliases: default_max_aliases(),
            max_scalar_bytes: default_max_scalar_bytes(),
            max_enum_values: default_max_enum_values(),
        }
    }
}
