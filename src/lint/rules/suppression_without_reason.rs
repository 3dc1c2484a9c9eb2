//! # suppression-without-reason (SR902)
//!
//! ## What it finds
//! A suppression comment without a reason after `--`.
//!
//! ## Why it matters for routing
//! A reviewer must be able to tell why a unit conflict or an unverified licence is acceptable; a
//! bare `allow(...)` gives no such record.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property # schemarouter: allow(unknown-domain)
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
