//! # invalid-unit (SR301)
//!
//! ## What it finds
//! A `unit` (on a field or a concept) or a `unit_as_published` that the unit checker cannot
//! parse, with the offending part of the string and a "did you mean". Declared units use the
//! canonical grammar (`eV/atom`, `Å^3`, `g/cm^3`, `μB`, `W/(m·K)`); published spellings may also
//! be HTML (`&Aring;<sup>3</sup>`) or pint (`kg / m ** 3`) forms. Offset temperature scales are
//! units too (`°C`, `degC`, `celsius`, `°F`, `degF`, `fahrenheit`; values in them are absolute
//! temperatures, converted with their offset: see docs/units.md). A concept `dimension` name
//! that is not known is reported too.
//!
//! Every help line, followed, gives a unit that loads: a "did you mean" names a unit of the
//! table, and an unknown `dimension` is answered with a known dimension name.
//!
//! ## Why it matters for routing
//! Plans attach units to every field and convert between providers; a unit that cannot be read
//! carries no dimension, so conflicts and conversions go unchecked.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: ev/atomm
//! ```
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: melting_point
//!     unit: degc
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: eV
//!   - id: melting_point
//!     unit: °C
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink, inner_span};
use crate::model::Sp;
use crate::source::FileId;
use crate::units::Dimension;

/// See the module documentation.
pub struct InvalidUnit;

fn check(
    ctx: &Context,
    file: FileId,
    unit: &Sp<String>,
    published: bool,
    whose: &dyn Fn() -> String,
    out: &mut Sink,
) {
    let r = if published {
        ctx.published_unit(&unit.value)
    } else {
        ctx.unit(&unit.value)
    };
    if let Err(e) = r {
        let span = inner_span(ctx.project, file, unit.span, e.offset, e.len);
        let help = match &e.suggestion {
            Some(s) => format!("did you mean `{s}`?"),
            None => "write the unit in the canonical grammar, e.g. `eV/atom`, `Å^3`, `g/cm^3`, `W/(m·K)`".to_string(),
        };
        let kind = if published { "published unit" } else { "unit" };
        out.report(
            file,
            span,
            format!(
                "{} has invalid {kind} `{}`: {}",
                whose(),
                unit.value,
                e.message
            ),
        )
        .label("cannot be read as a unit")
        .fix(help);
    }
}

impl Rule for InvalidUnit {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for c in &ctx.project.concepts {
            let whose = || format!("concept `{}`", c.item.id.value);
            if let Some(u) = &c.item.unit {
                check(ctx, c.file, u, false, &whose, out);
            }
            if let Some(d) = &c.item.dimension
                && d.value != "none"
                && Dimension::from_name(&d.value).is_none()
            {
                let names = Dimension::known_names();
                let help = match crate::model::value::did_you_mean(&d.value, names.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "use a dimension name such as `energy`, `energy_per_atom`, `volume`, `dimensionless`, `count`, or `none` for non-numeric concepts".to_string(),
                };
                out.report(
                    c.file,
                    d.span,
                    format!("{} has unknown dimension `{}`", whose(), d.value),
                )
                .label("unknown dimension name")
                .fix(help);
            }
        }
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                for f in &e.fields {
                    let whose = || format!("field `{}`", f.name.value);
                    if let Some(u) = &f.unit {
                        check(ctx, t.file, u, false, &whose, out);
                    }
                    if let Some(u) = &f.unit_as_published {
                        check(ctx, t.file, u, true, &whose, out);
                    }
                }
            }
        }
    }
}
