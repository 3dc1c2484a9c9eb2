//! What a project declares about reading questions (alias files, keys `recognisers` and
//! `cues`): how values of its parameter concepts are recognised in a question (identifiers,
//! formulas, names of entities), which words cue one of its source types, and which topics no
//! tool of the project serves. The Understand step's mechanisms (tokens, negation, years, quoted
//! titles, counts) are code; everything that names one domain's things is declared here, so a
//! project that declares none of it gets none of it.

use super::spanned::Sp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The built-in recogniser kinds, with what each reads (`kind` of a [`RecogniserDecl`]).
pub const RECOGNISER_KINDS: &[(&str, &str)] = &[
    (
        "pattern",
        "a regular expression (`pattern`, Rust regex syntax); the value is the first capture group that took part in the match (the whole match without groups); the default kind when `pattern` is given",
    ),
    (
        "doi",
        "a Digital Object Identifier (`10.` then a registrant code, `/` and a suffix), trailing punctuation left out",
    ),
    (
        "phrases",
        "the first of `phrases` (in the order declared) the question holds, case-insensitively, as its declared value",
    ),
    (
        "year",
        "a year stated for the concept (`in 2021`, `FY2021`, `fiscal year 2021`, `2021년`), or a bare year when the question gives no range; with `context`, the question's publication years (`published in 2020`) are then not read",
    ),
    (
        "formula",
        "a chemical formula: a capitalised token that parses as one (`LiFePO4`, `GaN's`), and, unless an `unless` concept was read, one typed without capitals with a count (`sio2`), one coordinated with a formula already read (`ZnO and zns`), or an element symbol ending a clause after `of` / `for` / `about`; `except` lists words that are never formulas",
    ),
    (
        "names",
        "names of entities (`names`: name -> value; `barium titanate` -> `BaTiO3`): whole words, longest first, of any script (inside a word for scripts written without spaces)",
    ),
    (
        "subject",
        "a free-text name, when the intent's tools take the concept and none of `unless` was read: the phrase after `of` / `for` (up to `from`, `in`, `according`, `on`) or the subject of `how many X does Y have`",
    ),
];

/// Why `pattern` is no regular expression the Understand step can use (`None` when it is): the
/// regex crate's error, on one line. Patterns are compiled with the `regex` crate's defaults (a
/// size limit included).
pub fn pattern_error(pattern: &str) -> Option<String> {
    let e = regex::Regex::new(pattern).err()?;
    let text = e.to_string();
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .unwrap_or_else(|| text.lines().next().unwrap_or_default().trim());
    Some(line.to_string())
}

/// A recogniser: how values of one parameter concept are read from a question.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RecogniserDecl {
    /// The parameter concept the values feed (`doi`, `formula`).
    pub concept: Sp<String>,
    /// The built-in kind: `pattern` (the default when `pattern` is given), `doi`, `phrases`,
    /// `year`, `formula`, `names` or `subject`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Sp<String>>,
    /// Kind `pattern`: a regular expression (Rust regex syntax, `(?i)` for any case); the value
    /// is its first capture group that took part in the match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Sp<String>>,
    /// The value's type: `string` (default) or `integer`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Sp<RecognisedType>>,
    /// What the match takes from the question, so no later reading uses its words: the `value`
    /// (default) or the whole `match` with its label (`CID 702`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consume: Option<Sp<Consume>>,
    /// Characters trimmed from the end of the value (`.,;)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trim: Option<Sp<String>>,
    /// The value must hold one of these characters (a SMILES string holds one of `=()#[]@`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires: Option<Sp<String>>,
    /// Read only in a question that holds one of these texts (case-insensitive, anywhere).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<Sp<String>>,
    /// Not read when a value of one of these concepts was read first (a material id already
    /// names the material: a name beside it only describes it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unless: Vec<Sp<String>>,
    /// Kind `names`: name as people write it -> value (`barium titanate: BaTiO3`, `카페인:
    /// caffeine`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<String, Sp<String>>,
    /// Kind `phrases`: texts and the value each stands for, the first found wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phrases: Vec<Sp<PhraseDecl>>,
    /// Kind `formula`: words that are never formulas (`Co`, `DFT`, `ipv6`): the capitalised
    /// reading skips the exact spelling, the reading without capitals any casing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<Sp<String>>,
    /// The values name the entity a question is about (a question naming only one gets the
    /// intent declared for its kind; one naming one is a data question, not a request to define a
    /// term).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity: Option<Sp<bool>>,
    /// How the Understand step's note describes a value (`a chemical formula`); default the
    /// concept's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub describe: Option<Sp<String>>,
    /// Several values in one question ("GaN, AlN and InN") become a list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiple: Option<Sp<bool>>,
    /// Nouns for the kind of entity the values name (`material`, `compound`): beside a value
    /// ("What do we know about this material, BaTiO3?") they ask for nothing in particular.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nouns: Vec<Sp<String>>,
}

impl RecogniserDecl {
    /// The kind as declared, or `pattern` when only `pattern` is given (`None` when neither
    /// is).
    pub fn kind_name(&self) -> Option<&str> {
        match (&self.kind, &self.pattern) {
            (Some(k), _) => Some(k.value.as_str()),
            (None, Some(_)) => Some("pattern"),
            (None, None) => None,
        }
    }
}

/// The type of a recognised value.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RecognisedType {
    /// The text as written.
    #[default]
    String,
    /// A whole number (a value that does not parse is not read).
    Integer,
}

/// What a recognised value takes from the question.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Consume {
    /// The value's own text.
    #[default]
    Value,
    /// The whole match, label included.
    Match,
}

/// A text and the value it stands for (kind `phrases`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PhraseDecl {
    /// The text (matched case-insensitively, anywhere in the question).
    pub text: Sp<String>,
    /// The value.
    pub value: Sp<String>,
}

/// Cue words of an alias file.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CuesDecl {
    /// Words that ask for one source type ("measured" for `experimental`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_types: Vec<Sp<SourceCueDecl>>,
    /// Topics no tool of the project serves (weather, e-mail, ...): a question about one is
    /// refused with the topic's reason, unless the inventory declares the cue word itself (a tool
    /// named `weather`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out_of_scope: Vec<Sp<TopicDecl>>,
}

/// The cue words of one source type.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SourceCueDecl {
    /// The source type (a built-in one or one of `schemarouter.toml`'s `source-types`).
    pub source_type: Sp<String>,
    /// Words that cue it (matched after normalisation, with up to six more letters: `measured`
    /// cues `measurements`); a negation before ("not DFT") counts against it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<Sp<String>>,
    /// Nouns of one work of this source type (`paper`): a tool's name right before one titles a
    /// work ("the Materials Project paper") unless the tool is of this type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub works: Vec<Sp<String>>,
    /// A request for this source type searches by topic: concept words inside its topic ("papers
    /// on band gap engineering") name the topic, not fields to fetch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics: Option<Sp<bool>>,
}

/// A topic no tool serves.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TopicDecl {
    /// The topic's name (`weather`).
    pub topic: Sp<String>,
    /// The reason a plan carries; `{cue}` stands for the cue as found ("a weather request
    /// (`{cue}`): no tool serves weather data").
    pub reason: Sp<String>,
    /// Words that show the topic anywhere in the question.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<Sp<String>>,
    /// Verbs that show it as the request itself: the first word of a clause (after "please",
    /// "can you", ...), not a noun ("order of magnitude") and not "send me X".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verbs: Vec<Sp<String>>,
    /// Phrases that show it anywhere, on word boundaries (the first in the order declared).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phrases: Vec<Sp<String>>,
    /// Texts that show it anywhere, inside words too (scripts written without spaces: `날씨`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub substrings: Vec<Sp<String>>,
    /// Clause shapes that show it (`what does * mean`: a clause starting with the words before
    /// `*` and ending with the words after it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<Sp<ClauseDecl>>,
    /// Only a question that names no entity (no value of an entity recogniser) is about it
    /// ("Explain why GaN's band gap is wide" is a data question).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub without_entity: Option<Sp<bool>>,
    /// A question that names one of the inventory's tools is about this topic all the same,
    /// unless a named tool has an endpoint that writes (method `POST`, `PUT`, `PATCH` or
    /// `DELETE`, or declared writing): an action asked of a read-only tool ("upload my CIF to
    /// the Crystallography Open Database") is refused; one asked of a tool that acts is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needs_writing_endpoint: Option<Sp<bool>>,
}

/// A clause shape of a topic.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ClauseDecl {
    /// Words with one `*` for any words (`what does * stand for`).
    pub pattern: Sp<String>,
    /// How the reason names the cue (default the pattern with `*` written `...`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cue: Option<Sp<String>>,
}
