//! # destructive-endpoint (SR508)
//!
//! ## What it finds
//! An endpoint that may destroy or overwrite data, and that a plan could select because it is not
//! marked `allow_destructive: true`: its `annotations` say `destructive: true`, or say
//! `read_only: false` without `destructive` (MCP's default for a tool that is not read-only is
//! destructive), or it is an HTTP `DELETE`.
//!
//! ## Why it matters for routing
//! A router plans calls for an agent that will make them. Imported MCP servers and REST APIs
//! mix reading tools with writing ones (`delete_entities`, `write_file`, `git_reset`); an
//! information request must never be answered by planning a call that deletes something. Mark
//! the endpoint `allow_destructive: true` only when the agent is meant to call it, or delete it
//! from the declaration.
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
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct DestructiveEndpoint;

impl Rule for DestructiveEndpoint {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                if !e.is_destructive() || e.destructive_allowed() {
                    continue;
                }
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
            }
        }
    }
}
