//! Ranked search over endpoints: "tool search" for agents that hold hundreds of tools, and the
//! first stage of routing a question no declared intent covers.
//!
//! The index ([`build`]) is compiled into the artifact (`index.search_terms`): BM25F over each
//! endpoint's names, descriptions, parameters, response fields, and the concepts and aliases its
//! fields carry, with the tokenizer of [`text`] (Unicode words, identifier splits, stemming, stop
//! words, CJK bigrams). [`rank`] scores every endpoint that shares a term with the query;
//! [`search`] returns the top `k` as [`Hit`]s with the words that matched. When the artifact
//! holds dense vectors and their model is loaded ([`dense`]), the ranking is hybrid: BM25F plus
//! the cosine of the question with each endpoint. A question of several needs ([`needs`]), or
//! of needs its values imply ([`implied`]: a file path to write, a day relative to today), is
//! ranked need by need and the lists fused ([`rank_needs`]), so the top `k` covers every need.

mod address;
pub mod build;
pub mod currencies;
pub mod dense;
pub mod frame;
pub mod implied;
pub mod languages;
pub mod needs;
pub mod prerequisite;
pub mod spans;
pub mod text;
pub(crate) mod unit_words;

use crate::artifact::FrozenGraph;
use serde::{Deserialize, Serialize};

/// One posting of a search term: (document number, contribution to the document's score in
/// thousandths). Documents are the endpoints in (tool, endpoint) order: the endpoints of tool
/// `t` are the documents `index.search_offsets[t]` up to `search_offsets[t + 1]`. The
/// contribution is the term's whole BM25F share, `idf * tf~ / (k1 + tf~)` (see [`build`]).
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
pub struct TermPosting(pub u32, pub u16);

/// A query, read once: its terms (in question order) and its distinct stems.
#[derive(Clone, Debug)]
pub struct Query {
    /// The question as read ([`text::normalise`], then [`text::unshout`]): the ranges of
    /// `terms` and `spans` point into it.
    pub text: String,
    /// Terms in question order.
    pub terms: Vec<text::Term>,
    /// Distinct stems, in order of first occurrence (at most 64 are scored).
    pub stems: Vec<String>,
    /// Per stem: how much it counts (1; [`FRAME_WEIGHT`] for a word only of the request frame,
    /// "Show me", "Can you find": see [`frame`]; [`LIGHT_WEIGHT`] for a light word).
    pub weights: Vec<f64>,
    /// The typed values the question holds ([`spans`]).
    pub spans: Vec<spans::Span>,
    /// Two adjacent words as one identifier ("default branch" for a field `default_branch`):
    /// the compound's indexed form and the bits of its two words' stems. A compound that the
    /// index holds adds its score to an endpoint and marks both words matched; one it does not
    /// hold counts for nothing.
    pub compounds: Vec<(String, u64)>,
    /// Terms the question implies through its values rather than writes ([`ImpliedTerm`]:
    /// "currency" for "250 euros in yen"), each a stem of `stems` with no term of its own.
    pub implied_terms: Vec<ImpliedTerm>,
}

/// A term a question implies through the values it names: a question that names currencies
/// ("How much is 250 euros in yen?") is about currencies ([`currencies::implied`]), one that
/// translates "into French" is about languages ([`languages::implied`]). Its stem is
/// one of [`Query::stems`] (weight 1) that no term of the question has; it ranks the endpoints
/// that index it, and the values that imply it are no unknown words where the catalog knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImpliedTerm {
    /// The word implied ("currency").
    pub word: &'static str,
    /// Its stem, as [`text::stems`] reads the word.
    pub stem: String,
    /// Byte ranges (in [`Query::text`]) of the values that imply it ("euros", "yen").
    pub ranges: Vec<(usize, usize)>,
}

impl Query {
    /// Whether stem `i` is an implied term ([`ImpliedTerm`]), written by no word.
    pub fn is_implied(&self, i: usize) -> bool {
        self.stems
            .get(i)
            .is_some_and(|s| self.implied_terms.iter().any(|t| &t.stem == s))
    }

    /// The implied term whose values cover bytes `start..end`, if its stem is among those of
    /// `mask` (bit `i`: `stems[i]`).
    pub fn implied_over(&self, start: usize, end: usize, mask: u64) -> Option<&ImpliedTerm> {
        self.implied_terms.iter().find(|t| {
            self.stems
                .iter()
                .position(|s| *s == t.stem)
                .is_some_and(|i| mask & (1 << i) != 0)
                && t.ranges.iter().any(|&(a, b)| a <= start && end <= b)
        })
    }
}

/// The terms `text` implies through its values, with the stems it writes (an implied term
/// the question also writes is no implied term): "currency" when it names currencies
/// ([`currencies::implied`]), "unit" when it names two units of one dimension ("5 pounds to
/// kilograms", "how many feet in a mile": [`converted_units`]), "language" when it names a
/// language as the medium of a text ("into French": [`languages::implied`]).
fn implied_terms(text: &str, written: &[String]) -> Vec<ImpliedTerm> {
    let mut out = Vec::new();
    let currencies = currencies::implied(text);
    for (word, ranges) in [
        ("currency", currencies.clone()),
        ("unit", converted_units(text, &currencies)),
        ("language", languages::implied(text)),
    ] {
        if ranges.is_empty() {
            continue;
        }
        if let Some(stem) = text::stems(word).next()
            && !written.contains(&stem)
        {
            out.push(ImpliedTerm { word, stem, ranges });
        }
    }
    out
}

/// Byte ranges of the unit words of `text` when at least two of them are units of one
/// dimension (a conversion: "5 pounds to kilograms", "feet in a mile", "°F into °C"); words
/// inside the currencies' ranges (`currencies`) are no units, nor units of time ("a 3 day
/// forecast for next week" converts nothing). Empty otherwise.
fn converted_units(text: &str, currencies: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // Days, weeks and hours say when, far more often than what to convert: the dimension of
    // time, read once (`None` if the table could not read `s`: then no word is a unit here).
    static TIME: std::sync::LazyLock<Option<crate::units::Dimension>> =
        std::sync::LazyLock::new(|| unit_words::table().parse("s").ok().map(|u| u.dim));
    let Some(time) = TIME.as_ref() else {
        return Vec::new();
    };
    let (toks, _) = spans::lower_words(text);
    let units: Vec<((usize, usize), crate::units::Unit)> = toks
        .iter()
        .filter(|(a, b)| !currencies.iter().any(|&(s, e)| s <= *a && *b <= e))
        .filter_map(|&(a, b)| {
            let canonical = unit_words::unit_of(&text[a..b])?;
            let u = unit_words::table().parse(&canonical).ok()?;
            (&u.dim != time).then_some(((a, b), u))
        })
        .collect();
    let paired = |i: usize| {
        units.iter().enumerate().any(|(j, u)| {
            j != i && u.1.dim == units[i].1.dim && u.1.canonical != units[i].1.canonical
        })
    };
    (0..units.len())
        .filter(|&i| paired(i))
        .map(|i| units[i].0)
        .collect()
}

impl Query {
    /// Read a question.
    pub fn new(question: &str) -> Query {
        let text = text::normalise(question);
        let text = text::unshout(&text).into_owned();
        let spans = spans::spans(&text);
        let terms = text::terms(&text);
        let mut stems: Vec<String> = Vec::new();
        for t in &terms {
            if !stems.contains(&t.stem) && stems.len() < 64 {
                stems.push(t.stem.clone());
            }
        }
        let frame = frame::frame_words(&text);
        let mut weights: Vec<f64> = stems
            .iter()
            .map(|s| {
                let framed = terms
                    .iter()
                    .filter(|t| &t.stem == s)
                    .all(|t| frame.is_some_and(|(a, b)| a <= t.start && t.end <= b));
                let light = terms
                    .iter()
                    .filter(|t| &t.stem == s)
                    .all(|t| text::is_light_word(&text[t.start..t.end].to_lowercase()));
                if framed {
                    FRAME_WEIGHT
                } else if light {
                    LIGHT_WEIGHT
                } else {
                    1.0
                }
            })
            .collect();
        let compounds = compounds(&text, &terms, &stems);
        let implied_terms = implied_terms(&text, &stems);
        for t in &implied_terms {
            if stems.len() < 64 {
                stems.push(t.stem.clone());
                weights.push(1.0);
            }
        }
        Query {
            text,
            terms,
            stems,
            weights,
            spans,
            compounds,
            implied_terms,
        }
    }

    /// Read a question against a catalog: [`Query::new`], and the lower-case words the catalog's
    /// index does not know as [`spans::SpanKind::Word`] spans (names typed in lower case).
    pub fn in_catalog(g: &FrozenGraph, question: &str) -> Query {
        let mut q = Query::new(question);
        let terms = &g.index.search_terms;
        spans::unknown_words(&q.text, &mut q.spans, &|st| terms.get(st).is_some());
        q
    }

    /// The query of one need: the same stems (so matched bits mean the same), weighing only the
    /// stems of the words inside the need's clause (the others weigh 0 and are not scored),
    /// and only the compounds of two such words.
    pub fn of_need(&self, n: &needs::Need) -> Query {
        let inside = |t: &text::Term| n.start <= t.start && t.end <= n.end;
        let mut mask = 0u64;
        for (i, s) in self.stems.iter().enumerate() {
            if self.terms.iter().any(|t| &t.stem == s && inside(t)) {
                mask |= 1 << i;
            }
        }
        let mut q = self.clone();
        for (i, w) in q.weights.iter_mut().enumerate() {
            if mask & (1 << i) == 0 {
                *w = 0.0;
            }
        }
        q.compounds.retain(|(_, bits)| bits & !mask == 0);
        q
    }

    /// The stems in `mask` (bit `i`: `stems[i]`).
    pub fn stems_in(&self, mask: u64) -> Vec<String> {
        self.stems
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, s)| s.clone())
            .collect()
    }

    /// The question's words behind the stems in `mask` (bit `i`: `stems[i]`), in question
    /// order, each once.
    pub fn words(&self, mask: u64) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for t in &self.terms {
            let Some(i) = self.stems.iter().position(|s| s == &t.stem) else {
                continue;
            };
            if mask & (1 << i) == 0 {
                continue;
            }
            let w = self.text[t.start..t.end].to_string();
            if !out.contains(&w) {
                out.push(w);
            }
        }
        for t in &self.implied_terms {
            let i = self.stems.iter().position(|s| *s == t.stem);
            if i.is_some_and(|i| mask & (1 << i) != 0) {
                out.push(format!("({})", t.word));
            }
        }
        out
    }
}

/// How much a light word counts ([`text::is_light_word`]: `next`, `over`, `few`, `now`).
pub const LIGHT_WEIGHT: f64 = 0.3;

/// How much a word of the request frame counts.
pub const FRAME_WEIGHT: f64 = 0.3;

/// An endpoint's standing for a query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    /// Tool index.
    pub tool: u32,
    /// Endpoint index within the tool.
    pub endpoint: u32,
    /// BM25F score (sum of the matched terms' contributions); with dense vectors, plus the
    /// cosine's share (see [`dense::fuse`]).
    pub score: f64,
    /// Share of the query's known terms (those the index holds), weighted by idf, that the
    /// endpoint matches: 0 to 1.
    pub coverage: f64,
    /// Which of [`Query::stems`] matched (bit `i` for stem `i`).
    pub matched: u64,
    /// The BM25F score alone (`score` without dense vectors).
    pub lexical: f64,
    /// Cosine of the question with the endpoint (`None` without dense vectors).
    pub similarity: Option<f64>,
}

/// The endpoints a query reaches, and what its terms weigh.
#[derive(Clone, Debug, Default)]
pub struct Ranking {
    /// Every endpoint that shares a term with the query, best first.
    pub hits: Vec<Ranked>,
    /// Per stem of [`Query::stems`]: its idf in the index times its weight (0 for a stem the
    /// index lacks).
    pub idfs: Vec<f64>,
}

impl Ranking {
    /// The idf mass of the stems in `mask`.
    pub fn weight(&self, mask: u64) -> f64 {
        (0..self.idfs.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| self.idfs[i])
            .sum()
    }
}

/// Every endpoint that shares a term with the query, best first (score, then tool id, then
/// endpoint order), with the idf-weighted share of the query's known terms each matches. With
/// dense vectors ([`dense::fuse`]), scores are hybrid, and the endpoints closest to the question
/// by cosine join.
pub fn rank(g: &FrozenGraph, q: &Query) -> Ranking {
    let offsets = &g.index.search_offsets;
    let n = offsets.last().copied().unwrap_or(0);
    // One accumulator per document (a dense array: at 10,000 endpoints a hash map of the
    // matched ones costs more than the scoring), and the documents touched, in first-touch order.
    let mut acc: Vec<(u64, u64)> = vec![(0, 0); n as usize];
    let mut touched: Vec<u32> = Vec::new();
    let mut add = |doc: u32, milli: u64, bits: u64| {
        let Some(e) = acc.get_mut(doc as usize) else {
            return;
        };
        if e.1 == 0 {
            touched.push(doc);
        }
        e.0 += milli;
        e.1 |= bits;
    };
    let mut idfs: Vec<f64> = vec![0.0; q.stems.len()];
    for (i, stem) in q.stems.iter().enumerate() {
        // A stem outside the need ranked (`Query::of_need`) weighs nothing.
        if q.weights[i] == 0.0 {
            continue;
        }
        let Some(list) = g.index.search_terms.get(stem) else {
            continue;
        };
        idfs[i] = build::idf(n, list.len() as u32) * q.weights[i];
        for p in list {
            add(p.0, (p.1 as f64 * q.weights[i]).round() as u64, 1 << i);
        }
    }
    for (compound, bits) in &q.compounds {
        let Some(list) = g.index.search_terms.get(compound) else {
            continue;
        };
        for p in list {
            add(p.0, p.1 as u64, *bits);
        }
    }
    let known: f64 = idfs.iter().sum();
    let mut out: Vec<Ranked> = touched
        .into_iter()
        .map(|doc| (doc, acc[doc as usize]))
        .filter_map(|(doc, (milli, matched))| {
            // The tool whose range holds the document (offsets start at 0 and never fall).
            let tool = offsets.partition_point(|o| *o <= doc).checked_sub(1)?;
            let endpoint = doc - offsets[tool];
            let covered: f64 = (0..idfs.len())
                .filter(|i| matched & (1 << i) != 0)
                .map(|i| idfs[i])
                .sum();
            Some(Ranked {
                tool: tool as u32,
                endpoint,
                score: milli as f64 / 1000.0,
                lexical: milli as f64 / 1000.0,
                coverage: if known > 0.0 { covered / known } else { 0.0 },
                matched,
                similarity: None,
            })
        })
        .collect();
    dense::fuse(g, q, &mut out);
    // Ties in document order: `compile` writes tools in id order, so this is the tool id's
    // order, without comparing strings (each document appears once: an unstable sort is exact).
    out.sort_unstable_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.tool.cmp(&b.tool))
            .then(a.endpoint.cmp(&b.endpoint))
    });
    Ranking { hits: out, idfs }
}

/// How far down a list a rank still counts in [`rank_needs`]: reciprocal rank fusion's constant
/// (Cormack, Clarke and Büttcher, SIGIR 2009; smaller than their 60, so a need's first few
/// endpoints stand out of its list).
pub const FUSION_RANK: f64 = 20.0;

/// What the ranking of the whole question counts in [`rank_needs`] against one need's: the
/// whole question keeps the endpoints that serve several needs at once on top.
pub const WHOLE_WEIGHT: f64 = 3.0;

/// Endpoints of each list that take part in the fusion.
const FUSED_DEPTH: usize = 200;

/// Where an implied need's best endpoint is placed in the fused list (from 0): after the two
/// first endpoints the question's own words chose, so that `--k 3` and above holds it.
const IMPLIED_SLOT: usize = 2;

/// An implied need is served already when its best endpoint, or one of the same name, is among
/// the whole question's first `IMPLIED_SERVED`.
const IMPLIED_SERVED: usize = 5;

/// [`rank`] for a question of several needs ([`needs::needs`]) or of needs its values imply
/// ([`implied::implied`]): the whole question and each need ranked apart (the need's words
/// only, [`Query::of_need`]), fused by reciprocal rank (`WHOLE_WEIGHT / (FUSION_RANK + rank)`
/// from the whole question's list, `1 / (FUSION_RANK + rank)` from each need's), ties in the
/// whole question's order. Then each implied need's best endpoint is placed at
/// `IMPLIED_SLOT` (see `implied_bests`), with the score of the endpoint it passes. The
/// words of a file name an output is saved to ("save it to /tmp/out/trains.md") weigh nothing
/// in the whole question's ranking when the question does not use them elsewhere: they say
/// where the output goes, not what it is about. Each hit keeps what the whole question matched
/// of it (`matched`, `coverage`, `lexical`); its `score` is the fused score scaled so that the
/// first keeps the whole question's best score. Last, the prerequisites of the first
/// endpoints ([`prerequisite`]: a geocoder for an endpoint that requires coordinates the
/// question gives by place name only) are placed after the implied ones. A question of one need
/// that implies none and needs no prerequisite ranks exactly as [`rank`].
pub fn rank_needs(g: &FrozenGraph, q: &Query) -> Ranking {
    let needs = needs::needs(&q.text);
    let implied = implied::implied(&q.text, &q.spans, &needs);
    if needs.len() < 2 && implied.is_empty() {
        let mut ranking = rank(g, q);
        place_prerequisites(g, q, &mut ranking.hits, IMPLIED_SLOT);
        return ranking;
    }
    let whole = rank(g, &without_destinations(q, &implied));
    let key = |r: &Ranked| (r.tool, r.endpoint);
    let hits = whole.hits;
    // Per endpoint: (fused score, position in the whole question's list).
    let mut fused: std::collections::HashMap<(u32, u32), (f64, usize)> = hits
        .iter()
        .enumerate()
        .map(|(i, r)| (key(r), (0.0, i)))
        .collect();
    for (i, r) in hits.iter().take(FUSED_DEPTH).enumerate() {
        if let Some(e) = fused.get_mut(&key(r)) {
            e.0 += WHOLE_WEIGHT / (FUSION_RANK + i as f64 + 1.0);
        }
    }
    if needs.len() >= 2 {
        for n in &needs {
            let list = rank(g, &q.of_need(n));
            for (i, r) in list.hits.iter().take(FUSED_DEPTH).enumerate() {
                // A need's endpoint shares a word with the whole question: it is in its list.
                if let Some(e) = fused.get_mut(&key(r)) {
                    e.0 += 1.0 / (FUSION_RANK + i as f64 + 1.0);
                }
            }
        }
    }
    let mut order: Vec<(f64, usize)> = fused.into_values().filter(|(s, _)| *s > 0.0).collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let top = order.first().map_or(1.0, |x| x.0);
    let best = hits.first().map_or(0.0, |r| r.score);
    let mut out: Vec<Ranked> = order
        .into_iter()
        .map(|(s, i)| Ranked {
            score: best * s / top,
            ..hits[i]
        })
        .collect();
    let bests = implied_bests(g, q, &implied, &out);
    let after_implied = IMPLIED_SLOT + bests.len();
    for b in bests {
        place(&mut out, b, IMPLIED_SLOT);
    }
    place_prerequisites(g, q, &mut out, after_implied);
    Ranking {
        hits: out,
        idfs: whole.idfs,
    }
}

/// Put `b` at position `at` of `hits` (or last), with the score of the endpoint it displaces,
/// and out of any other position.
fn place(hits: &mut Vec<Ranked>, b: Ranked, at: usize) {
    let key = |r: &Ranked| (r.tool, r.endpoint);
    let at = at.min(hits.len());
    let score = hits.get(at).map_or(b.score, |r| r.score);
    hits.retain(|r| key(r) != key(&b));
    hits.insert(at.min(hits.len()), Ranked { score, ..b });
}

/// The prerequisites of the first endpoints ([`prerequisite::prerequisites`]) placed from
/// position `from` on, in order.
fn place_prerequisites(g: &FrozenGraph, q: &Query, hits: &mut Vec<Ranked>, from: usize) {
    let found = prerequisite::prerequisites(g, q, hits, IMPLIED_SERVED);
    for (i, p) in found.into_iter().enumerate() {
        place(hits, p, from + i);
    }
}

/// The query without the weight of the words that only a file name an output is saved to holds
/// (the implied needs' paths).
fn without_destinations(q: &Query, implied: &[implied::Implied]) -> Query {
    let mut q = q.clone();
    let inside = |t: &text::Term| {
        implied
            .iter()
            .any(|im| im.destination && im.start <= t.start && t.end <= im.end)
    };
    for (i, s) in q.stems.iter().enumerate() {
        let mut of_stem = q.terms.iter().filter(|t| &t.stem == s).peekable();
        if of_stem.peek().is_some() && of_stem.all(inside) {
            q.weights[i] = 0.0;
        }
    }
    q.compounds
        .retain(|(_, bits)| (0..q.stems.len()).all(|i| bits & (1 << i) == 0 || q.weights[i] > 0.0));
    q
}

/// The best endpoint of each implied need that is not served already, in the implied needs'
/// order: searched with the need's own words, it must match one of its required words
/// (`current` for a relative day: an endpoint that only shares "date" and "time" does
/// something else with them), and the first [`IMPLIED_SERVED`] endpoints of `ranked` must hold
/// neither it nor one of the same name (two servers' `write_file`). It keeps what the whole
/// question matched of it, else the words of the value that implies it.
fn implied_bests(
    g: &FrozenGraph,
    q: &Query,
    implied: &[implied::Implied],
    ranked: &[Ranked],
) -> Vec<Ranked> {
    let key = |r: &Ranked| (r.tool, r.endpoint);
    let id = |r: &Ranked| &g.tool_at(r.tool).endpoint_at(r.endpoint).id;
    let mut out: Vec<Ranked> = Vec::new();
    for im in implied {
        let iq = Query::new(&im.words);
        let required = iq
            .stems
            .iter()
            .enumerate()
            .filter(|(_, s)| im.required.iter().any(|w| text::stems(w).any(|x| &x == *s)))
            .fold(0u64, |m, (i, _)| m | (1 << i));
        let list = rank(g, &iq);
        let Some(best) = list.hits.first().filter(|r| r.matched & required != 0) else {
            continue;
        };
        let served = ranked
            .iter()
            .take(IMPLIED_SERVED)
            .chain(out.iter())
            .any(|r| key(r) == key(best) || id(r) == id(best));
        if served {
            continue;
        }
        let inside = q
            .terms
            .iter()
            .filter(|t| im.start <= t.start && t.end <= im.end)
            .filter_map(|t| q.stems.iter().position(|s| s == &t.stem))
            .fold(0u64, |m, i| m | (1 << i));
        out.push(
            ranked
                .iter()
                .find(|r| key(r) == key(best))
                .copied()
                .unwrap_or(Ranked {
                    matched: inside,
                    coverage: 0.0,
                    similarity: None,
                    ..*best
                }),
        );
    }
    out
}

/// The compounds of a question: each two adjacent words (written apart by spaces or a hyphen
/// only) whose stems are among the scored `stems`.
fn compounds(text: &str, terms: &[text::Term], stems: &[String]) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for w in terms.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if b.start <= a.end || !text[a.end..b.start].chars().all(|c| c == ' ' || c == '-') {
            continue;
        }
        let (Some(i), Some(j)) = (
            stems.iter().position(|s| s == &a.stem),
            stems.iter().position(|s| s == &b.stem),
        ) else {
            continue;
        };
        if let Some(c) = text::compound(&text[a.start..a.end], &text[b.start..b.end])
            && !out.iter().any(|(x, _)| x == &c)
        {
            out.push((c, (1 << i) | (1 << j)));
        }
    }
    out
}

/// One search result: an endpoint, its score and the question's words it matched.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Hit {
    /// Rank, from 1.
    pub rank: usize,
    /// Tool id.
    pub tool: String,
    /// Endpoint id.
    pub endpoint: String,
    /// BM25F score (higher is better; comparable within one query only).
    pub score: f64,
    /// HTTP method (`GET`, ...; `MCP` for an MCP tool).
    pub method: String,
    /// URL or URL template.
    pub url: String,
    /// For an MCP endpoint: the name to send in `tools/call`.
    pub call: Option<String>,
    /// The question's words the endpoint matched, in question order.
    pub matched: Vec<String>,
    /// Cosine of the question with the endpoint, when the search is hybrid (the artifact holds
    /// dense vectors and their model is loaded; `docs/search.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f64>,
}

/// The `k` best endpoints for a question (fewer when fewer share a word with it).
pub fn search(g: &FrozenGraph, question: &str, k: usize) -> Vec<Hit> {
    let q = Query::new(question);
    rank_needs(g, &q)
        .hits
        .into_iter()
        .take(k)
        .enumerate()
        .map(|(i, r)| {
            let t = g.tool_at(r.tool);
            let e = t.endpoint_at(r.endpoint);
            Hit {
                rank: i + 1,
                tool: t.id.clone(),
                endpoint: e.id.clone(),
                score: (r.score * 1000.0).round() / 1000.0,
                method: e.method.clone(),
                url: e.url.clone(),
                call: e.mcp_tool.clone(),
                matched: q.words(r.matched),
                similarity: r.similarity.map(|s| (s * 1000.0).round() / 1000.0),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacent_words_are_also_read_as_one_identifier() {
        let q = Query::new("What's the default branch of microsoft/vscode?");
        let bits = |w: &str| 1u64 << q.stems.iter().position(|s| s == w).unwrap();
        assert_eq!(
            q.compounds,
            [(
                "defaultbranch".to_string(),
                bits("default") | bits("branch")
            )]
        );
        // Stop words, digits and words apart (a comma) make none.
        assert!(Query::new("the branch, default 2 x").compounds.is_empty());
        assert_eq!(
            text::compound("Open", "Issues").as_deref(),
            Some("openissu")
        );
    }
}
