//! The shared state of one question's reading: what the passes of [`super::passes::PASSES`]
//! found so far. A pass reads what earlier passes wrote and adds its own part; the last ones
//! write the [`Understanding`].

use super::Lexical;
use super::text::{Token, tokenize};
use crate::route::Understanding;
use crate::route::analyzer::Analysis;
use crate::route::analyzer::params::{Extracted, Recognisers};
use std::cell::OnceCell;
use std::collections::{BTreeMap, HashSet};

/// A concept the question asks for: the text as matched (or the alias matched, when matched
/// through a stem), the concept ids its alias means (empty for a field alias of no concept), and
/// whether the alias is a field alias.
pub(super) type Mention = (String, Vec<String>, bool);

/// One question's reading.
pub(super) struct Reading {
    /// The question, NFKC-normalised, with `tool/endpoint` words written as two words.
    pub(super) query: String,
    /// Its tokens.
    pub(super) tokens: Vec<Token>,
    /// The words of the question's runs of tokens that the inventory declares (made on first
    /// use: [`Lexical::declared_words`]).
    pub(super) declared: OnceCell<HashSet<String>>,
    /// Parameters read from the question ([`super::passes::parameters`]).
    pub(super) extracted: Vec<Extracted>,
    /// Tools the question names, in order ([`super::passes::mentions`]).
    pub(super) tools: Vec<u32>,
    /// Tools the question rules out.
    pub(super) excluded: Vec<u32>,
    /// Concepts the question asks for.
    pub(super) concepts: Vec<Mention>,
    /// The byte range of each entry of `concepts`, as first found.
    pub(super) concept_at: Vec<(usize, usize)>,
    /// Byte ranges of the concept phrases found ("hydrogen bond donors").
    pub(super) concept_spans: Vec<(usize, usize)>,
    /// Per token: whether a tool name or concept alias took it.
    pub(super) used: Vec<bool>,
    /// Per token: whether it is part of a tool's name (scored as a named tool, so not again as
    /// a word of examples).
    pub(super) tool_words: Vec<bool>,
    /// Field qualifiers ([`super::passes::qualifiers`]).
    pub(super) qualifiers: BTreeMap<String, String>,
    /// The source type the question's cues ask for ([`super::passes::source`]).
    pub(super) source_constraint: Option<String>,
    /// Content words of the question outside tool names ([`super::passes::intent`]).
    pub(super) query_words: HashSet<String>,
    /// The inferred intent, by index into the artifact's intents.
    pub(super) intent: Option<usize>,
    /// A note on how the entity alone chose (or ruled out) the intent.
    pub(super) entity_note: Option<String>,
    /// The Understanding being written.
    pub(super) understanding: Understanding,
    /// Notes about what was dropped or guessed.
    pub(super) warnings: Vec<String>,
}

impl Reading {
    /// Start reading `query`: NFKC without invisible characters ([`crate::search::text::normalise`]), `tool/endpoint` written as two words ("mcp_time/get_current_time"
    /// names the tool and the endpoint), tokens.
    pub(super) fn new(lx: &Lexical<'_>, query: &str) -> Reading {
        let query = crate::search::text::normalise(query);
        let query = lx.split_tool_endpoint(&query);
        let mut tokens = tokenize(&query);
        let spelling = lx.spelling();
        for t in &mut tokens {
            t.fixed = spelling.correct(t);
        }
        let n = tokens.len();
        Reading {
            query,
            tokens,
            declared: OnceCell::new(),
            extracted: Vec::new(),
            tools: Vec::new(),
            excluded: Vec::new(),
            concepts: Vec::new(),
            concept_at: Vec::new(),
            concept_spans: Vec::new(),
            used: vec![false; n],
            tool_words: vec![false; n],
            qualifiers: BTreeMap::new(),
            source_constraint: None,
            query_words: HashSet::new(),
            intent: None,
            entity_note: None,
            understanding: Understanding::default(),
            warnings: Vec::new(),
        }
    }

    /// Whether an extracted parameter other than a formula or a name covers the token
    /// ([`consumed`]).
    pub(super) fn consumed(&self, rs: &Recognisers<'_>, t: &Token) -> bool {
        consumed(rs, &self.extracted, t)
    }

    /// The analysis read.
    pub(super) fn into_analysis(self) -> Analysis {
        Analysis {
            understanding: self.understanding,
            warnings: self.warnings,
        }
    }
}

/// Whether a parameter of `extracted` other than a formula or a name of an entity (kinds
/// `formula` and `names`: "hydrogen" of "hydrogen bond donors" may be a concept's word) covers
/// the token: its words are the value, not a concept or a tool's name.
pub(super) fn consumed(rs: &Recognisers<'_>, extracted: &[Extracted], t: &Token) -> bool {
    extracted
        .iter()
        .any(|e| t.range.0 < e.range.1 && e.range.0 < t.range.1 && !rs.is_name_concept(&e.concept))
}
