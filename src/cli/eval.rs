//! `eval`: every router on a benchmark file, scored with the paper's metrics; and
//! `eval scaling`: routing-prompt tokens over synthetic inventories of growing size.

use crate::artifact::FrozenGraph;
use crate::eval::report::{self, Format};
use crate::eval::{self, EvalOptions, LlmOptions, Mode, bench, plots, scaling};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `schemarouter eval`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct EvalArgs {
    /// `scaling`: the routing-cost table over synthetic inventories.
    #[command(subcommand)]
    pub command: Option<EvalCommand>,
    /// Compiled artifact [default: `build/graph.bin` or `build/graph.json` of the project
    /// holding the working directory, the newer of the two; see `compile`].
    #[arg(long)]
    pub artifact: Option<PathBuf>,
    /// Benchmark file (format: bench/README.md).
    #[arg(long, required = true)]
    pub bench: Option<PathBuf>,
    /// Understanding of the graph routers: the gold one, or the lexical analyzer on the query.
    #[arg(long = "from", value_enum, default_value_t = Mode::Understanding)]
    pub from: Mode,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write SVG figures into this folder.
    #[arg(long)]
    pub plots: Option<PathBuf>,
    /// Seed of the bootstrap resampling and of the fixture values.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 1000)]
    pub resamples: usize,
    /// Timed routing runs per query and router (the median is reported).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub repeats: u64,
    /// OpenAI-compatible server for the prompt-all baseline (e.g. http://127.0.0.1:8000/v1).
    #[arg(long, requires = "llm_model")]
    pub llm_url: Option<String>,
    /// Model name for --llm-url.
    #[arg(long)]
    pub llm_model: Option<String>,
    /// Seconds before an LLM request times out.
    #[arg(long, default_value_t = 120)]
    pub llm_timeout: u64,
    /// Environment variable holding the LLM API key (sent as a bearer token).
    #[arg(long)]
    pub llm_key_env: Option<String>,
    /// Treat gold names the artifact does not declare as errors: report them and exit 1
    /// without evaluating (by default they are warnings and the queries are still scored).
    #[arg(long)]
    pub strict: bool,
}

/// Subcommands of `eval`.
#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// Prompt-all vs intent-registry prompt tokens for synthetic inventories of several sizes.
    Scaling(ScalingArgs),
}

/// Arguments of `schemarouter eval scaling`.
#[derive(Debug, Args)]
pub struct ScalingArgs {
    /// Inventory sizes (tools), comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = scaling::DEFAULT_SIZES.to_vec())]
    pub sizes: Vec<usize>,
    /// Generator seed.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Response fields per generated tool, about.
    #[arg(long, default_value_t = 30)]
    pub fields: usize,
    /// Also measure this compiled artifact (e.g. the shipped inventory) as a first row.
    #[arg(long)]
    pub artifact: Option<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the SVG figure into this folder.
    #[arg(long)]
    pub plots: Option<PathBuf>,
    /// Folder for the generated projects (default: a fresh folder under the system temp dir).
    #[arg(long)]
    pub work: Option<PathBuf>,
    /// Keep the generated projects (under --work, as `tools-N`).
    #[arg(long)]
    pub keep: bool,
}

/// Load the artifact at `path` for routing (refused when its configuration has errors, see
/// [`super::locate::refuse_broken_config`]), with its dense search when it has one.
fn load_graph(path: &Path) -> Result<FrozenGraph, u8> {
    super::locate::refuse_broken_config(path)?;
    let g = FrozenGraph::load_routing(path).map_err(|e| {
        eprintln!("error: {}: {e}", path.display());
        eprintln!("help: {}", e.help());
        super::EXIT_USAGE
    })?;
    crate::search::dense::activate_or_warn(&g, Some(path));
    Ok(g)
}

/// Run `eval`.
pub fn run_eval(args: EvalArgs) -> u8 {
    // An artifact edited and re-hashed by hand so that a reference points nowhere ends the run
    // with its error (see `artifact::reading`).
    match crate::artifact::reading(|| run_eval_loaded(args)) {
        Ok(code) => code,
        Err(e) => {
            let e = crate::artifact::LoadError::Malformed(e);
            eprintln!("error: {e}");
            eprintln!("help: {}", e.help());
            super::EXIT_USAGE
        }
    }
}

fn run_eval_loaded(args: EvalArgs) -> u8 {
    if let Some(EvalCommand::Scaling(s)) = args.command {
        return run_scaling(s);
    }
    let Some(bench_path) = &args.bench else {
        return super::usage_error(
            "give --bench FILE",
            "e.g. `schemarouter eval --bench bench/dev.yaml`, or `schemarouter eval scaling` for routing cost vs inventory size",
        );
    };
    // Before the (possibly long) run, not after it.
    if let Some(Err(e)) = args.plots.as_deref().map(plots::check_dir) {
        eprintln!("error: {e}");
        eprintln!("help: pass a folder to --plots (it is created when missing)");
        return super::EXIT_USAGE;
    }
    let artifact = match super::locate::artifact(args.artifact.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let g = match load_graph(&artifact) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let file = bench_path.display().to_string();
    let (mut bench, locations) = match bench::load_located(bench_path) {
        Ok(b) => b,
        Err(e) => {
            eprint!("{}", e.render(&file));
            return super::EXIT_USAGE;
        }
    };
    if args.from == Mode::Understanding {
        let missing = bench::without_understanding(&bench);
        if !missing.is_empty() {
            eprint!(
                "{}",
                missing_understanding_report(&bench, &locations, &file, &missing)
            );
            return super::EXIT_USAGE;
        }
    }
    bench::resolve_records_paths(&g, &mut bench);
    let unknown = bench::unknown_references(&g, &bench);
    if !unknown.is_empty() {
        eprint!(
            "{}",
            unknown_report(
                &unknown,
                &locations,
                &file,
                &g,
                &bench.inventory,
                args.strict
            )
        );
        if args.strict {
            return 1;
        }
    } else if bench.inventory != g.project.name {
        // Every name resolves, but the benchmark was written for another inventory.
        let level = if args.strict { "error" } else { "warning" };
        eprintln!(
            "{level}: {file}: the benchmark is written for inventory `{}`, the artifact is `{}` ({}); every gold name resolves, so the queries are scored",
            bench.inventory, g.project.name, g.project.version
        );
        eprintln!(
            "help: pass --artifact compiled from `{}`, or set `inventory: {}` in the benchmark if it is meant for this one",
            bench.inventory, g.project.name
        );
        if args.strict {
            return 1;
        }
    }
    let llm = match (&args.llm_url, &args.llm_model) {
        (Some(url), Some(model)) => Some(LlmOptions {
            url: url.clone(),
            model: model.clone(),
            timeout: Duration::from_secs(args.llm_timeout),
            api_key: args
                .llm_key_env
                .as_ref()
                .and_then(|k| std::env::var(k).ok()),
        }),
        _ => None,
    };
    let opts = EvalOptions {
        mode: args.from,
        seed: args.seed,
        resamples: args.resamples,
        repeats: args.repeats as usize,
        llm,
    };
    let label = bench_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| bench_path.display().to_string());
    let total = (eval::routers(&opts).len() * bench.queries.len()) as u64;
    let bar = progress_bar(total, "routing", "runs");
    let result = eval::evaluate(&g, &bench, &label, &opts, |kind, _| {
        if let Some(b) = &bar {
            b.set_message(kind.name());
            b.inc(1);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(dir) = &args.plots {
        match plots::write_eval_plot(dir, &result) {
            Ok(p) => eprintln!("wrote {}", p.display()),
            Err(e) => {
                return super::usage_error(
                    e,
                    "check that the --plots folder can be written to and that the disk has room",
                );
            }
        }
    }
    let out = match args.format {
        Format::Text => report::text(&result),
        Format::Json => report::json(&result),
        Format::Markdown => report::markdown(&result),
    };
    print!("{out}");
    0
}

/// The stderr lines for `--from understanding` on queries without a gold Understanding: one
/// `error:` line per query (`FILE:LINE:COL: query `id`: ...`), or one line when no query has
/// one, then a help line.
fn missing_understanding_report(
    bench: &bench::Bench,
    locations: &bench::BenchLocations,
    file: &str,
    missing: &[usize],
) -> String {
    let mut out = String::new();
    if missing.len() == bench.queries.len() {
        let n = missing.len();
        let plural = if n == 1 { "query has" } else { "queries have" };
        out.push_str(&format!(
            "error: {file}: `--from understanding` (the default) routes on each query's gold `understanding`, and none of its {n} {plural} one\n"
        ));
    } else {
        for &i in missing {
            let id = &bench.queries[i].id;
            let message = format!(
                "query `{id}` has no gold `understanding`, which `--from understanding` (the default) routes on"
            );
            match locations.queries.get(i).and_then(|q| q.id) {
                Some(at) => out.push_str(&format!("error: {file}:{at}: {message}\n")),
                None => out.push_str(&format!("error: {file}: {message}\n")),
            }
        }
    }
    out.push_str("help: run with `--from query` (the lexical Understand step reads each question), or add the gold Understanding (format: bench/README.md)\n");
    out
}

/// The stderr lines for gold names the artifact does not declare: one `warning:` (`error:` with
/// --strict) line per name, `FILE:LINE:COL: query `id`: ...`, then a summary and a help line.
fn unknown_report(
    unknown: &[bench::UnknownReference],
    locations: &bench::BenchLocations,
    file: &str,
    g: &FrozenGraph,
    inventory: &str,
    strict: bool,
) -> String {
    let level = if strict { "error" } else { "warning" };
    let mut out = String::new();
    for r in unknown {
        match locations.of(r) {
            Some(at) => out.push_str(&format!("{level}: {file}:{at}: {}\n", r.message())),
            None => out.push_str(&format!("{level}: {file}: {}\n", r.message())),
        }
    }
    let n = unknown.len();
    let artifact = format!("{} {}", g.project.name, g.project.version);
    let plural = if n == 1 { "" } else { "s" };
    if strict {
        out.push_str(&format!(
            "error: {n} gold reference{plural} in {file} unknown to the artifact ({artifact}); not evaluated (--strict)\n"
        ));
    } else {
        out.push_str(&format!(
            "warning: {n} gold reference{plural} in {file} unknown to the artifact ({artifact}); their queries are scored, but those scores do not measure routing\n"
        ));
    }
    if inventory != g.project.name {
        out.push_str(&format!(
            "help: the benchmark is written for inventory `{inventory}`, the artifact is `{}`: pass --artifact compiled from `{inventory}`\n",
            g.project.name
        ));
    } else {
        out.push_str("help: fix the names in the benchmark (or recompile the artifact if the inventory changed)\n");
    }
    out
}

fn run_scaling(args: ScalingArgs) -> u8 {
    if args.sizes.is_empty() || args.sizes.contains(&0) {
        return super::usage_error(
            "--sizes needs tool counts of at least 1",
            "e.g. --sizes 100,1000,5000",
        );
    }
    if let Some(Err(e)) = args.plots.as_deref().map(plots::check_dir) {
        eprintln!("error: {e}");
        eprintln!("help: pass a folder to --plots (it is created when missing)");
        return super::EXIT_USAGE;
    }
    let (work, temporary) = match &args.work {
        Some(w) => (w.clone(), false),
        None => (
            std::env::temp_dir().join(format!("schemarouter-scaling-{}", std::process::id())),
            true,
        ),
    };
    let mut rows = Vec::new();
    if let Some(a) = &args.artifact {
        let g = match load_graph(a) {
            Ok(g) => g,
            Err(c) => return c,
        };
        let (registry, _) = crate::prompt::read_beside(a, &g);
        rows.push(scaling::measure(
            &format!("{} ({})", g.tools.len(), g.project.name),
            &g,
            &registry,
            None,
        ));
    }
    // One bar over the sizes; the loader's per-file bars would fight with it.
    crate::load::set_progress(false);
    let bar = progress_bar(args.sizes.len() as u64, "sizes", "sizes");
    let result = scaling::run(&args.sizes, args.seed, args.fields, &work, args.keep, |n| {
        if let Some(b) = &bar {
            b.set_message(format!("{n} tools"));
            b.inc(1);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if temporary && !args.keep {
        let _ = std::fs::remove_dir_all(&work);
    }
    let mut report = match result {
        Ok(r) => r,
        Err(e) => {
            return super::usage_error(
                e,
                "check that the --work folder (a temporary folder by default) can be written to and that the disk has room",
            );
        }
    };
    rows.append(&mut report.rows);
    report.rows = rows;
    if let Some(dir) = &args.plots {
        match plots::write_scaling_plot(dir, &report) {
            Ok(p) => eprintln!("wrote {}", p.display()),
            Err(e) => {
                return super::usage_error(
                    e,
                    "check that the --plots folder can be written to and that the disk has room",
                );
            }
        }
    }
    let out = match args.format {
        Format::Text => report::scaling_text(&report),
        Format::Json => report::scaling_json(&report),
        Format::Markdown => report::scaling_markdown(&report),
    };
    print!("{out}");
    0
}

/// A progress bar over `len` `unit`s on stderr, when progress bars are allowed (stderr is a
/// terminal and `CI` is not set).
fn progress_bar(len: u64, what: &str, unit: &str) -> Option<indicatif::ProgressBar> {
    if !super::stderr_progress() || len == 0 {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
        "{{msg:>10}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{eta}})"
    )) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_string());
    Some(bar)
}
