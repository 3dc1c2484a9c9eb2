//! `check`, `rules`, `explain` and `schema`.

use crate::diagnostics::baseline::{self, Baseline};
use crate::diagnostics::render::{self, OutputFormat};
use crate::diagnostics::{Severity, fingerprint};
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
    /// `--message-format` is the same option (the spelling `import` and cargo use).
    #[arg(long, visible_alias = "message-format", value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// Lowest severity that makes the command exit 1 (overrides `fail-level` in the config).
    #[arg(long, value_enum)]
    pub fail_level: Option<FailLevel>,
    /// Report only the findings not recorded in this baseline file (written by
    /// `--write-baseline`), and list its entries that no longer match; the exit code counts the
    /// new findings only.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// Record today's findings in this file (sorted JSON, matched by line-independent
    /// fingerprints) and exit 0; a later `check --baseline FILE` reports only new findings.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Print only the number of findings per rule (code, name, level), most frequent first.
    #[arg(long, conflicts_with = "write_baseline")]
    pub statistics: bool,
    /// Apply the safe fixes (edits to the files that cannot change what they declare), then
    /// report what remains. A file whose fixes would make the project stop loading or report a
    /// new error is left as it was.
    #[arg(long, conflicts_with_all = ["write_baseline", "add_suppressions"])]
    pub fix: bool,
    /// Also apply the unsafe fixes (those that change meaning or guess); implies `--fix`
    /// unless `--diff` is given.
    #[arg(long, conflicts_with_all = ["write_baseline", "add_suppressions"])]
    pub unsafe_fixes: bool,
    /// Print the unified diff of what `--fix` would change, write nothing; exit 1 when there
    /// would be changes, 0 when none.
    #[arg(long, conflicts_with_all = ["write_baseline", "add_suppressions"])]
    pub diff: bool,
    /// Write a suppression comment `# schemarouter: allow(<rule>) -- REASON` above every
    /// remaining finding that a comment can hide, then report what remains.
    #[arg(long, value_name = "REASON", conflicts_with_all = ["write_baseline", "baseline"])]
    pub add_suppressions: Option<String>,
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
    let editing = args.fix || args.unsafe_fixes || args.diff || args.add_suppressions.is_some();
    let mut checked = if editing {
        match super::fix::run(&args) {
            Ok(c) => c,
            Err(code) => return code,
        }
    } else {
        match lint::check_path(&args.path) {
            Ok(c) => c,
            Err(e) => {
                super::report_fatal(&e, "check", &args.path);
                return super::EXIT_USAGE;
            }
        }
    };

    if let Some(file) = &args.write_baseline {
        let code = write_baseline(&checked, file);
        std::mem::forget(checked);
        return code;
    }
    let mut note = String::new();
    if let Some(file) = &args.baseline {
        let baseline = match read_baseline(file) {
            Ok(b) => b,
            Err(code) => return code,
        };
        let fps = fingerprint::fingerprints(&checked.diagnostics, &checked.project.sources);
        let all = std::mem::take(&mut checked.diagnostics);
        let total = all.len();
        let stale;
        (checked.diagnostics, stale) = baseline.filter(all, &fps);
        note = baseline_note(total - checked.diagnostics.len(), &stale, file);
    }
    let cwd = std::env::current_dir().ok();
    let prefix = args.format.path_prefix(&args.path, cwd.as_deref());
    checked.project.sources.prefix_names(&prefix);
    let fail = fail_severity(&args, &checked);
    let out = if args.statistics {
        render::statistics::table(&checked.diagnostics)
    } else {
        render_findings(&args, &checked, fail)
    };
    print!("{out}");
    // Machine formats keep stdout one document.
    match args.format {
        OutputFormat::Human | OutputFormat::Concise if !args.statistics => print!("{note}"),
        _ => eprint!("{note}"),
    }
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

/// The lowest severity that fails the run: `--fail-level`, else `fail-level` in the config,
/// else errors; `None` when findings never fail it.
fn fail_severity(args: &CheckArgs, checked: &lint::Checked) -> Option<Severity> {
    match args.fail_level {
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
    }
}

/// The findings in the chosen format; human and concise output end with the per-rule summary
/// above the closing line.
fn render_findings(args: &CheckArgs, checked: &lint::Checked, fail: Option<Severity>) -> String {
    let diags = &checked.diagnostics;
    let sources = &checked.project.sources;
    match args.format {
        // A JUnit case fails when its finding fails the run.
        OutputFormat::Junit => render::junit::render_with(diags, sources, fail),
        format @ (OutputFormat::Human | OutputFormat::Concise) => {
            let out = render::render(format, diags, sources, super::stdout_color());
            let closing = render::human::summary_line(diags);
            match out.strip_suffix(&closing) {
                Some(body) if !diags.is_empty() => {
                    let sep = if format == OutputFormat::Human {
                        ""
                    } else {
                        "\n"
                    };
                    format!(
                        "{body}{sep}Findings per rule:\n{}{closing}",
                        render::statistics::table(diags)
                    )
                }
                _ => out,
            }
        }
        format => render::render(format, diags, sources, super::stdout_color()),
    }
}

/// `--write-baseline FILE`: record the findings (written whole or not at all); 0, or 2 when a
/// declaration file could not be read or the baseline cannot be written.
fn write_baseline(checked: &lint::Checked, file: &std::path::Path) -> u8 {
    if checked.io_error {
        return super::usage_error(
            format!(
                "a declaration file could not be read; no baseline was written to `{}`",
                file.display()
            ),
            "run `schemarouter check` to see which file, fix it, then write the baseline again",
        );
    }
    let fps = fingerprint::fingerprints(&checked.diagnostics, &checked.project.sources);
    let baseline = Baseline::of(&checked.diagnostics, &fps);
    super::clean_up_on_interrupt();
    if let Err(e) = crate::artifact::io::write_atomic(file, baseline.to_text().as_bytes()) {
        return super::usage_error(
            format!("cannot write the baseline `{}`: {e}", file.display()),
            "give a path in a folder that exists and is writable",
        );
    }
    eprintln!(
        "wrote {} finding(s) to the baseline `{}`; `schemarouter check --baseline {}` reports only new ones",
        baseline.findings.len(),
        file.display(),
        file.display()
    );
    0
}

/// Read `--baseline FILE`, or print why not and return the exit code.
fn read_baseline(file: &std::path::Path) -> Result<Baseline, u8> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        super::usage_error(
            format!("cannot read the baseline `{}`: {e}", file.display()),
            "write one with `schemarouter check --write-baseline FILE`",
        )
    })?;
    Baseline::parse(&text).map_err(|e| {
        super::usage_error(
            format!("`{}` is not a schemarouter baseline: {e}", file.display()),
            "write it again with `schemarouter check --write-baseline FILE`",
        )
    })
}

/// What `--baseline` left out: the number of findings it matched, then the entries no finding
/// matched, one line each (`file path: CODE[name] message`).
fn baseline_note(matched: usize, stale: &[baseline::Entry], file: &std::path::Path) -> String {
    let mut out = format!(
        "{matched} finding(s) recorded in the baseline `{}` not shown.\n",
        file.display()
    );
    if stale.is_empty() {
        return out;
    }
    out.push_str(&format!(
        "{} baseline {} (fixed, or the entity renamed); `--write-baseline {}` drops {}:\n",
        stale.len(),
        if stale.len() == 1 {
            "entry no longer matches"
        } else {
            "entries no longer match"
        },
        file.display(),
        if stale.len() == 1 { "it" } else { "them" }
    ));
    for e in stale {
        let place = match (e.file.as_str(), e.path.as_str()) {
            ("", _) => "<project>".to_string(),
            (f, "") => f.to_string(),
            (f, p) => format!("{f} {p}"),
        };
        out.push_str(&format!(
            "  {place}: {}[{}] {}\n",
            e.code,
            e.name,
            render::one_line(&e.message)
        ));
    }
    out
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
