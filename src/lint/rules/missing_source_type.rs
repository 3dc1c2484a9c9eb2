//! # missing-source-type (SR405)
//!
//! ## What it finds
//! A tool without `source_type` whose fields do not all declare their own.
//!
//! ## Why it matters for routing
//! Algorithm 1 filters candidates by source type when the query says "measured" or "DFT"; a
//! tool without one is silently excluded from every source-constrained plan, and plans cannot
//! tell the reader whether a value is experimental or calculated.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write, naming the
//! source types the project already uses or declares (generic when it has none).
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! endpoints: []
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! source_type: calculated
//! endpoints: []
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct MissingSourceType;

impl Rule for MissingSourceType {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            if t.source_type.is_some() {
                continue;
            }
            let fields: Vec<_> = t.endpoints.iter().flat_map(|e| e.fields.iter()).collect();
            if !fields.is_empty() && fields.iter().all(|f| f.source_type.is_some()) {
                continue;
            }
            out.report(
                t.file,
                t.id.span,
                format!("tool `{}` declares no source type", t.id.value),
            )
            .label("no `source_type`")
            .fix(help(ctx));
        }
    }
}

/// The help line: the source types the project itself uses (on tools, fields and source-type
/// cues) or declares (`source-types` in the configuration), so that it speaks of the
/// project's own sources; generic when it has none (not the built-in list, which speaks of
/// one domain's sources).
fn help(ctx: &Context) -> String {
    let p = ctx.project;
    let mut own: Vec<String> = p
        .tools
        .iter()
        .flat_map(|t| {
            t.source_type.iter().chain(
                t.endpoints
                    .iter()
                    .flat_map(|e| e.fields.iter().filter_map(|f| f.source_type.as_ref())),
            )
        })
        .map(|s| s.value.clone())
        .chain(p.config.source_types.iter().map(|s| s.value.clone()))
        .collect();
    own.sort();
    own.dedup();
    if own.is_empty() {
        "add `source_type:` saying where the tool's values come from (`web` for what a web service publishes, or a type of your own declared under `source-types` in schemarouter.toml)".to_string()
    } else {
        format!(
            "add `source_type: {}` (the source types this project uses), or a type of your own declared under `source-types` in schemarouter.toml",
            own.join(" | ")
        )
    }
}
