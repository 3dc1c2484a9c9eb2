//! The `import` command line: `--only` given more than once, `--url` over HTTPS, and
//! `--message-format json` for arguments refused before the import starts.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/import")
        .join(p)
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], cwd: &Path) -> Run {
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

#[test]
fn only_given_twice_imports_what_either_matches() {
    let dir = tempfile::tempdir().unwrap();
    let src = fixture("petstore-3.0.yaml");
    let src = src.to_str().unwrap();
    let r = run(
        &[
            "import",
            "openapi",
            src,
            "--project",
            "proj",
            "--no-derive",
            "--only",
            "*pet_by_id",
            "--only",
            "list_*",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text =
        std::fs::read_to_string(dir.path().join("proj/schemas/swagger_petstore.yaml")).unwrap();
    let mut ids: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  - id: "))
        .collect();
    ids.sort();
    assert_eq!(ids, ["list_pets", "show_pet_by_id"]);
    // When none matches, the message names every glob.
    let r = run(
        &[
            "import",
            "openapi",
            src,
            "--project",
            "proj2",
            "--no-derive",
            "--only",
            "nothing*",
            "--only",
            "none*",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("nothing to import: nothing matches `--only nothing* --only none*`"),
        "{}",
        r.stderr
    );
    // A bad glob among several is named.
    let r = run(
        &["import", "openapi", src, "--only", "a*", "--only", "[z-a"],
        dir.path(),
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: `--only [z-a` is not a glob"),
        "{}",
        r.stderr
    );
}

/// An `https://` URL is accepted and spoken to over TLS: a local listener receives a TLS
/// ClientHello (record type 22, version 3.x) and closes, and the import reports the server
/// unreachable (exit 2) instead of refusing the scheme.
#[test]
fn an_https_url_is_attempted_over_tls() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        let mut head = [0u8; 3];
        s.read_exact(&mut head).unwrap();
        head
    });
    let dir = tempfile::tempdir().unwrap();
    let url = format!("https://127.0.0.1:{port}/mcp");
    let r = run(
        &[
            "import",
            "mcp",
            "--url",
            &url,
            "--timeout",
            "10",
            "--project",
            "p",
        ],
        dir.path(),
    );
    let head = server.join().unwrap();
    assert_eq!((head[0], head[1]), (0x16, 0x03), "{head:?}");
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .starts_with(&format!("error: cannot reach the MCP server at {url}")),
        "{}",
        r.stderr
    );
    assert!(!dir.path().join("p").exists());
}

#[test]
fn json_messages_for_arguments_refused_before_the_import() {
    let dir = tempfile::tempdir().unwrap();
    let json = |r: &Run| -> serde_json::Value {
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
    };
    // Found by the import command: the JSON refusal on stdout, error and help on stderr.
    let r = run(
        &[
            "import",
            "mcp",
            "--command",
            "x",
            "--url",
            "http://127.0.0.1:9/mcp",
            "--message-format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        json(&r),
        serde_json::json!({
            "refused": true,
            "written": false,
            "error": "give either `--command` or `--url`, not both",
            "help": "import one server per run",
        })
    );
    assert_eq!(
        r.stderr,
        "error: give either `--command` or `--url`, not both\nhelp: import one server per run\n"
    );
    for (args, error) in [
        (
            vec!["import", "openapi", "--message-format", "json"],
            "nothing to import: give a source file",
        ),
        (
            vec![
                "import",
                "openapi",
                "a.json",
                "--tool=x/y",
                "--message-format=json",
            ],
            "`--tool x/y` is not an id",
        ),
    ] {
        let r = run(&args, dir.path());
        assert_eq!(r.code, 2, "{args:?}");
        assert_eq!(json(&r)["error"], error, "{args:?}");
    }
    // Found by the argument parser: the same document, with clap's message.
    let r = run(
        &[
            "import",
            "openapi",
            "a.json",
            "--timeout",
            "soon",
            "--message-format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 2);
    let v = json(&r);
    assert_eq!(v["refused"], true);
    assert_eq!(
        v["error"],
        "invalid value 'soon' for '--timeout <TIMEOUT>': invalid digit found in string"
    );
    assert!(
        r.stderr.starts_with("error: invalid value 'soon'"),
        "{}",
        r.stderr
    );
    // Without JSON, stdout stays empty.
    let r = run(
        &["import", "openapi", "a.json", "--timeout", "soon"],
        dir.path(),
    );
    assert_eq!((r.code, r.stdout.as_str()), (2, ""));
}

/// The program on PATH, if it runs (`name version_arg`); under CI its absence fails the test.
fn tool(name: &str, version_arg: &str) -> Option<()> {
    let ok = Command::new(name)
        .arg(version_arg)
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(());
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{name} is missing (.ci/run installs it)"
    );
    eprintln!("skipped: {name} is not installed");
    None
}

/// A live MCP server over HTTPS (tests/mcp/tls_server.py, with a self-signed certificate made by
/// openssl) is imported when the system trusts its certificate (`SSL_CERT_FILE`, read by the
/// platform verifier on Linux), and refused with nothing written when it does not.
#[test]
#[ignore = "needs openssl and python3: run with --include-ignored"]
fn an_https_server_is_imported_when_its_certificate_is_trusted() {
    if tool("openssl", "version").is_none() || tool("python3", "--version").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let made = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "key.pem",
            "-out",
            "cert.pem",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-addext",
            "basicConstraints=critical,CA:FALSE",
        ])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/tls_server.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .args(["cert.pem", "key.pem"])
        .current_dir(d)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let guard = Kill(child);
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    let port = line
        .trim()
        .strip_prefix("listening ")
        .unwrap_or_else(|| panic!("{line}"));
    let url = format!("https://127.0.0.1:{port}/mcp");
    let import = |project: &str, trust: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_schemarouter"));
        cmd.args([
            "import",
            "mcp",
            "--url",
            &url,
            "--project",
            project,
            "--no-derive",
        ])
        .args(["--timeout", "20"])
        .current_dir(d)
        .env("NO_COLOR", "1")
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR");
        if trust {
            cmd.env("SSL_CERT_FILE", d.join("cert.pem"));
        }
        cmd.output().unwrap()
    };
    let o = import("trusted", true);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(d.join("trusted/schemas/weather_tls.yaml")).unwrap();
    assert!(text.contains("  - id: get_weather\n"), "{text}");
    assert!(text.contains(&format!("  url: {url}\n")), "{text}");
    let o = import("untrusted", false);
    drop(guard);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .starts_with(&format!("error: cannot reach the MCP server at {url}")),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!d.join("untrusted").exists());
}
