//! `route`: the Understand step and Algorithm 1 on one query.

use crate::artifact::FrozenGraph;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::llm::Llm;
use crate::route::analyzer::{Analysis, Analyzer};
use crate::route::{self, Options, Projection, Understanding, explain};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

/// `--projection`: the command line's face of the core's [`Projection`] (the core crate does
/// not depend on clap). The variants and their documentation are the core's, one for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProjectionArg {
    /// identifiers ∪ concept matches ∪ intent group fields (the paper's recall-first
    /// projection).
    Recall,
    /// identifiers ∪ concept matches.
    Minimal,
    /// identifiers ∪ concept matches ∪, when some requested concept is not matched on the step
    /// (or none is requested), the core fields of the intent's groups (fields carrying one of
    /// the group's declared `core` concepts; every field of a group that declares none). The default: the paper's safety net at a
    /// fraction of its context.
    Core,
    /// every field of the chosen endpoint (the no-field-projection ablation).
    All,
}

impl From<ProjectionArg> for Projection {
    fn from(p: ProjectionArg) -> Projection {
        match p {
            ProjectionArg::Recall => Projection::Recall,
            ProjectionArg::Minimal => Projection::Minimal,
            ProjectionArg::Core => Projection::Core,
            ProjectionArg::All => Projection::All,
        }
    }
}

/// Arguments of `schemarouter route`.
#[derive(Debug, Args)]
pub struct RouteArgs {
    /// The question (omit with --understanding).
    pub query: Option<String>,
    /// Compiled artifact [default: `build/graph.bin` or `build/graph.json` of the project
    /// holding the working directory, the newer of the two; see `compile`].
    #[arg(long)]
    pub artifact: Option<PathBuf>,
    /// Skip the Understand step: read an Understanding JSON file (`-` for stdin).
    #[arg(long, conflicts_with_all = ["query", "llm_url"])]
    pub understanding: Option<PathBuf>,
    /// OpenAI-compatible server for the LLM Understand step (e.g. http://127.0.0.1:8000/v1).
    #[arg(long, requires = "llm_model")]
    pub llm_url: Option<String>,
    /// Model name for --llm-url.
    #[arg(long, requires = "llm_url")]
    pub llm_model: Option<String>,
    /// Seconds before an LLM request times out.
    #[arg(long, default_value_t = 30)]
    pub llm_timeout: u64,
    /// Environment variable holding the LLM API key (sent as a bearer token).
    #[arg(long, requires = "llm_url")]
    pub llm_key_env: Option<String>,
    /// Tools to plan when none is named (at least 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub k: u64,
    /// Field projection variant.
    #[arg(long, value_enum, default_value_t = ProjectionArg::Core)]
    pub projection: ProjectionArg,
    /// Ignore the source constraint (ablation).
    #[arg(long)]
    pub no_source_routing: bool,
    /// Do not attach unit, source type, licence and provenance (ablation).
    #[arg(long)]
    pub no_metadata: bool,
    /// Human-readable explanation instead of JSON.
    #[arg(long, conflicts_with = "json")]
    pub explain: bool,
    /// JSON even on a terminal.
    #[arg(long)]
    pub json: bool,
}

/// Run `route`.
pub fn run_route(mut args: RouteArgs) -> u8 {
    let artifact = match super::locate::artifact(args.artifact.take().as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Err(code) = super::locate::refuse_broken_config(&artifact) {
        return code;
    }
    let g = match FrozenGraph::load_routing_lazy(&artifact) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {}: {e}", artifact.display());
            eprintln!("help: {}", e.help());
            return super::EXIT_USAGE;
        }
    };
    crate::search::dense::activate_or_warn(&g, Some(&artifact));
    // Tools and index entries of a compact JSON artifact are parsed as routing reads them; one
    // that does not fit its type ends the routing here (see `artifact::reading`).
    let code = match crate::artifact::reading(|| route_loaded(&g, &args, &artifact)) {
        Ok(code) => code,
        Err(e) => {
            let e = crate::artifact::LoadError::Malformed(e);
            eprintln!("error: {}: {e}", artifact.display());
            eprintln!("help: {}", e.help());
            super::EXIT_USAGE
        }
    };
    // The process ends right after: leave the artifact to the operating system.
    std::mem::forget(g);
    code
}

/// `route` over a loaded artifact: the Understand step, Algorithm 1, the output; the exit code.
fn route_loaded(g: &FrozenGraph, args: &RouteArgs, artifact: &std::path::Path) -> u8 {
    let analysis = match (&args.understanding, &args.query) {
        (Some(path), _) => {
            let shown = if path.as_os_str() == "-" {
                "<stdin>".to_string()
            } else {
                path.display().to_string()
            };
            let limit = schemarouter_core::input::MAX_INPUT_BYTES;
            let bytes = if path.as_os_str() == "-" {
                schemarouter_core::input::read_limited(std::io::stdin().lock(), limit)
            } else {
                schemarouter_core::input::read_file_limited(path, limit)
            };
            let bytes = match bytes {
                Ok(b) => b,
                Err(e) => {
                    return super::usage_error(
                        format!("cannot read `{shown}`: {e}"),
                        if e.kind() == std::io::ErrorKind::InvalidData {
                            "an Understanding is one small JSON object; pass the file that holds it"
                        } else {
                            "check the path of --understanding (`-` reads the Understanding from standard input)"
                        },
                    );
                }
            };
            let text = match String::from_utf8(bytes) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!(
                        "error: {shown}: not a valid Understanding: not UTF-8 (first bad byte at offset {})",
                        e.utf8_error().valid_up_to()
                    );
                    eprintln!("help: save the file as UTF-8");
                    return super::EXIT_USAGE;
                }
            };
            match parse_understanding(&text) {
                Ok(u) => Analysis {
                    understanding: u,
                    warnings: Vec::new(),
                },
                Err(e) => {
                    eprintln!("error: {shown}:{e}");
                    eprintln!("help: {UNDERSTANDING_HELP}");
                    return super::EXIT_USAGE;
                }
            }
        }
        (None, Some(q)) if q.trim().is_empty() => {
            eprintln!("error: the query is empty");
            eprintln!(
                "help: give a question, e.g. `schemarouter route \"{}\"`, or an Understanding with `--understanding FILE`",
                g.example_question()
            );
            return super::EXIT_USAGE;
        }
        (None, Some(q)) if q.chars().count() > MAX_QUESTION_CHARS => {
            eprintln!(
                "error: the query is {} characters long; `route` takes one question of at most {MAX_QUESTION_CHARS} characters",
                q.chars().count()
            );
            eprintln!(
                "help: ask one question at a time (a routed question is a sentence or two, not a document)"
            );
            return super::EXIT_USAGE;
        }
        (None, Some(q)) => {
            let mut tried: Option<String> = None;
            let result = match (&args.llm_url, &args.llm_model) {
                (Some(url), Some(model)) => {
                    let (prompt, _) = crate::prompt::read_beside(artifact, g);
                    let key = args
                        .llm_key_env
                        .as_ref()
                        .and_then(|k| std::env::var(k).ok());
                    let llm = Llm::new(
                        g,
                        url,
                        model,
                        prompt,
                        Duration::from_secs(args.llm_timeout),
                        key,
                    );
                    tried = Some(format!(
                        "POST {} (model `{model}`, timeout {} s{})",
                        llm.endpoint(),
                        args.llm_timeout,
                        match &args.llm_key_env {
                            Some(k) if std::env::var(k).is_ok() =>
                                format!(", bearer token from ${k}"),
                            Some(k) => format!(", no bearer token: ${k} is not set"),
                            None => String::new(),
                        }
                    ));
                    llm.understand(q)
                }
                _ => Lexical::new(g).understand(q),
            };
            match result {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("error: the LLM Understand step failed: {e}");
                    if let Some(t) = tried {
                        eprintln!("  tried: {t}");
                    }
                    eprintln!(
                        "help: check that an OpenAI-compatible server answers at --llm-url (its base, e.g. http://127.0.0.1:8000/v1) and serves --llm-model; or drop --llm-url to use the offline lexical Understand step, or write the Understanding yourself and pass --understanding FILE"
                    );
                    return super::EXIT_USAGE;
                }
            }
        }
        (None, None) => {
            return super::usage_error(
                "give a query or --understanding FILE",
                format!(
                    "e.g. `schemarouter route \"{}\"`, or `schemarouter route --understanding u.json`",
                    g.example_question()
                ),
            );
        }
    };
    let opts = Options {
        k: args.k as usize,
        projection: args.projection.into(),
        source_routing: !args.no_source_routing,
        metadata: !args.no_metadata,
    };
    // A question no declared intent covers is planned from the ranked endpoints; with only an
    // Understanding, its own words are ranked.
    let question = args
        .query
        .clone()
        .unwrap_or_else(|| route::ranked::question_of(&analysis.understanding));
    let mut plan = route::route_question(g, &question, &analysis.understanding, &opts);
    route::with_analysis_warnings(g, analysis.warnings, &mut plan);
    // The Understanding read from the question is reported with the values the plan bound; one
    // given with --understanding is printed as given.
    let understanding = if args.understanding.is_some() {
        analysis.understanding.clone()
    } else {
        route::understood(&analysis.understanding, &plan)
    };
    let human = args.explain || (!args.json && std::io::stdout().is_terminal());
    if human {
        let u = &understanding;
        println!(
            "Understanding: intent={} concepts=[{}] parameters={} tools=[{}] source={}",
            u.intent.as_deref().unwrap_or("null"),
            u.domain_concepts.join(", "),
            serde_json::to_string(&u.parameters).unwrap_or_default(),
            u.target_apis.join(", "),
            u.source_constraint.as_deref().unwrap_or("null")
        );
        print!("{}", explain::explain(&plan));
    } else {
        let out = serde_json::json!({
            "understanding": understanding,
            "plan": plan,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    }
    0
}

/// The longest question `route` accepts, in characters: the lexical Understand step is meant for a
/// sentence or two, and its cost grows faster than the length.
const MAX_QUESTION_CHARS: usize = 10_000;

const UNDERSTANDING_HELP: &str = "an Understanding is one JSON object: {\"intent\": <intent id or null>, \"domain_concepts\": [...], \"parameters\": {...}, \"target_apis\": [...], \"source_constraint\": <source type or null>} (`schemarouter schema understanding`)";

/// Read an Understanding file's text: one JSON object (a UTF-8 byte-order mark is skipped). The
/// error is `LINE:COL: message`, ready to follow the file name.
fn parse_understanding(text: &str) -> Result<Understanding, String> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let at = |e: &serde_json::Error| {
        // serde_json counts columns in bytes and reports column 0 at a line end.
        format!("{}:{}", e.line(), e.column().max(1))
    };
    let value: serde_json::Value = serde_json::from_str(body).map_err(|e| {
        format!(
            "{}: not a valid Understanding: {}",
            at(&e),
            strip_position(&e)
        )
    })?;
    if !value.is_object() {
        let found = match value {
            serde_json::Value::Null => "null",
            serde_json::Value::Bool(_) => "a boolean",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::Object(_) => unreachable!(),
        };
        let start = body.len() - body.trim_start().len();
        let line = body[..start].matches('\n').count() + 1;
        let col = start - body[..start].rfind('\n').map_or(0, |i| i + 1) + 1;
        return Err(format!(
            "{line}:{col}: not a valid Understanding: expected a JSON object, found {found}"
        ));
    }
    // A repeated key (two `formula` parameters) would keep only the last value without a word.
    schemarouter_core::json::check_no_repeated_keys(body.as_bytes()).map_err(|e| {
        format!(
            "{}: not a valid Understanding: {}",
            at(&e),
            strip_position(&e)
        )
    })?;
    // Parsed again from the text (not the value) so errors keep their line and column.
    serde_json::from_str::<Understanding>(body).map_err(|e| {
        format!(
            "{}: not a valid Understanding: {}",
            at(&e),
            strip_position(&e)
        )
    })
}

/// A serde_json error's message without its trailing " at line L column C".
fn strip_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::parse_understanding;

    #[test]
    fn understanding_files() {
        let u = parse_understanding("\u{feff}{\"intent\": \"x\", \"domain_concepts\": [\"y\"]}")
            .unwrap();
        assert_eq!(u.intent.as_deref(), Some("x"));
        assert_eq!(
            parse_understanding("[\"x\", [], {}, [], null]").unwrap_err(),
            "1:1: not a valid Understanding: expected a JSON object, found an array"
        );
        assert_eq!(
            parse_understanding("\n  []").unwrap_err(),
            "2:3: not a valid Understanding: expected a JSON object, found an array"
        );
        assert_eq!(
            parse_understanding("{\"intent\": 5}").unwrap_err(),
            "1:12: not a valid Understanding: invalid type: integer `5`, expected a string"
        );
        assert_eq!(
            parse_understanding("{\"intent\": \"x\",\n").unwrap_err(),
            "2:1: not a valid Understanding: EOF while parsing a value"
        );
        assert_eq!(
            parse_understanding(
                "{\"intent\": \"x\", \"parameters\": {\"formula\": \"GaN\",\n  \"formula\": \"GaAs\"}}"
            )
            .unwrap_err(),
            "2:11: not a valid Understanding: duplicate key `formula`"
        );
    }
}
