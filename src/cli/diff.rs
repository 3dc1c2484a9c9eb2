//! `diff` (being written).

use clap::Args;

/// Arguments of `schemarouter diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Old side.
    pub old: String,
    /// New side.
    pub new: String,
}

/// Run `diff`.
pub fn run_diff(_args: DiffArgs) -> u8 {
    eprintln!("error: diff is not implemented yet");
    super::EXIT_USAGE
}
