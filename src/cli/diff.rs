//! `diff`: breaking, dangerous and safe changes between two schema versions.

use crate::diff::render::{self, DiffFormat, RenderOptions};
use crate::diff::{self, FailOn, Side, plans};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `schemarouter diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Old side: a project folder, a compiled artifact (graph.json / graph.bin), `git:REF`
    /// (the project at the repository root) or `git:REF:PATH` (a sub-folder, relative to the
    /// repository root, or to the current folder when it starts with `./`).
    pub old: String,
    /// New side, in the same forms.
    pub new: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    pub format: DiffFormat,
    /// Lowest class that makes the command exit 1 (accepted changes never do).
    #[arg(long, value_enum, default_value_t = FailOn::Breaking)]
    pub fail_on: FailOn,
    /// Report which plans change: a benchmark YAML or a JSON list of Understanding objects,
    /// routed on both sides with the default options.
    #[arg(long, value_name = "FILE")]
    pub plans: Option<PathBuf>,
}

/// Run `diff`; returns the exit code (0 passes, 1 gated changes, 2 usage or I/O error).
pub fn run_diff(args: DiffArgs) -> u8 {
    let cwd = match std::env::current_dir() {
        Ok(d) => d,
        Err(e) => {
            return super::usage_error(
                format!("cannot read the current folder: {e}"),
                "run the command from a folder that exists and is readable",
            );
        }
    };
    let inputs = match &args.plans {
        Some(p) => match plans::read_plans(p) {
            Ok(i) => Some(i),
            Err(e) => {
                return super::usage_error(
                    format!("--plans {e}"),
                    "--plans takes a benchmark YAML (`queries:` with `understanding:`), or a JSON list of Understanding objects (`schemarouter schema understanding` prints their schema)",
                );
            }
        },
        None => None,
    };
    let mut sides = Vec::with_capacity(2);
    for spec in [&args.old, &args.new] {
        match Side::open(spec, &cwd) {
            Ok(s) => sides.push(s),
            Err(e) => {
                eprintln!("error: {}", e.message);
                if !e.details.is_empty() {
                    eprint!("{}", e.details);
                }
                eprintln!("help: {}", e.help);
                return super::EXIT_USAGE;
            }
        }
    }
    let (old, new) = (&sides[0], &sides[1]);
    for side in [old, new] {
        if side.check_errors > 0 {
            eprintln!(
                "warning: {} has {} check error(s): `schemarouter compile` refuses it, so the comparison is with a schema no artifact can have; run `schemarouter check {}`",
                side.label, side.check_errors, side.label
            );
        }
    }
    let report = match &inputs {
        Some(i) => diff::diff_with_plans(old, new, i),
        None => diff::diff(old, new),
    };
    let color = args.format == DiffFormat::Human && super::stdout_color();
    let text = render::render(
        args.format,
        &report,
        RenderOptions {
            fail_on: args.fail_on,
            color,
        },
    );
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
    if report.fails(args.fail_on) { 1 } else { 0 }
}
