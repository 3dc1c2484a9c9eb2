//! # invalid-parameter-value (SR110)
//!
//! ## What it finds
//! A parameter's `default` or `enum` value that does not fit the parameter's declared `type` (a
//! `boolean` default `off`, an `integer` default `abc` or `"10"`, a `number` enum value `high`),
//! and a `default` that is not one of the parameter's own `enum` values. Numbers fit `string`
//! parameters (they are sent as written: `1.10` stays `"1.10"`).
//!
//! ## Why it matters for routing
//! The router sends a required parameter's default when nothing binds it, and checks bound
//! values against the enum: a default of the wrong type or outside the enum is a request the
//! provider rejects, made on every plan that uses the endpoint.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write, with the
//! enum's values as the file must write them (`"1"` in quotes: a bare `1` is a number).
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/mp.yaml
//! id: mp
//! title: MP
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.materialsproject.org/materials/summary/
//!     parameters:
//!       - name: deprecated
//!         type: boolean
//!         default: off
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/mp.yaml
//! id: mp
//! title: MP
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.materialsproject.org/materials/summary/
//!     parameters:
//!       - name: deprecated
//!         type: boolean
//!         default: false
//!       - name: sort
//!         type: string
//!         enum: [energy, volume]
//!         default: energy
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct InvalidParameterValue;

impl Rule for InvalidParameterValue {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                for p in &e.parameters {
                    let what = || {
                        format!(
                            "parameter `{}` of {}/{}",
                            p.name.value, t.id.value, e.id.value
                        )
                    };
                    if let Some(d) = &p.default
                        && let Some((msg, help)) = d.value.misfit(&p.ty.value)
                    {
                        out.report(t.file, d.span, format!("default of {}: {msg}", what()))
                            .label("default")
                            .with(t.file, p.ty.span, "declared type")
                            .fix(help);
                    }
                    for v in p.enum_values.iter().flatten() {
                        if let Some((msg, help)) = v.value.misfit(&p.ty.value) {
                            out.report(t.file, v.span, format!("enum value of {}: {msg}", what()))
                                .label("enum value")
                                .with(t.file, p.ty.span, "declared type")
                                .fix(help);
                        }
                    }
                    if let (Some(d), Some(values)) = (&p.default, &p.enum_values)
                        && !values.is_empty()
                        && !values.iter().any(|v| v.value.same_value(&d.value))
                    {
                        let list: Vec<String> = values
                            .iter()
                            .map(|v| format!("`{}`", v.value.as_source()))
                            .collect();
                        let near = crate::model::value::did_you_mean(
                            &d.value.as_written(),
                            values.iter().map(|v| match &v.value {
                                crate::model::Scalar::String(s) => s.as_str(),
                                _ => "",
                            }),
                        );
                        let help = match near {
                            Some(c) if !c.is_empty() => format!(
                                "did you mean `{}`?",
                                crate::model::Scalar::String(c.to_string()).as_source()
                            ),
                            _ => format!(
                                "use one of {}, or add the default to the enum",
                                list.join(", ")
                            ),
                        };
                        out.report(
                            t.file,
                            d.span,
                            format!(
                                "default `{}` of {} is not one of its enum values",
                                d.value,
                                what()
                            ),
                        )
                        .label("default")
                        .with(t.file, values[0].span, "enum")
                        .fix(help);
                    }
                }
            }
        }
    }
}
