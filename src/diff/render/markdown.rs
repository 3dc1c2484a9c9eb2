//! Markdown output for a pull-request comment: a heading, the summary counts, one table per class
//! (and one for accepted changes), unmatched acceptances, the plan impact and the verdict.

use super::{RenderOptions, verdict};
use crate::diff::{Change, Class, Report};
use std::fmt::Write as _;

/// Escape a table cell: `|` and line breaks.
pub fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\r', '\n'], " ")
}

fn code(s: &str) -> String {
    format!("`{}`", cell(&s.replace('`', "'")))
}

fn place(c: &Change) -> String {
    match (&c.new_location, &c.old_location) {
        (Some(l), _) => code(&format!("{}:{}", l.file, l.line)),
        (None, Some(l)) => format!("old {}", code(&format!("{}:{}", l.file, l.line))),
        (None, None) => String::new(),
    }
}

fn table(out: &mut String, changes: &[&Change], accepted: bool) {
    if accepted {
        let _ = writeln!(
            out,
            "| Class | Change | Entity | Details | Where | Reason | Fingerprint |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    } else {
        let _ = writeln!(out, "| Change | Entity | Details | Where | Fingerprint |");
        let _ = writeln!(out, "|---|---|---|---|---|");
    }
    for c in changes {
        if accepted {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                c.class,
                code(c.code),
                code(&c.entity),
                cell(&c.message),
                place(c),
                cell(c.accepted.as_deref().unwrap_or("")),
                code(&c.fingerprint)
            );
        } else {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                code(c.code),
                code(&c.entity),
                cell(&c.message),
                place(c),
                code(&c.fingerprint)
            );
        }
    }
}

/// Render the report as Markdown.
pub fn render(report: &Report, opts: RenderOptions) -> String {
    let mut out = String::new();
    let counts = report.counts();
    let _ = writeln!(
        out,
        "## Schema diff: {} → {}\n",
        code(&report.old),
        code(&report.new)
    );
    if report.changes.is_empty() {
        let _ = writeln!(out, "No schema changes.\n");
    } else {
        let _ = writeln!(out, "| Breaking | Dangerous | Safe | Accepted |");
        let _ = writeln!(out, "|---:|---:|---:|---:|");
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |\n",
            counts.breaking, counts.dangerous, counts.safe, counts.accepted
        );
        for class in Class::ALL {
            let rows: Vec<&Change> = report.of_class(class).collect();
            if rows.is_empty() {
                continue;
            }
            let _ = writeln!(out, "### {} changes ({})\n", class.title(), rows.len());
            table(&mut out, &rows, false);
            let _ = writeln!(out);
        }
        let rows: Vec<&Change> = report.accepted().collect();
        if !rows.is_empty() {
            let _ = writeln!(out, "### Accepted changes ({})\n", rows.len());
            table(&mut out, &rows, true);
            let _ = writeln!(out);
        }
    }
    if !report.unmatched_acceptances.is_empty() {
        let _ = writeln!(out, "### Acceptances that match no change\n");
        for a in &report.unmatched_acceptances {
            let at = a
                .location
                .as_ref()
                .map(|l| format!(" at {}", code(&format!("{}:{}", l.file, l.line))))
                .unwrap_or_default();
            let malformed = if a.why() == "matches no change" {
                ""
            } else {
                " (no change fingerprint: 16 hexadecimal digits, as `diff` prints them)"
            };
            let _ = writeln!(
                out,
                "- {}{at}{malformed}: {}",
                code(&a.fingerprint),
                cell(&a.reason)
            );
        }
        let _ = writeln!(out);
    }
    if let Some(p) = &report.plan_impact {
        let _ = writeln!(
            out,
            "### Plan impact\n\n{} of {} plan(s) change.\n",
            p.changed.len(),
            p.total
        );
        if !p.changed.is_empty() {
            let _ = writeln!(out, "| Query | Change |");
            let _ = writeln!(out, "|---|---|");
            for c in &p.changed {
                let _ = writeln!(out, "| {} | {} |", code(&c.id), cell(&c.summary()));
            }
            let _ = writeln!(out);
        }
    }
    let _ = writeln!(out, "**Gate:** {}", verdict(report, opts.fail_on));
    out
}
