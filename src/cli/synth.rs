//! `gen`: write a deterministic synthetic inventory (see [`crate::synth`]).

use crate::synth::{self, GenConfig};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `schemarouter gen`.
#[derive(Debug, Args)]
pub struct GenArgs {
    /// Number of tools.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub tools: u64,
    /// Seed of every random choice (same seed, same bytes).
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Response fields per tool, about.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(8..=1000))]
    pub fields: u64,
    /// Output folder (a new project: `schemarouter.toml`, `schemas/`, `intents/`, `aliases/`).
    #[arg(long)]
    pub out: PathBuf,
    /// Write into a folder that already has files (generated files are overwritten; other files
    /// stay, so a folder from a larger run keeps its extra tool files).
    #[arg(long)]
    pub force: bool,
}

/// Run `gen`.
pub fn run_gen(args: GenArgs) -> u8 {
    let non_empty = std::fs::read_dir(&args.out)
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    if non_empty && !args.force {
        return super::usage_error(
            format!("`{}` is not empty", args.out.display()),
            "choose a new folder, or pass --force to write into it anyway",
        );
    }
    let cfg = GenConfig {
        tools: args.tools as usize,
        seed: args.seed,
        fields_per_tool: args.fields as usize,
    };
    let generated = synth::generate(&cfg);
    let bar = crate::load::progress_bar(generated.files.len() as u64, "writing");
    let result = generated.write_with(&args.out, |i| {
        if let Some(b) = &bar {
            b.set_position(i as u64);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Err(e) = result {
        return super::usage_error(
            format!("cannot write into `{}`: {e}", args.out.display()),
            "pass a folder you can write to (it is created when missing) and check that the disk has room",
        );
    }
    let s = generated.summary;
    println!(
        "generated {} tools, {} endpoints, {} fields, {} parameters, {} domains, {} intents, {} concepts, {} aliases (seed {}) -> {}",
        s.tools,
        s.endpoints,
        s.fields,
        s.parameters,
        s.domains,
        s.intents,
        s.concepts,
        s.aliases,
        args.seed,
        args.out.display()
    );
    0
}
