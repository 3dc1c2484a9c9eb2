//! # no-tools (SR014)
//!
//! ## What it finds
//! A project with declaration files (intents, aliases) but no tool file: the `schemas/` folder
//! (or the folder `[paths] schemas` names) is missing or holds no `.yaml`, `.yml` or `.toml`
//! file.
//!
//! ## Why it matters for routing
//! Algorithm 1 picks among tools; without any, every intent is unsatisfiable, every concept is
//! orphaned and every field alias dangles. This one finding names the cause of all of those,
//! which follow it (a folder that was moved, a `[paths]` typo, a project not imported yet).
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: t
//! title: T
//! domain: materials_property
//! endpoints:
//!   - id: e
//!     method: GET
//!     url: https://t.example/e
//!     fields:
//!       - {name: id, type: string, identifier: true}
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
