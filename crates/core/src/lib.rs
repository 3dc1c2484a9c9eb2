//! schemarouter-core: the router side of schemarouter (the SchemaRouter paper, arXiv
//! 2608.21375): the declaration model, units, the schema graph, the frozen artifact (compile and
//! verified load), the intent-registry prompt and exact token counts, the Understand step's
//! analyzers, Algorithm 1, and response projection.
//!
//! A consumer that only routes (the server, an agent embedding the router) depends on this crate
//! alone: it does not compile the linter, its renderers, the differ or the evaluation harness,
//! which live in the `schemarouter` crate on top. Data flows one way: [`source`] and [`model`]
//! -> [`graph`] -> [`artifact`] -> [`route`] -> [`extract`]. See `ARCHITECTURE.md`.

pub mod artifact;
pub mod extract;
pub mod graph;
pub mod input;
pub mod json;
pub mod model;
pub mod prompt;
pub mod route;
pub mod search;
pub mod source;
pub mod units;
