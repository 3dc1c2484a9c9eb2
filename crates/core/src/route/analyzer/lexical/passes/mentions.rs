//! Pass `mentions`: tool names and concept (or field) aliases in the question, longest match
//! first, n-grams of normalised tokens with the last word's stems; negated tool names ("not from
//! OQMD or AFLOW", "MP 말고") are ruled out.
//!
//! Reads the tokens and `extracted` (an identifier's words are its value, not a name); writes
//! `tools`, `excluded`, `concepts` with `concept_at` and `concept_spans`, `used` and
//! `tool_words`. A qualifier key's name of two words or more ("charge carriers") names no
//! concept. A list's items are apart ("journal, volume and pages"); a label right before the
//! value it names ("DOI 10.1038/...") asks for no field; "bulk and shear modulus" is two concepts
//! sharing a head, "lattice constants and angles" two sharing a modifier; the name of a tool before a noun of one work of a source type the tool is
//! not of (the project's `works` cue words) titles that work ("the Materials Project paper")
//! rather than naming the tool. Last, an element name inside a
//! concept's phrase ("hydrogen bond donors") is part of it, not the material asked about.

use super::Flow;
use crate::model::normalise_alias;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::negation::{negated_after_ko, negated_before};
use crate::route::analyzer::lexical::reading::{self, Reading};
use crate::route::analyzer::lexical::text::{STOP, Token};

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    let Reading {
        query,
        tokens,
        extracted,
        tools,
        excluded,
        concepts,
        concept_at,
        concept_spans,
        used,
        tool_words,
        ..
    } = r;
    let consumed = |t: &Token| reading::consumed(&lx.recognisers, extracted, t);
    let mut last_tool_end = 0usize;
    // Whether the previous tool name was negated: a list of names joined by `or` / `and`
    // after a negation ("not from OQMD or AFLOW", "excluding OQMD and AFLOW") is negated
    // as a whole.
    let mut last_tool_negated = false;
    let mut i = 0;
    while i < tokens.len() {
        if consumed(&tokens[i]) {
            i += 1;
            continue;
        }
        let mut advanced = false;
        let max = lx.max_words.min(tokens.len() - i);
        for len in (1..=max).rev() {
            let span = &tokens[i..i + len];
            if span.iter().any(consumed) {
                continue;
            }
            // A list's items are apart: "journal, volume and pages" is no "journal volume".
            if span
                .windows(2)
                .any(|w| query[w[0].range.1..w[1].range.0].contains([',', ';']))
            {
                continue;
            }
            // A name that is a word of the tool's own content ("books" for Google Books)
            // names it only after "on", "from", "via", "using" or "through".
            let named = lx.lookup_tool(span).filter(|(t, key)| {
                !lx.content_name(*t, key)
                    || i.checked_sub(1).is_some_and(|p| {
                        matches!(
                            tokens[p].norm.as_str(),
                            "on" | "from" | "via" | "using" | "through"
                        )
                    })
            });
            if let Some((t, _)) = named.as_ref().map(|(t, k)| (t, k)) {
                // "the Materials Project paper": the name of a tool that holds no
                // literature titles a paper, it does not ask that tool ("an arXiv paper"
                // does).
                if tokens.get(i + len).is_some_and(|n| {
                    g.lexicon.source_cues.iter().any(|c| {
                        c.works.contains(&n.norm)
                            && !g.tool_at(*t).source_types.contains(&c.source_type)
                    })
                }) {
                    used[i..i + len].iter_mut().for_each(|u| *u = true);
                    tool_words[i..i + len].iter_mut().for_each(|u| *u = true);
                    i += len;
                    advanced = true;
                    break;
                }
                let listed = last_tool_negated
                    && tokens[last_tool_end.min(i)..i]
                        .iter()
                        .all(|t| matches!(t.norm.as_str(), "or" | "and" | "nor" | "&"));
                let negated = listed
                    || negated_before(tokens, i, last_tool_end)
                    || negated_after_ko(tokens, i + len - 1);
                last_tool_end = i + len;
                last_tool_negated = negated;
                if negated {
                    if !excluded.contains(t) {
                        excluded.push(*t);
                    }
                } else if !tools.contains(t) {
                    tools.push(*t);
                }
                used[i..i + len].iter_mut().for_each(|u| *u = true);
                tool_words[i..i + len].iter_mut().for_each(|u| *u = true);
                i += len;
                advanced = true;
                break;
            }
            let c = lx.lookup(&g.index.alias_to_concept, span);
            let f = lx.lookup(&g.index.alias_to_field, span);
            // The name of a qualifier key, two words or more ("charge carriers", "doping
            // type"), says which variant of a value is meant; it asks for no value, and a
            // shorter alias inside it ("charge") is no concept of the question.
            if c.is_none()
                && f.is_none()
                && len >= 2
                && lx.lookup(&g.index.qualifier_keys, span).is_some()
            {
                i += len;
                advanced = true;
                break;
            }
            if c.is_some() || f.is_some() {
                let is_field = f.is_some();
                let ids: Vec<String> = c.as_ref().map(|(v, _)| (*v).clone()).unwrap_or_default();
                let key = c.map(|(_, k)| k).or(f.map(|(_, k)| k)).unwrap_or_default();
                let mut text = query[span[0].range.0..span[len - 1].range.1].to_string();
                // Matched through a stem ("전자 유효 질량이랑", "effective masses"): a name
                // passed on as text (a field alias, an ambiguous alias) is the alias
                // matched, which Algorithm 1 resolves, not the words with their ending.
                if normalise_alias(&text) != key {
                    text = key.replace('_', " ");
                }
                // Single short common words are weak evidence; skip stop words.
                if len == 1 && STOP.contains(&key.as_str()) {
                    break;
                }
                // A label right before the value it names ("DOI 10.1038/...") introduces
                // a parameter; it does not ask for that field.
                let end = span[len - 1].range.1;
                let label = extracted.iter().any(|e| {
                    ids.contains(&e.concept)
                        && e.range.0 >= end
                        && query[end..e.range.0]
                            .chars()
                            .all(|c| c.is_whitespace() || matches!(c, ':' | '#' | '='))
                });
                if label {
                    used[i..i + len].iter_mut().for_each(|u| *u = true);
                    i += len;
                    advanced = true;
                    break;
                }
                if !concepts
                    .iter()
                    .any(|(_, ids2, _)| !ids.is_empty() && ids2 == &ids)
                {
                    concepts.push((text, ids, is_field));
                    concept_at.push((span[0].range.0, span[len - 1].range.1));
                }
                concept_spans.push((span[0].range.0, span[len - 1].range.1));
                // "bulk and shear modulus", "electron and hole effective masses": the word
                // before `and` shares this phrase's head; with it, a concept of its own.
                if len >= 2
                    && i >= 2
                    && matches!(tokens[i - 1].norm.as_str(), "and" | "&" | "or")
                    && !used[i - 2]
                    && !consumed(&tokens[i - 2])
                {
                    let mut other = vec![tokens[i - 2].clone()];
                    other.extend_from_slice(&span[1..]);
                    if let Some((v, _)) = lx.lookup(&g.index.alias_to_concept, &other)
                        && !concepts.iter().any(|(_, ids2, _)| ids2 == v)
                    {
                        let text = format!(
                            "{} {}",
                            &query[tokens[i - 2].range.0..tokens[i - 2].range.1],
                            &query[span[1].range.0..span[len - 1].range.1]
                        );
                        concepts.push((text, v.clone(), false));
                        concept_at.push((tokens[i - 2].range.0, span[len - 1].range.1));
                        concept_spans.push((tokens[i - 2].range.0, tokens[i - 2].range.1));
                        used[i - 2] = true;
                    }
                }
                // "lattice constants and angles": the word after `and` shares this phrase's
                // modifier ([`shared_modifier`]).
                let free = |k: usize| !used[k] && !consumed(&tokens[k]);
                if let Some((text, v, at, j)) = shared_modifier(lx, query, tokens, i, len, &free)
                    && !concepts.iter().any(|(_, ids2, _)| *ids2 == v)
                {
                    concepts.push((text, v, false));
                    concept_at.push(at);
                    concept_spans.push(tokens[j].range);
                    used[j] = true;
                }
                used[i..i + len].iter_mut().for_each(|u| *u = true);
                i += len;
                advanced = true;
                break;
            }
        }
        if !advanced {
            i += 1;
        }
    }

    // An element name inside a concept's phrase ("hydrogen bond donors", "oxygen vacancy") is
    // part of that phrase, not the material asked about.
    extracted.retain(|e| {
        !lx.recognisers.is_formula_concept(&e.concept)
            || !concept_spans
                .iter()
                .any(|&(s, t)| s <= e.range.0 && e.range.1 <= t)
    });
    Flow::Next
}

/// A concept read through a shared modifier: its text, concept ids, the byte range of the whole
/// phrase and the index of the word after `and`.
type SharedModifier = (String, Vec<String>, (usize, usize), usize);

/// "lattice constants and angles", "formation energy or enthalpy": the word after `and` (or
/// `&`, `or`) that follows a concept's phrase of two words or more at `i..i + len` shares its
/// modifier; with it, an alias of a concept of its own. The text, the concept ids, the byte
/// range of the whole and the index of the word; none when the word is taken (`free` says
/// not), a stop word, or makes no alias.
fn shared_modifier(
    lx: &Lexical<'_>,
    query: &str,
    tokens: &[Token],
    i: usize,
    len: usize,
    free: &dyn Fn(usize) -> bool,
) -> Option<SharedModifier> {
    let j = i + len + 1;
    if len < 2
        || j >= tokens.len()
        || !matches!(tokens[i + len].norm.as_str(), "and" | "&" | "or")
        || !free(j)
        || STOP.contains(&tokens[j].norm.as_str())
    {
        return None;
    }
    let mut other = tokens[i..i + len - 1].to_vec();
    other.push(tokens[j].clone());
    let (v, _) = lx.lookup(&lx.g.index.alias_to_concept, &other)?;
    let text = format!(
        "{} {}",
        &query[tokens[i].range.0..tokens[i + len - 2].range.1],
        &query[tokens[j].range.0..tokens[j].range.1]
    );
    Some((text, v.clone(), (tokens[i].range.0, tokens[j].range.1), j))
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::{understand, want};
    use serde_json::json;

    #[test]
    fn citation_counts_in_verb_phrasings() {
        // "been cited" asks for the count; the "DOI" label before the id is not a request.
        assert_eq!(
            understand("Has the paper with DOI 10.1063/1.4812323 been cited much in Crossref?"),
            want(json!({
                "intent": "citation_impact",
                "domain_concepts": ["citation_count"],
                "parameters": {"doi": "10.1063/1.4812323"},
                "target_apis": ["crossref"],
                "source_constraint": null
            }))
        );
    }

    /// A negation covers a list of tool names joined by `or` / `and` / `nor`; a tool named
    /// after `but from` is wanted.
    #[test]
    fn a_negation_covers_a_list_of_tool_names() {
        let names = |q: &str| {
            let u = understand(q);
            (u.target_apis, u.excluded_apis)
        };
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        for q in [
            "band gap of GaN, not from OQMD or AFLOW",
            "band gap of GaN excluding OQMD and AFLOW",
            "band gap of GaN not from OQMD nor AFLOW",
        ] {
            assert_eq!(names(q), (s(&[]), s(&["oqmd", "aflow"])), "{q}");
        }
        assert_eq!(
            names("band gap of GaN from OQMD, not from Materials Project or AFLOW"),
            (s(&["oqmd"]), s(&["materials_project", "aflow"]))
        );
        assert_eq!(
            names("band gap of GaN not from OQMD but from AFLOW"),
            (s(&["aflow"]), s(&["oqmd"]))
        );
    }

    #[test]
    fn a_tool_name_before_paper_titles_the_paper() {
        let u = understand("How many citations does the Materials Project paper have?");
        assert_eq!(u.intent.as_deref(), Some("citation_impact"));
        assert_eq!(u.domain_concepts, vec!["citation_count".to_string()]);
        assert!(u.target_apis.is_empty(), "{u:?}");
    }

    #[test]
    fn an_element_name_inside_a_concept_is_no_formula() {
        assert_eq!(
            understand("How many hydrogen bond donors does paracetamol have?"),
            want(json!({
                "intent": "chemical_compound_lookup",
                "domain_concepts": ["hbond_donor_count"],
                "parameters": {"compound_name": "paracetamol"},
                "target_apis": [],
                "source_constraint": null
            }))
        );
    }

    #[test]
    fn a_qualifier_key_name_holds_no_concept_and_plurals_in_es_are_read() {
        // "charge" alone is PubChem's formal charge; "charge carriers" names the `carrier` key.
        let u = understand("effective masses of the charge carriers in PbTe from JARVIS");
        assert_eq!(
            u.domain_concepts,
            vec!["effective_mass".to_string()],
            "{u:?}"
        );
        let u = understand("which doping type has the larger Seebeck coefficient in Bi2Te3?");
        assert_eq!(
            u.domain_concepts,
            vec!["seebeck_coefficient".to_string()],
            "{u:?}"
        );
        let u = understand("the exact masses of caffeine and nicotine");
        assert_eq!(u.domain_concepts, vec!["exact_mass".to_string()], "{u:?}");
        let u = understand("mass densities of Al2O3 in NOMAD");
        assert_eq!(u.domain_concepts, vec!["density".to_string()], "{u:?}");
    }

    #[test]
    fn magnetic_alone_asks_for_the_magnetic_ordering() {
        // `magnetic` is an alias of magnetic_ordering (aliases/materials.yaml).
        let u = understand("Is Fe2O3 magnetic?");
        assert_eq!(u.intent.as_deref(), Some("magnetic_property"), "{u:?}");
        assert_eq!(u.domain_concepts, vec!["magnetic_ordering".to_string()]);
    }

    #[test]
    fn two_properties_joined_by_and_share_their_head() {
        let u = understand("bulk and shear modulus of TiC from MP");
        assert_eq!(
            u.domain_concepts,
            vec!["shear_modulus".to_string(), "bulk_modulus".to_string()],
            "{u:?}"
        );
    }

    #[test]
    fn two_properties_joined_by_and_share_their_modifier() {
        let u = understand("what are the lattice constants and angles of GaN in NOMAD");
        assert_eq!(
            u.domain_concepts,
            vec![
                "lattice_parameters".to_string(),
                "lattice_angles".to_string()
            ],
            "{u:?}"
        );
        // A word that makes no alias with the modifier is left alone, and a stop word is none.
        let u = understand("band gap and density of GaN from MP");
        assert!(
            !u.domain_concepts.iter().any(|c| c == "band_density"),
            "{u:?}"
        );
        let u = understand("formation energy and the volume of GaN from MP");
        assert!(
            u.domain_concepts.contains(&"formation_energy".to_string()),
            "{u:?}"
        );
    }

    #[test]
    fn a_misspelt_word_of_a_concept_name_is_read_as_the_alias_word() {
        // One slip per phrase: a swap, a letter left out, one changed, one added.
        for (q, concept) in [
            ("TiO2 dielectirc constant in jarvis", "dielectric_constant"),
            (
                "thermal conductivty of Si in jarvis",
                "thermal_conductivity",
            ),
            (
                "seebek coefficient of Bi2Te3 in jarvis",
                "seebeck_coefficient",
            ),
            ("magnetc moment of Fe on MP", "magnetic_moment"),
            ("poisons ratio of W in aflow", "poisson_ratio"),
        ] {
            let u = understand(q);
            assert_eq!(u.domain_concepts, vec![concept.to_string()], "{q}: {u:?}");
        }
        // A lone short slip is not guessed: "densiti" alone could be another word.
        assert!(
            understand("the densiti of NaCl in MP")
                .domain_concepts
                .is_empty()
        );
    }
}
