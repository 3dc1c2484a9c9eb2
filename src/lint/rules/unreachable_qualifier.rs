//! # unreachable-qualifier (SR206)
//!
//! ## What it finds
//! A field's qualifier value, under a key the qualifier vocabulary declares (`qualifiers:` in
//! an alias file), that is neither a declared value of that key nor one of its aliases. A
//! value may name alternatives (`PBE or r2SCAN`, `PBE, PBE+U`); each must be declared. Keys the
//! vocabulary does not declare (`notation`, `direction`) are not checked.
//!
//! ## Why it matters for routing
//! Algorithm 1 ranks candidate tools on the qualifiers a question names ("the OptB88vdW band
//! gap") and projects only the fields that carry them. A value no alias reaches can never be
//! matched, so a question naming it routes on priority alone, and the field never contradicts
//! another value either: its qualifier is invisible to the router.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/q.yaml
//! qualifiers:
//!   - key: functional
//!     values:
//!       - value: OptB88vdW
//!         aliases: [optB88vdW, vdW-DF-optB88]
//! # file: schemas/jarvis.yaml
//! id: jarvis_dft
//! title: JARVIS-DFT
//! domain: materials_property
//! endpoints:
//!   - id: dft_3d
//!     method: GET
//!     url: https://jarvis.nist.gov/optimade/jarvisdft/v1/structures/
//!     fields:
//!       - name: mbj_bandgap
//!         type: number
//!         qualifiers: {functional: TBmBJ}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/q.yaml
//! qualifiers:
//!   - key: functional
//!     values:
//!       - value: OptB88vdW
//!         aliases: [optB88vdW, vdW-DF-optB88]
//!       - value: TBmBJ
//!         aliases: [mBJ]
//! # file: schemas/jarvis.yaml
//! id: jarvis_dft
//! title: JARVIS-DFT
//! domain: materials_property
//! endpoints:
//!   - id: dft_3d
//!     method: GET
//!     url: https://jarvis.nist.gov/optimade/jarvisdft/v1/structures/
//!     fields:
//!       - name: mbj_bandgap
//!         type: number
//!         qualifiers: {functional: mBJ}
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::normalise_alias;
use std::collections::{BTreeMap, BTreeSet};

/// See the module documentation.
pub struct UnreachableQualifier;

impl Rule for UnreachableQualifier {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        if p.qualifiers.is_empty() {
            return;
        }
        // Key text (key or alias) -> key; key -> every value and alias, normalised.
        let mut keys: BTreeMap<String, String> = BTreeMap::new();
        let mut values: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for q in &p.qualifiers {
            let d = &q.item.value;
            let key = d.key.value.clone();
            for t in std::iter::once(&d.key).chain(d.aliases.iter()) {
                keys.entry(normalise_alias(&t.value))
                    .or_insert_with(|| key.clone());
            }
            let set = values.entry(key).or_default();
            for v in &d.values {
                for t in std::iter::once(&v.value.value).chain(v.value.aliases.iter()) {
                    set.insert(normalise_alias(&t.value));
                }
            }
        }
        for t in &p.tools {
            for e in &t.endpoints {
                for f in &e.fields {
                    for (k, v) in &f.qualifiers {
                        let Some(key) = keys.get(&normalise_alias(k)) else {
                            continue;
                        };
                        let known = values.get(key);
                        let missing: Vec<&str> = v
                            .value
                            .split(" or ")
                            .flat_map(|a| a.split(", "))
                            .map(str::trim)
                            .filter(|a| !a.is_empty())
                            .filter(|a| !known.is_some_and(|s| s.contains(&normalise_alias(a))))
                            .collect();
                        if missing.is_empty() {
                            continue;
                        }
                        out.report(
                            t.file,
                            v.span,
                            format!(
                                "qualifier `{k}: {}` of field `{}` of {}: `{}` is no declared value or alias of qualifier `{key}`",
                                v.value,
                                f.name.value,
                                t.id.value,
                                missing.join("`, `")
                            ),
                        )
                        .label("no alias reaches this value")
                        .fix(format!(
                            "declare `{}` (or an alias of it) under the values of qualifier `{key}`, or spell the value as a declared one",
                            missing[0]
                        ));
                    }
                }
            }
        }
    }
}
