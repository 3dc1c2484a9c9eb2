//! # unit-conflict (SR302)
//!
//! ## What it finds
//! Fields mapped to one concept whose units have different dimensions, or a field whose unit's
//! dimension differs from the concept's canonical unit or dimension. The count basis is part of
//! the dimension: `eV/atom` and `eV/cell` (or `μB/f.u.` and `μB/cell`) conflict. Both fields
//! are shown.
//!
//! ## Why it matters for routing
//! A concept promises comparable values. Comparing AFLOW's per-cell formation enthalpy with
//! Materials Project's per-atom value, or a volume per atom with a reciprocal volume, gives
//! answers that are wrong by a factor nobody sees.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: formation_energy
//!     unit: eV/atom
//! # file: schemas/aflow.yaml
//! id: aflow
//! title: AFLOW
//! domain: materials_property
//! endpoints:
//!   - id: aflux
//!     method: GET
//!     url: https://aflow.org/API/aflux/
//!     fields:
//!       - name: enthalpy_formation_atom
//!         type: number
//!         unit: eV/atom
//!         concepts: [formation_energy]
//!       - name: enthalpy_formation_cell
//!         type: number
//!         unit: eV/cell
//!         concepts: [formation_energy]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: formation_energy
//!     unit: eV/atom
//!   - id: formation_enthalpy_per_cell
//!     unit: eV/cell
//! # file: schemas/aflow.yaml
//! id: aflow
//! title: AFLOW
//! domain: materials_property
//! endpoints:
//!   - id: aflux
//!     method: GET
//!     url: https://aflow.org/API/aflux/
//!     fields:
//!       - name: enthalpy_formation_atom
//!         type: number
//!         unit: eV/atom
//!         concepts: [formation_energy]
//!       - name: enthalpy_formation_cell
//!         type: number
//!         unit: eV/cell
//!         concepts: [formation_enthalpy_per_cell]
//! ```

use crate::graph::index;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::units::Dimension;

/// See the module documentation.
pub struct UnitConflict;

impl Rule for UnitConflict {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        for c in &p.concepts {
            let id = &c.item.id.value;
            // The concept's own dimension, when declared.
            let declared: Option<(Dimension, String, crate::source::Span)> =
                if let Some(u) = &c.item.unit {
                    ctx.unit(&u.value)
                        .ok()
                        .map(|un| (un.dim, un.canonical.clone(), u.span))
                } else if let Some(d) = &c.item.dimension {
                    Dimension::from_name(&d.value).map(|dim| (dim, d.value.clone(), d.span))
                } else {
                    None
                };
            let Some(refs) = ctx.index.fields_by_concept.get(id) else {
                continue;
            };
            // First field seen per dimension.
            let mut first: Option<(Dimension, String, crate::graph::index::FieldRef)> = None;
            for r in refs {
                let (t, _, f) = index::resolve(p, *r);
                let Some(u) = &f.unit else { continue };
                let Ok(unit) = ctx.unit(&u.value) else {
                    continue;
                };
                let tool_file = p.tools[r.tool].file;
                if let Some((dim, spelled, span)) = &declared {
                    if unit.dim != *dim {
                        out.report(
                            tool_file,
                            u.span,
                            format!(
                                "field `{}` of {} is in {} ({}), but concept `{id}` is {} ({})",
                                f.name.value, t.id.value, unit.dim, unit.canonical, dim, spelled
                            ),
                        )
                        .label(format!("{}", unit.dim))
                        .with(c.file, *span, format!("concept `{id}` declared as {dim}"))
                        .fix(format!(
                            "map the field to a concept of dimension {} (declare one if needed), or fix the unit",
                            unit.dim
                        ));
                    }
                    continue;
                }
                match &first {
                    None => first = Some((unit.dim, unit.canonical.clone(), *r)),
                    Some((dim, canon, fr)) if unit.dim != *dim => {
                        let (ft, _, ff) = index::resolve(p, *fr);
                        let fu = ff.unit.as_ref().expect("first field has a unit");
                        out.report(
                            tool_file,
                            u.span,
                            format!(
                                "fields of concept `{id}` have different dimensions: `{}` of {} is {} ({}), `{}` of {} is {} ({})",
                                f.name.value, t.id.value, unit.dim, unit.canonical,
                                ff.name.value, ft.id.value, dim, canon
                            ),
                        )
                        .label(format!("{}", unit.dim))
                        .with(p.tools[fr.tool].file, fu.span, format!("{dim}"))
                        .fix("give the concept a canonical unit and map fields of another dimension or basis to their own concept");
                    }
                    Some(_) => {}
                }
            }
        }
    }
}
