//! Bindings between the steps of `ask`: a later step's parameter that the plan could not bind
//! is filled from an earlier step's projected records when the parameter declares a binding to
//! a concept that one of those records' fields carries (the first record's value; a binding's
//! fixed companion parameters are set too).

use schemarouter_core::artifact::FrozenGraph;
use schemarouter_core::extract::StepResult;
use schemarouter_core::route::Step;

/// Fill `step`'s missing parameters from `earlier`; says what was filled.
pub fn fill(g: &FrozenGraph, earlier: &[StepResult], step: &mut Step) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(e) = schemarouter_core::extract::endpoint(g, step) else {
        return notes;
    };
    let missing: Vec<String> = e
        .parameters
        .iter()
        .filter(|p| !p.auth && !step.params.contains_key(&p.name))
        .filter(|p| p.required || step.missing_required.contains(&p.name))
        .map(|p| p.name.clone())
        .collect();
    for name in missing {
        let Some(p) = e.parameters.iter().find(|p| p.name == name) else {
            continue;
        };
        'bindings: for b in &p.bind {
            for r in earlier {
                let Some(prev) = g
                    .tool(&r.tool)
                    .and_then(|(_, t)| t.endpoints.iter().find(|x| x.id == r.endpoint))
                else {
                    continue;
                };
                for f in prev
                    .fields
                    .iter()
                    .filter(|f| f.concepts.contains(&b.concept))
                {
                    let value = r
                        .records
                        .iter()
                        .find_map(|rec| rec.values.get(&f.name))
                        .or_else(|| r.envelope.get(&f.name));
                    if let Some(v) = value {
                        step.params.insert(name.clone(), v.clone());
                        for (k, fixed) in &b.set {
                            step.params
                                .entry(k.clone())
                                .or_insert_with(|| serde_json::to_value(fixed).unwrap_or_default());
                        }
                        step.missing_required.retain(|m| m != &name);
                        notes.push(format!(
                            "{}/{}.{} = {}/{}.{} (concept {})",
                            step.tool, step.endpoint, name, r.tool, r.endpoint, f.name, b.concept
                        ));
                        break 'bindings;
                    }
                }
            }
        }
    }
    if let Some(c) = &mut step.call {
        c.arguments = step.params.clone();
    }
    notes
}

/// Whether every required parameter of `step` (not a credential, without a default) has a value.
pub fn ready(g: &FrozenGraph, step: &Step) -> bool {
    let Some(e) = schemarouter_core::extract::endpoint(g, step) else {
        return true;
    };
    e.parameters
        .iter()
        .filter(|p| p.required && !p.auth && p.default.is_none())
        .all(|p| step.params.contains_key(&p.name))
}
