//! The language server's stdio transport: LSP frames (`Content-Length` header, blank line,
//! JSON body) read with a size limit, handed to the scaffold as [`lsp_server::Message`]s.
//!
//! `lsp-server`'s own stdio reader sizes its buffer from the header before reading, so a
//! corrupted or hostile `Content-Length` made it allocate that much (and abort). This reader
//! refuses a body over [`MAX_MESSAGE_BYTES`] and a header line over [`MAX_HEADER_LINE_BYTES`]
//! before allocating, and says what was wrong with a frame it cannot read ([`FrameError`]).

use std::fmt;
use std::io::{BufRead, Read, Write};
use std::sync::{Arc, Mutex};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::Message;

/// The largest message body read: 64 MiB (the largest source file `check` reads).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// The longest header line read (`Content-Length: ...`, `Content-Type: ...`).
pub const MAX_HEADER_LINE_BYTES: usize = 8 * 1024;

/// Why a frame of the stream could not be read; the stream cannot be read further.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameError {
    /// The stream ended inside a header or a body.
    Truncated(String),
    /// A header line that is not `Name: value` ended by CRLF, or a bad `Content-Length`.
    BadHeader(String),
    /// A `Content-Length` over [`MAX_MESSAGE_BYTES`].
    TooLarge(u128),
    /// A body that is not UTF-8, not JSON, or not a JSON-RPC message.
    BadBody(String),
    /// Reading stdin failed.
    Io(String),
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Truncated(m) | FrameError::BadHeader(m) | FrameError::BadBody(m) => {
                f.write_str(m)
            }
            FrameError::TooLarge(n) => write!(
                f,
                "a message of {n} bytes (`Content-Length`) is larger than the limit of {} MiB",
                MAX_MESSAGE_BYTES / (1024 * 1024)
            ),
            FrameError::Io(m) => write!(f, "cannot read the input stream: {m}"),
        }
    }
}

/// A header line, without its CRLF; `None` at a clean end of the stream (nothing read).
fn read_header_line(r: &mut impl BufRead) -> Result<Option<String>, FrameError> {
    let mut line = Vec::new();
    let limit = (MAX_HEADER_LINE_BYTES + 2) as u64;
    r.by_ref()
        .take(limit)
        .read_until(b'\n', &mut line)
        .map_err(|e| FrameError::Io(e.to_string()))?;
    if line.is_empty() {
        return Ok(None);
    }
    if !line.ends_with(b"\n") {
        if line.len() as u64 >= limit {
            return Err(FrameError::BadHeader(format!(
                "a header line longer than {MAX_HEADER_LINE_BYTES} bytes (is the stream framed as LSP, `Content-Length: N` then a blank line?)"
            )));
        }
        return Err(FrameError::Truncated(format!(
            "the stream ended inside a header line `{}`",
            String::from_utf8_lossy(&line).escape_debug()
        )));
    }
    if !line.ends_with(b"\r\n") {
        return Err(FrameError::BadHeader(format!(
            "the header line `{}` ends with LF, not CRLF (LSP headers end with `\\r\\n`)",
            String::from_utf8_lossy(&line[..line.len() - 1]).escape_debug()
        )));
    }
    line.truncate(line.len() - 2);
    String::from_utf8(line)
        .map(Some)
        .map_err(|_| FrameError::BadHeader("a header line that is not ASCII text".into()))
}

/// The body size a `Content-Length` value names.
fn content_length(value: &str) -> Result<usize, FrameError> {
    let trimmed = value.trim();
    let n: u128 = Some(trimmed)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| {
            FrameError::BadHeader(format!(
                "`Content-Length: {}` is not a byte count",
                trimmed.escape_debug()
            ))
        })?;
    if n > MAX_MESSAGE_BYTES as u128 {
        return Err(FrameError::TooLarge(n));
    }
    Ok(n as usize)
}

/// Read one message: `Ok(None)` at a clean end of the stream (between messages).
///
/// Errors: the [`FrameError`] that says what was wrong; nothing is allocated beyond
/// [`MAX_MESSAGE_BYTES`].
pub fn read_message(r: &mut impl BufRead) -> Result<Option<Message>, FrameError> {
    let mut size = None;
    let mut first = true;
    loop {
        let Some(line) = read_header_line(r)? else {
            if first {
                return Ok(None);
            }
            return Err(FrameError::Truncated(
                "the stream ended inside a message header (no blank line after it)".into(),
            ));
        };
        first = false;
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(FrameError::BadHeader(format!(
                "the header line `{}` is not `Name: value`",
                line.escape_debug()
            )));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            size = Some(content_length(value)?);
        }
    }
    let size = size
        .ok_or_else(|| FrameError::BadHeader("a message header without `Content-Length`".into()))?;
    let mut body = Vec::with_capacity(size.min(1 << 20));
    r.by_ref()
        .take(size as u64)
        .read_to_end(&mut body)
        .map_err(|e| FrameError::Io(e.to_string()))?;
    if body.len() < size {
        return Err(FrameError::Truncated(format!(
            "the stream ended after {} of the {size} bytes of a message body",
            body.len()
        )));
    }
    parse_body(&body).map(Some)
}

/// A body's message.
fn parse_body(body: &[u8]) -> Result<Message, FrameError> {
    let text = std::str::from_utf8(body).map_err(|e| {
        FrameError::BadBody(format!(
            "the message body is not UTF-8 (at byte {})",
            e.valid_up_to()
        ))
    })?;
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| FrameError::BadBody(format!("the message body is not JSON: {e}")))?;
    serde_json::from_value(value).map_err(|_| {
        FrameError::BadBody(
            "the message body is JSON but not a JSON-RPC request, response or notification".into(),
        )
    })
}

/// The transport's threads and what its reader saw.
pub struct Io {
    reader: std::thread::JoinHandle<()>,
    writer: std::thread::JoinHandle<std::io::Result<()>>,
    error: Arc<Mutex<Option<FrameError>>>,
}

impl Io {
    /// The frame error that ended the reading, if one did.
    pub fn frame_error(&self) -> Option<FrameError> {
        self.error.lock().ok().and_then(|e| e.clone())
    }

    /// Wait for the writer to flush (the connection's sender must be dropped first); the
    /// reader is left to end with the process when it waits on stdin.
    ///
    /// Errors: a frame error of the reader, else a failed write, as text.
    pub fn finish(self) -> Result<(), String> {
        let written = self.writer.join();
        if self.reader.is_finished() {
            let _ = self.reader.join();
        }
        if let Some(e) = self.error.lock().ok().and_then(|e| e.clone()) {
            return Err(e.to_string());
        }
        match written {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("cannot write to stdout: {e}")),
            Err(_) => Err("the writer thread failed".into()),
        }
    }
}

/// The reader loop: messages from `input` to `tx` until the end, `exit` or a frame error.
fn pump(mut input: impl BufRead, tx: Sender<Message>, error: Arc<Mutex<Option<FrameError>>>) {
    loop {
        match read_message(&mut input) {
            Ok(None) => return,
            Ok(Some(msg)) => {
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if tx.send(msg).is_err() || exit {
                    return;
                }
            }
            Err(e) => {
                if let Ok(mut slot) = error.lock() {
                    *slot = Some(e);
                }
                return;
            }
        }
    }
}

/// A connection over `input` and `output` (stdin and stdout for the server).
pub fn connect(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> (lsp_server::Connection, Io) {
    let (in_tx, in_rx) = crossbeam_channel::bounded::<Message>(0);
    let (out_tx, out_rx): (Sender<Message>, Receiver<Message>) =
        crossbeam_channel::bounded::<Message>(0);
    let error = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&error);
    let reader = std::thread::spawn(move || pump(input, in_tx, slot));
    let writer = std::thread::spawn(move || {
        let mut output = output;
        out_rx.into_iter().try_for_each(|m| m.write(&mut output))
    });
    let connection = lsp_server::Connection {
        sender: out_tx,
        receiver: in_rx,
    };
    (
        connection,
        Io {
            reader,
            writer,
            error,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Option<Message>, FrameError> {
        read_message(&mut std::io::Cursor::new(bytes.to_vec()))
    }

    fn err(bytes: &[u8]) -> String {
        read(bytes).unwrap_err().to_string()
    }

    #[test]
    fn a_well_framed_message_is_read() {
        let body = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let frame = format!(
            "Content-Length: {}\r\ncontent-type: x\r\n\r\n{body}",
            body.len()
        );
        let msg = read(frame.as_bytes()).unwrap().unwrap();
        assert!(matches!(msg, Message::Notification(n) if n.method == "exit"));
        assert!(read(b"").unwrap().is_none());
    }

    #[test]
    fn a_huge_content_length_is_refused_before_allocating() {
        assert_eq!(
            err(b"Content-Length: 99999999999999\r\n\r\n{}"),
            "a message of 99999999999999 bytes (`Content-Length`) is larger than the limit of 64 MiB"
        );
        assert_eq!(
            err(b"Content-Length: 99999999999999999999999999999999999999999\r\n\r\n{}"),
            "`Content-Length: 99999999999999999999999999999999999999999` is not a byte count"
        );
        assert_eq!(
            err(b"Content-Length: 67108865\r\n\r\n{}"),
            "a message of 67108865 bytes (`Content-Length`) is larger than the limit of 64 MiB"
        );
    }

    #[test]
    fn each_framing_fault_says_what_was_wrong() {
        assert_eq!(
            err(b"Content-Length: -1\r\n\r\n{}"),
            "`Content-Length: -1` is not a byte count"
        );
        assert_eq!(
            err(b"Content-Type: x\r\n\r\n{}"),
            "a message header without `Content-Length`"
        );
        assert_eq!(
            err(b"Content-Length: 2\n\n{}"),
            "the header line `Content-Length: 2` ends with LF, not CRLF (LSP headers end with `\\r\\n`)"
        );
        assert_eq!(
            err(b"hello world\r\n\r\n"),
            "the header line `hello world` is not `Name: value`"
        );
        assert_eq!(
            err(b"Content-Length: 10\r\n\r\n{}"),
            "the stream ended after 2 of the 10 bytes of a message body"
        );
        assert_eq!(
            err(b"Content-Length: 3\r\n\r\nabc"),
            "the message body is not JSON: expected value at line 1 column 1"
        );
        assert_eq!(
            err(b"Content-Length: 2\r\n\r\n[]"),
            "the message body is JSON but not a JSON-RPC request, response or notification"
        );
        assert_eq!(
            err(b"Content-Length: 2\r\n\r\n\xff\xfe"),
            "the message body is not UTF-8 (at byte 0)"
        );
        assert_eq!(
            err(b"Content-Length: 2\r\n"),
            "the stream ended inside a message header (no blank line after it)"
        );
        assert_eq!(
            err(b"Content-Len"),
            "the stream ended inside a header line `Content-Len`"
        );
        let long = vec![b'x'; MAX_HEADER_LINE_BYTES + 10];
        assert_eq!(
            err(&long),
            "a header line longer than 8192 bytes (is the stream framed as LSP, `Content-Length: N` then a blank line?)"
        );
    }
}
