//! Pass `site`: a parameter that names the site, platform or network a request reads from
//! (`site`, `platform`, `network`, `namespace`, `community`), free text without an enum, takes
//! the name written right after "on", "at" or "from" ("questions on stackoverflow" gives `site`
//! `stackoverflow`): one word, not a function word, a number or a word of the endpoint's own
//! URL path ("comments on posts" names no site). A parameter described as a URL is no site name
//! (`typed` gives it a URL the question writes). Run when a plan is made, not while ranking.

use super::profile::Profile;
use super::words::{URL_WORDS, generic};
use crate::search::spans;
use crate::search::text;
use serde_json::Value;
use std::collections::BTreeMap;

/// Parameter-name words of the site or network a request reads from.
const SITE_WORDS: &[&str] = &["community", "namespace", "network", "platform", "site"];

/// Words right before a site's name.
const SITE_CUES: &[&str] = &["on", "at", "from"];

/// Whether `pr` takes the name of a site (see the module docs).
fn takes_site(pr: &Profile) -> bool {
    let d = pr.p.description.as_deref().unwrap_or("").to_lowercase();
    pr.named(SITE_WORDS)
        && !pr.numeric
        && pr.p.ty == "string"
        && pr.p.enum_values.is_empty()
        && pr.format().is_empty()
        && !pr.named_only()
        && !d.contains("http")
        && !d
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| URL_WORDS.contains(&w) && w != "site")
}

/// Fill each open site parameter from the word after a site cue; returns the byte ranges used.
pub(super) fn pass(
    question: &str,
    open: &[Profile],
    params: &mut BTreeMap<String, Value>,
) -> Vec<(usize, usize)> {
    let mut used = Vec::new();
    let (toks, words) = spans::lower_words(question);
    for pr in open {
        if params.contains_key(&pr.p.name) || !takes_site(pr) {
            continue;
        }
        let found = (1..words.len()).find(|&i| {
            let w = &words[i];
            SITE_CUES.contains(&words[i - 1].as_str())
                && w.chars().next().is_some_and(char::is_alphabetic)
                && !spans::is_function_word(w)
                && !generic(w)
                && !text::stems(w).any(|st| pr.url_stems.contains(&st))
        });
        if let Some(i) = found {
            params.insert(
                pr.p.name.clone(),
                Value::from(question[toks[i].0..toks[i].1].to_string()),
            );
            used.push(toks[i]);
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn a_site_named_after_on_fills_the_site_parameter() {
        let mut e = endpoint(
            "https://x.test/questions",
            &[("site", "query"), ("tagged", "query")],
        );
        e.parameters[0].required = true;
        for (q, want) in [
            ("newest questions on stackoverflow", "stackoverflow"),
            (
                "unanswered questions at serverfault this week",
                "serverfault",
            ),
            ("top questions from superuser", "superuser"),
        ] {
            assert_eq!(
                filled(&e, q, &["question", "newest", "unansw", "top"]).get("site"),
                Some(&serde_json::Value::from(want)),
                "{q}"
            );
        }
        // A word of the endpoint's own path, or a site described as a URL, is no site name.
        let comments = endpoint(
            "https://x.test/questions/{ids}/comments",
            &[("site", "query")],
        );
        assert!(!filled(&comments, "comments on questions", &[]).contains_key("site"));
        let mut link = endpoint("https://x.test/check", &[("site", "query")]);
        link.parameters[0].description = Some("The URL of the site to check".into());
        assert!(!filled(&link, "status of the page on example", &["status"]).contains_key("site"));
    }
}
