//! # invalid-records-path (SR109)
//!
//! ## What it finds
//! An endpoint `records` path (where the records sit in the response) that is not a path:
//! empty, with an empty segment (`data..items`), or with brackets other than a trailing `[]`
//! (an array of records) or `{}` (the object members of a map keyed by id, as in PubMed's
//! `result.{}`). Also a records path that the endpoint's field names repeat: field names are
//! paths inside one record, so with `records: data[]` the band gap is `band_gap`, not
//! `data[].band_gap`.
//!
//! ## Why it matters for routing
//! Projection (`schemarouter extract`) cuts each response down to the planned fields by
//! walking the records path and then each field path. A path that cannot be walked, or a field
//! that repeats the records prefix, finds nothing: every planned field would be reported
//! missing and the reader would get no values.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: materials_project
//! title: Materials Project
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.materialsproject.org/materials/summary/
//!     records: data[]
//!     fields:
//!       - name: data[].band_gap
//!         type: number
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: materials_project
//! title: Materials Project
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.materialsproject.org/materials/summary/
//!     records: data[]
//!     fields:
//!       - name: band_gap
//!         type: number
//! ```

use crate::extract::path;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct InvalidRecordsPath;

impl Rule for InvalidRecordsPath {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                let Some(r) = &e.records else { continue };
                let ep = format!("{}/{}", t.id.value, e.id.value);
                if let Err(m) = path::parse(&r.value, false) {
                    out.report(t.file, r.span, format!("records path of `{ep}` {m}"))
                        .label("not a records path")
                        .fix("write the path to the records: keys joined with `.`, `[]` after an array (`data[]`, `message.items[]`), `{}` after a map keyed by id (`result.{}`), or `[]` for a top-level array");
                    continue;
                }
                let prefix = format!("{}.", r.value);
                if let Some(f) = e.fields.iter().find(|f| f.name.value.starts_with(&prefix)) {
                    let inner = &f.name.value[prefix.len()..];
                    out.report(
                        t.file,
                        f.name.span,
                        format!(
                            "field `{}` of `{ep}` repeats the records path `{}`",
                            f.name.value, r.value
                        ),
                    )
                    .label("field names are paths inside one record")
                    .fix(format!("name the field `{inner}`"));
                }
            }
        }
    }
}
