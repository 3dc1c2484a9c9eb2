//! # name-collision (SR113)
//!
//! ## What it finds
//! Two parameters, or two response fields, of one endpoint whose names differ only by case or
//! separators: `band_gap`, `Band_Gap`, `band-gap` and `band gap` are one name to the router, and
//! so are `bandGap` and `BandGap`. The folding is the router's own (`normalise_id`: case,
//! runs of spaces, `-` and `_`, NFKC); for response fields the `[]` array markers are dropped
//! first, as the router's field-name index does (`items[].gap` and `items.gap` are one name).
//! `bandGap` and `band_gap` are different names to the router (the separator is missing, not
//! changed), so they are not reported. The finding is at the second spelling, with the first as
//! related information.
//!
//! A parameter and a response field of one endpoint that fold alike are not a finding: a filter
//! parameter named like the field it filters (`band_gap` the parameter, `band_gap` the field) is
//! the normal shape of a query API. Names that differ only in their Unicode normalisation (NFC
//! vs NFD) are `id-collision` findings, and the same name twice is a `duplicate-id` finding.
//!
//! ## Why it matters for routing
//! The Understand step and users write names loosely, and the router reads field names through
//! the same folding: a request for `band gap` matches both fields, so a plan projects two values
//! where the provider means one (or the declaration misspells the provider's key, and one of the
//! two is never in a response). Two parameters that fold alike cannot be told apart by an
//! argument name in an Understanding or a plan reader.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/mp.yaml
//! id: mp
//! title: MP
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.example.org/summary
//!     fields:
//!       - name: material_id
//!         type: string
//!         identifier: true
//!       - name: band_gap
//!         type: number
//!         unit: eV
//!         concepts: [band_gap]
//!       - name: Band-Gap
//!         type: number
//!         unit: eV
//!         concepts: [band_gap]
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: eV
//! ```
//!
//! ```yaml
//! # file: schemas/mp.yaml
//! id: mp
//! title: MP
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.example.org/summary
//!     parameters:
//!       - name: formula
//!         type: string
//!       - name: Formula
//!         type: string
//!     fields:
//!       - name: material_id
//!         type: string
//!         identifier: true
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/mp.yaml
//! id: mp
//! title: MP
//! domain: materials_property
//! endpoints:
//!   - id: summary
//!     method: GET
//!     url: https://api.example.org/summary
//!     parameters:
//!       - name: band_gap
//!         type: number
//!       - name: bandGap_max
//!         type: number
//!     fields:
//!       - name: material_id
//!         type: string
//!         identifier: true
//!       - name: band_gap
//!         type: number
//!         unit: eV
//!         concepts: [band_gap]
//!       - name: bandGap
//!         type: number
//!         unit: eV
//!         concepts: [band_gap]
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     unit: eV
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::{Sp, normalise_id};
use crate::source::FileId;
use std::collections::BTreeMap;
use unicode_normalization::UnicodeNormalization;

/// See the module documentation.
pub struct NameCollision;

/// The router's folding of a response field name: `[]` markers dropped, then [`normalise_id`]
/// (the full-name key of the artifact's field-name index).
pub fn fold_field_name(name: &str) -> String {
    normalise_id(&name.replace("[]", ""))
}

fn check<'a>(
    kind: &str,
    endpoint: &str,
    file: FileId,
    names: impl IntoIterator<Item = &'a Sp<String>>,
    fold: fn(&str) -> String,
    out: &mut Sink,
) {
    let mut first: BTreeMap<String, &Sp<String>> = BTreeMap::new();
    for name in names {
        let key = fold(&name.value);
        if key.is_empty() {
            continue;
        }
        let Some(prev) = first.get(&key) else {
            first.insert(key, name);
            continue;
        };
        // Same text (duplicate-id) or the same text in another Unicode form (id-collision).
        let nfc = |s: &str| s.nfc().collect::<String>();
        if nfc(&prev.value) == nfc(&name.value) {
            continue;
        }
        out.report(
            file,
            name.span,
            format!(
                "{kind} `{}` of endpoint `{endpoint}` differs from {kind} `{}` only by case or separators",
                name.value, prev.value
            ),
        )
        .label(format!("the router reads both as `{key}`"))
        .with(file, prev.span, "first spelling")
        .fix(format!(
            "declare the {kind} once, spelled exactly as the provider does; if the provider really has both, suppress this finding with a reason"
        ));
    }
}

impl Rule for NameCollision {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                let endpoint = format!("{}/{}", t.id.value, e.id.value);
                check(
                    "parameter",
                    &endpoint,
                    t.file,
                    e.parameters.iter().map(|p| &p.name),
                    normalise_id,
                    out,
                );
                check(
                    "response field",
                    &endpoint,
                    t.file,
                    e.fields.iter().map(|f| &f.name),
                    fold_field_name,
                    out,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_like_the_router() {
        assert_eq!(fold_field_name("Band-Gap"), "band_gap");
        assert_eq!(fold_field_name("band gap"), "band_gap");
        assert_eq!(fold_field_name("bandGap"), fold_field_name("BandGap"));
        assert_ne!(fold_field_name("bandGap"), fold_field_name("band_gap"));
        assert_eq!(fold_field_name("items[].gap"), fold_field_name("items.gap"));
    }
}
