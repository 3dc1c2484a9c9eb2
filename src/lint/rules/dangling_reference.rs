//! # dangling-reference (SR103)
//!
//! ## What it finds
//! A reference to something that is not declared: a response field naming an undeclared group
//! or concept, an intent requiring an undeclared group or naming an undeclared concept among its
//! `entities`, a field group naming an undeclared concept in its `core`, a concept naming an
//! undeclared one among its `companions`, a parameter binding from
//! an undeclared concept, a recogniser feeding (or stopped by, `unless`) an undeclared concept. (Unknown domains are `unknown-domain`; aliases are
//! `dangling-alias`.)
//!
//! ## Why it matters for routing
//! Algorithm 1 projects the fields of an intent's required groups and matches concepts through
//! the alias layer; a reference to nothing silently drops fields from every plan (a misspelt
//! `core` concept drops its fields from the `core` projection).
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/a.yaml
//! domains:
//!   - id: materials_property
//! intents:
//!   - id: electronic_property
//!     description: Band gaps.
//!     domains: [materials_property]
//!     required_groups: [electronics]
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
use crate::model::value::did_you_mean;
use crate::source::FileId;
use std::collections::BTreeMap;

/// See the module documentation.
pub struct DanglingReference;

fn missing<T>(
    kind: &str,
    id: &crate::model::Sp<String>,
    table: &BTreeMap<String, T>,
    file: FileId,
    whose: &dyn Fn() -> String,
    out: &mut Sink,
) {
    if table.contains_key(&id.value) {
        return;
    }
    let whose = whose();
    let help = match did_you_mean(&id.value, table.keys().map(String::as_str)) {
        Some(c) => format!(
            "did you mean `{c}`? Otherwise declare {kind} `{}`",
            id.value
        ),
        None => format!(
            "declare {kind} `{}` (under `{}`), or remove the reference",
            id.value,
            if kind == "concept" {
                "aliases/"
            } else {
                "intents/"
            }
        ),
    };
    out.report(
        file,
        id.span,
        format!("{whose} references undeclared {kind} `{}`", id.value),
    )
    .label(format!("no {kind} with this id"))
    .fix(help);
}

impl Rule for DanglingReference {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        let ix = ctx.index;
        for t in &p.tools {
            for e in &t.endpoints {
                for f in &e.fields {
                    let whose = || format!("field `{}`", f.name.value);
                    for g in &f.groups {
                        missing("group", g, &ix.groups, t.file, &whose, out);
                    }
                    for c in &f.concepts {
                        missing("concept", c, &ix.concepts, t.file, &whose, out);
                    }
                }
                for param in &e.parameters {
                    let whose = || format!("parameter `{}`", param.name.value);
                    for b in &param.bind {
                        missing("concept", &b.concept, &ix.concepts, t.file, &whose, out);
                    }
                }
            }
        }
        for r in &p.recognisers {
            let whose = || "a recogniser".to_string();
            missing("concept", &r.concept, &ix.concepts, r.file, &whose, out);
            for c in &r.unless {
                missing("concept", c, &ix.concepts, r.file, &whose, out);
            }
        }
        for c in &p.concepts {
            let whose = || format!("the `companions` of concept `{}`", c.item.id.value);
            for x in &c.item.companions {
                missing("concept", x, &ix.concepts, c.file, &whose, out);
            }
        }
        for g in &p.groups {
            let whose = || format!("the `core` of field group `{}`", g.item.id.value);
            for c in &g.item.core {
                missing("concept", c, &ix.concepts, g.file, &whose, out);
            }
        }
        for i in &p.intents {
            let whose = || format!("intent `{}`", i.item.id.value);
            for g in &i.item.required_groups {
                missing("group", g, &ix.groups, i.file, &whose, out);
            }
            for e in &i.item.entities {
                missing("concept", e, &ix.concepts, i.file, &whose, out);
            }
        }
    }
}
