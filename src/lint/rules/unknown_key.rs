//! # unknown-key (SR006)
//!
//! ## What it finds
//! A key the declaration kind does not have, with a "did you mean" for near misses
//! (`requried` -> `required`).
//!
//! ## Why it matters for routing
//! A misspelt key is otherwise ignored: `requried: true` leaves the parameter optional and plans
//! are made without it.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     descripton: DFT property stores
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     description: DFT property stores
//! ```
