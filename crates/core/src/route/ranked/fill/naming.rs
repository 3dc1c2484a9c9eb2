//! Pass `naming`: the name a question gives a thing ("a new tag called comfort rewatch",
//! "venues named red rocks", "rename tag 7 to sci-fi classics", "a list titled 'to watch'")
//! fills a parameter that takes a name: one whose name says so (`name`, `title`, `label`), else
//! one the noun before the cue names ("authors called smith" for `author`). The value is the
//! words after the cue, whole, up to punctuation or the next preposition: a name of several
//! words is one value, and none of its words goes to another parameter. The cue words are
//! English language data ([`NAMING_CUES`], [`RENAME_VERBS`]).

use super::profile::Profile;
use serde_json::Value;
use std::collections::BTreeMap;

/// Words that introduce a name the question gives ("called X", "named X").
const NAMING_CUES: &[&str] = &["called", "named", "titled", "entitled"];

/// Verbs of renaming: "rename X to Y" gives the name after their `to`.
const RENAME_VERBS: &[&str] = &["rename", "renaming", "retitle", "relabel"];

/// Words of a parameter's name that say it takes a name.
const NAME_PARAM_WORDS: &[&str] = &["name", "title", "label", "displayname"];

/// Words that end a name written after its cue (prepositions and conjunctions), as any
/// function word does after its first word.
const ENDS: &[&str] = &[
    "on", "in", "at", "for", "with", "from", "into", "under", "and", "by", "to", "of", "that",
    "which", "who", "please",
];

/// The words of `question` with their byte ranges (letters, digits and inner `-`, `'`, `.`).
fn tokens(question: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let chars: Vec<(usize, char)> = question.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let inner = matches!(c, '-' | '\'' | '.' | '&')
            && start.is_some()
            && chars.get(k + 1).is_some_and(|&(_, n)| n.is_alphanumeric());
        match (c.is_alphanumeric() || inner, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, question.len()));
    }
    out
}

/// The names the question gives: (byte range of the value, the lower-case word before the cue).
fn given_names(question: &str) -> Vec<((usize, usize), Option<String>)> {
    let toks = tokens(question);
    let word = |k: usize| question[toks[k].0..toks[k].1].to_lowercase();
    let renames = (0..toks.len()).find(|&k| RENAME_VERBS.contains(&word(k).as_str()));
    let mut out = Vec::new();
    for k in 0..toks.len() {
        let w = word(k);
        let cue = NAMING_CUES.contains(&w.as_str())
            || (w == "to" && renames.is_some_and(|r| r < k) && k > 0);
        if !cue || k + 1 >= toks.len() {
            continue;
        }
        let from = toks[k].1;
        let rest = &question[from..];
        let lead = rest.len() - rest.trim_start().len();
        let open = rest.trim_start().chars().next();
        // A quoted name: the text in its quotes.
        if let Some(q) = open.filter(|c| matches!(c, '"' | '\'' | '“' | '‘' | '`')) {
            let close = match q {
                '“' => '”',
                '‘' => '’',
                c => c,
            };
            let s = from + lead + q.len_utf8();
            if let Some(len) = question[s..].find(close) {
                out.push(((s, s + len), before_cue(question, &toks, k)));
            }
            continue;
        }
        let mut end = k + 1;
        while end < toks.len() {
            let gap = &question[toks[end - 1].1..toks[end].0];
            let w = word(end);
            if end > k + 1
                && (gap.chars().any(|c| !c.is_whitespace())
                    || ENDS.contains(&w.as_str())
                    || crate::search::spans::is_function_word(&w))
            {
                break;
            }
            end += 1;
        }
        if end > k + 1 && !ENDS.contains(&word(k + 1).as_str()) {
            out.push((
                (toks[k + 1].0, toks[end - 1].1),
                before_cue(question, &toks, k),
            ));
        }
    }
    out
}

/// The lower-case word right before a cue ("tag" in "a new tag called X"), if any.
fn before_cue(question: &str, toks: &[(usize, usize)], k: usize) -> Option<String> {
    (k > 0).then(|| question[toks[k - 1].0..toks[k - 1].1].to_lowercase())
}

/// Fill an open text parameter with each name the question gives (see the module docs);
/// returns the byte ranges used.
pub(super) fn pass(
    question: &str,
    open: &[Profile],
    params: &mut BTreeMap<String, Value>,
) -> Vec<(usize, usize)> {
    let mut used = Vec::new();
    for ((s, e), noun) in given_names(question) {
        let text = |pr: &&Profile| {
            !pr.numeric
                && !pr.temporal
                && pr.p.enum_values.is_empty()
                && pr.p.ty.trim_end_matches("[]") == "string"
                && !params.contains_key(&pr.p.name)
        };
        // Of the parameters that take a name, the one whose qualifier the noun before the name
        // says ("a city called X" for `cityName`), else a plain one ("venues called red rocks"
        // for `name`, not `cityName`), else the first.
        let rank = |pr: &&Profile| {
            let qualifiers = pr
                .words
                .iter()
                .filter(|w| !NAME_PARAM_WORDS.contains(&w.as_str()))
                .count();
            let said = noun
                .as_deref()
                .is_some_and(|n| qualifiers > 0 && pr.names(n));
            if said {
                2
            } else if qualifiers == 0 {
                1
            } else {
                0
            }
        };
        let mut by_name: Option<&Profile> = None;
        for pr in open.iter().filter(text).filter(|pr| {
            pr.words
                .iter()
                .any(|w| NAME_PARAM_WORDS.contains(&w.as_str()))
        }) {
            if by_name.is_none_or(|b| rank(&pr) > rank(&b)) {
                by_name = Some(pr);
            }
        }
        let by_noun = || {
            let noun = noun.as_deref()?;
            open.iter().filter(text).find(|pr| pr.names(noun))
        };
        if let Some(pr) = by_name.or_else(by_noun) {
            let v = &question[s..e];
            let value = if pr.p.ty.ends_with("[]") {
                Value::from(vec![Value::from(v)])
            } else {
                Value::from(v)
            };
            params.insert(pr.p.name.clone(), value);
            used.push((s, e));
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    fn names(q: &str) -> Vec<&str> {
        given_names(q)
            .into_iter()
            .map(|((s, e), _)| &q[s..e])
            .collect()
    }

    /// Of two parameters that take a name, the plain one, unless the noun before the name
    /// says the other's qualifier.
    #[test]
    fn a_name_goes_to_the_parameter_its_noun_qualifies() {
        let venues = endpoint(
            "https://x.test/search/venues",
            &[("cityName", "query"), ("name", "query")],
        );
        assert_eq!(
            filled(
                &venues,
                "find concert venues called red rocks",
                &["venu", "concert"]
            ),
            strings(&[("name", "red rocks")])
        );
        assert_eq!(
            filled(&venues, "venues in a city called boulder", &["venu"]),
            strings(&[("cityName", "boulder")])
        );
    }

    #[test]
    fn the_names_a_question_gives() {
        assert_eq!(
            names("create a new tag called comfort rewatch on my tvmaze account"),
            ["comfort rewatch"]
        );
        assert_eq!(
            names("rename tag 7 to sci-fi classics"),
            ["sci-fi classics"]
        );
        assert_eq!(
            names("a playlist named 'Songs for a rainy day' please"),
            ["Songs for a rainy day"]
        );
        assert_eq!(
            names("venues called red rocks, and their cities"),
            ["red rocks"]
        );
        // No name: the cue ends the question, or a preposition follows it.
        assert!(names("what is skill 42 called").is_empty());
        assert!(names("send it to bob").is_empty());
    }

    #[test]
    fn a_given_name_fills_a_name_parameter() {
        let tags = endpoint("https://x.test/user/tags", &[("name", "body")]);
        assert_eq!(
            filled(
                &tags,
                "create a new tag called comfort rewatch on my account",
                &["tag", "account"]
            ),
            strings(&[("name", "comfort rewatch")])
        );
        let rename = endpoint(
            "https://x.test/user/tags/{tag_id}",
            &[("tag_id", "path"), ("name", "body")],
        );
        assert_eq!(
            filled(&rename, "rename tag 7 to sci-fi classics", &["tag"]),
            strings(&[("name", "sci-fi classics"), ("tag_id", "7")])
        );
        let lists = endpoint("https://x.test/lists", &[("title", "body"), ("q", "query")]);
        assert_eq!(
            filled(&lists, "make a list titled \"to watch\"", &["list"]),
            strings(&[("title", "to watch")])
        );
        // No name parameter: the noun before the cue names the one it fills.
        let authors = endpoint(
            "https://x.test/authors",
            &[("author", "query"), ("page", "query")],
        );
        assert_eq!(
            filled(
                &authors,
                "how many authors called john smith are there",
                &["author"]
            ),
            strings(&[("author", "john smith")])
        );
    }
}
