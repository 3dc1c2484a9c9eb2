//! The request frame: the words that open a request without saying what it is about ("Can you
//! help me find ...", "Show me ...", "Tell me ..."). A ranking that weighs them like content words
//! prefers endpoints that happen to say "find" or "show" (Spotify's podcast *shows*) over the
//! ones about the request's subject; [`frame_words`] marks them so the query weighs them less.
//!
//! English function words and verbs of asking, not any domain's knowledge.

/// Words that open a request before its verb ("Please", "Can you help me", "I want to").
pub const REQUEST_OPENERS: &[&str] = &[
    "can", "could", "help", "i", "id", "kindly", "let", "lets", "like", "me", "need", "please",
    "shall", "to", "us", "want", "will", "would", "you",
];

/// Verbs that frame a request for information ("Show me", "Find", "Give me", "List").
pub const FRAME_VERBS: &[&str] = &[
    "bring", "check", "display", "fetch", "find", "get", "give", "know", "list", "look", "provide",
    "pull", "see", "show", "tell",
];

/// Verbs of asking for information or of composing an answer from it (a report, a plan, a
/// document), which endpoints that return data serve. Actions outside them (e-mailing, ordering,
/// playing, booking) need an endpoint that names or describes them.
pub const TASK_VERBS: &[&str] = &[
    "analyse",
    "analyze",
    "arrange",
    "assess",
    "build",
    "calculate",
    "check",
    "choose",
    "collect",
    "compare",
    "compose",
    "compute",
    "conduct",
    "convert",
    "count",
    "create",
    "describe",
    "design",
    "display",
    "do",
    "download",
    "draft",
    "draw",
    "estimate",
    "evaluate",
    "explain",
    "extract",
    "fetch",
    "find",
    "gather",
    "generate",
    "get",
    "give",
    "help",
    "identify",
    "introduce",
    "investigate",
    "know",
    "learn",
    "list",
    "look",
    "lookup",
    "make",
    "monitor",
    "open",
    "organise",
    "organize",
    "perform",
    "pick",
    "plan",
    "plot",
    "prepare",
    "produce",
    "provide",
    "pull",
    "read",
    "recommend",
    "report",
    "research",
    "retrieve",
    "review",
    "run",
    "save",
    "search",
    "see",
    "select",
    "show",
    "study",
    "suggest",
    "summarise",
    "summarize",
    "tell",
    "track",
    "view",
    "what",
    "which",
    "write",
];

/// Phrases that ask for a count, lower case, word by word.
const COUNT_PHRASES: &[&[&str]] = &[
    &["how", "many"],
    &["number", "of"],
    &["count", "of"],
    &["total", "number", "of"],
];

/// What a request counts: the words right after a count phrase ("how many open issues does …"
/// gives `open`, `issues`; "the number of tracks on …" gives `tracks`), up to the first stop
/// word, light word or punctuation, at most three. `None` when the request asks for no count.
pub fn counted(text: &str) -> Option<Vec<String>> {
    let ws = words(text);
    let at = (0..ws.len()).find_map(|i| {
        COUNT_PHRASES
            .iter()
            .find(|p| {
                p.iter()
                    .enumerate()
                    .all(|(j, w)| ws.get(i + j).is_some_and(|x| x.2 == *w))
            })
            .map(|p| i + p.len())
    })?;
    let mut out: Vec<String> = Vec::new();
    let mut prev_end = ws.get(at.checked_sub(1)?)?.1;
    for (start, end, w) in ws.iter().skip(at).take(3) {
        let between = &text[prev_end..*start];
        if !between.chars().all(|c| c == ' ' || c == '-')
            || crate::search::text::is_stop_word(w)
            || crate::search::text::is_light_word(w)
        {
            break;
        }
        out.push(w.clone());
        prev_end = *end;
    }
    (!out.is_empty()).then_some(out)
}

/// Words that measure rather than name what is asked ("how many minutes", "how much money"
/// asks for a duration or an amount, which a catalog names otherwise: `runtime`, `price`):
/// units of time, length, weight and volume. Language data, sorted.
pub const MEASURE_WORDS: &[&str] = &[
    "centimeters",
    "centimetres",
    "cups",
    "days",
    "feet",
    "grams",
    "hours",
    "inches",
    "kilograms",
    "kilometers",
    "kilometres",
    "kilos",
    "liters",
    "litres",
    "meters",
    "metres",
    "miles",
    "milliliters",
    "millilitres",
    "minutes",
    "months",
    "ounces",
    "pounds",
    "seconds",
    "times",
    "weeks",
    "years",
];

/// Question words that ask about a thing named right after them or after a copula ("what
/// network is …", "when is high tide …", "which tracks did …").
const THING_QUESTIONS: &[&str] = &["what", "whats", "when", "where", "which", "who"];

/// Question words a noun phrase may follow at once ("what network", "which tracks").
const NOUN_QUESTIONS: &[&str] = &["what", "which"];

/// Forms of "to be" between a question word and what it asks about.
const COPULAS: &[&str] = &["are", "is", "s", "was", "were"];

/// Determiners and possessive pronouns before a noun phrase.
const DETERMINERS: &[&str] = &[
    "a", "an", "any", "her", "his", "its", "my", "our", "that", "the", "their", "these", "this",
    "those", "your",
];

/// What a question asks about: the noun phrase after a count phrase ("how many downloads …",
/// "how much money …"), after "what"/"which" ("what network is …"), after a question word and a
/// copula ("when is high tide …", "what are the lyrics of …"), or after "is there" ("was there an
/// earthquake …"), up to the first stop word, light word, punctuation, digit or quote; an
/// owner before `'s` is a value, not part of it ("alabama's elo rating" asks about `elo
/// rating`). `None` when the request is not such a question, or asks for a measure
/// ([`MEASURE_WORDS`]: "how many minutes …").
pub fn asked(text: &str) -> Option<Vec<String>> {
    let ws = words(text);
    let w = |i: usize| ws.get(i).map_or("", |x| x.2.as_str());
    let mut at = None;
    if w(0) == "how" && matches!(w(1), "many" | "much") {
        at = Some(2);
    } else if THING_QUESTIONS.contains(&w(0)) {
        if w(0) == "whats" {
            let mut i = 1;
            while DETERMINERS.contains(&w(i)) {
                i += 1;
            }
            at = Some(i);
        } else if NOUN_QUESTIONS.contains(&w(0)) && !phrase(text, &ws, 1).is_empty() {
            at = Some(1);
        } else if COPULAS.contains(&w(1)) {
            let mut i = 2;
            while DETERMINERS.contains(&w(i)) {
                i += 1;
            }
            at = Some(i);
        }
    } else if COPULAS.contains(&w(0)) && w(1) == "there" {
        let mut i = 2;
        while DETERMINERS.contains(&w(i)) {
            i += 1;
        }
        at = Some(i);
    }
    let out = phrase(text, &ws, at?);
    let measure = out
        .last()
        .is_some_and(|h| MEASURE_WORDS.binary_search(&h.as_str()).is_ok());
    (!out.is_empty() && !measure).then_some(out)
}

/// The noun phrase of [`asked`] starting at word `at`.
fn phrase(text: &str, ws: &[(usize, usize, String)], at: usize) -> Vec<String> {
    use crate::search::text::{is_light_word, is_stop_word};
    let mut out: Vec<String> = Vec::new();
    let mut prev_end = match at.checked_sub(1).and_then(|i| ws.get(i)) {
        Some(p) => p.1,
        None => return out,
    };
    for (start, end, word) in ws.iter().skip(at) {
        let between = &text[prev_end..*start];
        let raw = &text[*start..*end];
        if !between.chars().all(|c| c == ' ' || c == '-')
            || is_stop_word(word)
            || is_light_word(word)
            || COPULAS.contains(&word.as_str())
            || word.chars().any(|c| c.is_ascii_digit())
        {
            break;
        }
        prev_end = *end;
        if raw.ends_with("'s") || raw.ends_with("’s") {
            // An owner: what is asked is what follows.
            out.clear();
            continue;
        }
        out.push(word.clone());
    }
    out
}

/// The lower-case words of a text with their byte ranges.
pub fn words(text: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let part = c.is_alphanumeric() || c == '\'' || c == '’';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i, clean(&text[s..i])));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len(), clean(&text[s..])));
    }
    out
}

fn clean(w: &str) -> String {
    w.chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

/// The byte range of the request frame at the start of `text`: the openers, then a frame verb
/// and the pronoun after it ("Can you show me", "Find", "Please tell me"); `None` when the
/// request does not open with a frame verb.
pub fn frame_words(text: &str) -> Option<(usize, usize)> {
    let ws = words(text);
    let at = ws
        .iter()
        .position(|(_, _, w)| !REQUEST_OPENERS.contains(&w.as_str()))?;
    let (_, mut end, verb) = ws[at].clone();
    if !FRAME_VERBS.contains(&verb.as_str()) {
        return None;
    }
    if let Some((_, e, w)) = ws.get(at + 1)
        && matches!(w.as_str(), "me" | "us" | "out")
    {
        end = *e;
    }
    Some((ws[0].0, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_reads_the_words_after_a_count_phrase() {
        let c = |t: &str| counted(t).map(|v| v.join(" "));
        assert_eq!(
            c("how many open issues does numpy/numpy have").as_deref(),
            Some("open issues")
        );
        assert_eq!(c("How many pages has it?").as_deref(), Some("pages"));
        assert_eq!(
            c("the number of tracks on album 4aaw").as_deref(),
            Some("tracks")
        );
        assert_eq!(
            c("total number of seasons, please").as_deref(),
            Some("seasons")
        );
        assert_eq!(c("how many, roughly?"), None);
        assert_eq!(c("how many more episodes"), None);
        assert_eq!(c("what is the number"), None);
        assert_eq!(c("list the followers"), None);
    }

    fn framed(t: &str) -> Option<&str> {
        frame_words(t).map(|(s, e)| &t[s..e])
    }

    #[test]
    fn frames_are_the_opening_request_words() {
        assert_eq!(framed("Show me my saved playlists"), Some("Show me"));
        assert_eq!(
            framed("Can you find albums by Radiohead?"),
            Some("Can you find")
        );
        assert_eq!(framed("Please tell me the weather"), Some("Please tell me"));
        assert_eq!(framed("Search papers about graphs"), None);
        assert_eq!(framed("Weather in Lyon"), None);
    }

    #[test]
    fn asked_reads_what_a_question_asks_about() {
        let a = |t: &str| asked(t).map(|v| v.join(" "));
        assert_eq!(
            a("how many downloads did serde get").as_deref(),
            Some("downloads")
        );
        assert_eq!(
            a("How much money did the movie make?").as_deref(),
            Some("money")
        );
        assert_eq!(
            a("when is high tide in brest").as_deref(),
            Some("high tide")
        );
        assert_eq!(
            a("What are the lyrics of Yesterday").as_deref(),
            Some("lyrics")
        );
        assert_eq!(
            a("what's the default branch of x/y").as_deref(),
            Some("default branch")
        );
        assert_eq!(a("what network is the show on").as_deref(), Some("network"));
        assert_eq!(a("which tracks did i play").as_deref(), Some("tracks"));
        assert_eq!(
            a("was there an earthquake near tokyo").as_deref(),
            Some("earthquake")
        );
        assert_eq!(
            a("what was alabama's elo rating in 2021").as_deref(),
            Some("elo rating")
        );
        // A measure, an event asked about by its verb, a request, an adjective: nothing named.
        assert_eq!(a("how many minutes by tube from a to b"), None);
        assert_eq!(a("when did breaking bad first air"), None);
        assert_eq!(a("who coached texas in 2010"), None);
        assert_eq!(a("list the tags of the repo"), None);
        assert_eq!(a("how cold will it get tonight"), None);
        assert_eq!(a("how much does a ticket cost"), None);
    }

    #[test]
    fn lists_are_sorted() {
        for l in [
            REQUEST_OPENERS,
            FRAME_VERBS,
            TASK_VERBS,
            MEASURE_WORDS,
            DETERMINERS,
        ] {
            let mut s = l.to_vec();
            s.sort();
            s.dedup();
            assert_eq!(s, l);
        }
    }
}
