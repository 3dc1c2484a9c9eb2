//! # untyped-container (SR112)
//!
//! ## What it finds
//! A parameter or response field typed `array` (an array of `any`: no item type) or `object`
//! (also `object[]`) whose properties are declared nowhere: no other field of the endpoint is a
//! path inside it (`link[].href` for `link`), and for a parameter no binding template names its
//! keys.
//!
//! ## Why it matters for routing
//! The router cannot check, convert or project what it cannot see: a value of unknown shape is
//! passed through untouched, and its unit, licence and concept metadata cannot reach the
//! reader. Declaring the item type (`string[]`, `number[][]`) or the properties (as fields with
//! paths) makes them plannable.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/oqmd.yaml
//! id: oqmd
//! title: OQMD
//! domain: crystal_structure
//! endpoints:
//!   - id: structures
//!     method: GET
//!     url: https://oqmd.org/optimade/structures
//!     fields:
//!       - name: elements
//!         type: array
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/oqmd.yaml
//! id: oqmd
//! title: OQMD
//! domain: crystal_structure
//! endpoints:
//!   - id: structures
//!     method: GET
//!     url: https://oqmd.org/optimade/structures
//!     fields:
//!       - name: elements
//!         type: string[]
//!       - name: species
//!         type: object[]
//!       - name: species[].name
//!         type: string
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::{Template, ValueType};

/// See the module documentation.
pub struct UntypedContainer;

/// What is untyped about `ty`, with the help line; `None` when nothing is.
/// A type as a person writes it (`array` for an array of `any`).
fn written(ty: &ValueType) -> String {
    match ty {
        ValueType::Array(inner) if **inner == ValueType::Any => "array".to_string(),
        other => other.to_string(),
    }
}

fn untyped(
    ty: &ValueType,
    has_properties: bool,
    parameter: bool,
) -> Option<(&'static str, &'static str)> {
    match ty.element() {
        ValueType::Any if matches!(ty, ValueType::Array(_)) => Some((
            "an array without an item type",
            "declare the item type: `string[]`, `number[]`, `object[]`, `number[][]`, ...",
        )),
        ValueType::Object if !has_properties && parameter => Some((
            "an object without properties",
            "bind it with an object template that names its keys (`template: {key: \"{value}\"}`), or suppress with the reason its keys are free",
        )),
        ValueType::Object if !has_properties => Some((
            "an object without properties",
            "declare its properties as fields with paths inside it (`name.key`, `name[].key` for `object[]`), or suppress with the reason its keys are free",
        )),
        _ => None,
    }
}

impl Rule for UntypedContainer {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                // Whether a field's path lies inside `name` (`name.key`, `name[].key`), asked
                // only of object-typed fields.
                let inside = |name: &str| {
                    e.fields.iter().any(|f| {
                        f.name
                            .value
                            .strip_prefix(name)
                            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with("[]."))
                    })
                };
                for f in &e.fields {
                    let has_properties =
                        *f.ty.value.element() == ValueType::Object && inside(&f.name.value);
                    if let Some((what, help)) = untyped(&f.ty.value, has_properties, false) {
                        out.report(
                            t.file,
                            f.ty.span,
                            format!(
                                "field `{}` of {}/{} is {what} (`{}`)",
                                f.name.value,
                                t.id.value,
                                e.id.value,
                                written(&f.ty.value)
                            ),
                        )
                        .label("type")
                        .fix(help);
                    }
                }
                for p in &e.parameters {
                    let keyed = p.bind.iter().any(|b| {
                        matches!(
                            b.template.as_ref().map(|t| &t.value),
                            Some(Template::Object(_))
                        )
                    });
                    if let Some((what, help)) = untyped(&p.ty.value, keyed, true) {
                        out.report(
                            t.file,
                            p.ty.span,
                            format!(
                                "parameter `{}` of {}/{} is {what} (`{}`)",
                                p.name.value,
                                t.id.value,
                                e.id.value,
                                written(&p.ty.value)
                            ),
                        )
                        .label("type")
                        .fix(help);
                    }
                }
            }
        }
    }
}
