//! # unknown-rule (SR903)
//!
//! ## What it finds
//! A suppression comment or a `[lint.rules]` entry that names a rule that does not exist, with a
//! "did you mean".
//!
//! ## Why it matters for routing
//! `allow(unit-conflicts)` suppresses nothing and `unit-conflict = "off"` misspelt leaves the rule
//! on: the author believes a setting is in force that is not.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property # schemarouter: allow(unit-conflicts) -- typo
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
