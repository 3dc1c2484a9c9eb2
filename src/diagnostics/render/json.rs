//! JSON output: `{"version":1,"summary":{..},"diagnostics":[..]}` with resolved positions.

use super::super::{Diagnostic, Position, Summary};
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
            })
            .collect(),
    };
    let mut s = serde_json::to_string_pretty(&report).unwrap_or_else(|_| "{}".to_string());
    s.push('\n');
    s
}
