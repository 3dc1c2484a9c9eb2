//! Pass `labels`: a name right next to a noun that names a path parameter ("the victoria
//! line" for `/Line/{ids}`) becomes a span of its own, which no other span held.

use super::profile::Profile;
use super::words::name_shaped;
use crate::search::spans::{self, Span, SpanKind};
use crate::search::text;

/// Words that stand before a name and its label noun ("the central line", "on line 4").
pub(super) const DETERMINERS: &[&str] =
    &["a", "an", "the", "this", "that", "on", "for", "of", "at"];

/// Words right next to a noun that names a path parameter of the endpoint, which no span holds:
/// the name of the thing it keys ("the victoria line" for `/Line/{ids}`, "line victoria" after
/// a determiner). The catalog may know the word, so [`spans::unknown_words`] leaves it out,
/// or a preposition's object holds it with its label; its label says it is a value. Function words, verbs and adverbs, and words the endpoint was
/// ranked for are none.
pub(super) fn label_neighbours(
    question: &str,
    open: &[Profile],
    spans: &[Span],
    subject: &[String],
) -> Vec<Span> {
    let toks = spans::word_tokens(question);
    let word = |i: usize| question[toks[i].0..toks[i].1].to_lowercase();
    let free = |i: usize| {
        let (s, e) = toks[i];
        let w = word(i);
        !spans
            .iter()
            .any(|x| s < x.end && x.start < e && x.kind != SpanKind::Object)
            && w.chars().all(char::is_alphabetic)
            && !spans::is_function_word(&w)
            && name_shaped(&w)
            && !text::stems(&w).any(|st| subject.contains(&st))
    };
    let labels = |i: usize| {
        let w = word(i);
        open.iter()
            .any(|pr| pr.in_path() && !pr.numeric && !pr.named_only() && pr.names(&w))
    };
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if !labels(i) {
            continue;
        }
        let determiner = |j: usize| DETERMINERS.contains(&word(j).as_str());
        if i >= 2 && free(i - 1) && determiner(i - 2) {
            out.push(spans::span_at(
                question,
                SpanKind::Word,
                toks[i - 1].0,
                toks[i - 1].1,
            ));
        }
        if i >= 1 && i + 1 < toks.len() && free(i + 1) && determiner(i - 1) {
            out.push(spans::span_at(
                question,
                SpanKind::Word,
                toks[i + 1].0,
                toks[i + 1].1,
            ));
        }
    }
    out.dedup_by_key(|s| s.start);
    out
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn verbs_adverbs_and_function_words_are_no_values() {
        let status = endpoint("https://x.test/line/{ids}/status", &[("ids", "path")]);
        for q in [
            "is it running normally right now",
            "when is the next one due",
            "the best ones according to them",
        ] {
            assert!(filled(&status, q, &[]).is_empty(), "{q}");
        }
        // A name beside the noun that names the key is the value, known word or not.
        assert_eq!(
            filled(
                &status,
                "is the victoria line running normally",
                &["victoria", "line"]
            ),
            strings(&[("ids", "victoria")])
        );
        assert_eq!(
            filled(
                &status,
                "any disruptions on the central line",
                &["central", "line"]
            ),
            strings(&[("ids", "central")])
        );
        assert_eq!(
            filled(&status, "any delays on line bakerloo", &["line", "delay"]),
            strings(&[("ids", "bakerloo")])
        );
        let road = endpoint("https://x.test/road/{ids}", &[("ids", "path")]);
        assert_eq!(
            filled(
                &road,
                "what's the traffic like on the a2 road",
                &["traffic", "road"]
            ),
            strings(&[("ids", "a2")])
        );
        assert_eq!(
            filled(&road, "is road m25 closed", &["road"]),
            strings(&[("ids", "m25")])
        );
    }
}
