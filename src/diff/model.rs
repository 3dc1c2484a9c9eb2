//! The change model: [`Class`], [`Change`], [`Location`], the table of change [`codes`] with their
//! classes, and the stable [`fingerprint`].

use serde::Serialize;
use serde_json::Value;

/// How much a change can hurt the agents and plans that use the schema. Ordered
/// `Safe < Dangerous < Breaking`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Additions and documentation: nothing that worked stops working.
    Safe,
    /// Still valid, but values, recall or routes may shift silently.
    Dangerous,
    /// Something agents or cached plans rely on is gone or means something else.
    Breaking,
}

impl Class {
    /// Lower-case name (`breaking`, `dangerous`, `safe`).
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Safe => "safe",
            Class::Dangerous => "dangerous",
            Class::Breaking => "breaking",
        }
    }

    /// Capitalised name for headings (`Breaking`).
    pub fn title(self) -> &'static str {
        match self {
            Class::Safe => "Safe",
            Class::Dangerous => "Dangerous",
            Class::Breaking => "Breaking",
        }
    }

    /// The three classes, most serious first (the order of every output).
    pub const ALL: [Class; 3] = [Class::Breaking, Class::Dangerous, Class::Safe];
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Stable kebab-case change codes, each with its class and a one-line summary.
pub mod codes {
    use super::Class::{self, Breaking, Dangerous, Safe};

    /// One entry of the code table.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct CodeEntry {
        /// Stable kebab-case code.
        pub code: &'static str,
        /// The class every change with this code has.
        pub class: Class,
        /// What the code means.
        pub summary: &'static str,
    }

    macro_rules! codes {
        ($($name:ident = $code:literal, $class:ident, $summary:literal;)*) => {
            $(
                #[doc = $summary]
                pub const $name: &str = $code;
            )*
            /// Every change code, in documentation order.
            pub const ALL: &[CodeEntry] = &[
                $(CodeEntry { code: $code, class: $class, summary: $summary },)*
            ];
        };
    }

    codes! {
        TOOL_REMOVED = "tool-removed", Breaking, "A tool was removed.";
        TOOL_ADDED = "tool-added", Safe, "A tool was added.";
        TOOL_RENAMED = "tool-renamed", Breaking, "A tool was renamed (by overlap, the same domain, endpoints and fields under a new id): Understand outputs and clients naming the old id no longer resolve it; its other changes are reported under the new id.";
        TOOL_TITLE_CHANGED = "tool-title-changed", Safe, "A tool's display title changed.";
        TOOL_NAME_REMOVED = "tool-name-removed", Dangerous, "A name users say for a tool was removed (named-tool requests may stop resolving).";
        TOOL_NAME_ADDED = "tool-name-added", Safe, "A name users say for a tool was added.";
        TOOL_DOMAIN_CHANGED = "tool-domain-changed", Dangerous, "A tool moved to another domain (routes may shift).";
        TOOL_PRIORITY_CHANGED = "tool-priority-changed", Dangerous, "A tool's ranking priority changed (routes may shift).";
        SOURCE_TYPE_CHANGED = "source-type-changed", Breaking, "The source type of a tool or field changed or was removed (source-constrained routes change).";
        SOURCE_TYPE_ADDED = "source-type-added", Dangerous, "A source type was declared where there was none (source-constrained routes may now include the tool).";
        PROVENANCE_CHANGED = "provenance-changed", Dangerous, "A tool's provenance (publisher, method, citation, URL) changed.";
        LICENCE_RESTRICTED = "licence-restricted", Breaking, "A licence became more restrictive (e.g. CC0-1.0 -> CC-BY-NC-4.0).";
        LICENCE_CHANGED = "licence-changed", Dangerous, "A licence changed to another one that is not more restrictive.";
        LICENCE_ADDED = "licence-added", Dangerous, "A licence was declared where there was none.";
        LICENCE_REMOVED = "licence-removed", Dangerous, "A declared licence was removed.";
        LICENCE_TERMS_CHANGED = "licence-terms-changed", Dangerous, "A licence's wording, terms URL, attribution or verified flag changed.";
        ENDPOINT_REMOVED = "endpoint-removed", Breaking, "An endpoint was removed.";
        ENDPOINT_ADDED = "endpoint-added", Safe, "An endpoint was added.";
        ENDPOINT_METHOD_CHANGED = "endpoint-method-changed", Breaking, "An endpoint's HTTP method changed.";
        ENDPOINT_URL_CHANGED = "endpoint-url-changed", Dangerous, "An endpoint's URL changed.";
        ENDPOINT_RECORDS_CHANGED = "endpoint-records-changed", Breaking, "Where an endpoint's records sit in its response changed (projection reads other values).";
        DESTRUCTIVE_ENDPOINT_ALLOWED = "destructive-endpoint-allowed", Dangerous, "An endpoint that may destroy data became plannable (declared `allow_destructive`, or annotated read-only), or was added plannable: plans and the gateway may now call it.";
        ENDPOINT_NO_LONGER_PLANNED = "endpoint-no-longer-planned", Breaking, "An endpoint became one that may destroy data and is not allowed (a destructive method or annotation, `allow_destructive` dropped): plans that used it stop.";
        PARAMETER_REMOVED = "parameter-removed", Breaking, "A request parameter was removed.";
        PARAMETER_ADDED_REQUIRED = "parameter-added-required", Breaking, "A required request parameter was added.";
        PARAMETER_ADDED_REQUIRED_WITH_DEFAULT = "parameter-added-required-with-default", Dangerous, "A required request parameter with a default was added: the router sends the default, so calls keep working but send a new value.";
        PARAMETER_ADDED = "parameter-added", Safe, "An optional request parameter was added.";
        PARAMETER_MADE_REQUIRED = "parameter-made-required", Breaking, "An optional parameter became required.";
        PARAMETER_MADE_REQUIRED_WITH_DEFAULT = "parameter-made-required-with-default", Dangerous, "An optional parameter with a default became required: the router now sends the default where it sent nothing.";
        PARAMETER_MADE_OPTIONAL = "parameter-made-optional", Safe, "A required parameter became optional.";
        PARAMETER_TYPE_NARROWED = "parameter-type-narrowed", Breaking, "A parameter's type accepts fewer values (e.g. number -> integer).";
        PARAMETER_TYPE_CHANGED = "parameter-type-changed", Breaking, "A parameter's type changed to an unrelated type.";
        PARAMETER_TYPE_WIDENED = "parameter-type-widened", Safe, "A parameter's type accepts more values (e.g. integer -> number).";
        ENUM_VALUE_REMOVED = "enum-value-removed", Breaking, "A value was removed from a parameter's enumeration.";
        ENUM_VALUE_ADDED = "enum-value-added", Safe, "A value was added to a parameter's enumeration.";
        ENUM_CONSTRAINT_ADDED = "enum-constraint-added", Breaking, "A free parameter became an enumeration.";
        ENUM_CONSTRAINT_DROPPED = "enum-constraint-dropped", Safe, "A parameter's enumeration was dropped (any value of its type is accepted).";
        PARAMETER_DEFAULT_CHANGED = "parameter-default-changed", Dangerous, "A parameter's default value changed.";
        PARAMETER_BINDING_REMOVED = "parameter-binding-removed", Dangerous, "A parameter no longer binds from a parameter concept.";
        PARAMETER_BINDING_ADDED = "parameter-binding-added", Safe, "A parameter binds from a new parameter concept.";
        PARAMETER_BINDING_CHANGED = "parameter-binding-changed", Dangerous, "A binding's template or companion values changed (bound values change).";
        PARAMETER_JOIN_CHANGED = "parameter-join-changed", Dangerous, "A parameter's join separator changed.";
        PARAMETER_AUTH_CHANGED = "parameter-auth-changed", Dangerous, "A parameter's credential flag changed.";
        FIELD_REMOVED = "field-removed", Breaking, "A response field was removed.";
        FIELD_ADDED = "field-added", Safe, "A response field was added.";
        FIELD_RENAMED = "field-renamed", Breaking, "A response field was renamed (same concepts, unit and type under a new name).";
        IDENTIFIER_REMOVED = "identifier-removed", Breaking, "A field lost its identifier flag (it is no longer always projected).";
        IDENTIFIER_ADDED = "identifier-added", Safe, "A field became an identifier.";
        FIELD_TYPE_CHANGED = "field-type-changed", Breaking, "A field's type changed incompatibly (old readers may get values they do not expect).";
        FIELD_TYPE_NARROWED = "field-type-narrowed", Safe, "A field's type narrowed (e.g. number -> integer); old readers still accept every value.";
        UNIT_CHANGED_DIMENSION = "unit-changed-dimension", Breaking, "A unit changed to another dimension or count basis (e.g. eV/atom -> eV/cell).";
        UNIT_RESCALED = "unit-rescaled", Breaking, "A unit changed scale within its dimension (eV -> meV): every consumer reads the numbers in the old unit; the message names the factor.";
        UNIT_RESPELLED = "unit-respelled", Safe, "A unit is spelled differently but means the same (factor 1).";
        UNIT_ADDED = "unit-added", Safe, "A unit was declared where there was none.";
        UNIT_REMOVED = "unit-removed", Dangerous, "A declared unit was removed (values lose their unit).";
        UNIT_AS_PUBLISHED_CHANGED = "unit-as-published-changed", Safe, "The provider's own unit spelling changed (same declared unit).";
        FIELD_GROUP_REMOVED = "field-group-removed", Dangerous, "A field left a field group (recall may drop).";
        FIELD_GROUP_ADDED = "field-group-added", Safe, "A field joined a field group.";
        FIELD_CONCEPT_REMOVED = "field-concept-removed", Dangerous, "A field no longer carries a concept (recall may drop).";
        FIELD_CONCEPT_ADDED = "field-concept-added", Safe, "A field carries a new concept.";
        FIELD_QUALIFIER_CHANGED = "field-qualifier-changed", Dangerous, "A field's qualifiers (method, average, ...) changed.";
        FIELD_ENCODING_CHANGED = "field-encoding-changed", Dangerous, "A field's wire encoding changed.";
        FIELD_MISSING_VALUE_CHANGED = "field-missing-value-changed", Dangerous, "A field's missing-value marker changed.";
        FIELD_BECAME_OPTIONAL = "field-became-optional", Dangerous, "A required response field is no longer required (records may lack it).";
        FIELD_BECAME_REQUIRED = "field-became-required", Safe, "A response field is now required in every record.";
        FIELD_BECAME_NULLABLE = "field-became-nullable", Dangerous, "A response field may now be null.";
        FIELD_NO_LONGER_NULLABLE = "field-no-longer-nullable", Safe, "A response field may no longer be null.";
        INTENT_REMOVED = "intent-removed", Breaking, "An intent was removed.";
        INTENT_ADDED = "intent-added", Safe, "An intent was added.";
        INTENT_RENAMED = "intent-renamed", Breaking, "An intent was renamed (same domains and, by overlap, required groups and examples under a new id): Understand outputs naming the old id are not understood.";
        INTENT_GROUPS_CHANGED = "intent-groups-changed", Dangerous, "An intent's required groups changed (candidates and projections change).";
        INTENT_DOMAINS_CHANGED = "intent-domains-changed", Dangerous, "An intent's domains changed (candidates change).";
        GROUP_REMOVED = "group-removed", Breaking, "A field group was removed.";
        GROUP_ADDED = "group-added", Safe, "A field group was added.";
        GROUP_RENAMED = "group-renamed", Dangerous, "A field group was renamed (by overlap, the same member fields and core concepts under a new id): plans project the same fields but name the new id.";
        DOMAIN_REMOVED = "domain-removed", Breaking, "A domain was removed.";
        DOMAIN_ADDED = "domain-added", Safe, "A domain was added.";
        CONCEPT_REMOVED = "concept-removed", Breaking, "A concept was removed.";
        CONCEPT_ADDED = "concept-added", Safe, "A concept was added.";
        CONCEPT_RENAMED = "concept-renamed", Breaking, "A concept was renamed (same kind and unit and, by overlap, the same aliases, fields and bindings under a new id): Understand outputs naming the old id are not understood.";
        CONCEPT_RENAMED_OLD_ID_KEPT = "concept-renamed-old-id-kept", Dangerous, "A concept was renamed and its old id is kept as an alias: Understand outputs naming the old id still resolve, plans name the new id.";
        CONCEPT_KIND_CHANGED = "concept-kind-changed", Breaking, "A concept changed between response and parameter.";
        CONCEPT_DIMENSION_CHANGED = "concept-dimension-changed", Dangerous, "A concept's declared dimension changed.";
        ALIAS_REPOINTED = "alias-repointed", Breaking, "An alias now means another concept or field.";
        ALIAS_TARGET_REMOVED = "alias-target-removed", Dangerous, "An ambiguous alias lost one of its meanings.";
        ALIAS_TARGET_ADDED = "alias-target-added", Dangerous, "An alias gained another meaning (queries using it resolve differently).";
        ALIAS_REMOVED = "alias-removed", Dangerous, "An alias was removed (queries using it may stop resolving).";
        ALIAS_ADDED = "alias-added", Safe, "An alias was added.";
        DESCRIPTION_CHANGED = "description-changed", Safe, "A description changed.";
        EXAMPLES_CHANGED = "examples-changed", Safe, "An intent's example queries changed.";
    }

    /// The table entry of a code.
    pub fn find(code: &str) -> Option<&'static CodeEntry> {
        ALL.iter().find(|e| e.code == code)
    }

    /// The class of a code (codes come from this table, so the lookup cannot miss; an unknown
    /// code counts as breaking).
    pub fn class_of(code: &str) -> Class {
        find(code).map(|e| e.class).unwrap_or(Class::Breaking)
    }
}

/// A resolved source position: file path (as the side names it) and 1-based line and column of
/// the start and end of the declaration.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Location {
    /// File path: the side's folder as given, joined with the path inside the project.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (Unicode scalar values).
    pub column: usize,
    /// 1-based line of the end.
    pub end_line: usize,
    /// 1-based column of the end (exclusive).
    pub end_column: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One difference between the old and the new schema.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// Stable kebab-case code (see [`codes::ALL`]).
    pub code: &'static str,
    /// Class of the code.
    pub class: Class,
    /// Entity path: `tool/<id>`, `tool/<id>/endpoint/<id>`, `.../field/<name>`,
    /// `.../parameter/<name>`, `intent/<id>`, `group/<id>`, `domain/<id>`, `concept/<id>`,
    /// `alias/<normalised text>`.
    pub entity: String,
    /// The old value (null for additions).
    pub old: Option<Value>,
    /// The new value (null for removals).
    pub new: Option<Value>,
    /// One-sentence description.
    pub message: String,
    /// Where the old side declares it (projects only); for an addition, the nearest parent that
    /// already existed.
    pub old_location: Option<Location>,
    /// Where the new side declares it; for a removal, the nearest surviving parent (where a
    /// reviewer sees the removal).
    pub new_location: Option<Location>,
    /// Unit conversion factor for `unit-rescaled` (new value = old value × factor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub factor: Option<f64>,
    /// Stable hash of code, entity, old and new (16 hex digits) for `[diff] accept`.
    pub fingerprint: String,
    /// The reason given in `[diff] accept`, when the change is accepted.
    pub accepted: Option<String>,
}

impl Change {
    /// A change with its class and fingerprint filled in and no locations.
    pub fn new(
        code: &'static str,
        entity: impl Into<String>,
        old: Option<Value>,
        new: Option<Value>,
        message: impl Into<String>,
    ) -> Change {
        let entity = entity.into();
        let fingerprint = fingerprint(code, &entity, old.as_ref(), new.as_ref());
        Change {
            code,
            class: codes::class_of(code),
            entity,
            old,
            new,
            message: message.into(),
            old_location: None,
            new_location: None,
            factor: None,
            fingerprint,
            accepted: None,
        }
    }

    /// Sort key: class (most serious first), entity, code, old, new.
    pub fn sort_key(&self) -> (std::cmp::Reverse<Class>, &str, &str, String, String) {
        (
            std::cmp::Reverse(self.class),
            &self.entity,
            self.code,
            canonical_json(self.old.as_ref()),
            canonical_json(self.new.as_ref()),
        )
    }
}

/// Compact JSON of an optional value (`null` when absent); object keys are already sorted
/// because `serde_json` maps are ordered.
pub fn canonical_json(v: Option<&Value>) -> String {
    match v {
        Some(v) => serde_json::to_string(v).unwrap_or_default(),
        None => "null".to_string(),
    }
}

/// The stable fingerprint of a change: the first 16 hex digits of the blake3 hash of code,
/// entity path, old and new value (compact JSON), separated by NUL bytes.
pub fn fingerprint(code: &str, entity: &str, old: Option<&Value>, new: Option<&Value>) -> String {
    let mut h = blake3::Hasher::new();
    h.update(code.as_bytes());
    h.update(&[0]);
    h.update(entity.as_bytes());
    h.update(&[0]);
    h.update(canonical_json(old).as_bytes());
    h.update(&[0]);
    h.update(canonical_json(new).as_bytes());
    h.finalize().to_hex()[..16].to_string()
}

/// Format a conversion factor for messages: plain below a million and above 1e-4, scientific
/// otherwise (`1000`, `0.001`, `1e-30`).
pub fn format_factor(f: f64) -> String {
    let a = f.abs();
    if a == 0.0 || (1e-4..1e6).contains(&a) {
        let s = format!("{f}");
        // Keep at most 12 significant digits of noise-free output.
        if s.len() > 14 {
            format!("{:.10}", f)
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string()
        } else {
            s
        }
    } else {
        format!("{f:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for e in codes::ALL {
            assert!(seen.insert(e.code), "duplicate code {}", e.code);
            assert!(
                e.code.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                e.code
            );
        }
    }

    #[test]
    fn fingerprints_are_stable() {
        let a = fingerprint("field-removed", "tool/a", Some(&Value::from("x")), None);
        assert_eq!(a.len(), 16);
        assert_eq!(
            a,
            fingerprint("field-removed", "tool/a", Some(&Value::from("x")), None)
        );
        assert_ne!(
            a,
            fingerprint("field-removed", "tool/b", Some(&Value::from("x")), None)
        );
    }

    #[test]
    fn factors_format() {
        assert_eq!(format_factor(1000.0), "1000");
        assert_eq!(format_factor(0.001), "0.001");
        assert_eq!(format_factor(1e-30), "1e-30");
        assert_eq!(format_factor(1e9), "1e9");
        assert_eq!(format_factor(160.217_663_4 + 1e-13), "160.2176634");
    }
}
