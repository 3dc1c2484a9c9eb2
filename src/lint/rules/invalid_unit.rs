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
//! Everyday units of public APIs are built in (`kcal`, `kWh`, `lb`, `oz`, `in`, `ft`, `mi`,
//! `acre`, `gal`, `mph`, `psi`, `day`: docs/units.md); a unit of the project's own is declared
//! under `[units]` in `schemarouter.toml`. A currency code (`USD`) is no unit: no factor
//! converts between currencies, so the help says to name it in the field's description.
//!
//! Every help line, followed, gives a unit that loads: a "did you mean" names a unit of the
//! table, and an unknown `dimension` is answered with a known dimension name.
//!
//! ## Why it matters for routing
//! Plans attach units to every field and convert between providers; a unit that cannot be read
//! carries no dimension, so conflicts and conversions go unchecked.
//!
//! ## Fix
//! Unsafe when the help line suggests a spelling (`did you mean ...?`): the part that cannot be
//! read is replaced by it (`ev` -> `eV`, `cm3` -> `cm^3`), the rest of the string kept; a unit
//! written as providers publish it (`degrees Celsius`, `kelvin`) is replaced whole by its
//! canonical spelling (`°C`, `K`). A
//! suggestion is a guess (`mev` gives `MeV`, where `meV` may have been meant): review the diff.
//! Applying it to the invalid example gives the valid example.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: ev/atom
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
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: boiling_point
//!     unit: degrees Celsius
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: eV/atom
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: melting_point
//!     unit: °C
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: boiling_point
//!     unit: °C
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink, inner_span};
use crate::model::Sp;
use crate::source::FileId;
use crate::units::Dimension;

/// See the module documentation.
pub struct InvalidUnit;

/// Whether a unit is written as an ISO 4217 currency code (three capital letters: `USD`,
/// `EUR`): no factor converts between currencies.
fn is_currency_code(unit: &str) -> bool {
    let t = unit.trim();
    t.len() == 3 && t.bytes().all(|b| b.is_ascii_uppercase())
}

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
    if let Err(mut e) = r {
        // A declared unit written as providers publish it ("degrees Celsius", "kelvin",
        // "gigapascals"): the whole spelling is the unit the published grammar reads, not a
        // near miss of one word ("deg").
        if !published && let Ok(u) = ctx.published_unit(&unit.value) {
            e.offset = 0;
            e.len = unit.value.len();
            e.suggestion = Some(u.canonical.clone());
        }
        let span = inner_span(ctx.project, file, unit.span, e.offset, e.len);
        let help = match &e.suggestion {
            Some(s) => format!("did you mean `{s}`?"),
            None if is_currency_code(&unit.value) => "a currency converts by rates that change, not by a factor: leave `unit` out and name the currency in the field's description".to_string(),
            None => "write the unit in the unit grammar (`km/h`, `kg`, `kcal`, `°C`, `W/(m·K)`), or declare it under `[units]` in schemarouter.toml as a factor of known units (`furlong = \"201.168 m\"`)".to_string(),
        };
        let kind = if published { "published unit" } else { "unit" };
        let fix = e
            .suggestion
            .as_deref()
            .and_then(|s| suggestion_fix(ctx, file, unit, published, (e.offset, e.len), s));
        let d = out
            .report(
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
        if let Some(fix) = fix.filter(|_| {
            d.help
                .as_deref()
                .is_some_and(|h| h.starts_with("did you mean"))
        }) {
            d.autofix(fix);
        }
    }
}

/// The fix for a suggested spelling `s` of the unreadable part `offset..offset + len` of
/// `unit`: that part, else the word around it (`cm3` for the `3` of a missing `^`), replaced by
/// `s`, whichever first gives a unit that can be read; `None` when neither does (another part
/// is wrong too: the help line leads the way, and a fix that leaves an error is no fix).
fn suggestion_fix(
    ctx: &Context,
    file: FileId,
    unit: &Sp<String>,
    published: bool,
    (offset, len): (usize, usize),
    s: &str,
) -> Option<crate::diagnostics::fix::Fix> {
    let v = &unit.value;
    v.get(offset..offset + len)?;
    let word = |c: char| c.is_alphanumeric();
    let start = v[..offset]
        .rfind(|c: char| !word(c))
        .map_or(0, |i| i + v[i..].chars().next().map_or(1, char::len_utf8));
    let end = v[offset + len..]
        .find(|c: char| !word(c))
        .map_or(v.len(), |i| offset + len + i);
    let text = &ctx.project.sources.get(file).text;
    [(offset, offset + len), (start, end)]
        .into_iter()
        .find_map(|(a, b)| {
            let candidate = format!("{}{s}{}", &v[..a], &v[b..]);
            let readable = if published {
                ctx.published_unit(&candidate).is_ok()
            } else {
                ctx.unit(&candidate).is_ok()
            };
            let span = inner_span(ctx.project, file, unit.span, a, b - a);
            readable
                .then(|| {
                    crate::lint::fix::part_replacement_fix(
                        text,
                        file,
                        span,
                        unit.span.start,
                        v.get(a..b)?,
                        s,
                    )
                })
                .flatten()
        })
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
