//! Response projection on recorded responses of every shipped endpoint
//! (`tests/fixtures/responses/<tool>.<endpoint>.json|xml`, in the shapes the providers document,
//! with nested records, arrays of records, missing fields, nulls and wrong types): the reader
//! context, the findings and the first record are snapshots.

use schemarouter::artifact::FrozenGraph;
use schemarouter::extract::{self, Document, ExtractError, parse_plan, parse_response};
use schemarouter::route::{FieldReason, Plan, PlanStatus, PlannedField, Step};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

fn snapshot(name: &str, text: &str) {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(true);
    s.bind(|| insta::assert_snapshot!(name.to_string(), text));
}

fn graph() -> &'static FrozenGraph {
    static G: OnceLock<FrozenGraph> = OnceLock::new();
    G.get_or_init(|| FrozenGraph::load_routing(Path::new("build/graph.json")).unwrap())
}

/// A plan with one step taking every declared field of `tool/endpoint` (metadata from the
/// artifact).
fn all_fields_plan(tool: &str, endpoint: &str) -> Plan {
    let g = graph();
    let (_, t) = g.tool(tool).unwrap();
    let e = t.endpoints.iter().find(|e| e.id == endpoint).unwrap();
    Plan {
        status: PlanStatus::Planned,
        routing_fingerprint: g.routing_fingerprint.clone(),
        intent: None,
        source_constraint: None,
        steps: vec![Step {
            tool: tool.into(),
            endpoint: endpoint.into(),
            method: e.method.clone(),
            url: e.url.clone(),
            records: e.records.clone(),
            call: None,
            params: BTreeMap::new(),
            missing_required: vec![],
            auth: vec![],
            unbound: vec![],
            fields: e
                .fields
                .iter()
                .map(|f| PlannedField {
                    name: f.name.clone(),
                    identifier: f.identifier,
                    reasons: vec![FieldReason::AllFields],
                    meta: None,
                })
                .collect(),
            score: 0,
            rank_score: None,
            why: String::new(),
        }],
        unmatched_concepts: vec![],
        skipped_tools: vec![],
        not_understood: vec![],
        excluded_tools: vec![],
        unmatched_qualifiers: vec![],
        multi_values: vec![],
        out_of_scope: None,
        alternatives: vec![],
        warnings: vec![],
    }
}

fn fixture_text(name: &str) -> String {
    let dir = Path::new("tests/fixtures/responses");
    ["json", "xml"]
        .iter()
        .find_map(|ext| std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).ok())
        .unwrap()
}

fn fixture(name: &str) -> Document {
    let dir = Path::new("tests/fixtures/responses");
    for ext in ["json", "xml"] {
        let p = dir.join(format!("{name}.{ext}"));
        if let Ok(text) = std::fs::read_to_string(&p) {
            return parse_response(&text, Some(&p.display().to_string())).unwrap();
        }
    }
    panic!("no fixture {name}");
}

fn rendering(x: &extract::Extraction) -> String {
    let mut out = x.context.clone();
    out.push_str(&format!(
        "--- {} tokens\n--- issues\n",
        x.context_tokens.unwrap_or(0)
    ));
    for i in &x.issues {
        out.push_str(&format!(
            "{:?} {} [{}] x{}: {}\n",
            i.kind,
            i.field.as_deref().unwrap_or("-"),
            i.records.join(", "),
            i.count,
            i.message
        ));
    }
    let s = &x.steps[0];
    out.push_str("--- first record\n");
    out.push_str(
        &serde_json::to_string_pretty(&serde_json::json!({
            "records": s.records.len(),
            "envelope": s.envelope,
            "first": s.records.first(),
        }))
        .unwrap(),
    );
    out.push('\n');
    out
}

#[test]
fn every_shipped_endpoint_has_a_fixture_and_projects() {
    let g = graph();
    let mut names = Vec::new();
    for t in &g.tools {
        for e in &t.endpoints {
            let name = format!("{}.{}", t.id, e.id);
            let plan = all_fields_plan(&t.id, &e.id);
            let x = extract::extract(g, &plan, &[fixture(&name)]).unwrap();
            // Reading only what the plan reaches gives the same projection.
            let text = fixture_text(&name);
            let pruned = extract::parse_step_response(&text, None, g, &plan.steps[0]).unwrap();
            assert_eq!(extract::extract(g, &plan, &[pruned]).unwrap(), x, "{name}");
            assert!(
                !x.steps[0].records.is_empty(),
                "{name}: no records found under {:?}",
                e.records
            );
            snapshot(&format!("extract_{name}"), &rendering(&x));
            names.push(name);
        }
    }
    assert_eq!(names.len(), 17);
}

/// The plan Algorithm 1 makes for the band gap of LiFePO4 from the Materials Project.
fn band_gap_plan(g: &FrozenGraph) -> Plan {
    let u = schemarouter::route::Understanding {
        intent: Some("electronic_property".into()),
        domain_concepts: vec!["band_gap".into()],
        parameters: [("formula".to_string(), serde_json::json!("LiFePO4"))].into(),
        target_apis: vec!["materials_project".into()],
        source_constraint: None,
        ..Default::default()
    };
    schemarouter::route::route(g, &u, &schemarouter::route::Options::default())
}

#[test]
fn routed_plan_projects_to_the_planned_fields_only() {
    let g = graph();
    let plan = band_gap_plan(g);
    let x = extract::extract(g, &plan, &[fixture("materials_project.summary")]).unwrap();
    snapshot("extract_routed_materials_project", &rendering(&x));
}

#[test]
fn plan_files_and_errors() {
    let g = graph();
    let plan = all_fields_plan("materials_project", "summary");
    let wrapped = serde_json::json!({"understanding": {}, "plan": plan}).to_string();
    assert_eq!(parse_plan(&wrapped, None).unwrap(), plan);
    assert_eq!(
        parse_plan(&serde_json::to_string(&plan).unwrap(), None).unwrap(),
        plan
    );
    let e = parse_plan("{\"steps\": 3}", Some("p.json")).unwrap_err();
    assert_eq!(
        e.message,
        "not a plan (`route --json` output or its `plan` object): invalid type: integer `3`, expected a sequence"
    );

    let e = parse_response("{\n  \"data\": [1,\n  }", Some("r.json")).unwrap_err();
    assert_eq!(
        (e.to_string(), e.line, e.column),
        (
            "r.json:3:3: invalid JSON: expected value (responses must be JSON or XML documents)"
                .to_string(),
            Some(3),
            Some(3)
        )
    );
    let e = parse_plan("[1, 2]", Some("list.json")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "list.json:1:1: not a plan: the file holds a list, not a JSON object (`route --json` output or its `plan` object)"
    );
    let e = parse_response("<feed>\n<entry></feed>", Some("a.xml")).unwrap_err();
    assert_eq!(e.file.as_deref(), Some("a.xml"));
    assert_eq!(e.line, Some(2));
    assert!(e.message.starts_with("invalid XML: "), "{}", e.message);

    let e: ExtractError = extract::extract(g, &plan, &[]).unwrap_err();
    assert_eq!(
        e.message,
        "the plan has 1 step(s) but 0 response(s) were given; give one response per step, in step order"
    );
    let mut other = plan.clone();
    other.steps[0].tool = "nope".into();
    let e = extract::extract(g, &other, &[Document::Json(serde_json::json!({}))]).unwrap_err();
    assert_eq!(
        e.message,
        "plan step 1 names tool `nope`, which the artifact does not have"
    );
}

#[test]
fn shape_and_fingerprint_findings() {
    let g = graph();
    let mut plan = all_fields_plan("materials_project", "summary");
    plan.routing_fingerprint = "0123456789abcdef0123".into();
    plan.steps[0].fields.truncate(2);
    let doc = Document::Json(serde_json::json!({"data": {"band_gap": 1}}));
    let x = extract::extract(g, &plan, &[doc]).unwrap();
    let kinds: Vec<String> = x
        .issues
        .iter()
        .map(|i| format!("{:?}: {}", i.kind, i.message))
        .collect();
    assert_eq!(
        kinds[..2],
        [
            format!(
                "FingerprintMismatch: the plan was made for routing fingerprint 0123456789abcdef, the artifact has {}; re-route with this artifact",
                &g.routing_fingerprint[..16]
            ),
            "Shape: response does not match records path `data[]`: expected an array at `data[]`, found object".to_string()
        ]
    );
    assert!(
        x.context
            .starts_with("[materials_project/summary] no records\nsource_type = calculated\n"),
        "{}",
        x.context
    );
}

/// One element of the records list that the path does not reach is reported and skipped; the
/// records of the other elements are still projected.
#[test]
fn an_element_off_the_records_path_does_not_drop_the_others() {
    let g = graph();
    let plan = all_fields_plan("jarvis_dft", "dft_3d");
    let doc = Document::Json(serde_json::json!({"data": [
        {"attributes": {"jid": "JVASP-1"}},
        {"id": "no-attributes"},
        {"attributes": {"jid": "JVASP-2"}}
    ]}));
    let x = extract::extract(g, &plan, &[doc]).unwrap();
    let ids: Vec<&serde_json::Value> = x.steps[0]
        .records
        .iter()
        .map(|r| &r.values["jid"])
        .collect();
    assert_eq!(
        ids,
        [&serde_json::json!("JVASP-1"), &serde_json::json!("JVASP-2")]
    );
    let shape: Vec<&str> = x
        .issues
        .iter()
        .filter(|i| format!("{:?}", i.kind) == "Shape")
        .map(|i| i.message.as_str())
        .collect();
    assert_eq!(
        shape,
        [
            "1 element(s) do not match records path `data[].attributes` (data[1]: no `attributes` at data[1]); the other elements' records are kept"
        ]
    );
}

/// Values in place of records are reported per kind: a null and a number are two findings,
/// each naming its own records.
#[test]
fn records_that_are_no_objects_are_reported_by_kind() {
    let g = graph();
    let plan = all_fields_plan("materials_project", "summary");
    let doc = Document::Json(serde_json::json!({"data": [
        {"band_gap": 1.0}, null, 5, null, "x"
    ]}));
    let x = extract::extract(g, &plan, &[doc]).unwrap();
    let shape: Vec<(String, Vec<String>)> = x
        .issues
        .iter()
        .filter(|i| format!("{:?}", i.kind) == "Shape")
        .map(|i| (i.message.clone(), i.records.clone()))
        .collect();
    let at = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        shape,
        [
            (
                "a record is null, not an object".to_string(),
                at(&["data[1]", "data[3]"])
            ),
            (
                "a record is number, not an object".to_string(),
                at(&["data[2]"])
            ),
            (
                "a record is string, not an object".to_string(),
                at(&["data[4]"])
            ),
        ]
    );
}

/// The compact reader context holds the same values, units and attribution as the full one:
/// one record on one line, several as a table, the attribution on one line.
#[test]
fn the_compact_context_keeps_values_units_and_attribution() {
    let g = graph();
    let mut plan = all_fields_plan("materials_project", "summary");
    plan.steps[0]
        .fields
        .retain(|f| ["material_id", "band_gap"].contains(&f.name.as_str()));
    let one = Document::Json(serde_json::json!({"data": [
        {"material_id": "mp-1", "band_gap": 1.5}
    ]}));
    let x = extract::extract(g, &plan, &[one]).unwrap();
    let compact = extract::render::context_compact(&x.steps);
    assert_eq!(
        compact.lines().next().unwrap(),
        "[materials_project/summary] material_id = mp-1; band_gap = 1.5 eV"
    );
    assert!(compact.contains("\nsource: calculated; "), "{compact}");
    let many = Document::Json(serde_json::json!({"data": [
        {"material_id": "mp-1", "band_gap": 1.5},
        {"material_id": "mp-2|b"}
    ]}));
    let x = extract::extract(g, &plan, &[many]).unwrap();
    let compact = extract::render::context_compact(&x.steps);
    let lines: Vec<&str> = compact.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "[materials_project/summary] 2 records: material_id | band_gap eV",
            "mp-1 | 1.5",
            "mp-2\\|b | "
        ]
    );
    // A value holding the pair separator, an empty text: still one reading.
    let odd = Document::Json(serde_json::json!({"data": [
        {"material_id": "mp-1; band_gap = 9", "band_gap": 1.5},
        {"material_id": ""}
    ]}));
    let x = extract::extract(g, &plan, &[odd]).unwrap();
    let one = |s: &extract::StepResult| {
        let mut s = s.clone();
        s.records.truncate(1);
        s
    };
    assert_eq!(
        extract::render::context_compact(&[one(&x.steps[0])])
            .lines()
            .next()
            .unwrap(),
        "[materials_project/summary] material_id = mp-1\\; band_gap = 9; band_gap = 1.5 eV"
    );
    assert_eq!(
        extract::render::context_compact(&x.steps).lines().nth(2),
        Some("\"\" | ")
    );
}

/// A step whose source an earlier step of the same answer attributed already refers to it
/// (`source = as [tool/endpoint]`) in either form, instead of repeating the attribution.
#[test]
fn a_source_said_once_is_referred_to() {
    use extract::render::{Form, attribution_key, step};
    let g = graph();
    let mut plan = all_fields_plan("materials_project", "summary");
    plan.steps[0]
        .fields
        .retain(|f| ["material_id", "band_gap"].contains(&f.name.as_str()));
    let one = Document::Json(serde_json::json!({"data": [
        {"material_id": "mp-1", "band_gap": 1.5}
    ]}));
    let x = extract::extract(g, &plan, &[one]).unwrap();
    let s = &x.steps[0];
    let key = attribution_key(s).unwrap();
    assert!(key.starts_with("calculated; CC-BY-4.0"), "{key}");
    assert_eq!(
        step(s, Form::Compact, None),
        format!(
            "[materials_project/summary] material_id = mp-1; band_gap = 1.5 eV\nsource: {key}\n"
        )
    );
    assert_eq!(
        step(s, Form::Compact, Some("materials_project/summary")),
        "[materials_project/summary] material_id = mp-1; band_gap = 1.5 eV\nsource: as [materials_project/summary]\n"
    );
    assert_eq!(
        step(s, Form::Full, Some("materials_project/summary")),
        "[materials_project/summary]\nmaterial_id = mp-1\nband_gap = 1.5 eV\nsource = as [materials_project/summary]\n"
    );
    assert_eq!(
        step(s, Form::Full, None),
        extract::render::context(&x.steps)
    );
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(256))]

    /// Arbitrary bodies (text, JSON-like fragments, XML-like fragments) never panic: they are
    /// projected or refused with an error.
    #[test]
    fn arbitrary_bodies_never_panic(body in proptest::string::string_regex(
        r#"(\{|\}|\[|\]|"data"|"band_gap"|"material_id"|:|,|1\.5|"x"|null|true|<entry>|</entry>|<feed>|</feed>|&amp;| |\n){0,40}"#
    ).unwrap(), text in ".{0,64}") {
        let g = graph();
        let plan = all_fields_plan("materials_project", "summary");
        for b in [&body, &text] {
            let docs = [parse_response(b, None), extract::parse_step_response(b, None, g, &plan.steps[0])];
            for d in docs.into_iter().flatten() {
                let _ = extract::extract(g, &plan, &[d]);
            }
        }
    }
}

/// An MCP step's response is often saved as the whole `tools/call` result (what an MCP client
/// returns): its `structuredContent` (or its one JSON text content) holds the record the fields
/// were declared from, so it is read there instead of reporting every field missing; a result
/// with `isError: true` says so.
#[test]
fn an_mcp_step_reads_the_record_inside_a_tools_call_result() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (path, text) in [
        (
            "schemas/weather.yaml",
            "id: weather\ntitle: Weather\ndomain: meteo\nsource_type: experimental\nprovenance: {publisher: Example Met Office}\nlicence: {spdx: CC0-1.0, verified: true}\nendpoints:\n  - id: get_weather\n    method: MCP\n    url: mcp://weather/get_weather\n    mcp_tool: get_weather\n    parameters:\n      - {name: city, type: string, required: true, bind: [{concept: city}]}\n    fields:\n      - {name: station, type: string, identifier: true}\n      - {name: temperature, type: number, unit: K, groups: [current], concepts: [air_temperature]}\n",
        ),
        (
            "intents/i.yaml",
            "domains:\n  - id: meteo\ngroups:\n  - id: current\nintents:\n  - id: current_weather\n    description: Current weather of a city.\n    domains: [meteo]\n    required_groups: [current]\n",
        ),
        (
            "aliases/a.yaml",
            "concepts:\n  - id: air_temperature\n    unit: K\n  - id: city\n    kind: parameter\n",
        ),
        (
            "u.json",
            r#"{"intent": "current_weather", "domain_concepts": ["air_temperature"], "parameters": {"city": "Paris"}, "target_apis": []}"#,
        ),
        (
            "full.json",
            r#"{"content": [{"type": "text", "text": "{\"station\": \"LFPG\", \"temperature\": 291.2}"}], "structuredContent": {"station": "LFPG", "temperature": 291.2}, "isError": false}"#,
        ),
        (
            "text.json",
            r#"{"content": [{"type": "text", "text": "{\"station\": \"LFPG\", \"temperature\": 291.2}"}]}"#,
        ),
        (
            "error.json",
            r#"{"content": [{"type": "text", "text": "API key invalid"}], "isError": true}"#,
        ),
    ] {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
            .args(args)
            .current_dir(root)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    assert_eq!(run(&["compile", "."]).0, Some(0));
    let (code, plan, err) = run(&["route", "--understanding", "u.json", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    std::fs::write(root.join("plan.json"), plan).unwrap();
    for response in ["full.json", "text.json"] {
        let (code, out, err) = run(&[
            "extract",
            "--plan",
            "plan.json",
            "--response",
            &format!("1={response}"),
        ]);
        assert_eq!(code, Some(0), "{response}: {err}");
        assert!(
            out.starts_with("[weather/get_weather]\nstation = LFPG\ntemperature = 291.2 K\n"),
            "{response}: {out}"
        );
    }
    let (code, _, err) = run(&[
        "extract",
        "--plan",
        "plan.json",
        "--response",
        "1=error.json",
    ]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("warning: step 1 weather/get_weather: the MCP tool reported an error (`isError: true`): API key invalid; it returned no records\n"),
        "{err}"
    );
}

/// A plan whose field metadata disagrees with the artifact (made over another version of it)
/// is read with the artifact's unit, source type and licence, as the step's are: one reader
/// context never holds two that disagree. A field the plan lists twice is read once.
#[test]
fn field_metadata_is_the_artifact_s_whatever_the_plan_carries() {
    let g = graph();
    let plan = band_gap_plan(g);
    let honest = extract::extract(g, &plan, &[fixture("materials_project.summary")]).unwrap();
    let mut forged = plan.clone();
    for f in &mut forged.steps[0].fields {
        if let Some(m) = &mut f.meta {
            m.unit = Some("meV".into());
            m.source_type = Some("experimental".into());
        }
    }
    let x = extract::extract(g, &forged, &[fixture("materials_project.summary")]).unwrap();
    assert_eq!(x.context, honest.context);
    assert!(
        x.context.contains("band_gap = 3.7016 eV\n"),
        "{}",
        x.context
    );
    assert!(!x.context.contains("meV"), "{}", x.context);
    // A field listed twice is read once.
    let dup = forged.steps[0].fields[0].clone();
    forged.steps[0].fields.push(dup);
    let x = extract::extract(g, &forged, &[fixture("materials_project.summary")]).unwrap();
    assert_eq!(x.context, honest.context);
    assert_eq!(x.steps[0].fields.len(), honest.steps[0].fields.len());
}

/// An empty list under a `[]` path is the value `[]`, shown without a unit or a conversion
/// (it was reported as null; then shown as `[] J = [] eV`).
#[test]
fn an_empty_list_is_shown_as_one_without_a_unit() {
    let g = graph();
    let mut plan = all_fields_plan("nomad", "entries_query");
    plan.steps[0]
        .fields
        .retain(|f| f.name == "results.properties.electronic.band_gap[].value");
    assert_eq!(plan.steps[0].fields.len(), 1);
    let doc = Document::Json(serde_json::json!({"data": [
        {"entry_id": "e1", "results": {"properties": {"electronic": {"band_gap": []}}}},
        {"entry_id": "e2", "results": {"properties": {"electronic": {"band_gap": [{"value": 1.6e-19}]}}}}
    ]}));
    let x = extract::extract(g, &plan, &[doc]).unwrap();
    assert!(
        x.context
            .contains("results.properties.electronic.band_gap[].value = []\n"),
        "{}",
        x.context
    );
    assert!(
        x.context.contains(
            "results.properties.electronic.band_gap[].value = [1.6e-19] J = [0.998641] eV\n"
        ),
        "{}",
        x.context
    );
    assert!(x.issues.iter().all(|i| i.field.is_none()), "{:?}", x.issues);
}
