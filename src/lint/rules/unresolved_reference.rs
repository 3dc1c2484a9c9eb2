//! # unresolved-reference (SR702)
//!
//! ## What it finds
//! A `$ref` that leads nowhere: a JSON pointer to a schema the document does not have (often a
//! `$defs` entry lost when a schema was copied out of its document), a relative file that cannot
//! be read, or a fragment that is not a JSON pointer. The import is refused.
//!
//! ## Why it matters for routing
//! A converter that silently drops what it cannot resolve writes tools whose parameters and
//! fields are missing; plans would then omit values the API does return.
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
//! info: {title: Pets, version: "1"}
//! paths:
//!   /pets:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {$ref: '#/components/schemas/Missing'}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Pets, version: "1"}
//! paths:
//!   /pets:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {$ref: '#/components/schemas/Pet'}
//! components:
//!   schemas:
//!     Pet: {type: object, properties: {name: {type: string}}}
//! ```
