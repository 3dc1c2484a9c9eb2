//! # duplicate-alias (SR204)
//!
//! ## What it finds
//! The same alias text (after normalisation) declared twice for the same concept, for example
//! once under `en` and again under `typo`, or as both a concept alias and a stand-alone alias.
//!
//! ## Why it matters for routing
//! Harmless for routing but a sign of copy-paste; the duplicate hides which list is meant to
//! carry the text and bloats the compiled alias index.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: eV
//!     aliases:
//!       en: [band gap]
//!       typo: [Band-Gap]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: eV
//!     aliases:
//!       en: [band gap]
//!       typo: [bandgab]
//! ```

use super::alias_collision::target_concept;
use crate::lint::{Context, DiagnosticExt, Rule, Sink, alias_uses};
use crate::model::normalise_alias;
use std::collections::BTreeMap;

/// See the module documentation.
pub struct DuplicateAlias;

impl Rule for DuplicateAlias {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let uses = alias_uses(ctx.project);
        let mut seen = BTreeMap::new();
        for u in uses.iter().filter(|u| !u.implicit) {
            let Some(target) = target_concept(ctx, u) else {
                continue;
            };
            let key = (
                normalise_alias(u.text),
                target.to_string(),
                u.field.map(str::to_string),
            );
            match seen.get(&key) {
                None => {
                    seen.insert(key, u);
                }
                Some(first) => {
                    let what = format!("repeats alias `{}`", first.text);
                    out.report(
                        u.file,
                        u.span,
                        format!("alias `{}` of concept `{}` {what}", u.text, target),
                    )
                    .label("duplicate")
                    .with(first.file, first.span, "first declared here")
                    .fix("delete one of the two");
                }
            }
        }
    }
}
