//! # concept-kind-mismatch (SR105)
//!
//! ## What it finds
//! A response field that carries a `parameter` concept. (The reverse is allowed: a response
//! concept such as `doi` or `title` may also be bound as a query input.)
//!
//! ## Why it matters for routing
//! Parameter concepts exist only as query inputs; a response field carrying one would make the
//! router project a field whenever a query merely supplies that input.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/c.yaml
//! concepts:
//!   - id: formula
//!     kind: parameter
//! # file: schemas/t.yaml
//! id: t
//! title: T
//! domain: materials_property
//! endpoints:
//!   - id: e
//!     method: GET
//!     url: https://t.example/e
//!     fields:
//!       - name: formula_pretty
//!         type: string
//!         concepts: [formula]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/c.yaml
//! concepts:
//!   - id: formula
//!     kind: parameter
//!   - id: reduced_formula
//!     dimension: none
//! # file: schemas/t.yaml
//! id: t
//! title: T
//! domain: materials_property
//! endpoints:
//!   - id: e
//!     method: GET
//!     url: https://t.example/e
//!     parameters:
//!       - name: formula
//!         type: string
//!         bind:
//!           - concept: formula
//!     fields:
//!       - name: formula_pretty
//!         type: string
//!         concepts: [reduced_formula]
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::ConceptKind;

/// See the module documentation.
pub struct ConceptKindMismatch;

impl Rule for ConceptKindMismatch {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        let kind_of = |id: &str| {
            ctx.index
                .concepts
                .get(id)
                .map(|i| (&p.concepts[*i], p.concepts[*i].item.kind()))
        };
        for t in &p.tools {
            for e in &t.endpoints {
                for f in &e.fields {
                    for c in &f.concepts {
                        if let Some((decl, ConceptKind::Parameter)) = kind_of(&c.value) {
                            out.report(
                                t.file,
                                c.span,
                                format!(
                                    "response field `{}` carries parameter concept `{}`",
                                    f.name.value, c.value
                                ),
                            )
                            .label("a parameter concept")
                            .with(
                                decl.file,
                                decl.item.id.span,
                                "declared as `kind: parameter` here",
                            )
                            .fix("map the field to a response concept (declare one if needed)");
                        }
                    }
                }
            }
        }
    }
}
