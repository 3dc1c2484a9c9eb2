//! JSON output: one pretty-printed document with the sides, the gate, the counts, every change
//! (accepted ones carry `accepted`: the reason), unmatched acceptances and the plan impact.
//! Keys come in the order of the Rust types (`code`, `class`, `entity`, `old`, `new`, ...).

use super::RenderOptions;
use crate::diff::plans::PlanImpact;
use crate::diff::{Change, Counts, FailOn, Report, UnmatchedAcceptance};
use serde::Serialize;

/// The JSON document.
#[derive(Serialize)]
struct Document<'a> {
    old: &'a str,
    new: &'a str,
    fail_on: FailOn,
    failed: bool,
    summary: Counts,
    changes: &'a [Change],
    unmatched_acceptances: &'a [UnmatchedAcceptance],
    plan_impact: Option<&'a PlanImpact>,
}

/// Render the report as JSON (with a final newline).
pub fn render(report: &Report, opts: RenderOptions) -> String {
    let doc = Document {
        old: &report.old,
        new: &report.new,
        fail_on: opts.fail_on,
        failed: report.fails(opts.fail_on),
        summary: report.counts(),
        changes: &report.changes,
        unmatched_acceptances: &report.unmatched_acceptances,
        plan_impact: report.plan_impact.as_ref(),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
