//! # unit-as-published-mismatch (SR306)
//!
//! ## What it finds
//! A `unit_as_published` that does not normalise to the declared `unit` (after HTML entities,
//! `<sup>`, pint spellings and case slips are normalised), or a published spelling with no
//! declared unit. A published spelling that omits a count basis the declared unit has
//! (`μB` published, `μB/cell` declared) is accepted: providers leave "per cell" implicit.
//!
//! ## Why it matters for routing
//! The published spelling documents what the provider actually sends; if it disagrees with the
//! declared unit, one of them is wrong and every converted value with it.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/oqmd.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! endpoints:
//!   - id: formationenergy
//!     method: GET
//!     url: http://oqmd.org/oqmdapi/formationenergy
//!     fields:
//!       - name: volume
//!         type: number
//!         unit: Å^2
//!         unit_as_published: Ao^3
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/oqmd.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! endpoints:
//!   - id: formationenergy
//!     method: GET
//!     url: http://oqmd.org/oqmdapi/formationenergy
//!     fields:
//!       - name: volume
//!         type: number
//!         unit: Å^3
//!         unit_as_published: Ao^3
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::units::{PublishedMatch, match_published};

/// See the module documentation.
pub struct UnitAsPublishedMismatch;

impl Rule for UnitAsPublishedMismatch {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                for f in &e.fields {
                    let Some(p) = &f.unit_as_published else {
                        continue;
                    };
                    let Ok(published) = ctx.published_unit(&p.value) else {
                        continue;
                    };
                    let Some(u) = &f.unit else {
                        out.report(
                            t.file,
                            p.span,
                            format!(
                                "field `{}` gives a published unit `{}` but no declared `unit`",
                                f.name.value, p.value
                            ),
                        )
                        .label("published spelling")
                        .fix(format!("add `unit: {}`", published.canonical));
                        continue;
                    };
                    let Ok(declared) = ctx.unit(&u.value) else {
                        continue;
                    };
                    if match_published(&declared, &published) == PublishedMatch::Mismatch {
                        out.report(
                            t.file,
                            p.span,
                            format!(
                                "published unit `{}` of field `{}` reads as {} ({}), not the declared {} ({})",
                                p.value, f.name.value, published.canonical, published.dim,
                                declared.canonical, declared.dim
                            ),
                        )
                        .label(format!("reads as {}", published.canonical))
                        .with(t.file, u.span, "declared unit")
                        .fix("correct whichever of the two is wrong");
                    }
                }
            }
        }
    }
}
