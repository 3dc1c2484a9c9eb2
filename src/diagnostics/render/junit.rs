//! JUnit XML: one `<testsuites>` holding one `<testsuite>` per file (named by its path relative
//! to the project root) with one `<testcase>` per finding, or a single passing testcase when
//! there is nothing to report. A finding at or above the fail level (`check --fail-level`, or
//! `[lint] fail-level`; errors by default) is a failing case, the others pass with their text
//! in `<system-out>`. Case names are the rule and the message (`SR006 unknown-key: unknown key
//! `domian``), never a line number, so a case's history survives edits above it; a repeated
//! name in one suite gets ` (2)`, ` (3)`, ... Suites come in the order of the (sorted) diagnostics; no
//! timestamps or durations, so the output is identical between runs.

use super::super::{Diagnostic, Position, Severity};
use crate::source::SourceMap;
use std::fmt::Write as _;

/// Suite name for findings that belong to no file.
pub const PROJECT_SUITE: &str = "<project>";

/// Escape text for a double-quoted XML attribute: `&`, `<`, `>`, `"`, `'` become entities; tab,
/// line feed and carriage return become character references (so that attribute values keep
/// them); other characters XML 1.0 forbids become U+FFFD.
pub fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Escape text for XML element content: `&`, `<`, `>` become entities, tab and line feed stay,
/// carriage return becomes `&#13;`, other characters XML 1.0 forbids become U+FFFD.
pub fn escape_xml_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

struct Case {
    name: String,
    message: String,
    code: &'static str,
    body: String,
    /// Errors fail; warnings and infos are reported as passing cases with their text.
    failure: bool,
}

fn case(d: &Diagnostic, sources: &SourceMap, fail: Option<Severity>) -> Case {
    let mut body = String::new();
    if let Some(l) = &d.primary {
        let p = Position::resolve(l, sources);
        let _ = write!(body, "{}:{}:{}: ", p.file, p.line, p.column);
    }
    let name = format!("{} {}: {}", d.code, d.name, d.message);
    let _ = write!(body, "{}[{}/{}] {}", d.severity, d.code, d.name, d.message);
    for s in &d.secondary {
        let p = Position::resolve(s, sources);
        let _ = write!(body, "\nrelated: {}:{}:{}", p.file, p.line, p.column);
        if !s.message.is_empty() {
            let _ = write!(body, ": {}", s.message);
        }
    }
    if let Some(h) = &d.help {
        let _ = write!(body, "\nhelp: {h}");
    }
    Case {
        name,
        message: d.message.clone(),
        code: d.code,
        body,
        failure: fail.is_some_and(|f| d.severity >= f),
    }
}

/// The JUnit XML report for these diagnostics, ending in a newline; errors fail.
pub fn render(diags: &[Diagnostic], sources: &SourceMap) -> String {
    render_with(diags, sources, Some(Severity::Error))
}

/// The JUnit XML report with findings at or above `fail` as failing cases (`None`: none fails,
/// as with `fail-level = "off"`).
pub fn render_with(diags: &[Diagnostic], sources: &SourceMap, fail: Option<Severity>) -> String {
    let safe = super::printable(diags);
    let diags: &[Diagnostic] = &safe;
    // Group by file in order of first appearance (the input is sorted by file already).
    let mut suites: Vec<(String, Vec<Case>)> = Vec::new();
    for d in diags {
        let file = match &d.primary {
            Some(l) => sources.get(l.file).name.clone(),
            None => PROJECT_SUITE.to_string(),
        };
        let mut c = case(d, sources, fail);
        match suites.iter_mut().find(|(name, _)| *name == file) {
            Some((_, cases)) => {
                let base = c.name.clone();
                let mut n = 1;
                while cases.iter().any(|x| x.name == c.name) {
                    n += 1;
                    c.name = format!("{base} ({n})");
                }
                cases.push(c)
            }
            None => suites.push((file, vec![c])),
        }
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let total = diags.len();
    if total == 0 {
        out.push_str(
            "<testsuites name=\"schemarouter\" tests=\"1\" failures=\"0\" errors=\"0\">\n",
        );
        out.push_str(
            "  <testsuite name=\"schemarouter\" tests=\"1\" failures=\"0\" errors=\"0\">\n",
        );
        out.push_str("    <testcase name=\"No problems found\" classname=\"schemarouter\"/>\n");
        out.push_str("  </testsuite>\n");
        out.push_str("</testsuites>\n");
        return out;
    }
    let failures = suites
        .iter()
        .flat_map(|(_, c)| c.iter())
        .filter(|c| c.failure)
        .count();
    let _ = writeln!(
        out,
        "<testsuites name=\"schemarouter\" tests=\"{total}\" failures=\"{failures}\" errors=\"0\">"
    );
    for (file, cases) in &suites {
        let n = cases.len();
        let f = cases.iter().filter(|c| c.failure).count();
        let file = escape_xml(file);
        let _ = writeln!(
            out,
            "  <testsuite name=\"{file}\" tests=\"{n}\" failures=\"{f}\" errors=\"0\">"
        );
        for c in cases {
            let _ = writeln!(
                out,
                "    <testcase name=\"{}\" classname=\"{file}\">",
                escape_xml(&c.name)
            );
            if c.failure {
                let _ = writeln!(
                    out,
                    "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                    escape_xml(&c.message),
                    escape_xml(c.code),
                    escape_xml_text(&c.body)
                );
            } else {
                let _ = writeln!(
                    out,
                    "      <system-out>{}</system-out>",
                    escape_xml_text(&c.body)
                );
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(
            escape_xml("a<b> & \"c\" 'd'\n\u{1}"),
            "a&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;&#10;\u{fffd}"
        );
        assert_eq!(
            escape_xml_text("a<b>&\"c\"\n\r\u{1}"),
            "a&lt;b&gt;&amp;\"c\"\n&#13;\u{fffd}"
        );
    }

    #[test]
    fn empty_report_has_one_passing_case() {
        let out = render(&[], &SourceMap::new());
        assert!(out.contains("<testcase name=\"No problems found\" classname=\"schemarouter\"/>"));
        assert!(!out.contains("<failure"));
    }
}
