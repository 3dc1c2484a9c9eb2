//! Languages a question names ("into French", "in Japanese"), read by the search and by the
//! route's code fill (`fill::codes`).
//!
//! A question that names a language as the medium of a text ("Translate 'hello' into French",
//! "How do you say thank you in Japanese?") is about languages, though it may write no word a
//! catalog indexes: [`super::Query::new`] adds the stem of "language" as an implied term
//! ([`super::Query::implied_terms`]). [`implied`] gives the ranges that imply it: a language's
//! name right after `in`, `into`, `to` or `from`. A name before a noun is as often a
//! nationality ("French restaurants", "Japanese cars") and implies nothing.
//!
//! The names are the ISO 639 English names of the `isolang` crate, of the languages with an
//! ISO 639-1 code (language data, not any catalog's).

use std::collections::HashMap;
use std::sync::OnceLock;

/// Words right before a language's name that make it the medium of a text.
pub const MEDIUM_CUES: &[&str] = &["from", "in", "into", "to"];

/// The ISO 639-1 code of a language named by `word` (any case: "french", "German").
pub fn language(word: &str) -> Option<&'static str> {
    let mut chars = word.chars();
    let title: String = chars
        .next()?
        .to_uppercase()
        .chain(chars.flat_map(char::to_lowercase))
        .collect();
    names().get(title.as_str()).copied().flatten()
}

/// ISO 639 English names with the ISO 639-1 code of the first language of each name (what
/// `isolang::Language::from_name` finds, by a scan of every language), built once: [`language`]
/// is asked for every word of a question.
fn names() -> &'static HashMap<&'static str, Option<&'static str>> {
    static NAMES: OnceLock<HashMap<&'static str, Option<&'static str>>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = HashMap::new();
        for l in isolang::languages() {
            names.entry(l.to_name()).or_insert_with(|| l.to_639_1());
        }
        names
    })
}

/// Byte ranges of the languages `question` names as the medium of a text: a name with an ISO
/// 639-1 code, written capitalised, right after one of [`MEDIUM_CUES`].
pub fn implied(question: &str) -> Vec<(usize, usize)> {
    let (toks, _) = super::spans::lower_words(question);
    (1..toks.len())
        .filter(|&i| {
            let (a, b) = toks[i];
            let word = &question[a..b];
            let (pa, pb) = toks[i - 1];
            word.chars().next().is_some_and(char::is_uppercase)
                && question[pb..a].trim().is_empty()
                && MEDIUM_CUES.contains(&question[pa..pb].to_lowercase().as_str())
                && language(word).is_some()
        })
        .map(|i| toks[i])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_read_by_their_english_names() {
        assert_eq!(language("french"), Some("fr"));
        assert_eq!(language("Japanese"), Some("ja"));
        assert_eq!(language("klingon"), None);
        // The table is what a scan of every language finds.
        for l in isolang::languages() {
            let name = l.to_name();
            assert_eq!(
                names().get(name).copied().flatten(),
                isolang::Language::from_name(name).and_then(|l| l.to_639_1()),
                "{name}"
            );
        }
    }

    #[test]
    fn a_language_is_implied_as_the_medium_of_a_text() {
        fn at(q: &str) -> Vec<&str> {
            implied(q).into_iter().map(|(a, b)| &q[a..b]).collect()
        }
        assert_eq!(at("Translate 'hello' into French"), ["French"]);
        assert_eq!(at("How do you say thank you in Japanese?"), ["Japanese"]);
        assert_eq!(at("from German to English"), ["German", "English"]);
        // A nationality before a noun, or a language's name not written as one, implies none.
        assert!(at("French restaurants in Lyon").is_empty());
        assert!(at("what is in english breakfast tea").is_empty());
    }
}
