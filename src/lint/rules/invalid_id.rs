//! # invalid-id (SR107)
//!
//! ## What it finds
//! An id that cannot be used safely: empty, with whitespace or control characters, or with `/`
//! (tools, endpoints, domains, groups, intents, concepts use letters, digits, `_`, `-` and `.`).
//! Response field and parameter names keep the provider's spelling but may not be empty or
//! contain `/` or control characters.
//!
//! ## Why it matters for routing
//! Fields are addressed as `tool/endpoint/field` in aliases, plans and the graph: an endpoint
//! `a/b` with field `c` and an endpoint `a` with field `b/c` would be the same field.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/a.yaml
//! groups:
//!   - id: electronic/optical
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/a.yaml
//! groups:
//!   - id: electronic_optical
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::Sp;
use crate::source::FileId;

/// See the module documentation.
pub struct InvalidId;

fn check_id(kind: &str, id: &Sp<String>, file: FileId, out: &mut Sink) {
    let v = &id.value;
    let problem = if v.is_empty() {
        Some("is empty")
    } else if v.contains('/') {
        Some("contains `/`")
    } else if v.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("contains whitespace or control characters")
    } else if !v
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        Some("contains characters other than letters, digits, `_`, `-` and `.`")
    } else {
        None
    };
    if let Some(p) = problem {
        out.report(file, id.span, format!("{kind} id `{v}` {p}"))
            .label("invalid id")
            .fix("use letters, digits, `_`, `-` and `.` (snake_case ids are the convention)");
    }
}

fn check_name(kind: &str, name: &Sp<String>, file: FileId, out: &mut Sink) {
    let v = &name.value;
    let problem = if v.is_empty() {
        Some("is empty")
    } else if v.contains('/') {
        Some("contains `/`")
    } else if v.chars().any(char::is_control) {
        Some("contains control characters")
    } else {
        None
    };
    if let Some(p) = problem {
        out.report(file, name.span, format!("{kind} name `{v}` {p}"))
            .label("invalid name")
            .fix("write the provider's key path with `.` between levels and `[]` for arrays");
    }
}

impl Rule for InvalidId {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        for t in &p.tools {
            check_id("tool", &t.id, t.file, out);
            for e in &t.endpoints {
                check_id("endpoint", &e.id, t.file, out);
                for param in &e.parameters {
                    check_name("parameter", &param.name, t.file, out);
                }
                for f in &e.fields {
                    check_name("response field", &f.name, t.file, out);
                }
            }
        }
        for d in &p.domains {
            check_id("domain", &d.item.id, d.file, out);
        }
        for g in &p.groups {
            check_id("group", &g.item.id, g.file, out);
        }
        for i in &p.intents {
            check_id("intent", &i.item.id, i.file, out);
        }
        for c in &p.concepts {
            check_id("concept", &c.item.id, c.file, out);
        }
    }
}
