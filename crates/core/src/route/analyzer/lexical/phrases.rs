//! Phrase helpers of the lexical Understand step: where a topic begins and ends ("papers on
//! X published since ..."), the subject of "how many X does Y have", Korean topic markers, and
//! whole-word search. English and Korean grammar only.

/// Words that introduce the topic of a search ("papers on X", "posts discussing Y").
pub(super) const TOPIC_KEYS: &[&str] = &[
    "about",
    "on",
    "regarding",
    "concerning",
    "related to",
    "discussing",
    "mentioning",
    "covering",
];

/// Words that end a topic (the last, `by`, only when an author was found).
pub(super) const TOPIC_STOPS: &[&str] = &[
    "published",
    "since",
    "from",
    "in the",
    "after",
    "before",
    "by",
];

/// Verbs that ask a tool to search ("search PubMed for ...").
pub(super) const SEARCH_VERBS: &[&str] = &[
    "search", "look", "lookup", "query", "check", "browse", "scan",
];

/// Words that lead into the years bounding a literature topic ("published between 2018 and
/// 2020"), cut from the topic's end with the years.
pub(super) const YEAR_LEADS: &[&str] = &[
    "between",
    "from",
    "since",
    "after",
    "before",
    "until",
    "in",
    "during",
    "published",
    "by",
];

/// Whether `text` holds `word` with no letter, digit or `_` right before or after it.
pub(super) fn mentions(text: &str, word: &str) -> bool {
    let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
    text.match_indices(word).any(|(i, w)| {
        edge(text[..i].chars().next_back()) && edge(text[i + w.len()..].chars().next())
    })
}

/// The end of the first whole-word, case-insensitive occurrence of `word` (lower case) in
/// `text`.
pub(super) fn boundary(text: &str, word: &str) -> Option<usize> {
    let lower = text.to_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find(word) {
        let s = from + i;
        let e = s + word.len();
        let before = s == 0
            || !lower[..s]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
        let after =
            e == lower.len() || !lower[e..].chars().next().is_some_and(char::is_alphanumeric);
        if before && after {
            return Some(e);
        }
        from = e;
    }
    None
}

/// The phrase after the last of `keys` up to punctuation or one of `stops`.
pub(super) fn phrase_after<'a>(text: &'a str, keys: &[&str], stops: &[&str]) -> Option<&'a str> {
    let start = keys.iter().filter_map(|k| boundary(text, k)).max()?;
    let rest = &text[start..];
    let mut end = rest
        .find(['?', ';', ',', '.', '!', ':', '('])
        .unwrap_or(rest.len());
    // A dash between spaces ends the clause as a comma does ("... anodes - titles and
    // abstracts"); one inside a word (`solid-state`) does not.
    for dash in [" - ", " – ", " — "] {
        if let Some(i) = rest.find(dash) {
            end = end.min(i);
        }
    }
    for s in stops {
        if let Some(i) = boundary(rest, s) {
            end = end.min(i - s.len());
        }
    }
    let phrase = rest[..end].trim().trim_start_matches("the ").trim();
    let phrase = phrase
        .strip_suffix(" papers")
        .or(phrase.strip_suffix(" preprints"))
        .or(phrase.strip_suffix(" articles"))
        .or(phrase.strip_suffix(" publications"))
        .unwrap_or(phrase)
        .trim();
    if phrase.is_empty() || phrase.split_whitespace().count() > 12 {
        None
    } else {
        Some(phrase)
    }
}

/// The subject of "How many X does Y have?" (one to four words).
pub(super) fn subject_of_have(text: &str) -> Option<&str> {
    let lower = text.to_lowercase();
    let start = boundary(&lower, "does")?;
    let rest = &lower[start..];
    let end = rest.find(" have").or_else(|| rest.find(" has"))?;
    let phrase = text[start..start + end].trim();
    let phrase = phrase
        .strip_prefix("the ")
        .or(phrase.strip_prefix("The "))
        .unwrap_or(phrase);
    let words = phrase.split_whitespace().count();
    (1..=4).contains(&words).then_some(phrase)
}

/// Korean topic phrases: the words before `에 관한` / `에 대한` / `관련`.
pub(super) fn phrase_before_ko(text: &str) -> Option<&str> {
    for marker in ["에 관한", "에 대한", " 관련"] {
        if let Some(i) = text.find(marker) {
            let head = text[..i].trim();
            let start = head.rfind(['.', ',', '?', '!']).map(|p| p + 1).unwrap_or(0);
            let phrase = head[start..].trim();
            if !phrase.is_empty() {
                return Some(phrase);
            }
        }
    }
    None
}
