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
//! None: the change needs a person's decision; the help line says what to write.
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
            out.report(i.file, i.item.id.span, message)
            .label("no candidate tools")
            .fix("put the relevant fields of a tool in one of these groups, or change the intent's domains");
        }
    }
}
