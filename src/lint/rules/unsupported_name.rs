//! # unsupported-name (SR706)
//!
//! ## What it finds
//! A property or parameter whose name cannot be declared (empty, or containing `/` or control
//! characters), or a parameter name used twice in one operation (a query `id` and a body `id`). The
//! first is imported; the other is reported and left out. A parameter without a name, or whose
//! `in` is missing or names no location (`in: weird`), is reported and left out too.
//!
//! ## Why it matters for routing
//! Fields are addressed as `tool/endpoint/field` in plans and aliases and parameters by name, so
//! such names would be ambiguous; declare the value by hand under another name if a plan needs it.
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
//! info: {title: Links, version: "1"}
//! paths:
//!   /x:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {'links/self': {type: string}, id: {type: string}}}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Links, version: "1"}
//! paths:
//!   /x:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {links_self: {type: string}, id: {type: string}}}
//! ```
