//! # unverified-licence (SR403)
//!
//! ## What it finds
//! A licence declared `verified: false`: the terms could not be confirmed from the provider.
//!
//! ## Why it matters for routing
//! Plans carry the licence into answers; an unverified one must stay visible until someone checks
//! the provider's terms, or be suppressed with a written reason.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: aflow
//! title: AFLOW
//! domain: materials_property
//! licence:
//!   spdx: LicenseRef-aflow-terms
//!   verified: false
//! endpoints: []
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: aflow
//! title: AFLOW
//! domain: materials_property
//! licence:
//!   spdx: LicenseRef-aflow-terms
//!   url: https://aflow.org
//! endpoints: []
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::{Licence, Sp};
use crate::source::FileId;

/// See the module documentation.
pub struct UnverifiedLicence;

fn check(file: FileId, l: &Sp<Licence>, whose: &str, out: &mut Sink) {
    if let Some(v) = &l.verified
        && !v.value
    {
        out.report(
            file,
            v.span,
            format!("{whose} has an unverified licence `{}`", l.spdx.value),
        )
        .label("not confirmed with the provider")
        .with(file, l.spdx.span, "declared licence")
        .fix("confirm the terms on the provider's site and set `verified: true`, or suppress with the reason it cannot be checked");
    }
}

impl Rule for UnverifiedLicence {
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
