//! # unroutable-tool (SR505)
//!
//! ## What it finds
//! A tool that no intent can select: its domain is in no intent's domains, or it provides none of
//! the required groups of the intents that target its domain. It is reachable only when a user
//! names it. A tool that declares no endpoint (`endpoints: []`) is reported too: no plan can
//! call it, named or not.
//!
//! ## Why it matters for routing
//! Algorithm 1 picks candidates by domain and required groups; an unroutable tool never answers
//! an unnamed query, however well its fields match.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
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
//!     domains: [materials_property]
//!     required_groups: [electronic]
//! # file: schemas/t.yaml
//! id: lab_notebook
//! title: Lab notebook
//! domain: materials_property
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
//! # file: schemas/t.yaml
//! id: lab_notebook
//! title: Lab notebook
//! domain: materials_property
//! endpoints:
//!   - id: measurements
//!     method: GET
//!     url: https://lab.example/api/measurements
//!     fields:
//!       - name: measured_band_gap
//!         type: number
//!         groups: [electronic]
//! ```

use crate::graph::index;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct UnroutableTool;

impl Rule for UnroutableTool {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        let mut reachable = vec![false; p.tools.len()];
        for i in &p.intents {
            for t in index::intent_candidates(ctx.index, &i.item) {
                reachable[t] = true;
            }
        }
        for (ti, t) in p.tools.iter().enumerate() {
            if t.endpoints.is_empty() {
                out.report(
                    t.file,
                    t.id.span,
                    format!("tool `{}` declares no endpoint: no plan can call it", t.id.value),
                )
                .label("tool without endpoints")
                .fix("declare its endpoints (`schemarouter import` writes them from an API description), or remove the file");
                continue;
            }
            if reachable[ti] {
                continue;
            }
            let targeting: Vec<&str> = p
                .intents
                .iter()
                .filter(|i| i.item.domains.iter().any(|d| d.value == t.domain.value))
                .map(|i| i.item.id.value.as_str())
                .collect();
            let why = if targeting.is_empty() {
                format!("no intent targets its domain `{}`", t.domain.value)
            } else {
                format!(
                    "it provides none of the required groups of {}",
                    targeting.join(", ")
                )
            };
            out.report(t.file, t.id.span, format!("tool `{}` can only be reached by name: {why}", t.id.value))
                .label("unroutable tool")
                .fix("put its fields in the groups the intents of its domain require, or add an intent for its domain");
        }
    }
}
