//! The router (issue 7): each line of Algorithm 1 on a small fixture inventory, golden plans for
//! the shipped inventory's example queries, the lexical analyzer on a table of phrasings, and
//! the LLM analyzer against a local OpenAI-compatible stub.

use schemarouter::artifact::{self, FrozenGraph};
use schemarouter::lint::check_path;
use schemarouter::route::analyzer::Analyzer;
use schemarouter::route::analyzer::lexical::Lexical;
use schemarouter::route::analyzer::llm::Llm;
use schemarouter::route::{
    FieldReason, Options, Plan, PlanStatus, Projection, Understanding, route,
};
use serde_json::json;
use std::path::Path;
use std::sync::OnceLock;

fn compile(root: &str) -> FrozenGraph {
    let c = check_path(Path::new(root)).unwrap();
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    artifact::build::compile(&c.project, &c.index, &c.units)
}

fn mini() -> &'static FrozenGraph {
    static G: OnceLock<FrozenGraph> = OnceLock::new();
    G.get_or_init(|| compile("tests/fixtures/route-mini"))
}

fn shipped() -> &'static FrozenGraph {
    static G: OnceLock<FrozenGraph> = OnceLock::new();
    G.get_or_init(|| compile("."))
}

fn u(v: serde_json::Value) -> Understanding {
    serde_json::from_value(v).unwrap()
}

fn tools(p: &Plan) -> Vec<&str> {
    p.steps.iter().map(|s| s.tool.as_str()).collect()
}

fn fields(p: &Plan, step: usize) -> Vec<&str> {
    p.steps[step]
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .collect()
}

fn opts() -> Options {
    Options::default()
}

#[test]
fn candidates_by_domain_and_group_ranked_by_concept_match() {
    // alpha and beta match band_gap exactly (3), delta by alias (2), web exactly but is a web
    // tool; alpha beats beta on fewer fields (priorities tie).
    let p = route(
        mini(),
        &u(json!({"intent": "anything_electronic", "domain_concepts": ["band_gap"]})),
        &Options { k: 4, ..opts() },
    );
    assert_eq!(tools(&p), ["alpha", "beta", "delta", "web"]);
    assert_eq!(
        p.steps.iter().map(|s| s.score).collect::<Vec<_>>(),
        [3, 3, 2, 3]
    );
    // The intent's domains filter: web is not a candidate of electronic_property.
    let p = route(
        mini(),
        &u(json!({"intent": "electronic_property", "domain_concepts": ["band_gap"]})),
        &Options { k: 9, ..opts() },
    );
    assert_eq!(tools(&p), ["alpha", "beta", "delta"]);
    // The group filter: only alpha provides `mechanical`.
    let p = route(
        mini(),
        &u(json!({"intent": "mechanical_property", "domain_concepts": []})),
        &Options { k: 9, ..opts() },
    );
    assert_eq!(tools(&p), ["alpha"]);
}

#[test]
fn ties_break_on_priority_then_fewest_fields() {
    let p = route(
        mini(),
        &u(json!({"intent": "electronic_property"})),
        &Options { k: 3, ..opts() },
    );
    // No concepts: all score 0; alpha and beta have priority 10, delta 1; alpha has 4 fields,
    // beta 5.
    assert_eq!(tools(&p), ["alpha", "beta", "delta"]);
    // k defaults to 1.
    let p = route(
        mini(),
        &u(json!({"intent": "electronic_property"})),
        &opts(),
    );
    assert_eq!(tools(&p), ["alpha"]);
}

#[test]
fn source_constraint_filters_and_field_override_counts() {
    let p = route(
        mini(),
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "source_constraint": "experimental"}),
        ),
        &opts(),
    );
    assert_eq!(tools(&p), ["delta"]);
    assert_eq!(p.status, PlanStatus::Planned);
    let exp = p.steps[0]
        .fields
        .iter()
        .find(|f| f.name == "exp_gap")
        .unwrap();
    assert_eq!(
        exp.meta.as_ref().unwrap().source_type.as_deref(),
        Some("experimental")
    );
    // --no-source-routing ignores it.
    let p = route(
        mini(),
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "source_constraint": "experimental"}),
        ),
        &Options {
            source_routing: false,
            ..opts()
        },
    );
    assert_eq!(tools(&p), ["alpha"]);
}

#[test]
fn source_constraint_synonyms_are_read_as_the_standard_types() {
    let exact = route(
        mini(),
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "source_constraint": "experimental"}),
        ),
        &opts(),
    );
    for word in ["measured", " Measured ", "EXPERIMENTAL", "lab"] {
        let p = route(
            mini(),
            &u(
                json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "source_constraint": word}),
            ),
            &opts(),
        );
        assert_eq!(tools(&p), ["delta"], "{word}");
        assert_eq!(p.source_constraint.as_deref(), Some("experimental"));
        assert_eq!(p.steps, exact.steps);
        assert_eq!(
            p.warnings,
            [format!("source constraint `{word}` read as `experimental`")]
        );
    }
    // A word that is no source type stays an unknown constraint that no tool satisfies.
    let p = route(
        mini(),
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "source_constraint": "vibes"}),
        ),
        &opts(),
    );
    assert!(p.steps.is_empty());
    assert_eq!(
        p.warnings,
        ["unknown source constraint `vibes`: no tool can satisfy it"]
    );
}

#[test]
fn named_tools_override_and_unknown_or_excluded_names_are_reported() {
    // Named by declared name, Korean name and title; every named tool is planned.
    let p = route(
        mini(),
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "target_apis": ["Beta DB", "알파"]}),
        ),
        &opts(),
    );
    assert_eq!(tools(&p), ["beta", "alpha"]);
    assert!(p.steps.iter().all(|s| s.why == "named in the request"));
    // Unknown name: reported, plan partial.
    let p = route(
        mini(),
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "target_apis": ["AL", "nope"]}),
        ),
        &opts(),
    );
    assert_eq!(tools(&p), ["alpha"]);
    assert_eq!(p.status, PlanStatus::Partial);
    assert_eq!(p.skipped_tools[0].requested, "nope");
    // A named tool the source constraint excludes is reported, not dropped silently.
    let p = route(
        mini(),
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "target_apis": ["beta"], "source_constraint": "experimental"}),
        ),
        &opts(),
    );
    assert!(p.steps.is_empty());
    assert_eq!(p.status, PlanStatus::NoSuitableTool);
    assert_eq!(p.skipped_tools[0].requested, "beta");
    assert_eq!(
        p.skipped_tools[0].reason,
        "its source type is calculated and the request asks for experimental"
    );
    // A named tool outside the intent's domains is still planned (named tools override).
    let p = route(
        mini(),
        &u(json!({"intent": "electronic_property", "target_apis": ["lit"]})),
        &opts(),
    );
    assert_eq!(tools(&p), ["lit"]);
}

#[test]
fn projection_variants() {
    let q = u(json!({"intent": "electronic_property", "domain_concepts": ["band_gap"]}));
    // The default `core` projection: band_gap is matched, so no group safety net is added.
    let core = route(mini(), &q, &opts());
    assert_eq!(fields(&core, 0), ["band_gap", "id"]);
    let recall = route(
        mini(),
        &q,
        &Options {
            projection: Projection::Recall,
            ..opts()
        },
    );
    assert_eq!(fields(&recall, 0), ["band_gap", "gap_type", "id"]);
    let minimal = route(
        mini(),
        &q,
        &Options {
            projection: Projection::Minimal,
            ..opts()
        },
    );
    assert_eq!(fields(&minimal, 0), ["band_gap", "id"]);
    let all = route(
        mini(),
        &q,
        &Options {
            projection: Projection::All,
            ..opts()
        },
    );
    assert_eq!(fields(&all, 0), ["band_gap", "gap_type", "id", "k_vrh"]);
    // Reasons.
    let bg = &recall.steps[0].fields[0];
    assert_eq!(
        bg.reasons,
        [
            FieldReason::Concept {
                concept: "band_gap".into(),
                via: None,
                match_kind: schemarouter::route::MatchKindName::Exact
            },
            FieldReason::Group {
                group: "electronic".into()
            },
        ]
    );
    assert_eq!(recall.steps[0].fields[2].reasons, [FieldReason::Identifier]);
}

#[test]
fn concepts_resolve_through_aliases_and_field_aliases() {
    let p = route(
        mini(),
        &u(json!({"intent": "mechanical_property", "domain_concepts": ["bulk modulus"]})),
        &Options {
            projection: Projection::Minimal,
            ..opts()
        },
    );
    assert_eq!(fields(&p, 0), ["id", "k_vrh"]);
    assert_eq!(
        p.steps[0].fields[1].reasons,
        [FieldReason::Concept {
            concept: "bulk_modulus".into(),
            via: None,
            match_kind: schemarouter::route::MatchKindName::Alias
        }]
    );
    let p = route(
        mini(),
        &u(json!({"intent": "electronic_property", "domain_concepts": ["Eg"]})),
        &Options {
            projection: Projection::Minimal,
            ..opts()
        },
    );
    assert_eq!(
        p.steps[0].fields[0].reasons,
        [FieldReason::Concept {
            concept: "band_gap".into(),
            via: Some("Eg".into()),
            match_kind: schemarouter::route::MatchKindName::Exact
        }]
    );
    // A field alias names one field of one tool.
    let p = route(
        mini(),
        &u(json!({"intent": "electronic_property", "domain_concepts": ["alpha gap"]})),
        &Options {
            k: 2,
            projection: Projection::Minimal,
            ..opts()
        },
    );
    assert_eq!(tools(&p), ["alpha", "beta"]);
    assert_eq!(fields(&p, 0), ["band_gap", "id"]);
    assert_eq!(fields(&p, 1), ["entry"]);
}

#[test]
fn metadata_is_attached_and_can_be_turned_off() {
    let q = u(
        json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "target_apis": ["beta", "alpha"]}),
    );
    let p = route(mini(), &q, &opts());
    let beta_gap = p.steps[0]
        .fields
        .iter()
        .find(|f| f.name == "band_gap")
        .unwrap()
        .meta
        .clone()
        .unwrap();
    assert_eq!(beta_gap.unit.as_deref(), Some("J"));
    assert_eq!(beta_gap.factor_to_canonical, Some(6.241509074460763e18));
    assert_eq!(beta_gap.canonical_unit.as_deref(), Some("eV"));
    assert_eq!(beta_gap.licence.as_ref().unwrap().spdx, "CC0-1.0");
    assert_eq!(
        beta_gap.provenance.as_ref().unwrap().publisher.as_deref(),
        Some("Test Lab")
    );
    let alpha_gap = p.steps[1]
        .fields
        .iter()
        .find(|f| f.name == "band_gap")
        .unwrap()
        .meta
        .clone()
        .unwrap();
    assert_eq!(
        alpha_gap.licence.unwrap().attribution.as_deref(),
        Some("Alpha DB, CC BY 4.0")
    );
    let p = route(
        mini(),
        &q,
        &Options {
            metadata: false,
            ..opts()
        },
    );
    assert!(
        p.steps
            .iter()
            .flat_map(|s| s.fields.iter())
            .all(|f| f.meta.is_none())
    );
}

#[test]
fn parameters_bind_through_concepts_and_missing_required_sets_status() {
    let p = route(
        mini(),
        &u(
            json!({"intent": "electronic_property", "parameters": {"formula": "WS2", "doi": "10.1/x"}, "target_apis": ["alpha", "beta"]}),
        ),
        &opts(),
    );
    assert_eq!(
        p.steps[0].params,
        serde_json::from_value::<std::collections::BTreeMap<String, serde_json::Value>>(
            json!({"formula": "S2W"})
        )
        .unwrap()
    );
    assert_eq!(p.steps[0].auth, ["key"]);
    assert_eq!(p.steps[0].unbound, ["doi"]);
    assert_eq!(p.steps[1].params["composition"], json!("WS2"));
    assert_eq!(p.status, PlanStatus::Planned);
    let p = route(
        mini(),
        &u(
            json!({"intent": "literature_search", "domain_concepts": ["title"], "parameters": {"search_text": "perovskites", "year_from": 2022}}),
        ),
        &opts(),
    );
    assert_eq!(p.steps[0].params["q"], json!("perovskites"));
    assert_eq!(p.steps[0].params["filter"], json!("from:2022"));
    assert_eq!(p.steps[0].missing_required, ["mailto"]);
    assert_eq!(p.status, PlanStatus::MissingRequiredParameter);
}

#[test]
fn empty_unknown_and_unmatched() {
    let p = route(mini(), &u(json!({"intent": null})), &opts());
    assert!(p.steps.is_empty());
    assert_eq!(p.status, PlanStatus::NoSuitableTool);
    let p = route(mini(), &u(json!({"intent": "teleportation"})), &opts());
    assert_eq!(p.status, PlanStatus::NoSuitableTool);
    assert_eq!(p.warnings, ["unknown intent `teleportation` ignored"]);
    let p = route(
        mini(),
        &u(json!({"intent": "electronic_property", "domain_concepts": ["band_gap", "colour"]})),
        &opts(),
    );
    assert_eq!(p.status, PlanStatus::Partial);
    assert_eq!(p.unmatched_concepts, ["colour"]);
    // A concept no candidate carries is unmatched, never fabricated.
    let p = route(
        mini(),
        &u(json!({"intent": "literature_search", "domain_concepts": ["band_gap"]})),
        &opts(),
    );
    assert_eq!(p.unmatched_concepts, ["band_gap"]);
    assert_eq!(fields(&p, 0), ["doi", "title"]);
}

fn compact(g: &FrozenGraph, query: &str) -> serde_json::Value {
    let a = Lexical::new(g).understand(query).unwrap();
    let p = route(g, &a.understanding, &opts());
    json!({
        "query": query,
        "understanding": a.understanding,
        "status": p.status,
        "steps": p.steps.iter().map(|s| json!({
            "tool": s.tool, "endpoint": s.endpoint, "params": s.params,
            "fields": s.fields.iter().map(|f| f.name.clone()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "unmatched": p.unmatched_concepts,
    })
}

#[test]
fn golden_plans_for_example_queries() {
    let g = shipped();
    let mut all = Vec::new();
    for i in &g.intents {
        for q in &i.examples {
            all.push(compact(g, q));
        }
    }
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(true);
    s.bind(|| insta::assert_json_snapshot!("example_query_plans", all));
}

#[test]
fn plans_for_example_queries_are_valid() {
    let g = shipped();
    let lex = Lexical::new(g);
    for i in &g.intents {
        for q in &i.examples {
            let a = lex.understand(q).unwrap();
            let p = route(g, &a.understanding, &opts());
            assert!(!p.steps.is_empty(), "no plan for {q:?}");
            // Every word of a shipped example is understood (a Korean particle after a field
            // alias, "전자 유효 질량이랑", once left the alias unresolved).
            assert_ne!(
                p.status,
                PlanStatus::NotUnderstood,
                "{q}: {:?}",
                a.understanding
            );
            for s in &p.steps {
                let (_, t) = g.tool(&s.tool).unwrap();
                let e = t.endpoints.iter().find(|e| e.id == s.endpoint).unwrap();
                for (name, v) in &s.params {
                    let param = e
                        .parameters
                        .iter()
                        .find(|x| &x.name == name)
                        .unwrap_or_else(|| panic!("{q}: {name} not declared"));
                    assert!(
                        schemarouter::route::bind::value_is_valid(param, v),
                        "{q}: {name}={v}"
                    );
                }
                for f in &s.fields {
                    assert!(
                        e.fields.iter().any(|x| x.name == f.name),
                        "{q}: field {}",
                        f.name
                    );
                    let m = f.meta.as_ref().unwrap();
                    assert!(
                        m.source_type.is_some() && m.licence.is_some() && m.provenance.is_some(),
                        "{q}: {}",
                        f.name
                    );
                }
            }
        }
    }
}

/// (query, intent, concepts that must be present, tools, source constraint, parameters)
type Row = (
    &'static str,
    Option<&'static str>,
    &'static [&'static str],
    &'static [&'static str],
    Option<&'static str>,
    serde_json::Value,
);

#[test]
fn analyzer_phrasings() {
    let g = shipped();
    let lex = Lexical::new(g);
    // (query, intent, concepts that must be present, tools, source constraint, parameters)
    let table: &[Row] = &[
        (
            "What is the band gap of GaN?",
            Some("electronic_property"),
            &["band_gap"],
            &[],
            None,
            json!({"formula": "GaN"}),
        ),
        (
            "Eg of ZnO from MP",
            Some("electronic_property"),
            &["band_gap"],
            &["materials_project"],
            None,
            json!({"formula": "ZnO"}),
        ),
        (
            "GaN의 밴드갭 알려줘",
            Some("electronic_property"),
            &["band_gap"],
            &[],
            None,
            json!({"formula": "GaN"}),
        ),
        (
            "K_VRH of diamond",
            Some("mechanical_property"),
            &["bulk_modulus"],
            &[],
            None,
            json!({"formula": "C"}),
        ),
        (
            "오픈알렉스에서 10.1103/PhysRevLett.120.145301 인용 수",
            Some("citation_impact"),
            &["citation_count"],
            &["openalex"],
            None,
            json!({"doi": "10.1103/PhysRevLett.120.145301"}),
        ),
        (
            "measured density and temperature of our LiCoO2 pellets",
            Some("experimental_measurement"),
            &["density", "temperature"],
            &[],
            Some("experimental"),
            json!({"formula": "LiCoO2"}),
        ),
        (
            "DFT band gap of Si, not experimental",
            Some("electronic_property"),
            &["band_gap"],
            &[],
            Some("calculated"),
            json!({"formula": "Si"}),
        ),
        (
            "GaN 공간군, 계산값 말고 실험값으로",
            Some("crystal_structure"),
            &["space_group"],
            &[],
            Some("experimental"),
            json!({"formula": "GaN"}),
        ),
        (
            "What's the weather forecast for Daejeon tomorrow?",
            None,
            &[],
            &[],
            None,
            json!({}),
        ),
        (
            "Email the XRD results to my co-author and cc the lab manager.",
            None,
            &[],
            &[],
            None,
            json!({}),
        ),
    ];
    for (q, intent, concepts, tools, source, params) in table {
        let a = lex.understand(q).unwrap().understanding;
        assert_eq!(a.intent.as_deref(), *intent, "{q}: {a:?}");
        for c in *concepts {
            assert!(
                a.domain_concepts.iter().any(|x| x == c),
                "{q}: missing concept {c} in {:?}",
                a.domain_concepts
            );
        }
        assert_eq!(
            a.target_apis,
            tools.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "{q}"
        );
        assert_eq!(a.source_constraint.as_deref(), *source, "{q}");
        let want: std::collections::BTreeMap<String, serde_json::Value> =
            serde_json::from_value(params.clone()).unwrap();
        for (k, v) in &want {
            assert_eq!(
                a.parameters.get(k),
                Some(v),
                "{q}: parameter {k} in {:?}",
                a.parameters
            );
        }
    }
}

/// A one-shot-per-connection HTTP stub that answers each request with the next canned body
/// (after an optional delay).
fn stub(replies: Vec<(u64, String)>) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for (delay, body) in replies {
            let Ok((mut s, _)) = listener.accept() else {
                return;
            };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            loop {
                let n = s.read(&mut chunk).unwrap_or(0);
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&buf);
                if let Some(h) = text.find("\r\n\r\n") {
                    let len = text[..h]
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                        })
                        .unwrap_or(0);
                    if buf.len() >= h + 4 + len {
                        break;
                    }
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(delay));
            let resp = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
                body.len(),
                body
            );
            let _ = s.write_all(resp.as_bytes());
        }
    });
    format!("http://{addr}/v1")
}

fn completion(content: &str) -> String {
    json!({"choices": [{"message": {"role": "assistant", "content": content}}]}).to_string()
}

#[test]
fn llm_analyzer_against_a_stub() {
    let g = shipped();
    let prompt = schemarouter::prompt::render(g, None);
    let t = std::time::Duration::from_secs(5);
    // Good reply (in a code fence, with a tool given by name).
    let good = "```json\n{\"intent\": \"electronic_property\", \"domain_concepts\": [\"band gap\"], \"parameters\": {\"formula\": \"GaN\"}, \"target_apis\": [\"Materials Project\"], \"source_constraint\": null}\n```";
    let url = stub(vec![(0, completion(good))]);
    let a = Llm::new(g, &url, "m", prompt.clone(), t, None)
        .understand("band gap of GaN on MP")
        .unwrap();
    assert_eq!(
        a.understanding.intent.as_deref(),
        Some("electronic_property")
    );
    assert_eq!(a.understanding.target_apis, ["materials_project"]);
    assert!(a.warnings.is_empty());
    // Unknown intent, tool, concept and parameter are kept as written, for Understanding
    // validation to report (tests/route_vocabulary.rs), exactly as from an --understanding file.
    let odd = "{\"intent\": \"astrology\", \"domain_concepts\": [\"band_gap\", \"vibes\"], \"parameters\": {\"zodiac\": \"leo\"}, \"target_apis\": [\"Horoscope API\"], \"source_constraint\": \"vibes\"}";
    let url = stub(vec![(0, completion(odd))]);
    let a = Llm::new(g, &url, "m", prompt.clone(), t, None)
        .understand("x")
        .unwrap();
    assert_eq!(a.understanding.intent.as_deref(), Some("astrology"));
    assert_eq!(a.understanding.domain_concepts, ["band_gap", "vibes"]);
    assert_eq!(a.understanding.target_apis, ["Horoscope API"]);
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    let names: Vec<String> = schemarouter::route::vocabulary::validate(g, &a.understanding)
        .iter()
        .map(|n| n.name.clone())
        .collect();
    assert_eq!(
        names,
        ["astrology", "Horoscope API", "vibes", "zodiac", "vibes"]
    );
    // Malformed once: retried.
    let url = stub(vec![
        (0, completion("sure! the intent is electronic")),
        (0, completion(good)),
    ]);
    let a = Llm::new(g, &url, "m", prompt.clone(), t, None)
        .understand("x")
        .unwrap();
    assert_eq!(
        a.warnings[0],
        "the first LLM reply was not valid JSON; retried once"
    );
    // Malformed twice: an error.
    let url = stub(vec![(0, completion("no")), (0, completion("still no"))]);
    let e = Llm::new(g, &url, "m", prompt.clone(), t, None)
        .understand("x")
        .unwrap_err();
    assert!(
        e.message
            .starts_with("the LLM reply was not a JSON object twice"),
        "{e}"
    );
    // Timeout.
    let url = stub(vec![(3000, completion(good))]);
    let e = Llm::new(
        g,
        &url,
        "m",
        prompt,
        std::time::Duration::from_millis(300),
        None,
    )
    .understand("x")
    .unwrap_err();
    assert!(e.message.contains("failed"), "{e}");
}

/// A tool named in the question by its multi-word title is a named tool even when no alias of
/// the project is that long (an imported catalog has no aliases at all).
#[test]
fn a_multi_word_title_names_its_tool_without_long_aliases() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    std::fs::write(
        dir.path().join("schemas/shots.yaml"),
        "id: browshot_api\ntitle: Browshot API\ndomain: shots\nsource_type: web\nendpoints:\n  - id: account\n    method: GET\n    url: https://api.browshot.example/account\n    fields:\n      - {name: id, type: string, identifier: true, groups: [account]}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("schemas/other.yaml"),
        "id: other\ntitle: Other\ndomain: shots\nsource_type: web\nendpoints:\n  - id: account\n    method: GET\n    url: https://other.example/account\n    fields:\n      - {name: id, type: string, identifier: true, groups: [account]}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("intents/i.yaml"),
        "domains:\n  - id: shots\ngroups:\n  - id: account\nintents:\n  - id: account_info\n    description: Account details.\n    domains: [shots]\n    required_groups: [account]\n",
    )
    .unwrap();
    let g = compile(dir.path().to_str().unwrap());
    let lex = Lexical::new(&g);
    let understood = lex.analyse("account info from Browshot API").understanding;
    assert_eq!(understood.target_apis, ["browshot_api"]);
}

/// The out-of-scope topics a project declares (weather, media, live data, ...; `cues:
/// out_of_scope` in an alias file) say what no tool of its inventory serves; a project that also
/// declares such a tool (an imported weather MCP server), or a concept alias such as `images`, is
/// asked about it, so its own words are no out-of-scope cue. A cue the project does not declare
/// as a name still refuses the request.
#[test]
fn out_of_scope_cues_the_inventory_declares_are_not_refused() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    std::fs::write(
        dir.path().join("schemas/weather.yaml"),
        "id: weather\ntitle: Weather\ndomain: meteo\nsource_type: experimental\nendpoints:\n  - id: current\n    method: GET\n    url: https://weather.example/current\n    fields:\n      - {name: station, type: string, identifier: true}\n      - {name: pictures, type: string, concepts: [sky_image]}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("intents/i.yaml"),
        "domains:\n  - id: meteo\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("aliases/a.yaml"),
        "concepts:\n  - id: sky_image\n    aliases: {en: [sky image, images]}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("aliases/scope.yaml"),
        "cues:\n  out_of_scope:\n    - {topic: weather, reason: 'a weather request ({cue})', words: [weather, rain]}\n    - {topic: media, reason: 'a media request ({cue})', words: [images, song]}\n",
    )
    .unwrap();
    let g = compile(dir.path().to_str().unwrap());
    let lex = Lexical::new(&g);
    let understood = lex.analyse("What is the weather in Paris?").understanding;
    assert_eq!(understood.out_of_scope, None);
    assert_eq!(understood.target_apis, ["weather"]);
    let understood = lex
        .analyse("Show me the images of station 42")
        .understanding;
    assert_eq!(understood.out_of_scope, None);
    let understood = lex
        .analyse("Images of station 42 from Weather")
        .understanding;
    assert_eq!(understood.out_of_scope, None);
    assert_eq!(understood.domain_concepts, ["sky_image"]);
    // Not declared: still out of scope.
    let understood = lex.analyse("Play a song about rain").understanding;
    assert!(understood.out_of_scope.is_some(), "{understood:?}");
}

/// Imported catalogs without intents (the README's "Bring your own tools"): a request that
/// names a tool is routed to it, the question's words choose among its endpoints
/// (`tool/endpoint`), a parameter the endpoint declares by name binds without a declared
/// binding, and the out-of-scope vocabulary does not overrule what the inventory serves.
#[test]
fn imported_tools_without_intents() {
    let dir = tempfile::tempdir().unwrap();
    let proj = dir.path().join("proj");
    let bin = env!("CARGO_BIN_EXE_schemarouter");
    for (kind, file) in [
        ("openapi", "library.json"),
        ("openapi", "weather.yaml"),
        ("openai", "openai_tools.json"),
        ("mcp", "mcp_tools.json"),
    ] {
        let out = std::process::Command::new(bin)
            .args(["import", kind])
            .arg(Path::new("tests/fixtures/own-tools").join(file))
            .arg("--project")
            .arg(&proj)
            // Without the derived layer: these questions name their tools.
            .arg("--no-derive")
            .output()
            .unwrap();
        assert!(out.status.success(), "{file}: {out:?}");
    }
    let g = compile(proj.to_str().unwrap());
    let lex = Lexical::new(&g);
    let plan = |q: &str| {
        let a = lex.understand(q).unwrap();
        let p = schemarouter::route::route_checked(&g, &a.understanding, &Options::default());
        let steps: Vec<(String, String, serde_json::Value)> = p
            .steps
            .iter()
            .map(|s| (s.tool.clone(), s.endpoint.clone(), json!(s.params)))
            .collect();
        (
            a.understanding.target_apis.clone(),
            steps,
            p.out_of_scope.clone(),
        )
    };
    assert_eq!(
        plan("convert currency with openai_tools"),
        (
            vec!["openai_tools/convert_currency".to_string()],
            vec![(
                "openai_tools".to_string(),
                "convert_currency".to_string(),
                json!({})
            )],
            None
        )
    );
    assert_eq!(
        plan("books by Tolkien from city_library_catalogue"),
        (
            // `add_book` and `search_books` share "book"; reading goes before writing.
            vec!["city_library_catalogue/search_books".to_string()],
            vec![(
                "city_library_catalogue".to_string(),
                "search_books".to_string(),
                json!({"author": "Tolkien"})
            )],
            None
        )
    );
    assert_eq!(
        plan("stock price of AAPL from stocks-server"),
        (
            vec!["stocks_server/get_stock_price".to_string()],
            vec![(
                "stocks_server".to_string(),
                "get_stock_price".to_string(),
                json!({})
            )],
            None
        )
    );
    // A weather tool is in the inventory: no "no tool serves weather data".
    assert_eq!(plan("current weather in Paris").2, None);
}

/// A project imported with `schemarouter import KIND tools.json --tool TOOL` from `source` and
/// compiled, for questions to imported tools without intents.
struct ImportedProject {
    dir: tempfile::TempDir,
}

impl ImportedProject {
    fn new(kind: &str, tool: &str, source: &str) -> ImportedProject {
        let project = ImportedProject {
            dir: tempfile::tempdir().unwrap(),
        };
        std::fs::write(project.dir.path().join("tools.json"), source).unwrap();
        project.run(&[
            "import",
            kind,
            "tools.json",
            "--project",
            "p",
            "--tool",
            tool,
            "--no-derive",
        ]);
        project.run(&["compile", "p", "--out", "p/build"]);
        project
    }

    /// Run the CLI in the project's folder; its standard output (it must succeed).
    fn run(&self, args: &[&str]) -> String {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    }

    /// `route --json` of a question.
    fn route(&self, q: &str) -> serde_json::Value {
        let out = self.run(&["route", "--artifact", "p/build/graph.json", "--json", q]);
        serde_json::from_str(&out).unwrap()
    }
}

/// A tool named in the question whose endpoints tie on the question's words: the endpoint whose
/// own id has fewer words the question does not ask wins ("weather" is `get_weather`, not
/// `get_weather_forecast`), and never an endpoint that shares no word (here `archive_note`,
/// declared first); a tie nothing breaks takes the first declared, with a warning.
#[test]
fn named_tool_endpoints_tied_on_words_break_by_unasked_id_words() {
    let tools = r#"[
  {"type": "function", "function": {"name": "archive_note", "description": "Archive a note", "parameters": {"type": "object"}}},
  {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city", "parameters": {"type": "object"}}},
  {"type": "function", "function": {"name": "get_weather_forecast", "description": "Weather forecast for a city", "parameters": {"type": "object"}}},
  {"type": "function", "function": {"name": "list_cities", "description": "Cities with stations", "parameters": {"type": "object"}}},
  {"type": "function", "function": {"name": "list_stations", "description": "Cities with stations", "parameters": {"type": "object"}}}
]"#;
    let project = ImportedProject::new("openai", "wx", tools);
    let plan = |q: &str| {
        let v = project.route(q);
        let endpoints: Vec<String> = v["plan"]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["endpoint"].as_str().unwrap().to_string())
            .collect();
        let tie: Vec<String> = v["plan"]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|w| w.as_str())
            .filter(|w| w.contains("match the request's words equally"))
            .map(str::to_string)
            .collect();
        (endpoints, tie)
    };
    assert_eq!(
        plan("weather for Paris with wx"),
        (vec!["get_weather".to_string()], vec![])
    );
    assert_eq!(
        plan("weather forecast for Paris with wx"),
        (vec!["get_weather_forecast".to_string()], vec![])
    );
    assert_eq!(
        plan("stations of a city with wx"),
        (vec!["list_stations".to_string()], vec![])
    );
    assert_eq!(
        plan("cities with stations, from wx"),
        (
            vec!["list_cities".to_string()],
            vec![
                "endpoints `list_cities` and `list_stations` of tool `wx` match the request's words equally; took `list_cities` (the first in id order); name `wx/<endpoint>` to choose"
                    .to_string()
            ]
        )
    );
}

/// Questions to imported tools that have no concepts or intents: a value written after a
/// parameter's name binds it by that name and tells endpoints apart; the built-in vocabulary of
/// the shipped domain (formulas, "articles" as literature, "play" as a media request) does not
/// override a question that names a tool whose inventory has no such parameter or source kind.
#[test]
fn imported_tools_take_values_by_parameter_name_and_ignore_foreign_vocabulary() {
    let tools = r#"[
  {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
  {"type": "function", "function": {"name": "get_current_time", "description": "Current time in a timezone", "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}}},
  {"type": "function", "function": {"name": "convert_time", "description": "Convert a time between timezones", "parameters": {"type": "object", "properties": {"source_timezone": {"type": "string"}, "time": {"type": "string"}, "target_timezone": {"type": "string"}}, "required": ["source_timezone", "time", "target_timezone"]}}},
  {"type": "function", "function": {"name": "lookup_ip", "description": "Connection details of an address", "parameters": {"type": "object", "properties": {"ip": {"type": "string"}}, "required": ["ip"]}}},
  {"type": "function", "function": {"name": "search_articles", "description": "Shop articles matching a text", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}},
  {"type": "function", "function": {"name": "play_movie", "description": "Play a movie on the player", "parameters": {"type": "object", "properties": {"title": {"type": "string"}}}}}
]"#;
    let project = ImportedProject::new("openai", "kit", tools);
    let plan = |q: &str| {
        let v = project.route(q);
        let p = &v["plan"];
        let steps: Vec<(String, serde_json::Value)> = p["steps"]
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
        (p["status"].as_str().unwrap().to_string(), steps)
    };
    let planned = |endpoint: &str, params: serde_json::Value| {
        ("planned".to_string(), vec![(endpoint.to_string(), params)])
    };
    assert_eq!(
        plan("weather for city Paris with kit"),
        planned("get_weather", json!({"city": "Paris"}))
    );
    // Both time endpoints share "time"; the one that takes the value given by name wins.
    assert_eq!(
        plan("what time is it, with kit? timezone Europe/Paris"),
        planned("get_current_time", json!({"timezone": "Europe/Paris"}))
    );
    // "IP" is no chemical formula here: no tool of this inventory takes a formula.
    assert_eq!(
        plan("connection details with kit for ip 192.168.1.20"),
        planned("lookup_ip", json!({"ip": "192.168.1.20"}))
    );
    // "articles" asks for no literature from a tool that carries no literature.
    assert_eq!(
        plan("search kit articles for red sneakers, q=sneakers"),
        planned("search_articles", json!({"q": "sneakers"}))
    );
    // A media request to a tool that plays media.
    assert_eq!(
        plan("play the movie with kit"),
        planned("play_movie", json!({}))
    );
    // An endpoint named as `tool/endpoint`, or by its id after the tool's name.
    assert_eq!(
        plan("kit/convert_time time 10:00 source_timezone UTC target_timezone Asia/Seoul"),
        planned(
            "convert_time",
            json!({"time": "10:00", "source_timezone": "UTC", "target_timezone": "Asia/Seoul"})
        )
    );
    assert_eq!(
        plan("what's on, kit get_weather for city Oslo"),
        planned("get_weather", json!({"city": "Oslo"}))
    );
    // What a plan with no requested concept projects, said in its warnings.
    let v = project.route("play the movie with kit");
    assert_eq!(
        v["plan"]["warnings"],
        json!([
            "no intent fits the evidence; the plan uses the named tool only",
            "no concept of the request selects a field of `kit/play_movie`, so none is projected (1 field(s) with the projection `all`)"
        ])
    );
}

/// A planned step that changes data says so in the plan's warnings: an MCP tool annotated as
/// not read-only, an HTTP `PUT`.
#[test]
fn a_step_that_writes_is_flagged() {
    let project = ImportedProject::new(
        "mcp",
        "notes",
        r#"{"tools": [
  {"name": "add_note", "description": "Add a note", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
   "outputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
   "annotations": {"readOnlyHint": false, "destructiveHint": false}},
  {"name": "list_notes", "description": "List the notes", "inputSchema": {"type": "object"},
   "outputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
   "annotations": {"readOnlyHint": true}}
]}"#,
    );
    let warnings = |q: &str| {
        let v = project.route(q);
        assert_eq!(v["plan"]["status"], "planned", "{v}");
        v["plan"]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|w| w.as_str())
            .filter(|w| w.contains("changes data"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        warnings("notes add_note text=hello"),
        vec![
            "`notes/add_note` changes data (annotated as not read-only): carrying out this plan writes; confirm before running it"
        ]
    );
    assert!(warnings("notes list_notes").is_empty());
}

/// Issue 38: a plan names the candidates it did not plan, best first, each with the first
/// ranking criterion on which it lost (or the filter that removed it).
#[test]
fn alternatives_name_the_candidates_not_planned_and_why_they_lost() {
    let p = route(
        mini(),
        &u(json!({"intent": "anything_electronic", "domain_concepts": ["band_gap"]})),
        &opts(),
    );
    assert_eq!(tools(&p), ["alpha"]);
    let got: Vec<(&str, Option<&str>, u32, &str)> = p
        .alternatives
        .iter()
        .map(|a| {
            (
                a.tool.as_str(),
                a.endpoint.as_deref(),
                a.score,
                a.reason.as_str(),
            )
        })
        .collect();
    assert_eq!(got, ALTERNATIVES_MINI);
    // The source filter's removals are named too, after the scored ones.
    let p = route(
        mini(),
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "source_constraint": "experimental"}),
        ),
        &opts(),
    );
    let removed: Vec<(&str, &str)> = p
        .alternatives
        .iter()
        .filter(|a| a.endpoint.is_none())
        .map(|a| (a.tool.as_str(), a.reason.as_str()))
        .collect();
    assert_eq!(removed, ALTERNATIVES_FILTERED);
}

/// Issue 38: numeric ranges and bounds in questions become the endpoint's range parameters,
/// converted to the field's unit; a bound no parameter takes is named in a warning.
#[test]
fn ranges_in_questions_fill_range_parameters_in_the_fields_unit() {
    let lex = Lexical::new(shipped());
    let plan = |q: &str| {
        let a = lex.understand(q).unwrap();
        route(shipped(), &a.understanding, &opts())
    };
    let p = plan("materials with a band gap between 2 and 3 eV");
    assert_eq!(tools(&p), ["materials_project"]);
    assert_eq!(
        serde_json::to_value(&p.steps[0].params).unwrap(),
        json!({"band_gap_min": 2, "band_gap_max": 3})
    );
    // meV converted to the field's eV; the bulk modulus bound found through the parameter's
    // description ("Lower bound on bulk_modulus.vrh").
    let p = plan("oxides with a band gap above 1500 meV and a bulk modulus of at least 100 GPa");
    assert_eq!(
        serde_json::to_value(&p.steps[0].params).unwrap(),
        json!({"band_gap_min": 1.5, "k_vrh_min": 100})
    );
    let p = plan("materials with band gap below 0.5 eV from OQMD");
    assert_eq!(tools(&p), ["oqmd"]);
    assert!(p.steps[0].params.is_empty(), "{:?}", p.steps[0].params);
    assert!(
        p.warnings.contains(&"the upper bound 0.5 eV on `band_gap` is not sent: `oqmd/formationenergy` has no parameter that filters it; filter the records after fetching".to_string()),
        "{:?}",
        p.warnings
    );
}

const ALTERNATIVES_MINI: &[(&str, Option<&str>, u32, &str)] = &[
    (
        "beta",
        Some("data"),
        3,
        "same match and priority as `alpha`; tie broken by size: 5 fields against 4; set `priority` on the tool you prefer",
    ),
    (
        "delta",
        Some("rows"),
        2,
        "its fields match the requested concepts less well (score 2 against 3 for `alpha`)",
    ),
    (
        "web",
        Some("search"),
        3,
        "a web search ranks after the tools that hold the data",
    ),
];
const ALTERNATIVES_FILTERED: &[(&str, &str)] = &[
    (
        "alpha",
        "its source type is calculated and the request asks for experimental",
    ),
    (
        "beta",
        "its source type is calculated and the request asks for experimental",
    ),
];

/// Issue 38: the `core` projection keeps every variant of a value the question does not choose
/// between (averaging schemes here), the field a projected field's description names, and no
/// variant the question's words choose against.
#[test]
fn core_keeps_the_variants_a_question_does_not_choose_between() {
    let plan_of = |v: serde_json::Value| route(shipped(), &u(v), &opts());
    let p = plan_of(
        json!({"intent": "mechanical_property", "domain_concepts": ["shear_modulus"],
        "parameters": {"formula": "WC"}, "target_apis": ["materials_project"]}),
    );
    assert_eq!(
        fields(&p, 0),
        [
            "material_id",
            "shear_modulus.reuss",
            "shear_modulus.voigt",
            "shear_modulus.vrh"
        ]
    );
    assert_eq!(
        p.steps[0].fields[1].reasons,
        [FieldReason::Variant {
            of: "shear_modulus.vrh".into()
        }]
    );
    // The words of the request choose the variant: "G_VRH" names vrh.
    let p = plan_of(
        json!({"intent": "mechanical_property", "domain_concepts": ["G_VRH"],
        "parameters": {"formula": "WC"}, "target_apis": ["materials_project"]}),
    );
    assert_eq!(fields(&p, 0), ["material_id", "shear_modulus.vrh"]);
    // A yes/no comes with the number its description names.
    let p = plan_of(
        json!({"intent": "thermodynamic_stability", "domain_concepts": ["is_stable"],
        "parameters": {"formula": "LiMn2O4"}, "target_apis": ["materials_project"]}),
    );
    assert_eq!(
        fields(&p, 0),
        ["energy_above_hull", "is_stable", "material_id"]
    );
    // `minimal` keeps the concept matches only.
    let p = route(
        shipped(),
        &u(
            json!({"intent": "mechanical_property", "domain_concepts": ["shear_modulus"],
            "parameters": {"formula": "WC"}, "target_apis": ["materials_project"]}),
        ),
        &Options {
            projection: Projection::Minimal,
            ..opts()
        },
    );
    assert_eq!(fields(&p, 0), ["material_id", "shear_modulus.vrh"]);
}

/// Issue 38: an endpoint that looks destructive by its name and says nothing (no annotations,
/// not a safe HTTP method) is left out of planning, as SR508 reports it.
#[test]
fn an_endpoint_that_looks_destructive_is_not_planned() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for sub in ["aliases", "intents", "schemas"] {
        std::fs::create_dir_all(root.join(sub)).unwrap();
        for e in std::fs::read_dir(Path::new("tests/fixtures/route-mini").join(sub)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), root.join(sub).join(e.file_name())).unwrap();
        }
    }
    std::fs::copy(
        "tests/fixtures/route-mini/schemarouter.toml",
        root.join("schemarouter.toml"),
    )
    .unwrap();
    std::fs::write(
        root.join("schemas/store.yaml"),
        "id: store\ntitle: Store\ndomain: materials\npriority: 10\nendpoints:\n  - id: purge_rows\n    method: POST\n    url: https://store.example/purge\n    fields:\n      - {name: id, type: string, identifier: true}\n      - {name: band_gap, type: number, unit: eV, groups: [electronic], concepts: [band_gap]}\n      - {name: k_vrh, type: number, unit: GPa, groups: [mechanical], concepts: [bulk_modulus]}\n  - id: rows\n    method: GET\n    url: https://store.example/rows\n    fields:\n      - {name: id, type: string, identifier: true}\n      - {name: band_gap, type: number, unit: eV, groups: [electronic], concepts: [band_gap]}\n",
    )
    .unwrap();
    let g = compile(root.to_str().unwrap());
    let p = route(
        &g,
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap", "bulk_modulus"], "target_apis": ["store"]}),
        ),
        &opts(),
    );
    assert_eq!(
        p.steps
            .iter()
            .map(|s| s.endpoint.as_str())
            .collect::<Vec<_>>(),
        ["rows"]
    );
    let p = route(
        &g,
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "target_apis": ["store/purge_rows"]}),
        ),
        &opts(),
    );
    assert!(p.steps.is_empty());
    assert_eq!(
        p.skipped_tools[0].reason,
        "its endpoint `purge_rows` may destroy data and is not marked `allow_destructive`"
    );
}
