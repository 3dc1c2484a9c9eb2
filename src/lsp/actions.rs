//! Code actions on the findings in a range: each finding's fix ([`crate::lint::fix`]; a safe
//! fix is marked preferred, an unsafe one says so in its title), "suppress with a reason" for
//! each finding a comment can hide ([`crate::lint::fix::suppressible`]: a `# schemarouter:
//! allow(rule) -- reason` line above the finding's line, at its indent, or above the start of
//! the multi-line string it lies in), and one source action that applies every safe fix of the
//! document (`source.fixAll.schemarouter`, as `check --fix` would for this file).

use super::analysis::Snapshot;
use super::text::LineIndex;
use super::workspace::path_to_uri;
use crate::diagnostics::Diagnostic;
use crate::diagnostics::fix::{Applicability, Edit, Fix};
use crate::lint::Checked;
use crate::source::FileId;
use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, TextEdit, Uri, WorkspaceEdit};
use std::collections::HashMap;

/// The reason written into a new suppression, for the user to replace.
pub const REASON_PLACEHOLDER: &str = "TODO: say why this finding is kept";

/// The kind of the source action that applies every safe fix of a document.
pub const FIX_ALL: &str = "source.fixAll.schemarouter";

/// The code actions for the findings of `file` whose primary span meets bytes `start..=end`.
pub fn actions(
    snapshot: &Snapshot,
    file: FileId,
    uri: &Uri,
    start: usize,
    end: usize,
) -> Vec<CodeActionOrCommand> {
    let Some(checked) = &snapshot.checked else {
        return Vec::new();
    };
    let meets = |d: &Diagnostic| {
        d.primary.as_ref().is_some_and(|p| {
            p.file == file && (p.span.end as usize) >= start && (p.span.start as usize) <= end
        })
    };
    let mut out = Vec::new();
    for (d, fix) in crate::lint::fix::fixes_for_file(&checked.diagnostics, file) {
        if !meets(d) {
            continue;
        }
        let title = match fix.applicability {
            Applicability::Safe => fix.title.clone(),
            Applicability::Unsafe => format!("{} (unsafe fix)", fix.title),
        };
        if let Some(edit) = workspace_edit(snapshot, checked, &fix.edits) {
            out.push(action(
                title,
                CodeActionKind::QUICKFIX,
                edit,
                fix.applicability == Applicability::Safe,
            ));
        }
    }
    out.extend(suppressions(snapshot, checked, file, &meets));
    if let Some(all) = fix_all(checked, file, uri) {
        out.push(all);
    }
    out
}

fn action(
    title: String,
    kind: CodeActionKind,
    edit: WorkspaceEdit,
    preferred: bool,
) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(kind),
        edit: Some(edit),
        is_preferred: preferred.then_some(true),
        ..CodeAction::default()
    })
}

/// "Suppress with a reason" for each suppressible finding that `meets` (one per rule and line).
fn suppressions(
    snapshot: &Snapshot,
    checked: &Checked,
    file: FileId,
    meets: &dyn Fn(&Diagnostic) -> bool,
) -> Vec<CodeActionOrCommand> {
    let source = checked.project.sources.get(file);
    let mut strings = None;
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for d in &checked.diagnostics {
        let Some(p) = &d.primary else { continue };
        if !meets(d) || !crate::lint::fix::suppressible(d) {
            continue;
        }
        if !seen.insert((d.name, source.line_col(p.span.start as usize).0)) {
            continue;
        }
        let strings = strings.get_or_insert_with(|| crate::lint::fix::multiline_strings(source));
        let edit = crate::lint::fix::suppression_edit(
            file,
            source,
            p.span.start,
            strings,
            &[d.name],
            REASON_PLACEHOLDER,
        );
        if let Some(edit) = workspace_edit(snapshot, checked, &[edit]) {
            out.push(action(
                format!("Suppress `{}` here (with a reason)", d.name),
                CodeActionKind::QUICKFIX,
                edit,
                false,
            ));
        }
    }
    out
}

/// Every safe fix of the document at once (those that do not overlap, in order).
fn fix_all(checked: &Checked, file: FileId, uri: &Uri) -> Option<CodeActionOrCommand> {
    let safe: Vec<&Fix> = crate::lint::fix::fixes_for_file(&checked.diagnostics, file)
        .into_iter()
        .map(|(_, f)| f)
        .filter(|f| f.applicability == Applicability::Safe && f.files() == [file])
        .collect();
    if safe.is_empty() {
        return None;
    }
    let text = &checked.project.sources.get(file).text;
    let (fixed, _) = crate::diagnostics::fix::apply_edits(text, file, &safe);
    let index = LineIndex::new(text);
    let whole = TextEdit::new(index.range(text, 0, text.len()), fixed);
    Some(action(
        "Apply every safe fix in this file".to_string(),
        CodeActionKind::from(FIX_ALL),
        WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), vec![whole])])),
            ..WorkspaceEdit::default()
        },
        false,
    ))
}

/// The LSP edit of `edits` (byte spans into the snapshot's files), `None` when a file has no
/// URI.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose interior cell caches parsed parts and
// takes no part in its hash or equality.
#[allow(clippy::mutable_key_type)]
fn workspace_edit(snapshot: &Snapshot, checked: &Checked, edits: &[Edit]) -> Option<WorkspaceEdit> {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    let mut indexes: HashMap<FileId, LineIndex> = HashMap::new();
    for e in edits {
        let text = &checked.project.sources.get(e.file).text;
        let index = indexes
            .entry(e.file)
            .or_insert_with(|| LineIndex::new(text));
        let uri = path_to_uri(&snapshot.path(e.file)?)?;
        let range = index.range(text, e.span.start as usize, e.span.end as usize);
        changes
            .entry(uri)
            .or_default()
            .push(TextEdit::new(range, e.content.clone()));
    }
    Some(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    })
}
