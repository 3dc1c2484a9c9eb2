//! # missing-key (SR008)
//!
//! ## What it finds
//! A required key is absent (a tool without `domain`, an intent without `required_groups`).
//!
//! ## Why it matters for routing
//! Algorithm 1 filters candidates by domain and required groups; without them an intent or tool
//! cannot be routed at all.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/i.yaml
//! intents:
//!   - id: electronic_property
//!     description: Band gaps and other electronic properties.
//!     domains: [materials_property]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/i.yaml
//! domains:
//!   - id: materials_property
//! groups:
//!   - id: electronic
//! intents:
//!   - id: electronic_property
//!     description: Band gaps and other electronic properties.
//!     domains: [materials_property]
//!     required_groups: [electronic]
//! ```
