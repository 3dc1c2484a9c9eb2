//! The frozen graph artifact: everything Algorithm 1 needs, precomputed, in a deterministic,
//! versioned, hash-verified file (`graph.json`, or the compact `graph.bin`).
//!
//! Paper section 5: every router reads "a frozen JSON export of the schema graph" so every run
//! uses an identical, versioned schema. Layout: header (`format_version`, `tool_version`,
//! `project`, `content_hash`, `routing_fingerprint`), the routing tables (tools with endpoints,
//! parameters and fields carrying their attachable metadata; intents; concepts), the indices
//! (`index`), and last the typed graph as sorted node and edge lists (last, so that a routing
//! load stops before it). All lists are sorted and all maps are ordered, so the same sources
//! give the same bytes.

pub mod bin;
pub mod build;
mod compact;
pub mod io;
pub mod lazy;
pub mod lexicon;
mod routing_json;
pub mod shared;

use crate::graph::build::{GEdge, GNode};
use crate::model::{Scalar, Template};
use serde::{Deserialize, Serialize};
use shared::{Shared, SharedKeys};
use std::collections::BTreeMap;
use std::sync::Arc;

pub use io::{
    Hashed, LoadError, load, load_bytes, load_routing, load_routing_bytes, load_routing_lazy,
};
pub use lazy::{LazyMap, LazyVec, reading};

/// `deserialize_with` readers of the artifact's maps: each refuses a repeated key and names
/// its map in the error (``duplicate key `band_gap` in `index.concept_postings` at line 1
/// column 9301``), as serde refuses a repeated struct field; see [`crate::json::UniqueMap`].
pub(crate) mod unique {
    use crate::json::UniqueMap;
    use serde::Deserializer;

    macro_rules! maps {
        ($($f:ident => $name:literal),* $(,)?) => {$(
            #[doc = concat!("Read the map `", $name, "`, refusing a repeated key.")]
            pub(crate) fn $f<'de, D: Deserializer<'de>, M: UniqueMap<'de>>(
                d: D,
            ) -> Result<M, D::Error> {
                M::deserialize_unique(d, $name)
            }
        )*};
    }

    maps! {
        group_fields => "tools[].endpoints[].group_fields",
        binding_set => "tools[].endpoints[].parameters[].bind[].set",
        qualifiers => "tools[].endpoints[].fields[].qualifiers",
        concept_factors => "tools[].endpoints[].fields[].concept_factors",
        concept_aliases => "concepts[].aliases",
        alias_to_concept => "index.alias_to_concept",
        alias_to_field => "index.alias_to_field",
        concept_postings => "index.concept_postings",
        param_postings => "index.param_postings",
        tool_names => "index.tool_names",
        field_names => "index.field_names",
        qualifier_values => "index.qualifier_values",
        qualifier_keys => "index.qualifier_keys",
        search_terms => "index.search_terms",
    }
}

/// How the artifact is being serialised: normally, with the content hash zeroed (to compute
/// it), or as the routing view (prose, examples, versions and hashes left out) for the routing
/// fingerprint. Set only by [`io`] and [`build`] around one serialisation on this thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SerMode {
    Normal,
    ZeroHash,
    Routing,
}

thread_local! {
    static SER_MODE: std::cell::Cell<SerMode> = const { std::cell::Cell::new(SerMode::Normal) };
}

/// Run `f` with the serialisation mode set, restoring it afterwards.
pub(crate) fn with_mode<T>(mode: SerMode, f: impl FnOnce() -> T) -> T {
    let old = SER_MODE.with(|m| m.replace(mode));
    let out = f();
    SER_MODE.with(|m| m.set(old));
    out
}

fn mode() -> SerMode {
    SER_MODE.with(|m| m.get())
}

fn skip_prose(v: &Option<String>) -> bool {
    v.is_none() || mode() == SerMode::Routing
}

fn skip_examples(v: &[String]) -> bool {
    v.is_empty() || mode() == SerMode::Routing
}

fn ser_prose<S: serde::Serializer>(v: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(if mode() == SerMode::Routing { "" } else { v })
}

fn ser_routing_blank<S: serde::Serializer>(v: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(if mode() == SerMode::Routing { "" } else { v })
}

fn ser_content_hash<S: serde::Serializer>(v: &str, s: S) -> Result<S::Ok, S::Error> {
    match mode() {
        SerMode::Normal => s.serialize_str(v),
        SerMode::ZeroHash => s.serialize_str(ZERO_HASH),
        SerMode::Routing => s.serialize_str(""),
    }
}

/// The content hash placeholder (64 zeros).
pub(crate) const ZERO_HASH: &str =
    "0000000000000000000000000000000000000000000000000000000000000000";

/// The intent-registry prompt (the Understand step's prompt), written by `compile` beside the
/// artifact and read from there by `route`, `eval`, the servers and the Python binding
/// (through [`crate::prompt::read_beside`]).
pub const PROMPT_FILE: &str = "intent_prompt.txt";

/// The artifact's JSON form, as `compile` names it in its output folder.
pub const JSON_FILE: &str = "graph.json";

/// The artifact's binary form (rkyv, memory-mapped by readers), as `compile` names it in its
/// output folder.
pub const BIN_FILE: &str = "graph.bin";

/// Current artifact format. Readers refuse other formats (older ones with a "recompile"
/// error).
pub const FORMAT_VERSION: u32 = 3;

/// The artifact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, rkyv::Archive, rkyv::Serialize)]
pub struct FrozenGraph {
    /// Artifact format version ([`FORMAT_VERSION`] when written by this build).
    pub format_version: u32,
    /// Version of schemarouter that wrote it.
    #[serde(serialize_with = "ser_routing_blank")]
    pub tool_version: String,
    /// Project name and version from `schemarouter.toml`.
    pub project: ProjectInfo,
    /// blake3 (hex) of the `graph.json` bytes with this value's 64 digits replaced by `0`s.
    #[serde(serialize_with = "ser_content_hash")]
    pub content_hash: String,
    /// blake3 (hex) of what can change a plan (descriptions and example queries excluded).
    #[serde(serialize_with = "ser_routing_blank")]
    pub routing_fingerprint: String,
    /// Tools sorted by id (archive-backed and converted on first read when loaded from
    /// `graph.bin`).
    #[rkyv(with = bin::ToolSpans)]
    pub tools: LazyVec<ToolData>,
    /// Intents sorted by id.
    pub intents: Vec<IntentData>,
    /// Concepts sorted by id.
    pub concepts: Vec<ConceptData>,
    /// Domains sorted by id (id, description).
    pub domains: Vec<NamedData>,
    /// Field groups sorted by id (id, description).
    pub groups: Vec<NamedData>,
    /// Known source types.
    pub source_types: Vec<String>,
    /// What the project declares about reading questions (recognisers, cue words, topics no tool
    /// serves): the lexical Understand step's domain knowledge.
    pub lexicon: lexicon::Lexicon,
    /// Precomputed indices for Algorithm 1.
    pub index: Indices,
    /// The typed schema graph, as sorted lists. Empty when loaded with
    /// [`io::load_routing`] (routing does not read it). Written last, so that a routing load
    /// can stop before it.
    #[rkyv(with = rkyv::with::Skip)]
    pub graph: GraphData,
}

/// Project identity.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct ProjectInfo {
    /// Name.
    pub name: String,
    /// Version.
    #[serde(serialize_with = "ser_routing_blank")]
    pub version: String,
}

/// Graph as sorted lists.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphData {
    /// Nodes sorted by id.
    pub nodes: Vec<GNode>,
    /// Edges as indices into `nodes`, sorted by (from, kind, to).
    pub edges: Vec<GEdge>,
}

/// An id with an optional description.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct NamedData {
    /// Id.
    pub id: String,
    /// Description.
    #[serde(default, skip_serializing_if = "skip_prose")]
    pub description: Option<String>,
    /// For a field group: its core concepts (the `core` projection's safety net).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub core: Vec<String>,
}

/// Provenance ready to attach to plan fields.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct ProvenanceData {
    /// Publisher.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    /// Method (DFT functional, instrument).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Citation / DOI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub citation: Option<String>,
    /// URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// Licence ready to attach to plan fields.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct LicenceData {
    /// SPDX expression or LicenseRef.
    pub spdx: String,
    /// Provider wording.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wording: Option<String>,
    /// Terms URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Attribution text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribution: Option<String>,
    /// Whether the licence was confirmed.
    pub verified: bool,
}

/// A tool with its routing data.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct ToolData {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Other names users say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "skip_prose")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub description: Option<String>,
    /// Domain id.
    #[rkyv(with = Shared)]
    pub domain: String,
    /// Tool-level source type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_type: Option<String>,
    /// Source types present on the tool or any of its fields (for the source filter).
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub source_types: Vec<String>,
    /// Priority (default 0).
    pub priority: i64,
    /// True for web tools (deprioritised by the ranking).
    pub is_web: bool,
    /// Total response fields over all endpoints (ranking tie-break: fewest first).
    pub total_fields: u32,
    /// Provenance (shared with every plan field that carries it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Arc<ProvenanceData>>,
    /// Tool licence (shared with every plan field that carries it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub licence: Option<Arc<LicenceData>>,
    /// Endpoints sorted by id.
    pub endpoints: Vec<EndpointData>,
}

/// An endpoint with its parameters and fields.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct EndpointData {
    /// Id.
    pub id: String,
    /// HTTP method.
    pub method: String,
    /// URL.
    pub url: String,
    /// For `MCP` endpoints: the MCP tool name sent in `tools/call`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_tool: Option<String>,
    /// The endpoint may destroy data and is not marked `allow_destructive` (never planned).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub destructive: bool,
    /// The annotations say the endpoint writes (`read_only: false`): ranked after read-only
    /// endpoints of the same score.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub writes: bool,
    /// The provider marks the endpoint deprecated
    /// ([`crate::model::Endpoint::deprecated`]): planned only when no live endpoint of the
    /// tool serves the same words.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
    /// Description.
    #[serde(default, skip_serializing_if = "skip_prose")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub description: Option<String>,
    /// Where the records sit in the response (`data[]`); absent means the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub records: Option<String>,
    /// Media type of the request body when it is not JSON (`application/x-www-form-urlencoded`,
    /// `multipart/form-data`: form fields or parts; any other: the one parameter `body` is the
    /// whole body, text or base64-encoded bytes); absent means a JSON object of the body
    /// parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub body_type: Option<String>,
    /// How a JSON object given for an XML request body is written (see
    /// [`crate::model::Endpoint::body_xml`]); empty: the XML text only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub body_xml: Vec<XmlNodeData>,
    /// Parameters sorted by name.
    pub parameters: Vec<ParamData>,
    /// Fields sorted by name.
    pub fields: Vec<FieldData>,
    /// Indices of identifier fields.
    pub identifiers: Vec<u32>,
    /// Group id -> indices of the fields in the group.
    #[rkyv(with = SharedKeys)]
    #[serde(deserialize_with = "unique::group_fields")]
    pub group_fields: BTreeMap<String, Vec<u32>>,
}

/// One element (or attribute) of an XML request body ([`crate::model::XmlNode`]).
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct XmlNodeData {
    /// Where the value sits in the JSON argument (empty: the root; `tags[]`: a list's items).
    pub path: String,
    /// Element or attribute name, when not the property's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Namespace URI declared on the element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Prefix of the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// An attribute of the parent element.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attribute: bool,
    /// A list's items wrapped in one element.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wrapped: bool,
}

/// A parameter.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct ParamData {
    /// Provider's name.
    #[rkyv(with = Shared)]
    pub name: String,
    /// Value type (`string`, `integer`, `number[]`, ...).
    #[serde(rename = "type")]
    pub ty: String,
    /// Allowed values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enum_values: Vec<Scalar>,
    /// Required.
    pub required: bool,
    /// Credential supplied by the client.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auth: bool,
    /// Provider default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Scalar>,
    /// What the value must keep besides its type and enum (`minimum`, `maximum`, lengths,
    /// `pattern`, item counts), when declared.
    #[serde(default, skip_serializing_if = "crate::model::Bounds::is_empty")]
    pub bounds: crate::model::Bounds,
    /// Bindings from parameter concepts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bind: Vec<BindingData>,
    /// Separator when several bindings fill it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub join: Option<String>,
    /// For an array-typed parameter: how its items are sent (repeated query parameters, one
    /// joined value, or a JSON array), from the declaration's `in`, `join`, `style`, `explode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array: Option<crate::model::ArrayEncoding>,
    /// JSON-Schema `format` as published (`date`, `email`, `uri`, `int64`): what kind of value a
    /// question must give to fill it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub format: Option<String>,
    /// Where the value is sent (`query`, `path`, `header`, `cookie`, `body`), when declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub location: Option<String>,
    /// OpenAPI serialisation style when declared (`form`, `simple`, `label`, `matrix`,
    /// `spaceDelimited`, `pipeDelimited`, `deepObject`); absent means the location's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub style: Option<String>,
    /// OpenAPI `explode` when declared; absent means the style's default (true for `form`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explode: Option<bool>,
    /// OpenAPI `allowReserved`: reserved characters are sent unencoded.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_reserved: bool,
    /// Media type of the parameter's `multipart/form-data` part when declared (OpenAPI
    /// `encoding.contentType`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// Headers of the parameter's `multipart/form-data` part, with their values (OpenAPI
    /// `encoding.headers`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub part_headers: BTreeMap<String, String>,
    /// The parameter is the whole JSON request body (its schema is no object): the value itself
    /// is sent, not an object holding it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whole_body: bool,
    /// Description.
    #[serde(default, skip_serializing_if = "skip_prose")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub description: Option<String>,
}

/// A binding from a concept.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct BindingData {
    /// Concept id.
    #[rkyv(with = Shared)]
    pub concept: String,
    /// Template (default `{value}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    /// Companion parameters fixed by the binding.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::binding_set"
    )]
    #[rkyv(with = SharedKeys)]
    pub set: BTreeMap<String, Scalar>,
}

/// Unit metadata of a field.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct UnitData {
    /// Canonical spelling.
    pub canonical: Arc<str>,
    /// Dimension, human form ("energy per atom").
    pub dimension: Arc<str>,
    /// Provider's spelling, when different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_published: Option<Arc<str>>,
}

/// A response field with everything a plan attaches.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct FieldData {
    /// Provider's JSON path.
    #[rkyv(with = Shared)]
    pub name: String,
    /// Value type.
    #[serde(rename = "type")]
    pub ty: String,
    /// Unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<UnitData>,
    /// Identifier flag.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub identifier: bool,
    /// Groups (sorted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub groups: Vec<String>,
    /// Concepts (sorted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub concepts: Vec<String>,
    /// Qualifiers.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::qualifiers"
    )]
    #[rkyv(with = SharedKeys)]
    pub qualifiers: BTreeMap<String, String>,
    /// Factor from this field's unit to each concept's canonical unit.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::concept_factors"
    )]
    #[rkyv(with = SharedKeys)]
    pub concept_factors: BTreeMap<String, f64>,
    /// Effective source type (field override or tool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_type: Option<Arc<str>>,
    /// Field-level licence override (the tool's licence applies otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub licence: Option<Arc<LicenceData>>,
    /// Wire encoding when it differs from the type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub encoding: Option<String>,
    /// Missing-value marker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub missing_value: Option<String>,
    /// Whether every record carries the field, when declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// Whether the value may be null, when declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nullable: Option<bool>,
    /// Description.
    #[serde(default, skip_serializing_if = "skip_prose")]
    #[rkyv(with = rkyv::with::Map<Shared>)]
    pub description: Option<String>,
}

/// An intent with its precomputed candidates.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct IntentData {
    /// Id.
    pub id: String,
    /// One-line description (in the prompt).
    #[serde(serialize_with = "ser_prose")]
    pub description: String,
    /// Domains.
    pub domains: Vec<String>,
    /// Required groups.
    pub required_groups: Vec<String>,
    /// Example queries.
    #[serde(default, skip_serializing_if = "skip_examples")]
    pub examples: Vec<String>,
    /// Candidate tool indices (domain and required-group filter applied; Algorithm 1 lines 3-5).
    pub candidates: Vec<u32>,
    /// Entity kinds (parameter concepts) this intent is the default for in entity-only
    /// questions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entities: Vec<String>,
    /// Written by `schemarouter derive` (its `derived` mark), not declared by a person: a
    /// cluster of endpoints by resource and action, which routing ranks within rather than
    /// trusts (see `route::ranked`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub derived: bool,
}

/// A concept.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct ConceptData {
    /// Id.
    pub id: String,
    /// `response` or `parameter`.
    pub kind: String,
    /// Canonical unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<Arc<str>>,
    /// Dimension (human form) of the canonical unit, or the declared dimension name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimension: Option<String>,
    /// Alias texts per language.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "unique::concept_aliases"
    )]
    pub aliases: BTreeMap<String, Vec<String>>,
    /// Description.
    #[serde(default, skip_serializing_if = "skip_prose")]
    pub description: Option<String>,
    /// Concepts read with this one (the value behind a label, the parts of a collective name,
    /// the variants a question often leaves open), as declared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub companions: Vec<String>,
}

/// How a field matches a concept.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// The field carries the concept and its name is the concept's id or one of its aliases.
    Exact,
    /// The field carries the concept (through the alias layer) under another name.
    Alias,
    /// The field does not carry the concept, but its name has every word of the concept's id
    /// (ranking only).
    Partial,
}

impl MatchKind {
    /// Ranking score: exact 3, alias 2, partial 1 (Algorithm 1, concept-match ranking).
    pub fn score(self) -> u32 {
        match self {
            MatchKind::Exact => 3,
            MatchKind::Alias => 2,
            MatchKind::Partial => 1,
        }
    }
}

/// A (tool, endpoint, field) posting of a concept.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct Posting {
    /// Tool index.
    pub tool: u32,
    /// Endpoint index within the tool.
    pub endpoint: u32,
    /// Field index within the endpoint.
    pub field: u32,
    /// Match kind.
    pub kind: MatchKind,
}

/// A (tool, endpoint, parameter) reference.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct ParamPosting {
    /// Tool index.
    pub tool: u32,
    /// Endpoint index within the tool.
    pub endpoint: u32,
    /// Parameter index within the endpoint.
    pub parameter: u32,
}

/// A field reference.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct FieldKey {
    /// Tool index.
    pub tool: u32,
    /// Endpoint index within the tool.
    pub endpoint: u32,
    /// Field index within the endpoint.
    pub field: u32,
}

/// Precomputed indices (issue: "routing never scans the whole schema").
#[derive(
    Clone, Debug, Default, PartialEq, Serialize, Deserialize, rkyv::Archive, rkyv::Serialize,
)]
pub struct Indices {
    /// Normalised alias text (and every concept id) -> concept ids.
    #[serde(deserialize_with = "unique::alias_to_concept")]
    pub alias_to_concept: LazyMap<Vec<String>>,
    /// Normalised alias text -> the exact fields it means (field-targeted aliases).
    #[serde(deserialize_with = "unique::alias_to_field")]
    pub alias_to_field: LazyMap<Vec<FieldKey>>,
    /// Concept id -> postings (exact and alias matches project; partial ones only rank).
    #[serde(deserialize_with = "unique::concept_postings")]
    pub concept_postings: LazyMap<Vec<Posting>>,
    /// Parameter concept -> parameters bound from it.
    #[serde(deserialize_with = "unique::param_postings")]
    pub param_postings: LazyMap<Vec<ParamPosting>>,
    /// Normalised tool id, title and names -> tool index.
    #[serde(deserialize_with = "unique::tool_names")]
    pub tool_names: LazyMap<u32>,
    /// Normalised field name (full path and last segment) -> fields, for concept texts that are
    /// field names rather than concepts.
    #[serde(deserialize_with = "unique::field_names")]
    pub field_names: LazyMap<Vec<FieldKey>>,
    /// Most words in one alias text (bounds the analyzer's n-gram scan).
    pub max_alias_words: u32,
    /// Normalised qualifier value text (canonical value or alias) -> the (key, canonical value)
    /// pairs it means.
    #[serde(
        default,
        skip_serializing_if = "LazyMap::is_empty",
        deserialize_with = "unique::qualifier_values"
    )]
    pub qualifier_values: LazyMap<Vec<QualifierRef>>,
    /// Normalised qualifier key text (key or alias) -> the key.
    #[serde(
        default,
        skip_serializing_if = "LazyMap::is_empty",
        deserialize_with = "unique::qualifier_keys"
    )]
    pub qualifier_keys: LazyMap<String>,
    /// Search term (a stem or CJK bigram, see `search::text`) -> postings: (document, BM25F
    /// contribution in thousandths), in document order. Built by `search::build`.
    #[serde(
        default,
        skip_serializing_if = "LazyMap::is_empty",
        deserialize_with = "unique::search_terms"
    )]
    pub search_terms: LazyMap<Vec<crate::search::TermPosting>>,
    /// The search index's documents are the endpoints in (tool, endpoint) order: tool `t`'s
    /// start at `search_offsets[t]`; the last entry is the number of documents (BM25's `N`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub search_offsets: Vec<u32>,
    /// Dense vectors of the search documents, when the project names embedding weights
    /// (`[search] embeddings`; see `search::dense`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_vectors: Option<crate::search::dense::SearchVectors>,
}

/// A declared qualifier value: key and canonical value (`functional`, `OptB88vdW`).
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct QualifierRef {
    /// The key.
    pub key: String,
    /// The canonical value.
    pub value: String,
}

impl FrozenGraph {
    /// A question the loaded catalog answers, for help lines: the first example of the first
    /// intent that has one (intents in artifact order), else the first reading endpoint written as
    /// words with its tool (`list repos on github`), else `what can you answer`.
    pub fn example_question(&self) -> String {
        let clean = |s: &str| s.replace(['"', '`', '\n', '\r'], " ").trim().to_string();
        if let Some(e) = self
            .intents
            .iter()
            .flat_map(|i| i.examples.iter())
            .map(|e| clean(e))
            .find(|e| !e.is_empty() && e.chars().count() <= 80)
        {
            return e;
        }
        let reading = |e: &&EndpointData| {
            !e.destructive && matches!(e.method.as_str(), "GET" | "LOCAL" | "MCP")
        };
        self.tools
            .iter()
            .find_map(|t| {
                t.endpoints
                    .iter()
                    .find(reading)
                    .or_else(|| t.endpoints.iter().find(|e| !e.destructive))
                    .map(|e| format!("{} on {}", e.id.replace('_', " "), t.id))
            })
            .map(|q| clean(&q))
            .unwrap_or_else(|| "what can you answer".to_string())
    }

    /// The tool with this id.
    pub fn tool(&self, id: &str) -> Option<(usize, &ToolData)> {
        self.tools
            .binary_search_by(|t| t.id.as_str().cmp(id))
            .ok()
            .map(|i| (i, &self.tools[i]))
    }

    /// The intent with this id.
    pub fn intent(&self, id: &str) -> Option<&IntentData> {
        self.intents
            .binary_search_by(|t| t.id.as_str().cmp(id))
            .ok()
            .map(|i| &self.intents[i])
    }

    /// The concept with this id.
    pub fn concept(&self, id: &str) -> Option<&ConceptData> {
        self.concepts
            .binary_search_by(|t| t.id.as_str().cmp(id))
            .ok()
            .map(|i| &self.concepts[i])
    }

    /// The field behind a key (see [`FrozenGraph::tool_at`] for a key out of range).
    pub fn field(&self, k: FieldKey) -> &FieldData {
        self.tool_at(k.tool)
            .endpoint_at(k.endpoint)
            .field_at(k.field)
    }

    /// Tool number `i`, as the indices and intents name it.
    ///
    /// A number out of range is in no artifact `compile` writes; in one edited and re-hashed by
    /// hand it ends the work with that error, which [`reading`] returns (no panic message).
    pub fn tool_at(&self, i: u32) -> &ToolData {
        match self.tools.get(i as usize) {
            Some(t) => t,
            None => lazy::unreadable(format!(
                "a reference names tool {i}, but the artifact has {} tools",
                self.tools.len()
            )),
        }
    }

    /// Count of response fields over all tools.
    pub fn field_count(&self) -> usize {
        self.tools.iter().map(|t| t.total_fields as usize).sum()
    }
}

/// Element `i` of `list` (an artifact's own reference), or the end of the work with an error
/// that [`reading`] returns (see [`FrozenGraph::tool_at`]).
fn referenced<'a, T>(list: &'a [T], i: u32, what: &str, owner: &str) -> &'a T {
    match list.get(i as usize) {
        Some(v) => v,
        None => lazy::unreadable(format!(
            "a reference names {what} {i} of {owner}, which has {}",
            list.len()
        )),
    }
}

impl ToolData {
    /// Endpoint number `i` of this tool (see [`FrozenGraph::tool_at`] for one out of range).
    pub fn endpoint_at(&self, i: u32) -> &EndpointData {
        referenced(
            &self.endpoints,
            i,
            "endpoint",
            &format!("tool `{}`", self.id),
        )
    }
}

impl EndpointData {
    /// Whether parameter `p` is the URL's leading placeholder (`{base_url}/bills`: the
    /// importer's stand-in for a server the description does not name): the deployment's
    /// scheme and host (the gateway's `base_url`), never a value a question gives, so never a
    /// missing parameter of a plan.
    pub fn server_parameter(&self, p: &ParamData) -> bool {
        self.url
            .strip_prefix('{')
            .and_then(|rest| rest.strip_prefix(p.name.as_str()))
            .is_some_and(|rest| rest.starts_with('}'))
    }

    /// Response field number `i` of this endpoint (see [`FrozenGraph::tool_at`]).
    pub fn field_at(&self, i: u32) -> &FieldData {
        referenced(&self.fields, i, "field", &format!("endpoint `{}`", self.id))
    }

    /// Parameter number `i` of this endpoint (see [`FrozenGraph::tool_at`]).
    pub fn parameter_at(&self, i: u32) -> &ParamData {
        referenced(
            &self.parameters,
            i,
            "parameter",
            &format!("endpoint `{}`", self.id),
        )
    }
}
