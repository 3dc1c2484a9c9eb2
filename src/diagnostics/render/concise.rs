//! Concise output: one line per finding, like compilers and ruff's `--output-format concise`.

use super::super::{Diagnostic, Position};
use super::human::summary_line;
use crate::source::SourceMap;

/// `file:line:col: severity[CODE/name] message (help: ...)`, one line each, then the summary.
pub fn render(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&line(d, sources));
    }
    out.push_str(&summary_line(diags));
    out
}

/// One finding as one line (ending in a line feed): `file:line:col: severity[CODE/name]
/// message (help: ...)`, or `<project>: ...` for a finding without a place.
pub fn line(d: &Diagnostic, sources: &SourceMap) -> String {
    let mut out = String::new();
    match &d.primary {
        Some(l) => {
            let p = Position::resolve(l, sources);
            out.push_str(&format!(
                "{}:{}:{}: ",
                super::one_line(&p.file),
                p.line,
                p.column
            ));
        }
        None => out.push_str("<project>: "),
    }
    out.push_str(&format!(
        "{}[{}/{}] {}",
        d.severity,
        d.code,
        d.name,
        super::one_line(&d.message)
    ));
    if let Some(h) = &d.help {
        out.push_str(&format!(" (help: {})", super::one_line(h)));
    }
    out.push('\n');
    out
}
