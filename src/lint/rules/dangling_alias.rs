//! # dangling-alias (SR201)
//!
//! ## What it finds
//! A stand-alone alias (under `aliases:` in a file in `aliases/`) that names a concept or a field
//! path (`tool/endpoint/field`) that does not exist, names neither, or names a field that does
//! not carry the concept it also names.
//!
//! ## Why it matters for routing
//! The alias layer is how "bulk modulus" becomes `bulk_modulus.vrh`; an alias to nothing makes
//! the router report the concept as unmatched (or worse, a stale plan keeps a field that no
//! longer exists).
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! aliases:
//!   - text: K_VRH
//!     concept: bulk_modulus
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: bulk_modulus
//!     unit: GPa
//! aliases:
//!   - text: K_VRH
//!     concept: bulk_modulus
//! ```

use crate::graph::index;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::value::did_you_mean;

/// See the module documentation.
pub struct DanglingAlias;

impl Rule for DanglingAlias {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        let ix = ctx.index;
        for a in &p.aliases {
            let alias = &a.item.value;
            if alias.concept.is_none() && alias.field.is_none() {
                out.report(
                    a.file,
                    alias.text.span,
                    format!("alias `{}` points at nothing", alias.text.value),
                )
                .label("no `concept` and no `field`")
                .fix("add `concept: <id>` or `field: <tool/endpoint/field>`");
                continue;
            }
            if let Some(c) = &alias.concept
                && !ix.concepts.contains_key(&c.value)
            {
                let help = match did_you_mean(&c.value, ix.concepts.keys().map(String::as_str)) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("declare concept `{}` in a file under aliases/", c.value),
                };
                out.report(
                    a.file,
                    c.span,
                    format!(
                        "alias `{}` names undeclared concept `{}`",
                        alias.text.value, c.value
                    ),
                )
                .label("no concept with this id")
                .with(a.file, alias.text.span, "the alias")
                .fix(help);
            }
            // A field in a tool file that failed to load would look unknown: skip field targets.
            if let Some(f) = &alias.field
                && !ctx.failed_kinds.contains(&crate::model::FileKind::Tool)
            {
                match ix.field_paths.get(&f.value) {
                    None => {
                        let help = match did_you_mean(&f.value, ix.field_paths.keys().map(String::as_str)) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => "write the field as `tool/endpoint/field` with the provider's exact field name".to_string(),
                        };
                        out.report(
                            a.file,
                            f.span,
                            format!(
                                "alias `{}` names unknown field `{}`",
                                alias.text.value, f.value
                            ),
                        )
                        .label("no such tool/endpoint/field")
                        .fix(help);
                    }
                    Some(r) => {
                        if let Some(c) = &alias.concept
                            && ix.concepts.contains_key(&c.value)
                        {
                            let (t, _, field) = index::resolve(p, *r);
                            if !field.concepts.iter().any(|fc| fc.value == c.value) {
                                out.report(
                                    a.file,
                                    f.span,
                                    format!(
                                        "alias `{}` names field `{}`, which does not carry concept `{}`",
                                        alias.text.value, f.value, c.value
                                    ),
                                )
                                .label("field without that concept")
                                .with(p.tools[r.tool].file, field.name.span, "the field")
                                .fix(format!(
                                    "add `{}` to the field's concepts in {}, or drop `concept:` from the alias",
                                    c.value, t.id.value
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
}
