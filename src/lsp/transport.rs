//! The language server's stdio transport: LSP frames (`Content-Length` header, blank line,
//! JSON body) read with a size limit, handed to the scaffold as [`lsp_server::Message`]s.
//!
//! `lsp-server`'s own stdio reader sizes its buffer from the header before reading, so a
//! corrupted or hostile `Content-Length` made it allocate that much (and abort). This reader
//! refuses a body over [`MAX_MESSAGE_BYTES`] and a header line over [`MAX_HEADER_LINE_BYTES`]
//! before allocating, and says what was wrong with a frame it cannot read ([`FrameError`]).
//!
//! A fault in one message does not end the session (an editor's client would lose its server):
//! a body that is not JSON is answered with a JSON-RPC -32700 parse error, one that is JSON but
//! no message with -32600 (with its `id` when it has one), and a header that cannot be read
//! with -32700, after which the reader skips to the next `Content-Length` header (the LSP base
//! protocol's frame start); a body over the limit is answered and skipped the same way, unread
//! (never by the length its header claims, which may be corrupt). Only a stream
//! that ends inside a frame, or fails to read, ends the reading.

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
    read_message_from(r, None)
}

/// [`read_message`], with the frame's first header line already read when `first_line` is
/// given (the reader found it while skipping to the next frame).
fn read_message_from(
    r: &mut impl BufRead,
    mut first_line: Option<String>,
) -> Result<Option<Message>, FrameError> {
    let mut size = None;
    let mut too_large = None;
    let mut first = first_line.is_none();
    loop {
        let line = match first_line.take() {
            Some(l) => Some(l),
            None => read_header_line(r)?,
        };
        let Some(line) = line else {
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
            // A body over the limit is refused once the header is read to its end, so the
            // reader can skip exactly the body.
            match content_length(value) {
                Err(e @ FrameError::TooLarge(_)) => too_large = Some(e),
                other => size = Some(other?),
            }
        }
    }
    if let Some(e) = too_large {
        return Err(e);
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

/// What the reader does after a frame error: the answer to send (a JSON-RPC error response),
/// and whether the stream can be read on (`Skip::Resync`: to the next `Content-Length` header,
/// also past a body over the limit; `None`: the stream cannot be read further).
#[derive(Debug, PartialEq)]
enum Recovery {
    /// Answer, then read on from the next byte (the frame was read whole).
    Next(serde_json::Value),
    /// Answer, then skip to the next `Content-Length` header.
    Resync(serde_json::Value),
    /// Stop reading.
    Stop,
}

fn error_response(id: serde_json::Value, code: i64, message: String) -> serde_json::Value {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// How the reader goes on after `e` (`body`: the bytes of a body that was read whole).
fn recovery(e: &FrameError, body: Option<&[u8]>) -> Recovery {
    match e {
        FrameError::Truncated(_) | FrameError::Io(_) => Recovery::Stop,
        // Skipped to the next header, not by the length it gives: a corrupted or hostile
        // length (`Content-Length: 99999999999`) would swallow every later message.
        FrameError::TooLarge(_) => Recovery::Resync(error_response(
            serde_json::Value::Null,
            -32600,
            format!("Invalid Request: {e}; the reader skipped to the next `Content-Length` header"),
        )),
        FrameError::BadHeader(_) => Recovery::Resync(error_response(
            serde_json::Value::Null,
            -32700,
            format!("Parse error: {e}; the reader skipped to the next `Content-Length` header"),
        )),
        FrameError::BadBody(_) => {
            // JSON that is no message: an invalid request, answered with its id when it has one
            // JSON-RPC allows; text that is not JSON (or not UTF-8): a parse error.
            let value = body.and_then(|b| serde_json::from_slice::<serde_json::Value>(b).ok());
            match value {
                Some(v) => {
                    let id = match v.get("id") {
                        Some(
                            id @ (serde_json::Value::String(_) | serde_json::Value::Number(_)),
                        ) => id.clone(),
                        _ => serde_json::Value::Null,
                    };
                    Recovery::Next(error_response(id, -32600, format!("Invalid Request: {e}")))
                }
                None => Recovery::Next(error_response(
                    serde_json::Value::Null,
                    -32700,
                    format!("Parse error: {e}"),
                )),
            }
        }
    }
}

/// Skip to the next frame: read until the text `Content-Length` (in any case) starts a line
/// or follows a body, and return that header line whole; `None` when the stream ends first.
fn resync(r: &mut impl BufRead) -> Result<Option<String>, FrameError> {
    const KEY: &[u8] = b"content-length";
    let mut matched = 0;
    loop {
        let buf = r.fill_buf().map_err(|e| FrameError::Io(e.to_string()))?;
        if buf.is_empty() {
            return Ok(None);
        }
        let mut used = 0;
        let mut found = false;
        for &b in buf {
            used += 1;
            if b.to_ascii_lowercase() == KEY[matched] {
                matched += 1;
                if matched == KEY.len() {
                    found = true;
                    break;
                }
            } else {
                matched = usize::from(b.to_ascii_lowercase() == KEY[0]);
            }
        }
        r.consume(used);
        if found {
            let rest = read_header_line(r)?.unwrap_or_default();
            return Ok(Some(format!("Content-Length{rest}")));
        }
    }
}

/// Read one message as [`read_message_from`] does, keeping a body that is not a message so
/// that its answer can carry its `id`.
fn read_keeping_body(
    r: &mut impl BufRead,
    first_line: Option<String>,
) -> (Result<Option<Message>, FrameError>, Option<Vec<u8>>) {
    let mut kept = None;
    let mut tee = Tee {
        inner: r,
        body: &mut kept,
    };
    let result = read_message_from(&mut tee, first_line);
    (result, kept)
}

/// A reader that remembers the last body read through `read_to_end` (the body read of
/// [`read_message_from`]); header lines pass through `read_until`.
struct Tee<'a, R> {
    inner: &'a mut R,
    body: &'a mut Option<Vec<u8>>,
}

impl<R: BufRead> Read for Tee<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.body
            .get_or_insert_with(Vec::new)
            .extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Tee<'_, R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt)
    }
}

/// The reader loop: messages from `input` to `tx` until the end, `exit` or a frame error the
/// stream cannot be read past; a fault in one message is answered on `answers` and skipped.
fn pump(
    mut input: impl BufRead,
    tx: Sender<Message>,
    answers: Sender<serde_json::Value>,
    error: Arc<Mutex<Option<FrameError>>>,
) {
    // The frame the reader skipped to: its first header line, or the error reading it.
    let mut first_line: Option<Result<String, FrameError>> = None;
    loop {
        let (result, body) = match first_line.take() {
            Some(Err(e)) => (Err(e), None),
            Some(Ok(line)) => read_keeping_body(&mut input, Some(line)),
            None => read_keeping_body(&mut input, None),
        };
        let e = match result {
            Ok(None) => return,
            Ok(Some(msg)) => {
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if tx.send(msg).is_err() || exit {
                    return;
                }
                continue;
            }
            Err(e) => e,
        };
        let next = match recovery(&e, body.as_deref()) {
            Recovery::Stop => Err(e),
            Recovery::Next(answer) => answers.send(answer).map_err(|_| e),
            Recovery::Resync(answer) => answers.send(answer).map_err(|_| e).and_then(|()| {
                match resync(&mut input) {
                    Ok(Some(line)) => {
                        first_line = Some(Ok(line));
                        Ok(())
                    }
                    // The header found is itself unreadable: answered in its turn.
                    Err(e @ FrameError::BadHeader(_)) => {
                        first_line = Some(Err(e));
                        Ok(())
                    }
                    Err(e) => Err(e),
                    Ok(None) => Err(FrameError::Truncated(
                        "the stream ended while skipping to the next `Content-Length` header"
                            .into(),
                    )),
                }
            }),
        };
        if let Err(e) = next {
            if let Ok(mut slot) = error.lock() {
                *slot = Some(e);
            }
            return;
        }
    }
}

/// Write one JSON-RPC message, framed.
fn write_raw(output: &mut impl Write, v: &serde_json::Value) -> std::io::Result<()> {
    let text = v.to_string();
    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    output.flush()
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
    let (answer_tx, answer_rx) = crossbeam_channel::unbounded::<serde_json::Value>();
    let reader = std::thread::spawn(move || pump(input, in_tx, answer_tx, slot));
    let writer = std::thread::spawn(move || {
        let mut output = output;
        // The server's messages, and the reader's answers to messages it could not read; the
        // writer ends when the server's sender is dropped.
        loop {
            crossbeam_channel::select! {
                recv(out_rx) -> m => match m {
                    Ok(m) => m.write(&mut output)?,
                    Err(_) => return Ok(()),
                },
                recv(answer_rx) -> v => match v {
                    Ok(v) => write_raw(&mut output, &v)?,
                    // The reader has ended: only the server's messages are left.
                    Err(_) => return out_rx.into_iter().try_for_each(|m| m.write(&mut output)),
                },
            }
        }
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
