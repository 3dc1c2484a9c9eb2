//! Routing where agents run: one server core ([`core`]) under two thin protocol faces, the HTTP
//! JSON API ([`http`], `schemarouter serve`) and the MCP server ([`mcp`], `schemarouter mcp`).
//!
//! The core loads the artifact once ([`crate::artifact::io::load_routing`]), builds the lexical
//! analyzer over it, and swaps in a newly compiled artifact atomically (file replaced, or
//! SIGHUP) after verifying it; requests in flight finish on the snapshot they started with. Both
//! faces call [`core::Core::route`], the same Understand step and Algorithm 1 as `schemarouter
//! route`, and share its limits, bearer-token check, metrics ([`metrics`]) and request log.
//!
//! This crate depends only on `schemarouter-core` (`artifact`, `route` and `prompt`), not on
//! the linter or the command line; `schemarouter serve` and `schemarouter mcp` start it.

// The core's modules at this crate's root, so `crate::artifact::...` reads as in the core.
use schemarouter_core::{artifact, prompt, route, search};

pub mod body;
pub mod core;
pub mod http;
pub mod mcp;
pub mod metrics;
pub mod openapi;
pub mod stdio_screen;

pub use core::{
    ApiError, Config, Core, Discover, Limits, RouteRequest, Routed, SearchRequest, Searched,
    Snapshot, Summary, Token,
};
