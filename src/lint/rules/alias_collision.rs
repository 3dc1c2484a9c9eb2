//! # alias-collision (SR202)
//!
//! ## What it finds
//! One alias text that leads to two different concepts once case, spaces, hyphens, underscores
//! and Unicode forms are normalised (`Band-Gap` and `band gap` are the same text). Every concept
//! id counts as an alias of itself.
//!
//! ## Why it matters for routing
//! The Understand step maps query words to concepts through the alias layer; a text with two
//! meanings makes the plan depend on declaration order.
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
//!     aliases:
//!       en: [Volume]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: cell_volume
//!     unit: Å^3
//!     aliases:
//!       en: [volume, cell volume]
//!   - id: journal_volume
//!     dimension: none
//!     aliases:
//!       en: [journal volume]
//! ```

use crate::graph::index;
use crate::lint::{AliasUse, Context, DiagnosticExt, Rule, Sink, alias_uses};
use crate::model::normalise_alias;
use std::collections::BTreeMap;

/// See the module documentation.
pub struct AliasCollision;

/// The concept an alias use leads to (a field alias leads to the field's first concept).
pub fn target_concept<'a>(ctx: &'a Context, u: &AliasUse<'a>) -> Option<&'a str> {
    if !u.concept.is_empty() {
        return Some(u.concept);
    }
    let r = ctx.index.field_paths.get(u.field?)?;
    let (_, _, f) = index::resolve(ctx.project, *r);
    f.concepts.first().map(|c| c.value.as_str())
}

impl Rule for AliasCollision {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let uses = alias_uses(ctx.project);
        let mut first: BTreeMap<String, (&AliasUse, &str)> = BTreeMap::new();
        let mut reported: std::collections::BTreeSet<(String, String, String)> = Default::default();
        for u in &uses {
            let Some(target) = target_concept(ctx, u) else {
                continue;
            };
            let key = normalise_alias(u.text);
            match first.get(&key) {
                None => {
                    first.insert(key, (u, target));
                }
                Some((f, ftarget)) if *ftarget != target => {
                    let pair = (key.clone(), ftarget.to_string(), target.to_string());
                    if !reported.insert(pair) {
                        continue;
                    }
                    let mut d = out.report(
                        u.file,
                        u.span,
                        format!(
                            "alias `{}` leads to concept `{}`, but `{}` already leads to `{}`",
                            u.text, target, f.text, ftarget
                        ),
                    );
                    d = d.label(format!("means `{target}`")).with(
                        f.file,
                        f.span,
                        format!("means `{ftarget}`"),
                    );
                    for c in [ftarget, &target] {
                        if let Some(i) = ctx.index.concepts.get(*c) {
                            let decl = &ctx.project.concepts[*i];
                            d = d.with(decl.file, decl.item.id.span, format!("concept `{c}`"));
                        }
                    }
                    d.fix(
                        "keep the text on one concept only; give the other a more specific alias",
                    );
                }
                Some(_) => {}
            }
        }
    }
}
