//! Pass `topic`: "papers on perovskite stability": in a request for a source type the project
//! declares as searched by topic (`topics: true` of its cue words; the shipped inventory's
//! literature), the concept words of the topic name what the papers are about, not fields to
//! fetch.
//!
//! Reads `source_constraint`, the query and `concept_at`; removes from `concepts` the ones
//! inside the topic.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::phrases::{TOPIC_KEYS, TOPIC_STOPS, phrase_after};
use crate::route::analyzer::lexical::reading::Reading;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let Reading {
        query,
        concepts,
        concept_at,
        source_constraint,
        ..
    } = r;
    let searched_by_topic = source_constraint.as_deref().is_some_and(|st| {
        lx.g.lexicon
            .source_cues
            .iter()
            .any(|c| c.topics && c.source_type == st)
    });
    if searched_by_topic && let Some(topic) = phrase_after(query, TOPIC_KEYS, TOPIC_STOPS) {
        let start = topic.as_ptr() as usize - query.as_ptr() as usize;
        let end = start + topic.len();
        let mut at = concept_at.iter();
        concepts.retain(|_| at.next().is_none_or(|&(s, e)| !(start <= s && e <= end)));
    }
    Flow::Next
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::understand;
    use serde_json::json;

    #[test]
    fn concepts_in_a_literature_topic_name_the_topic() {
        for (q, topic) in [
            (
                "Find papers on perovskite stability",
                "perovskite stability",
            ),
            (
                "Find papers on band gap engineering",
                "band gap engineering",
            ),
        ] {
            let u = understand(q);
            assert_eq!(u.intent.as_deref(), Some("literature_search"), "{q}: {u:?}");
            assert!(u.domain_concepts.is_empty(), "{q}: {u:?}");
            assert_eq!(u.parameters.get("search_text"), Some(&json!(topic)), "{q}");
        }
        // A field named outside the topic is still asked for.
        let u = understand("Find papers on band gap engineering; list their titles");
        assert_eq!(u.domain_concepts, vec!["title".to_string()], "{u:?}");
        // A dash between spaces ends the topic as a comma does; one inside a word does not.
        for sep in [" - ", " – ", ", "] {
            let q =
                format!("10 arxiv preprints on solid-state electrolytes{sep}titles and abstracts");
            let u = understand(&q);
            assert_eq!(
                u.parameters.get("search_text"),
                Some(&json!("solid-state electrolytes")),
                "{q}: {u:?}"
            );
            assert_eq!(u.domain_concepts, ["title", "abstract"], "{q}: {u:?}");
        }
    }
}
