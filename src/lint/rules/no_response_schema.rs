//! # no-response-schema (SR707)
//!
//! ## What it finds
//! An endpoint whose result has no JSON schema: an MCP tool without `outputSchema` (a warning),
//! an OpenAPI success response that is not JSON, or function tools (which never declare results).
//! It is imported with one field `result`.
//!
//! ## Why it matters for routing
//! Field projection is the point of routing with a schema: with one opaque `result` the whole
//! response reaches the reader model. Ask the server to declare an `outputSchema` (MCP revision
//! 2025-06-18), or declare the fields by hand.
//!
//! This finding is made by `schemarouter import` (an import source, not a declaration file, is
//! checked); the examples are import sources.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Reports, version: "1"}
//! paths:
//!   /report:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             text/csv:
//!               schema: {type: string}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Reports, version: "1"}
//! paths:
//!   /report:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {rows: {type: integer}}}
//! ```
