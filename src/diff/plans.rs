//! Plan impact: route a list of understandings on both sides (default router options, names
//! checked against each side's vocabulary as the CLI and the servers do) and report
//! the plans whose status, steps, projected fields or bound parameters differ.
//!
//! Input (`--plans FILE`): a benchmark YAML (`queries: [{id, understanding, ...}]`, the format of
//! the routing benchmark), a JSON or YAML list of Understanding objects (ids `#1`, `#2`, ...),
//! a list of `{id, understanding}` objects, or a single Understanding.

use crate::artifact::FrozenGraph;
use crate::route::{self, Options, Plan, PlanStatus, Understanding};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One understanding to route.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanInput {
    /// Query id from the benchmark, or `#<n>` (1-based position).
    pub id: String,
    /// What to route.
    pub understanding: Understanding,
}

/// A bound parameter whose value differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParamChange {
    /// `tool/endpoint`.
    pub step: String,
    /// The tool's parameter name.
    pub name: String,
    /// Old bound value (null when not bound).
    pub old: Option<Value>,
    /// New bound value (null when not bound).
    pub new: Option<Value>,
}

/// How one plan changes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanChange {
    /// Query id.
    pub id: String,
    /// Status on the old side.
    pub old_status: PlanStatus,
    /// Status on the new side.
    pub new_status: PlanStatus,
    /// Steps (`tool/endpoint`) only the old plan has.
    pub steps_removed: Vec<String>,
    /// Steps only the new plan has.
    pub steps_added: Vec<String>,
    /// Projected fields (`tool/endpoint/field`) of common steps that the new plan drops.
    pub fields_removed: Vec<String>,
    /// Projected fields of common steps that the new plan adds.
    pub fields_added: Vec<String>,
    /// Parameters of common steps bound differently.
    pub params_changed: Vec<ParamChange>,
}

impl PlanChange {
    /// A one-line summary (`status planned -> partial; -1 step; +2 fields`).
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if self.old_status != self.new_status {
            parts.push(format!(
                "status {} -> {}",
                status_name(self.old_status),
                status_name(self.new_status)
            ));
        }
        for s in &self.steps_removed {
            parts.push(format!("-step {s}"));
        }
        for s in &self.steps_added {
            parts.push(format!("+step {s}"));
        }
        for s in &self.fields_removed {
            parts.push(format!("-field {s}"));
        }
        for s in &self.fields_added {
            parts.push(format!("+field {s}"));
        }
        for p in &self.params_changed {
            parts.push(format!(
                "param {}/{}: {} -> {}",
                p.step,
                p.name,
                show(p.old.as_ref()),
                show(p.new.as_ref())
            ));
        }
        parts.join("; ")
    }
}

fn show(v: Option<&Value>) -> String {
    match v {
        None => "unbound".to_string(),
        Some(v) => serde_json::to_string(v).unwrap_or_default(),
    }
}

/// The snake_case name of a plan status.
pub fn status_name(s: PlanStatus) -> String {
    serde_json::to_value(s)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The plan impact of a diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanImpact {
    /// How many understandings were routed.
    pub total: usize,
    /// The plans that change, in input order.
    pub changed: Vec<PlanChange>,
}

/// Read understandings from a benchmark YAML or a JSON/YAML list.
///
/// Errors: an unreadable file, text that is neither JSON nor YAML, or entries that are not
/// Understanding objects (the message names the entry).
pub fn read_plans(path: &Path) -> Result<Vec<PlanInput>, String> {
    let text = schemarouter_core::input::read_file_to_string_limited(
        path,
        schemarouter_core::input::MAX_INPUT_BYTES,
    )
    .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    parse_plans(&text).map_err(|e| format!("`{}`: {e}", path.display()))
}

/// YAML text read by the loader's front end (granit-parser events, its budgets) and its strict
/// tree reader, as a JSON value. Errors: the loader's message, at `line L, column C`.
fn read_yaml(text: &str) -> Result<Value, String> {
    let file = crate::source::SourceFile::new("", "", text.to_string());
    let at = |span: Option<crate::source::Span>| match span {
        Some(s) => {
            let (line, column) = file.line_col(s.start as usize);
            format!("line {line}, column {column}: ")
        }
        None => String::new(),
    };
    let limits = crate::model::config::Limits::default();
    let node = crate::load::yaml::parse(text, &limits).map_err(|e| {
        let d = e.to_diagnostic(crate::source::FileId(0), crate::source::Format::Yaml);
        format!("{}{}", at(d.primary.map(|l| l.span)), d.message)
    })?;
    crate::load::de::from_node::<Value>(&node).map_err(|e| format!("{}{}", at(e.span), e.message))
}

/// Parse understandings (see [`read_plans`]).
pub fn parse_plans(text: &str) -> Result<Vec<PlanInput>, String> {
    let doc: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) => read_yaml(text).map_err(|e| format!("not JSON or YAML: {e}"))?,
    };
    let items: Vec<Value> = match doc {
        Value::Array(items) => items,
        Value::Object(mut m) => match m.remove("queries") {
            Some(Value::Array(items)) => items,
            Some(_) => return Err("`queries` is not a list".to_string()),
            None => vec![Value::Object(m)],
        },
        _ => return Err("expected a benchmark, a list of understandings or one".to_string()),
    };
    let mut out = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let fallback = format!("#{}", i + 1);
        let (id, u) = match item {
            Value::Object(mut m) if m.contains_key("understanding") => {
                let id = match m.get("id") {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) if !v.is_null() => v.to_string(),
                    _ => fallback,
                };
                (id, m.remove("understanding").unwrap_or_default())
            }
            other => (fallback, other),
        };
        let understanding: Understanding = serde_json::from_value(u)
            .map_err(|e| format!("entry `{id}` is not a valid Understanding: {e}"))?;
        out.push(PlanInput { id, understanding });
    }
    Ok(out)
}

type StepKey = (String, String);

fn steps(p: &Plan) -> BTreeMap<StepKey, &route::Step> {
    let mut m = BTreeMap::new();
    for s in &p.steps {
        m.entry((s.tool.clone(), s.endpoint.clone())).or_insert(s);
    }
    m
}

/// Compare two plans of the same understanding; `None` when they agree on status, steps,
/// projected fields and bound parameters.
pub fn compare_plans(id: &str, old: &Plan, new: &Plan) -> Option<PlanChange> {
    let os = steps(old);
    let ns = steps(new);
    let name = |k: &StepKey| format!("{}/{}", k.0, k.1);
    let mut c = PlanChange {
        id: id.to_string(),
        old_status: old.status,
        new_status: new.status,
        steps_removed: os
            .keys()
            .filter(|k| !ns.contains_key(*k))
            .map(name)
            .collect(),
        steps_added: ns
            .keys()
            .filter(|k| !os.contains_key(*k))
            .map(name)
            .collect(),
        fields_removed: Vec::new(),
        fields_added: Vec::new(),
        params_changed: Vec::new(),
    };
    for (k, o) in &os {
        let Some(n) = ns.get(k) else { continue };
        let step = name(k);
        let of: BTreeSet<&str> = o.fields.iter().map(|f| f.name.as_str()).collect();
        let nf: BTreeSet<&str> = n.fields.iter().map(|f| f.name.as_str()).collect();
        c.fields_removed
            .extend(of.difference(&nf).map(|f| format!("{step}/{f}")));
        c.fields_added
            .extend(nf.difference(&of).map(|f| format!("{step}/{f}")));
        let names: BTreeSet<&String> = o.params.keys().chain(n.params.keys()).collect();
        for p in names {
            let (a, b) = (o.params.get(p), n.params.get(p));
            if a != b {
                c.params_changed.push(ParamChange {
                    step: step.clone(),
                    name: p.clone(),
                    old: a.cloned(),
                    new: b.cloned(),
                });
            }
        }
    }
    let same = c.old_status == c.new_status
        && c.steps_removed.is_empty()
        && c.steps_added.is_empty()
        && c.fields_removed.is_empty()
        && c.fields_added.is_empty()
        && c.params_changed.is_empty();
    if same { None } else { Some(c) }
}

/// Route every input on both graphs with the default options and collect the plans that change.
/// Plans are made as the CLI and the servers make them (`route_checked`): a name one side does
/// not know (an intent or concept renamed away) gives that side's plan the `not_understood`
/// status.
pub fn plan_impact(old: &FrozenGraph, new: &FrozenGraph, inputs: &[PlanInput]) -> PlanImpact {
    let opts = Options::default();
    let changed = inputs
        .iter()
        .filter_map(|i| {
            let a = route::route_checked(old, &i.understanding, &opts);
            let b = route::route_checked(new, &i.understanding, &opts);
            compare_plans(&i.id, &a, &b)
        })
        .collect();
    PlanImpact {
        total: inputs.len(),
        changed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_benchmarks_and_lists() {
        let bench = "version: 1\nqueries:\n  - id: q1\n    query: x\n    understanding:\n      intent: electronic_property\n      domain_concepts: [band_gap]\n      parameters: {formula: GaAs}\n    gold: []\n";
        let p = parse_plans(bench).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].id, "q1");
        assert_eq!(p[0].understanding.domain_concepts, vec!["band_gap"]);
        let list =
            r#"[{"intent": "x", "domain_concepts": ["a"]}, {"id": "named", "understanding": {}}]"#;
        let p = parse_plans(list).unwrap();
        assert_eq!(p[0].id, "#1");
        assert_eq!(p[1].id, "named");
        assert!(parse_plans(r#"[{"nope": 1}]"#).is_err());
    }

    #[test]
    fn broken_yaml_is_placed_by_the_loaders_front_end() {
        assert_eq!(
            parse_plans("queries:\n  - id: a\n    id: b\n").unwrap_err(),
            "not JSON or YAML: line 3, column 5: duplicate key `id`"
        );
        assert_eq!(
            parse_plans("queries: [\n").unwrap_err(),
            "not JSON or YAML: line 1, column 10: invalid YAML: unclosed bracket '['"
        );
    }
}
