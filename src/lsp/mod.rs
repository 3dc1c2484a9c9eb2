//! `schemarouter lsp`: the language server (Language Server Protocol over stdio), on
//! rust-analyzer's `lsp-server` scaffold and the `lsp-types` protocol types.
//!
//! It sits beside the servers and above [`crate::lint`] and [`crate::load`]: each check is the
//! `check` command's ([`crate::lint::check_loaded`]) over the project a document belongs to
//! (found by walking up to `schemarouter.toml`), with the open documents' text in place of the
//! saved files ([`crate::load::load_project_overlay`]). What it offers:
//!
//! - diagnostics ([`publish`]): every finding of the project's files, per file, with the rule
//!   code, a link to its section of `docs/rules.md`, secondary labels as related information;
//!   files that become clean are cleared;
//! - hover ([`hover`]), go to definition and find references ([`symbols`]), completion
//!   ([`completion`]) and code actions ([`actions`]).
//!
//! Positions are UTF-16 code units ([`text`]). Nothing a client sends ends the session: an
//! unknown URI, a file outside any project, a position past the end give empty answers; a
//! request that cannot be read gets an error response.

pub mod actions;
pub mod analysis;
pub mod completion;
pub mod hover;
pub mod publish;
pub mod server;
pub mod symbols;
pub mod text;
pub mod transport;
pub mod workspace;

use lsp_server::{Connection, Message};

use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    HoverProviderCapability, InitializeParams, OneOf, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind,
};

/// What the server offers, sent in the `initialize` reply.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["(".into(), ",".into(), "[".into(), " ".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::from(actions::FIX_ALL),
            ]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

/// The rules page the client named in `initializationOptions.rulesUrl`, else the default.
fn rules_url(params: &serde_json::Value) -> String {
    serde_json::from_value::<InitializeParams>(params.clone())
        .ok()
        .and_then(|p| p.initialization_options)
        .and_then(|o| {
            o.get("rulesUrl")
                .and_then(|u| u.as_str())
                .map(str::to_string)
        })
        .unwrap_or_else(|| publish::DEFAULT_RULES_URL.to_string())
}

/// Serve the protocol on stdin/stdout until `exit`, reading frames with
/// [`transport::read_message`] (bodies up to [`transport::MAX_MESSAGE_BYTES`]).
///
/// Errors: a stream that is not framed as LSP (what was wrong with the frame), or a protocol
/// error (the client closed the streams before `initialize`, or broke the shutdown
/// sequence), as text.
pub fn run_stdio() -> Result<(), String> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    let (connection, io) = transport::connect(stdin, std::io::stdout());
    let served = serve(&connection);
    drop(connection);
    if let Some(e) = io.frame_error() {
        let _ = io.finish();
        return Err(e.to_string());
    }
    served?;
    io.finish()
}

/// Send the `initialize` reply and read the `initialized` notification that must follow it (LSP
/// 3.17, lifecycle).
///
/// Errors: the client closed the stream, or sent something else first (named by its kind and
/// method, not dumped).
fn finish_initialize(
    connection: &Connection,
    id: lsp_server::RequestId,
    reply: serde_json::Value,
) -> Result<(), String> {
    connection
        .sender
        .send(lsp_server::Response::new_ok(id, reply).into())
        .map_err(|_| "the client closed the stream during `initialize`".to_string())?;
    let lifecycle = "after the `initialize` reply the client must send the `initialized` notification before anything else (LSP lifecycle)";
    match connection.receiver.recv() {
        Ok(Message::Notification(n)) if n.method == "initialized" => Ok(()),
        Ok(Message::Notification(n)) => {
            Err(format!("{lifecycle}; got the notification `{}`", n.method))
        }
        Ok(Message::Request(r)) => Err(format!(
            "{lifecycle}; got the request `{}` (id {})",
            r.method, r.id
        )),
        Ok(Message::Response(r)) => Err(format!("{lifecycle}; got a response (id {})", r.id)),
        Err(_) => Err("the client closed the stream before sending `initialized`".to_string()),
    }
}

/// Serve the protocol on `connection`: the initialize handshake, then messages and checks
/// until `shutdown` and `exit` (or the client goes away).
///
/// Errors: as [`run_stdio`].
pub fn serve(connection: &Connection) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| {
        if e.channel_is_disconnected() {
            "the client closed the stream before sending `initialize`".to_string()
        } else {
            e.to_string()
        }
    })?;
    let mut server = server::Server::new(rules_url(&params));
    let reply = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "schemarouter", "version": env!("CARGO_PKG_VERSION")},
    });
    finish_initialize(connection, id, reply)?;
    let (done_tx, done_rx) =
        crossbeam_channel::unbounded::<(server::Job, Option<analysis::Snapshot>)>();
    loop {
        crossbeam_channel::select! {
            recv(connection.receiver) -> msg => {
                let Ok(msg) = msg else { break };
                if let Message::Request(req) = &msg
                    && connection.handle_shutdown(req).map_err(|e| e.to_string())?
                {
                    break;
                }
                if matches!(&msg, Message::Notification(n) if n.method == "exit") {
                    break;
                }
                server.handle(msg);
            }
            recv(done_rx) -> done => {
                if let Ok((job, snapshot)) = done {
                    server.finish(job, snapshot);
                }
            }
        }
        for m in server.take_outgoing() {
            if connection.sender.send(m).is_err() {
                return Ok(());
            }
        }
        while let Some(job) = server.next_job() {
            let tx = done_tx.clone();
            std::thread::spawn(move || {
                let snapshot = std::panic::catch_unwind(|| job.check()).ok();
                let _ = tx.send((job, snapshot));
            });
        }
    }
    Ok(())
}
