//! The offline, deterministic Understand step.
//!
//! 1. Parameters are extracted with well-tested patterns ([`super::params`]).
//! 2. Tool names and concept aliases are matched against the compiled alias layer: n-grams of
//!    normalised tokens, longest match first, with Korean particles and English possessives
//!    and plurals stripped from the last word.
//! 3. Source-constraint cue words ("measured", "DFT", "from the literature", 실험, 계산, 논문),
//!    with negation ("not DFT", "계산값 말고").
//! 4. The intent is inferred from evidence: requested concepts whose fields sit in an intent's
//!    required groups on its candidate tools, named tools, parameter concepts the candidates
//!    bind, a source cue every candidate matches ("papers about X" for the literature intents),
//!    and overlap with the intents' example queries (two shared words are evidence; in the
//!    ranking only words no other intent's examples hold count, and tool names count once, as
//!    named tools). Ties go to the intent whose candidates bind more of the query's parameters,
//!    then to the broader intent (more candidate tools). Without evidence the intent is null.
//!    In a request for literature, concept words inside the topic name the topic.

use super::params::{self, Extracted};
use super::scope;
use super::{Analysis, Analyzer, AnalyzerError};
use crate::artifact::{FrozenGraph, MatchKind};
use crate::model::normalise_alias;
use crate::route::Understanding;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use unicode_normalization::UnicodeNormalization;

/// Korean particles (longest first) stripped from the end of a word before lookup.
const KO_PARTICLES: &[&str] = &[
    "에서는",
    "으로는",
    "이랑은",
    "에서",
    "으로",
    "에게",
    "까지",
    "부터",
    "이랑",
    "하고",
    "에는",
    "이나",
    "의",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "로",
    "에",
    "와",
    "과",
    "랑",
    "도",
    "만",
    "나",
];

/// Words that carry no meaning for intent inference.
const STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "of",
    "in",
    "on",
    "for",
    "to",
    "and",
    "or",
    "is",
    "are",
    "what",
    "which",
    "how",
    "me",
    "give",
    "tell",
    "from",
    "with",
    "by",
    "at",
    "as",
    "its",
    "it",
    "this",
    "that",
    "do",
    "does",
    "we",
    "our",
    "i",
    "my",
    "you",
    "please",
    "about",
    "much",
    "many",
    "get",
    "find",
    "show",
    "list",
    "value",
    "values",
    "알려줘",
    "좀",
    "뭐야",
    "얼마야",
    "줘",
    "값",
];

/// Source-constraint cue words.
const CUES: &[(&str, &str)] = &[
    ("experimental", "experimental"),
    ("experimentally", "experimental"),
    ("experiment", "experimental"),
    ("measured", "experimental"),
    ("measurement", "experimental"),
    ("measure", "experimental"),
    ("실험", "experimental"),
    ("측정", "experimental"),
    ("dft", "calculated"),
    ("calculated", "calculated"),
    ("computed", "calculated"),
    ("computational", "calculated"),
    ("first_principles", "calculated"),
    ("ab_initio", "calculated"),
    ("simulated", "calculated"),
    ("계산", "calculated"),
    ("literature", "literature"),
    // Plural: "papers about X" asks for literature; "the paper with DOI ..." names one entity.
    ("papers", "literature"),
    ("publications", "literature"),
    ("articles", "literature"),
    ("preprint", "literature"),
    ("문헌", "literature"),
    ("논문", "literature"),
];

/// Words of a vague request about an entity ("Tell me about graphene", "titania properties",
/// "카페인 정보 좀 줘"): they ask for nothing in particular.
const VAGUE: &[&str] = &[
    "tell",
    "know",
    "about",
    "info",
    "information",
    "properties",
    "property",
    "details",
    "detail",
    "data",
    "everything",
    "anything",
    "something",
    "overview",
    "summary",
    "show",
    "find",
    "get",
    "want",
    "need",
    "please",
    "do",
    "does",
    "we",
    "you",
    "us",
    "i",
    "what's",
    "whats",
    "any",
    "some",
    "all",
    "basic",
    "general",
    "facts",
    "more",
    "look",
    "up",
    "describe",
    "explain",
    "can",
    "could",
    "would",
    "material",
    "compound",
    "정보",
    "알려줘",
    "알려",
    "줘",
    "좀",
    "대해",
    "대한",
    "뭐야",
    "관해",
    "관한",
];

/// Words that introduce the topic of a search ("papers on X", "posts discussing Y").
const TOPIC_KEYS: &[&str] = &[
    "about",
    "on",
    "regarding",
    "concerning",
    "related to",
    "discussing",
    "mentioning",
    "covering",
];

/// Words that end a topic (the last, `by`, only when an author was found).
const TOPIC_STOPS: &[&str] = &[
    "published",
    "since",
    "from",
    "in the",
    "after",
    "before",
    "by",
];

/// Nouns for one publication: a data tool's name right before one titles a paper ("the
/// Materials Project paper") rather than naming the tool to ask.
const PAPER_NOUNS: &[&str] = &["paper", "article", "publication"];

/// Parameter concepts that name the entity a question is about.
const ENTITY_PARAMS: &[&str] = &[
    "formula",
    "material_id",
    "compound_name",
    "cid",
    "inchikey",
    "smiles",
    "doi",
    "arxiv_id",
    "pmid",
    "corp_code",
    "report_code",
    "title",
    "author",
    "sample_id",
];

/// Entity parameters that may carry several values in one question ("GaN, AlN and InN").
const MULTI_PARAMS: &[&str] = &[
    "formula",
    "material_id",
    "compound_name",
    "cid",
    "inchikey",
    "doi",
    "arxiv_id",
    "pmid",
    "corp_code",
];

/// Words that, right before a tool's name, rule it out ("not from", "other than", "except",
/// "excluding", "instead of", "apart from", "without", "avoid").
fn negated_before(tokens: &[Token], at: usize, floor: usize) -> bool {
    let from = at.saturating_sub(3).max(floor);
    let window: Vec<&str> = tokens[from..at].iter().map(|t| t.norm.as_str()).collect();
    window.iter().enumerate().any(|(k, w)| {
        let next = window.get(k + 1).copied();
        match *w {
            "not" | "except" | "excluding" | "exclude" | "excludes" | "without" | "avoid"
            | "avoiding" | "besides" | "nor" => true,
            "other" | "rather" => next == Some("than"),
            "instead" => next == Some("of"),
            "apart" | "aside" => next == Some("from"),
            "no" => next.is_none_or(|n| n == "data" || n == "values"),
            _ => false,
        }
    })
}

/// Korean negation after a tool's name ("Materials Project 말고", "MP 제외", "OQMD 빼고").
fn negated_after_ko(tokens: &[Token], last: usize) -> bool {
    const KO_EXCLUDE: &[&str] = &["말고", "제외", "빼고", "아닌", "대신"];
    let own = &tokens[last].norm;
    KO_EXCLUDE.iter().any(|n| own.ends_with(n))
        || tokens
            .get(last + 1)
            .is_some_and(|t| KO_EXCLUDE.iter().any(|n| t.norm.starts_with(n)))
}

/// A temperature written as `300 K` / `300K` / `298.15 K`, normalised to `300 K`.
fn temperature(query: &str) -> Option<String> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new(r"\b(\d{1,4}(?:\.\d+)?)\s?K\b").expect("regex"));
    re.captures(query)
        .and_then(|c| c.get(1))
        .map(|m| format!("{} K", m.as_str()))
}

/// How an entity is described in the Understand step's note.
fn entity_phrase(e: &Extracted) -> String {
    let v = match &e.value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match e.concept {
        "formula" => format!("`{v}`, a chemical formula (a crystalline material)"),
        "material_id" => format!("`{v}`, a materials-database id"),
        "compound_name" | "cid" | "inchikey" | "smiles" => format!("`{v}`, a molecule"),
        "doi" | "arxiv_id" | "pmid" => format!("`{v}`, a paper identifier"),
        "corp_code" => format!("`{v}`, a company (DART corporate code)"),
        other => format!("`{v}` ({})", other.replace('_', " ")),
    }
}

const NEGATIONS: &[&str] = &[
    "not", "no", "without", "rather", "instead", "except", "never",
];
const KO_NEGATIONS: &[&str] = &["말고", "아닌", "아니라", "대신", "제외"];

/// A query token.
#[derive(Clone, Debug)]
struct Token {
    /// Normalised text.
    norm: String,
    /// Variants of the normalised text without a particle, possessive or plural.
    stems: Vec<String>,
    /// Byte range in the query.
    range: (usize, usize),
}

fn tokenize(query: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let is_word = |c: char| {
        c.is_alphanumeric()
            || matches!(
                c,
                '_' | '-' | '^' | '/' | '.' | '\'' | '’' | '²' | '³' | '·' | '+'
            )
    };
    let push = |s: usize, e: usize, out: &mut Vec<Token>| {
        let raw = query[s..e].trim_matches(|c: char| matches!(c, '.' | '\'' | '’' | '-' | '/'));
        if raw.is_empty() {
            return;
        }
        let offset = s + query[s..e].find(raw).unwrap_or(0);
        let norm = normalise_alias(raw);
        if norm.is_empty() {
            return;
        }
        let mut stems = Vec::new();
        for suffix in ["'s", "’s"] {
            if let Some(x) = raw.strip_suffix(suffix) {
                stems.push(normalise_alias(x));
            }
        }
        for p in KO_PARTICLES {
            if let Some(x) = norm.strip_suffix(p)
                && x.chars().count() >= 1
                && !x.ends_with('_')
            {
                stems.push(x.to_string());
            }
        }
        if norm.len() > 3
            && norm.is_ascii()
            && let Some(x) = norm.strip_suffix('s')
            && !x.ends_with('s')
        {
            stems.push(x.to_string());
        }
        out.push(Token {
            norm,
            stems,
            range: (offset, offset + raw.len()),
        });
    };
    for (i, c) in query.char_indices() {
        if is_word(c) {
            if start.is_none() {
                start = Some(i);
            }
        } else if let Some(s) = start.take() {
            push(s, i, &mut out);
        }
    }
    if let Some(s) = start {
        push(s, query.len(), &mut out);
    }
    out
}

/// The offline analyzer over one artifact (build once, reuse for every query).
pub struct Lexical<'g> {
    g: &'g FrozenGraph,
    /// Per intent: content words of its examples and description.
    intent_words: Vec<HashSet<String>>,
    /// Per content word: how many intents' descriptions and examples hold it (the ranking
    /// weighs a word shared by many intents less).
    word_intents: std::collections::HashMap<String, usize>,
    /// Per intent: candidate tool set.
    candidates: Vec<HashSet<u32>>,
    /// Per intent: parameter concepts its candidates bind.
    intent_params: Vec<HashSet<String>>,
    max_words: usize,
    /// [`Lexical::tool_words`], made on first use (only a question with an out-of-scope cue
    /// needs it) and kept for the analyzer's life.
    tool_words: std::sync::OnceLock<HashSet<String>>,
}

fn content_words(text: &str) -> HashSet<String> {
    words_of(&tokenize(&text.nfkc().collect::<String>()))
}

/// Content words of tokens: stems where there are any, without stop words and single letters.
fn words_of(tokens: &[Token]) -> HashSet<String> {
    tokens
        .iter()
        .map(|t| t.stems.first().cloned().unwrap_or_else(|| t.norm.clone()))
        .filter(|w| !STOP.contains(&w.as_str()) && w.chars().count() > 1)
        .collect()
}

impl<'g> Lexical<'g> {
    /// Prepare the analyzer for an artifact.
    pub fn new(g: &'g FrozenGraph) -> Lexical<'g> {
        let mut intent_words = Vec::new();
        let mut candidates = Vec::new();
        let mut intent_params = Vec::new();
        for i in &g.intents {
            let mut w = content_words(&i.description);
            for e in &i.examples {
                w.extend(content_words(e));
            }
            intent_words.push(w);
            candidates.push(i.candidates.iter().copied().collect::<HashSet<u32>>());
            let mut ps = HashSet::new();
            for (concept, list) in &g.index.param_postings {
                if list.iter().any(|p| i.candidates.contains(&p.tool)) {
                    ps.insert(concept.clone());
                }
            }
            intent_params.push(ps);
        }
        let mut word_intents = std::collections::HashMap::new();
        for w in intent_words.iter().flatten() {
            *word_intents.entry(w.clone()).or_insert(0) += 1;
        }
        Lexical {
            g,
            intent_words,
            word_intents,
            candidates,
            intent_params,
            // The longest phrase looked up: an alias, a qualifier value or a tool name (a
            // two-word title such as "Browshot API" in a project without multi-word aliases).
            max_words: g
                .index
                .tool_names
                .key_strs()
                .map(|k| k.split('_').count())
                .max()
                .unwrap_or(1)
                .max(g.index.max_alias_words as usize)
                .clamp(1, 6),
            tool_words: std::sync::OnceLock::new(),
        }
    }

    fn lookup<'a, T: crate::artifact::lazy::Stored>(
        &self,
        map: &'a crate::artifact::LazyMap<T>,
        tokens: &[Token],
    ) -> Option<(&'a T, String)> {
        let base: Vec<&str> = tokens.iter().map(|t| t.norm.as_str()).collect();
        let key = base.join("_");
        if let Some(v) = map.get(&key) {
            return Some((v, key));
        }
        let last = tokens.last()?;
        for stem in &last.stems {
            let mut parts = base[..base.len() - 1].to_vec();
            parts.push(stem);
            let key = parts.join("_");
            if let Some(v) = map.get(&key) {
                return Some((v, key));
            }
        }
        None
    }

    /// The words of the query's runs of tokens that are a tool's name or a concept or field
    /// alias: each run's key, its tokens, their stems and the `_`-separated parts of each.
    fn declared_words(&self, tokens: &[Token]) -> HashSet<String> {
        let g = self.g;
        let mut words = HashSet::new();
        for i in 0..tokens.len() {
            for j in i + 1..=tokens.len().min(i + self.max_words) {
                let span = &tokens[i..j];
                let key = self
                    .lookup(&g.index.tool_names, span)
                    .map(|(_, k)| k)
                    .or_else(|| self.lookup(&g.index.alias_to_concept, span).map(|(_, k)| k))
                    .or_else(|| self.lookup(&g.index.alias_to_field, span).map(|(_, k)| k));
                let Some(key) = key else { continue };
                let mut add = |w: &str| {
                    words.insert(w.to_string());
                    words.extend(w.split('_').map(str::to_string));
                };
                add(&key);
                for t in span {
                    add(&t.norm);
                    t.stems.iter().for_each(|s| add(s));
                }
            }
        }
        words
    }

    /// The words of every tool's normalised id, title and names and of its endpoint ids
    /// (`open_weather_lite`, `get_current_weather` -> open, weather, lite, get, current), with
    /// their stems.
    fn tool_words(&self) -> HashSet<String> {
        let g = self.g;
        let mut words = HashSet::new();
        let mut add = |text: &str| {
            for t in tokenize(&text.replace('_', " ")) {
                words.extend(t.stems.iter().cloned());
                words.insert(t.norm);
            }
        };
        for k in g.index.tool_names.key_strs() {
            add(k);
        }
        for t in g.tools.iter() {
            for e in &t.endpoints {
                add(&e.id);
            }
        }
        words
    }

    /// Whether any run of the tokens is a tool's name.
    /// `query` with each `tool/endpoint` word (a tool name, a slash, more) written as two words.
    fn split_tool_endpoint(&self, query: &str) -> String {
        if !query.contains('/') {
            return query.to_string();
        }
        let mut out = String::with_capacity(query.len());
        let mut rest = query;
        while let Some(i) = rest.find(|c: char| !c.is_whitespace()) {
            out.push_str(&rest[..i]);
            rest = &rest[i..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..end];
            match word.split_once('/') {
                Some((tool, endpoint))
                    if !tool.is_empty()
                        && endpoint.starts_with(|c: char| c.is_alphanumeric())
                        && self
                            .lookup(&self.g.index.tool_names, &tokenize(tool))
                            .is_some() =>
                {
                    out.push_str(tool);
                    out.push(' ');
                    out.push_str(endpoint);
                }
                _ => out.push_str(word),
            }
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    }

    fn names_tool(&self, tokens: &[Token]) -> bool {
        (0..tokens.len()).any(|i| {
            (i + 1..=tokens.len().min(i + self.max_words)).any(|j| {
                self.lookup(&self.g.index.tool_names, &tokens[i..j])
                    .is_some()
            })
        })
    }
}

impl Analyzer for Lexical<'_> {
    fn understand(&self, query: &str) -> Result<Analysis, AnalyzerError> {
        Ok(self.analyse(query))
    }
}

impl Lexical<'_> {
    /// Understand one query (never fails).
    pub fn analyse(&self, query: &str) -> Analysis {
        let g = self.g;
        let query: String = query.nfkc().collect();
        // `tool/endpoint` written in the question ("mcp_time/get_current_time") names the tool
        // and the endpoint: read as two words.
        let query = self.split_tool_endpoint(&query);
        let tokens = tokenize(&query);
        // Requests no data tool can serve (actions, media, live data, weather, e-mail,
        // calendars) get no intent, with the reason; a cue the inventory declares (a tool
        // named `weather`, an `images` field alias) is no such request.
        // So is a cue word in the inventory's tool names and endpoint ids (a `get_current_weather`
        // endpoint serves weather, a `delete_book` one carries out an action).
        let vocabulary = std::cell::OnceCell::new();
        let inventory = &self.tool_words;
        let known = |cue: &str| {
            let key = normalise_alias(cue);
            let has = |words: &HashSet<String>| {
                words.contains(&key) || key.split('_').all(|p| words.contains(p))
            };
            !key.is_empty()
                && (has(vocabulary.get_or_init(|| self.declared_words(&tokens)))
                    || has(inventory.get_or_init(|| self.tool_words())))
        };
        // A question that names one of the inventory's tools asks that tool ("Play the movie on
        // the zappiti player" to an imported media-player API).
        if let Some(o) = scope::out_of_scope_unless(&query, known)
            && !self.names_tool(&tokens)
        {
            return out_of_scope(&o);
        }
        let mut extracted: Vec<Extracted> = params::extract(&query);
        // "indexed by OpenAlex": a tool's name after `by` is not an author.
        extracted.retain(|e| {
            e.concept != "author"
                || !e
                    .value
                    .as_str()
                    .is_some_and(|name| self.names_tool(&tokenize(name)))
        });
        // "What does band gap mean?", "Translate 'band gap' into Japanese": a term to explain,
        // with nothing named to look it up for.
        if !extracted.iter().any(|e| ENTITY_PARAMS.contains(&e.concept))
            && let Some(o) = scope::definition_request(&query, known)
        {
            return out_of_scope(&o);
        }
        let consumed = |t: &Token| {
            extracted.iter().any(|e| {
                t.range.0 < e.range.1
                    && e.range.0 < t.range.1
                    && e.concept != "formula"
                    && e.concept != "compound_name"
            })
        };

        // Tool names and concept aliases, longest match first.
        let mut tools: Vec<u32> = Vec::new();
        let mut concepts: Vec<(String, Vec<String>, bool)> = Vec::new(); // (text, concept ids, field alias)
        let mut used = vec![false; tokens.len()];
        // Tokens of tool names (scored as named tools, so not again as words of examples).
        let mut tool_words = vec![false; tokens.len()];
        // Byte ranges of the concept phrases found ("hydrogen bond donors").
        let mut concept_spans: Vec<(usize, usize)> = Vec::new();
        // The byte range of each entry of `concepts`.
        let mut concept_at: Vec<(usize, usize)> = Vec::new();
        let mut excluded: Vec<u32> = Vec::new();
        let mut last_tool_end = 0usize;
        // Whether the previous tool name was negated: a list of names joined by `or` / `and`
        // after a negation ("not from OQMD or AFLOW", "excluding OQMD and AFLOW") is negated
        // as a whole.
        let mut last_tool_negated = false;
        let mut i = 0;
        while i < tokens.len() {
            if consumed(&tokens[i]) {
                i += 1;
                continue;
            }
            let mut advanced = false;
            let max = self.max_words.min(tokens.len() - i);
            for len in (1..=max).rev() {
                let span = &tokens[i..i + len];
                if span.iter().any(consumed) {
                    continue;
                }
                // A list's items are apart: "journal, volume and pages" is no "journal volume".
                if span
                    .windows(2)
                    .any(|w| query[w[0].range.1..w[1].range.0].contains([',', ';']))
                {
                    continue;
                }
                if let Some((t, _)) = self.lookup(&g.index.tool_names, span) {
                    // "the Materials Project paper": the name of a tool that holds no
                    // literature titles a paper, it does not ask that tool ("an arXiv paper"
                    // does).
                    if tokens
                        .get(i + len)
                        .is_some_and(|n| PAPER_NOUNS.contains(&n.norm.as_str()))
                        && !g.tool_at(*t).source_types.iter().any(|s| s == "literature")
                    {
                        used[i..i + len].iter_mut().for_each(|u| *u = true);
                        tool_words[i..i + len].iter_mut().for_each(|u| *u = true);
                        i += len;
                        advanced = true;
                        break;
                    }
                    let listed = last_tool_negated
                        && tokens[last_tool_end.min(i)..i]
                            .iter()
                            .all(|t| matches!(t.norm.as_str(), "or" | "and" | "nor" | "&"));
                    let negated = listed
                        || negated_before(&tokens, i, last_tool_end)
                        || negated_after_ko(&tokens, i + len - 1);
                    last_tool_end = i + len;
                    last_tool_negated = negated;
                    if negated {
                        if !excluded.contains(t) {
                            excluded.push(*t);
                        }
                    } else if !tools.contains(t) {
                        tools.push(*t);
                    }
                    used[i..i + len].iter_mut().for_each(|u| *u = true);
                    tool_words[i..i + len].iter_mut().for_each(|u| *u = true);
                    i += len;
                    advanced = true;
                    break;
                }
                let c = self.lookup(&g.index.alias_to_concept, span);
                let f = self.lookup(&g.index.alias_to_field, span);
                if c.is_some() || f.is_some() {
                    let is_field = f.is_some();
                    let ids: Vec<String> =
                        c.as_ref().map(|(v, _)| (*v).clone()).unwrap_or_default();
                    let key = c.map(|(_, k)| k).or(f.map(|(_, k)| k)).unwrap_or_default();
                    let mut text = query[span[0].range.0..span[len - 1].range.1].to_string();
                    // Matched through a stem ("전자 유효 질량이랑", "effective masses"): a name
                    // passed on as text (a field alias, an ambiguous alias) is the alias
                    // matched, which Algorithm 1 resolves, not the words with their ending.
                    if normalise_alias(&text) != key {
                        text = key.replace('_', " ");
                    }
                    // Single short common words are weak evidence; skip stop words.
                    if len == 1 && STOP.contains(&key.as_str()) {
                        break;
                    }
                    // A label right before the value it names ("DOI 10.1038/...") introduces
                    // a parameter; it does not ask for that field.
                    let end = span[len - 1].range.1;
                    let label = extracted.iter().any(|e| {
                        ids.iter().any(|id| id == e.concept)
                            && e.range.0 >= end
                            && query[end..e.range.0]
                                .chars()
                                .all(|c| c.is_whitespace() || matches!(c, ':' | '#' | '='))
                    });
                    if label {
                        used[i..i + len].iter_mut().for_each(|u| *u = true);
                        i += len;
                        advanced = true;
                        break;
                    }
                    if !concepts
                        .iter()
                        .any(|(_, ids2, _)| !ids.is_empty() && ids2 == &ids)
                    {
                        concepts.push((text, ids, is_field));
                        concept_at.push((span[0].range.0, span[len - 1].range.1));
                    }
                    concept_spans.push((span[0].range.0, span[len - 1].range.1));
                    // "bulk and shear modulus", "electron and hole effective masses": the word
                    // before `and` shares this phrase's head; with it, a concept of its own.
                    if len >= 2
                        && i >= 2
                        && matches!(tokens[i - 1].norm.as_str(), "and" | "&" | "or")
                        && !used[i - 2]
                        && !consumed(&tokens[i - 2])
                    {
                        let mut other = vec![tokens[i - 2].clone()];
                        other.extend_from_slice(&span[1..]);
                        if let Some((v, _)) = self.lookup(&g.index.alias_to_concept, &other)
                            && !concepts.iter().any(|(_, ids2, _)| ids2 == v)
                        {
                            let text = format!(
                                "{} {}",
                                &query[tokens[i - 2].range.0..tokens[i - 2].range.1],
                                &query[span[1].range.0..span[len - 1].range.1]
                            );
                            concepts.push((text, v.clone(), false));
                            concept_at.push((tokens[i - 2].range.0, span[len - 1].range.1));
                            concept_spans.push((tokens[i - 2].range.0, tokens[i - 2].range.1));
                            used[i - 2] = true;
                        }
                    }
                    used[i..i + len].iter_mut().for_each(|u| *u = true);
                    i += len;
                    advanced = true;
                    break;
                }
            }
            if !advanced {
                i += 1;
            }
        }

        // "formation enthalpy of NiAl per cell", "magnetic moment of Fe per atom", "total
        // energy of NaCl in eV/cell": a count basis stated apart from the property's name
        // asks for the concept of that basis, when the vocabulary names one by the property's
        // words (or their last ones) and the basis ("formation enthalpy per cell", "moment per
        // atom", "energy per cell").
        // Not when a concept's own words carry a basis ("formation energy per atom, ... and
        // the exfoliation energy"): the basis is that concept's.
        let basis_bound = concept_at.iter().any(|&(s0, e0)| {
            tokens
                .iter()
                .any(|t| s0 <= t.range.0 && t.range.1 <= e0 && t.norm == "per")
        });
        if let Some((basis, at)) = stated_basis(&query).filter(|_| !basis_bound) {
            let basis_tokens = tokenize(basis);
            for k in 0..concepts.len() {
                let (s0, e0) = concept_at[k];
                // The basis follows the property it qualifies.
                if e0 > at {
                    continue;
                }
                let span: Vec<Token> = tokens
                    .iter()
                    .filter(|t| s0 <= t.range.0 && t.range.1 <= e0)
                    .cloned()
                    .collect();
                if span.iter().any(|t| t.norm == "per") {
                    continue;
                }
                // A concept whose unit already has that basis is what was asked ("exfoliation
                // energy in eV/atom" stays exfoliation energy, in meV/atom).
                let has_basis = |id: &String| {
                    g.concept(id)
                        .and_then(|c| c.unit.as_deref())
                        .and_then(unit_count_basis)
                        == Some(basis)
                };
                if !concepts[k].1.is_empty() && concepts[k].1.iter().all(has_basis) {
                    continue;
                }
                for skip in 0..span.len() {
                    let mut phrase = span[skip..].to_vec();
                    phrase.extend(basis_tokens.iter().cloned());
                    if let Some((v, _)) = self.lookup(&g.index.alias_to_concept, &phrase) {
                        if *v != concepts[k].1 {
                            concepts[k] = (format!("{} {basis}", concepts[k].0), v.clone(), false);
                        }
                        break;
                    }
                }
            }
        }

        // Field qualifiers: values of the qualifier vocabulary anywhere outside tool names and
        // identifiers (inside a concept's words too: "electron effective mass", "n-type
        // Seebeck"), longest first; temperatures written as `300 K`.
        let mut qualifiers: BTreeMap<String, String> = BTreeMap::new();
        if !g.index.qualifier_values.is_empty() {
            let tool_token = |k: usize| {
                (0..tokens.len()).any(|a| {
                    (a + 1..=tokens.len().min(a + self.max_words)).any(|b| {
                        a <= k && k < b && self.lookup(&g.index.tool_names, &tokens[a..b]).is_some()
                    })
                })
            };
            let mut k = 0;
            while k < tokens.len() {
                let mut step = 1;
                if !consumed(&tokens[k]) && !tool_token(k) {
                    let max = self.max_words.min(tokens.len() - k);
                    for len in (1..=max).rev() {
                        let span = &tokens[k..k + len];
                        if span.iter().any(consumed) {
                            continue;
                        }
                        if let Some((refs, _)) = self.lookup(&g.index.qualifier_values, span)
                            && let Some(r) = refs.first()
                        {
                            qualifiers
                                .entry(r.key.clone())
                                .or_insert_with(|| r.value.clone());
                            step = len;
                            break;
                        }
                    }
                }
                k += step;
            }
            if let Some(key) = g.index.qualifier_keys.get("temperature")
                && !qualifiers.contains_key(key)
                && let Some(t) = temperature(&query)
            {
                qualifiers.insert(key.clone(), t);
            }
        }

        // An element name inside a concept's phrase ("hydrogen bond donors", "oxygen
        // vacancy") is part of that phrase, not the material asked about.
        extracted.retain(|e| {
            e.concept != "formula"
                || !concept_spans
                    .iter()
                    .any(|&(s, t)| s <= e.range.0 && e.range.1 <= t)
        });

        // Source constraint with negation.
        let mut votes: BTreeMap<&str, i32> = BTreeMap::new();
        for (ti, t) in tokens.iter().enumerate() {
            let words: Vec<&str> = std::iter::once(t.norm.as_str())
                .chain(t.stems.iter().map(String::as_str))
                .collect();
            let Some((_, st)) = CUES.iter().find(|(w, _)| {
                words
                    .iter()
                    .any(|x| x.starts_with(w) && (x.len() - w.len()) <= 6 || x == w)
            }) else {
                continue;
            };
            let before = tokens[ti.saturating_sub(3)..ti]
                .iter()
                .any(|p| NEGATIONS.contains(&p.norm.as_str()) || p.norm == "than");
            let after = tokens[ti + 1..(ti + 3).min(tokens.len())]
                .iter()
                .any(|p| KO_NEGATIONS.iter().any(|n| p.norm.starts_with(n)))
                || KO_NEGATIONS.iter().any(|n| t.norm.contains(n));
            *votes.entry(st).or_insert(0) += if before || after { -1 } else { 1 };
        }
        let cued: Vec<(&str, i32)> = votes
            .iter()
            .filter(|(st, v)| **v > 0 && g.source_types.iter().any(|s| s == *st))
            .map(|(st, v)| (*st, *v))
            .collect();
        let top = cued.iter().map(|(_, v)| *v).max().unwrap_or(0);
        // Two kinds cued as often ("measured vs calculated") ask for both: no constraint.
        let source_constraint = match cued.iter().filter(|(_, v)| *v == top).count() {
            1 => cued
                .iter()
                .find(|(_, v)| *v == top)
                .map(|(st, _)| st.to_string()),
            _ => None,
        };

        // "papers on perovskite stability": in a request for literature, the concept words
        // of the topic name what the papers are about, not fields to fetch.
        if source_constraint.as_deref() == Some("literature")
            && let Some(topic) = phrase_after(&query, TOPIC_KEYS, TOPIC_STOPS)
        {
            let start = topic.as_ptr() as usize - query.as_ptr() as usize;
            let end = start + topic.len();
            let mut at = concept_at.iter();
            concepts.retain(|_| at.next().is_none_or(|&(s, e)| !(start <= s && e <= end)));
        }

        // Intent inference.
        let query_words = words_of(
            &tokens
                .iter()
                .zip(&tool_words)
                .filter(|(_, tool)| !**tool)
                .map(|(t, _)| t.clone())
                .collect::<Vec<_>>(),
        );
        let param_concepts: BTreeSet<&str> = extracted.iter().map(|e| e.concept).collect();
        // Parameters that identify an entity: a query naming only an entity is still classified
        // (prompt rule: vague questions get the closest intent).
        let entity = param_concepts.iter().any(|c| ENTITY_PARAMS.contains(c));
        let mut best: Option<(f64, usize, usize, f64)> = None;
        for (ii, intent) in g.intents.iter().enumerate() {
            let cands = &self.candidates[ii];
            let mut score = 0.0;
            let mut evidence = false;
            for (_, ids, _) in &concepts {
                let mut strong = false;
                let mut weak = false;
                for id in ids {
                    let Some(list) = g.index.concept_postings.get(id) else {
                        continue;
                    };
                    for p in list
                        .iter()
                        .filter(|p| p.kind != MatchKind::Partial && cands.contains(&p.tool))
                    {
                        let f = g.tool_at(p.tool).endpoint_at(p.endpoint).field_at(p.field);
                        if f.groups
                            .iter()
                            .any(|gr| intent.required_groups.contains(gr))
                        {
                            strong = true;
                            break;
                        }
                        weak = true;
                    }
                    if strong {
                        break;
                    }
                }
                if strong {
                    score += 3.0;
                    evidence = true;
                } else if weak {
                    score += 1.0;
                    evidence = true;
                }
            }
            for t in &tools {
                if cands.contains(t) {
                    score += 2.0;
                    evidence = true;
                } else if !intent.domains.contains(&g.tool_at(*t).domain) {
                    score -= 5.0;
                }
            }
            for pc in &param_concepts {
                if self.intent_params[ii].contains(*pc) {
                    score += 0.5;
                    evidence = true;
                }
            }
            // A source constraint favours intents whose tools are of that source type.
            if let Some(st) = &source_constraint
                && !cands.is_empty()
            {
                let matching = cands
                    .iter()
                    .filter(|t| g.tool_at(**t).source_types.contains(st))
                    .count();
                score += 1.5 * matching as f64 / cands.len() as f64;
                // Every tool the intent could use is of that source type ("papers about X",
                // "measured values of Y"): the cue alone points at the intent.
                if matching == cands.len() {
                    evidence = true;
                }
            }
            let shared: Vec<&String> = query_words.intersection(&self.intent_words[ii]).collect();
            let overlap = shared.len() as f64;
            // In the ranking, a shared word weighs 0.75 when only this intent's description and
            // examples hold it, and nothing when other intents' do too: such a word ("materials"
            // of "the Materials Project paper") tells them apart no more than chance.
            let weight: f64 = shared
                .iter()
                .filter(|w| self.word_intents.get(**w).copied().unwrap_or(1) <= 1)
                .count() as f64
                * 0.75;
            // The bar an intent must clear counts words as before; the ranking weighs them.
            let bar = score + overlap.min(3.0) * 0.75;
            score += weight.min(2.25);
            if overlap >= 2.0 {
                evidence = true;
            }
            if !evidence {
                continue;
            }
            // Ties go to the intent with more candidate tools binding the query's parameters.
            let breadth = param_concepts
                .iter()
                .map(|pc| {
                    g.index
                        .param_postings
                        .get(pc)
                        .map(|l| l.iter().filter(|p| cands.contains(&p.tool)).count())
                        .unwrap_or(0)
                })
                .sum::<usize>();
            // Then to the broader intent (more candidate tools): with no evidence telling two
            // intents apart, the general one ("papers about X": finding papers, not counting
            // their citations) serves the question.
            let wider = |b: usize, other: usize| {
                breadth > b || (breadth == b && cands.len() > self.candidates[other].len())
            };
            if best.is_none_or(|(s, b, other, _)| score > s || (score == s && wider(b, other))) {
                best = Some((score, breadth, ii, bar));
            }
        }
        let mut intent = best
            .filter(|(_, _, _, bar)| *bar >= 1.5 || (entity && *bar > 0.0))
            .map(|(_, _, ii, _)| &g.intents[ii]);
        // A question that names only an entity ("pyrite?", "LiPF6", "caffeine", a DOI): the
        // intent declared for that kind of entity, when nothing else in the question points
        // elsewhere (no concept, no tool, no source cue, no two words of an intent's examples).
        let mut entity_note = None;
        let strong_words = (0..g.intents.len())
            .any(|ii| query_words.intersection(&self.intent_words[ii]).count() >= 2);
        // Words of a material or molecule question that nothing declared explains ("melting
        // point of NaCl", "price of lithium carbonate"): the question asks for something the
        // inventory does not hold, so the entity's default intent would answer another one.
        let unexplained: Vec<&str> = tokens
            .iter()
            .zip(&used)
            .filter(|(t, used)| {
                !**used
                    && !extracted
                        .iter()
                        .any(|e| t.range.0 < e.range.1 && e.range.0 < t.range.1)
                    && t.norm.chars().count() > 1
                    && !t.norm.chars().all(|c| c.is_ascii_digit())
                    && !STOP.contains(&t.norm.as_str())
                    && !VAGUE.contains(&t.norm.as_str())
                    && !t.stems.iter().any(|w| VAGUE.contains(&w.as_str()))
            })
            .map(|(t, _)| &query[t.range.0..t.range.1])
            .collect();
        let material_only = !extracted.is_empty()
            && extracted
                .iter()
                .all(|e| matches!(e.concept, "formula" | "compound_name"));
        // "What was the final score of the World Cup final?", "What's my credit score?": one
        // word of a concept's name (`score`, `revenue`, everyday English) is the only
        // evidence, with no entity, tool or source named, and the question's other words are
        // about something nothing declared explains.
        let other: Vec<&str> = unexplained
            .iter()
            .copied()
            .filter(|w| !matches!(w.to_lowercase().as_str(), "was" | "were" | "be" | "been"))
            .collect();
        let lone_word = concepts.len() == 1
            && !concepts[0].0.contains(char::is_whitespace)
            && extracted.is_empty()
            && tools.is_empty()
            && excluded.is_empty()
            && source_constraint.is_none()
            && !strong_words
            && !other.is_empty();
        if lone_word {
            intent = None;
            entity_note = Some(format!(
                "only the word `{}` matches a declared concept, and nothing declared explains `{}`: the question is about something the inventory does not hold",
                concepts[0].0,
                other.join(" ")
            ));
            // The word is no request either (no "no intent fits" note, no concept to report).
            concepts.clear();
        } else if concepts.is_empty()
            && tools.is_empty()
            && source_constraint.is_none()
            && !strong_words
            && material_only
            && !unexplained.is_empty()
        {
            intent = None;
            entity_note = Some(format!(
                "no declared concept matches `{}`: nothing in the inventory answers it",
                unexplained.join(" ")
            ));
        } else if concepts.is_empty()
            && tools.is_empty()
            && source_constraint.is_none()
            && !strong_words
            && let Some((e, it)) = extracted.iter().find_map(|e| {
                g.intents
                    .iter()
                    .find(|i| i.entities.iter().any(|c| c == e.concept))
                    .map(|it| (e, it))
            })
        {
            entity_note = Some(format!(
                "the question names only {}: intent `{}`, the intent declared for questions about a {}",
                entity_phrase(e),
                it.id,
                e.concept.replace('_', " ")
            ));
            intent = Some(it);
        }

        let mut u = Understanding {
            intent: intent.map(|i| i.id.clone()),
            ..Default::default()
        };
        let mut warnings = Vec::new();
        if let Some(n) = entity_note {
            warnings.push(n);
        }
        u.excluded_apis = excluded.iter().map(|t| g.tool_at(*t).id.clone()).collect();
        if intent.is_some() || !tools.is_empty() {
            u.qualifiers = qualifiers;
        }
        // Several values of one entity parameter ("GaN, AlN and InN") become a list.
        let mut multi: BTreeMap<&str, Vec<serde_json::Value>> = BTreeMap::new();
        for e in &extracted {
            if MULTI_PARAMS.contains(&e.concept) {
                let v = multi.entry(e.concept).or_default();
                if !v.contains(&e.value) {
                    v.push(e.value.clone());
                }
            }
        }
        if let Some(it) = intent {
            let ii = g.intents.iter().position(|x| x.id == it.id).unwrap_or(0);
            for (text, ids, field_alias) in &concepts {
                let out = if ids.len() == 1 && !field_alias {
                    ids[0].clone()
                } else {
                    text.clone()
                };
                if !u.domain_concepts.contains(&out) {
                    u.domain_concepts.push(out);
                }
            }
            u.target_apis = tools.iter().map(|t| g.tool_at(*t).id.clone()).collect();
            // A cue no candidate of the intent can satisfy is topical ("DFT+U settings"), not a
            // constraint.
            // Nor is one that a tool the question names lacks ("from both the Materials
            // Project and our lab measurements"): the named tools are asked as named.
            u.source_constraint = source_constraint.clone().filter(|st| {
                self.candidates[ii]
                    .iter()
                    .any(|t| g.tool_at(*t).source_types.contains(st))
                    && tools
                        .iter()
                        .all(|t| g.tool_at(*t).source_types.contains(st))
            });
            for e in &extracted {
                u.parameters
                    .entry(e.concept.to_string())
                    .or_insert_with(|| e.value.clone());
            }
            for (c, vs) in &multi {
                if vs.len() > 1 {
                    u.parameters
                        .insert(c.to_string(), serde_json::Value::Array(vs.clone()));
                }
            }
            // Free-text parameters the intent's tools take.
            let binds = |c: &str| self.intent_params[ii].contains(c);
            let has_id = [
                "doi",
                "cid",
                "inchikey",
                "smiles",
                "formula",
                "compound_name",
                "arxiv_id",
                "pmid",
                "title",
            ]
            .iter()
            .any(|c| u.parameters.contains_key(*c));
            if binds("compound_name")
                && !has_id
                && let Some(name) =
                    phrase_after(&query, &["of", "for"], &["from", "in", "according", "on"])
                        .or_else(|| subject_of_have(&query))
            {
                u.parameters.insert("compound_name".into(), name.into());
            }
            // The topic ends where the author begins ("on X by Y").
            let topic_stops: &[&str] = if u.parameters.contains_key("author") {
                TOPIC_STOPS
            } else {
                &TOPIC_STOPS[..TOPIC_STOPS.len() - 1]
            };
            if binds("search_text")
                && !u.parameters.contains_key("doi")
                && !u.parameters.contains_key("title")
                && let Some(topic) = phrase_after(&query, TOPIC_KEYS, topic_stops)
                    .or_else(|| phrase_before_ko(&query))
                    // "search the web for X": `for` after a search verb or place, only when no
                    // other word introduces a topic ("the smearing parameter for metals" is no topic).
                    .or_else(|| {
                        phrase_after(
                            &query,
                            &[
                                "search for",
                                "searching for",
                                "look for",
                                "looking for",
                                "web for",
                                "online for",
                                "internet for",
                                "forums for",
                            ],
                            topic_stops,
                        )
                    })
                    // "search PubMed for X", "look up arXiv for X": `for` right after a tool's
                    // name, with a search verb before it.
                    .or_else(|| {
                        let k = (0..tokens.len().saturating_sub(1)).find(|&k| {
                            tool_words[k]
                                && !tool_words[k + 1]
                                && tokens[k + 1].norm == "for"
                                && tokens[..k]
                                    .iter()
                                    .any(|t| SEARCH_VERBS.contains(&t.norm.as_str()))
                        })?;
                        phrase_after(&query[tokens[k + 1].range.0..], &["for"], topic_stops)
                    })
            {
                // "papers about TiO2 photocatalysis on arXiv": a topic that is only a tool's
                // name says where to search; the topic is the phrase before it.
                let only_tool = |phrase: &str| {
                    let s0 = phrase.as_ptr() as usize - query.as_ptr() as usize;
                    let e0 = s0 + phrase.len();
                    let inside: Vec<bool> = tokens
                        .iter()
                        .zip(&tool_words)
                        .filter(|(t, _)| s0 <= t.range.0 && t.range.1 <= e0)
                        .map(|(_, tool)| *tool)
                        .collect();
                    !inside.is_empty() && inside.iter().all(|x| *x)
                };
                let topic = if only_tool(topic) {
                    let s0 = topic.as_ptr() as usize - query.as_ptr() as usize;
                    let head = query[..s0].trim_end();
                    let head = head.rfind(char::is_whitespace).map_or("", |i| &head[..i]);
                    match phrase_after(head, TOPIC_KEYS, topic_stops) {
                        Some(t) if !only_tool(t) => t,
                        _ => topic,
                    }
                } else {
                    topic
                };
                // A tool named at the topic's start ("오픈알렉스에서 그래핀 관련 논문") is where to
                // search, not what about.
                let mut start = topic.as_ptr() as usize - query.as_ptr() as usize;
                let mut end = start + topic.len();
                for (t, _) in tokens.iter().zip(&tool_words).filter(|(_, tool)| **tool) {
                    if t.range.0 == start && t.range.1 < end {
                        start = t.range.1
                            + (query[t.range.1..end].len()
                                - query[t.range.1..end].trim_start().len());
                    }
                }
                // Nor one named at its end after a preposition ("perovskite solar cells on
                // arXiv").
                let inside: Vec<(&Token, bool)> = tokens
                    .iter()
                    .zip(tool_words.iter().copied())
                    .filter(|(t, _)| start <= t.range.0 && t.range.1 <= end)
                    .collect();
                let tail = inside.iter().rev().take_while(|(_, tool)| *tool).count();
                if tail > 0 && tail + 1 < inside.len() {
                    let (before, _) = inside[inside.len() - tail - 1];
                    if matches!(
                        before.norm.as_str(),
                        "on" | "in" | "from" | "at" | "via" | "using" | "with" | "through"
                    ) {
                        end = before.range.0;
                    }
                }
                // Nor the years that bound it ("MXenes between 2018 and 2020", "GaN 2019-21").
                if let Some(y) = extracted
                    .iter()
                    .filter(|e| matches!(e.concept, "year_from" | "year_to"))
                    .map(|e| e.range.0)
                    .filter(|&i| start < i && i < end)
                    .min()
                {
                    end = y;
                    loop {
                        let head = query[start..end].trim_end();
                        let cut = YEAR_LEADS.iter().find_map(|w| {
                            head.strip_suffix(w)
                                .filter(|h| h.is_empty() || h.ends_with(char::is_whitespace))
                        });
                        match cut {
                            Some(h) if !h.trim().is_empty() => end = start + h.len(),
                            _ => {
                                end = start + head.len();
                                break;
                            }
                        }
                    }
                }
                let topic = query[start..end].trim();
                // A formula or material name inside the topic ("TiO2 photocatalysis", "hard
                // carbon anodes") is part of what the papers are about, not a record to fetch.
                if extracted
                    .iter()
                    .filter(|e| e.concept == "formula")
                    .all(|e| start <= e.range.0 && e.range.1 <= end)
                {
                    u.parameters.remove("formula");
                }
                // "preprints on arXiv": no topic at all.
                if !topic.is_empty() && !only_tool(topic) {
                    u.parameters.insert("search_text".into(), topic.into());
                }
            }
            // An author only means something to tools that search by author.
            if !binds("author") {
                u.parameters.remove("author");
            }
            // Keep only parameters some tool binds (the router would not use others).
            u.parameters
                .retain(|k, _| g.index.param_postings.contains_key(k));
        } else if !concepts.is_empty() || !tools.is_empty() {
            warnings.push(if tools.is_empty() {
                "no intent fits the evidence; the plan will be empty unless a tool is named"
                    .to_string()
            } else {
                "no intent fits the evidence; the plan uses the named tool only".to_string()
            });
            // Without concepts, the question's own words choose among a named tool's endpoints
            // ("convert currency with openai_tools" -> `openai_tools/convert_currency`).
            let query_words = words_of(&tokens);
            // A value written after the name of a parameter the named tools' endpoints declare
            // ("city Paris", "job id 7sX8", `origin=MAD`, `timezone: "Europe/Paris"`) binds that
            // parameter by its own name (and tells their endpoints apart).
            let mut by_name: BTreeMap<String, serde_json::Value> = BTreeMap::new();
            for t in &tools {
                let tool = g.tool_at(*t);
                for e in &tool.endpoints {
                    for p in e.parameters.iter().filter(|p| !p.auth) {
                        if by_name.contains_key(&p.name) {
                            continue;
                        }
                        if let Some(v) = params::value_after_name(&query, &p.name) {
                            by_name.insert(p.name.clone(), serde_json::Value::String(v));
                        }
                    }
                }
            }
            let lower = query.to_lowercase();
            u.target_apis = tools
                .iter()
                .map(|t| {
                    let tool = g.tool_at(*t);
                    // An endpoint id written in the question ("tcgdex get_card_prices") names
                    // that endpoint; the longest one written, when several are.
                    let written = tool
                        .endpoints
                        .iter()
                        .filter(|e| !e.destructive && e.id.chars().count() > 2)
                        .filter(|e| mentions(&lower, &e.id.to_lowercase()))
                        .max_by_key(|e| e.id.len())
                        .map(|e| (e.id.clone(), None));
                    match written.or_else(|| {
                        concepts
                            .is_empty()
                            .then(|| endpoint_by_words(tool, &query_words, &by_name))
                            .flatten()
                    }) {
                        Some((e, tie)) => {
                            warnings.extend(tie);
                            format!("{}/{e}", tool.id)
                        }
                        None => tool.id.clone(),
                    }
                })
                .collect();
            if !u.target_apis.is_empty() {
                for (text, ids, field_alias) in &concepts {
                    let out = if ids.len() == 1 && !field_alias {
                        ids[0].clone()
                    } else {
                        text.clone()
                    };
                    u.domain_concepts.push(out);
                }
                // Values no parameter takes, by concept or by its own name ("IP" read as a
                // formula where no tool takes a formula), would only leave the plan unbound.
                let takes = |c: &str| {
                    g.index.param_postings.contains_key(c)
                        || tools.iter().any(|t| {
                            g.tool_at(*t)
                                .endpoints
                                .iter()
                                .any(|e| e.parameters.iter().any(|p| p.name == c))
                        })
                };
                for e in &extracted {
                    if takes(e.concept) {
                        u.parameters
                            .entry(e.concept.to_string())
                            .or_insert_with(|| e.value.clone());
                    }
                }
                for (name, v) in by_name {
                    u.parameters.entry(name).or_insert(v);
                }
                // A source kind the named tools do not carry ("articles" in a question to a
                // shop's API) is no constraint on them.
                u.source_constraint = source_constraint.filter(|st| {
                    tools
                        .iter()
                        .any(|t| g.tool_at(*t).source_types.iter().any(|s| s == st))
                });
            }
        }
        Analysis {
            understanding: u,
            warnings,
        }
    }
}

/// The endpoint of `tool` the question's words point at, when one shares at least one content
/// word with it (`query_words`, without the words of the tool's own id, title and names). The
/// endpoint's own id counts first (its operationId or function name: "list all bots" is
/// `list_bots`, whatever `list_bot_versions`'s description says), then how many of the values
/// the question gives by parameter name (`given`) it takes ("timezone Europe/Paris" is
/// `get_current_time`'s), then fewer words of its id the question does not ask ("weather" is
/// `get_weather`, not `get_weather_forecast`), then the words its description shares, then
/// reading before writing (annotations; `GET`, local and MCP calls before `POST` before other
/// methods, as the router's own ranking), then id order. A tie only id order breaks comes with
/// a warning naming the others (the user can name `tool/endpoint`). Destructive endpoints are
/// never chosen here. `None` when no endpoint shares a word.
fn endpoint_by_words(
    tool: &crate::artifact::ToolData,
    query_words: &HashSet<String>,
    given: &BTreeMap<String, serde_json::Value>,
) -> Option<(String, Option<String>)> {
    use std::cmp::Reverse;
    if tool.endpoints.len() < 2 {
        return None;
    }
    let mut naming = content_words(&tool.id.replace('_', " "));
    naming.extend(content_words(&tool.title));
    for n in &tool.names {
        naming.extend(content_words(n));
    }
    let asked: HashSet<&String> = query_words
        .iter()
        .filter(|w| !naming.contains(*w))
        .collect();
    // (id words shared, given values taken, id words not asked, description words shared,
    // writes, method rank, order, id)
    type Key<'a> = (
        Reverse<usize>,
        Reverse<usize>,
        usize,
        Reverse<usize>,
        bool,
        u8,
        usize,
        &'a str,
    );
    let mut scores: Vec<Key> = tool
        .endpoints
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.destructive)
        .map(|(i, e)| {
            let id_words = content_words(&e.id.replace('_', " "));
            let unasked = id_words
                .iter()
                .filter(|w| !asked.contains(w) && !naming.contains(*w))
                .count();
            let by_id = asked.iter().filter(|w| id_words.contains(**w)).count();
            let described = e
                .description
                .as_deref()
                .map(content_words)
                .unwrap_or_default();
            let by_description = asked
                .iter()
                .filter(|w| described.contains(**w) && !id_words.contains(**w))
                .count();
            let takes = e
                .parameters
                .iter()
                .filter(|p| given.contains_key(&p.name))
                .count();
            let method = match e.method.as_str() {
                "GET" | "LOCAL" | "MCP" => 0,
                "POST" => 1,
                _ => 2,
            };
            (
                Reverse(by_id),
                Reverse(takes),
                unasked,
                Reverse(by_description),
                e.writes,
                method,
                i,
                e.id.as_str(),
            )
        })
        .collect();
    scores.sort();
    let &(by_id, takes, unasked, by_description, writes, method, _, id) = scores.first()?;
    if by_id.0 + by_description.0 == 0 {
        return None;
    }
    let key = (by_id, takes, unasked, by_description, writes, method);
    let tied: Vec<&str> = scores[1..]
        .iter()
        .filter(|s| (s.0, s.1, s.2, s.3, s.4, s.5) == key)
        .map(|s| s.7)
        .collect();
    let warning = (!tied.is_empty()).then(|| {
        format!(
            "endpoints `{id}` and `{}` of tool `{}` match the request's words equally; took `{id}` (the first in id order); name `{}/<endpoint>` to choose",
            tied.join("`, `"),
            tool.id,
            tool.id
        )
    });
    Some((id.to_string(), warning))
}

/// The analysis of a request no tool serves: no intent, the reason, and a warning saying it.
fn out_of_scope(o: &scope::OutOfScope) -> Analysis {
    let reason = o.reason();
    Analysis {
        understanding: Understanding {
            out_of_scope: Some(reason.clone()),
            ..Default::default()
        },
        warnings: vec![format!("out of scope: {reason}")],
    }
}

/// Whether `text` holds `word` with no letter, digit or `_` right before or after it.
fn mentions(text: &str, word: &str) -> bool {
    let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
    text.match_indices(word).any(|(i, w)| {
        edge(text[..i].chars().next_back()) && edge(text[i + w.len()..].chars().next())
    })
}

fn boundary(text: &str, word: &str) -> Option<usize> {
    let lower = text.to_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find(word) {
        let s = from + i;
        let e = s + word.len();
        let before = s == 0
            || !lower[..s]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
        let after =
            e == lower.len() || !lower[e..].chars().next().is_some_and(char::is_alphanumeric);
        if before && after {
            return Some(e);
        }
        from = e;
    }
    None
}

/// The one count basis a question states ("per cell", "in eV/cell", "per atom", "μB/atom",
/// "per formula unit"), as `per cell`, `per atom` or `per formula unit`, with the byte offset
/// of its first statement; `None` when it states none or several.
fn stated_basis(query: &str) -> Option<(&'static str, usize)> {
    let lower = query.to_lowercase();
    if lower.len() != query.len() {
        // Offsets would not carry over (a letter whose lower case has another length).
        return None;
    }
    let mut found: Vec<(&'static str, usize)> = Vec::new();
    for (needles, basis) in [
        (&["per cell", "per unit cell", "/cell"][..], "per cell"),
        (&["per atom", "/atom"][..], "per atom"),
        (
            &["per formula unit", "per f.u.", "/f.u.", "/fu"][..],
            "per formula unit",
        ),
    ] {
        let first = needles
            .iter()
            .flat_map(|n| lower.match_indices(n))
            .filter(|(i, m)| {
                !lower[i + m.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
            })
            .map(|(i, _)| i)
            .min();
        if let Some(i) = first {
            found.push((basis, i));
        }
    }
    (found.len() == 1).then(|| found[0])
}

/// The count basis a unit's spelling ends in (`meV/atom` -> "per atom", `eV/cell` -> "per
/// cell", `μB/f.u.` -> "per formula unit"), as [`stated_basis`] names them.
fn unit_count_basis(unit: &str) -> Option<&'static str> {
    let u = unit.trim().to_ascii_lowercase();
    if u.ends_with("/atom") {
        Some("per atom")
    } else if u.ends_with("/cell") {
        Some("per cell")
    } else if u.ends_with("/f.u.") || u.ends_with("/fu") || u.ends_with("/formula_unit") {
        Some("per formula unit")
    } else {
        None
    }
}

/// Verbs that ask a tool to search ("search PubMed for ...").
const SEARCH_VERBS: &[&str] = &[
    "search", "look", "lookup", "query", "check", "browse", "scan",
];

/// Words that lead into the years bounding a literature topic ("published between 2018 and
/// 2020"), cut from the topic's end with the years.
const YEAR_LEADS: &[&str] = &[
    "between",
    "from",
    "since",
    "after",
    "before",
    "until",
    "in",
    "during",
    "published",
    "by",
];

/// The phrase after the last of `keys` up to punctuation or one of `stops`.
fn phrase_after<'a>(text: &'a str, keys: &[&str], stops: &[&str]) -> Option<&'a str> {
    let start = keys.iter().filter_map(|k| boundary(text, k)).max()?;
    let rest = &text[start..];
    let mut end = rest
        .find(['?', ';', ',', '.', '!', ':', '('])
        .unwrap_or(rest.len());
    // A dash between spaces ends the clause as a comma does ("... anodes - titles and
    // abstracts"); one inside a word (`solid-state`) does not.
    for dash in [" - ", " – ", " — "] {
        if let Some(i) = rest.find(dash) {
            end = end.min(i);
        }
    }
    for s in stops {
        if let Some(i) = boundary(rest, s) {
            end = end.min(i - s.len());
        }
    }
    let phrase = rest[..end].trim().trim_start_matches("the ").trim();
    let phrase = phrase
        .strip_suffix(" papers")
        .or(phrase.strip_suffix(" preprints"))
        .or(phrase.strip_suffix(" articles"))
        .or(phrase.strip_suffix(" publications"))
        .unwrap_or(phrase)
        .trim();
    if phrase.is_empty() || phrase.split_whitespace().count() > 12 {
        None
    } else {
        Some(phrase)
    }
}

/// The subject of "How many X does Y have?" (one to four words).
fn subject_of_have(text: &str) -> Option<&str> {
    let lower = text.to_lowercase();
    let start = boundary(&lower, "does")?;
    let rest = &lower[start..];
    let end = rest.find(" have").or_else(|| rest.find(" has"))?;
    let phrase = text[start..start + end].trim();
    let phrase = phrase
        .strip_prefix("the ")
        .or(phrase.strip_prefix("The "))
        .unwrap_or(phrase);
    let words = phrase.split_whitespace().count();
    (1..=4).contains(&words).then_some(phrase)
}

/// Korean topic phrases: the words before `에 관한` / `에 대한` / `관련`.
fn phrase_before_ko(text: &str) -> Option<&str> {
    for marker in ["에 관한", "에 대한", " 관련"] {
        if let Some(i) = text.find(marker) {
            let head = text[..i].trim();
            let start = head.rfind(['.', ',', '?', '!']).map(|p| p + 1).unwrap_or(0);
            let phrase = head[start..].trim();
            if !phrase.is_empty() {
                return Some(phrase);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::OnceLock;

    fn shipped() -> &'static FrozenGraph {
        static G: OnceLock<FrozenGraph> = OnceLock::new();
        // The shipped project's committed artifact (kept current by `compile --check` in CI).
        G.get_or_init(|| {
            let path =
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json");
            crate::artifact::io::load(&path).expect("the committed build/graph.json loads")
        })
    }

    fn understand(q: &str) -> Understanding {
        Lexical::new(shipped()).analyse(q).understanding
    }

    fn want(v: serde_json::Value) -> Understanding {
        serde_json::from_value(v).expect("an Understanding")
    }

    #[test]
    fn citation_counts_in_verb_phrasings() {
        // "been cited" asks for the count; the "DOI" label before the id is not a request.
        assert_eq!(
            understand("Has the paper with DOI 10.1063/1.4812323 been cited much in Crossref?"),
            want(json!({
                "intent": "citation_impact",
                "domain_concepts": ["citation_count"],
                "parameters": {"doi": "10.1063/1.4812323"},
                "target_apis": ["crossref"],
                "source_constraint": null
            }))
        );
    }

    /// A negation covers a list of tool names joined by `or` / `and` / `nor`; a tool named
    /// after `but from` is wanted.
    #[test]
    fn a_negation_covers_a_list_of_tool_names() {
        let names = |q: &str| {
            let u = understand(q);
            (u.target_apis, u.excluded_apis)
        };
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        for q in [
            "band gap of GaN, not from OQMD or AFLOW",
            "band gap of GaN excluding OQMD and AFLOW",
            "band gap of GaN not from OQMD nor AFLOW",
        ] {
            assert_eq!(names(q), (s(&[]), s(&["oqmd", "aflow"])), "{q}");
        }
        assert_eq!(
            names("band gap of GaN from OQMD, not from Materials Project or AFLOW"),
            (s(&["oqmd"]), s(&["materials_project", "aflow"]))
        );
        assert_eq!(
            names("band gap of GaN not from OQMD but from AFLOW"),
            (s(&["aflow"]), s(&["oqmd"]))
        );
    }

    #[test]
    fn metal_or_insulator_questions() {
        for q in [
            "Tell me if NiO is an insulator",
            "Is NiO a metal or an insulator?",
        ] {
            assert_eq!(
                understand(q),
                want(json!({
                    "intent": "electronic_property",
                    "domain_concepts": ["is_metal"],
                    "parameters": {"formula": "NiO"},
                    "target_apis": [],
                    "source_constraint": null
                })),
                "{q}"
            );
        }
    }

    #[test]
    fn authors_after_by() {
        assert_eq!(
            understand("Preprints by Gerbrand Ceder on cathode coatings"),
            want(json!({
                "intent": "literature_search",
                "domain_concepts": [],
                "parameters": {"author": "Gerbrand Ceder", "search_text": "cathode coatings"},
                "target_apis": [],
                "source_constraint": "literature"
            }))
        );
        assert_eq!(
            understand("Recent arXiv papers authored by J. K. Nørskov after 2018"),
            want(json!({
                "intent": "literature_search",
                "domain_concepts": [],
                "parameters": {"author": "J. K. Nørskov", "year_from": 2019},
                "target_apis": ["arxiv"],
                "source_constraint": "literature"
            }))
        );
        // A tool's name after `by` is not an author.
        let u = understand("Perovskite solar cell papers indexed by OpenAlex");
        assert!(!u.parameters.contains_key("author"), "{u:?}");
        // Outside literature questions a capitalised word after `by` is not kept as an author.
        let u = understand("Band gap of GaAs measured by Raman");
        assert!(!u.parameters.contains_key("author"), "{u:?}");
    }

    #[test]
    fn bare_year_in_a_filing_question_is_the_fiscal_year() {
        assert_eq!(
            understand("LG Chem revenue, 2021, DART"),
            want(json!({
                "intent": "corporate_disclosure",
                "domain_concepts": ["revenue"],
                "parameters": {"fiscal_year": 2021},
                "target_apis": ["dart"],
                "source_constraint": null
            }))
        );
        // A range stays a range.
        assert_eq!(
            understand("DART filings of corp 00126380 since 2020"),
            want(json!({
                "intent": "corporate_disclosure",
                "domain_concepts": [],
                "parameters": {"corp_code": "00126380", "year_from": 2020},
                "target_apis": ["dart"],
                "source_constraint": null
            }))
        );
    }

    #[test]
    fn several_formulas_become_a_list() {
        // Several values of one entity parameter are kept, in query order.
        let u = understand("Compare the band gaps of ZnO, GaN and SiC");
        assert_eq!(
            u.parameters.get("formula"),
            Some(&json!(["ZnO", "GaN", "SiC"])),
            "{u:?}"
        );
    }

    #[test]
    fn a_request_for_papers_is_a_literature_search() {
        // "papers" alone is the whole evidence: every tool of the literature intents is
        // literature, and the broadest of them (finding papers) wins the tie.
        assert_eq!(
            understand("papers about perovskite solar cells"),
            want(json!({
                "intent": "literature_search",
                "domain_concepts": [],
                "parameters": {"search_text": "perovskite solar cells"},
                "target_apis": [],
                "source_constraint": "literature"
            }))
        );
        // "articles by X": a word of another intent's examples ("materials" of "the Materials
        // Project paper") does not pull the question to citation counts.
        assert_eq!(
            understand("articles by Gerbrand Ceder about cathode materials")
                .intent
                .as_deref(),
            Some("literature_search")
        );
        // A sodium formula inside a topic does not make it a measurement question.
        assert_eq!(
            understand("Recent publications on sodium-ion battery cathodes")
                .intent
                .as_deref(),
            Some("literature_search")
        );
    }

    #[test]
    fn a_tool_name_before_paper_titles_the_paper() {
        let u = understand("How many citations does the Materials Project paper have?");
        assert_eq!(u.intent.as_deref(), Some("citation_impact"));
        assert_eq!(u.domain_concepts, vec!["citation_count".to_string()]);
        assert!(u.target_apis.is_empty(), "{u:?}");
    }

    #[test]
    fn a_pubmed_id_is_a_parameter() {
        assert_eq!(
            understand("title and abstract of PMID 31452104"),
            want(json!({
                "intent": "paper_content",
                "domain_concepts": ["title", "abstract"],
                "parameters": {"pmid": "31452104"},
                "target_apis": [],
                "source_constraint": null
            }))
        );
    }

    #[test]
    fn an_element_name_inside_a_concept_is_no_formula() {
        assert_eq!(
            understand("How many hydrogen bond donors does paracetamol have?"),
            want(json!({
                "intent": "chemical_compound_lookup",
                "domain_concepts": ["hbond_donor_count"],
                "parameters": {"compound_name": "paracetamol"},
                "target_apis": [],
                "source_constraint": null
            }))
        );
    }

    #[test]
    fn magnetic_alone_asks_for_the_magnetic_ordering() {
        // `magnetic` is an alias of magnetic_ordering (aliases/materials.yaml).
        let u = understand("Is Fe2O3 magnetic?");
        assert_eq!(u.intent.as_deref(), Some("magnetic_property"), "{u:?}");
        assert_eq!(u.domain_concepts, vec!["magnetic_ordering".to_string()]);
    }

    #[test]
    fn concepts_in_a_literature_topic_name_the_topic() {
        for (q, topic) in [
            (
                "Find papers on perovskite stability",
                "perovskite stability",
            ),
            (
                "Find papers on band gap engineering",
                "band gap engineering",
            ),
        ] {
            let u = understand(q);
            assert_eq!(u.intent.as_deref(), Some("literature_search"), "{q}: {u:?}");
            assert!(u.domain_concepts.is_empty(), "{q}: {u:?}");
            assert_eq!(u.parameters.get("search_text"), Some(&json!(topic)), "{q}");
        }
        // A field named outside the topic is still asked for.
        let u = understand("Find papers on band gap engineering; list their titles");
        assert_eq!(u.domain_concepts, vec!["title".to_string()], "{u:?}");
        // A dash between spaces ends the topic as a comma does; one inside a word does not.
        for sep in [" - ", " – ", ", "] {
            let q =
                format!("10 arxiv preprints on solid-state electrolytes{sep}titles and abstracts");
            let u = understand(&q);
            assert_eq!(
                u.parameters.get("search_text"),
                Some(&json!("solid-state electrolytes")),
                "{q}: {u:?}"
            );
            assert_eq!(u.domain_concepts, ["title", "abstract"], "{q}: {u:?}");
        }
    }

    #[test]
    fn a_tool_name_counts_once() {
        // "COD" is a named tool (+2 for the intents that can use it), not also a word of
        // experimental_measurement's examples.
        let u = understand("Show me the crystal structure of quartz from COD");
        assert_eq!(u.intent.as_deref(), Some("crystal_structure"), "{u:?}");
        assert_eq!(u.target_apis, vec!["cod".to_string()]);
    }

    #[test]
    fn a_tool_named_before_a_korean_topic_is_not_part_of_it() {
        let u = understand("오픈알렉스에서 그래핀 관련 논문 찾아줘");
        assert_eq!(u.intent.as_deref(), Some("literature_search"), "{u:?}");
        assert_eq!(u.parameters.get("search_text"), Some(&json!("그래핀")));
        assert_eq!(u.target_apis, vec!["openalex".to_string()]);
    }

    #[test]
    fn a_sample_id_is_a_parameter() {
        let u = understand("Which technique did we use to measure sample S-12?");
        assert_eq!(
            u.intent.as_deref(),
            Some("experimental_measurement"),
            "{u:?}"
        );
        assert_eq!(u.parameters.get("sample_id"), Some(&json!("S-12")), "{u:?}");
        // A sample alone names the entity.
        let u = understand("conductivity of sample LAB-0042");
        assert_eq!(
            u.intent.as_deref(),
            Some("experimental_measurement"),
            "{u:?}"
        );
    }

    #[test]
    fn source_cues_that_conflict_are_no_constraint() {
        // Both kinds asked for.
        let u = understand("measured vs calculated band gap of CdTe");
        assert_eq!(u.source_constraint, None, "{u:?}");
        // A named tool of another kind.
        let u = understand("Band gap of ZnO from both Materials Project and our lab measurements");
        assert_eq!(u.source_constraint, None, "{u:?}");
        assert_eq!(
            u.target_apis,
            vec!["materials_project".to_string(), "lab_notebook".to_string()]
        );
        // One kind stays a constraint.
        let u = understand("measured band gap of CdTe");
        assert_eq!(
            u.source_constraint.as_deref(),
            Some("experimental"),
            "{u:?}"
        );
    }

    #[test]
    fn a_property_nothing_declares_is_not_answered_by_the_entity_default() {
        for q in [
            "melting point of NaCl",
            "what is the thermal expansion coefficient of Al2O3",
            "price of lithium carbonate per ton",
        ] {
            let a = Lexical::new(shipped()).analyse(q);
            assert_eq!(a.understanding.intent, None, "{q}: {a:?}");
        }
        // Vague questions about an entity keep its default intent.
        for q in [
            "Tell me about graphene.",
            "What do we know about barium titanate?",
            "titania properties",
            "pyrite?",
            "카페인 정보 좀 줘",
        ] {
            assert!(understand(q).intent.is_some(), "{q}");
        }
    }

    #[test]
    fn two_properties_joined_by_and_share_their_head() {
        let u = understand("bulk and shear modulus of TiC from MP");
        assert_eq!(
            u.domain_concepts,
            vec!["shear modulus".to_string(), "bulk_modulus".to_string()],
            "{u:?}"
        );
    }

    #[test]
    fn search_for_introduces_a_topic() {
        let u = understand("search the web for graphene production costs");
        assert_eq!(u.intent.as_deref(), Some("general_web_info"));
        assert_eq!(
            u.parameters.get("search_text"),
            Some(&json!("graphene production costs"))
        );
        // Only after a search verb or place: "the smearing parameter for metals" is no topic.
        let u = understand(
            "How do I choose the smearing parameter in VASP for metals? Check the forums.",
        );
        assert_eq!(u.parameters.get("search_text"), None);
        // `for` is a fallback: a topic after `on` is kept whole.
        let u = understand("Get me arXiv preprints on graph neural networks for materials");
        assert_eq!(
            u.parameters.get("search_text"),
            Some(&json!("graph neural networks for materials"))
        );
    }
}
