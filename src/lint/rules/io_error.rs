//! # io-error (SR010)
//!
//! ## What it finds
//! A file or folder of the project that exists but cannot be read (permissions, a broken disk).
//! `check` exits with code 2.
//!
//! ## Why it matters for routing
//! An unreadable file is not the author's mistake but it still removes declarations; the build
//! must stop rather than compile a partial graph.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! (A file without read permission; not representable in this page.)
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
