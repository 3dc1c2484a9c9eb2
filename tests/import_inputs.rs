//! Import of unusual but valid inputs found by an adversarial user (break46): number-like text
//! values, empty path keys, empty response content, re-import of a changed server, BFCL type
//! names, long `$ref` chains. Each over several shapes, end to end through the binary.

use std::path::Path;
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// `schemarouter import KIND SRC --project p --no-derive ARGS` in `dir`.
fn import(dir: &Path, kind: &str, src: &str, args: &[&str]) -> Run {
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(["import", kind, src, "--project", "p", "--no-derive"])
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The findings' messages of an `--message-format json` report.
fn messages(stdout: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(stdout).unwrap();
    v["findings"]["diagnostics"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn tool(dir: &Path, id: &str) -> String {
    std::fs::read_to_string(dir.join(format!("p/schemas/{id}.yaml"))).unwrap()
}

#[test]
fn number_like_text_values_keep_their_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "nl.yaml",
        r#"openapi: 3.0.3
info: {title: NL, version: "1"}
paths:
  /files:
    get:
      operationId: list_files
      parameters:
        - name: mode
          in: query
          schema: {type: string, default: 0755, enum: [0755, 0x1F, 1.10, 1e3, 7, yes]}
        - name: codes
          in: query
          schema: {type: array, items: {type: string, enum: [007, 010]}}
        - name: count
          in: query
          schema: {type: integer, default: 010}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {a: {type: string}}}}}}
"#,
    );
    let r = import(d, "openapi", "nl.yaml", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let t = tool(d, "nl");
    assert!(
        t.contains(
            "        enum:\n          - \"0755\"\n          - \"0x1F\"\n          - \"1.10\"\n          - \"1e3\"\n          - \"7\"\n          - \"yes\"\n        default: \"0755\"\n"
        ),
        "{t}"
    );
    assert!(
        t.contains("          - \"007\"\n          - \"010\"\n"),
        "{t}"
    );
    // An integer parameter keeps the number (YAML 1.2: `010` is ten).
    assert!(
        t.contains("        default: 010\n") || t.contains("        default: 10\n"),
        "{t}"
    );
    let check = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(["check", "p", "--format", "concise"])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

#[test]
fn path_keys_without_a_slash_and_empty_response_content_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ok = "{'200': {description: ok, content: {application/json: {schema: {type: object, properties: {a: {type: string}}}}}}}";
    write(
        d,
        "ep.yaml",
        &format!(
            r#"openapi: 3.0.3
info: {{title: EP, version: "1"}}
servers: [{{url: "https://api.example.org/v1"}}]
paths:
  "":
    get: {{operationId: root, responses: {ok}}}
  " ":
    get: {{operationId: blank, responses: {ok}}}
  "/":
    get: {{operationId: slash, responses: {ok}}}
  "pets":
    get: {{operationId: pets, responses: {ok}}}
  "/things":
    get:
      operationId: things
      responses:
        '200':
          description: ok
          content:
  "/others":
    get:
      operationId: others
      responses:
        '200': {{description: ok, content: {{}}}}
"#
        ),
    );
    let r = import(d, "openapi", "ep.yaml", &["--message-format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let messages = messages(&r.stdout);
    assert_eq!(
        messages,
        vec![
            "the empty path `\"\"` under `paths` names no URL: its operations are not imported",
            "path ` ` under `paths` names no URL: its operations are not imported",
            "path `pets` does not start with `/`: imported as `/pets`",
            "`ep/things`: the 200 response's `content` is empty (no media type, no schema); imported with no fields",
            "`ep/others`: the 200 response's `content` is empty (no media type, no schema); imported with no fields",
        ],
        "{}",
        r.stderr
    );
    let t = tool(d, "ep");
    let urls: Vec<&str> = t
        .lines()
        .filter(|l| l.trim_start().starts_with("url:"))
        .collect();
    assert_eq!(
        urls,
        vec![
            "  url: https://api.example.org",
            "    url: https://api.example.org/v1/",
            "    url: https://api.example.org/v1/others",
            "    url: https://api.example.org/v1/things",
            "    url: https://api.example.org/v1/pets",
        ],
        "{t}"
    );
}

#[test]
fn bfcl_python_type_names_are_read_as_json_schema_types() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "bfcl.json",
        r#"[{"name": "calc.area", "description": "area", "parameters": {"type": "dict", "properties": {"r": {"type": "float"}, "point": {"type": "tuple", "items": {"type": "integer"}}, "opts": {"type": "dict", "properties": {"scale": {"type": "float"}}}, "unit": {"type": "string", "default": "cm"}}, "required": ["r"]}},
 {"type": "function", "function": {"name": "plain", "parameters": {"type": "object", "properties": {"x": {"type": "number"}}}}}]"#,
    );
    let r = import(d, "openai", "bfcl.json", &["--message-format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let m = messages(&r.stdout);
    assert!(
        m.contains(&"5 schema type(s) are Python names (`dict`, `float`, `tuple`, as in BFCL files): read as `object`, `number`, `array`".to_string()),
        "{m:?}"
    );
    let t = tool(d, "bfcl");
    for (name, ty) in [
        ("r", "number"),
        ("point", "integer[]"),
        ("unit", "string"),
        ("x", "number"),
    ] {
        assert!(
            t.contains(&format!("      - name: {name}\n        type: {ty}\n")),
            "{name}: {t}"
        );
    }
}

/// An OpenAPI document whose response is `A0`, each `Ai` a `$ref` to `Ai+1`, the last an object.
fn ref_chain(n: usize) -> String {
    let mut schemas = serde_json::Map::new();
    for i in 0..n {
        schemas.insert(
            format!("A{i}"),
            serde_json::json!({"$ref": format!("#/components/schemas/A{}", i + 1)}),
        );
    }
    schemas.insert(
        format!("A{n}"),
        serde_json::json!({"type": "object", "properties": {"x": {"type": "string"}}}),
    );
    serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Chain", "version": "1"},
        "paths": {"/a": {"get": {"operationId": "a", "responses": {"200": {"description": "ok",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A0"}}}}}}}},
        "components": {"schemas": schemas}
    })
    .to_string()
}

#[test]
fn a_long_acyclic_ref_chain_is_a_depth_cut_not_a_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "short.json", &ref_chain(30));
    let r = import(d, "openapi", "short.json", &["--message-format", "json"]);
    assert_eq!((r.code, messages(&r.stdout)), (0, vec![]), "{}", r.stderr);
    assert!(tool(d, "chain").contains("      - name: x\n"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "long.json", &ref_chain(100));
    let r = import(d, "openapi", "long.json", &["--message-format", "json"]);
    assert_eq!(
        messages(&r.stdout),
        vec![
            "`$ref: #/components/schemas/A65` is reached through more than 64 nested references (a chain, not a cycle); cut here, at the import's depth limit (first met in `chain/a`)"
        ],
        "{}",
        r.stderr
    );
}

#[test]
fn a_reimport_names_each_hand_comment_it_drops() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let doc = |extra: &str| {
        format!(
            r#"openapi: 3.0.3
info: {{title: Weather, version: "1"}}
servers: [{{url: "https://api.weather.example"}}]
paths:
  /forecast:
    get:
      operationId: get_forecast
      responses:
        '200': {{description: ok, content: {{application/json: {{schema: {{type: object, properties: {{temp: {{type: number}}{extra}}}}}}}}}}}
"#
        )
    };
    write(d, "w.yaml", &doc(""));
    assert_eq!(import(d, "openapi", "w.yaml", &[]).code, 0);
    let path = d.join("p/schemas/weather.yaml");
    let t = tool(d, "weather");
    let t = t
        .replacen(
            "title: Weather\n",
            "title: Weather\n# my note: keep me\n",
            1,
        )
        .replacen("    method: GET\n", "    method: GET  # trailing note\n", 1);
    std::fs::write(&path, &t).unwrap();
    let line = |needle: &str| t[..t.find(needle).unwrap()].lines().count() + 1;
    write(d, "w.yaml", &doc(", humidity: {type: number}"));
    let r = import(d, "openapi", "w.yaml", &["--message-format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let notes: Vec<String> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .filter(|n| n.contains("comment"))
        .collect();
    let shown = path.strip_prefix(d).unwrap_or(&path).display().to_string();
    assert_eq!(
        notes,
        vec![
            format!(
                "{shown}:{}: the comment `# my note: keep me` is not kept by a re-import (only the leading comment block's header and `# schemarouter:` suppression comments are); it was dropped",
                line("# my note")
            ),
            format!(
                "{shown}:{}: the comment `# trailing note` is not kept by a re-import (only the leading comment block's header and `# schemarouter:` suppression comments are); it was dropped",
                line("    method: GET  #")
            ),
        ],
        "{}",
        r.stdout
    );
}
