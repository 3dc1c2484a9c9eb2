//! The language server (`schemarouter lsp`): end to end with a real LSP client, and a property
//! test of its document-change handling.
//!
//! - `a_real_client_drives_the_server`: tests/lsp/test_lsp.py under pytest with `pytest-lsp`
//!   (PyPI; .ci/run installs it into .venv) against the binary under test over stdio. Without
//!   pytest-lsp the test fails under CI=true and is skipped locally.
//! - `random_typing_never_breaks_the_server`: random characters typed into and deleted from a
//!   shipped tool file through `textDocument/didChange`, each edit checked, and requests at
//!   random positions answered: no panic, every answer a result, every published range inside
//!   the document.
//! - `a_stream_not_framed_as_lsp_exits_2_saying_what_was_wrong`: the binary over stdin frames
//!   with a huge `Content-Length`, a bad one, a short body, a body that is not JSON: exit 2 and
//!   the fault named on stderr, no allocation driven by the header.

use lsp_server::{Message, Notification, Request, RequestId};
use proptest::prelude::*;
use schemarouter::lsp::server::Server;
use schemarouter::lsp::text::LineIndex;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Python of the CI virtual environment (or `SCHEMAROUTER_TEST_PYTHON`), when it has
/// pytest-lsp.
fn python_with_pytest_lsp() -> Option<PathBuf> {
    let python = std::env::var_os("SCHEMAROUTER_TEST_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".venv/bin/python"));
    let ok = Command::new(&python)
        .args(["-c", "import pytest_lsp"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(python)
}

#[test]
#[ignore = "needs .venv with pytest-lsp (.ci/run): run with --include-ignored"]
fn a_real_client_drives_the_server() {
    let Some(python) = python_with_pytest_lsp() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "pytest-lsp is missing: .ci/run installs it into .venv (pip install pytest-lsp)"
        );
        eprintln!("skipped: pytest-lsp is not installed (pip install pytest-lsp into .venv)");
        return;
    };
    let dir = root().join("tests/lsp");
    let out = Command::new(python)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "test_lsp.py",
        ])
        .current_dir(&dir)
        .env("SCHEMAROUTER_BIN", env!("CARGO_BIN_EXE_schemarouter"))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(text.contains("2 passed"), "{text}");
}

fn uri(path: &Path) -> lsp_types::Uri {
    schemarouter::lsp::workspace::path_to_uri(path).unwrap()
}

fn notify(server: &mut Server, method: &str, params: serde_json::Value) {
    server.handle(Message::Notification(Notification::new(
        method.to_string(),
        params,
    )));
}

/// Every message out of the server is well formed: responses carry a result, published ranges
/// lie inside the document.
fn check_outgoing(server: &mut Server, text: &str, doc: &lsp_types::Uri) {
    let index = LineIndex::new(text);
    let lines = text.split('\n').count() as u32;
    for m in server.take_outgoing() {
        match m {
            Message::Response(r) => assert!(r.response_result.is_ok(), "{r:?}"),
            Message::Notification(n) => {
                assert_eq!(n.method, "textDocument/publishDiagnostics");
                let p: lsp_types::PublishDiagnosticsParams =
                    serde_json::from_value(n.params).unwrap();
                if &p.uri != doc {
                    continue;
                }
                for d in p.diagnostics {
                    assert!(d.range.start <= d.range.end, "{d:?}");
                    assert!(d.range.end.line < lines.max(1) + 1, "{d:?}");
                    // Every published position converts back to a place in the text.
                    assert!(index.offset(text, d.range.start).is_some(), "{d:?}");
                }
            }
            Message::Request(r) => panic!("unexpected request {r:?}"),
        }
    }
}

#[derive(Clone, Debug)]
enum Edit {
    Type(usize, char),
    Delete(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let chars = prop::sample::select(vec![
        'a', ':', ' ', '\n', '-', '[', ']', '{', '"', '\'', '#', '&', '*', 'Å', '𝛼', '\t', '\r',
    ]);
    prop_oneof![
        (any::<usize>(), chars).prop_map(|(at, c)| Edit::Type(at, c)),
        (any::<usize>(), 0usize..12).prop_map(|(at, n)| Edit::Delete(at, n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn random_typing_never_breaks_the_server(
        edits in prop::collection::vec(edit(), 1..8),
        probes in prop::collection::vec((0u32..80, 0u32..120), 8),
    ) {
        let path = root().join("schemas/aflow.yaml");
        let doc = uri(&path);
        let mut text = std::fs::read_to_string(&path).unwrap();
        let mut server = Server::new("https://example.org/rules.md");
        notify(&mut server, "textDocument/didOpen", serde_json::json!({
            "textDocument": {"uri": doc, "languageId": "yaml", "version": 1, "text": text}
        }));
        server.run_jobs_inline();
        check_outgoing(&mut server, &text, &doc);
        let mut id = 0;
        for (version, e) in edits.iter().enumerate() {
            let index = LineIndex::new(&text);
            // Positions picked as UTF-16 columns of real lines (possibly past a line's end).
            let pos = |at: usize| {
                let p = index.position(&text, at % (text.len() + 1));
                lsp_types::Position::new(p.line, p.character + (at % 3) as u32)
            };
            let (start, end, insert) = match e {
                Edit::Type(at, c) => (pos(*at), pos(*at), c.to_string()),
                Edit::Delete(at, n) => {
                    let s = pos(*at);
                    (s, lsp_types::Position::new(s.line, s.character + *n as u32), String::new())
                }
            };
            schemarouter::lsp::text::apply_change(
                &mut text,
                Some(lsp_types::Range::new(start, end)),
                &insert,
            );
            notify(&mut server, "textDocument/didChange", serde_json::json!({
                "textDocument": {"uri": doc, "version": version + 2},
                "contentChanges": [{"range": {"start": start, "end": end}, "text": insert}]
            }));
            server.run_jobs_inline();
            check_outgoing(&mut server, &text, &doc);
            for (line, character) in &probes[..2] {
                let at = serde_json::json!({"line": (line + version as u32) % 90, "character": character});
                for method in ["textDocument/hover", "textDocument/definition", "textDocument/completion"] {
                    id += 1;
                    server.handle(Message::Request(Request::new(
                        RequestId::from(id),
                        method.to_string(),
                        serde_json::json!({"textDocument": {"uri": doc}, "position": at}),
                    )));
                }
                id += 1;
                server.handle(Message::Request(Request::new(
                    RequestId::from(id),
                    "textDocument/references".to_string(),
                    serde_json::json!({"textDocument": {"uri": doc}, "position": at, "context": {"includeDeclaration": true}}),
                )));
                id += 1;
                server.handle(Message::Request(Request::new(
                    RequestId::from(id),
                    "textDocument/codeAction".to_string(),
                    serde_json::json!({"textDocument": {"uri": doc}, "range": {"start": at, "end": at}, "context": {"diagnostics": []}}),
                )));
            }
            check_outgoing(&mut server, &text, &doc);
            // The server's document is the text the edits gave.
            prop_assert_eq!(server.document(&doc), Some(text.as_str()));
        }
    }
}

/// The binary's exit status and stderr for `input` on stdin.
fn lsp_binary(input: &[u8]) -> (Option<i32>, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .arg("lsp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .next()
            .unwrap_or("")
            .to_string(),
    )
}

fn frame(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

/// The binary's exit status and its stdout's messages for `input` on stdin.
fn lsp_answers(input: &[u8]) -> (Option<i32>, Vec<serde_json::Value>) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .arg("lsp")
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut messages = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("\r\n\r\n") {
        let n: usize = rest[..i]
            .trim_start_matches("Content-Length: ")
            .parse()
            .unwrap();
        let body = &rest[i + 4..i + 4 + n];
        messages.push(serde_json::from_str(body).unwrap());
        rest = &rest[i + 4 + n..];
    }
    (out.status.code(), messages)
}

/// A malformed message is answered (-32700 for text that is not JSON or a header that cannot
/// be read, -32600 for JSON that is no message, with its `id`) and the server goes on serving:
/// the requests after it are answered and `exit` after `shutdown` ends it with 0.
#[test]
fn a_malformed_message_is_answered_and_the_server_keeps_serving() {
    let init =
        frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#);
    let initialized = frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
    let shutdown = frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#);
    let exit = frame(r#"{"jsonrpc":"2.0","method":"exit"}"#);
    // A notification the server ignores, between the frames whose header cannot be read (the
    // reader skips to the next `Content-Length` header).
    let ignored = frame(r#"{"jsonrpc":"2.0","method":"$/ignored"}"#);
    let parts: Vec<&[u8]> = vec![
        init.as_bytes(),
        initialized.as_bytes(),
        // The trial's message: a body that is not JSON.
        b"Content-Length: 5\r\n\r\n{bad}",
        // JSON, but no message; its id is echoed.
        b"Content-Length: 36\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"params\":[]}",
        // Not UTF-8.
        b"Content-Length: 2\r\n\r\n\xff\xfe",
        // A header without `Content-Length`, then its body: skipped to the next frame.
        b"Content-Type: x\r\n\r\n{}",
        ignored.as_bytes(),
        // A header line that is not `Name: value`.
        b"hello\r\n\r\n",
        ignored.as_bytes(),
        // LF line ends.
        b"Content-Length: 2\n\n{}",
        // A corrupted length far over the limit (the user trial's): answered, and the reader
        // goes on at the next header, never swallowing what follows as the body it claims.
        b"Content-Length: 99999999999\r\n\r\n{}",
        // Over the limit: answered, its bytes skipped to the next header.
        b"Content-Length: 67108865\r\n\r\n",
    ];
    let mut bytes = parts.concat();
    bytes.extend(std::iter::repeat_n(b' ', 67_108_865));
    bytes.extend_from_slice(shutdown.as_bytes());
    bytes.extend_from_slice(exit.as_bytes());
    let (code, messages) = lsp_answers(&bytes);
    let errors: Vec<String> = messages
        .iter()
        .filter(|m| m.get("error").is_some())
        .map(|m| {
            format!(
                "{} {} {}",
                m["id"], m["error"]["code"], m["error"]["message"]
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            r#"null -32700 "Parse error: the message body is not JSON: key must be a string at line 1 column 2""#,
            r#"7 -32600 "Invalid Request: the message body is JSON but not a JSON-RPC request, response or notification""#,
            r#"null -32700 "Parse error: the message body is not UTF-8 (at byte 0)""#,
            r#"null -32700 "Parse error: a message header without `Content-Length`; the reader skipped to the next `Content-Length` header""#,
            r#"null -32700 "Parse error: the header line `hello` is not `Name: value`; the reader skipped to the next `Content-Length` header""#,
            r#"null -32700 "Parse error: the header line `Content-Length: 2` ends with LF, not CRLF (LSP headers end with `\\r\\n`); the reader skipped to the next `Content-Length` header""#,
            r#"null -32600 "Invalid Request: a message of 99999999999 bytes (`Content-Length`) is larger than the limit of 64 MiB; the reader skipped to the next `Content-Length` header""#,
            r#"null -32600 "Invalid Request: a message of 67108865 bytes (`Content-Length`) is larger than the limit of 64 MiB; the reader skipped to the next `Content-Length` header""#,
        ]
    );
    assert!(
        messages
            .iter()
            .any(|m| m["id"] == 2 && m.get("result").is_some()),
        "{messages:?}"
    );
    assert_eq!(code, Some(0), "{messages:?}");
}

#[test]
fn a_stream_that_ends_inside_a_frame_exits_2_saying_what_was_wrong() {
    let init =
        frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#);
    let cases: Vec<(String, &str)> = vec![
        (
            "Content-Length: 99999999999999\r\n\r\n{}".into(),
            "error: language server: the stream ended while skipping to the next `Content-Length` header",
        ),
        (
            "Content-Length: -1\r\n\r\n{}".into(),
            "error: language server: the stream ended while skipping to the next `Content-Length` header",
        ),
        (
            "Content-Length: 3\r\n\r\nabc".into(),
            "error: language server: the client closed the stream before sending `initialize`",
        ),
        (
            format!("{init}Content-Length: 50\r\n\r\n{{}}"),
            "error: language server: the stream ended after 2 of the 50 bytes of a message body",
        ),
        (
            String::new(),
            "error: language server: the client closed the stream before sending `initialize`",
        ),
        // The lifecycle broken: a request where `initialized` must come.
        (
            format!(
                "{init}{}",
                frame(
                    r#"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.yaml"},"position":{"line":0,"character":0}}}"#
                )
            ),
            "error: language server: after the `initialize` reply the client must send the `initialized` notification before anything else (LSP lifecycle); got the request `textDocument/hover` (id 2)",
        ),
        (
            init.clone(),
            "error: language server: the client closed the stream before sending `initialized`",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(
            lsp_binary(input.as_bytes()),
            (Some(2), expected.to_string()),
            "{input:?}"
        );
    }
}
