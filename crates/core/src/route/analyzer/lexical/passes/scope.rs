//! Pass `scope`: a question about a topic the project declares out of scope (the shipped
//! inventory: actions, media, live data, weather, e-mail, calendars) gets no intent, with the
//! topic's reason ([`crate::route::analyzer::scope`]; the artifact's `lexicon.out_of_scope`).
//!
//! Reads the query and its tokens; on a refusal writes the Understanding's `out_of_scope` and a
//! warning and finishes the analysis. A project that declares no topic refuses nothing here. A cue the inventory declares (a tool named `weather`, an
//! `images` field alias) is no such request, nor is a cue word in the inventory's tool names and
//! endpoint ids (a `get_current_weather` endpoint serves weather, a `delete_book` one carries out
//! an action); and a question that names one of the inventory's tools asks that tool ("Play the
//! movie on the zappiti player" to an imported media-player API), except for a topic declared
//! `needs_writing_endpoint` (an action) when no named tool has an endpoint that writes ("upload
//! my CIF to the Crystallography Open Database": COD only reads).

use super::Flow;
use crate::model::normalise_alias;
use crate::route::Understanding;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::scope::{self, OutOfScope};
use std::collections::HashSet;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let topics = &lx.g.lexicon.out_of_scope;
    if let Some(o) = scope::out_of_scope_unless(topics, &r.query, false, |cue| known(lx, r, cue))
        && !named_tool_serves(lx, r, &o)
    {
        refuse(r, &o);
        return Flow::Done;
    }
    Flow::Next
}

/// Whether a tool the question names may serve the topic: any named tool, or for a topic that
/// needs a writing endpoint (an action), a named tool that has one.
fn named_tool_serves(lx: &Lexical<'_>, r: &Reading, o: &OutOfScope<'_>) -> bool {
    let named = lx.named_tools(&r.tokens);
    if !o.needs_writing_endpoint {
        return !named.is_empty();
    }
    named.iter().any(|&t| {
        lx.g.tools.get(t as usize).is_some_and(|tool| {
            tool.endpoints.iter().any(|e| {
                e.writes
                    || e.destructive
                    || ["POST", "PUT", "PATCH", "DELETE"]
                        .iter()
                        .any(|m| e.method.eq_ignore_ascii_case(m))
            })
        })
    })
}

/// Whether the inventory knows `cue`: its normalised key, or every `_`-separated part of it, is
/// a word of the question's declared names (tool names, concept and field aliases) or of the
/// inventory's tool names and endpoint ids.
pub(in crate::route::analyzer::lexical) fn known(lx: &Lexical<'_>, r: &Reading, cue: &str) -> bool {
    let key = normalise_alias(cue);
    let has =
        |words: &HashSet<String>| words.contains(&key) || key.split('_').all(|p| words.contains(p));
    !key.is_empty()
        && (has(r.declared.get_or_init(|| lx.declared_words(&r.tokens)))
            || has(lx.tool_words.get_or_init(|| lx.tool_words())))
}

/// Write the analysis of a request no tool serves: no intent, the reason, and a warning saying
/// it.
pub(in crate::route::analyzer::lexical) fn refuse(r: &mut Reading, o: &OutOfScope<'_>) {
    let reason = o.reason();
    r.understanding = Understanding {
        out_of_scope: Some(reason.clone()),
        ..Default::default()
    };
    r.warnings = vec![format!("out of scope: {reason}")];
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::lexical::Lexical;
    use crate::route::analyzer::testing::{shipped, understand, want};
    use serde_json::json;

    #[test]
    fn a_request_for_media_is_refused_with_its_reason() {
        let a = Lexical::new(shipped()).analyse("Show me a photo of a pyrite crystal");
        let reason = "a media request (`photo`): no tool returns pictures, video or audio";
        assert_eq!(
            a.understanding,
            want(json!({
                "intent": null,
                "domain_concepts": [],
                "parameters": {},
                "target_apis": [],
                "source_constraint": null,
                "out_of_scope": reason
            }))
        );
        assert_eq!(a.warnings, vec![format!("out of scope: {reason}")]);
    }

    #[test]
    fn an_action_asked_of_a_named_tool_that_only_reads_is_refused() {
        let reason = |q: &str| understand(q).out_of_scope;
        let action = |cue: &str| {
            Some(format!(
                "an action request (`{cue}`): the inventory's tools only retrieve data, none carries out actions"
            ))
        };
        assert_eq!(
            reason("upload my new CIF to the Crystallography Open Database"),
            action("upload")
        );
        assert_eq!(
            reason("please delete sample S-1 from the lab notebook"),
            action("delete")
        );
        assert_eq!(reason("Submit this structure to JARVIS"), action("submit"));
        // Writing a record or drawing a figure is an action too.
        assert_eq!(
            reason("Please add a new measurement for sample S-7 to the lab notebook"),
            action("add")
        );
        assert_eq!(
            reason("plot the DOS of Si from MP and save it as a pdf"),
            action("plot")
        );
        assert_eq!(
            reason("the band gap of GaN from MP; then export it to csv"),
            action("export")
        );
        // A named tool with a question about its data is no action.
        assert_eq!(reason("the band gap of GaN in the Materials Project"), None);
        assert_eq!(
            reason("order of the phase transition in BaTiO3 in COD"),
            None
        );
    }

    #[test]
    fn a_word_that_is_no_imperative_verb_is_no_action() {
        // "Order" as a noun at the start of a clause.
        let u = understand("Order of the phase transition in BaTiO3?");
        assert_eq!(u.out_of_scope, None, "{u:?}");
        // A verb of the list inside a clause is no request ("the energy we add").
        let u = understand("band gap of GaN from MP, and what does the dopant add to it?");
        assert_eq!(u.out_of_scope, None, "{u:?}");
    }
}
