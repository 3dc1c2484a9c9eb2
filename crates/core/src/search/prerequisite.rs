//! Prerequisite needs: the endpoints a ranked endpoint cannot be called without. An agent that
//! loads only the top `k` tools must also load the one that makes a required argument the
//! question gives by name only:
//!
//! - **named**: a required parameter's description names another endpoint of the catalog in
//!   backticks ("the `station_code` ... obtained with `get-station-code-of-citys`", "first call
//!   `get-current-date`"): the catalog itself says where the value comes from;
//! - **by kind**: a required parameter of a kind declared in `prerequisite.txt` (coordinates:
//!   `latitude`, `longitude`, `location` described as coordinates), when the question writes
//!   no value of that kind (no decimal number), needs the best endpoint for the kind's search
//!   words (a geocoder) that takes a name instead (`address`, `place`, `city`) and requires no
//!   parameter of the kind itself (a reverse geocoder does).
//!
//! [`super::rank_needs`] places them after the question's own first endpoints, as it places
//! implied needs ([`super::implied`]); `route` does not read them.

use super::spans::SpanKind;
use super::{Query, Ranked, rank, text};
use crate::artifact::{EndpointData, FrozenGraph, ParamData};
use std::sync::OnceLock;

/// The declared kinds of prerequisite (see the file's header).
const DATA: &str = include_str!("prerequisite.txt");

/// How many of the first ranked endpoints are read for prerequisites.
pub const PREREQUISITE_DEPTH: usize = 3;

/// Most prerequisites added to one question's ranking.
pub const MOST_PREREQUISITES: usize = 2;

/// How far down a prerequisite's own search its endpoint is looked for.
const SEARCH_DEPTH: usize = 20;

/// One kind of value a question gives by name only.
struct Kind {
    /// Words that name (or describe) a parameter of the kind.
    param_words: Vec<String>,
    /// What the prerequisite is searched with.
    searched: String,
    /// Words naming the parameter the prerequisite takes instead.
    takes: Vec<String>,
}

fn kinds() -> &'static [Kind] {
    static KINDS: OnceLock<Vec<Kind>> = OnceLock::new();
    KINDS.get_or_init(|| {
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect();
        DATA.lines()
            .filter(|l| l.starts_with("kind "))
            .filter_map(|l| {
                let parts: Vec<&str> = l.split('|').collect();
                let [_, param_words, searched, takes] = parts.as_slice() else {
                    return None;
                };
                Some(Kind {
                    param_words: words(param_words),
                    searched: searched.trim().to_string(),
                    takes: words(takes),
                })
            })
            .collect()
    })
}

fn endpoint<'g>(g: &'g FrozenGraph, r: &Ranked) -> &'g EndpointData {
    g.tool_at(r.tool).endpoint_at(r.endpoint)
}

/// The name an agent calls the endpoint by: its MCP tool name, else its id.
fn call<'g>(g: &'g FrozenGraph, r: &Ranked) -> &'g str {
    let e = endpoint(g, r);
    e.mcp_tool.as_deref().unwrap_or(&e.id)
}

/// The parameters a call must send that the agent fills (not credentials, not headers).
fn required(e: &EndpointData) -> impl Iterator<Item = &ParamData> {
    e.parameters.iter().filter(|p| {
        p.required && !p.auth && !matches!(p.location.as_deref(), Some("header" | "cookie"))
    })
}

/// The lower-case words of a parameter's name (`from_latitude` -> `from`, `latitude`).
fn name_words(p: &ParamData) -> Vec<String> {
    text::split_identifier(&p.name)
        .into_iter()
        .map(|(s, e)| p.name[s..e].to_lowercase())
        .collect()
}

/// Whether `p` takes a value of `kind`: its name holds one of the kind's words, or its
/// description does while its name is a place (`location`: "longitude,latitude").
fn of_kind(p: &ParamData, kind: &Kind) -> bool {
    let named = name_words(p).iter().any(|w| kind.param_words.contains(w));
    named
        || p.description.as_deref().is_some_and(|d| {
            d.to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| kind.param_words.iter().any(|k| k == w))
        }) && name_words(p).iter().any(|w| kind.takes.contains(w))
}

/// The names a required parameter's description writes in backticks, in order, each once.
fn referenced(e: &EndpointData) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for p in required(e) {
        let Some(d) = p.description.as_deref() else {
            continue;
        };
        for (i, piece) in d.split('`').enumerate() {
            let name = piece.trim();
            let shaped = !name.is_empty()
                && name.len() <= 64
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
            if i % 2 == 1 && shaped && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// The endpoint an agent calls `name` (exactly), found through the index.
fn endpoint_named(g: &FrozenGraph, name: &str) -> Option<Ranked> {
    rank(g, &Query::new(name))
        .hits
        .into_iter()
        .take(SEARCH_DEPTH)
        .find(|r| call(g, r) == name)
}

/// The best endpoint for `kind` that takes a name instead and requires no value of the kind.
fn provider(g: &FrozenGraph, kind: &Kind) -> Option<Ranked> {
    rank(g, &Query::new(&kind.searched))
        .hits
        .into_iter()
        .take(SEARCH_DEPTH)
        .find(|r| {
            let e = endpoint(g, r);
            !required(e).any(|p| of_kind(p, kind))
                && required(e).any(|p| name_words(p).iter().any(|w| kind.takes.contains(w)))
        })
}

/// Whether the question writes a value a parameter of a kind could take: a decimal number
/// (`39.9`), or a pair of them as one token.
fn gives_value(q: &Query) -> bool {
    q.spans.iter().any(|s| {
        matches!(s.kind, SpanKind::Number | SpanKind::Id)
            && s.value.contains('.')
            && s.value.chars().any(|c| c.is_ascii_digit())
    })
}

/// The prerequisites of the first [`PREREQUISITE_DEPTH`] endpoints of `ranked` (see the
/// module docs), at most [`MOST_PREREQUISITES`], leaving out any the first `served` of
/// `ranked` hold already (or one of the same name). Each keeps what the whole question matched
/// of it where `ranked` holds it, else matches nothing of the question.
pub fn prerequisites(g: &FrozenGraph, q: &Query, ranked: &[Ranked], served: usize) -> Vec<Ranked> {
    let key = |r: &Ranked| (r.tool, r.endpoint);
    let given = gives_value(q);
    let mut found: Vec<Ranked> = Vec::new();
    for r in ranked.iter().take(PREREQUISITE_DEPTH) {
        let e = endpoint(g, r);
        let own = call(g, r);
        let named = referenced(e)
            .into_iter()
            .filter(|n| *n != own)
            .filter_map(|n| endpoint_named(g, n));
        let by_kind = kinds()
            .iter()
            .filter(|k| !given && required(e).any(|p| of_kind(p, k)))
            .filter_map(|k| provider(g, k));
        for p in named.chain(by_kind).collect::<Vec<_>>() {
            let held = ranked
                .iter()
                .take(served)
                .chain(found.iter())
                .any(|x| key(x) == key(&p) || call(g, x) == call(g, &p));
            if !held && found.len() < MOST_PREREQUISITES {
                found.push(
                    ranked
                        .iter()
                        .find(|x| key(x) == key(&p))
                        .copied()
                        .unwrap_or(Ranked {
                            matched: 0,
                            coverage: 0.0,
                            similarity: None,
                            ..p
                        }),
                );
            }
        }
    }
    found
}
