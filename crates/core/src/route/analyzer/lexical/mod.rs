//! The offline, deterministic Understand step: a pipeline of named passes over one shared
//! `reading::Reading` of the question, in the order of the table `passes::PASSES`. Each pass
//! is one file under `passes/`, its documentation says what it reads and writes, and its
//! phrasing tests sit beside it.
//!
//! 1. Requests no tool serves are refused (`passes::scope`, `passes::definition`).
//! 2. Parameters are extracted with well-tested patterns (`passes::parameters`).
//! 3. Tool names and concept aliases are matched against the compiled alias layer
//!    (`passes::mentions`): n-grams of normalised tokens, longest match first, with Korean
//!    particles and English possessives and plurals stripped from the last word; a stated count
//!    basis (`passes::basis`) and qualifier values (`passes::qualifiers`) refine them.
//! 4. Source-constraint cue words ("measured", "DFT", "from the literature", 실험, 계산, 논문),
//!    with negation ("not DFT", "계산값 말고") (`passes::source`, `passes::topic`).
//! 5. The intent is inferred from evidence (`passes::intent`, `passes::entity`): requested
//!    concepts whose fields sit in an intent's required groups on its candidate tools, named
//!    tools, parameter concepts the candidates bind, a source cue every candidate matches
//!    ("papers about X" for the literature intents), and overlap with the intents' example
//!    queries (two shared words are evidence; in the ranking only words no other intent's
//!    examples hold count, and tool names count once, as named tools). Ties go to the intent
//!    whose candidates bind more of the query's parameters, then to the broader intent (more
//!    candidate tools). Without evidence the intent is null. In a request for literature,
//!    concept words inside the topic name the topic.
//! 6. The Understanding is written (`passes::understanding`): with an intent, its parameters
//!    (`passes::bind`); without one, the endpoint of a named tool the question's words point
//!    at (`passes::named_tool`).

mod negation;
pub mod notes;
mod passes;
mod phrases;
mod reading;
mod spelling;
mod text;

use super::params::Recognisers;
use super::{Analysis, Analyzer, AnalyzerError};
use crate::artifact::FrozenGraph;
use crate::model::normalise_alias;
use reading::Reading;
use std::collections::HashSet;
use text::{Token, content_words, tokenize};

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
    /// The project's recognisers of parameter values (the artifact's `lexicon`; boxed, so the
    /// analyzer stays small to move).
    recognisers: Box<Recognisers<'g>>,
    /// Per qualifier key and description word, the values of the key whose fields' descriptions
    /// hold the word (`passes::qualifiers`: "a hybrid functional"), made on first use (only a
    /// question that names a qualifier key after a word that is no value's name needs it).
    value_words: std::sync::OnceLock<ValueWords>,
    /// The words misspelt concept names are read back to ([`spelling`]), made on first use.
    spelling: std::sync::OnceLock<spelling::Vocabulary>,
    /// Head nouns several concepts share ([`passes::heads`]), made on first use.
    heads: std::sync::OnceLock<Heads>,
}

/// Per head word, the concepts whose aliases end in it.
type Heads = std::collections::HashMap<String, std::collections::BTreeSet<String>>;

/// Per (qualifier key, lower-case word of a field's description): the key's values carried by
/// the fields whose descriptions hold the word.
type ValueWords = std::collections::HashMap<(String, String), std::collections::BTreeSet<String>>;

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
            recognisers: Box::new(Recognisers::new(&g.lexicon)),
            value_words: std::sync::OnceLock::new(),
            spelling: std::sync::OnceLock::new(),
            heads: std::sync::OnceLock::new(),
        }
    }

    /// The value `map` holds for the run `tokens` (their normalised texts joined by `_`, or
    /// with a stem of the last token), and the key that matched.
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
        if let Some(found) = derived_key(map, tokens) {
            return Some(found);
        }
        // Misspelt words read as the alias words they are one edit from ([`spelling`]): in a
        // run of two words or more with one spelt right, or as one long word; the first reading
        // (in the order of the words' readings) that is a key.
        let fixed = tokens.iter().filter(|t| !t.fixed.is_empty()).count();
        let lone = tokens.len() == 1 && last.fixed.iter().all(|f| f.len() >= spelling::MIN_LONE);
        if fixed == 0 || (fixed == tokens.len() && !lone) {
            return None;
        }
        let mut keys = vec![String::new()];
        for t in tokens {
            let words: Vec<&str> = if t.fixed.is_empty() {
                vec![t.norm.as_str()]
            } else {
                t.fixed.iter().map(String::as_str).collect()
            };
            keys = keys
                .iter()
                .flat_map(|k| {
                    words.iter().map(move |w| {
                        if k.is_empty() {
                            (*w).to_string()
                        } else {
                            format!("{k}_{w}")
                        }
                    })
                })
                .collect();
        }
        keys.into_iter()
            .find_map(|key| map.get(&key).map(|v| (v, key)))
    }

    /// [`Lexical::heads`]: the head nouns several concepts share.
    fn heads(&self) -> &Heads {
        self.heads.get_or_init(|| passes::heads::heads_of(self))
    }

    /// [`Lexical::spelling`]: the words of the concept and field aliases, and the words the
    /// speller must leave as written (tool names and endpoint ids, the intents' examples and
    /// descriptions, qualifier keys and values).
    fn spelling(&self) -> &spelling::Vocabulary {
        self.spelling.get_or_init(|| {
            let index = &self.g.index;
            let aliases = index
                .alias_to_concept
                .key_strs()
                .chain(index.alias_to_field.key_strs());
            let mut known: HashSet<String> =
                self.tool_words.get_or_init(|| self.tool_words()).clone();
            known.extend(self.intent_words.iter().flatten().cloned());
            for k in index
                .qualifier_keys
                .key_strs()
                .chain(index.qualifier_values.key_strs())
            {
                known.extend(k.split('_').map(str::to_string));
            }
            spelling::Vocabulary::new(aliases, known.into_iter())
        })
    }

    /// The tool the run `tokens` names, and the key that matched: a tool name as
    /// [`Lexical::lookup`] finds it, else, for two words or more, their concatenation ("listen
    /// notes" is `listennotes`, "git hub" is `github`: a brand written apart).
    fn lookup_tool(&self, tokens: &[Token]) -> Option<(u32, String)> {
        let names = &self.g.index.tool_names;
        if let Some((t, k)) = self.lookup(names, tokens) {
            return Some((*t, k));
        }
        if tokens.len() < 2 {
            return None;
        }
        let joined: String = tokens.iter().map(|t| t.norm.as_str()).collect();
        names.get(&joined).map(|t| (*t, joined))
    }

    /// Whether the tool name `key` of tool `t` is a word of the tool's own content rather than
    /// its name: every word of it is in the ids of at least half the tool's endpoints, two or
    /// more (Google Books' service name `books`, which `books_volumes_list`,
    /// `books_mylibrary_bookshelves_list` and every other id of it use). A question that says
    /// "books" asks about books, which the whole catalog is ranked for; "google books" (the
    /// tool's id) still names it.
    fn content_name(&self, t: u32, key: &str) -> bool {
        let tool = self.g.tool_at(t);
        let n = tool.endpoints.len();
        if n < 2 {
            return false;
        }
        let parts: Vec<&str> = key.split('_').filter(|p| !p.is_empty()).collect();
        if parts.is_empty() {
            return false;
        }
        let using = tool
            .endpoints
            .iter()
            .filter(|e| {
                let id = e.id.to_lowercase();
                let words: Vec<&str> = id.split(|c: char| !c.is_alphanumeric()).collect();
                parts.iter().all(|p| words.contains(p))
            })
            .count();
        2 * using >= n
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

    /// [`Lexical::value_words`]: every field's declared qualifier values (a value the
    /// vocabulary declares, of a key it declares; `PBE or PBE+U` names none) with the words of
    /// its description.
    fn value_words(&self) -> &ValueWords {
        self.value_words.get_or_init(|| {
            let index = &self.g.index;
            let mut out = ValueWords::new();
            for t in self.g.tools.iter() {
                for f in t.endpoints.iter().flat_map(|e| &e.fields) {
                    let Some(d) = f.description.as_deref() else {
                        continue;
                    };
                    for (k, v) in &f.qualifiers {
                        let Some(key) = index.qualifier_keys.get(&normalise_alias(k)) else {
                            continue;
                        };
                        let value = index
                            .qualifier_values
                            .get(&normalise_alias(v))
                            .and_then(|rs| rs.iter().find(|r| &r.key == key));
                        let Some(value) = value else { continue };
                        for w in d.to_lowercase().split(|c: char| !c.is_alphanumeric()) {
                            if w.chars().count() >= 3 {
                                out.entry((key.clone(), w.to_string()))
                                    .or_default()
                                    .insert(value.value.clone());
                            }
                        }
                    }
                }
            }
            out
        })
    }

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

    /// How the Understanding names a concept the question asks for: its concept id. A field
    /// alias ("bulk modulus", `K_VRH`: aliases that name one field of the concept) too, when
    /// Algorithm 1 resolves the id to the same concepts and fields as the alias; the alias stays
    /// only where it says more than the id: an alias of several concepts, of a field and no
    /// concept, or of a field the id does not name ("AEL bulk modulus" names AFLOW's field).
    fn requested(&self, (text, ids, field_alias): &reading::Mention) -> String {
        let index = &self.g.index;
        let same = |id: &str| {
            let key = crate::model::normalise_alias(text);
            let own = crate::model::normalise_alias(id);
            index.alias_to_concept.get(&key) == index.alias_to_concept.get(&own)
                && index.alias_to_field.get(&key) == index.alias_to_field.get(&own)
        };
        match ids.as_slice() {
            [id] if !field_alias || same(id) => id.clone(),
            _ => text.clone(),
        }
    }

    /// Whether any run of the tokens is a tool's name.
    fn names_tool(&self, tokens: &[Token]) -> bool {
        !self.named_tools(tokens).is_empty()
    }

    /// The indices of the tools `tokens` name (by any of their names), sorted, once each.
    fn named_tools(&self, tokens: &[Token]) -> Vec<u32> {
        let mut out: Vec<u32> = (0..tokens.len())
            .flat_map(|i| {
                (i + 1..=tokens.len().min(i + self.max_words))
                    .filter_map(move |j| self.lookup_tool(&tokens[i..j]).map(|(t, _)| t))
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl Analyzer for Lexical<'_> {
    fn understand(&self, query: &str) -> Result<Analysis, AnalyzerError> {
        Ok(self.analyse(query))
    }
}

impl Lexical<'_> {
    /// Understand one query (never fails): run every pass of `passes::PASSES` in order on one
    /// reading of it, until one finishes the analysis.
    pub fn analyse(&self, query: &str) -> Analysis {
        let mut r = Reading::new(self, query);
        for (_, pass) in passes::PASSES {
            if pass(self, &mut r) == passes::Flow::Done {
                break;
            }
        }
        r.into_analysis()
    }
}

/// The most keys a run's derived readings make ([`derived_key`]).
const MAX_DERIVED_KEYS: usize = 64;

/// The value `map` holds for the run `tokens` read with derived word forms (each token as
/// written or as one of its [`text::derived_nouns`], at least one derived): "elastically
/// anisotropic" is the key `elastic_anisotropy`, "how stiff" `stiffness`. The first key found,
/// in the order of the tokens' readings; none past [`MAX_DERIVED_KEYS`] readings.
fn derived_key<'a, T: crate::artifact::lazy::Stored>(
    map: &'a crate::artifact::LazyMap<T>,
    tokens: &[Token],
) -> Option<(&'a T, String)> {
    if tokens.iter().all(|t| t.derived.is_empty()) {
        return None;
    }
    let mut keys: Vec<(String, bool)> = vec![(String::new(), false)];
    for t in tokens {
        let readings = std::iter::once((t.norm.as_str(), false))
            .chain(t.derived.iter().map(|d| (d.as_str(), true)));
        let readings: Vec<(&str, bool)> = readings.collect();
        keys = keys
            .iter()
            .flat_map(|(k, any)| {
                readings.iter().map(move |(w, d)| {
                    let key = if k.is_empty() {
                        (*w).to_string()
                    } else {
                        format!("{k}_{w}")
                    };
                    (key, *any || *d)
                })
            })
            .collect();
        if keys.len() > MAX_DERIVED_KEYS {
            return None;
        }
    }
    keys.into_iter()
        .filter(|(_, any)| *any)
        .find_map(|(key, _)| map.get(&key).map(|v| (v, key)))
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::understand;

    fn concepts(q: &str) -> Vec<String> {
        understand(q).domain_concepts
    }

    #[test]
    fn derived_word_forms_read_as_their_nouns_concept() {
        // Adverb + adjective of a two-word concept name ("elastic anisotropy").
        let c = concepts("How elastically anisotropic is Ti3AlC2 according to MP?");
        assert!(c.contains(&"elastic_anisotropy".to_string()), "{c:?}");
        // An adjective in -ive of a noun in -ivity, after another concept's word.
        let c = concepts("Is Bi2Te3 thermally conductive? AFLOW please");
        assert!(c.contains(&"thermal_conductivity".to_string()), "{c:?}");
        // The words as written still win, and a word that derives no alias is left alone.
        let c = concepts("universal anisotropy of TiC on Materials Project");
        assert_eq!(c, vec!["elastic_anisotropy".to_string()]);
        assert!(
            !concepts("band gap of a periodic GaN slab")
                .iter()
                .any(|c| c.contains("period"))
        );
    }
}
