//! # duplicate-enum-value (SR111)
//!
//! ## What it finds
//! A value listed twice in one parameter's `enum` (numbers compare by value: `1`, `1.0` and
//! `0x1` are the same value).
//!
//! ## Why it matters for routing
//! A repeated value is usually a typo for a missing one, and the prompt and plan validation
//! carry the list as written.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/pubchem.yaml
//! id: pubchem
//! title: PubChem
//! domain: chemistry
//! endpoints:
//!   - id: property
//!     method: GET
//!     url: https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/{namespace}/{identifier}/property/JSON
//!     parameters:
//!       - name: namespace
//!         type: string
//!         in: path
//!         enum: [cid, name, smiles, name]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/pubchem.yaml
//! id: pubchem
//! title: PubChem
//! domain: chemistry
//! endpoints:
//!   - id: property
//!     method: GET
//!     url: https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/{namespace}/{identifier}/property/JSON
//!     parameters:
//!       - name: namespace
//!         type: string
//!         in: path
//!         enum: [cid, name, smiles]
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct DuplicateEnumValue;

impl Rule for DuplicateEnumValue {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                for p in &e.parameters {
                    let Some(values) = &p.enum_values else {
                        continue;
                    };
                    for (i, v) in values.iter().enumerate() {
                        if let Some(first) =
                            values[..i].iter().find(|w| w.value.same_value(&v.value))
                        {
                            out.report(
                                t.file,
                                v.span,
                                format!(
                                    "enum value `{}` of parameter `{}` of {}/{} is listed twice",
                                    v.value, p.name.value, t.id.value, e.id.value
                                ),
                            )
                            .label("repeated")
                            .with(t.file, first.span, "first listed here")
                            .fix("remove the repeated value, or correct it to the value that is missing");
                        }
                    }
                }
            }
        }
    }
}
