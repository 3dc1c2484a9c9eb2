//! `serve`: the HTTP JSON API over one loaded artifact (see [`crate::serve::http`]); and the
//! options and start-up shared with `mcp`.

use crate::serve::{Config, Core, Discover, Limits, Token};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Options shared by `serve` and `mcp`.
#[derive(Debug, Args)]
pub struct ServerArgs {
    /// Compiled artifact (`graph.json` or `graph.bin`); reloaded when the file is replaced or
    /// on SIGHUP.
    /// [default: `build/graph.bin` or `build/graph.json` of the project holding the working
    /// directory, the newer of the two; see `compile`]
    #[arg(long)]
    pub artifact: Option<PathBuf>,
    /// File holding a bearer token every HTTP request must carry (`Authorization: Bearer ...`).
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// Largest request body in bytes.
    #[arg(long, default_value_t = 64 * 1024, value_parser = clap::value_parser!(u64).range(256..=(64 << 20)))]
    pub max_body_bytes: u64,
    /// Longest question in characters.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_question_chars: u64,
    /// Requests handled at once; more are refused at once with 503 (HTTP) or a JSON-RPC error.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_concurrency: u64,
    /// Milliseconds one HTTP request may take, reading its body included (408 after that).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub request_timeout_ms: u64,
    /// Open MCP sessions over HTTP (`mcp --transport http`); an `initialize` beyond them is
    /// refused with 503 until a session ends (`DELETE /mcp`) or idles out (5 minutes).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_sessions: u64,
    /// Milliseconds between checks of the artifact file for a replacement (0: reload on SIGHUP
    /// only).
    #[arg(long, default_value_t = 500)]
    pub watch_ms: u64,
    /// One JSON log line per request on stderr (route, status, latency, artifact hash).
    #[arg(long)]
    pub log_requests: bool,
}

/// Arguments of `schemarouter serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Shared server options.
    #[command(flatten)]
    pub server: ServerArgs,
    /// Address to listen on (loopback by default; port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Print the OpenAPI 3.1 description of the API and exit.
    #[arg(long)]
    pub openapi: bool,
}

/// Load the artifact and build the core, or say why not (exit 2; also when the configuration
/// the artifact is read with has errors, see [`super::locate::refuse_broken_config`]). A discovered artifact (no
/// `--artifact`) is discovered again on every reload, so that a compile writing the other form
/// is followed.
pub(super) fn open_core(a: &ServerArgs) -> Result<Arc<Core>, u8> {
    let artifact = super::locate::artifact(a.artifact.as_deref())?;
    // A server never starts with default settings in place of a faulty configuration.
    super::locate::refuse_broken_config(&artifact)?;
    let discover = if a.artifact.is_none() {
        let d = super::locate::Discovery::from_cwd();
        Some(Discover::new(move || d.current().ok()))
    } else {
        None
    };
    let token = match &a.token_file {
        Some(p) => match Token::from_file(p) {
            Ok(t) => Some(t),
            Err(e) => {
                return Err(super::usage_error(
                    e,
                    "--token-file names a readable UTF-8 file holding the token on its first line",
                ));
            }
        },
        None => None,
    };
    let config = Config {
        artifact: artifact.clone(),
        discover,
        limits: Limits {
            max_body_bytes: a.max_body_bytes as usize,
            max_question_chars: a.max_question_chars as usize,
            max_concurrency: a.max_concurrency as usize,
            request_timeout: Duration::from_millis(a.request_timeout_ms),
            max_sessions: a.max_sessions as usize,
        },
        token,
        log_requests: a.log_requests,
    };
    match Core::open(config) {
        Ok(c) => Ok(Arc::new(c)),
        Err(e) => Err(super::usage_error(e, super::artifact_help(&artifact))),
    }
}

/// A multi-threaded tokio runtime, or exit 2.
pub(super) fn runtime() -> Result<tokio::runtime::Runtime, u8> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            super::usage_error(
                format!("cannot start the async runtime: {e}"),
                "the system refused threads or file descriptors; raise the process limits (`ulimit -n`, `ulimit -u`) or free resources",
            )
        })
}

/// Start the file watcher and the SIGHUP handler (inside the runtime).
pub(super) fn start_reloaders(core: &Arc<Core>, watch_ms: u64) {
    if watch_ms > 0 {
        core.spawn_watcher(Duration::from_millis(watch_ms));
    }
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::hangup()) {
            Ok(mut hup) => {
                let core = core.clone();
                tokio::spawn(async move {
                    while hup.recv().await.is_some() {
                        let c = core.clone();
                        let _ = tokio::task::spawn_blocking(move || c.reload("SIGHUP")).await;
                    }
                });
            }
            Err(e) => core.event(serde_json::json!({"event": "warning", "message": format!("no SIGHUP reload: {e}")})),
        }
    }
}

/// A future that resolves on SIGTERM or SIGINT (logged as an event). The handlers are
/// installed when this is called, not when the future is first polled: call it before the
/// `listening` line, so that a supervisor's SIGTERM right after it is a graceful shutdown, not
/// the default action (the process killed). Must be called inside the runtime.
pub(super) fn shutdown_signal(core: Arc<Core>) -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let (term, int) = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::terminate()).ok(),
            signal(SignalKind::interrupt()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        let which = {
            let term = async move {
                match term {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
                "SIGTERM"
            };
            let int = async move {
                match int {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => {
                        let _ = tokio::signal::ctrl_c().await;
                    }
                }
                "SIGINT"
            };
            tokio::select! {
                s = int => s,
                s = term => s,
            }
        };
        #[cfg(not(unix))]
        let which = {
            let _ = tokio::signal::ctrl_c().await;
            "SIGINT"
        };
        core.event(serde_json::json!({"event": "shutdown", "signal": which, "message": "finishing requests in flight"}));
    }
}

/// Bind `addr` or say why not.
pub(super) async fn bind(addr: SocketAddr) -> Result<tokio::net::TcpListener, u8> {
    tokio::net::TcpListener::bind(addr).await.map_err(|e| {
        eprintln!("error: cannot listen on {addr}: {e}");
        eprintln!("help: pick another address with --bind (port 0 picks a free port)");
        super::EXIT_USAGE
    })
}

/// Announce the address and the artifact (the first event line).
pub(super) fn announce(core: &Core, face: &str, url: &str) {
    let s = core.snapshot();
    core.event(serde_json::json!({
        "event": "listening",
        "face": face,
        "url": url,
        "artifact": s.summary.path,
        "project": s.summary.project,
        "version": s.summary.version,
        "content_hash": s.summary.content_hash,
        "load_ms": (s.summary.load_ms * 1e3).round() / 1e3,
        "token": core.requires_token(),
    }));
    // After `listening` (the first line): an `intent_prompt.txt` passed over at start-up.
    core.warn_prompt(&s);
}

/// Warn when listening beyond loopback without a token.
pub(super) fn warn_exposed(core: &Core, addr: &SocketAddr) {
    if !addr.ip().is_loopback() && !core.requires_token() {
        core.event(serde_json::json!({
            "event": "warning",
            "message": format!("listening on {addr}, beyond loopback, without --token-file: anyone who can reach it can call it"),
        }));
    }
}

/// Run `serve`.
pub fn run_serve(args: ServeArgs) -> u8 {
    if args.openapi {
        print!("{}", crate::serve::openapi::document());
        return 0;
    }
    let core = match open_core(&args.server) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let rt = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    rt.block_on(async move {
        let listener = match bind(args.bind).await {
            Ok(l) => l,
            Err(code) => return code,
        };
        let addr = listener.local_addr().unwrap_or(args.bind);
        warn_exposed(&core, &addr);
        start_reloaders(&core, args.server.watch_ms);
        let stop = shutdown_signal(core.clone());
        announce(&core, "http", &format!("http://{addr}"));
        let app = crate::serve::http::router(core.clone());
        let result =
            crate::serve::http::serve(listener, app, stop, core.limits.request_timeout).await;
        match result {
            Ok(()) => {
                core.event(serde_json::json!({"event": "stopped"}));
                0
            }
            Err(e) => super::usage_error(
                format!("the server failed: {e}"),
                "see the event lines above; restart the server",
            ),
        }
    })
}
