//! Fixes: edits to the source text that resolve a finding, in the style of ruff's `Fix`.
//!
//! A [`Fix`] is a one-line title, an [`Applicability`] and a list of [`Edit`]s: a byte range of
//! one source file and the text that replaces it. Edits work on the text as written, so
//! comments, key order and formatting outside the range are kept, in YAML and TOML alike (a
//! file is never re-serialised). Rules attach a fix to the [`super::Diagnostic`] they report
//! (`Diagnostic::fix`); `check --fix` applies them ([`crate::lint::fix`]) and the language server
//! offers them as code actions.
//!
//! [`apply_edits`] applies the non-overlapping edits of one file to its text; edits that
//! overlap an earlier one are left for the next pass.

use crate::source::{FileId, Span};
use serde::Serialize;

/// Whether a fix may be applied without a person looking at it (ruff's `Applicability`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Changes what the declarations mean, or guesses: applied only with `--unsafe-fixes`.
    Unsafe,
    /// Cannot change what the declarations mean: applied by `check --fix`.
    Safe,
}

impl Applicability {
    /// Lower-case name (`safe`, `unsafe`).
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

impl std::fmt::Display for Applicability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One text edit: replace the bytes `span` of `file` with `content` (an empty span inserts, an
/// empty `content` deletes). Spans are byte offsets into the file's text as loaded
/// ([`crate::source::SourceFile::text`], BOM included when the file has one).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edit {
    /// The file edited.
    pub file: FileId,
    /// Byte range replaced.
    pub span: Span,
    /// Replacement text.
    pub content: String,
}

impl Edit {
    /// Replace `span` of `file` with `content`.
    pub fn replace(file: FileId, span: Span, content: impl Into<String>) -> Edit {
        Edit {
            file,
            span,
            content: content.into(),
        }
    }

    /// Delete `span` of `file`.
    pub fn delete(file: FileId, span: Span) -> Edit {
        Edit::replace(file, span, "")
    }

    /// Insert `content` at byte `offset` of `file`.
    pub fn insert(file: FileId, offset: u32, content: impl Into<String>) -> Edit {
        Edit::replace(
            file,
            Span {
                start: offset,
                end: offset,
            },
            content,
        )
    }
}

/// A fix for one finding: every edit is applied, or none.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// Safe or unsafe.
    pub applicability: Applicability,
    /// What the fix does, one line (`quote the value`, `remove the suppression`): the code
    /// action's title in the language server, the line in `check --diff`'s summary.
    pub title: String,
    /// The edits, sorted by file and position, none overlapping another.
    pub edits: Vec<Edit>,
}

impl Fix {
    /// A fix that cannot change what the declarations mean.
    pub fn safe(title: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Safe, title, edits)
    }

    /// A fix that changes meaning or guesses (applied only with `--unsafe-fixes`).
    pub fn unsafe_edit(title: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix::new(Applicability::Unsafe, title, edits)
    }

    /// A fix with the edits sorted.
    pub fn new(
        applicability: Applicability,
        title: impl Into<String>,
        mut edits: Vec<Edit>,
    ) -> Fix {
        edits.sort();
        edits.dedup();
        Fix {
            applicability,
            title: title.into(),
            edits,
        }
    }

    /// Whether the fix is applied at this level (`Safe`: safe fixes only; `Unsafe`: all).
    pub fn applies_at(&self, level: Applicability) -> bool {
        self.applicability >= level
    }

    /// The files the fix edits, each once, sorted.
    pub fn files(&self) -> Vec<FileId> {
        let mut files: Vec<FileId> = self.edits.iter().map(|e| e.file).collect();
        files.dedup();
        files
    }
}

/// Apply to `text` the fixes of one file that do not overlap one applied before them (and
/// whose edits are all inside `text` on character boundaries), in the order given; returns the
/// new text and, for each fix, whether it was applied. Two edits overlap when their ranges
/// share a byte, or when both insert at the same offset (their order would be a guess).
///
/// Only the edits of `file` are considered; a fix with edits in another file is skipped here
/// (the caller applies a multi-file fix by applying its edits of every file).
pub fn apply_edits(text: &str, file: FileId, fixes: &[&Fix]) -> (String, Vec<bool>) {
    let mut taken: Vec<Span> = Vec::new();
    let mut applied = vec![false; fixes.len()];
    let mut chosen: Vec<&Edit> = Vec::new();
    for (i, fix) in fixes.iter().enumerate() {
        if fix.edits.iter().any(|e| e.file != file) {
            continue;
        }
        // Two findings with the same fix (every rule of one unused suppression): both resolved.
        if (0..i).any(|j| applied[j] && fixes[j].edits == fix.edits) {
            applied[i] = true;
            continue;
        }
        let fits = fix.edits.iter().all(|e| {
            let (s, t) = (e.span.start as usize, e.span.end as usize);
            s <= t && t <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(t)
        });
        let clashes = fix
            .edits
            .iter()
            .any(|e| taken.iter().any(|t| overlaps(*t, e.span)));
        if !fits || clashes || fix.edits.is_empty() {
            continue;
        }
        taken.extend(fix.edits.iter().map(|e| e.span));
        chosen.extend(fix.edits.iter());
        applied[i] = true;
    }
    chosen.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for e in chosen {
        out.push_str(&text[at..e.span.start as usize]);
        out.push_str(&e.content);
        at = e.span.end as usize;
    }
    out.push_str(&text[at..]);
    (out, applied)
}

fn overlaps(a: Span, b: Span) -> bool {
    if a.start == a.end && b.start == b.end {
        return a.start == b.start;
    }
    if a.start == a.end {
        return b.start < a.start && a.start < b.end;
    }
    if b.start == b.end {
        return a.start < b.start && b.start < a.end;
    }
    a.start < b.end && b.start < a.end
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: FileId = FileId(0);

    #[test]
    fn non_overlapping_edits_apply_in_one_pass() {
        let text = "a: yes\nb: no\n";
        let f1 = Fix::safe("quote", vec![Edit::replace(F, Span::new(3, 6), "\"yes\"")]);
        let f2 = Fix::safe("quote", vec![Edit::replace(F, Span::new(10, 12), "\"no\"")]);
        let (out, applied) = apply_edits(text, F, &[&f2, &f1]);
        assert_eq!(out, "a: \"yes\"\nb: \"no\"\n");
        assert_eq!(applied, vec![true, true]);
    }

    #[test]
    fn an_overlapping_fix_waits_for_the_next_pass() {
        let text = "abcdef";
        let f1 = Fix::safe("x", vec![Edit::replace(F, Span::new(1, 4), "X")]);
        let f2 = Fix::safe("y", vec![Edit::replace(F, Span::new(3, 5), "Y")]);
        let f3 = Fix::safe("z", vec![Edit::insert(F, 4, "Z")]);
        let f4 = Fix::safe("w", vec![Edit::insert(F, 5, "W")]);
        let f5 = Fix::safe("v", vec![Edit::insert(F, 5, "V")]);
        let (out, applied) = apply_edits(text, F, &[&f1, &f2, &f3, &f4, &f5]);
        // An insertion where a replaced range ends does not overlap it.
        assert_eq!(applied, vec![true, false, true, true, false]);
        assert_eq!(out, "aXZeWf");
    }

    #[test]
    fn two_findings_with_one_fix_are_both_applied_once() {
        let f = Fix::safe("x", vec![Edit::delete(F, Span::new(0, 2))]);
        let (out, applied) = apply_edits("# c\n", F, &[&f, &f.clone()]);
        assert_eq!((out.as_str(), applied), ("c\n", vec![true, true]));
    }

    #[test]
    fn edits_outside_the_text_or_in_another_file_are_skipped() {
        let text = "é";
        let bad = Fix::safe("x", vec![Edit::replace(F, Span::new(1, 2), "e")]);
        let far = Fix::safe("x", vec![Edit::replace(F, Span::new(1, 9), "e")]);
        let other = Fix::safe("x", vec![Edit::replace(FileId(1), Span::new(0, 1), "e")]);
        let (out, applied) = apply_edits(text, F, &[&bad, &far, &other]);
        assert_eq!((out.as_str(), applied), ("é", vec![false, false, false]));
    }

    #[test]
    fn safe_fixes_apply_at_both_levels_unsafe_only_at_unsafe() {
        let s = Fix::safe("s", vec![]);
        let u = Fix::unsafe_edit("u", vec![]);
        assert!(s.applies_at(Applicability::Safe) && s.applies_at(Applicability::Unsafe));
        assert!(!u.applies_at(Applicability::Safe) && u.applies_at(Applicability::Unsafe));
    }
}
