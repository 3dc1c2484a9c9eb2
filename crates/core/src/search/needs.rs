//! The needs of a request: a task written by a person often asks for several things ("find the
//! weather in Paris, then e-mail it to Bob and add a calendar entry"). One ranked list favours
//! whichever need has the most distinctive words; the others fall out of the top few. [`needs`]
//! splits a question into its needs, and [`super::rank_needs`] ranks each and fuses the lists.
//!
//! A need ends where a clause does:
//!
//! - at the end of a sentence (`.`, `;`, `!`, `?` before a space or the end, a line break);
//! - at a sequencing word ("then", "after that", "finally": [`text::SEQUENCE_PHRASES`]);
//! - at a joining word or a comma ("and", "as well as": [`text::JOINING_PHRASES`]) followed by
//!   an imperative verb ("…, and save it to …", "plot it and send it"; openers such as "please"
//!   or "help me" may stand between), the verbs of [`frame::TASK_VERBS`], [`frame::FRAME_VERBS`]
//!   and [`text::ACTION_VERBS`].
//!
//! A joining word before a noun ("whois information and sitemap", "Beijing and Shanghai") joins
//! one need's objects and splits nothing. A part with nothing but stop words after its openers
//! and its verb ("and tell me") is no need. English language data, not any domain's.

use super::frame;
use super::text;

/// At most this many needs are ranked apart (a long task's later clauses join the last).
pub const MAX_NEEDS: usize = 8;

/// One need: the byte range of its clause in the question (the NFKC text of
/// [`super::Query::text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// Start of the clause (byte offset).
    pub start: usize,
    /// End of the clause (exclusive).
    pub end: usize,
}

/// Whether a lower-case word is a verb a need can open with.
pub fn is_need_verb(w: &str) -> bool {
    frame::TASK_VERBS.binary_search(&w).is_ok()
        || frame::FRAME_VERBS.binary_search(&w).is_ok()
        || text::ACTION_VERBS.binary_search(&w).is_ok()
}

/// Whether a lower-case word only opens a request ("please", "help me", "can you").
fn is_opener(w: &str) -> bool {
    frame::REQUEST_OPENERS.binary_search(&w).is_ok() || w == "also"
}

/// The needs of a question, in question order: one per clause that asks for something (see the
/// module docs). A question of one need gives one [`Need`] spanning the whole text.
pub fn needs(text: &str) -> Vec<Need> {
    let words = frame::words(text);
    let mut cuts: Vec<(usize, usize)> = sentence_ends(text);
    // Sequencing phrases cut wherever they stand.
    let matches_at = |i: usize, phrase: &[&str]| {
        phrase
            .iter()
            .enumerate()
            .all(|(j, p)| words.get(i + j).is_some_and(|w| w.2 == *p))
    };
    let verb_after = |mut j: usize| {
        while words.get(j).is_some_and(|w| is_opener(&w.2)) {
            j += 1;
        }
        words.get(j).is_some_and(|w| is_need_verb(&w.2))
    };
    let mut i = 0;
    while i < words.len() {
        if let Some(p) = text::SEQUENCE_PHRASES.iter().find(|p| matches_at(i, p)) {
            cuts.push((words[i].0, words[i + p.len() - 1].1));
            i += p.len();
            continue;
        }
        if let Some(p) = text::JOINING_PHRASES.iter().find(|p| matches_at(i, p))
            && verb_after(i + p.len())
        {
            cuts.push((words[i].0, words[i + p.len() - 1].1));
            i += p.len();
            continue;
        }
        i += 1;
    }
    // A comma before an imperative verb (", and" is read as "and" above).
    for (at, _) in text.match_indices([',', '，', '、']) {
        let next = words.partition_point(|w| w.0 < at);
        if verb_after(next) {
            cuts.push((at, at + text[at..].chars().next().map_or(1, char::len_utf8)));
        }
    }
    cuts.sort_unstable();
    let mut parts: Vec<Need> = Vec::new();
    let mut from = 0;
    for (s, e) in cuts {
        if s < from {
            continue;
        }
        parts.push(Need {
            start: from,
            end: s,
        });
        from = e;
    }
    parts.push(Need {
        start: from,
        end: text.len(),
    });
    let mut out: Vec<Need> = parts
        .into_iter()
        .map(|n| trim(text, n))
        .filter(|n| has_content(&text[n.start..n.end]))
        .collect();
    if out.len() > MAX_NEEDS {
        let last = out[out.len() - 1].end;
        out.truncate(MAX_NEEDS);
        out[MAX_NEEDS - 1].end = last;
    }
    if out.len() < 2 {
        return vec![Need {
            start: 0,
            end: text.len(),
        }];
    }
    out
}

/// Sentence ends: `.`, `;`, `!`, `?` (and their full-width forms) before white space or the end
/// of the text, after a character that is no digit, space or `/` (so `2203.12277`, `a.md` and
/// `/root/x.` paths stay whole), and line breaks.
fn sentence_ends(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    for (k, &(at, c)) in chars.iter().enumerate() {
        let end = at + c.len_utf8();
        if c == '\n' || matches!(c, '。' | '；' | '！' | '？') {
            out.push((at, end));
            continue;
        }
        if !matches!(c, '.' | ';' | '!' | '?') {
            continue;
        }
        let before = k.checked_sub(1).map(|j| chars[j].1);
        let after = chars.get(k + 1).map(|x| x.1);
        if before.is_some_and(|b| !b.is_ascii_digit() && !b.is_whitespace() && b != '/')
            && after.is_none_or(char::is_whitespace)
        {
            out.push((at, end));
        }
    }
    out
}

/// A need without the spaces and punctuation at its ends.
fn trim(text: &str, n: Need) -> Need {
    let s = &text[n.start..n.end];
    let lead = s.len()
        - s.trim_start_matches(|c: char| c.is_whitespace() || c == ',')
            .len();
    let body = s.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | ';'));
    Need {
        start: n.start + lead,
        end: (n.start + body.len()).max(n.start + lead),
    }
}

/// Whether a clause holds a word that says what it asks about: after the openers and the verb
/// it opens with, a word that is no stop word and no opener, longer than one letter (a CJK
/// character counts).
fn has_content(clause: &str) -> bool {
    let words = frame::words(clause);
    let mut rest = words.iter().skip_while(|w| is_opener(&w.2)).peekable();
    if rest.peek().is_some_and(|w| is_need_verb(&w.2)) {
        rest.next();
    }
    rest.any(|(_, _, w)| {
        !text::is_stop_word(w)
            && !is_opener(w)
            && (w.chars().count() > 1 || w.chars().any(text::is_cjk))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(q: &str) -> Vec<&str> {
        needs(q).into_iter().map(|n| &q[n.start..n.end]).collect()
    }

    #[test]
    fn clauses_joined_by_sequencing_words_are_needs() {
        assert_eq!(
            of("Find the weather in Paris, then e-mail it to Bob and add a calendar entry"),
            [
                "Find the weather in Paris",
                "e-mail it to Bob",
                "add a calendar entry"
            ]
        );
        assert_eq!(
            of("Get the trending repositories. After that, read the top one's wiki"),
            ["Get the trending repositories", "read the top one's wiki"]
        );
        assert_eq!(
            of("Fetch today's news; finally summarise the stock movements"),
            ["Fetch today's news", "summarise the stock movements"]
        );
    }

    #[test]
    fn and_or_a_comma_before_a_verb_opens_a_need() {
        assert_eq!(
            of(
                "Read the sales sheet, plot it as a bar chart by month and save it in /root/figs/sale.png"
            ),
            [
                "Read the sales sheet",
                "plot it as a bar chart by month",
                "save it in /root/figs/sale.png"
            ]
        );
        assert_eq!(
            of("Look up the whois record and please help me draft a report on it"),
            [
                "Look up the whois record",
                "please help me draft a report on it"
            ]
        );
    }

    #[test]
    fn and_between_nouns_joins_one_need() {
        for q in [
            "Give me a report with whois information and sitemap",
            "train tickets from Beijing and Shanghai",
            "What's the weather in Paris?",
            "the price of gold and silver today",
        ] {
            assert_eq!(
                needs(q),
                [Need {
                    start: 0,
                    end: q.len()
                }],
                "{q}"
            );
        }
    }

    #[test]
    fn numbers_paths_and_urls_do_not_end_a_sentence() {
        let q = "Introduce the article arxiv 2203.12277 and the file /root/a.md";
        assert_eq!(of(q), [q]);
        assert_eq!(
            of("Open https://example.org/a.html. Then list its links."),
            ["Open https://example.org/a.html", "list its links"]
        );
    }

    #[test]
    fn parts_without_content_are_no_needs() {
        assert_eq!(
            of("Analyse the audio file. Upon completion, please provide the data"),
            [
                "Analyse the audio file",
                "Upon completion",
                "please provide the data"
            ]
        );
        // "and tell me" alone asks for nothing of its own.
        assert_eq!(
            of("Find the cheapest flight and tell me"),
            ["Find the cheapest flight and tell me"]
        );
    }

    #[test]
    fn cjk_clauses_split_at_full_width_punctuation() {
        assert_eq!(
            of("查询北京天气。然后发邮件"),
            ["查询北京天气", "然后发邮件"]
        );
    }

    #[test]
    fn word_lists_are_sorted() {
        let mut v = text::ACTION_VERBS.to_vec();
        v.sort();
        v.dedup();
        assert_eq!(v, text::ACTION_VERBS);
    }
}
