//! Pass `parameters`: parameter values read from the question with well-tested patterns
//! ([`crate::route::analyzer::params`]): identifiers, years and year ranges, result counts,
//! quoted titles, authors, chemical formulas and names, each with the byte range it took (so the
//! later passes do not read a DOI's digits as words).
//!
//! Writes `extracted`. A tool's name after `by` ("indexed by OpenAlex") is not an author.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::tokenize;
use crate::route::analyzer::params;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let mut extracted = params::extract(&lx.recognisers, &r.query);
    // "indexed by OpenAlex": a tool's name after `by` is not an author.
    extracted.retain(|e| {
        e.concept != "author"
            || !e
                .value
                .as_str()
                .is_some_and(|name| lx.names_tool(&tokenize(name)))
    });
    r.extracted = extracted;
    Flow::Next
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::{understand, want};
    use serde_json::json;

    #[test]
    fn authors_after_by() {
        assert_eq!(
            understand("Preprints by Gerbrand Ceder on cathode coatings"),
            want(json!({
                "intent": "literature_search",
                "domain_concepts": [],
                "parameters": {"author": "Gerbrand Ceder", "search_text": "cathode coatings"},
                "target_apis": [],
                "source_constraint": "literature"
            }))
        );
        assert_eq!(
            understand("Recent arXiv papers authored by J. K. Nørskov after 2018"),
            want(json!({
                "intent": "literature_search",
                "domain_concepts": [],
                "parameters": {"author": "J. K. Nørskov", "year_from": 2019},
                "target_apis": ["arxiv"],
                "source_constraint": "literature"
            }))
        );
        // A tool's name after `by` is not an author.
        let u = understand("Perovskite solar cell papers indexed by OpenAlex");
        assert!(!u.parameters.contains_key("author"), "{u:?}");
        // Outside literature questions a capitalised word after `by` is not kept as an author.
        let u = understand("Band gap of GaAs measured by Raman");
        assert!(!u.parameters.contains_key("author"), "{u:?}");
    }

    #[test]
    fn bare_year_in_a_filing_question_is_the_fiscal_year() {
        assert_eq!(
            understand("LG Chem revenue, 2021, DART"),
            want(json!({
                "intent": "corporate_disclosure",
                "domain_concepts": ["revenue"],
                "parameters": {"fiscal_year": 2021},
                "target_apis": ["dart"],
                "source_constraint": null
            }))
        );
        // A range stays a range.
        assert_eq!(
            understand("DART filings of corp 00126380 since 2020"),
            want(json!({
                "intent": "corporate_disclosure",
                "domain_concepts": [],
                "parameters": {"corp_code": "00126380", "year_from": 2020},
                "target_apis": ["dart"],
                "source_constraint": null
            }))
        );
    }

    #[test]
    fn a_pubmed_id_is_a_parameter() {
        assert_eq!(
            understand("title and abstract of PMID 31452104"),
            want(json!({
                "intent": "paper_content",
                "domain_concepts": ["title", "abstract"],
                "parameters": {"pmid": "31452104"},
                "target_apis": [],
                "source_constraint": null
            }))
        );
    }

    #[test]
    fn a_sample_id_is_a_parameter() {
        let u = understand("Which technique did we use to measure sample S-12?");
        assert_eq!(
            u.intent.as_deref(),
            Some("experimental_measurement"),
            "{u:?}"
        );
        assert_eq!(u.parameters.get("sample_id"), Some(&json!("S-12")), "{u:?}");
        // A sample alone names the entity.
        let u = understand("conductivity of sample LAB-0042");
        assert_eq!(
            u.intent.as_deref(),
            Some("experimental_measurement"),
            "{u:?}"
        );
    }
}
