//! Algorithm 1, line 5: the order of the scored candidates, and for the candidates that were not
//! planned, the reason each lost (the first ranking criterion on which it falls behind the
//! last planned tool), reported as the plan's `alternatives`.

use super::algorithm::{EndpointMatches, Ranked};
use super::{Alternative, Plan};
use crate::artifact::FrozenGraph;
use std::cmp::{Ordering, Reverse};

/// At most this many alternatives are named in a plan (the best-ranked of those not planned).
pub const MAX_ALTERNATIVES: usize = 3;

/// A scored candidate: tool index, its best endpoint's scores, its per-endpoint matches.
pub(super) type Scored = (u32, Ranked, EndpointMatches);

/// The ranking criteria of one candidate, best first when sorted ascending.
type Key<'g> = (
    bool,
    Reverse<usize>,
    Reverse<u32>,
    Reverse<u32>,
    Reverse<u32>,
    Reverse<u32>,
    Reverse<i64>,
    u32,
    &'g str,
);

fn key<'g>(g: &'g FrozenGraph, s: &Scored) -> Key<'g> {
    let t = g.tool_at(s.0);
    (
        t.is_web,
        Reverse(s.1.ids),
        Reverse(s.1.qual_full),
        Reverse(s.1.score_nc),
        Reverse(s.1.qual),
        Reverse(s.1.score),
        Reverse(t.priority),
        t.total_fields,
        &t.id,
    )
}

/// Sort the candidates (non-web before web, more of the question's identifiers taken, more
/// requested qualifiers carried by a tool that answers every requested concept, higher
/// concept score without qualifier-contradicting fields, more requested qualifiers carried,
/// higher concept score, higher priority, fewer total fields, id) and split them into the
/// `k` planned and the rest.
pub(super) fn rank(
    g: &FrozenGraph,
    mut scored: Vec<Scored>,
    k: usize,
) -> (Vec<Scored>, Vec<Scored>) {
    scored.sort_by(|a, b| key(g, a).cmp(&key(g, b)));
    let lost = scored.split_off(k.max(1).min(scored.len()));
    (scored, lost)
}

/// Why `lost` ranks after `winner`: the first criterion of [`rank`] on which it falls behind.
fn lost_reason(g: &FrozenGraph, winner: &Scored, lost: &Scored) -> String {
    let (w, l) = (g.tool_at(winner.0), g.tool_at(lost.0));
    let (a, b) = (&winner.1, &lost.1);
    let by = &w.id;
    if l.is_web && !w.is_web {
        return "a web search ranks after the tools that hold the data".to_string();
    }
    if b.ids != a.ids {
        return format!(
            "takes {} of the question's identifiers, `{by}` takes {}",
            b.ids, a.ids
        );
    }
    if b.qual_full != a.qual_full {
        return format!(
            "its fields carry {} of the requested qualifiers, those of `{by}` carry {}",
            b.qual_full, a.qual_full
        );
    }
    if b.score_nc != a.score_nc {
        return format!(
            "its fields match the requested concepts less well (score {} against {} for `{by}`{})",
            b.score_nc,
            a.score_nc,
            if a.score_nc != a.score || b.score_nc != b.score {
                ", leaving out fields of another qualifier value"
            } else {
                ""
            }
        );
    }
    if b.qual != a.qual {
        return format!(
            "its fields carry {} of the requested qualifiers, those of `{by}` carry {}",
            b.qual, a.qual
        );
    }
    if b.score != a.score {
        return format!(
            "its fields match the requested concepts less well (score {} against {} for `{by}`)",
            b.score, a.score
        );
    }
    if l.priority != w.priority {
        return format!(
            "same match as `{by}`, lower declared priority ({} against {})",
            l.priority, w.priority
        );
    }
    let tie = "; set `priority` on the tool you prefer";
    if l.total_fields != w.total_fields {
        return format!(
            "same match and priority as `{by}`; tie broken by size: {} fields against {}{tie}",
            l.total_fields, w.total_fields
        );
    }
    match l.id.cmp(&w.id) {
        Ordering::Equal => "ranked after the planned tools".to_string(),
        _ => format!("same match, priority and size as `{by}`; tie broken by id order{tie}"),
    }
}

/// Name the candidates that were not planned, best first and at most [`MAX_ALTERNATIVES`]: the
/// scored ones that ranked after the last planned tool (those that answer some requested concept when the plan does), then intent candidates the source filter
/// or the destructive-endpoint rule removed (`dropped`, with their reasons).
pub(super) fn alternatives(
    g: &FrozenGraph,
    planned: &[Scored],
    lost: &[Scored],
    dropped: &[(u32, String)],
    plan: &mut Plan,
) {
    let Some(winner) = planned.last() else {
        return;
    };
    for s in lost {
        // A candidate that answers none of the requested concepts is no alternative to one
        // that answers some.
        if s.1.score == 0 && winner.1.score > 0 {
            continue;
        }
        let e = g.tool_at(s.0).endpoint_at(s.1.endpoint);
        plan.alternatives.push(Alternative {
            tool: g.tool_at(s.0).id.clone(),
            endpoint: Some(e.id.clone()),
            score: s.1.score,
            reason: lost_reason(g, winner, s),
        });
    }
    for (t, reason) in dropped {
        plan.alternatives.push(Alternative {
            tool: g.tool_at(*t).id.clone(),
            endpoint: None,
            score: 0,
            reason: reason.clone(),
        });
    }
    plan.alternatives.truncate(MAX_ALTERNATIVES);
}
