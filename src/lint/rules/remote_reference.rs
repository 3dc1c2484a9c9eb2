//! # remote-reference (SR701)
//!
//! ## What it finds
//! A `$ref` in an imported document that points at another host (`http:`, `https:`, `//host`).
//! The importer never fetches anything; the import is refused and nothing is written.
//!
//! ## Why it matters for routing
//! A declaration must be reproducible from the files in front of you: an importer that follows
//! remote references would write different tools on different days, and would reach the network
//! from CI.
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
//!               schema: {$ref: 'https://example.org/schemas/pet.json'}
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
