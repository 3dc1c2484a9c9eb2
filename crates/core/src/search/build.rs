//! The search index, built at compile time from the frozen tools and concepts (BM25F, Robertson
//! and Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009, section 3.4).
//!
//! One document per endpoint, in seven weighted fields (see [`FIELDS`]). Each term's
//! contribution to a document's score depends only on the document and the collection, so it is
//! computed here once, `idf(t) * tf~ / (k1 + tf~)` with `tf~` the field-weighted, length-
//! normalised term frequency, and stored in thousandths; a query only adds the contributions of
//! its terms up.

use super::TermPosting;
use super::text;
use crate::artifact::{ConceptData, ToolData};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::sync::Arc;

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;

/// A field of an endpoint's search document: its weight and its length normalisation `b`.
#[derive(Clone, Copy, Debug)]
pub struct FieldSpec {
    /// What the field holds.
    pub name: &'static str,
    /// Weight of one occurrence.
    pub weight: f64,
    /// Length normalisation (0: none, 1: full).
    pub b: f64,
    /// Occurrences counted at most: lists of parameters, response fields and concepts say
    /// whether an endpoint takes or returns something, not how much (an endpoint returning
    /// thirty `album.*` fields is no more about albums than one returning an album).
    pub max_tf: u32,
}

/// The fields of an endpoint's document, in the order an endpoint's document fills them. Names say
/// most (an endpoint id, an MCP tool name); descriptions say what names abbreviate; parameter
/// and response-field text says what goes in and comes out; concept ids and aliases are the
/// words a person (or the derived layer) declared for the fields. The fields of another
/// resource's record embedded in the response (a codespace's `repository.*`, a repository's
/// `owner.*`: objects with an `id` of their own) say little about the endpoint: they count in
/// their own, light field, with their concepts.
pub const FIELDS: [FieldSpec; 8] = [
    FieldSpec {
        name: "endpoint name",
        weight: 3.0,
        b: 0.3,
        max_tf: u32::MAX,
    },
    FieldSpec {
        name: "tool name",
        weight: 1.5,
        b: 0.3,
        max_tf: u32::MAX,
    },
    FieldSpec {
        name: "endpoint description",
        weight: 1.5,
        b: 0.75,
        max_tf: u32::MAX,
    },
    FieldSpec {
        name: "tool description",
        weight: 0.4,
        b: 0.75,
        max_tf: u32::MAX,
    },
    FieldSpec {
        name: "parameters",
        weight: 0.7,
        b: 0.75,
        max_tf: 1,
    },
    FieldSpec {
        name: "response fields",
        weight: 0.6,
        b: 0.75,
        max_tf: 1,
    },
    FieldSpec {
        name: "concepts and aliases",
        weight: 1.0,
        b: 0.5,
        max_tf: 1,
    },
    FieldSpec {
        name: "embedded records' fields",
        weight: 0.15,
        b: 0.75,
        max_tf: 1,
    },
];

/// Leaf names that make an object inside a response another resource's record.
const EMBEDDED_IDS: &[&str] = &["id", "node_id", "uuid", "guid"];

const NF: usize = FIELDS.len();

/// Enum values of one parameter indexed (a country or currency list adds nothing past this).
const MAX_ENUM_VALUES: usize = 50;

/// Stems of the texts one worker has read: field names, parameter names and short
/// descriptions repeat across endpoints and tools, and are tokenised and stemmed once; the
/// words of a text read for the first time (long descriptions) are stemmed once per word.
#[derive(Default)]
struct StemCache {
    texts: FxHashMap<Box<str>, Arc<[Arc<str>]>>,
    words: FxHashMap<Box<str>, Arc<[Arc<str>]>>,
    stems: FxHashMap<Box<str>, Arc<str>>,
    /// Scratch terms of one piece of text.
    scratch: Vec<text::Term>,
}

/// Texts longer than this are not kept in the cache (long descriptions rarely repeat).
const CACHED_TEXT_BYTES: usize = 256;

impl StemCache {
    fn stems_of(&mut self, text: &str) -> Arc<[Arc<str>]> {
        if let Some(v) = self.texts.get(text) {
            return v.clone();
        }
        let mut v: Vec<Arc<str>> = Vec::new();
        text::walk(text, |piece| match piece {
            text::Piece::Word(w, _) => v.extend(self.word(w).iter().cloned()),
            cjk => {
                let mut scratch = std::mem::take(&mut self.scratch);
                text::piece_terms(cjk, &mut scratch);
                v.extend(scratch.drain(..).map(|t| self.intern(&t.stem)));
                self.scratch = scratch;
            }
        });
        let v: Arc<[Arc<str>]> = v.into();
        if text.len() <= CACHED_TEXT_BYTES {
            self.texts.insert(text.into(), v.clone());
        }
        v
    }

    /// The stems of one word (a [`text::Piece::Word`]), computed once.
    fn word(&mut self, w: &str) -> Arc<[Arc<str>]> {
        if let Some(v) = self.words.get(w) {
            return v.clone();
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        text::piece_terms(text::Piece::Word(w, 0), &mut scratch);
        let v: Arc<[Arc<str>]> = scratch.drain(..).map(|t| self.intern(&t.stem)).collect();
        self.scratch = scratch;
        self.words.insert(w.into(), v.clone());
        v
    }

    fn intern(&mut self, s: &str) -> Arc<str> {
        if let Some(a) = self.stems.get(s) {
            return a.clone();
        }
        let a: Arc<str> = Arc::from(s);
        self.stems.insert(s.into(), a.clone());
        a
    }
}

/// One endpoint's document while it is read: term counts per field and field lengths.
struct Doc<'c> {
    cache: &'c mut StemCache,
    counts: FxHashMap<Arc<str>, [u32; NF]>,
    lengths: [u32; NF],
}

impl Doc<'_> {
    fn add(&mut self, field: usize, text: &str) {
        let stems = self.cache.stems_of(text);
        self.add_stems(field, &stems);
    }

    fn add_stems(&mut self, field: usize, stems: &[Arc<str>]) {
        for s in stems {
            match self.counts.get_mut(s) {
                Some(c) => c[field] += 1,
                None => {
                    let mut c = [0; NF];
                    c[field] = 1;
                    self.counts.insert(s.clone(), c);
                }
            }
        }
        self.lengths[field] += stems.len() as u32;
    }

    /// The document's terms in order, with their counts, and its field lengths.
    fn finish(self) -> Counted {
        let mut terms: Vec<(Arc<str>, [u32; NF])> = self.counts.into_iter().collect();
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        Counted {
            terms,
            lengths: self.lengths,
        }
    }
}

/// A document read: terms in order with their counts per field, and field lengths.
struct Counted {
    terms: Vec<(Arc<str>, [u32; NF])>,
    lengths: [u32; NF],
}

/// The text of one endpoint, field by field.
fn document(
    tool: &ToolData,
    ei: usize,
    concepts: &[ConceptData],
    concept_stems: &[Vec<Arc<str>>],
    cache: &mut StemCache,
) -> Counted {
    let e = &tool.endpoints[ei];
    let mut d = Doc {
        cache,
        counts: FxHashMap::default(),
        lengths: [0; NF],
    };
    d.add(0, &e.id);
    if let Some(m) = &e.mcp_tool {
        d.add(0, m);
    }
    let (host, path) = url_parts(&e.url);
    d.add(0, &path);
    d.add(1, &tool.id);
    d.add(1, &tool.title);
    for n in &tool.names {
        d.add(1, n);
    }
    d.add(1, &host);
    if let Some(t) = &e.description {
        let parts = description_parts(t);
        d.add(2, &parts.body);
        d.add(4, &parts.arguments);
        d.add(5, &parts.returns);
    }
    if let Some(t) = &tool.description {
        d.add(3, t);
    }
    let mut concept_ids: Vec<&str> = Vec::new();
    for p in &e.parameters {
        if p.auth {
            continue;
        }
        d.add(4, &p.name);
        if let Some(t) = &p.description {
            d.add(4, t);
        }
        // Enum values are what a question says ("open issues", "pets that are sold").
        for v in p.enum_values.iter().take(MAX_ENUM_VALUES) {
            if let crate::model::Scalar::String(s) = v {
                d.add(4, s);
            }
        }
        concept_ids.extend(p.bind.iter().map(|b| b.concept.as_str()));
    }
    let embedded = embedded_records(e.fields.iter().map(|f| f.name.as_str()));
    let mut embedded_concepts: Vec<&str> = Vec::new();
    for f in &e.fields {
        let inside = embedded.iter().any(|p| within(&f.name, p));
        let field = if inside { 7 } else { 5 };
        d.add(field, leaf(&f.name));
        if let Some(t) = &f.description {
            d.add(field, t);
        }
        let ids = f.concepts.iter().map(String::as_str);
        if inside {
            embedded_concepts.extend(ids);
        } else {
            concept_ids.extend(ids);
        }
    }
    concept_ids.sort_unstable();
    concept_ids.dedup();
    embedded_concepts.sort_unstable();
    embedded_concepts.dedup();
    embedded_concepts.retain(|c| concept_ids.binary_search(c).is_err());
    for (field, ids) in [(6, concept_ids), (7, embedded_concepts)] {
        for id in ids {
            match concepts.binary_search_by(|c| c.id.as_str().cmp(id)) {
                Ok(i) => d.add_stems(field, &concept_stems[i]),
                Err(_) => d.add(field, id),
            }
        }
    }
    d.finish()
}

/// Per concept (in `concepts` order), the stems of its id and then of its aliases, in the order
/// [`document`] reads them: computed once for the whole index rather than once per endpoint
/// that carries the concept (at 10,000 tools the aliases of shared concepts were re-read for
/// every endpoint, a fifth of the CPU time of `compile`).
fn concept_stems(concepts: &[ConceptData]) -> Vec<Vec<Arc<str>>> {
    concepts
        .par_iter()
        .map_init(StemCache::default, |cache, c| {
            let mut out: Vec<Arc<str>> = cache.stems_of(&c.id).to_vec();
            for texts in c.aliases.values() {
                for t in texts {
                    out.extend(cache.stems_of(t).iter().cloned());
                }
            }
            out
        })
        .collect()
}

/// The paths of objects in a response that hold another resource's record: an object (or list
/// of objects) with an identifier of its own (`repository.id`, `artists[].id`), other than the
/// top-level list of records itself (`items[].id`).
pub(crate) fn embedded_records<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = names
        .filter_map(|n| n.rsplit_once('.'))
        .filter(|(_, leaf)| EMBEDDED_IDS.contains(leaf))
        .map(|(parent, _)| parent)
        .filter(|p| p.contains('.') || !p.ends_with("[]"))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether a field name lies inside the object at `prefix`.
pub(crate) fn within(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|r| r.starts_with('.'))
}

/// A description in its parts: the prose, and the sections of a docstring that document the
/// arguments (`Args:`, `Parameters:`) and the result (`Returns:`), which describe parameters and
/// fields rather than what the endpoint does (MCP servers written with Python SDKs take their
/// tool descriptions from such docstrings).
struct DescriptionParts {
    body: String,
    arguments: String,
    returns: String,
}

fn description_parts(text: &str) -> DescriptionParts {
    let mut body = String::new();
    let mut arguments = String::new();
    let mut returns = String::new();
    let mut section = 0;
    for line in text.lines() {
        let head = line.trim().trim_end_matches(':').to_lowercase();
        match head.as_str() {
            "args" | "arguments" | "parameters" | "params" | "inputs" | "input" => {
                section = 1;
                continue;
            }
            "returns" | "return" | "output" | "outputs" | "response" | "yields" => {
                section = 2;
                continue;
            }
            "example" | "examples" | "notes" | "note" | "raises" => {
                section = 0;
                continue;
            }
            _ => {}
        }
        let out = match section {
            1 => &mut arguments,
            2 => &mut returns,
            _ => &mut body,
        };
        out.push_str(line);
        out.push('\n');
    }
    DescriptionParts {
        body,
        arguments,
        returns,
    }
}

/// The last segment of a field path (`main.temp` -> `temp`, `items[].title` -> `title`).
fn leaf(name: &str) -> &str {
    name.rsplit(['.', '[', ']'])
        .find(|s| !s.is_empty())
        .unwrap_or(name)
}

/// The host words and the literal path segments of an endpoint URL (templates `{id}` and
/// the scheme left out): `https://api.github.com/repos/{owner}/{repo}` -> (`api.github.com`,
/// `repos`).
fn url_parts(url: &str) -> (String, String) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let path: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty() && !s.contains('{'))
        .collect();
    (host.to_string(), path.join(" "))
}

/// The built index: term -> postings, and where each tool's documents start.
pub struct Built {
    /// Stem -> postings in document order.
    pub terms: BTreeMap<String, Vec<TermPosting>>,
    /// Per tool, its first document number; one more entry holds the number of documents.
    pub offsets: Vec<u32>,
}

/// Build the index over every endpoint of `tools` (sorted by id, as the artifact holds them).
pub fn build(tools: &[ToolData], concepts: &[ConceptData]) -> Built {
    // Documents in (tool, endpoint) order, made on rayon threads and collected in order.
    let concept_stems = concept_stems(concepts);
    // Few, large splits: each keeps one stem cache (texts repeat across tools).
    let min_len = (tools.len() / (8 * rayon::current_num_threads())).max(1);
    let docs: Vec<Counted> = tools
        .par_iter()
        .with_min_len(min_len)
        .map_init(StemCache::default, |cache, t| {
            (0..t.endpoints.len())
                .map(|ei| document(t, ei, concepts, &concept_stems, cache))
                .collect::<Vec<_>>()
        })
        .flatten_iter()
        .collect();
    let n = docs.len();
    let mut avg = [0f64; NF];
    for d in &docs {
        for (a, l) in avg.iter_mut().zip(d.lengths) {
            *a += l as f64;
        }
    }
    for a in &mut avg {
        *a = if n == 0 {
            1.0
        } else {
            (*a / n as f64).max(1.0)
        };
    }
    // Document frequencies (a document's terms are distinct).
    let mut df: FxHashMap<&str, u32> = FxHashMap::default();
    for d in &docs {
        for (t, _) in &d.terms {
            *df.entry(t.as_ref()).or_default() += 1;
        }
    }
    // Per document, each term's contribution in thousandths, in term order: computed from the
    // counts in place, with no per-term copy of the documents (at 10,000 tools a list of
    // (term, tf~) per document was 30 MB more at the peak of `compile`).
    let milli: Vec<Vec<u16>> = docs
        .par_iter()
        .map(|d| {
            let norm: Vec<f64> = (0..NF)
                .map(|f| 1.0 - FIELDS[f].b + FIELDS[f].b * d.lengths[f] as f64 / avg[f])
                .collect();
            d.terms
                .iter()
                .map(|(t, c)| {
                    let tf: f64 = (0..NF)
                        .map(|f| FIELDS[f].weight * c[f].min(FIELDS[f].max_tf) as f64 / norm[f])
                        .sum();
                    let idf = idf(n as u32, df[t.as_ref()]);
                    let w = idf * tf / (K1 + tf);
                    // Below idf, which stays under 65 for any collection that fits in memory.
                    (w * 1000.0).round().clamp(1.0, u16::MAX as f64) as u16
                })
                .collect()
        })
        .collect();
    let mut postings: FxHashMap<&str, Vec<TermPosting>> =
        FxHashMap::with_capacity_and_hasher(df.len(), Default::default());
    for (doc, (d, m)) in docs.iter().zip(&milli).enumerate() {
        for ((t, _), &w) in d.terms.iter().zip(m) {
            postings
                .entry(t.as_ref())
                .or_insert_with(|| Vec::with_capacity(df[t.as_ref()] as usize))
                .push(TermPosting(doc as u32, w));
        }
    }
    drop(milli);
    let terms: BTreeMap<String, Vec<TermPosting>> = postings
        .into_iter()
        .map(|(t, p)| (t.to_string(), p))
        .collect();
    let mut offsets = Vec::with_capacity(tools.len() + 1);
    let mut next = 0u32;
    for t in tools {
        offsets.push(next);
        next += t.endpoints.len() as u32;
    }
    offsets.push(next);
    Built { terms, offsets }
}

/// BM25's inverse document frequency, `ln(1 + (N - df + 0.5) / (df + 0.5))` (never negative).
pub fn idf(docs: u32, df: u32) -> f64 {
    let (n, df) = (docs as f64, df as f64);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_with_an_id_of_their_own_are_embedded_records() {
        let names = [
            "id",
            "default_branch",
            "owner.id",
            "owner.login",
            "current.temperature",
            "items[].id",
            "items[].title",
            "album.artists[].id",
            "album.artists[].name",
        ];
        let embedded = embedded_records(names.into_iter());
        assert_eq!(embedded, ["album.artists[]", "owner"]);
        let inside: Vec<&str> = names
            .into_iter()
            .filter(|n| embedded.iter().any(|p| within(n, p)))
            .collect();
        assert_eq!(
            inside,
            [
                "owner.id",
                "owner.login",
                "album.artists[].id",
                "album.artists[].name"
            ]
        );
    }

    #[test]
    fn url_parts_keep_host_and_literal_segments() {
        assert_eq!(
            url_parts("https://api.github.com/repos/{owner}/{repo}/stargazers"),
            ("api.github.com".to_string(), "repos stargazers".to_string())
        );
        assert_eq!(
            url_parts("mcp://time/get_current_time"),
            ("time".to_string(), "get_current_time".to_string())
        );
        assert_eq!(
            url_parts("https://x.org/data/2.5/weather?q={city}"),
            ("x.org".to_string(), "data 2.5 weather".to_string())
        );
    }

    #[test]
    fn docstring_sections_describe_parameters_and_results() {
        let p = description_parts(
            "Geocode an address.\n\nArgs:\n    address: the place\nReturns:\n    latitude and longitude\nExamples:\n    x",
        );
        assert_eq!(p.body, "Geocode an address.\n\n    x\n");
        assert_eq!(p.arguments, "    address: the place\n");
        assert_eq!(p.returns, "    latitude and longitude\n");
    }

    #[test]
    fn leaves_of_field_paths() {
        assert_eq!(leaf("main.temp"), "temp");
        assert_eq!(leaf("items[].title"), "title");
        assert_eq!(leaf("tags[]"), "tags");
        assert_eq!(leaf("id"), "id");
    }

    #[test]
    fn idf_falls_with_document_frequency() {
        assert!(idf(100, 1) > idf(100, 10));
        assert!(idf(100, 100) > 0.0);
    }
}
