//! The one table of rule codes: every finding's stable code and kebab-case name (the loader's
//! SR0xx, the lint rules' SR1xx-SR6xx, the importers' SR7xx, the suppression pass's SR9xx),
//! its default severity, category, lowest profile, whether `[lint.rules]` may change it, and
//! the rule's documentation (the `//!` comment of its file under `src/lint/rules/`).
//!
//! The table sits at the bottom of the linter's layers, beside [`Diagnostic`](super::Diagnostic):
//! the loader, the importers, the renderers (SARIF lists every rule) and the lint rules all read
//! it, and it reads none of them. Each row also gives a constant named after the rule
//! (`PARSE_ERROR`: `("SR001", "parse-error")`) for the code that makes the finding; the lint
//! rules' checks are attached to their codes in `lint::registry`. `docs/rules.md` is generated
//! from it ([`rules_markdown`]; a test keeps the committed copy current). Codes never change
//! meaning.

use super::Severity;
use crate::model::Profile;

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

macro_rules! codes {
    ($( $konst:ident $code:literal $name:literal $module:ident $sev:ident $cat:ident $prof:ident $conf:literal ; )*) => {
        $(
            #[doc = concat!("`", $code, "` `", $name, "`: the code and name of its findings.")]
            pub const $konst: (&str, &str) = ($code, $name);
        )*

        /// Every rule, in code order.
        pub static RULES: &[RuleEntry] = &[
            $( RuleEntry {
                code: $code,
                name: $name,
                category: Category::$cat,
                default_severity: Severity::$sev,
                configurable: $conf,
                profile: Profile::$prof,
                source: include_str!(concat!("../lint/rules/", stringify!($module), ".rs")),
            }, )*
        ];
    };
}

codes! {
    PARSE_ERROR "SR001" "parse-error" parse_error Error Load Minimal false;
    INVALID_ENCODING "SR002" "invalid-encoding" invalid_encoding Error Load Minimal false;
    EMPTY_FILE "SR003" "empty-file" empty_file Error Load Minimal true;
    MULTIPLE_DOCUMENTS "SR004" "multiple-documents" multiple_documents Error Load Minimal false;
    DUPLICATE_KEY "SR005" "duplicate-key" duplicate_key Error Load Minimal false;
    UNKNOWN_KEY "SR006" "unknown-key" unknown_key Error Load Minimal false;
    INVALID_VALUE "SR007" "invalid-value" invalid_value Error Load Minimal false;
    MISSING_KEY "SR008" "missing-key" missing_key Error Load Minimal false;
    LIMIT_EXCEEDED "SR009" "limit-exceeded" limit_exceeded Error Load Minimal false;
    IO_ERROR "SR010" "io-error" io_error Error Load Minimal false;
    IGNORED_FILE "SR011" "ignored-file" ignored_file Info Load Minimal true;
    CHECKS_SKIPPED "SR012" "checks-skipped" checks_skipped Info Load Minimal true;
    CONTROL_CHARACTER "SR013" "control-character" control_character Warning Load Minimal true;
    NO_TOOLS "SR014" "no-tools" no_tools Warning Load Minimal true;
    MERGE_OVERRIDE "SR015" "merge-override" merge_override Warning Load Minimal true;
    YAML11_BOOLEAN "SR016" "yaml11-boolean" yaml11_boolean Warning Load Minimal true;
    DUPLICATE_ID "SR101" "duplicate-id" duplicate_id Error Reference Minimal false;
    ID_COLLISION "SR102" "id-collision" id_collision Error Reference Minimal true;
    DANGLING_REFERENCE "SR103" "dangling-reference" dangling_reference Error Reference Minimal false;
    UNKNOWN_SOURCE_TYPE "SR104" "unknown-source-type" unknown_source_type Error Reference Minimal true;
    CONCEPT_KIND_MISMATCH "SR105" "concept-kind-mismatch" concept_kind_mismatch Error Reference Minimal true;
    INVALID_BINDING "SR106" "invalid-binding" invalid_binding Error Reference Minimal true;
    INVALID_ID "SR107" "invalid-id" invalid_id Error Reference Minimal true;
    INVALID_URL "SR108" "invalid-url" invalid_url Error Reference Minimal true;
    INVALID_RECORDS_PATH "SR109" "invalid-records-path" invalid_records_path Error Reference Minimal true;
    INVALID_PARAMETER_VALUE "SR110" "invalid-parameter-value" invalid_parameter_value Error Reference Minimal true;
    DUPLICATE_ENUM_VALUE "SR111" "duplicate-enum-value" duplicate_enum_value Warning Reference Minimal true;
    UNTYPED_CONTAINER "SR112" "untyped-container" untyped_container Warning Reference Standard true;
    NAME_COLLISION "SR113" "name-collision" name_collision Warning Reference Minimal true;
    BODY_XML_NOT_XML "SR114" "body-xml-not-xml" body_xml_not_xml Warning Reference Minimal true;
    DANGLING_ALIAS "SR201" "dangling-alias" dangling_alias Error Alias Minimal true;
    ALIAS_COLLISION "SR202" "alias-collision" alias_collision Error Alias Minimal true;
    ALIAS_SHADOWS_FIELD "SR203" "alias-shadows-field" alias_shadows_field Warning Alias Standard true;
    DUPLICATE_ALIAS "SR204" "duplicate-alias" duplicate_alias Warning Alias Minimal true;
    ORPHAN_CONCEPT "SR205" "orphan-concept" orphan_concept Warning Alias Standard true;
    UNREACHABLE_QUALIFIER "SR206" "unreachable-qualifier" unreachable_qualifier Warning Alias Standard true;
    DERIVED_ENTRY "SR207" "derived-entry" derived_entry Warning Alias Strict true;
    UNKNOWN_RECOGNISER_KIND "SR208" "unknown-recogniser-kind" unknown_recogniser_kind Error Alias Minimal true;
    INVALID_PATTERN "SR209" "invalid-pattern" invalid_pattern Error Alias Minimal true;
    INVALID_UNIT "SR301" "invalid-unit" invalid_unit Error Unit Minimal true;
    UNIT_CONFLICT "SR302" "unit-conflict" unit_conflict Error Unit Minimal true;
    CONVERTIBLE_UNIT "SR303" "convertible-unit" convertible_unit Info Unit Standard true;
    MISSING_UNIT "SR304" "missing-unit" missing_unit Warning Unit Standard true;
    UNIT_ON_NON_NUMERIC "SR305" "unit-on-non-numeric" unit_on_non_numeric Warning Unit Minimal true;
    UNIT_AS_PUBLISHED_MISMATCH "SR306" "unit-as-published-mismatch" unit_as_published_mismatch Warning Unit Minimal true;
    MOLAR_UNIT_WITHOUT_BASIS "SR307" "molar-unit-without-basis" molar_unit_without_basis Warning Unit Standard true;
    MISSING_LICENCE "SR401" "missing-licence" missing_licence Warning Licence Standard true;
    INVALID_LICENCE "SR402" "invalid-licence" invalid_licence Error Licence Minimal true;
    UNVERIFIED_LICENCE "SR403" "unverified-licence" unverified_licence Warning Licence Standard true;
    ATTRIBUTION_MISSING "SR404" "attribution-missing" attribution_missing Warning Licence Standard true;
    MISSING_SOURCE_TYPE "SR405" "missing-source-type" missing_source_type Warning Licence Standard true;
    MISSING_PROVENANCE "SR406" "missing-provenance" missing_provenance Warning Licence Standard true;
    UNREACHABLE_GROUP "SR501" "unreachable-group" unreachable_group Warning Reachability Standard true;
    EMPTY_GROUP "SR502" "empty-group" empty_group Warning Reachability Minimal true;
    UNSATISFIABLE_INTENT "SR503" "unsatisfiable-intent" unsatisfiable_intent Error Reachability Minimal true;
    UNKNOWN_DOMAIN "SR504" "unknown-domain" unknown_domain Error Reachability Minimal true;
    UNROUTABLE_TOOL "SR505" "unroutable-tool" unroutable_tool Warning Reachability Standard true;
    UNREACHABLE_FIELD "SR506" "unreachable-field" unreachable_field Warning Reachability Standard true;
    MISSING_IDENTIFIER "SR507" "missing-identifier" missing_identifier Warning Reachability Standard true;
    DESTRUCTIVE_ENDPOINT "SR508" "destructive-endpoint" destructive_endpoint Warning Reachability Minimal true;
    GROUP_WITHOUT_CORE "SR509" "group-without-core" group_without_core Warning Reachability Standard true;
    TIED_CANDIDATES "SR510" "tied-candidates" tied_candidates Warning Reachability Standard true;
    PROMPT_BUDGET "SR601" "prompt-budget" prompt_budget Warning Prompt Standard true;
    REMOTE_REFERENCE "SR701" "remote-reference" remote_reference Error Import Minimal false;
    UNRESOLVED_REFERENCE "SR702" "unresolved-reference" unresolved_reference Error Import Minimal false;
    REFERENCE_CYCLE "SR703" "reference-cycle" reference_cycle Info Import Minimal false;
    EXPANSION_LIMIT "SR704" "expansion-limit" expansion_limit Warning Import Minimal false;
    UNSUPPORTED_SOURCE "SR705" "unsupported-source" unsupported_source Error Import Minimal false;
    UNSUPPORTED_NAME "SR706" "unsupported-name" unsupported_name Warning Import Minimal false;
    NO_RESPONSE_SCHEMA "SR707" "no-response-schema" no_response_schema Warning Import Minimal false;
    UNRECOGNISED_LICENCE "SR708" "unrecognised-licence" unrecognised_licence Info Import Minimal false;
    DROPPED_PARAMETER_VALUE "SR709" "dropped-parameter-value" dropped_parameter_value Warning Import Minimal false;
    FREE_FORM_OBJECT "SR710" "free-form-object" free_form_object Info Import Minimal false;
    INVALID_MEDIA_TYPE "SR711" "invalid-media-type" invalid_media_type Warning Import Minimal false;
    UNUSED_SUPPRESSION "SR901" "unused-suppression" unused_suppression Warning Suppression Minimal true;
    SUPPRESSION_WITHOUT_REASON "SR902" "suppression-without-reason" suppression_without_reason Warning Suppression Minimal true;
    UNKNOWN_RULE "SR903" "unknown-rule" unknown_rule Warning Suppression Minimal true;
}

/// Find a rule by code (case-insensitive) or name.
pub fn find(code_or_name: &str) -> Option<&'static RuleEntry> {
    RULES
        .iter()
        .find(|e| e.name == code_or_name || e.code.eq_ignore_ascii_case(code_or_name))
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
