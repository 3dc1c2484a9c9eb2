//! Benchmark files (`bench/*.yaml`, format of `bench/README.md`): queries with their category,
//! the gold Understand output and the gold plan.
//!
//! [`parse_located`] reads a file strictly, through the loader's YAML front end (granit-parser
//! events into the spanned tree, with its budgets) and its strict tree reader, as every
//! declaration file is read: syntax errors, unknown keys, wrong shapes, an unsupported version,
//! duplicate query ids and unknown categories are errors with a line, a column and a help line.
//! It keeps where each query's id and gold names sit (from the same tree), so that
//! [`unknown_references`] (gold names the compiled artifact does not know) can be reported at
//! their place in the file.

use crate::artifact::FrozenGraph;
use crate::load::LoadError;
use crate::load::de::DeError;
use crate::load::node::{Node, NodeKind};
use crate::model::value::did_you_mean;
use crate::route::Understanding;
use crate::source::SourceFile;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// The paper's nine query categories, in report order.
pub const CATEGORIES: [&str; 9] = [
    "single_tool_property",
    "chemical_lookup",
    "provenance_sensitive",
    "multi_field_property",
    "literature_search",
    "cross_source_comparison",
    "unit_sensitive_query",
    "negative_query",
    "ambiguous_query",
];

/// A benchmark file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bench {
    /// Format version (1).
    pub version: u32,
    /// The inventory the gold plans refer to (`materials-16`).
    pub inventory: String,
    /// The queries.
    pub queries: Vec<BenchQuery>,
}

/// One benchmark query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchQuery {
    /// Stable id (`dev-001`).
    pub id: String,
    /// One of [`CATEGORIES`].
    pub category: String,
    /// The user's question.
    pub query: String,
    /// Gold Understand output, which `--from understanding` routes on. Optional: a benchmark
    /// over an imported catalog, whose concepts and intents are derived rather than written by
    /// a person, has no stable gold Understanding and is run `--from query` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub understanding: Option<Understanding>,
    /// Gold plan: empty for a negative query.
    #[serde(default)]
    pub gold: Vec<GoldStep>,
}

impl BenchQuery {
    /// A negative query: the right plan is empty.
    pub fn is_negative(&self) -> bool {
        self.gold.is_empty()
    }
}

/// The queries of `bench` that have no gold `understanding` (indices, in file order): `eval
/// --from understanding` cannot route them.
pub fn without_understanding(bench: &Bench) -> Vec<usize> {
    (bench.queries.iter().enumerate())
        .filter(|(_, q)| q.understanding.is_none())
        .map(|(i, _)| i)
        .collect()
}

/// One step of a gold plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoldStep {
    /// Tool id.
    pub tool: String,
    /// Endpoint id.
    pub endpoint: String,
    /// Parameters in the tool's own names.
    #[serde(default)]
    pub params: BTreeMap<String, Value>,
    /// Answer-critical, non-identifier response fields.
    #[serde(default)]
    pub fields: Vec<String>,
}

/// A place in a benchmark file: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// What is wrong with a benchmark file: a message, where (when known), other places involved,
/// and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// One-sentence message.
    pub message: String,
    /// Where, when the parser says.
    pub at: Option<Pos>,
    /// Other places involved, each with what it is (the first use of a duplicate id).
    pub related: Vec<(Pos, String)>,
    /// How to fix it.
    pub help: Option<String>,
}

/// Why a benchmark file could not be used.
#[derive(Debug)]
pub enum BenchError {
    /// The file could not be read.
    Io(std::io::Error),
    /// Not valid YAML or not the benchmark format.
    Parse(Problem),
    /// Well-formed but inconsistent (duplicate ids, unknown categories, unsupported version).
    Invalid(Problem),
}

impl BenchError {
    /// The problem, for parse and validity errors.
    pub fn problem(&self) -> Option<&Problem> {
        match self {
            BenchError::Io(_) => None,
            BenchError::Parse(p) | BenchError::Invalid(p) => Some(p),
        }
    }

    /// The error as printed on stderr for the benchmark file `file`: an `error: FILE:LINE:COL:
    /// message` line, a `note:` line per related place and a `help:` line, each ending in a
    /// newline.
    pub fn render(&self, file: &str) -> String {
        let p = match self {
            BenchError::Io(e) => {
                return format!(
                    "error: {file}: cannot read the benchmark: {e}\nhelp: check the path of --bench (the shipped development set is `bench/dev.yaml`)\n"
                );
            }
            BenchError::Parse(p) | BenchError::Invalid(p) => p,
        };
        let mut out = match p.at {
            Some(at) => format!("error: {file}:{at}: {}\n", p.message),
            None => format!("error: {file}: {}\n", p.message),
        };
        for (at, what) in &p.related {
            out.push_str(&format!("note: {file}:{at}: {what}\n"));
        }
        let help = p.help.as_deref().unwrap_or(
            "see docs/eval.md for the benchmark format (`queries:` with `id`, `question`, `category` and the gold plan)",
        );
        out.push_str(&format!("help: {help}\n"));
        out
    }
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Io(e) => write!(f, "cannot read the benchmark: {e}"),
            BenchError::Parse(p) | BenchError::Invalid(p) => {
                if let Some(at) = p.at {
                    write!(f, "line {}, column {}: ", at.line, at.column)?;
                }
                f.write_str(&p.message)
            }
        }
    }
}

impl std::error::Error for BenchError {}

/// The help line for a file that is not in the benchmark format.
pub const FORMAT_HELP: &str = "a benchmark is one YAML document with `version: 1`, `inventory` and `queries`; each query has `id`, `category`, `query`, `understanding` and `gold` (format: bench/README.md)";

/// Where the names of one gold step sit in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepLocations {
    /// The tool id.
    pub tool: Option<Pos>,
    /// The endpoint id.
    pub endpoint: Option<Pos>,
    /// Parameter names (keys of `params`), in file order.
    pub params: Vec<(String, Pos)>,
    /// Field names, in file order.
    pub fields: Vec<Pos>,
}

/// Where the names of one query sit in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryLocations {
    /// The id.
    pub id: Option<Pos>,
    /// The category.
    pub category: Option<Pos>,
    /// The gold intent.
    pub intent: Option<Pos>,
    /// The gold steps, in order.
    pub gold: Vec<StepLocations>,
}

/// Where the names of a benchmark sit in its file (empty when unknown, e.g. for a benchmark
/// built in code).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchLocations {
    /// The `version` value.
    pub version: Option<Pos>,
    /// The queries, in order.
    pub queries: Vec<QueryLocations>,
}

impl BenchLocations {
    /// Where an unknown reference sits, when known.
    pub fn of(&self, r: &UnknownReference) -> Option<Pos> {
        let q = self.queries.get(r.query_index)?;
        if r.kind == RefKind::Intent {
            return q.intent;
        }
        let s = q.gold.get(r.step?)?;
        match r.kind {
            RefKind::Intent => None,
            RefKind::Tool => s.tool,
            RefKind::Endpoint => s.endpoint,
            RefKind::Parameter => s.params.iter().find(|(k, _)| *k == r.name).map(|(_, p)| *p),
            RefKind::Field => s.fields.get(r.index?).copied(),
        }
    }
}

/// Line and column of a byte offset of `file` (the one conversion, [`SourceFile::line_col`]).
fn pos(file: &SourceFile, offset: u32) -> Pos {
    let (line, column) = file.line_col(offset as usize);
    Pos { line, column }
}

/// The value under `key` of a mapping node.
fn get<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    match &node.kind {
        NodeKind::Map(entries) => entries.iter().find(|(k, _)| k.text == key).map(|(_, v)| v),
        _ => None,
    }
}

/// The items of a sequence node (none for anything else).
fn items(node: Option<&Node>) -> &[Node] {
    match node.map(|n| &n.kind) {
        Some(NodeKind::Seq(items)) => items,
        _ => &[],
    }
}

/// Where the ids and gold names sit, read from the spanned tree of the loader's YAML front end.
fn locations(file: &SourceFile, root: &Node) -> BenchLocations {
    let at = |n: Option<&Node>| n.map(|n| pos(file, n.span.start));
    BenchLocations {
        version: at(get(root, "version")),
        queries: items(get(root, "queries"))
            .iter()
            .map(|q| QueryLocations {
                id: at(get(q, "id")),
                category: at(get(q, "category")),
                intent: get(q, "understanding").and_then(|u| at(get(u, "intent"))),
                gold: items(get(q, "gold"))
                    .iter()
                    .map(|s| StepLocations {
                        tool: at(get(s, "tool")),
                        endpoint: at(get(s, "endpoint")),
                        params: match get(s, "params").map(|p| &p.kind) {
                            Some(NodeKind::Map(entries)) => entries
                                .iter()
                                .map(|(k, _)| (k.text.clone(), pos(file, k.span.start)))
                                .collect(),
                            _ => Vec::new(),
                        },
                        fields: items(get(s, "fields"))
                            .iter()
                            .map(|f| pos(file, f.span.start))
                            .collect(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// For `unknown key `x``-style messages naming the expected keys: "did you mean `b`?" when one
/// is close.
fn unknown_field_help(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (name, rest) = rest.split_once('`')?;
    let expected = rest
        .strip_prefix(", expected one of ")
        .or_else(|| rest.strip_prefix(", expected "))?;
    let candidates: Vec<String> = expected
        .split([',', ' '])
        .map(|c| c.trim_matches('`'))
        .filter(|c| !c.is_empty() && *c != "or")
        .map(str::to_string)
        .collect();
    did_you_mean(name, candidates.iter().map(String::as_str))
        .map(|c| format!("did you mean `{c}`?"))
}

/// A file the YAML front end refuses, as a benchmark problem.
fn yaml_problem(file: &SourceFile, e: LoadError) -> Problem {
    let (message, at, help) = match e {
        LoadError::Syntax { message, span } => (message, Some(span), None),
        LoadError::DuplicateKey { key, span, .. } => {
            (format!("duplicate key `{key}`"), Some(span), None)
        }
        LoadError::MultipleDocuments { span } => (
            "a second YAML document starts here; a benchmark is one document".to_string(),
            Some(span),
            None,
        ),
        LoadError::Empty { .. } => ("the file declares nothing".to_string(), None, None),
        LoadError::Limit { message, span, .. } => (
            message,
            Some(span),
            Some("split the benchmark into smaller files, nest less deeply, or use fewer YAML anchors and aliases".to_string()),
        ),
        // Findings the front end goes on past are not returned by `yaml::parse`.
        other => (format!("{other:?}"), None, None),
    };
    Problem {
        message: format!("not a valid benchmark: {message}"),
        at: at.map(|s| pos(file, s.start)),
        related: Vec::new(),
        help: Some(help.unwrap_or_else(|| FORMAT_HELP.to_string())),
    }
}

/// A tree that is not of the benchmark's shape, as a benchmark problem.
fn shape_problem(file: &SourceFile, root: &Node, e: DeError) -> Problem {
    let version = get(root, "version").map(|v| v.span);
    if e.span.is_some() && e.span == version {
        return Problem {
            message: "not a valid benchmark: `version` must be the number 1".into(),
            at: version.map(|s| pos(file, s.start)),
            related: Vec::new(),
            help: Some("set `version: 1`".into()),
        };
    }
    let help = unknown_field_help(&e.message)
        .or(e.help)
        .unwrap_or_else(|| FORMAT_HELP.to_string());
    Problem {
        message: format!("not a valid benchmark: {}", e.message),
        at: e.span.map(|s| pos(file, s.start)),
        related: Vec::new(),
        help: Some(help),
    }
}

/// Parse a benchmark from YAML text and validate it (version 1, at least one query, unique ids, known categories).
///
/// Errors: [`BenchError::Parse`] for YAML or shape errors, [`BenchError::Invalid`] for the rest.
pub fn parse(text: &str) -> Result<Bench, BenchError> {
    parse_located(text).map(|(b, _)| b)
}

/// As [`parse`], also returning where the ids and gold names sit in the text.
pub fn parse_located(text: &str) -> Result<(Bench, BenchLocations), BenchError> {
    // The loader's YAML front end (granit-parser events into a spanned tree, its budgets), then
    // the strict tree reader every declaration file goes through.
    let file = SourceFile::new("", "", text.to_string());
    let limits = crate::model::config::Limits::default();
    let root = crate::load::yaml::parse(text, &limits)
        .map_err(|e| BenchError::Parse(yaml_problem(&file, e)))?;
    let bench: Bench = crate::load::de::from_node(&root)
        .map_err(|e| BenchError::Parse(shape_problem(&file, &root, e)))?;
    let locs = locations(&file, &root);
    let query_loc = |i: usize| locs.queries.get(i).cloned().unwrap_or_default();
    if bench.version != 1 {
        return Err(BenchError::Invalid(Problem {
            message: format!("version {} is not supported (only 1)", bench.version),
            at: locs.version,
            related: Vec::new(),
            help: Some("set `version: 1`".into()),
        }));
    }
    if bench.queries.is_empty() {
        // The top-level `queries` key (block style, column 1), pointed at when found.
        let at = text
            .trim_start_matches('\u{feff}')
            .lines()
            .position(|l| {
                l.strip_prefix("queries")
                    .is_some_and(|r| r.trim_start().starts_with(':'))
            })
            .map(|i| Pos {
                line: i + 1,
                column: 1,
            });
        return Err(BenchError::Invalid(Problem {
            message: "the benchmark has no queries: there is nothing to evaluate".into(),
            at,
            related: Vec::new(),
            help: Some(
                "add queries under `queries`, each with `id`, `category`, `query`, `understanding` and `gold` (format: bench/README.md)"
                    .into(),
            ),
        }));
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, q) in bench.queries.iter().enumerate() {
        if let Some(&first) = seen.get(q.id.as_str()) {
            return Err(BenchError::Invalid(Problem {
                message: format!("query id `{}` is used twice", q.id),
                at: query_loc(i).id,
                related: query_loc(first)
                    .id
                    .map(|p| (p, "first used here".to_string()))
                    .into_iter()
                    .collect(),
                help: Some("give every query its own id".into()),
            }));
        }
        seen.insert(&q.id, i);
        if !CATEGORIES.contains(&q.category.as_str()) {
            let help = match did_you_mean(&q.category, CATEGORIES) {
                Some(c) => format!("did you mean `{c}`?"),
                None => format!("use one of {}", CATEGORIES.join(", ")),
            };
            return Err(BenchError::Invalid(Problem {
                message: format!("query `{}` has unknown category `{}`", q.id, q.category),
                at: query_loc(i).category,
                related: Vec::new(),
                help: Some(help),
            }));
        }
    }
    Ok((bench, locs))
}

/// Read and parse a benchmark file.
///
/// Errors: [`BenchError::Io`] when the file cannot be read, else as [`parse`].
pub fn load(path: &Path) -> Result<Bench, BenchError> {
    load_located(path).map(|(b, _)| b)
}

/// Read and parse a benchmark file, with the places of its names (see [`parse_located`]).
///
/// Errors: as [`load`].
pub fn load_located(path: &Path) -> Result<(Bench, BenchLocations), BenchError> {
    let bytes = schemarouter_core::input::read_file_limited(
        path,
        schemarouter_core::input::MAX_INPUT_BYTES,
    )
    .map_err(BenchError::Io)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        // The prefix is valid UTF-8 by definition.
        let before = std::str::from_utf8(valid).unwrap_or_default();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        BenchError::Invalid(Problem {
            message: format!(
                "the benchmark is not valid UTF-8 (first bad byte at offset {})",
                valid.len()
            ),
            at: Some(Pos {
                line: before.matches('\n').count() + 1,
                column: before[line_start..].chars().count() + 1,
            }),
            related: Vec::new(),
            help: Some("save the file as UTF-8".into()),
        })
    })?;
    parse_located(&text)
}

/// What a gold reference names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RefKind {
    /// The gold Understanding's intent.
    Intent,
    /// A gold step's tool.
    Tool,
    /// A gold step's endpoint.
    Endpoint,
    /// A key of a gold step's `params`.
    Parameter,
    /// One of a gold step's `fields`.
    Field,
}

impl RefKind {
    /// Lower-case name (`intent`, `tool`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Intent => "intent",
            RefKind::Tool => "tool",
            RefKind::Endpoint => "endpoint",
            RefKind::Parameter => "parameter",
            RefKind::Field => "field",
        }
    }
}

/// A gold name that the compiled artifact does not declare.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnknownReference {
    /// The query's id.
    pub query: String,
    /// The query's position in the benchmark (0-based).
    #[serde(skip)]
    pub query_index: usize,
    /// What the name should be.
    pub kind: RefKind,
    /// The unknown name.
    pub name: String,
    /// Where it was looked for: the tool of an endpoint, `tool/endpoint` of a parameter or a
    /// field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// A close declared name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// Gold step (0-based), for all kinds but intents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// Position in the step's `fields` (0-based), for fields.
    #[serde(skip)]
    pub index: Option<usize>,
}

impl UnknownReference {
    /// One-line description: `query `q`: gold tool `x` is not in the artifact (did you mean
    /// `y`?)`.
    pub fn message(&self) -> String {
        let scope = self.scope.as_deref().unwrap_or("");
        let what = match self.kind {
            RefKind::Intent => format!("gold intent `{}` is not in the artifact", self.name),
            RefKind::Tool => format!("gold tool `{}` is not in the artifact", self.name),
            RefKind::Endpoint => format!("tool `{scope}` has no endpoint `{}`", self.name),
            RefKind::Parameter => format!("endpoint `{scope}` has no parameter `{}`", self.name),
            RefKind::Field => format!("endpoint `{scope}` has no response field `{}`", self.name),
        };
        let hint = self
            .suggestion
            .as_ref()
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        format!("query `{}`: {what}{hint}", self.query)
    }
}

/// Gold fields written as full paths from the response's root (`data.transactions[].amount`)
/// where the endpoint's records sit at a records path (`data.transactions[]`) are renamed to
/// the path inside one record (`amount`), as the artifact names them; every other name is left
/// as written (and [`unknown_references`] reports it when the endpoint has no such field). A
/// gold set written before the importer found a records path keeps scoring the same fields.
pub fn resolve_records_paths(g: &FrozenGraph, bench: &mut Bench) {
    for q in &mut bench.queries {
        for step in &mut q.gold {
            let Some((_, tool)) = g.tool(&step.tool) else {
                continue;
            };
            let Some(ep) = tool.endpoints.iter().find(|e| e.id == step.endpoint) else {
                continue;
            };
            let Some(records) = ep.records.as_deref() else {
                continue;
            };
            let head = format!("{records}.");
            for name in &mut step.fields {
                if ep.fields.iter().any(|f| f.name == *name) {
                    continue;
                }
                if let Some(rest) = name.strip_prefix(&head)
                    && ep.fields.iter().any(|f| f.name == rest)
                {
                    *name = rest.to_string();
                }
            }
        }
    }
}

/// Every gold name of `bench` that `g` does not declare, in query order: the gold intent, then
/// per gold step its tool, or (for a known tool) its endpoint, or (for a known endpoint) each
/// unknown parameter name and response field. `target_apis`, `domain_concepts`, parameter
/// concepts and the source constraint are free text by design (a query may name a source the
/// inventory lacks) and are not checked.
pub fn unknown_references(g: &FrozenGraph, bench: &Bench) -> Vec<UnknownReference> {
    let mut out = Vec::new();
    for (qi, q) in bench.queries.iter().enumerate() {
        let unknown =
            |kind, name: &str, scope: Option<String>, suggestion: Option<&str>| UnknownReference {
                query: q.id.clone(),
                query_index: qi,
                kind,
                name: name.to_string(),
                scope,
                suggestion: suggestion.map(str::to_string),
                step: None,
                index: None,
            };
        if let Some(i) = q.understanding.as_ref().and_then(|u| u.intent.as_ref())
            && g.intent(i).is_none()
        {
            let s = did_you_mean(i, g.intents.iter().map(|x| x.id.as_str()));
            out.push(unknown(RefKind::Intent, i, None, s));
        }
        for (si, step) in q.gold.iter().enumerate() {
            let at = |mut r: UnknownReference, index: Option<usize>| {
                r.step = Some(si);
                r.index = index;
                r
            };
            let Some((_, tool)) = g.tool(&step.tool) else {
                let s = did_you_mean(&step.tool, g.tools.iter().map(|t| t.id.as_str()));
                out.push(at(unknown(RefKind::Tool, &step.tool, None, s), None));
                continue;
            };
            let Some(ep) = tool.endpoints.iter().find(|e| e.id == step.endpoint) else {
                let s = did_you_mean(&step.endpoint, tool.endpoints.iter().map(|e| e.id.as_str()));
                let r = unknown(RefKind::Endpoint, &step.endpoint, Some(tool.id.clone()), s);
                out.push(at(r, None));
                continue;
            };
            let scope = format!("{}/{}", tool.id, ep.id);
            for name in step.params.keys() {
                if !ep.parameters.iter().any(|p| p.name == *name) {
                    let s = did_you_mean(name, ep.parameters.iter().map(|p| p.name.as_str()));
                    let r = unknown(RefKind::Parameter, name, Some(scope.clone()), s);
                    out.push(at(r, None));
                }
            }
            for (fi, name) in step.fields.iter().enumerate() {
                if !ep.fields.iter().any(|f| f.name == *name) {
                    let s = did_you_mean(name, ep.fields.iter().map(|f| f.name.as_str()));
                    let r = unknown(RefKind::Field, name, Some(scope.clone()), s);
                    out.push(at(r, Some(fi)));
                }
            }
        }
    }
    out
}
