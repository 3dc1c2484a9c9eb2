//! # missing-identifier (SR507)
//!
//! ## What it finds
//! An endpoint with response fields but no field marked `identifier: true`. When a field reads
//! as an identifier by the deriver's rule (its name: `id`, `uuid`, `slug`, `code`, `href`,
//! `*_id`, `*_key`, `id_code`; or a description that says "unique identifier") and says nothing
//! of `identifier`, the finding names it as the unmarked identifier instead of saying the
//! endpoint has none.
//!
//! ## Why it matters for routing
//! Identifiers are projected in every plan so that answers can cite the record (`mp-149`, a DOI,
//! a COD id); without one, values cannot be traced back or joined across tools.
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
//! endpoints:
//!   - id: formationenergy
//!     method: GET
//!     url: http://oqmd.org/oqmdapi/formationenergy
//!     fields:
//!       - name: delta_e
//!         type: number
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! endpoints:
//!   - id: formationenergy
//!     method: GET
//!     url: http://oqmd.org/oqmdapi/formationenergy
//!     fields:
//!       - name: entry_id
//!         type: integer
//!         identifier: true
//!       - name: delta_e
//!         type: number
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::identifier::{id_name, reads_as_identifier};

/// See the module documentation.
pub struct MissingIdentifier;

impl Rule for MissingIdentifier {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                if e.fields.is_empty() || e.fields.iter().any(|f| f.is_identifier()) {
                    continue;
                }
                // A field that reads as an identifier (and that nobody marked `identifier:
                // false`): the endpoint has one, only unmarked.
                if let Some(f) = e
                    .fields
                    .iter()
                    .find(|f| f.identifier.is_none() && reads_as_identifier(f))
                {
                    out.report(
                        t.file,
                        e.id.span,
                        format!(
                            "endpoint `{}/{}` marks no field `identifier: true`; `{}` reads as its identifier",
                            t.id.value, e.id.value, f.name.value
                        ),
                    )
                    .label("identifier not marked")
                    .fix(format!(
                        "mark `{}` with `identifier: true` (or `identifier: false` if it does not identify the record); `schemarouter derive` marks such fields",
                        f.name.value
                    ));
                    continue;
                }
                let help = match id_like(e) {
                    Some(f) => format!(
                        "mark the field that identifies each record with `identifier: true` (here perhaps `{f}`)"
                    ),
                    None => "mark the field that identifies each record (its id, key, URL or name) with `identifier: true`".to_string(),
                };
                out.report(
                    t.file,
                    e.id.span,
                    format!(
                        "endpoint `{}/{}` has no identifier field",
                        t.id.value, e.id.value
                    ),
                )
                .label("no `identifier: true` field")
                .fix(help);
            }
        }
    }
}

/// The endpoint's first field whose last path segment reads as an id by the deriver's rule
/// ([`id_name`]: `id`, `uuid`, `slug`, `*_id`, `*Id`, `url`, ...), to name in the help: the
/// catalog's own name, not an example from another domain.
fn id_like(e: &crate::model::Endpoint) -> Option<&str> {
    e.fields.iter().map(|f| f.name.value.as_str()).find(|n| {
        let leaf = n.rsplit(['.', ']']).next().unwrap_or(n);
        id_name(leaf)
    })
}
