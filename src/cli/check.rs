//! `check`, `rules`, `explain` and `schema`.

use crate::diagnostics::Severity;
use crate::diagnostics::render::{self, OutputFormat};
use crate::lint::{self, RULES};
use crate::model::{FileKind, LevelSetting};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `schemarouter check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Project folder (default: the current folder).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Output format. File paths: human and concise show them under PATH as typed; sarif,
    /// github, gitlab and junit relative to the current folder (the repository root in CI), or
    /// absolute when the project lies outside it; json relative to the project root.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// Lowest severity that makes the command exit 1 (overrides `fail-level` in the config).
    #[arg(long, value_enum)]
    pub fail_level: Option<FailLevel>,
}

/// `--fail-level` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailLevel {
    /// Fail on errors only.
    Error,
    /// Fail on warnings and errors (`warn` is accepted too, as in the config).
    #[value(alias = "warn")]
    Warning,
    /// Fail on any finding.
    Info,
}

/// Run `check`; returns the exit code.
pub fn run_check(args: CheckArgs) -> u8 {
    let mut checked = match lint::check_path(&args.path) {
        Ok(c) => c,
        Err(e) => {
            super::report_fatal(&e, "check", &args.path);
            return super::EXIT_USAGE;
        }
    };
    let cwd = std::env::current_dir().ok();
    let prefix = args.format.path_prefix(&args.path, cwd.as_deref());
    checked.project.sources.prefix_names(&prefix);
    let fail = match args.fail_level {
        Some(FailLevel::Error) => Some(Severity::Error),
        Some(FailLevel::Warning) => Some(Severity::Warning),
        Some(FailLevel::Info) => Some(Severity::Info),
        None => match checked
            .project
            .config
            .lint
            .fail_level
            .as_ref()
            .map(|l| l.value)
        {
            Some(LevelSetting::Info) => Some(Severity::Info),
            Some(LevelSetting::Warn) => Some(Severity::Warning),
            // `off`: findings never fail the run.
            Some(LevelSetting::Off) => None,
            _ => Some(Severity::Error),
        },
    };
    let out = match args.format {
        // A JUnit case fails when its finding fails the run.
        OutputFormat::Junit => {
            render::junit::render_with(&checked.diagnostics, &checked.project.sources, fail)
        }
        format => render::render(
            format,
            &checked.diagnostics,
            &checked.project.sources,
            super::stdout_color(),
        ),
    };
    print!("{out}");
    let code = if checked.io_error {
        super::EXIT_USAGE
    } else {
        match fail {
            Some(fail) if checked.diagnostics.iter().any(|d| d.severity >= fail) => 1,
            _ => 0,
        }
    };
    // The process ends right after: freeing the project, its index and its file texts one
    // allocation at a time would cost more than the rules (4% of the CPU at 10,000 tools).
    std::mem::forget(out);
    std::mem::forget(checked);
    code
}

/// Arguments of `schemarouter rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// `table` (default), `json`, or `markdown` (the text of `docs/rules.md`).
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

/// Table or JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    /// Aligned text table.
    Table,
    /// JSON array.
    Json,
    /// Markdown.
    Markdown,
}

/// Run `rules`.
pub fn run_rules(args: RulesArgs) -> u8 {
    match args.format {
        TableFormat::Table => print!("{}", rules_table()),
        TableFormat::Json => {
            let v: Vec<serde_json::Value> = RULES
                .iter()
                .map(|e| {
                    serde_json::json!({
                        "code": e.code,
                        "name": e.name,
                        "category": e.category.as_str(),
                        "default_severity": e.default_severity.as_str(),
                        "configurable": e.configurable,
                        "profiles": e.profiles(),
                        "summary": e.summary(),
                    })
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        TableFormat::Markdown => print!("{}", lint::registry::rules_markdown()),
    }
    0
}

/// The rule table printed by `schemarouter rules`.
pub fn rules_table() -> String {
    let mut out = format!(
        "{:<6}  {:<28}  {:<12}  {:<8}  {:<8}  {}\n",
        "CODE", "NAME", "CATEGORY", "LEVEL", "PROFILE", "SUMMARY"
    );
    for e in RULES {
        out.push_str(&format!(
            "{:<6}  {:<28}  {:<12}  {:<8}  {:<8}  {}\n",
            e.code,
            e.name,
            e.category.as_str(),
            e.default_severity.as_str(),
            e.profile.as_str(),
            e.summary()
        ));
    }
    out
}

/// Arguments of `schemarouter explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Rule code (`SR302`) or name (`unit-conflict`).
    pub rule: String,
}

/// Run `explain`.
pub fn run_explain(args: ExplainArgs) -> u8 {
    match lint::registry::find(&args.rule) {
        Some(e) => {
            print!("{}", e.docs());
            println!(
                "\nDefault level: {}. Category: {}. Profiles: {}.{}",
                e.default_severity,
                e.category.as_str(),
                e.profiles().join(", "),
                if e.configurable {
                    ""
                } else {
                    " Not configurable."
                }
            );
            0
        }
        None => {
            let hint = crate::model::value::did_you_mean(&args.rule, RULES.iter().map(|e| e.name))
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            super::usage_error(
                format!("unknown rule `{}`{hint}", args.rule),
                "run `schemarouter rules` for the list of codes and names",
            )
        }
    }
}

/// Arguments of `schemarouter schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// File kind.
    #[arg(value_enum)]
    pub kind: SchemaKind,
}

/// Declaration file kinds with a JSON Schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemaKind {
    /// A tool file under schemas/.
    Tool,
    /// An intent file under intents/.
    Intent,
    /// An alias file under aliases/.
    Alias,
    /// schemarouter.toml.
    Config,
    /// An Understanding (the Understand step's output, `route --understanding`).
    Understanding,
    /// A plan (the output of `route`).
    Plan,
}

/// Run `schema`.
pub fn run_schema(args: SchemaArgs) -> u8 {
    let text = match args.kind {
        SchemaKind::Tool => crate::model::json_schema(FileKind::Tool),
        SchemaKind::Intent => crate::model::json_schema(FileKind::Intent),
        SchemaKind::Alias => crate::model::json_schema(FileKind::Alias),
        SchemaKind::Config => crate::model::json_schema(FileKind::Config),
        SchemaKind::Understanding => crate::route::understanding_schema(),
        SchemaKind::Plan => crate::route::plan_schema(),
    };
    print!("{text}");
    0
}
