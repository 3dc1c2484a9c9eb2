//! Pass `intent`: the intent inferred from evidence. Per intent: requested concepts whose
//! fields sit in its required groups on its candidate tools (3) or elsewhere on them (1), named
//! tools among its candidates (2; a named tool of another domain costs 5), parameter concepts
//! its candidates bind (0.5), a source constraint its candidates carry (up to 1.5; evidence when
//! every candidate carries it: "papers about X"), and words shared with its description and
//! examples (two are evidence; in the ranking only words no other intent's examples hold count,
//! and tool names count once, as named tools). Ties go to the intent whose candidates bind more
//! of the query's parameters, then to the broader intent (more candidate tools). Without enough
//! evidence (a bar of 1.5, or any for a question naming an entity) the intent is null.
//!
//! Reads `concepts`, `tools`, `extracted`, `source_constraint` and the tokens outside tool
//! names; writes `intent` and `query_words`.

use super::Flow;
use crate::artifact::MatchKind;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::words_of;
use std::collections::BTreeSet;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    let Reading {
        tokens,
        tool_words,
        extracted,
        concepts,
        tools,
        source_constraint,
        ..
    } = &*r;
    let query_words = words_of(
        &tokens
            .iter()
            .zip(tool_words.iter())
            .filter(|(_, tool)| !**tool)
            .map(|(t, _)| t.clone())
            .collect::<Vec<_>>(),
    );
    let param_concepts: BTreeSet<&str> = extracted.iter().map(|e| e.concept.as_str()).collect();
    // Parameters that identify an entity: a query naming only an entity is still classified
    // (prompt rule: vague questions get the closest intent).
    let entity = param_concepts.iter().any(|c| lx.recognisers.is_entity(c));
    let mut best: Option<(f64, usize, usize, f64)> = None;
    for (ii, intent) in g.intents.iter().enumerate() {
        let cands = &lx.candidates[ii];
        let mut score = 0.0;
        let mut evidence = false;
        for (_, ids, _) in concepts.iter() {
            let mut strong = false;
            let mut weak = false;
            for id in ids {
                let Some(list) = g.index.concept_postings.get(id) else {
                    continue;
                };
                for p in list
                    .iter()
                    .filter(|p| p.kind != MatchKind::Partial && cands.contains(&p.tool))
                {
                    let f = g.tool_at(p.tool).endpoint_at(p.endpoint).field_at(p.field);
                    if f.groups
                        .iter()
                        .any(|gr| intent.required_groups.contains(gr))
                    {
                        strong = true;
                        break;
                    }
                    weak = true;
                }
                if strong {
                    break;
                }
            }
            if strong {
                score += 3.0;
                evidence = true;
            } else if weak {
                score += 1.0;
                evidence = true;
            }
        }
        for t in tools.iter() {
            if cands.contains(t) {
                score += 2.0;
                evidence = true;
            } else if !intent.domains.contains(&g.tool_at(*t).domain) {
                score -= 5.0;
            }
        }
        for pc in &param_concepts {
            if lx.intent_params[ii].contains(*pc) {
                score += 0.5;
                evidence = true;
            }
        }
        // A source constraint favours intents whose tools are of that source type.
        if let Some(st) = &source_constraint
            && !cands.is_empty()
        {
            let matching = cands
                .iter()
                .filter(|t| g.tool_at(**t).source_types.contains(st))
                .count();
            score += 1.5 * matching as f64 / cands.len() as f64;
            // Every tool the intent could use is of that source type ("papers about X",
            // "measured values of Y"): the cue alone points at the intent.
            if matching == cands.len() {
                evidence = true;
            }
        }
        let shared: Vec<&String> = query_words.intersection(&lx.intent_words[ii]).collect();
        let overlap = shared.len() as f64;
        // In the ranking, a shared word weighs 0.75 when only this intent's description and
        // examples hold it, and nothing when other intents' do too: such a word ("materials"
        // of "the Materials Project paper") tells them apart no more than chance.
        let weight: f64 = shared
            .iter()
            .filter(|w| lx.word_intents.get(**w).copied().unwrap_or(1) <= 1)
            .count() as f64
            * 0.75;
        // The bar an intent must clear counts words as before; the ranking weighs them.
        let bar = score + overlap.min(3.0) * 0.75;
        score += weight.min(2.25);
        if overlap >= 2.0 {
            evidence = true;
        }
        if !evidence {
            continue;
        }
        // Ties go to the intent with more candidate tools binding the query's parameters.
        let breadth = param_concepts
            .iter()
            .map(|pc| {
                g.index
                    .param_postings
                    .get(pc)
                    .map(|l| l.iter().filter(|p| cands.contains(&p.tool)).count())
                    .unwrap_or(0)
            })
            .sum::<usize>();
        // Then to the broader intent (more candidate tools): with no evidence telling two
        // intents apart, the general one ("papers about X": finding papers, not counting
        // their citations) serves the question.
        let wider = |b: usize, other: usize| {
            breadth > b || (breadth == b && cands.len() > lx.candidates[other].len())
        };
        if best.is_none_or(|(s, b, other, _)| score > s || (score == s && wider(b, other))) {
            best = Some((score, breadth, ii, bar));
        }
    }
    r.intent = best
        .filter(|(_, _, _, bar)| *bar >= 1.5 || (entity && *bar > 0.0))
        .map(|(_, _, ii, _)| ii);
    r.query_words = query_words;
    Flow::Next
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::{understand, want};
    use serde_json::json;

    #[test]
    fn metal_or_insulator_questions() {
        for q in [
            "Tell me if NiO is an insulator",
            "Is NiO a metal or an insulator?",
        ] {
            assert_eq!(
                understand(q),
                want(json!({
                    "intent": "electronic_property",
                    "domain_concepts": ["is_metal"],
                    "parameters": {"formula": "NiO"},
                    "target_apis": [],
                    "source_constraint": null
                })),
                "{q}"
            );
        }
    }

    #[test]
    fn a_request_for_papers_is_a_literature_search() {
        // "papers" alone is the whole evidence: every tool of the literature intents is
        // literature, and the broadest of them (finding papers) wins the tie.
        assert_eq!(
            understand("papers about perovskite solar cells"),
            want(json!({
                "intent": "literature_search",
                "domain_concepts": [],
                "parameters": {"search_text": "perovskite solar cells"},
                "target_apis": [],
                "source_constraint": "literature"
            }))
        );
        // "articles by X": a word of another intent's examples ("materials" of "the Materials
        // Project paper") does not pull the question to citation counts.
        assert_eq!(
            understand("articles by Gerbrand Ceder about cathode materials")
                .intent
                .as_deref(),
            Some("literature_search")
        );
        // A sodium formula inside a topic does not make it a measurement question.
        assert_eq!(
            understand("Recent publications on sodium-ion battery cathodes")
                .intent
                .as_deref(),
            Some("literature_search")
        );
    }

    #[test]
    fn a_tool_name_counts_once() {
        // "COD" is a named tool (+2 for the intents that can use it), not also a word of
        // experimental_measurement's examples.
        let u = understand("Show me the crystal structure of quartz from COD");
        assert_eq!(u.intent.as_deref(), Some("crystal_structure"), "{u:?}");
        assert_eq!(u.target_apis, vec!["cod".to_string()]);
    }
}
