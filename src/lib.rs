//! schemarouter: a declarative schema compiler and linter for agentic-RAG tool routing, and the
//! command line (the SchemaRouter paper, arXiv 2608.21375). The router itself (model, graph,
//! artifact, Algorithm 1, projection) is the `schemarouter-core` crate, re-exported here.
//!
//! Data flows one way: files -> [`model`] (via [`load`]) -> [`lint`] and [`graph`] ->
//! [`artifact`] -> [`route`] / [`diff`] / [`eval`] -> [`cli`]; [`extract`] applies a plan to
//! the responses of its steps. See `ARCHITECTURE.md`.

// The router side lives in `schemarouter-core`; its modules are re-exported here so that
// `schemarouter::route`, `schemarouter::artifact`, ... keep their paths.
pub use schemarouter_core::{
    artifact, extract, graph, model, prompt, route, search, source, units,
};

/// The servers (`schemarouter serve`, `schemarouter mcp`): the `schemarouter-server` crate.
pub use schemarouter_server as serve;

pub mod cli;
pub mod compiled;
pub mod derive;
pub mod diagnostics;
pub mod diff;
pub mod eval;
pub mod import;
pub mod lint;
pub mod load;
pub mod lsp;
pub mod synth;
