//! # tied-candidates (SR510)
//!
//! ## What it finds
//! Two or more candidate tools of one intent that Algorithm 1 cannot tell apart: their fields in
//! the intent's required groups carry the same concepts, and they have the same priority, the
//! same source type and the same kind (web or not). Every question of the intent then scores
//! them equally, and the router chooses by tie-break: the tool with fewer fields, then the
//! smaller id.
//!
//! ## Why it matters for routing
//! A choice made by field count and alphabetical order is nobody's decision: adding a field to
//! the winner silently hands its questions to the other tool. The plan names the loser among its
//! `alternatives` with "tie broken by size" or "by id order"; this rule says so before any
//! question is asked. Set `priority` on the tool to prefer, or declare what tells them apart (a
//! source type, qualifiers on the fields).
//!
//! ## Fix
//! None: which tool should win is a person's decision; the help line says what to write.
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
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     kind: response
//!     aliases: [band gap]
//! # file: schemas/a.yaml
//! id: alpha_db
//! title: Alpha DB
//! domain: materials_property
//! endpoints:
//!   - id: rows
//!     method: GET
//!     url: https://alpha.example/rows
//!     fields:
//!       - name: gap
//!         type: number
//!         groups: [electronic]
//!         concepts: [band_gap]
//! # file: schemas/b.yaml
//! id: beta_db
//! title: Beta DB
//! domain: materials_property
//! endpoints:
//!   - id: rows
//!     method: GET
//!     url: https://beta.example/rows
//!     fields:
//!       - name: band_gap
//!         type: number
//!         groups: [electronic]
//!         concepts: [band_gap]
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
//! # file: aliases/a.yaml
//! concepts:
//!   - id: band_gap
//!     kind: response
//!     aliases: [band gap]
//! # file: schemas/a.yaml
//! id: alpha_db
//! title: Alpha DB
//! domain: materials_property
//! priority: 10
//! endpoints:
//!   - id: rows
//!     method: GET
//!     url: https://alpha.example/rows
//!     fields:
//!       - name: gap
//!         type: number
//!         groups: [electronic]
//!         concepts: [band_gap]
//! # file: schemas/b.yaml
//! id: beta_db
//! title: Beta DB
//! domain: materials_property
//! endpoints:
//!   - id: rows
//!     method: GET
//!     url: https://beta.example/rows
//!     fields:
//!       - name: band_gap
//!         type: number
//!         groups: [electronic]
//!         concepts: [band_gap]
//! ```

use crate::graph::index;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::{Intent, Tool};
use std::collections::{BTreeMap, BTreeSet};

/// See the module documentation.
pub struct TiedCandidates;

/// What Algorithm 1 compares between two candidates of one intent before its tie-breaks: web or
/// not, priority, source type, and the concepts of the fields in the intent's required groups.
type Standing = (bool, i64, Option<String>, BTreeSet<String>);

fn standing(t: &Tool, intent: &Intent) -> Standing {
    let groups: BTreeSet<&str> = intent
        .required_groups
        .iter()
        .map(|g| g.value.as_str())
        .collect();
    let concepts: BTreeSet<String> = t
        .endpoints
        .iter()
        .flat_map(|e| e.value.fields.iter())
        .filter(|f| {
            f.value
                .groups
                .iter()
                .any(|g| groups.contains(g.value.as_str()))
        })
        .flat_map(|f| f.value.concepts.iter().map(|c| c.value.clone()))
        .collect();
    let source = t.source_type.as_ref().map(|s| s.value.clone());
    let web = source.as_deref() == Some("web") || t.domain.value == "web";
    (
        web,
        t.priority.as_ref().map_or(0, |p| p.value),
        source,
        concepts,
    )
}

fn field_count(t: &Tool) -> usize {
    t.endpoints.iter().map(|e| e.value.fields.len()).sum()
}

impl Rule for TiedCandidates {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        // Tool indices that tie -> the intents where they do (one finding per set of tools).
        let mut ties: BTreeMap<Vec<usize>, Vec<&str>> = BTreeMap::new();
        for i in &p.intents {
            let mut by: BTreeMap<Standing, Vec<usize>> = BTreeMap::new();
            for t in index::intent_candidates(ctx.index, &i.item) {
                let s = standing(&p.tools[t].item, &i.item);
                if !s.3.is_empty() {
                    by.entry(s).or_default().push(t);
                }
            }
            for tools in by.into_values().filter(|v| v.len() > 1) {
                ties.entry(tools).or_default().push(&i.item.id.value);
            }
        }
        for (tools, intents) in ties {
            // Algorithm 1's tie-break: fewer fields, then the smaller id.
            let mut order = tools.clone();
            order.sort_by_key(|&t| (field_count(&p.tools[t].item), &p.tools[t].item.id.value));
            let winner = &p.tools[order[0]];
            let concepts = standing(&winner.item, &p.intents[p_intent(p, intents[0])].item).3;
            let ids: Vec<String> = order
                .iter()
                .map(|&t| format!("`{}`", p.tools[t].item.id.value))
                .collect();
            let list: Vec<&str> = concepts.iter().map(String::as_str).collect();
            for &t in &order[1..] {
                let loser = &p.tools[t];
                out.report(
                    loser.file,
                    loser.item.id.span,
                    format!(
                        "tools {} answer the same concepts ({}) for intent {} with the same priority and source type; Algorithm 1 picks `{}` by tie-break (fewer fields, then id)",
                        ids.join(", "),
                        list.join(", "),
                        intents.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", "),
                        winner.item.id.value
                    ),
                )
                .label("ties with another candidate")
                .with(winner.file, winner.item.id.span, "chosen by tie-break")
                .fix(format!(
                    "set `priority` on the tool to prefer (higher wins; `{}` now has {}), or declare what tells them apart: a source type, qualifiers on the fields",
                    loser.item.id.value,
                    loser.item.priority.as_ref().map_or(0, |x| x.value)
                ));
            }
        }
    }
}

/// The index of intent `id` in the project.
fn p_intent(p: &crate::model::Project, id: &str) -> usize {
    p.intents
        .iter()
        .position(|i| i.item.id.value == id)
        .unwrap_or(0)
}
