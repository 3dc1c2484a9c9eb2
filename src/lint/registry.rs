//! The one table of rules: code, kebab-case name, default severity, category, and the rule's
//! source file (whose `//!` doc comment is its documentation). Codes never change meaning.

use super::Rule;
use super::rules;
use crate::diagnostics::{Diagnostic, Severity};
use crate::model::{Profile, Project};
use crate::source::{FileId, Span};

/// Rule families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Reading files (syntax, encoding, keys, limits).
    Load,
    /// Ids and references between declarations.
    Reference,
    /// The alias layer.
    Alias,
    /// Units and dimensions.
    Unit,
    /// Licences, provenance and source types.
    Licence,
    /// What routing can reach.
    Reachability,
    /// The generated prompt.
    Prompt,
    /// Suppression comments and configuration.
    Suppression,
    /// Findings of `schemarouter import` about its sources.
    Import,
}

impl Category {
    /// Kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Load => "load",
            Category::Reference => "reference",
            Category::Alias => "alias",
            Category::Unit => "unit",
            Category::Licence => "licence",
            Category::Reachability => "reachability",
            Category::Prompt => "prompt",
            Category::Suppression => "suppression",
            Category::Import => "import",
        }
    }
}

/// One row of the registry.
pub struct RuleEntry {
    /// Stable code (`SR302`).
    pub code: &'static str,
    /// Stable kebab-case name (`unit-conflict`).
    pub name: &'static str,
    /// Family.
    pub category: Category,
    /// Severity unless configured otherwise.
    pub default_severity: Severity,
    /// Whether `[lint.rules]` may change the level (syntax errors cannot be turned off).
    pub configurable: bool,
    /// The lowest lint profile the rule belongs to: `minimal` rules run in every profile,
    /// `standard` ones in `standard` and `strict`, `strict` ones only there.
    pub profile: Profile,
    /// The rule file's source; its leading `//!` lines are the documentation.
    pub source: &'static str,
    /// The check, or `None` for findings made by the loader or the suppression pass.
    pub rule: Option<&'static dyn Rule>,
}

impl RuleEntry {
    /// The rule's documentation (Markdown), from its file's `//!` comment.
    pub fn docs(&self) -> String {
        let mut out = String::new();
        for line in self.source.lines() {
            let Some(rest) = line.strip_prefix("//!") else {
                if line.trim().is_empty() || line.starts_with("#![") {
                    continue;
                }
                break;
            };
            out.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            out.push('\n');
        }
        out
    }

    /// Which fix the rule offers, from the first words of its docs' `## Fix` section: `safe`,
    /// `unsafe`, `safe or unsafe` (safe in some cases, unsafe in others), or `none`.
    pub fn fix_kind(&self) -> &'static str {
        let docs = self.docs();
        let Some(at) = docs.find("\n## Fix\n") else {
            return "none";
        };
        let body = docs[at + "\n## Fix\n".len()..].trim_start();
        let para = body.split("\n\n").next().unwrap_or("");
        if body.starts_with("Safe") {
            if para.contains("unsafe") {
                "safe or unsafe"
            } else {
                "safe"
            }
        } else if body.starts_with("Unsafe") {
            "unsafe"
        } else {
            "none"
        }
    }

    /// The profiles that run the rule (`["minimal", "standard", "strict"]` for a `minimal`
    /// rule), smallest first.
    pub fn profiles(&self) -> Vec<&'static str> {
        Profile::ALL
            .iter()
            .filter(|p| **p >= self.profile)
            .map(|p| p.as_str())
            .collect()
    }

    /// The first sentence of the "What it finds" section: a one-line summary.
    pub fn summary(&self) -> String {
        let docs = self.docs();
        let mut in_section = false;
        let mut para = String::new();
        for line in docs.lines() {
            if line.starts_with("## ") {
                if in_section && !para.is_empty() {
                    break;
                }
                in_section = line.to_lowercase().contains("what it finds");
                continue;
            }
            if in_section {
                if line.trim().is_empty() {
                    if !para.is_empty() {
                        break;
                    }
                    continue;
                }
                if !para.is_empty() {
                    para.push(' ');
                }
                para.push_str(line.trim());
            }
        }
        match para.find(". ") {
            Some(i) => para[..=i].to_string(),
            None => para,
        }
    }

    /// Code blocks under a `## <heading>` section (e.g. "Invalid example").
    pub fn examples(&self, heading: &str) -> Vec<String> {
        let docs = self.docs();
        let mut out = Vec::new();
        let mut in_section = false;
        let mut block: Option<String> = None;
        for line in docs.lines() {
            if block.is_none() && line.starts_with("## ") {
                in_section = line[3..].trim().eq_ignore_ascii_case(heading);
                continue;
            }
            if !in_section {
                continue;
            }
            if line.starts_with("```") {
                match block.take() {
                    Some(b) => out.push(b),
                    None => block = Some(String::new()),
                }
                continue;
            }
            if let Some(b) = &mut block {
                b.push_str(line);
                b.push('\n');
            }
        }
        out
    }
}

macro_rules! registry {
    ($( $code:literal $name:literal $module:ident $sev:ident $cat:ident $prof:ident $conf:literal $rule:expr ; )*) => {
        /// Every rule, in code order.
        pub static RULES: &[RuleEntry] = &[
            $( RuleEntry {
                code: $code,
                name: $name,
                category: Category::$cat,
                default_severity: Severity::$sev,
                configurable: $conf,
                profile: Profile::$prof,
                source: include_str!(concat!("rules/", stringify!($module), ".rs")),
                rule: $rule,
            }, )*
        ];
    };
}

registry! {
    "SR001" "parse-error" parse_error Error Load Minimal false None;
    "SR002" "invalid-encoding" invalid_encoding Error Load Minimal false None;
    "SR003" "empty-file" empty_file Error Load Minimal true None;
    "SR004" "multiple-documents" multiple_documents Error Load Minimal false None;
    "SR005" "duplicate-key" duplicate_key Error Load Minimal false None;
    "SR006" "unknown-key" unknown_key Error Load Minimal false None;
    "SR007" "invalid-value" invalid_value Error Load Minimal false None;
    "SR008" "missing-key" missing_key Error Load Minimal false None;
    "SR009" "limit-exceeded" limit_exceeded Error Load Minimal false None;
    "SR010" "io-error" io_error Error Load Minimal false None;
    "SR011" "ignored-file" ignored_file Info Load Minimal true None;
    "SR012" "checks-skipped" checks_skipped Info Load Minimal true None;
    "SR013" "control-character" control_character Warning Load Minimal true None;
    "SR014" "no-tools" no_tools Warning Load Minimal true None;
    "SR015" "merge-override" merge_override Warning Load Minimal true None;
    "SR016" "yaml11-boolean" yaml11_boolean Warning Load Minimal true None;
    "SR101" "duplicate-id" duplicate_id Error Reference Minimal false Some(&rules::duplicate_id::DuplicateId);
    "SR102" "id-collision" id_collision Error Reference Minimal true Some(&rules::id_collision::IdCollision);
    "SR103" "dangling-reference" dangling_reference Error Reference Minimal false Some(&rules::dangling_reference::DanglingReference);
    "SR104" "unknown-source-type" unknown_source_type Error Reference Minimal true Some(&rules::unknown_source_type::UnknownSourceType);
    "SR105" "concept-kind-mismatch" concept_kind_mismatch Error Reference Minimal true Some(&rules::concept_kind_mismatch::ConceptKindMismatch);
    "SR106" "invalid-binding" invalid_binding Error Reference Minimal true Some(&rules::invalid_binding::InvalidBinding);
    "SR107" "invalid-id" invalid_id Error Reference Minimal true Some(&rules::invalid_id::InvalidId);
    "SR108" "invalid-url" invalid_url Error Reference Minimal true Some(&rules::invalid_url::InvalidUrl);
    "SR109" "invalid-records-path" invalid_records_path Error Reference Minimal true Some(&rules::invalid_records_path::InvalidRecordsPath);
    "SR110" "invalid-parameter-value" invalid_parameter_value Error Reference Minimal true Some(&rules::invalid_parameter_value::InvalidParameterValue);
    "SR111" "duplicate-enum-value" duplicate_enum_value Warning Reference Minimal true Some(&rules::duplicate_enum_value::DuplicateEnumValue);
    "SR112" "untyped-container" untyped_container Warning Reference Standard true Some(&rules::untyped_container::UntypedContainer);
    "SR113" "name-collision" name_collision Warning Reference Minimal true Some(&rules::name_collision::NameCollision);
    "SR201" "dangling-alias" dangling_alias Error Alias Minimal true Some(&rules::dangling_alias::DanglingAlias);
    "SR202" "alias-collision" alias_collision Error Alias Minimal true Some(&rules::alias_collision::AliasCollision);
    "SR203" "alias-shadows-field" alias_shadows_field Warning Alias Standard true Some(&rules::alias_shadows_field::AliasShadowsField);
    "SR204" "duplicate-alias" duplicate_alias Warning Alias Minimal true Some(&rules::duplicate_alias::DuplicateAlias);
    "SR205" "orphan-concept" orphan_concept Warning Alias Standard true Some(&rules::orphan_concept::OrphanConcept);
    "SR206" "unreachable-qualifier" unreachable_qualifier Warning Alias Standard true Some(&rules::unreachable_qualifier::UnreachableQualifier);
    "SR207" "derived-entry" derived_entry Warning Alias Strict true Some(&rules::derived_entry::DerivedEntry);
    "SR208" "unknown-recogniser-kind" unknown_recogniser_kind Error Alias Minimal true Some(&rules::unknown_recogniser_kind::UnknownRecogniserKind);
    "SR209" "invalid-pattern" invalid_pattern Error Alias Minimal true Some(&rules::invalid_pattern::InvalidPattern);
    "SR301" "invalid-unit" invalid_unit Error Unit Minimal true Some(&rules::invalid_unit::InvalidUnit);
    "SR302" "unit-conflict" unit_conflict Error Unit Minimal true Some(&rules::unit_conflict::UnitConflict);
    "SR303" "convertible-unit" convertible_unit Info Unit Standard true Some(&rules::convertible_unit::ConvertibleUnit);
    "SR304" "missing-unit" missing_unit Warning Unit Standard true Some(&rules::missing_unit::MissingUnit);
    "SR305" "unit-on-non-numeric" unit_on_non_numeric Warning Unit Minimal true Some(&rules::unit_on_non_numeric::UnitOnNonNumeric);
    "SR306" "unit-as-published-mismatch" unit_as_published_mismatch Warning Unit Minimal true Some(&rules::unit_as_published_mismatch::UnitAsPublishedMismatch);
    "SR307" "molar-unit-without-basis" molar_unit_without_basis Warning Unit Standard true Some(&rules::molar_unit_without_basis::MolarUnitWithoutBasis);
    "SR401" "missing-licence" missing_licence Warning Licence Standard true Some(&rules::missing_licence::MissingLicence);
    "SR402" "invalid-licence" invalid_licence Error Licence Minimal true Some(&rules::invalid_licence::InvalidLicence);
    "SR403" "unverified-licence" unverified_licence Warning Licence Standard true Some(&rules::unverified_licence::UnverifiedLicence);
    "SR404" "attribution-missing" attribution_missing Warning Licence Standard true Some(&rules::attribution_missing::AttributionMissing);
    "SR405" "missing-source-type" missing_source_type Warning Licence Standard true Some(&rules::missing_source_type::MissingSourceType);
    "SR406" "missing-provenance" missing_provenance Warning Licence Standard true Some(&rules::missing_provenance::MissingProvenance);
    "SR501" "unreachable-group" unreachable_group Warning Reachability Standard true Some(&rules::unreachable_group::UnreachableGroup);
    "SR502" "empty-group" empty_group Warning Reachability Minimal true Some(&rules::empty_group::EmptyGroup);
    "SR503" "unsatisfiable-intent" unsatisfiable_intent Error Reachability Minimal true Some(&rules::unsatisfiable_intent::UnsatisfiableIntent);
    "SR504" "unknown-domain" unknown_domain Error Reachability Minimal true Some(&rules::unknown_domain::UnknownDomain);
    "SR505" "unroutable-tool" unroutable_tool Warning Reachability Standard true Some(&rules::unroutable_tool::UnroutableTool);
    "SR506" "unreachable-field" unreachable_field Warning Reachability Standard true Some(&rules::unreachable_field::UnreachableField);
    "SR507" "missing-identifier" missing_identifier Warning Reachability Standard true Some(&rules::missing_identifier::MissingIdentifier);
    "SR508" "destructive-endpoint" destructive_endpoint Warning Reachability Minimal true Some(&rules::destructive_endpoint::DestructiveEndpoint);
    "SR509" "group-without-core" group_without_core Warning Reachability Standard true Some(&rules::group_without_core::GroupWithoutCore);
    "SR510" "tied-candidates" tied_candidates Warning Reachability Standard true Some(&rules::tied_candidates::TiedCandidates);
    "SR601" "prompt-budget" prompt_budget Warning Prompt Standard true Some(&rules::prompt_budget::PromptBudget);
    "SR701" "remote-reference" remote_reference Error Import Minimal false None;
    "SR702" "unresolved-reference" unresolved_reference Error Import Minimal false None;
    "SR703" "reference-cycle" reference_cycle Info Import Minimal false None;
    "SR704" "expansion-limit" expansion_limit Warning Import Minimal false None;
    "SR705" "unsupported-source" unsupported_source Error Import Minimal false None;
    "SR706" "unsupported-name" unsupported_name Warning Import Minimal false None;
    "SR707" "no-response-schema" no_response_schema Warning Import Minimal false None;
    "SR708" "unrecognised-licence" unrecognised_licence Info Import Minimal false None;
    "SR709" "dropped-parameter-value" dropped_parameter_value Warning Import Minimal false None;
    "SR710" "free-form-object" free_form_object Info Import Minimal false None;
    "SR901" "unused-suppression" unused_suppression Warning Suppression Minimal true None;
    "SR902" "suppression-without-reason" suppression_without_reason Warning Suppression Minimal true None;
    "SR903" "unknown-rule" unknown_rule Warning Suppression Minimal true None;
}

/// Find a rule by code (case-insensitive) or name.
pub fn find(code_or_name: &str) -> Option<&'static RuleEntry> {
    RULES
        .iter()
        .find(|e| e.name == code_or_name || e.code.eq_ignore_ascii_case(code_or_name))
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

/// `docs/rules.md`: an index table of every rule, then each rule's documentation, generated from
/// the rule files (a test keeps the committed copy current).
pub fn rules_markdown() -> String {
    let mut out = String::from(
        "# Rules\n\nGenerated by `schemarouter rules --format markdown` from the rule files' doc comments; do not edit.\n\nProfiles (`[lint] profile` in `schemarouter.toml`): `minimal` runs the rules marked minimal (faults: files that do not load, broken references, invalid units and licences, destructive endpoints, suppressions), `standard` (the default) also those marked standard (the gaps a person fills: concepts, identifiers, groups, units, licence checks), `strict` every rule. A level set in `[lint.rules]` runs the rule whatever the profile.\n\nFix: what `check --fix` (safe) and `check --unsafe-fixes` (unsafe) apply; see `docs/fixes.md`.\n\n| Code | Name | Category | Default | Profile | Fix | Summary |\n|---|---|---|---|---|---|---|\n",
    );
    for e in RULES {
        out.push_str(&format!(
            "| {} | [`{}`](#{}) | {} | {} | {} | {} | {} |\n",
            e.code,
            e.name,
            e.name,
            e.category.as_str(),
            e.default_severity.as_str(),
            e.profile.as_str(),
            e.fix_kind(),
            e.summary().replace('|', "\\|")
        ));
    }
    for e in RULES {
        out.push_str(&format!("\n<a id=\"{}\"></a>\n\n", e.name));
        let docs = e.docs();
        // Demote headings one level so the page has one title.
        for line in docs.lines() {
            if line.starts_with('#') {
                out.push('#');
            }
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&format!(
            "\nDefault level: {}. Profiles: {}.{}\n",
            e.default_severity.as_str(),
            e.profiles().join(", "),
            if e.configurable {
                ""
            } else {
                " Not configurable."
            }
        ));
    }
    out
}
