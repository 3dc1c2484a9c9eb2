//! The evaluation harness behind `schemarouter eval` (issue 8): every router run on a benchmark
//! file in one pass, scored with the paper's planning and downstream-proxy metrics, and the
//! routing-cost scaling measurement over synthetic inventories.
//!
//! - [`bench`](mod@bench): the benchmark format (`bench/README.md`), its strict parsing with positions, and
//!   the gold names the artifact does not declare.
//! - [`metrics`]: per-query scores, aggregation, bootstrap CIs, and the metric definitions.
//! - [`baselines`]: fetch-all, rule-based, lexical-retrieval (BM25) and prompt-all (LLM).
//! - [`fixtures`]: deterministic field values and the retrieved context counted in tokens.
//! - [`report`]: text, JSON and markdown reports.
//! - [`plots`]: SVG figures (context tokens vs recall; prompt tokens vs inventory size).
//! - [`scaling`]: prompt-all vs intent-registry prompt tokens over `schemarouter gen` sizes.
//!
//! Modes: with [`Mode::Understanding`] the graph routers get the gold Understand output (this
//! isolates the schema and Algorithm 1); with [`Mode::Query`] they run the lexical analyzer on
//! the raw query first. The baselines never use the graph, so they read the raw query in both
//! modes; their parameter values are the gold ones (understanding mode) or those the pattern
//! extractor finds in the query (query mode).

pub mod baselines;
pub mod bench;
pub mod fixtures;
pub mod metrics;
pub mod plots;
pub mod report;
pub mod scaling;

use crate::artifact::FrozenGraph;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::params;
use crate::route::{self, Options, Projection, Understanding};
use bench::{Bench, BenchQuery};
use metrics::{PlanStep, QueryScore, Summary};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Where the graph routers' Understanding comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The benchmark's gold Understand output.
    Understanding,
    /// The lexical analyzer on the raw query.
    Query,
}

impl Mode {
    /// The CLI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Understanding => "understanding",
            Mode::Query => "query",
        }
    }
}

/// The routers compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RouterKind {
    /// Algorithm 1 with the default `core` projection (identifiers, concept matches, and the
    /// core fields of the intent's groups where a requested concept is not matched).
    SchemaRouter,
    /// Algorithm 1 with the paper's recall-first projection (identifiers, concept matches,
    /// every field of the intent's groups).
    Recall,
    /// Algorithm 1 with the minimal projection (identifiers and concept matches).
    Minimal,
    /// Algorithm 1 with every field of the chosen endpoint.
    NoFieldProjection,
    /// Every endpoint of every tool, every field.
    FetchAll,
    /// Keyword rules on tool names, every field.
    RuleBased,
    /// BM25 over tool and field descriptions: top endpoint and its top fields.
    LexicalRetrieval,
    /// An LLM given the whole schema.
    PromptAll,
}

impl RouterKind {
    /// Every router except prompt-all, in report order.
    pub const OFFLINE: [RouterKind; 7] = [
        RouterKind::SchemaRouter,
        RouterKind::Recall,
        RouterKind::Minimal,
        RouterKind::NoFieldProjection,
        RouterKind::FetchAll,
        RouterKind::RuleBased,
        RouterKind::LexicalRetrieval,
    ];

    /// Report name.
    pub fn name(self) -> &'static str {
        match self {
            RouterKind::SchemaRouter => "schemarouter",
            RouterKind::Recall => "recall",
            RouterKind::Minimal => "minimal",
            RouterKind::NoFieldProjection => "no-field-projection",
            RouterKind::FetchAll => "fetch-all",
            RouterKind::RuleBased => "rule-based",
            RouterKind::LexicalRetrieval => "lexical-retrieval",
            RouterKind::PromptAll => "prompt-all",
        }
    }

    /// One-line description.
    pub fn describe(self) -> &'static str {
        match self {
            RouterKind::SchemaRouter => {
                "Algorithm 1, core projection: identifiers + concept matches + their variants and the fields their descriptions name + core group fields where a concept is unmatched"
            }
            RouterKind::Recall => {
                "Algorithm 1, recall projection: identifiers + concept matches + intent group fields"
            }
            RouterKind::Minimal => "Algorithm 1, minimal projection: identifiers + concept matches",
            RouterKind::NoFieldProjection => {
                "Algorithm 1 tool choice, every field of the chosen endpoint"
            }
            RouterKind::FetchAll => "every endpoint of every tool, every field",
            RouterKind::RuleBased => {
                "tools whose id, title or name occurs in the query; first endpoint, every field"
            }
            RouterKind::LexicalRetrieval => {
                "BM25 over tool and field descriptions: top endpoint, its top 5 fields"
            }
            RouterKind::PromptAll => "an LLM given the whole schema writes the plan",
        }
    }

    /// Whether it uses the schema graph (and so the mode's Understanding).
    pub fn uses_graph(self) -> bool {
        matches!(
            self,
            RouterKind::SchemaRouter
                | RouterKind::Recall
                | RouterKind::Minimal
                | RouterKind::NoFieldProjection
        )
    }
}

/// The LLM used by prompt-all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlmOptions {
    /// OpenAI-compatible base URL.
    pub url: String,
    /// Model name.
    pub model: String,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Bearer token.
    pub api_key: Option<String>,
}

/// How to run an evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalOptions {
    /// Understanding source of the graph routers.
    pub mode: Mode,
    /// Seed of the bootstrap and the fixture values.
    pub seed: u64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Timed repeats per query and router (the median is kept).
    pub repeats: usize,
    /// Run prompt-all with this LLM.
    pub llm: Option<LlmOptions>,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            mode: Mode::Understanding,
            seed: 42,
            resamples: 1000,
            repeats: 5,
            llm: None,
        }
    }
}

/// One router's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RouterResult {
    /// Report name.
    pub router: String,
    /// What it does.
    pub description: String,
    /// Over all queries, with CIs.
    pub summary: Summary,
    /// Per category (report order), without CIs.
    pub categories: Vec<(String, Summary)>,
    /// Per query.
    pub queries: Vec<QueryScore>,
}

/// Facts about the run, printed with every report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunInfo {
    /// Benchmark label (the file name).
    pub bench: String,
    /// The benchmark's inventory name.
    pub inventory: String,
    /// Queries.
    pub queries: usize,
    /// Negative queries.
    pub negative_queries: usize,
    /// Queries per category (report order; categories without queries omitted).
    pub categories: Vec<(String, usize)>,
    /// Artifact project name and version.
    pub artifact: String,
    /// First 16 hex digits of the artifact's routing fingerprint.
    pub routing_fingerprint: String,
    /// Mode.
    pub mode: Mode,
    /// Bootstrap and fixture seed.
    pub seed: u64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Timed repeats per query.
    pub repeats: usize,
    /// schemarouter version.
    pub tool_version: String,
    /// The prompt-all model, when run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm_model: Option<String>,
    /// Gold names (intents, tools, endpoints, parameters, fields) the artifact does not declare;
    /// their queries are scored all the same, so their scores say little about routing.
    pub unknown_gold_references: Vec<bench::UnknownReference>,
}

/// A complete evaluation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalReport {
    /// Run facts.
    pub run: RunInfo,
    /// Results per router, in report order.
    pub routers: Vec<RouterResult>,
}

/// A prepared router (indices built once, outside the timed region).
enum Prepared<'g> {
    Graph(Projection, Lexical<'g>),
    FetchAll,
    RuleBased(baselines::NameRules),
    Lexical(baselines::Bm25),
    PromptAll(baselines::PromptAll),
}

/// Parameters the project's recognisers find in a query (no intent or tool needed).
fn extracted_params(rs: &params::Recognisers<'_>, query: &str) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for e in params::extract(rs, query) {
        out.entry(e.concept).or_insert(e.value);
    }
    out
}

fn plan_once(
    g: &FrozenGraph,
    recognisers: &params::Recognisers<'_>,
    prepared: &Prepared<'_>,
    q: &BenchQuery,
    mode: Mode,
) -> Result<Vec<PlanStep>, String> {
    let params = || match mode {
        Mode::Understanding => (q.understanding.as_ref())
            .map(|u| u.parameters.clone())
            .unwrap_or_default(),
        Mode::Query => extracted_params(recognisers, &q.query),
    };
    Ok(match prepared {
        Prepared::Graph(projection, lexical) => {
            let u: Understanding = match mode {
                Mode::Understanding => q.understanding.clone().ok_or_else(|| {
                    "no gold understanding to route on (run with --from query)".to_string()
                })?,
                Mode::Query => lexical.analyse(&q.query).understanding,
            };
            let opts = Options {
                projection: *projection,
                ..Options::default()
            };
            metrics::steps_of(&route::route_question(g, &q.query, &u, &opts))
        }
        Prepared::FetchAll => baselines::fetch_all(g, &params()),
        Prepared::RuleBased(rules) => baselines::rule_based(g, rules, &q.query, &params()),
        Prepared::Lexical(index) => baselines::lexical_retrieval(g, index, &q.query, &params()),
        Prepared::PromptAll(llm) => llm.plan(g, &q.query)?,
    })
}

/// The routers of a run: the seven offline ones, plus prompt-all when an LLM is given.
pub fn routers(opts: &EvalOptions) -> Vec<RouterKind> {
    let mut v = RouterKind::OFFLINE.to_vec();
    if opts.llm.is_some() {
        v.push(RouterKind::PromptAll);
    }
    v
}

/// Run every router on every query of `bench` and score them. `progress` is called once per
/// (router, query).
pub fn evaluate(
    g: &FrozenGraph,
    bench: &Bench,
    bench_label: &str,
    opts: &EvalOptions,
    mut progress: impl FnMut(RouterKind, &str),
) -> EvalReport {
    let mut results = Vec::new();
    let recognisers = params::Recognisers::new(&g.lexicon);
    for kind in routers(opts) {
        let prepared = match kind {
            RouterKind::SchemaRouter => Prepared::Graph(Projection::Core, Lexical::new(g)),
            RouterKind::Recall => Prepared::Graph(Projection::Recall, Lexical::new(g)),
            RouterKind::Minimal => Prepared::Graph(Projection::Minimal, Lexical::new(g)),
            RouterKind::NoFieldProjection => Prepared::Graph(Projection::All, Lexical::new(g)),
            RouterKind::FetchAll => Prepared::FetchAll,
            RouterKind::RuleBased => Prepared::RuleBased(baselines::NameRules::new(g)),
            RouterKind::LexicalRetrieval => Prepared::Lexical(baselines::Bm25::new(g)),
            RouterKind::PromptAll => {
                let Some(llm) = &opts.llm else { continue };
                Prepared::PromptAll(baselines::PromptAll::new(
                    g,
                    &llm.url,
                    &llm.model,
                    llm.timeout,
                    llm.api_key.clone(),
                ))
            }
        };
        let repeats = if kind == RouterKind::PromptAll {
            1
        } else {
            opts.repeats.max(1)
        };
        let mut scores = Vec::with_capacity(bench.queries.len());
        for q in &bench.queries {
            let mut times = Vec::with_capacity(repeats);
            let mut outcome = Err(String::new());
            for _ in 0..repeats {
                let start = Instant::now();
                outcome = plan_once(g, &recognisers, &prepared, q, opts.mode);
                times.push(start.elapsed().as_secs_f64() * 1e6);
            }
            let (steps, error) = match outcome {
                Ok(s) => (s, None),
                Err(e) => (Vec::new(), Some(e)),
            };
            let mut s = metrics::score(g, q, &steps);
            s.context_tokens = fixtures::context_tokens(g, &steps, opts.seed) as u32;
            s.latency_us = metrics::median(&times);
            s.error = error;
            scores.push(s);
            progress(kind, &q.id);
        }
        let summary = metrics::summarise_with_ci(&scores, opts.seed, opts.resamples);
        let categories = bench::CATEGORIES
            .iter()
            .filter_map(|c| {
                let sub: Vec<QueryScore> = scores
                    .iter()
                    .filter(|s| s.category == *c)
                    .cloned()
                    .collect();
                (!sub.is_empty()).then(|| (c.to_string(), metrics::summarise(&sub)))
            })
            .collect();
        results.push(RouterResult {
            router: kind.name().to_string(),
            description: kind.describe().to_string(),
            summary,
            categories,
            queries: scores,
        });
    }
    EvalReport {
        run: RunInfo {
            bench: bench_label.to_string(),
            inventory: bench.inventory.clone(),
            queries: bench.queries.len(),
            negative_queries: bench.queries.iter().filter(|q| q.is_negative()).count(),
            categories: bench::CATEGORIES
                .iter()
                .map(|c| {
                    (
                        c.to_string(),
                        bench.queries.iter().filter(|q| q.category == *c).count(),
                    )
                })
                .filter(|(_, n)| *n > 0)
                .collect(),
            artifact: format!("{} {}", g.project.name, g.project.version),
            routing_fingerprint: g.routing_fingerprint.chars().take(16).collect(),
            mode: opts.mode,
            seed: opts.seed,
            resamples: opts.resamples,
            repeats: opts.repeats.max(1),
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
            llm_model: opts.llm.as_ref().map(|l| l.model.clone()),
            unknown_gold_references: bench::unknown_references(g, bench),
        },
        routers: results,
    }
}
