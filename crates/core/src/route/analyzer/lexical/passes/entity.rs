//! Pass `entity`: what a question that names an entity, and little else, asks.
//!
//! - "pyrite?", "LiPF6", "caffeine", a DOI: the intent declared for that kind of entity, when
//!   nothing else in the question points elsewhere (no concept, no tool, no source cue, no two
//!   words of an intent's examples).
//! - "melting point of NaCl", "price of lithium carbonate": words of a material or molecule
//!   question that nothing declared explains ask for something the inventory does not hold, so
//!   the entity's default intent would answer another question: no intent.
//! - "What was the final score of the World Cup final?": one word of a concept's name is the only
//!   evidence, with no entity, tool or source named, and the question's other words are about
//!   something nothing declared explains: no intent and no concept.
//!
//! Reads what the earlier passes found; rewrites `intent`, `concepts` and `entity_note`.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::STOP;
use crate::route::analyzer::params::Extracted;

/// Words of a vague request about an entity ("Tell me about graphene", "titania properties",
/// "카페인 정보 좀 줘"): they ask for nothing in particular.
const VAGUE: &[&str] = &[
    "tell",
    "know",
    "about",
    "info",
    "information",
    "properties",
    "property",
    "details",
    "detail",
    "data",
    "everything",
    "anything",
    "something",
    "overview",
    "summary",
    "show",
    "find",
    "get",
    "want",
    "need",
    "please",
    "do",
    "does",
    "we",
    "you",
    "us",
    "i",
    "what's",
    "whats",
    "any",
    "some",
    "all",
    "basic",
    "general",
    "facts",
    "more",
    "look",
    "up",
    "describe",
    "explain",
    "can",
    "could",
    "would",
    "정보",
    "알려줘",
    "알려",
    "줘",
    "좀",
    "대해",
    "대한",
    "뭐야",
    "관해",
    "관한",
];

/// How an entity is described in the Understand step's note: its value and what the project
/// says a value of its concept is ("`GaN`, a chemical formula"), or the concept's name.
fn entity_phrase(lx: &Lexical<'_>, e: &Extracted) -> String {
    let v = match &e.value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match lx.recognisers.describe(&e.concept) {
        Some(d) => format!("`{v}`, {d}"),
        None => format!("`{v}` ({})", e.concept.replace('_', " ")),
    }
}

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    // Vague words, and the project's nouns for the kinds of entity it recognises ("material").
    let vague = |w: &str| VAGUE.contains(&w) || lx.recognisers.is_entity_noun(w);
    let Reading {
        query,
        tokens,
        used,
        extracted,
        concepts,
        tools,
        excluded,
        source_constraint,
        query_words,
        intent,
        entity_note,
        ..
    } = r;
    // A question that names only an entity ("pyrite?", "LiPF6", "caffeine", a DOI): the
    // intent declared for that kind of entity, when nothing else in the question points
    // elsewhere (no concept, no tool, no source cue, no two words of an intent's examples).
    let strong_words =
        (0..g.intents.len()).any(|ii| query_words.intersection(&lx.intent_words[ii]).count() >= 2);
    // Words of a material or molecule question that nothing declared explains ("melting
    // point of NaCl", "price of lithium carbonate"): the question asks for something the
    // inventory does not hold, so the entity's default intent would answer another one.
    let unexplained: Vec<&str> = tokens
        .iter()
        .zip(used.iter())
        .filter(|(t, used)| {
            !**used
                && !extracted
                    .iter()
                    .any(|e| t.range.0 < e.range.1 && e.range.0 < t.range.1)
                && t.norm.chars().count() > 1
                && !t.norm.chars().all(|c| c.is_ascii_digit())
                && !STOP.contains(&t.norm.as_str())
                && !vague(&t.norm)
                && !t.stems.iter().any(|w| vague(w))
        })
        .map(|(t, _)| &query[t.range.0..t.range.1])
        .collect();
    let material_only = !extracted.is_empty()
        && extracted
            .iter()
            .all(|e| lx.recognisers.is_name_concept(&e.concept));
    // "What was the final score of the World Cup final?", "What's my credit score?": one
    // word of a concept's name (`score`, `revenue`, everyday English) is the only
    // evidence, with no entity, tool or source named, and the question's other words are
    // about something nothing declared explains.
    let other: Vec<&str> = unexplained
        .iter()
        .copied()
        .filter(|w| !matches!(w.to_lowercase().as_str(), "was" | "were" | "be" | "been"))
        .collect();
    let lone_word = concepts.len() == 1
        && !concepts[0].0.contains(char::is_whitespace)
        && extracted.is_empty()
        && tools.is_empty()
        && excluded.is_empty()
        && source_constraint.is_none()
        && !strong_words
        && !other.is_empty();
    if lone_word {
        *intent = None;
        *entity_note = Some(crate::route::analyzer::lexical::notes::not_held(
            &concepts[0].0,
            &other.join(" "),
        ));
        // The word is no request either (no "no intent fits" note, no concept to report).
        concepts.clear();
    } else if concepts.is_empty()
        && tools.is_empty()
        && source_constraint.is_none()
        && !strong_words
        && material_only
        && !unexplained.is_empty()
    {
        *intent = None;
        *entity_note = Some(format!(
            "no declared concept matches `{}`: nothing in the inventory answers it",
            unexplained.join(" ")
        ));
    } else if concepts.is_empty()
        && tools.is_empty()
        && source_constraint.is_none()
        && !strong_words
        && let Some((e, ii)) = extracted.iter().find_map(|e| {
            g.intents
                .iter()
                .position(|i| i.entities.contains(&e.concept))
                .map(|ii| (e, ii))
        })
    {
        let it = &g.intents[ii];
        *entity_note = Some(format!(
            "the question names only {}: intent `{}`, the intent declared for questions about a {}",
            entity_phrase(lx, e),
            it.id,
            e.concept.replace('_', " ")
        ));
        *intent = Some(ii);
    }
    Flow::Next
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::lexical::Lexical;
    use crate::route::analyzer::testing::{shipped, understand};

    #[test]
    fn a_property_nothing_declares_is_not_answered_by_the_entity_default() {
        for q in [
            "melting point of NaCl",
            "what is the thermal expansion coefficient of Al2O3",
            "price of lithium carbonate per ton",
        ] {
            let a = Lexical::new(shipped()).analyse(q);
            assert_eq!(a.understanding.intent, None, "{q}: {a:?}");
        }
        // Vague questions about an entity keep its default intent.
        for q in [
            "Tell me about graphene.",
            "What do we know about barium titanate?",
            "titania properties",
            "pyrite?",
            "카페인 정보 좀 줘",
        ] {
            assert!(understand(q).intent.is_some(), "{q}");
        }
    }
}
