//! `mcp`: the MCP server over one loaded artifact (see [`crate::serve::mcp`]), on stdio or
//! streamable HTTP.

use super::serve::{
    ServerArgs, announce, bind, open_core, runtime, shutdown_signal, start_reloaders, warn_exposed,
};
use clap::{Args, ValueEnum};
use std::net::SocketAddr;

/// MCP transports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Transport {
    /// JSON-RPC on stdin/stdout (the client starts the server).
    Stdio,
    /// Streamable HTTP at `http://ADDR/mcp`.
    Http,
}

/// Arguments of `schemarouter mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Shared server options (`--token-file` applies to the HTTP transport).
    #[command(flatten)]
    pub server: ServerArgs,
    /// Transport.
    #[arg(long, value_enum, default_value_t = Transport::Stdio)]
    pub transport: Transport,
    /// Address to listen on with `--transport http` (loopback by default; port 0 picks a free
    /// port).
    #[arg(long, default_value = "127.0.0.1:8081")]
    pub bind: SocketAddr,
}

/// Run `mcp`.
pub fn run_mcp(args: McpArgs) -> u8 {
    if args.transport == Transport::Stdio && args.server.token_file.is_some() {
        eprintln!("error: --token-file applies to --transport http only");
        eprintln!("help: over stdio the client that starts the server is the only peer");
        return super::EXIT_USAGE;
    }
    let core = match open_core(&args.server) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let rt = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    let code = rt.block_on(async move {
        match args.transport {
            Transport::Stdio => {
                start_reloaders(&core, args.server.watch_ms);
                let stop = shutdown_signal(core.clone());
                announce(&core, "mcp-stdio", "stdio");
                let result = tokio::select! {
                    r = crate::serve::mcp::serve_stdio(core.clone()) => r,
                    () = stop => Ok(()),
                };
                match result {
                    Ok(()) => {
                        core.event(serde_json::json!({"event": "stopped"}));
                        0
                    }
                    Err(e) => super::usage_error(
                        e,
                        "the MCP client closed or broke the stdio connection; the client starts this server, so restart it from the client",
                    ),
                }
            }
            Transport::Http => {
                let listener = match bind(args.bind).await {
                    Ok(l) => l,
                    Err(code) => return code,
                };
                let addr = listener.local_addr().unwrap_or(args.bind);
                warn_exposed(&core, &addr);
                start_reloaders(&core, args.server.watch_ms);
                let stop = shutdown_signal(core.clone());
                announce(&core, "mcp-http", &format!("http://{addr}/mcp"));
                let cancel = tokio_util::sync::CancellationToken::new();
                let app = crate::serve::mcp::http_router(
                    core.clone(),
                    addr.ip().is_loopback(),
                    cancel.clone(),
                );
                let shutdown = async move {
                    stop.await;
                    cancel.cancel();
                };
                match crate::serve::http::serve(listener, app, shutdown, core.limits.request_timeout).await {
                    Ok(()) => {
                        core.event(serde_json::json!({"event": "stopped"}));
                        0
                    }
                    Err(e) => super::usage_error(
                        format!("the server failed: {e}"),
                        "see the event lines above; restart the server",
                    ),
                }
            }
        }
    });
    // A stdio transport's reader may still wait on stdin in a blocking thread, which dropping
    // the runtime would wait for: after a SIGTERM the process said `stopped` and stayed until
    // its client closed stdin.
    rt.shutdown_background();
    code
}
