//! The router: the Understand step ([`analyzer`]) and Algorithm 1 ([`algorithm`]) over the frozen
//! artifact, producing executable, provenance-annotated [`Plan`]s.
//!
//! Types follow paper Appendix D (`Understanding`) and section 4 (plans with per-field unit,
//! source type, licence and provenance). JSON Schemas of both are published under
//! `docs/schema/understanding.schema.json` and `docs/schema/plan.schema.json`.

pub mod algorithm;
pub mod analyzer;
mod asks;
pub mod bind;
mod candidates;
mod every;
pub mod explain;
pub mod formula;
mod named;
mod ranges;
pub mod ranked;
pub mod ranking;
mod steps;
mod variants;
pub mod vocabulary;

/// The lines of a language-data file declared beside the code (`question_words.txt`,
/// `measured_cues.txt`, ...): `#` starts a comment, lines are trimmed, empty ones skipped.
pub(crate) fn data_lines(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
}

use crate::artifact::{FrozenGraph, LicenceData, MatchKind, ProvenanceData};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

pub use algorithm::{Options, Projection, route};

/// Plan a question ([`ranked::route_question`]: Algorithm 1, else the ranked endpoints), add
/// the fields the question names apart from the ones its concepts chose and, when it asks for
/// every variant of a value or for the parts of a total, every variant (the `core`
/// projection's safety net, `named` and `every`), then settle its status on the steps it holds: `missing_required_parameter` only while some step
/// lacks a required parameter the question must give. A credential the client supplies (a
/// step's `auth`) never makes it so, nor does a step replaced by the named tool's best-ranked
/// endpoint after Algorithm 1 set the status.
pub fn route_question(
    g: &crate::artifact::FrozenGraph,
    question: &str,
    u: &Understanding,
    opts: &Options,
) -> Plan {
    let mut plan = ranked::route_question(g, question, u, opts);
    named::add(g, question, opts.projection, opts.metadata, &mut plan);
    every::add(g, question, u, opts.projection, opts.metadata, &mut plan);
    every::add_group(g, question, u, opts.projection, opts.metadata, &mut plan);
    asks::add(g, question, u, opts.projection, opts.metadata, &mut plan);
    settle_status(&mut plan);
    plan
}

/// The Understanding as the plan bound it: `u` with every parameter value a step of `plan`
/// binds (declared bindings and values filled from the question) that `u` does not hold
/// already, the first step's value first. What `route` reports, so that the Understanding
/// printed beside a plan never says `parameters={}` while its steps bind values.
pub fn understood(u: &Understanding, plan: &Plan) -> Understanding {
    let mut out = u.clone();
    for step in &plan.steps {
        for (name, value) in &step.params {
            out.parameters
                .entry(name.clone())
                .or_insert_with(|| value.clone());
        }
    }
    out
}

/// A plan said to miss a required parameter whose steps miss none: `partial` when some requested
/// concept or tool is left out, else `planned`.
fn settle_status(plan: &mut Plan) {
    if plan.status == PlanStatus::MissingRequiredParameter
        && !plan.steps.is_empty()
        && plan.steps.iter().all(|s| s.missing_required.is_empty())
    {
        plan.status = if plan.unmatched_concepts.is_empty() && plan.skipped_tools.is_empty() {
            PlanStatus::Planned
        } else {
            PlanStatus::Partial
        };
    }
}
pub use vocabulary::{NotUnderstood, route_checked};

/// A plan's warnings with the Understand step's before its own (`analysis` first), and the
/// analyzer's notes made to agree with the plan: a "does not hold" note stays only when the
/// steps are not about what it names, and the status then says `partial` (see
/// [`analyzer::lexical::notes`]).
pub fn with_analysis_warnings(g: &FrozenGraph, mut analysis: Vec<String>, plan: &mut Plan) {
    analysis.append(&mut plan.warnings);
    plan.warnings = analysis;
    analyzer::lexical::notes::settle(g, plan);
}

/// The Understand step's output (paper Appendix D).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Understanding {
    /// Intent id, or null when no intent fits.
    #[serde(default)]
    pub intent: Option<String>,
    /// What the user asks for: concept ids, alias texts or field names.
    #[serde(default)]
    pub domain_concepts: Vec<String>,
    /// Parameters keyed by parameter concept (`formula`, `doi`, ...).
    #[serde(default)]
    pub parameters: BTreeMap<String, serde_json::Value>,
    /// Tools the user names (ids, titles or names); `tool/endpoint` (an endpoint id) pins the
    /// step to that endpoint.
    #[serde(default)]
    pub target_apis: Vec<String>,
    /// `experimental`, `calculated`, `literature`, ... or null.
    #[serde(default)]
    pub source_constraint: Option<String>,
    /// Field qualifiers the request names, keyed by qualifier key (`{"functional":
    /// "OptB88vdW"}`, `{"average": "Voigt"}`, `{"temperature": "300 K"}`); keys and values may
    /// be aliases. Ranking prefers tools whose fields carry them; fields that carry another
    /// value of the key are left out of the projection.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub qualifiers: BTreeMap<String, String>,
    /// Tools the user rules out ("not from Materials Project", "other than OQMD"): never
    /// planned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded_apis: Vec<String>,
    /// Numeric ranges the request puts on concepts, keyed by concept id (or alias or field
    /// name): "band gap between 2 and 3 eV" -> `{"band_gap": {"min": 2, "max": 3, "unit":
    /// "eV"}}`, "above 1.5 eV" -> `{"min": 1.5, ...}`. Algorithm 1 binds each bound to the
    /// endpoint parameter that filters that concept's field (`band_gap_min`, `minBandGap`,
    /// `band_gap[gte]`, or one whose description says "lower bound on band_gap"), converted to
    /// the field's unit; a range no parameter takes is named in a warning.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ranges: BTreeMap<String, ValueRange>,
    /// Why no intent applies when the request is out of scope (an action such as ordering or
    /// e-mailing, media, live data, weather, calendar); `intent` is then null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_scope: Option<String>,
}

/// A numeric range on one concept's value. At least one bound is set; a bound is sent as given
/// to the provider's filter (which decides whether it is inclusive).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValueRange {
    /// Lower bound, in `unit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// Upper bound, in `unit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// Unit of the bounds as written (`eV`, `meV`, `GPa`); `None` means the field's own unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}

/// Outcome of planning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlanStatus {
    /// Every requested concept is covered and every required parameter is bound.
    Planned,
    /// Steps exist, but some requested concepts (or named tools) are not covered.
    Partial,
    /// A planned step lacks a required parameter that could not be bound.
    MissingRequiredParameter,
    /// No intent and no named tool, or no candidate tool survived the filters.
    NoSuitableTool,
    /// The request names an intent, tool, concept, parameter or source type the artifact does
    /// not know (listed in `not_understood`, with a "did you mean"); any steps are planned from
    /// the rest of the request. Or it gives a parameter a value that the parameters it binds
    /// cannot take (a `parameter_value` entry: the value and the type expected); no step is
    /// planned then.
    NotUnderstood,
}

/// Why a field is in a plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FieldReason {
    /// Identifiers are always projected.
    Identifier,
    /// The field carries a requested concept.
    Concept {
        /// Concept id (or the requested text, for a direct field-name match).
        concept: String,
        /// The text the request used, when it differs from the concept id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        via: Option<String>,
        /// How the field matched.
        #[serde(rename = "match")]
        match_kind: MatchKindName,
    },
    /// The field is in one of the intent's required groups.
    Group {
        /// Group id.
        group: String,
    },
    /// The `core` projection's safety net for a value published in several ways: the field is a
    /// variant of a field projected for a requested concept (another averaging scheme, basis,
    /// method or correction of the same quantity: `shear_modulus.voigt` beside
    /// `shear_modulus.vrh`, `enthalpy_formation_cell` beside `enthalpy_formation_atom`), and the
    /// request names no qualifier that chooses between them.
    Variant {
        /// The projected field it is a variant of.
        of: String,
    },
    /// The `core` projection's safety net for a value read with another field: the description
    /// of a field projected for a requested concept names this one ("the estimator is in
    /// bulk_modulus[].type"), or the requested concept declares this field's concept among its
    /// `companions` (the number behind a yes/no: `is_stable` with `energy_above_hull`).
    Companion {
        /// The projected field it comes with.
        of: String,
    },
    /// The `core` projection's safety net for a question word that names a kind of field
    /// ("when was it measured": a date; "who": a person; "where": a place; "how many": a
    /// count), on a step that planned no field of that kind.
    Asked {
        /// The kind of field asked for: `date`, `person`, `place` or `count`.
        field_kind: String,
    },
    /// The projection variant `all` takes every field.
    AllFields,
    /// The field's name (or its description) holds words of the request: a plan made from the
    /// ranked endpoints ([`ranked`]) for a question no declared intent covers.
    Term {
        /// The request's words it holds.
        words: Vec<String>,
    },
    /// A field of a ranked endpoint's record that the request selects by its shape, not by its
    /// words: the number a count question asks for (`total`, `games_count`); each record's
    /// label (its name or title) beside the fields the request selects in a list of records;
    /// and, when nothing in the request selects a field, the record's label fields, or, when it
    /// has none and declares no group core, its whole record.
    Record,
}

/// Serializable match kind names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchKindName {
    /// Exact field-name match.
    Exact,
    /// Match through the alias layer.
    Alias,
    /// An alias that names this exact field.
    FieldAlias,
}

impl From<MatchKind> for MatchKindName {
    fn from(k: MatchKind) -> Self {
        match k {
            MatchKind::Exact => MatchKindName::Exact,
            MatchKind::Alias | MatchKind::Partial => MatchKindName::Alias,
        }
    }
}

/// Metadata attached to a planned field (paper: unit, source type, licence, provenance).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FieldMeta {
    /// Canonical unit of the field's values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub unit: Option<Arc<str>>,
    /// Dimension of the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub dimension: Option<Arc<str>>,
    /// The provider's own unit spelling, when different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub unit_as_published: Option<Arc<str>>,
    /// Multiply by this to get the matched concept's canonical unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factor_to_canonical: Option<f64>,
    /// Then add this, for an offset temperature scale (°C → K: +273.15); absent otherwise.
    /// A value converted so is an absolute temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_to_canonical: Option<f64>,
    /// The concept's canonical unit the factor converts to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub canonical_unit: Option<Arc<str>>,
    /// Effective source type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub source_type: Option<Arc<str>>,
    /// Effective licence (field override or tool licence), with attribution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub licence: Option<Arc<LicenceData>>,
    /// The tool's provenance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub provenance: Option<Arc<ProvenanceData>>,
}

/// A projected field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlannedField {
    /// The provider's JSON path.
    pub name: String,
    /// Whether it is an identifier.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub identifier: bool,
    /// Why it is projected.
    pub reasons: Vec<FieldReason>,
    /// Attached metadata (absent with `--no-metadata`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<FieldMeta>,
}

/// One call of the plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Step {
    /// Tool id.
    pub tool: String,
    /// Endpoint id.
    pub endpoint: String,
    /// HTTP method.
    pub method: String,
    /// URL.
    pub url: String,
    /// Where the records sit in the endpoint's response (`data[]`); absent means the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<String>,
    /// Bound parameters, in the tool's own names.
    pub params: BTreeMap<String, serde_json::Value>,
    /// For an MCP endpoint: the `tools/call` request parameters to send (`{"name": <MCP tool>,
    /// "arguments": <params>}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<McpCall>,
    /// Required parameters that could not be bound.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_required: Vec<String>,
    /// Credentials the client must supply (never bound from the query).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auth: Vec<String>,
    /// Understanding parameters this endpoint has no binding for (not invented, only reported).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unbound: Vec<String>,
    /// Projected fields, sorted by name.
    pub fields: Vec<PlannedField>,
    /// Concept-match score (exact 3, alias 2, partial 1 per concept; 0 for a step chosen by
    /// ranking, which has `rank_score`).
    pub score: u32,
    /// For a step chosen from the ranked endpoints (no declared intent covered the question):
    /// its adjusted BM25F score, the one its `why` states (rounded to thousandths).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_score: Option<f64>,
    /// Why this tool was chosen.
    pub why: String,
}

/// The `params` of an MCP `tools/call` request (MCP revision 2025-06-18, section "Calling
/// tools").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct McpCall {
    /// The MCP tool name.
    pub name: String,
    /// The arguments object: the bound parameters.
    pub arguments: BTreeMap<String, serde_json::Value>,
}

/// A named tool that is not planned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SkippedTool {
    /// The name as requested.
    pub requested: String,
    /// Why it is not in the plan.
    pub reason: String,
}

/// A requested qualifier that no field of the planned steps carries (Algorithm 1 then falls back
/// to the fields of the concept whatever their qualifier).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnmatchedQualifier {
    /// Qualifier key (canonical when the vocabulary knows it).
    pub key: String,
    /// Requested value (canonical when the vocabulary knows it).
    pub value: String,
    /// Why it is reported.
    pub reason: String,
}

/// How a parameter given several values (`formula: [GaN, AlN, InN]`) was planned on one tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MultiValueMode {
    /// One step per value: the tool's parameter takes one value.
    StepPerValue,
    /// One step with the list: the tool's parameter takes a list (declared `join` or an array
    /// type).
    List,
}

/// A parameter concept with several values, and how one tool receives them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MultiValue {
    /// Parameter concept (`formula`).
    pub concept: String,
    /// The values, in request order.
    pub values: Vec<serde_json::Value>,
    /// Tool id.
    pub tool: String,
    /// One step per value, or one step with the list.
    pub mode: MultiValueMode,
}

/// An executable plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Plan {
    /// Outcome.
    pub status: PlanStatus,
    /// The artifact's routing fingerprint (plans are valid for this schema only).
    pub routing_fingerprint: String,
    /// The intent used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intent: Option<String>,
    /// The source constraint applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_constraint: Option<String>,
    /// Calls to make.
    pub steps: Vec<Step>,
    /// Requested concepts no planned field covers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmatched_concepts: Vec<String>,
    /// Named tools that are unknown or excluded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_tools: Vec<SkippedTool>,
    /// Names in the Understanding the artifact does not know (see
    /// [`vocabulary::validate`]); set by [`route_checked`], empty from bare [`route`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_understood: Vec<NotUnderstood>,
    /// Tools the request rules out, with the reason ("not from Materials Project").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded_tools: Vec<SkippedTool>,
    /// Requested qualifiers no planned field carries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmatched_qualifiers: Vec<UnmatchedQualifier>,
    /// Parameters given several values, and per tool whether they became one step per value
    /// or one list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub multi_values: Vec<MultiValue>,
    /// Why the request is out of scope (from the Understanding); the plan is then empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_scope: Option<String>,
    /// Candidate tools that were not planned, best first (at most
    /// [`ranking::MAX_ALTERNATIVES`]), each with the reason it lost: the first ranking criterion
    /// of Algorithm 1 (line 5) on which it falls behind the last planned tool, or the filter
    /// that removed it (source constraint, destructive endpoints).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
    /// Notes from the Understand step and the router.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// A candidate tool Algorithm 1 did not plan, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Alternative {
    /// Tool id.
    pub tool: String,
    /// The endpoint it would have used (absent when a filter removed the tool before scoring).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// Its concept-match score (exact 3, alias 2, partial 1 per requested concept).
    pub score: u32,
    /// Why it lost ("its fields match the requested concepts less well (score 2 against 3 for
    /// `materials_project`)", "its source type is calculated and the request asks for
    /// experimental").
    pub reason: String,
}

impl Plan {
    /// An empty plan (status `planned`, no steps) for the artifact with `routing_fingerprint`.
    pub fn empty(routing_fingerprint: String) -> Plan {
        Plan {
            status: PlanStatus::Planned,
            routing_fingerprint,
            intent: None,
            source_constraint: None,
            steps: Vec::new(),
            unmatched_concepts: Vec::new(),
            skipped_tools: Vec::new(),
            not_understood: Vec::new(),
            excluded_tools: Vec::new(),
            unmatched_qualifiers: Vec::new(),
            multi_values: Vec::new(),
            out_of_scope: None,
            alternatives: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The set of (tool, endpoint) pairs.
    pub fn tool_endpoints(&self) -> Vec<(String, String)> {
        self.steps
            .iter()
            .map(|s| (s.tool.clone(), s.endpoint.clone()))
            .collect()
    }
}

/// JSON Schema of [`Understanding`] (pretty JSON with a final newline).
pub fn understanding_schema() -> String {
    let mut s =
        serde_json::to_string_pretty(&schemars::schema_for!(Understanding)).unwrap_or_default();
    s.push('\n');
    s
}

/// JSON Schema of [`Plan`] (pretty JSON with a final newline).
pub fn plan_schema() -> String {
    let mut s = serde_json::to_string_pretty(&schemars::schema_for!(Plan)).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod status_tests {
    use super::*;

    fn plan_with(missing: &[&str], auth: &[&str], unmatched: &[&str]) -> Plan {
        let step: Step = serde_json::from_value(serde_json::json!({
            "tool": "t", "endpoint": "e", "method": "GET", "url": "https://x.test/e",
            "params": {}, "missing_required": missing, "auth": auth, "fields": [],
            "score": 0, "why": ""
        }))
        .expect("step json");
        let mut plan = Plan::empty("f".into());
        plan.status = PlanStatus::MissingRequiredParameter;
        plan.steps.push(step);
        plan.unmatched_concepts = unmatched.iter().map(|c| c.to_string()).collect();
        plan
    }

    #[test]
    fn the_understanding_reports_the_parameters_the_steps_bind() {
        let mut plan = plan_with(&[], &[], &[]);
        plan.steps[0]
            .params
            .insert("city".into(), serde_json::json!("Lyon"));
        let mut second = plan.steps[0].clone();
        second.params = BTreeMap::from([
            ("city".to_string(), serde_json::json!("Paris")),
            ("days".to_string(), serde_json::json!(7)),
        ]);
        plan.steps.push(second);
        let mut u: Understanding = serde_json::from_value(serde_json::json!({
            "intent": null, "domain_concepts": [], "parameters": {"units": "metric"},
            "target_apis": [], "source_constraint": null
        }))
        .expect("understanding json");
        u = understood(&u, &plan);
        assert_eq!(
            u.parameters,
            BTreeMap::from([
                ("city".to_string(), serde_json::json!("Lyon")),
                ("days".to_string(), serde_json::json!(7)),
                ("units".to_string(), serde_json::json!("metric")),
            ])
        );
    }

    #[test]
    fn a_credential_alone_never_makes_a_plan_miss_a_parameter() {
        for (missing, auth, unmatched, want) in [
            (
                &[][..],
                &["Authorization"][..],
                &[][..],
                PlanStatus::Planned,
            ),
            (&[], &["x-api-key"], &["price"], PlanStatus::Partial),
            (
                &["id"],
                &["x-api-key"],
                &[],
                PlanStatus::MissingRequiredParameter,
            ),
            (&["id"], &[], &[], PlanStatus::MissingRequiredParameter),
        ] {
            let mut plan = plan_with(missing, auth, unmatched);
            settle_status(&mut plan);
            assert_eq!(plan.status, want, "{missing:?} {auth:?} {unmatched:?}");
        }
        // No step: the status stays what planning said.
        let mut plan = Plan::empty("f".into());
        plan.status = PlanStatus::MissingRequiredParameter;
        settle_status(&mut plan);
        assert_eq!(plan.status, PlanStatus::MissingRequiredParameter);
    }
}
