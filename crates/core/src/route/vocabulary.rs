//! Understanding validation: every name an [`Understanding`] uses (intent, tools, concepts,
//! parameter concepts, source constraint) is checked against the artifact's vocabulary, whichever
//! Understand step wrote it (`--understanding`, an LLM or the lexical analyzer).
//!
//! A name the artifact does not know is a [`NotUnderstood`] entry with a "did you mean" drawn from
//! the artifact's own ids and aliases, and the plan's status becomes
//! [`super::PlanStatus::NotUnderstood`]: a plan never says `planned`
//! while part of the request was dropped. A known parameter concept that no planned step binds
//! turns a `planned` plan `partial`, with a warning naming it.
//!
//! Values are held to the declared types as a strict API gateway holds them: a parameter value
//! that a parameter it binds cannot take (after the binding's template: `lots` for an `integer`,
//! `2.5` for an `integer`, a text outside an enum, a number beyond `maximum`, a text that misses
//! the declared `pattern`) is refused, never planned as if valid: a `parameter_value` entry
//! naming the parameter, the value and the type expected, and the status `not_understood`. The
//! check is the binding's own ([`super::bind::render_for`]). A value is refused when no
//! parameter it binds anywhere takes it, and when a planned step's endpoint binds it but cannot
//! take it (the step would be sent without it). A refused request plans no step (a strict
//! gateway answers an invalid parameter with an error, not with a call that leaves the
//! parameter out): fix the value and route again.
//!
//! A value is also held to what its key means, not only to the parameter it lands in: a
//! parameter concept declares a value type when it is one of the years every project's
//! Understand step reads (`year_from`, `year_to`), when a recogniser of kind `year` feeds it
//! (a year of four digits), or when every recogniser that feeds it reads whole numbers
//! (`value: integer`). A `year_from` of `banana`, which the template `from-pub-date:{value}`
//! would turn into a text the `string` parameter `filter` takes, is refused as not a year.

use super::algorithm::canonical_source_type;
use super::{Options, Plan, PlanStatus, Understanding};
use crate::artifact::FrozenGraph;
use crate::model::normalise_alias;
use crate::model::value::did_you_mean;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which part of an Understanding a name came from.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum NameKind {
    /// `intent`.
    Intent,
    /// An entry of `target_apis`.
    Tool,
    /// An entry of `domain_concepts`.
    Concept,
    /// A key of `parameters`.
    Parameter,
    /// `source_constraint`.
    SourceConstraint,
    /// The value of a key of `parameters` (the key is known; its value fits no parameter it
    /// binds).
    ParameterValue,
}

impl NameKind {
    /// The word used in messages (`intent`, `tool`, `concept`, `parameter`, `source type`).
    pub fn word(self) -> &'static str {
        match self {
            NameKind::Intent => "intent",
            NameKind::Tool => "tool",
            NameKind::Concept => "concept",
            NameKind::Parameter => "parameter",
            NameKind::SourceConstraint => "source type",
            NameKind::ParameterValue => "parameter value",
        }
    }
}

/// A name in the Understanding that the artifact does not know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NotUnderstood {
    /// Where the name was used.
    pub kind: NameKind,
    /// The name as given.
    pub name: String,
    /// The closest name of the same kind in the artifact, when one is close enough.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did_you_mean: Option<String>,
    /// For a `parameter_value`: the value given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// For a `parameter_value`: the declared types of the parameters the key binds
    /// (`integer`, `integer or number`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// For a `parameter_value`: why the first parameter it binds refuses the value ("`lots` is
    /// not an integer for `per-page` of openalex/works").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl NotUnderstood {
    /// One line: "unknown parameter `formla` (did you mean `formula`?)"; for a value, "invalid
    /// value `lots` for parameter `max_results`: expected integer (`lots` is not an integer for
    /// `per-page` of openalex/works)".
    pub fn message(&self) -> String {
        if self.kind == NameKind::ParameterValue {
            let mut s = format!(
                "invalid value `{}` for parameter `{}`: expected {}",
                self.value
                    .as_ref()
                    .map(super::bind::value_text)
                    .unwrap_or_default(),
                self.name,
                self.expected.as_deref().unwrap_or("another value")
            );
            if let Some(r) = &self.reason {
                s.push_str(&format!(" ({r})"));
            }
            return s;
        }
        let mut s = format!("unknown {} `{}`", self.kind.word(), self.name);
        match &self.did_you_mean {
            Some(c) => s.push_str(&format!(" (did you mean `{c}`?)")),
            None => s.push_str(" (no close match in the artifact)"),
        }
        s
    }
}

/// How many unknown names of one Understanding get a "did you mean" ([`validate`]); later ones
/// are reported without one (their message reads "no close match"): a bound on the work one
/// request can cause (each suggestion scans the vocabulary).
pub const MAX_SUGGESTIONS: usize = 16;

/// Every name in `u` that `g` does not know, in Understanding order (intent, tools, concepts,
/// parameters, source constraint); the first [`MAX_SUGGESTIONS`] unknown names carry a "did
/// you mean". A concept counts as known when it is a concept id, an alias
/// or a response field name (as Algorithm 1 resolves it); a parameter when it is a parameter
/// concept or an alias of one; a source constraint when it is a source type or one of its
/// standard synonyms. Null parameter values and blank source constraints mean "none" and are
/// not checked.
pub fn validate(g: &FrozenGraph, u: &Understanding) -> Vec<NotUnderstood> {
    let mut out = Vec::new();
    // "Did you mean" scans the whole vocabulary for each unknown name: only the first few
    // unknown names get one, so an Understanding of thousands of made-up names (a model run
    // wild, or a crafted request to a server) costs milliseconds, not seconds.
    let budget = std::cell::Cell::new(MAX_SUGGESTIONS);
    let suggest = |f: &dyn Fn() -> Option<String>| {
        if budget.get() == 0 {
            return None;
        }
        budget.set(budget.get() - 1);
        f()
    };
    if let Some(i) = &u.intent
        && g.intent(i).is_none()
    {
        out.push(NotUnderstood {
            kind: NameKind::Intent,
            name: i.clone(),
            did_you_mean: suggest(&|| {
                did_you_mean(i, g.intents.iter().map(|i| i.id.as_str())).map(str::to_string)
            }),
            value: None,
            expected: None,
            reason: None,
        });
    }
    for t in &u.target_apis {
        if super::algorithm::resolve_target(g, t).is_none() {
            let near = suggest(&|| {
                did_you_mean(
                    &normalise_alias(t),
                    g.index.tool_names.keys().map(String::as_str),
                )
                .and_then(|k| g.index.tool_names.get(k))
                .map(|i| g.tool_at(*i).id.clone())
            });
            out.push(NotUnderstood {
                kind: NameKind::Tool,
                name: t.clone(),
                did_you_mean: near,
                value: None,
                expected: None,
                reason: None,
            });
        }
    }
    let mut seen = std::collections::HashSet::new();
    for c in &u.domain_concepts {
        let key = normalise_alias(c);
        if !seen.insert(key.clone()) {
            continue;
        }
        let known = !key.is_empty()
            && (g.index.alias_to_concept.contains_key(&key)
                || g.index.alias_to_field.contains_key(&key)
                || g.index.field_names.contains_key(&key));
        if !known {
            let near = suggest(&|| {
                did_you_mean(
                    &key,
                    g.index
                        .alias_to_concept
                        .keys()
                        .chain(g.index.alias_to_field.keys())
                        .map(String::as_str),
                )
                .map(str::to_string)
            });
            out.push(NotUnderstood {
                kind: NameKind::Concept,
                name: c.clone(),
                did_you_mean: near,
                value: None,
                expected: None,
                reason: None,
            });
        }
    }
    // A named tool's own parameter names are known too (an imported endpoint's `author`,
    // bound by name when no binding declares it).
    let named_params = |k: &str| {
        u.target_apis.iter().any(|t| {
            super::algorithm::resolve_target(g, t).is_some_and(|(ti, _)| {
                g.tool_at(ti)
                    .endpoints
                    .iter()
                    .any(|e| e.parameters.iter().any(|p| p.name == k && !p.auth))
            })
        })
    };
    for (k, v) in &u.parameters {
        if v.is_null() || parameter_concepts(g, k).next().is_some() || named_params(k) {
            continue;
        }
        let key = normalise_alias(k);
        let near = suggest(&|| {
            did_you_mean(&key, g.index.param_postings.keys().map(String::as_str))
                .or_else(|| {
                    did_you_mean(
                        &key,
                        g.index
                            .alias_to_concept
                            .iter()
                            .filter(|(_, ids)| {
                                ids.iter().any(|id| g.index.param_postings.contains_key(id))
                            })
                            .map(|(a, _)| a.as_str()),
                    )
                })
                .map(str::to_string)
        });
        out.push(NotUnderstood {
            kind: NameKind::Parameter,
            name: k.clone(),
            did_you_mean: near,
            value: None,
            expected: None,
            reason: None,
        });
    }
    if let Some(s) = &u.source_constraint
        && !s.trim().is_empty()
        && canonical_source_type(s, &g.source_types).is_none()
    {
        out.push(NotUnderstood {
            kind: NameKind::SourceConstraint,
            name: s.clone(),
            did_you_mean: suggest(&|| {
                did_you_mean(s.trim(), g.source_types.iter().map(String::as_str))
                    .map(str::to_string)
            }),
            value: None,
            expected: None,
            reason: None,
        });
    }
    for (k, v) in &u.parameters {
        if let Some(n) = refused_value(g, k, v, None) {
            out.push(n);
        }
    }
    out
}

/// Whether a plan refuses a value of its Understanding (a `parameter_value` entry).
pub fn refuses_a_value(plan: &Plan) -> bool {
    plan.not_understood
        .iter()
        .any(|n| n.kind == NameKind::ParameterValue)
}

/// Refuse the values of `u` that a step planned after [`route_checked`] (a plan from the ranked
/// endpoints, a step added for a named tool) cannot take: their `parameter_value` entries are
/// added (see [`refused_in_steps`]), their messages lead the warnings, and the status becomes
/// `not_understood`.
pub fn refuse_values(g: &FrozenGraph, u: &Understanding, plan: &mut Plan) {
    let refused = refused_in_steps(g, u, plan, &plan.not_understood);
    if refused.is_empty() {
        if refuses_a_value(plan) {
            plan.steps.clear();
        }
        return;
    }
    let mut notes: Vec<String> = refused.iter().map(NotUnderstood::message).collect();
    notes.append(&mut plan.warnings);
    plan.warnings = notes;
    plan.status = PlanStatus::NotUnderstood;
    plan.steps.clear();
    plan.not_understood.extend(refused);
}

/// The `parameter_value` entries of a plan's steps: a value given for a parameter key that a
/// planned step's endpoint binds but cannot take (see `refused_value`), once per key, for
/// keys not already in `known`. The step would otherwise be sent without the value asked for.
pub fn refused_in_steps(
    g: &FrozenGraph,
    u: &Understanding,
    plan: &Plan,
    known: &[NotUnderstood],
) -> Vec<NotUnderstood> {
    let mut out: Vec<NotUnderstood> = Vec::new();
    for step in &plan.steps {
        let Some((ti, t)) = g.tool(&step.tool) else {
            continue;
        };
        let Some(ei) = t.endpoints.iter().position(|e| e.id == step.endpoint) else {
            continue;
        };
        for (k, v) in &u.parameters {
            let said = |n: &NotUnderstood| {
                &n.name == k && matches!(n.kind, NameKind::Parameter | NameKind::ParameterValue)
            };
            if known.iter().any(said) || out.iter().any(said) {
                continue;
            }
            if let Some(n) = refused_value(g, k, v, Some((ti as u32, ei as u32))) {
                out.push(n);
            }
        }
    }
    out
}

/// The `parameter_value` entry for the value `v` of the known parameter key `k` when no
/// parameter that `k` binds (through the artifact's postings; on endpoint `on` only, `(tool,
/// endpoint)`, when given) can take it: rendered through each
/// binding's template and typed as [`super::bind::render_for`] types it (each item of a list on
/// its own where the parameter takes one value: a list becomes one step per value); or, when
/// some parameter takes it, when a parameter concept `k` stands for declares a value type it is
/// not of ([`refused_by_concept`]). `None` otherwise, when `k` binds no parameter through a
/// concept (an unknown key, or a named tool's own parameter), and for values that are no scalar
/// or list of scalars (those are not bound at all, with a warning).
fn refused_value(
    g: &FrozenGraph,
    k: &str,
    v: &serde_json::Value,
    on: Option<(u32, u32)>,
) -> Option<NotUnderstood> {
    let scalar = |v: &serde_json::Value| v.is_string() || v.is_number() || v.is_boolean();
    let usable = scalar(v)
        || v.as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(scalar));
    if !usable {
        return None;
    }
    refused_by_parameters(g, k, v, on).or_else(|| refused_by_concept(g, k, v))
}

/// The `parameter_value` entry of [`refused_value`] from the parameters `k` binds alone.
fn refused_by_parameters(
    g: &FrozenGraph,
    k: &str,
    v: &serde_json::Value,
    on: Option<(u32, u32)>,
) -> Option<NotUnderstood> {
    use super::bind;
    let mut types: Vec<&str> = Vec::new();
    let mut first: Option<String> = None;
    for id in parameter_concepts(g, k) {
        for p in g.index.param_postings.get(id).into_iter().flatten() {
            if on.is_some_and(|on| on != (p.tool, p.endpoint)) {
                continue;
            }
            let (t, e) = (g.tool_at(p.tool), g.tool_at(p.tool).endpoint_at(p.endpoint));
            let param = e.parameter_at(p.parameter);
            let items: Vec<&serde_json::Value> = match v.as_array() {
                Some(a) if !bind::is_array(param) => a.iter().collect(),
                _ => vec![v],
            };
            for b in param.bind.iter().filter(|b| b.concept == id) {
                let refused = items
                    .iter()
                    .find_map(|it| bind::render_for(param, b.template.as_ref(), it).err());
                match refused {
                    None => return None,
                    Some(why) => {
                        if !types.contains(&param.ty.as_str()) {
                            types.push(param.ty.as_str());
                        }
                        first.get_or_insert_with(|| format!("{why} of {}/{}", t.id, e.id));
                    }
                }
            }
        }
    }
    let reason = first?;
    Some(NotUnderstood {
        kind: NameKind::ParameterValue,
        name: k.to_string(),
        did_you_mean: None,
        value: Some(v.clone()),
        expected: Some(types.join(" or ")),
        reason: Some(reason),
    })
}

/// Parameter concepts whose values are years for every project: the Understand step reads
/// them as years of four digits ("since 2020", "2019-21"; `analyzer::params::generic`).
const YEAR_CONCEPTS: &[&str] = &["year_from", "year_to"];

/// The value type declared for a parameter concept apart from the parameters it lands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DeclaredValue {
    /// A year of four digits (1000 to 9999): [`YEAR_CONCEPTS`], and a concept a recogniser of
    /// kind `year` feeds.
    Year,
    /// A whole number: a concept every recogniser of which reads whole numbers
    /// (`value: integer`).
    Integer,
}

impl DeclaredValue {
    /// The word of `expected` (`year`, `integer`).
    fn word(self) -> &'static str {
        match self {
            DeclaredValue::Year => "year",
            DeclaredValue::Integer => "integer",
        }
    }

    /// Whether the scalar `v` is of this type (a text is read as a number when it is one).
    fn admits(self, v: &serde_json::Value) -> bool {
        let n = match v {
            serde_json::Value::Number(n) => n.as_i64(),
            serde_json::Value::String(s) => s.trim().parse::<i64>().ok(),
            _ => None,
        };
        match (self, n) {
            (_, None) => false,
            (DeclaredValue::Year, Some(y)) => (1000..=9999).contains(&y),
            (DeclaredValue::Integer, Some(_)) => true,
        }
    }
}

/// The value type declared for the parameter concept `id` (see [`DeclaredValue`]); `None` when
/// nothing declares one (any scalar is then held only to the parameters it lands in).
fn declared_value(g: &FrozenGraph, id: &str) -> Option<DeclaredValue> {
    if YEAR_CONCEPTS.contains(&id) {
        return Some(DeclaredValue::Year);
    }
    let fed: Vec<_> = g
        .lexicon
        .recognisers
        .iter()
        .filter(|r| r.concept == id)
        .collect();
    if fed.iter().any(|r| r.kind == "year") {
        Some(DeclaredValue::Year)
    } else if !fed.is_empty() && fed.iter().all(|r| r.integer) {
        Some(DeclaredValue::Integer)
    } else {
        None
    }
}

/// The `parameter_value` entry for the value `v` of the parameter key `k` when a parameter
/// concept `k` stands for declares a value type ([`declared_value`]) that `v` (each item of a
/// list) is not of: the value is judged by what the Understanding's key means, not only by
/// the parameter it lands in (a `year_from` of `banana` becomes `from-pub-date:banana`, a text
/// the `string` parameter `filter` takes).
fn refused_by_concept(g: &FrozenGraph, k: &str, v: &serde_json::Value) -> Option<NotUnderstood> {
    let items: Vec<&serde_json::Value> = match v.as_array() {
        Some(a) => a.iter().collect(),
        None => vec![v],
    };
    for id in parameter_concepts(g, k) {
        let Some(ty) = declared_value(g, id) else {
            continue;
        };
        let Some(bad) = items.iter().find(|it| !ty.admits(it)) else {
            continue;
        };
        let what = match ty {
            DeclaredValue::Year => "a four-digit year",
            DeclaredValue::Integer => "a whole number",
        };
        return Some(NotUnderstood {
            kind: NameKind::ParameterValue,
            name: k.to_string(),
            did_you_mean: None,
            value: Some(v.clone()),
            expected: Some(ty.word().to_string()),
            reason: Some(format!(
                "`{}` is not {what}, which the parameter concept `{id}` takes",
                super::bind::value_text(bad)
            )),
        });
    }
    None
}

/// The parameter concepts a parameter key stands for: itself when parameters bind from it, and
/// the concepts it is an alias of that parameters bind from.
fn parameter_concepts<'g>(g: &'g FrozenGraph, key: &str) -> impl Iterator<Item = &'g str> {
    let own = g
        .index
        .param_postings
        .get_key_value(key)
        .map(|(k, _)| k.as_str());
    let via = g
        .index
        .alias_to_concept
        .get(&normalise_alias(key))
        .into_iter()
        .flatten()
        .filter(|id| g.index.param_postings.contains_key(id))
        .map(String::as_str);
    own.into_iter().chain(via)
}

/// Record `not_understood` on a plan Algorithm 1 made from `u`: the entries are attached, their
/// messages lead the warnings, and the status becomes `not_understood` when there are any. A
/// known parameter that no step binds makes a `planned` plan `partial`.
pub fn mark(plan: &mut Plan, u: &Understanding, not_understood: Vec<NotUnderstood>) {
    let mut notes: Vec<String> = not_understood.iter().map(NotUnderstood::message).collect();
    let unknown_params: Vec<&str> = not_understood
        .iter()
        .filter(|n| matches!(n.kind, NameKind::Parameter | NameKind::ParameterValue))
        .map(|n| n.name.as_str())
        .collect();
    let mut unused = Vec::new();
    if !plan.steps.is_empty() {
        for (k, v) in &u.parameters {
            if v.is_null() || unknown_params.contains(&k.as_str()) {
                continue;
            }
            if plan.steps.iter().all(|s| s.unbound.contains(k)) {
                unused.push(k.clone());
                notes.push(format!(
                    "parameter `{k}` is not bound by any planned step (no planned endpoint takes it)"
                ));
            }
        }
    }
    // Algorithm 1's own notes about the same names say less; the entries above replace them.
    let said: Vec<String> = not_understood
        .iter()
        .map(|n| match n.kind {
            NameKind::Intent => format!("unknown intent `{}` ignored", n.name),
            NameKind::Concept => format!("`{}` is not a known concept, alias or field", n.name),
            NameKind::SourceConstraint => {
                format!(
                    "unknown source constraint `{}`: no tool can satisfy it",
                    n.name
                )
            }
            NameKind::Tool | NameKind::Parameter | NameKind::ParameterValue => String::new(),
        })
        .collect();
    notes.extend(plan.warnings.drain(..).filter(|w| !said.contains(w)));
    plan.warnings = notes;
    for s in &mut plan.skipped_tools {
        if let Some(n) = not_understood
            .iter()
            .find(|n| n.kind == NameKind::Tool && n.name == s.requested)
            && let Some(c) = &n.did_you_mean
        {
            s.reason.push_str(&format!("; did you mean `{c}`?"));
        }
    }
    if !not_understood.is_empty() {
        plan.status = PlanStatus::NotUnderstood;
        if not_understood
            .iter()
            .any(|n| n.kind == NameKind::ParameterValue)
        {
            plan.steps.clear();
        }
    } else if !unused.is_empty() && plan.status == PlanStatus::Planned {
        plan.status = PlanStatus::Partial;
    }
    plan.not_understood = not_understood;
}

/// Algorithm 1 on a checked Understanding: [`validate`], [`route`](super::route), [`mark`]. Every
/// front end that plans a request from outside (the CLI, the Python binding) goes through this.
pub fn route_checked(g: &FrozenGraph, u: &Understanding, opts: &Options) -> Plan {
    let mut not_understood = validate(g, u);
    let mut plan = super::route(g, u, opts);
    let refused = refused_in_steps(g, u, &plan, &not_understood);
    not_understood.extend(refused);
    mark(&mut plan, u, not_understood);
    plan
}
