//! Pass `definition`: the topics the project declares out of scope for questions that name no
//! entity (the shipped inventory: "What does band gap mean?", "Translate 'band gap' into
//! Japanese": a term to explain, with nothing named to look it up for; topics declared
//! `without_entity`, [`crate::route::analyzer::scope`]).
//!
//! Reads `extracted` (a question that names an entity is a data question: "Explain why GaN's
//! band gap is wide") and the query; on a refusal writes `out_of_scope` and finishes.

use super::Flow;
use super::scope::{known, refuse};
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::scope;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    if !r
        .extracted
        .iter()
        .any(|e| lx.recognisers.is_entity(&e.concept))
        && let Some(o) =
            scope::out_of_scope_unless(&lx.g.lexicon.out_of_scope, &r.query, true, |cue| {
                known(lx, r, cue)
            })
    {
        refuse(r, &o);
        return Flow::Done;
    }
    Flow::Next
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::understand;

    #[test]
    fn a_term_to_explain_is_refused_unless_an_entity_is_named() {
        let u = understand("What does band gap mean?");
        assert_eq!(u.intent, None);
        assert_eq!(
            u.out_of_scope.as_deref(),
            Some(
                "a request to define or explain a term (`what does ... mean`) with no material, compound, paper or company named: the tools return records, not explanations"
            )
        );
        // A question about GaN is a data question, whatever its verb.
        let u = understand("Explain why GaN's band gap is wide");
        assert_eq!(u.out_of_scope, None, "{u:?}");
        assert_eq!(u.intent.as_deref(), Some("electronic_property"));
    }
}
