//! Search and routing on imported catalogs that nobody annotated: `import` (with its derived
//! layer), `compile`, then `search` and `route` as a new user runs them. The catalogs: a
//! code-hosting OpenAPI document, an MCP server whose descriptions are Chinese and Japanese,
//! the MCP reference servers `time` and `memory` (saved `tools/list` results) and the petstore;
//! beside them, a project that adds the reference server `filesystem`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_schemarouter"))
}

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(p)
}

/// The catalogs of the shared project: (importer, fixture, tool id).
const CATALOGS: [(&str, &str, Option<&str>); 6] = [
    ("openapi", "any-catalog/code-host.yaml", None),
    ("openapi", "any-catalog/weather.yaml", None),
    ("mcp", "any-catalog/cjk-tools.json", Some("cn_services")),
    ("mcp", "mcp/time-tools-list.rpc.json", Some("time")),
    ("mcp", "mcp/memory-tools-list.rpc.json", Some("memory")),
    ("openapi", "import/petstore-3.0.yaml", None),
];

/// `imports` imported into one new project and compiled.
fn imported(imports: &[(&str, &str, Option<&str>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let proj = dir.path().join("proj");
    for (kind, src, tool) in imports {
        let mut c = bin();
        c.args(["import", kind])
            .arg(fixture(src))
            .arg("--project")
            .arg(&proj);
        if let Some(t) = tool {
            c.args(["--tool", t]);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = bin().arg("compile").arg(&proj).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    dir
}

/// The imported and compiled project, made once for every test of this file.
fn project() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| imported(&CATALOGS)).path()
}

fn artifact() -> PathBuf {
    project().join("proj/build/graph.json")
}

/// `schemarouter COMMAND --artifact A --json ARGS...` on the shared project.
fn json_of(command: &str, args: &[&str]) -> Value {
    json_in(&artifact(), command, args)
}

/// `schemarouter COMMAND --artifact ARTIFACT --json ARGS...`.
fn json_in(artifact: &Path, command: &str, args: &[&str]) -> Value {
    let o = bin()
        .arg(command)
        .arg("--artifact")
        .arg(artifact)
        .arg("--json")
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A search hit as (tool, endpoint, call, matched words).
type HitView = (String, String, Option<String>, Vec<String>);

/// `search --k 3` on the shared project.
fn search(q: &str) -> Vec<HitView> {
    search_in(&artifact(), q)
}

/// `search --k 3` on `artifact`.
fn search_in(artifact: &Path, q: &str) -> Vec<HitView> {
    let v = json_in(artifact, "search", &["--k", "3", "--", q]);
    v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["tool"].as_str().unwrap().to_string(),
                h["endpoint"].as_str().unwrap().to_string(),
                h["call"].as_str().map(str::to_string),
                serde_json::from_value(h["matched"].clone()).unwrap(),
            )
        })
        .collect()
}

/// A plan step as (tool, endpoint, params, field names, missing required parameters).
type StepView = (String, String, Value, Vec<String>, Vec<String>);

/// `route --k K`: the status, the reason when empty, and the steps.
fn route(q: &str, k: u32) -> (String, Option<String>, Vec<StepView>) {
    let v = json_of("route", &["--k", &k.to_string(), "--", q]);
    let p = &v["plan"];
    let steps = p["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["tool"].as_str().unwrap().to_string(),
                s["endpoint"].as_str().unwrap().to_string(),
                s["params"].clone(),
                s["fields"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f["name"].as_str().unwrap().to_string())
                    .collect(),
                serde_json::from_value(s["missing_required"].clone()).unwrap_or_default(),
            )
        })
        .collect();
    (
        p["status"].as_str().unwrap().to_string(),
        p["out_of_scope"].as_str().map(str::to_string),
        steps,
    )
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn search_ranks_endpoints_in_english_chinese_and_japanese() {
    assert_eq!(
        search("open issues in rust-lang/rust"),
        [
            (
                "code_host_rest_api".into(),
                "issues_list_for_repo".into(),
                None,
                s(&["open", "issues"])
            ),
            (
                "memory".into(),
                "open_nodes".into(),
                Some("open_nodes".into()),
                s(&["open"])
            ),
            (
                "code_host_rest_api".into(),
                "repos_get".into(),
                None,
                s(&["open", "issues"])
            ),
        ]
    );
    // CJK text is read as character bigrams: no segmenter, no spaces needed.
    assert_eq!(
        search("查询北京的天气预报")[0],
        (
            "cn_services".into(),
            "get_weather_forecast".into(),
            Some("get_weather_forecast".into()),
            s(&["查询", "的天", "天气", "气预", "预报"])
        )
    );
    assert_eq!(search("明天从北京到上海的火车票")[0].1, "get_train_tickets");
    assert_eq!(search("トヨタの株価を教えて")[0].1, "kabuka_shutoku");
    assert_eq!(search("zzqx wvvk"), []);
}

#[test]
fn a_question_no_intent_covers_is_planned_from_the_ranked_endpoints() {
    // A question reads: the endpoint that writes (PUT star) ranks below the one that reads;
    // `owner/repo` fills the URL template; the field is found by its description's word.
    assert_eq!(
        route("How many stars does rust-lang/rust have?", 1),
        (
            "planned".into(),
            None,
            vec![(
                "code_host_rest_api".into(),
                "repos_get".into(),
                serde_json::json!({"owner": "rust-lang", "repo": "rust"}),
                s(&["id", "stargazers_count"]),
                vec![]
            )]
        )
    );
    // An enum value the question says binds its parameter; a list's fields are its records';
    // a question that names no field gets each record's label.
    assert_eq!(
        route("show me the open issues of rust-lang/rust", 1).2,
        vec![(
            "code_host_rest_api".into(),
            "issues_list_for_repo".into(),
            serde_json::json!({"owner": "rust-lang", "repo": "rust", "state": "open"}),
            s(&["title"]),
            vec![]
        )]
    );
    // A request to act is planned on the endpoint that acts; a quoted title fills `title`.
    assert_eq!(
        route(
            "create an issue titled \"crash on start\" in rust-lang/rust",
            1
        )
        .2,
        vec![(
            "code_host_rest_api".into(),
            "issues_create".into(),
            serde_json::json!({"owner": "rust-lang", "repo": "rust", "title": "crash on start"}),
            s(&["html_url", "number"]),
            vec![]
        )]
    );
}

#[test]
fn the_fields_a_plan_keeps_are_the_ones_the_question_points_at() {
    // A POST whose id holds `create` writes, so the repository read answers; of the fields,
    // only the one the two words name.
    assert_eq!(
        route("what's the default branch of rust-lang/rust", 1).2,
        vec![(
            "code_host_rest_api".into(),
            "repos_get".into(),
            serde_json::json!({"owner": "rust-lang", "repo": "rust"}),
            s(&["default_branch", "id"]),
            vec![]
        )]
    );
    // One temperature, the current one (the shallowest); the place after "in" ends before
    // "right now" and fills the place id.
    let (_, _, steps) = route("what's the temperature in lyon right now?", 1);
    assert_eq!(
        (&steps[0].1, &steps[0].2, &steps[0].3),
        (
            &"point_point_get".to_string(),
            &serde_json::json!({"place_id": "lyon"}),
            &s(&["current.temperature"])
        )
    );
    // The word `hourly` chooses among the temperatures; coordinates keep their hemisphere.
    let (_, _, steps) = route("hourly temperatures at 45.76N 4.84E", 1);
    assert_eq!(
        (&steps[0].2, &steps[0].3),
        (
            &serde_json::json!({"lat": "45.76N", "lon": "4.84E"}),
            &s(&["hourly.data[].temperature"])
        )
    );
    // `dir` abbreviates "direction"; `today` ends the place.
    let (_, _, steps) = route("wind speed and direction in wellington today", 1);
    assert_eq!(
        (&steps[0].2, &steps[0].3),
        (
            &serde_json::json!({"place_id": "wellington"}),
            &s(&["current.wind.dir", "current.wind.speed"])
        )
    );
}

#[test]
fn a_named_tool_takes_its_best_ranked_endpoint_and_k_adds_other_needs() {
    // `time` names the tool; of its endpoints the question asks for the current time. Tokyo is
    // no IANA time zone name, so the parameter stays open (and is said to).
    let (status, _, steps) = route("What time is it in Tokyo?", 1);
    assert_eq!(status, "missing_required_parameter");
    assert_eq!(
        (steps[0].0.as_str(), steps[0].1.as_str(), &steps[0].4),
        ("time", "get_current_time", &s(&["timezone"]))
    );
    // Several needs with --k: the named tool's step, then the ranked endpoints for the rest.
    let (_, _, steps) = route(
        "Look up the issues of rust-lang/rust and save a note about them in the knowledge graph memory",
        3,
    );
    assert_eq!(
        steps
            .iter()
            .map(|s| (s.0.as_str(), s.1.as_str()))
            .collect::<Vec<_>>(),
        [
            ("memory", "read_graph"),
            ("code_host_rest_api", "issues_list_for_repo"),
            // The repository `rust-lang/rust` names, read in its two placeholders.
            ("code_host_rest_api", "repos_get")
        ]
    );
}

#[test]
fn no_tool_is_decided_from_the_catalog() {
    assert_eq!(
        route("How do I bake a chocolate cake?", 1),
        (
            "no_suitable_tool".into(),
            Some("no endpoint of the catalog shares a word with the request".into()),
            vec![]
        )
    );
    // Words of the catalog, but an action no endpoint names or describes.
    let (status, reason, steps) = route("Order the pets food for next week", 1);
    assert_eq!((status.as_str(), steps.len()), ("no_suitable_tool", 0));
    assert_eq!(
        reason.as_deref(),
        Some(
            "the request asks to order, and no endpoint of the catalog that matches it names or describes that action"
        )
    );
    // A near miss: one word of the catalog, and not what the question asks about.
    let (status, reason, steps) = route("how many vaccinations did the pets get last month", 1);
    assert_eq!((status.as_str(), steps.len()), ("no_suitable_tool", 0));
    assert_eq!(
        reason.as_deref(),
        Some(
            "the request asks about vaccinations, and the closest endpoint `swagger_petstore/list_pets` matches only `pets` of it"
        )
    );
    let (status, _, steps) = route("how many pets are there", 1);
    assert_eq!(
        (status.as_str(), steps[0].1.as_str()),
        ("planned", "list_pets")
    );
    // A project that declares no topics refuses no weather question by a word list: the catalog
    // has a weather forecast.
    let (status, _, steps) = route("What's the weather forecast in Beijing?", 1);
    assert_eq!(status, "planned");
    assert_eq!(steps[0].1, "get_weather_forecast");
    assert_eq!(steps[0].2, serde_json::json!({"city": "Beijing"}));
}

#[test]
fn a_task_of_several_needs_is_planned_where_the_catalog_serves_one() {
    // The second need is nothing the catalog knows: alone it is refused, beside a need the
    // catalog serves it no longer sinks the whole task.
    let (status, reason, steps) = route(
        "summarise the novel middlemarch and recommend three similar victorian novels",
        1,
    );
    assert_eq!(
        (status.as_str(), reason.as_deref(), steps.len()),
        (
            "no_suitable_tool",
            Some("no endpoint of the catalog shares a word with the request"),
            0
        )
    );
    let (status, _, steps) = route(
        "how humid is it in lyon, then summarise the novel middlemarch and recommend three similar victorian novels",
        1,
    );
    assert_eq!(
        (status.as_str(), steps[0].0.as_str(), steps[0].1.as_str()),
        ("planned", "point_weather_api", "point_point_get")
    );
}

#[test]
fn near_misses_that_share_a_word_or_two_get_no_plan() {
    let refused = |q: &str| {
        let (status, reason, steps) = route(q, 1);
        assert_eq!(
            (status.as_str(), steps.len()),
            ("no_suitable_tool", 0),
            "{q}"
        );
        reason.unwrap()
    };
    // What the question asks for is a word no endpoint holds; the catalog has the pets, not
    // their vaccinations.
    assert_eq!(
        refused("how many vaccinations are left for the pets show"),
        "the request asks about vaccinations, and no endpoint of the catalog knows `vaccinations`"
    );
    // Actions no endpoint does: with a number word or a particle before the object, and on a
    // named tool.
    assert_eq!(
        refused("buy two pets for my kids"),
        "the request asks to buy, and no endpoint of the catalog that matches it names or describes that action"
    );
    assert_eq!(
        refused("sign up the pets for a show"),
        "the request asks to sign up, and no endpoint of the catalog that matches it names or describes that action"
    );
    assert_eq!(
        refused("cancel my swagger petstore order 4821"),
        "the request asks to cancel, and no endpoint of the catalog that matches it names or describes that action"
    );
    // Kept: a measure the catalog knows ("how humid"), two things asked together.
    let (status, _, steps) = route("how humid is it in lyon", 1);
    assert_eq!(
        (status.as_str(), steps[0].1.as_str()),
        ("planned", "point_point_get")
    );
    let (status, _, steps) = route("which pets and owners are in the store", 1);
    assert_eq!(
        (status.as_str(), steps[0].1.as_str()),
        ("planned", "list_pets")
    );
}

#[test]
fn a_request_that_shares_only_its_verb_or_a_label_with_the_catalog_gets_no_plan() {
    let refused = |q: &str| {
        let (status, reason, steps) = route(q, 1);
        assert_eq!(
            (status.as_str(), steps.len()),
            ("no_suitable_tool", 0),
            "{q}"
        );
        reason.unwrap()
    };
    // The time tool converts times; the request converts money the catalog never names.
    assert_eq!(
        refused("convert 100 euros to yen"),
        "the closest endpoint `time/convert_time` shares only `convert` with the request, a word that frames it (its verb or a value's label), and no endpoint of the catalog knows `euros, yen`"
    );
    assert!(refused("please convert 20 pounds of flour into cups").contains("`convert`"));
    // Kept: the verb and what it acts on, both known; a request that opens with a noun.
    let (status, _, steps) = route("convert the time 9:30 from Asia/Tokyo to Europe/Paris", 1);
    assert_ne!(status, "no_suitable_tool");
    assert_eq!(steps[0].1, "convert_time");
    let (status, _, _) = route("forecast for lyon", 1);
    assert_ne!(status, "no_suitable_tool");
    // A verb of making takes an object that is made, not one the catalog should know.
    let (status, _, _) = route("create a flowchart of the pet store", 1);
    assert_ne!(status, "no_suitable_tool");
}

#[test]
fn the_sibling_whose_name_does_what_is_asked_wins() {
    // `convert_time` converts, `get_current_time` reads: a question that asks no conversion
    // reads the current time, whatever words the converter's description shares.
    let (_, _, steps) = route("What time is it in Tokyo?", 1);
    assert_eq!(steps[0].1, "get_current_time");
    let (_, _, steps) = route("what is the current time in Europe/Paris", 1);
    assert_eq!(steps[0].1, "get_current_time");
    let (_, _, steps) = route("convert 9:30 from Asia/Tokyo to Europe/Paris", 1);
    assert_eq!(steps[0].1, "convert_time");
}

#[test]
fn the_explanation_of_a_ranked_plan_says_where_its_steps_come_from() {
    let o = bin()
        .arg("route")
        .arg("--artifact")
        .arg(artifact())
        .arg("--explain")
        .arg("--")
        .arg("What time is it in Tokyo?")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("get_current_time"), "{text}");
    assert!(!text.contains("the plan will be empty"), "{text}");
}

/// A one-endpoint forecast API (`/cities/{city}/forecast?days=`), imported and compiled.
fn forecast_project() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let proj = dir.path().join("proj");
        let o = bin()
            .args(["import", "openapi"])
            .arg(fixture("any-catalog/city-forecast.yaml"))
            .arg("--project")
            .arg(&proj)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = bin().arg("compile").arg(&proj).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        dir
    })
    .path()
}

/// `route --json` on the forecast project: (status, first step's params, warnings).
fn forecast_route(args: &[&str]) -> (String, Value, Value) {
    let o = bin()
        .arg("route")
        .arg("--artifact")
        .arg(forecast_project().join("proj/build/graph.json"))
        .arg("--json")
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let p = &v["plan"];
    (
        p["status"].as_str().unwrap().to_string(),
        p["steps"][0]["params"].clone(),
        p["warnings"].clone(),
    )
}

/// A given value that its parameter cannot take is refused, never replaced by another value
/// and never left out of a plan that still says `planned` (issue 38: a strict gateway answers
/// an invalid parameter with an error): status `not_understood`, no step, the first warning
/// naming the parameter, the value and the type expected. A value that fits is planned.
#[test]
fn a_given_value_that_does_not_fit_its_parameter_is_refused_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let u = dir.path().join("u.json");
    for (given, status, want, note) in [
        // `many` is no integer: the request is refused (`7`, given for the city, is no
        // reason to plan without `days`).
        (
            r#"{"intent":"list_city_forecasts","parameters":{"city":7,"days":"many"}}"#,
            "not_understood",
            Value::Null,
            Some(
                "invalid value `many` for parameter `days`: expected integer (`many` is not an integer for `days` of weather_api/get_forecast)",
            ),
        ),
        (
            r#"{"intent":"list_city_forecasts","parameters":{"city":"Paris 2","days":"a week"}}"#,
            "not_understood",
            Value::Null,
            Some(
                "invalid value `a week` for parameter `days`: expected integer (`a week` is not an integer for `days` of weather_api/get_forecast)",
            ),
        ),
        (
            r#"{"intent":"list_city_forecasts","parameters":{"city":"Lyon","days":5}}"#,
            "planned",
            serde_json::json!({"city": "Lyon", "days": 5}),
            None,
        ),
    ] {
        std::fs::write(&u, given).unwrap();
        let (got, params, warnings) = forecast_route(&["--understanding", u.to_str().unwrap()]);
        assert_eq!((got.as_str(), &params), (status, &want), "{given}");
        assert_eq!(warnings[0].as_str(), note, "{given}: {warnings}");
    }
}

#[test]
fn capitals_invisible_characters_and_durations_read_as_people_mean_them() {
    for (q, want) in [
        ("forecast for paris", serde_json::json!({"city": "paris"})),
        ("FORECAST FOR PARIS", serde_json::json!({"city": "paris"})),
        (
            "WHAT'S THE FORECAST FOR PARIS FOR 5 DAYS?",
            serde_json::json!({"city": "paris", "days": 5}),
        ),
        (
            "fore\u{200B}cast for Pa\u{00AD}ris",
            serde_json::json!({"city": "Paris"}),
        ),
        (
            "\u{FEFF}forecast for Lyon for 3 weeks",
            serde_json::json!({"city": "Lyon", "days": 21}),
        ),
        (
            "forecast for Lyon for 1,000 days",
            serde_json::json!({"city": "Lyon", "days": 1000}),
        ),
    ] {
        let (status, params, _) = forecast_route(&["--", q]);
        assert_eq!((status.as_str(), params), ("planned", want), "{q:?}");
    }
}

/// A plan ranked over every endpoint names the derived intent of the endpoint it chose, not the
/// one the Understanding guessed: a new user's plans for a read of one record carried the
/// intent `delete_recipe` (its group holds the same record), and a question with no intent
/// got a plan with none.
#[test]
fn a_ranked_plan_names_the_intent_of_its_endpoint() {
    let dir = tempfile::tempdir().unwrap();
    let u = dir.path().join("u.json");
    std::fs::write(
        &u,
        r#"{"intent": "create_repo_issue", "domain_concepts": ["issue"], "parameters": {"owner": "rust-lang", "repo": "rust"}}"#,
    )
    .unwrap();
    let v = json_of("route", &["--understanding", u.to_str().unwrap()]);
    let steps: Vec<(&str, &str)> = v["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["tool"].as_str().unwrap(), s["endpoint"].as_str().unwrap()))
        .collect();
    assert_eq!(
        (v["plan"]["intent"].as_str(), steps),
        (
            Some("list_repo_issues"),
            vec![("code_host_rest_api", "issues_list_for_repo")]
        )
    );
    let v = json_of("route", &["--", "show me pet 5"]);
    assert_eq!(
        (
            v["understanding"]["intent"].as_str(),
            v["plan"]["intent"].as_str(),
            v["plan"]["steps"][0]["endpoint"].as_str()
        ),
        (None, Some("get_pet"), Some("show_pet_by_id"))
    );
}

/// A request to destroy data whose best-ranked endpoint may destroy data and is never planned
/// gets no plan, with a reason naming that endpoint and how to allow it, not a plan on another
/// endpoint that writes something else; a question about deleted things reads as before.
#[test]
fn a_request_to_destroy_names_the_unplanned_endpoint_that_would() {
    let (status, reason, steps) = route("delete the entity Alice from my knowledge graph", 1);
    assert_eq!(
        (status.as_str(), reason.as_deref(), steps.len()),
        (
            "no_suitable_tool",
            Some(
                "the endpoint that does what the request asks, `memory/delete_entities` (MCP mcp://memory/delete_entities), may destroy data and is never planned; to plan it, declare `allow_destructive: true` on it (and, for the gateway, allow it in the configuration's `allow_destructive`)"
            ),
            0
        )
    );
    let (status, _, steps) = route("search my knowledge graph for Alice", 1);
    assert_eq!(
        (status.as_str(), steps[0].1.as_str()),
        ("planned", "search_nodes")
    );
}

/// `search` adds the tools a request implies through its values: a file an output is saved to
/// brings the tool that writes files, placed third after the two the question's own words
/// chose; a day relative to today brings the tool that tells the current date. A path that is
/// read, and the present ("right now"), imply nothing.
#[test]
fn search_adds_the_tools_a_request_implies_through_its_values() {
    let mut catalogs = CATALOGS.to_vec();
    catalogs.push((
        "mcp",
        "mcp/filesystem-tools-list.rpc.json",
        Some("filesystem"),
    ));
    let dir = imported(&catalogs);
    let artifact = dir.path().join("proj/build/graph.json");
    let search = |q: &str| search_in(&artifact, q);
    let s = |t: &str, e: &str, call: Option<&str>, m: &[&str]| {
        (
            t.to_string(),
            e.to_string(),
            call.map(str::to_string),
            m.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        search(
            "List the open issues of rust-lang/rust and save them as Markdown to /root/notes/issues.md"
        ),
        [
            s(
                "code_host_rest_api",
                "issues_list_for_repo",
                None,
                &["List", "open", "issues"]
            ),
            s("code_host_rest_api", "issues_create", None, &["issues"]),
            s("filesystem", "write_file", Some("write_file"), &["List"]),
        ]
    );
    assert_eq!(
        search("What will the weather be in Paris tomorrow?"),
        [
            s(
                "cn_services",
                "get_weather_forecast",
                Some("get_weather_forecast"),
                &["weather"]
            ),
            s("point_weather_api", "point_point_get", None, &["weather"]),
            s(
                "time",
                "get_current_time",
                Some("get_current_time"),
                &["tomorrow"]
            ),
        ]
    );
    assert_eq!(
        search("What is the weather in Paris right now?"),
        [
            s(
                "cn_services",
                "get_weather_forecast",
                Some("get_weather_forecast"),
                &["weather"]
            ),
            s("point_weather_api", "point_point_get", None, &["weather"]),
        ]
    );
    assert_eq!(
        search("Read the notes in /root/notes/a.txt")[0],
        s("filesystem", "read_file", Some("read_file"), &["Read"])
    );
}

/// `search` adds the endpoints a ranked endpoint cannot be called without: one whose required
/// parameter's description names it in backticks (`station_code` "must come from
/// `get-station-code-of-citys`"), and a geocoder for one that requires coordinates the question
/// gives by place name only (none where it writes them). Catalog: a travel MCP server written
/// for this test after public map and rail servers, and the real `mcp-server-time`.
#[test]
fn search_adds_the_prerequisites_of_the_ranked_endpoints() {
    let dir = imported(&[
        ("mcp", "any-catalog/travel-tools.json", Some("travel")),
        ("mcp", "mcp/time-tools-list.rpc.json", Some("time")),
    ]);
    let artifact = dir.path().join("proj/build/graph.json");
    let calls = |q: &str| -> Vec<(String, Vec<String>)> {
        search_in(&artifact, q)
            .into_iter()
            .map(|(_, _, call, matched)| (call.unwrap(), matched))
            .collect()
    };
    let c = |call: &str, m: &[&str]| {
        (
            call.to_string(),
            m.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        calls("where can I park near the Forbidden City in Beijing"),
        [
            c("find_parking_facilities", &["park", "near"]),
            c("get-station-code-of-citys", &["City"]),
            c("geocode_address", &[]),
        ]
    );
    assert_eq!(
        calls("museums and shops near Tokyo Tower"),
        [
            c("find_nearby_places", &["museums", "shops", "near"]),
            c("convert_time", &["Tokyo"]),
            c("geocode_address", &[]),
        ]
    );
    // Coordinates written: no geocoder.
    assert_eq!(
        calls("parking near 39.916, 116.397"),
        [
            c("find_parking_facilities", &["parking", "near"]),
            c("find_nearby_places", &["near"]),
        ]
    );
    // Named by the description, after the tool a relative day implies.
    assert_eq!(
        calls("rail tickets from Beijing to Shanghai next Wednesday"),
        [
            c("get-rail-tickets", &["rail", "tickets"]),
            c("get_current_time", &["next", "Wednesday"]),
            c("get-station-code-of-citys", &[]),
        ]
    );
}

/// The project of `any-catalog/records-and-keys.yaml` beside the code host, made once.
fn records_project() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        imported(&[
            ("openapi", "any-catalog/records-and-keys.yaml", None),
            ("openapi", "any-catalog/code-host.yaml", None),
        ])
    })
    .path()
}

/// The (tool, endpoint, params) of each step `route --k 1` plans on the records project.
fn route_records(q: &str) -> Vec<(String, String, Value)> {
    let v = json_in(
        &records_project().join("proj/build/graph.json"),
        "route",
        &["--", q],
    );
    v["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["tool"].as_str().unwrap().to_string(),
                s["endpoint"].as_str().unwrap().to_string(),
                s["params"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_question_about_one_record_reads_the_record_not_what_hangs_under_it() {
    // `/recipe/{recipeId}/related` lists recipes with a cuisine and a category too, in a
    // shorter document: the ranking alone put it first.
    assert_eq!(
        route_records("what cuisine and category is recipe 27634"),
        [(
            "records_and_keys".to_string(),
            "recipe_get".to_string(),
            serde_json::json!({"id": 27634})
        )]
    );
    // A question that names what hangs under the record reads it.
    assert_eq!(
        route_records("which recipes are related to recipe 27634")[0].1,
        "recipe_related"
    );
    // `owner/repo` fills two placeholders: the repository is the record the question names.
    assert_eq!(
        route_records("what's the default branch of microsoft/vscode"),
        [(
            "code_host_rest_api".to_string(),
            "repos_get".to_string(),
            serde_json::json!({"owner": "microsoft", "repo": "vscode"})
        )]
    );
}

#[test]
fn a_labelled_value_goes_to_the_endpoint_whose_key_the_label_names() {
    // "album 11339785" is an `album_id`, not an `artist_id`, though both endpoints return
    // an album's label and release date.
    assert_eq!(
        route_records("which record label released album 11339785 and on what date"),
        [(
            "records_and_keys".to_string(),
            "get_album_get".to_string(),
            serde_json::json!({"album_id": "11339785"})
        )]
    );
    assert_eq!(
        route_records("list the albums of artist 118 by release date")[0].1,
        "get_artist_albums_get"
    );
}

/// The project of `any-catalog/member-directory.yaml` beside the recipes and the code host,
/// made once.
fn members_project() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        imported(&[
            ("openapi", "any-catalog/member-directory.yaml", None),
            ("openapi", "any-catalog/records-and-keys.yaml", None),
            ("openapi", "any-catalog/code-host.yaml", None),
        ])
    })
    .path()
}

/// The (endpoint, params, fields other than identifiers) of each step `route` plans on the
/// members project.
fn route_members(q: &str) -> Vec<(String, Value, Vec<String>)> {
    let v = json_in(
        &members_project().join("proj/build/graph.json"),
        "route",
        &["--", q],
    );
    v["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let fields = s["fields"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["identifier"] != Value::Bool(true))
                .map(|f| f["name"].as_str().unwrap().to_string())
                .collect();
            (
                s["endpoint"].as_str().unwrap().to_string(),
                s["params"].clone(),
                fields,
            )
        })
        .collect()
}

#[test]
fn a_property_of_one_identified_record_is_read_from_the_record() {
    // The member's record holds the count: it answers, not the list of subscribers (a short
    // document that names the word in its path).
    assert_eq!(
        route_members("how many subscribers does quietfox have"),
        [(
            "members_get".to_string(),
            serde_json::json!({"handle": "quietfox"}),
            s(&["subscriber_count"])
        )]
    );
    // No count of trophies in the record (only a link to them): the list is the answer.
    assert_eq!(
        route_members("how many trophies has member quietfox won")[0].0,
        "members_list_trophies"
    );
    // Asked for many, the list is read.
    assert_eq!(
        route_members("list the subscribers of member quietfox")[0].0,
        "members_list_subscribers"
    );
    // The count of `owner/repo` alone, without the other fields named by the counted word.
    assert_eq!(
        route_members("how many stars does octo/spoon have"),
        [(
            "repos_get".to_string(),
            serde_json::json!({"owner": "octo", "repo": "spoon"}),
            s(&["stargazers_count"])
        )]
    );
}
