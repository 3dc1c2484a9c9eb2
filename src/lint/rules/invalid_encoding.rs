//! # invalid-encoding (SR002)
//!
//! ## What it finds
//! A declaration file that is not UTF-8 (for example Latin-1 `Å` saved by an old editor). The
//! diagnostic points at the first byte that is not UTF-8.
//!
//! ## Why it matters for routing
//! Aliases and units are compared after Unicode normalisation; bytes in another encoding would
//! turn `Å` or `μB` into different text and break alias and unit matching.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! (A file containing the single byte `0xC5` after `unit: `; not representable in this page.)
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     description: "Å-level structure data"
//! ```
