//! GitLab Code Quality report: a JSON array of
//! `{description, check_name, fingerprint, severity, location: {path, lines: {begin}}}`.
//!
//! The fingerprint is the finding's line-independent fingerprint
//! ([`crate::diagnostics::fingerprint`]: rule code, file, entity path and occurrence), so a line
//! added above a finding, or an edit of another entity, keeps it, and the merge-request widget
//! does not show the finding resolved and introduced again.

use super::super::{Diagnostic, Position, Severity};
use crate::source::SourceMap;
use serde::Serialize;

/// Path reported for findings that belong to no file when the project is the current folder
/// (from another folder, the project folder as the other files name it).
pub const PROJECT_PATH: &str = ".";

/// Code Quality severity for ours: error -> `critical`, warning -> `major`, info -> `info`.
pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "critical",
        Severity::Warning => "major",
        Severity::Info => "info",
    }
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
}

#[derive(Serialize)]
struct CqLocation {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'a str,
    location: CqLocation,
}

/// The Code Quality report for these diagnostics, pretty-printed, ending in a newline.
pub fn render(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let fingerprints = crate::diagnostics::fingerprint::fingerprints(diags, sources);
    let issues: Vec<Issue> = diags
        .iter()
        .zip(fingerprints)
        .map(|(d, fp)| {
            let (path, begin) = match &d.primary {
                Some(l) => {
                    let p = Position::resolve(l, sources);
                    (p.file, p.line)
                }
                // Project-wide: the file SARIF points at too (the configuration file).
                None => match super::sarif::project_anchor(sources) {
                    Some(f) => (sources.get(f).name.clone(), 1),
                    None => (sources.root_name().to_string(), 1),
                },
            };
            Issue {
                description: format!("{}: {}", d.code, d.message),
                check_name: d.name,
                fingerprint: fp.hash,
                severity: severity_name(d.severity),
                location: CqLocation {
                    path,
                    lines: Lines { begin },
                },
            }
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&issues).unwrap_or_else(|_| "[]".to_string());
    s.push('\n');
    s
}
