//! `schemarouter serve` and `schemarouter mcp` driven by real clients, started by the tests:
//! the official MCP Python SDK over stdio and streamable HTTP (`tests/serve/mcp_client.py`:
//! tools, `route` with structuredContent validated against its outputSchema, resources, the
//! prompt, JSON-RPC errors), and an HTTP client checking every response against the OpenAPI
//! description (`tests/serve/http_client.py`: the API, bad requests, metrics, a request that
//! never finishes), hot reload under load (file replaced, and SIGHUP: zero failed requests, each
//! answer names the artifact that produced it) and graceful shutdown (exit 0).
//!
//! `.ci/run` installs the Python packages into `.venv` (`mcp`, `jsonschema`,
//! `openapi-spec-validator`, `prometheus-client`). Without them the tests say so and pass,
//! except under `CI`, where they fail.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const QUESTION: &str = "What is the band gap of LiFePO4 according to the Materials Project?";

/// The query the search tests send (`search_tools`, `POST /v1/search`).
const SEARCH_QUERY: &str = "crystal structure cif files";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_schemarouter")
}

/// The venv's Python with the client packages, if installed; under CI their absence fails.
fn python() -> Option<PathBuf> {
    let py = root().join(".venv/bin/python");
    let ok = py.exists()
        && Command::new(&py)
            .args([
                "-c",
                "import mcp, httpx2, jsonschema, openapi_spec_validator, prometheus_client",
            ])
            .output()
            .is_ok_and(|o| o.status.success());
    if ok {
        return Some(py);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "{} with mcp, jsonschema, openapi-spec-validator and prometheus-client is not installed (.ci/run installs it)",
            py.display()
        );
    }
    eprintln!(
        "skipped: .venv with the MCP SDK and the validators is not installed (run the install steps of .ci/run)"
    );
    None
}

/// What the CLI says for [`QUESTION`] on `artifact`, with the prompt and hash.
fn expected(dir: &Path, artifact: &Path) -> PathBuf {
    let o = Command::new(bin())
        .args(["route", "--json", "--artifact"])
        .arg(artifact)
        .arg(QUESTION)
        .output()
        .unwrap();
    assert!(o.status.success());
    let routed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let o = Command::new(bin())
        .args(["search", "--json", "--k", "3", "--artifact"])
        .arg(artifact)
        .arg(SEARCH_QUERY)
        .output()
        .unwrap();
    assert!(o.status.success());
    let searched: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(artifact).unwrap()).unwrap();
    let prompt = std::fs::read_to_string(artifact.with_file_name("intent_prompt.txt")).unwrap();
    let path = dir.join("expected.json");
    let v = serde_json::json!({
        "question": QUESTION,
        "routed": routed,
        "search_query": SEARCH_QUERY,
        "searched": searched,
        "prompt": prompt,
        "content_hash": g["content_hash"],
    });
    std::fs::write(&path, v.to_string()).unwrap();
    path
}

/// A server process; killed if the test fails before [`Server::stop`].
struct Server {
    child: Child,
    url: String,
    stderr: BufReader<std::process::ChildStderr>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        Server::start_in(&root(), args)
    }

    /// Started in `cwd` (where the artifact is discovered without `--artifact`).
    fn start_in(cwd: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(bin())
            .current_dir(cwd)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let v: serde_json::Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("first line is not a JSON event ({e}): {line}"));
        assert_eq!(v["event"], "listening", "{line}");
        Server {
            child,
            url: v["url"].as_str().unwrap().to_string(),
            stderr,
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGTERM; returns the exit code and the rest of stderr.
    fn stop(mut self) -> (Option<i32>, String) {
        let s = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .unwrap();
        assert!(s.success());
        let status = self.child.wait().unwrap();
        let mut rest = String::new();
        self.stderr.read_to_string(&mut rest).unwrap();
        (status.code(), rest)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn run_py(py: &Path, args: &[&str]) -> String {
    let o = Command::new(py)
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{args:?} failed\nstdout:\n{out}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
    out
}

fn shipped() -> PathBuf {
    root().join("build/graph.json")
}

fn assert_stopped(code: Option<i32>, rest: &str) {
    assert_eq!(code, Some(0), "{rest}");
    let last = rest.lines().last().unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(v["event"], "stopped", "{rest}");
    assert!(rest.contains("\"signal\":\"SIGTERM\""), "{rest}");
}

#[test]
#[ignore = "needs .venv with mcp, httpx2, jsonschema, openapi-spec-validator, prometheus-client (.ci/run): run with --include-ignored"]
fn mcp_over_stdio_with_the_python_sdk() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let exp = expected(dir.path(), &shipped());
    run_py(
        &py,
        &[
            "tests/serve/mcp_client.py",
            exp.to_str().unwrap(),
            "stdio",
            bin(),
            shipped().to_str().unwrap(),
        ],
    );
}

#[test]
#[ignore = "needs .venv with mcp, httpx2, jsonschema, openapi-spec-validator, prometheus-client (.ci/run): run with --include-ignored"]
fn mcp_over_streamable_http_with_the_python_sdk_and_a_token() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let exp = expected(dir.path(), &shipped());
    let token = dir.path().join("token");
    std::fs::write(&token, "mcp-test-token\n").unwrap();
    let server = Server::start(&[
        "mcp",
        "--transport",
        "http",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
        "--token-file",
        token.to_str().unwrap(),
    ]);
    assert!(server.url.ends_with("/mcp"), "{}", server.url);
    run_py(
        &py,
        &[
            "tests/serve/mcp_client.py",
            exp.to_str().unwrap(),
            "http",
            &server.url,
            "mcp-test-token",
        ],
    );
    let (code, rest) = server.stop();
    assert_stopped(code, &rest);
}

#[test]
#[ignore = "needs .venv with mcp, httpx2, jsonschema, openapi-spec-validator, prometheus-client (.ci/run): run with --include-ignored"]
fn http_api_against_its_openapi_description() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let exp = expected(dir.path(), &shipped());
    let token = dir.path().join("token");
    std::fs::write(&token, "http-test-token\n").unwrap();
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
        "--token-file",
        token.to_str().unwrap(),
        "--request-timeout-ms",
        "2000",
        "--log-requests",
    ]);
    // The served description is the committed one naming this server's address in `servers`.
    let doc = served_openapi(dir.path(), &server.url);
    let out = run_py(
        &py,
        &[
            "tests/serve/http_client.py",
            "api",
            &server.url,
            "http-test-token",
            exp.to_str().unwrap(),
            doc.to_str().unwrap(),
        ],
    );
    eprintln!("{out}");
    let (code, rest) = server.stop();
    assert_stopped(code, &rest);
    // One log line per request: route, status, latency, artifact hash.
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(shipped()).unwrap()).unwrap();
    let hash = g["content_hash"].as_str().unwrap();
    let routed: Vec<serde_json::Value> = rest
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["route"] == "/v1/route" && v["status"] == 200)
        .collect();
    assert_eq!(routed.len(), 66, "{rest}");
    assert!(
        routed
            .iter()
            .all(|v| v["artifact"] == hash && v["face"] == "http")
    );
}

/// The committed OpenAPI description (`docs/http-api.openapi.json`) as a server listening at
/// `url` serves it: `servers` names `url`, the rest unchanged. Written to `dir`.
fn served_openapi(dir: &Path, url: &str) -> PathBuf {
    let mut doc: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/http-api.openapi.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        doc["servers"],
        serde_json::json!([{"url": "http://127.0.0.1:8080"}])
    );
    doc["servers"] = serde_json::json!([{"url": url}]);
    let path = dir.join("served.openapi.json");
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    path
}

/// Two artifacts that plan differently (materials_project's priority changed), and a corrupted
/// one, in `dir`.
fn two_artifacts(dir: &Path) -> serde_json::Value {
    let proj = dir.join("proj");
    for sub in ["schemas", "intents", "aliases"] {
        copy_dir(&root().join(sub), &proj.join(sub));
    }
    std::fs::copy(
        root().join("schemarouter.toml"),
        proj.join("schemarouter.toml"),
    )
    .unwrap();
    let mp = proj.join("schemas/materials_project.yaml");
    let text = std::fs::read_to_string(&mp).unwrap();
    assert!(text.contains("\npriority: 90\n"));
    std::fs::write(&mp, text.replace("\npriority: 90\n", "\npriority: 91\n")).unwrap();
    let o = Command::new(bin())
        .arg("compile")
        .arg(&proj)
        .arg("--out")
        .arg(proj.join("build"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let info = |p: &Path| {
        let g: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        serde_json::json!({
            "path": p,
            "content_hash": g["content_hash"],
            "routing_fingerprint": g["routing_fingerprint"],
        })
    };
    let a = info(&shipped());
    let b = info(&proj.join("build/graph.json"));
    assert_ne!(a["routing_fingerprint"], b["routing_fingerprint"]);
    let bad = dir.join("bad.json");
    let text = std::fs::read_to_string(proj.join("build/graph.json")).unwrap();
    // The machine form is compact (`"priority":91`): change the value, keep the hash.
    assert!(text.contains("\"priority\":91"));
    std::fs::write(&bad, text.replacen("\"priority\":91", "\"priority\":92", 1)).unwrap();
    serde_json::json!({"a": a, "b": b, "bad": bad})
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

fn hot_reload(sighup: bool) {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let arts = two_artifacts(dir.path());
    let served = dir.path().join("served");
    std::fs::create_dir_all(&served).unwrap();
    let artifact = served.join("graph.json");
    std::fs::copy(shipped(), &artifact).unwrap();
    std::fs::copy(
        shipped().with_file_name("intent_prompt.txt"),
        served.join("intent_prompt.txt"),
    )
    .unwrap();
    let exp_path = expected(dir.path(), &artifact);
    let mut exp: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&exp_path).unwrap()).unwrap();
    for k in ["a", "b", "bad"] {
        exp[k] = arts[k].clone();
    }
    std::fs::write(&exp_path, exp.to_string()).unwrap();
    let watch = if sighup { "0" } else { "50" };
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        artifact.to_str().unwrap(),
        "--watch-ms",
        watch,
    ]);
    let out = run_py(
        &py,
        &[
            "tests/serve/http_client.py",
            if sighup { "sighup" } else { "reload" },
            &server.url,
            &server.pid().to_string(),
            artifact.to_str().unwrap(),
            exp_path.to_str().unwrap(),
        ],
    );
    eprintln!("{out}");
    let (code, rest) = server.stop();
    assert_stopped(code, &rest);
    let events: Vec<serde_json::Value> = rest
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["event"] == "reload" && v["result"] != "unchanged")
        .collect();
    let results: Vec<&str> = events
        .iter()
        .map(|v| v["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["swapped", "refused", "swapped"], "{rest}");
    let trigger = if sighup { "SIGHUP" } else { "file changed" };
    assert!(events.iter().all(|v| v["trigger"] == trigger), "{rest}");
    assert!(
        events[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("the artifact's content hash does not match its contents"),
        "{rest}"
    );
}

#[test]
fn hot_reload_on_file_replacement_under_load() {
    hot_reload(false);
}

#[test]
fn hot_reload_on_sighup_under_load() {
    hot_reload(true);
}

fn get(url: &str) -> String {
    ureq::get(url)
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap()
}

/// Poll `/readyz` until the served artifact is `path` with `hash` (10 s at most).
fn wait_for_artifact(url: &str, path: &str, hash: &str) {
    let start = std::time::Instant::now();
    loop {
        let v: serde_json::Value = serde_json::from_str(&get(&format!("{url}/readyz"))).unwrap();
        if v["artifact"]["path"] == path && v["artifact"]["content_hash"] == hash {
            return;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "still serving {} ({}), expected {path} ({hash})",
            v["artifact"]["path"],
            v["artifact"]["content_hash"]
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn content_hash(path: &Path) -> String {
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    g["content_hash"].as_str().unwrap().to_string()
}

fn compile_in(proj: &Path, args: &[&str]) -> (String, String) {
    let o = Command::new(bin())
        .current_dir(proj)
        .arg("compile")
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    (String::from_utf8_lossy(&o.stdout).into_owned(), err)
}

/// The server started without `--artifact` serves what discovery finds (the newer of
/// `build/graph.bin` and `build/graph.json` of the project), and follows discovery on reload:
/// `compile --format bin` replaces `graph.json` by `graph.bin` (and removes `graph.json`), a
/// newer `graph.json` that fails verification is refused (`graph.bin` stays served), and
/// `compile` (JSON) goes back to `graph.json`.
#[test]
fn a_discovered_artifact_follows_compile_to_the_other_form() {
    let dir = tempfile::tempdir().unwrap();
    let proj = dir.path().join("proj");
    for sub in ["schemas", "intents", "aliases"] {
        copy_dir(&root().join(sub), &proj.join(sub));
    }
    std::fs::copy(
        root().join("schemarouter.toml"),
        proj.join("schemarouter.toml"),
    )
    .unwrap();
    compile_in(&proj, &["."]);
    let json = proj.join("build/graph.json");
    let bin_file = proj.join("build/graph.bin");
    let a = content_hash(&json);
    let server = Server::start_in(
        &proj.join("schemas"),
        &["serve", "--bind", "127.0.0.1:0", "--watch-ms", "50"],
    );
    let url = server.url.clone();
    wait_for_artifact(&url, &json.display().to_string(), &a);

    // Changed sources compiled to the binary form: graph.json is removed, graph.bin served.
    let mp = proj.join("schemas/materials_project.yaml");
    let text = std::fs::read_to_string(&mp).unwrap();
    std::fs::write(&mp, text.replace("\npriority: 90\n", "\npriority: 91\n")).unwrap();
    let (out, err) = compile_in(&proj, &[".", "--format", "bin"]);
    assert!(
        err.ends_with("note: removed stale build/graph.json (the other artifact form; readers would otherwise pick the newer of the two)\n"),
        "{err}"
    );
    assert!(!json.exists());
    let prefix = out.split("content hash ").nth(1).unwrap()[..16].to_string();
    let start = std::time::Instant::now();
    let b = loop {
        let v: serde_json::Value = serde_json::from_str(&get(&format!("{url}/readyz"))).unwrap();
        if v["artifact"]["path"] == bin_file.display().to_string() {
            break v["artifact"]["content_hash"].as_str().unwrap().to_string();
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(10), "{v}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(b.starts_with(&prefix), "{b} {prefix}");
    assert_ne!(a, b);
    let routed: serde_json::Value = serde_json::from_str(
        &ureq::post(&format!("{url}/v1/route"))
            .header("Content-Type", "application/json")
            .send(format!("{{\"question\": \"{QUESTION}\"}}"))
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(routed["artifact_hash"], b.as_str());

    // A newer graph.json that fails verification: refused, graph.bin kept.
    let shipped_text = std::fs::read_to_string(shipped()).unwrap();
    std::fs::write(
        &json,
        shipped_text.replacen("materials-16", "materials-17", 1),
    )
    .unwrap();
    let start = std::time::Instant::now();
    while !get(&format!("{url}/metrics"))
        .lines()
        .any(|l| l.contains("artifact_reloads_total{result=\"refused\"} 1"))
    {
        assert!(start.elapsed() < std::time::Duration::from_secs(10));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    wait_for_artifact(&url, &bin_file.display().to_string(), &b);

    // Back to the first sources, compiled to JSON: graph.bin removed, graph.json served.
    std::fs::write(&mp, &text).unwrap();
    let (_, err) = compile_in(&proj, &["."]);
    assert!(
        err.ends_with("note: removed stale build/graph.bin (the other artifact form; readers would otherwise pick the newer of the two)\n"),
        "{err}"
    );
    wait_for_artifact(&url, &json.display().to_string(), &a);

    let (code, rest) = server.stop();
    assert_stopped(code, &rest);
    let events: Vec<serde_json::Value> = rest
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["event"] == "reload" && v["result"] != "unchanged")
        .collect();
    let shown: Vec<(String, String)> = events
        .iter()
        .map(|v| {
            (
                v["result"].as_str().unwrap().to_string(),
                v["artifact"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let (j, bn) = (json.display().to_string(), bin_file.display().to_string());
    assert_eq!(
        shown,
        [
            ("swapped".to_string(), bn.clone()),
            ("refused".to_string(), j.clone()),
            ("swapped".to_string(), j.clone()),
        ],
        "{rest}"
    );
    assert_eq!(events[0]["previous_artifact"], j.as_str());
    assert_eq!(events[2]["previous_artifact"], bn.as_str());
}

#[test]
fn bad_start_up_options_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(bin())
        .args(["serve", "--artifact"])
        .arg(dir.path().join("missing.json"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: {}: cannot read the artifact: No such file or directory (os error 2)\nhelp: check the path, or compile the project first (`schemarouter compile PROJECT` writes PROJECT/build/graph.json)\n",
            dir.path().join("missing.json").display()
        )
    );
    let empty = dir.path().join("token");
    std::fs::write(&empty, "\n").unwrap();
    let o = Command::new(bin())
        .args(["serve", "--token-file"])
        .arg(&empty)
        .arg("--artifact")
        .arg(shipped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: {}: the token file is empty; write the token on its first line\nhelp: --token-file names a readable UTF-8 file holding the token on its first line\n",
            empty.display()
        )
    );
    let o = Command::new(bin())
        .args(["mcp", "--token-file"])
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: --token-file applies to --transport http only\nhelp: over stdio the client that starts the server is the only peer\n"
    );
    // The port is taken: a clear error, exit 2.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let o = Command::new(bin())
        .args(["serve", "--bind", &addr, "--artifact"])
        .arg(shipped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with(&format!("error: cannot listen on {addr}: ")),
        "{err}"
    );
    assert!(
        err.ends_with("\nhelp: pick another address with --bind (port 0 picks a free port)\n"),
        "{err}"
    );
    // Without --artifact, outside any project: the folders searched, and what to do.
    let o = Command::new(bin())
        .current_dir(dir.path())
        .args(["mcp"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: no compiled artifact found: no folder holds `schemarouter.toml`"),
        "{err}"
    );
    assert!(
        err.ends_with("\nhelp: pass --artifact FILE, or run `schemarouter compile PROJECT` (it writes PROJECT/build/graph.json) and run this command inside PROJECT\n"),
        "{err}"
    );
}

#[test]
fn openapi_flag_prints_the_committed_document() {
    let o = Command::new(bin())
        .args(["serve", "--openapi"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        std::fs::read_to_string(root().join("docs/http-api.openapi.json")).unwrap()
    );
}

/// `GET /openapi.json` names the address the server listens on (here a port picked at start-up
/// by `--bind 127.0.0.1:0`), not the default `127.0.0.1:8080`; the rest is the committed
/// document.
#[test]
fn openapi_json_names_the_address_the_server_listens_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
    ]);
    let port = server.url.rsplit(':').next().unwrap();
    assert!(
        server.url.starts_with("http://127.0.0.1:") && port != "8080" && port != "0",
        "{}",
        server.url
    );
    let served: serde_json::Value =
        serde_json::from_str(&get(&format!("{}/openapi.json", server.url))).unwrap();
    assert_eq!(served["servers"], serde_json::json!([{"url": server.url}]));
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(served_openapi(dir.path(), &server.url)).unwrap(),
    )
    .unwrap();
    assert_eq!(served, expected);
    // The same document on every request.
    let again: serde_json::Value =
        serde_json::from_str(&get(&format!("{}/openapi.json", server.url))).unwrap();
    assert_eq!(again, served);
    let (code, _) = server.stop();
    assert_eq!(code, Some(0));
}

/// Send `request` on a new connection to `url` (the `listening` URL), close the sending side,
/// and return the status and the body of the answer (the connection must close after it).
fn raw_request(url: &str, request: &[u8]) -> (u16, Vec<u8>) {
    let (status, _, body) = raw_answer(url, request);
    (status, body)
}

/// [`raw_request`], with the answer's status line and headers too.
fn raw_answer(url: &str, request: &[u8]) -> (u16, String, Vec<u8>) {
    use std::io::{Read, Write};
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    s.write_all(request).unwrap();
    s.shutdown(std::net::Shutdown::Write).unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no complete answer: {text:?}"));
    let status = head
        .strip_prefix("HTTP/1.1 ")
        .and_then(|h| h.get(..3))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {text:?}"));
    (status, head.to_string(), body.as_bytes().to_vec())
}

/// A chunked body that is malformed (a chunk-size line that is no hex number, a chunk shorter
/// than its size) is a bad request (400 `invalid_request`, the usual JSON error), not a body
/// beyond `--max-body-bytes` (413); a well-formed chunked body beyond the limit still gets 413.
#[test]
fn a_malformed_chunked_body_is_a_400_and_an_oversized_one_a_413() {
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
        "--max-body-bytes",
        "256",
    ]);
    let head = "POST /v1/route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    let parsed = |status: u16, body: &[u8]| -> (u16, serde_json::Value) {
        let v: serde_json::Value = serde_json::from_slice(body)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(body)));
        (status, v)
    };
    let read_failure = |cause: &str| {
        serde_json::json!({"error": {"code": "invalid_request", "message": format!(
            "the request body could not be read: {cause}; send the body with a correct Content-Length or well-formed chunked encoding"
        )}})
    };
    // `zz` is no chunk size.
    let (status, body) = raw_request(
        &server.url,
        format!("{head}zz\r\n{{\"question\":\"x\"}}\r\n0\r\n\r\n").as_bytes(),
    );
    assert_eq!(
        parsed(status, &body),
        (
            400,
            read_failure("Invalid chunk size line: missing size digit")
        )
    );
    // 0x1a = 26 bytes announced, 23 sent before the connection's sending side closes.
    let (status, body) = raw_request(
        &server.url,
        format!("{head}1a\r\n{{\"question\":\"x\"}}\r\n0\r\n\r\n").as_bytes(),
    );
    assert_eq!(
        parsed(status, &body),
        (
            400,
            read_failure("end of file before message length reached")
        )
    );
    // Well-formed, but 288 bytes > 256: still 413.
    let (status, body) = raw_request(
        &server.url,
        format!("{head}120\r\n{}\r\n0\r\n\r\n", "a".repeat(0x120)).as_bytes(),
    );
    assert_eq!(
        parsed(status, &body),
        (
            413,
            serde_json::json!({"error": {"code": "payload_too_large", "message": "the body is larger than 256 bytes (--max-body-bytes); send one question or Understanding per request"}})
        )
    );
    let (code, _) = server.stop();
    assert_eq!(code, Some(0));
}

/// A compressed body (`Content-Encoding: gzip`) is refused with 415 and says so, instead of
/// being read as it came and reported as "not valid JSON"; `identity` is no compression.
#[test]
fn a_compressed_body_is_a_415() {
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
    ]);
    let body = "{\"question\":\"band gap of GaN\"}";
    let request = format!(
        "POST /v1/route HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    // Sent whole with `Connection: close` and read to the end (no half-close: hyper drops a
    // connection whose client shuts its sending side before the answer is written).
    let answer = {
        use std::io::{Read, Write};
        let addr = server
            .url
            .trim_start_matches("http://")
            .trim_end_matches('/');
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut buf = String::new();
        s.read_to_string(&mut buf).unwrap();
        buf
    };
    let (head, answer) = answer.split_once("\r\n\r\n").unwrap();
    let status: u16 = head[9..12].parse().unwrap();
    let v: serde_json::Value = serde_json::from_str(answer).unwrap();
    assert_eq!(
        (status, v),
        (
            415,
            serde_json::json!({"error": {"code": "unsupported_media_type", "message": "the body must be sent uncompressed (Content-Encoding `gzip` is not supported); leave out Content-Encoding or send `identity`"}})
        )
    );
    let answer = ureq::post(format!("{}/v1/route", server.url))
        .header("Content-Type", "application/json")
        .header("Content-Encoding", "identity")
        .send(body)
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(v["plan"]["status"], "planned", "{v}");
    let (code, _) = server.stop();
    assert_eq!(code, Some(0));
}

/// Bytes that are no HTTP request never reach the router: hyper answers them itself with a
/// bare 400 and no body (hyper 1.x has no hook for that answer: `Conn::on_parse_error` writes
/// `Server::on_error`'s head with no body), closes the connection, and the server goes on.
#[test]
fn raw_non_http_bytes_get_hypers_bare_400_and_the_server_goes_on() {
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
    ]);
    let (status, body) = raw_request(&server.url, b"garbage\r\n\r\n");
    assert_eq!((status, body.as_slice()), (400, &b""[..]));
    let health: serde_json::Value =
        serde_json::from_str(&get(&format!("{}/healthz", server.url))).unwrap();
    assert_eq!(health, serde_json::json!({"status": "ok"}));
    let (code, _) = server.stop();
    assert_eq!(code, Some(0));
}

/// MCP over HTTP: a body that repeats a key is a JSON-RPC error (400) with the request's id,
/// as over stdio; the SDK would keep the last value. The same request without the repeat is
/// routed.
#[test]
fn mcp_http_refuses_repeated_keys() {
    let server = Server::start(&[
        "mcp",
        "--transport",
        "http",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
    ]);
    let post = |body: &str| {
        let mut request = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body.as_bytes());
        let (status, answer) = raw_request(server.url.trim_end_matches("/mcp"), &request);
        (status, String::from_utf8_lossy(&answer).into_owned())
    };
    assert_eq!(
        post(
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"route","arguments":{"question":"band gap of GaAs","question":"x"}}}"#
        ),
        (
            400,
            r#"{"error":{"code":-32602,"message":"Invalid params: duplicate key `question`; each key once"},"id":7,"jsonrpc":"2.0"}"#
                .to_string()
        )
    );
    assert_eq!(
        post(r#"{"jsonrpc":"2.0","id":2,"id":3,"method":"ping"}"#),
        (
            400,
            r#"{"error":{"code":-32600,"message":"Invalid Request: duplicate key `id`"},"id":null,"jsonrpc":"2.0"}"#
                .to_string()
        )
    );
    // JSON that is no JSON-RPC request is an invalid request (-32600), as over stdio, not a
    // parse error; text that is no JSON stays a parse error (-32700).
    for (body, message, id) in [
        (
            "[]",
            "a batch (a JSON list): MCP sends one JSON-RPC message at a time (a line on stdio, a body over HTTP), batches are not part of it",
            "null",
        ),
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            "`jsonrpc` must be \"2.0\"",
            "1",
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            "a request's `id` is a string or a number, not null (a notification has no `id`)",
            "null",
        ),
        (
            r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#,
            "`id` must be a string or a number, not an object",
            "null",
        ),
    ] {
        assert_eq!(
            post(body),
            (
                400,
                format!(
                    r#"{{"error":{{"code":-32600,"message":"Invalid Request: {}"}},"id":{id},"jsonrpc":"2.0"}}"#,
                    message.replace('"', "\\\"")
                )
            ),
            "{body}"
        );
    }
    let (status, answer) = post("nope");
    assert_eq!(status, 400);
    assert!(answer.contains(r#""code":-32700"#), "{answer}");
    let (code, rest) = server.stop();
    assert_stopped(code, &rest);
}

/// MCP over HTTP, session management (MCP 2025-06-18, transports): a request that carries a
/// session id the server does not know or has ended is 404 with a JSON-RPC error body (`DELETE`,
/// `POST` and `GET` alike); ending a live session with `DELETE` is 200 and a second `DELETE` of
/// it 404; a `DELETE` without a session id is 400. A body beyond `--max-body-bytes` is 413 with
/// the SDK's wording (recognised by the limit error's type).
#[test]
fn mcp_http_unknown_or_ended_sessions_are_404() {
    let server = Server::start(&[
        "mcp",
        "--transport",
        "http",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
        "--max-body-bytes",
        "256",
    ]);
    let base = server.url.trim_end_matches("/mcp").to_string();
    let send = |method: &str, session: Option<&str>, accept: &str, body: &str| {
        let session = session.map_or_else(String::new, |s| format!("Mcp-Session-Id: {s}\r\n"));
        let mut request = format!(
            "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n{session}Content-Type: application/json\r\nAccept: {accept}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body.as_bytes());
        let (status, head, answer) = raw_answer(&base, &request);
        (status, head, String::from_utf8_lossy(&answer).into_owned())
    };
    let both = "application/json, text/event-stream";
    let not_found = (
        404,
        r#"{"error":{"code":-32600,"message":"Not Found: Session not found"},"id":null,"jsonrpc":"2.0"}"#
            .to_string(),
    );
    let (status, head, answer) = send(
        "POST",
        None,
        both,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
    );
    assert_eq!(status, 200, "{head}\n{answer}");
    let id = session_id(&head);
    let delete = |session: Option<&str>| {
        let (status, _, answer) = send("DELETE", session, both, "");
        (status, answer)
    };
    // Live: ended, 200 with no body. Then it is unknown.
    assert_eq!(delete(Some(&id)), (200, String::new()));
    assert_eq!(delete(Some(&id)), not_found);
    let tools = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let (status, _, answer) = send("POST", Some(&id), both, tools);
    assert_eq!((status, answer), not_found);
    // Never issued.
    let never = "0123456789abcdef0123456789abcdef";
    assert_eq!(delete(Some(never)), not_found);
    let (status, _, answer) = send("POST", Some(never), both, tools);
    assert_eq!((status, answer), not_found);
    let (status, _, answer) = send("GET", Some(never), "text/event-stream", "");
    assert_eq!((status, answer), not_found);
    // No session id at all.
    assert_eq!(
        delete(None),
        (
            400,
            r#"{"error":{"code":-32600,"message":"Bad Request: Session ID is required"},"id":null,"jsonrpc":"2.0"}"#
                .to_string()
        )
    );
    // 257 bytes > 256.
    let (status, _, answer) = send("POST", None, both, &format!("\"{}\"", "x".repeat(255)));
    assert_eq!(
        (status, answer),
        (
            413,
            r#"{"error":{"code":-32600,"message":"Payload Too Large: request body exceeds 256 bytes"},"id":null,"jsonrpc":"2.0"}"#
                .to_string()
        )
    );
    let (code, rest) = server.stop();
    assert_stopped(code, &rest);
}

/// A client that sends its request and then closes its sending side (half-close, as `nc -N`
/// does) still gets the answer, for a GET and for a POST with a body.
#[test]
fn a_half_closed_connection_gets_its_answer() {
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
    ]);
    let (status, body) = raw_request(
        &server.url,
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(
        (status, String::from_utf8_lossy(&body).into_owned()),
        (200, r#"{"status":"ok"}"#.to_string())
    );
    // A tool id that is not UTF-8 once decoded: the usual JSON error, not plain text.
    let (status, body) = raw_request(
        &server.url,
        b"GET /v1/tools/%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(
        (status, String::from_utf8_lossy(&body).into_owned()),
        (
            400,
            r#"{"error":{"code":"invalid_request","message":"Invalid URL: Invalid UTF-8 in `id`; a tool id is UTF-8 text"}}"#
                .to_string()
        )
    );
    let query = br#"{"question":"band gap of GaAs"}"#;
    let mut request = format!(
        "POST /v1/route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        query.len()
    )
    .into_bytes();
    request.extend_from_slice(query);
    let (status, body) = raw_request(&server.url, &request);
    let answer: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (
            &answer["plan"]["status"],
            &answer["plan"]["steps"][0]["tool"],
            &answer["plan"]["steps"][0]["params"]
        ),
        (
            &serde_json::json!("planned"),
            &serde_json::json!("materials_project"),
            &serde_json::json!({"formula": "GaAs"})
        ),
        "{answer}"
    );
    let (code, _) = server.stop();
    assert_eq!(code, Some(0));
}

/// A client that opens a connection and never finishes its headers is disconnected after the
/// header read timeout (10 s) instead of holding the connection open; other clients are served
/// meanwhile.
#[test]
fn a_connection_that_never_finishes_its_headers_is_closed() {
    use std::io::{Read, Write};
    let artifact = shipped();
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        artifact.to_str().unwrap(),
    ]);
    let addr = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/');
    let mut slow = std::net::TcpStream::connect(addr).unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    // Bounded: a closed connection reads end-of-file; a still-open one times out here.
    slow.set_read_timeout(Some(std::time::Duration::from_secs(40)))
        .unwrap();
    let health: serde_json::Value =
        serde_json::from_str(&get(&format!("{}/healthz", server.url))).unwrap();
    assert!(health.is_object(), "{health}");
    let started = std::time::Instant::now();
    let mut buf = Vec::new();
    let r = slow.read_to_end(&mut buf);
    assert!(
        r.is_ok() && started.elapsed() < std::time::Duration::from_secs(35),
        "the connection was still open after {:?}: {r:?}",
        started.elapsed()
    );
    let (code, _) = server.stop();
    assert_eq!(code, Some(0));
}

/// Over stdio, a line that is no JSON-RPC message is answered with a JSON-RPC error (the SDK
/// alone dropped it without a reply), and the session goes on.
#[test]
fn mcp_stdio_answers_broken_lines_with_json_rpc_errors() {
    use std::io::Write;
    let mut child = Command::new(bin())
        .args([
            "mcp",
            "--artifact",
            shipped().to_str().unwrap(),
            "--max-body-bytes",
            "4096",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A line longer than --max-body-bytes is skipped unread (memory stays bounded), with an
    // answer saying so.
    let mut long = vec![b'x'; 10_000];
    long.push(b'\n');
    stdin.write_all(&long).unwrap();
    stdin
        .write_all(
            concat!(
                "hello, not json\n",
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"route","arguments":[1,2]}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
                "\n",
            )
            .as_bytes(),
        )
        .unwrap();
    // Close stdin once the ping is answered: the server ends with its input.
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    let mut stdin = Some(stdin);
    for line in stdout.lines() {
        let line = line.unwrap();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        if v["id"] == 2 {
            stdin.take();
        }
        lines.push(v);
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let by_id = |id: serde_json::Value| -> Vec<&serde_json::Value> {
        lines.iter().filter(|v| v["id"] == id).collect()
    };
    assert_eq!(
        by_id(serde_json::Value::Null),
        [
            &serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid Request: a line of 10000 bytes, longer than the 4096-byte limit (--max-body-bytes); it was skipped unread"}}),
            &serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error: expected value; send one JSON-RPC message per line"}})
        ]
    );
    assert_eq!(
        by_id(serde_json::json!(9)),
        [
            &serde_json::json!({"jsonrpc": "2.0", "id": 9, "error": {"code": -32602, "message": "Invalid params: `params.arguments` of `tools/call` must be an object, not a list"}})
        ]
    );
    assert_eq!(
        by_id(serde_json::json!(1))[0]["result"]["serverInfo"]["name"],
        "schemarouter"
    );
    assert_eq!(
        by_id(serde_json::json!(2)),
        [&serde_json::json!({"jsonrpc": "2.0", "id": 2, "result": {}})]
    );
    assert_eq!(lines.len(), 5, "{lines:?}");
}

/// Send `request` on a new connection to `url` without closing the sending side (the client
/// still owes the rest of the body) and read the answer until the server closes the
/// connection; returns the status, the body and how long the answer took.
fn raw_held(url: &str, request: &[u8]) -> (u16, String, std::time::Duration) {
    use std::io::{Read, Write};
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .trim_end_matches('/');
    let started = std::time::Instant::now();
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    s.write_all(request).unwrap();
    let mut buf = Vec::new();
    let r = s.read_to_end(&mut buf);
    let elapsed = started.elapsed();
    let text = String::from_utf8_lossy(&buf).into_owned();
    assert!(r.is_ok(), "{r:?} after {elapsed:?}: {text:?}");
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no complete answer: {text:?}"));
    let status = head[9..12].parse().unwrap();
    (status, body.to_string(), elapsed)
}

/// A `Content-Length` beyond `--max-body-bytes` is refused from the header at once (413 with
/// the documented JSON error), not after waiting `--request-timeout-ms` for a body that never
/// comes (it was a 408 after 10 s); MCP over HTTP likewise (413, JSON-RPC error).
#[test]
fn a_declared_length_beyond_the_limit_is_a_413_at_once() {
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
    ]);
    let request = b"POST /v1/route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\nConnection: close\r\n\r\n{}";
    let (status, body, elapsed) = raw_held(&server.url, request);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (status, v),
        (
            413,
            serde_json::json!({"error": {"code": "payload_too_large", "message": "the body is larger than 65536 bytes (--max-body-bytes); send one question or Understanding per request"}})
        )
    );
    assert!(elapsed < std::time::Duration::from_secs(5), "{elapsed:?}");
    let (code, _) = server.stop();
    assert_eq!(code, Some(0));

    let server = Server::start(&[
        "mcp",
        "--transport",
        "http",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
    ]);
    let request = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 99999999999\r\nConnection: close\r\n\r\n{}";
    let (status, body, elapsed) = raw_held(&server.url, request);
    assert_eq!(
        (status, body.as_str()),
        (
            413,
            r#"{"error":{"code":-32600,"message":"Payload Too Large: request body exceeds 65536 bytes"},"id":null,"jsonrpc":"2.0"}"#
        )
    );
    assert!(elapsed < std::time::Duration::from_secs(5), "{elapsed:?}");
    let (code, rest) = server.stop();
    assert_stopped(code, &rest);
}

/// Run `schemarouter mcp` over stdio on the shipped artifact, send `lines` after the
/// initialisation, then a `ping` with id `"end"`; once `expect` answers (the ping's included)
/// have come after the initialisation's, close stdin and return them, sorted by their text
/// (the SDK answers requests concurrently, so their order is not fixed).
fn mcp_stdio_session(lines: &[&str], expect: usize) -> Vec<serde_json::Value> {
    use std::io::Write;
    let mut child = Command::new(bin())
        .args(["mcp", "--artifact", shipped().to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = String::from(concat!(
        r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
    ));
    for l in lines {
        input.push_str(l);
        input.push('\n');
    }
    input.push_str(r#"{"jsonrpc":"2.0","id":"end","method":"ping"}"#);
    input.push('\n');
    let mut stdin = Some(child.stdin.take().unwrap());
    stdin.as_mut().unwrap().write_all(input.as_bytes()).unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answers = Vec::new();
    for line in stdout.lines() {
        let line = line.unwrap();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        if v["id"] != "init" {
            answers.push(v);
        }
        if answers.len() == expect {
            // Close stdin: the server ends with its input.
            stdin.take();
        }
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    answers.sort_by_key(ToString::to_string);
    answers
}

/// Over stdio, a request whose numeric id the SDK cannot read as an i64 gets -32600 with
/// `"id": null` (JSON-RPC 2.0: every response has an `id`) and the accepted ids in the message;
/// the SDK answered `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}`.
#[test]
fn mcp_stdio_numeric_ids_beyond_i64_get_a_null_id() {
    let answers = mcp_stdio_session(
        &[
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":-9223372036854775809,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":1e5,"method":"ping"}"#,
        ],
        5,
    );
    let refused = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid Request: a numeric `id` must be a whole number from -9223372036854775808 to 9223372036854775807 (written with a fraction or exponent, such as `1.0` or `1e5`, only below 2^53 in magnitude); use such a number or a string as `id`"}});
    let mut want = vec![
        refused.clone(),
        refused.clone(),
        refused,
        serde_json::json!({"jsonrpc": "2.0", "id": 100000, "result": {}}),
        serde_json::json!({"jsonrpc": "2.0", "id": "end", "result": {}}),
    ];
    want.sort_by_key(ToString::to_string);
    assert_eq!(answers, want);
}

/// Over stdio, a notification sent before the session begins (an early
/// `notifications/initialized`) no longer ends the connection: the SDK stopped the server on it,
/// leaving earlier requests unanswered. A request before `initialize` gets the SDK's answer,
/// and the session then initialises and answers as usual.
#[test]
fn mcp_stdio_messages_before_initialize_do_not_end_the_session() {
    use std::io::Write;
    let mut child = Command::new(bin())
        .args(["mcp", "--artifact", shipped().to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = Some(child.stdin.take().unwrap());
    stdin
        .as_mut()
        .unwrap()
        .write_all(
            concat!(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
                "\n",
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#,
                "\n",
            )
            .as_bytes(),
        )
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answers = Vec::new();
    for line in stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(&line.unwrap()).unwrap();
        answers.push(v);
        if answers.len() == 4 {
            stdin.take();
        }
    }
    assert!(child.wait().unwrap().success());
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert_eq!(
        answers[0],
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "request _meta is missing or has malformed required fields: io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities"}})
    );
    assert_eq!(
        answers[1],
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
    assert_eq!(answers[2]["id"], 3);
    assert_eq!(answers[2]["result"]["serverInfo"]["name"], "schemarouter");
    assert_eq!(answers[3]["id"], 4);
    let names: Vec<&str> = answers[3]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["route", "search_tools", "explain_plan", "list_intents"]
    );
}

/// POST `body` to the MCP HTTP server at `base` (no `/mcp`), in `session` when given; returns
/// the status, the answer's head and its body.
fn mcp_post(base: &str, session: Option<&str>, body: &str) -> (u16, String, String) {
    let session = session.map_or_else(String::new, |s| format!("Mcp-Session-Id: {s}\r\n"));
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n{session}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body.as_bytes());
    let (status, head, answer) = raw_answer(base, &request);
    (status, head, String::from_utf8_lossy(&answer).into_owned())
}

/// The `Mcp-Session-Id` header of a response head (panics when there is none).
fn session_id(head: &str) -> String {
    head.lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no Mcp-Session-Id: {head}"))
}

/// Start an MCP session on the HTTP server at `base`: `initialize`, then
/// `notifications/initialized`; returns the session id.
fn mcp_http_session(base: &str) -> String {
    let (status, head, answer) = mcp_post(
        base,
        None,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
    );
    assert_eq!(status, 200, "{head}\n{answer}");
    let id = session_id(&head);
    let (status, _, _) = mcp_post(
        base,
        Some(&id),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(status, 202);
    id
}

/// `--max-sessions`: an `initialize` beyond the open sessions is 503 with a JSON-RPC error and
/// `Retry-After`; ending a session (`DELETE`) makes room; requests of open sessions go on.
#[test]
fn mcp_http_sessions_beyond_the_limit_are_refused_until_one_ends() {
    let server = Server::start(&[
        "mcp",
        "--transport",
        "http",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
        "--max-sessions",
        "2",
    ]);
    let base = server.url.trim_end_matches("/mcp").to_string();
    let first = mcp_http_session(&base);
    let _second = mcp_http_session(&base);
    let initialize = r#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let (status, head, answer) = mcp_post(&base, None, initialize);
    assert_eq!(status, 503, "{head}\n{answer}");
    assert!(
        head.to_ascii_lowercase().contains("retry-after: 5"),
        "{head}"
    );
    assert_eq!(
        answer,
        r#"{"error":{"code":-32000,"data":{"code":"too_many_sessions"},"message":"2 sessions are open (--max-sessions 2); end one with DELETE /mcp (its Mcp-Session-Id) or retry when one idles out"},"id":7,"jsonrpc":"2.0"}"#
    );
    // An open session is still served.
    let (status, _, answer) = mcp_post(
        &base,
        Some(&first),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
    );
    assert_eq!(status, 200, "{answer}");
    // Ending one makes room for a new one.
    let request = format!(
        "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: {first}\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\n\r\n"
    );
    let (status, _, _) = raw_answer(&base, request.as_bytes());
    assert_eq!(status, 200);
    let mut opened = false;
    for _ in 0..50 {
        let (status, _, _) = mcp_post(&base, None, initialize);
        if status == 200 {
            opened = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(opened, "no session could be opened after one ended");
    let (code, rest) = server.stop();
    assert_stopped(code, &rest);
}

/// Params of the wrong shape for `tools/call`, `resources/read` and `prompts/get` get -32602
/// (invalid params) with the message stdio gives, over streamable HTTP as over stdio; the SDK
/// alone answered -32601 "method not found" over HTTP.
#[test]
fn mcp_wrongly_shaped_params_are_invalid_params_on_both_transports() {
    let requests = [
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"route","arguments":"x"}}"#,
            r#"{"error":{"code":-32602,"message":"Invalid params: `params.arguments` of `tools/call` must be an object, not a string"},"id":4,"jsonrpc":"2.0"}"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":null}"#,
            r#"{"error":{"code":-32602,"message":"Invalid params: `params` of `tools/call` must be an object, not null"},"id":5,"jsonrpc":"2.0"}"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":5}}"#,
            r#"{"error":{"code":-32602,"message":"Invalid params: `params.uri` of `resources/read` must be a string, not a number"},"id":6,"jsonrpc":"2.0"}"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"p","method":"prompts/get","params":{}}"#,
            r#"{"error":{"code":-32602,"message":"Invalid params: `prompts/get` needs `params.name` (a string)"},"id":"p","jsonrpc":"2.0"}"#,
        ),
    ];
    let server = Server::start(&[
        "mcp",
        "--transport",
        "http",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        shipped().to_str().unwrap(),
    ]);
    let base = server.url.trim_end_matches("/mcp").to_string();
    let session = mcp_http_session(&base);
    for (request, want) in requests {
        let (status, _, answer) = mcp_post(&base, Some(&session), request);
        assert_eq!((status, answer.as_str()), (200, want), "{request}");
    }
    // A well-formed call in the same session still succeeds.
    let (status, _, answer) = mcp_post(
        &base,
        Some(&session),
        r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"schemarouter://artifact"}}"#,
    );
    // (An event stream: the SDK's answer.)
    assert_eq!(status, 200, "{answer}");
    assert!(
        answer.contains(r#""id":7,"result":"#)
            && answer.contains("\"uri\":\"schemarouter://artifact\""),
        "{answer}"
    );
    let (code, rest) = server.stop();
    assert_stopped(code, &rest);

    // Over stdio, the same answers.
    let lines: Vec<&str> = requests.iter().map(|(r, _)| *r).collect();
    let answers = mcp_stdio_session(&lines, requests.len() + 1);
    let mut want: Vec<serde_json::Value> = requests
        .iter()
        .map(|(_, w)| serde_json::from_str(w).unwrap())
        .collect();
    want.push(serde_json::json!({"jsonrpc": "2.0", "id": "end", "result": {}}));
    want.sort_by_key(ToString::to_string);
    assert_eq!(answers, want);
}

/// A prompt argument of the wrong type says its type (not that it is missing), a blank one that
/// it is blank, a missing one that it is needed; a request of a method no handler knows names
/// the method and the methods this server answers (the SDK said only the method's name).
#[test]
fn mcp_prompt_arguments_and_unknown_methods_say_what_is_wrong() {
    let requests = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"understand","arguments":{"question":123}}}"#,
            r#"{"error":{"code":-32602,"message":"the argument `question` of the `understand` prompt must be a string (the user's question), not the number `123`"},"id":1,"jsonrpc":"2.0"}"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"understand","arguments":{"question":["a"]}}}"#,
            r#"{"error":{"code":-32602,"message":"the argument `question` of the `understand` prompt must be a string (the user's question), not a list"},"id":2,"jsonrpc":"2.0"}"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"understand","arguments":{"question":" "}}}"#,
            r#"{"error":{"code":-32602,"message":"the argument `question` of the `understand` prompt is blank: write the user's question"},"id":3,"jsonrpc":"2.0"}"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"understand"}}"#,
            r#"{"error":{"code":-32602,"message":"the `understand` prompt needs the argument `question` (the user's question)"},"id":4,"jsonrpc":"2.0"}"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"bogus/method"}"#,
            r#"{"error":{"code":-32601,"message":"Method not found: `bogus/method`; this server answers initialize, ping, tools/list, tools/call, resources/list, resources/read, prompts/list, prompts/get","data":{"method":"bogus/method","methods":["initialize","ping","tools/list","tools/call","resources/list","resources/read","prompts/list","prompts/get"]}},"id":5,"jsonrpc":"2.0"}"#,
        ),
    ];
    let lines: Vec<&str> = requests.iter().map(|(r, _)| *r).collect();
    let answers = mcp_stdio_session(&lines, requests.len() + 1);
    let mut want: Vec<serde_json::Value> = requests
        .iter()
        .map(|(_, w)| serde_json::from_str(w).unwrap())
        .collect();
    want.push(serde_json::json!({"jsonrpc": "2.0", "id": "end", "result": {}}));
    want.sort_by_key(ToString::to_string);
    assert_eq!(answers, want);
}

/// `explain_plan` over stdio, with a plan from `schemarouter route --json` whose step names a
/// tool the artifact lacks: a tool error saying so (it was explained as if valid).
#[test]
fn mcp_explain_plan_refuses_a_plan_naming_an_unknown_tool() {
    let o = Command::new(bin())
        .args(["route", "--json", "--artifact"])
        .arg(shipped())
        .arg("band gap of Si")
        .output()
        .unwrap();
    assert!(o.status.success());
    let routed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut plan = routed["plan"].clone();
    plan["steps"][0]["tool"] = serde_json::json!("nope");
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "explain_plan", "arguments": {"plan": plan}}}).to_string();
    let answers = mcp_stdio_session(&[&call], 2);
    let mut want = vec![
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": {
            "content": [{"type": "text", "text": "invalid arguments for `explain_plan`: the plan does not fit the served artifact: plan step 1 names tool `nope`, which the artifact does not have; explain a plan `route` returned for this artifact, or give the question again"}],
            "isError": true,
            "_meta": {"code": "invalid_request"}
        }}),
        serde_json::json!({"jsonrpc": "2.0", "id": "end", "result": {}}),
    ];
    want.sort_by_key(ToString::to_string);
    assert_eq!(answers, want);
}

/// `serve` with `--watch-ms`: an `intent_prompt.txt` that is not UTF-8 written beside the
/// artifact is logged as a `warning` event naming the file and why, the reload swaps in the
/// prompt rendered from the artifact, and `/v1/prompt` serves it (the file was passed over
/// without a word).
#[test]
fn a_prompt_file_that_is_not_utf8_is_a_warning_and_the_rendered_prompt_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let artifact = dir.path().join("graph.json");
    let prompt = dir.path().join("intent_prompt.txt");
    std::fs::copy(shipped(), &artifact).unwrap();
    std::fs::write(&prompt, "a prompt of my own\n").unwrap();
    let mut server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        artifact.to_str().unwrap(),
        "--watch-ms",
        "50",
    ]);
    assert_eq!(
        get(&format!("{}/v1/prompt", server.url)),
        "a prompt of my own\n"
    );
    // A watchdog: a server that never logs the reload is killed, ending its stderr.
    let pid = server.pid().to_string();
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if wait
            .recv_timeout(std::time::Duration::from_secs(30))
            .is_err()
        {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
        }
    });
    let tmp = dir.path().join("prompt.tmp");
    std::fs::write(&tmp, b"intents:\n\xff\xfe\n").unwrap();
    std::fs::rename(&tmp, &prompt).unwrap();
    let mut events = Vec::new();
    loop {
        let mut line = String::new();
        let n = server.stderr.read_line(&mut line).unwrap();
        assert!(n > 0, "no reload logged: {events:?}");
        let mut v: serde_json::Value = serde_json::from_str(&line).unwrap();
        let o = v.as_object_mut().unwrap();
        o.remove("ts");
        o.remove("load_ms");
        let reload = o["event"] == "reload";
        events.push(v);
        if reload {
            break;
        }
    }
    let _ = done.send(());
    watchdog.join().unwrap();
    let hash = content_hash(&artifact);
    assert_eq!(
        events,
        [
            serde_json::json!({"event": "warning", "file": prompt.display().to_string(), "message": format!(
                "`{}` is not valid UTF-8 (invalid utf-8 sequence of 1 bytes from index 9); serving the prompt rendered from the artifact instead: save it as UTF-8 or remove it",
                prompt.display()
            )}),
            serde_json::json!({"event": "reload", "trigger": "file changed", "result": "swapped", "artifact": artifact.display().to_string(), "old": hash, "new": hash}),
        ]
    );
    // The rendered prompt: what `compile` wrote beside the shipped artifact.
    assert_eq!(
        get(&format!("{}/v1/prompt", server.url)),
        std::fs::read_to_string(root().join("build/intent_prompt.txt")).unwrap()
    );
    let (code, _) = server.stop();
    assert_eq!(code, Some(0));
}

/// Issue 38: a client that writes its whole body before reading (Python's `http.client`, with a
/// `Content-Length` and chunked) still reads the 413 of a body beyond `--max-body-bytes`: the
/// server drains what it is sent (within a bound) before answering, as nginx lingers, instead of
/// closing on unread bytes (the client got a broken pipe or a reset). Both faces.
#[test]
fn clients_that_write_the_whole_body_first_read_the_413() {
    const CLIENT: &str = r#"
import http.client, sys
host, port = sys.argv[1].split(":")
path = sys.argv[2]
big = b'{"question": "' + b"x" * (6 * 1024 * 1024) + b'"}'
out = []
for body in (big, iter([big[:3000000], big[3000000:]])):
    c = http.client.HTTPConnection(host, int(port), timeout=20)
    try:
        c.request("POST", path, body=body, headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        r = c.getresponse()
        out.append(f"{r.status} {r.getheader('Connection')}")
    except OSError as e:
        out.append(type(e).__name__)
    c.close()
print(" | ".join(out))
"#;
    let artifact = shipped();
    for (face, path) in [("serve", "/v1/route"), ("mcp", "/mcp")] {
        let mut args = vec![face];
        if face == "mcp" {
            args.extend(["--transport", "http"]);
        }
        args.extend([
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
        ]);
        let server = Server::start(&args);
        let addr = server
            .url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .trim_end_matches('/')
            .to_string();
        let o = Command::new("python3")
            .args(["-c", CLIENT, &addr, path])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "413 close | 413 close\n",
            "{face}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let (code, rest) = server.stop();
        assert_stopped(code, &rest);
    }
}

/// Issue 38: the header phase follows `--request-timeout-ms` (it was always 10 s): a connection
/// that never finishes its headers is closed once the configured time has passed.
#[test]
fn the_header_phase_follows_the_request_timeout() {
    use std::io::{Read, Write};
    let server = Server::start(&[
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--request-timeout-ms",
        "500",
        "--artifact",
        shipped().to_str().unwrap(),
    ]);
    let addr = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let mut slow = std::net::TcpStream::connect(&addr).unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    // Bounded: a closed connection reads end-of-file; one still open after 9 s (the old fixed
    // 10 s) fails the test.
    slow.set_read_timeout(Some(std::time::Duration::from_secs(9)))
        .unwrap();
    let mut buf = Vec::new();
    let r = slow.read_to_end(&mut buf);
    assert!(r.is_ok(), "the connection was still open: {r:?}");
    let (code, _) = server.stop();
    assert_eq!(code, Some(0));
}

/// A SIGTERM sent right after the `listening` line shuts every face down gracefully (exit 0,
/// `stopped` logged): the signal handlers are installed before the line is written, and a
/// stdio face whose client keeps stdin open exits instead of waiting for it. Each face is
/// started and stopped five times; each wait is bounded (10 s).
#[test]
fn sigterm_right_after_listening_stops_every_face() {
    let artifact = root().join("build/graph.json");
    let faces: [&[&str]; 5] = [
        &["serve", "--bind", "127.0.0.1:0"],
        &["mcp"],
        &["mcp", "--transport", "http", "--bind", "127.0.0.1:0"],
        &["gateway"],
        &["gateway", "--transport", "http", "--bind", "127.0.0.1:0"],
    ];
    for face in faces {
        for _ in 0..5 {
            let mut child = Command::new(bin())
                .args(face)
                .arg("--artifact")
                .arg(&artifact)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stderr = BufReader::new(child.stderr.take().unwrap());
            let mut line = String::new();
            stderr.read_line(&mut line).unwrap();
            assert!(line.contains("\"event\":\"listening\""), "{face:?}: {line}");
            let pid = child.id().to_string();
            assert!(
                Command::new("kill")
                    .args(["-TERM", &pid])
                    .status()
                    .unwrap()
                    .success()
            );
            let start = std::time::Instant::now();
            let status = loop {
                if let Some(s) = child.try_wait().unwrap() {
                    break Some(s);
                }
                if start.elapsed() > std::time::Duration::from_secs(10) {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            };
            let mut rest = String::new();
            stderr.read_to_string(&mut rest).unwrap();
            assert_eq!(status.and_then(|s| s.code()), Some(0), "{face:?}: {rest}");
            assert!(rest.contains("\"event\":\"stopped\""), "{face:?}: {rest}");
        }
    }
}
