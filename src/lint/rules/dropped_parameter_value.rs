//! # dropped-parameter-value (SR709)
//!
//! ## What it finds
//! A parameter of an import source whose `default` or `enum` value cannot be declared as it is:
//! a default or enum value that does not fit the parameter's type (an `integer` parameter with
//! the default `"ten"`, a `boolean` with `"maybe"`), a default that is not one of the parameter's
//! own enum values, or a default that is a list or an object. The importer leaves the value out
//! (the parameter is imported without that default, the enum without that value) and says so,
//! naming the endpoint, the parameter and the value. OpenAPI, MCP `inputSchema` and OpenAI /
//! Anthropic function parameters are read the same way. Values that only need their spelling
//! fixed are converted, not reported (`"false"` for a boolean, `"10"` for an integer). A header
//! of a `multipart/form-data` part (OpenAPI `encoding.headers`) is kept with the value its
//! schema fixes (`const`, a one-value `enum`, `default`); one whose schema fixes none has no
//! value to send and is reported the same way.
//!
//! ## Why it matters for routing
//! The router sends a required parameter's default when nothing binds it and checks bound values
//! against the enum: a default of the wrong type, or outside the enum, is a request the provider
//! rejects, made on every plan that uses the endpoint (and a declaration `check` refuses, SR110).
//! Leaving it out silently would hide a fault of the source; fix it there and import again.
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
//!       parameters:
//!         - name: limit
//!           in: query
//!           schema: {type: integer, default: ten}
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {rows: {type: integer}}}
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
//!       parameters:
//!         - name: limit
//!           in: query
//!           schema: {type: integer, default: 10}
//!         - name: order
//!           in: query
//!           schema: {type: string, enum: [asc, desc], default: asc}
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {rows: {type: integer}}}
//! ```
