//! # invalid-pattern (SR209)
//!
//! ## What it finds
//! A recogniser's `pattern` (`recognisers:` in an alias file) that is no regular expression the
//! Understand step can compile (Rust `regex` syntax: no look-around, no back-references), or a
//! recogniser of kind `pattern` without one.
//!
//! ## Why it matters for routing
//! A pattern that does not compile recognises nothing: every question that writes such a value
//! (an id, a code) routes without it, and nothing else says so.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/recognisers.yaml
//! concepts:
//!   - id: sample_id
//!     kind: parameter
//! recognisers:
//!   - concept: sample_id
//!     pattern: '\bsample\s+(S-\d+'
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/recognisers.yaml
//! concepts:
//!   - id: sample_id
//!     kind: parameter
//! recognisers:
//!   - concept: sample_id
//!     pattern: '\bsample\s+(S-\d+)'
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::lexicon::pattern_error;

/// See the module documentation.
pub struct InvalidPattern;

impl Rule for InvalidPattern {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for d in &ctx.project.recognisers {
            let r = &d.item.value;
            if r.kind_name() != Some("pattern") {
                continue;
            }
            match &r.pattern {
                Some(p) => {
                    if let Some(e) = pattern_error(&p.value) {
                        out.report(
                            d.file,
                            p.span,
                            format!(
                                "the pattern of the recogniser of `{}` does not compile: {e}",
                                r.concept.value
                            ),
                        )
                        .label("not a regular expression")
                        .fix("write it in Rust regex syntax (https://docs.rs/regex/#syntax): no look-around or back-references; test it with one of the questions it should read");
                    }
                }
                None => {
                    out.report(
                        d.file,
                        d.item.span,
                        format!(
                            "recogniser of `{}` is of kind `pattern` but has no `pattern`",
                            r.concept.value
                        ),
                    )
                    .label("reads nothing")
                    .fix("add `pattern: <regular expression>` (its first capture group is the value)");
                }
            }
        }
    }
}
