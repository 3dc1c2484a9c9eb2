//! Pass `keywords`: a keyword value a text parameter's description quotes (`"last-used" can be
//! used to specify the last used budget`, `use 'me' for the signed-in user`, `` `latest` ``) and
//! the question writes ("my last-used budget", "the last used budget") fills the parameter as
//! the description spells it. The catalog itself says which words are values here, so no word
//! list is needed; a quoted word that is a function word of English is never one.

use super::profile::Profile;
use serde_json::Value;
use std::collections::BTreeMap;

/// The keyword values a description quotes: text in double, single, typographic quotes or
/// backticks, of one to three words of letters and digits joined by `-`, `_` or spaces, with a
/// letter, at most 30 characters, not a function word.
pub(super) fn keywords(description: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let chars: Vec<(usize, char)> = description.char_indices().collect();
    let closing = |c: char| match c {
        '"' => Some('"'),
        '\'' => Some('\''),
        '`' => Some('`'),
        '“' => Some('”'),
        '‘' => Some('’'),
        _ => None,
    };
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        // An apostrophe inside a word ("budget's") opens no quote.
        let inside_word = i > 0 && chars[i - 1].1.is_alphanumeric();
        let Some(close) = closing(c).filter(|_| !inside_word) else {
            i += 1;
            continue;
        };
        let start = at + c.len_utf8();
        let Some(len) = description[start..].find(close) else {
            break;
        };
        let v = &description[start..start + len];
        if keyword_shaped(v) && !out.iter().any(|o| o == v) {
            out.push(v.to_string());
        }
        let end = start + len + close.len_utf8();
        i = chars.partition_point(|&(a, _)| a < end);
    }
    out
}

/// Whether quoted text is a keyword value (see [`keywords`]).
fn keyword_shaped(v: &str) -> bool {
    let words = words_of(v);
    !v.is_empty()
        && v.chars().count() <= 30
        && v.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        && v.chars().any(char::is_alphabetic)
        && (1..=3).contains(&words.len())
        && !(words.len() == 1
            && (crate::search::text::is_stop_word(&words[0])
                || crate::search::text::is_light_word(&words[0])
                || words[0].chars().count() < 2))
}

/// The lower-case words of a value, split at anything not a letter or digit.
fn words_of(v: &str) -> Vec<String> {
    v.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Fill each open text parameter without enum values whose description quotes a keyword the
/// question writes (its words in order, joined by anything but letters and digits: "last-used",
/// "last used"); the longest keyword wins. Returns the byte ranges of the question so used.
///
/// A keyword quoted by several parameters' descriptions is prose about the endpoint ("Filter
/// best podcasts by region. If not specified, you'll get \"best podcasts\" in any region"),
/// and so is one made only of the words its URL path names (`asked`): neither is a value. (The
/// words the endpoint is ranked for are no test: a keyword's own description ranks it.)
pub(super) fn pass(
    question: &str,
    open: &[Profile],
    asked: &[String],
    params: &mut BTreeMap<String, Value>,
) -> Vec<(usize, usize)> {
    let mut used = Vec::new();
    let quoted: Vec<Vec<String>> = open
        .iter()
        .map(|pr| {
            pr.p.description
                .as_deref()
                .map(keywords)
                .unwrap_or_default()
        })
        .collect();
    let shared = |k: &String| quoted.iter().filter(|q| q.contains(k)).count() > 1;
    let prose = |k: &String| {
        let mut stems = crate::search::text::stems(k).peekable();
        stems.peek().is_some() && stems.all(|st| asked.contains(&st))
    };
    // Words of the question with their byte ranges (ASCII lower case keeps the offsets).
    let lower = question.to_lowercase();
    if lower.len() != question.len() {
        return used;
    }
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in lower.char_indices().chain([(lower.len(), ' ')]) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    for pr in open {
        if !pr.p.enum_values.is_empty()
            || pr.numeric
            || pr.temporal
            || params.contains_key(&pr.p.name)
        {
            continue;
        }
        let Some(d) = pr.p.description.as_deref() else {
            continue;
        };
        let found = keywords(d)
            .into_iter()
            .filter(|k| !shared(k) && !prose(k))
            .filter_map(|k| {
                let kw = words_of(&k);
                words
                    .windows(kw.len())
                    .find(|w| w.iter().zip(&kw).all(|(&(s, e), x)| &lower[s..e] == x))
                    .map(|w| (kw.len(), k.clone(), (w[0].0, w[w.len() - 1].1)))
            })
            .max_by_key(|(n, _, _)| *n);
        if let Some((_, k, range)) = found {
            params.insert(pr.p.name.clone(), Value::from(k));
            used.push(range);
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    fn described(
        url: &str,
        name: &str,
        location: &str,
        description: &str,
    ) -> crate::artifact::EndpointData {
        let mut e = endpoint(url, &[(name, location)]);
        e.parameters[0].description = Some(description.to_string());
        e
    }

    #[test]
    fn quoted_keywords_of_a_description() {
        assert_eq!(
            keywords(
                "The id of the budget. \"last-used\" can be used to specify the last used budget \
                 and \"default\" can be used if default budget selection is enabled"
            ),
            ["last-used", "default"]
        );
        assert_eq!(
            keywords("A release tag, `latest` or 'nightly'."),
            ["latest", "nightly"]
        );
        // An apostrophe in a word, a sentence in quotes and a function word are no keywords.
        assert!(
            keywords("The user's id; see \"how to find your id in the settings page\"").is_empty()
        );
        assert!(keywords("Pass \"a\" or \"the\"").is_empty());
        assert_eq!(keywords("Sort order: ‘most recent’ first"), ["most recent"]);
    }

    #[test]
    fn a_quoted_keyword_the_question_writes_fills_the_parameter() {
        let budget = described(
            "https://x.test/budgets/{budget_id}/payees",
            "budget_id",
            "path",
            "The id of the budget. \"last-used\" can be used to specify the last used budget",
        );
        for q in [
            "who are the payees in my last-used budget",
            "payees of the last used budget",
            "Last-Used budget payees",
        ] {
            assert_eq!(
                filled(&budget, q, &[]),
                strings(&[("budget_id", "last-used")]),
                "{q}"
            );
            // Ranked for the keyword's words (its description holds them): still its value.
            assert_eq!(
                filled_for(&budget, q, &[], &["last", "use", "budget"]),
                strings(&[("budget_id", "last-used")]),
                "{q}"
            );
        }
        let release = described(
            "https://x.test/releases/{tag}",
            "tag",
            "path",
            "A release tag, or `latest` for the newest release",
        );
        assert_eq!(
            filled(
                &release,
                "notes of the latest release",
                &["release", "note"]
            ),
            strings(&[("tag", "latest")])
        );
        let sort = described(
            "https://x.test/items",
            "sort",
            "query",
            "Order: 'newest' or 'most popular'",
        );
        assert_eq!(
            filled(&sort, "the most popular items", &["item"]),
            strings(&[("sort", "most popular")])
        );
    }

    #[test]
    fn a_keyword_of_prose_is_no_value() {
        let mut best = endpoint(
            "https://x.test/best_podcasts",
            &[("region", "query"), ("language", "query")],
        );
        best.parameters[0].description =
            Some("Country code. If not specified, you'll get \"best podcasts\" in the US".into());
        best.parameters[1].description =
            Some("Language. If not specified, you'll get \"best podcasts\" in any language".into());
        fn no_prose(q: &str, e: &crate::artifact::EndpointData) -> bool {
            filled(e, q, &["best", "podcast"])
                .values()
                .all(|v| v != "best podcasts")
        }
        assert!(no_prose("best podcasts in gb", &best));
        // One parameter quoting the endpoint's own words: what is asked, not a value.
        best.parameters.truncate(1);
        assert!(no_prose("the best podcasts", &best));
    }

    #[test]
    fn no_keyword_without_the_words_in_order() {
        let budget = described(
            "https://x.test/budgets/{budget_id}",
            "budget_id",
            "path",
            "\"last-used\" can be used to specify the last used budget",
        );
        assert!(!filled(&budget, "the budget i used last", &[]).contains_key("budget_id"));
    }
}
