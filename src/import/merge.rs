//! Re-import: fold a freshly imported tool into the declaration file a person has been editing.
//!
//! The source owns which endpoints, parameters and fields exist, their types, formats,
//! requiredness, defaults, enums, URLs, methods, annotations and descriptions. A person owns
//! everything the source cannot know: the tool's title, names (aliases; the source's own names
//! for the tool, its provider's and service's spellings, are added when missing), domain, source type,
//! priority, provenance and licence (wording and verification), and per field its concepts,
//! unit, published unit, groups, qualifiers (but `variant`, which names the `oneOf` / `anyOf`
//! alternatives that carry the field: the source's), identifier flag, source type, licence,
//! encoding and missing-value marker; per parameter its bindings and join separator; per endpoint
//! `allow_destructive`. Matching is by endpoint id, parameter name and field name; an endpoint
//! whose id changed because its operationId is now read as generated (`operation_id`), or no
//! longer, is found by that operationId and keeps the declaration's id.
//!
//! A declaration that the source no longer has is removed (and reported by the re-import's
//! diff as a removal); one that a person added by hand is therefore removed too, unless the
//! source has it.

use super::schema::VARIANT_QUALIFIER;
use crate::model::{Endpoint, Parameter, ResponseField, Tool};

/// The merged tool: `new`'s shape with `old`'s person-owned values.
pub fn merge(old: &Tool, mut new: Tool) -> Tool {
    // Found by the id `check` compares (`old-swag` is `old_swag`): the declaration's spelling
    // stays.
    new.id = old.id.clone();
    new.title = old.title.clone();
    // A person's names stay; the names the source gives (its provider's and service's
    // spellings) are added when missing.
    let mut names = old.names.clone();
    for n in std::mem::take(&mut new.names) {
        let key = crate::model::normalise_id(&n.value);
        if !names
            .iter()
            .any(|o| crate::model::normalise_id(&o.value) == key)
        {
            names.push(n);
        }
    }
    new.names = names;
    new.domain = old.domain.clone();
    new.source_type = old.source_type.clone();
    new.priority = old.priority.clone();
    if let Some(o) = &old.provenance {
        let url = new.provenance.as_ref().and_then(|p| p.url.clone());
        let mut kept = o.clone();
        // A provenance URL that is the origin of the old endpoints' server is the one the
        // importer wrote: it follows the source's server.
        if let (Some(ou), Some(nu)) = (&o.url, url)
            && ou.value != nu.value
            && old
                .endpoints
                .iter()
                .any(|e| origin(&e.value.url.value) == Some(ou.value.trim_end_matches('/')))
        {
            kept.value.url = Some(nu);
        }
        new.provenance = Some(kept);
    }
    if old.licence.is_some() {
        new.licence = old.licence.clone();
    }
    if new.description.is_none() {
        new.description = old.description.clone();
    }
    if new.mcp_server.is_none() {
        new.mcp_server = old.mcp_server.clone();
    }
    let new_ids: std::collections::BTreeSet<String> = new
        .endpoints
        .iter()
        .map(|e| e.value.id.value.clone())
        .collect();
    for e in &mut new.endpoints {
        if let Some(o) = old
            .endpoints
            .iter()
            .find(|o| o.value.id.value == e.value.id.value)
        {
            merge_endpoint(&o.value, &mut e.value);
        } else if let Some(o) = old
            .endpoints
            .iter()
            .find(|o| same_operation(&o.value, &e.value) && !new_ids.contains(&o.value.id.value))
        {
            // The same operation under another id (its generated operationId now gives way to
            // method and path, or the other way round): the declaration's id stays, so that
            // what a person wrote about it (intents, groups, bindings) still names it.
            e.value.id = o.value.id.clone();
            merge_endpoint(&o.value, &mut e.value);
        }
    }
    new
}

/// `scheme://host[:port]` of a URL, when it has one.
fn origin(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+')
    {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    (end > 0).then(|| &url[..scheme.len() + 3 + end])
}

/// What a re-import keeps that the source now says otherwise, or that looks like another API:
/// the file's title when the source's differs, and a source that shares no endpoint with the
/// declaration it is imported over.
pub fn metadata_notes(old: &Tool, new: &Tool, path: &std::path::Path) -> Vec<String> {
    let mut notes = Vec::new();
    if old.title.value != new.title.value {
        notes.push(format!(
            "{}: the source's title is now `{}`; the declaration keeps its title `{}` (a person's): edit `title` if it should follow",
            path.display(),
            new.title.value,
            old.title.value
        ));
    }
    let shared = new.endpoints.iter().any(|n| {
        old.endpoints
            .iter()
            .any(|o| o.value.id.value == n.value.id.value || same_operation(&o.value, &n.value))
    });
    if !shared && !old.endpoints.is_empty() && !new.endpoints.is_empty() {
        notes.push(format!(
            "{}: the source shares no endpoint with tool `{}` ({} endpoint(s) removed, {} added): is it another API? Import it with its own `--tool` id to keep both",
            path.display(),
            old.id.value,
            old.endpoints.len(),
            new.endpoints.len()
        ));
    }
    notes
}

/// Whether `old` and `new` are the same source operation with different ids: they keep the same
/// `operation_id`, or one's id is the other's generated operationId in snake case.
fn same_operation(old: &Endpoint, new: &Endpoint) -> bool {
    let snake_of =
        |o: &Option<crate::model::Sp<String>>| o.as_ref().map(|o| super::snake(&o.value));
    match (snake_of(&old.operation_id), snake_of(&new.operation_id)) {
        (Some(a), Some(b)) => a == b,
        (None, Some(b)) => old.id.value == b,
        (Some(a), None) => new.id.value == a,
        (None, None) => false,
    }
}

/// A note when the source now states another licence than the declaration at `path` carries
/// (the declaration's licence is person-owned and kept, see [`merge`]; but a changed upstream
/// licence is something to review, not to pass over in silence).
pub fn licence_note(old: &Tool, new: &Tool, path: &std::path::Path) -> Option<String> {
    let (Some(o), Some(n)) = (&old.licence, &new.licence) else {
        return None;
    };
    (o.spdx.value != n.spdx.value).then(|| {
        format!(
            "{}: the source now states the licence `{}`; the declaration keeps its `{}`{}: review `licence`",
            path.display(),
            n.spdx.value,
            o.spdx.value,
            if o.is_verified() {
                " (marked verified)"
            } else {
                ""
            }
        )
    })
}

fn merge_endpoint(old: &Endpoint, new: &mut Endpoint) {
    new.allow_destructive = old.allow_destructive.clone();
    if new.description.is_none() {
        new.description = old.description.clone();
    }
    if new.annotations.is_none() {
        new.annotations = old.annotations.clone();
    }
    for p in &mut new.parameters {
        if let Some(o) = old
            .parameters
            .iter()
            .find(|o| o.value.name.value == p.value.name.value)
        {
            merge_param(&o.value, &mut p.value);
        }
    }
    for f in &mut new.fields {
        if let Some(o) = old
            .fields
            .iter()
            .find(|o| o.value.name.value == f.value.name.value)
        {
            merge_field(&o.value, &mut f.value);
        }
    }
}

fn merge_param(old: &Parameter, new: &mut Parameter) {
    new.bind = old.bind.clone();
    new.join = old.join.clone().or(new.join.take());
    if new.auth.is_none() {
        new.auth = old.auth.clone();
    }
    if new.description.is_none() {
        new.description = old.description.clone();
    }
}

fn merge_field(old: &ResponseField, new: &mut ResponseField) {
    new.unit = old.unit.clone();
    new.unit_as_published = old.unit_as_published.clone();
    new.identifier = old.identifier.clone();
    new.groups = old.groups.clone();
    new.concepts = old.concepts.clone();
    // The `variant` qualifier says which `oneOf` / `anyOf` alternatives carry the field: the
    // source's to say. Every other qualifier is a person's.
    let variant = new.qualifiers.remove(VARIANT_QUALIFIER);
    new.qualifiers = old.qualifiers.clone();
    new.qualifiers.remove(VARIANT_QUALIFIER);
    if let Some(v) = variant {
        new.qualifiers.insert(VARIANT_QUALIFIER.to_string(), v);
    }
    new.source_type = old.source_type.clone();
    new.licence = old.licence.clone();
    new.encoding = old.encoding.clone();
    new.missing_value = old.missing_value.clone();
    if new.description.is_none() {
        new.description = old.description.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::emit::parse_tool;
    use crate::source::Format;

    #[test]
    fn person_owned_values_survive_a_reimport() {
        let old = parse_tool(
            "id: t\ntitle: My title\nnames: [tee]\ndomain: mine\nsource_type: calculated\npriority: 5\nendpoints:\n  - id: e\n    method: GET\n    url: https://x.org/a\n    description: old text\n    parameters:\n      - name: q\n        type: string\n        bind:\n          - concept: formula\n    fields:\n      - name: gap\n        type: number\n        unit: eV\n        concepts: [band_gap]\n        groups: [electronic]\n      - name: gone\n        type: string\n",
            Format::Yaml,
        )
        .unwrap();
        let new = parse_tool(
            "id: t\ntitle: Upstream title\ndomain: t\nendpoints:\n  - id: e\n    method: GET\n    url: https://x.org/b\n    description: new text\n    parameters:\n      - name: q\n        type: integer\n    fields:\n      - name: gap\n        type: string\n      - name: added\n        type: boolean\n",
            Format::Yaml,
        )
        .unwrap();
        let m = merge(&old, new);
        assert_eq!(m.title.value, "My title");
        assert_eq!(m.domain.value, "mine");
        assert_eq!(m.priority.as_ref().unwrap().value, 5);
        let e = &m.endpoints[0].value;
        assert_eq!(e.url.value, "https://x.org/b");
        assert_eq!(e.description.as_ref().unwrap().value, "new text");
        assert_eq!(e.parameters[0].value.ty.value.to_string(), "integer");
        assert_eq!(e.parameters[0].value.bind[0].value.concept.value, "formula");
        let names: Vec<&str> = e
            .fields
            .iter()
            .map(|f| f.value.name.value.as_str())
            .collect();
        assert_eq!(names, vec!["gap", "added"]);
        assert_eq!(e.fields[0].value.ty.value.to_string(), "string");
        assert_eq!(e.fields[0].value.unit.as_ref().unwrap().value, "eV");
        assert_eq!(e.fields[0].value.concepts[0].value, "band_gap");
    }

    #[test]
    fn the_variant_qualifier_and_the_source_names_are_the_sources() {
        let old = parse_tool(
            "id: t\ntitle: T\nnames: [Tee, acme.io]\ndomain: t\nendpoints:\n  - id: e\n    method: GET\n    url: https://x.org/a\n    fields:\n      - name: meow\n        type: boolean\n        qualifiers: {variant: Cat, source: lab}\n      - name: bark\n        type: string\n        qualifiers: {variant: Dog}\n",
            Format::Yaml,
        )
        .unwrap();
        let new = parse_tool(
            "id: t\ntitle: T\nnames: [ACME.io, acme]\ndomain: t\nendpoints:\n  - id: e\n    method: GET\n    url: https://x.org/a\n    fields:\n      - name: meow\n        type: boolean\n        qualifiers: {variant: Cat or Lion}\n      - name: bark\n        type: string\n",
            Format::Yaml,
        )
        .unwrap();
        let m = merge(&old, new);
        let names: Vec<&str> = m.names.iter().map(|n| n.value.as_str()).collect();
        assert_eq!(names, ["Tee", "acme.io", "acme"]);
        let q = |i: usize| -> Vec<(String, String)> {
            m.endpoints[0].value.fields[i]
                .value
                .qualifiers
                .iter()
                .map(|(k, v)| (k.clone(), v.value.clone()))
                .collect()
        };
        assert_eq!(
            q(0),
            [
                ("source".to_string(), "lab".to_string()),
                ("variant".to_string(), "Cat or Lion".to_string())
            ]
        );
        // Every alternative carries it now: no variant.
        assert_eq!(q(1), []);
    }

    #[test]
    fn a_licence_the_source_changed_is_kept_and_noted() {
        let tool = |licence: &str| {
            parse_tool(
                &format!("id: t\ntitle: T\ndomain: t\n{licence}endpoints:\n  - id: e\n    method: GET\n    url: https://x.org/a\n"),
                Format::Yaml,
            )
            .unwrap()
        };
        let old =
            tool("licence:\n  spdx: BSD-3-Clause\n  wording: As published.\n  verified: true\n");
        let new = tool("licence:\n  spdx: MIT\n  wording: As published.\n");
        let path = std::path::Path::new("schemas/t.yaml");
        assert_eq!(
            licence_note(&old, &new, path).as_deref(),
            Some(
                "schemas/t.yaml: the source now states the licence `MIT`; the declaration keeps its `BSD-3-Clause` (marked verified): review `licence`"
            )
        );
        assert_eq!(
            merge(&old, new.clone()).licence.unwrap().spdx.value,
            "BSD-3-Clause"
        );
        assert_eq!(licence_note(&old, &old, path), None);
        assert_eq!(licence_note(&tool(""), &new, path), None);
    }

    #[test]
    fn the_importers_provenance_url_follows_the_server_and_a_persons_stays() {
        let tool = |title: &str, host: &str, prov: &str, ep: &str| {
            parse_tool(
                &format!("id: t\ntitle: {title}\ndomain: t\nprovenance:\n  publisher: Me\n  url: {prov}\nendpoints:\n  - id: {ep}\n    method: GET\n    url: {host}/a\n"),
                Format::Yaml,
            )
            .unwrap()
        };
        let url = |t: &Tool| {
            t.provenance
                .as_ref()
                .unwrap()
                .value
                .url
                .as_ref()
                .unwrap()
                .value
                .clone()
        };
        let path = std::path::Path::new("t.yaml");
        // Written by the importer (the server's origin): follows; the publisher a person
        // added stays.
        let old = tool("Old", "https://a.example/v1", "https://a.example", "e");
        let new = tool("New", "https://b.example/v1", "https://b.example", "e");
        let m = merge(&old, new.clone());
        assert_eq!(url(&m), "https://b.example");
        assert_eq!(
            m.provenance
                .as_ref()
                .unwrap()
                .value
                .publisher
                .as_ref()
                .unwrap()
                .value,
            "Me"
        );
        assert_eq!(m.title.value, "Old");
        assert_eq!(
            metadata_notes(&old, &new, path),
            vec!["t.yaml: the source's title is now `New`; the declaration keeps its title `Old` (a person's): edit `title` if it should follow".to_string()]
        );
        // A person's page: stays.
        let old = tool(
            "Old",
            "https://a.example/v1",
            "https://docs.example/data",
            "e",
        );
        assert_eq!(url(&merge(&old, new.clone())), "https://docs.example/data");
        // Another API: said.
        let other = tool("Old", "https://b.example/v1", "https://b.example", "f");
        assert_eq!(
            metadata_notes(&old, &other, path),
            vec!["t.yaml: the source shares no endpoint with tool `t` (1 endpoint(s) removed, 1 added): is it another API? Import it with its own `--tool` id to keep both".to_string()]
        );
    }
}
