//! # parse-error (SR001)
//!
//! ## What it finds
//! A declaration file that is not valid YAML or TOML. The diagnostic points at the position the
//! parser stopped at.
//!
//! ## Why it matters for routing
//! A file that cannot be read declares nothing: its tool, intents or aliases silently vanish from
//! the graph, and every plan that needed them changes.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/oqmd.yaml
//! id: oqmd
//! title: [OQMD
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
