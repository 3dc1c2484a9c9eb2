//! Applying fixes to a project in memory: `check --fix`, `--unsafe-fixes`, `--diff` and
//! `--add-suppressions` (the command line writes the result; this module never writes).
//!
//! [`fix_project`] loads the project, applies the applicable fixes of every finding file by
//! file ([`crate::diagnostics::fix::apply_edits`]: overlapping edits wait for the next pass),
//! loads and checks the project again from the edited texts (an [`crate::load::Overlay`]), and
//! repeats until no fix applies or [`MAX_PASSES`] passes ran, as ruff does. After each pass a
//! file whose edits made the project fail to load, or brought an error that was not there
//! before, gets its text of before the pass back and is not edited again ("rolled back").
//!
//! [`add_suppressions`] writes a suppression comment with a reason above every remaining
//! finding that a comment can suppress ([`suppression_edit`]), as ruff's `--add-noqa`.

use crate::diagnostics::fix::{Applicability, Edit, Fix, apply_edits};
use crate::diagnostics::{Diagnostic, Severity};
use crate::lint::Checked;
use crate::load::{FatalError, Overlay};
use crate::source::{FileId, SourceFile, SourceMap, Span};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The most passes `check --fix` makes before it stops (fixes whose edits overlap are applied
/// one per pass).
pub const MAX_PASSES: usize = 10;

/// The fixes of the findings in `file`, in the findings' order (the language server's code
/// actions for one document). `diagnostics` are [`Checked::diagnostics`].
pub fn fixes_for_file(diagnostics: &[Diagnostic], file: FileId) -> Vec<(&Diagnostic, &Fix)> {
    diagnostics
        .iter()
        .filter_map(|d| d.fix.as_deref().map(|f| (d, f)))
        .filter(|(d, f)| d.primary.as_ref().is_some_and(|p| p.file == file) || f.files() == [file])
        .collect()
}

/// The text that replaces a scalar written at `span` of `text` holding `value`, so that it holds
/// `new`: quoted as the scalar was (`"..."` or `'...'`), else plain when `new` reads back as the
/// same string in YAML and TOML would not need it, else double-quoted. `None` when the span does
/// not hold `value` as written (a value replayed through a YAML alias, an escaped string) or
/// `new` needs escaping.
pub fn scalar_replacement(text: &str, span: Span, value: &str, new: &str) -> Option<String> {
    let written = text.get(span.start as usize..span.end as usize)?;
    if new.contains(['"', '\\', '\'', '\n', '\r', '\t', '#']) {
        return None;
    }
    for q in ['"', '\''] {
        if let Some(inner) = written.strip_prefix(q).and_then(|w| w.strip_suffix(q)) {
            return (inner == value).then(|| format!("{q}{new}{q}"));
        }
    }
    if written != value {
        return None;
    }
    let plain = new.chars().all(|c| {
        c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_' | ' ' | '(' | ')' | '/')
    }) && new.starts_with(|c: char| c.is_ascii_alphabetic())
        && !new.ends_with(' ');
    Some(if plain {
        new.to_string()
    } else {
        format!("\"{new}\"")
    })
}

/// The suggestion of a help line that says `did you mean `X`?` (`None` for any other help).
pub fn suggested(help: &str) -> Option<&str> {
    help.strip_prefix("did you mean `")?.strip_suffix("`?")
}

/// The fix a "did you mean `X`?" help line names for a scalar: the scalar at `span` of `file`
/// (holding `value` as written) replaced by `X`, keeping its quoting ([`scalar_replacement`]).
/// Safe when `case_safe` and `X` differs from `value` only in ASCII case (an id reference
/// written in another case: the one id it can name), unsafe otherwise (a suggested spelling is a
/// guess). `None` when the help names no suggestion or the scalar is not written as read.
pub fn did_you_mean_fix(
    text: &str,
    file: FileId,
    span: Span,
    value: &str,
    help: &str,
    case_safe: bool,
) -> Option<Fix> {
    let new = suggested(help)?;
    let replacement = scalar_replacement(text, span, value, new)?;
    let title = format!("write `{new}`");
    let edits = vec![Edit::replace(file, span, replacement)];
    Some(if case_safe && value.eq_ignore_ascii_case(new) {
        Fix::safe(title, edits)
    } else {
        Fix::unsafe_edit(title, edits)
    })
}

/// The fix that replaces a part of a scalar (`part`, the bytes `span` of `text`, inside the
/// scalar that starts at `scalar_start`) with `new`, as written: `None` when the text there is
/// not `part`, or when `new` could change how the scalar is read (quotes, escapes, comment or
/// flow characters; an indicator character where a plain scalar starts). Unsafe: the
/// suggestions such fixes come from are guesses (a unit spelling).
pub fn part_replacement_fix(
    text: &str,
    file: FileId,
    span: Span,
    scalar_start: u32,
    part: &str,
    new: &str,
) -> Option<Fix> {
    if text.get(span.start as usize..span.end as usize)? != part || new.is_empty() {
        return None;
    }
    if new.contains(|c: char| "\"'\\#[]{},&*!|>@`\n\r\t".contains(c)) {
        return None;
    }
    let starts_plain = span.start == scalar_start;
    if starts_plain && !new.starts_with(|c: char| c.is_alphanumeric() || !c.is_ascii()) {
        return None;
    }
    Some(Fix::unsafe_edit(
        format!("write `{new}` for `{part}`"),
        vec![Edit::replace(file, span, new)],
    ))
}

/// The edit that adds the key `key` with the string `value` to the mapping (YAML) or table
/// (TOML) that holds `sibling`, a key written in block style on a line of its own with a
/// one-line value at `span` (`- name: band_gap`, `name = "band_gap"`): a new line right under
/// it, at the sibling's indentation (`unit: GPa`, `unit = "GPa"`), the file's line ending kept.
/// `None` when the sibling is written otherwise (a flow mapping, an inline table, a value
/// continued on the next line) or `value` would need escaping.
pub fn sibling_key_insertion(
    text: &str,
    file: FileId,
    span: Span,
    sibling: &str,
    key: &str,
    value: &str,
) -> Option<Edit> {
    if value.is_empty() || value.contains(['"', '\\', '\n', '\r', '\t']) {
        return None;
    }
    let (start, end) = (span.start as usize, span.end as usize);
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let prefix = &text[line_start..start];
    let rest_end = text.get(end..)?.find('\n').map_or(text.len(), |i| end + i);
    let rest = text[end..rest_end].trim_end_matches('\r').trim();
    if !(rest.is_empty() || rest.starts_with('#')) || rest_end == text.len() {
        return None;
    }
    let indent = prefix.len() - prefix.trim_start_matches(' ').len();
    let after_indent = &prefix[indent..];
    let (dash, keyed) = match after_indent.strip_prefix("- ") {
        Some(r) => (
            2 + r.len() - r.trim_start_matches(' ').len(),
            r.trim_start_matches(' '),
        ),
        None => (0, after_indent),
    };
    let toml = keyed
        .strip_prefix(sibling)
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('='))
        .is_some_and(|r| r.trim().is_empty());
    let yaml = keyed
        .strip_prefix(sibling)
        .and_then(|r| r.strip_prefix(':'))
        .is_some_and(|r| r.trim().is_empty());
    if !(toml || yaml) || (toml && dash > 0) {
        return None;
    }
    let eol = if text[..rest_end].ends_with('\r') {
        "\r\n"
    } else {
        "\n"
    };
    let pad = " ".repeat(indent + dash);
    let line = if toml {
        format!("{pad}{key} = \"{value}\"{eol}")
    } else {
        let plain = value.chars().all(|c| {
            c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | '/' | '^' | '(' | ')' | '·' | '%')
        }) && value.starts_with(|c: char| c.is_alphanumeric() || !c.is_ascii());
        let v = if plain {
            value.to_string()
        } else {
            format!("\"{value}\"")
        };
        format!("{pad}{key}: {v}{eol}")
    };
    Some(Edit::insert(file, (rest_end + 1) as u32, line))
}

/// One file changed by a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    /// Display name (relative to the project root, `/` separators).
    pub name: String,
    /// Path on disk.
    pub path: PathBuf,
    /// Text before the run, as loaded.
    pub before: String,
    /// Text after the run.
    pub after: String,
}

/// What a fix run did.
pub struct FixOutcome {
    /// The project checked again from the edited texts.
    pub checked: Checked,
    /// Files whose text changed, sorted by name.
    pub changes: Vec<FileChange>,
    /// Number of fixes applied.
    pub fixed: usize,
    /// Files whose edits were taken back, with why.
    pub rolled_back: Vec<(String, String)>,
    /// True when the last pass still had fixes to apply ([`MAX_PASSES`] reached).
    pub unfinished: bool,
}

/// The errors of a check as a multiset of (file name, code, message): an edit that raises a
/// count brought a new error.
type ErrorCounts = BTreeMap<(String, &'static str, String), usize>;

fn error_counts(checked: &Checked) -> ErrorCounts {
    let mut out = ErrorCounts::new();
    for d in checked
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
    {
        let file = d
            .primary
            .as_ref()
            .map(|p| checked.project.sources.get(p.file).name.clone())
            .unwrap_or_default();
        *out.entry((file, d.code, d.message.clone())).or_default() += 1;
    }
    out
}

/// Files (by name) with an error not in `before`, and whether a new error has no file. Errors
/// are counted per file and rule: an error whose message changed with the edit (a finding
/// that quotes the value a fix rewrote) is the same error, not a new one.
fn new_errors(before: &ErrorCounts, after: &ErrorCounts) -> (BTreeSet<String>, bool) {
    let (before, after) = (per_rule(before), per_rule(after));
    let mut files = BTreeSet::new();
    let mut project_wide = false;
    for (key, n) in &after {
        if before.get(key).copied().unwrap_or(0) < *n {
            if key.0.is_empty() {
                project_wide = true;
            } else {
                files.insert(key.0.to_string());
            }
        }
    }
    (files, project_wide)
}

/// Error counts per (file name, rule code).
fn per_rule(counts: &ErrorCounts) -> BTreeMap<(&str, &'static str), usize> {
    let mut out = BTreeMap::new();
    for ((file, code, _), n) in counts {
        *out.entry((file.as_str(), *code)).or_default() += n;
    }
    out
}

/// Why a file's edits are taken back: the first error they brought in that file (else the first
/// new error anywhere), as `its fixes would bring error SR009 in FILE: MESSAGE`.
fn roll_back_reason(before: &ErrorCounts, after: &ErrorCounts, name: &str) -> String {
    let new: Vec<&(String, &'static str, String)> = after
        .iter()
        .filter(|(k, n)| before.get(*k).copied().unwrap_or(0) < **n)
        .map(|(k, _)| k)
        .collect();
    match new.iter().find(|k| k.0 == name).or_else(|| new.first()) {
        Some((file, code, message)) if file.is_empty() => {
            format!("its fixes would bring error {code}: {message}")
        }
        Some((file, code, message)) => {
            format!("its fixes would bring error {code} in `{file}`: {message}")
        }
        None => "its fixes made the project report a new error or stop loading".to_string(),
    }
}

fn load(root: &Path, overlay: &Overlay) -> Result<Checked, FatalError> {
    Ok(crate::lint::check_loaded(
        crate::load::load_project_overlay(root, overlay)?,
    ))
}

/// One pass: the new text of every file some applicable fix edits, with the number of fixes
/// applied to it.
fn pass_texts(
    checked: &Checked,
    level: Applicability,
    frozen: &BTreeSet<String>,
) -> BTreeMap<String, (String, usize)> {
    let mut by_file: BTreeMap<FileId, Vec<&Fix>> = BTreeMap::new();
    for d in &checked.diagnostics {
        let Some(fix) = d.fix.as_deref().filter(|f| f.applies_at(level)) else {
            continue;
        };
        // A fix spanning several files is applied only by the language server, one at a time.
        if let [file] = fix.files()[..] {
            by_file.entry(file).or_default().push(fix);
        }
    }
    let mut out = BTreeMap::new();
    for (file, fixes) in by_file {
        let source = checked.project.sources.get(file);
        if frozen.contains(&source.name) {
            continue;
        }
        let (text, applied) = apply_edits(&source.text, file, &fixes);
        if text != source.text {
            let count = applied.iter().filter(|a| **a).count();
            out.insert(source.name.clone(), (text, count));
        }
    }
    out
}

/// The files of this pass to take back: those with a new error; every file of the pass when a
/// new error sits in a file the pass did not edit or in no file (it cannot be traced to one).
fn to_roll_back(
    edited: &BTreeMap<String, (String, usize)>,
    bad: &BTreeSet<String>,
    project_wide: bool,
) -> Vec<String> {
    let elsewhere = project_wide || bad.iter().any(|n| !edited.contains_key(n));
    edited
        .keys()
        .filter(|n| elsewhere || bad.contains(*n))
        .cloned()
        .collect()
}

/// Apply the fixes at `level` (safe ones, or all with [`Applicability::Unsafe`]) to the project
/// at `root`, in memory, pass after pass, and check it again; nothing is written.
///
/// Errors: the root cannot be read ([`FatalError`]).
pub fn fix_project(root: &Path, level: Applicability) -> Result<FixOutcome, FatalError> {
    let mut overlay = Overlay::new();
    let mut checked = load(root, &overlay)?;
    let originals: BTreeMap<String, (PathBuf, String)> = checked
        .project
        .sources
        .iter()
        .map(|(_, f)| (f.name.clone(), (f.path.clone(), f.text.clone())))
        .collect();
    let baseline = error_counts(&checked);
    let mut frozen = BTreeSet::new();
    let mut rolled_back = Vec::new();
    let mut fixed = 0;
    let mut unfinished = false;
    for pass in 0..=MAX_PASSES {
        let texts = pass_texts(&checked, level, &frozen);
        if texts.is_empty() {
            break;
        }
        if pass == MAX_PASSES {
            unfinished = true;
            break;
        }
        let previous = overlay.clone();
        overlay.extend(texts.iter().map(|(n, (t, _))| (n.clone(), t.clone())));
        let mut next = load(root, &overlay)?;
        let after = error_counts(&next);
        let (bad, project_wide) = new_errors(&baseline, &after);
        let back = to_roll_back(&texts, &bad, project_wide);
        for name in &back {
            match previous.get(name) {
                Some(t) => overlay.insert(name.clone(), t.clone()),
                None => overlay.remove(name),
            };
            frozen.insert(name.clone());
            rolled_back.push((name.clone(), roll_back_reason(&baseline, &after, name)));
        }
        if !back.is_empty() {
            next = load(root, &overlay)?;
        }
        fixed += texts
            .iter()
            .filter(|(n, _)| !back.contains(n))
            .map(|(_, (_, c))| c)
            .sum::<usize>();
        checked = next;
    }
    let changes = overlay
        .iter()
        .filter_map(|(name, after)| {
            let (path, before) = originals.get(name)?;
            (before != after).then(|| {
                (
                    name.clone(),
                    FileChange {
                        name: name.clone(),
                        path: path.clone(),
                        before: before.clone(),
                        after: after.clone(),
                    },
                )
            })
        })
        .collect::<BTreeMap<_, _>>();
    Ok(FixOutcome {
        checked,
        changes: changes.into_values().collect(),
        fixed,
        rolled_back,
        unfinished,
    })
}

/// Whether `d` can be hidden by a suppression comment: it has a place, its rule can be
/// configured, and it is not a finding about suppressions themselves.
pub fn suppressible(d: &Diagnostic) -> bool {
    d.primary.is_some()
        && !d.code.starts_with("SR9")
        && crate::lint::registry::find(d.code).is_some_and(|e| e.configurable)
}

/// The suppression comment `# schemarouter: allow(RULES) -- REASON` (rules by kebab-case
/// name, sorted, each once; line breaks in the reason become spaces).
pub fn suppression_comment(rules: &[&str], reason: &str) -> String {
    let mut rules: Vec<&str> = rules.to_vec();
    rules.sort_unstable();
    rules.dedup();
    let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("# schemarouter: allow({}) -- {reason}", rules.join(", "))
}

/// The edit that inserts, above the line of `offset` in `file`, a suppression comment for
/// `rules` with `reason`, indented like that line: the comment covers the line and the block
/// it opens ([`crate::lint::suppress`]). When the line lies inside a multi-line string (a YAML
/// block scalar, a TOML `"""` string), the comment goes above the line the string starts on.
/// `strings` are the spans of the file's multi-line strings ([`multiline_strings`]).
pub fn suppression_edit(
    file_id: FileId,
    file: &SourceFile,
    offset: u32,
    strings: &[Span],
    rules: &[&str],
    reason: &str,
) -> Edit {
    let mut line = file.line_col(offset as usize).0;
    loop {
        let start = file.line_start(line) as u32;
        let Some(s) = strings.iter().find(|s| s.start <= start && start < s.end) else {
            break;
        };
        let mut up = file.line_col(s.start as usize).0;
        // A block scalar's text starts on a line of its own: its key is on the line above
        // (blank lines between belong to the scalar).
        if file.text[file.line_start(up)..s.start as usize]
            .trim()
            .is_empty()
        {
            up -= 1;
            while up > 1 && file.line_text(up).trim().is_empty() {
                up -= 1;
            }
        }
        if up == 0 || up >= line {
            break;
        }
        line = up;
    }
    let start = file.line_start(line);
    let text = file.line_text(line);
    let body = text.trim_start_matches('\u{feff}');
    let bom = text.len() - body.len();
    let indent: String = body
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let eol = if file.text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    Edit::insert(
        file_id,
        (start + bom) as u32,
        format!("{indent}{}{eol}", suppression_comment(rules, reason)),
    )
}

/// Spans of the strings of `file` that run over more than one line (none when it does not
/// parse).
pub fn multiline_strings(file: &SourceFile) -> Vec<Span> {
    use crate::load::node::{Node, NodeKind};
    fn walk(node: &Node, text: &str, out: &mut Vec<Span>) {
        match &node.kind {
            NodeKind::Str(_) => {
                let s = &text[node.span.start as usize..(node.span.end as usize).min(text.len())];
                if s.contains('\n') {
                    out.push(node.span);
                }
            }
            NodeKind::Seq(items) => items.iter().for_each(|n| walk(n, text, out)),
            NodeKind::Map(entries) => entries.iter().for_each(|(_, v)| walk(v, text, out)),
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
        walk(&node, &file.text, &mut out);
    }
    out
}

/// The suppression comments for `diagnostics` (one comment per line holding findings, naming
/// each of their rules once), as one safe fix per file.
pub fn suppression_fixes(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    reason: &str,
) -> Vec<Fix> {
    let mut by_line: BTreeMap<(FileId, usize), (u32, Vec<&str>)> = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| suppressible(d)) {
        let Some(p) = &d.primary else { continue };
        let line = sources.get(p.file).line_col(p.span.start as usize).0;
        let entry = by_line
            .entry((p.file, line))
            .or_insert((p.span.start, Vec::new()));
        entry.1.push(d.name);
    }
    let mut by_file: BTreeMap<FileId, Vec<Edit>> = BTreeMap::new();
    let mut strings: BTreeMap<FileId, Vec<Span>> = BTreeMap::new();
    for ((file, _), (offset, rules)) in by_line {
        let source = sources.get(file);
        let strings = strings
            .entry(file)
            .or_insert_with(|| multiline_strings(source));
        let edit = suppression_edit(file, source, offset, strings, &rules, reason);
        by_file.entry(file).or_default().push(edit);
    }
    by_file
        .into_values()
        .map(|mut edits| {
            merge_inserts(&mut edits);
            Fix::safe("add suppression comments", edits)
        })
        .collect()
}

/// Two comments inserted at one offset (findings on two lines of one multi-line string) become
/// one insertion holding both lines.
fn merge_inserts(edits: &mut Vec<Edit>) {
    edits.sort();
    let mut out: Vec<Edit> = Vec::with_capacity(edits.len());
    for e in edits.drain(..) {
        match out.last_mut() {
            Some(last) if last.span == e.span && last.file == e.file => {
                if !last.content.contains(&e.content) {
                    last.content.push_str(&e.content);
                }
            }
            _ => out.push(e),
        }
    }
    *edits = out;
}

/// `check --add-suppressions REASON`: suppression comments above every remaining finding that
/// one can hide, in memory; the outcome's `fixed` counts the findings suppressed. Files whose
/// comments would make the project fail to load are rolled back as in [`fix_project`].
///
/// Errors: the root cannot be read.
pub fn add_suppressions(root: &Path, reason: &str) -> Result<FixOutcome, FatalError> {
    let mut overlay = Overlay::new();
    let checked = load(root, &overlay)?;
    let before = checked.diagnostics.len();
    let baseline = error_counts(&checked);
    let fixes = suppression_fixes(&checked.diagnostics, &checked.project.sources, reason);
    let mut originals = BTreeMap::new();
    for fix in &fixes {
        let Some(file) = fix.files().first().copied() else {
            continue;
        };
        let source = checked.project.sources.get(file);
        let (text, _) = apply_edits(&source.text, file, &[fix]);
        originals.insert(
            source.name.clone(),
            (source.path.clone(), source.text.clone()),
        );
        overlay.insert(source.name.clone(), text);
    }
    let mut rolled_back = Vec::new();
    let mut after = load(root, &overlay)?;
    let (bad, project_wide) = new_errors(&baseline, &error_counts(&after));
    if project_wide || !bad.is_empty() {
        let names: Vec<String> = overlay.keys().cloned().collect();
        for name in names {
            if project_wide || bad.contains(&name) {
                overlay.remove(&name);
                rolled_back.push((
                    name,
                    "its suppression comments made the project report a new error".to_string(),
                ));
            }
        }
        after = load(root, &overlay)?;
    }
    let changes = overlay
        .iter()
        .filter_map(|(name, text)| {
            let (path, before) = originals.get(name)?;
            Some((
                name.clone(),
                FileChange {
                    name: name.clone(),
                    path: path.clone(),
                    before: before.clone(),
                    after: text.clone(),
                },
            ))
        })
        .collect::<BTreeMap<_, _>>();
    let fixed = before.saturating_sub(after.diagnostics.len());
    Ok(FixOutcome {
        checked: after,
        changes: changes.into_values().collect(),
        fixed,
        rolled_back,
        unfinished: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(entries: &[(&str, &'static str, &str, usize)]) -> ErrorCounts {
        entries
            .iter()
            .map(|(f, c, m, n)| ((f.to_string(), *c, m.to_string()), *n))
            .collect()
    }

    #[test]
    fn a_new_error_is_one_not_counted_before() {
        let before = counts(&[("a.yaml", "SR103", "x", 1)]);
        let after = counts(&[
            ("a.yaml", "SR103", "x", 1),
            ("b.yaml", "SR103", "x", 1),
            ("", "SR504", "y", 1),
        ]);
        let (files, project_wide) = new_errors(&before, &after);
        assert_eq!(files, BTreeSet::from(["b.yaml".to_string()]));
        assert!(project_wide);
        let (files, project_wide) = new_errors(&after, &before);
        assert!(files.is_empty() && !project_wide);
    }

    #[test]
    fn a_suggestion_differing_in_case_only_is_a_safe_fix_else_unsafe() {
        let text = "domain: Materials_Property\nother: 'materials_propery'\n";
        let f = FileId(0);
        let fix = did_you_mean_fix(
            text,
            f,
            Span::new(8, 26),
            "Materials_Property",
            "did you mean `materials_property`?",
            true,
        )
        .unwrap();
        assert_eq!(fix.applicability, Applicability::Safe);
        assert_eq!(fix.edits[0].content, "materials_property");
        let fix = did_you_mean_fix(
            text,
            f,
            Span::new(34, 53),
            "materials_propery",
            "did you mean `materials_property`?",
            true,
        )
        .unwrap();
        assert_eq!(fix.applicability, Applicability::Unsafe);
        assert_eq!(fix.edits[0].content, "'materials_property'");
        assert!(did_you_mean_fix(text, f, Span::new(8, 26), "x", "add a domain", true).is_none());
    }

    #[test]
    fn a_part_is_replaced_only_where_it_is_written_and_reads_the_same() {
        let text = "unit: ev/atom\n";
        let f = FileId(0);
        let fix = part_replacement_fix(text, f, Span::new(6, 8), 6, "ev", "eV").unwrap();
        assert_eq!(fix.edits, vec![Edit::replace(f, Span::new(6, 8), "eV")]);
        assert_eq!(fix.applicability, Applicability::Unsafe);
        // Not what is written there; a character that would change how YAML reads the scalar;
        // an indicator where the plain scalar starts.
        assert!(part_replacement_fix(text, f, Span::new(6, 8), 6, "eV", "meV").is_none());
        assert!(part_replacement_fix(text, f, Span::new(9, 13), 6, "atom", "a#b").is_none());
        assert!(part_replacement_fix(text, f, Span::new(6, 8), 6, "ev", "*e").is_none());
    }

    #[test]
    fn a_key_is_inserted_under_its_sibling_in_yaml_and_toml() {
        let f = FileId(0);
        let yaml = "fields:\n  - name: k  # c\n    type: number\n";
        let e = sibling_key_insertion(yaml, f, Span::new(18, 19), "name", "unit", "GPa").unwrap();
        assert_eq!(e, Edit::insert(f, 25, "    unit: GPa\n"));
        let e = sibling_key_insertion(yaml, f, Span::new(18, 19), "name", "unit", "Å^3").unwrap();
        assert_eq!(e.content, "    unit: Å^3\n");
        let e = sibling_key_insertion(yaml, f, Span::new(18, 19), "name", "unit", "%").unwrap();
        assert_eq!(e.content, "    unit: \"%\"\n");
        let toml = "[[f]]\r\nname = \"k\"\r\ntype = \"number\"\r\n";
        let e = sibling_key_insertion(toml, f, Span::new(14, 17), "name", "unit", "GPa").unwrap();
        assert_eq!(e, Edit::insert(f, 19, "unit = \"GPa\"\r\n"));
        // A flow mapping, an inline table, a value at the end of the file: no edit.
        let flow = "fields: [{name: k, type: number}]\n";
        assert!(sibling_key_insertion(flow, f, Span::new(16, 17), "name", "unit", "GPa").is_none());
        let inline = "f = { name = \"k\" }\n";
        assert!(
            sibling_key_insertion(inline, f, Span::new(13, 16), "name", "unit", "GPa").is_none()
        );
        assert!(sibling_key_insertion("name: k", f, Span::new(6, 7), "name", "u", "x").is_none());
    }

    #[test]
    fn an_error_whose_message_changed_is_not_new() {
        let before = counts(&[("a.yaml", "SR503", "no tool in domain(s) x", 1)]);
        let after = counts(&[("a.yaml", "SR503", "no tool in domain(s) y", 1)]);
        let (files, project_wide) = new_errors(&before, &after);
        assert!(files.is_empty() && !project_wide);
        let after = counts(&[
            ("a.yaml", "SR503", "no tool in domain(s) y", 1),
            ("a.yaml", "SR503", "no tool in domain(s) z", 1),
        ]);
        let (files, _) = new_errors(&before, &after);
        assert_eq!(files, BTreeSet::from(["a.yaml".to_string()]));
    }

    #[test]
    fn rollback_takes_back_the_file_with_the_new_error_or_every_file_of_the_pass() {
        let edited: BTreeMap<String, (String, usize)> = [
            ("a.yaml".to_string(), (String::new(), 1)),
            ("b.yaml".to_string(), (String::new(), 2)),
        ]
        .into();
        let bad = BTreeSet::from(["b.yaml".to_string()]);
        assert_eq!(to_roll_back(&edited, &bad, false), vec!["b.yaml"]);
        // A new error in a file the pass did not edit, or in no file: every file of the pass.
        let elsewhere = BTreeSet::from(["c.yaml".to_string()]);
        assert_eq!(
            to_roll_back(&edited, &elsewhere, false),
            vec!["a.yaml", "b.yaml"]
        );
        assert_eq!(
            to_roll_back(&edited, &BTreeSet::new(), true),
            vec!["a.yaml", "b.yaml"]
        );
        assert!(to_roll_back(&edited, &BTreeSet::new(), false).is_empty());
    }

    #[test]
    fn scalar_replacement_keeps_the_quoting() {
        let text = "a: cc-by-4.0\nb: \"cc-by-4.0\"\nc: 'x'\n";
        assert_eq!(
            scalar_replacement(text, Span::new(3, 12), "cc-by-4.0", "CC-BY-4.0").as_deref(),
            Some("CC-BY-4.0")
        );
        assert_eq!(
            scalar_replacement(text, Span::new(16, 27), "cc-by-4.0", "CC-BY-4.0").as_deref(),
            Some("\"CC-BY-4.0\"")
        );
        assert_eq!(
            scalar_replacement(text, Span::new(31, 34), "x", "y: z").as_deref(),
            Some("'y: z'")
        );
        assert_eq!(
            scalar_replacement(text, Span::new(3, 12), "other", "CC-BY-4.0"),
            None
        );
        assert_eq!(
            scalar_replacement(text, Span::new(3, 12), "cc-by-4.0", "a: b").as_deref(),
            Some("\"a: b\"")
        );
    }

    #[test]
    fn comment_names_rules_once_sorted_with_reason_on_one_line() {
        assert_eq!(
            suppression_comment(
                &["unit-conflict", "missing-unit", "unit-conflict"],
                "per\ncell  ok"
            ),
            "# schemarouter: allow(missing-unit, unit-conflict) -- per cell ok"
        );
    }

    #[test]
    fn comment_goes_above_the_line_with_its_indent() {
        let text = "a:\n  - b: 1\n    c: yes\n";
        let file = SourceFile::new("x.yaml", "x.yaml", text.to_string());
        let at = text.find("c:").unwrap() as u32;
        let e = suppression_edit(FileId(0), &file, at, &[], &["yaml11-boolean"], "r");
        assert_eq!(e.span, Span::new(12, 12));
        assert_eq!(
            e.content,
            "    # schemarouter: allow(yaml11-boolean) -- r\n"
        );
    }

    #[test]
    fn comment_for_a_line_inside_a_block_scalar_goes_above_the_key() {
        let text = "d: 1\ndescription: |\n  one\n  two\n";
        let file = SourceFile::new("x.yaml", "x.yaml", text.to_string());
        let strings = multiline_strings(&file);
        assert_eq!(strings.len(), 1);
        let at = text.find("two").unwrap() as u32;
        let e = suppression_edit(FileId(0), &file, at, &strings, &["control-character"], "r");
        assert_eq!(e.span, Span::new(5, 5));
        assert!(
            e.content
                .starts_with("# schemarouter: allow(control-character)")
        );
    }
}
