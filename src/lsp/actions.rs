//! Code actions on the findings in a range (all but the suppression findings, SR9xx): "suppress with a reason" (a `# schemarouter:
//! allow(rule) -- reason` comment on its own line above the finding's line, at its indent,
//! which covers that line and the block it opens).

use super::analysis::Snapshot;
use super::text::LineIndex;
use crate::source::FileId;
use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, TextEdit, Uri, WorkspaceEdit};
use std::collections::HashMap;

/// The reason written into a new suppression, for the user to replace.
pub const REASON_PLACEHOLDER: &str = "TODO: say why this finding is kept";

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
    let text = &checked.project.sources.get(file).text;
    let index = LineIndex::new(text);
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for d in &checked.diagnostics {
        let Some(p) = &d.primary else { continue };
        if p.file != file || (p.span.end as usize) < start || (p.span.start as usize) > end {
            continue;
        }
        // Findings about suppressions (SR9xx) cannot themselves be suppressed.
        let line = index.line_of(p.span.start as usize);
        if d.code.starts_with("SR9") || !seen.insert((d.name, line)) {
            continue;
        }
        let edit = suppression_edit(text, &index, line, d.name);
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Suppress `{}` on this line (with a reason)", d.name),
            kind: Some(CodeActionKind::QUICKFIX),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                ..WorkspaceEdit::default()
            }),
            ..CodeAction::default()
        }));
    }
    out
}

/// The edit that puts a suppression of `rule` on its own line above 0-based `line`.
pub fn suppression_edit(text: &str, index: &LineIndex, line: usize, rule: &str) -> TextEdit {
    let start = index.line_start(text, line);
    let rest = &text[start..];
    let line_text = rest.split(['\n', '\r']).next().unwrap_or("");
    let indent = &line_text[..line_text.len() - line_text.trim_start().len()];
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let pos = index.position(text, start);
    TextEdit::new(
        lsp_types::Range::new(pos, pos),
        format!("{indent}# schemarouter: allow({rule}) -- {REASON_PLACEHOLDER}{eol}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suppression_goes_above_the_line_at_its_indent() {
        let text = "a:\n  - name: x\n    unit: ev\n";
        let ix = LineIndex::new(text);
        let e = suppression_edit(text, &ix, 2, "invalid-unit");
        assert_eq!(e.range.start, lsp_types::Position::new(2, 0));
        assert_eq!(e.range.end, e.range.start);
        assert_eq!(
            e.new_text,
            "    # schemarouter: allow(invalid-unit) -- TODO: say why this finding is kept\n"
        );
    }
}
