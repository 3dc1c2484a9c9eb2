//! Renderers of a diff [`Report`]: one module per output format. Every renderer returns the whole
//! output as a string and keeps the report's order (class, entity, code), so output is identical
//! between runs.

pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;

use super::{FailOn, Report};

/// Output formats of `schemarouter diff`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum DiffFormat {
    /// Changes grouped by class, with locations and fingerprints (default).
    #[default]
    Human,
    /// One JSON document.
    Json,
    /// A pull-request comment: summary counts, then a table per class.
    Markdown,
    /// GitHub Actions annotations on the new side's lines.
    Github,
    /// JUnit XML, one test suite per class.
    Junit,
}

/// Rendering options.
#[derive(Clone, Copy, Debug, Default)]
pub struct RenderOptions {
    /// The gate, so outputs can say what fails.
    pub fail_on: FailOn,
    /// ANSI colours (human output only).
    pub color: bool,
}

/// Render `report` in `format`.
pub fn render(format: DiffFormat, report: &Report, opts: RenderOptions) -> String {
    match format {
        DiffFormat::Human => human::render(report, opts),
        DiffFormat::Json => json::render(report, opts),
        DiffFormat::Markdown => markdown::render(report, opts),
        DiffFormat::Github => github::render(report, opts),
        DiffFormat::Junit => junit::render(report, opts),
    }
}

/// The closing verdict shared by the text formats, e.g. `fails: 2 breaking change(s) not
/// accepted (--fail-on breaking)`.
pub fn verdict(report: &Report, fail_on: FailOn) -> String {
    let failing = report
        .changes
        .iter()
        .filter(|c| c.accepted.is_none() && fail_on.fails(c.class))
        .count();
    if failing > 0 {
        format!(
            "fails: {failing} change(s) at or above `{}` not accepted (--fail-on {})",
            fail_on.as_str(),
            fail_on.as_str()
        )
    } else {
        format!("passes (--fail-on {})", fail_on.as_str())
    }
}
