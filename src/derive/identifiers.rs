//! Identifier fields: the fields that identify a record, projected in every plan.
//!
//! A field of the record itself (not a nested object's: `owner.id` names the owner) is an
//! identifier when its name is `id`, `uuid`, `guid`, `key`, `url`, `uri`, `href`, `slug`,
//! `code` or `permalink`, ends in the word `id`, `uuid`, `guid`, `slug` or `key` (`node_id`,
//! `userId`, `article_slug`, `api_key`), holds the word `id` (`id_code`), or its description
//! says it is a unique identifier ("The unique identifier of the venue"); or
//! when an endpoint of the tool takes it as a path parameter of the same resource: `/users/{name}`
//! takes the field `name` of the endpoints under `/users`, and `/issues/{issue_number}` takes
//! the field `number` of the issue endpoints (the parameter named after the resource and the
//! field). A placeholder keys only its own resource: `/Line/Status/{severity}` makes no
//! identifier of the `severity` that `/AccidentStats/{year}` answers, nor `/tags/{name}` of a
//! genre's `name`.
//!
//! The deriver sets `identifier: true` only on fields that do not say `identifier` at all: a
//! person's `identifier: false` stays, and so does any `true`.

use super::terms::{singular, words};
pub use crate::model::identifier::{id_description, id_name, reads_as_identifier};
use crate::model::{Sp, Tool};
use std::collections::{BTreeMap, BTreeSet};

/// The path parameters of the tool's endpoints, as the field names they stand for, each with
/// the resources it keys (the singular of the segment before it, lower case; none for a
/// placeholder that follows no literal segment, which keys every endpoint): the parameter's own
/// name, and without the preceding segment's resource as prefix (`issue_number` after
/// `/issues/` stands for `number`).
fn path_keys(tool: &Tool) -> BTreeMap<String, BTreeSet<Option<String>>> {
    let mut out: BTreeMap<String, BTreeSet<Option<String>>> = BTreeMap::new();
    for e in &tool.endpoints {
        let url = &e.value.url.value;
        let mut prev: Option<String> = None;
        for seg in url.split('/') {
            if let Some(p) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                let resource = prev.as_deref().map(resource_of);
                out.entry(p.to_string())
                    .or_default()
                    .insert(resource.clone());
                if let Some(prev) = &prev {
                    let pw = words(p);
                    let rw: Vec<String> = words(prev).iter().map(|w| singular(w)).collect();
                    if pw.len() > rw.len() && pw[..rw.len()] == rw[..] {
                        out.entry(pw[rw.len()..].join("_"))
                            .or_default()
                            .insert(resource);
                    }
                }
            } else if !seg.is_empty() {
                prev = Some(seg.to_string());
            }
        }
    }
    out
}

/// A path segment as the resource it names: its words, singular, joined (`StopPoints` ->
/// `stop_point`).
fn resource_of(segment: &str) -> String {
    words(segment)
        .iter()
        .map(|w| singular(w))
        .collect::<Vec<_>>()
        .join("_")
}

/// The resources an endpoint's path names (its literal segments, as [`resource_of`]).
fn resources(url: &str) -> BTreeSet<String> {
    url.split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('{') && !s.contains(':'))
        .map(resource_of)
        .collect()
}

/// Mark the identifier fields of a tool; returns how many were marked.
pub fn mark(tool: &mut Tool) -> usize {
    let keys = path_keys(tool);
    let mut n = 0;
    for e in &mut tool.endpoints {
        let own = resources(&e.value.url.value);
        let keyed = |name: &str| {
            keys.get(name).is_some_and(|rs| {
                rs.iter()
                    .any(|r| r.as_ref().is_none_or(|r| own.contains(r)))
            })
        };
        for f in &mut e.value.fields {
            let f = &mut f.value;
            if f.identifier.is_some() {
                continue;
            }
            let name = f.name.value.as_str();
            // Fields of the record itself, not of an object inside it.
            if name.contains('.') || name.contains('[') {
                continue;
            }
            if reads_as_identifier(f) || keyed(name) {
                f.identifier = Some(Sp::synthetic(true));
                n += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::emit::parse_tool;
    use crate::source::Format;

    #[test]
    fn ids_urls_and_path_keys_are_identifiers() {
        let mut t = parse_tool(
            "id: gh\ntitle: T\ndomain: d\nendpoints:\n  - id: get_issue\n    method: GET\n    url: https://x.org/issues/{issue_number}\n    fields:\n      - name: number\n        type: integer\n      - name: id\n        type: integer\n      - name: user.id\n        type: integer\n      - name: title\n        type: string\n      - name: node_id\n        type: string\n      - name: url\n        type: string\n        identifier: false\n",
            Format::Yaml,
        )
        .unwrap();
        assert_eq!(mark(&mut t), 3);
        let marked: Vec<(&str, Option<bool>)> = t.endpoints[0]
            .value
            .fields
            .iter()
            .map(|f| {
                (
                    f.value.name.value.as_str(),
                    f.value.identifier.as_ref().map(|i| i.value),
                )
            })
            .collect();
        assert_eq!(
            marked,
            [
                ("number", Some(true)),
                ("id", Some(true)),
                ("user.id", None),
                ("title", None),
                ("node_id", Some(true)),
                ("url", Some(false)),
            ]
        );
    }

    #[test]
    fn identifier_names_and_descriptions() {
        for n in [
            "id",
            "_id",
            "uuid",
            "GUID",
            "slug",
            "code",
            "href",
            "uri",
            "permalink",
            "node_id",
            "userId",
            "ID",
            "id_code",
            "idStr",
            "article_slug",
            "api_key",
            "user_uuid",
            "mbid_id",
        ] {
            assert!(id_name(n), "{n}");
        }
        for n in [
            "name",
            "title",
            "status_code",
            "idle",
            "keyword",
            "keys",
            "identity",
            "slugline",
            "avatar_url",
            "video",
            "kid",
        ] {
            assert!(!id_name(n), "{n}");
        }
        for d in [
            "The unique identifier of the venue.",
            "Uniquely identifies the word",
            "unique id of the setlist",
            "A unique key.",
        ] {
            assert!(id_description(d), "{d}");
        }
        for d in [
            "The identifier of the user who created it.",
            "Number of unique visitors",
            "Unique",
        ] {
            assert!(!id_description(d), "{d}");
        }
    }

    #[test]
    fn a_described_identifier_is_marked_and_nested_ones_are_not() {
        let mut t = parse_tool(
            "id: t\ntitle: T\ndomain: d\nendpoints:\n  - id: venues\n    method: GET\n    url: https://x.org/venues\n    fields:\n      - name: mbid\n        type: string\n        description: The unique identifier of the venue.\n      - name: city.slug\n        type: string\n      - name: article_slug\n        type: string\n      - name: name\n        type: string\n",
            Format::Yaml,
        )
        .unwrap();
        assert_eq!(mark(&mut t), 2);
        let marked: Vec<bool> = t.endpoints[0]
            .value
            .fields
            .iter()
            .map(|f| f.value.identifier.as_ref().is_some_and(|i| i.value))
            .collect();
        assert_eq!(marked, [true, false, true, false]);
    }

    #[test]
    fn a_placeholder_keys_only_its_own_resource() {
        let mut t = parse_tool(
            "id: t\ntitle: T\ndomain: d\nendpoints:\n  - id: line_status\n    method: GET\n    url: https://x.org/Line/Status/{severity}\n    fields:\n      - name: severity\n        type: string\n  - id: accidents\n    method: GET\n    url: https://x.org/AccidentStats/{year}\n    fields:\n      - name: severity\n        type: string\n      - name: year\n        type: integer\n  - id: get_user\n    method: GET\n    url: https://x.org/users/{name}\n    fields:\n      - name: name\n        type: string\n  - id: list_users\n    method: GET\n    url: https://x.org/users\n    fields:\n      - name: name\n        type: string\n  - id: genres\n    method: GET\n    url: https://x.org/genres\n    fields:\n      - name: name\n        type: string\n      - name: status\n        type: string\n      - name: uuid\n        type: string\n",
            Format::Yaml,
        )
        .unwrap();
        assert_eq!(mark(&mut t), 5);
        let marked: Vec<(&str, &str, bool)> = t
            .endpoints
            .iter()
            .flat_map(|e| {
                e.value.fields.iter().map(move |f| {
                    (
                        e.value.id.value.as_str(),
                        f.value.name.value.as_str(),
                        f.value.identifier.as_ref().is_some_and(|i| i.value),
                    )
                })
            })
            .collect();
        assert_eq!(
            marked,
            [
                ("line_status", "severity", true),
                ("accidents", "severity", false),
                ("accidents", "year", true),
                ("get_user", "name", true),
                ("list_users", "name", true),
                ("genres", "name", false),
                ("genres", "status", false),
                ("genres", "uuid", true),
            ]
        );
    }
}
