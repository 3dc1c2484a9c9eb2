//! Pass `leftover`: a free-text parameter nothing filled takes the question's leftover content
//! words ("when did breaking bad first air" gives `name` "breaking bad").

use super::profile::Profile;
use super::words::*;
use crate::route::bind;
use crate::search::spans::{self, Span, SpanKind};
use crate::search::text;
use serde_json::Value;
use std::collections::BTreeMap;

/// Parameter-name words of free text that takes a name as people write it in running text
/// (a team, a ticker symbol, a food): with [`TEXT_WORDS`], the parameters [`leftover`] fills.
pub(super) const FREE_WORDS: &[&str] = &[
    "artist",
    "author",
    "food",
    "ingredient",
    "ingredients",
    "player",
    "symbol",
    "team",
    "ticker",
];

/// Description stems of a parameter that takes a value from a standard list or format (an IANA
/// time zone, an ISO code), which the question's leftover words are not.
pub(super) const CODED_STEMS: &[&str] = &["code", "iana", "identifi", "iso", "rfc"];

/// Whether a parameter takes free text (a search, a name, a title, a team, a symbol): a string
/// with no enum and no format, not a date, named as free text, or a required query or path
/// parameter named as none of an id, a date, a place, a link, a count or a unit: a path
/// parameter such as `/word.json/{word}/scrabbleScore` or `/api/monsters/{index}` keys its
/// entity by the word a person writes ("the scrabble score of quixotic"); a key named as an id
/// takes an id-shaped value only ([`fit`] fills it), and one with a declared `pattern` only a
/// value that matches it.
pub(super) fn free_text(pr: &Profile) -> bool {
    let string = !pr.numeric && pr.p.ty.trim_end_matches("[]") == "string";
    if !string
        || pr.temporal
        || pr.named_only()
        || pr.p.location.as_deref() == Some("body")
        || !pr.p.enum_values.is_empty()
        || !pr.format().is_empty()
    {
        return false;
    }
    // Plural names name the same kind of value (`ids`, `dates`).
    let singular: Vec<&str> = pr
        .words
        .iter()
        .map(|w| w.strip_suffix('s').unwrap_or(w))
        .collect();
    let named = |l: &[&str]| pr.named(l) || singular.iter().any(|w| l.contains(w));
    named(TEXT_WORDS)
        || named(FREE_WORDS)
        || (pr.p.required
            && (!pr.in_path() || pr.pattern.is_none() && pr.shape.is_none())
            && !pr.stems[pr.name_stems..]
                .iter()
                .any(|s| CODED_STEMS.contains(&s.as_str()))
            && ![
                ID_WORDS,
                DATE_WORDS,
                PLACE_WORDS,
                POSTCODE_WORDS,
                URL_WORDS,
                PATH_WORDS,
                COUNT_WORDS,
                &["unit", "units"],
            ]
            .iter()
            .any(|l| named(l)))
}

/// The question's leftover content: runs of adjacent words that no value holds (or that only a
/// word span, a preposition's object or a capitalised name holds, still unused), without
/// function words, verbs of the request frame, words
/// of rank or time, words the endpoint was ranked for (`subject`), or a single verb-shaped word. A run right before an id word labels another
/// value ("tvdb id 121361"), it is none. Best first: a name with a possessive, then the run after
/// a topic cue ([`TOPIC_CUES`]: "bills that mention climate"), a preposition's object or a name,
/// then the longest, then the last.
pub(super) fn leftover_runs(
    question: &str,
    spans: &[Span],
    used: &[bool],
    subject: &[String],
) -> Vec<Span> {
    // (start, end, held by a name or an object, right after a topic cue)
    let mut runs: Vec<(usize, usize, bool, bool)> = Vec::new();
    let mut topic = false;
    for (a, b) in spans::word_tokens(question) {
        // Another kind of value (a number, an id, a date) or a value already bound.
        let holder = spans
            .iter()
            .zip(used)
            .find(|(s, _)| a < s.end && s.start < b);
        let strong = match holder {
            Some((s, u))
                if *u || !matches!(s.kind, SpanKind::Word | SpanKind::Object | SpanKind::Name) =>
            {
                continue;
            }
            Some((s, _)) => s.kind != SpanKind::Word,
            None => false,
        };
        let w = question[a..b].to_lowercase();
        // "bills that mention climate", "authors matching tolkien": the words after such a verb
        // are the topic searched for, a run of their own.
        if TOPIC_CUES.contains(&w.as_str()) {
            topic = true;
            continue;
        }
        let mut stems = text::stems(&w).peekable();
        let asked = stems.peek().is_some() && stems.all(|st| subject.contains(&st));
        if asked
            || spans::is_function_word(&w)
            || GENERIC_WORDS.contains(&w.as_str())
            || COUNT_CUES.contains(&w.as_str())
            || ID_WORDS.contains(&w.as_str())
            || FRAME_VERBS.contains(&w.as_str())
            || !w.chars().any(char::is_alphabetic)
        {
            continue;
        }
        match runs.last_mut() {
            Some(last) if question[last.1..a].trim().is_empty() => {
                last.1 = b;
                last.2 |= strong;
            }
            _ => runs.push((a, b, strong, topic)),
        }
        topic = false;
    }
    // A name written with a possessive ("tcu's roster") owns what is asked: best of all.
    let possessive = |b: usize| {
        let rest = &question[b..];
        (rest.starts_with("'s") || rest.starts_with("\u{2019}s"))
            && rest[rest.find('s').unwrap_or(0) + 1..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric())
    };
    let mut out: Vec<(bool, bool, bool, usize, Span)> = runs
        .into_iter()
        .filter_map(|(a, b, strong, topic)| {
            let span = spans::span_at(question, SpanKind::Word, a, b);
            let single = !question[a..b].contains(char::is_whitespace);
            let labels_next = span
                .after
                .first()
                .is_some_and(|w| ID_WORDS.contains(&w.as_str()));
            let lower = question[a..b].to_lowercase();
            // A title may hold a verb form or an adjective ("breaking bad"); a run of words of
            // rank or state only ("best new") is none.
            // An adverb says what is done, as in a predicate ("running normally").
            let weak = if single {
                !name_shaped(&lower)
            } else {
                lower.split_whitespace().all(generic)
                    || lower
                        .split_whitespace()
                        .any(|w| w.ends_with("ly") && w.chars().count() > 4)
            };
            (!labels_next && !weak).then_some((possessive(b), topic, strong, b - a, span))
        })
        .collect();
    out.sort_by(|x, y| {
        y.0.cmp(&x.0)
            .then(y.1.cmp(&x.1))
            .then(y.2.cmp(&x.2))
            .then(y.3.cmp(&x.3))
            .then(y.4.start.cmp(&x.4.start))
    });
    out.into_iter().map(|(_, _, _, _, s)| s).collect()
}

/// A free-text parameter ([`free_text`]) nothing filled takes the question's leftover content
/// ([`leftover_runs`]): "when did breaking bad first air" gives `name` "breaking bad", "which
/// wine goes with steak" gives `food` "steak". One run per parameter, named ones first.
pub(super) fn leftover(
    question: &str,
    open: &[Profile],
    spans: &[Span],
    used: &[bool],
    subject: &[String],
    own: &[String],
    params: &mut BTreeMap<String, Value>,
) {
    let mut takers: Vec<&Profile> = open
        .iter()
        .filter(|pr| !params.contains_key(&pr.p.name) && free_text(pr))
        .collect();
    takers.sort_by_key(|pr| (!pr.p.required, !pr.named(TEXT_WORDS), !pr.named(FREE_WORDS)));
    // The question's free text is one value: an optional parameter takes it only when no
    // free-text parameter holds a value yet (`q` and `author` of one search get one of them).
    let mut text_given = open
        .iter()
        .any(|pr| params.contains_key(&pr.p.name) && free_text(pr));
    for pr in takers {
        if !pr.p.required && text_given {
            continue;
        }
        // A word the endpoint was ranked for only through this parameter's own description
        // (`food`: "a dish (\"steak\")") is the value it asks for, not what is asked; a word of
        // the endpoint's own URL path is what is asked ("aapl stock" for
        // `/last/stocks/{symbol}`, whose `symbol` is described as a stock's).
        let described: Vec<String> =
            pr.p.description
                .as_deref()
                .map(|d| text::stems(d).collect())
                .unwrap_or_default();
        let asked: Vec<String> = subject
            .iter()
            .filter(|st| !described.contains(st) || own.contains(st))
            .cloned()
            .collect();
        let taken: Vec<String> = params
            .values()
            .filter_map(Value::as_str)
            .map(str::to_lowercase)
            .collect();
        // A path parameter's key is a name, a preposition's object ("the scrabble score of
        // quixotic") or a word the catalog does not know ("does a goblin have"), never another
        // word of the question ("how many followers does it have").
        let keys_path = pr.in_path() && !pr.named(TEXT_WORDS) && !pr.named(FREE_WORDS);
        let unknown = |r: &Span| {
            spans::word_tokens(&question[r.start..r.end])
                .into_iter()
                .all(|(a, b)| {
                    let (a, b) = (r.start + a, r.start + b);
                    spans.iter().zip(used).any(|(s, u)| {
                        !*u && matches!(s.kind, SpanKind::Word | SpanKind::Name | SpanKind::Object)
                            && s.start <= a
                            && b <= s.end
                    })
                })
        };
        let run = leftover_runs(question, spans, used, &asked)
            .into_iter()
            .find(|r| !taken.contains(&r.value.to_lowercase()) && (!keys_path || unknown(r)));
        if let Some(run) = run
            && let Ok(v) = bind::coerce(pr.p, Value::String(run.value))
        {
            params.insert(pr.p.name.clone(), v);
            text_given = true;
        }
    }
}

/// Verbs after which a question writes the topic it searches for ("bills that mention
/// climate", "authors matching tolkien", "podcasts about chess"): they end a run of leftover
/// words, and the run after them is the searched text.
pub(super) const TOPIC_CUES: &[&str] = &[
    "about",
    "concerning",
    "contain",
    "containing",
    "contains",
    "matching",
    "mention",
    "mentioning",
    "mentions",
    "regarding",
];

/// Verbs of the request frame and question words ("find", "show me", "what can i cook"),
/// which ask, never name a value.
pub(super) const FRAME_VERBS: &[&str] = &[
    "ask",
    "buy",
    "check",
    "come",
    "comes",
    "cook",
    "did",
    "does",
    "find",
    "get",
    "give",
    "go",
    "goes",
    "help",
    "know",
    "like",
    "list",
    "look",
    "make",
    "need",
    "out",
    "play",
    "recommend",
    "say",
    "search",
    "see",
    "show",
    "tell",
    "use",
    "want",
    "well",
    "whats",
];

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    /// The words after a topic cue are the searched text, not the longer run before it.
    #[test]
    fn the_words_after_a_topic_cue_are_the_search_text() {
        let bills = endpoint("https://x.test/bills", &[("q", "query")]);
        assert_eq!(
            filled(
                &bills,
                "how many bills of the new york legislature mention climate",
                &["bill", "legislatur"]
            ),
            strings(&[("q", "climate")])
        );
        let authors = endpoint("https://x.test/authors", &[("q", "query")]);
        assert_eq!(
            filled(&authors, "find authors matching tolkien", &["author"]),
            strings(&[("q", "tolkien")])
        );
    }

    /// A required path parameter named as no id, date, place or count keys its entity by the
    /// word a person writes, when the catalog does not know it.
    #[test]
    fn a_path_key_of_words_takes_an_unknown_leftover_word() {
        let score = endpoint(
            "https://x.test/word.json/{word}/scrabbleScore",
            &[("word", "path")],
        );
        assert_eq!(
            filled(
                &score,
                "what is the scrabble score of quixotic",
                &["scrabbl", "score", "word"]
            ),
            strings(&[("word", "quixotic")])
        );
        // The id of a word is the word.
        let synonyms = endpoint(
            "https://x.test/entries/{word_id}/synonyms",
            &[("word_id", "path")],
        );
        assert_eq!(
            filled(
                &synonyms,
                "what are synonyms of happy?",
                &["synonym", "entri"]
            ),
            strings(&[("word_id", "happy")])
        );
        let monster = endpoint("https://x.test/api/monsters/{index}", &[("index", "path")]);
        assert_eq!(
            filled(
                &monster,
                "how many hit points does a goblin have",
                &["hit", "point", "monster"]
            ),
            strings(&[("index", "goblin")])
        );
        // A word the catalog knows is what is asked; an id is never a word.
        assert!(
            filled(
                &monster,
                "how many hit points does a monster have",
                &["hit", "point", "monster"]
            )
            .is_empty()
        );
        let id = endpoint(
            "https://x.test/api/monsters/{monster_id}",
            &[("monster_id", "path")],
        );
        assert!(
            filled(
                &id,
                "how many hit points does a goblin have",
                &["hit", "point", "monster"]
            )
            .is_empty()
        );
    }

    #[test]
    fn leftover_content_words_fill_a_free_text_parameter() {
        let series = endpoint("https://x.test/search/series", &[("name", "query")]);
        for (q, subject, want) in [
            (
                "when did breaking bad first air",
                &["first", "air"][..],
                "breaking bad",
            ),
            (
                "what year did elden ring come out",
                &["year"][..],
                "elden ring",
            ),
            (
                "is the latest season of severance out",
                &["season"][..],
                "severance",
            ),
        ] {
            assert_eq!(
                filled_for(&series, q, subject, subject),
                strings(&[("name", want)]),
                "{q}"
            );
        }
        // A team, a ticker in lower case.
        let games = endpoint("https://x.test/games", &[("team", "query")]);
        for (q, want) in [
            ("when does ohio state play next", "ohio state"),
            ("last score of the Alabama games", "Alabama"),
        ] {
            assert_eq!(
                filled_for(&games, q, &["game", "score"], &["game", "score"]),
                strings(&[("team", want)]),
                "{q}"
            );
        }
        // A name with a possessive owns what is asked, before a preposition's object.
        assert_eq!(
            filled_for(
                &games,
                "how tall are the players on tcu's roster, in inches and pounds",
                &["player", "roster", "tall"],
                &["player", "roster", "tall"]
            ),
            strings(&[("team", "tcu")])
        );
        // A word of the endpoint's own path is asked, even where the parameter's description
        // names it.
        let mut last = endpoint(
            "https://x.test/last/stocks/{symbol}",
            &[("symbol", "query")],
        );
        last.parameters[0].description = Some("The symbol of the stock".into());
        assert_eq!(
            filled_for(
                &last,
                "the last traded price of aapl stock",
                &["last", "trade", "price", "stock"],
                &["last", "trade", "price", "stock"]
            ),
            strings(&[("symbol", "aapl")])
        );
        let quote = endpoint("https://x.test/quote", &[("symbol", "query")]);
        assert_eq!(
            filled_for(
                &quote,
                "share price of aapl",
                &["share", "price"],
                &["share", "price"]
            ),
            strings(&[("symbol", "aapl")])
        );
        // A required parameter described with the word the endpoint was ranked for: the word
        // is its value.
        let mut wine = endpoint("https://x.test/wine", &[("food", "query")]);
        wine.parameters[0].required = true;
        wine.parameters[0].description = Some("A dish (\"steak\") or an ingredient".into());
        assert_eq!(
            filled_for(
                &wine,
                "which wine goes well with steak",
                &["wine", "steak"],
                &["wine", "steak"]
            ),
            strings(&[("food", "steak")])
        );
        // Generic adjectives, verbs of the request and words of rank are no values.
        for q in [
            "show me the current top series",
            "find the latest new series",
            "is the series running normally",
            "list the best series",
        ] {
            assert!(
                filled_for(&series, q, &["seri"], &["seri"]).is_empty(),
                "{q}"
            );
        }
    }
}
