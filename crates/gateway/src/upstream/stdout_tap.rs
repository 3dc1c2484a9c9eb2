//! The stdout of an MCP server started on stdio, read by the SDK's transport through a tap that
//! keeps the first line that is no JSON-RPC message: a server that prints a banner or a log
//! line on stdout never finishes `initialize` (the SDK skips such lines), and the gateway's
//! error names the line instead of a bare timeout.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};

/// The first stray line of a child's stdout, once seen (at most [`StdoutTap::LINE_BYTES`]
/// bytes, control characters as spaces).
pub type Stray = Arc<Mutex<Option<String>>>;

/// A child's stdout, passed through unchanged, watched for a stray line; it owns the child,
/// which is killed when the transport drops it (`kill_on_drop`).
pub struct StdoutTap {
    inner: tokio::process::ChildStdout,
    _child: tokio::process::Child,
    /// The start of the line being read.
    line: Vec<u8>,
    stray: Stray,
}

impl StdoutTap {
    /// Bytes kept of a stray line.
    pub const LINE_BYTES: usize = 200;

    /// Tap `stdout` of `child`, recording the first stray line in `stray`.
    pub fn new(
        stdout: tokio::process::ChildStdout,
        child: tokio::process::Child,
        stray: Stray,
    ) -> StdoutTap {
        StdoutTap {
            inner: stdout,
            _child: child,
            line: Vec::new(),
            stray,
        }
    }

    fn watch(&mut self, bytes: &[u8]) {
        let mut recorded = self.stray.lock().unwrap_or_else(|p| p.into_inner());
        if recorded.is_some() {
            return;
        }
        for &b in bytes {
            if b != b'\n' {
                if self.line.len() < Self::LINE_BYTES {
                    self.line.push(b);
                }
                continue;
            }
            if let Some(line) = stray_line(&self.line) {
                *recorded = Some(line);
                return;
            }
            self.line.clear();
        }
    }
}

/// `line` in words when it cannot be a JSON-RPC message (one JSON object per line): not blank
/// and not starting with `{`; control characters become spaces.
pub fn stray_line(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    if text.is_empty() || text.starts_with('{') {
        return None;
    }
    Some(
        text.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect(),
    )
}

impl AsyncRead for StdoutTap {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            let new = buf.filled()[before..].to_vec();
            this.watch(&new);
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stray_line_is_one_that_is_no_json_object() {
        assert_eq!(stray_line(b"  {\"jsonrpc\":\"2.0\"}"), None);
        assert_eq!(stray_line(b" \r"), None);
        assert_eq!(
            stray_line(b"Starting server\tv1.2\r"),
            Some("Starting server v1.2".to_string())
        );
    }
}
