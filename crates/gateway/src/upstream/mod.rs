//! The upstreams the gateway executes: MCP servers ([`mcp`], one shared connection each) and
//! HTTP APIs ([`http`]). Both give the raw response text or an [`UpstreamError`] that names the
//! upstream and what went wrong.

pub mod http;
pub mod mcp;
pub mod multipart;
pub mod style;

use std::time::Duration;

/// Why an upstream call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpstreamError {
    /// The upstream (tool id).
    pub upstream: String,
    /// `timeout`, `unreachable`, `crashed`, `restarting`, `status`, `too_large`, `tool_error`,
    /// `not_configured`.
    pub kind: &'static str,
    /// What happened (credentials scrubbed).
    pub message: String,
    /// The upstream's HTTP status, for `status`.
    pub status: Option<u16>,
}

impl UpstreamError {
    /// An error of `kind` for `upstream`.
    pub fn new(upstream: &str, kind: &'static str, message: impl Into<String>) -> UpstreamError {
        UpstreamError {
            upstream: upstream.to_string(),
            kind,
            message: message.into(),
            status: None,
        }
    }
}

impl std::fmt::Display for UpstreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "upstream `{}` failed ({}): {}",
            self.upstream, self.kind, self.message
        )
    }
}

/// A raw upstream response.
#[derive(Clone, Debug)]
pub struct RawResponse {
    /// The body (an MCP `tools/call` result as JSON; an HTTP body as text).
    pub text: String,
    /// Time the upstream took.
    pub elapsed: Duration,
}

/// Backoff before attempt `n` (0-based) of a restart or retry: 100 ms doubling, at most 5 s.
pub fn backoff(n: u32) -> Duration {
    Duration::from_millis((100u64 << n.min(6)).min(5_000))
}

#[cfg(test)]
mod tests {
    #[test]
    fn backoff_doubles_to_a_ceiling() {
        let ms: Vec<u128> = (0..8).map(|n| super::backoff(n).as_millis()).collect();
        assert_eq!(ms, vec![100, 200, 400, 800, 1600, 3200, 5000, 5000]);
    }
}
