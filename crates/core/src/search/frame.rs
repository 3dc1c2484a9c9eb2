//! The request frame: the words that open a request without saying what it is about ("Can you
//! help me find ...", "Show me ...", "Tell me ..."). A ranking that weighs them like content words
//! prefers endpoints that happen to say "find" or "show" (Spotify's podcast *shows*) over the
//! ones about the request's subject; [`frame_words`] marks them so the query weighs them less.
//!
//! English function words and verbs of asking, not any domain's knowledge.

/// Words that open a request before its verb ("Please", "Can you help me", "I want to").
pub const REQUEST_OPENERS: &[&str] = &[
    "can", "could", "help", "i", "id", "kindly", "let", "lets", "like", "me", "need", "please",
    "to", "us", "want", "would", "you",
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
    fn lists_are_sorted() {
        for l in [REQUEST_OPENERS, FRAME_VERBS, TASK_VERBS] {
            let mut s = l.to_vec();
            s.sort();
            s.dedup();
            assert_eq!(s, l);
        }
    }
}
