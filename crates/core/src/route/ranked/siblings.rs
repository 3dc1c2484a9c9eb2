//! Choosing between sibling endpoints: endpoints of one tool that serve the same resource and
//! that the question's words alone do not tell apart.
//!
//! - **Versions** ([`supersede`]): a catalog that declares `/v1/cities` and `/v2/cities` (ids
//!   `get_cities`, `get_cities_2`) serves one resource twice; the highest version is the one
//!   planned, with the better score of the two.
//! - **Deprecated endpoints** ([`retire`]): an endpoint the provider marks deprecated
//!   (OpenAPI `deprecated: true`) gives way to a live endpoint of the same tool that serves the
//!   same words; with none, it is still planned (it is what the catalog offers).
//! - **Unasked actions** ([`unasked_sibling`]): an endpoint whose name holds a verb of making the
//!   request does not say (`convert_time`) counts less only when a sibling serves the same words
//!   without it (`get_current_time`); an endpoint with no such sibling (`/auth/validate`, the one
//!   endpoint that says whether an account is premium) is what the catalog offers.
//! - **The path's own last noun** ([`last_segment_extra`]): for "the payees in my budget",
//!   `/budgets/{id}/payees` names what is asked, `/budgets/{id}/payee_locations` names it and
//!   something more.

use super::select::Candidate;
use crate::artifact::{EndpointData, FrozenGraph};
use crate::search::text::url_path;

/// The version a path segment names (`v1`, `v2`, `V3`, `v1.1`), as its numbers.
fn version_of(segment: &str) -> Option<Vec<u32>> {
    let rest = segment.strip_prefix(['v', 'V'])?;
    if rest.is_empty() {
        return None;
    }
    rest.split('.').map(|p| p.parse().ok()).collect()
}

/// The path of `url` without its version segment, placeholders written `{}` (a placeholder may
/// be renamed between versions), and the version; `None` when no segment names a version.
pub(super) fn unversioned(url: &str) -> Option<(String, Vec<u32>)> {
    let segments: Vec<&str> = url_path(url).split('/').filter(|s| !s.is_empty()).collect();
    let at = segments.iter().position(|s| version_of(s).is_some())?;
    let version = version_of(segments[at])?;
    let rest: Vec<&str> = segments
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(_, s)| if s.starts_with('{') { "{}" } else { s })
        .collect();
    Some((rest.join("/"), version))
}

/// Whether `newer` is the same operation as `older` in a higher version of the API: the same
/// method and the same path but for a version segment that names a higher version.
pub(super) fn supersedes(newer: &EndpointData, older: &EndpointData) -> bool {
    if newer.method != older.method || newer.destructive || newer.deprecated {
        return false;
    }
    match (unversioned(&newer.url), unversioned(&older.url)) {
        (Some((a, va)), Some((b, vb))) => a == b && va > vb,
        _ => false,
    }
}

/// Takes out of `candidates` every endpoint that a higher version of the same operation among
/// the candidates supersedes ([`supersedes`]); the newest keeps the best score of its versions
/// (the versions share their words, and a description that changed between versions is no
/// reason to plan an older one). The order is left to the caller.
pub(super) fn supersede(g: &FrozenGraph, candidates: &mut Vec<Candidate>) {
    let endpoint = |c: &Candidate| g.tool_at(c.tool).endpoint_at(c.endpoint);
    let mut gone = vec![false; candidates.len()];
    for i in 0..candidates.len() {
        let newest = (0..candidates.len())
            .filter(|&j| j != i && candidates[j].tool == candidates[i].tool)
            .filter(|&j| supersedes(endpoint(&candidates[j]), endpoint(&candidates[i])))
            .max_by(|&a, &b| {
                let va = unversioned(&endpoint(&candidates[a]).url).map(|v| v.1);
                let vb = unversioned(&endpoint(&candidates[b]).url).map(|v| v.1);
                va.cmp(&vb).then(b.cmp(&a))
            });
        let Some(j) = newest else { continue };
        gone[i] = true;
        let (score, lexical) = (candidates[i].score, candidates[i].lexical);
        let n = &mut candidates[j];
        n.score = n.score.max(score);
        n.lexical = n.lexical.max(lexical);
    }
    let mut keep = gone.iter().map(|g| !g);
    candidates.retain(|_| keep.next().unwrap_or(true));
}

/// Takes out of `candidates` every deprecated endpoint beside which a live candidate of the same
/// tool matches every word of the request it matches; that live endpoint keeps the better score
/// of the two (what the request asks is served, by the endpoint the provider keeps).
pub(super) fn retire(g: &FrozenGraph, candidates: &mut Vec<Candidate>) {
    let deprecated = |c: &Candidate| g.tool_at(c.tool).endpoint_at(c.endpoint).deprecated;
    let mut gone = vec![false; candidates.len()];
    for i in 0..candidates.len() {
        if !deprecated(&candidates[i]) {
            continue;
        }
        // The live sibling: the best-scored one that serves the same words.
        let live = (0..candidates.len())
            .filter(|&j| {
                j != i
                    && !gone[j]
                    && candidates[j].tool == candidates[i].tool
                    && !deprecated(&candidates[j])
                    && candidates[i].matched & !candidates[j].matched == 0
            })
            .max_by(|&a, &b| {
                candidates[a]
                    .score
                    .total_cmp(&candidates[b].score)
                    .then(b.cmp(&a))
            });
        let Some(j) = live else { continue };
        gone[i] = true;
        let (score, lexical) = (candidates[i].score, candidates[i].lexical);
        let n = &mut candidates[j];
        n.score = n.score.max(score);
        n.lexical = n.lexical.max(lexical);
    }
    let mut keep = gone.iter().map(|g| !g);
    candidates.retain(|_| keep.next().unwrap_or(true));
}

/// The stems of an endpoint's name that say what it is about: its name's stems
/// ([`super::select::name_stems`]) without version segments and without the verbs every
/// endpoint's id starts with.
fn resource_stems(e: &EndpointData) -> Vec<String> {
    const METHOD_WORDS: &[&str] = &["delet", "get", "list", "patch", "post", "put", "read"];
    super::select::name_stems(e)
        .into_iter()
        .filter(|s| version_of(s).is_none() && !METHOD_WORDS.contains(&s.as_str()))
        .collect()
}

/// Whether the candidate at `i`, whose name holds an action the request does not ask for
/// (`unasked[i]`: a verb of making or a rendering), has a sibling among `candidates` that serves
/// the request without that action: another endpoint of the same tool whose name shares a word
/// of `i`'s resource that the request says (`said`: the request's stems; "time" in "what time
/// is it in Tokyo" for `convert_time` and `get_current_time`, not `auth` in "is my account
/// premium" for `/auth/validate` and `/auth/poll`), whose name does not hold that action (it
/// may hold another: `/priceBreakdownWidget.json` beside `visualize_…`), and that matches every
/// word of the request `i` matches.
pub(super) fn unasked_sibling(
    g: &FrozenGraph,
    candidates: &[Candidate],
    unasked: &[Option<&'static str>],
    said: &[String],
    i: usize,
) -> bool {
    let Some(action) = unasked[i] else {
        return false;
    };
    let action: Vec<String> = crate::search::text::stems(action).collect();
    let c = &candidates[i];
    let own: Vec<String> = resource_stems(g.tool_at(c.tool).endpoint_at(c.endpoint))
        .into_iter()
        .filter(|s| said.contains(s))
        .collect();
    candidates.iter().enumerate().any(|(j, s)| {
        let e = g.tool_at(s.tool).endpoint_at(s.endpoint);
        j != i
            && s.tool == c.tool
            && c.matched & !s.matched == 0
            && !super::select::name_stems(e)
                .iter()
                .any(|st| action.contains(st))
            && resource_stems(e).iter().any(|st| own.contains(st))
    })
}

/// What each word of an endpoint's last literal path segment counts that the request does not
/// say, when the request says another word of that segment: `/payee_locations` for "the
/// payees in my budget" names the payees and their locations ([`last_segment_extra`]); "what
/// is skill 2c77… called" reads `/skills/{id}`, not `/skills/{id}/related_skills`.
pub(super) const EXTRA_LAST_WORD: f64 = 0.95;

/// The words of `url`'s last literal path segment that `said` (a stem of the request) does not
/// hold, when it holds at least one of them; 0 otherwise (a segment the request does not name at
/// all is a matter of the ranking, not of siblings).
pub(super) fn last_segment_extra(url: &str, said: impl Fn(&str) -> bool) -> usize {
    let Some(last) = url_path(url)
        .split('/')
        .rfind(|s| !s.is_empty() && !s.starts_with('{'))
    else {
        return 0;
    };
    // A file extension is the format, not a word of the resource (`priceBreakdownWidget.json`).
    let last = last.split('.').next().unwrap_or(last);
    let all: Vec<String> = crate::search::text::stems(last)
        .filter(|s| !crate::search::text::is_stop_word(s) && version_of(s).is_none())
        .collect();
    // The words, not the compound the index also keeps (`payee_locations` as one term).
    let stems: Vec<&String> = all
        .iter()
        .filter(|s| !all.iter().any(|t| t != *s && s.contains(t.as_str())))
        .collect();
    let named = stems.iter().filter(|s| said(s)).count();
    if named == 0 { 0 } else { stems.len() - named }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(method: &str, url: &str) -> EndpointData {
        serde_json::from_value(serde_json::json!({"id": "e", "method": method, "url": url,
            "parameters": [], "fields": [], "identifiers": [], "group_fields": {}}))
        .expect("endpoint json")
    }

    #[test]
    fn a_version_segment_is_told_from_the_path() {
        assert_eq!(
            unversioned("http://openaq.local/v2/cities"),
            Some(("cities".to_string(), vec![2]))
        );
        assert_eq!(
            unversioned("https://x.test/api/V1.1/users/{user_id}/repos"),
            Some(("api/users/{}/repos".to_string(), vec![1, 1]))
        );
        // No version: a word starting with v, a bare `v`.
        assert_eq!(unversioned("https://x.test/videos/{id}"), None);
        assert_eq!(unversioned("https://x.test/v/items"), None);
    }

    #[test]
    fn a_higher_version_of_the_same_operation_supersedes() {
        let v1 = at("GET", "http://openaq.local/v1/cities");
        let v2 = at("GET", "http://openaq.local/v2/cities");
        assert!(supersedes(&v2, &v1));
        assert!(!supersedes(&v1, &v2));
        // Placeholders renamed between versions.
        let old = at("GET", "https://x.test/v1/countries/{country}");
        let new = at("GET", "https://x.test/v2/countries/{country_id}");
        assert!(supersedes(&new, &old));
        // Another method, another path, no version, the same version.
        assert!(!supersedes(
            &at("POST", "http://openaq.local/v2/cities"),
            &v1
        ));
        assert!(!supersedes(
            &at("GET", "http://openaq.local/v2/countries"),
            &v1
        ));
        assert!(!supersedes(&at("GET", "http://openaq.local/cities"), &v1));
        assert!(!supersedes(
            &at("GET", "http://openaq.local/v1/cities"),
            &v1
        ));
        // Every endpoint of an API under one version: nothing to choose.
        let budgets = at("GET", "https://api.ynab.com/v1/budgets");
        let payees = at("GET", "https://api.ynab.com/v1/budgets/{budget_id}/payees");
        assert!(!supersedes(&budgets, &payees) && !supersedes(&payees, &budgets));
    }

    #[test]
    fn a_last_segment_naming_more_than_the_request_says_counts_its_extra_words() {
        let said = |q: &'static str| move |s: &str| crate::search::text::stems(q).any(|t| t == s);
        let q = "who are all the payees in my budget";
        assert_eq!(
            last_segment_extra("https://x.test/budgets/{id}/payee_locations", said(q)),
            1
        );
        assert_eq!(
            last_segment_extra("https://x.test/budgets/{id}/payees", said(q)),
            0
        );
        // The last literal segment, placeholders after it aside; camelCase words.
        assert_eq!(
            last_segment_extra("https://x.test/payeeLocations/{id}", said(q)),
            1
        );
        // A segment the request does not name at all is no sibling's.
        assert_eq!(
            last_segment_extra("https://x.test/matches/running", said("matches on now")),
            0
        );
        assert_eq!(last_segment_extra("https://x.test/", said(q)), 0);
        // A file extension is no word of the resource.
        assert_eq!(
            last_segment_extra("https://x.test/budgets/{id}/payees.json", said(q)),
            0
        );
    }

    #[test]
    fn resource_words_leave_out_versions_and_method_verbs() {
        let mut e = at("GET", "https://api.tvmaze.com/v1/auth/validate");
        e.id = "get_auth_validate".into();
        let stems = resource_stems(&e);
        assert!(stems.iter().any(|s| s == "auth"), "{stems:?}");
        assert!(!stems.iter().any(|s| s == "get" || s == "v1"), "{stems:?}");
    }
}
