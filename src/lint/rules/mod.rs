//! One file per rule. Each file's `//!` comment is the rule's documentation; the registry table
//! (`super::registry`) gives code, name and default severity.
//!
//! Rules whose findings come from the loader or the suppression pass have a file with
//! documentation only.

pub mod alias_collision;
pub mod alias_shadows_field;
pub mod attribution_missing;
pub mod checks_skipped;
pub mod concept_kind_mismatch;
pub mod convertible_unit;
pub mod dangling_alias;
pub mod dangling_reference;
pub mod duplicate_alias;
pub mod duplicate_id;
pub mod duplicate_key;
pub mod empty_file;
pub mod empty_group;
pub mod id_collision;
pub mod ignored_file;
pub mod invalid_binding;
pub mod invalid_encoding;
pub mod invalid_id;
pub mod invalid_licence;
pub mod invalid_records_path;
pub mod invalid_unit;
pub mod invalid_url;
pub mod invalid_value;
pub mod io_error;
pub mod limit_exceeded;
pub mod missing_identifier;
pub mod missing_key;
pub mod missing_licence;
pub mod missing_provenance;
pub mod missing_source_type;
pub mod missing_unit;
pub mod multiple_documents;
pub mod orphan_concept;
pub mod parse_error;
pub mod prompt_budget;
pub mod suppression_without_reason;
pub mod unit_as_published_mismatch;
pub mod unit_conflict;
pub mod unit_on_non_numeric;
pub mod unknown_domain;
pub mod unknown_key;
pub mod unknown_rule;
pub mod unknown_source_type;
pub mod unreachable_field;
pub mod unreachable_group;
pub mod unroutable_tool;
pub mod unsatisfiable_intent;
pub mod unused_suppression;
pub mod unverified_licence;
