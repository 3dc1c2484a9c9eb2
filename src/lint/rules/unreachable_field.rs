//! # unreachable-field (SR506)
//!
//! ## What it finds
//! A non-identifier response field that is in no group and carries no concept.
//!
//! ## Why it matters for routing
//! Field projection is identifiers ∪ concept matches ∪ the intent's group fields (Algorithm 1);
//! a field outside all three is returned only by fetch-everything, so no plan ever asks for it.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/mp.yaml
//! id: materials_project
//! title: Materials Project
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.materialsproject.org/materials/summary/
//!     fields:
//!       - name: efermi
//!         type: number
//!         unit: eV
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/a.yaml
//! groups:
//!   - id: electronic
//! # file: schemas/mp.yaml
//! id: materials_project
//! title: Materials Project
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.materialsproject.org/materials/summary/
//!     fields:
//!       - name: efermi
//!         type: number
//!         unit: eV
//!         groups: [electronic]
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct UnreachableField;

impl Rule for UnreachableField {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                for f in &e.fields {
                    if f.is_identifier() || !f.groups.is_empty() || !f.concepts.is_empty() {
                        continue;
                    }
                    out.report(
                        t.file,
                        f.name.span,
                        format!(
                            "field `{}` of {}/{} is in no group and carries no concept",
                            f.name.value, t.id.value, e.id.value
                        ),
                    )
                    .label("never projected")
                    .fix("add it to a group or map it to a concept, or mark it `identifier: true` if it identifies the record");
                }
            }
        }
    }
}
