//! `extract`: apply a plan to the recorded responses of its steps and print the reader context
//! (or the structured result with `--json`).

use crate::artifact::FrozenGraph;
use crate::extract::report::IssueKind;
use crate::extract::{self, Document, Extraction, parse_plan, parse_step_response};
use clap::Args;
use std::path::{Path, PathBuf};

/// Arguments of `schemarouter extract`.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The plan: what `route --json` prints, or its `plan` object.
    #[arg(long)]
    pub plan: PathBuf,
    /// A step's response: `STEP=FILE`, where STEP is the step number (1-based), the tool id or
    /// `tool/endpoint`; one per step. FILE is a JSON or XML body.
    #[arg(long = "response", value_name = "STEP=FILE", required = true)]
    pub responses: Vec<String>,
    /// Compiled artifact the plan was made from [default: `build/graph.bin` or
    /// `build/graph.json` of the project holding the working directory, the newer of the two;
    /// see `compile`].
    #[arg(long)]
    pub artifact: Option<PathBuf>,
    /// Print the structured result (records with per-field metadata, issues, reader context and
    /// its token count) as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Run `extract`. Exit 0 when every planned field was found with its declared type, 1 when the
/// report has findings (missing fields, typed mismatches, shape problems), 2 for usage and input
/// errors.
pub fn run_extract(mut args: ExtractArgs) -> u8 {
    let artifact = match super::locate::artifact(args.artifact.take().as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Err(code) = super::locate::refuse_broken_config(&artifact) {
        return code;
    }
    match run(&args, &artifact) {
        Ok(x) => {
            if args.json {
                match serde_json::to_string_pretty(&x) {
                    Ok(s) => println!("{s}"),
                    Err(e) => {
                        return super::usage_error(
                            e,
                            "please report this with the plan and responses",
                        );
                    }
                }
            } else {
                print!("{}", x.context);
            }
            let mut findings = 0;
            for i in &x.issues {
                let what = match i.kind {
                    IssueKind::NoValue => "note",
                    _ => {
                        findings += 1;
                        "warning"
                    }
                };
                let step = if i.tool.is_empty() {
                    String::new()
                } else {
                    format!("step {} {}/{}: ", i.step, i.tool, i.endpoint)
                };
                let field = i
                    .field
                    .as_deref()
                    .map(|f| format!("{f}: "))
                    .unwrap_or_default();
                let n = i
                    .step
                    .checked_sub(1)
                    .and_then(|k| x.steps.get(k))
                    .map_or(0, |s| s.records.len());
                let count = if i.count > 0 && !i.records.is_empty() {
                    format!(
                        " ({} of {n} records: {}{})",
                        i.count,
                        i.records.join(", "),
                        if i.count > i.records.len() {
                            ", ..."
                        } else {
                            ""
                        }
                    )
                } else {
                    String::new()
                };
                eprintln!("{what}: {step}{field}{}{count}", i.message);
            }
            if !args.json {
                eprintln!(
                    "reader context: {} tokens (o200k_base)",
                    x.context_tokens.unwrap_or(0)
                );
            }
            if findings > 0 { 1 } else { 0 }
        }
        Err((e, help)) => super::usage_error(e, help),
    }
}

fn read(path: &std::path::Path) -> Result<String, extract::ExtractError> {
    let bytes = schemarouter_core::input::read_file_limited(
        path,
        schemarouter_core::input::MAX_INPUT_BYTES,
    )
    .map_err(|e| extract::ExtractError::new(format!("{}: cannot read: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| extract::ExtractError {
        message: "not UTF-8 text".into(),
        file: Some(path.display().to_string()),
        line: None,
        column: Some(e.utf8_error().valid_up_to() + 1),
    })
}

/// A JSON response that repeats a key (two `band_gap`s in one record) is read as JSON readers
/// do, the last value winning; say so, since which one the provider meant is not known.
fn warn_repeated_key(text: &str, file: &str) {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !body.trim_start().starts_with(['{', '[']) {
        return;
    }
    if let Err(e) = schemarouter_core::json::check_no_repeated_keys(body.as_bytes())
        && e.is_data()
    {
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        eprintln!(
            "warning: {file}:{}:{}: {message}; the last value is used",
            e.line(),
            e.column().max(1)
        );
    }
}

/// Help for a plan that cannot be read.
const PLAN_HELP: &str =
    "--plan takes the JSON that `schemarouter route --json \"...\" > plan.json` writes";
/// Help for a bad --response.
const RESPONSE_HELP: &str = "give one --response STEP=FILE per plan step: STEP is the step number, the tool id or `tool/endpoint` (e.g. `1=mp.json`)";
/// Help for a response that cannot be read.
const BODY_HELP: &str = "each --response FILE holds the provider's body for that step as received: a JSON document, or XML for Atom feeds";

type Failure = (extract::ExtractError, &'static str);

fn run(args: &ExtractArgs, artifact: &Path) -> Result<Extraction, Failure> {
    let g = FrozenGraph::load_routing(artifact).map_err(|e| {
        (
            extract::ExtractError::new(format!("{}: {e}", artifact.display())),
            super::artifact_help(artifact),
        )
    })?;
    let shown = args.plan.display().to_string();
    let plan = read(&args.plan)
        .and_then(|t| parse_plan(&t, Some(&shown)))
        .map_err(|e| (e, PLAN_HELP))?;
    let mut slots: Vec<Option<Document>> = vec![None; plan.steps.len()];
    for r in &args.responses {
        let Some((step, file)) = r.split_once('=') else {
            return Err((
                extract::ExtractError::new(format!(
                    "--response `{r}`: expected STEP=FILE (e.g. 1=response.json or my_tool=response.json)"
                )),
                RESPONSE_HELP,
            ));
        };
        let matches: Vec<usize> = match step.parse::<usize>() {
            Ok(n) if n >= 1 && n <= plan.steps.len() => vec![n - 1],
            Ok(n) => {
                return Err((
                    extract::ExtractError::new(format!(
                        "--response `{r}`: the plan has {} step(s), not {n}",
                        plan.steps.len()
                    )),
                    RESPONSE_HELP,
                ));
            }
            Err(_) => plan
                .steps
                .iter()
                .enumerate()
                .filter(|(_, s)| s.tool == step || format!("{}/{}", s.tool, s.endpoint) == step)
                .map(|(i, _)| i)
                .collect(),
        };
        let i = match matches.as_slice() {
            [i] => *i,
            [] => {
                return Err((
                    extract::ExtractError::new(format!(
                        "--response `{r}`: no plan step is `{step}` (steps: {})",
                        steps_list(&plan)
                    )),
                    RESPONSE_HELP,
                ));
            }
            _ => {
                return Err((
                    extract::ExtractError::new(format!(
                        "--response `{r}`: `{step}` names several steps; use the step number"
                    )),
                    RESPONSE_HELP,
                ));
            }
        };
        if slots[i].is_some() {
            return Err((
                extract::ExtractError::new(format!(
                    "--response `{r}`: step {} already has a response",
                    i + 1
                )),
                RESPONSE_HELP,
            ));
        }
        let path = PathBuf::from(file);
        let doc = read(&path)
            .inspect(|t| warn_repeated_key(t, file))
            .and_then(|t| parse_step_response(&t, Some(file), &g, &plan.steps[i]))
            .map_err(|e| (e, BODY_HELP))?;
        slots[i] = Some(doc);
    }
    let missing: Vec<String> = slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| {
            format!(
                "{} ({}/{})",
                i + 1,
                plan.steps[i].tool,
                plan.steps[i].endpoint
            )
        })
        .collect();
    if !missing.is_empty() {
        return Err((
            extract::ExtractError::new(format!("no response for step(s) {}", missing.join(", "))),
            RESPONSE_HELP,
        ));
    }
    let docs: Vec<Document> = slots.into_iter().flatten().collect();
    extract::extract(&g, &plan, &docs).map_err(|e| {
        (
            e,
            "each response must be the body of its step's endpoint (the plan's steps, in order)",
        )
    })
}

fn steps_list(plan: &crate::route::Plan) -> String {
    if plan.steps.is_empty() {
        return "none".into();
    }
    plan.steps
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{} {}/{}", i + 1, s.tool, s.endpoint))
        .collect::<Vec<_>>()
        .join(", ")
}
