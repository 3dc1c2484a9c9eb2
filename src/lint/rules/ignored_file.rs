//! # ignored-file (SR011)
//!
//! ## What it finds
//! A file under `schemas/`, `intents/` or `aliases/` that is not `.yaml`, `.yml` or `.toml`, or a
//! symbolic link that leads outside the project. It is skipped, never parsed by guess.
//!
//! ## Why it matters for routing
//! A tool saved as `materials_project.yaml.bak` or `aflow.json` is not part of the graph; the note
//! makes that visible.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/notes.txt
//! remember to add AFLOW
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
