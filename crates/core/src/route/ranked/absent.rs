//! Near misses: a question that shares a word or two with the catalog while what it asks for is
//! absent from it ("how many calories do i burn running 5 km" against a recipe API, "how many
//! tickets are still available for the georgia vs florida game" against a video game
//! database). The share of the question the catalog covers ([`super::select::choose`]) can
//! pass on one shared word when the question is short; what decides here is which words are
//! shared and which are not:
//!
//! - the best endpoint matches no content word at all (only a number, a light word or the
//!   request frame: "how many calories do i burn running **5** km");
//! - the thing a question asks for ([`crate::search::frame::asked`], its last word) is a word
//!   no endpoint of the catalog holds, and the best endpoint matches no word of it ("how many
//!   **tickets** are still available for the … game"): the catalog has the game, not its
//!   tickets; unless the question asks for another thing beside it ("which people **and
//!   organizations** are tagged …"), and unless the best endpoint matches three content words
//!   or more.
//!
//! A word right after "how" ("how tall", "how heavy") asks for a measure the catalog may name
//! otherwise (`height`, `weight`): unknown, it is no sign of another subject. A value (a name,
//! the object of a preposition and a word joined to it, an owner written with 's, an id, a
//! number) is never a content word: values are what a catalog does not list.

use super::select::Candidate;
use crate::artifact::FrozenGraph;
use crate::search::{Query, Ranking};

/// Why the catalog lacks what the question asks for, if it does (see the module docs).
/// `counted`: the known stems that count in the question's weight (not pieces of an id);
/// `unknown`: the stems no endpoint holds, outside the question's values.
pub fn absent(
    g: &FrozenGraph,
    q: &Query,
    ranking: &Ranking,
    best: &Candidate,
    counted: u64,
    unknown: u64,
) -> Option<String> {
    let valued = valued(q);
    let measured = measured(q);
    let content = |i: usize| {
        q.weights[i] == 1.0
            && valued & (1 << i) == 0
            && !q.stems[i].chars().all(|c| c.is_ascii_digit())
    };
    let known: u64 = (0..q.stems.len())
        .filter(|&i| content(i) && counted & (1 << i) != 0 && ranking.idfs[i] > 0.0)
        .fold(0, |m, i| m | (1 << i));
    // A measure the catalog knows ("how humid") is matched content; one it does not know
    // ("how tall") is no sign the question is about something else.
    let absent: u64 = (0..q.stems.len())
        .filter(|&i| content(i) && measured & (1 << i) == 0 && unknown & (1 << i) != 0)
        .fold(0, |m, i| m | (1 << i));
    let t = g.tool_at(best.tool);
    let name = format!("`{}/{}`", t.id, t.endpoint_at(best.endpoint).id);
    let matched = best.matched & known;
    if matched == 0 && best.matched != 0 {
        return Some(format!(
            "the closest endpoint {name} matches none of the words the request is about (only: {})",
            q.words(best.matched).join(", ")
        ));
    }
    let asked = crate::search::frame::asked(&q.text)?;
    let head = crate::search::text::stems(asked.last()?).last()?;
    let at = q.stems.iter().position(|s| *s == head)?;
    let asked_stems: Vec<String> = asked
        .iter()
        .flat_map(|w| crate::search::text::stems(w))
        .collect();
    let shared = (0..q.stems.len())
        .any(|i| best.matched & (1 << i) != 0 && asked_stems.contains(&q.stems[i]));
    // A best endpoint that matches three content words or more is about the question's
    // subject, whatever the asked word is.
    let near = matched.count_ones() <= 2;
    (absent & (1 << at) != 0 && near && !shared && !also_asked(q, &head)).then(|| {
        format!(
            "the request asks about {}, and no endpoint of the catalog knows `{}`",
            asked.join(" "),
            q.words(1 << at).join(", ")
        )
    })
}

/// The stems every occurrence of which comes right after "how" ("how tall", "how heavy"):
/// measures asked for, which a catalog names otherwise.
fn measured(q: &Query) -> u64 {
    let words = crate::search::frame::words(&q.text);
    let after_how = |start: usize| {
        words
            .iter()
            .position(|w| w.0 == start)
            .and_then(|i| i.checked_sub(1))
            .is_some_and(|i| words[i].2 == "how")
    };
    (0..q.stems.len())
        .filter(|&i| {
            let mut at = q.terms.iter().filter(|t| t.stem == q.stems[i]).peekable();
            at.peek().is_some() && at.all(|t| after_how(t.start))
        })
        .fold(0, |m, i| m | (1 << i))
}

/// The stems every occurrence of which is part of a value the spans do not hold: an owner
/// ("tcu's 2022 roster", "alabama's elo rating"), or a word joined by "and"/"or" to the object
/// of a preposition ("in inches and pounds").
fn valued(q: &Query) -> u64 {
    use crate::search::spans::SpanKind;
    let words = crate::search::frame::words(&q.text);
    let in_object = |end: usize| {
        q.spans
            .iter()
            .any(|s| matches!(s.kind, SpanKind::Object | SpanKind::Name) && s.end == end)
    };
    let of_value = |start: usize| {
        let Some(i) = words.iter().position(|w| w.0 == start) else {
            return false;
        };
        let raw = &q.text[words[i].0..words[i].1];
        let owner = raw.ends_with("'s") || raw.ends_with("’s");
        let joined =
            i >= 2 && matches!(words[i - 1].2.as_str(), "and" | "or") && in_object(words[i - 2].1);
        owner || joined
    };
    (0..q.stems.len())
        .filter(|&i| {
            let mut at = q.terms.iter().filter(|t| t.stem == q.stems[i]).peekable();
            at.peek().is_some() && at.all(|t| of_value(t.start))
        })
        .fold(0, |m, i| m | (1 << i))
}

/// Whether the question asks for another thing beside the one whose last word's stem is
/// `head`: "and" or "or" right after it, then a word ("which people and organizations …").
fn also_asked(q: &Query, head: &str) -> bool {
    let words = crate::search::frame::words(&q.text);
    let Some(t) = q.terms.iter().find(|t| t.stem == head) else {
        return false;
    };
    let Some(i) = words.iter().position(|w| w.0 == t.start) else {
        return false;
    };
    matches!(words.get(i + 1).map(|w| w.2.as_str()), Some("and" | "or"))
        && words
            .get(i + 2)
            .is_some_and(|w| !crate::search::text::is_stop_word(&w.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems_in(q: &Query, mask: u64) -> Vec<String> {
        q.stems_in(mask)
    }

    #[test]
    fn words_after_how_are_measures() {
        let q = Query::new("how tall and how heavy are the players on the roster");
        assert_eq!(stems_in(&q, measured(&q)), ["tall", "heavi"]);
        let q = Query::new("how many calories are in recipe 716429");
        assert!(stems_in(&q, measured(&q)).is_empty());
        // A word also used elsewhere in the question is no measure there.
        let q = Query::new("how long is the long route");
        assert!(stems_in(&q, measured(&q)).is_empty());
    }

    #[test]
    fn another_thing_asked_beside_is_told() {
        let q = Query::new("which people and organizations are tagged in world news");
        assert!(also_asked(&q, "peopl"));
        let q = Query::new("how many tickets are still available for the game");
        assert!(!also_asked(&q, "ticket"));
        let q = Query::new("what dividends or splits did the stock have");
        assert!(also_asked(&q, "dividend"));
        let q = Query::new("what tickets and the rest");
        assert!(!also_asked(&q, "ticket"));
    }

    #[test]
    fn owners_and_words_joined_to_an_object_are_values() {
        let q = Query::new("how tall are the players on tcu's 2022 roster, in inches and pounds");
        assert_eq!(stems_in(&q, valued(&q)), ["tcu", "pound"]);
        let q = Query::new("how many calories did i burn on my run this morning");
        assert!(stems_in(&q, valued(&q)).is_empty());
    }
}
