//! # empty-group (SR502)
//!
//! ## What it finds
//! A declared field group that no response field belongs to.
//!
//! ## Why it matters for routing
//! An intent requiring only empty groups has no candidate tools; an empty group is either a
//! missing mapping or dead configuration.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/a.yaml
//! groups:
//!   - id: magnetic
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/a.yaml
//! groups:
//!   - id: magnetic
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

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct EmptyGroup;

impl Rule for EmptyGroup {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for g in &ctx.project.groups {
            let id = &g.item.id.value;
            if ctx
                .index
                .fields_by_group
                .get(id)
                .is_some_and(|v| !v.is_empty())
            {
                continue;
            }
            out.report(
                g.file,
                g.item.id.span,
                format!("group `{id}` has no fields"),
            )
            .label("empty group")
            .fix(format!(
                "add `{id}` to the `groups:` of the fields it should hold, or delete it"
            ));
        }
    }
}
