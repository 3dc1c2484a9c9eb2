//! # unsatisfiable-intent (SR503)
//!
//! ## What it finds
//! An intent for which no tool qualifies: no tool in the intent's domains provides any of its
//! required groups.
//!
//! ## Why it matters for routing
//! Algorithm 1's candidate set for the intent is empty, so every query classified under it ends
//! with `no_suitable_tool` unless the user names a tool.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write. For an
//! intent `schemarouter derive` wrote (`derived:`), the finding also points at the files of the
//! tools in its domains: they no longer declare the endpoints it was derived from (a file cut
//! short at a line boundary is still valid YAML and is found only this way).
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/a.yaml
//! domains:
//!   - id: materials_property
//! groups:
//!   - id: magnetic
//! intents:
//!   - id: magnetic_property
//!     description: Magnetic moments and ordering.
//!     domains: [materials_property]
//!     required_groups: [magnetic]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/a.yaml
//! domains:
//!   - id: materials_property
//! groups:
//!   - id: magnetic
//! intents:
//!   - id: magnetic_property
//!     description: Magnetic moments and ordering.
//!     domains: [materials_property]
//!     required_groups: [magnetic]
//! # file: schemas/mp.yaml
//! id: materials_project
//! title: Materials Project
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.materialsproject.org/materials/summary/
//!     fields:
//!       - name: ordering
//!         type: string
//!         groups: [magnetic]
//! ```

use crate::graph::index;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct UnsatisfiableIntent;

impl Rule for UnsatisfiableIntent {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for i in &ctx.project.intents {
            if !index::intent_candidates(ctx.index, &i.item).is_empty() {
                continue;
            }
            let domains: Vec<&str> = i.item.domains.iter().map(|d| d.value.as_str()).collect();
            let groups: Vec<&str> = i
                .item
                .required_groups
                .iter()
                .map(|g| g.value.as_str())
                .collect();
            let message = if domains.is_empty() {
                format!(
                    "intent `{}` targets no domain, so no tool can be a candidate",
                    i.item.id.value
                )
            } else if groups.is_empty() {
                format!(
                    "intent `{}` requires no field group, so no tool can be a candidate",
                    i.item.id.value
                )
            } else {
                format!(
                    "no tool in domain(s) {} provides any of the groups {} that intent `{}` requires",
                    domains.join(", "),
                    groups.join(", "),
                    i.item.id.value
                )
            };
            let tools: Vec<_> = ctx
                .project
                .tools
                .iter()
                .filter(|t| domains.contains(&t.domain.value.as_str()))
                .collect();
            let d = out.report(i.file, i.item.id.span, message);
            d.label("no candidate tools");
            if i.item.derived.is_some() && !groups.is_empty() && !tools.is_empty() {
                // A derived intent whose tools no longer hold its groups: the tool file lost the
                // endpoints it was derived from (cut short, a bad merge), or the derived layer
                // is stale. Point at the tool files too.
                let files: Vec<String> = tools
                    .iter()
                    .map(|t| {
                        format!(
                            "`{}` (in the project's `{}`)",
                            t.id.value,
                            ctx.project.sources.get(t.file).name
                        )
                    })
                    .collect();
                for t in &tools {
                    d.with(
                        t.file,
                        t.id.span,
                        "declares no field of the intent's groups",
                    );
                }
                d.fix(format!(
                    "this intent is derived (`derived:`) from endpoints that tool {} no longer declares: if a tool file lost endpoints (cut short, a bad merge), restore or re-import it; otherwise `schemarouter derive` updates the derived layer",
                    files.join(", ")
                ));
            } else {
                d.fix("put the relevant fields of a tool in one of these groups, or change the intent's domains");
            }
        }
    }
}
