//! # unreachable-group (SR501)
//!
//! ## What it finds
//! A field group that no intent requires. Groups whose fields are all identifiers are exempt
//! (identifiers are projected in every plan anyway).
//!
//! ## Why it matters for routing
//! Groups only matter through intents: Algorithm 1 projects the fields of the intent's required
//! groups. A group no intent requires never adds a field to a plan, so its fields are reachable
//! only through concepts.
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
//!   - id: electronic
//!   - id: magnetic
//! intents:
//!   - id: electronic_property
//!     description: Band gaps.
//!     domains: [materials_property]
//!     required_groups: [electronic]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/a.yaml
//! domains:
//!   - id: materials_property
//! groups:
//!   - id: electronic
//! intents:
//!   - id: electronic_property
//!     description: Band gaps.
//!     domains: [materials_property]
//!     required_groups: [electronic]
//! ```

use crate::graph::index;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct UnreachableGroup;

impl Rule for UnreachableGroup {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        for g in &p.groups {
            let id = &g.item.id.value;
            if p.intents
                .iter()
                .any(|i| i.item.required_groups.iter().any(|r| &r.value == id))
            {
                continue;
            }
            if let Some(fields) = ctx.index.fields_by_group.get(id)
                && !fields.is_empty()
                && fields
                    .iter()
                    .all(|r| index::resolve(p, *r).2.is_identifier())
            {
                continue;
            }
            out.report(g.file, g.item.id.span, format!("no intent requires group `{id}`"))
                .label("unreachable group")
                .fix(format!(
                    "add `{id}` to the `required_groups` of the intents that should project it, or delete the group"
                ));
        }
    }
}
