//! # free-form-object (SR710)
//!
//! ## What it finds
//! A parameter of an import source that takes an object (or a list of objects) whose schema
//! declares no `properties`: `{type: object}`, `{type: object, additionalProperties: true}`, a
//! map `{type: object, additionalProperties: {type: string}}`, or `{type: array, items: {type:
//! object}}`. It is imported as an `object` parameter and reported, naming the endpoint, the
//! parameter and what the schema does say about the members (a value type, or nothing). Query,
//! path and header parameters, request-body properties, MCP `inputSchema` properties and OpenAI /
//! Anthropic function parameters are read the same way.
//!
//! ## Why it matters for routing
//! An agent fills a parameter from what the prompt and the plan say about it. A free-form object
//! comes with no keys, so the agent guesses or leaves it out; a person importing the API is the
//! one who can say what it takes (in the parameter's `description`, or with a binding template
//! that names its keys).
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
//! info: {title: Search, version: "1"}
//! paths:
//!   /search:
//!     post:
//!       requestBody:
//!         content:
//!           application/json:
//!             schema:
//!               type: object
//!               properties:
//!                 q: {type: string}
//!                 options: {type: object}
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {hits: {type: integer}}}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Search, version: "1"}
//! paths:
//!   /search:
//!     post:
//!       requestBody:
//!         content:
//!           application/json:
//!             schema:
//!               type: object
//!               properties:
//!                 q: {type: string}
//!                 options:
//!                   type: object
//!                   properties:
//!                     fuzzy: {type: boolean}
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {hits: {type: integer}}}
//! ```
