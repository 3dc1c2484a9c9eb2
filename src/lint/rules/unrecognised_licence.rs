//! # unrecognised-licence (SR708)
//!
//! ## What it finds
//! A licence name in the source (`info.license`) that the SPDX licence list does not recognise,
//! neither exactly nor as a common spelling of one id. It is imported as `LicenseRef-<name>` with
//! `verified: false`.
//!
//! ## Why it matters for routing
//! Plans carry each field's licence to the reader; a free-text licence cannot be checked for
//! attribution or commercial-use terms. Every imported licence is unverified (an API description's
//! licence need not cover its data), and this one also needs a person to find its terms.
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
//! info:
//!   title: Weather
//!   version: "1"
//!   license: {name: Our own terms}
//! paths:
//!   /now:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {t: {type: number}}}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info:
//!   title: Weather
//!   version: "1"
//!   license: {name: Apache 2.0}
//! paths:
//!   /now:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {t: {type: number}}}
//! ```
