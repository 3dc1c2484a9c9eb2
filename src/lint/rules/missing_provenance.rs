//! # missing-provenance (SR406)
//!
//! ## What it finds
//! A tool without `provenance`, or whose provenance names neither a publisher nor a citation.
//!
//! ## Why it matters for routing
//! Plans attach provenance to every field so answers can say where a number came from (which
//! database, which DFT functional, which paper); without it the answer cannot be checked.
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
//! provenance:
//!   publisher: Wolverton group, Northwestern University
//!   method: DFT (PBE, GGA+U)
//!   citation: "10.1007/s11837-013-0755-4"
//! endpoints: []
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct MissingProvenance;

impl Rule for MissingProvenance {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            match &t.provenance {
                None => {
                    out.report(t.file, t.id.span, format!("tool `{}` declares no provenance", t.id.value))
                        .label("no `provenance`")
                        .fix("add `provenance: {publisher: ..., method: ..., citation: ..., url: ...}` (the citation the source asks for, if any)");
                }
                Some(p) if p.publisher.is_none() && p.citation.is_none() => {
                    out.report(
                        t.file,
                        p.span,
                        format!(
                            "provenance of tool `{}` names neither a publisher nor a citation",
                            t.id.value
                        ),
                    )
                    .label("incomplete provenance")
                    .fix("add `publisher:` (who publishes the data) and `citation:` (the source's own citation, where it asks for one)");
                }
                Some(_) => {}
            }
        }
    }
}
