//! # alias-shadows-field (SR203)
//!
//! ## What it finds
//! An alias whose text equals the name of a response field that carries a different concept
//! (compared after normalisation, on the full field name and on its last path segment).
//!
//! ## Why it matters for routing
//! Exact field-name matches rank above alias matches. When "volume" is an alias of `cell_volume`
//! but COD's field `volume` is the journal volume, a query for "volume" can be matched to the
//! wrong field by exact name.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: cell_volume
//!     unit: Å^3
//!     aliases:
//!       en: [volume]
//!   - id: journal_volume
//!     dimension: none
//! # file: schemas/cod.yaml
//! id: cod
//! title: COD
//! domain: crystal_structure
//! endpoints:
//!   - id: result
//!     method: GET
//!     url: https://www.crystallography.net/cod/result
//!     fields:
//!       - name: volume
//!         type: string
//!         concepts: [journal_volume]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: cell_volume
//!     unit: Å^3
//!     aliases:
//!       en: [cell volume]
//!   - id: journal_volume
//!     dimension: none
//! # file: schemas/cod.yaml
//! id: cod
//! title: COD
//! domain: crystal_structure
//! endpoints:
//!   - id: result
//!     method: GET
//!     url: https://www.crystallography.net/cod/result
//!     fields:
//!       - name: volume
//!         type: string
//!         concepts: [journal_volume]
//! ```

use super::alias_collision::target_concept;
use crate::lint::{Context, DiagnosticExt, Rule, Sink, alias_uses};
use crate::model::normalise_alias;
use std::collections::{HashMap, HashSet};

/// See the module documentation.
pub struct AliasShadowsField;

impl Rule for AliasShadowsField {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        let uses: Vec<_> = alias_uses(p)
            .into_iter()
            .filter(|u| !u.implicit && u.field.is_none())
            .collect();
        // Only field names some alias text equals can matter (at 10,000 tools that keeps a
        // few entries instead of every field's name).
        let texts: HashSet<String> = uses.iter().map(|u| normalise_alias(u.text)).collect();
        // normalised name -> fields (tool index, field) with concepts, in declaration order
        let mut by_name: HashMap<String, Vec<(usize, &crate::model::ResponseField)>> =
            HashMap::new();
        for (ti, t) in p.tools.iter().enumerate() {
            for e in &t.endpoints {
                for f in &e.fields {
                    if f.concepts.is_empty() {
                        continue;
                    }
                    let full = normalise_alias(&f.name.value);
                    let leaf = f.name.value.rsplit('.').next().unwrap_or("");
                    let leaf = normalise_alias(leaf.trim_end_matches("[]"));
                    if leaf != full && texts.contains(&leaf) {
                        by_name.entry(leaf).or_default().push((ti, &f.value));
                    }
                    if texts.contains(&full) {
                        by_name.entry(full).or_default().push((ti, &f.value));
                    }
                }
            }
        }
        for u in uses {
            let Some(target) = target_concept(ctx, &u) else {
                continue;
            };
            let Some(fields) = by_name.get(&normalise_alias(u.text)) else {
                continue;
            };
            let mut reported = false;
            for (ti, f) in fields {
                if reported || f.concepts.iter().any(|c| c.value == target) {
                    continue;
                }
                let other: Vec<&str> = f.concepts.iter().map(|c| c.value.as_str()).collect();
                out.report(
                    u.file,
                    u.span,
                    format!(
                        "alias `{}` of `{}` equals field `{}` of {}, which carries `{}`",
                        u.text,
                        target,
                        f.name.value,
                        p.tools[*ti].id.value,
                        other.join("`, `")
                    ),
                )
                .label("alias text")
                .with(p.tools[*ti].file, f.name.span, "field with the same name")
                .fix(format!(
                    "make the alias more specific, or point it at the field with `field: {}/<endpoint>/{}` if that is what it means",
                    p.tools[*ti].id.value, f.name.value
                ));
                reported = true;
            }
        }
    }
}
