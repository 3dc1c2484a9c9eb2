//! # group-without-core (SR509)
//!
//! ## What it finds
//! In a project that declares `core` concepts for some field group: a group an intent requires
//! that declares none, or whose core concepts no field of the group carries. (A project that
//! declares no cores at all is not flagged: its `core` projection is the `recall` projection.)
//!
//! ## Why it matters for routing
//! The default `core` projection adds, as its safety net, only the core fields of the intent's
//! groups (fields carrying one of the group's `core` concepts), and only when the request's
//! concepts are not all matched. A required group without a core falls back to all its fields
//! (the `recall` projection's whole-group dump) while the other groups add a few: declaring the
//! group's headline concepts keeps the safety net small everywhere.
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
//!     core: [band_gap]
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
//!     core: [band_gap]
//! intents:
//!   - id: electronic_property
//!     description: Band gaps.
//!     domains: [materials_property]
//!     required_groups: [electronic]
//! # file: schemas/mp.yaml
//! id: materials_project
//! title: Materials Project
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.materialsproject.org/materials/summary/
//!     fields:
//!       - name: band_gap
//!         type: number
//!         groups: [electronic]
//!         concepts: [band_gap]
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     dimension: none
//! ```

use crate::graph::index;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct GroupWithoutCore;

impl Rule for GroupWithoutCore {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        if p.groups.iter().all(|g| g.item.core.is_empty()) {
            return;
        }
        for g in &p.groups {
            let id = &g.item.id.value;
            if !p
                .intents
                .iter()
                .any(|i| i.item.required_groups.iter().any(|r| &r.value == id))
            {
                continue;
            }
            if g.item.core.is_empty() {
                out.report(
                    g.file,
                    g.item.id.span,
                    format!("required group `{id}` declares no core concepts"),
                )
                .label("no `core`")
                .fix(format!(
                    "add `core: [...]` with the headline concepts of `{id}` (the fields the core projection adds when a question names none)"
                ));
                continue;
            }
            let fields = ctx.index.fields_by_group.get(id);
            let carried = fields.is_some_and(|fs| {
                fs.iter().any(|r| {
                    let (_, _, f) = index::resolve(p, *r);
                    f.concepts
                        .iter()
                        .any(|c| g.item.core.iter().any(|k| k.value == c.value))
                })
            });
            if !carried && fields.is_some_and(|fs| !fs.is_empty()) {
                let first = &g.item.core[0];
                out.report(
                    g.file,
                    first.span,
                    format!("no field of group `{id}` carries any of its core concepts"),
                )
                .label("core concepts no field of the group carries")
                .fix(format!(
                    "list concepts that fields of `{id}` carry, or add `{id}` to those fields' groups"
                ));
            }
        }
    }
}
