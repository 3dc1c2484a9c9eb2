//! # merge-override (SR015)
//!
//! ## What it finds
//! A key a YAML mapping sets itself over the value a merge (`<<: *anchor`, or a list of
//! anchors) gives it, in any declaration file (tools, intents, aliases). The finding names both
//! places: the key whose value applies and the merged key it overrides. A key written before the
//! `<<` gets its own message: the merge-key rule lets it win, but YAML readers that apply keys in
//! order keep the merged value.
//!
//! ## Why it matters for routing
//! The overridden value is dropped without a word: a parameter merged from a template with a
//! second `type` or `unit` declares something other than what the template shows, and a reader
//! of the file (or another YAML tool) may take the merged value for the one that applies. Each
//! value written once leaves no doubt.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - &base
//!     id: materials_property
//!     description: Materials properties
//!   - <<: *base
//!     id: chemistry
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     description: Materials properties
//!   - id: chemistry
//!     description: Materials properties
//! ```
