//! # missing-unit (SR304)
//!
//! ## What it finds
//! A numeric field mapped to a dimensional concept (one whose canonical unit or dimension is not
//! dimensionless) that declares no unit. The help proposes the concept's unit, or for a concept
//! declared by `dimension` alone that dimension's coherent SI unit (`K` for `temperature`),
//! never a dimension name; a provider's own unit of the same dimension (`°C`, `degF`) is as
//! good.
//!
//! ## Why it matters for routing
//! Plans attach a unit to every field they project; without one, a reader LLM sees a bare number
//! for a band gap or a modulus and may assume the wrong scale.
//!
//! ## Fix
//! Unsafe when the concept declares a unit: `unit:` with the concept's unit is added to the field,
//! on a line under its `name` (`unit = "..."` in TOML); the provider may send another unit of the
//! same dimension, so review the diff. None when the concept names only a dimension. Applying it
//! to the invalid example gives the valid example.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: bulk_modulus
//!     unit: GPa
//! # file: schemas/aflow.yaml
//! id: aflow
//! title: AFLOW
//! domain: materials_property
//! endpoints:
//!   - id: aflux
//!     method: GET
//!     url: https://aflow.org/API/aflux/
//!     fields:
//!       - name: ael_bulk_modulus_vrh
//!         type: number
//!         concepts: [bulk_modulus]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: bulk_modulus
//!     unit: GPa
//! # file: schemas/aflow.yaml
//! id: aflow
//! title: AFLOW
//! domain: materials_property
//! endpoints:
//!   - id: aflux
//!     method: GET
//!     url: https://aflow.org/API/aflux/
//!     fields:
//!       - name: ael_bulk_modulus_vrh
//!         unit: GPa
//!         type: number
//!         concepts: [bulk_modulus]
//! ```

use crate::graph::index;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::units::Dimension;

/// See the module documentation.
pub struct MissingUnit;

impl Rule for MissingUnit {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        for c in &p.concepts {
            // What the help proposes must be a unit (a dimension name is not one): the concept's
            // canonical unit, else the dimension's coherent SI unit (`K` for temperature).
            let declared = c.item.unit.as_ref().map(|u| u.value.clone());
            let dim = if let Some(u) = &c.item.unit {
                ctx.unit(&u.value).ok().map(|u| (u.dim, u.canonical))
            } else if let Some(d) = &c.item.dimension {
                Dimension::from_name(&d.value).map(|dim| (dim, dim.si_unit()))
            } else {
                None
            };
            let Some((dim, spelled)) = dim else { continue };
            if dim.without_basis().is_dimensionless() {
                continue;
            }
            let Some(refs) = ctx.index.fields_by_concept.get(&c.item.id.value) else {
                continue;
            };
            for r in refs {
                let (t, _, f) = index::resolve(p, *r);
                if f.unit.is_some() || !f.ty.is_numeric() {
                    continue;
                }
                let file = p.tools[r.tool].file;
                let fix = declared.as_deref().and_then(|unit| {
                    let text = &p.sources.get(file).text;
                    let edit = crate::lint::fix::sibling_key_insertion(
                        text,
                        file,
                        f.name.span,
                        "name",
                        "unit",
                        unit,
                    )?;
                    Some(crate::diagnostics::fix::Fix::unsafe_edit(
                        format!("add `unit: {unit}`"),
                        vec![edit],
                    ))
                });
                let d = out.report(
                    file,
                    f.name.span,
                    format!(
                        "numeric field `{}` of {} carries concept `{}` ({}) but declares no unit",
                        f.name.value, t.id.value, c.item.id.value, dim
                    ),
                )
                .label("no `unit`")
                .fix(format!(
                    "add `unit: {spelled}` to the field, or the unit of {dim} the provider sends"
                ));
                if let Some(fix) = fix {
                    d.autofix(fix);
                }
            }
        }
    }
}
