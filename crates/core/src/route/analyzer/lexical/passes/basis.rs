//! Pass `basis`: "formation enthalpy of NiAl per cell", "magnetic moment of Fe per atom",
//! "total energy of NaCl in eV/cell": a count basis stated apart from the property's name asks
//! for the concept of that basis, when the vocabulary names one by the property's words (or
//! their last ones) and the basis ("formation enthalpy per cell", "moment per atom", "energy per
//! cell"). The bases are the unit system's count bases (atom, cell, formula unit).
//!
//! Reads the query, tokens and `concepts` with `concept_at`; rewrites entries of `concepts`.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::{Token, tokenize};

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    let Reading {
        query,
        tokens,
        concepts,
        concept_at,
        ..
    } = r;
    // "formation enthalpy of NiAl per cell", "magnetic moment of Fe per atom", "total
    // energy of NaCl in eV/cell": a count basis stated apart from the property's name
    // asks for the concept of that basis, when the vocabulary names one by the property's
    // words (or their last ones) and the basis ("formation enthalpy per cell", "moment per
    // atom", "energy per cell").
    // Not when a concept's own words carry a basis ("formation energy per atom, ... and
    // the exfoliation energy"): the basis is that concept's.
    let basis_bound = concept_at.iter().any(|&(s0, e0)| {
        tokens
            .iter()
            .any(|t| s0 <= t.range.0 && t.range.1 <= e0 && t.norm == "per")
    });
    if let Some((basis, at)) = stated_basis(query).filter(|_| !basis_bound) {
        let basis_tokens = tokenize(basis);
        for k in 0..concepts.len() {
            let (s0, e0) = concept_at[k];
            // The basis follows the property it qualifies.
            if e0 > at {
                continue;
            }
            let span: Vec<Token> = tokens
                .iter()
                .filter(|t| s0 <= t.range.0 && t.range.1 <= e0)
                .cloned()
                .collect();
            if span.iter().any(|t| t.norm == "per") {
                continue;
            }
            // A concept whose unit already has that basis is what was asked ("exfoliation
            // energy in eV/atom" stays exfoliation energy, in meV/atom).
            let has_basis = |id: &String| {
                g.concept(id)
                    .and_then(|c| c.unit.as_deref())
                    .and_then(unit_count_basis)
                    == Some(basis)
            };
            if !concepts[k].1.is_empty() && concepts[k].1.iter().all(has_basis) {
                continue;
            }
            for skip in 0..span.len() {
                let mut phrase = span[skip..].to_vec();
                phrase.extend(basis_tokens.iter().cloned());
                if let Some((v, _)) = lx.lookup(&g.index.alias_to_concept, &phrase) {
                    if *v != concepts[k].1 {
                        concepts[k] = (format!("{} {basis}", concepts[k].0), v.clone(), false);
                    }
                    break;
                }
            }
        }
    }
    Flow::Next
}

/// The one count basis a question states ("per cell", "in eV/cell", "per atom", "μB/atom",
/// "per formula unit"), as `per cell`, `per atom` or `per formula unit`, with the byte offset
/// of its first statement; `None` when it states none or several.
fn stated_basis(query: &str) -> Option<(&'static str, usize)> {
    let lower = query.to_lowercase();
    if lower.len() != query.len() {
        // Offsets would not carry over (a letter whose lower case has another length).
        return None;
    }
    let mut found: Vec<(&'static str, usize)> = Vec::new();
    for (needles, basis) in [
        (&["per cell", "per unit cell", "/cell"][..], "per cell"),
        (&["per atom", "/atom"][..], "per atom"),
        (
            &["per formula unit", "per f.u.", "/f.u.", "/fu"][..],
            "per formula unit",
        ),
    ] {
        let first = needles
            .iter()
            .flat_map(|n| lower.match_indices(n))
            .filter(|(i, m)| {
                !lower[i + m.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
            })
            .map(|(i, _)| i)
            .min();
        if let Some(i) = first {
            found.push((basis, i));
        }
    }
    (found.len() == 1).then(|| found[0])
}

/// The count basis a unit's spelling ends in (`meV/atom` -> "per atom", `eV/cell` -> "per
/// cell", `μB/f.u.` -> "per formula unit"), as [`stated_basis`] names them.
fn unit_count_basis(unit: &str) -> Option<&'static str> {
    let u = unit.trim().to_ascii_lowercase();
    if u.ends_with("/atom") {
        Some("per atom")
    } else if u.ends_with("/cell") {
        Some("per cell")
    } else if u.ends_with("/f.u.") || u.ends_with("/fu") || u.ends_with("/formula_unit") {
        Some("per formula unit")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::understand;

    #[test]
    fn a_basis_stated_apart_asks_for_the_concept_of_that_basis() {
        for (q, concept) in [
            (
                "formation enthalpy of NiAl per cell",
                "formation_energy_per_cell",
            ),
            ("magnetic moment of Fe per atom", "magnetic_moment_per_atom"),
        ] {
            assert_eq!(
                understand(q).domain_concepts,
                vec![concept.to_string()],
                "{q}"
            );
        }
    }
}
