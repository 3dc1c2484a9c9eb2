//! # duplicate-id (SR101)
//!
//! ## What it finds
//! Two declarations with the same id: tools, domains, groups, intents and concepts across the
//! project; endpoints within a tool; parameters and response fields within an endpoint. The
//! second declaration is reported and the first is shown.
//!
//! ## Why it matters for routing
//! Plans, benchmarks and named-tool requests refer to ids. With two declarations of one id, which
//! one a plan uses depends on file order.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/a.yaml
//! groups:
//!   - id: electronic
//!   - id: electronic
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/a.yaml
//! groups:
//!   - id: electronic
//!   - id: thermodynamic
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::Sp;
use crate::source::FileId;
use std::collections::BTreeMap;

/// See the module documentation.
pub struct DuplicateId;

fn check_ids<'a>(
    kind: &str,
    items: impl IntoIterator<Item = (FileId, &'a Sp<String>)>,
    out: &mut Sink,
) {
    let mut seen: BTreeMap<&str, (FileId, &Sp<String>)> = BTreeMap::new();
    for (file, id) in items {
        match seen.get(id.value.as_str()) {
            Some((ffile, first)) => {
                out.report(file, id.span, format!("duplicate {kind} id `{}`", id.value))
                    .label("declared again here")
                    .with(*ffile, first.span, "first declared here")
                    .fix(format!(
                        "rename one of the two {kind}s or delete the duplicate"
                    ));
            }
            None => {
                seen.insert(&id.value, (file, id));
            }
        }
    }
}

impl Rule for DuplicateId {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        check_ids("tool", p.tools.iter().map(|t| (t.file, &t.id)), out);
        check_ids(
            "domain",
            p.domains.iter().map(|d| (d.file, &d.item.id)),
            out,
        );
        check_ids("group", p.groups.iter().map(|d| (d.file, &d.item.id)), out);
        check_ids(
            "intent",
            p.intents.iter().map(|d| (d.file, &d.item.id)),
            out,
        );
        check_ids(
            "concept",
            p.concepts.iter().map(|d| (d.file, &d.item.id)),
            out,
        );
        for t in &p.tools {
            check_ids("endpoint", t.endpoints.iter().map(|e| (t.file, &e.id)), out);
            for e in &t.endpoints {
                check_ids(
                    "parameter",
                    e.parameters.iter().map(|x| (t.file, &x.name)),
                    out,
                );
                check_ids(
                    "response field",
                    e.fields.iter().map(|x| (t.file, &x.name)),
                    out,
                );
            }
        }
    }
}
