//! # derived-entry (SR207)
//!
//! ## What it finds
//! A concept, field group or intent that `schemarouter derive` wrote and no person has taken
//! over: it still carries its `derived:` mark. An entry a person edited but whose `derived:`
//! line is still there is reported as edited (derive keeps it; deleting the line makes it the
//! person's). The rule belongs to the `strict` profile only.
//!
//! ## Why it matters for routing
//! A derived entry is guessed from the tools' names and descriptions: its id, aliases, members
//! and one-line description are a starting point, good enough to route but not reviewed. A
//! project gated with the `strict` profile wants every entry of its concept layer read by a
//! person; deleting the `derived:` line says it was (and `derive` never changes the entry again).
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemarouter.toml
//! [lint]
//! profile = "strict"
//! # file: aliases/derived.yaml
//! concepts:
//!   - id: stock_price
//!     aliases:
//!       en: [share price]
//!     derived: blake3:34a619fe0aa2
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemarouter.toml
//! [lint]
//! profile = "strict"
//! # file: aliases/derived.yaml
//! concepts:
//!   - id: stock_price
//!     aliases:
//!       en: [share price]
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::Sp;
use crate::source::FileId;

/// See the module documentation.
pub struct DerivedEntry;

fn report<T: serde::Serialize>(
    out: &mut Sink,
    kind: &str,
    id: &str,
    entry: &Sp<T>,
    mark: Option<&Sp<String>>,
    file: FileId,
) {
    let Some(m) = mark else { return };
    if crate::model::derived_digest(&entry.value) != m.value {
        out.report(
            file,
            m.span,
            format!("{kind} `{id}` was derived by `schemarouter derive` and edited since, but still carries its `derived:` line"),
        )
        .label("edited derived entry")
        .fix("delete the `derived:` line to make the entry yours (derive keeps an edited entry either way)");
        return;
    }
    out.report(
        file,
        m.span,
        format!("{kind} `{id}` was derived by `schemarouter derive` and is not reviewed"),
    )
    .label("derived entry")
    .fix("review its id, aliases, members and description, then delete the `derived:` line to make it yours");
}

impl Rule for DerivedEntry {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        for c in &p.concepts {
            report(
                out,
                "concept",
                &c.item.id.value,
                &c.item,
                c.item.derived.as_ref(),
                c.file,
            );
        }
        for g in &p.groups {
            report(
                out,
                "field group",
                &g.item.id.value,
                &g.item,
                g.item.derived.as_ref(),
                g.file,
            );
        }
        for i in &p.intents {
            report(
                out,
                "intent",
                &i.item.id.value,
                &i.item,
                i.item.derived.as_ref(),
                i.file,
            );
        }
    }
}
