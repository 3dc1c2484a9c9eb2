//! # unit-on-non-numeric (SR305)
//!
//! ## What it finds
//! A `unit` on a field whose type is not numeric (`string`, `boolean`, `object`, ...). Numbers
//! that the provider sends as JSON strings are declared `type: number` with `encoding: string`.
//!
//! ## Why it matters for routing
//! A unit on text is either a wrong type (the value is a number sent as a string, which the
//! plan should say) or a wrong unit; both mislead the reader LLM.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/cod.yaml
//! id: cod
//! title: COD
//! domain: crystal_structure
//! endpoints:
//!   - id: result
//!     method: GET
//!     url: https://www.crystallography.net/cod/result
//!     fields:
//!       - name: vol
//!         type: string
//!         unit: Å^3
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/cod.yaml
//! id: cod
//! title: COD
//! domain: crystal_structure
//! endpoints:
//!   - id: result
//!     method: GET
//!     url: https://www.crystallography.net/cod/result
//!     fields:
//!       - name: vol
//!         type: number
//!         encoding: string
//!         unit: Å^3
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct UnitOnNonNumeric;

impl Rule for UnitOnNonNumeric {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                for f in &e.fields {
                    let Some(u) = &f.unit else { continue };
                    if f.ty.is_numeric() || matches!(f.ty.element(), crate::model::ValueType::Any) {
                        continue;
                    }
                    out.report(
                        t.file,
                        u.span,
                        format!(
                            "field `{}` has unit `{}` but type `{}`",
                            f.name.value, u.value, f.ty.value
                        ),
                    )
                    .label("unit on a non-numeric field")
                    .with(t.file, f.ty.span, "declared type")
                    .fix("if the provider sends numbers as strings, write `type: number` with `encoding: string`; otherwise remove the unit");
                }
            }
        }
    }
}
