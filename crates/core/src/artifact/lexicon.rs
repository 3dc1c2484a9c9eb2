//! The artifact's [`Lexicon`]: what the project declares about reading questions (recognisers of
//! parameter values, source-type cue words, topics no tool serves; alias-file keys `recognisers`
//! and `cues`, [`crate::model::lexicon`]), compiled into sorted lists so the lexical Understand
//! step reads it from the artifact. A project that declares none of it has an empty lexicon, and
//! its questions get no formula recognition, no source cues and no topic refusals.

use crate::model::lexicon::{Consume, RECOGNISER_KINDS, RecognisedType};
use crate::model::{Project, normalise_alias};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The project's declared Understand-step vocabulary.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct Lexicon {
    /// Recognisers of parameter values, sorted by concept, kind and content.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recognisers: Vec<RecogniserData>,
    /// Source-type cue words, sorted by source type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_cues: Vec<SourceCueData>,
    /// Topics no tool serves, sorted by topic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out_of_scope: Vec<TopicData>,
}

impl Lexicon {
    /// Whether the project declares nothing of it.
    pub fn is_empty(&self) -> bool {
        self.recognisers.is_empty() && self.source_cues.is_empty() && self.out_of_scope.is_empty()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One recogniser ([`crate::model::lexicon::RecogniserDecl`]).
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
pub struct RecogniserData {
    /// The parameter concept fed.
    pub concept: String,
    /// The kind (one of [`RECOGNISER_KINDS`]).
    pub kind: String,
    /// Kind `pattern`: the regular expression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Values are whole numbers.
    #[serde(default, skip_serializing_if = "is_false")]
    pub integer: bool,
    /// The whole match (label included) is taken from the question, not only the value.
    #[serde(default, skip_serializing_if = "is_false")]
    pub whole_match: bool,
    /// Characters trimmed from the value's end.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub trim: String,
    /// Characters one of which the value must hold (empty: no condition).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub requires: String,
    /// Texts one of which the question must hold (lower case; empty: always read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<String>,
    /// Concepts whose values, read first, stop this recogniser.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unless: Vec<String>,
    /// Kind `names`: name -> value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<String, String>,
    /// Kind `phrases`: (text in lower case, value), in the order declared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phrases: Vec<(String, String)>,
    /// Kind `formula`: words that are never formulas.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
    /// The values name the entity a question is about.
    #[serde(default, skip_serializing_if = "is_false")]
    pub entity: bool,
    /// How the Understand step's note describes a value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub describe: Option<String>,
    /// Several values in one question become a list.
    #[serde(default, skip_serializing_if = "is_false")]
    pub multiple: bool,
    /// Nouns for the kind of entity, normalised as aliases are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nouns: Vec<String>,
}

/// The cue words of one source type ([`crate::model::lexicon::SourceCueDecl`]).
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
pub struct SourceCueData {
    /// The source type.
    pub source_type: String,
    /// Cue words, normalised as aliases are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<String>,
    /// Nouns of one work of the type, normalised.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub works: Vec<String>,
    /// A request for the type searches by topic.
    #[serde(default, skip_serializing_if = "is_false")]
    pub topics: bool,
}

/// A topic no tool serves ([`crate::model::lexicon::TopicDecl`]); words, verbs and phrases in
/// lower case.
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
pub struct TopicData {
    /// The topic.
    pub topic: String,
    /// The reason, `{cue}` standing for the cue found.
    pub reason: String,
    /// Words anywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<String>,
    /// Verbs of a request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verbs: Vec<String>,
    /// Phrases on word boundaries, in the order declared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phrases: Vec<String>,
    /// Texts anywhere, inside words too, in the order declared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub substrings: Vec<String>,
    /// Clause shapes: (pattern in lower case, cue), in the order declared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<(String, String)>,
    /// Only a question that names no entity is about the topic.
    #[serde(default, skip_serializing_if = "is_false")]
    pub without_entity: bool,
    /// A named tool serves the topic only when one of its endpoints writes (see
    /// [`crate::model::lexicon`]'s topic declaration).
    #[serde(default, skip_serializing_if = "is_false")]
    pub needs_writing_endpoint: bool,
}

/// Compile the project's declarations into its lexicon. Recognisers of an unknown kind (an
/// error `check` reports) are left out.
pub fn build(p: &Project) -> Lexicon {
    let texts = |v: &[crate::model::Sp<String>]| -> Vec<String> {
        v.iter().map(|s| s.value.clone()).collect()
    };
    let lower = |v: &[crate::model::Sp<String>]| -> Vec<String> {
        v.iter().map(|s| s.value.to_lowercase()).collect()
    };
    let mut recognisers: Vec<RecogniserData> = p
        .recognisers
        .iter()
        .filter_map(|d| {
            let r = &d.item.value;
            let kind = r.kind_name()?;
            if !RECOGNISER_KINDS.iter().any(|(k, _)| *k == kind) {
                return None;
            }
            Some(RecogniserData {
                concept: r.concept.value.clone(),
                kind: kind.to_string(),
                pattern: r.pattern.as_ref().map(|s| s.value.clone()),
                integer: r.value.as_ref().map(|v| v.value) == Some(RecognisedType::Integer),
                whole_match: r.consume.as_ref().map(|v| v.value) == Some(Consume::Match),
                trim: r.trim.as_ref().map(|s| s.value.clone()).unwrap_or_default(),
                requires: r
                    .requires
                    .as_ref()
                    .map(|s| s.value.clone())
                    .unwrap_or_default(),
                context: lower(&r.context),
                unless: texts(&r.unless),
                names: r
                    .names
                    .iter()
                    .map(|(k, v)| (k.clone(), v.value.clone()))
                    .collect(),
                phrases: r
                    .phrases
                    .iter()
                    .map(|ph| {
                        let ph = &ph.value;
                        (ph.text.value.to_lowercase(), ph.value.value.clone())
                    })
                    .collect(),
                except: texts(&r.except),
                entity: r.entity.as_ref().is_some_and(|b| b.value),
                describe: r.describe.as_ref().map(|s| s.value.clone()),
                multiple: r.multiple.as_ref().is_some_and(|b| b.value),
                nouns: r
                    .nouns
                    .iter()
                    .map(|s| normalise_alias(&s.value))
                    .filter(|s| !s.is_empty())
                    .collect(),
            })
        })
        .collect();
    recognisers.sort_by_cached_key(|r| {
        (
            r.concept.clone(),
            r.kind.clone(),
            serde_json::to_string(r).unwrap_or_default(),
        )
    });
    let norm = |v: &[crate::model::Sp<String>]| -> Vec<String> {
        v.iter()
            .map(|s| normalise_alias(&s.value))
            .filter(|s| !s.is_empty())
            .collect()
    };
    let mut source_cues: Vec<SourceCueData> = p
        .source_cues
        .iter()
        .map(|d| {
            let c = &d.item.value;
            SourceCueData {
                source_type: c.source_type.value.clone(),
                words: norm(&c.words),
                works: norm(&c.works),
                topics: c.topics.as_ref().is_some_and(|b| b.value),
            }
        })
        .collect();
    source_cues.sort_by_cached_key(|c| {
        (
            c.source_type.clone(),
            serde_json::to_string(c).unwrap_or_default(),
        )
    });
    let mut out_of_scope: Vec<TopicData> = p
        .scope_topics
        .iter()
        .map(|d| {
            let t = &d.item.value;
            TopicData {
                topic: t.topic.value.clone(),
                reason: t.reason.value.clone(),
                words: lower(&t.words),
                verbs: lower(&t.verbs),
                phrases: lower(&t.phrases),
                substrings: texts(&t.substrings),
                clauses: t
                    .clauses
                    .iter()
                    .map(|c| {
                        let pattern = c.pattern.value.to_lowercase();
                        let cue = c
                            .cue
                            .as_ref()
                            .map(|s| s.value.clone())
                            .unwrap_or_else(|| pattern.replace('*', "..."));
                        (pattern, cue)
                    })
                    .collect(),
                without_entity: t.without_entity.as_ref().is_some_and(|b| b.value),
                needs_writing_endpoint: t.needs_writing_endpoint.as_ref().is_some_and(|b| b.value),
            }
        })
        .collect();
    out_of_scope.sort_by_cached_key(|t| {
        (
            t.topic.clone(),
            serde_json::to_string(t).unwrap_or_default(),
        )
    });
    Lexicon {
        recognisers,
        source_cues,
        out_of_scope,
    }
}
