//! Human output: a summary line, then the changes grouped by class (breaking, dangerous, safe,
//! accepted), each with its code, entity, message, locations on both sides and fingerprint;
//! then unmatched acceptances, the plan impact and the verdict.

use super::{RenderOptions, verdict};
use crate::diff::{Change, Class, Report};
use std::fmt::Write as _;

fn paint(color: bool, code: &str, text: &str) -> String {
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn class_colour(class: Class) -> &'static str {
    match class {
        Class::Breaking => "1;31",
        Class::Dangerous => "1;33",
        Class::Safe => "1;32",
    }
}

fn change(out: &mut String, c: &Change, color: bool) {
    let _ = writeln!(
        out,
        "  {}  {}",
        paint(color, class_colour(c.class), c.code),
        c.entity
    );
    let _ = writeln!(out, "    {}", c.message);
    let mut places = Vec::new();
    if let Some(l) = &c.old_location {
        places.push(format!("old {l}"));
    }
    if let Some(l) = &c.new_location {
        places.push(format!("new {l}"));
    }
    if !places.is_empty() {
        let _ = writeln!(out, "    at {}", places.join(", "));
    }
    if let Some(r) = &c.accepted {
        let _ = writeln!(out, "    accepted ({}): {r}", c.class);
    }
    let _ = writeln!(out, "    fingerprint {}", c.fingerprint);
}

/// Render the report as text.
pub fn render(report: &Report, opts: RenderOptions) -> String {
    let color = opts.color;
    let mut out = String::new();
    let counts = report.counts();
    let _ = writeln!(out, "Schema diff {} -> {}", report.old, report.new);
    if report.changes.is_empty() {
        let _ = writeln!(out, "No schema changes.");
    } else {
        let _ = writeln!(
            out,
            "{} breaking, {} dangerous, {} safe, {} accepted",
            counts.breaking, counts.dangerous, counts.safe, counts.accepted
        );
        for class in Class::ALL {
            let n = counts.of(class);
            if n == 0 {
                continue;
            }
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "{}",
                paint(
                    color,
                    class_colour(class),
                    &format!("{} ({n})", class.title())
                )
            );
            for c in report.of_class(class) {
                change(&mut out, c, color);
            }
        }
        if counts.accepted > 0 {
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "{}",
                paint(color, "1", &format!("Accepted ({})", counts.accepted))
            );
            for c in report.accepted() {
                change(&mut out, c, color);
            }
        }
    }
    if !report.unmatched_acceptances.is_empty() {
        let _ = writeln!(out);
        for a in &report.unmatched_acceptances {
            let at = a
                .location
                .as_ref()
                .map(|l| format!(" ({l})"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{}: `[diff] accept` entry {}{at} {} (reason: {})",
                paint(color, "1;33", "warning"),
                a.fingerprint,
                a.why(),
                a.reason
            );
        }
    }
    if let Some(p) = &report.plan_impact {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Plan impact: {} of {} plan(s) change",
            p.changed.len(),
            p.total
        );
        for c in &p.changed {
            let _ = writeln!(out, "  {}: {}", c.id, c.summary());
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", verdict(report, opts.fail_on));
    out
}
