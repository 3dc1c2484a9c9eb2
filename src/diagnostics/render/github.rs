//! GitHub Actions workflow commands: one annotation line per finding,
//! `::error file=<path>,line=<l>,col=<c>,endLine=<l>,endColumn=<c>,title=<CODE> <name>::<message>`
//! (`::warning` for warnings, `::notice` for infos). Related places follow the message as
//! `file:line:col: label` lines, then the help line, each after an (escaped) newline. A finding
//! without a file gets an annotation without position properties.

use super::super::{Diagnostic, Position, Severity};
use crate::source::SourceMap;

/// The workflow command for a severity (`error`, `warning`, `notice`).
pub fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// Escape a command's message (data): `%` -> `%25`, `\r` -> `%0D`, `\n` -> `%0A`.
pub fn escape_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// Escape a property value: as [`escape_data`], plus `:` -> `%3A` and `,` -> `%2C`.
pub fn escape_property(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' => out.push_str("%3A"),
            ',' => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// One annotation line (without the final newline).
pub fn annotation(d: &Diagnostic, sources: &SourceMap) -> String {
    let mut props = Vec::new();
    if let Some(l) = &d.primary {
        let p = Position::resolve(l, sources);
        props.push(format!(
            "file={}",
            escape_property(&super::terminal_safe(&p.file))
        ));
        props.push(format!("line={}", p.line));
        props.push(format!("col={}", p.column));
        props.push(format!("endLine={}", p.end_line));
        props.push(format!("endColumn={}", p.end_column));
    }
    props.push(format!(
        "title={}",
        escape_property(&format!("{} {}", d.code, d.name))
    ));
    let mut message = d.message.clone();
    // Related places (the first definition, the anchor a value comes from) as lines of their
    // own: an annotation has one position.
    for l in &d.secondary {
        let p = Position::resolve(l, sources);
        message.push_str(&format!("\n{}:{}:{}", p.file, p.line, p.column));
        if !l.message.is_empty() {
            message.push_str(&format!(": {}", l.message));
        }
    }
    if let Some(h) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(h);
    }
    format!(
        "::{} {}::{}",
        command(d.severity),
        props.join(","),
        escape_data(&super::terminal_safe(&message))
    )
}

/// One annotation line per finding, in the order given.
pub fn render(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&annotation(d, sources));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("a%b\r\nc: d, e"), "a%25b%0D%0Ac: d, e");
        assert_eq!(escape_property("a%b\r\nc: d, e"), "a%25b%0D%0Ac%3A d%2C e");
    }

    #[test]
    fn project_wide_finding_has_no_position() {
        let d = Diagnostic::new("SR007", "invalid-value", Severity::Error, "bad, really: 5%");
        assert_eq!(
            annotation(&d, &SourceMap::new()),
            "::error title=SR007 invalid-value::bad, really: 5%25"
        );
    }
}
