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
//! `removeItems`, "Permanently purges ..."), or changes a record's state for good (`suspend`,
//! `unpublish`, `ban`, `revoke`, `cancel`, `archive`, `disable`, `deactivate`, `terminate`,
//! `block`, `lock`) as the first word of its id or `mcp_tool` name, the last segment of its path
//! (`PUT /users/{id}/suspend`) (not its description: "Archives of ..." is a
//! noun phrase); and its `annotations` are
//! missing or give neither `destructive` nor `read_only` (MCP's `destructiveHint` /
//! `readOnlyHint`). An HTTP `GET`, `HEAD` or `OPTIONS` is read-only by HTTP's definition and
//! never matches by name. The verbs are language data (`crates/core/src/model/destructive_verbs.txt`),
//! inflected forms included (`deletes`, `cancelled`).
//!
//! ## Why it matters for routing
//! A router plans calls for an agent that will make them. Imported MCP servers and REST APIs
//! mix reading tools with writing ones (`delete_entities`, `write_file`, `git_reset`); an
//! information request must never be answered by planning a call that deletes something. Mark
//! the endpoint `allow_destructive: true` only when the agent is meant to call it, or delete it
//! from the declaration. A tool list without annotations (many MCP servers send none) gives the
//! router no way to tell `delete_all` from `list_all`: the compiler leaves out of planning every
//! endpoint this rule reports (destructive, or looking destructive with nothing said), so a
//! reading endpoint that merely looks destructive (`clear_cache_stats` that only reads) needs
//! `annotations: {read_only: true}` to be planned, and a destructive one `allow_destructive:
//! true`.
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
use crate::model::HttpMethod;

/// See the module documentation.
pub struct DestructiveEndpoint;

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
                let Some(why) = e.looks_destructive() else {
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
                        "endpoint `{}/{}` looks destructive ({why}) but {missing}, so it is left out of plans",
                        t.id.value, e.id.value
                    ),
                )
                .label("looks destructive")
                .fix("if it deletes or overwrites data, add `annotations: {destructive: true}` (MCP `destructiveHint: true`), and `allow_destructive: true` only if the agent is meant to call it; if it only reads, add `annotations: {read_only: true}` (MCP `readOnlyHint: true`)");
            }
        }
    }
}
