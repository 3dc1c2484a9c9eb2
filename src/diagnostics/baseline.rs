//! Findings baselines: `check --write-baseline FILE` records the findings of today, `check
//! --baseline FILE` reports only the findings that are not in it and lists the entries that no
//! longer match (fixed, or their entity renamed), so a gate can be turned on for a catalog with
//! existing findings (as oasdiff's and Spectral's baselines, ruff's `--add-noqa`).
//!
//! Entries are matched by fingerprint ([`super::fingerprint`]: rule code, file, entity path,
//! occurrence), never by line. The file is JSON, sorted by file, entity path, code and
//! fingerprint, so the same findings give the same bytes:
//!
//! ```json
//! {
//!   "schemarouter-baseline": 1,
//!   "findings": [
//!     {
//!       "fingerprint": "5c0d…",
//!       "code": "SR304",
//!       "name": "missing-unit",
//!       "file": "schemas/mp.yaml",
//!       "path": "endpoints.summary.fields.volume",
//!       "message": "…"
//!     }
//!   ]
//! }
//! ```
//!
//! `code`, `name`, `file`, `path` and `message` are there for the person reading a review; only
//! `fingerprint` is matched.

use super::Diagnostic;
use super::fingerprint::Fingerprint;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The format version written as `"schemarouter-baseline"`.
pub const VERSION: u32 = 1;

/// One recorded finding.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The finding's fingerprint (32 hex digits): the only field matched.
    pub fingerprint: String,
    /// Rule code (`SR304`).
    pub code: String,
    /// Rule name (`missing-unit`).
    pub name: String,
    /// File relative to the project root ("" for a project-wide finding).
    pub file: String,
    /// Entity path in the file.
    pub path: String,
    /// The message when the baseline was written.
    pub message: String,
}

/// A baseline file's content.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// Format version ([`VERSION`]).
    #[serde(rename = "schemarouter-baseline")]
    pub version: u32,
    /// Recorded findings, sorted by file, path, code and fingerprint.
    pub findings: Vec<Entry>,
}

impl Baseline {
    /// The baseline of these findings, given their fingerprints (same order and length).
    pub fn of(diags: &[Diagnostic], fingerprints: &[Fingerprint]) -> Baseline {
        let mut findings: Vec<Entry> = diags
            .iter()
            .zip(fingerprints)
            .map(|(d, f)| Entry {
                fingerprint: f.hash.clone(),
                code: d.code.to_string(),
                name: d.name.to_string(),
                file: f.file.clone(),
                path: f.path.clone(),
                message: super::render::one_line(&d.message).into_owned(),
            })
            .collect();
        findings.sort_by(|a, b| {
            (&a.file, &a.path, &a.code, &a.fingerprint).cmp(&(
                &b.file,
                &b.path,
                &b.code,
                &b.fingerprint,
            ))
        });
        Baseline {
            version: VERSION,
            findings,
        }
    }

    /// The file text: pretty JSON ending in a line feed.
    pub fn to_text(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Read a baseline file's text.
    ///
    /// Errors: text that is not a baseline (with serde's line and column), a repeated key, or
    /// another format version.
    pub fn parse(text: &str) -> Result<Baseline, String> {
        schemarouter_core::json::check_no_repeated_keys(text.as_bytes())
            .map_err(|e| e.to_string())?;
        let b: Baseline = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if b.version != VERSION {
            return Err(format!(
                "baseline format version {} is not supported (this build reads version {VERSION})",
                b.version
            ));
        }
        Ok(b)
    }

    /// Split findings into those not in the baseline (returned, in the order given) and report
    /// the entries no finding matched (in file order). Each entry matches one finding.
    pub fn filter(
        &self,
        diags: Vec<Diagnostic>,
        fingerprints: &[Fingerprint],
    ) -> (Vec<Diagnostic>, Vec<Entry>) {
        let mut left: HashMap<&str, usize> = HashMap::new();
        for e in &self.findings {
            *left.entry(e.fingerprint.as_str()).or_insert(0) += 1;
        }
        let mut new = Vec::new();
        for (d, f) in diags.into_iter().zip(fingerprints) {
            match left.get_mut(f.hash.as_str()) {
                Some(n) if *n > 0 => *n -= 1,
                _ => new.push(d),
            }
        }
        let mut stale = Vec::new();
        for e in &self.findings {
            if let Some(n) = left.get_mut(e.fingerprint.as_str())
                && *n > 0
            {
                *n -= 1;
                stale.push(e.clone());
            }
        }
        (new, stale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Severity;

    fn fp(file: &str, path: &str, hash: &str) -> Fingerprint {
        Fingerprint {
            file: file.into(),
            path: path.into(),
            hash: hash.into(),
        }
    }

    #[test]
    fn written_sorted_and_read_back() {
        let diags = vec![
            Diagnostic::new("SR506", "unreachable-field", Severity::Warning, "b"),
            Diagnostic::new("SR304", "missing-unit", Severity::Warning, "a\nx"),
        ];
        let fps = vec![fp("s/b.yaml", "x", "22"), fp("s/a.yaml", "y", "11")];
        let b = Baseline::of(&diags, &fps);
        assert_eq!(b.findings[0].fingerprint, "11");
        assert_eq!(b.findings[0].message, "a\\u{a}x");
        assert_eq!(Baseline::parse(&b.to_text()).unwrap(), b);
        assert!(
            Baseline::parse("{\"schemarouter-baseline\": 2, \"findings\": []}")
                .unwrap_err()
                .contains("version 2")
        );
        assert!(Baseline::parse("{\"findings\": [], \"findings\": []}").is_err());
    }

    #[test]
    fn filter_keeps_new_and_lists_stale() {
        let d = |m: &str| Diagnostic::new("SR304", "missing-unit", Severity::Warning, m);
        let old = Baseline::of(
            &[d("kept"), d("fixed")],
            &[fp("a", "p", "k"), fp("a", "q", "f")],
        );
        let (new, stale) = old.filter(
            vec![d("kept"), d("added")],
            &[fp("a", "p", "k"), fp("a", "r", "n")],
        );
        assert_eq!(new, vec![d("added")]);
        assert_eq!(stale.len(), 1);
        assert_eq!(stale[0].fingerprint, "f");
    }
}
