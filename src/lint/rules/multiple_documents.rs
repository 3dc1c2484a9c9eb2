//! # multiple-documents (SR004)
//!
//! ## What it finds
//! A YAML file with more than one document (`---` separators). Each file holds one document;
//! the second one is never dropped silently.
//!
//! ## Why it matters for routing
//! A second document would otherwise be ignored, so whatever it declares would be missing from
//! the graph without any message.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ---
//! domains:
//!   - id: literature
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!   - id: literature
//! ```
