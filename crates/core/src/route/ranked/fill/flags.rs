//! Pass `flags`: a yes/no parameter the question names by its adjective or noun ("federal
//! holidays" for `federal`, "vegetarian recipes" for `isVegetarian`, "with images" for
//! `include_images`) is set to yes; written after a negation ("non-federal", "not federal",
//! "without images") to no. The parameter takes yes/no when its type is `boolean`, or its enum
//! is a pair of yes/no values (`true`/`false`, `1`/`0`, `yes`/`no`), written in its own form.
//! The words of its name that only say it is a flag (`is`, `has`, `include`, `only`) are not
//! looked for; a flag that excludes (`exclude_x`, `hide_x`) is never set by naming `x`. Run
//! when a plan is made, not while ranking (a word that names a flag says little about which
//! endpoint is asked).

use super::profile::Profile;
use crate::model::Scalar;
use crate::search::spans;
use crate::search::text;
use serde_json::Value;
use std::collections::BTreeMap;

/// Words of a flag's name that say it is a flag, not what it is about.
const FLAG_WORDS: &[&str] = &[
    "enable", "enabled", "filter", "has", "include", "includes", "is", "only", "show", "with",
];

/// Words of a flag's name that turn its meaning round (`exclude_x`: naming `x` is no yes).
const INVERTING_WORDS: &[&str] = &[
    "disable", "exclude", "hide", "no", "not", "omit", "skip", "without",
];

/// Words right before a flag's word that say no ("non-federal", "not federal", "without images").
const NEGATIONS: &[&str] = &["excluding", "no", "non", "not", "without"];

/// The JSON forms of yes and no a parameter takes, if it is a flag.
fn yes_no(pr: &Profile) -> Option<(Value, Value)> {
    if pr.p.ty == "boolean" {
        return Some((Value::Bool(true), Value::Bool(false)));
    }
    let [a, b] = pr.p.enum_values.as_slice() else {
        return None;
    };
    let text = |s: &Scalar| crate::route::bind::value_text(&s.to_json()).to_lowercase();
    let yes = |t: &str| matches!(t, "true" | "1" | "yes" | "y");
    let no = |t: &str| matches!(t, "false" | "0" | "no" | "n");
    let (ta, tb) = (text(a), text(b));
    if yes(&ta) && no(&tb) {
        Some((a.to_json(), b.to_json()))
    } else if no(&ta) && yes(&tb) {
        Some((b.to_json(), a.to_json()))
    } else {
        None
    }
}

/// Set each open flag whose words the question writes (see the module docs); returns the byte
/// ranges of the words so used.
pub(super) fn pass(
    question: &str,
    open: &[Profile],
    params: &mut BTreeMap<String, Value>,
) -> Vec<(usize, usize)> {
    let mut used = Vec::new();
    // Hyphenated words apart ("non-federal": `non`, `federal`).
    let toks: Vec<(usize, usize)> = spans::word_tokens(question)
        .into_iter()
        .flat_map(|(a, b)| {
            let mut parts = Vec::new();
            let mut start = a;
            for (i, c) in question[a..b].char_indices() {
                if c == '-' {
                    parts.push((start, a + i));
                    start = a + i + 1;
                }
            }
            parts.push((start, b));
            parts.into_iter().filter(|(x, y)| x < y)
        })
        .collect();
    let words: Vec<String> = toks
        .iter()
        .map(|&(a, b)| question[a..b].to_lowercase())
        .collect();
    let stems: Vec<String> = words
        .iter()
        .map(|w| text::stems(w).next().unwrap_or_default())
        .collect();
    for pr in open {
        if params.contains_key(&pr.p.name) {
            continue;
        }
        let Some((yes, no)) = yes_no(pr) else {
            continue;
        };
        if pr.named(INVERTING_WORDS) {
            continue;
        }
        let content: Vec<String> = pr
            .words
            .iter()
            .filter(|w| !FLAG_WORDS.contains(&w.as_str()))
            .filter_map(|w| text::stems(w).next())
            .collect();
        // One or two words of a name, each a word of its own (not a letter or a code).
        if content.is_empty() || content.len() > 2 || content.iter().any(|w| w.len() < 3) {
            continue;
        }
        let found = (0..stems.len()).find(|&i| {
            i + content.len() <= stems.len()
                && content.iter().enumerate().all(|(k, c)| &stems[i + k] == c)
        });
        let Some(i) = found else { continue };
        let end = i + content.len() - 1;
        let negated = i > 0 && NEGATIONS.contains(&words[i - 1].as_str());
        params.insert(
            pr.p.name.clone(),
            if negated { no.clone() } else { yes.clone() },
        );
        used.push((toks[if negated { i - 1 } else { i }].0, toks[end].1));
    }
    used
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    fn flag(name: &str, ty: &str, values: &[Scalar]) -> crate::artifact::EndpointData {
        let mut e = endpoint("https://x.test/holidays", &[(name, "query")]);
        e.parameters[0].ty = ty.into();
        e.parameters[0].enum_values = values.to_vec();
        e
    }

    #[test]
    fn a_flag_named_by_its_adjective_is_set() {
        let e = flag("federal", "boolean", &[]);
        assert_eq!(
            filled(&e, "federal holidays in 2025", &["holiday"]),
            BTreeMap::from([("federal".to_string(), Value::Bool(true))])
        );
        assert_eq!(
            filled(&e, "non-federal holidays in 2025", &["holiday"]),
            BTreeMap::from([("federal".to_string(), Value::Bool(false))])
        );
        assert!(filled(&e, "holidays in 2025", &["holiday"]).is_empty());
        // A flag written as an integer pair takes its own form.
        let e = flag(
            "federal",
            "integer",
            &[Scalar::Integer(1), Scalar::Integer(0)],
        );
        assert_eq!(
            filled(&e, "which federal holidays are there", &["holiday"]),
            BTreeMap::from([("federal".to_string(), Value::from(1))])
        );
        let e = flag(
            "isVegetarian",
            "string",
            &[
                Scalar::String("false".into()),
                Scalar::String("true".into()),
            ],
        );
        assert_eq!(
            filled(&e, "vegetarian recipes with tofu", &["recip", "tofu"]),
            strings(&[("isVegetarian", "true")])
        );
        let e = flag("include_images", "boolean", &[]);
        assert_eq!(
            filled(&e, "news without images", &["news"]),
            BTreeMap::from([("include_images".to_string(), Value::Bool(false))])
        );
        // An excluding flag is not set by naming what it excludes.
        let e = flag("exclude_images", "boolean", &[]);
        assert!(filled(&e, "news with images", &["news"]).is_empty());
    }
}
