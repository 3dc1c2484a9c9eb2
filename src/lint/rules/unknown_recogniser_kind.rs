//! # unknown-recogniser-kind (SR208)
//!
//! ## What it finds
//! A recogniser (`recognisers:` in an alias file) whose `kind` is none of the built-in kinds
//! (`pattern`, `doi`, `phrases`, `year`, `formula`, `names`, `subject`), or that names neither a
//! `kind` nor a `pattern`.
//!
//! ## Why it matters for routing
//! The Understand step reads a parameter's values from a question only through a recogniser it
//! knows: a recogniser of an unknown kind (`formulas`, a typo) is left out of the artifact, so
//! every question that names such a value routes without it (no formula, no DOI bound).
//!
//! ## Fix
//! Safe when the help line suggests a built-in kind (`did you mean ...?`) that differs only in case
//! (the one it can name); unsafe when the suggestion is a near spelling (a guess). The kind is
//! replaced by the suggestion, keeping its quoting. Applying it to the invalid example gives the
//! valid example.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/recognisers.yaml
//! concepts:
//!   - id: formula
//!     kind: parameter
//! recognisers:
//!   - concept: formula
//!     kind: formulas
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/recognisers.yaml
//! concepts:
//!   - id: formula
//!     kind: parameter
//! recognisers:
//!   - concept: formula
//!     kind: formula
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::lexicon::RECOGNISER_KINDS;
use crate::model::value::did_you_mean;

/// See the module documentation.
pub struct UnknownRecogniserKind;

impl Rule for UnknownRecogniserKind {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let kinds: Vec<&str> = RECOGNISER_KINDS.iter().map(|(k, _)| *k).collect();
        for d in &ctx.project.recognisers {
            let r = &d.item.value;
            match (&r.kind, &r.pattern) {
                (Some(k), _) if !kinds.contains(&k.value.as_str()) => {
                    let help = match did_you_mean(&k.value, kinds.iter().copied()) {
                        Some(c) => format!("did you mean `{c}`?"),
                        None => format!("use one of {}", kinds.join(", ")),
                    };
                    let text = &ctx.project.sources.get(d.file).text;
                    let fix = crate::lint::fix::did_you_mean_fix(
                        text, d.file, k.span, &k.value, &help, true,
                    );
                    let diag = out
                        .report(
                            d.file,
                            k.span,
                            format!(
                                "recogniser of `{}` has unknown kind `{}`",
                                r.concept.value, k.value
                            ),
                        )
                        .label("no built-in recogniser of this kind")
                        .fix(help);
                    if let Some(fix) = fix {
                        diag.autofix(fix);
                    }
                }
                (None, None) => {
                    out.report(
                        d.file,
                        d.item.span,
                        format!(
                            "recogniser of `{}` names no kind and no pattern",
                            r.concept.value
                        ),
                    )
                    .label("reads nothing")
                    .fix(format!(
                        "add `pattern: <regular expression>` or `kind:` (one of {})",
                        kinds.join(", ")
                    ));
                }
                _ => {}
            }
        }
    }
}
