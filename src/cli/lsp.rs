//! `lsp`: the language server on stdin/stdout (see [`crate::lsp`]).

use clap::Args;

/// Arguments of `schemarouter lsp`.
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Accepted for clients that pass it (VS Code's language client does); stdio is the only
    /// transport.
    #[arg(long)]
    pub stdio: bool,
}

/// Run `lsp` until the client sends `exit`.
pub fn run_lsp(_args: LspArgs) -> u8 {
    match crate::lsp::run_stdio() {
        Ok(()) => 0,
        Err(e) => super::usage_error(
            format!("language server: {e}"),
            "start `schemarouter lsp` from an editor's language client, which speaks LSP on stdin and stdout",
        ),
    }
}
