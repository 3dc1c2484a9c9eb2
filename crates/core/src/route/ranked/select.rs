//! Which ranked endpoints a plan takes: the filters, the adjusted order, the calibrated "no
//! tool" decision, and the choice of one step per distinct need.

use super::fill;
use super::siblings::{EXTRA_LAST_WORD, last_segment_extra, retire, supersede, unasked_sibling};
use crate::artifact::FrozenGraph;
use crate::search::spans::Span;
use crate::search::{Query, Ranking};
use std::collections::BTreeMap;

/// The least share (idf-weighted) of the question's known words the best endpoint must match
/// for a plan to be made. Calibrated on negatives: see `bench/README.md`.
pub const MIN_COVERAGE: f64 = 0.34;

/// The best endpoint must match words whose idf mass is at least that of one word a quarter of
/// the catalog's endpoints hold: a match on words that half the catalog holds (`get`, `list`,
/// `data`) says nothing. Calibrated with [`MIN_COVERAGE`].
pub const MIN_WEIGHT_SHARE: f64 = 0.25;

/// The least idf mass [`MIN_WEIGHT_SHARE`] gives in a catalog of `docs` endpoints.
pub fn min_weight(docs: u32) -> f64 {
    crate::search::build::idf(docs, (docs as f64 * MIN_WEIGHT_SHARE).ceil() as u32)
}

use crate::search::text::WRITE_VERBS;

/// Whether an endpoint changes data: its annotations say so, it is an HTTP `PUT`, `PATCH` or
/// `DELETE`, a `POST` whose id holds a verb of writing (`repos_create_fork`), a `POST` the
/// importer named by its method and path (`post_api_name_brand_name`) that does not compute
/// ([`computes`]), or an MCP tool whose id opens or ends with a verb of writing
/// (`add_observations`, `issues_create`).
pub fn writes(e: &crate::artifact::EndpointData) -> bool {
    if e.writes || matches!(e.method.as_str(), "PUT" | "PATCH" | "DELETE") {
        return true;
    }
    if !matches!(e.method.as_str(), "POST" | "MCP") {
        return false;
    }
    let words: Vec<String> =
        e.id.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
    if e.method == "POST" {
        // An id made of the method and the path (an operation without an `operationId`) opens
        // with `post`: the method, no verb of writing.
        let by_method = words.first().is_some_and(|w| w == "post");
        // An HTTP POST whose id holds a verb of writing anywhere (`repos_create_fork`).
        let verbs = &words[usize::from(by_method)..];
        if verbs
            .iter()
            .any(|w| WRITE_VERBS.binary_search(&w.as_str()).is_ok())
        {
            return true;
        }
        // Named by its path alone, a POST adds to what its path names (`post_pets`), unless
        // what it does is to compute an answer.
        return by_method && !computes(e);
    }
    [words.first(), words.last()]
        .into_iter()
        .flatten()
        .any(|w| WRITE_VERBS.binary_search(&w.as_str()).is_ok())
}

/// Whether an endpoint computes an answer from what the request sends, changing nothing
/// stored: the last literal segment of its URL path is a verb of computing or its agent noun
/// ([`crate::search::text::COMPUTE_VERBS`]: `/api/Finance/Vat/Validator`, `/api/Phone/Generate`),
/// or the first word of its description is such a verb or a verb of asking
/// ([`crate::search::frame::FRAME_VERBS`]: "Generate brand name suggestions", "Get reviews").
pub fn computes(e: &crate::artifact::EndpointData) -> bool {
    use crate::search::text::{COMPUTE_VERBS, stems};
    let verb = |stem: &str| {
        COMPUTE_VERBS
            .iter()
            .chain(crate::search::frame::FRAME_VERBS)
            .any(|v| stems(v).next().as_deref() == Some(stem))
    };
    let last = crate::search::text::url_path(&e.url)
        .split('/')
        .rfind(|s| !s.is_empty() && !s.contains('{'));
    let in_path = last.is_some_and(|seg| {
        let parts: Vec<String> = stems(seg).collect();
        parts.iter().any(|p| {
            COMPUTE_VERBS
                .iter()
                .any(|v| stems(v).next().as_deref() == Some(p.as_str()))
        })
    });
    let first = e
        .description
        .as_deref()
        .and_then(|d| d.split_whitespace().next())
        .and_then(|w| stems(w).next());
    in_path || first.is_some_and(|w| verb(&w))
}

/// What an endpoint that writes counts for a request that reads.
const WRITE_WHEN_READING: f64 = 0.2;

/// What an endpoint that only reads counts for a request that opens with a verb of writing
/// ("Create an issue …", "Add an observation …"): its fields may share the verb's word
/// (`created_at`), but it does not do what is asked.
const READ_WHEN_WRITING: f64 = 0.5;

/// Whether a request opens (after "please", "can you", "I want to") with a verb of writing.
pub fn acts(text: &str) -> bool {
    crate::search::frame::words(text)
        .iter()
        .map(|w| w.2.as_str())
        .find(|w| !crate::search::frame::REQUEST_OPENERS.contains(w))
        .is_some_and(|w| WRITE_VERBS.binary_search(&w).is_ok())
}

/// Whether an optional parameter keys the one record an endpoint reads: an identifier (`id`,
/// `joke_id`, `uuid`) that the first sentence of the endpoint's description names ("Gets a
/// `Joke` with a given `id`."). Documents often leave such a key optional; without it the
/// endpoint answers nothing the question asked, so it counts as required when the question
/// gives none.
fn keyed_by(e: &crate::artifact::EndpointData, p: &crate::artifact::ParamData) -> bool {
    let words: Vec<String> = crate::search::text::split_identifier(&p.name)
        .into_iter()
        .map(|(a, b)| p.name[a..b].to_lowercase())
        .collect();
    let identifier = words
        .last()
        .is_some_and(|w| matches!(w.as_str(), "id" | "uuid"));
    let first = e
        .description
        .as_deref()
        .map(|d| d.split(". ").next().unwrap_or(d))
        .unwrap_or("");
    identifier
        && !p.required
        && first
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w.eq_ignore_ascii_case(&p.name))
}

/// What each required parameter the question cannot fill leaves of an endpoint's score: an
/// endpoint that needs more than the question gives is less likely the one meant.
const OPEN_REQUIRED: f64 = 0.9;

/// Ranked endpoints under this share of the best one's score are not planned.
const RELATIVE_FLOOR: f64 = 0.2;

/// Ranked endpoints considered (the best this many by BM25F).
const CONSIDERED: usize = 200;

/// An endpoint that passed the filters, with its adjusted score.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Tool index.
    pub tool: u32,
    /// Endpoint index.
    pub endpoint: u32,
    /// BM25F score adjusted for writing and fillable required parameters (hybrid with the
    /// dense signal, see `search::dense`).
    pub score: f64,
    /// The same adjustment of the BM25F score alone (`score` without the dense signal).
    pub lexical: f64,
    /// Which query stems it matched.
    pub matched: u64,
    /// Required parameters (no default, not a credential).
    pub required: usize,
    /// Whether a placeholder of its URL path takes a value that identifies something in the
    /// question ([`identifies`]).
    pub identified: bool,
    /// Whether it takes every value of two or more the question gives (see
    /// [`super::given`]).
    pub takes_given: bool,
    /// The values the question gives that it takes ([`super::given::Evidence`]).
    pub takes: Vec<String>,
    /// Whether it reads the one record the question identifies and its own fields answer
    /// what is asked of it ([`super::record`]).
    pub answers: bool,
}

/// Whether a request reads: asked as a question, or opened with a verb of asking ("Get",
/// "Show me": [`crate::search::frame`]).
pub fn asks(text: &str) -> bool {
    is_question(text) || crate::search::frame::frame_words(text).is_some()
}

/// Whether the request is asked as a question (ends with `?`, or opens with a question word),
/// which makes an endpoint that writes an unlikely answer.
/// A polite request ("Can you star …?", "Would you please create …") is a request to act, not
/// a question.
fn is_question(text: &str) -> bool {
    const OPENERS: &[&str] = &[
        "am", "are", "can", "could", "did", "do", "does", "had", "has", "have", "how", "is", "may",
        "might", "must", "shall", "should", "was", "were", "what", "whats", "when", "where",
        "which", "who", "whom", "whose", "why", "will", "would",
    ];
    let words = crate::search::frame::words(text);
    let first = words.first().map(|w| w.2.as_str()).unwrap_or("");
    let second = words.get(1).map(|w| w.2.as_str()).unwrap_or("");
    if matches!(first, "can" | "could" | "would" | "will") && second == "you" {
        return false;
    }
    text.trim().ends_with('?') || OPENERS.contains(&first)
}

/// The endpoints a plan may take, best first: not destructive (unless allowed), not ruled out,
/// of the requested source type; the BM25F score scaled down for an endpoint that writes when
/// the request reads or does not open with a verb of writing ([`WRITE_WHEN_READING`]), and for one that only reads when the request opens
/// with a verb of writing ([`READ_WHEN_WRITING`]), and scaled by the share of its required parameters the question can
/// fill (from 0.7 for none to 1.0 for all); then siblings are told apart ([`super::siblings`])
/// and the values the question gives weigh for the endpoints that take them ([`super::given`];
/// `u`: the Understanding). `asks`: the request reads (see [`asks`]; an Understanding without
/// a question always reads).
pub fn candidates(
    g: &FrozenGraph,
    q: &Query,
    ranking: &Ranking,
    excluded: &[u32],
    constraint: Option<&str>,
    asks: bool,
    u: &crate::route::Understanding,
) -> Vec<Candidate> {
    let spans: &[Span] = &q.spans;
    let acting = !asks && acts(&q.text);
    let counted = crate::search::frame::counted(&q.text)
        .and_then(|words| words.last().map(|w| crate::search::text::stems(w).last()))
        .flatten();
    let several = asks_for_many(&q.text);
    let quantified = quantified(&q.text);
    let tense = request_tense(&q.text);
    let list = listed_values(spans);
    let mut out: Vec<Candidate> = Vec::new();
    let mut unasked: Vec<Option<&'static str>> = Vec::new();
    let mut trials: Vec<BTreeMap<String, serde_json::Value>> = Vec::new();
    for r in ranking.hits.iter().take(CONSIDERED) {
        let t = g.tool_at(r.tool);
        let e = t.endpoint_at(r.endpoint);
        if e.destructive
            || excluded.contains(&r.tool)
            || constraint.is_some_and(|c| !t.source_types.iter().any(|s| s == c))
        {
            continue;
        }
        let writes = writes(e);
        let required: Vec<&str> = e
            .parameters
            .iter()
            .filter(|p| {
                (p.required || keyed_by(e, p))
                    && !p.auth
                    && p.default.is_none()
                    && !e.server_parameter(p)
            })
            .map(|p| p.name.as_str())
            .collect();
        let mut trial = BTreeMap::new();
        fill::fill_spans(e, &q.text, spans, &mut trial, None, &q.stems_in(r.matched));
        let filled = required.iter().filter(|n| trial.contains_key(**n)).count();
        let share = if required.is_empty() {
            1.0
        } else {
            filled as f64 / required.len() as f64
        };
        let open = required.len() - filled;
        // A request that reads (a question, a verb of asking) or names what it wants without a
        // verb ("newest books about climate change") is not served by an endpoint that writes.
        let factor = if writes && (asks || !acts(&q.text)) {
            WRITE_WHEN_READING
        } else if !writes && acting {
            READ_WHEN_WRITING
        } else {
            1.0
        } * (0.7 + 0.3 * share)
            * OPEN_REQUIRED.powi(open as i32)
            * UNASKED_SEGMENT.powi(unasked_tail(&e.url, &trial, q) as i32)
            * if takes_no_identifier(spans, &trial) {
                NO_IDENTIFIER_TAKEN
            } else {
                1.0
            }
            * labelled_keys(&e.url, spans, &trial, &q.stems)
            * one_record(
                e,
                spans,
                &trial,
                q,
                several_of(e, several, counted.as_deref()),
            )
            * if counted
                .as_deref()
                .is_some_and(|head| holds_count_of(e, head))
                && !takes_no_identifier(spans, &trial)
                && takes_labelled_values(spans, &trial)
            {
                COUNT_FIELD
            } else {
                1.0
            }
            * if quantified.iter().flatten().any(|stem| lists(&e.url, stem)) {
                LISTS_QUANTIFIED
            } else {
                1.0
            }
            * EXTRA_LAST_WORD
                .powi(last_segment_extra(&e.url, |s| q.stems.iter().any(|t| t == s)) as i32)
            * match (tense, endpoint_tense(e)) {
                (Some(asked), Some(own)) if asked == own => SAME_TENSE,
                (Some(_), Some(_)) => OTHER_TENSE,
                _ => 1.0,
            }
            * if list.as_ref().is_some_and(|l| !takes_list(&trial, l)) {
                LIST_NOT_TAKEN
            } else {
                1.0
            };
        out.push(Candidate {
            tool: r.tool,
            endpoint: r.endpoint,
            score: r.score * factor,
            lexical: r.lexical * factor,
            matched: r.matched,
            required: required.len(),
            identified: identifies(&e.url, spans, &trial),
            takes_given: false,
            answers: false,
            takes: Vec::new(),
        });
        trials.push(trial);
        unasked.push(unasked_action(e, q));
    }
    // An action the request does not ask for counts against an endpoint only beside a sibling
    // that serves the same words without it.
    let penalised: Vec<bool> = (0..out.len())
        .map(|i| unasked_sibling(g, &out, &unasked, &q.stems, i))
        .collect();
    for (c, p) in out.iter_mut().zip(penalised) {
        if p {
            c.score *= UNASKED_ACTION;
            c.lexical *= UNASKED_ACTION;
        }
    }
    super::given::weigh(g, u, spans, &trials, &mut out);
    super::record::record_property(g, q, &trials, &mut out, several, counted.as_deref());
    supersede(g, &mut out);
    retire(g, &mut out);
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| g.tool_at(a.tool).id.cmp(&g.tool_at(b.tool).id))
            .then(a.endpoint.cmp(&b.endpoint))
    });
    out
}

/// What an endpoint counts that takes none of the lists of values the question gives
/// ("groups 11, 22 and 33": `get_group` takes 11 alone where `get_groups_by_ids` takes all).
const LIST_NOT_TAKEN: f64 = 0.6;

/// The values of the first list the question gives: three or more numbers or ids of one kind,
/// each after the last with only a comma, "and" or "or" between ("11, 22 and 33"); `None`
/// when it gives none.
fn listed_values(spans: &[Span]) -> Option<Vec<String>> {
    use crate::search::spans::SpanKind;
    let mut run: Vec<&Span> = Vec::new();
    for s in spans {
        let joined = run
            .last()
            .is_some_and(|last| crate::search::spans::joined_in_list(last, s));
        if !joined {
            if run.len() >= 3 {
                break;
            }
            run.clear();
        }
        if matches!(s.kind, SpanKind::Number | SpanKind::Id) {
            run.push(s);
        }
    }
    (run.len() >= 3).then(|| run.iter().map(|s| s.value.clone()).collect())
}

/// Whether a trial fill holds every value of `list` in one parameter (a list, or a text joined
/// by commas).
fn takes_list(trial: &BTreeMap<String, serde_json::Value>, list: &[String]) -> bool {
    trial.values().any(|v| {
        let held: Vec<String> = super::given::texts(v)
            .iter()
            .flat_map(|t| {
                t.split(',')
                    .map(|x| x.trim().to_string())
                    .collect::<Vec<_>>()
            })
            .collect();
        list.iter().all(|x| held.contains(x))
    })
}

/// What an endpoint counts whose name says it makes something the request does not ask for
/// ([`unasked_action`]): for "What time is it in Tokyo?", `convert_time` converts and
/// `get_current_time` reads; for "what kitchen equipment do i need for recipe 1003464",
/// `visualize_recipe_equipment_by_id` draws what `get_recipe_equipment_by_id` reads.
const UNASKED_ACTION: f64 = 0.7;

/// What an endpoint counts whose name says its records are from the time the request asks
/// about ([`request_tense`], [`endpoint_tense`]): "readings of the last 72 hours" reads
/// `get_history_airquality_by_city_id`.
const SAME_TENSE: f64 = 1.25;

/// What an endpoint counts whose name says its records are from another time than the one
/// the request asks about (`get_forecast_airquality_by_city_id` for "the last 72 hours").
const OTHER_TENSE: f64 = 0.7;

/// The one time a request asks about by its words ([`crate::search::text::TENSE_CUES`]: "right
/// now", "the next 3 days", "what was …"); `None` for none, or for words of two times.
fn request_tense(text: &str) -> Option<crate::search::text::Tense> {
    use crate::search::text::TENSE_CUES;
    let mut found = None;
    for w in crate::search::frame::words(text) {
        if let Some((_, t)) = TENSE_CUES.iter().find(|(cue, _)| *cue == w.2) {
            if found.is_some_and(|f| f != *t) {
                return None;
            }
            found = Some(*t);
        }
    }
    found
}

/// The one time an endpoint's name says its records are from
/// ([`crate::search::text::TENSE_NAMES`]: `get_current_by_city_country`,
/// `get_history_airquality_by_city_id`, `get_forecast_daily_by_postal_code`).
fn endpoint_tense(e: &crate::artifact::EndpointData) -> Option<crate::search::text::Tense> {
    use crate::search::text::{TENSE_NAMES, stems};
    let name = name_stems(e);
    let mut found = None;
    for (word, t) in TENSE_NAMES {
        if stems(word).next().is_some_and(|st| name.contains(&st)) {
            if found.is_some_and(|f| f != *t) {
                return None;
            }
            found = Some(*t);
        }
    }
    found
}

/// The stems of an endpoint's name: its id, its MCP tool name and the literal segments of its
/// URL path.
pub(super) fn name_stems(e: &crate::artifact::EndpointData) -> Vec<String> {
    use crate::search::text::stems;
    stems(&e.id)
        .chain(e.mcp_tool.iter().flat_map(|m| stems(m)))
        .chain(
            crate::search::text::url_path(&e.url)
                .split('/')
                .filter(|seg| !seg.contains('{'))
                .flat_map(stems),
        )
        .collect()
}

/// The verb of making ([`crate::search::text::PRODUCING_VERBS`]) or the noun of a rendering
/// ([`crate::search::text::RENDERING_NAMES`]) an endpoint's name holds ([`name_stems`]) and no
/// word of the request says, if there is one.
fn unasked_action(e: &crate::artifact::EndpointData, q: &Query) -> Option<&'static str> {
    use crate::search::text::{PRODUCING_VERBS, RENDERING_NAMES, stems};
    let name = name_stems(e);
    let said = |v: &str| stems(v).next().is_some_and(|st| q.stems.contains(&st));
    let named = |v: &str| stems(v).next().is_some_and(|st| name.contains(&st));
    // A request that asks for one rendering ("an image of …") asks for any (`.png`, `widget`).
    let renders = RENDERING_NAMES.iter().any(|v| said(v));
    PRODUCING_VERBS
        .iter()
        .copied()
        .find(|v| named(v) && !said(v))
        .or_else(|| {
            RENDERING_NAMES
                .iter()
                .copied()
                .find(|v| !renders && named(v))
        })
}

/// What an endpoint counts whose URL path lists the records a quantifier names ("final scores
/// of every clemson game in the 2018 season" reads `/games`, not `/coaches`, whose
/// description happens to say "final" and "season").
const LISTS_QUANTIFIED: f64 = 1.5;

/// Words that quantify over records ("every game", "each team", "all the episodes").
const QUANTIFIERS: &[&str] = &["all", "each", "every"];

/// The stems of the words a quantifier names records with: the words after "every", "each" or
/// "all" (and a determiner) up to a stop word, a light word, a number or punctuation ("every
/// clemson game in …" gives `clemson`, `game`; a path that lists either lists what is
/// quantified). `None` without such a quantifier and words.
fn quantified(text: &str) -> Option<Vec<String>> {
    let ws = crate::search::frame::words(text);
    let at = ws
        .iter()
        .position(|w| QUANTIFIERS.contains(&w.2.as_str()))?;
    let mut phrase: Vec<String> = Vec::new();
    let mut prev_end = ws[at].1;
    for (start, end, w) in ws.iter().skip(at + 1) {
        let between = &text[prev_end..*start];
        if !between.chars().all(|c| c == ' ' || c == '-') {
            break;
        }
        prev_end = *end;
        if phrase.is_empty() && matches!(w.as_str(), "the" | "of" | "my" | "our" | "their") {
            continue;
        }
        if crate::search::text::is_stop_word(w)
            || crate::search::text::is_light_word(w)
            || w.chars().any(|c| c.is_ascii_digit())
        {
            break;
        }
        phrase.extend(crate::search::text::stems(w).last());
    }
    (!phrase.is_empty()).then_some(phrase)
}

/// Whether a URL path ends with a literal segment naming the records `head` (a stem) names:
/// `/games` and `/ppa/players/games` list games; `/games/{id}` reads one, `/game/box/advanced`
/// something else.
fn lists(url: &str, head: &str) -> bool {
    crate::search::text::url_path(url)
        .split('/')
        .rfind(|s| !s.is_empty())
        .is_some_and(|last| {
            !last.contains('{') && crate::search::text::stems(last).any(|s| s == head)
        })
}

/// What an endpoint counts whose response holds a number named by what a count question counts
/// ([`crate::search::frame::counted`]): "how many followers does gvanrossum have" is the user's
/// `followers`, not the list of them; "number of tracks of album …" is the album's
/// `total_tracks`.
const COUNT_FIELD: f64 = 1.5;

/// Whether an endpoint returns a number (not an identifier) whose name holds the stem `head`
/// (`followers`, `followers.total`, `open_issues_count`, `items[].volumeInfo.pageCount`).
/// A list's length counts too (`airedSeasons: string[]`). Numbers inside another resource's
/// record embedded in the response (a repository's `owner.*`) are that resource's, and numbers of
/// a list's items (an endpoint with a records path; `episodes[].airedSeason`) are each item's,
/// not a count of the resource asked about.
pub(super) fn holds_count_of(e: &crate::artifact::EndpointData, head: &str) -> bool {
    use crate::search::build::{embedded_records, within};
    if e.records.is_some() {
        return false;
    }
    let embedded = embedded_records(e.fields.iter().map(|f| f.name.as_str()));
    e.fields.iter().any(|f| {
        (matches!(f.ty.as_str(), "integer" | "number") || f.ty.ends_with("[]"))
            && !f.identifier
            && !f.name.contains("[]")
            && !embedded.iter().any(|p| within(&f.name, p))
            && crate::search::text::stems(&f.name).any(|s| super::project::stems_match(&s, head))
    })
}

/// Whether the parameters filled take every number or id the question labels ("recipe 716429",
/// "album 4aawy…"): an endpoint that leaves a labelled value unused answers about something
/// else, whatever its fields are called.
fn takes_labelled_values(spans: &[Span], filled: &BTreeMap<String, serde_json::Value>) -> bool {
    use crate::search::spans::SpanKind;
    spans
        .iter()
        .filter(|s| {
            matches!(s.kind, SpanKind::Number | SpanKind::Id) && s.labels().next().is_some()
        })
        .all(|s| {
            filled
                .values()
                .flat_map(super::given::texts)
                .any(|x| x == s.value)
        })
}

/// What an endpoint counts when the question identifies something (`owner/repo`, an id with a
/// digit, a URL, an e-mail address) and the endpoint takes none of those values: for "the default branch of
/// microsoft/vscode", an endpoint that lists the caller's own repositories answers about other
/// repositories.
const NO_IDENTIFIER_TAKEN: f64 = 0.6;

/// Whether the question holds identifying values and the parameters filled take none of them.
fn takes_no_identifier(spans: &[Span], filled: &BTreeMap<String, serde_json::Value>) -> bool {
    use crate::search::spans::SpanKind;
    let identifying: Vec<&Span> = spans
        .iter()
        .filter(|s| match s.kind {
            SpanKind::Slash | SpanKind::Url | SpanKind::Email | SpanKind::Phone => true,
            // An id with a digit (`4aawyAB9vmqN3uQ7FjRGTy`, `NCT04280705`); an upper-case word
            // alone (`UV`, `PR`) is as often an abbreviation.
            SpanKind::Id => s.value.chars().any(|c| c.is_ascii_digit()),
            _ => false,
        })
        .collect();
    if identifying.is_empty() {
        return false;
    }
    // Each item of a list counts (`point` = both coordinates of a route).
    let values: Vec<String> = filled.values().flat_map(super::given::texts).collect();
    !identifying.iter().any(|s| {
        values
            .iter()
            .any(|v| v == &s.value || s.value.split('/').any(|part| !part.is_empty() && part == v))
    })
}

/// Whether a placeholder of `url`'s path takes a value that identifies something in the
/// question: `owner/repo`, a URL, an e-mail address, an id with a digit, or a number its label
/// names ("podcast 4d3fe7…", "match 556677", "rust-lang/rust"). Such an endpoint answers about
/// the very thing the question names: its words may be common in the catalog (`podcast` in a
/// podcast directory), the match is not incidental.
fn identifies(url: &str, spans: &[Span], filled: &BTreeMap<String, serde_json::Value>) -> bool {
    use crate::search::spans::SpanKind;
    let placeholders: Vec<&str> = crate::search::text::url_path(url)
        .split('/')
        .filter_map(|seg| seg.strip_prefix('{').and_then(|x| x.strip_suffix('}')))
        .collect();
    let taken: Vec<String> = placeholders
        .iter()
        .filter_map(|name| filled.get(*name))
        .flat_map(super::given::texts)
        .collect();
    spans.iter().any(|s| {
        let identifying = match s.kind {
            SpanKind::Slash | SpanKind::Url | SpanKind::Email | SpanKind::Phone => true,
            SpanKind::Id => s.value.chars().any(|c| c.is_ascii_digit()),
            SpanKind::Number => s.labels().next().is_some(),
            _ => false,
        };
        identifying
            && taken
                .iter()
                .any(|v| v == &s.value || s.value.split('/').any(|part| part == v))
    })
}

/// What an endpoint counts whose URL keys a placeholder by the noun that labels the value
/// filling it: "album 4aawyAB9…" fills `{id}` of `/albums/{id}` better than `{id}` of
/// `/artists/{id}/albums`; "issue 4512" keys `/issues/{issue_number}`.
const LABELLED_KEY: f64 = 1.3;

/// What an endpoint counts that names a labelled value's noun in its URL but takes no value
/// from it: for "is issue 4512 open", `/repos/{owner}/{repo}/issues` lists issues, and the one
/// asked for is `/issues/{issue_number}`.
const LABELLED_KEY_UNTAKEN: f64 = 0.6;

/// The stems of the words labelling a span ([`Span::labels`]: "issue 4512", "the mozilla org").
fn label_stems(s: &Span) -> Vec<String> {
    s.labels()
        .flat_map(|w| crate::search::text::stems(w).collect::<Vec<_>>())
        .collect()
}

/// The words of a parameter's name that say it holds a key ([`key_words`]).
const KEY_WORD_DATA: &str = include_str!("key_words.txt");

/// The words of [`KEY_WORD_DATA`].
fn key_words() -> impl Iterator<Item = &'static str> {
    crate::route::data_lines(KEY_WORD_DATA)
}

/// How a labelled number or id (`label`: the stems of its label words) fits the parameter
/// `name` it fills, by the parameter's own words without its key words ([`key_words`]):
/// `Some(true)` when one of them names the label ("album 11339785" in `album_id`),
/// `Some(false)` when they name something else that no word of the request (`said`: its
/// stems) says (in `artist_id`), `None` when the name is a key word only (`id`, `ids`), when
/// the label is, or when the request says the name's words elsewhere ("pull request 1234" in
/// `pull_number`: the label is the last word of a name of two).
fn keyed_by_name(name: &str, label: &[String], said: &[String]) -> Option<bool> {
    use crate::search::text::{is_stop_word, stems};
    let keys: Vec<String> = key_words().flat_map(stems).collect();
    let own: Vec<String> = stems(name)
        .filter(|s| !keys.contains(s) && !is_stop_word(s))
        .collect();
    let label: Vec<&String> = label
        .iter()
        .filter(|s| !keys.contains(s) && !is_stop_word(s))
        .collect();
    if own.is_empty() || label.is_empty() {
        return None;
    }
    let matches = |a: &String, b: &String| super::project::stems_match(a, b);
    if own.iter().any(|o| label.iter().any(|l| matches(o, l))) {
        return Some(true);
    }
    (!own.iter().any(|o| said.iter().any(|s| matches(o, s)))).then_some(false)
}

/// [`LABELLED_KEY`] when a placeholder of `url` is filled by a labelled value and the literal
/// segment right before it names the label, or when a labelled number or id fills a parameter
/// whose name names the label ([`keyed_by_name`]: `album_id` for "album 11339785"); else
/// [`LABELLED_KEY_UNTAKEN`] when a number or an id labelled by a literal segment of `url` fills
/// nothing, or fills only parameters whose names name something else (`artist_id`); else 1.
fn labelled_keys(
    url: &str,
    spans: &[Span],
    filled: &BTreeMap<String, serde_json::Value>,
    said: &[String],
) -> f64 {
    use crate::search::spans::SpanKind;
    let segments: Vec<&str> = crate::search::text::url_path(url)
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let stems_of = |seg: &str| crate::search::text::stems(seg).collect::<Vec<_>>();
    let value_of = |name: &str| match filled.get(name) {
        Some(serde_json::Value::String(v)) => Some(v.clone()),
        Some(v) => Some(v.to_string()),
        None => None,
    };
    let mut untaken = false;
    let mut by_name = false;
    for s in spans {
        let label = label_stems(s);
        if label.is_empty() {
            continue;
        }
        let keyed = matches!(s.kind, SpanKind::Number | SpanKind::Id);
        if keyed {
            let fits: Vec<bool> = filled
                .iter()
                .filter(|(_, v)| super::given::texts(v).contains(&s.value))
                .filter_map(|(name, _)| keyed_by_name(name, &label, said))
                .collect();
            if fits.contains(&true) {
                by_name = true;
            } else if !fits.is_empty() {
                untaken = true;
            }
        }
        let mut taken = false;
        for (i, seg) in segments.iter().enumerate() {
            let Some(name) = seg.strip_prefix('{').and_then(|x| x.strip_suffix('}')) else {
                continue;
            };
            if value_of(name).as_deref() != Some(s.value.as_str()) {
                continue;
            }
            taken = true;
            if i > 0
                && stems_of(segments[i - 1])
                    .iter()
                    .any(|st| label.contains(st))
            {
                return LABELLED_KEY;
            }
        }
        let taken = taken
            || filled
                .values()
                .any(|v| v.as_str() == Some(s.value.as_str()));
        if keyed
            && !taken
            && segments
                .iter()
                .filter(|seg| !seg.contains('{'))
                .any(|seg| stems_of(seg).iter().any(|st| label.contains(st)))
        {
            untaken = true;
        }
    }
    if by_name {
        LABELLED_KEY
    } else if untaken {
        LABELLED_KEY_UNTAKEN
    } else {
        1.0
    }
}

/// What an endpoint counts that reads the one record the question names: a placeholder of its
/// URL path takes a value the question writes, and the path ends there or goes on only with
/// segments the question asks for ("the current version of valorant" reads
/// `/videogames/{videogame_id_or_slug}`, not the list `/videogames`; "the albums of artist 0Od…"
/// reads `/artists/{id}/albums`).
const ONE_RECORD: f64 = 1.25;

/// What an endpoint counts that put a labelled value into a placeholder the label does not
/// key, while a literal segment of its path names the label: for "the player s1mple",
/// `/series/{serie_id_or_slug}/players` took `s1mple` as a series and lists a series' players.
const MISKEYED: f64 = 0.6;

/// Whether a request asks for many records rather than one: a count ("how many …"), "list",
/// "all", "every", or a plural noun as what a question asks about ("which concerts …").
fn asks_for_many(text: &str) -> bool {
    let plural = |w: &String| super::record::is_plural(w);
    crate::search::frame::counted(text).is_some()
        || crate::search::frame::words(text)
            .iter()
            .any(|w| matches!(w.2.as_str(), "list" | "all" | "every"))
        || crate::search::frame::asked(text).is_some_and(|a| a.last().is_some_and(plural))
}

/// Whether a request asks endpoint `e` for many records: it asks for many ([`asks_for_many`])
/// and is not a count that `e`'s own record answers with a number (`counted`, the stem of what
/// a count question counts: "how many days has listing X been on the market" is its
/// `daysOnMarket`, one record; "how many listings are in Austin" counts records).
pub(super) fn several_of(
    e: &crate::artifact::EndpointData,
    several: bool,
    counted: Option<&str>,
) -> bool {
    several && !counted.is_some_and(|head| holds_count_of(e, head))
}

/// [`ONE_RECORD`], [`MISKEYED`] or 1 for an endpoint and the parameters the question fills.
/// A value counts as naming a record when it identifies (an id, a labelled number, a URL, a
/// quoted title), or, for a name written as words, when the placeholder takes names
/// ([`fill::takes_names`]); a value whose label keys its placeholder is counted by
/// [`LABELLED_KEY`] already. `several`: the request asks for many records
/// ([`asks_for_many`]), which a path ending at one record does not answer.
fn one_record(
    e: &crate::artifact::EndpointData,
    spans: &[Span],
    filled: &BTreeMap<String, serde_json::Value>,
    q: &Query,
    several: bool,
) -> f64 {
    use crate::search::spans::SpanKind;
    let segments: Vec<&str> = crate::search::text::url_path(&e.url)
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let stems_of = |seg: &str| crate::search::text::stems(seg).collect::<Vec<_>>();
    let mut named = false;
    for (i, seg) in segments.iter().enumerate() {
        let Some(name) = seg.strip_prefix('{').and_then(|x| x.strip_suffix('}')) else {
            continue;
        };
        let value = match filled.get(name) {
            Some(serde_json::Value::String(v)) => v.clone(),
            Some(v) => v.to_string(),
            None => continue,
        };
        // A part of `owner/repo` in a placeholder of its own names the record too.
        let Some(s) = spans
            .iter()
            .filter(|s| !matches!(s.kind, SpanKind::Year | SpanKind::Date))
            .find(|s| {
                s.value == value
                    || (s.kind == SpanKind::Slash && s.value.split('/').any(|p| p == value))
            })
        else {
            continue;
        };
        // What the question says the value is: the word before it, function words aside ("of
        // valorant"; a verb after it, "s1mple play", says what is done).
        let label: Vec<String> = s
            .before
            .last()
            .filter(|w| !crate::search::spans::is_function_word(w))
            .into_iter()
            .flat_map(|w| crate::search::text::stems(w).collect::<Vec<_>>())
            .collect();
        let keyed = i > 0
            && !segments[i - 1].contains('{')
            && stems_of(segments[i - 1])
                .iter()
                .any(|st| label.contains(st));
        if !label.is_empty()
            && !keyed
            && segments
                .iter()
                .filter(|seg| !seg.contains('{'))
                .any(|seg| stems_of(seg).iter().any(|st| label.contains(st)))
        {
            return MISKEYED;
        }
        let takes_names = e
            .parameters
            .iter()
            .find(|p| p.name == name)
            .is_some_and(fill::takes_names);
        if keyed || !label.is_empty() {
            // [`LABELLED_KEY`] already counts the record its label names; a value labelled as
            // another thing ("event G5vY…" in `/venues/{id}`) names no record of this path.
            return 1.0;
        }
        named |= match s.kind {
            // A lower-case word no label names may be any word the catalog lacks ("take").
            SpanKind::Word => false,
            // A phrase that holds a word of the path itself ("of project hail mary" for
            // `/users/{username}/projects`) is what is asked about, not a key.
            SpanKind::Name | SpanKind::Object => {
                takes_names
                    && !crate::search::text::stems(&s.value).any(|st| {
                        segments
                            .iter()
                            .filter(|seg| !seg.contains('{'))
                            .any(|seg| stems_of(seg).contains(&st))
                    })
            }
            // A bare number may be a count or a day ("on 18-08-2019").
            SpanKind::Number => false,
            _ => true,
        };
    }
    let ends_at_record = segments.last().is_some_and(|seg| seg.starts_with('{'));
    if named && unasked_tail(&e.url, filled, q) == 0 && !(several && ends_at_record) {
        ONE_RECORD
    } else {
        1.0
    }
}

/// What each literal URL segment after the resource the question identifies leaves of an
/// endpoint's score when the question does not ask for it: for "the default branch of
/// microsoft/vscode", `/repos/{owner}/{repo}` is the repository itself, and
/// `/repos/{owner}/{repo}/codespaces/machines` something else about it.
const UNASKED_SEGMENT: f64 = 0.8;

/// The literal segments of a URL path after its last placeholder the question fills, that no
/// stem of the question names (`tags` in `/repos/{owner}/{repo}/tags` is named by "list the
/// tags"). 0 when the question fills no placeholder of the path.
fn unasked_tail(url: &str, filled: &BTreeMap<String, serde_json::Value>, q: &Query) -> usize {
    let segments: Vec<&str> = crate::search::text::url_path(url)
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let Some(last) = segments.iter().rposition(|s| {
        s.strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .is_some_and(|name| filled.contains_key(name))
    }) else {
        return 0;
    };
    segments[last + 1..]
        .iter()
        .filter(|s| !s.contains('{'))
        .filter(|s| {
            crate::search::text::stems(s)
                .filter(|t| !crate::search::text::is_stop_word(t))
                .all(|t| !q.stems.contains(&t))
        })
        .count()
}

/// How much a word the index does not know weighs in the share of the question an endpoint
/// covers, as a fraction of the highest idf: a question mostly of words the catalog never uses
/// is not about the catalog, even if one word matches. Words inside a value (a name, an id, a
/// number, a quoted title, the object of a preposition) do not count: values are what a
/// catalog does not list.
const UNKNOWN_WEIGHT: f64 = 0.5;

/// The idf mass a question's words weigh: the known ones' idf, and [`UNKNOWN_WEIGHT`] of the
/// highest idf for each unknown word outside the question's values, each times its query weight
/// (a light word weighs less: [`crate::search::LIGHT_WEIGHT`]); with the mask of the known stems
/// counted (a coverage counts only those: the pieces of an id it matches are no share of the
/// request), the mask of the unknown stems counted (the words outside values the catalog never
/// uses), and what each stem weighs in the total (0 for one not counted).
fn question_weight(
    g: &FrozenGraph,
    q: &Query,
    ranking: &Ranking,
    spans: &[Span],
) -> (f64, u64, u64, Vec<f64>) {
    let n = g.index.search_offsets.last().copied().unwrap_or(0);
    let max_idf = crate::search::build::idf(n, 0);
    let mut total = 0.0;
    let mut counted = 0u64;
    let mut unknown = 0u64;
    let mut per_stem = vec![0.0; q.stems.len()];
    use crate::search::spans::SpanKind;
    // The implied terms the catalog knows: their values ("euros", "yen") weigh nothing of
    // their own, the term ("currency") weighs for them.
    let known_implied = (0..q.stems.len())
        .filter(|&i| q.is_implied(i) && ranking.idfs[i] > 0.0)
        .fold(0u64, |m, i| m | (1 << i));
    for (i, stem) in q.stems.iter().enumerate() {
        if q.is_implied(i) {
            if ranking.idfs[i] > 0.0 {
                per_stem[i] = ranking.idfs[i];
                total += per_stem[i];
                counted |= 1 << i;
            }
            continue;
        }
        let inside = |opaque: bool| {
            q.terms.iter().filter(|t| &t.stem == stem).all(|t| {
                q.implied_over(t.start, t.end, known_implied).is_some() ||
                // A word the catalog does not know weighs as unknown even in a
                // [`SpanKind::Word`] span: it may be a value or a word of a question the
                // catalog cannot answer ("earthquake").
                spans.iter().filter(|s| s.kind != SpanKind::Word).any(|s| {
                    s.start <= t.start
                        && t.end <= s.end
                        && (!opaque
                            // An upper-case word alone (`SMILES`, `UV`) is as often an
                            // abbreviation the catalog names as an id.
                            || (s.kind == SpanKind::Id
                                && s.value.chars().any(|c| c.is_ascii_digit()))
                            || matches!(
                                s.kind,
                                SpanKind::Url
                                    | SpanKind::Email
                                    | SpanKind::Phone
                                    | SpanKind::Path
                                    | SpanKind::Slash
                                    | SpanKind::Date
                            ))
                })
            })
        };
        if ranking.idfs[i] > 0.0 {
            // The pieces of an id or a URL (`512ojhOuo1ktJprKbVcKyQ` splits into `kb`, `vc`,
            // ...) are not words the question asks about, even where the index holds them.
            if !inside(true) {
                per_stem[i] = ranking.idfs[i];
                total += per_stem[i];
                counted |= 1 << i;
            }
            continue;
        }
        if !inside(false) {
            // A light word ("really", "tonight") weighs as little unknown as known.
            per_stem[i] = UNKNOWN_WEIGHT * max_idf * q.weights[i];
            total += per_stem[i];
            unknown |= 1 << i;
        }
    }
    (total, counted, unknown, per_stem)
}

/// The highest share of its own weight that the covering endpoints' known words (`covered`)
/// cover of one need of a task of several ([`crate::search::needs`]: "Read the data in
/// people.xlsx and tell me Sophia Moore's bmi"), counting only a need whose covered words weigh
/// at least `min_weight`: a catalog that serves one need of a task plans that need (the others
/// get no step), where the task's words taken together would have it refuse the whole.
/// `per_stem` is what each stem weighs ([`question_weight`]). 0 for a question of one need.
fn best_need_coverage(q: &Query, per_stem: &[f64], covered: u64, min_weight: f64) -> f64 {
    let needs = crate::search::needs::needs(&q.text);
    if needs.len() < 2 {
        return 0.0;
    }
    needs
        .iter()
        .map(|need| {
            let inside = (0..q.stems.len()).filter(|&i| {
                q.terms
                    .iter()
                    .any(|t| t.stem == q.stems[i] && need.start <= t.start && t.end <= need.end)
            });
            let (total, got) = inside.fold((0.0, 0.0), |(total, got), i| {
                let w = per_stem[i];
                (
                    total + w,
                    got + if covered & (1 << i) != 0 { w } else { 0.0 },
                )
            });
            if total > 0.0 && got >= min_weight {
                got / total
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max)
}

/// Why the best endpoint is off the point of a question, if it is: it matches one content word of
/// the question (a word of full weight, not inside a value, not a number) and that word is not
/// among what the question asks about ([`crate::search::frame::asked`]). "How many downloads did
/// the serde crate get last month" matched by an endpoint that knows only `month`, "was there an
/// earthquake near Tokyo, and how strong was it" by one that knows only `strong`: the catalog
/// shares an incidental word, and nothing of the question's subject.
fn off_the_point(
    g: &FrozenGraph,
    q: &Query,
    ranking: &Ranking,
    best: &Candidate,
    counted: u64,
) -> Option<String> {
    let asked = crate::search::frame::asked(&q.text)?;
    let asked_stems: Vec<String> = asked
        .iter()
        .flat_map(|w| crate::search::text::stems(w))
        .collect();
    let content: Vec<usize> = (0..q.stems.len())
        .filter(|i| best.matched & counted & (1 << i) != 0)
        .filter(|i| q.weights[*i] == 1.0 && ranking.idfs[*i] > 0.0)
        .filter(|i| !q.stems[*i].chars().all(|c| c.is_ascii_digit()))
        .collect();
    let [only] = content[..] else {
        return None;
    };
    // A term the question's values imply ("currency" for "250 euros in yen") is its subject.
    if asked_stems.contains(&q.stems[only]) || q.is_implied(only) {
        return None;
    }
    let t = g.tool_at(best.tool);
    Some(format!(
        "the request asks about {}, and the closest endpoint `{}/{}` matches only `{}` of it",
        asked.join(" "),
        t.id,
        t.endpoint_at(best.endpoint).id,
        q.words(1 << only).join(", ")
    ))
}

/// Why the best endpoint is off the point of a request, if it is: every content word it
/// matches is one that frames the request rather than saying what it is about (the verb of
/// computing the request opens with, "**convert** 100 euros to yen"; the word that labels a quoted value, "is
/// the **text** 'you are an idiot' offensive?"), and the request holds a content word outside its
/// opaque values (quotes, ids, URLs, e-mail addresses, paths, dates) that no endpoint of the
/// catalog knows (`euros`, `yen`, `offensive`) and that names no value the endpoint takes by
/// name (a currency for a currency code: [`super::fill::named_value_ranges`]): the catalog
/// shares the request's verb or label, not the thing it asks about.
fn only_the_frame(
    g: &FrozenGraph,
    q: &Query,
    ranking: &Ranking,
    best: &Candidate,
    counted: u64,
) -> Option<String> {
    use crate::search::spans::SpanKind;
    let content = |i: usize| q.weights[i] == 1.0 && !q.stems[i].chars().any(|c| c.is_ascii_digit());
    let matched: Vec<usize> = (0..q.stems.len())
        .filter(|&i| best.matched & counted & (1 << i) != 0)
        .filter(|&i| content(i) && ranking.idfs[i] > 0.0)
        .collect();
    if matched.is_empty() {
        return None;
    }
    let ws = crate::search::frame::words(&q.text);
    // The verb a request opens with, when it computes an answer from a value the request
    // gives ("convert", "translate", "validate": the catalog should know what the value is);
    // a verb of making something new ("draw a flowchart", "generate names") takes an object
    // that is made, not known.
    let verb = ws
        .iter()
        .find(|w| !crate::search::frame::REQUEST_OPENERS.contains(&w.2.as_str()))
        .filter(|_| !is_question(&q.text))
        .filter(|w| {
            let w = w.2.as_str();
            crate::search::text::COMPUTE_VERBS.binary_search(&w).is_ok()
                && crate::search::text::PRODUCING_VERBS
                    .binary_search(&w)
                    .is_ok()
                && !MAKING_VERBS.contains(&w)
        })
        .map(|w| (w.0, w.1));
    let labels: Vec<(usize, usize)> = q
        .spans
        .iter()
        // A quoted value's label ("the text '…'"); a label of an id or a number names the
        // record asked about ("series 305288"), the request's subject.
        .filter(|s| s.kind == SpanKind::Quoted)
        .filter_map(|s| {
            let label = s.before.last()?;
            // The label is the word right before the span (an article or a quote between).
            ws.iter()
                .rev()
                .find(|w| w.1 <= s.start && &w.2 == label)
                .map(|w| (w.0, w.1))
        })
        .collect();
    let framing = |i: usize| {
        !q.is_implied(i)
            && q.terms.iter().filter(|t| t.stem == q.stems[i]).all(|t| {
                verb.is_some_and(|(a, b)| a <= t.start && t.end <= b)
                    || labels.iter().any(|&(a, b)| a <= t.start && t.end <= b)
            })
    };
    if !matched.iter().all(|&i| framing(i)) {
        return None;
    }
    let opaque = |i: usize| {
        q.terms.iter().filter(|t| t.stem == q.stems[i]).all(|t| {
            q.spans.iter().any(|s| {
                s.start <= t.start
                    && t.end <= s.end
                    && matches!(
                        s.kind,
                        SpanKind::Quoted
                            | SpanKind::Url
                            | SpanKind::Email
                            | SpanKind::Phone
                            | SpanKind::Path
                            | SpanKind::Slash
                            | SpanKind::Date
                    )
                    || (s.kind == SpanKind::Id && s.value.chars().any(|c| c.is_ascii_digit()))
                        && s.start <= t.start
                        && t.end <= s.end
            })
        })
    };
    // A word that names a value the endpoint takes by name ("euros" for a currency code,
    // "Spanish" for a language code) is known to it, though no indexed word.
    let named =
        super::fill::named_value_ranges(g.tool_at(best.tool).endpoint_at(best.endpoint), &q.text);
    let known = |i: usize| {
        q.terms.iter().filter(|t| t.stem == q.stems[i]).all(|t| {
            named.iter().any(|&(a, b)| a <= t.start && t.end <= b)
                || q.implied_over(t.start, t.end, best.matched).is_some()
        })
    };
    let foreign: u64 = (0..q.stems.len())
        .filter(|&i| content(i) && ranking.idfs[i] == 0.0 && !opaque(i) && !known(i))
        .filter(|&i| q.stems[i].chars().all(char::is_alphabetic) && q.stems[i].len() > 1)
        .fold(0, |m, i| m | (1 << i));
    if foreign == 0 {
        return None;
    }
    let t = g.tool_at(best.tool);
    let shared: u64 = matched.iter().fold(0, |m, &i| m | (1 << i));
    Some(format!(
        "the closest endpoint `{}/{}` shares only `{}` with the request, a word that frames it (its verb or a value's label), and no endpoint of the catalog knows `{}`",
        t.id,
        t.endpoint_at(best.endpoint).id,
        q.words(shared).join(", "),
        q.words(foreign).join(", ")
    ))
}

/// Verbs of making something new from a request's words, whose object is made rather than
/// known to a catalog ([`only_the_frame`]). Language data.
const MAKING_VERBS: &[&str] = &["autocomplete", "generate", "suggest", "summarize"];

/// Words after a verb that make it an imperative with an object ("Email the results", "Order
/// 500 g", "Play me a song").
const OBJECT_STARTS: &[&str] = &[
    "a", "all", "an", "eight", "five", "four", "her", "him", "it", "me", "my", "nine", "our",
    "seven", "six", "some", "ten", "that", "the", "them", "these", "this", "those", "three", "two",
    "us",
];

/// Particles a verb of action takes before its object ("top up my card", "break down the
/// price", "turn off the lights"): the verb and its particle are one action.
const PARTICLES: &[&str] = &[
    "away", "back", "down", "in", "off", "on", "out", "over", "up",
];

/// Words that rank what follows them ("top 10 tracks", "the best five albums", "last 20
/// games"): a request that opens with one and a count asks for that many records, it names no
/// action. Language data, sorted.
const RANK_WORDS: &[&str] = &[
    "best", "biggest", "cheapest", "first", "highest", "largest", "last", "latest", "least",
    "longest", "lowest", "most", "newest", "next", "oldest", "previous", "recent", "shortest",
    "smallest", "top", "worst",
];

/// The action a request opens with, when it is an imperative verb with an object that is not
/// one of [`crate::search::frame::TASK_VERBS`] (`email` in "Email the XRD results to ..."),
/// nor a word of [`RANK_WORDS`] before a count ("top 10 tracks"; "top up my card" is an action).
fn imperative_action(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.chars()
                .filter(|c| c.is_alphanumeric())
                .collect::<String>()
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let at = words
        .iter()
        .position(|w| !crate::search::frame::REQUEST_OPENERS.contains(&w.as_str()))?;
    let verb = &words[at];
    let particle = words
        .get(at + 1)
        .filter(|w| PARTICLES.contains(&w.as_str()))
        .filter(|_| {
            words
                .get(at + 2)
                .is_some_and(|w| OBJECT_STARTS.contains(&w.as_str()))
        });
    let at = at + usize::from(particle.is_some());
    let next = words.get(at + 1)?;
    // A quoted object ("Translate 'good morning' into …") is a value the verb acts on.
    let quoted = text
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .nth(at + 1)
        .is_some_and(|w| w.starts_with(['\'', '"', '‘', '“']));
    let object = OBJECT_STARTS.contains(&next.as_str())
        || next.chars().all(|c| c.is_ascii_digit())
        || quoted;
    let ranks = particle.is_none() && RANK_WORDS.binary_search(&verb.as_str()).is_ok();
    (object
        && !ranks
        && !crate::search::frame::TASK_VERBS.contains(&verb.as_str())
        && verb.chars().all(char::is_alphabetic))
    .then(|| match particle {
        Some(p) => format!("{verb} {p}"),
        None => verb.clone(),
    })
}

/// The stems that say an endpoint does an action: the verb's, and for a verb with its particle
/// the compound too ("top up": `topup`; "break down": `breakdown`, as in
/// `price_breakdown_by_id`).
fn action_stems(action: &str) -> Vec<String> {
    let first = action.split(' ').next().unwrap_or(action);
    let mut out: Vec<String> = crate::search::text::stems(first).take(1).collect();
    if action.contains(' ') {
        out.extend(crate::search::text::stems(&action.replace(' ', "")).take(1));
    }
    out
}

/// Why a request to act gets no plan from `endpoints`, if it does: it opens with an
/// imperative action ([`imperative_action`]; not a question) and no endpoint of them names
/// that action or describes it in its description's first sentence ([`endpoint_does`]).
pub fn action_missing(
    g: &FrozenGraph,
    text: &str,
    endpoints: impl IntoIterator<Item = (u32, u32)>,
) -> Option<String> {
    let action = imperative_action(text).filter(|_| !is_question(text))?;
    let stems = action_stems(&action);
    let verb = action.split(' ').next().unwrap_or(&action);
    if endpoints
        .into_iter()
        .any(|(t, e)| stems.iter().any(|s| endpoint_does(g, t, e, s, verb)))
    {
        return None;
    }
    Some(format!(
        "the request asks to {action}, and no endpoint of the catalog that matches it names or describes that action"
    ))
}

/// Whether an endpoint's name (its id, MCP name, the literal segments of its URL path) or the
/// first sentence of its description holds a word (its stem): what the endpoint does, not what
/// its description mentions on the way ("… routes that return translation records"). A verb
/// whose noun a catalog uses instead (`derivations.txt`: "define" for `definitions`,
/// "pronounce" for `pronunciations`) is done by an endpoint that returns a field of that name:
/// "Define serendipity" asks for the definitions a dictionary entry holds. A name that is the
/// plural of the `verb` itself names things, not the action ([`plural_noun`]).
fn endpoint_does(g: &FrozenGraph, tool: u32, endpoint: u32, stem: &str, verb: &str) -> bool {
    let e = g.tool_at(tool).endpoint_at(endpoint);
    if crate::search::text::derived(stem)
        && e.fields.iter().any(|f| {
            f.name
                .rsplit('.')
                .next()
                .is_some_and(|last| crate::search::text::stems(last).any(|s| s == stem))
        })
    {
        return true;
    }
    let first = e
        .description
        .as_deref()
        .map(|d| d.split(". ").next().unwrap_or(d));
    // The name's words, then the first sentence's (whose first word is the verb of a
    // description written in the third person: "Books a room", "Sends a message").
    let mut words: Vec<(String, bool)> = std::iter::once(e.id.as_str())
        .chain(e.mcp_tool.iter().map(String::as_str))
        .chain(
            crate::search::text::url_path(&e.url)
                .split('/')
                .filter(|seg| !seg.contains('{')),
        )
        .flat_map(|name| {
            crate::search::text::split_identifier(name)
                .into_iter()
                .map(|(a, b)| (name[a..b].to_lowercase(), false))
                .collect::<Vec<_>>()
        })
        .collect();
    if let Some(first) = first {
        words.extend(first.split_whitespace().enumerate().map(|(i, w)| {
            let w: String = w.chars().filter(|c| c.is_alphanumeric()).collect();
            (w.to_lowercase(), i == 0)
        }));
    }
    words.iter().any(|(w, third)| {
        crate::search::text::stems(w).any(|s| s == stem) && (*third || !plural_noun(w, verb))
    })
}

/// Whether `word` is the plural of a noun of the verb `verb`'s stem (`books`, `orders`,
/// `messages`, `settings`): an endpoint that names the things ("/books", `getOrders`,
/// `get_budget_settings`) is not one that does the action of the verb ("Book me a flight",
/// "Order 500 g of coffee", "set an alarm"). A noun of the action made with `-ion`
/// (`translations` of "translate", `conversions` of "convert") names what the action gives: an
/// endpoint named so does it.
fn plural_noun(word: &str, verb: &str) -> bool {
    let stem = crate::search::text::stems(verb).next();
    ["es", "s"].iter().any(|end| {
        word.strip_suffix(end).is_some_and(|base| {
            !base.ends_with('s')
                && !base.ends_with("ion")
                && crate::search::text::stems(base).next() == stem
        })
    })
}

/// Up to `k` endpoints, one per distinct need: the best first; then, while any is left above
/// [`RELATIVE_FLOOR`] of the best score, the one whose score times the share of its matched
/// words (idf-weighted) that no chosen endpoint matched yet is highest. `Err` with the reason
/// when the best endpoint does not match enough of the question ([`MIN_COVERAGE`] of
/// [`question_weight`], [`MIN_WEIGHT`], which an endpoint whose URL path takes a value the
/// question identifies needs not reach: [`identifies`]), when it matches one content word only and not what
/// the question asks about ([`off_the_point`]), or when the request opens with an action no
/// ranked endpoint names or describes ("Email the results to ...", "Translate 'good morning' …").
pub fn choose(
    g: &FrozenGraph,
    q: &Query,
    ranking: &Ranking,
    candidates: &[Candidate],
    spans: &[Span],
    k: usize,
) -> Result<Vec<Candidate>, String> {
    let Some(best) = candidates.first() else {
        return Err(if ranking.hits.is_empty() {
            "no endpoint of the catalog shares a word with the request".to_string()
        } else {
            "every endpoint that shares words with the request is ruled out (destructive, excluded, or of another source type)".to_string()
        });
    };
    // The calibrated decision reads the endpoints that share words with the request, by BM25F
    // (with the dense signal, endpoints close in meaning only rank too, and match no words).
    let mut lexical: Vec<Candidate> = candidates
        .iter()
        .filter(|c| c.matched != 0)
        .map(|c| Candidate {
            score: c.lexical,
            ..c.clone()
        })
        .collect();
    lexical.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| g.tool_at(a.tool).id.cmp(&g.tool_at(b.tool).id))
            .then(a.endpoint.cmp(&b.endpoint))
    });
    let best = lexical.first().unwrap_or(best);
    let covering = diversified(ranking, &lexical, COVERING, COVERING_NOVELTY);
    // What the catalog covers of the question: the words the first few distinct needs' endpoints
    // match together (a task of several needs is covered by several endpoints, never by one).
    let union = covering.iter().fold(0u64, |m, c| m | c.matched);
    let weight = ranking.weight(best.matched);
    let docs = g.index.search_offsets.last().copied().unwrap_or(0);
    let min_weight = min_weight(docs);
    let (whole, counted, unknown, per_stem) = question_weight(g, q, ranking, spans);
    let coverage = if whole > 0.0 {
        ranking.weight(union & counted) / whole
    } else {
        0.0
    };
    let coverage = coverage.max(best_need_coverage(
        q,
        &per_stem,
        union & counted,
        min_weight,
    ));
    // An endpoint that takes the value the question identifies by its path matches the
    // question's subject however common its words are in the catalog.
    // An endpoint that takes every value the Understanding holds is what the question names.
    let given = best.takes_given;
    // A record the question identifies whose own field answers what is asked is what the
    // question is about, though the question's other words ("mostly written") be foreign.
    let covered = coverage >= MIN_COVERAGE || best.answers;
    if !given && (!covered || (weight < min_weight && !best.identified)) {
        let t = g.tool_at(best.tool);
        let closest = format!(
            "the closest endpoint is `{}/{}` (words: {}; weight {weight:.2})",
            t.id,
            t.endpoint_at(best.endpoint).id,
            q.words(best.matched).join(", ")
        );
        // Say the test that failed: too little of the request covered, or a best match too weak.
        return Err(if covered {
            format!(
                "the catalog matches too little of the request: {closest}, under the weight of {min_weight:.2} a plan needs from its best endpoint"
            )
        } else {
            format!(
                "the catalog matches too little of the request: {closest}, and the closest {} together match {:.0}% of the request's weight, under the {:.0}% a plan needs",
                covering.len(),
                coverage * 100.0,
                MIN_COVERAGE * 100.0
            )
        });
    }
    if !given && let Some(reason) = off_the_point(g, q, ranking, best, counted) {
        return Err(reason);
    }
    if !given && let Some(reason) = only_the_frame(g, q, ranking, best, counted) {
        return Err(reason);
    }
    if !best.identified
        && !given
        && let Some(reason) = super::absent::absent(g, q, ranking, best, counted, unknown)
    {
        return Err(reason);
    }
    if let Some(reason) =
        action_missing(g, &q.text, candidates.iter().map(|c| (c.tool, c.endpoint)))
    {
        return Err(reason);
    }
    Ok(diversified(ranking, candidates, k, STEP_NOVELTY))
}

/// How much the words an endpoint adds count when the steps are chosen (0: the plain ranking;
/// 1: only new words count).
const STEP_NOVELTY: f64 = 0.2;

/// The same when the endpoints that say how much of the question the catalog covers are chosen.
const COVERING_NOVELTY: f64 = 0.75;

/// Endpoints whose matches together say how much of a question the catalog covers.
const COVERING: usize = 3;

/// The greedy choice of [`choose`]: up to `k` endpoints, each next one for the words it adds.
fn diversified(
    ranking: &Ranking,
    candidates: &[Candidate],
    k: usize,
    novelty_weight: f64,
) -> Vec<Candidate> {
    let Some(best) = candidates.first() else {
        return Vec::new();
    };
    let floor = best.score * RELATIVE_FLOOR;
    let mut chosen = vec![best.clone()];
    let mut covered = best.matched;
    while chosen.len() < k {
        let next = candidates
            .iter()
            .filter(|c| c.score >= floor)
            .filter(|c| {
                !chosen
                    .iter()
                    .any(|x| x.tool == c.tool && x.endpoint == c.endpoint)
            })
            .map(|c| {
                let total = ranking.weight(c.matched);
                let new = ranking.weight(c.matched & !covered);
                let novelty = if total > 0.0 { new / total } else { 0.0 };
                (
                    c.score * (1.0 - novelty_weight + novelty_weight * novelty),
                    c,
                )
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let Some((_, c)) = next else { break };
        covered |= c.matched;
        chosen.push(c.clone());
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::testing::returning;

    #[test]
    fn a_count_is_a_number_or_a_list_of_the_resource_itself() {
        let user = returning(None, &[("login", "string"), ("followers", "integer")]);
        assert!(holds_count_of(&user, "follow"));
        assert!(!holds_count_of(&user, "login"));
        let summary = returning(None, &[("airedSeasons", "string[]")]);
        assert!(holds_count_of(&summary, "season"));
        let totals = returning(None, &[("followers.total", "integer")]);
        assert!(holds_count_of(&totals, "follow"));
        // Each item's number in a list of records, another record's number, an identifier.
        let episodes = returning(Some("data[]"), &[("airedSeason", "integer")]);
        assert!(!holds_count_of(&episodes, "season"));
        let nested = returning(None, &[("items[].pageCount", "integer")]);
        assert!(!holds_count_of(&nested, "page"));
        let event = returning(
            None,
            &[
                ("repo.id", "integer"),
                ("repo.stars", "integer"),
                ("type", "string"),
            ],
        );
        assert!(!holds_count_of(&event, "star"));
    }

    #[test]
    fn a_count_the_record_holds_asks_for_one_record() {
        let listing = returning(None, &[("daysOnMarket", "integer"), ("price", "number")]);
        let listings = returning(Some("[]"), &[("daysOnMarket", "integer")]);
        let counted = |q: &str| {
            crate::search::frame::counted(q)
                .and_then(|w| w.last().and_then(|w| crate::search::text::stems(w).last()))
        };
        let q = "how many days has listing abc-12 been on the market";
        assert!(asks_for_many(q));
        assert!(!several_of(&listing, true, counted(q).as_deref()));
        assert!(several_of(&listings, true, counted(q).as_deref()));
        let q = "how many listings are there in austin";
        assert!(several_of(&listing, true, counted(q).as_deref()));
        assert!(!several_of(&listing, false, None));
    }

    #[test]
    fn a_count_field_may_spell_the_counted_word_longer() {
        let repo = returning(None, &[("stargazers_count", "integer"), ("name", "string")]);
        assert!(holds_count_of(&repo, "star"));
        let issues = returning(None, &[("open_issues_count", "integer")]);
        assert!(holds_count_of(&issues, "issu"));
        // Three letters are no prefix.
        let pages = returning(None, &[("pageCount", "integer")]);
        assert!(!holds_count_of(&pages, "pag"));
    }

    #[test]
    fn a_path_placeholder_taking_the_value_the_question_names_identifies() {
        let one = |k: &str, v: serde_json::Value| -> BTreeMap<String, serde_json::Value> {
            [(k.to_string(), v)].into()
        };
        let q = Query::new("how many episodes does podcast 4d3fe717742d4963a85562e9f84d8c79 have");
        let id = one("id", serde_json::json!("4d3fe717742d4963a85562e9f84d8c79"));
        assert!(identifies("https://x.test/podcasts/{id}", &q.spans, &id));
        // The same value in a query parameter, or no value taken: not identified by the path.
        assert!(!identifies("https://x.test/podcasts", &q.spans, &id));
        assert!(!identifies(
            "https://x.test/podcasts/{id}",
            &q.spans,
            &BTreeMap::new()
        ));
        // A labelled number, owner/repo.
        let q = Query::new("who won esports match 556677");
        let m = one("match_id_or_slug", serde_json::json!(556677));
        assert!(identifies(
            "https://x.test/matches/{match_id_or_slug}",
            &q.spans,
            &m
        ));
        let q = Query::new("how many stars does rust-lang/rust have");
        let mut repo = one("owner", serde_json::json!("rust-lang"));
        repo.insert("repo".into(), serde_json::json!("rust"));
        assert!(identifies(
            "https://x.test/repos/{owner}/{repo}",
            &q.spans,
            &repo
        ));
        // A bare year is no identifier.
        let q = Query::new("concerts in 2017");
        let y = one("year", serde_json::json!(2017));
        assert!(!identifies("https://x.test/concerts/{year}", &q.spans, &y));
    }

    #[test]
    fn labelled_values_must_all_be_taken() {
        let q = Query::new("how many calories are in recipe 716429");
        let none = BTreeMap::new();
        assert!(!takes_labelled_values(&q.spans, &none));
        let id: BTreeMap<String, serde_json::Value> =
            [("id".to_string(), serde_json::json!(716429))].into();
        assert!(takes_labelled_values(&q.spans, &id));
        // No labelled value: nothing to take.
        let q = Query::new("how many calories are in a banana");
        assert!(takes_labelled_values(&q.spans, &none));
    }

    #[test]
    fn light_words_weigh_less_in_a_query() {
        let q = Query::new("chance of rain over the next few hours");
        let w = |s: &str| q.weights[q.stems.iter().position(|x| x == s).unwrap()];
        assert_eq!(w("rain"), 1.0);
        assert_eq!(w("next"), crate::search::LIGHT_WEIGHT);
        assert_eq!(w("over"), crate::search::LIGHT_WEIGHT);
        assert_eq!(w("few"), crate::search::LIGHT_WEIGHT);
        assert_eq!(w("hour"), 1.0);
    }

    #[test]
    fn questions_are_told_from_requests() {
        assert!(is_question("How many stars does rust-lang/rust have"));
        assert!(is_question("stars of rust-lang/rust?"));
        assert!(is_question("What's the weather in Lyon"));
        assert!(!is_question("Star the repository rust-lang/rust"));
        assert!(!is_question("create an issue titled \"crash\""));
        assert!(!is_question("Can you star rust-lang/rust?"));
        assert!(is_question("Can stars be given twice?"));
        // A modal verb opens a question as "is" does; "will you" asks to act.
        assert!(is_question(
            "will the air quality in 90210 be good tomorrow"
        ));
        assert!(is_question("should i bring an umbrella in lyon"));
        assert!(is_question("would it rain in oslo on friday"));
        assert!(!is_question("will you email the results to ana"));
        assert_eq!(
            imperative_action("will you email the results to ana").as_deref(),
            Some("email")
        );
        assert_eq!(imperative_action("will the air quality be good"), None);
    }

    #[test]
    fn url_segments_after_the_identified_resource_must_be_asked_for() {
        let filled: BTreeMap<String, serde_json::Value> = [
            ("owner".to_string(), serde_json::json!("microsoft")),
            ("repo".to_string(), serde_json::json!("vscode")),
        ]
        .into();
        let q = Query::new("list the tags of microsoft/vscode");
        let base = "https://api.github.com/repos/{owner}/{repo}";
        assert_eq!(unasked_tail(base, &filled, &q), 0);
        assert_eq!(unasked_tail(&format!("{base}/tags"), &filled, &q), 0);
        assert_eq!(
            unasked_tail(&format!("{base}/codespaces/machines"), &filled, &q),
            2
        );
        // No placeholder filled: nothing is identified, nothing to count.
        assert_eq!(
            unasked_tail("https://api.github.com/user/subscriptions", &filled, &q),
            0
        );
    }

    #[test]
    fn an_endpoint_that_takes_none_of_the_identifying_values_is_told() {
        let q = Query::new("what's the default branch of microsoft/vscode");
        let none = BTreeMap::new();
        let repo: BTreeMap<String, serde_json::Value> =
            [("repo".to_string(), serde_json::json!("vscode"))].into();
        assert!(takes_no_identifier(&q.spans, &none));
        assert!(!takes_no_identifier(&q.spans, &repo));
        // An upper-case word alone identifies nothing.
        let q = Query::new("UV index in Sydney");
        assert!(!takes_no_identifier(&q.spans, &none));
    }

    #[test]
    fn values_taken_as_a_list_or_in_parts_are_taken() {
        // Both points of a route, in the one list parameter that takes them.
        let q = Query::new("bike route from 52.5200,13.4050 to 52.3906,13.0645");
        let points: BTreeMap<String, serde_json::Value> = [(
            "point".to_string(),
            serde_json::json!(["52.5200,13.4050", "52.3906,13.0645"]),
        )]
        .into();
        assert!(!takes_no_identifier(&q.spans, &points));
        assert!(takes_no_identifier(&q.spans, &BTreeMap::new()));
        // `microsoft/vscode` in `{owner}` and `{repo}` names the repository: one record.
        let q = Query::new("what's the default branch of microsoft/vscode");
        let mut e = super::super::testing::returning(None, &[("default_branch", "string")]);
        e.url = "https://api.test/repos/{owner}/{repo}".into();
        let repo: BTreeMap<String, serde_json::Value> = [
            ("owner".to_string(), serde_json::json!("microsoft")),
            ("repo".to_string(), serde_json::json!("vscode")),
        ]
        .into();
        assert_eq!(one_record(&e, &q.spans, &repo, &q, false), ONE_RECORD);
    }

    #[test]
    fn a_query_parameter_named_by_the_values_label_counts_more() {
        let fill = |name: &str| -> BTreeMap<String, serde_json::Value> {
            [(name.to_string(), serde_json::json!("11339785"))].into()
        };
        let url = "https://api.test/ws/1.1/album.get";
        let q = Query::new("which record label released album 11339785");
        assert_eq!(
            labelled_keys(url, &q.spans, &fill("album_id"), &q.stems),
            LABELLED_KEY
        );
        assert_eq!(
            labelled_keys(url, &q.spans, &fill("artist_id"), &q.stems),
            LABELLED_KEY_UNTAKEN
        );
        // A key word alone names nothing; a name the request says elsewhere is no miskeying
        // ("pull request 1234" in `pull_number`).
        assert_eq!(labelled_keys(url, &q.spans, &fill("ids"), &q.stems), 1.0);
        let q = Query::new("was pull request 1234 merged");
        let pr: BTreeMap<String, serde_json::Value> =
            [("pull_number".to_string(), serde_json::json!(1234))].into();
        assert_eq!(labelled_keys(url, &q.spans, &pr, &q.stems), 1.0);
    }

    #[test]
    fn a_placeholder_keyed_by_the_values_label_counts_more() {
        let album: BTreeMap<String, serde_json::Value> = [(
            "id".to_string(),
            serde_json::json!("4aawyAB9vmqN3uQ7FjRGTy"),
        )]
        .into();
        let q = Query::new("number of tracks of album 4aawyAB9vmqN3uQ7FjRGTy");
        let api = "https://api.test/v1";
        assert_eq!(
            labelled_keys(&format!("{api}/albums/{{id}}"), &q.spans, &album, &q.stems),
            LABELLED_KEY
        );
        assert_eq!(
            labelled_keys(
                &format!("{api}/artists/{{id}}/albums"),
                &q.spans,
                &album,
                &q.stems
            ),
            1.0
        );
        // "issue 4512": the endpoint that lists issues takes no value from it.
        let q = Query::new("is issue 4512 in golang/go still open?");
        let repo: BTreeMap<String, serde_json::Value> = [
            ("owner".to_string(), serde_json::json!("golang")),
            ("repo".to_string(), serde_json::json!("go")),
        ]
        .into();
        let mut one = repo.clone();
        one.insert("issue_number".into(), serde_json::json!(4512));
        let base = format!("{api}/repos/{{owner}}/{{repo}}/issues");
        assert_eq!(
            labelled_keys(&base, &q.spans, &repo, &q.stems),
            LABELLED_KEY_UNTAKEN
        );
        assert_eq!(
            labelled_keys(
                &format!("{base}/{{issue_number}}"),
                &q.spans,
                &one,
                &q.stems
            ),
            LABELLED_KEY
        );
        // A value whose label the URL does not name changes nothing.
        assert_eq!(
            labelled_keys(
                &format!("{api}/repos/{{owner}}/{{repo}}"),
                &q.spans,
                &repo,
                &q.stems
            ),
            1.0
        );
    }

    /// An endpoint on `url` whose path placeholders are its required parameters.
    fn at(url: &str, keys: &[&str]) -> crate::artifact::EndpointData {
        let parameters: Vec<serde_json::Value> = keys
            .iter()
            .map(|k| {
                serde_json::json!({"name": k, "type": "string", "enum_values": [],
                    "required": true, "auth": false, "bind": [], "location": "path"})
            })
            .collect();
        serde_json::from_value(serde_json::json!({"id": "e", "method": "GET", "url": url,
            "parameters": parameters, "fields": [], "identifiers": [], "group_fields": {}}))
        .expect("endpoint json")
    }

    fn given(pairs: &[(&str, &str)]) -> BTreeMap<String, serde_json::Value> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
            .collect()
    }

    #[test]
    fn the_record_a_question_names_is_read_by_its_detail_endpoint() {
        let fit = |url: &str, keys: &[&str], q: &str, filled: &[(&str, &str)]| {
            let q = Query::new(q);
            one_record(
                &at(url, keys),
                &q.spans,
                &given(filled),
                &q,
                asks_for_many(&q.text),
            )
        };
        let api = "https://api.test";
        // An id, owner/repo, a labelled number: the path ends at the record named.
        let q = "which team does s1mple play for right now";
        let player = format!("{api}/players/{{player_id_or_slug}}");
        let s1 = [("player_id_or_slug", "s1mple")];
        assert_eq!(fit(&player, &["player_id_or_slug"], q, &s1), ONE_RECORD);
        // A label that keys the placeholder is counted by `labelled_keys`.
        let labelled = "which team does the player s1mple play for";
        assert_eq!(fit(&player, &["player_id_or_slug"], labelled, &s1), 1.0);
        let album = format!("{api}/albums/{{id}}");
        let id = [("id", "4aawyAB9vmqN3uQ7FjRGTy")];
        let named = "what label is on 4aawyAB9vmqN3uQ7FjRGTy";
        assert_eq!(fit(&album, &["id"], named, &id), ONE_RECORD);
        // Asked sub-things of the record named: its sub-resource; an unasked one is not.
        let tracks = format!("{album}/tracks");
        let asked = "what tracks are on 4aawyAB9vmqN3uQ7FjRGTy";
        assert_eq!(fit(&tracks, &["id"], asked, &id), ONE_RECORD);
        assert_eq!(fit(&tracks, &["id"], named, &id), 1.0);
        // A request for many records is not answered by one record.
        assert_eq!(
            fit(
                &album,
                &["id"],
                "list all tracks of 4aawyAB9vmqN3uQ7FjRGTy",
                &id
            ),
            1.0
        );
        // Nothing of the question in the path: the list. A bare number is no key.
        assert_eq!(fit(&format!("{api}/players"), &[], q, &[]), 1.0);
        // A value labelled as another thing names no record of this path.
        let venue = format!("{api}/venues/{{id}}");
        let event = "what do tickets cost for event G5vYZ9ZmkR2Fz";
        assert_eq!(fit(&venue, &["id"], event, &[("id", "G5vYZ9ZmkR2Fz")]), 1.0);
        let version = format!("{api}/versions/{{versionId}}");
        let day = "which tour was the show on 18-08-2019 part of";
        assert_eq!(
            fit(&version, &["versionId"], day, &[("versionId", "18")]),
            1.0
        );
        // A word typed in lower case names a record where the key takes names (a slug), not
        // where it is an opaque id.
        let q = "what is the current game version of valorant";
        let game = format!("{api}/videogames/{{videogame_id_or_slug}}");
        let v = [("videogame_id_or_slug", "valorant")];
        assert_eq!(fit(&game, &["videogame_id_or_slug"], q, &v), ONE_RECORD);
        assert_eq!(fit(&album, &["id"], q, &[("id", "valorant")]), 1.0);
        // A phrase holding a word of the path is what is asked about.
        let projects = format!("{api}/users/{{username}}/projects");
        let book = "how much does the ebook of project hail mary cost";
        let u = [("username", "project hail mary cost")];
        assert_eq!(fit(&projects, &["username"], book, &u), 1.0);
    }

    #[test]
    fn a_labelled_value_in_a_placeholder_its_label_does_not_key_is_miskeyed() {
        let q = Query::new("which team does the player s1mple play for right now");
        let series = at(
            "https://api.test/series/{serie_id_or_slug}/players",
            &["serie_id_or_slug"],
        );
        let filled = given(&[("serie_id_or_slug", "s1mple")]);
        assert_eq!(one_record(&series, &q.spans, &filled, &q, false), MISKEYED);
    }

    #[test]
    fn requests_for_many_records_are_told() {
        assert!(asks_for_many("how many setlists does radiohead have"));
        assert!(asks_for_many("list the tags of rust-lang/rust"));
        assert!(asks_for_many("which concerts did coldplay play in 2017"));
        assert!(!asks_for_many("which team does the player s1mple play for"));
        assert!(!asks_for_many(
            "what is the current game version of valorant"
        ));
        assert!(!asks_for_many("what nationality is the pro faker"));
    }

    #[test]
    fn a_quantifier_names_the_records_listed() {
        let q = |t: &str| quantified(t).map(|v| v.join(" "));
        assert_eq!(
            q("final scores of every clemson game in the 2018 season").as_deref(),
            Some("clemson game")
        );
        assert_eq!(q("wins and losses of each team").as_deref(), Some("team"));
        assert_eq!(
            q("list all the episodes of series 81189").as_deref(),
            Some("episod")
        );
        assert_eq!(
            q("list all the countries setlist.fm knows about").as_deref(),
            Some("countri setlist")
        );
        assert_eq!(
            quantified("the percentage of players who unlocked each"),
            None
        );
        assert_eq!(quantified("what is the weather"), None);
        assert!(lists("https://api.test/games", "game"));
        assert!(lists("https://api.test/ppa/players/games?x=1", "game"));
        assert!(!lists("https://api.test/games/{id}", "game"));
        assert!(!lists("https://api.test/game/box/advanced", "game"));
        assert!(!lists("https://api.test/coaches", "game"));
    }

    #[test]
    fn an_action_with_its_particle_is_also_its_compound() {
        assert_eq!(action_stems("buy"), ["buy"]);
        assert_eq!(action_stems("break down"), ["break", "breakdown"]);
        assert_eq!(action_stems("top up"), ["top", "topup"]);
    }

    #[test]
    fn synonyms_of_writing_make_an_endpoint_write() {
        let mcp = |id: &str| {
            let mut e = returning(None, &[]);
            e.id = id.to_string();
            e.method = "MCP".to_string();
            e
        };
        assert!(writes(&mcp("save_memory")));
        assert!(writes(&mcp("playlist_modify")));
        assert!(!writes(&mcp("get_saved_tracks")));
        assert!(acts("Please save the playlist"));
        assert!(!acts("saved playlists of mine"));
    }

    #[test]
    fn an_endpoint_named_for_what_it_makes_is_no_answer_to_a_request_that_asks_no_such_thing() {
        let named = |id: &str, url: &str| {
            let mut e = returning(None, &[]);
            e.id = id.to_string();
            e.url = url.to_string();
            e
        };
        let convert = named("convert_time", "mcp://time/convert_time");
        assert_eq!(
            unasked_action(&convert, &Query::new("What time is it in Tokyo?")),
            Some("convert")
        );
        assert_eq!(
            unasked_action(&convert, &Query::new("convert 3pm to London time")),
            None
        );
        let drawn = named(
            "visualize_recipe_equipment_by_id",
            "https://x.test/recipes/{id}/equipmentWidget",
        );
        assert_eq!(
            unasked_action(&drawn, &Query::new("what equipment do i need for recipe 3")),
            Some("visualize")
        );
        // By the literal segments of its path too; a path parameter's name is no action.
        let check = named("phone", "https://x.test/api/Phone/Validate");
        assert_eq!(
            unasked_action(&check, &Query::new("phone numbers of France")),
            Some("validate")
        );
        assert_eq!(
            unasked_action(&check, &Query::new("is +33 1 23 45 67 89 a valid number")),
            None
        );
        let image = named(
            "equipment_by_id_image",
            "https://x.test/recipes/{id}/equipment.png",
        );
        assert_eq!(
            unasked_action(&image, &Query::new("what equipment do i need for recipe 3")),
            Some("image")
        );
        assert_eq!(
            unasked_action(&image, &Query::new("an image of the equipment of recipe 3")),
            None
        );
        let read = named(
            "get_recipe_equipment_by_id",
            "https://x.test/recipes/{id}/equipment",
        );
        assert_eq!(unasked_action(&read, &Query::new("recipe equipment")), None);
        // Reading verbs are no such action: a search endpoint answers a question.
        let search = named("get_search_series", "https://x.test/search/series");
        assert_eq!(
            unasked_action(&search, &Query::new("which series air on fox")),
            None
        );
    }

    #[test]
    fn the_time_a_request_asks_about_and_an_endpoint_serves() {
        use crate::search::text::Tense;
        assert_eq!(
            request_tense("no2 readings of the last 72 hours for city id 2950159"),
            Some(Tense::Past)
        );
        assert_eq!(
            request_tense("will it rain in zip 27601 in the next 3 days"),
            Some(Tense::Future)
        );
        assert_eq!(
            request_tense("how hot does it feel in miami right now"),
            Some(Tense::Present)
        );
        assert_eq!(
            request_tense("the ozone forecast for 28546"),
            Some(Tense::Future)
        );
        // No word of time, or words of two times.
        assert_eq!(request_tense("air quality in berlin"), None);
        assert_eq!(request_tense("what was forecast for the next week"), None);
        let named = |id: &str, url: &str| {
            let mut e = returning(None, &[]);
            e.id = id.to_string();
            e.url = url.to_string();
            e
        };
        let history = named(
            "get_history_airquality_by_city_id",
            "https://x.test/history/airquality?city_id={city_id}",
        );
        assert_eq!(endpoint_tense(&history), Some(Tense::Past));
        let forecast = named("get_forecast_daily", "https://x.test/forecast/daily");
        assert_eq!(endpoint_tense(&forecast), Some(Tense::Future));
        let current = named("get_current_time", "mcp://time/get_current_time");
        assert_eq!(endpoint_tense(&current), Some(Tense::Present));
        let plain = named("get_api_monsters", "https://x.test/api/monsters");
        assert_eq!(endpoint_tense(&plain), None);
    }

    #[test]
    fn a_post_that_computes_reads_and_one_that_adds_writes() {
        let post = |id: &str, url: &str, description: Option<&str>| {
            let mut e = returning(None, &[]);
            e.id = id.to_string();
            e.method = "POST".to_string();
            e.url = url.to_string();
            e.description = description.map(str::to_string);
            e
        };
        // Named by method and path: the `post` is the method; the path or the summary says
        // whether it computes (an agent noun, a verb of computing or of asking) or adds.
        assert!(!writes(&post(
            "post_api_finance_vat_validator",
            "{base_url}/api/Finance/Vat/Validator",
            None
        )));
        assert!(!writes(&post(
            "post_api_name_brand_name",
            "{base_url}/api/Name/BrandName",
            Some("Generate brand name suggestions")
        )));
        assert!(!writes(&post(
            "post_v1_currency_converter",
            "https://x.test/v1/currency/converter",
            None
        )));
        assert!(!writes(&post(
            "post_text_review",
            "https://x.test/text/review",
            Some("Get reviews (max quantity=500)")
        )));
        assert!(writes(&post("post_pets", "https://x.test/pets", None)));
        assert!(writes(&post(
            "post_pets",
            "https://x.test/pets",
            Some("Adds a pet to the store")
        )));
        // A verb of writing writes, whatever else the id or the path says.
        assert!(writes(&post(
            "post_create_validator",
            "https://x.test/validator",
            None
        )));
        assert!(writes(&post(
            "repos_create_fork",
            "https://x.test/repos/{owner}/{repo}/forks",
            None
        )));
        // An operation id without the method is read as before.
        assert!(!writes(&post(
            "search_documents",
            "https://x.test/documents/search",
            None
        )));
    }

    #[test]
    fn requests_that_open_with_a_verb_of_writing_act() {
        assert!(acts("create an issue titled \"crash\" in rust-lang/rust"));
        assert!(acts("Please add an observation to Alice"));
        assert!(acts("can you delete the draft"));
        assert!(!acts("show me the issues created today"));
        assert!(!acts("when was the issue created?"));
        assert!(!acts(""));
    }

    #[test]
    fn a_list_of_values_is_told_and_taken_whole() {
        let q = Query::new("posts 101, 102 and 103");
        assert_eq!(
            listed_values(&q.spans),
            Some(vec!["101".to_string(), "102".into(), "103".into()])
        );
        assert_eq!(listed_values(&Query::new("posts 101 and 102").spans), None);
        assert_eq!(
            listed_values(&Query::new("post 101 from 2019 in 3 days").spans),
            None
        );
        let list = vec!["101".to_string(), "102".into(), "103".into()];
        let trial = |k: &str, v: serde_json::Value| BTreeMap::from([(k.to_string(), v)]);
        assert!(takes_list(&trial("post_ids", "101,102,103".into()), &list));
        assert!(takes_list(
            &trial("ids", serde_json::json!(["101", "102", "103"])),
            &list
        ));
        assert!(!takes_list(&trial("post_id", "101".into()), &list));
    }

    #[test]
    fn plural_nouns_are_not_the_verb() {
        assert!(plural_noun("books", "book"));
        assert!(plural_noun("orders", "order"));
        assert!(plural_noun("messages", "message"));
        assert!(plural_noun("watches", "watch"));
        assert!(plural_noun("settings", "set"));
        assert!(!plural_noun("book", "book"));
        assert!(!plural_noun("address", "address"));
        assert!(!plural_noun("sends", "book"));
        // Nouns made from the verb name what the action gives.
        assert!(!plural_noun("translations", "translate"));
        assert!(!plural_noun("conversions", "convert"));
    }

    #[test]
    fn imperatives_with_an_object_name_their_action() {
        assert_eq!(
            imperative_action("Email the XRD results to my co-author").as_deref(),
            Some("email")
        );
        assert_eq!(
            imperative_action("Please order 500 g of silicon").as_deref(),
            Some("order")
        );
        assert_eq!(
            imperative_action("Can you play me a song?").as_deref(),
            Some("play")
        );
        assert_eq!(
            imperative_action("translate 'good morning' into japanese").as_deref(),
            Some("translate")
        );
        // A number word or a particle before the object: the action is the verb (with its
        // particle).
        assert_eq!(
            imperative_action("buy two tickets for the concert").as_deref(),
            Some("buy")
        );
        assert_eq!(
            imperative_action("top up my oyster card").as_deref(),
            Some("top up")
        );
        assert_eq!(
            imperative_action("turn off the lights").as_deref(),
            Some("turn off")
        );
        // A rank word before a count asks for records ("top 10", "the last five").
        assert_eq!(imperative_action("top 10 songs in the uk this week"), None);
        assert_eq!(imperative_action("top ten albums of 1999"), None);
        assert_eq!(imperative_action("latest 5 bills in ohio"), None);
        assert_eq!(
            imperative_action("Please show the best three recipes"),
            None
        );
        // A particle with no object after it is no imperative with an object.
        assert_eq!(imperative_action("sign up today"), None);
        assert_eq!(imperative_action("Show me the weather in Lyon"), None);
        assert_eq!(imperative_action("Tesla stock price today"), None);
        assert_eq!(imperative_action("Help me find the latest papers"), None);
        assert!(is_question("What's the UV index in Sydney tomorrow?"));
    }
}
