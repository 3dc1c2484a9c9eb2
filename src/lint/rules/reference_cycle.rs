//! # reference-cycle (SR703)
//!
//! ## What it finds
//! A schema that refers back to itself (a tree node with `children` of its own type). The importer
//! expands it once and cuts it where it would repeat: the field there is imported as an `object`
//! (or `object[]`) whose description says it is recursive.
//!
//! A `$ref` of a parameter, path item or response that leads back to itself (`P` -> `P`, or
//! `P` -> `Q` -> `P`) never reaches anything to import: that is reported as an error, with the
//! whole cycle, and the import is refused (as for a reference that leads nowhere, SR702).
//!
//! ## Why it matters for routing
//! Expanding a cycle never ends (the converter fault behind many stack overflows); cutting it is
//! safe, but the fields below the cut are not declared, so a plan cannot select them until a person
//! declares the ones that matter.
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
//! info: {title: Tree, version: "1"}
//! paths:
//!   /nodes:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {$ref: '#/components/schemas/Node'}
//! components:
//!   schemas:
//!     Node:
//!       type: object
//!       properties:
//!         name: {type: string}
//!         children: {type: array, items: {$ref: '#/components/schemas/Node'}}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Tree, version: "1"}
//! paths:
//!   /nodes:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema:
//!                 type: object
//!                 properties:
//!                   name: {type: string}
//!                   children: {type: array, items: {type: string}}
//! ```
