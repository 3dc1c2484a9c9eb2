//! # duplicate-key (SR005)
//!
//! ## What it finds
//! The same key twice in one map, including a key repeated after a `<<` merge. Both places are
//! shown.
//!
//! ## Why it matters for routing
//! Most YAML readers keep the last value silently, so a unit or group written twice routes with
//! whichever line happens to come last.
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
