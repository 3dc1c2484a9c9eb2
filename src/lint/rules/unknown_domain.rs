//! # unknown-domain (SR504)
//!
//! ## What it finds
//! A tool or an intent that names a domain no file under `intents/` declares.
//!
//! ## Why it matters for routing
//! Algorithm 1 starts from the intent's domains: a tool in an unknown domain is never a
//! candidate, and an intent targeting an unknown domain finds no tools there.
//!
//! ## Fix
//! Safe when the help line suggests a declared domain (`did you mean ...?`) that differs only in
//! case (the one it can name); unsafe when the suggestion is a near spelling (a guess). The id is
//! replaced by the suggestion, keeping its quoting. Applying it to the invalid example gives the
//! valid example.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/a.yaml
//! domains:
//!   - id: materials_property
//! groups:
//!   - id: electronic
//! intents:
//!   - id: electronic_property
//!     description: Band gaps.
//!     domains: [materials_properties]
//!     required_groups: [electronic]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/a.yaml
//! domains:
//!   - id: materials_property
//! groups:
//!   - id: electronic
//! intents:
//!   - id: electronic_property
//!     description: Band gaps.
//!     domains: [materials_property]
//!     required_groups: [electronic]
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::Sp;
use crate::model::value::did_you_mean;
use crate::source::FileId;

/// See the module documentation.
pub struct UnknownDomain;

fn check(ctx: &Context, id: &Sp<String>, file: FileId, whose: &str, out: &mut Sink) {
    if ctx.index.domains.contains_key(&id.value) {
        return;
    }
    let help = match did_you_mean(&id.value, ctx.index.domains.keys().map(String::as_str)) {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!(
            "declare domain `{}` under `domains:` in a file in intents/",
            id.value
        ),
    };
    let text = &ctx.project.sources.get(file).text;
    let fix = crate::lint::fix::did_you_mean_fix(text, file, id.span, &id.value, &help, true);
    let d = out
        .report(
            file,
            id.span,
            format!("{whose} names unknown domain `{}`", id.value),
        )
        .label("not a declared domain")
        .fix(help);
    if let Some(fix) = fix {
        d.autofix(fix);
    }
}

impl Rule for UnknownDomain {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            check(
                ctx,
                &t.domain,
                t.file,
                &format!("tool `{}`", t.id.value),
                out,
            );
        }
        for i in &ctx.project.intents {
            for d in &i.item.domains {
                check(
                    ctx,
                    d,
                    i.file,
                    &format!("intent `{}`", i.item.id.value),
                    out,
                );
            }
        }
    }
}
