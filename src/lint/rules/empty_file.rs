//! # empty-file (SR003)
//!
//! ## What it finds
//! A declaration file that is empty or holds only comments, or whose one value is a null (`null`,
//! `~`, after comments too): that finding says the file holds a null where a map of
//! declarations is expected, at the null.
//!
//! ## Why it matters for routing
//! An empty file usually means a declaration was lost in a merge or never written; the tool or
//! intents it was meant to hold are absent from every plan.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/draft.yaml
//! # TODO: describe the AFLOW tool
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
