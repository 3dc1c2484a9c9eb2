//! One renderer per output format. Every renderer takes diagnostics already sorted by
//! [`crate::diagnostics::sort_diagnostics`] and returns the whole output as a string.

pub mod concise;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;
pub mod statistics;

use super::Diagnostic;
use crate::source::SourceMap;
use std::path::Path;

/// Output formats of `schemarouter check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum OutputFormat {
    /// Code frames with carets and help (default).
    Human,
    /// One line per finding: `file:line:col: severity[code] message`.
    Concise,
    /// A JSON document with every finding and its positions.
    Json,
    /// SARIF 2.1.0 (GitHub code scanning and other SARIF viewers).
    Sarif,
    /// GitHub Actions workflow annotations (`::error file=...::message`).
    Github,
    /// GitLab Code Quality report (JSON).
    Gitlab,
    /// JUnit XML, one test suite per file.
    Junit,
}

impl OutputFormat {
    /// The prefix to put in front of every file name (see [`super::paths`]) for a project
    /// checked at `root` (as typed) from the folder `cwd`: the CI formats (SARIF, GitHub,
    /// GitLab, JUnit) name files relative to `cwd` (absolute outside it), human and concise
    /// under `root` as typed, JSON relative to the project root (no prefix). Without a `cwd`
    /// the CI formats fall back to the typed path.
    pub fn path_prefix(self, root: &Path, cwd: Option<&Path>) -> String {
        match self {
            OutputFormat::Json => String::new(),
            OutputFormat::Human | OutputFormat::Concise => super::paths::typed_prefix(root),
            OutputFormat::Sarif
            | OutputFormat::Github
            | OutputFormat::Gitlab
            | OutputFormat::Junit => match cwd {
                Some(cwd) => super::paths::cwd_prefix(root, cwd),
                None => super::paths::typed_prefix(root),
            },
        }
    }
}

/// Render `diags` in `format`.
pub fn render(
    format: OutputFormat,
    diags: &[Diagnostic],
    sources: &SourceMap,
    color: bool,
) -> String {
    let safe = printable(diags);
    let diags: &[Diagnostic] = &safe;
    match format {
        OutputFormat::Human => human::render(
            diags,
            sources,
            human::HumanOptions {
                color,
                ..Default::default()
            },
        ),
        OutputFormat::Concise => concise::render(diags, sources),
        OutputFormat::Json => json::render(diags, sources),
        OutputFormat::Sarif => sarif::render(diags, sources),
        OutputFormat::Github => github::render(diags, sources),
        OutputFormat::Gitlab => gitlab::render(diags, sources),
        OutputFormat::Junit => junit::render(diags, sources),
    }
}

/// The diagnostics with every message, label and help line on one line and free of control
/// characters ([`one_line`]): they quote names and values from declaration files, which may
/// hold a line feed or an escape sequence, and no output format may carry those raw (a line
/// feed in a message would forge a finding line in `human` or `github` output, an escape
/// sequence would reach whatever shows a SARIF or JSON report). Borrowed when none needs it.
pub(crate) fn printable(diags: &[Diagnostic]) -> std::borrow::Cow<'_, [Diagnostic]> {
    let bad = |t: &str| t.contains('\n') || t.chars().any(|c| c == '\r' || is_unsafe_control(c));
    let needs = |d: &Diagnostic| {
        bad(&d.message)
            || d.help.as_deref().is_some_and(bad)
            || d.primary
                .iter()
                .chain(&d.secondary)
                .any(|l| bad(&l.message))
    };
    if !diags.iter().any(needs) {
        return std::borrow::Cow::Borrowed(diags);
    }
    let fix = |t: &mut String| {
        if bad(t) {
            *t = one_line(t).into_owned();
        }
    };
    std::borrow::Cow::Owned(
        diags
            .iter()
            .map(|d| {
                let mut d = d.clone();
                fix(&mut d.message);
                if let Some(h) = &mut d.help {
                    fix(h);
                }
                for l in d.primary.iter_mut().chain(d.secondary.iter_mut()) {
                    fix(&mut l.message);
                }
                d
            })
            .collect(),
    )
}

/// `text` safe to print on a terminal: control characters (other than line feed and tab), which
/// could move the cursor, retitle the window or clear the screen when a declaration carries them
/// (an imported name is untrusted input), are shown as `\u{1b}`-style escapes.
pub(crate) fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_here = |c: char| is_unsafe_control(c) || c == '\r';
    if !text.chars().any(unsafe_here) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_here(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// [`terminal_safe`] for one-line formats: a line feed is escaped too (`\u{a}`), so a file name
/// or message holding one cannot split a finding over two lines.
pub(crate) fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    let safe = terminal_safe(text);
    if !safe.contains('\n') {
        return safe;
    }
    std::borrow::Cow::Owned(safe.replace('\n', "\\u{a}"))
}

/// A character that must not reach a terminal raw: C0 controls but line feed, tab and carriage
/// return (which file text uses as line ends), DEL, C1 controls, and the bidirectional
/// embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069), which reorder how
/// the rest of a line is shown.
pub(crate) fn is_unsafe_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t' && c != '\r')
        || c == '\u{7f}'
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

#[cfg(test)]
mod terminal_tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(terminal_safe("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(
            terminal_safe("x\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}"),
            "x\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{9b}"
        );
        assert_eq!(terminal_safe("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(
            one_line("new\nline\t\u{1b}.yaml"),
            "new\\u{a}line\t\\u{1b}.yaml"
        );
    }
}
