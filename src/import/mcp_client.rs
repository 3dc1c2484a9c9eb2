//! A live MCP server's tool list, read with the official Rust SDK (`rmcp`): start the server
//! (a child process on stdio, or a streamable-HTTP endpoint), run `initialize`, page through
//! `tools/list`, shut it down. Everything happens within one timeout; a server that does not
//! answer in time is stopped and reported.
//!
//! The result is a JSON document in the saved-file shape ([`super::mcp`]), so live and saved
//! tool lists go through the same mapping.

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::Duration;

/// Where the server is.
#[derive(Clone, Debug)]
pub enum Server {
    /// A command line started as a child process speaking MCP on stdio.
    Command(String),
    /// A streamable-HTTP endpoint (`http://127.0.0.1:8000/mcp`).
    Url(String),
}

/// The `tools/list` of a live server, as `{"serverInfo": ..., "instructions": ..., "tools":
/// [...]}` (JSON text, pretty-printed so that findings can point at lines).
///
/// Errors: a command that cannot be split or started, a server that fails `initialize` or
/// `tools/list`, or that does not finish within `timeout` (its stderr tail is included).
pub fn list_tools(server: &Server, timeout: Duration) -> Result<String, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let result = rt.block_on(fetch(server, timeout));
    // Child processes are killed when their transport is dropped (inside `fetch`).
    rt.shutdown_timeout(Duration::from_secs(2));
    result
}

/// `session` within `timeout`.
async fn timed(
    timeout: Duration,
    work: impl std::future::Future<Output = Result<String, String>>,
) -> Result<String, String> {
    tokio::time::timeout(timeout, work).await.unwrap_or_else(|_| {
        Err(format!(
            "the server did not finish `initialize` and `tools/list` within {} s (raise `--timeout`)",
            timeout.as_secs()
        ))
    })
}

/// The child's stdout, line by line, with the first line that is not JSON recorded in `first`
/// (at most 200 characters of it).
fn screen_stdout(
    stdout: tokio::process::ChildStdout,
    first: std::sync::Arc<std::sync::Mutex<Option<String>>>,
) -> tokio::io::DuplexStream {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let (mut tx, rx) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let mut lines = tokio::io::BufReader::new(stdout).lines();
        while let Ok(Some(l)) = lines.next_line().await {
            if !l.trim().is_empty() && serde_json::from_str::<serde::de::IgnoredAny>(&l).is_err() {
                let mut g = first.lock().unwrap_or_else(|p| p.into_inner());
                if g.is_none() {
                    *g = Some(l.chars().take(200).collect());
                }
            }
            if tx.write_all(l.as_bytes()).await.is_err() || tx.write_all(b"\n").await.is_err() {
                break;
            }
        }
    });
    rx
}

async fn fetch(server: &Server, timeout: Duration) -> Result<String, String> {
    match server {
        Server::Command(cmdline) => {
            let words = shlex::split(cmdline)
                .filter(|w| !w.is_empty())
                .ok_or_else(|| {
                    format!("cannot split the command `{cmdline}` into words (unbalanced quotes?)")
                })?;
            let mut cmd = tokio::process::Command::new(&words[0]);
            cmd.args(&words[1..]);
            // A server that ignores the end of its input and SIGTERM is killed, never left behind.
            cmd.kill_on_drop(true)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut child = cmd
                .spawn()
                .map_err(|e| format!("cannot start `{}`: {e}", words[0]))?;
            let stderr = child.stderr.take();
            let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
                return Err(format!("cannot talk to `{}` on stdio", words[0]));
            };
            // The server's output passes through a screen that keeps its first line that is not
            // JSON (the SDK skips such lines: a server that logs on stdout would only time out).
            let not_json = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
            let transport = (screen_stdout(stdout, not_json.clone()), stdin);
            // Keep the last lines of the server's stderr for error messages.
            let tail = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
            let mut reader = None;
            if let Some(err) = stderr {
                let tail = tail.clone();
                reader = Some(tokio::spawn(async move {
                    use tokio::io::AsyncBufReadExt;
                    let mut lines = tokio::io::BufReader::new(err).lines();
                    while let Ok(Some(l)) = lines.next_line().await {
                        let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                        t.push(l);
                        if t.len() > 8 {
                            t.remove(0);
                        }
                    }
                }));
            }
            // The stderr tail is kept for a server that hangs too (it often says why there).
            let r = timed(timeout, async { session(().serve(transport).await).await }).await;
            let r = r.map_err(|e| {
                let first = not_json.lock().map(|g| g.clone()).unwrap_or_default();
                match first {
                    Some(line) => format!(
                        "the server wrote a line that is not JSON-RPC on its output: `{line}` (an MCP server on stdio writes only JSON-RPC messages there; logs go to stderr)\n{}",
                        e.replace(" (raise `--timeout`)", "")
                    ),
                    None => e,
                }
            });
            drop(child);
            if r.is_err()
                && let Some(reader) = reader
            {
                // A server that printed its complaint and exited at once: the reader may not
                // have read it yet when the closed output was noticed. Its stderr ends with it
                // (a hung one is killed when its transport is dropped), so wait briefly.
                let _ = tokio::time::timeout(Duration::from_millis(500), reader).await;
            }
            r.map_err(|e| {
                // The SDK's words for a server gone (its output closed, or its input: a broken
                // pipe on the first write, whichever the race gives) name transport types; say
                // what happened once, the same way for both.
                let e = if e.contains("connection closed")
                    || e.contains("Broken pipe")
                    || e.contains("Transport [")
                {
                    let phase = e.split(':').next().unwrap_or("`initialize` failed");
                    format!(
                        "{phase}: the server closed the connection before it answered (did `{}` exit, or print something other than JSON-RPC?)",
                        words[0]
                    )
                } else {
                    e
                };
                let t = tail.lock().map(|t| t.join("\n")).unwrap_or_default();
                if t.trim().is_empty() {
                    e
                } else {
                    format!("{e}\nthe server's last stderr lines:\n{t}")
                }
            })
        }
        Server::Url(url) => {
            // reqwest's rustls is built without a crypto provider of its own: use `ring` (an
            // error only says one is installed already).
            let _ = rustls::crypto::ring::default_provider().install_default();
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            timed(timeout, async { session(().serve(transport).await).await })
                .await
                .map_err(|e| {
                let hint = if url.starts_with("https:") {
                    "is the server running, is this its streamable-HTTP endpoint (often ending in `/mcp`), and does it present a certificate this system trusts?"
                } else {
                    "is the server running, and is this its streamable-HTTP endpoint (often ending in `/mcp`)?"
                };
                let e = if e.contains("Transport") || e.contains("error sending request") {
                    format!("cannot reach the MCP server at {url}")
                } else {
                    e
                };
                format!("{e}\n  help: {hint}")
            })
        }
    }
}

async fn session<E: std::fmt::Display>(
    running: Result<rmcp::service::RunningService<rmcp::RoleClient, ()>, E>,
) -> Result<String, String> {
    let client = running.map_err(|e| format!("`initialize` failed: {e}"))?;
    let info = client.peer_info().map(|i| (*i).clone());
    let tools = list_every_page(&client).await;
    // Closing is best effort: a server that does not stop in time is killed on drop, and the
    // list already received is kept.
    let _ = tokio::time::timeout(Duration::from_secs(3), client.cancel()).await;
    let tools = tools?;
    let mut doc = json!({ "tools": tools });
    if let Some(info) = info {
        doc["serverInfo"] = serde_json::to_value(&info.server_info).unwrap_or(Value::Null);
        if let Some(i) = &info.instructions {
            doc["instructions"] = Value::String(i.clone());
        }
    }
    serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())
}

/// How the error of a `tools/list` whose paging never ends begins.
pub const PAGING_NEVER_ENDS: &str = "`tools/list` paging does not end";

/// Pages a server may return for one `tools/list` before the listing is refused.
const MAX_PAGES: usize = 10_000;

/// Every page of `tools/list`, following `nextCursor`, as the server sent each tool (JSON). A
/// page the SDK's typed `ListToolsResult` does not accept (a tool whose `inputSchema` is not an
/// object, say) is kept as raw JSON, so that the importer reports exactly what is wrong with
/// which tool (as for a saved listing) instead of "unexpected response type". A server that
/// returns a cursor it has returned before (its paging would never end) or more than
/// [`MAX_PAGES`] pages is refused with that reason, instead of spinning until `--timeout`.
async fn list_every_page(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
) -> Result<Vec<Value>, String> {
    use rmcp::model::{ClientRequest, CustomRequest, ServerResult};
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen = std::collections::HashSet::new();
    for page in 1..=MAX_PAGES {
        let params = match &cursor {
            Some(c) => json!({ "cursor": c }),
            None => json!({}),
        };
        let result = client
            .send_request(ClientRequest::CustomRequest(CustomRequest::new(
                "tools/list",
                Some(params),
            )))
            .await
            .map_err(|e| format!("`tools/list` failed: {e}"))?;
        let (page_tools, next) = match result {
            ServerResult::ListToolsResult(r) => (
                r.tools
                    .iter()
                    .map(|t| serde_json::to_value(t).unwrap_or(Value::Null))
                    .collect(),
                r.next_cursor,
            ),
            other => {
                let v = serde_json::to_value(&other).unwrap_or(Value::Null);
                let Some(list) = v.get("tools").and_then(Value::as_array) else {
                    return Err(format!(
                        "`tools/list` page {page} has no `tools` list: {}",
                        v.to_string().chars().take(200).collect::<String>()
                    ));
                };
                let next = v
                    .get("nextCursor")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                (list.clone(), next)
            }
        };
        tools.extend::<Vec<Value>>(page_tools);
        match next {
            None => return Ok(tools),
            Some(next) => {
                if !seen.insert(next.clone()) {
                    return Err(format!(
                        "{PAGING_NEVER_ENDS}: page {page} returned the cursor `{next}`, which an earlier page returned too (a server bug; a saved listing can be imported instead)"
                    ));
                }
                cursor = Some(next);
            }
        }
    }
    Err(format!(
        "{PAGING_NEVER_ENDS}: more than {MAX_PAGES} pages (a server bug; a saved listing can be imported instead)"
    ))
}
