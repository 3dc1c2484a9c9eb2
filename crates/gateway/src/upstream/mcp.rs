//! Upstream MCP servers (the official Rust SDK `rmcp` as client): a child process on stdio (the
//! command the import recorded) or a streamable-HTTP endpoint. One connection per upstream is
//! shared by every request (requests are multiplexed by JSON-RPC id); a connection that dies is
//! started again on the next call, after a backoff that doubles with each failure in a row;
//! every call has a timeout.

use super::{RawResponse, UpstreamError, backoff};
use rmcp::RoleClient;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{Peer, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::Value;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// Where an MCP upstream is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// A command line started as a child process on stdio.
    Command(String),
    /// A streamable-HTTP endpoint.
    Url(String),
}

struct Conn {
    service: Option<RunningService<RoleClient, ()>>,
    failures: u32,
    retry_at: Option<Instant>,
}

/// Called with a warning about an upstream (logged as an event line).
pub type Warn = std::sync::Arc<dyn Fn(String) + Send + Sync>;

/// One MCP upstream and its shared connection.
pub struct McpUpstream {
    name: String,
    endpoint: Endpoint,
    conn: Mutex<Conn>,
    /// The tool's declared MCP endpoints (compared with `tools/list` on each connect).
    declared: Vec<schemarouter_core::artifact::EndpointData>,
    warn: Warn,
}

impl McpUpstream {
    /// An upstream not yet connected (the first call connects). `declared` are the tool's MCP
    /// endpoints as the artifact holds them; `warn` receives the drift warning.
    pub fn new(
        name: &str,
        endpoint: Endpoint,
        declared: Vec<schemarouter_core::artifact::EndpointData>,
        warn: Warn,
    ) -> McpUpstream {
        McpUpstream {
            name: name.to_string(),
            endpoint,
            declared,
            warn,
            conn: Mutex::new(Conn {
                service: None,
                failures: 0,
                retry_at: None,
            }),
        }
    }

    /// The connection's peer, connecting (or reconnecting after a death) when needed.
    async fn peer(&self, timeout: Duration) -> Result<Peer<RoleClient>, UpstreamError> {
        let mut c = self.conn.lock().await;
        if let Some(s) = &c.service {
            if !s.is_transport_closed() {
                return Ok(s.peer().clone());
            }
            c.service = None;
        }
        if let Some(at) = c.retry_at
            && Instant::now() < at
        {
            return Err(UpstreamError::new(
                &self.name,
                "restarting",
                format!(
                    "the connection died and is started again in {} ms (after {} failure(s) in a row)",
                    at.saturating_duration_since(Instant::now()).as_millis(),
                    c.failures
                ),
            ));
        }
        match tokio::time::timeout(timeout, self.connect()).await {
            Ok(Ok(s)) => {
                let peer = s.peer().clone();
                self.check_drift(&peer, timeout).await;
                c.service = Some(s);
                c.failures = 0;
                c.retry_at = None;
                Ok(peer)
            }
            Ok(Err(e)) => {
                c.retry_at = Some(Instant::now() + backoff(c.failures));
                c.failures += 1;
                Err(e)
            }
            Err(_) => {
                c.retry_at = Some(Instant::now() + backoff(c.failures));
                c.failures += 1;
                Err(UpstreamError::new(
                    &self.name,
                    "timeout",
                    format!(
                        "the server did not finish `initialize` within {} ms",
                        timeout.as_millis()
                    ),
                ))
            }
        }
    }

    /// Warn when the server's `tools/list` no longer matches the declarations, each change
    /// classified with `schemarouter diff`'s codes ([`crate::drift`]).
    async fn check_drift(&self, peer: &Peer<RoleClient>, timeout: Duration) {
        let Ok(Ok(tools)) = tokio::time::timeout(timeout, peer.list_all_tools()).await else {
            return;
        };
        let served: Vec<Value> = tools
            .iter()
            .filter_map(|t| serde_json::to_value(t).ok())
            .collect();
        let drift = crate::drift::compare(&self.name, &self.declared, &served);
        if let Some(w) = crate::drift::warning(&self.name, &drift) {
            (self.warn)(w);
        }
    }

    async fn connect(&self) -> Result<RunningService<RoleClient, ()>, UpstreamError> {
        match &self.endpoint {
            Endpoint::Command(line) => {
                let words = shlex::split(line)
                    .filter(|w| !w.is_empty())
                    .ok_or_else(|| {
                        UpstreamError::new(
                            &self.name,
                            "not_configured",
                            format!("cannot split the command `{line}` into words"),
                        )
                    })?;
                let mut cmd = tokio::process::Command::new(&words[0]);
                cmd.args(&words[1..]).kill_on_drop(true);
                let (transport, _stderr) = TokioChildProcess::builder(cmd)
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .map_err(|e| {
                        UpstreamError::new(
                            &self.name,
                            "unreachable",
                            format!("cannot start `{}`: {e}", words[0]),
                        )
                    })?;
                ().serve(transport).await.map_err(|e| {
                    UpstreamError::new(&self.name, "crashed", format!("`initialize` failed: {e}"))
                })
            }
            Endpoint::Url(url) => {
                let transport = StreamableHttpClientTransport::from_uri(url.as_str());
                ().serve(transport).await.map_err(|e| {
                    UpstreamError::new(
                        &self.name,
                        "unreachable",
                        format!("`initialize` at {url} failed: {e}"),
                    )
                })
            }
        }
    }

    /// `tools/call` of `tool` with `arguments`, within `timeout` (connecting included). The
    /// result is the whole `CallToolResult` as JSON text; a result with `isError: true` is a
    /// `tool_error`.
    pub async fn call(
        &self,
        tool: &str,
        arguments: serde_json::Map<String, Value>,
        timeout: Duration,
    ) -> Result<RawResponse, UpstreamError> {
        let start = Instant::now();
        let peer = self.peer(timeout).await?;
        let left = timeout.saturating_sub(start.elapsed());
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let result = match tokio::time::timeout(left, peer.call_tool(params)).await {
            Err(_) => {
                return Err(UpstreamError::new(
                    &self.name,
                    "timeout",
                    format!(
                        "`tools/call` of `{tool}` did not answer within {} ms",
                        timeout.as_millis()
                    ),
                ));
            }
            Ok(Err(e)) => {
                let kind = if peer.is_transport_closed() {
                    "crashed"
                } else {
                    "malformed"
                };
                if kind == "crashed" {
                    let mut c = self.conn.lock().await;
                    c.service = None;
                    c.retry_at = Some(Instant::now() + backoff(c.failures));
                    c.failures += 1;
                }
                return Err(UpstreamError::new(
                    &self.name,
                    kind,
                    format!("`tools/call` of `{tool}` failed: {e}"),
                ));
            }
            Ok(Ok(r)) => r,
        };
        let text = serde_json::to_string(&result).unwrap_or_default();
        if result.is_error == Some(true) {
            let msg: String = result
                .content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.clone()))
                .collect::<Vec<_>>()
                .join(" ");
            return Err(UpstreamError::new(
                &self.name,
                "tool_error",
                format!("`{tool}` answered with an error: {}", truncate(&msg, 300)),
            ));
        }
        Ok(RawResponse {
            text,
            content_type: None,
            binary: None,
            elapsed: start.elapsed(),
        })
    }
}

/// At most `n` bytes of `s` (at a character boundary), `…` when cut.
pub fn truncate(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    format!("{}…", &s[..s.floor_char_boundary(n)])
}
