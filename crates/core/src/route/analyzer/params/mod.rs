//! Parameter extraction for the offline analyzer. What names one domain's things is the
//! project's declaration (the artifact's `lexicon.recognisers`: identifiers by pattern, DOIs,
//! phrases, years stated for a concept, chemical formulas, names of entities); the mechanisms
//! that read any question are code: years and year ranges, result counts, authors after `by`,
//! quoted titles. Each value comes with the byte range it took, so concept matching does not read
//! a DOI's digits as words, and a later reading never takes a range an earlier one took.
//!
//! Stages, in order: declared identifiers (`identifiers`: kinds `pattern`, `doi` and `phrases`;
//! where two overlap, the longer match wins), years and year ranges, years stated for a concept
//! (kind `year`), result counts, authors and quoted titles (`generic`), formulas written as
//! tokens (`formulas`), names in the Latin script (`names`), formulas typed without capitals,
//! then names in other scripts.

mod by_name;
mod formulas;
mod generic;
mod identifiers;
mod names;
mod patterns;

pub use by_name::value_after_name;

use crate::artifact::lexicon::{Lexicon, RecogniserData};
use regex::Regex;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// One extracted parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Extracted {
    /// Parameter concept (`doi`, `formula`, ...).
    pub concept: String,
    /// Value.
    pub value: Value,
    /// Byte range in the query.
    pub range: (usize, usize),
}

/// Concepts of the code's own readings that name what a question is about: a quoted title and
/// an author name a work.
const GENERIC_ENTITIES: &[&str] = &["title", "author"];

/// A project's recognisers ([`Lexicon::recognisers`]) made ready for questions: declared patterns
/// compiled (once per process), the concepts that name entities or take several values. Build
/// once per artifact.
pub struct Recognisers<'l> {
    /// The declarations, in artifact order.
    list: &'l [RecogniserData],
    /// Per declaration: its compiled pattern (kind `pattern`; `None` for other kinds and for a
    /// pattern that does not compile).
    compiled: Vec<Option<Regex>>,
    /// Concepts whose several values in one question become a list.
    multi: HashSet<String>,
    /// Concepts that name the entity a question is about, with how a note describes a value.
    entities: BTreeMap<String, Option<String>>,
    /// Every `names` recogniser's names.
    names: names::NameIndex,
    /// Concepts fed by kinds `formula` and `names`.
    name_concepts: HashSet<String>,
    /// Concepts fed by kind `formula`.
    formula_concepts: HashSet<String>,
    /// Nouns for the kinds of entity ([`RecogniserData::nouns`]).
    nouns: HashSet<String>,
}

impl<'l> Recognisers<'l> {
    /// Prepare the recognisers of `lexicon`.
    pub fn new(lexicon: &'l Lexicon) -> Recognisers<'l> {
        let list = lexicon.recognisers.as_slice();
        let compiled = list
            .iter()
            .map(|r| match (&r.pattern, r.kind.as_str()) {
                (Some(p), "pattern") => patterns::declared(p),
                _ => None,
            })
            .collect();
        let concepts = |keep: &dyn Fn(&RecogniserData) -> bool| -> HashSet<String> {
            list.iter()
                .filter(|r| keep(r))
                .map(|r| r.concept.clone())
                .collect()
        };
        let multi = concepts(&|r| r.multiple);
        let mut entities: BTreeMap<String, Option<String>> = GENERIC_ENTITIES
            .iter()
            .map(|c| (c.to_string(), None))
            .collect();
        for r in list.iter().filter(|r| r.entity) {
            let e = entities.entry(r.concept.clone()).or_default();
            if e.is_none() {
                e.clone_from(&r.describe);
            }
        }
        Recognisers {
            list,
            compiled,
            multi,
            entities,
            names: names::NameIndex::new(list),
            name_concepts: concepts(&|r| r.kind == "formula" || r.kind == "names"),
            formula_concepts: concepts(&|r| r.kind == "formula"),
            nouns: list.iter().flat_map(|r| r.nouns.iter().cloned()).collect(),
        }
    }

    /// Whether values of `concept` name the entity a question is about.
    pub fn is_entity(&self, concept: &str) -> bool {
        self.entities.contains_key(concept)
    }

    /// How a note describes a value of the entity concept `concept` (`a chemical formula`), when
    /// the project says.
    pub fn describe(&self, concept: &str) -> Option<&str> {
        self.entities.get(concept).and_then(|d| d.as_deref())
    }

    /// Whether several values of `concept` in one question become a list.
    pub fn is_multiple(&self, concept: &str) -> bool {
        self.multi.contains(concept)
    }

    /// Whether values of `concept` are read as formulas or names of entities (words of the
    /// question that concept aliases and tool names may still read: "hydrogen bond donors").
    pub fn is_name_concept(&self, concept: &str) -> bool {
        self.name_concepts.contains(concept)
    }

    /// Whether values of `concept` are read as chemical formulas (kind `formula`).
    pub fn is_formula_concept(&self, concept: &str) -> bool {
        self.formula_concepts.contains(concept)
    }

    /// Whether `word` (normalised) names a kind of entity the project recognises (`material`).
    pub fn is_entity_noun(&self, word: &str) -> bool {
        self.nouns.contains(word)
    }

    /// The concepts read as chemical formulas (kind `formula`), in no particular order.
    pub fn formula_concepts(&self) -> impl Iterator<Item = &str> {
        self.formula_concepts.iter().map(String::as_str)
    }

    /// The concepts recognisers of `kind` feed, in artifact order (repeated when several do).
    pub fn concepts_of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.of_kind(kind).map(|(r, _)| r.concept.as_str())
    }

    /// The recognisers of free-text names (kind `subject`), in artifact order.
    pub fn subjects(&self) -> impl Iterator<Item = &RecogniserData> {
        self.of_kind("subject").map(|(r, _)| r)
    }

    /// The declarations of `kind` with their compiled pattern, in artifact order.
    fn of_kind<'a>(
        &'a self,
        kind: &'a str,
    ) -> impl Iterator<Item = (&'a RecogniserData, Option<&'a Regex>)> + 'a {
        self.list
            .iter()
            .zip(&self.compiled)
            .filter(move |(r, _)| r.kind == kind)
            .map(|(r, c)| (r, c.as_ref()))
    }
}

/// Whether the question (lower case) holds the recogniser's context (always, without one).
fn in_context(r: &RecogniserData, lower: &str) -> bool {
    r.context.is_empty() || r.context.iter().any(|k| lower.contains(k.as_str()))
}

fn taken(ranges: &[(usize, usize)], s: usize, e: usize) -> bool {
    ranges.iter().any(|(a, b)| s < *b && *a < e)
}

/// The values read so far and the byte ranges they took.
struct Extraction<'r> {
    out: Vec<Extracted>,
    used: Vec<(usize, usize)>,
    rs: &'r Recognisers<'r>,
}

impl Extraction<'_> {
    /// Take `s..e` for a value of `concept`, unless a reading took part of it: a concept of
    /// several values keeps every distinct one ("GaN, AlN and InN"), another its first.
    fn push(&mut self, concept: &str, value: Value, s: usize, e: usize) {
        if taken(&self.used, s, e) {
            return;
        }
        self.used.push((s, e));
        let multi = self.rs.is_multiple(concept);
        if !self
            .out
            .iter()
            .any(|x| x.concept == concept && (!multi || x.value == value))
        {
            self.out.push(Extracted {
                concept: concept.to_string(),
                value,
                range: (s, e),
            });
        }
    }
}

/// Extract parameters from a query with a project's recognisers.
pub fn extract(rs: &Recognisers<'_>, query: &str) -> Vec<Extracted> {
    let mut x = Extraction {
        out: Vec::new(),
        used: Vec::new(),
        rs,
    };
    let lower = query.to_lowercase();
    identifiers::read(rs, query, &lower, &mut x);
    let stated = identifiers::years_stated(rs, &lower);
    // A question in the context of a year stated for a concept (a filing's business year) reads
    // no publication years ("published in 2020").
    let publication = !stated.iter().any(|r| !r.context.is_empty());
    generic::years(query, publication, &mut x);
    for r in stated {
        generic::stated_years(query, &r.concept, &mut x);
    }
    generic::counts_authors_titles(query, &lower, &mut x);
    let formulas: Vec<&RecogniserData> = rs.of_kind("formula").map(|(r, _)| r).collect();
    for r in &formulas {
        formulas::capitalised(r, query, &mut x);
    }
    names::latin(rs, &lower, &mut x);
    for r in &formulas {
        formulas::folded(r, query, &mut x);
    }
    names::other(rs, &lower, &mut x);
    x.out
}

/// Helpers of the extraction tests: the shipped project's recognisers.
#[cfg(test)]
mod testing {
    use super::{Extracted, Recognisers};
    use serde_json::Value;

    /// The parameters of `q` with the shipped project's recognisers.
    pub(super) fn extract(q: &str) -> Vec<Extracted> {
        let g = crate::route::analyzer::testing::shipped();
        super::extract(&Recognisers::new(&g.lexicon), q)
    }

    /// The first value of `concept` in `q`.
    pub(super) fn get(q: &str, concept: &str) -> Option<Value> {
        extract(q)
            .into_iter()
            .find(|e| e.concept == concept)
            .map(|e| e.value)
    }
}
