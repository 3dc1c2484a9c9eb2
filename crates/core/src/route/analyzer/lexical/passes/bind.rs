//! Pass `bind`: the Understanding of a question with an intent: the concepts asked for, the
//! tools named, the source constraint (only one a candidate of the intent and every named tool
//! carry: "DFT+U settings" is topical), and the parameters: extracted values (several values of
//! one entity parameter, "GaN, AlN and InN", become a list), a compound's name read after `of` /
//! `for` or as the subject of "how many X does Y have", and the topic of a search ("papers on
//! X", "search the web for Y", "search PubMed for Z", Korean "X 관련"), cut before a tool named
//! at its start or end and before the years that bound it; a formula inside the topic is part of
//! it. Only parameters some tool binds are kept.
//!
//! Runs when the reading has an intent; reads everything the earlier passes found; writes the
//! Understanding's concepts, tools, source constraint and parameters.

use super::Flow;
use crate::route::Understanding;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::phrases::{
    SEARCH_VERBS, TOPIC_KEYS, TOPIC_STOPS, YEAR_LEADS, phrase_after, phrase_before_ko,
    subject_of_have,
};
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::Token;
use crate::route::analyzer::params::{Extracted, Recognisers};
use std::collections::BTreeMap;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    let Some(ii) = r.intent else {
        return Flow::Next;
    };
    let Reading {
        query,
        tokens,
        tool_words,
        extracted,
        concepts,
        tools,
        source_constraint,
        understanding: u,
        ..
    } = r;
    // Several values of one entity parameter ("GaN, AlN and InN") become a list.
    let mut multi: BTreeMap<&str, Vec<serde_json::Value>> = BTreeMap::new();
    for e in extracted.iter() {
        if lx.recognisers.is_multiple(&e.concept) {
            let v = multi.entry(e.concept.as_str()).or_default();
            if !v.contains(&e.value) {
                v.push(e.value.clone());
            }
        }
    }
    for m in concepts.iter() {
        let out = lx.requested(m);
        if !u.domain_concepts.contains(&out) {
            u.domain_concepts.push(out);
        }
    }
    u.target_apis = tools.iter().map(|t| g.tool_at(*t).id.clone()).collect();
    // A cue no candidate of the intent can satisfy is topical ("DFT+U settings"), not a
    // constraint.
    // Nor is one that a tool the question names lacks ("from both the Materials
    // Project and our lab measurements"): the named tools are asked as named.
    u.source_constraint = source_constraint.clone().filter(|st| {
        lx.candidates[ii]
            .iter()
            .any(|t| g.tool_at(*t).source_types.contains(st))
            && tools
                .iter()
                .all(|t| g.tool_at(*t).source_types.contains(st))
    });
    for e in extracted.iter() {
        u.parameters
            .entry(e.concept.clone())
            .or_insert_with(|| e.value.clone());
    }
    for (c, vs) in &multi {
        if vs.len() > 1 {
            u.parameters
                .insert(c.to_string(), serde_json::Value::Array(vs.clone()));
        }
    }
    // Free-text parameters the intent's tools take.
    let binds = |c: &str| lx.intent_params[ii].contains(c);
    // A free-text name (kind `subject`): "boiling point of ethyl lactate", "How many hydrogen
    // bond donors does ethyl lactate have?".
    for r in lx.recognisers.subjects() {
        if binds(&r.concept)
            && !r.unless.iter().any(|c| u.parameters.contains_key(c))
            && let Some(name) =
                phrase_after(query, &["of", "for"], &["from", "in", "according", "on"])
                    .or_else(|| subject_of_have(query))
        {
            u.parameters.insert(r.concept.clone(), name.into());
        }
    }
    // The topic ends where the author begins ("on X by Y").
    let topic_stops: &[&str] = if u.parameters.contains_key("author") {
        TOPIC_STOPS
    } else {
        &TOPIC_STOPS[..TOPIC_STOPS.len() - 1]
    };
    if binds("search_text") {
        search_text(
            &lx.recognisers,
            query,
            tokens,
            tool_words,
            extracted,
            u,
            topic_stops,
        );
    }
    // An author only means something to tools that search by author.
    if !binds("author") {
        u.parameters.remove("author");
    }
    // Keep only parameters some tool binds (the router would not use others).
    u.parameters
        .retain(|k, _| g.index.param_postings.contains_key(k));
    Flow::Next
}

/// The topic of a search ("papers on X", "search the web for Y", "search PubMed for Z", Korean
/// "X 관련") as the `search_text` parameter, unless a DOI or title names the work: cut before a
/// tool named at its start or end and before the years that bound it; a formula inside it is part
/// of it (no parameter of a `formula` recogniser's concept then).
fn search_text(
    rs: &Recognisers<'_>,
    query: &str,
    tokens: &[Token],
    tool_words: &[bool],
    extracted: &[Extracted],
    u: &mut Understanding,
    topic_stops: &[&str],
) {
    // A DOI (kind `doi`) or a quoted title names the work: no topic to search.
    let names_work = u.parameters.contains_key("title")
        || rs
            .concepts_of_kind("doi")
            .any(|c| u.parameters.contains_key(c));
    if !names_work
        && let Some(topic) = phrase_after(query, TOPIC_KEYS, topic_stops)
            .or_else(|| phrase_before_ko(query))
            // "search the web for X": `for` after a search verb or place, only when no
            // other word introduces a topic ("the smearing parameter for metals" is no topic).
            .or_else(|| {
                phrase_after(
                    query,
                    &[
                        "search for",
                        "searching for",
                        "look for",
                        "looking for",
                        "web for",
                        "online for",
                        "internet for",
                        "forums for",
                    ],
                    topic_stops,
                )
            })
            // "search PubMed for X", "look up arXiv for X": `for` right after a tool's
            // name, with a search verb before it.
            .or_else(|| {
                let k = (0..tokens.len().saturating_sub(1)).find(|&k| {
                    tool_words[k]
                        && !tool_words[k + 1]
                        && tokens[k + 1].norm == "for"
                        && tokens[..k]
                            .iter()
                            .any(|t| SEARCH_VERBS.contains(&t.norm.as_str()))
                })?;
                phrase_after(&query[tokens[k + 1].range.0..], &["for"], topic_stops)
            })
    {
        // "papers about TiO2 photocatalysis on arXiv": a topic that is only a tool's
        // name says where to search; the topic is the phrase before it.
        let only_tool = |phrase: &str| {
            let s0 = phrase.as_ptr() as usize - query.as_ptr() as usize;
            let e0 = s0 + phrase.len();
            let inside: Vec<bool> = tokens
                .iter()
                .zip(tool_words.iter())
                .filter(|(t, _)| s0 <= t.range.0 && t.range.1 <= e0)
                .map(|(_, tool)| *tool)
                .collect();
            !inside.is_empty() && inside.iter().all(|x| *x)
        };
        let topic = if only_tool(topic) {
            let s0 = topic.as_ptr() as usize - query.as_ptr() as usize;
            let head = query[..s0].trim_end();
            let head = head.rfind(char::is_whitespace).map_or("", |i| &head[..i]);
            match phrase_after(head, TOPIC_KEYS, topic_stops) {
                Some(t) if !only_tool(t) => t,
                _ => topic,
            }
        } else {
            topic
        };
        // A tool named at the topic's start ("오픈알렉스에서 그래핀 관련 논문") is where to
        // search, not what about.
        let mut start = topic.as_ptr() as usize - query.as_ptr() as usize;
        let mut end = start + topic.len();
        for (t, _) in tokens
            .iter()
            .zip(tool_words.iter())
            .filter(|(_, tool)| **tool)
        {
            if t.range.0 == start && t.range.1 < end {
                start = t.range.1
                    + (query[t.range.1..end].len() - query[t.range.1..end].trim_start().len());
            }
        }
        // Nor one named at its end after a preposition ("perovskite solar cells on
        // arXiv").
        let inside: Vec<(&Token, bool)> = tokens
            .iter()
            .zip(tool_words.iter().copied())
            .filter(|(t, _)| start <= t.range.0 && t.range.1 <= end)
            .collect();
        let tail = inside.iter().rev().take_while(|(_, tool)| *tool).count();
        if tail > 0 && tail + 1 < inside.len() {
            let (before, _) = inside[inside.len() - tail - 1];
            if matches!(
                before.norm.as_str(),
                "on" | "in" | "from" | "at" | "via" | "using" | "with" | "through"
            ) {
                end = before.range.0;
            }
        }
        // Nor the years that bound it ("MXenes between 2018 and 2020", "GaN 2019-21").
        if let Some(y) = extracted
            .iter()
            .filter(|e| matches!(e.concept.as_str(), "year_from" | "year_to"))
            .map(|e| e.range.0)
            .filter(|&i| start < i && i < end)
            .min()
        {
            end = y;
            loop {
                let head = query[start..end].trim_end();
                let cut = YEAR_LEADS.iter().find_map(|w| {
                    head.strip_suffix(w)
                        .filter(|h| h.is_empty() || h.ends_with(char::is_whitespace))
                });
                match cut {
                    Some(h) if !h.trim().is_empty() => end = start + h.len(),
                    _ => {
                        end = start + head.len();
                        break;
                    }
                }
            }
        }
        let topic = query[start..end].trim();
        // A formula or material name inside the topic ("TiO2 photocatalysis", "hard
        // carbon anodes") is part of what the papers are about, not a record to fetch.
        for c in rs.formula_concepts() {
            if extracted
                .iter()
                .filter(|e| e.concept == c)
                .all(|e| start <= e.range.0 && e.range.1 <= end)
            {
                u.parameters.remove(c);
            }
        }
        // "preprints on arXiv": no topic at all.
        if !topic.is_empty() && !only_tool(topic) {
            u.parameters.insert("search_text".into(), topic.into());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::understand;
    use serde_json::json;

    #[test]
    fn several_formulas_become_a_list() {
        // Several values of one entity parameter are kept, in query order.
        let u = understand("Compare the band gaps of ZnO, GaN and SiC");
        assert_eq!(
            u.parameters.get("formula"),
            Some(&json!(["ZnO", "GaN", "SiC"])),
            "{u:?}"
        );
    }

    #[test]
    fn a_tool_named_before_a_korean_topic_is_not_part_of_it() {
        let u = understand("오픈알렉스에서 그래핀 관련 논문 찾아줘");
        assert_eq!(u.intent.as_deref(), Some("literature_search"), "{u:?}");
        assert_eq!(u.parameters.get("search_text"), Some(&json!("그래핀")));
        assert_eq!(u.target_apis, vec!["openalex".to_string()]);
    }

    #[test]
    fn search_for_introduces_a_topic() {
        let u = understand("search the web for graphene production costs");
        assert_eq!(u.intent.as_deref(), Some("general_web_info"));
        assert_eq!(
            u.parameters.get("search_text"),
            Some(&json!("graphene production costs"))
        );
        // Only after a search verb or place: "the smearing parameter for metals" is no topic.
        let u = understand(
            "How do I choose the smearing parameter in VASP for metals? Check the forums.",
        );
        assert_eq!(u.parameters.get("search_text"), None);
        // `for` is a fallback: a topic after `on` is kept whole.
        let u = understand("Get me arXiv preprints on graph neural networks for materials");
        assert_eq!(
            u.parameters.get("search_text"),
            Some(&json!("graph neural networks for materials"))
        );
    }

    /// A molecule no names recogniser knows is read as free text (kind `subject`) after `of` or
    /// as the subject of "how many X does Y have".
    #[test]
    fn a_free_text_name_is_the_subject() {
        for q in [
            "molecular weight of ethyl lactate",
            "How many hydrogen bond donors does ethyl lactate have?",
        ] {
            let u = understand(q);
            assert_eq!(u.intent.as_deref(), Some("chemical_compound_lookup"), "{q}");
            assert_eq!(
                u.parameters.get("compound_name"),
                Some(&json!("ethyl lactate")),
                "{q}"
            );
        }
    }

    /// Concepts are named by their ids, a field alias too when the id resolves to the same
    /// fields; an alias of a field the id does not name stays as written, since the id would
    /// name another field.
    #[test]
    fn concepts_are_named_by_their_ids() {
        for (q, named) in [
            ("bulk modulus of C", "bulk_modulus"),
            ("K_VRH of diamond", "bulk_modulus"),
            ("Magnetic moment of bcc iron (mp-13)?", "magnetic_moment"),
            ("AEL bulk modulus of Si", "AEL bulk modulus"),
            ("HSE06 band gap of TiO2", "HSE06 band gap"),
        ] {
            assert_eq!(understand(q).domain_concepts, [named], "{q}");
        }
    }
}
