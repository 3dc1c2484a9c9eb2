//! GitLab Code Quality report: a JSON array of
//! `{description, check_name, fingerprint, severity, location: {path, lines: {begin}}}`.
//!
//! The fingerprint is a BLAKE3 hash of the rule code, the file path, the message and the
//! occurrence index among findings with the same (code, path, message). It leaves out line
//! numbers, so it stays the same across runs and across edits elsewhere in the file; two
//! identical messages in one file stay distinct through the occurrence index.

use super::super::{Diagnostic, Position, Severity};
use crate::source::SourceMap;
use serde::Serialize;
use std::collections::HashMap;

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

/// The fingerprint of the `occurrence`-th (from 0) finding with this code, path and message.
pub fn fingerprint(code: &str, path: &str, message: &str, occurrence: usize) -> String {
    let mut h = blake3::Hasher::new();
    // Length-prefixed fields so that no two different tuples hash the same bytes.
    for part in [code, path, message] {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.update(&(occurrence as u64).to_le_bytes());
    h.finalize().to_hex()[..32].to_string()
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
    let mut seen: HashMap<(&str, String, &str), usize> = HashMap::new();
    let issues: Vec<Issue> = diags
        .iter()
        .map(|d| {
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
            let n = seen
                .entry((d.code, path.clone(), d.message.as_str()))
                .or_insert(0);
            let fp = fingerprint(d.code, &path, &d.message, *n);
            *n += 1;
            Issue {
                description: format!("{}: {}", d.code, d.message),
                check_name: d.name,
                fingerprint: fp,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_separates_fields_and_occurrences() {
        let a = fingerprint("SR006", "a.yaml", "m", 0);
        assert_eq!(a, fingerprint("SR006", "a.yaml", "m", 0));
        assert_ne!(a, fingerprint("SR006", "a.yaml", "m", 1));
        assert_ne!(a, fingerprint("SR006", "a.yam", "lm", 0));
        assert_eq!(a.len(), 32);
    }
}
