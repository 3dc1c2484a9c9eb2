//! Pass `source`: the source-type cue words the project declares (the artifact's
//! `lexicon.source_cues`; the shipped inventory's "measured", "DFT", "from the literature", 실험,
//! 계산, 논문) with negation ("not DFT", "계산값 말고"): each cue votes for its source type (against
//! it when negated); the one type with the most votes, when the inventory knows it, is the
//! constraint. Two kinds cued as often ("measured vs calculated") ask for both: no constraint.
//! A cue word matches a token (or its stem) that starts with it and has at most six more
//! letters.
//!
//! Reads the tokens; writes `source_constraint`.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::negation::{KO_NEGATIONS, NEGATIONS};
use crate::route::analyzer::lexical::reading::Reading;
use std::collections::BTreeMap;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    let tokens = &r.tokens;
    let cues: Vec<(&str, &str)> = g
        .lexicon
        .source_cues
        .iter()
        .flat_map(|c| c.words.iter().map(|w| (w.as_str(), c.source_type.as_str())))
        .collect();
    let mut votes: BTreeMap<&str, i32> = BTreeMap::new();
    for (ti, t) in tokens.iter().enumerate() {
        let words: Vec<&str> = std::iter::once(t.norm.as_str())
            .chain(t.stems.iter().map(String::as_str))
            .collect();
        let Some((_, st)) = cues.iter().find(|(w, _)| {
            words
                .iter()
                .any(|x| x.starts_with(w) && (x.len() - w.len()) <= 6 || x == w)
        }) else {
            continue;
        };
        let before = tokens[ti.saturating_sub(3)..ti]
            .iter()
            .any(|p| NEGATIONS.contains(&p.norm.as_str()) || p.norm == "than");
        let after = tokens[ti + 1..(ti + 3).min(tokens.len())]
            .iter()
            .any(|p| KO_NEGATIONS.iter().any(|n| p.norm.starts_with(n)))
            || KO_NEGATIONS.iter().any(|n| t.norm.contains(n));
        *votes.entry(st).or_insert(0) += if before || after { -1 } else { 1 };
    }
    let cued: Vec<(&str, i32)> = votes
        .iter()
        .filter(|(st, v)| **v > 0 && g.source_types.iter().any(|s| s == *st))
        .map(|(st, v)| (*st, *v))
        .collect();
    let top = cued.iter().map(|(_, v)| *v).max().unwrap_or(0);
    // Two kinds cued as often ("measured vs calculated") ask for both: no constraint.
    r.source_constraint = match cued.iter().filter(|(_, v)| *v == top).count() {
        1 => cued
            .iter()
            .find(|(_, v)| *v == top)
            .map(|(st, _)| st.to_string()),
        _ => None,
    };
    Flow::Next
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::understand;

    #[test]
    fn source_cues_that_conflict_are_no_constraint() {
        // Both kinds asked for.
        let u = understand("measured vs calculated band gap of CdTe");
        assert_eq!(u.source_constraint, None, "{u:?}");
        // A named tool of another kind.
        let u = understand("Band gap of ZnO from both Materials Project and our lab measurements");
        assert_eq!(u.source_constraint, None, "{u:?}");
        assert_eq!(
            u.target_apis,
            vec!["materials_project".to_string(), "lab_notebook".to_string()]
        );
        // One kind stays a constraint.
        let u = understand("measured band gap of CdTe");
        assert_eq!(
            u.source_constraint.as_deref(),
            Some("experimental"),
            "{u:?}"
        );
    }
}
