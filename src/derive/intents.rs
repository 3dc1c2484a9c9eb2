//! Field groups and intents: endpoints that do the same thing to the same resource (action and
//! resource, see [`super::endpoints`]), across tools, make one intent and one field group of the
//! same id (`get_stock_price`, `list_issues`, `search_web`). The group holds every field of
//! those endpoints, its core concepts are those of the record's own top-level fields; the
//! intent targets the tools' domains, requires the group, says in one line what it does and
//! takes the catalog's own summaries as examples.
//!
//! Endpoints without response fields make no intent (no group could hold them).

use super::endpoints::{Action, EndpointInfo};
use super::terms::plural;
use crate::model::Tool;
use std::collections::{BTreeMap, BTreeSet};

/// Most core concepts a derived group declares.
const MAX_CORE: usize = 6;
/// Most examples a derived intent lists.
const MAX_EXAMPLES: usize = 8;
/// Most words of an intent's one-line description taken from a summary.
const MAX_DESCRIPTION_WORDS: usize = 14;

/// An endpoint: tool and endpoint index.
pub type EndpointRef = (usize, usize);

/// One cluster of endpoints: an intent and its group.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// The intent and group id.
    pub id: String,
    /// The action.
    pub action: Action,
    /// The resource words.
    pub resource: Vec<String>,
    /// Its endpoints, sorted.
    pub endpoints: Vec<EndpointRef>,
}

/// The id of the intent for an action on a resource: the verb and the resource in snake case,
/// the resource plural for a list (`list_issues`).
pub fn intent_id(action: &Action, resource: &[String]) -> String {
    let mut words: Vec<String> = resource.to_vec();
    if *action == Action::List
        && let Some(last) = words.last_mut()
    {
        *last = plural(last);
    }
    let mut id = action.verb().to_string();
    for w in words {
        id.push('_');
        id.push_str(&w);
    }
    id
}

/// Cluster the endpoints that have response fields by action and resource. `order` lists tool
/// indices in id order, so the result does not depend on file order.
pub fn clusters(tools: &[Tool], infos: &[Vec<EndpointInfo>], order: &[usize]) -> Vec<Cluster> {
    let mut by_key: BTreeMap<String, Cluster> = BTreeMap::new();
    for &ti in order {
        let t = &tools[ti];
        for (ei, e) in t.endpoints.iter().enumerate() {
            if e.value.fields.is_empty() {
                continue;
            }
            let info = &infos[ti][ei];
            let resource = if info.resource.is_empty() {
                super::terms::key_words(&t.id.value)
            } else {
                info.resource.clone()
            };
            if resource.is_empty() {
                continue;
            }
            let id = intent_id(&info.action, &resource);
            by_key
                .entry(id.clone())
                .or_insert_with(|| Cluster {
                    id,
                    action: info.action.clone(),
                    resource,
                    endpoints: Vec::new(),
                })
                .endpoints
                .push((ti, ei));
        }
    }
    let mut out: Vec<Cluster> = by_key.into_values().collect();
    for c in &mut out {
        c.endpoints.sort_unstable();
    }
    out
}

/// Most intents a derivation writes: past it, intents are merged level by level so that the
/// intent-registry prompt stays a list an LLM can choose from (fine clusters, then one intent per
/// action and head noun, then, for what only one tool serves, one per tool and action, then one
/// per tool). Field groups stay fine, so an intent requires the groups of its members.
pub const MAX_INTENTS: usize = 150;

/// An intent: its id, one-line description and the fine clusters it covers.
#[derive(Clone, Debug)]
pub struct Planned {
    /// The intent id.
    pub id: String,
    /// One line for the prompt.
    pub description: String,
    /// Indices into the fine clusters.
    pub members: Vec<usize>,
}

/// The words of a resource for a description (`stock price`).
fn phrase(words: &[String]) -> String {
    words.join(" ")
}

/// Capitalised first letter.
fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `a, b, c, …` from at most `max` items.
fn listed(items: &[String], max: usize) -> String {
    let mut out = items[..items.len().min(max)].join(", ");
    if items.len() > max {
        out.push_str(", …");
    }
    out
}

/// The intents over the fine clusters, merged level by level until at most `max` remain.
/// `tool_of` gives each fine cluster's tools; `titles` each tool's title; `summaries` each fine
/// cluster's endpoint summaries.
pub fn plan(
    clusters: &[Cluster],
    tool_of: &[BTreeSet<usize>],
    tool_ids: &[String],
    summaries: &[Vec<Option<String>>],
    max: usize,
) -> Vec<Planned> {
    let fine: Vec<Planned> = clusters
        .iter()
        .enumerate()
        .map(|(i, c)| Planned {
            id: c.id.clone(),
            description: description(c, &summaries[i], tool_of[i].len()),
            members: vec![i],
        })
        .collect();
    if fine.len() <= max {
        return fine;
    }
    // Level 2: one intent per action and head noun (`create_chart` for bar, pie, ... charts).
    let mut by_head: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for (i, c) in clusters.iter().enumerate() {
        let head = c.resource.last().cloned().unwrap_or_default();
        by_head
            .entry((c.action.verb().to_string(), head))
            .or_default()
            .push(i);
    }
    let level2: Vec<Planned> = by_head
        .into_iter()
        .map(|((verb, head), members)| {
            if members.len() == 1 {
                return fine[members[0]].clone();
            }
            let c0 = &clusters[members[0]];
            let id = intent_id(&c0.action, std::slice::from_ref(&head));
            let variants: Vec<String> = members
                .iter()
                .map(|m| {
                    let r = &clusters[*m].resource;
                    phrase(&r[..r.len() - 1])
                })
                .filter(|v| !v.is_empty())
                .collect();
            let tools: BTreeSet<usize> = members
                .iter()
                .flat_map(|m| tool_of[*m].iter().copied())
                .collect();
            let mut d = format!("{} {}", capital(&verb), plural(&head));
            if !variants.is_empty() {
                d.push_str(&format!(": {}", listed(&variants, 6)));
            }
            if tools.len() > 1 {
                d.push_str(&format!(" ({} tools)", tools.len()));
            }
            Planned {
                id,
                description: d,
                members,
            }
        })
        .collect();
    if level2.len() <= max {
        return level2;
    }
    // Levels 3 and 4: what one tool alone serves, merged per tool and action, then per tool.
    for per_action in [true, false] {
        let mut out: Vec<Planned> = Vec::new();
        let mut by_tool: BTreeMap<(usize, String), Vec<usize>> = BTreeMap::new();
        for (pi, p) in level2.iter().enumerate() {
            let tools: BTreeSet<usize> = p
                .members
                .iter()
                .flat_map(|m| tool_of[*m].iter().copied())
                .collect();
            match tools.iter().next() {
                Some(t) if tools.len() == 1 => {
                    let verb = if per_action {
                        clusters[p.members[0]].action.verb().to_string()
                    } else {
                        String::new()
                    };
                    by_tool.entry((*t, verb)).or_default().push(pi);
                }
                _ => out.push(p.clone()),
            }
        }
        for ((t, verb), ps) in by_tool {
            if ps.len() == 1 {
                out.push(level2[ps[0]].clone());
                continue;
            }
            let members: Vec<usize> = ps.iter().flat_map(|p| level2[*p].members.clone()).collect();
            let things: Vec<String> = members
                .iter()
                .map(|m| {
                    let c = &clusters[*m];
                    if per_action {
                        phrase(&c.resource)
                    } else {
                        format!("{} {}", c.action.verb(), phrase(&c.resource))
                    }
                })
                .collect();
            let id = if per_action {
                format!("{}_{verb}", tool_ids[t])
            } else {
                tool_ids[t].clone()
            };
            let d = if per_action {
                capital(&format!("{verb} {}", listed(&things, 8)))
            } else {
                capital(&listed(&things, 6))
            };
            out.push(Planned {
                id,
                description: d,
                members,
            });
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        if out.len() <= max || !per_action {
            return out;
        }
    }
    level2
}

/// A sentence cut to `max` words (with `…` when cut), first letter upper case, no final stop.
pub fn cut(s: &str, max: usize) -> String {
    let words: Vec<&str> = s.split_whitespace().collect();
    let mut out = words[..words.len().min(max)].join(" ");
    if words.len() > max {
        out = out
            .trim_end_matches(|c: char| !c.is_alphanumeric())
            .to_string();
        out.push('…');
    }
    let mut c = out.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect::<String>(),
        None => out,
    }
    .trim_end_matches('.')
    .to_string()
}

/// The one-line description of a cluster: the shortest summary of its endpoints (cut), else the
/// action and resource in words; with the number of tools when several serve it.
pub fn description(c: &Cluster, summaries: &[Option<String>], tools: usize) -> String {
    let best = summaries
        .iter()
        .flatten()
        .filter(|s| !s.trim().is_empty())
        .min_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    let mut d = match best {
        Some(s) => cut(s, MAX_DESCRIPTION_WORDS),
        None => cut(
            &format!("{} {}", c.action.verb(), c.resource.join(" ")),
            MAX_DESCRIPTION_WORDS,
        ),
    };
    if tools > 1 {
        d.push_str(&format!(" ({tools} tools)"));
    }
    d
}

/// The examples of a cluster: its endpoints' distinct summaries, in endpoint order.
pub fn examples(summaries: &[Option<String>]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    summaries
        .iter()
        .flatten()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty() && seen.insert(s.to_lowercase()))
        .take(MAX_EXAMPLES)
        .collect()
}

/// Field names that say what a record is called or says (naming conventions of APIs, not a
/// domain's words): a group's core starts with them.
const LABEL_NAMES: &[&str] = &[
    "description",
    "display_name",
    "full_name",
    "headline",
    "label",
    "name",
    "summary",
    "text",
    "title",
    "value",
];

/// Field-name words of links, type tags and bookkeeping, which say little about the record.
const PLUMBING_WORDS: &[&str] = &[
    "etag", "href", "kind", "link", "links", "object", "type", "uri", "url",
];

/// Field-name words of a response's wrapper: whether the call succeeded, its error, paging
/// (`page`, `per_page`, `next`, `has_more`, `cursor`), metadata (naming conventions of APIs).
/// A field whose name is made of them only says nothing about the records.
const WRAPPER_WORDS: &[&str] = &[
    "cursor",
    "error",
    "has",
    "limit",
    "meta",
    "metadata",
    "more",
    "next",
    "offset",
    "ok",
    "page",
    "pagination",
    "paging",
    "per",
    "prev",
    "previous",
    "success",
];

/// Whether a field is part of a response's wrapper, not of its records: its name is made of
/// [`WRAPPER_WORDS`] (`success`, `error`, `per_page`, `has_more`), or it echoes the request
/// (`requestedSymbol`, `requested_currency`).
fn is_wrapper(f: &crate::model::ResponseField) -> bool {
    let leaf = f
        .name
        .value
        .rsplit(['.', '[', ']'])
        .find(|s| !s.is_empty())
        .unwrap_or(&f.name.value);
    let words = super::terms::words(leaf);
    let wrapper = |w: &String| {
        WRAPPER_WORDS.contains(&w.as_str())
            || WRAPPER_WORDS.contains(&super::terms::singular(w).as_str())
    };
    !words.is_empty() && (words.iter().all(wrapper) || words[0] == "requested")
}

/// How much a field says about its record, for the core: a label (`name`, `title`) most, then a
/// field named after the cluster's resource (`price` in a stock-price group), then any other
/// scalar; links, type tags and containers least.
fn core_score(f: &crate::model::ResponseField, resource: &[String]) -> i32 {
    let leaf = f
        .name
        .value
        .rsplit(['.', '[', ']'])
        .find(|s| !s.is_empty())
        .unwrap_or(&f.name.value)
        .to_lowercase();
    let words: Vec<String> = super::terms::key_words(&leaf);
    let mut score = 0;
    if LABEL_NAMES.contains(&leaf.as_str()) {
        score += 3;
    }
    if words.iter().any(|w| resource.contains(w)) {
        score += 2;
    }
    if words.iter().any(|w| PLUMBING_WORDS.contains(&w.as_str())) {
        score -= 2;
    }
    if matches!(
        f.ty.value.to_string().as_str(),
        "object" | "any" | "array" | "object[]"
    ) {
        score -= 2;
    }
    score
}

/// Where an endpoint without a records path keeps its records: the list (`data[].`) that more
/// than half of its fields sit in, when there is one (a response `{city_name, data: [...]}`
/// whose envelope the importer could not tell from records).
fn main_list(fields: &[crate::model::Sp<crate::model::ResponseField>]) -> Option<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for f in fields {
        if let Some(i) = f.value.name.value.find("[].") {
            *counts.entry(&f.value.name.value[..i + 3]).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .find(|(_, n)| n * 2 > fields.len())
        .map(|(p, _)| p.to_string())
}

/// The core concepts of a group: the first concept of its endpoints' record-level (top-level,
/// or directly in the list most fields sit in), non-identifier fields, best first by
/// `core_score`, then most common, then schema order (at most six); any field's when none is
/// record-level. A response's wrapper (`success`, `error`, paging, the request
/// echoed) is never core.
pub fn core(tools: &[Tool], c: &Cluster) -> Vec<String> {
    // concept -> (best score, count, first position)
    let mut seen: BTreeMap<String, (i32, usize, usize)> = BTreeMap::new();
    let mut order = 0;
    for pass in 0..2 {
        for &(ti, ei) in &c.endpoints {
            let e = &tools[ti].endpoints[ei].value;
            let list = if e.records.is_some() {
                None
            } else {
                main_list(&e.fields)
            };
            for f in &e.fields {
                let f = &f.value;
                // With a main list, only its records' own fields are record-level (the envelope's
                // `limit`, `next` are not).
                let name = match list.as_deref() {
                    Some(l) => f.name.value.strip_prefix(l),
                    None => Some(f.name.value.as_str()),
                };
                let top = name.is_some_and(|n| !n.contains('.') && !n.contains('['));
                if (pass == 0 && (!top || f.is_identifier())) || is_wrapper(f) {
                    continue;
                }
                if let Some(k) = f.concepts.first() {
                    let score = core_score(f, &c.resource);
                    let e = seen.entry(k.value.clone()).or_insert((score, 0, order));
                    e.0 = e.0.max(score);
                    e.1 += 1;
                    order += 1;
                }
            }
        }
        if !seen.is_empty() {
            break;
        }
    }
    let mut v: Vec<(String, (i32, usize, usize))> = seen.into_iter().collect();
    v.sort_by(|a, b| {
        b.1.0
            .cmp(&a.1.0)
            .then(b.1.1.cmp(&a.1.1))
            .then(a.1.2.cmp(&b.1.2))
    });
    v.into_iter().take(MAX_CORE).map(|(k, _)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intent_ids_and_descriptions() {
        assert_eq!(
            intent_id(&Action::List, &["issue".into(), "comment".into()]),
            "list_issue_comments"
        );
        assert_eq!(
            intent_id(&Action::Read, &["stock".into(), "price".into()]),
            "get_stock_price"
        );
        assert_eq!(
            intent_id(&Action::Other("convert".into()), &["currency".into()]),
            "convert_currency"
        );
        let c = Cluster {
            id: "get_stock_price".into(),
            action: Action::Read,
            resource: vec!["stock".into(), "price".into()],
            endpoints: vec![(0, 0), (1, 0)],
        };
        let s = vec![
            Some("Get the stock price for a given stock symbol on a specific date".to_string()),
            Some("Get the current stock price based on stock symbol".to_string()),
        ];
        assert_eq!(
            description(&c, &s, 2),
            "Get the current stock price based on stock symbol (2 tools)"
        );
        assert_eq!(description(&c, &[None], 1), "Get stock price");
        assert_eq!(
            cut(
                "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen.",
                14
            ),
            "One two three four five six seven eight nine ten eleven twelve thirteen fourteen…"
        );
        assert_eq!(examples(&s).len(), 2);
    }

    #[test]
    fn a_responses_wrapper_is_told_from_its_records() {
        let field =
            |name: &str| crate::model::ResponseField::new(name, crate::model::ValueType::String);
        for w in [
            "success",
            "error",
            "errors",
            "per_page",
            "page",
            "has_more",
            "next",
            "meta",
            "requestedSymbol",
            "requested_unit_of_measure",
            "paging.next",
        ] {
            assert!(is_wrapper(&field(w)), "{w}");
        }
        for r in [
            "status",
            "name",
            "data.value",
            "next_episode",
            "page_count",
            "total",
            "size",
        ] {
            assert!(!is_wrapper(&field(r)), "{r}");
        }
    }
}
