//! # unknown-source-type (SR104)
//!
//! ## What it finds
//! A tool or field `source_type`, or the source type of cue words (`cues: source_types:` in an
//! alias file), that is neither one of the built-in five (`experimental`, `calculated`,
//! `literature`, `regulatory_filing`, `web`) nor declared under `source-types` in
//! `schemarouter.toml`.
//!
//! ## Why it matters for routing
//! A source constraint ("measured values only") filters candidates by source type; a misspelt
//! type (`experimantal`) makes the tool invisible to exactly the queries that want it, and cue
//! words of a misspelt type never make a source constraint.
//!
//! ## Fix
//! Safe when the help line suggests a known source type (`did you mean ...?`) that differs only in
//! case (the one it can name); unsafe when the suggestion is a near spelling (a guess). The value
//! is replaced by the suggestion, keeping its quoting. Applying it to each invalid example gives
//! the valid example of the same file.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/lab.yaml
//! id: lab_notebook
//! title: Lab notebook
//! domain: materials_property
//! source_type: experimantal
//! endpoints:
//!   - id: measurements
//!     method: GET
//!     url: https://lab.example/api/measurements
//!     fields:
//!       - name: sample_id
//!         type: string
//!         identifier: true
//! ```
//!
//! ```yaml
//! # file: aliases/cues.yaml
//! cues:
//!   source_types:
//!     - source_type: experimantal
//!       words: [measured, experimental]
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/lab.yaml
//! id: lab_notebook
//! title: Lab notebook
//! domain: materials_property
//! source_type: experimental
//! endpoints:
//!   - id: measurements
//!     method: GET
//!     url: https://lab.example/api/measurements
//!     fields:
//!       - name: sample_id
//!         type: string
//!         identifier: true
//! ```
//!
//! ```yaml
//! # file: aliases/cues.yaml
//! cues:
//!   source_types:
//!     - source_type: experimental
//!       words: [measured, experimental]
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::Sp;
use crate::model::value::did_you_mean;
use crate::source::FileId;

/// See the module documentation.
pub struct UnknownSourceType;

fn check(
    ctx: &Context,
    known: &[String],
    st: &Sp<String>,
    file: FileId,
    whose: &str,
    out: &mut Sink,
) {
    if known.contains(&st.value) {
        return;
    }
    let help = match did_you_mean(&st.value, known.iter().map(String::as_str)) {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!(
            "use one of {}, or declare it under `source-types` in schemarouter.toml",
            known.join(", ")
        ),
    };
    let text = &ctx.project.sources.get(file).text;
    let fix = crate::lint::fix::did_you_mean_fix(text, file, st.span, &st.value, &help, true);
    let d = out
        .report(
            file,
            st.span,
            format!("{whose} has unknown source type `{}`", st.value),
        )
        .label("unknown source type")
        .fix(help);
    if let Some(fix) = fix {
        d.autofix(fix);
    }
}

impl Rule for UnknownSourceType {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let known = ctx.project.source_types();
        for t in &ctx.project.tools {
            if let Some(st) = &t.source_type {
                check(
                    ctx,
                    &known,
                    st,
                    t.file,
                    &format!("tool `{}`", t.id.value),
                    out,
                );
            }
            for e in &t.endpoints {
                for f in &e.fields {
                    if let Some(st) = &f.source_type {
                        check(
                            ctx,
                            &known,
                            st,
                            t.file,
                            &format!("field `{}`", f.name.value),
                            out,
                        );
                    }
                }
            }
        }
        for c in &ctx.project.source_cues {
            check(ctx, &known, &c.source_type, c.file, "source-type cue", out);
        }
    }
}
