//! Inline suppressions in YAML and TOML comments:
//!
//! ```yaml
//! # schemarouter: allow(unit-conflict) -- AFLOW publishes this per cell; kept on purpose
//! - name: enthalpy_formation_cell
//! ```
//!
//! A comment alone on its line covers the next line with content and the block it opens (the
//! following lines indented deeper, or for a TOML `[table]` header, every line up to the next
//! header). A comment after content covers that line and the block it opens.
//! `allow-file(...)` anywhere covers the whole file. Rules are named by kebab-case name or by
//! code. Every suppression needs a reason after `--`; one without a reason, one naming an
//! unknown rule, and one that suppresses nothing are each reported.

use super::registry::{self, RULES};
use crate::diagnostics::fix::{Edit, Fix};
use crate::diagnostics::{Diagnostic, Severity};
use crate::model::Project;
use crate::source::{FileId, SourceFile, Span};

/// One parsed suppression comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// File the comment is in.
    pub file: FileId,
    /// Span of the comment text (from `#`).
    pub span: Span,
    /// Rule names or codes, as written, with the span of each.
    pub rules: Vec<(String, Span)>,
    /// The reason after `--`, if any.
    pub reason: Option<String>,
    /// First and last covered line (1-based, inclusive).
    pub lines: (usize, usize),
    /// What is wrong with a comment that starts like a suppression but is not one.
    pub problem: Option<String>,
}

const MARKER: &str = "schemarouter:";

/// Byte offset of a comment `#` on this line, if any (outside quotes; YAML requires a space
/// before an inline `#`).
fn comment_start(line: &str) -> Option<usize> {
    let mut in_single = false;
    let mut in_double = false;
    let mut prev: Option<char> = None;
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !in_double => in_single = !in_single,
            '"' if !in_single && prev != Some('\\') => in_double = !in_double,
            '#' if !in_single && !in_double && prev.is_none_or(|p| p.is_whitespace()) => {
                return Some(i);
            }
            _ => {}
        }
        prev = Some(c);
    }
    None
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn is_code_line(line: &str) -> bool {
    let t = line.trim_start_matches('\u{feff}').trim();
    !t.is_empty() && !t.starts_with('#')
}

fn is_toml_header(line: &str) -> bool {
    line.trim_start().starts_with('[')
}

/// The last line of the block opened at 1-based line `start`.
fn block_end(file: &SourceFile, start: usize) -> usize {
    let n = file.line_count();
    let first = file.line_text(start);
    let header = is_toml_header(first) && file.name.ends_with(".toml");
    let base = indent(first);
    let mut last = start;
    for l in start + 1..=n {
        let text = file.line_text(l);
        if !is_code_line(text) {
            continue;
        }
        let stop = if header {
            is_toml_header(text)
        } else {
            indent(text) <= base
        };
        if stop {
            break;
        }
        last = l;
    }
    last
}

/// Find every suppression comment in a file.
pub fn parse_file(file_id: FileId, file: &SourceFile) -> Vec<Suppression> {
    let mut out = Vec::new();
    // Every suppression comment holds the marker: a file without it has none.
    if !file.text.contains(MARKER) {
        return out;
    }
    // Strings that hold the marker, found by parsing the file only when a comment-like line
    // is seen: a `# schemarouter: ...` line inside a block scalar or a multi-line quoted
    // string is text, not a comment, and suppresses nothing.
    let mut strings: Option<Vec<Span>> = None;
    for line_no in 1..=file.line_count() {
        let line = file.line_text(line_no);
        let Some(hash) = comment_start(line) else {
            continue;
        };
        let comment = &line[hash + 1..];
        let trimmed = comment.trim_start();
        let Some(rest) = trimmed.strip_prefix(MARKER) else {
            continue;
        };
        let at = (file.line_start(line_no) + hash) as u32;
        let strings = strings.get_or_insert_with(|| marker_strings(file));
        if strings.iter().any(|s| s.start <= at && at < s.end) {
            continue;
        }
        // A comment that starts like a suppression but cannot be read: reported, never ignored.
        let malformed = |problem: String| {
            let line_start = file.line_start(line_no);
            Suppression {
                file: file_id,
                span: Span::new(line_start + hash, line_start + line.len()),
                rules: Vec::new(),
                reason: None,
                lines: (line_no, line_no),
                problem: Some(problem),
            }
        };
        let rest_offset = hash + 1 + (comment.len() - trimmed.len()) + MARKER.len();
        let rest_trim = rest.trim_start();
        let mut pos = rest_offset + (rest.len() - rest_trim.len());
        let (whole_file, body) = if let Some(b) = rest_trim.strip_prefix("allow-file(") {
            pos += "allow-file(".len();
            (true, b)
        } else if let Some(b) = rest_trim.strip_prefix("allow(") {
            pos += "allow(".len();
            (false, b)
        } else {
            out.push(malformed(
                format!(
                    "`{}` is not a suppression: expected `allow(<rule>) -- <reason>` or `allow-file(<rule>) -- <reason>`",
                    rest_trim.split_whitespace().next().unwrap_or("")
                ),
            ));
            continue;
        };
        let Some(close) = body.find(')') else {
            out.push(malformed("suppression has no closing `)`".to_string()));
            continue;
        };
        let list = &body[..close];
        let line_start = file.line_start(line_no);
        let mut rules = Vec::new();
        let mut offset = pos;
        for part in list.split(',') {
            let name = part.trim();
            let lead = part.len() - part.trim_start().len();
            if !name.is_empty() {
                let s = line_start + offset + lead;
                rules.push((name.to_string(), Span::new(s, s + name.len())));
            }
            offset += part.len() + 1;
        }
        let after = &body[close + 1..];
        let reason = after
            .trim()
            .strip_prefix("--")
            .map(|r| r.trim().to_string())
            .filter(|r| !r.is_empty());
        let target = if is_code_line(&line[..hash]) {
            Some(line_no)
        } else {
            (line_no + 1..=file.line_count()).find(|l| is_code_line(file.line_text(*l)))
        };
        let lines = if whole_file {
            (1, file.line_count())
        } else {
            match target {
                Some(t) => (t, block_end(file, t)),
                None => (line_no, line_no),
            }
        };
        let problem = rules
            .is_empty()
            .then(|| "suppression names no rule: write `allow(<rule>, ...)`".to_string());
        out.push(Suppression {
            file: file_id,
            span: Span::new(line_start + hash, line_start + line.len()),
            rules,
            reason,
            lines,
            problem,
        });
    }
    out
}

/// Spans of the string values and keys of `file` whose text holds the suppression marker
/// (none when the file does not parse: then every comment-like line counts as a comment).
fn marker_strings(file: &SourceFile) -> Vec<Span> {
    use crate::load::node::{Node, NodeKind};
    fn walk(node: &Node, out: &mut Vec<Span>) {
        match &node.kind {
            NodeKind::Str(s) if s.contains(MARKER) => out.push(node.span),
            NodeKind::Seq(items) => items.iter().for_each(|n| walk(n, out)),
            NodeKind::Map(entries) => {
                for (k, v) in entries {
                    if k.text.contains(MARKER) {
                        out.push(k.span);
                    }
                    walk(v, out);
                }
            }
            _ => {}
        }
    }
    let format = if file.name.ends_with(".toml") {
        crate::source::Format::Toml
    } else {
        crate::source::Format::Yaml
    };
    let mut out = Vec::new();
    let limits = crate::model::config::Limits::default();
    if let Ok((node, _, _)) = crate::load::parse_text_traced(&file.text, format, &limits) {
        walk(&node, &mut out);
    }
    out
}

fn matches(rule: &str, d: &Diagnostic) -> bool {
    rule == d.name || rule.eq_ignore_ascii_case(d.code)
}

/// Drop suppressed diagnostics and add findings about the suppressions themselves; returns the
/// diagnostics kept and, apart, the suppressed ones of error severity (`compile` names them: it
/// leaves out what they concern, such as a unit it cannot read).
///
/// `partial` is true when some declaration files could not be read: then no suppression is
/// reported unused (the finding it was written for may come from a rule that was skipped, or
/// involve a declaration of the unread file).
pub fn apply(
    project: &Project,
    diags: Vec<Diagnostic>,
    partial: bool,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    // Files are scanned in parallel (at 10,000 tools this was 0.2 s on one thread), and in
    // source order, as the suppressions are used below.
    use rayon::prelude::*;
    let files: Vec<_> = project.sources.iter().collect();
    let sups: Vec<Suppression> = files
        .par_iter()
        .map(|(id, file)| parse_file(*id, file))
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect();
    if sups.is_empty() {
        return (diags, Vec::new());
    }
    let mut used = vec![vec![false; 0]; sups.len()];
    for (i, s) in sups.iter().enumerate() {
        used[i] = vec![false; s.rules.len()];
    }
    let mut kept = Vec::with_capacity(diags.len());
    let mut suppressed_errors = Vec::new();
    'diag: for d in diags {
        if d.code.starts_with("SR9") {
            kept.push(d);
            continue;
        }
        if let Some(p) = &d.primary {
            let line = project
                .sources
                .get(p.file)
                .line_col(p.span.start as usize)
                .0;
            for (si, s) in sups.iter().enumerate() {
                if s.file != p.file || line < s.lines.0 || line > s.lines.1 {
                    continue;
                }
                if let Some(ri) = s.rules.iter().position(|(r, _)| matches(r, &d)) {
                    used[si][ri] = true;
                    if d.severity == Severity::Error {
                        suppressed_errors.push(d);
                    }
                    continue 'diag;
                }
            }
        }
        kept.push(d);
    }
    for (si, s) in sups.iter().enumerate() {
        if let Some(problem) = &s.problem {
            kept.push(registry::diagnostic(
                "unknown-rule",
                problem.clone(),
                s.file,
                s.span,
                "fix the comment, or remove `schemarouter:` if it is not meant as a suppression",
            ));
            continue;
        }
        if s.reason.is_none() {
            kept.push(registry::diagnostic(
                "suppression-without-reason",
                "suppression has no reason",
                s.file,
                s.span,
                "add `-- <why this finding is acceptable>` after the rule list",
            ));
        }
        for (ri, (rule, span)) in s.rules.iter().enumerate() {
            let entry = RULES
                .iter()
                .find(|e| e.name == rule || e.code.eq_ignore_ascii_case(rule));
            match entry {
                None => {
                    let help =
                        match crate::model::value::did_you_mean(rule, RULES.iter().map(|e| e.name))
                        {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => "run `schemarouter rules` for the list of rules".to_string(),
                        };
                    kept.push(registry::diagnostic(
                        "unknown-rule",
                        format!("suppression names unknown rule `{rule}`"),
                        s.file,
                        *span,
                        help,
                    ));
                }
                Some(e) => {
                    let enabled = super::effective_level(project, e).is_some();
                    if !used[si][ri] && enabled && !partial {
                        let unused = (0..s.rules.len())
                            .filter(|&r| {
                                !used[si][r]
                                    && RULES.iter().any(|e| {
                                        (e.name == s.rules[r].0
                                            || e.code.eq_ignore_ascii_case(&s.rules[r].0))
                                            && super::effective_level(project, e).is_some()
                                    })
                            })
                            .count();
                        let fix = unused_fix(project.sources.get(s.file), s, ri, unused);
                        kept.push(
                            registry::diagnostic(
                                "unused-suppression",
                                format!("suppression of `{}` suppresses nothing", e.name),
                                s.file,
                                *span,
                                "remove it; the finding it was written for is gone",
                            )
                            .with_fix(fix),
                        );
                    }
                }
            }
        }
    }
    // Findings about suppressions respect the configured levels too.
    kept.retain_mut(|d| {
        if !d.code.starts_with("SR9") {
            return true;
        }
        match RULES.iter().find(|e| e.code == d.code) {
            Some(e) => match super::effective_level(project, e) {
                Some(level) => {
                    d.severity = level;
                    true
                }
                None => false,
            },
            None => true,
        }
    });
    (kept, suppressed_errors)
}

/// The fix of an unused rule `ri` of suppression `s`: the rule's name and its comma taken out
/// of the list, or, when every rule of the comment is unused (`unused` of them), the whole
/// comment (its line, when the comment is alone on it).
fn unused_fix(file: &SourceFile, s: &Suppression, ri: usize, unused: usize) -> Fix {
    let text = &file.text;
    if unused >= s.rules.len() {
        let line = file.line_col(s.span.start as usize).0;
        let start = file.line_start(line);
        let before = &text[start..s.span.start as usize];
        let span = if before.trim().is_empty() {
            Span::new(start, file.line_start(line + 1))
        } else {
            let lead = before.len() - before.trim_end().len();
            Span::new(s.span.start as usize - lead, s.span.end as usize)
        };
        return Fix::safe(
            "remove the suppression comment",
            vec![Edit::delete(s.file, span)],
        );
    }
    let span = s.rules[ri].1;
    let (start, end) = (span.start as usize, span.end as usize);
    // `a, b`: take `b` with the comma and spaces before it; the first rule with those after it.
    let span = if ri > 0 {
        let prev_end = s.rules[ri - 1].1.end as usize;
        Span::new(prev_end, end)
    } else {
        let next_start = s.rules[1].1.start as usize;
        Span::new(start, next_start)
    };
    Fix::safe(
        format!("remove `{}` from the suppression", &text[start..end]),
        vec![Edit::delete(s.file, span)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sups(text: &str, name: &str) -> Vec<Suppression> {
        parse_file(FileId(0), &SourceFile::new(name, name, text.to_string()))
    }

    #[test]
    fn standalone_comment_covers_next_block() {
        let text = "fields:\n  # schemarouter: allow(unit-conflict) -- per cell on purpose\n  - name: x\n    unit: eV\n  - name: y\n";
        let s = sups(text, "a.yaml");
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].rules[0].0, "unit-conflict");
        assert_eq!(s[0].reason.as_deref(), Some("per cell on purpose"));
        assert_eq!(s[0].lines, (3, 4));
        let (name, span) = &s[0].rules[0];
        assert_eq!(&text[span.start as usize..span.end as usize], name);
    }

    #[test]
    fn trailing_comment_covers_its_line_and_block() {
        let s = sups(
            "a: 1 # schemarouter: allow(SR302, unit-conflict)\nb: 2\n",
            "a.yaml",
        );
        assert_eq!(s[0].lines, (1, 1));
        assert_eq!(s[0].rules.len(), 2);
        assert_eq!(s[0].reason, None);
    }

    #[test]
    fn toml_header_covers_table() {
        let text = "# schemarouter: allow(missing-unit) -- x\n[[endpoints.fields]]\nname = \"a\"\n\n[[endpoints.fields]]\nname = \"b\"\n";
        let s = sups(text, "t.toml");
        assert_eq!(s[0].lines, (2, 3));
    }

    #[test]
    fn hash_inside_quotes_is_not_a_comment() {
        assert_eq!(comment_start("a: \"x # schemarouter: allow(y)\""), None);
        assert_eq!(comment_start("a: x#y"), None);
        assert_eq!(comment_start("a: x #y"), Some(5));
    }

    #[test]
    fn a_marker_line_inside_a_string_is_text() {
        // A folded block scalar, a literal one and a multi-line quoted string: each holds the
        // line as text, so none of them is a suppression.
        for text in [
            "description: >-\n  Searches the web.\n  # schemarouter: allow(control-character) -- no\nb: 1\n",
            "description: |\n  # schemarouter: allow(control-character) -- no\nb: 1\n",
            "description: \"first line\n  # schemarouter: allow(control-character) -- no\"\nb: 1\n",
            "description = \"\"\"\n# schemarouter: allow(control-character) -- no\n\"\"\"\n",
        ] {
            let name = if text.contains(" = ") {
                "t.toml"
            } else {
                "a.yaml"
            };
            assert_eq!(sups(text, name), vec![], "{text}");
        }
        // The same line as a real comment after the block scalar still counts.
        let s = sups(
            "description: |\n  text\n# schemarouter: allow(control-character) -- yes\nb: 1\n",
            "a.yaml",
        );
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].lines, (4, 4));
    }

    #[test]
    fn allow_file_covers_everything() {
        let s = sups(
            "# schemarouter: allow-file(orphan-concept) -- draft\na: 1\nb: 2\n",
            "a.yaml",
        );
        assert_eq!(s[0].lines, (1, 4));
    }
}
