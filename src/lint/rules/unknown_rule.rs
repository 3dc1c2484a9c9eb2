//! # unknown-rule (SR903)
//!
//! ## What it finds
//! A suppression comment or a `[lint.rules]` entry that names a rule that does not exist, with a
//! "did you mean"; a `[lint.rules]` entry for a rule that cannot be configured; and one rule set
//! twice in `[lint.rules]`, by its code and by its name (`SR205 = "off"` and
//! `orphan-concept = "error"`), where the entry by name is the one that applies.
//!
//! ## Why it matters for routing
//! `allow(unit-conflicts)` suppresses nothing and `unit-conflict = "off"` misspelt leaves the rule
//! on: the author believes a setting is in force that is not. With two entries for one rule, one
//! of them is silently ignored.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
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
