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
//! ## Fix
//! Safe: the repeated value is removed (with its comma in a flow list, its line in a block list);
//! the list holds the same values. Applying it to the invalid example gives the valid example.
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

use crate::diagnostics::fix::{Edit, Fix};
use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::value::Scalar;
use crate::source::Span;
use std::collections::HashMap;

/// See the module documentation.
pub struct DuplicateEnumValue;

/// A key two values that [`Scalar::same_value`] calls equal always share: strings and booleans
/// by themselves, numbers by their value as an `f64` (`1`, `1.0` and `0x1` alike; `-0.0` as
/// `0.0`).
#[derive(Hash, PartialEq, Eq)]
enum BucketKey<'a> {
    Text(&'a str),
    Boolean(bool),
    Number(u64),
}

fn bucket_key(v: &Scalar) -> BucketKey<'_> {
    let number = |f: f64| BucketKey::Number(if f == 0.0 { 0 } else { f.to_bits() });
    match v.value() {
        Scalar::String(s) => BucketKey::Text(s),
        Scalar::Boolean(b) => BucketKey::Boolean(*b),
        Scalar::Integer(i) => number(*i as f64),
        Scalar::Number(f) => number(*f),
        // `value()` never returns a spelled number; keyed by its text all the same.
        Scalar::Spelled(_, raw) => BucketKey::Text(raw),
    }
}

/// The bytes to delete to take the list item at `value` out of its list: in a flow list (YAML
/// `[a, b, a]`, a TOML array) the item with the comma before it; in a YAML block list the
/// item's whole line (`  - a`). `None` when a comment or other text sits in the way, or the
/// value is not where the list writes it (a value replayed through a YAML alias).
fn removal(text: &str, value: Span) -> Option<Span> {
    let (start, end) = (value.start as usize, value.end as usize);
    let before = text.get(..start)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    let lead = &text[line_start..start];
    let rest = &text[end..line_end];
    if lead.trim() == "-" {
        return rest
            .trim()
            .is_empty()
            .then(|| Span::new(line_start, line_end));
    }
    let gap = before.trim_end_matches([' ', '\t', '\n', '\r']);
    let comma = gap.strip_suffix(',')?;
    if text[comma.len()..start].contains('#') {
        return None;
    }
    Some(Span::new(comma.len(), end))
}

impl Rule for DuplicateEnumValue {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                for p in &e.parameters {
                    let Some(values) = &p.enum_values else {
                        continue;
                    };
                    // Values are bucketed by a key that equal values share, so a long list is
                    // checked in linear time; within a bucket `same_value` decides.
                    let mut seen: HashMap<BucketKey<'_>, Vec<usize>> = HashMap::new();
                    for (i, v) in values.iter().enumerate() {
                        let bucket = seen.entry(bucket_key(&v.value)).or_default();
                        let first = bucket
                            .iter()
                            .map(|&j| &values[j])
                            .find(|w| w.value.same_value(&v.value));
                        if first.is_none() {
                            bucket.push(i);
                        }
                        if let Some(first) = first {
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
                            let text = &ctx.project.sources.get(t.file).text;
                            if let Some(edit) = removal(text, v.span) {
                                out.diagnostics.last_mut().expect("just reported").autofix(
                                    Fix::safe(
                                        format!("remove the repeated `{}`", v.value),
                                        vec![Edit::delete(t.file, edit)],
                                    ),
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
