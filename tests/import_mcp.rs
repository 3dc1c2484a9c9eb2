//! `schemarouter import mcp --command / --url` against real MCP servers, started by the import
//! itself: the reference servers from npm (`server-everything`, `server-filesystem`,
//! `server-memory`) and PyPI (`mcp-server-time`, `mcp-server-git`), and `tests/mcp/
//! paged_server.mjs`, a small server on the official TypeScript SDK whose `tools/list` is paged
//! and whose outputSchemas use nested objects, arrays and `$defs` references (one a cycle),
//! over stdio and over streamable HTTP.
//!
//! `.ci/run` installs the servers (`npm install --prefix tests/mcp`, a `.venv` with the PyPI
//! servers). Without them the tests say so and pass, except under `CI`, where a missing server
//! is a failure.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The program, if installed; under CI its absence fails the test.
fn installed(p: PathBuf) -> Option<PathBuf> {
    if p.exists() {
        return Some(p);
    }
    if std::env::var_os("CI").is_some() {
        panic!("{} is not installed (.ci/run installs it)", p.display());
    }
    eprintln!(
        "skipped: {} is not installed (run the install steps of .ci/run)",
        p.display()
    );
    None
}

fn node_bin(name: &str) -> Option<PathBuf> {
    installed(root().join("tests/mcp/node_modules/.bin").join(name))
}

fn venv_bin(name: &str) -> Option<PathBuf> {
    installed(root().join(".venv/bin").join(name))
}

fn node() -> Option<PathBuf> {
    // The SDK the paged server imports must be installed too.
    installed(root().join("tests/mcp/node_modules/@modelcontextprotocol/sdk/package.json"))?;
    Some(PathBuf::from("node"))
}

struct Imported {
    _dir: tempfile::TempDir,
    text: String,
    stderr: String,
    check: String,
}

fn import(args: &[&str]) -> Imported {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["import", "mcp"];
    all.extend_from_slice(args);
    all.extend_from_slice(&[
        "--project",
        "proj",
        "--timeout",
        "60",
        "--message-format",
        "concise",
        // The mapping of MCP schemas is under test, not the derived concept layer.
        "--no-derive",
    ]);
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(&all)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{all:?}\n{stderr}");
    let schemas = dir.path().join("proj/schemas");
    let file = std::fs::read_dir(&schemas)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(file).unwrap();
    let c = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(["check", "proj", "--format", "concise"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let check = String::from_utf8_lossy(&c.stdout).into_owned();
    assert_eq!(c.status.code(), Some(0), "{check}");
    assert!(!check.contains("error["), "{check}");
    Imported {
        _dir: dir,
        text,
        stderr,
        check,
    }
}

fn endpoint_ids(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("  - id: "))
        .map(str::to_string)
        .collect()
}

/// The declaration without its header and server block (which name the transport).
fn body(text: &str) -> String {
    text.split("\nendpoints:\n").nth(1).unwrap().to_string()
}

#[test]
#[ignore = "needs node and the MCP SDK from npm in tests/mcp (.ci/run): run with --include-ignored"]
fn paged_server_over_stdio_and_http_gives_the_same_tool() {
    let Some(node) = node() else { return };
    let script = root().join("tests/mcp/paged_server.mjs");
    let cmd = format!("{} {}", node.display(), script.display());
    let stdio = import(&["--command", &cmd, "--tool", "paged"]);
    assert_eq!(
        endpoint_ids(&stdio.text),
        vec![
            "get_material",
            "search_papers",
            "taxonomy",
            "summarize",
            "delete_sample"
        ]
    );
    // Nested objects and `$defs` references inside the outputSchema.
    for f in [
        "      - name: structure.lattice.a\n        type: number\n",
        "      - name: structure.sites[].xyz\n        type: number[]\n",
        // `{results: [...]}` is the records path; fields are named within a record.
        "    records: results[]\n",
        "      - name: authors[].orcid\n        type: string\n",
        "      - name: band_gap\n        type: number\n        description: Band gap, eV\n        nullable: true\n",
        "      - name: root.children\n        type: object[]\n",
    ] {
        assert!(stdio.text.contains(f), "{f}\n{}", stdio.text);
    }
    assert!(
        stdio
            .text
            .contains("mcp_server:\n  name: paged-materials\n  version: \"0.3.1\"\n"),
        "{}",
        stdio.text
    );
    assert_eq!(
        stdio.stderr.matches("SR707/no-response-schema").count(),
        2,
        "{}",
        stdio.stderr
    );
    assert_eq!(
        stdio.stderr.matches("SR703/reference-cycle").count(),
        1,
        "{}",
        stdio.stderr
    );
    assert!(
        stdio
            .check
            .contains("endpoint `paged/delete_sample` may destroy data"),
        "{}",
        stdio.check
    );

    // The same server over streamable HTTP.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(&node)
        .arg(&script)
        .args(["--http", &port.to_string()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let guard = Kill(child);
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.starts_with("listening"), "{line}");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let http = import(&["--url", &url, "--tool", "paged"]);
    drop(guard);
    assert_eq!(body(&http.text), body(&stdio.text));
    assert!(
        http.text.contains(&format!("  url: {url}\n")),
        "{}",
        http.text
    );
}

#[test]
#[ignore = "needs node and the npm MCP servers in tests/mcp (.ci/run): run with --include-ignored"]
fn reference_servers_from_npm() {
    let Some(everything) = node_bin("mcp-server-everything") else {
        return;
    };
    let Some(filesystem) = node_bin("mcp-server-filesystem") else {
        return;
    };
    let Some(memory) = node_bin("mcp-server-memory") else {
        return;
    };
    let e = import(&["--command", everything.to_str().unwrap()]);
    let ids = endpoint_ids(&e.text);
    assert!(
        ids.contains(&"echo".to_string()) && ids.contains(&"get_sum".to_string()),
        "{ids:?}"
    );
    assert!(
        e.stderr
            .contains("MCP tool `echo` declares no `outputSchema`"),
        "{}",
        e.stderr
    );
    let dir = tempfile::tempdir().unwrap();
    let f = import(&[
        "--command",
        &format!("{} {}", filesystem.display(), dir.path().display()),
    ]);
    let ids = endpoint_ids(&f.text);
    assert!(
        ids.contains(&"read_text_file".to_string()) && ids.contains(&"write_file".to_string()),
        "{ids:?}"
    );
    let m = import(&["--command", memory.to_str().unwrap(), "--tool", "memory"]);
    assert_eq!(
        endpoint_ids(&m.text),
        vec![
            "create_entities",
            "create_relations",
            "add_observations",
            "delete_entities",
            "delete_observations",
            "delete_relations",
            "read_graph",
            "search_nodes",
            "open_nodes"
        ]
    );
    assert_eq!(
        m.check.matches("SR508/destructive-endpoint").count(),
        3,
        "{}",
        m.check
    );
}

#[test]
#[ignore = "needs .venv with mcp-server-time and mcp-server-git (.ci/run): run with --include-ignored"]
fn reference_servers_from_pypi() {
    let Some(time) = venv_bin("mcp-server-time") else {
        return;
    };
    let Some(git) = venv_bin("mcp-server-git") else {
        return;
    };
    let t = import(&["--command", time.to_str().unwrap()]);
    assert_eq!(
        endpoint_ids(&t.text),
        vec!["get_current_time", "convert_time"]
    );
    assert!(
        t.text
            .contains("      - name: timezone\n        type: string\n"),
        "{}",
        t.text
    );
    assert!(
        t.text.contains("    annotations:\n      read_only: true\n"),
        "{}",
        t.text
    );
    let repo = root();
    let g = import(&[
        "--command",
        &format!("{} --repository {}", git.display(), repo.display()),
    ]);
    let ids = endpoint_ids(&g.text);
    assert!(
        ids.contains(&"git_status".to_string()) && ids.contains(&"git_log".to_string()),
        "{ids:?}"
    );
}

#[test]
fn a_server_that_exits_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args([
            "import",
            "mcp",
            "--command",
            "sh -c 'echo broken >&2; exit 3'",
            "--timeout",
            "20",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: `initialize` failed"), "{stderr}");
    assert!(!Path::new(&dir.path().join("schemas")).exists());
}

#[test]
fn a_server_that_never_answers_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(["import", "mcp", "--command", "sleep 30", "--timeout", "2"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("did not finish `initialize` and `tools/list` within 2 s"),
        "{stderr}"
    );
    assert!(start.elapsed().as_secs() < 25);
}

/// A server that hangs often said why on stderr (a missing key, a config error): its last
/// stderr lines come with the timeout, as they do when it exits.
#[test]
fn a_server_that_times_out_shows_its_stderr() {
    let stderr = failing_server(&[
        "--command",
        "sh -c 'echo missing WEATHER_KEY >&2; sleep 30'",
        "--timeout",
        "2",
    ]);
    assert!(
        stderr.starts_with("error: the server did not finish `initialize` and `tools/list` within 2 s (raise `--timeout`)\nthe server's last stderr lines:\nmissing WEATHER_KEY\n"),
        "{stderr}"
    );
}

/// The standard error of `import mcp` with `args` in a fresh folder, which must fail with
/// exit 2 (a server that cannot be started or does not answer).
fn failing_server(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(["import", "mcp"])
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    stderr
}

/// A server that complains on stderr and exits at once: one plain message (whether the SDK saw
/// its output close or its input break first) and its complaint come with the error every time
/// (the stderr reader is given time to read it after the connection closed).
#[test]
fn a_server_that_exits_at_once_shows_its_stderr() {
    for _ in 0..5 {
        let stderr =
            failing_server(&["--command", "sh -c 'echo missing WEATHER_KEY >&2; echo {}'"]);
        assert!(
            stderr.starts_with("error: `initialize` failed: the server closed the connection before it answered (did `sh` exit, or print something other than JSON-RPC?)\nthe server's last stderr lines:\nmissing WEATHER_KEY\n"),
            "{stderr}"
        );
    }
}

/// `import mcp --command` of the SDK-written paged server started with `flag`, into `proj` of a
/// fresh folder (concise findings); `None` where node or the SDK is not installed.
fn import_paged_server(flag: &str) -> Option<(tempfile::TempDir, std::process::Output)> {
    let node = node()?;
    let script = root().join("tests/mcp/paged_server.mjs");
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(["import", "mcp", "--command"])
        .arg(format!("{} {} {flag}", node.display(), script.display()))
        .args(["--project", "proj", "--timeout", "60"])
        .args(["--message-format", "concise"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    Some((dir, o))
}

/// A server whose `nextCursor` comes back to a page it already gave is refused at once with
/// that reason (exit 2, nothing written), not left to spin until `--timeout`.
#[test]
fn a_cursor_that_repeats_is_refused_at_once() {
    let Some((dir, o)) = import_paged_server("--cursor-loop") else {
        return;
    };
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.lines().take(2).collect::<Vec<_>>(),
        vec![
            "error: `tools/list` paging does not end: page 3 returned the cursor `2`, which an earlier page returned too (a server bug; a saved listing can be imported instead)",
            "help: the server's `nextCursor` repeats, so waiting longer does not help: report it to the server's maintainers, or import a saved `tools/list` result instead",
        ]
    );
    assert!(!dir.path().join("proj").exists());
}

/// A saved JSON-RPC error response says what the server said; a function-tool list says which
/// command fits. Both exit 1 and write nothing.
#[test]
fn saved_errors_and_function_lists_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "err.json",
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#,
            "err.json:1:1: error[SR705/unsupported-source] not an MCP tools/list result: the saved response is a JSON-RPC error (-32601: Method not found) (help: the server refused `tools/list`; save a response that has a `result`)",
        ),
        (
            "fns.json",
            r#"[{"type":"function","function":{"name":"a","parameters":{"type":"object"}}}]"#,
            "fns.json:1:1: error[SR705/unsupported-source] not an MCP tools/list result: no `tools` list found (help: this is a function-tool list (OpenAI or Anthropic form): use `schemarouter import openai`)",
        ),
    ];
    for (name, text, expected) in cases {
        std::fs::write(dir.path().join(name), text).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
            .args(["import", "mcp", name, "--project", "proj"])
            .args(["--message-format", "concise"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{stdout}{stderr}");
        let all = format!("{stdout}{stderr}");
        assert_eq!(all.lines().next(), Some(expected), "{all}");
        assert!(!dir.path().join("proj").exists());
    }
}

/// A live server's tool that the SDK's typed listing would not accept (an `inputSchema` that is
/// a string) is reported as in a saved listing: which tool, what is wrong (exit 1, nothing
/// written), not "unexpected response type".
#[test]
fn a_live_tool_with_a_broken_input_schema_is_reported_by_name() {
    let Some((dir, o)) = import_paged_server("--bad-schema") else {
        return;
    };
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(1), "{all}");
    let errors: Vec<&str> = all
        .lines()
        .filter(|l| l.contains("error["))
        .map(|l| l.split_once(": error[").unwrap().1)
        .collect();
    assert_eq!(
        errors,
        vec![
            "SR705/unsupported-source] `inputSchema` of MCP tool `broken` is a string, not a JSON Schema object (help: MCP tool arguments are an object: `{\"type\": \"object\", \"properties\": {...}}`)"
        ]
    );
    assert!(!dir.path().join("proj").exists());
}

/// A server that writes something other than JSON-RPC on its output is told so (with the line),
/// not blamed on the timeout.
#[test]
fn a_server_that_writes_no_json_rpc_is_named_so() {
    let stderr = failing_server(&[
        "--command",
        "sh -c 'read l; echo hello I am not json; sleep 30'",
        "--timeout",
        "2",
    ]);
    assert_eq!(
        stderr.lines().take(3).collect::<Vec<_>>(),
        vec![
            "error: the server wrote a line that is not JSON-RPC on its output: `hello I am not json` (an MCP server on stdio writes only JSON-RPC messages there; logs go to stderr)",
            "the server did not finish `initialize` and `tools/list` within 2 s",
            "help: waiting longer does not help: make the server write its logs to stderr (or run it with its quiet option), or import a saved `tools/list` result instead",
        ],
        "{stderr}"
    );
}
