//! # attribution-missing (SR404)
//!
//! ## What it finds
//! A licence that requires attribution (the CC-BY family: `CC-BY-*`, `CC-BY-SA-*`,
//! `CC-BY-NC-*`, ..., and `ODC-By-*`) with no `attribution` text.
//!
//! ## Why it matters for routing
//! Answers built from CC-BY data must credit the source; the plan can only attach the credit if
//! the schema declares it.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! licence:
//!   spdx: CC-BY-4.0
//! endpoints: []
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! licence:
//!   spdx: CC-BY-4.0
//!   attribution: "Data: OQMD (oqmd.org), CC BY 4.0"
//! endpoints: []
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::{Licence, Sp};
use crate::source::FileId;

/// See the module documentation.
pub struct AttributionMissing;

/// True when any licence in the expression requires attribution.
pub fn requires_attribution(expr: &str) -> bool {
    expr.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .any(|id| id.starts_with("CC-BY") || id.starts_with("ODC-By"))
}

fn check(file: FileId, l: &Sp<Licence>, whose: &str, out: &mut Sink) {
    // An invalid expression is reported by `invalid-licence` alone.
    if requires_attribution(&l.spdx.value)
        && l.attribution.is_none()
        && super::invalid_licence::check_spdx(&l.spdx.value).is_none()
    {
        out.report(
            file,
            l.spdx.span,
            format!(
                "{whose}: licence `{}` requires attribution but none is given",
                l.spdx.value
            ),
        )
        .label("attribution required")
        .fix("add `attribution: <how to credit the source>` to the licence");
    }
}

impl Rule for AttributionMissing {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            if let Some(l) = &t.licence {
                check(t.file, l, &format!("tool `{}`", t.id.value), out);
            }
            for e in &t.endpoints {
                for f in &e.fields {
                    if let Some(l) = &f.licence {
                        check(t.file, l, &format!("field `{}`", f.name.value), out);
                    }
                }
            }
        }
    }
}
