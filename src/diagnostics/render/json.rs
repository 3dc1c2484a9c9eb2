//! JSON output: `{"version":1,"summary":{..},"diagnostics":[..]}` with resolved positions.
//!
//! A finding with a fix carries it as `fix`: `{"applicability": "safe" | "unsafe", "message",
//! "edits": [..]}`, each edit the file, line/column and byte range it replaces (as a location)
//! and `content`, the text that replaces it (empty for a deletion; an insertion has length 0),
//! in the order the edits apply.

use super::super::fix::Fix;
use super::super::{Diagnostic, Label, Position, Summary};
use crate::source::SourceMap;
use serde::Serialize;

#[derive(Serialize)]
struct JsonLabel {
    #[serde(flatten)]
    position: Position,
    message: String,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    name: &'a str,
    severity: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<JsonLabel>,
    related: Vec<JsonLabel>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    #[serde(flatten)]
    position: Position,
    content: &'a str,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    applicability: &'a str,
    message: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

fn json_fix<'a>(fix: &'a Fix, sources: &SourceMap) -> JsonFix<'a> {
    JsonFix {
        applicability: fix.applicability.as_str(),
        message: &fix.title,
        edits: fix
            .edits
            .iter()
            .map(|e| JsonEdit {
                position: Position::resolve(&Label::new(e.file, e.span, ""), sources),
                content: &e.content,
            })
            .collect(),
    }
}

#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    summary: Summary,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

/// The JSON document for these diagnostics, pretty-printed, ending in a newline.
pub fn render(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let report = JsonReport {
        version: 1,
        summary: Summary::of(diags),
        diagnostics: diags
            .iter()
            .map(|d| JsonDiagnostic {
                code: d.code,
                name: d.name,
                severity: d.severity.as_str(),
                message: &d.message,
                location: d.primary.as_ref().map(|l| JsonLabel {
                    position: Position::resolve(l, sources),
                    message: l.message.clone(),
                }),
                related: d
                    .secondary
                    .iter()
                    .map(|l| JsonLabel {
                        position: Position::resolve(l, sources),
                        message: l.message.clone(),
                    })
                    .collect(),
                help: d.help.as_deref(),
                fix: d.fix.as_deref().map(|f| json_fix(f, sources)),
            })
            .collect(),
    };
    let mut s = serde_json::to_string_pretty(&report).unwrap_or_else(|_| "{}".to_string());
    s.push('\n');
    s
}
