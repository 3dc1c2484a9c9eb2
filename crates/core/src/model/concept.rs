//! Alias files (under `aliases/`): concepts and their aliases (paper: the alias layer).

use super::spanned::Sp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A file under `aliases/`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AliasFile {
    /// Concepts with their aliases.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub concepts: Vec<Sp<Concept>>,
    /// Aliases that point at one specific field rather than a whole concept
    /// ("K_VRH" -> `materials_project/summary/bulk_modulus.vrh`), or extra aliases of a concept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<Sp<AliasDecl>>,
    /// Field qualifier vocabulary: qualifier keys (`functional`, `average`, `temperature`) with
    /// their values and the aliases users write for them (`optB88vdW`, `vdW-DF-optB88`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub qualifiers: Vec<Sp<QualifierDecl>>,
    /// How values of the project's parameter concepts are read from a question (identifiers,
    /// formulas, names of entities): see [`super::lexicon::RecogniserDecl`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recognisers: Vec<Sp<super::lexicon::RecogniserDecl>>,
    /// Cue words: source types and topics no tool serves ([`super::lexicon::CuesDecl`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cues: Option<Sp<super::lexicon::CuesDecl>>,
}

/// A qualifier key and its values: what distinguishes fields of the same concept (the DFT
/// functional of a band gap, the averaging scheme of a modulus, the temperature of a
/// conductivity). Fields declare `qualifiers: {functional: OptB88vdW}`; the Understand step
/// reads the aliases in a question, and Algorithm 1 ranks and projects on them.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QualifierDecl {
    /// The key fields use (`functional`).
    pub key: Sp<String>,
    /// Other names of the key (`xc functional`, `exchange-correlation functional`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<Sp<String>>,
    /// What the key distinguishes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
    /// The values fields may carry, each with the spellings users write.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Sp<QualifierValue>>,
}

/// One value of a qualifier key (`OptB88vdW`) and its aliases (`optB88vdW`, `OptB88-vdW`,
/// `vdW-DF-optB88`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct QualifierValue {
    /// The canonical spelling.
    pub value: Sp<String>,
    /// Other spellings (matched after normalisation: case, spaces, `-` and `_` ignored).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<Sp<String>>,
    /// What the value means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
}

/// Whether a concept names response content or a request parameter.
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
    Hash,
    PartialOrd,
    Ord,
)]
#[serde(rename_all = "snake_case")]
pub enum ConceptKind {
    /// Something a response field carries (`band_gap`).
    #[default]
    Response,
    /// Something a query supplies (`formula`, `doi`).
    Parameter,
}

/// A domain concept (paper node `DomainConcept`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Concept {
    /// Concept id (`band_gap`, `formula`).
    pub id: Sp<String>,
    /// `response` (default) or `parameter`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Sp<ConceptKind>>,
    /// Canonical unit for values of this concept (`eV`); fields in other units of the same
    /// dimension get a conversion factor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<Sp<String>>,
    /// Dimension name when there is no single canonical unit (`dimensionless`, `count`,
    /// `energy_per_atom`); `none` for non-numeric concepts such as a title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimension: Option<Sp<String>>,
    /// Alias texts per language code (`en`, `ko`, `sym` for symbols).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub aliases: BTreeMap<String, Vec<Sp<String>>>,
    /// What the concept means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Sp<String>>,
    /// Concepts read with this one: a question that asks for this concept and names none of
    /// these is answered with their fields too, on the endpoint that serves it (the `core`
    /// projection). For a yes/no or a label, the value behind it (`is_metal` with `band_gap`,
    /// `is_stable` with `energy_above_hull`); for a collective name, the concepts it covers
    /// (`lattice_parameters` with `lattice_angles`); for a value a chemist tells apart by a
    /// qualifier a question often omits, its variants (`molecular_weight` with `exact_mass` and
    /// `monoisotopic_mass`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub companions: Vec<Sp<String>>,
    /// Set by `schemarouter derive` on the entries it writes: `blake3:<hex>`, the digest of the
    /// entry as derived. `derive` replaces an entry whose content still matches its digest; one a
    /// person edited (content and digest differ) is kept as it is; an entry without this key is
    /// a person's, and `derive` never writes, removes or re-references it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived: Option<Sp<String>>,
}

impl Concept {
    /// The declared kind (absent means response).
    pub fn kind(&self) -> ConceptKind {
        self.kind.as_ref().map(|k| k.value).unwrap_or_default()
    }
}

/// A stand-alone alias: a text that means a concept, or exactly one field.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AliasDecl {
    /// The alias text as users write it.
    pub text: Sp<String>,
    /// Language code (default `en`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<Sp<String>>,
    /// The concept the text means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concept: Option<Sp<String>>,
    /// A field path `tool/endpoint/field` the text means exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<Sp<String>>,
}
