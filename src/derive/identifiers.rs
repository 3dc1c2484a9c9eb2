//! Identifier fields: the fields that identify a record, projected in every plan.
//!
//! A field of the record itself (not a nested object's: `owner.id` names the owner) is an
//! identifier when its name is `id`, `uuid`, `guid`, `key`, `url`, ends in `_id` / `Id`, or
//! when another endpoint of the tool takes it as a path parameter: `{name}` takes the field
//! `name`, and `/issues/{issue_number}` takes the field `number` of the issue endpoints (the
//! parameter named after the resource and the field).
//!
//! The deriver sets `identifier: true` only on fields that do not say `identifier` at all: a
//! person's `identifier: false` stays, and so does any `true`.

use super::terms::{singular, words};
use crate::model::{Sp, Tool};
use std::collections::BTreeSet;

/// Whether a record-level field name reads as an identifier by itself.
pub fn id_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "id" | "uuid" | "guid" | "key" | "url" | "_id"
    ) || lower.ends_with("_id")
        || lower.ends_with("-id")
        || lower.ends_with("_uuid")
        || (name.ends_with("Id") && name.len() > 2)
        || (name.ends_with("ID") && name.len() > 2)
}

/// The path parameters of the tool's endpoints, as the field names they stand for: the
/// parameter's own name, and without the preceding segment's resource as prefix
/// (`issue_number` after `/issues/` stands for `number`).
fn path_keys(tool: &Tool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in &tool.endpoints {
        let url = &e.value.url.value;
        let mut prev: Option<String> = None;
        for seg in url.split('/') {
            if let Some(p) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                out.insert(p.to_string());
                if let Some(prev) = &prev {
                    let pw = words(p);
                    let rw: Vec<String> = words(prev).iter().map(|w| singular(w)).collect();
                    if pw.len() > rw.len() && pw[..rw.len()] == rw[..] {
                        out.insert(pw[rw.len()..].join("_"));
                    }
                }
            } else if !seg.is_empty() {
                prev = Some(seg.to_string());
            }
        }
    }
    out
}

/// Mark the identifier fields of a tool; returns how many were marked.
pub fn mark(tool: &mut Tool) -> usize {
    let keys = path_keys(tool);
    let mut n = 0;
    for e in &mut tool.endpoints {
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
            if id_name(name) || keys.contains(name) {
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
}
