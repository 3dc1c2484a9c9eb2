//! # missing-licence (SR401)
//!
//! ## What it finds
//! A tool without a `licence`, unless every one of its fields declares its own licence.
//!
//! ## Why it matters for routing
//! Plans carry each field's licence into the answer (paper section 4); without one, an agent
//! cannot tell whether it may show, cache or resell what it retrieved.
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
//!       - name: entry_id
//!         type: integer
//!         identifier: true
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
//!   attribution: OQMD (oqmd.org), CC BY 4.0
//! endpoints:
//!   - id: formationenergy
//!     method: GET
//!     url: http://oqmd.org/oqmdapi/formationenergy
//!     fields:
//!       - name: entry_id
//!         type: integer
//!         identifier: true
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct MissingLicence;

impl Rule for MissingLicence {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            if t.licence.is_some() {
                continue;
            }
            let fields: Vec<_> = t.endpoints.iter().flat_map(|e| e.fields.iter()).collect();
            let without = fields.iter().filter(|f| f.licence.is_none()).count();
            if without == 0 && !fields.is_empty() {
                continue;
            }
            let count = match fields.len() {
                0 => "and has no fields".to_string(),
                1 => "and its one field has none".to_string(),
                n if without == n => format!("and none of its {n} fields has one"),
                n => format!("({without} of {n} fields have none)"),
            };
            out.report(
                t.file,
                t.id.span,
                format!("tool `{}` declares no licence {count}", t.id.value),
            )
            .label("no `licence`")
            .fix("add `licence: {spdx: <SPDX id or LicenseRef-...>, url: ..., attribution: ...}`");
        }
    }
}
