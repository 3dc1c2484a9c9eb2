//! The lint rules' checks attached to their codes, and the diagnostics of passes that are not
//! rules. The table of codes itself (code, name, severity, category, profile, docs) is
//! [`crate::diagnostics::codes`], re-exported here.

use super::Rule;
use super::rules;
use crate::diagnostics::{Diagnostic, codes};
use crate::model::Project;
use crate::source::{FileId, Span};

pub use crate::diagnostics::codes::{Category, RULES, RuleEntry, find, rules_markdown};

/// The lint rules' checks, each attached to its code in the one table
/// ([`crate::diagnostics::codes`]); codes without a check are findings made by the loader, the
/// importers or the suppression pass.
static CHECKS: &[(&str, &dyn Rule)] = &[
    (codes::DUPLICATE_ID.0, &rules::duplicate_id::DuplicateId),
    (codes::ID_COLLISION.0, &rules::id_collision::IdCollision),
    (
        codes::DANGLING_REFERENCE.0,
        &rules::dangling_reference::DanglingReference,
    ),
    (
        codes::UNKNOWN_SOURCE_TYPE.0,
        &rules::unknown_source_type::UnknownSourceType,
    ),
    (
        codes::CONCEPT_KIND_MISMATCH.0,
        &rules::concept_kind_mismatch::ConceptKindMismatch,
    ),
    (
        codes::INVALID_BINDING.0,
        &rules::invalid_binding::InvalidBinding,
    ),
    (codes::INVALID_ID.0, &rules::invalid_id::InvalidId),
    (codes::INVALID_URL.0, &rules::invalid_url::InvalidUrl),
    (
        codes::INVALID_RECORDS_PATH.0,
        &rules::invalid_records_path::InvalidRecordsPath,
    ),
    (
        codes::INVALID_PARAMETER_VALUE.0,
        &rules::invalid_parameter_value::InvalidParameterValue,
    ),
    (
        codes::DUPLICATE_ENUM_VALUE.0,
        &rules::duplicate_enum_value::DuplicateEnumValue,
    ),
    (
        codes::UNTYPED_CONTAINER.0,
        &rules::untyped_container::UntypedContainer,
    ),
    (
        codes::NAME_COLLISION.0,
        &rules::name_collision::NameCollision,
    ),
    (
        codes::BODY_XML_NOT_XML.0,
        &rules::body_xml_not_xml::BodyXmlNotXml,
    ),
    (
        codes::DANGLING_ALIAS.0,
        &rules::dangling_alias::DanglingAlias,
    ),
    (
        codes::ALIAS_COLLISION.0,
        &rules::alias_collision::AliasCollision,
    ),
    (
        codes::ALIAS_SHADOWS_FIELD.0,
        &rules::alias_shadows_field::AliasShadowsField,
    ),
    (
        codes::DUPLICATE_ALIAS.0,
        &rules::duplicate_alias::DuplicateAlias,
    ),
    (
        codes::ORPHAN_CONCEPT.0,
        &rules::orphan_concept::OrphanConcept,
    ),
    (
        codes::UNREACHABLE_QUALIFIER.0,
        &rules::unreachable_qualifier::UnreachableQualifier,
    ),
    (codes::DERIVED_ENTRY.0, &rules::derived_entry::DerivedEntry),
    (
        codes::UNKNOWN_RECOGNISER_KIND.0,
        &rules::unknown_recogniser_kind::UnknownRecogniserKind,
    ),
    (
        codes::INVALID_PATTERN.0,
        &rules::invalid_pattern::InvalidPattern,
    ),
    (codes::INVALID_UNIT.0, &rules::invalid_unit::InvalidUnit),
    (codes::UNIT_CONFLICT.0, &rules::unit_conflict::UnitConflict),
    (
        codes::CONVERTIBLE_UNIT.0,
        &rules::convertible_unit::ConvertibleUnit,
    ),
    (codes::MISSING_UNIT.0, &rules::missing_unit::MissingUnit),
    (
        codes::UNIT_ON_NON_NUMERIC.0,
        &rules::unit_on_non_numeric::UnitOnNonNumeric,
    ),
    (
        codes::UNIT_AS_PUBLISHED_MISMATCH.0,
        &rules::unit_as_published_mismatch::UnitAsPublishedMismatch,
    ),
    (
        codes::MOLAR_UNIT_WITHOUT_BASIS.0,
        &rules::molar_unit_without_basis::MolarUnitWithoutBasis,
    ),
    (
        codes::MISSING_LICENCE.0,
        &rules::missing_licence::MissingLicence,
    ),
    (
        codes::INVALID_LICENCE.0,
        &rules::invalid_licence::InvalidLicence,
    ),
    (
        codes::UNVERIFIED_LICENCE.0,
        &rules::unverified_licence::UnverifiedLicence,
    ),
    (
        codes::ATTRIBUTION_MISSING.0,
        &rules::attribution_missing::AttributionMissing,
    ),
    (
        codes::MISSING_SOURCE_TYPE.0,
        &rules::missing_source_type::MissingSourceType,
    ),
    (
        codes::MISSING_PROVENANCE.0,
        &rules::missing_provenance::MissingProvenance,
    ),
    (
        codes::UNREACHABLE_GROUP.0,
        &rules::unreachable_group::UnreachableGroup,
    ),
    (codes::EMPTY_GROUP.0, &rules::empty_group::EmptyGroup),
    (
        codes::UNSATISFIABLE_INTENT.0,
        &rules::unsatisfiable_intent::UnsatisfiableIntent,
    ),
    (
        codes::UNKNOWN_DOMAIN.0,
        &rules::unknown_domain::UnknownDomain,
    ),
    (
        codes::UNROUTABLE_TOOL.0,
        &rules::unroutable_tool::UnroutableTool,
    ),
    (
        codes::UNREACHABLE_FIELD.0,
        &rules::unreachable_field::UnreachableField,
    ),
    (
        codes::MISSING_IDENTIFIER.0,
        &rules::missing_identifier::MissingIdentifier,
    ),
    (
        codes::DESTRUCTIVE_ENDPOINT.0,
        &rules::destructive_endpoint::DestructiveEndpoint,
    ),
    (
        codes::GROUP_WITHOUT_CORE.0,
        &rules::group_without_core::GroupWithoutCore,
    ),
    (
        codes::TIED_CANDIDATES.0,
        &rules::tied_candidates::TiedCandidates,
    ),
    (codes::PROMPT_BUDGET.0, &rules::prompt_budget::PromptBudget),
];

/// The check of the rule with code `code` (`None` for findings that no lint rule makes).
pub fn check_of(code: &str) -> Option<&'static dyn Rule> {
    CHECKS.iter().find(|(c, _)| *c == code).map(|(_, r)| *r)
}

/// A diagnostic for a registry rule by name (used by passes that are not rules).
pub fn diagnostic(
    name: &str,
    message: impl Into<String>,
    file: FileId,
    span: Span,
    help: impl Into<String>,
) -> Diagnostic {
    let entry = RULES
        .iter()
        .find(|e| e.name == name)
        .expect("registered rule name");
    Diagnostic::new(entry.code, entry.name, entry.default_severity, message)
        .at(file, span, "")
        .help(help)
}

/// A project-wide diagnostic (no file) for a registry rule by name.
pub fn diagnostic_project(
    name: &str,
    message: impl Into<String>,
    help: impl Into<String>,
) -> Diagnostic {
    let entry = RULES
        .iter()
        .find(|e| e.name == name)
        .expect("registered rule name");
    Diagnostic::new(entry.code, entry.name, entry.default_severity, message).help(help)
}

/// Findings about `[lint.rules]`: unknown rule names.
pub fn config_diagnostics(project: &Project) -> Vec<Diagnostic> {
    let Some(cf) = project.config_file else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // One code written twice in different cases (`SR506` and `sr506`): the first entry applies.
    let text = &project.sources.get(cf).text;
    let mut seen_codes: Vec<&str> = Vec::new();
    for name in project.config.lint.rules.keys() {
        let Some(e) = find(name).filter(|e| name.eq_ignore_ascii_case(e.code)) else {
            continue;
        };
        if let Some(first) = seen_codes.iter().find(|c| c.eq_ignore_ascii_case(name)) {
            let span = find_key_span(text, name).unwrap_or_default();
            let mut d = diagnostic(
                "unknown-rule",
                format!(
                    "rule `{}` is set twice in [lint.rules], as `{first}` and as `{name}`; the entry `{first}` applies",
                    e.name
                ),
                cf,
                span,
                format!("keep one entry for `{}`", e.name),
            );
            if let Some(other) = find_key_span(text, first) {
                d = d.also(cf, other, "the entry that applies");
            }
            out.push(d);
        } else {
            seen_codes.push(name);
        }
    }
    for (name, level) in &project.config.lint.rules {
        if let Some(e) = find(name)
            && !e.configurable
        {
            let span = find_key_span(&project.sources.get(cf).text, name).unwrap_or(level.span);
            out.push(diagnostic(
                "unknown-rule",
                format!(
                    "rule `{}` cannot be configured; this setting has no effect",
                    e.name
                ),
                cf,
                span,
                "remove the entry: syntax and reference errors are always errors",
            ));
        }
        if let Some(e) = find(name)
            && name.eq_ignore_ascii_case(e.code)
            && let Some(by_name) = project.config.lint.rules.get(e.name)
        {
            let text = &project.sources.get(cf).text;
            let span = find_key_span(text, name).unwrap_or(level.span);
            let mut d = diagnostic(
                "unknown-rule",
                format!(
                    "rule `{}` is set twice in [lint.rules], as `{name}` and as `{}`; the entry `{}` applies",
                    e.name, e.name, e.name
                ),
                cf,
                span,
                format!("keep one entry for `{}`", e.name),
            );
            let other = find_key_span(text, e.name).unwrap_or(by_name.span);
            d = d.also(cf, other, "the entry that applies");
            out.push(d);
        }
        if find(name).is_none() {
            let help = match crate::model::value::did_you_mean(name, RULES.iter().map(|e| e.name)) {
                Some(c) => format!("did you mean `{c}`?"),
                None => "run `schemarouter rules` for the list of rules".to_string(),
            };
            let span = find_key_span(&project.sources.get(cf).text, name).unwrap_or(level.span);
            out.push(diagnostic(
                "unknown-rule",
                format!("[lint.rules] names unknown rule `{name}`"),
                cf,
                span,
                help,
            ));
        }
    }
    out
}

fn find_key_span(text: &str, key: &str) -> Option<Span> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let lead = line.len() - t.len();
        for candidate in [key.to_string(), format!("\"{key}\"")] {
            if t.starts_with(&candidate) && t[candidate.len()..].trim_start().starts_with('=') {
                return Some(Span::new(offset + lead, offset + lead + candidate.len()));
            }
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_is_attached_to_one_code_of_the_table_and_loader_codes_have_none() {
        for (code, _) in CHECKS {
            assert_eq!(
                CHECKS.iter().filter(|(c, _)| c == code).count(),
                1,
                "{code} has one check"
            );
            let e = find(code).expect("a code of the table");
            assert!(
                !matches!(
                    e.category,
                    Category::Load | Category::Import | Category::Suppression
                ),
                "{code}: the loader, the importers and the suppression pass make these findings"
            );
        }
        let without: Vec<&str> = RULES
            .iter()
            .filter(|e| check_of(e.code).is_none())
            .map(|e| e.code)
            .collect();
        assert_eq!(without.len(), RULES.len() - 47);
        assert!(
            without
                .iter()
                .all(|c| c.starts_with("SR0") || c.starts_with("SR7") || c.starts_with("SR9"))
        );
    }
}
