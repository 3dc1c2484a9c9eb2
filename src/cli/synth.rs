//! `gen`: synthetic inventories (being written).

use clap::Args;

/// Arguments of `schemarouter gen`.
#[derive(Debug, Args)]
pub struct GenArgs {}

/// Run `gen`.
pub fn run_gen(_args: GenArgs) -> u8 {
    eprintln!("error: gen is not implemented yet");
    super::EXIT_USAGE
}
