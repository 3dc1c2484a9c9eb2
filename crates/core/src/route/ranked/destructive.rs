//! A request to destroy data ("cancel my booking abc-123", "delete the tag") whose best-ranked
//! endpoint may destroy data and is never planned (not declared `allow_destructive`) gets no
//! plan, with a reason that names that endpoint and how to allow it, rather than a plan on the
//! next endpoint of the resource, which writes something else (a `PUT` that overwrites the
//! booking is no cancellation).

use crate::artifact::FrozenGraph;
use crate::search::Ranking;

/// The refusal when the request acts and the endpoint ranked first for it (of tool index
/// `tool` when given: a tool the request names) may destroy data and is not plannable; `None`
/// otherwise (a question that reads, or a plannable first endpoint).
pub(super) fn refusal(
    g: &FrozenGraph,
    ranking: &Ranking,
    acting: bool,
    tool: Option<u32>,
) -> Option<String> {
    if !acting {
        return None;
    }
    let first = ranking
        .hits
        .iter()
        .find(|h| tool.is_none_or(|t| h.tool == t))?;
    let t = g.tool_at(first.tool);
    let e = t.endpoint_at(first.endpoint);
    e.destructive.then(|| {
        format!(
            "the endpoint that does what the request asks, `{}/{}` ({} {}), may destroy data and is never planned; to plan it, declare `allow_destructive: true` on it (and, for the gateway, allow it in the configuration's `allow_destructive`)",
            t.id, e.id, e.method, e.url
        )
    })
}
