//! The upstreams the gateway executes: MCP servers ([`mcp`], one shared connection each) and
//! HTTP APIs ([`http`]). Both give the raw response text or an [`UpstreamError`] that names the
//! upstream and what went wrong.

pub mod binary;
pub mod http;
pub mod mcp;
pub mod multipart;
pub mod stdout_tap;
pub mod style;
pub mod xml;

use std::time::Duration;

/// Why an upstream call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpstreamError {
    /// The upstream (tool id).
    pub upstream: String,
    /// What failed: one of the outcomes of the one table,
    /// [`schemarouter_server::metrics::GATEWAY_OUTCOMES`] (but `ok`).
    pub kind: &'static str,
    /// What happened (credentials scrubbed).
    pub message: String,
    /// The upstream's HTTP status, for `status`.
    pub status: Option<u16>,
}

impl UpstreamError {
    /// An error of `kind` for `upstream`.
    pub fn new(upstream: &str, kind: &'static str, message: impl Into<String>) -> UpstreamError {
        debug_assert!(
            kind != "ok" && schemarouter_server::metrics::GATEWAY_OUTCOMES.contains(&kind),
            "`{kind}` is no failed outcome of GATEWAY_OUTCOMES"
        );
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
    /// The body (an MCP `tools/call` result as JSON; an HTTP body as text). Empty for a binary
    /// body.
    pub text: String,
    /// The media type an HTTP upstream named (`Content-Type`).
    pub content_type: Option<String>,
    /// An HTTP body that is no text (a binary media type, [`binary::binary_media`], or bytes
    /// that are not UTF-8): never read as text.
    pub binary: Option<Binary>,
    /// Time the upstream took.
    pub elapsed: Duration,
}

/// A binary HTTP body (an image, a PDF, `application/octet-stream`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binary {
    /// The media type the upstream named (`application/octet-stream` when it named none).
    pub content_type: String,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// The bytes a base64 string holds (RFC 4648: the standard alphabet, else the URL-safe one;
/// padding optional): how an agent passes bytes (a `format: byte` body, a binary multipart
/// part), since JSON arguments hold no raw bytes.
///
/// Errors: the string is neither.
pub fn base64_bytes(s: &str) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    let config =
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
    let standard = GeneralPurpose::new(&base64::alphabet::STANDARD, config);
    let url_safe = GeneralPurpose::new(&base64::alphabet::URL_SAFE, config);
    standard.decode(s).or_else(|e| {
        url_safe.decode(s).map_err(|_| {
            format!("not base64 (RFC 4648; the standard or the URL-safe alphabet): {e}")
        })
    })
}

/// Backoff before attempt `n` (0-based) of a restart or retry: 100 ms doubling, at most 5 s.
pub fn backoff(n: u32) -> Duration {
    Duration::from_millis((100u64 << n.min(6)).min(5_000))
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_in_either_alphabet_with_or_without_padding() {
        assert_eq!(super::base64_bytes("+/8=").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(super::base64_bytes("-_8").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(super::base64_bytes("").unwrap(), Vec::<u8>::new());
        assert_eq!(
            super::base64_bytes("a b").unwrap_err(),
            "not base64 (RFC 4648; the standard or the URL-safe alphabet): Invalid symbol 32, offset 1."
        );
    }

    #[test]
    fn backoff_doubles_to_a_ceiling() {
        let ms: Vec<u128> = (0..8).map(|n| super::backoff(n).as_millis()).collect();
        assert_eq!(ms, vec![100, 200, 400, 800, 1600, 3200, 5000, 5000]);
    }
}
