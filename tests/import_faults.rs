//! Import fault kinds of issue 38: free-form object parameters (SR710) in every importer, over
//! several shapes.

use schemarouter::import::run::Kind;
use schemarouter::import::{ImportRequest, SourceSpec};

/// The SR710 messages of a dry-run import of one source file.
fn free_form(kind: Kind, file: &str, text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join(file);
    std::fs::write(&src, text).unwrap();
    let req = ImportRequest {
        kind,
        sources: vec![SourceSpec::File(src)],
        project: dir.path().join("project"),
        out: None,
        format: schemarouter::source::Format::Yaml,
        options: Default::default(),
        dry_run: true,
        timeout: std::time::Duration::from_secs(5),
        derive: false,
    };
    let o = match schemarouter::import::run(&req) {
        Ok(o) => o,
        Err(e) => panic!("{e:?}"),
    };
    o.findings
        .iter()
        .filter(|d| d.code == "SR710")
        .map(|d| d.message.clone())
        .collect()
}

const TAIL: &str = ": the declaration cannot tell an agent what to send";

#[test]
fn openapi_free_form_parameters_and_body_properties_are_reported() {
    let doc = r#"openapi: 3.0.3
info: {title: Free Form, version: "1"}
paths:
  /x:
    post:
      operationId: search
      parameters:
        - {name: filter, in: query, schema: {type: object}}
        - {name: q, in: query, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                options: {type: object, description: Search options}
                meta: {type: object, additionalProperties: true}
                tags: {type: object, additionalProperties: {type: string}}
                rows: {type: array, items: {type: object}}
                typed: {type: object, properties: {a: {type: string}}}
                closed: {type: object, additionalProperties: false, properties: {b: {type: integer}}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {a: {type: string}}}
"#;
    let any = " (any keys and values)";
    assert_eq!(
        free_form(Kind::OpenApi, "api.yaml", doc),
        [
            format!(
                "`free_form/search`: parameter `filter` takes an object whose schema declares no `properties`{any}{TAIL}"
            ),
            format!(
                "`free_form/search`: parameter `options` takes an object whose schema declares no `properties`{any}{TAIL}"
            ),
            format!(
                "`free_form/search`: parameter `meta` takes an object whose schema declares no `properties`{any}{TAIL}"
            ),
            format!(
                "`free_form/search`: parameter `tags` takes an object whose schema declares no `properties` (any keys, each holding a value of type `string`){TAIL}"
            ),
            format!(
                "`free_form/search`: parameter `rows` takes a list of objects whose schema declares no `properties`{any}{TAIL}"
            ),
        ]
    );
}

#[test]
fn swagger_mcp_and_openai_free_form_parameters_are_reported() {
    let swagger = r#"{"swagger": "2.0", "info": {"title": "Old", "version": "1"}, "host": "old.example", "paths": {"/x": {"post": {"operationId": "put", "parameters": [{"name": "payload", "in": "body", "schema": {"type": "object", "properties": {"extra": {"type": "object"}, "n": {"type": "integer"}}}}], "responses": {"200": {"description": "ok", "schema": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}}}"#;
    let got = free_form(Kind::OpenApi, "swagger.json", swagger);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].contains("parameter `extra` takes an object"),
        "{got:?}"
    );
    let mcp = r#"{"tools": [{"name": "search", "description": "Search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "options": {"type": "object"}, "typed": {"type": "object", "properties": {"k": {"type": "string"}}}}}}]}"#;
    assert_eq!(
        free_form(Kind::Mcp, "tools.json", mcp),
        [format!(
            "`tools/search`: parameter `options` takes an object whose schema declares no `properties` (any keys and values){TAIL}"
        )]
    );
    let openai = r#"[{"type": "function", "function": {"name": "search", "description": "Search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}, "weights": {"type": "object", "additionalProperties": {"type": "number"}}}}}}]"#;
    assert_eq!(
        free_form(Kind::OpenAi, "tools.json", openai),
        [format!(
            "`tools/search`: parameter `weights` takes an object whose schema declares no `properties` (any keys, each holding a value of type `number`){TAIL}"
        )]
    );
}
