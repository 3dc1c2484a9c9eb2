//! `schemarouter import openapi|mcp|openai SOURCE...`: write declaration files from the tool
//! catalogs people already have.

use crate::diagnostics::render::{OutputFormat, render};
use crate::diff::render::{DiffFormat, RenderOptions};
use crate::import::run::{FileStatus, Kind};
use crate::import::{ImportRequest, OnlyGlobs, Options, SourceSpec, mcp_client};
use crate::source::Format;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

/// What the source is.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum KindArg {
    /// An OpenAPI 3.0 / 3.1 or Swagger 2.0 document (JSON or YAML).
    Openapi,
    /// An MCP `tools/list` result saved to a file, or a live server (`--command`, `--url`).
    Mcp,
    /// An OpenAI or Anthropic function-tool list (JSON).
    Openai,
}

/// File format of the declarations written.
#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum FileFormat {
    /// YAML (default).
    #[default]
    Yaml,
    /// TOML.
    Toml,
}

/// How findings and the summary are printed.
#[derive(Clone, Copy, Debug, Default, ValueEnum, PartialEq, Eq)]
pub enum MessageFormat {
    /// Code frames with carets and help (default).
    #[default]
    Human,
    /// One line per finding.
    Concise,
    /// One JSON document: files, findings and upstream changes.
    Json,
}

/// Arguments of `import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// What the sources are.
    #[arg(value_enum)]
    pub kind: KindArg,
    /// Source files (one tool each).
    pub sources: Vec<PathBuf>,
    /// `mcp`: start this MCP server on stdio and read its tools (`"npx -y @modelcontextprotocol/server-memory"`).
    #[arg(long, value_name = "CMD ARGS...")]
    pub command: Option<String>,
    /// `mcp`: read the tools of this streamable-HTTP MCP server.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The project folder (default: the current folder; created when missing).
    #[arg(long, default_value = ".")]
    pub project: PathBuf,
    /// Tool id (default: from the source's title).
    #[arg(long)]
    pub tool: Option<String>,
    /// Domain id (default: the tool id; declared under `intents/` when the project lacks it).
    #[arg(long)]
    pub domain: Option<String>,
    /// Where tool files go (default: the project's `schemas/`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Import only endpoints whose id, source name (operationId, MCP tool name) or path matches
    /// this glob; give it more than once to import what any of the globs matches.
    #[arg(long, value_name = "GLOB")]
    pub only: Vec<String>,
    /// Print what would change; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Format of new declaration files (existing files keep theirs).
    #[arg(long, value_enum, default_value_t)]
    pub format: FileFormat,
    /// How findings and the summary are printed.
    #[arg(long, value_enum, default_value_t)]
    pub message_format: MessageFormat,
    /// Seconds a live MCP server has to answer `initialize` and `tools/list`.
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
    /// The folder file `$ref`s may point into (default: the git work tree holding the
    /// document, else the document's folder). A reference that leads out of it
    /// (`../../secrets.yaml`) is refused.
    #[arg(long, value_name = "DIR")]
    pub ref_root: Option<PathBuf>,
    /// Do not derive the concept layer (concepts, aliases, identifiers, groups, intents) after
    /// importing; `schemarouter derive` does it later.
    #[arg(long)]
    pub no_derive: bool,
}

/// The help of one importer (`import openapi --help`): what it reads and writes, its own
/// options only (`--command`, `--url` and `--timeout` are the MCP importer's; `--ref-root` is
/// the OpenAPI importer's), under the name `import KIND`. `None` unless `argv` is `import KIND`
/// with `-h` or `--help` and KIND one of the importers.
pub fn kind_help(argv: &[std::ffi::OsString], import: clap::Command) -> Option<clap::Command> {
    let words: Vec<&str> = argv.iter().skip(1).filter_map(|a| a.to_str()).collect();
    if words.first() != Some(&"import") || !words.iter().any(|w| matches!(*w, "-h" | "--help")) {
        return None;
    }
    let kind = words
        .iter()
        .skip(1)
        .find(|w| !w.starts_with('-'))
        .and_then(|w| KindArg::from_str(w, true).ok())?;
    let (name, about, long, hidden): (&str, &str, &str, &[&str]) = match kind {
        KindArg::Openapi => (
            "import openapi",
            "Write declaration files from OpenAPI 3.0 / 3.1 or Swagger 2.0 documents (JSON or YAML)",
            "Write declaration files from OpenAPI 3.0 / 3.1 or Swagger 2.0 documents (JSON or YAML), \
             one tool per document: an endpoint per operation (its id from the operationId, else \
             the method and path), its parameters (path, query, header and body; security schemes \
             as credentials), and the response fields of its JSON success response. The tool id \
             is `--tool`, else the provider (`info.x-providerName`, else the server's host) and \
             service (`info.x-serviceName`); its names keep their spellings and the title's \
             leading words. `$ref`s into other files stay inside `--ref-root`. The concept layer \
             is derived after (`--no-derive` leaves it).",
            &["command", "url", "timeout"],
        ),
        KindArg::Mcp => (
            "import mcp",
            "Write declaration files from an MCP server's tools: a saved `tools/list` result, or a live server (`--command`, `--url`)",
            "Write declaration files from an MCP server's tools: a saved `tools/list` result (a \
             file), or a live server started with `--command` (stdio) or reached at `--url` \
             (streamable HTTP), which has `--timeout` seconds to answer. One tool per server, an \
             endpoint per MCP tool, its parameters from the input schema and its fields from the \
             output schema. The concept layer is derived after (`--no-derive` leaves it).",
            &["ref_root"],
        ),
        KindArg::Openai => (
            "import openai",
            "Write declaration files from an OpenAI or Anthropic function-tool list (JSON)",
            "Write declaration files from an OpenAI or Anthropic function-tool list (JSON): one \
             tool per file, an endpoint per function, its parameters from the JSON Schema of its \
             arguments. The concept layer is derived after (`--no-derive` leaves it).",
            &["command", "url", "timeout", "ref_root"],
        ),
    };
    let mut cmd = import
        .name(name)
        .bin_name(format!("schemarouter {name}"))
        .about(about)
        .long_about(long)
        .override_usage(format!("schemarouter {name} [OPTIONS] [SOURCES]..."))
        .mut_arg("kind", |a| a.hide(true).index(1))
        .mut_arg("sources", |a| a.index(2));
    for id in hidden {
        cmd = cmd.mut_arg(*id, |a| a.hide(true));
    }
    Some(cmd)
}

/// Run `import`.
pub fn run_import(args: ImportArgs) -> u8 {
    super::clean_up_on_interrupt();
    let kind = kind_of(args.kind);
    let (sources, only) = match check_arguments(&args) {
        Ok(v) => v,
        Err((error, help)) => return refuse(args.message_format, error, help),
    };
    let req = ImportRequest {
        kind,
        sources,
        project: args.project.clone(),
        out: args.out.clone(),
        format: match args.format {
            FileFormat::Yaml => Format::Yaml,
            FileFormat::Toml => Format::Toml,
        },
        options: Options {
            tool: args.tool.clone(),
            domain: args.domain.clone(),
            only,
            source_stem: String::new(),
            ref_root: args.ref_root.clone(),
        },
        dry_run: args.dry_run,
        timeout: Duration::from_secs(args.timeout.max(1)),
        derive: !args.no_derive,
    };
    let outcome = match crate::import::run(&req) {
        Ok(o) => o,
        Err(e) => {
            return refuse(args.message_format, e.message, e.help);
        }
    };
    let refused = outcome.refused();
    if args.message_format == MessageFormat::Json {
        let findings: serde_json::Value = serde_json::from_str(&render(
            OutputFormat::Json,
            &outcome.findings,
            &outcome.sources,
            false,
        ))
        .unwrap_or(serde_json::Value::Null);
        let files: Vec<serde_json::Value> = outcome
            .files
            .iter()
            .map(|f| {
                serde_json::json!({
                    "path": f.path.display().to_string(),
                    "tool": f.tool,
                    "status": match f.status { FileStatus::New => "new", FileStatus::Updated => "updated", FileStatus::Unchanged => "unchanged" },
                    "endpoints": f.counts.0,
                    "parameters": f.counts.1,
                    "fields": f.counts.2,
                    "changes": f.changes.as_ref().map(|r| serde_json::to_value(r).unwrap_or_default()),
                })
            })
            .collect();
        let doc = serde_json::json!({
            "refused": refused,
            "dry_run": args.dry_run,
            "written": outcome.written,
            "files": files,
            "support_files": outcome.support_files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "notes": outcome.notes,
            "findings": findings,
            "derived": outcome.derived.as_ref().map(|d| serde_json::to_value(d).unwrap_or_default()),
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return if refused { 1 } else { 0 };
    }
    let color = super::stdout_color();
    if !outcome.findings.is_empty() {
        let f = match args.message_format {
            MessageFormat::Concise => OutputFormat::Concise,
            _ => OutputFormat::Human,
        };
        // A refused import shows what refused it; the other findings would change anyway.
        let shown: Vec<_> = if refused {
            outcome
                .findings
                .iter()
                .filter(|d| d.severity == crate::diagnostics::Severity::Error)
                .cloned()
                .collect()
        } else {
            outcome.findings.clone()
        };
        eprint!("{}", render(f, &shown, &outcome.sources, color));
    }
    if refused {
        eprintln!("import refused: nothing was written (fix the errors above, then import again)");
        return 1;
    }
    let verb = if args.dry_run { "would write" } else { "wrote" };
    for f in &outcome.files {
        // A dry run says what it would do, in the tense of what it would do.
        let status = match (f.status, args.dry_run) {
            (FileStatus::New, false) => "new",
            (FileStatus::Updated, false) => "updated",
            (FileStatus::New, true) => "would add",
            (FileStatus::Updated, true) => "would update",
            (FileStatus::Unchanged, _) => "unchanged",
        };
        println!(
            "{status:<9} {}  ({}: {} endpoint(s), {} parameter(s), {} field(s))",
            f.path.display(),
            f.tool,
            f.counts.0,
            f.counts.1,
            f.counts.2
        );
        if let Some(r) = &f.changes {
            let text = crate::diff::render::render(
                DiffFormat::Human,
                r,
                RenderOptions {
                    fail_on: crate::diff::FailOn::None,
                    color,
                },
            );
            println!("  upstream changes:");
            for l in text.lines().filter(|l| !l.contains("(--fail-on ")) {
                println!("    {l}");
            }
        }
    }
    for p in &outcome.support_files {
        println!("{verb:<9} {}", p.display());
    }
    for n in &outcome.notes {
        println!("note: {n}");
    }
    if let Some(d) = &outcome.derived {
        let tools: Vec<&str> = outcome.files.iter().map(|f| f.tool.as_str()).collect();
        super::derive::print_files(d, args.dry_run, |what| {
            tools.iter().any(|t| what == format!("tool `{t}`"))
        });
        super::derive::print_summary(d);
    }
    if args.dry_run {
        println!("dry run: nothing was written");
    } else if outcome.written {
        println!(
            "next: `schemarouter check {}` lists what is wrong; with `[lint] profile = \"standard\"` also what a person may add (units, licence verification, source type, ...)",
            args.project.display()
        );
    }
    0
}

fn kind_of(kind: KindArg) -> Kind {
    match kind {
        KindArg::Openapi => Kind::OpenApi,
        KindArg::Mcp => Kind::Mcp,
        KindArg::Openai => Kind::OpenAi,
    }
}

/// A refusal before anything is written (bad arguments, or an import that cannot run): with
/// `--message-format json` the JSON document `{"refused": true, "written": false, "error",
/// "help"}` on stdout, and always `error:` / `help:` on stderr. Returns the usage exit code.
fn refuse(format: MessageFormat, error: impl Into<String>, help: impl Into<String>) -> u8 {
    let (error, help) = (error.into(), help.into());
    if format == MessageFormat::Json {
        println!("{}", refusal_json(&error, &help));
    }
    super::usage_error(error, help)
}

/// The JSON document of a refused import (pretty-printed, no final line feed).
pub(crate) fn refusal_json(error: &str, help: &str) -> String {
    let doc = serde_json::json!({"refused": true, "written": false, "error": error, "help": help});
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// Whether a command line that clap refused asked for `import ... --message-format json`: its
/// error is then printed as the JSON refusal too (see [`super::main_with`]).
pub(crate) fn wants_json(argv: &[std::ffi::OsString]) -> bool {
    let words: Vec<&str> = argv.iter().skip(1).filter_map(|a| a.to_str()).collect();
    let is_import = words.iter().find(|w| !w.starts_with('-')) == Some(&"import");
    is_import
        && (words.contains(&"--message-format=json")
            || words
                .windows(2)
                .any(|w| w[0] == "--message-format" && w[1] == "json"))
}

/// The sources and `--only` globs the arguments give, or the error and help line that refuse
/// them (found before the import starts).
fn check_arguments(
    args: &ImportArgs,
) -> Result<(Vec<SourceSpec>, Option<OnlyGlobs>), (String, String)> {
    let kind = kind_of(args.kind);
    let err = |e: String, h: &str| Err((e, h.to_string()));
    let mut sources: Vec<SourceSpec> = args.sources.iter().cloned().map(SourceSpec::File).collect();
    if args.command.is_some() && args.url.is_some() {
        return err(
            "give either `--command` or `--url`, not both".into(),
            "import one server per run",
        );
    }
    if (args.command.is_some() || args.url.is_some()) && !args.sources.is_empty() {
        return err(
            "give either source files or a live server (`--command` / `--url`), not both".into(),
            "import them in separate runs",
        );
    }
    if args.command.is_some() || args.url.is_some() {
        if kind != Kind::Mcp {
            return err(
                "`--command` and `--url` are for `import mcp`".into(),
                "run `schemarouter import mcp --command ...` (or `--url ...`) to import a live server",
            );
        }
        if let Some(c) = &args.command {
            if c.trim().is_empty() {
                return err(
                    "`--command` is empty".into(),
                    "give the command line that starts the server, e.g. --command \"npx -y @modelcontextprotocol/server-memory\"",
                );
            }
            sources.push(SourceSpec::Live(mcp_client::Server::Command(c.clone())));
        }
        if let Some(u) = &args.url {
            if !(u.starts_with("http://") || u.starts_with("https://")) {
                return err(
                    format!("`--url {u}` is not an http(s) URL"),
                    "give the server's streamable-HTTP endpoint, e.g. --url https://example.com/mcp or --url http://127.0.0.1:8000/mcp",
                );
            }
            sources.push(SourceSpec::Live(mcp_client::Server::Url(u.clone())));
        }
    }
    if sources.is_empty() {
        let what = match kind {
            Kind::Mcp => "a saved tools/list file, or --command / --url",
            _ => "a source file",
        };
        return err(
            format!("nothing to import: give {what}"),
            "e.g. `schemarouter import openapi openapi.yaml --project my-tools` (`schemarouter import --help` lists the forms)",
        );
    }
    let only = if args.only.is_empty() {
        None
    } else {
        match OnlyGlobs::new(&args.only) {
            Ok(g) => Some(g),
            Err((g, e)) => {
                return err(
                    format!("`--only {g}` is not a glob: {e}"),
                    "give a glob over endpoint ids or operation names, e.g. --only 'list_*'",
                );
            }
        }
    };
    for (flag, v) in [("--tool", &args.tool), ("--domain", &args.domain)] {
        if let Some(v) = v
            && (!v.starts_with(|c: char| c.is_alphanumeric())
                || v.chars()
                    .any(|c| !(c.is_alphanumeric() || "_-.".contains(c))))
        {
            return err(
                format!("`{flag} {v}` is not an id"),
                "ids start with a letter or digit and use letters, digits, `_`, `-` and `.`",
            );
        }
    }
    Ok((sources, only))
}
