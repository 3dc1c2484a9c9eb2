//! Benchmark files (`bench/*.yaml`, format of `bench/README.md`): queries with their category,
//! the gold Understand output and the gold plan.

use crate::route::Understanding;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
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
    /// Gold Understand output.
    pub understanding: Understanding,
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

/// Why a benchmark file could not be used.
#[derive(Debug)]
pub enum BenchError {
    /// The file could not be read.
    Io(std::io::Error),
    /// Not valid YAML or not the benchmark format.
    Parse(String),
    /// Well-formed but inconsistent (duplicate ids, unknown categories, unsupported version).
    Invalid(String),
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BenchError::Io(e) => write!(f, "cannot read the benchmark: {e}"),
            BenchError::Parse(m) => write!(f, "the benchmark is not in the expected format: {m}"),
            BenchError::Invalid(m) => write!(f, "the benchmark is invalid: {m}"),
        }
    }
}

impl std::error::Error for BenchError {}

/// Parse a benchmark from YAML text and validate it (version 1, unique ids, known categories).
///
/// Errors: [`BenchError::Parse`] for YAML or shape errors, [`BenchError::Invalid`] for the rest.
pub fn parse(text: &str) -> Result<Bench, BenchError> {
    let bench: Bench =
        serde_saphyr::from_str(text).map_err(|e| BenchError::Parse(e.to_string()))?;
    if bench.version != 1 {
        return Err(BenchError::Invalid(format!(
            "version {} is not supported (only 1)",
            bench.version
        )));
    }
    let mut seen = std::collections::BTreeSet::new();
    for q in &bench.queries {
        if !seen.insert(q.id.as_str()) {
            return Err(BenchError::Invalid(format!(
                "query id `{}` is used twice",
                q.id
            )));
        }
        if !CATEGORIES.contains(&q.category.as_str()) {
            return Err(BenchError::Invalid(format!(
                "query `{}` has unknown category `{}` (expected one of {})",
                q.id,
                q.category,
                CATEGORIES.join(", ")
            )));
        }
    }
    Ok(bench)
}

/// Read and parse a benchmark file.
///
/// Errors: [`BenchError::Io`] when the file cannot be read, else as [`parse`].
pub fn load(path: &Path) -> Result<Bench, BenchError> {
    let text = std::fs::read_to_string(path).map_err(BenchError::Io)?;
    parse(&text)
}
