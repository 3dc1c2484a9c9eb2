//! # destructive-endpoint (SR508)
//!
//! ## What it finds
//! An endpoint that may destroy or overwrite data, and that a plan could select because it is not
//! marked `allow_destructive: true`: its `annotations` say `destructive: true`, or say
//! `read_only: false` without `destructive` (MCP's default for a tool that is not read-only is
//! destructive), or it is an HTTP `DELETE`.
//!
//! It also finds an endpoint that looks destructive but does not say: its id, its `mcp_tool`
//! name or the first verb of its description says it deletes (`delete`, `remove`, `drop`,
//! `purge`, `destroy`, `erase`, `wipe`, `truncate`, `clear`, `reset`, `unlink`: `delete_all`,
//! `removeItems`, "Permanently purges ..."), and its `annotations` are missing or give neither
//! `destructive` nor `read_only` (MCP's `destructiveHint` / `readOnlyHint`). An HTTP `GET`,
//! `HEAD` or `OPTIONS` is read-only by HTTP's definition and never matches by name.
//!
//! ## Why it matters for routing
//! A router plans calls for an agent that will make them. Imported MCP servers and REST APIs
//! mix reading tools with writing ones (`delete_entities`, `write_file`, `git_reset`); an
//! information request must never be answered by planning a call that deletes something. Mark
//! the endpoint `allow_destructive: true` only when the agent is meant to call it, or delete it
//! from the declaration. A tool list without annotations (many MCP servers send none) gives the
//! router no way to tell `delete_all` from `list_all`: the router only leaves out endpoints
//! marked destructive, so say which it is.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: memory
//! title: Knowledge graph memory
//! domain: notes
//! endpoints:
//!   - id: delete_entities
//!     method: MCP
//!     url: mcp://memory/delete_entities
//!     mcp_tool: delete_entities
//!     annotations:
//!       destructive: true
//!     fields:
//!       - name: result
//!         type: any
//! ```
//!
//! A tool whose name says it deletes, imported from a `tools/list` without annotations:
//!
//! ```yaml
//! # file: schemas/t.yaml
//! id: store
//! title: Key-value store
//! domain: notes
//! endpoints:
//!   - id: purge_keys
//!     method: MCP
//!     url: mcp://store/purgeKeys
//!     mcp_tool: purgeKeys
//!     description: Removes every key of a namespace.
//!     fields:
//!       - name: result
//!         type: any
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: memory
//! title: Knowledge graph memory
//! domain: notes
//! endpoints:
//!   - id: read_graph
//!     method: MCP
//!     url: mcp://memory/read_graph
//!     mcp_tool: read_graph
//!     annotations:
//!       read_only: true
//!     fields:
//!       - name: entities[].name
//!         type: string
//!   - id: drop_duplicates
//!     method: MCP
//!     url: mcp://memory/drop_duplicates
//!     mcp_tool: drop_duplicates
//!     description: Lists the entities with duplicates dropped (reads only).
//!     annotations:
//!       read_only: true
//!     fields:
//!       - name: result
//!         type: any
//!   - id: delete_all
//!     method: MCP
//!     url: mcp://memory/delete_all
//!     mcp_tool: delete_all
//!     annotations:
//!       destructive: true
//!     allow_destructive: true
//!     fields:
//!       - name: result
//!         type: any
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::{Endpoint, HttpMethod};

/// See the module documentation.
pub struct DestructiveEndpoint;

/// Verbs that say an operation destroys data.
const VERBS: &[&str] = &[
    "delete", "remove", "drop", "purge", "destroy", "erase", "wipe", "truncate", "clear", "reset",
    "unlink",
];

/// Adverbs that may come before the verb of a description ("Permanently deletes ...").
const ADVERBS: &[&str] = &[
    "permanently",
    "irreversibly",
    "completely",
    "immediately",
    "forcibly",
];

/// The verb of `word` when it is one of [`VERBS`] (`deletes`, `Removing`, `dropped`).
fn verb_of(word: &str) -> Option<&'static str> {
    let w = word.to_lowercase();
    VERBS.iter().copied().find(|v| {
        w == *v
            || w.strip_prefix(v).is_some_and(|rest| {
                matches!(rest, "s" | "es" | "d" | "ed" | "ing" | "ped" | "ping" | "all")
            })
            // `delete` -> `deleting`, `remove` -> `removing`, `erase` -> `erasing`
            || v.strip_suffix('e')
                .is_some_and(|stem| w.strip_prefix(stem) == Some("ing"))
    })
}

/// The words of an identifier: split at `_`, `-`, `.`, `/`, spaces and lower-to-upper case
/// changes (`deleteAll` -> `delete`, `All`).
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Why the endpoint looks destructive by its names or description, if it does.
fn looks_destructive(e: &Endpoint) -> Option<String> {
    for (what, name) in [
        ("id", Some(&e.id.value)),
        ("MCP tool name", e.mcp_tool.as_ref().map(|m| &m.value)),
    ] {
        let Some(name) = name else { continue };
        if let Some(v) = words(name).iter().find_map(|w| verb_of(w)) {
            return Some(format!("its {what} `{name}` says `{v}`"));
        }
    }
    let d = e.description.as_ref()?;
    let first = d
        .value
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .find(|w| !ADVERBS.contains(&w.to_lowercase().as_str()))?;
    verb_of(first).map(|v| format!("its description says `{v}`"))
}

impl Rule for DestructiveEndpoint {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                if e.destructive_allowed() {
                    continue;
                }
                if e.is_destructive() {
                    let why = match &e.annotations {
                        Some(a) if a.destructive.as_ref().is_some_and(|d| d.value) => {
                            "its annotations mark it destructive"
                        }
                        Some(a) if a.read_only.as_ref().is_some_and(|r| !r.value) => {
                            "its annotations mark it not read-only (MCP treats such a tool as destructive)"
                        }
                        _ => "it is an HTTP DELETE",
                    };
                    out.report(
                        t.file,
                        e.id.span,
                        format!(
                            "endpoint `{}/{}` may destroy data ({why}) and can be planned",
                            t.id.value, e.id.value
                        ),
                    )
                    .label("destructive")
                    .fix("set `allow_destructive: true` if the agent is meant to call it, or remove the endpoint from the declaration");
                    continue;
                }
                let silent = e
                    .annotations
                    .as_ref()
                    .is_none_or(|a| a.destructive.is_none() && a.read_only.is_none());
                let safe_method = matches!(
                    e.method.value,
                    HttpMethod::Get | HttpMethod::Head | HttpMethod::Options
                );
                if !silent || safe_method {
                    continue;
                }
                let Some(why) = looks_destructive(e) else {
                    continue;
                };
                let missing = if e.annotations.is_some() {
                    "its annotations give neither `destructive` nor `read_only`"
                } else {
                    "it has no `annotations`"
                };
                out.report(
                    t.file,
                    e.id.span,
                    format!(
                        "endpoint `{}/{}` looks destructive ({why}) but {missing}, so it can be planned",
                        t.id.value, e.id.value
                    ),
                )
                .label("looks destructive")
                .fix("if it deletes or overwrites data, add `annotations: {destructive: true}` (MCP `destructiveHint: true`), and `allow_destructive: true` only if the agent is meant to call it; if it only reads, add `annotations: {read_only: true}` (MCP `readOnlyHint: true`)");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(words("delete_all"), ["delete", "all"]);
        assert_eq!(words("deleteAllItems"), ["delete", "All", "Items"]);
        assert_eq!(words("git-reset.v2"), ["git", "reset", "v2"]);
        assert_eq!(words("HTTPGet"), ["HTTPGet"]);
    }

    #[test]
    fn verbs_and_their_forms_match_and_other_words_do_not() {
        for (w, v) in [
            ("delete", "delete"),
            ("Deletes", "delete"),
            ("deleted", "delete"),
            ("deleting", "delete"),
            ("removes", "remove"),
            ("removing", "remove"),
            ("dropped", "drop"),
            ("drops", "drop"),
            ("PURGE", "purge"),
            ("purging", "purge"),
            ("wipes", "wipe"),
            ("truncated", "truncate"),
            ("clears", "clear"),
            ("resets", "reset"),
            ("unlink", "unlink"),
            ("deleteall", "delete"),
        ] {
            assert_eq!(verb_of(w), Some(v), "{w}");
        }
        for w in [
            "list",
            "dropdown",
            "removal",
            "cleared_at",
            "get",
            "drop_in",
            "resetting_x",
            "clearance",
            "delegate",
        ] {
            assert_eq!(verb_of(w), None, "{w}");
        }
    }
}
