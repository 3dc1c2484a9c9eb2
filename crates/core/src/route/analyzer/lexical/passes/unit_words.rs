//! Pass `unit_words`: a unit written in words names the family of the value asked ("how many
//! cubic angstroms per atom does Ge take up", "the gap in electronvolts", "stiffness in
//! gigapascals"). In a question that names no concept, a unit phrase after `in`, `as`, `into`
//! or `many` (unit words, prefixed unit words, `per`, `cubic` and `square`, read with the
//! published-unit grammar) is evidence for the concept whose unit has that dimension, when
//! exactly one concept of the tools the question points at (or of the project, pointing at
//! none) has it; several ("in electronvolts": band gap, Fermi energy, ...) name none.
//!
//! Reads the tokens, `extracted`, `tools` and `concepts`; writes `concepts` with `concept_at`,
//! `concept_spans` and `used`.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::units::{Unit, UnitTable};
use std::collections::HashSet;
use std::sync::OnceLock;

/// The longest unit phrase read, in words.
const MAX_UNIT_WORDS: usize = 5;

fn units() -> &'static UnitTable {
    static T: OnceLock<UnitTable> = OnceLock::new();
    T.get_or_init(UnitTable::builtin)
}

/// The unit a phrase of words names: `cubic` and `square` raise the next word's unit
/// ("cubic angstroms per atom" is Å^3/atom); a unit of a count basis alone ("atoms", "cells")
/// or of no dimension is none.
pub(super) fn unit_of_words(words: &[&str]) -> Option<Unit> {
    let mut text = String::new();
    let mut power = "";
    for w in words {
        let lower = w.to_lowercase();
        if !lower.chars().all(char::is_alphabetic) || lower.chars().count() < 3 {
            return None;
        }
        match lower.as_str() {
            "cubic" | "cubed" if power.is_empty() => power = "^3",
            "square" | "squared" if power.is_empty() => power = "^2",
            _ => {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(&lower);
                if lower != "per" {
                    text.push_str(power);
                    power = "";
                }
            }
        }
    }
    if !power.is_empty() || text.is_empty() || text.starts_with("per") || text.ends_with("per") {
        return None;
    }
    let u = units().parse_published(&text).ok()?;
    (!u.dim.without_basis().is_dimensionless()).then_some(u)
}

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    if !r.concepts.is_empty() {
        return Flow::Next;
    }
    let mut pointed: HashSet<u32> = r.tools.iter().copied().collect();
    if pointed.is_empty() {
        for e in &r.extracted {
            for p in g.index.param_postings.get(&e.concept).into_iter().flatten() {
                pointed.insert(p.tool);
            }
        }
    }
    let n = r.tokens.len();
    for i in 1..n {
        if !matches!(r.tokens[i - 1].norm.as_str(), "in" | "as" | "into" | "many") || r.used[i] {
            continue;
        }
        let found = (1..=MAX_UNIT_WORDS.min(n - i)).rev().find_map(|len| {
            let span = &r.tokens[i..i + len];
            if span.iter().any(|t| r.consumed(&lx.recognisers, t)) {
                return None;
            }
            let words: Vec<&str> = span
                .iter()
                .map(|t| &r.query[t.range.0..t.range.1])
                .collect();
            unit_of_words(&words).map(|u| (u, len))
        });
        let Some((unit, len)) = found else { continue };
        let same: Vec<&str> = g
            .concepts
            .iter()
            .filter(|c| c.kind == "response")
            .filter(|c| {
                c.unit
                    .as_deref()
                    .and_then(|s| units().parse(s).ok())
                    .is_some_and(|cu| cu.dim == unit.dim)
            })
            .filter(|c| {
                pointed.is_empty()
                    || g.index
                        .concept_postings
                        .get(&c.id)
                        .into_iter()
                        .flatten()
                        .any(|p| pointed.contains(&p.tool))
            })
            .map(|c| c.id.as_str())
            .collect();
        if let [one] = same.as_slice() {
            let range = (r.tokens[i].range.0, r.tokens[i + len - 1].range.1);
            r.concepts
                .push((one.replace('_', " "), vec![(*one).to_string()], false));
            r.concept_at.push(range);
            r.concept_spans.push(range);
            r.used[i..i + len].iter_mut().for_each(|u| *u = true);
            break;
        }
    }
    Flow::Next
}

#[cfg(test)]
mod tests {
    use super::unit_of_words;
    use crate::route::analyzer::testing::understand;

    #[test]
    fn unit_phrases_in_words_are_read() {
        let canon = |ws: &[&str]| unit_of_words(ws).map(|u| u.canonical);
        assert_eq!(
            canon(&["cubic", "angstroms", "per", "atom"]).as_deref(),
            Some("Å^3/atom")
        );
        assert_eq!(canon(&["gigapascals"]).as_deref(), Some("GPa"));
        assert_eq!(canon(&["electronvolts"]).as_deref(), Some("eV"));
        // A basis alone, plain words, a dangling power or `per`: none.
        assert_eq!(canon(&["atoms"]), None);
        assert_eq!(canon(&["materials"]), None);
        assert_eq!(canon(&["cubic"]), None);
        assert_eq!(canon(&["angstroms", "per"]), None);
    }

    #[test]
    fn a_unit_in_words_names_the_one_concept_of_its_dimension() {
        let u = understand("how many cubic angstroms per atom does silicon take up in MP");
        assert_eq!(
            u.domain_concepts,
            vec!["volume_per_atom".to_string()],
            "{u:?}"
        );
        // Many concepts in electronvolts: no guess.
        let u = understand("GaAs on MP in electronvolts");
        assert!(u.domain_concepts.is_empty(), "{u:?}");
        // A concept named already: the unit says only how to give it.
        let u = understand("band gap of Si in electronvolts");
        assert_eq!(u.domain_concepts, vec!["band_gap".to_string()], "{u:?}");
    }
}
