//! Findings as LSP diagnostics: one list per file (the primary label's), the rule code with a
//! link to its section of `docs/rules.md`, the secondary labels as related information, the
//! help line after the message. Project-wide findings (no file) go to `schemarouter.toml`.

use super::analysis::Snapshot;
use super::text::LineIndex;
use super::workspace::path_to_uri;
use crate::diagnostics::{Diagnostic, Severity};
use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range, Uri,
};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::str::FromStr;

/// Where `docs/rules.md` is read when the client gives no `rulesUrl` initialization option.
pub const DEFAULT_RULES_URL: &str =
    "https://docs.rs/crate/schemarouter/latest/source/docs/rules.md";

/// The LSP severity of a finding's severity.
pub fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// The link to a rule's section of the rules page at `rules_url`.
pub fn rule_link(rules_url: &str, name: &str) -> Option<Uri> {
    Uri::from_str(&format!("{rules_url}#{name}")).ok()
}

/// The diagnostics of every file of the snapshot that has findings, by absolute path (sorted).
pub fn by_file(
    snapshot: &Snapshot,
    rules_url: &str,
) -> BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>> {
    let mut out: BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>> = BTreeMap::new();
    let config = snapshot.root.join(crate::load::CONFIG_FILE);
    let Some(checked) = &snapshot.checked else {
        if let Some(d) = &snapshot.fatal {
            out.entry(config)
                .or_default()
                .push(convert_unplaced(d, rules_url));
        }
        return out;
    };
    let sources = &checked.project.sources;
    let mut indexes: HashMap<u32, LineIndex> = HashMap::new();
    let mut range_of = |file: crate::source::FileId, span: crate::source::Span| {
        let text = &sources.get(file).text;
        let ix = indexes
            .entry(file.0)
            .or_insert_with(|| LineIndex::new(text));
        ix.range(text, span.start as usize, span.end as usize)
    };
    for d in &checked.diagnostics {
        let Some(primary) = &d.primary else {
            out.entry(config.clone())
                .or_default()
                .push(convert_unplaced(d, rules_url));
            continue;
        };
        let range = range_of(primary.file, primary.span);
        let related: Vec<DiagnosticRelatedInformation> = d
            .secondary
            .iter()
            .filter_map(|l| {
                let uri = path_to_uri(&snapshot.root.join(&sources.get(l.file).name))?;
                Some(DiagnosticRelatedInformation {
                    location: Location::new(uri, range_of(l.file, l.span)),
                    message: if l.message.is_empty() {
                        "related place".to_string()
                    } else {
                        l.message.clone()
                    },
                })
            })
            .collect();
        let mut lsp = base(d, rules_url, range);
        if !related.is_empty() {
            lsp.related_information = Some(related);
        }
        let path = snapshot.root.join(&sources.get(primary.file).name);
        out.entry(path).or_default().push(lsp);
    }
    out
}

fn message(d: &Diagnostic) -> String {
    match &d.help {
        Some(h) => format!("{}\nhelp: {h}", d.message),
        None => d.message.clone(),
    }
}

fn base(d: &Diagnostic, rules_url: &str, range: Range) -> lsp_types::Diagnostic {
    lsp_types::Diagnostic {
        range,
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: rule_link(rules_url, d.name).map(|href| CodeDescription { href }),
        source: Some("schemarouter".to_string()),
        message: message(d),
        related_information: None,
        tags: None,
        data: Some(serde_json::json!({ "name": d.name })),
    }
}

fn convert_unplaced(d: &Diagnostic, rules_url: &str) -> lsp_types::Diagnostic {
    base(
        d,
        rules_url,
        Range::new(Position::new(0, 0), Position::new(0, 0)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severities_map_and_links_point_at_the_rule_anchor() {
        assert_eq!(severity(Severity::Info), DiagnosticSeverity::INFORMATION);
        assert_eq!(severity(Severity::Warning), DiagnosticSeverity::WARNING);
        assert_eq!(severity(Severity::Error), DiagnosticSeverity::ERROR);
        assert_eq!(
            rule_link("https://x.org/docs/rules.md", "unit-conflict")
                .unwrap()
                .as_str(),
            "https://x.org/docs/rules.md#unit-conflict"
        );
    }
}
