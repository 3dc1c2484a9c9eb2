//! # convertible-unit (SR303)
//!
//! ## What it finds
//! A field whose unit has the concept's dimension but is a different unit (NOMAD's joules for a
//! band gap declared in eV). The finding names the conversion factor the compiler records, and
//! for an offset temperature scale the offset too (a field in `°C` of a concept in `K`:
//! `x °C = x +273.15 K`; values are converted as absolute temperatures).
//!
//! ## Why it matters for routing
//! Nothing is wrong, but answers that compare providers must convert: the plan carries the
//! factor, and this note makes every conversion visible in review.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: eV
//! # file: schemas/nomad.yaml
//! id: nomad
//! title: NOMAD
//! domain: materials_property
//! endpoints:
//!   - id: entries_query
//!     method: POST
//!     url: http://nomad-lab.eu/prod/v1/api/v1/entries/query
//!     fields:
//!       - name: results.properties.electronic.band_gap[].value
//!         type: number
//!         unit: J
//!         unit_as_published: joule
//!         concepts: [band_gap]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: eV
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
//!         unit: eV
//!         concepts: [band_gap]
//! ```

use crate::graph::index;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::units::conversion;

/// See the module documentation.
pub struct ConvertibleUnit;

/// A conversion factor for messages: plain digits between 1e-4 and 1e6, scientific otherwise.
pub fn fmt_factor(f: f64) -> String {
    if f != 0.0 && (f.abs() < 1e-4 || f.abs() >= 1e6) {
        format!("{f:e}")
    } else {
        format!("{f}")
    }
}

impl Rule for ConvertibleUnit {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        for c in &p.concepts {
            let id = &c.item.id.value;
            let Some(cu) = &c.item.unit else { continue };
            let Ok(canonical) = ctx.unit(&cu.value) else {
                continue;
            };
            let Some(refs) = ctx.index.fields_by_concept.get(id) else {
                continue;
            };
            for r in refs {
                let (t, _, f) = index::resolve(p, *r);
                let Some(u) = &f.unit else { continue };
                let Ok(unit) = ctx.unit(&u.value) else {
                    continue;
                };
                if unit.canonical == canonical.canonical {
                    continue;
                }
                let Some(conv) = conversion(&unit, &canonical) else {
                    continue;
                };
                if conv.is_identity() {
                    continue;
                }
                let (from, to) = (&unit.canonical, &canonical.canonical);
                let (what, label, help) = if conv.offset == 0.0 {
                    (
                        format!("1 {from} = {:e} {to}", conv.factor),
                        format!("× {} to {to}", fmt_factor(conv.factor)),
                        "nothing to fix: the compiled artifact records this factor for every plan",
                    )
                } else {
                    (
                        format!("x {from} = x {} {to}", conv.describe()),
                        format!("{} to {to}", conv.describe()),
                        "nothing to fix: every plan converts its values with this factor and offset, as absolute temperatures (declare a temperature difference as `K` or `delta_degC`)",
                    )
                };
                out.report(
                    p.tools[r.tool].file,
                    u.span,
                    format!(
                        "field `{}` of {} is in {from}, concept `{id}` is in {to}: {what}",
                        f.name.value, t.id.value,
                    ),
                )
                .label(label)
                .with(c.file, cu.span, "canonical unit")
                .fix(help);
            }
        }
    }
}
