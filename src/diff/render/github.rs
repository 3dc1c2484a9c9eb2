//! GitHub Actions annotations on the new side's lines: `::error` for a change that fails the
//! gate (`--fail-on`), `::warning` for a breaking or dangerous change it lets pass, `::notice` for
//! safe and accepted changes (so `--fail-on none` writes no `::error`, and a job that passes shows
//! no failure annotations); a removal is annotated at its nearest
//! surviving parent, and a change with no place on the new side gets an annotation without a
//! position. Unmatched acceptances are warnings at their entry; plan changes are notices.

use super::RenderOptions;
use crate::diagnostics::render::github::{escape_data, escape_property};
use crate::diff::{Change, Class, FailOn, Location, Report};
use std::fmt::Write as _;

fn props(loc: Option<&Location>, title: &str) -> String {
    let mut p = Vec::new();
    if let Some(l) = loc {
        p.push(format!("file={}", escape_property(&l.file)));
        p.push(format!("line={}", l.line));
        p.push(format!("col={}", l.column));
        p.push(format!("endLine={}", l.end_line));
        p.push(format!("endColumn={}", l.end_column));
    }
    p.push(format!("title={}", escape_property(title)));
    p.join(",")
}

/// The workflow command for a change: `error` only when it fails the gate.
pub fn command(c: &Change, fail_on: FailOn) -> &'static str {
    match (c.accepted.is_some(), c.class) {
        (true, _) | (false, Class::Safe) => "notice",
        (false, class) if fail_on.fails(class) => "error",
        (false, _) => "warning",
    }
}

fn annotation(c: &Change, fail_on: FailOn) -> String {
    let command = command(c, fail_on);
    let mut message = format!("{}\nentity: {}", c.message, c.entity);
    if let Some(r) = &c.accepted {
        let _ = write!(message, "\naccepted: {r}");
    }
    let _ = write!(message, "\nfingerprint: {}", c.fingerprint);
    format!(
        "::{command} {}::{}",
        props(c.new_location.as_ref(), &format!("{} {}", c.class, c.code)),
        escape_data(&message)
    )
}

/// One annotation line per change, then acceptances and plan changes.
pub fn render(report: &Report, opts: RenderOptions) -> String {
    let mut out = String::new();
    for c in &report.changes {
        out.push_str(&annotation(c, opts.fail_on));
        out.push('\n');
    }
    for a in &report.unmatched_acceptances {
        let _ = writeln!(
            out,
            "::warning {}::{}",
            props(a.location.as_ref(), "unmatched diff acceptance"),
            escape_data(&format!(
                "`[diff] accept` entry {} {} (reason: {})",
                a.fingerprint,
                a.why(),
                a.reason
            ))
        );
    }
    if let Some(p) = &report.plan_impact {
        for c in &p.changed {
            let _ = writeln!(
                out,
                "::notice {}::{}",
                props(None, "plan impact"),
                escape_data(&format!("{}: {}", c.id, c.summary()))
            );
        }
    }
    out
}
