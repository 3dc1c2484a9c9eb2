//! # id-collision (SR102)
//!
//! ## What it finds
//! Two different ids that become equal after normalisation: case, spaces, the separators `.`,
//! `-` and `_` (ids may use all three: `summary.v2`, `summary-v2` and `summary_v2` are one id to
//! a reader), and Unicode NFC vs NFD (`Å` typed two ways). Both declarations are named. Response field and parameter names are the
//! provider's case-sensitive keys, so for them only the Unicode normalisation counts here; names
//! of one endpoint that differ by case or separators are `name-collision` findings.
//!
//! ## Why it matters for routing
//! The Understand step and users write ids loosely (`Band-Gap`, `band gap`); two ids that
//! normalise alike make that lookup ambiguous.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/a.yaml
//! groups:
//!   - id: electronic_structure
//!   - id: Electronic-Structure
//! ```
//!
//! Tools and endpoints alike (two endpoints of one tool):
//! ```yaml
//! # file: schemas/mp.yaml
//! id: mp
//! title: MP
//! domain: materials_property
//! endpoints:
//!   - id: summary.v2
//!     method: GET
//!     url: https://mp.example/summary/v2
//!     fields: [{name: id, type: string, identifier: true}]
//!   - id: summary_v2
//!     method: GET
//!     url: https://mp.example/summary_v2
//!     fields: [{name: id, type: string, identifier: true}]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/a.yaml
//! groups:
//!   - id: electronic_structure
//!   - id: electronic_transport
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::{Sp, normalise_id};
use crate::source::FileId;
use std::collections::BTreeMap;
use unicode_normalization::UnicodeNormalization;

/// See the module documentation.
pub struct IdCollision;

fn check<'a>(
    kind: &str,
    items: impl IntoIterator<Item = (FileId, &'a Sp<String>)>,
    norm: fn(&str) -> String,
    out: &mut Sink,
) {
    let mut seen: BTreeMap<String, (FileId, &Sp<String>)> = BTreeMap::new();
    for (file, id) in items {
        let key = norm(&id.value);
        match seen.get(&key) {
            Some((ffile, first)) if first.value != id.value => {
                out.report(
                    file,
                    id.span,
                    format!(
                        "{kind} id `{}` collides with `{}` after normalisation",
                        id.value, first.value
                    ),
                )
                .label("normalises to the same id")
                .with(*ffile, first.span, "the other declaration")
                .fix(format!(
                    "use one spelling for both, or rename one of the {kind}s"
                ));
            }
            Some(_) => {}
            None => {
                seen.insert(key, (file, id));
            }
        }
    }
}

/// [`normalise_id`] with `.` read as a separator too: ids that differ only by which of `.`, `-`
/// and `_` separates their words are one id.
fn fold_separators(s: &str) -> String {
    normalise_id(&s.replace('.', "_"))
}

fn nfc(s: &str) -> String {
    // ASCII text is already in NFC.
    if s.is_ascii() {
        return s.to_string();
    }
    s.nfc().collect()
}

impl Rule for IdCollision {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        check(
            "tool",
            p.tools.iter().map(|t| (t.file, &t.id)),
            fold_separators,
            out,
        );
        check(
            "domain",
            p.domains.iter().map(|d| (d.file, &d.item.id)),
            fold_separators,
            out,
        );
        check(
            "group",
            p.groups.iter().map(|d| (d.file, &d.item.id)),
            fold_separators,
            out,
        );
        check(
            "intent",
            p.intents.iter().map(|d| (d.file, &d.item.id)),
            fold_separators,
            out,
        );
        check(
            "concept",
            p.concepts.iter().map(|d| (d.file, &d.item.id)),
            fold_separators,
            out,
        );
        for t in &p.tools {
            check(
                "endpoint",
                t.endpoints.iter().map(|e| (t.file, &e.id)),
                fold_separators,
                out,
            );
            for e in &t.endpoints {
                check(
                    "parameter",
                    e.parameters.iter().map(|x| (t.file, &x.name)),
                    nfc,
                    out,
                );
                check(
                    "response field",
                    e.fields.iter().map(|x| (t.file, &x.name)),
                    nfc,
                    out,
                );
            }
        }
    }
}
