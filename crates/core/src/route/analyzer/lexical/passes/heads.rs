//! Pass `heads`: a head noun several concepts share, written alone ("is the gap direct or
//! indirect", "the mass of caffeine in PubChem", "what modulus does MP give for TiC"). The
//! word is the last word of aliases of several concepts (gap: band gap, direct gap; mass:
//! molar mass, exact mass, effective mass), so it names none of them alone; the question's
//! modifiers decide: the tools it names or, naming none, the tools that take the values it
//! gives (a formula, a compound name). The concepts of that head those tools publish are
//! asked for, at most [`MAX_HEAD_CONCEPTS`] of them; none when the word follows another
//! content word (a modifier no alias holds: "thermal expansion coefficient" is another
//! quantity), when the question points at no tool,
//! when no or more concepts remain, or when the question names a concept already ("the band
//! gap of Si: is the gap direct?" asks again for the band gap; "the space group of SiO2 when
//! AFLOW relaxed the structure" asks for no structure prototype).
//!
//! Reads the tokens, `extracted`, `tools` and `concepts`; writes `concepts` with `concept_at`,
//! `concept_spans` and `used`.

use super::Flow;
use crate::model::normalise_alias;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::STOP;
use std::collections::{BTreeSet, HashSet};

/// The most concepts one head noun is read as (more is a vague word, not a value).
const MAX_HEAD_CONCEPTS: usize = 3;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    let heads = lx.heads();
    // The tools the question points at: named, else those taking a value it gives.
    let mut pointed: HashSet<u32> = r.tools.iter().copied().collect();
    if pointed.is_empty() {
        for e in &r.extracted {
            for p in g.index.param_postings.get(&e.concept).into_iter().flatten() {
                pointed.insert(p.tool);
            }
        }
    }
    // Only where nothing else names the value asked: beside a concept read ("the space group
    // ... when AFLOW relaxes the structure"), a shared head is a word of the sentence.
    if pointed.is_empty() || !r.concepts.is_empty() {
        return Flow::Next;
    }
    for i in 0..r.tokens.len() {
        if r.used[i] || r.consumed(&lx.recognisers, &r.tokens[i]) {
            continue;
        }
        let t = &r.tokens[i];
        // The head alone ("the gap", "its mass"): after a word that is no stop word it has a
        // modifier no alias holds ("thermal expansion coefficient"), another quantity.
        if i > 0 && !STOP.contains(&r.tokens[i - 1].norm.as_str()) {
            continue;
        }
        let Some(all) = std::iter::once(&t.norm)
            .chain(&t.stems)
            .filter(|w| !STOP.contains(&w.as_str()))
            .find_map(|w| heads.get(w.as_str()))
        else {
            continue;
        };
        // A concept already read with this head is what the word refers back to.
        if r.concepts
            .iter()
            .any(|(_, ids, _)| ids.iter().any(|id| all.contains(id)))
        {
            continue;
        }
        let on_pointed: Vec<&String> = all
            .iter()
            .filter(|c| {
                g.index
                    .concept_postings
                    .get(c.as_str())
                    .into_iter()
                    .flatten()
                    .any(|p| pointed.contains(&p.tool))
            })
            .collect();
        if on_pointed.is_empty() || on_pointed.len() > MAX_HEAD_CONCEPTS {
            continue;
        }
        let range = t.range;
        for c in on_pointed {
            r.concepts
                .push((c.replace('_', " "), vec![c.clone()], false));
            r.concept_at.push(range);
        }
        r.concept_spans.push(range);
        r.used[i] = true;
    }
    Flow::Next
}

/// Per head word (the last word of an alias or id of two words or more before a basis or a
/// complement: `per`, `of`, `in`, `at`, `for`; normalised), the
/// response concepts whose aliases end in it, when there are two or more and one of them is a
/// measured quantity (has a unit: a title or a count is no value of a material or compound); a
/// word that is itself an alias, a tool's name or a qualifier's key or value ("Reuss" of the
/// bulk and the shear modulus names the variant, not the value) is no head.
pub(in crate::route::analyzer::lexical) fn heads_of(
    lx: &Lexical<'_>,
) -> std::collections::HashMap<String, BTreeSet<String>> {
    let g = lx.g;
    let mut out: std::collections::HashMap<String, BTreeSet<String>> = Default::default();
    for c in g.concepts.iter().filter(|c| c.kind == "response") {
        let names = std::iter::once(&c.id).chain(c.aliases.values().flatten());
        for a in names {
            let key = normalise_alias(a);
            // The head comes before a basis or a complement ("formation energy per atom",
            // "volume of the unit cell": energy, volume).
            let words: Vec<&str> = key
                .split('_')
                .filter(|w| !w.is_empty())
                .take_while(|w| !matches!(*w, "per" | "of" | "in" | "at" | "for"))
                .collect();
            if let [_, .., last] = words.as_slice()
                && last.len() >= 3
                && last.chars().all(char::is_alphabetic)
            {
                out.entry((*last).to_string())
                    .or_default()
                    .insert(c.id.clone());
            }
        }
    }
    let measured = |c: &String| g.concept(c).is_some_and(|d| d.unit.is_some());
    out.retain(|w, cs| {
        cs.len() >= 2
            && cs.iter().any(measured)
            && g.index.alias_to_concept.get(w).is_none()
            && g.index.alias_to_field.get(w).is_none()
            && g.index.tool_names.get(w).is_none()
            && g.index.qualifier_values.get(w).is_none()
            && g.index.qualifier_keys.get(w).is_none()
    });
    out
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::understand;

    fn concepts(q: &str) -> Vec<String> {
        let mut c = understand(q).domain_concepts;
        c.sort();
        c
    }

    #[test]
    fn a_shared_head_noun_is_read_by_the_tool_the_question_points_at() {
        // A named tool decides: Materials Project publishes the gap and its type.
        assert_eq!(
            concepts("For GaN in the Materials Project: is the gap direct or indirect?"),
            vec!["band_gap".to_string(), "band_gap_type".to_string()]
        );
        // PubChem publishes three masses of a compound; no effective mass.
        assert_eq!(
            concepts("the mass of caffeine in pubchem"),
            vec![
                "exact_mass".to_string(),
                "molecular_weight".to_string(),
                "monoisotopic_mass".to_string()
            ]
        );
    }

    #[test]
    fn a_head_noun_is_not_guessed_without_a_tool_or_after_its_concept() {
        // No tool named and no value a tool takes: no guess.
        assert!(concepts("what is the mass").is_empty());
        // A basis is no head: "atoms" of "formation energy per atom".
        assert!(concepts("oqmd: how many atoms are in the Cu2O cell?").is_empty());
        // A modifier no alias holds: another quantity.
        assert!(concepts("thermal expansion coefficient of Al2O3 on MP").is_empty());
        // A concept named already: the head is a word of the sentence.
        assert_eq!(
            concepts("Does the space group of SiO2 change when AFLOW relaxes the structure?"),
            vec!["space_group".to_string()]
        );
        // The band gap read already: "the gap" refers back to it.
        assert_eq!(
            concepts("band gap of GaN on MP - is the gap large?"),
            vec!["band_gap".to_string()]
        );
    }
}
