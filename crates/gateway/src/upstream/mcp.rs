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
use rmcp::transport::StreamableHttpClientTransport;
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

/// A connection's peer and its generation ([`Conn::generation`]).
type Connected = (Peer<RoleClient>, u64);

/// A connection attempt in progress: when it began, and where its outcome is published.
type Connecting = (
    Instant,
    tokio::sync::watch::Receiver<Option<Result<Connected, UpstreamError>>>,
);

struct Conn {
    service: Option<RunningService<RoleClient, ()>>,
    failures: u32,
    retry_at: Option<Instant>,
    /// The connect running in the background, if one is.
    connecting: Option<Connecting>,
    /// The generation of the latest connection: counted up by each successful connect.
    generation: u64,
    /// The latest generation counted as dead: the calls failing together on one dead
    /// connection count one failure for the backoff, not one each.
    dead: u64,
}

/// The variables of the gateway's environment a server started on stdio inherits, as the
/// official MCP SDKs' `get_default_environment` keeps them (Python and TypeScript: `HOME`,
/// `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`; on Windows the system's own), with the locale
/// (`LANG`, `LC_ALL`, `LC_CTYPE`) and the folder for temporary files (`TMPDIR`). Nothing else
/// reaches the child (the gateway's environment holds other upstreams' credentials) but the
/// upstream's configured `env` ([`crate::config::GatewayConfig::child_env`]).
#[cfg(not(windows))]
pub const INHERITED_ENV: &[&str] = &[
    "HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR",
];
/// See the other platforms' list.
#[cfg(windows)]
pub const INHERITED_ENV: &[&str] = &[
    "APPDATA",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PATHEXT",
    "PROCESSOR_ARCHITECTURE",
    "PROGRAMFILES",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "USERNAME",
    "USERPROFILE",
];

/// The environment of a server started on stdio: the [`INHERITED_ENV`] variables `var` has
/// (a value starting `()`, a shell function, is left out as the SDKs leave it out), then
/// `configured` over them.
pub fn child_environment(
    var: impl Fn(&str) -> Option<String>,
    configured: &std::collections::BTreeMap<String, String>,
) -> std::collections::BTreeMap<String, String> {
    let mut env: std::collections::BTreeMap<String, String> = INHERITED_ENV
        .iter()
        .filter_map(|k| {
            var(k)
                .filter(|v| !v.starts_with("()"))
                .map(|v| (k.to_string(), v))
        })
        .collect();
    env.extend(configured.iter().map(|(k, v)| (k.clone(), v.clone())));
    env
}

/// Called with a warning about an upstream (logged as an event line).
pub type Warn = std::sync::Arc<dyn Fn(String) + Send + Sync>;

/// What a connect of an upstream needs, shared with the background task that connects.
struct Shared {
    name: String,
    endpoint: Endpoint,
    conn: Mutex<Conn>,
    /// The tool's declared MCP endpoints (compared with `tools/list` on each connect).
    declared: Vec<schemarouter_core::artifact::EndpointData>,
    warn: Warn,
    /// How long a connect (the process start and `initialize`) may take.
    connect_timeout: Duration,
    /// The environment of a server started on stdio ([`child_environment`]).
    env: std::collections::BTreeMap<String, String>,
}

/// One MCP upstream and its shared connection.
pub struct McpUpstream {
    shared: std::sync::Arc<Shared>,
}

impl McpUpstream {
    /// An upstream not yet connected (the first call connects). `declared` are the tool's MCP
    /// endpoints as the artifact holds them; `warn` receives the drift warning;
    /// `connect_timeout` bounds a connect (the server's start and `initialize`), which runs
    /// apart from the calls that wait for it. A server started on stdio gets `env` as its whole
    /// environment ([`child_environment`]).
    pub fn new(
        name: &str,
        endpoint: Endpoint,
        declared: Vec<schemarouter_core::artifact::EndpointData>,
        warn: Warn,
        connect_timeout: Duration,
        env: std::collections::BTreeMap<String, String>,
    ) -> McpUpstream {
        McpUpstream {
            shared: std::sync::Arc::new(Shared {
                name: name.to_string(),
                endpoint,
                declared,
                warn,
                connect_timeout,
                env,
                conn: Mutex::new(Conn {
                    service: None,
                    failures: 0,
                    retry_at: None,
                    connecting: None,
                    generation: 0,
                    dead: 0,
                }),
            }),
        }
    }

    /// The connection's peer, connecting (or reconnecting after a death) when needed. A
    /// connect runs in the background under its own timeout: a call waits for it at most
    /// `timeout`, and a call that gives up leaves it running, so a server slower to start than
    /// one call's timeout is up for a later call.
    async fn peer(&self, timeout: Duration) -> Result<Connected, UpstreamError> {
        let (began, mut rx) = {
            let mut c = self.shared.conn.lock().await;
            if let Some(s) = &c.service {
                if !s.is_transport_closed() {
                    return Ok((s.peer().clone(), c.generation));
                }
                c.service = None;
            }
            match &c.connecting {
                Some(connecting) => connecting.clone(),
                None => {
                    if let Some(at) = c.retry_at
                        && Instant::now() < at
                    {
                        return Err(UpstreamError::new(
                            &self.shared.name,
                            "restarting",
                            format!(
                                "the connection died and is started again in {} ms (after {} failure(s) in a row)",
                                at.saturating_duration_since(Instant::now()).as_millis(),
                                c.failures
                            ),
                        ));
                    }
                    let (tx, rx) = tokio::sync::watch::channel(None);
                    let connecting = (Instant::now(), rx);
                    c.connecting = Some(connecting.clone());
                    let shared = self.shared.clone();
                    tokio::spawn(async move { shared.connect_in_background(tx).await });
                    connecting
                }
            }
        };
        match tokio::time::timeout(timeout, rx.wait_for(Option::is_some)).await {
            Ok(Ok(outcome)) => outcome.clone().unwrap_or_else(|| {
                Err(UpstreamError::new(
                    &self.shared.name,
                    "crashed",
                    "the connect ended without an outcome",
                ))
            }),
            Ok(Err(_)) => Err(UpstreamError::new(
                &self.shared.name,
                "crashed",
                "the connect ended without an outcome",
            )),
            Err(_) => Err(UpstreamError::new(
                &self.shared.name,
                "timeout",
                format!(
                    "the server is still starting: `initialize` has not finished {} ms after the connect began (this call waited {} ms, its timeout); the start goes on for up to {} ms (connect_timeout_ms), so a later call finds the server up",
                    began.elapsed().as_millis(),
                    timeout.as_millis(),
                    self.shared.connect_timeout.as_millis()
                ),
            )),
        }
    }
}

impl Shared {
    /// Connect within the connect timeout, keep the connection (or count the failure), and
    /// publish the outcome to the calls waiting for it.
    async fn connect_in_background(
        &self,
        tx: tokio::sync::watch::Sender<Option<Result<Connected, UpstreamError>>>,
    ) {
        let stray = super::stdout_tap::Stray::default();
        let outcome = match tokio::time::timeout(self.connect_timeout, self.connect(&stray)).await {
            Ok(Ok(s)) => {
                let peer = s.peer().clone();
                self.check_drift(&peer, self.connect_timeout).await;
                Ok((s, peer))
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(UpstreamError::new(
                &self.name,
                "timeout",
                format!(
                    "the server did not finish `initialize` within {} ms (connect_timeout_ms){}",
                    self.connect_timeout.as_millis(),
                    stray_said(&stray)
                ),
            )),
        };
        let mut c = self.conn.lock().await;
        c.connecting = None;
        let outcome = match outcome {
            Ok((s, peer)) => {
                c.service = Some(s);
                c.failures = 0;
                c.retry_at = None;
                c.generation += 1;
                Ok((peer, c.generation))
            }
            Err(e) => {
                c.retry_at = Some(Instant::now() + backoff(c.failures));
                c.failures += 1;
                Err(e)
            }
        };
        drop(c);
        tx.send_replace(Some(outcome));
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

    /// Start or reach the server and run `initialize`; a child's first stray stdout line goes
    /// to `stray` ([`super::stdout_tap`]).
    async fn connect(
        &self,
        stray: &super::stdout_tap::Stray,
    ) -> Result<RunningService<RoleClient, ()>, UpstreamError> {
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
                cmd.args(&words[1..])
                    .env_clear()
                    .envs(&self.env)
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .kill_on_drop(true);
                let mut child = cmd.spawn().map_err(|e| {
                    UpstreamError::new(
                        &self.name,
                        "unreachable",
                        format!("cannot start `{}`: {e}", words[0]),
                    )
                })?;
                let tail = StderrTail::follow(child.stderr.take());
                let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
                    return Err(UpstreamError::new(
                        &self.name,
                        "unreachable",
                        "the child's stdin or stdout is not piped",
                    ));
                };
                let stdout = super::stdout_tap::StdoutTap::new(stdout, child, stray.clone());
                match ().serve((stdout, stdin)).await {
                    Ok(s) => Ok(s),
                    Err(e) => Err(UpstreamError::new(
                        &self.name,
                        "crashed",
                        format!(
                            "`initialize` failed: {}{}{}",
                            describe(&e),
                            stray_said(stray),
                            tail.said().await
                        ),
                    )),
                }
            }
            Endpoint::Url(url) => {
                let transport = StreamableHttpClientTransport::from_uri(url.as_str());
                ().serve(transport).await.map_err(|e| {
                    UpstreamError::new(
                        &self.name,
                        "unreachable",
                        format!("`initialize` at {url} failed: {}", describe(&e)),
                    )
                })
            }
        }
    }

    /// Count connection `generation` dead under a call: dropped, started again after the
    /// backoff. Once per generation: the other calls in flight on it fail too, and a call
    /// failing late on an older connection leaves the newer one alone.
    async fn died(&self, generation: u64) {
        let mut c = self.conn.lock().await;
        if generation != c.generation || c.dead == generation {
            return;
        }
        c.dead = generation;
        c.service = None;
        c.retry_at = Some(Instant::now() + backoff(c.failures));
        c.failures += 1;
    }
}

/// `; its stdout held a line that is not JSON-RPC: ...` when the child wrote one (empty
/// otherwise): the SDK skips such a line, so a server that logs on stdout seems not to answer.
fn stray_said(stray: &super::stdout_tap::Stray) -> String {
    match &*stray.lock().unwrap_or_else(|p| p.into_inner()) {
        Some(line) => format!(
            "; its stdout held a line that is not JSON-RPC (a server on stdio writes only JSON-RPC messages there, its logs on stderr): `{line}`"
        ),
        None => String::new(),
    }
}

/// The last lines a child process wrote to its stderr (read all the while, so the child never
/// blocks on a full pipe): what a server that dies at start says about why.
struct StderrTail {
    lines: std::sync::Arc<std::sync::Mutex<std::collections::VecDeque<String>>>,
    reader: Option<tokio::task::JoinHandle<()>>,
}

impl StderrTail {
    /// Lines kept (the last ones).
    const LINES: usize = 8;
    /// Bytes kept of one line.
    const LINE_BYTES: usize = 300;

    fn follow(stderr: Option<tokio::process::ChildStderr>) -> StderrTail {
        let lines = std::sync::Arc::new(std::sync::Mutex::new(std::collections::VecDeque::new()));
        let reader = stderr.map(|stderr| {
            let lines = lines.clone();
            tokio::spawn(async move {
                use tokio::io::AsyncBufReadExt;
                let mut r = tokio::io::BufReader::new(stderr);
                let mut buf = Vec::new();
                while matches!(r.read_until(b'\n', &mut buf).await, Ok(n) if n > 0) {
                    let text = String::from_utf8_lossy(&buf);
                    let line = truncate(text.trim_end(), Self::LINE_BYTES);
                    buf.clear();
                    if line.is_empty() {
                        continue;
                    }
                    let mut l = lines.lock().unwrap_or_else(|p| p.into_inner());
                    if l.len() == Self::LINES {
                        l.pop_front();
                    }
                    l.push_back(line);
                }
            })
        });
        StderrTail { lines, reader }
    }

    /// `; its stderr ended with: LINE | LINE` (empty when it wrote nothing), once the child's
    /// stderr has closed or 500 ms have passed.
    async fn said(mut self) -> String {
        if let Some(reader) = self.reader.take() {
            let _ = tokio::time::timeout(Duration::from_millis(500), reader).await;
        }
        let l = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        if l.is_empty() {
            return String::new();
        }
        format!(
            "; its stderr ended with: {}",
            l.iter().cloned().collect::<Vec<_>>().join(" | ")
        )
    }
}

/// The fault kind of a `tools/call` that failed with `e` (`closed`: the connection is closed):
/// `crashed` when the connection closed under the call (the process exited, the HTTP server
/// went away), `unreachable` when the request could not be sent (an HTTP server that is down),
/// `timeout` when the SDK gave up waiting, `tool_error` when the server answered the call
/// with a JSON-RPC error (a proper answer that the call failed: an unknown tool, arguments it
/// refuses), else `malformed` (an answer that is no result).
fn call_fault(e: &rmcp::ServiceError, closed: bool) -> &'static str {
    use rmcp::ServiceError as E;
    match e {
        _ if closed => "crashed",
        E::McpError(_) => "tool_error",
        E::TransportClosed => "crashed",
        E::TransportSend(_) => "unreachable",
        E::Timeout { .. } | E::Cancelled { .. } => "timeout",
        _ => "malformed",
    }
}

/// An SDK error in words for the agent: its text followed by the causes it does not already
/// say (an HTTP client's "error sending request" hides "connection refused"), with the Rust type
/// names the SDK's transport errors carry (`Transport [rmcp::transport::...<...>] error`) left
/// out.
pub fn describe(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        source = s.source();
    }
    without_type_names(&text)
}

/// `text` without the bracketed groups that hold a Rust type path (`[a::b::C<d::E>]`: two `::`
/// at least, which no IPv6 address has) and the space before them.
fn without_type_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let mut depth = 0usize;
        let close = rest[open..].char_indices().find_map(|(i, c)| {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(open + i)
        });
        let Some(close) = close else { break };
        let group = &rest[open..=close];
        if group.matches("::").count() >= 2 {
            out.push_str(rest[..open].trim_end_matches(' '));
        } else {
            out.push_str(&rest[..=close]);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

impl McpUpstream {
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
        let (peer, generation) = self.peer(timeout).await?;
        let left = timeout.saturating_sub(start.elapsed());
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let result = match tokio::time::timeout(left, peer.call_tool(params)).await {
            Err(_) => {
                return Err(UpstreamError::new(
                    &self.shared.name,
                    "timeout",
                    format!(
                        "`tools/call` of `{tool}` did not answer within {} ms",
                        timeout.as_millis()
                    ),
                ));
            }
            Ok(Err(e)) => {
                let kind = call_fault(&e, peer.is_transport_closed());
                if matches!(kind, "crashed" | "unreachable") {
                    self.shared.died(generation).await;
                }
                let message = match &e {
                    rmcp::ServiceError::McpError(d) => format!(
                        "`{tool}` answered with a JSON-RPC error ({}): {}",
                        d.code.0,
                        truncate(&d.message, 300)
                    ),
                    _ => format!("`tools/call` of `{tool}` failed: {}", describe(&e)),
                };
                return Err(UpstreamError::new(&self.shared.name, kind, message));
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
                &self.shared.name,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_errors_name_no_rust_type_and_keep_their_causes() {
        assert_eq!(
            without_type_names(
                "Transport send error: Transport [rmcp::transport::worker::WorkerTransport<rmcp::transport::streamable_http_client::StreamableHttpClientWorker<reqwest::Client>>] error: Client error: error sending request for url (http://[::1]:8000/mcp)"
            ),
            "Transport send error: Transport error: Client error: error sending request for url (http://[::1]:8000/mcp)"
        );
        assert_eq!(without_type_names("a [b] c [d"), "a [b] c [d");
        #[derive(Debug)]
        struct Inner;
        impl std::fmt::Display for Inner {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("tcp connect error: Connection refused")
            }
        }
        impl std::error::Error for Inner {}
        #[derive(Debug)]
        struct Outer(Inner);
        impl std::fmt::Display for Outer {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("Transport [a::b::C] error: error sending request")
            }
        }
        impl std::error::Error for Outer {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        assert_eq!(
            describe(&Outer(Inner)),
            "Transport error: error sending request: tcp connect error: Connection refused"
        );
    }

    /// A server that dies at start: the error says what it wrote to stderr (its last lines),
    /// and the next call within the backoff is `restarting`.
    #[tokio::test]
    async fn a_server_that_dies_at_start_is_named_with_its_stderr() {
        let warn: Warn = std::sync::Arc::new(|_| {});
        let command =
            "sh -c 'echo starting >&2; echo \"cannot open file x.py: No such file\" >&2; exit 2'";
        let up = McpUpstream::new(
            "broken",
            Endpoint::Command(command.to_string()),
            Vec::new(),
            warn,
            Duration::from_secs(10),
            child_environment(|k| std::env::var(k).ok(), &Default::default()),
        );
        let e = up
            .call("echo", serde_json::Map::new(), Duration::from_secs(10))
            .await
            .unwrap_err();
        assert_eq!(e.kind, "crashed", "{e}");
        assert!(
            e.message.ends_with(
                "; its stderr ended with: starting | cannot open file x.py: No such file"
            ),
            "{e}"
        );
        assert!(e.message.starts_with("`initialize` failed: "), "{e}");
        let again = up
            .call("echo", serde_json::Map::new(), Duration::from_secs(10))
            .await
            .unwrap_err();
        assert_eq!(again.kind, "restarting", "{again}");
    }

    /// The calls in flight when a connection dies all fail on it: they count one failure for
    /// the restart backoff, and a late failure on an older connection leaves the newer alone.
    #[tokio::test]
    async fn one_dead_connection_counts_once() {
        let warn: Warn = std::sync::Arc::new(|_| {});
        let up = McpUpstream::new(
            "crashy",
            Endpoint::Command("true".to_string()),
            Vec::new(),
            warn,
            Duration::from_secs(1),
            Default::default(),
        );
        let shared = &up.shared;
        shared.conn.lock().await.generation = 3;
        for _ in 0..40 {
            shared.died(3).await;
        }
        let state = |c: &Conn| (c.failures, c.dead, c.retry_at.is_some());
        assert_eq!(state(&*shared.conn.lock().await), (1, 3, true));
        shared.died(2).await;
        assert_eq!(state(&*shared.conn.lock().await), (1, 3, true));
        shared.conn.lock().await.generation = 4;
        shared.died(4).await;
        assert_eq!(state(&*shared.conn.lock().await), (2, 4, true));
    }

    /// A child that prints a banner on stdout never finishes `initialize` (the SDK skips the
    /// line): the timeout names the line.
    #[tokio::test]
    async fn a_server_printing_on_stdout_is_named_with_the_line() {
        let warn: Warn = std::sync::Arc::new(|_| {});
        let command = "sh -c 'echo \"Server v1 ready on stdio\"; sleep 5'";
        let up = McpUpstream::new(
            "chatty",
            Endpoint::Command(command.to_string()),
            Vec::new(),
            warn,
            Duration::from_millis(700),
            child_environment(|k| std::env::var(k).ok(), &Default::default()),
        );
        let e = up
            .call("echo", serde_json::Map::new(), Duration::from_secs(5))
            .await
            .unwrap_err();
        assert_eq!(
            (e.kind, e.message.as_str()),
            (
                "timeout",
                "the server did not finish `initialize` within 700 ms (connect_timeout_ms); its stdout held a line that is not JSON-RPC (a server on stdio writes only JSON-RPC messages there, its logs on stderr): `Server v1 ready on stdio`"
            )
        );
    }

    /// A child gets the inherited variables the gateway has (not a shell function) and its
    /// configured ones, nothing else.
    #[test]
    fn a_child_gets_only_the_inherited_and_configured_variables() {
        let var = |k: &str| match k {
            "PATH" => Some("/usr/bin".to_string()),
            "SHELL" => Some("() { :; }".to_string()),
            "OTHER_API_KEY" => Some("secret".to_string()),
            _ => None,
        };
        let configured =
            std::collections::BTreeMap::from([("PATH".to_string(), "/opt/bin".to_string())]);
        assert_eq!(
            child_environment(var, &Default::default()),
            std::collections::BTreeMap::from([("PATH".to_string(), "/usr/bin".to_string())])
        );
        assert_eq!(child_environment(var, &configured), configured);
    }

    #[test]
    fn a_call_that_fails_in_the_transport_is_no_malformed_answer() {
        use rmcp::ServiceError as E;
        assert_eq!(call_fault(&E::TransportClosed, false), "crashed");
        assert_eq!(call_fault(&E::UnexpectedResponse, true), "crashed");
        assert_eq!(
            call_fault(
                &E::Timeout {
                    timeout: Duration::from_secs(1)
                },
                false
            ),
            "timeout"
        );
        assert_eq!(call_fault(&E::UnexpectedResponse, false), "malformed");
        let refused = rmcp::model::ErrorData::invalid_params("no such tool", None);
        assert_eq!(call_fault(&E::McpError(refused), false), "tool_error");
    }
}
