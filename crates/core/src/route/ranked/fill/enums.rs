//! Pass `enums`: enum values the question names (a required enum the question leaves open is
//! `open`'s).

use super::profile::Profile;
use crate::artifact::ParamData;
use crate::model::Scalar;
use crate::route::bind;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// Fill each enum parameter of `open` with the value the question names, if any.
pub(super) fn pass(question: &str, open: &[Profile], params: &mut BTreeMap<String, Value>) {
    for pr in open {
        if !pr.p.enum_values.is_empty()
            && let Some(v) = enum_value(pr.p, question)
        {
            params.insert(pr.p.name.clone(), v);
        }
    }
}

/// Enum values the question names, per parameter: the longest value written in the question
/// (case, `_`, `-` and spaces ignored), on word boundaries; else the longest whose words the
/// question writes in another form (the same Snowball stems: "synonyms" for `synonym`), each
/// word of four letters or more.
///
/// The question's runs of words are put in a set once, so each value costs one look-up: a long
/// enum is read once per parameter, never once per word of the question.
pub(super) fn enum_value(p: &ParamData, question: &str) -> Option<Value> {
    let norm = |s: &str| {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let q = norm(question);
    let words: Vec<&str> = q.split(' ').filter(|w| !w.is_empty()).collect();
    let mut n = String::new();
    // Runs no longer than the longest value: a longer one equals none, and every run of a
    // long question would cost its length cubed (a 2,760-character prompt took 90 s).
    let longest = p
        .enum_values
        .iter()
        .map(|v| {
            norm_into(&text_of(v), &mut n, norm);
            n.split(' ').filter(|w| !w.is_empty()).count()
        })
        .max()
        .unwrap_or(0);
    let runs: HashSet<String> = windows(&words, longest).map(|w| w.join(" ")).collect();
    let mut written: Option<(usize, &Scalar)> = None;
    for v in &p.enum_values {
        norm_into(&text_of(v), &mut n, norm);
        // A one-letter value ("S" for scientific units) is no word of a question, and a value
        // that is a function word ("is" for Icelandic, "it", "no") is one only where the
        // question sets it apart (see `set_apart`).
        if n.chars().count() > 1
            && runs.contains(&n)
            && (!function_word(&n) || set_apart(p, question, &n))
            && written.is_none_or(|(len, _)| n.len() >= len)
        {
            written = Some((n.len(), v));
        }
    }
    if let Some((_, v)) = written {
        return Some(bind::scalar_json(v));
    }
    // Else a value the question writes in another form of its words ("synonyms" for
    // `synonym`, "rhymes" for `rhyme`): the same stems, word by word, of a value whose words
    // have four letters or more.
    let stemmed = |normed: &str| -> Vec<String> {
        normed
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| crate::search::text::stems(w).next().unwrap_or_default())
            .collect()
    };
    let qs = stemmed(&q);
    let stem_runs: HashSet<&[String]> = windows(&qs, longest).collect();
    let mut found: Option<(usize, &Scalar)> = None;
    for v in &p.enum_values {
        norm_into(&text_of(v), &mut n, norm);
        if !n.split(' ').all(|w| w.chars().count() >= 4) {
            continue;
        }
        let vs = stemmed(&n);
        if !vs.is_empty()
            && vs.iter().all(|x| !x.is_empty())
            && stem_runs.contains(vs.as_slice())
            && found.is_none_or(|(len, _)| vs.len() >= len)
        {
            found = Some((vs.len(), v));
        }
    }
    found.map(|(_, v)| bind::scalar_json(v))
}

/// The text of an enum value (a string borrowed, not copied).
fn text_of(v: &Scalar) -> std::borrow::Cow<'_, str> {
    match v {
        Scalar::String(s) => std::borrow::Cow::Borrowed(s),
        other => std::borrow::Cow::Owned(bind::value_text(&bind::scalar_json(other))),
    }
}

/// `norm(s)` written into `buf` (cleared first): ASCII text without allocating, other text
/// through `norm` itself.
fn norm_into(s: &str, buf: &mut String, norm: impl Fn(&str) -> String) {
    buf.clear();
    if !s.is_ascii() {
        buf.push_str(&norm(s));
        return;
    }
    let mut gap = false;
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() {
            if gap && !buf.is_empty() {
                buf.push(' ');
            }
            gap = false;
            buf.push(b.to_ascii_lowercase() as char);
        } else {
            gap = true;
        }
    }
}

/// Every run of consecutive items of `items` of at most `longest` items (each start, each
/// length).
fn windows<T>(items: &[T], longest: usize) -> impl Iterator<Item = &[T]> {
    (0..items.len())
        .flat_map(move |i| (i + 1..=items.len().min(i + longest)).map(move |j| &items[i..j]))
}

/// Whether a lower-case word is a function word of English (a stop word or a light word: `is`,
/// `it`, `no`, `on`): as an enum value (a language or country code), a code only when set apart.
fn function_word(n: &str) -> bool {
    crate::search::text::is_stop_word(n) || crate::search::text::is_light_word(n)
}

/// Whether the question writes the value `n` (lower case, a function word such as `is` or `it`)
/// as a code: in capitals (`IT`), in quotes or backticks, or beside a word of the parameter's
/// name ("lang is", "language: it", "in us units").
fn set_apart(p: &ParamData, question: &str, n: &str) -> bool {
    let names: Vec<String> = crate::search::text::split_identifier(&p.name)
        .into_iter()
        .map(|(s, e)| p.name[s..e].to_lowercase())
        .collect();
    let tokens: Vec<&str> = question.split_whitespace().collect();
    tokens.iter().enumerate().any(|(i, t)| {
        let bare = t.trim_matches(|c: char| !c.is_alphanumeric());
        if !bare.eq_ignore_ascii_case(n) {
            return false;
        }
        let quoted = t.starts_with(['"', '\'', '`', '‘', '“']);
        let capitals = bare.len() > 1 && bare.chars().all(|c| c.is_ascii_uppercase());
        let names_it = |j: usize| {
            tokens.get(j).is_some_and(|w| {
                let w = w
                    .trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase();
                names.contains(&w) || w == "language"
            })
        };
        let beside_name = (i > 0 && names_it(i - 1)) || names_it(i + 1);
        quoted || capitals || beside_name
    })
}

/// Enum values that ask for no restriction.
pub(super) const NEUTRAL_VALUES: &[&str] = &["all", "any", "both", "everything"];

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    /// Runs stop at the longest value's length, so a long question costs its length times
    /// that, not its length cubed; a value is still found anywhere in it.
    #[test]
    fn runs_are_no_longer_than_the_longest_value() {
        let runs: Vec<&[u8]> = windows(&[1, 2, 3], 2).collect();
        assert_eq!(runs, [&[1][..], &[1, 2], &[2], &[2, 3], &[3]]);
        let mut e = endpoint("https://x.test/words", &[("relationshipTypes", "query")]);
        e.parameters[0].enum_values = ["synonym", "cross-reference"]
            .map(|v| Scalar::String(v.into()))
            .to_vec();
        let long = format!(
            "{} give me the cross reference of happy",
            "please kindly ".repeat(400)
        );
        assert_eq!(
            enum_value(&e.parameters[0], &long),
            Some(serde_json::json!("cross-reference"))
        );
    }

    #[test]
    fn an_enum_value_written_in_another_form_of_its_words_is_named() {
        let mut e = endpoint("https://x.test/related", &[("relationshipTypes", "query")]);
        e.parameters[0].enum_values = ["synonym", "antonym", "rhyme", "same-context", "form"]
            .map(|v| crate::model::value::Scalar::String(v.into()))
            .to_vec();
        let p = &e.parameters[0];
        let v = |q: &str| enum_value(p, q).and_then(|v| v.as_str().map(str::to_string));
        assert_eq!(
            v("give me some synonyms for happy").as_deref(),
            Some("synonym")
        );
        assert_eq!(v("words that rhyme with orange").as_deref(), Some("rhyme"));
        assert_eq!(v("rhymes for orange").as_deref(), Some("rhyme"));
        assert_eq!(
            v("words used in the same contexts").as_deref(),
            Some("same-context")
        );
        // Written as it is, as before; a question naming no value, none.
        assert_eq!(v("antonym of hot").as_deref(), Some("antonym"));
        assert_eq!(v("hello there"), None);
    }

    #[test]
    fn a_long_enum_is_read_once_per_question() {
        // 200,000 values, the one named last among them; names written with separators and
        // capitals, and a value that is no ASCII, as before.
        let mut e = endpoint("https://x.test/holidays", &[("province", "query")]);
        let mut values: Vec<Scalar> = (0..200_000)
            .map(|i| Scalar::String(format!("R{i:06}")))
            .collect();
        values.extend(["ON", "New_Brunswick", "Québec"].map(|v| Scalar::String(v.into())));
        e.parameters[0].enum_values = values;
        let p = &e.parameters[0];
        let v = |q: &str| enum_value(p, q).and_then(|v| v.as_str().map(str::to_string));
        assert_eq!(v("holidays in r199999").as_deref(), Some("R199999"));
        assert_eq!(v("holidays in ON in 2025").as_deref(), Some("ON"));
        assert_eq!(
            v("holidays in new brunswick").as_deref(),
            Some("New_Brunswick")
        );
        assert_eq!(v("holidays in québec").as_deref(), Some("Québec"));
        assert_eq!(v("holidays in Ontario"), None);
    }

    #[test]
    fn a_value_that_is_a_function_word_is_named_only_as_a_code() {
        let mut e = endpoint("https://x.test/current", &[("lang", "query")]);
        e.parameters[0].enum_values = ["en", "is", "it", "no", "de"]
            .map(|v| crate::model::value::Scalar::String(v.into()))
            .to_vec();
        let p = &e.parameters[0];
        let v = |q: &str| enum_value(p, q).and_then(|v| v.as_str().map(str::to_string));
        assert_eq!(v("what is the current temperature at 51.5, -0.12"), None);
        assert_eq!(v("is it cold, no or yes"), None);
        assert_eq!(v("the temperature in IT please").as_deref(), Some("it"));
        assert_eq!(v("temperature with lang is").as_deref(), Some("is"));
        assert_eq!(v("temperature, language \"no\"").as_deref(), Some("no"));
        assert_eq!(v("the temperature in it lang").as_deref(), Some("it"));
        // A value that is no function word, as before.
        assert_eq!(v("the temperature in de").as_deref(), Some("de"));
    }
}
