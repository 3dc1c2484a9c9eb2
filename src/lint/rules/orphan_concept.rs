//! # orphan-concept (SR205)
//!
//! ## What it finds
//! A response concept that no field carries (and no field alias reaches, nor any field of a
//! concept among its `companions`, which answer it: `hardness` read from the moduli), or a
//! parameter concept that no parameter binds.
//!
//! ## Why it matters for routing
//! A query that names an orphan concept matches nothing: the plan reports it as unmatched. Either
//! a mapping is missing or the concept is dead configuration.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: debye_temperature
//!     unit: K
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: debye_temperature
//!     unit: K
//! # file: schemas/aflow.yaml
//! id: aflow
//! title: AFLOW
//! domain: materials_property
//! endpoints:
//!   - id: aflux
//!     method: GET
//!     url: https://aflow.org/API/aflux/
//!     fields:
//!       - name: agl_debye
//!         type: number
//!         unit: K
//!         concepts: [debye_temperature]
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::ConceptKind;

/// See the module documentation.
pub struct OrphanConcept;

impl Rule for OrphanConcept {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        for c in &p.concepts {
            let id = &c.item.id.value;
            let used = match c.item.kind() {
                ConceptKind::Response => {
                    ctx.index.fields_by_concept.contains_key(id)
                        || ctx.index.params_by_concept.contains_key(id)
                        || c.item
                            .companions
                            .iter()
                            .any(|k| ctx.index.fields_by_concept.contains_key(&k.value))
                }
                ConceptKind::Parameter => ctx.index.params_by_concept.contains_key(id),
            };
            if used {
                continue;
            }
            let (what, help) = match c.item.kind() {
                ConceptKind::Response => (
                    "no response field carries it",
                    format!(
                        "add `{id}` to the `concepts:` of the fields that hold it, or delete the concept"
                    ),
                ),
                ConceptKind::Parameter => (
                    "no parameter binds it",
                    format!(
                        "add `bind: [{{concept: {id}}}]` to the parameters it fills, or delete the concept"
                    ),
                ),
            };
            out.report(
                c.file,
                c.item.id.span,
                format!("concept `{id}` is orphaned: {what}"),
            )
            .label("unused concept")
            .fix(help);
        }
    }
}
