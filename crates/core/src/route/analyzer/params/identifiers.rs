//! Declared identifiers (recogniser kinds `pattern`, `doi` and `phrases`): every match of every
//! recogniser whose context the question holds is a candidate; where candidates overlap, the one
//! that takes more of the question wins (then the one whose whole match, label included, is
//! longer; then the leftmost; then artifact order), so "10.48550/arXiv.2106.01234" is one DOI,
//! not an arXiv id inside a DOI, whatever order the recognisers are declared in. The winners are
//! read in the order they stand in the question.

use super::patterns::{LazyRegex, group};
use super::{Extraction, Recognisers, in_context, taken};
use crate::artifact::lexicon::RecogniserData;
use serde_json::Value;
use std::cmp::Reverse;

/// A DOI: `10.`, a registrant code, `/` and a suffix up to a space, quote or angle bracket.
static DOI: LazyRegex = LazyRegex::new(r#"(?i)\b(10\.\d{4,9}/[^\s"'<>]+)"#, |h| h.contains("10."));

/// Punctuation that ends a sentence rather than a DOI.
const DOI_TRIM: &[char] = &['.', ',', ';', ')', '?', ']', '!', ':'];

/// One match of one recogniser.
struct Candidate<'a> {
    concept: &'a str,
    value: Value,
    /// What it takes from the question.
    took: (usize, usize),
    /// Its whole match.
    whole: (usize, usize),
    /// The recogniser's place in artifact order.
    order: usize,
}

/// Read the declared identifiers of the question.
pub(super) fn read(rs: &Recognisers<'_>, query: &str, lower: &str, x: &mut Extraction<'_>) {
    let mut found: Vec<Candidate> = Vec::new();
    for (order, (r, re)) in rs.list.iter().zip(&rs.compiled).enumerate() {
        if !in_context(r, lower) {
            continue;
        }
        match r.kind.as_str() {
            "pattern" => {
                if let Some(re) = re {
                    for c in re.captures_iter(query) {
                        found.extend(candidate(r, order, &c, &r.trim));
                    }
                }
            }
            "doi" => {
                let trim: String = DOI_TRIM.iter().copied().chain(r.trim.chars()).collect();
                for c in DOI.captures_iter(query) {
                    found.extend(candidate(r, order, &c, &trim));
                }
            }
            "phrases" => {
                if let Some((i, text, value)) = r
                    .phrases
                    .iter()
                    .find_map(|(t, v)| lower.find(t.as_str()).map(|i| (i, t, v)))
                    && let Some(value) = typed(r, value)
                {
                    found.push(Candidate {
                        concept: &r.concept,
                        value,
                        took: (i, i + text.len()),
                        whole: (i, i + text.len()),
                        order,
                    });
                }
            }
            _ => {}
        }
    }
    let mut by_size: Vec<usize> = (0..found.len()).collect();
    by_size.sort_by_key(|&i| {
        let c = &found[i];
        (
            Reverse(c.took.1 - c.took.0),
            Reverse(c.whole.1 - c.whole.0),
            c.took.0,
            c.order,
        )
    });
    let mut won: Vec<usize> = Vec::new();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for i in by_size {
        let (s, e) = found[i].took;
        if !taken(&ranges, s, e) {
            ranges.push((s, e));
            won.push(i);
        }
    }
    won.sort_by_key(|&i| (found[i].took.0, found[i].order));
    for i in won {
        let c = &found[i];
        x.push(c.concept, c.value.clone(), c.took.0, c.took.1);
    }
}

/// The candidate of one match: its value (the first capture group that took part, trimmed of
/// `trim` at its end, of the declared type, holding one of the required characters), or none.
fn candidate<'a>(
    r: &'a RecogniserData,
    order: usize,
    c: &regex::Captures<'_>,
    trim: &str,
) -> Option<Candidate<'a>> {
    let m = group(c)?;
    let all = c.get(0)?;
    let text = m.as_str().trim_end_matches(|ch| trim.contains(ch));
    if text.is_empty()
        || (!r.requires.is_empty() && !text.chars().any(|ch| r.requires.contains(ch)))
    {
        return None;
    }
    let value = typed(r, text)?;
    let took = if r.whole_match {
        (all.start(), all.end())
    } else {
        (m.start(), m.start() + text.len())
    };
    Some(Candidate {
        concept: &r.concept,
        value,
        took,
        whole: (all.start(), all.end()),
        order,
    })
}

/// `text` as the recogniser's value type (`None`: an integer recogniser's text is no whole
/// number).
fn typed(r: &RecogniserData, text: &str) -> Option<Value> {
    if r.integer {
        text.parse::<i64>().ok().map(Value::from)
    } else {
        Some(Value::String(text.to_string()))
    }
}

/// The recognisers of years stated for a concept (kind `year`) whose context the question
/// holds.
pub(super) fn years_stated<'a>(rs: &'a Recognisers<'_>, lower: &str) -> Vec<&'a RecogniserData> {
    rs.of_kind("year")
        .filter(|(r, _)| in_context(r, lower))
        .map(|(r, _)| r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{extract, get};
    use serde_json::Value;

    #[test]
    fn identifiers() {
        assert_eq!(
            get(
                "How many citations does Crossref record for 10.1063/1.4812323?",
                "doi"
            ),
            Some("10.1063/1.4812323".into())
        );
        assert_eq!(
            get("doi 10.1103/PhysRevLett.120.145301): Crossref", "doi"),
            Some("10.1103/PhysRevLett.120.145301".into())
        );
        assert_eq!(
            get("PubChem CID 702: what's the TPSA", "cid"),
            Some(702.into())
        );
        assert_eq!(
            get("InChIKey BSYNRYMUTXBXSQ-UHFFFAOYSA-N? I need", "inchikey"),
            Some("BSYNRYMUTXBXSQ-UHFFFAOYSA-N".into())
        );
        assert_eq!(
            get("magnetic moment of mp-13 (bcc iron)", "material_id"),
            Some("mp-13".into())
        );
        assert_eq!(
            get("title and abstract of PMID 31452104", "pmid"),
            Some("31452104".into())
        );
        assert_eq!(get("PubMed id: 31452104?", "pmid"), Some("31452104".into()));
        assert_eq!(get("a pmid-free question", "pmid"), None);
        assert_eq!(
            get("authors of PubMed article 31452104", "pmid"),
            Some("31452104".into())
        );
        assert_eq!(get("pubmed 31452104", "pmid"), Some("31452104".into()));
        assert_eq!(get("PubMed 2020 papers on perovskites", "pmid"), None);
        assert_eq!(
            get("conductivity of sample LAB-0042?", "sample_id"),
            Some("LAB-0042".into())
        );
        assert_eq!(
            get(
                "Which technique did we use on sample id: S-12.",
                "sample_id"
            ),
            Some("S-12".into())
        );
        assert_eq!(get("our CdTe samples", "sample_id"), None);
        assert_eq!(
            get("see arXiv:2106.01234v2 please", "arxiv_id"),
            Some("2106.01234v2".into())
        );
    }

    /// A DOI that holds an arXiv id is one DOI: the longer match wins, whatever the order the
    /// recognisers are declared in.
    #[test]
    fn the_longer_of_two_overlapping_matches_wins() {
        let read: Vec<(String, Value)> = extract("see 10.48550/arXiv.2106.01234 please")
            .into_iter()
            .map(|e| (e.concept, e.value))
            .collect();
        assert_eq!(
            read,
            [("doi".to_string(), Value::from("10.48550/arXiv.2106.01234"))]
        );
    }

    /// A project that declares no recogniser reads no identifier (years, counts, authors and
    /// quoted titles are read for every project).
    #[test]
    fn a_project_without_recognisers_reads_no_identifier() {
        let lexicon = crate::artifact::lexicon::Lexicon::default();
        let rs = super::super::Recognisers::new(&lexicon);
        let read: Vec<String> = super::super::extract(
            &rs,
            "PMID 31452104, CID 702, 10.1063/1.4812323 and mp-13 since 2020",
        )
        .into_iter()
        .map(|e| e.concept)
        .collect();
        assert_eq!(read, ["year_from"]);
    }
}
