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
#[cfg(feature = "cli")]
pub use schemarouter_server as serve;

#[cfg(feature = "cli")]
pub mod cli;
pub mod compiled;
#[cfg(feature = "cli")]
pub mod derive;
pub mod diagnostics;
pub mod diff;
#[cfg(feature = "cli")]
pub mod eval;
#[cfg(feature = "cli")]
pub mod import;
pub mod lint;
pub mod load;
#[cfg(feature = "cli")]
pub mod lsp;
#[cfg(feature = "cli")]
pub mod synth;
