//! schemarouter: a declarative schema compiler and linter for agentic-RAG tool routing, and the
//! router that consumes its output (the SchemaRouter paper, arXiv 2608.21375).
//!
//! Data flows one way: files -> [`model`] (via [`load`]) -> [`lint`] and [`graph`] ->
//! [`artifact`] -> [`route`] / [`diff`] / [`eval`] -> [`cli`]; [`extract`] applies a plan to
//! the responses of its steps. See `ARCHITECTURE.md`.

pub mod artifact;
pub mod cli;
pub mod diagnostics;
pub mod diff;
pub mod eval;
pub mod extract;
pub mod graph;
pub mod import;
pub mod lint;
pub mod load;
pub mod model;
pub mod prompt;
pub mod route;
pub mod serve;
pub mod source;
pub mod synth;
pub mod units;
