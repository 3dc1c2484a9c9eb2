//! The command line (clap derive). Each subcommand is a small function over the library; nothing
//! else in the crate depends on this module.
//!
//! Exit codes: 0 clean, 1 findings at or above the fail level (or a stale artifact, or gated
//! diff changes), 2 usage or I/O error.

mod check;
mod compile;
mod derive;
pub use compile::{Stats, stats, stats_table};
mod diff;
mod eval;
mod extract;
mod fix;
mod gateway;
mod graph;
mod import;
mod locate;
mod lsp;
mod mcp;
mod route;
mod search;
mod serve;
mod synth;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Schema compiler, linter and router for agentic-RAG tool inventories.
#[derive(Debug, Parser)]
#[command(name = "schemarouter", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load a schema project and report parse, structure, reference and lint findings.
    Check(check::CheckArgs),
    /// List the lint rules.
    Rules(check::RulesArgs),
    /// Print a rule's documentation.
    Explain(check::ExplainArgs),
    /// Print a JSON Schema: a declaration file kind (tool, intent, alias, config), an
    /// Understanding, or a plan.
    Schema(check::SchemaArgs),
    /// Check, then write the frozen graph artifact and the intent-registry prompt.
    Compile(compile::CompileArgs),
    /// Node counts and routing-prompt sizes (ours vs prompt-all).
    Stats(compile::StatsArgs),
    /// Export the schema graph as Graphviz DOT, Mermaid or Cypher.
    Graph(graph::GraphArgs),
    /// Plan a query: the Understand step, then Algorithm 1 over a compiled artifact.
    Route(route::RouteArgs),
    /// Ranked endpoints for a question (BM25F over names, descriptions, parameters, response
    /// fields, concepts and aliases): load only the top k tools.
    Search(search::SearchArgs),
    /// Apply a plan to the recorded responses of its steps: only the planned fields, with unit,
    /// source type, licence and provenance (the reader context).
    Extract(extract::ExtractArgs),
    /// Compare two schema versions: breaking, dangerous and safe changes.
    Diff(diff::DiffArgs),
    /// Measure routers on a benchmark file (the paper's metrics and baselines).
    Eval(eval::EvalArgs),
    /// Write declaration files from an OpenAPI / Swagger document, an MCP server's tool list or
    /// an OpenAI / Anthropic function-tool list.
    Import(import::ImportArgs),
    /// Derive the concept layer (concepts, aliases, identifier fields, field groups, parameter
    /// bindings, intents) from the tools' names, descriptions and schemas, into files a person
    /// can edit.
    Derive(derive::DeriveArgs),
    /// Generate a synthetic inventory of N tools (for scaling measurements).
    #[command(name = "gen")]
    Gen(synth::GenArgs),
    /// Serve the HTTP JSON API over one loaded artifact (route, intents, prompt, tools,
    /// health, metrics, OpenAPI), reloading it when the file is replaced.
    Serve(serve::ServeArgs),
    /// Serve MCP (tools route, search_tools, explain_plan, list_intents; the prompt and artifact resources;
    /// the Understand-step prompt) over stdio or streamable HTTP.
    Mcp(mcp::McpArgs),
    /// Serve MCP (stdio or HTTP) and the HTTP API with execution: `call` and `ask` run the
    /// planned endpoints upstream (MCP servers, HTTP APIs) and return only the planned fields
    /// with their reader context and token accounting.
    Gateway(gateway::GatewayArgs),
    /// The language server (LSP over stdio) for declaration files: diagnostics as you type,
    /// hover, go to definition, references, completion and code actions.
    Lsp(lsp::LspArgs),
}

/// Exit code for usage and I/O errors.
pub const EXIT_USAGE: u8 = 2;

/// Print an error and its help line; returns [`EXIT_USAGE`].
pub(crate) fn usage_error(error: impl std::fmt::Display, help: impl std::fmt::Display) -> u8 {
    eprintln!("error: {error}");
    eprintln!("help: {help}");
    EXIT_USAGE
}

/// From now on, an interruption (Ctrl-C, `SIGTERM`, `SIGHUP`) of a command that writes files
/// removes the temporary files it is writing, once a rename in progress has put its files in
/// place, and ends the process with 128 + the signal's number (see
/// [`crate::artifact::io::abandon_writes`]); without it, the signal ends the process at once
/// and leaves them for the next run to remove. Installed once; when the handlers cannot be
/// installed, the signals keep their default action.
pub(crate) fn clean_up_on_interrupt() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        // The handlers are in place before this returns (before any file is written).
        #[cfg(unix)]
        let waiting = {
            use tokio::signal::unix::{SignalKind, signal};
            let _entered = rt.enter();
            let (Ok(mut int), Ok(mut term), Ok(mut hup)) = (
                signal(SignalKind::interrupt()),
                signal(SignalKind::terminate()),
                signal(SignalKind::hangup()),
            ) else {
                return;
            };
            async move {
                tokio::select! {
                    _ = int.recv() => 130,
                    _ = term.recv() => 143,
                    _ = hup.recv() => 129,
                }
            }
        };
        #[cfg(not(unix))]
        let waiting = async {
            let _ = tokio::signal::ctrl_c().await;
            130
        };
        let spawned = std::thread::Builder::new()
            .name("interrupt".to_string())
            .spawn(move || {
                let code = rt.block_on(waiting);
                let removed = crate::artifact::io::abandon_writes();
                if !removed.is_empty() {
                    eprintln!(
                        "interrupted: removed {} temporary file(s); the files being written are as they were",
                        removed.len()
                    );
                }
                std::process::exit(code);
            });
        drop(spawned);
    });
}

/// The help line for an artifact that cannot be loaded from `path`.
pub(crate) fn artifact_help(path: &std::path::Path) -> &'static str {
    if path.exists() {
        "pass a `graph.json` or `graph.bin` written by `schemarouter compile`; compile the project again if the file is stale or damaged"
    } else {
        "check the path, or compile the project first (`schemarouter compile PROJECT` writes PROJECT/build/graph.json)"
    }
}

/// Print a project that cannot be loaded at all (`error:` and `help:`); `command` is the
/// subcommand run on `path`. A folder inside a project (or a file) gets the command to run on
/// the enclosing project instead of the general help.
pub(crate) fn report_fatal(e: &crate::load::FatalError, command: &str, path: &std::path::Path) {
    use crate::load::FatalKind;
    eprintln!("error: {}", e.message);
    if matches!(e.kind, FatalKind::NotAProject | FatalKind::NotAFolder) {
        let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("."));
        if let Some(root) = locate::enclosing_project(path, &cwd) {
            eprintln!(
                "help: `{}` lies inside the schema project `{root}`: run `schemarouter {command} {root}`",
                path.display()
            );
            return;
        }
    }
    eprintln!("help: {}", e.help);
}

/// Entry point with no process set-up of its own (see [`main_with`]).
pub fn main() -> ExitCode {
    main_with(|| {})
}

/// Entry point used by `src/main.rs`. `long_running` is called before a command that serves
/// until it is stopped (`serve`, `mcp`) starts: the binary's allocator keeps freed memory for
/// the one-shot commands and gives it back to the system in a server (see `src/main.rs`).
pub fn main_with(long_running: fn()) -> ExitCode {
    quiet_on_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
            if e.kind() == clap::error::ErrorKind::DisplayHelp {
                use clap::CommandFactory;
                let import = Cli::command()
                    .find_subcommand("import")
                    .cloned()
                    .and_then(|c| import::kind_help(&argv, c));
                if let Some(mut c) = import {
                    let long = argv.iter().any(|a| a == "--help");
                    let _ = if long {
                        c.print_long_help()
                    } else {
                        c.print_help()
                    };
                    return ExitCode::from(0);
                }
            }
            if e.use_stderr() && import::wants_json(&argv) {
                // `import --message-format json` refuses bad arguments in JSON too.
                let text = e.render().to_string();
                let first = text.lines().next().unwrap_or_default();
                let error = first.strip_prefix("error: ").unwrap_or(first);
                println!(
                    "{}",
                    import::refusal_json(
                        error,
                        "run `schemarouter import --help` for the arguments"
                    )
                );
            }
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    crate::load::set_progress(stderr_progress());
    if matches!(
        cli.command,
        Command::Serve(_) | Command::Mcp(_) | Command::Gateway(_) | Command::Lsp(_)
    ) {
        long_running();
    }
    let code = match cli.command {
        Command::Check(a) => check::run_check(a),
        Command::Rules(a) => check::run_rules(a),
        Command::Explain(a) => check::run_explain(a),
        Command::Schema(a) => check::run_schema(a),
        Command::Compile(a) => compile::run_compile(a),
        Command::Stats(a) => compile::run_stats(a),
        Command::Graph(a) => graph::run_graph(a),
        Command::Route(a) => route::run_route(a),
        Command::Search(a) => search::run_search(a),
        Command::Extract(a) => extract::run_extract(a),
        Command::Diff(a) => diff::run_diff(a),
        Command::Eval(a) => eval::run_eval(a),
        Command::Import(a) => import::run_import(a),
        Command::Derive(a) => derive::run_derive(a),
        Command::Gen(a) => synth::run_gen(a),
        Command::Serve(a) => serve::run_serve(a),
        Command::Mcp(a) => mcp::run_mcp(a),
        Command::Gateway(a) => gateway::run_gateway(a),
        Command::Lsp(a) => lsp::run_lsp(a),
    };
    ExitCode::from(code)
}

/// A closed stdout (`schemarouter graph | head`) is not an error: exit quietly instead of
/// panicking in `print!`.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("Broken pipe") || msg.contains("os error 32") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// Whether progress bars may be drawn: stderr is a terminal and `CI` is not set.
pub(crate) fn stderr_progress() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// Whether to colour output written to stdout.
pub(crate) fn stdout_color() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}
