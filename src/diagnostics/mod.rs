//! The one shared [`Diagnostic`] type and its renderers (one module per output format under
//! [`render`]).
//!
//! A diagnostic has a stable code (`SR302`) and kebab-case name (`unit-conflict`), a severity, a
//! message, a primary label (file + byte span), secondary labels that may sit in other files, and
//! a help line. Positions are resolved to line/column only in [`Position::resolve`], through
//! [`crate::source::SourceFile::line_col`].

pub mod baseline;
pub mod codes;
pub mod fingerprint;
pub mod fix;
pub mod paths;
pub mod render;

use crate::source::{FileId, SourceMap, Span};
use serde::Serialize;
use std::cmp::Ordering;

/// How serious a finding is. Ordered `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails a build unless `--fail-level info`.
    Info,
    /// Probably wrong.
    Warning,
    /// Wrong: the project cannot be compiled as it is.
    Error,
}

impl Severity {
    /// Lower-case name (`error`, `warning`, `info`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A labelled place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The file.
    pub file: FileId,
    /// Byte range in the file.
    pub span: Span,
    /// What this place is (may be empty for the primary label).
    pub message: String,
}

impl Label {
    /// A label at `span` in `file`.
    pub fn new(file: FileId, span: Span, message: impl Into<String>) -> Label {
        Label {
            file,
            span,
            message: message.into(),
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable rule code (`SR302`).
    pub code: &'static str,
    /// Stable kebab-case rule name (`unit-conflict`).
    pub name: &'static str,
    /// Severity after configuration.
    pub severity: Severity,
    /// One-sentence message.
    pub message: String,
    /// Main place; `None` for project-wide findings with no file.
    pub primary: Option<Label>,
    /// Other places involved (both fields of a unit conflict, the concept an alias collides with).
    pub secondary: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// Edits that resolve the finding, when they are mechanical (see [`fix`]); boxed, so that
    /// the many findings without one stay small.
    pub fix: Option<Box<fix::Fix>>,
}

impl Diagnostic {
    /// A diagnostic with no location yet.
    pub fn new(
        code: &'static str,
        name: &'static str,
        severity: Severity,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            code,
            name,
            severity,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            help: None,
            fix: None,
        }
    }

    /// Set the primary label.
    pub fn at(mut self, file: FileId, span: Span, label: impl Into<String>) -> Diagnostic {
        self.primary = Some(Label::new(file, span, label));
        self
    }

    /// Add a secondary label.
    pub fn also(mut self, file: FileId, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label::new(file, span, label));
        self
    }

    /// Set the help line.
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Attach a fix.
    pub fn with_fix(mut self, fix: fix::Fix) -> Diagnostic {
        self.fix = Some(Box::new(fix));
        self
    }
}

/// Sort diagnostics by (file, line, column, code, message), project-wide findings last, and
/// drop exact duplicates, so that output is identical between runs and machines.
pub fn sort_diagnostics(diags: &mut Vec<Diagnostic>, sources: &SourceMap) {
    use rayon::prelude::*;
    // Positions are computed once per diagnostic: on a long line (minified JSON) a column costs
    // a scan of the line. Keys are found and sorted on the rayon pool (a stable sort, so the
    // order is the one order whatever the thread count).
    let mut keyed: Vec<((&str, usize, usize), Diagnostic)> = std::mem::take(diags)
        .into_par_iter()
        .map(|d| {
            let key = match &d.primary {
                Some(l) => {
                    let f = sources.get(l.file);
                    let (line, col) = f.line_col(l.span.start as usize);
                    (f.name.as_str(), line, col)
                }
                // Project-wide findings come after every file.
                None => ("\u{10FFFF}", 0, 0),
            };
            (key, d)
        })
        .collect();
    keyed.par_sort_by(|(ka, a), (kb, b)| {
        ka.cmp(kb)
            .then_with(|| (a.code, &a.message).cmp(&(b.code, &b.message)))
            .then_with(|| compare_labels(a, b))
    });
    diags.extend(keyed.into_iter().map(|(_, d)| d));
    diags.dedup();
}

fn compare_labels(a: &Diagnostic, b: &Diagnostic) -> Ordering {
    let la: Vec<_> = a.secondary.iter().map(|l| (l.file, l.span)).collect();
    let lb: Vec<_> = b.secondary.iter().map(|l| (l.file, l.span)).collect();
    la.cmp(&lb)
}

/// A resolved position: file name and 1-based line/column of the start and end of a span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    /// File path: relative to the project root, or with the prefix the command line put in
    /// front of every name (see [`paths`]).
    pub file: String,
    /// 1-based line of the span start.
    pub line: usize,
    /// 1-based column (Unicode scalar values) of the span start.
    pub column: usize,
    /// 1-based line of the span end.
    pub end_line: usize,
    /// 1-based column of the span end (exclusive).
    pub end_column: usize,
    /// Byte offset of the span start.
    pub offset: u32,
    /// Span length in bytes.
    pub length: u32,
}

impl Position {
    /// Resolve a label against the source map.
    pub fn resolve(label: &Label, sources: &SourceMap) -> Position {
        let f = sources.get(label.file);
        let (line, column) = f.line_col(label.span.start as usize);
        let (end_line, end_column) = f.line_col(label.span.end as usize);
        Position {
            file: f.name.clone(),
            line,
            column,
            end_line,
            end_column,
            offset: label.span.start,
            length: label.span.end - label.span.start,
        }
    }
}

/// Counts per severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Number of errors.
    pub errors: usize,
    /// Number of warnings.
    pub warnings: usize,
    /// Number of infos.
    pub infos: usize,
}

impl Summary {
    /// Count the diagnostics.
    pub fn of(diags: &[Diagnostic]) -> Summary {
        let mut s = Summary::default();
        for d in diags {
            match d.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
                Severity::Info => s.infos += 1,
            }
        }
        s
    }
}
