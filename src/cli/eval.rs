//! `eval` (being written).

use clap::Args;

/// Arguments of `schemarouter eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {}

/// Run `eval`.
pub fn run_eval(_args: EvalArgs) -> u8 {
    eprintln!("error: eval is not implemented yet");
    super::EXIT_USAGE
}
