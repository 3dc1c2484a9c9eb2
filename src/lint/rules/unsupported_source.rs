//! # unsupported-source (SR705)
//!
//! ## What it finds
//! A source that is not of the kind being imported (an MCP tool list given to `import openapi`, a
//! document without an `openapi` or `swagger` version, OpenAPI 2.x/4.x spellings), or one with
//! nothing to import (no `paths`, no operations, no tools, or none that `--only` selects). The import
//! is refused with the reason.
//!
//! ## Why it matters for routing
//! A tool needs at least one endpoint, and a guess at an unknown format would write declarations
//! nobody asked for.
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
//! info: {title: Pets, version: "1"}
//! paths: {}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.1.0
//! info: {title: Pets, version: "1"}
//! paths:
//!   /pets:
//!     get:
//!       responses:
//!         '204': {description: nothing}
//! ```
