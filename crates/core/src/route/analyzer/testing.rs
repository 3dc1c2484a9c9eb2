//! Helpers of the passes' phrasing tests: the shipped project's committed artifact and the
//! Understanding the analyzer gives for a question over it.

use super::lexical::Lexical;
use crate::artifact::FrozenGraph;
use crate::route::Understanding;
use std::sync::OnceLock;

/// The shipped project's committed artifact (kept current by `compile --check` in CI).
pub(crate) fn shipped() -> &'static FrozenGraph {
    static G: OnceLock<FrozenGraph> = OnceLock::new();
    G.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json");
        crate::artifact::io::load(&path).expect("the committed build/graph.json loads")
    })
}

/// The Understanding of `q` over the shipped artifact.
pub(crate) fn understand(q: &str) -> Understanding {
    Lexical::new(shipped()).analyse(q).understanding
}

/// An Understanding from its JSON.
pub(crate) fn want(v: serde_json::Value) -> Understanding {
    serde_json::from_value(v).expect("an Understanding")
}

/// The non-identifier fields of each step the default options plan for `q` over the shipped
/// artifact, with the step's tool.
pub(crate) fn planned_fields(q: &str) -> Vec<(String, Vec<String>)> {
    let g = shipped();
    let u = understand(q);
    let plan = crate::route::route_question(g, q, &u, &crate::route::Options::default());
    step_fields(&plan)
}

/// The non-identifier fields of each step the default options plan for the Understanding `u`
/// (its JSON) over the shipped artifact, with the step's tool (`q` is the question's text, read
/// only by the passes over the question's words).
pub(crate) fn planned_for(q: &str, u: serde_json::Value) -> Vec<(String, Vec<String>)> {
    let g = shipped();
    let plan = crate::route::route_question(g, q, &want(u), &crate::route::Options::default());
    step_fields(&plan)
}

/// Each step's tool and its non-identifier fields.
fn step_fields(plan: &crate::route::Plan) -> Vec<(String, Vec<String>)> {
    plan.steps
        .iter()
        .map(|s| {
            let names = s.fields.iter().filter(|f| !f.identifier);
            (s.tool.clone(), names.map(|f| f.name.clone()).collect())
        })
        .collect()
}
