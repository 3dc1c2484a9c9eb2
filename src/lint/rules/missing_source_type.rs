//! # missing-source-type (SR405)
//!
//! ## What it finds
//! A tool without `source_type` whose fields do not all declare their own.
//!
//! ## Why it matters for routing
//! Algorithm 1 filters candidates by source type when the query says "measured" or "DFT"; a
//! tool without one is silently excluded from every source-constrained plan, and plans cannot
//! tell the reader whether a value is experimental or calculated.
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
//! endpoints: []
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! source_type: calculated
//! endpoints: []
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct MissingSourceType;

impl Rule for MissingSourceType {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            if t.source_type.is_some() {
                continue;
            }
            let fields: Vec<_> = t.endpoints.iter().flat_map(|e| e.fields.iter()).collect();
            if !fields.is_empty() && fields.iter().all(|f| f.source_type.is_some()) {
                continue;
            }
            out.report(t.file, t.id.span, format!("tool `{}` declares no source type", t.id.value))
                .label("no `source_type`")
                .fix("add `source_type: experimental | calculated | literature | regulatory_filing | web`");
        }
    }
}
