//! SARIF 2.1.0 output (for GitHub code scanning and other SARIF viewers), built with the
//! `serde-sarif` types.
//!
//! One run whose `tool.driver.rules` lists every rule of [`crate::diagnostics::codes::RULES`] in registry order
//! (so a result's `ruleIndex` is the rule's position there), and one result per diagnostic in the
//! order given. Locations are file names as the renderers get them (relative to the current
//! folder when `check` runs from outside the project, see [`crate::diagnostics::paths`]) as
//! relative URI references, or `file://` URIs for absolute paths; columns count Unicode scalar values
//! (`columnKind: "unicodeCodePoints"`), as [`Position::resolve`] computes them. Every result has
//! a location, as GitHub code scanning requires: a project-wide finding (one without a file)
//! points at the start of the project's configuration file, or of its first declaration file
//! when it has none ([`project_anchor`]). Every result carries its line-independent fingerprint
//! ([`crate::diagnostics::fingerprint`]) as `partialFingerprints["schemarouter/v1"]`, so code
//! scanning follows a finding when lines move above it. A finding with a fix carries it as the
//! result's one `fixes` entry ([`sarif_fix`]): its title as `description`, one `artifactChanges`
//! entry per file edited, each edit a `replacements` entry whose `deletedRegion` gives the
//! replaced range by line and column (empty for an insertion) and whose `insertedContent.text`
//! is the new text; the fix's applicability (`safe`, `unsafe`) is the property
//! `applicability`. The output depends only on the
//! diagnostics and the sources, so it is identical between runs.

use super::super::fix::Fix;
use super::super::{Diagnostic, Label, Position, Severity};
use crate::diagnostics::codes::{RULES, RuleEntry};
use crate::source::SourceMap;
use serde_sarif::sarif::{
    ArtifactChange, ArtifactContent, ArtifactLocation, Fix as SarifFix, Location, Message,
    MultiformatMessageString, PhysicalLocation, PropertyBag, Region, Replacement,
    ReportingConfiguration, ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif,
    Tool, ToolComponent,
};

/// The `$schema` written into every SARIF log.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF version written into every log.
pub const SARIF_VERSION: &str = "2.1.0";

/// Where to read about the tool: the package's repository or homepage when Cargo.toml names one,
/// else its crates.io page.
pub fn information_uri() -> &'static str {
    match (env!("CARGO_PKG_REPOSITORY"), env!("CARGO_PKG_HOMEPAGE")) {
        (repo, _) if !repo.is_empty() => repo,
        (_, home) if !home.is_empty() => home,
        _ => "https://crates.io/crates/schemarouter",
    }
}

/// SARIF level name for a severity (`error`, `warning`, `note`).
pub fn level_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn result_level(severity: Severity) -> ResultLevel {
    match severity {
        Severity::Error => ResultLevel::Error,
        Severity::Warning => ResultLevel::Warning,
        Severity::Info => ResultLevel::Note,
    }
}

fn text(s: impl Into<String>) -> MultiformatMessageString {
    MultiformatMessageString::builder().text(s.into()).build()
}

fn descriptor(entry: &RuleEntry) -> ReportingDescriptor {
    let docs = entry.docs();
    ReportingDescriptor::builder()
        .id(entry.code)
        .name(entry.name)
        .short_description(text(entry.summary()))
        .full_description(text(docs.clone()))
        .help(
            MultiformatMessageString::builder()
                .text(docs.clone())
                .markdown(docs)
                .build(),
        )
        .default_configuration(
            ReportingConfiguration::builder()
                .level(serde_json::Value::from(level_name(entry.default_severity)))
                .build(),
        )
        .properties(
            PropertyBag::builder()
                .tags(vec![entry.category.as_str().to_string()])
                .build(),
        )
        .build()
}

/// Percent-encode a `/`-separated relative path so that it is a valid URI reference: ASCII
/// letters, digits, `-._~` and `/` stay, every other byte (spaces, `:`, `%`, non-ASCII UTF-8)
/// becomes `%XX`.
pub fn path_to_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The `artifactLocation.uri` for a file name: a percent-encoded relative reference for a
/// relative path (GitHub code scanning resolves it against the repository root), a `file://`
/// URI for an absolute one (`/x/a.yaml` -> `file:///x/a.yaml`, `C:/x/a.yaml` ->
/// `file:///C:/x/a.yaml`). No `uriBaseId` is written: a base may only qualify a relative
/// reference, and GitHub takes relative ones from the repository root as they are.
pub fn artifact_uri(path: &str) -> String {
    let b = path.as_bytes();
    if path.starts_with('/') {
        format!("file://{}", path_to_uri(path))
    } else if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'/' {
        format!("file:///{}{}", &path[..2], path_to_uri(&path[2..]))
    } else {
        path_to_uri(path)
    }
}

fn region(p: &Position) -> Region {
    Region::builder()
        .start_line(p.line as i64)
        .start_column(p.column as i64)
        .end_line(p.end_line as i64)
        .end_column(p.end_column as i64)
        .build()
}

/// A fix as a SARIF `fix` object: one `artifactChange` per file, in file order, its
/// replacements in the order of the edits (each `deletedRegion` given by line and column, as
/// the results' regions are; an empty region inserts).
pub fn sarif_fix(fix: &Fix, sources: &SourceMap) -> SarifFix {
    let mut changes: Vec<ArtifactChange> = Vec::new();
    for file in fix.files() {
        let replacements = fix
            .edits
            .iter()
            .filter(|e| e.file == file)
            .map(|e| {
                let p = Position::resolve(&Label::new(e.file, e.span, ""), sources);
                Replacement::builder()
                    .deleted_region(region(&p))
                    .inserted_content(ArtifactContent::builder().text(e.content.clone()).build())
                    .build()
            })
            .collect::<Vec<_>>();
        changes.push(
            ArtifactChange::builder()
                .artifact_location(
                    ArtifactLocation::builder()
                        .uri(artifact_uri(&sources.get(file).name))
                        .build(),
                )
                .replacements(replacements)
                .build(),
        );
    }
    SarifFix::builder()
        .description(Message::builder().text(fix.title.clone()).build())
        .artifact_changes(changes)
        .properties(
            PropertyBag::builder()
                .additional_properties(std::collections::BTreeMap::from([(
                    "applicability".to_string(),
                    serde_json::Value::from(fix.applicability.as_str()),
                )]))
                .build(),
        )
        .build()
}

fn location(label: &Label, sources: &SourceMap, with_message: bool) -> Location {
    let p = Position::resolve(label, sources);
    let region = region(&p);
    let physical = PhysicalLocation::builder()
        .artifact_location(
            ArtifactLocation::builder()
                .uri(artifact_uri(&p.file))
                .build(),
        )
        .region(region)
        .build();
    let message = if with_message && !label.message.is_empty() {
        Some(Message::builder().text(label.message.clone()).build())
    } else {
        None
    };
    Location {
        annotations: None,
        id: None,
        logical_locations: None,
        message,
        physical_location: Some(physical),
        properties: None,
        relationships: None,
    }
}

/// The file a project-wide finding is shown at in SARIF: the project's configuration file
/// (`schemarouter.toml`) when it was read, else the first file by name. `None` only when no
/// file was read at all.
pub fn project_anchor(sources: &SourceMap) -> Option<crate::source::FileId> {
    let config = crate::load::CONFIG_FILE;
    sources
        .iter()
        .find(|(_, f)| f.name == config || f.name.ends_with(&format!("/{config}")))
        .or_else(|| sources.iter().min_by(|a, b| a.1.name.cmp(&b.1.name)))
        .map(|(id, _)| id)
}

/// The `partialFingerprints` key under which each result's fingerprint is written.
pub const FINGERPRINT_KEY: &str = "schemarouter/v1";

fn result(d: &Diagnostic, sources: &SourceMap, fingerprint: &str) -> SarifResult {
    let mut message = d.message.clone();
    if let Some(h) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(h);
    }
    let mut r = SarifResult::builder()
        .rule_id(d.code)
        .level(result_level(d.severity))
        .message(Message::builder().text(message).build())
        .build();
    r.partial_fingerprints = Some(std::collections::BTreeMap::from([(
        FINGERPRINT_KEY.to_string(),
        fingerprint.to_string(),
    )]));
    r.rule_index = RULES
        .iter()
        .position(|e| e.code == d.code)
        .map(|i| i as i64);
    if let Some(fix) = &d.fix {
        r.fixes = Some(vec![sarif_fix(fix, sources)]);
    }
    if d.primary.is_none()
        && let Some(file) = project_anchor(sources)
    {
        let label = Label {
            file,
            span: crate::source::Span::default(),
            message: "project-wide finding".to_string(),
        };
        r.locations = Some(vec![location(&label, sources, true)]);
    }
    if let Some(primary) = &d.primary {
        r.locations = Some(vec![location(primary, sources, false)]);
        if !d.secondary.is_empty() {
            let related = d
                .secondary
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let mut loc = location(l, sources, true);
                    loc.id = Some(i as i64);
                    loc
                })
                .collect();
            r.related_locations = Some(related);
        }
    }
    r
}

/// The SARIF log for these diagnostics, as a value.
pub fn sarif(diags: &[Diagnostic], sources: &SourceMap) -> Sarif {
    let fingerprints = crate::diagnostics::fingerprint::fingerprints(diags, sources);
    let driver = ToolComponent::builder()
        .name("schemarouter")
        .version(env!("CARGO_PKG_VERSION"))
        .information_uri(information_uri())
        .rules(RULES.iter().map(descriptor).collect::<Vec<_>>())
        .build();
    let run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .column_kind(serde_json::Value::from("unicodeCodePoints"))
        .results(
            diags
                .iter()
                .zip(&fingerprints)
                .map(|(d, f)| result(d, sources, &f.hash))
                .collect::<Vec<_>>(),
        )
        .build();
    Sarif::builder()
        .schema(SCHEMA_URI)
        .version(serde_json::Value::from(SARIF_VERSION))
        .runs(vec![run])
        .build()
}

/// The SARIF 2.1.0 log for these diagnostics, pretty-printed, ending in a newline.
pub fn render(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let mut s =
        serde_json::to_string_pretty(&sarif(diags, sources)).unwrap_or_else(|_| "{}".to_string());
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(path_to_uri("schemas/mp.yaml"), "schemas/mp.yaml");
        assert_eq!(path_to_uri("schemas/a b:c.yaml"), "schemas/a%20b%3Ac.yaml");
        assert_eq!(path_to_uri("aliases/밴.yaml"), "aliases/%EB%B0%B4.yaml");
        assert_eq!(path_to_uri("100%.yaml"), "100%25.yaml");
    }

    #[test]
    fn artifact_uris() {
        assert_eq!(
            artifact_uri("sub/proj/schemas/mp.yaml"),
            "sub/proj/schemas/mp.yaml"
        );
        assert_eq!(artifact_uri("/tmp/a b/x.yaml"), "file:///tmp/a%20b/x.yaml");
        assert_eq!(artifact_uri("C:/work/x.yaml"), "file:///C:/work/x.yaml");
        assert_eq!(artifact_uri("c:x.yaml"), "c%3Ax.yaml");
    }

    #[test]
    fn levels() {
        assert_eq!(level_name(Severity::Info), "note");
        assert_eq!(level_name(Severity::Warning), "warning");
        assert_eq!(level_name(Severity::Error), "error");
    }
}
