//! # checks-skipped (SR012)
//!
//! ## What it finds
//! Some declaration files could not be read, so the checks that look across files (references,
//! aliases, reachability, the prompt budget) were skipped: with declarations missing they would
//! report consequences ("undeclared concept `band_gap`") instead of the cause.
//!
//! ## Why it matters for routing
//! One typo in one file should produce one error at the typo, not a cascade of misleading
//! errors elsewhere. Fix the load errors and run `check` again for the full report.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: [materials_property
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
