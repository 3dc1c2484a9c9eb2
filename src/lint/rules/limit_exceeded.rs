//! # limit-exceeded (SR009)
//!
//! ## What it finds
//! Input beyond the configured limits: a file larger than `max-file-bytes`, a project larger than
//! `max-project-bytes` or with more than `max-files` files, nesting deeper than `max-depth`, or
//! YAML aliases expanded more than `max-aliases` times (an "alias bomb").
//!
//! ## Why it matters for routing
//! The linter runs in CI on untrusted pull requests; it must stop on hostile input with a clear
//! message instead of exhausting memory.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemarouter.toml
//! [limits]
//! max-depth = 5
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     description: {a: {b: {c: d}}}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
