//! One file per rule. Each file's `//!` comment is the rule's documentation; the registry table
//! (`super::registry`) gives code, name and default severity.
//!
//! Rules whose findings come from the loader or the suppression pass have a file with
//! documentation only.

pub mod concept_kind_mismatch;
pub mod dangling_alias;
pub mod dangling_reference;
pub mod duplicate_id;
pub mod duplicate_key;
pub mod empty_file;
pub mod id_collision;
pub mod ignored_file;
pub mod invalid_binding;
pub mod invalid_encoding;
pub mod invalid_value;
pub mod io_error;
pub mod limit_exceeded;
pub mod missing_key;
pub mod multiple_documents;
pub mod parse_error;
pub mod suppression_without_reason;
pub mod unknown_domain;
pub mod unknown_key;
pub mod unknown_rule;
pub mod unknown_source_type;
pub mod unused_suppression;
