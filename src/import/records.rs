//! Where an imported endpoint's records sit: the records path inferred from its response
//! fields, for OpenAPI responses and MCP `outputSchema`s alike.
//!
//! A list endpoint rarely answers with a bare array. It wraps the records in an envelope next to
//! paging and status metadata: `{data: [...], total, next}` (many APIs), `{value: [...],
//! nextLink}` (Azure), `{kind, items: [...], nextPageToken}` (Google), `{total_count,
//! repositories: [...]}` (GitHub), `{hits: {total, hits: [...]}}` (Elasticsearch),
//! `{result: {uids, <id>: {...}}}` (a map keyed by id, PubMed). The records path says where the
//! records are (`data[]`, `hits.hits[]`, `result.{}`); field names are then paths inside one
//! record, and envelope fields (`total`, `meta.count`) stay paths from the root, which is how
//! `extract` reads them (a field is looked up in each record first, then at the root).
//!
//! The record list must be clear, else no records path is inferred and the fields keep their
//! full paths (`data[].id`), which read the same values:
//!
//! - at one level of the response, exactly one property is an array of objects (its fields
//!   are `key[].…`) or a map keyed by id whose values are objects, not counting side lists
//!   named like metadata (`errors`, `warnings`, `links`, `included`, `facets`, ...); and
//! - every other property of that level is metadata by name: one of its words (split on case,
//!   `_` and `-`) is a paging, count, status or link word ([`METADATA_WORDS`]: `total`,
//!   `count`, `page`, `next`, `cursor`, `token`, `limit`, `offset`, `kind`, `etag`, `status`,
//!   `message`, `links`, `meta`, `url`, ...). A record (`{id, name, tags: [...]}`) has
//!   properties that are not, so its lists are never taken for records;
//! - the level is the root, or an object property that is the only non-metadata property of
//!   the level above (`result.items[]`, at most [`MAX_ENVELOPE_DEPTH`] levels down);
//! - no record field would then have the name (or the folded name, as SR113 compares them) of
//!   an envelope field.
//!
//! One more signal makes a list clear when the names around it are not metadata: the list is
//! named as the resource the endpoint lists (the path's last literal segment,
//! `/budgets/{id}/transactions`, or the last word of an MCP tool's name, `list_transactions`).
//! `{data: {transactions: [...], server_knowledge: 7}}` holds the records at
//! `data.transactions[]`, though `server_knowledge` is no paging word; a one-record response is
//! never taken for a list this way, as its path ends in the record's id (`/users/{id}`).

use crate::model::{ResponseField, Sp};

/// Deepest object level at which a record list is looked for (`a.b.items[]`).
pub const MAX_ENVELOPE_DEPTH: usize = 3;

/// Words that make a property envelope metadata (paging, counts, status, links, request
/// echo): a property whose name has one of them (`nextPageToken`, `total_count`, `_links`,
/// `pageDetails`) is not record data.
pub const METADATA_WORDS: &[&str] = &[
    "aggregation",
    "aggregations",
    "aggs",
    "api",
    "attribution",
    "cached",
    "code",
    "context",
    "continuation",
    "copyright",
    "correlation",
    "count",
    "counts",
    "cursor",
    "cursors",
    "debug",
    "disclaimer",
    "documentation",
    "elapsed",
    "elements",
    "empty",
    "end",
    "error",
    "errors",
    "estimated",
    "etag",
    "facet",
    "facets",
    "filter",
    "filters",
    "first",
    "found",
    "generated",
    "has",
    "header",
    "headers",
    "href",
    "included",
    "incomplete",
    "input",
    "kind",
    "last",
    "licence",
    "license",
    "limit",
    "limits",
    "link",
    "links",
    "marker",
    "matched",
    "max",
    "message",
    "meta",
    "metadata",
    "more",
    "next",
    "notice",
    "notices",
    "number",
    "object",
    "odata",
    "offset",
    "ok",
    "page",
    "pageable",
    "pages",
    "paginated",
    "pagination",
    "paging",
    "parameters",
    "params",
    "per",
    "prev",
    "previous",
    "problems",
    "query",
    "quota",
    "rate",
    "remaining",
    "request",
    "returned",
    "score",
    "search",
    "self",
    "shards",
    "size",
    "skip",
    "sort",
    "sorted",
    "spell",
    "spelling",
    "start",
    "status",
    "success",
    "successful",
    "suggest",
    "suggested",
    "suggestion",
    "suggestions",
    "time",
    "timed",
    "timestamp",
    "token",
    "took",
    "top",
    "total",
    "totals",
    "trace",
    "truncated",
    "type",
    "unreachable",
    "updated",
    "uri",
    "url",
    "version",
    "warning",
    "warnings",
];

/// Words of lists that go beside the records rather than hold them (`errors`, `included`).
pub const SIDE_LIST_WORDS: &[&str] = &[
    "aggregation",
    "aggregations",
    "debug",
    "error",
    "errors",
    "facet",
    "facets",
    "included",
    "link",
    "links",
    "notice",
    "notices",
    "problems",
    "suggestion",
    "suggestions",
    "warning",
    "warnings",
];

/// A records path found in a response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Records {
    /// An array of records (`data[]`, `result.items[]`).
    List(String),
    /// A map keyed by id whose values are the records, at this field path (`result`; the
    /// records path is `result.{}`).
    Map(String),
}

/// The records path of a response whose fields (full paths from the root) are `fields`;
/// `maps` are the paths of fields that are maps keyed by id with object values (candidates for
/// `{}` records); `resource` is the name of what the endpoint lists, when it names one
/// ([`resource_of_path`], [`resource_of_tool`]). `None` when the response is one record, or
/// the record list is not clear.
pub fn infer(
    fields: &[Sp<ResponseField>],
    maps: &[&str],
    resource: Option<&str>,
) -> Option<Records> {
    let names: Vec<&str> = fields.iter().map(|f| f.value.name.value.as_str()).collect();
    let found = level(&names, maps, "", 0, resource)?;
    if let Records::List(path) = &found {
        let head = format!("{path}.");
        let (inside, envelope): (Vec<&str>, Vec<&str>) =
            names.iter().partition(|n| n.starts_with(&head));
        let inside: Vec<&str> = inside.iter().map(|n| &n[head.len()..]).collect();
        if clashes(path, &inside, &envelope) {
            return None;
        }
    }
    Some(found)
}

/// Whether fields named inside one record (`inside`, relative to the records path `records`)
/// could not stand beside the envelope's (`envelope`, from the root): a record field named as
/// an envelope field (compared as `check` compares field names, SR113: `[]` dropped, case and
/// separators aside), or one that starts with the records path itself (`Objects[]` inside the
/// records of `Objects[]`), which reads as repeating it (SR109).
pub fn clashes(records: &str, inside: &[&str], envelope: &[&str]) -> bool {
    let fold = |n: &str| crate::model::normalise_id(&n.replace("[]", ""));
    let envelope: std::collections::BTreeSet<String> = envelope.iter().map(|n| fold(n)).collect();
    let head = format!("{records}.");
    inside
        .iter()
        .any(|n| n.starts_with(&head) || envelope.contains(&fold(n)))
}

/// What one property of a level is, by the fields under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// An array of objects (`key[].x` fields).
    List,
    /// A map keyed by id with object values (one `object` field, a map candidate).
    Map,
    /// An object (`key.x` fields).
    Object,
    /// One field (a scalar, an array of scalars, an object not expanded).
    Leaf,
}

/// The record list at the level of fields under `prefix` (`""` or `result.`), or, when that
/// level has none, in its one non-metadata object property.
fn level(
    names: &[&str],
    maps: &[&str],
    prefix: &str,
    depth: usize,
    resource: Option<&str>,
) -> Option<Records> {
    if depth > MAX_ENVELOPE_DEPTH {
        return None;
    }
    // The properties of this level, in order, with their shape.
    let mut props: Vec<(&str, Shape)> = Vec::new();
    for n in names {
        let Some(rest) = n.strip_prefix(prefix) else {
            continue;
        };
        let (seg, deeper) = match rest.split_once('.') {
            Some((seg, _)) => (seg, true),
            None => (rest, false),
        };
        let shape = match (seg.strip_suffix("[]"), deeper) {
            // `key[][]`: a list of lists is no record list.
            (Some(k), true) if !k.ends_with("[]") => Shape::List,
            (None, true) => Shape::Object,
            (None, false) if maps.contains(&format!("{prefix}{seg}").as_str()) => Shape::Map,
            _ => Shape::Leaf,
        };
        let key = seg.trim_end_matches("[]");
        match props.iter_mut().find(|(k, _)| *k == key) {
            // A key met as a leaf and as a path (reported by the walk) is no record list.
            Some(p) if p.1 != shape => p.1 = Shape::Leaf,
            Some(_) => {}
            None => props.push((key, shape)),
        }
    }
    let holders: Vec<&(&str, Shape)> = props
        .iter()
        .filter(|(_, s)| matches!(s, Shape::List | Shape::Map))
        .collect();
    let main: Vec<&&(&str, Shape)> = holders.iter().filter(|(k, _)| !side_list(k)).collect();
    // The one list named as the resource the endpoint lists, whatever stands beside it.
    let named: Vec<&&(&str, Shape)> = main
        .iter()
        .filter(|(k, _)| resource.is_some_and(|r| same_resource(k, r)))
        .copied()
        .collect();
    let chosen = match (named.as_slice(), main.as_slice(), holders.as_slice()) {
        ([one], _, _) => Some((**one, true)),
        (_, [one], _) => Some((**one, false)),
        (_, [], [one]) => Some((*one, false)),
        _ => None,
    };
    if let Some((&(key, shape), by_name)) = chosen {
        if !by_name && !props.iter().all(|(k, _)| *k == key || metadata(k)) {
            return None;
        }
        return Some(match shape {
            Shape::Map => Records::Map(format!("{prefix}{key}")),
            _ => Records::List(format!("{prefix}{key}[]")),
        });
    }
    if !holders.is_empty() {
        return None;
    }
    // No list here: the records may sit in the one object that is not metadata.
    let objects: Vec<&str> = props
        .iter()
        .filter(|(k, s)| *s == Shape::Object && !metadata(k))
        .map(|(k, _)| *k)
        .collect();
    let [inner] = objects.as_slice() else {
        return None;
    };
    if !props.iter().all(|(k, _)| k == inner || metadata(k)) {
        return None;
    }
    level(
        names,
        maps,
        &format!("{prefix}{inner}."),
        depth + 1,
        resource,
    )
}

/// The resource an OpenAPI path lists: its last segment when that is a literal
/// (`/budgets/{budget_id}/transactions` → `transactions`); `None` when the path ends in a
/// parameter (`/users/{id}`: one record) or is the root.
pub fn resource_of_path(path: &str) -> Option<&str> {
    let last = path.trim_end_matches('/').rsplit('/').next()?;
    (!last.is_empty() && !last.contains('{')).then_some(last)
}

/// The resource an MCP tool lists: the last word of its name (`list_transactions`,
/// `get-weread-rank` → `rank`); `None` for a one-word name (the word is the action or the
/// tool itself).
pub fn resource_of_tool(name: &str) -> Option<&str> {
    let cut = name.rfind(['_', '-', '.'])?;
    let last = &name[cut + 1..];
    (!last.is_empty()).then_some(last)
}

/// Whether a list's name and a resource name are one word, case, separators and a plural
/// `s` / `es` aside (`payee_locations` and `payeeLocations`; `transaction` and
/// `transactions`).
fn same_resource(key: &str, resource: &str) -> bool {
    fn fold(s: &str) -> String {
        crate::model::normalise_id(s).replace('_', "")
    }
    /// Whether `plural` is a plural of `one` (`s`, `es`, `y` → `ies`).
    fn plural_of(plural: &str, one: &str) -> bool {
        plural
            .strip_prefix(one)
            .is_some_and(|end| end == "s" || end == "es")
            || one
                .strip_suffix('y')
                .is_some_and(|stem| plural.strip_prefix(stem).is_some_and(|end| end == "ies"))
    }
    let (k, r) = (fold(key), fold(resource));
    !k.is_empty() && (k == r || plural_of(&k, &r) || plural_of(&r, &k))
}

/// The lower-case words of a property name (`nextPageToken` → next, page, token; `_links` →
/// links).
fn words(name: &str) -> Vec<String> {
    super::snake(name)
        .split('_')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether a property is envelope metadata by name ([`METADATA_WORDS`]).
fn metadata(name: &str) -> bool {
    words(name)
        .iter()
        .any(|w| METADATA_WORDS.binary_search(&w.as_str()).is_ok())
}

/// Whether a list property goes beside the records ([`SIDE_LIST_WORDS`]).
fn side_list(name: &str) -> bool {
    words(name)
        .iter()
        .any(|w| SIDE_LIST_WORDS.binary_search(&w.as_str()).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ValueType;

    fn fields(names: &[&str]) -> Vec<Sp<ResponseField>> {
        names
            .iter()
            .map(|n| Sp::synthetic(ResponseField::new(*n, ValueType::String)))
            .collect()
    }

    fn list(p: &str) -> Option<Records> {
        Some(Records::List(p.to_string()))
    }

    #[test]
    fn word_tables_are_sorted() {
        for t in [METADATA_WORDS, SIDE_LIST_WORDS] {
            let mut s = t.to_vec();
            s.sort_unstable();
            s.dedup();
            assert_eq!(s, t);
        }
        for w in SIDE_LIST_WORDS {
            assert!(METADATA_WORDS.contains(w), "{w}");
        }
    }

    #[test]
    fn envelopes_with_one_record_list() {
        let f = fields(&["data[].id", "data[].name", "total", "page", "next"]);
        assert_eq!(infer(&f, &[], None), list("data[]"));
        // Azure, Google, GitHub.
        let f = fields(&["value[].id", "value[].properties.state", "nextLink"]);
        assert_eq!(infer(&f, &[], None), list("value[]"));
        let f = fields(&[
            "kind",
            "etag",
            "items[].id",
            "nextPageToken",
            "pageInfo.totalResults",
        ]);
        assert_eq!(infer(&f, &[], None), list("items[]"));
        let f = fields(&["total_count", "incomplete_results", "items[].full_name"]);
        assert_eq!(infer(&f, &[], None), list("items[]"));
        // A search envelope's spelling suggestion beside the count and the results.
        let f = fields(&["ResultCount", "Results[].Title", "SpellSuggest"]);
        assert_eq!(infer(&f, &[], None), list("Results[]"));
        let f = fields(&["hits[].name", "suggestions[].text", "spelling_correction"]);
        assert_eq!(infer(&f, &[], None), list("hits[]"));
        // Only the list.
        let f = fields(&["repositories[].id"]);
        assert_eq!(infer(&f, &[], None), list("repositories[]"));
        // Side lists beside the records.
        let f = fields(&[
            "data[].id",
            "included[].id",
            "errors[].detail",
            "links.next",
        ]);
        assert_eq!(infer(&f, &[], None), list("data[]"));
        // A list of errors alone is the list.
        let f = fields(&["errors[].code", "status"]);
        assert_eq!(infer(&f, &[], None), list("errors[]"));
    }

    #[test]
    fn nested_envelopes_and_maps() {
        let f = fields(&["status", "result.items[].id", "result.count"]);
        assert_eq!(infer(&f, &[], None), list("result.items[]"));
        let f = fields(&[
            "took",
            "timed_out",
            "_shards.total",
            "hits.total",
            "hits.max_score",
            "hits.hits[]._id",
        ]);
        assert_eq!(infer(&f, &[], None), list("hits.hits[]"));
        let f = fields(&["header.type", "result", "result_count"]);
        assert_eq!(
            infer(&f, &["result"], None),
            Some(Records::Map("result".into()))
        );
        let f = fields(&["result.count", "result.entries"]);
        assert_eq!(
            infer(&f, &["result.entries"], None),
            Some(Records::Map("result.entries".into()))
        );
    }

    #[test]
    fn records_are_not_envelopes() {
        // A record with a list of objects: its other properties are record data.
        let f = fields(&["id", "name", "tags[].id", "tags[].name"]);
        assert_eq!(infer(&f, &[], None), None);
        let f = fields(&["id", "items[].sku", "total"]);
        assert_eq!(infer(&f, &[], None), None);
        // Two record lists: not clear.
        let f = fields(&["users[].id", "groups[].id", "total"]);
        assert_eq!(infer(&f, &[], None), None);
        // One record, no list.
        let f = fields(&["id", "name", "meta.created"]);
        assert_eq!(infer(&f, &[], None), None);
        // A list of lists, and a list of scalars.
        let f = fields(&["rows[][].a", "total"]);
        assert_eq!(infer(&f, &[], None), None);
        let f = fields(&["ids", "total"]);
        assert_eq!(infer(&f, &[], None), None);
    }

    #[test]
    fn a_list_named_as_the_listed_resource_holds_the_records() {
        // A sibling that is no paging word (YNAB's `server_knowledge`).
        let f = fields(&[
            "data.transactions[].id",
            "data.transactions[].amount",
            "data.server_knowledge",
        ]);
        let at = |r| infer(&f, &[], Some(r));
        assert_eq!(at("transactions"), list("data.transactions[]"));
        assert_eq!(at("transaction"), list("data.transactions[]"));
        assert_eq!(infer(&f, &[], None), None);
        assert_eq!(at("budgets"), None);
        // An object beside the list, and case and separators aside.
        let f = fields(&["data.budgets[].name", "data.default_budget.name"]);
        assert_eq!(infer(&f, &[], Some("budgets")), list("data.budgets[]"));
        let f = fields(&["payeeLocations[].latitude", "owner"]);
        assert_eq!(
            infer(&f, &[], Some("payee_locations")),
            list("payeeLocations[]")
        );
        // `-ies` and `-es` plurals.
        let f = fields(&["categories[].name", "owner"]);
        assert_eq!(infer(&f, &[], Some("category")), list("categories[]"));
        let f = fields(&["addresses[].city", "owner"]);
        assert_eq!(infer(&f, &[], Some("address")), list("addresses[]"));
        // The name picks one of two lists.
        let f = fields(&["users[].id", "groups[].id", "total"]);
        assert_eq!(infer(&f, &[], Some("groups")), list("groups[]"));
        // A record whose list is not the resource stays one record.
        let f = fields(&["id", "name", "tags[].id"]);
        assert_eq!(infer(&f, &[], Some("users")), None);
    }

    #[test]
    fn the_resource_a_path_or_tool_lists() {
        assert_eq!(
            resource_of_path("/budgets/{budget_id}/transactions"),
            Some("transactions")
        );
        assert_eq!(resource_of_path("/budgets/"), Some("budgets"));
        assert_eq!(resource_of_path("/users/{id}"), None);
        assert_eq!(resource_of_path("/"), None);
        assert_eq!(resource_of_tool("list_transactions"), Some("transactions"));
        assert_eq!(resource_of_tool("get-weread-rank"), Some("rank"));
        assert_eq!(resource_of_tool("search"), None);
    }

    #[test]
    fn a_record_field_named_like_an_envelope_field_keeps_full_paths() {
        // A record that holds a list named as the records path (`Objects[].Objects[].ETag`).
        let f = fields(&[
            "Objects[].Partition",
            "Objects[].Objects[].ETag",
            "NextToken",
        ]);
        assert_eq!(infer(&f, &[], None), None);
        let f = fields(&["data[].id", "data[].total", "total"]);
        assert_eq!(infer(&f, &[], None), None);
        let f = fields(&["data[].id", "data[].Total", "total"]);
        assert_eq!(infer(&f, &[], None), None);
        let f = fields(&["data[].id", "data[].meta.total", "meta.total"]);
        assert_eq!(infer(&f, &[], None), None);
    }
}
