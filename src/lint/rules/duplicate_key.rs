//! # duplicate-key (SR005)
//!
//! ## What it finds
//! The same key twice in one map (a second `<<` merge key too). Both places are shown.
//!
//! Merge keys follow the YAML merge-key rule and are not duplicates: a key the mapping sets
//! itself overrides the same key received through `<<: *anchor` (before or after the `<<`), and
//! with `<<: [*a, *b]` an earlier mapping overrides a later one.
//!
//! In YAML a repeat does not stop the check: the first entry is kept (a repeated `<<` is not
//! merged), every repeat is reported, and the rest of the file is checked as usual. The TOML
//! parser stops at the first repeat, so a TOML file with one is not read further.
//!
//! ## Why it matters for routing
//! Most YAML readers keep the last value silently, so a unit or group written twice routes with
//! whichever line happens to come last.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     id: literature
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!   - id: literature
//! ```
