//! Misspelt words of a concept's name ("dielectirc constant", "exfolation enrgy", "poisons
//! ratio"): a question's word that no alias, tool name, intent example or stop word holds, one
//! edit (a letter left out, added, changed, or two neighbours swapped) from exactly one word of
//! the project's concept and field aliases, is read as that word, and only inside a run of two
//! words or more of which one is spelt right (or as one long word, of eight letters or more):
//! a lone short word one edit from an alias word is more often another word than a slip.
//! Language machinery only: the words come from the artifact's aliases.

use super::text::{STOP, Token};
use std::collections::HashSet;

/// Letters of a word the speller reads (ASCII lower case only: formulas, ids and other scripts
/// are never changed).
const MIN_LETTERS: usize = 5;

/// The most readings a misspelt word may have (more is noise, not a slip).
const MAX_READINGS: usize = 3;

/// The shortest word a lone corrected word may be.
pub(super) const MIN_LONE: usize = 8;

/// The words the speller knows: `aliases`, the words of the concept and field aliases it
/// corrects to, and `known`, every other word it must leave as written.
pub(super) struct Vocabulary {
    aliases: HashSet<String>,
    known: HashSet<String>,
    /// The length of the longest word of `aliases` (bytes): a word longer by two or more is one
    /// edit from none, and is not spelt out (a question of one 9,999-letter word would otherwise
    /// build half a million strings of that length).
    longest: usize,
}

impl Vocabulary {
    /// The vocabulary of alias keys (`_`-joined words) and other known words.
    pub(super) fn new<'a>(
        alias_keys: impl Iterator<Item = &'a str>,
        known: impl Iterator<Item = String>,
    ) -> Vocabulary {
        let mut aliases = HashSet::new();
        for key in alias_keys {
            for w in key.split('_') {
                if w.len() >= MIN_LETTERS - 1 && w.bytes().all(|b| b.is_ascii_lowercase()) {
                    aliases.insert(w.to_string());
                }
            }
        }
        let mut known: HashSet<String> = known.collect();
        known.extend(STOP.iter().map(|s| s.to_string()));
        let longest = aliases.iter().map(String::len).max().unwrap_or(0);
        Vocabulary {
            aliases,
            known,
            longest,
        }
    }

    /// Whether the word is spelt as some alias or other known word spells it.
    fn knows(&self, w: &str) -> bool {
        self.aliases.contains(w) || self.known.contains(w)
    }

    /// The alias words one edit from `w`, sorted (none for a word under five letters, longer
    /// than the longest alias word plus one, or not in ASCII lower case, and none when more than
    /// [`MAX_READINGS`] are).
    fn nearest(&self, w: &str) -> Vec<String> {
        if w.len() < MIN_LETTERS
            || w.len() > self.longest + 1
            || !w.bytes().all(|b| b.is_ascii_lowercase())
        {
            return Vec::new();
        }
        let mut found: Vec<String> = edits(w)
            .into_iter()
            .filter(|e| self.aliases.contains(e))
            .collect();
        found.sort();
        found.dedup();
        if found.len() > MAX_READINGS {
            found.clear();
        }
        found
    }

    /// The readings of a token: none when it is a known word; else the alias words one edit
    /// from it, or, failing those and when none of its stems is known, from one of its stems.
    /// The caller keeps the reading that makes an alias.
    pub(super) fn correct(&self, t: &Token) -> Vec<String> {
        if self.knows(&t.norm) {
            return Vec::new();
        }
        let found = self.nearest(&t.norm);
        if !found.is_empty() || t.stems.iter().any(|s| self.knows(s)) {
            return found;
        }
        t.stems
            .iter()
            .map(|s| self.nearest(s))
            .find(|f| !f.is_empty())
            .unwrap_or_default()
    }
}

/// Every string one edit from `w` (ASCII lower case): deletions, swaps of neighbours,
/// substitutions and insertions of a letter.
fn edits(w: &str) -> Vec<String> {
    let b = w.as_bytes();
    let n = b.len();
    let mut out = Vec::with_capacity(54 * n + 26);
    let s = |v: Vec<u8>| String::from_utf8(v).unwrap_or_default();
    for i in 0..n {
        let mut v = b.to_vec();
        v.remove(i);
        out.push(s(v));
        if i + 1 < n && b[i] != b[i + 1] {
            let mut v = b.to_vec();
            v.swap(i, i + 1);
            out.push(s(v));
        }
        for c in b'a'..=b'z' {
            if c != b[i] {
                let mut v = b.to_vec();
                v[i] = c;
                out.push(s(v));
            }
        }
    }
    for i in 0..=n {
        for c in b'a'..=b'z' {
            let mut v = b.to_vec();
            v.insert(i, c);
            out.push(s(v));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::text::tokenize;
    use super::*;

    fn vocab() -> Vocabulary {
        Vocabulary::new(
            [
                "dielectric_constant",
                "dielectic_constant",
                "exfoliation_energy",
                "poisson_ratio",
                "poison_ratio",
                "poissons_ratio",
                "band_gap",
                "formation_energy",
                "density",
                "intensity",
                "phonon_band",
                "photon_flux",
            ]
            .into_iter(),
            ["crystal".to_string(), "densities".to_string()].into_iter(),
        )
    }

    fn fix(v: &Vocabulary, w: &str) -> Vec<String> {
        v.correct(&tokenize(w).remove(0))
    }

    fn one(w: &str) -> Vec<String> {
        vec![w.to_string()]
    }

    #[test]
    fn a_word_one_edit_from_alias_words_is_read_as_them() {
        let v = vocab();
        // A letter left out, a letter added, a letter changed, neighbours swapped.
        assert_eq!(fix(&v, "exfolation"), one("exfoliation"));
        assert_eq!(fix(&v, "enrgy"), one("energy"));
        assert_eq!(fix(&v, "energgy"), one("energy"));
        assert_eq!(fix(&v, "formatoin"), one("formation"));
        assert_eq!(fix(&v, "densty"), one("density"));
        assert_eq!(fix(&v, "itensity"), one("intensity"));
        // Every alias word one edit away, sorted ("dielectic" is a declared misspelling).
        assert_eq!(
            fix(&v, "dielectirc"),
            vec!["dielectic".to_string(), "dielectric".to_string()]
        );
        assert_eq!(
            fix(&v, "phoon"),
            vec!["phonon".to_string(), "photon".to_string()]
        );
        // A plural one edit from two alias words, though its singular is one itself.
        assert_eq!(
            fix(&v, "poisons"),
            vec!["poison".to_string(), "poissons".to_string()]
        );
    }

    #[test]
    fn known_words_short_words_and_formulas_are_left_as_written() {
        let v = vocab();
        // Spelt right, a known word, a stop word.
        assert!(fix(&v, "dielectric").is_empty());
        assert!(fix(&v, "densities").is_empty());
        assert!(fix(&v, "crystal").is_empty());
        assert!(fix(&v, "the").is_empty());
        // Under five letters.
        assert!(fix(&v, "bnad").is_empty());
        // Formulas, numbers and other scripts are never changed.
        assert!(fix(&v, "SrTiO3").is_empty());
        assert!(fix(&v, "1200").is_empty());
        assert!(fix(&v, "밴드갭").is_empty());
        // A plural of a known word is read through its stem, not corrected.
        assert!(fix(&v, "crystals").is_empty());
        // A word two letters longer than every alias word is one edit from none; a very long
        // one is not spelt out at all.
        assert_eq!(v.longest, "exfoliation".len());
        assert!(fix(&v, "exfoliationxx").is_empty());
        assert!(fix(&v, &"a".repeat(9_999)).is_empty());
    }
}
