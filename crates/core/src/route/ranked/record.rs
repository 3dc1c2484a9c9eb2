//! A property of one record the question identifies: "how many stars does rust-lang/rust
//! have", "what language is torvalds/linux written in", "when did quietfox join".
//!
//! The endpoint that reads the record (not a list, not a write, every placeholder of its URL
//! path filled from the question, the last one ending it: [`record_value`]) and whose own
//! response fields answer what is asked ([`answers`]: `stargazers_count` for "stars",
//! `language`, `joined_at` for "join"; for a count, a number named by what is counted) takes
//! the lead of its tool's endpoints that take the same value, match no word of the request it
//! does not match, and answer nothing asked (the list of the record's stargazers, the check
//! that you starred it, what hangs under the record: `/recipe/{id}/related` for "what cuisine
//! is recipe 27634"): the best of their scores is added to its own, and they count
//! [`UNDER_RECORD`]. A record's long document of fields dilutes the words it shares with the
//! request, so the ranking alone puts first a short sibling that names the word in its path;
//! the record answers what its siblings only name. One that matches a word the record does not
//! ("the latest release of neovim/neovim": `/releases/latest`) is no such sibling.
//!
//! A record that answers nothing asked ("how many contributors" with no count of them in the
//! record, only a link) changes nothing: what hangs under it is then the answer, whatever word
//! names it. A request for many records ([`super::select::several_of`]: "list the languages
//! of …") asks for no property of one record, and a count the record does not hold is a count
//! of records.
//!
//! The words that may name the property ([`property_stems`]) are the request's words outside
//! the value the record takes and the word before it ("member quietfox"), but stop and light
//! words, noun phrases that end with a plural (what a plural names is many records: "show me
//! the open issues of rust-lang/rust" lists issues, though the repository has
//! `open_issues_count`), the request's
//! frame, the words of the record's own path and of its tool's name. A
//! field that links elsewhere (`releases_url`, `external_urls.spotify`: `record_links.txt`)
//! holds no property.

use super::select::{Candidate, holds_count_of, several_of, writes};
use crate::artifact::{EndpointData, FrozenGraph};
use crate::search::Query;
use crate::search::spans::{Span, SpanKind};
use crate::search::text::url_path;
use std::collections::BTreeMap;

/// What an endpoint counts that takes the value of a record that answers the property asked
/// and answers nothing asked itself (it replaces the record-first factor of the same value,
/// which counted a sub-resource whose tail the request does not name, whether or not the
/// record answered).
pub(super) const UNDER_RECORD: f64 = 0.7;

/// Words of a field's name that make it a link to another resource, not a property of the
/// record ([`link_words`]).
const LINK_DATA: &str = include_str!("record_links.txt");

/// The words of [`LINK_DATA`].
fn link_words() -> impl Iterator<Item = &'static str> {
    crate::route::data_lines(LINK_DATA)
}

/// The path segments of an endpoint's URL.
fn segments(e: &EndpointData) -> Vec<&str> {
    url_path(&e.url)
        .split('/')
        .filter(|s| !s.is_empty())
        .collect()
}

/// The placeholder a segment is (`{id}` gives `id`).
fn placeholder(seg: &str) -> Option<&str> {
    seg.strip_prefix('{').and_then(|x| x.strip_suffix('}'))
}

/// Whether a filled text is the question's value `s` or a part of it (`rust-lang` of
/// `rust-lang/rust`).
fn is_part(s: &Span, value: &str) -> bool {
    s.value == value || (s.kind == SpanKind::Slash && s.value.split('/').any(|p| p == value))
}

/// The question's value a filled text is (`rust` of `rust-lang/rust` is a part of one).
fn span_of<'a>(q: &'a Query, value: &str) -> Option<&'a Span> {
    q.spans
        .iter()
        .filter(|s| !matches!(s.kind, SpanKind::Year | SpanKind::Date))
        .find(|s| is_part(s, value))
}

/// The record an endpoint reads: its path ends at a placeholder filled with a value the
/// question writes (a number only when labelled: a bare number may be a count), it writes
/// nothing and returns no list. The value as filled, and the question's value.
fn record_value<'a>(
    e: &EndpointData,
    trial: &BTreeMap<String, serde_json::Value>,
    q: &'a Query,
) -> Option<&'a Span> {
    if writes(e) || e.records.is_some() {
        return None;
    }
    let segs = segments(e);
    let name = segs.last().and_then(|seg| placeholder(seg))?;
    // Every key of the path is filled: the question names the whole record.
    if segs
        .iter()
        .filter_map(|seg| placeholder(seg))
        .any(|p| !trial.contains_key(p))
    {
        return None;
    }
    let value = trial
        .get(name)
        .and_then(|v| super::given::texts(v).into_iter().next())?;
    let s = span_of(q, &value)?;
    let label = s
        .before
        .last()
        .filter(|w| !crate::search::spans::is_function_word(w));
    if s.kind == SpanKind::Number && label.is_none() {
        return None;
    }
    // A value the question labels ("attraction K8vZ…") is a record of a path that names the
    // label (`/attractions/{id}`), not of another (`/classifications/{id}`).
    if let Some(label) = label {
        use crate::search::text::stems;
        let named = segs.iter().flat_map(|seg| stems(seg).collect::<Vec<_>>());
        let named: Vec<String> = named.collect();
        if !stems(label).any(|l| named.iter().any(|n| super::project::stems_match(n, &l))) {
            return None;
        }
    }
    Some(s)
}

/// The stems of the request that may name a property of the record `e` reads (`taken`: the
/// question's value it takes): words outside that value, not its labels, not stop or light
/// words, not words of the request's frame, of `e`'s literal path segments or of `tool` (its
/// tool's id).
fn property_stems(q: &Query, e: &EndpointData, taken: &Span, tool: &str) -> Vec<String> {
    use crate::search::text::{is_light_word, is_stop_word, stems};
    let mut own: Vec<String> = segments(e)
        .into_iter()
        .filter(|s| placeholder(s).is_none())
        .flat_map(|s| stems(s).collect::<Vec<_>>())
        .collect();
    own.extend(stems(tool));
    // The word before the value says what it is ("member quietfox"); a word after it may be
    // what is asked ("when did quietfox join").
    own.extend(taken.before.last().into_iter().flat_map(|w| stems(w)));
    // The words of a noun phrase that ends with a plural ("the open issues"): read from the
    // end, a plural starts one and a stop word or punctuation ends it.
    let mut of_plural = vec![false; q.terms.len()];
    let mut inside = false;
    for (i, t) in q.terms.iter().enumerate().rev() {
        let word = q.text.get(t.start..t.end).unwrap_or("").to_lowercase();
        // Terms may overlap (the parts of `setlist.fm`): only a gap of spaces joins.
        let joined = q.terms.get(i + 1).is_some_and(|n| {
            q.text
                .get(t.end..n.start)
                .is_some_and(|gap| gap.chars().all(|c| c == ' ' || c == '-'))
        });
        inside = is_plural(&word) || (inside && joined && !is_stop_word(&word));
        of_plural[i] = inside;
    }
    let mut out: Vec<String> = Vec::new();
    for (t, _) in q.terms.iter().zip(&of_plural).filter(|(_, p)| !**p) {
        let word = q.text.get(t.start..t.end).unwrap_or("").to_lowercase();
        // A number's span holds the word after it ("3498 released"): only the value's own
        // words are the value.
        if t.start < taken.end && taken.start < t.end && taken.value.to_lowercase().contains(&word)
        {
            continue;
        }
        let framed = q
            .stems
            .iter()
            .position(|s| s == &t.stem)
            .is_some_and(|i| q.weights[i] < 1.0);
        if is_stop_word(&word)
            || is_light_word(&word)
            || framed
            || own.contains(&t.stem)
            || out.contains(&t.stem)
        {
            continue;
        }
        out.push(t.stem.clone());
    }
    out
}

/// Whether a lower-case word is a plural noun: what a request asks for by a plural is many
/// records ("show me the open issues of …"), not a property of one (`open_issues_count`).
pub(super) fn is_plural(w: &str) -> bool {
    w.chars().count() >= 4
        && w.ends_with('s')
        && !w.ends_with("ss")
        && !w.ends_with("us")
        && !w.ends_with("is")
        && crate::search::text::stems(w)
            .next()
            .is_some_and(|st| st.len() < w.len())
}

/// Whether `e`'s own response answers what is asked: for a count (`counted`: the stem of what
/// is counted), a number named by it ([`holds_count_of`]); else a field of the record, not an
/// identifier, not an item of a list in it, not a link ([`link_words`]), whose name holds a
/// word of `asked` (four-letter prefixes count: `stargazers_count` for "stars", `closed_at`
/// for "closed").
pub(super) fn answers(e: &EndpointData, asked: &[String], counted: Option<&str>) -> bool {
    use crate::search::text::stems;
    if e.records.is_some() {
        return false;
    }
    if let Some(head) = counted {
        return holds_count_of(e, head);
    }
    use crate::search::build::{embedded_records, within};
    let links: Vec<String> = link_words().flat_map(stems).collect();
    let mut embedded = embedded_records(e.fields.iter().map(|f| f.name.as_str()));
    // Without an identifier of its own at the top, the response wraps the record in an
    // envelope (`data.id`, `data.airsTime`): an object at the top is the record itself.
    if !e
        .fields
        .iter()
        .any(|f| f.identifier && !f.name.contains('.'))
    {
        embedded.retain(|p| p.contains('.'));
    }
    e.fields.iter().any(|f| {
        // A field of another resource's record embedded in this one is that record's
        // (`milestone.open_issues` is no state of an issue, `podcast.title` no title of an
        // episode).
        if f.identifier || f.name.contains("[]") || embedded.iter().any(|p| within(&f.name, p)) {
            return false;
        }
        let name = f.name.as_str();
        let words: Vec<String> = stems(name).collect();
        !words.iter().any(|w| links.contains(w))
            && words
                .iter()
                .any(|w| asked.iter().any(|a| super::project::stems_match(w, a)))
    })
}

/// The record rule (module docs) over the ranked candidates `out`, each with its trial fill
/// (`trials`, in the order of `out`). `several`: the request asks for many records;
/// `counted`: the stem of what a count question counts.
pub(super) fn record_property(
    g: &FrozenGraph,
    q: &Query,
    trials: &[BTreeMap<String, serde_json::Value>],
    out: &mut [Candidate],
    several: bool,
    counted: Option<&str>,
) {
    let endpoint = |c: &Candidate| g.tool_at(c.tool).endpoint_at(c.endpoint);
    let mut under = vec![false; out.len()];
    let mut answering = vec![false; out.len()];
    let mut lead: Vec<(f64, f64)> = vec![(0.0, 0.0); out.len()];
    // The question's values each candidate's trial fill takes.
    let values: Vec<Vec<String>> = trials
        .iter()
        .map(|t| t.values().flat_map(super::given::texts).collect())
        .collect();
    for i in 0..out.len() {
        let record = endpoint(&out[i]);
        if several_of(record, several, counted) {
            continue;
        }
        let Some(taken) = record_value(record, &trials[i], q) else {
            continue;
        };
        let tool = &g.tool_at(out[i].tool).id;
        let asked = property_stems(q, record, taken, tool);
        if !answers(record, &asked, counted) {
            continue;
        }
        answering[i] = true;
        for j in 0..out.len() {
            if j == i || out[j].tool != out[i].tool {
                continue;
            }
            let other = endpoint(&out[j]);
            let takes = values[j].iter().any(|v| is_part(taken, v));
            // An endpoint that takes a value the record does not ("pull request 1234" of a
            // repository) reads something else than the record: not beaten by it.
            let within = values[j].iter().all(|v| values[i].contains(v));
            if takes
                && within
                && out[j].matched & !out[i].matched == 0
                && !answers(other, &asked, counted)
            {
                under[j] = true;
                lead[i].0 = lead[i].0.max(out[j].score);
                lead[i].1 = lead[i].1.max(out[j].lexical);
            }
        }
    }
    for (((c, under), (score, lexical)), answers) in
        out.iter_mut().zip(under).zip(lead).zip(answering)
    {
        c.answers = answers;
        c.score += score;
        c.lexical += lexical;
        if under {
            c.score *= UNDER_RECORD;
            c.lexical *= UNDER_RECORD;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::returning;
    use super::*;

    /// A member read by its handle: a count, a date, a link, an embedded team.
    fn member() -> EndpointData {
        let mut e = returning(
            None,
            &[
                ("id", "integer"),
                ("handle", "string"),
                ("subscriber_count", "integer"),
                ("joined_at", "string"),
                ("trophies_url", "string"),
                ("team.id", "integer"),
                ("team.open_seats", "integer"),
            ],
        );
        e.url = "https://x.test/members/{handle}".into();
        e
    }

    fn stems(words: &[&str]) -> Vec<String> {
        words
            .iter()
            .flat_map(|w| crate::search::text::stems(w).collect::<Vec<_>>())
            .collect()
    }

    #[test]
    fn a_record_answers_by_its_own_fields_names() {
        let e = member();
        // `subscriber_count` for "subscribers", `joined_at` for "joined".
        assert!(answers(&e, &stems(&["subscribers"]), None));
        assert!(answers(&e, &stems(&["joined"]), None));
        // A link holds no property, nor does a record embedded in this one.
        assert!(!answers(&e, &stems(&["trophies"]), None));
        assert!(!answers(&e, &stems(&["open"]), None));
        assert!(!answers(&e, &stems(&["team"]), None));
        // A record in an envelope: the object at the top is the record itself.
        let wrapped = returning(
            None,
            &[("data.id", "integer"), ("data.airs_time", "string")],
        );
        assert!(answers(&wrapped, &stems(&["time"]), None));
        // A count needs a number named by what is counted.
        assert!(answers(&e, &[], Some("subscrib")));
        assert!(!answers(&e, &[], Some("trophi")));
        // A list answers nothing about one record.
        let mut list = member();
        list.records = Some(String::new());
        assert!(!answers(&list, &stems(&["subscribers"]), None));
    }

    #[test]
    fn the_record_read_is_the_one_the_question_fills_its_path_with() {
        let e = member();
        let q = Query::new("when did Quietfox join");
        let fill = |v: &str| -> BTreeMap<String, serde_json::Value> {
            [("handle".to_string(), serde_json::json!(v))].into()
        };
        let taken = record_value(&e, &fill("Quietfox"), &q).map(|s| s.value.clone());
        assert_eq!(taken.as_deref(), Some("Quietfox"));
        // Nothing filled, or a value the question does not write.
        assert!(record_value(&e, &BTreeMap::new(), &q).is_none());
        assert!(record_value(&e, &fill("someone"), &q).is_none());
        // A key of the path left open: the question does not name the whole record.
        let mut team = member();
        team.url = "https://x.test/teams/{team_id}/members/{handle}".into();
        assert!(record_value(&team, &fill("Quietfox"), &q).is_none());
        // A value labelled as another thing is no record of this path.
        let q = Query::new("when did trophy Quietfox join");
        assert!(record_value(&e, &fill("Quietfox"), &q).is_none());
        let q = Query::new("when did member Quietfox join");
        assert!(record_value(&e, &fill("Quietfox"), &q).is_some());
        // A bare number may be a count, not a key.
        let q = Query::new("what is the title of 12");
        assert!(record_value(&e, &fill("12"), &q).is_none());
    }

    #[test]
    fn a_plural_names_records_not_a_property() {
        let e = member();
        let q = Query::new("show me the new subscribers of Quietfox");
        let taken = q.spans.iter().find(|s| s.value == "Quietfox").unwrap();
        assert_eq!(property_stems(&q, &e, taken, "club"), Vec::<String>::new());
        let q = Query::new("show me the subscriber count of Quietfox");
        let taken = q.spans.iter().find(|s| s.value == "Quietfox").unwrap();
        assert_eq!(
            property_stems(&q, &e, taken, "club"),
            stems(&["subscriber", "count"])
        );
    }

    #[test]
    fn overlapping_terms_are_read_without_a_panic() {
        let e = member();
        let q = Query::new("what's the bio of club.site member Quietfox");
        let taken = q.spans.iter().find(|s| s.value == "Quietfox").unwrap();
        assert!(property_stems(&q, &e, taken, "club").contains(&"bio".to_string()));
    }

    #[test]
    fn the_word_after_a_number_may_name_the_property() {
        let mut e = returning(None, &[("id", "integer"), ("released", "string")]);
        e.url = "https://x.test/albums/{id}".into();
        let q = Query::new("when was album 3498 released according to tunes");
        let taken = q.spans.iter().find(|s| s.value == "3498").unwrap();
        let asked = property_stems(&q, &e, taken, "tunes");
        assert_eq!(asked, stems(&["released", "according"]));
        assert!(answers(&e, &asked, None));
    }

    #[test]
    fn the_words_that_name_a_property_leave_out_the_value_and_the_records_own_words() {
        let e = member();
        let q = Query::new("when did member quiet-fox/main join the members club");
        let taken = q.spans.iter().find(|s| s.kind == SpanKind::Slash).unwrap();
        assert_eq!(property_stems(&q, &e, taken, "club_site"), stems(&["join"]));
    }
}
