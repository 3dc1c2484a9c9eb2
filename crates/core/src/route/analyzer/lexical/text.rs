//! Tokenising for the lexical Understand step: [`Token`]s with their normalised text, the
//! variants without a Korean particle, an English possessive or a plural (`stems`), and their
//! byte range; content words (stop words and single letters left out). Language machinery
//! only: no word here names anything of one project's domain.

use crate::model::normalise_alias;
use std::collections::HashSet;
use unicode_normalization::UnicodeNormalization;

/// Korean particles (longest first) stripped from the end of a word before lookup.
pub(super) const KO_PARTICLES: &[&str] = &[
    "에서는",
    "으로는",
    "이랑은",
    "에서",
    "으로",
    "에게",
    "까지",
    "부터",
    "이랑",
    "하고",
    "에는",
    "이나",
    "의",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "로",
    "에",
    "와",
    "과",
    "랑",
    "도",
    "만",
    "나",
];

/// Words that carry no meaning for intent inference.
pub(super) const STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "of",
    "in",
    "on",
    "for",
    "to",
    "and",
    "or",
    "is",
    "are",
    "what",
    "which",
    "how",
    "me",
    "give",
    "tell",
    "from",
    "with",
    "by",
    "at",
    "as",
    "its",
    "it",
    "this",
    "that",
    "do",
    "does",
    "we",
    "our",
    "i",
    "my",
    "you",
    "please",
    "about",
    "much",
    "many",
    "get",
    "find",
    "show",
    "list",
    "value",
    "values",
    "알려줘",
    "좀",
    "뭐야",
    "얼마야",
    "줘",
    "값",
];

/// A query token.
#[derive(Clone, Debug)]
pub(super) struct Token {
    /// Normalised text.
    pub(super) norm: String,
    /// Variants of the normalised text without a particle, possessive or plural.
    pub(super) stems: Vec<String>,
    /// Byte range in the query.
    pub(super) range: (usize, usize),
    /// The alias words a misspelt word may be read as ([`super::spelling`]), set by the
    /// reading.
    pub(super) fixed: Vec<String>,
    /// The nouns an adjective or adverb is derived from or names ([`derived_nouns`]:
    /// "anisotropic" -> `anisotropy`, "elastically" -> `elastic`, `elasticity`).
    pub(super) derived: Vec<String>,
}

/// The tokens of `query`: runs of letters, digits and the joiners of names and formulas
/// (`_ - – ^ / . ' ’ ² ³ · +`; the en dash of ranges such as `2–3`, as phones and word
/// processors write them), trimmed of edge punctuation, normalised as aliases are.
pub(super) fn tokenize(query: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let is_word = |c: char| {
        c.is_alphanumeric()
            || matches!(
                c,
                '_' | '-' | '–' | '^' | '/' | '.' | '\'' | '’' | '²' | '³' | '·' | '+'
            )
    };
    let push = |s: usize, e: usize, out: &mut Vec<Token>| {
        let raw =
            query[s..e].trim_matches(|c: char| matches!(c, '.' | '\'' | '’' | '-' | '–' | '/'));
        if raw.is_empty() {
            return;
        }
        let offset = s + query[s..e].find(raw).unwrap_or(0);
        let norm = normalise_alias(raw);
        if norm.is_empty() {
            return;
        }
        let mut stems = Vec::new();
        for suffix in ["'s", "’s"] {
            if let Some(x) = raw.strip_suffix(suffix) {
                stems.push(normalise_alias(x));
            }
        }
        for p in KO_PARTICLES {
            if let Some(x) = norm.strip_suffix(p)
                && x.chars().count() >= 1
                && !x.ends_with('_')
            {
                stems.push(x.to_string());
            }
        }
        if norm.len() > 3
            && norm.is_ascii()
            && let Some(x) = norm.strip_suffix('s')
            && !x.ends_with('s')
        {
            stems.push(x.to_string());
        }
        stems.extend(plural_es(&norm));
        let derived = derived_nouns(&norm);
        out.push(Token {
            norm,
            stems,
            range: (offset, offset + raw.len()),
            fixed: Vec::new(),
            derived,
        });
    };
    for (i, c) in query.char_indices() {
        if is_word(c) {
            if start.is_none() {
                start = Some(i);
            }
        } else if let Some(s) = start.take() {
            push(s, i, &mut out);
        }
    }
    if let Some(s) = start {
        push(s, query.len(), &mut out);
    }
    out
}

/// The singular of an English plural in `-es` or `-ies`, which the plain `-s` strip misses:
/// "masses" -> `mass`, "boxes" -> `box`, "approaches" -> `approach`, "energies" -> `energy`,
/// "properties" -> `property` (so "effective masses" and "formation energies" read as the
/// aliases and concept ids `effective mass` and `formation energy` do). Lower-case ASCII words
/// only; language data, as the stop words are.
fn plural_es(norm: &str) -> Option<String> {
    if !norm.is_ascii() || norm.len() <= 4 || norm.contains('_') {
        return None;
    }
    if let Some(x) = norm.strip_suffix("ies") {
        return Some(format!("{x}y"));
    }
    let x = norm.strip_suffix("es")?;
    ["ss", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| x.ends_with(end))
        .then(|| x.to_string())
}

/// English derivational endings: an adjective's or adverb's ending and the endings of the
/// nouns (or the adjective) it is read as. Language data, as the stop words are; the reading
/// is kept only where the words it makes are a declared alias ([`super::Lexical::lookup`]).
const DERIVED: &[(&str, &[&str])] = &[
    // "elastically" -> elastic, elasticity; "anisotropically" -> anisotropic, anisotropy.
    ("ically", &["ic", "icity", "y", "ism"]),
    // "thermally" -> thermal.
    ("ally", &["al"]),
    // "anisotropic" -> anisotropy; "magnetic" -> magnetism; "elastic" -> elasticity.
    ("ic", &["y", "ism", "icity"]),
    // "conductive" -> conductivity.
    ("ive", &["ivity"]),
    // "stable" -> stability; "compressible" -> compressibility.
    ("ble", &["bility"]),
    // "porous" -> porosity.
    ("ous", &["osity"]),
];

/// The shortest word read through its derivational ending.
const MIN_DERIVED: usize = 6;

/// The nouns (and adjectives) a derived word form is read as: its endings replaced by the
/// endings of [`DERIVED`], and an adjective with `-ness` ("stiff" -> `stiffness`). Lower-case
/// ASCII words of six letters or more only ("stiff" is the exception the `-ness` reading
/// makes: five letters); a word of a formula, an id or another script has none.
pub(super) fn derived_nouns(norm: &str) -> Vec<String> {
    if norm.len() < 5 || !norm.bytes().all(|b| b.is_ascii_lowercase()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if norm.len() >= MIN_DERIVED
        && let Some((end, nouns)) = DERIVED.iter().find(|(end, _)| norm.ends_with(end))
    {
        let base = &norm[..norm.len() - end.len()];
        out.extend(nouns.iter().map(|n| format!("{base}{n}")));
    }
    if !norm.ends_with("ness") && !norm.ends_with("ly") {
        out.push(format!("{norm}ness"));
    }
    out
}

/// The content words of `text` (NFKC-normalised first): see [`words_of`].
pub(super) fn content_words(text: &str) -> HashSet<String> {
    words_of(&tokenize(&text.nfkc().collect::<String>()))
}

/// Content words of tokens: stems where there are any, without stop words and single letters.
pub(super) fn words_of(tokens: &[Token]) -> HashSet<String> {
    tokens
        .iter()
        .map(|t| t.stems.first().cloned().unwrap_or_else(|| t.norm.clone()))
        .filter(|w| !STOP.contains(&w.as_str()) && w.chars().count() > 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_forms_are_read_as_their_nouns() {
        let d = |w: &str| tokenize(w).remove(0).derived;
        assert!(d("anisotropic").contains(&"anisotropy".to_string()));
        assert!(d("elastically").contains(&"elastic".to_string()));
        assert!(d("elastically").contains(&"elasticity".to_string()));
        assert!(d("anisotropically").contains(&"anisotropy".to_string()));
        assert!(d("magnetic").contains(&"magnetism".to_string()));
        assert!(d("thermally").contains(&"thermal".to_string()));
        assert!(d("conductive").contains(&"conductivity".to_string()));
        assert!(d("compressible").contains(&"compressibility".to_string()));
        assert!(d("porous").contains(&"porosity".to_string()));
        assert!(d("stiff").contains(&"stiffness".to_string()));
        // Short words, nouns in -ness, formulas, ids and other scripts have none.
        assert!(d("gap").is_empty());
        assert!(d("hardness").is_empty());
        assert!(d("mp-149").is_empty());
        assert!(d("탄성").is_empty());
    }

    #[test]
    fn plurals_in_es_and_ies_have_their_singular_among_the_stems() {
        let stems = |w: &str| tokenize(w).remove(0).stems;
        assert!(stems("masses").contains(&"mass".to_string()));
        assert!(stems("boxes").contains(&"box".to_string()));
        assert!(stems("approaches").contains(&"approach".to_string()));
        assert!(stems("energies").contains(&"energy".to_string()));
        assert!(stems("properties").contains(&"property".to_string()));
        // The plain `-s` strip is kept; a word in `-es` after another letter is no `-es` plural.
        assert_eq!(stems("gaps"), vec!["gap".to_string()]);
        assert_eq!(stems("volumes"), vec!["volume".to_string()]);
        assert!(stems("mass").is_empty());
    }
}
