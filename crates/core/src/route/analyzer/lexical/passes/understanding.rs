//! Pass `understanding`: the parts of the Understanding every reading has: the intent, the note
//! on how the entity chose it, the tools ruled out, and the qualifiers (when an intent or a named
//! tool will use them).
//!
//! Reads `intent`, `entity_note`, `excluded`, `tools` and `qualifiers`; writes the
//! Understanding and its first warning.

use super::Flow;
use crate::route::Understanding;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    let mut u = Understanding {
        intent: r.intent.map(|ii| g.intents[ii].id.clone()),
        ..Default::default()
    };
    if let Some(n) = r.entity_note.take() {
        r.warnings.push(n);
    }
    u.excluded_apis = r
        .excluded
        .iter()
        .map(|t| g.tool_at(*t).id.clone())
        .collect();
    if r.intent.is_some() || !r.tools.is_empty() {
        u.qualifiers = std::mem::take(&mut r.qualifiers);
    }
    r.understanding = u;
    Flow::Next
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::{understand, want};
    use serde_json::json;

    #[test]
    fn tools_ruled_out_and_qualifiers_are_written() {
        assert_eq!(
            understand("band gap of GaN with HSE, not from Materials Project"),
            want(json!({
                "intent": "electronic_property",
                "domain_concepts": ["band_gap"],
                "parameters": {"formula": "GaN"},
                "target_apis": [],
                "excluded_apis": ["materials_project"],
                "qualifiers": {"functional": "HSE06"},
                "source_constraint": null
            }))
        );
    }
}
