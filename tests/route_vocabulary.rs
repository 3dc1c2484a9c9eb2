//! Route input (issue 17, part 9): unknown intent, tool, concept, parameter and source names in an
//! Understanding get a "did you mean" from the artifact's vocabulary and the plan status
//! `not_understood`, whichever Understand step wrote them; a known parameter no step binds makes
//! the plan `partial`, never a quiet `planned`.

use schemarouter::artifact::{self, FrozenGraph};
use schemarouter::lint::check_path;
use schemarouter::route::analyzer::llm::sanitise;
use schemarouter::route::vocabulary::{NameKind, NotUnderstood, validate};
use schemarouter::route::{Options, PlanStatus, Understanding, route_checked};
use serde_json::json;
use std::path::Path;
use std::sync::OnceLock;

fn mini() -> &'static FrozenGraph {
    static G: OnceLock<FrozenGraph> = OnceLock::new();
    G.get_or_init(|| {
        let c = check_path(Path::new("tests/fixtures/route-mini")).unwrap();
        assert!(!c.has_errors(), "{:?}", c.diagnostics);
        artifact::build::compile(&c.project, &c.index, &c.units)
    })
}

fn u(v: serde_json::Value) -> Understanding {
    serde_json::from_value(v).unwrap()
}

fn nu(kind: NameKind, name: &str, near: Option<&str>) -> NotUnderstood {
    NotUnderstood {
        kind,
        name: name.into(),
        did_you_mean: near.map(str::to_string),
        value: None,
        expected: None,
        reason: None,
    }
}

#[test]
fn every_kind_of_unknown_name_gets_a_did_you_mean() {
    let got = validate(
        mini(),
        &u(json!({
            "intent": "electronic_propety",
            "target_apis": ["alpah", "Horoscope API"],
            "domain_concepts": ["band gap", "band_gapp", "vibes"],
            "parameters": {"formla": "GaN", "formula": "GaN", "doi": null},
            "source_constraint": "calculatd"
        })),
    );
    assert_eq!(
        got,
        [
            nu(
                NameKind::Intent,
                "electronic_propety",
                Some("electronic_property")
            ),
            nu(NameKind::Tool, "alpah", Some("alpha")),
            nu(NameKind::Tool, "Horoscope API", None),
            nu(NameKind::Concept, "band_gapp", Some("band_gap")),
            nu(NameKind::Concept, "vibes", None),
            nu(NameKind::Parameter, "formla", Some("formula")),
            nu(NameKind::SourceConstraint, "calculatd", Some("calculated")),
        ]
    );
    assert_eq!(
        got[0].message(),
        "unknown intent `electronic_propety` (did you mean `electronic_property`?)"
    );
    assert_eq!(
        got[2].message(),
        "unknown tool `Horoscope API` (no close match in the artifact)"
    );
}

#[test]
fn known_names_and_synonyms_pass() {
    let got = validate(
        mini(),
        &u(json!({
            "intent": "electronic_property",
            "target_apis": ["alpha"],
            "domain_concepts": ["band gap", "BAND_GAP"],
            "parameters": {"formula": "GaN"},
            "source_constraint": "computed"
        })),
    );
    assert_eq!(got, []);
}

#[test]
fn an_unknown_parameter_is_never_a_quiet_planned() {
    let g = mini();
    let opts = Options::default();
    // Same request with and without the misspelt argument.
    let good = route_checked(
        g,
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "parameters": {"formula": "WS2"}, "target_apis": ["alpha"]}),
        ),
        &opts,
    );
    assert_eq!(good.status, PlanStatus::Planned);
    assert_eq!(good.not_understood, []);
    let bad = route_checked(
        g,
        &u(
            json!({"intent": "electronic_property", "domain_concepts": ["band_gap"], "parameters": {"formula": "WS2", "formulaa": "GaN"}, "target_apis": ["alpha"]}),
        ),
        &opts,
    );
    assert_eq!(bad.status, PlanStatus::NotUnderstood);
    assert_eq!(
        bad.not_understood,
        [nu(NameKind::Parameter, "formulaa", Some("formula"))]
    );
    assert_eq!(
        bad.warnings[0],
        "unknown parameter `formulaa` (did you mean `formula`?)"
    );
    // The understood part is still planned.
    assert_eq!(bad.steps.len(), 1);
    assert_eq!(bad.steps[0].params["formula"], json!("S2W"));
}

#[test]
fn an_unknown_intent_or_concept_is_not_understood_and_said_once() {
    let g = mini();
    let p = route_checked(
        g,
        &u(json!({"intent": "electronic_propety", "domain_concepts": ["band_gap"]})),
        &Options::default(),
    );
    assert_eq!(p.status, PlanStatus::NotUnderstood);
    assert!(p.steps.is_empty());
    assert_eq!(
        p.warnings,
        ["unknown intent `electronic_propety` (did you mean `electronic_property`?)"]
    );
    let p = route_checked(
        g,
        &u(json!({"intent": "electronic_property", "domain_concepts": ["band_gap", "bnd gap"]})),
        &Options::default(),
    );
    assert_eq!(p.status, PlanStatus::NotUnderstood);
    assert_eq!(p.steps.len(), 1);
    assert_eq!(p.unmatched_concepts, ["bnd gap"]);
    assert_eq!(
        p.warnings,
        ["unknown concept `bnd gap` (did you mean `band_gap`?)"]
    );
}

#[test]
fn a_known_parameter_no_step_binds_makes_the_plan_partial() {
    let p = route_checked(
        mini(),
        &u(
            json!({"intent": "electronic_property", "parameters": {"formula": "WS2", "search_text": "x"}, "target_apis": ["alpha"]}),
        ),
        &Options::default(),
    );
    assert_eq!(p.not_understood, []);
    assert_eq!(p.steps[0].unbound, ["search_text"]);
    assert_eq!(p.status, PlanStatus::Partial);
    assert_eq!(
        p.warnings[0],
        "parameter `search_text` is not bound by any planned step (no planned endpoint takes it)"
    );
}

#[test]
fn llm_replies_and_understanding_files_treat_unknown_tools_alike() {
    let g = mini();
    let reply = json!({
        "intent": "electronic_property",
        "domain_concepts": ["band_gap"],
        "target_apis": ["ALPHA", "alpah"],
        "parameters": {"zodiac": "leo"},
        "source_constraint": null
    });
    let (from_llm, warnings) = sanitise(g, &reply);
    assert_eq!(warnings, Vec::<String>::new());
    // A known tool name is mapped to its id; an unknown one is kept as written.
    assert_eq!(from_llm.target_apis, ["alpha", "alpah"]);
    let from_file = u(json!({
        "intent": "electronic_property",
        "domain_concepts": ["band_gap"],
        "target_apis": ["alpha", "alpah"],
        "parameters": {"zodiac": "leo"}
    }));
    let a = route_checked(g, &from_llm, &Options::default());
    let b = route_checked(g, &from_file, &Options::default());
    assert_eq!(a, b);
    assert_eq!(a.status, PlanStatus::NotUnderstood);
    assert_eq!(
        a.not_understood,
        [
            nu(NameKind::Tool, "alpah", Some("alpha")),
            nu(NameKind::Parameter, "zodiac", None),
        ]
    );
    assert_eq!(a.skipped_tools.len(), 1);
    assert_eq!(
        a.skipped_tools[0].reason,
        "no tool with this id or name; did you mean `alpha`?"
    );
}

#[test]
fn llm_values_of_the_wrong_type_are_dropped_with_a_warning() {
    let (got, warnings) = sanitise(
        mini(),
        &json!({"intent": 5, "domain_concepts": "band_gap", "target_apis": [3], "parameters": [], "source_constraint": true}),
    );
    assert_eq!(got, Understanding::default());
    assert_eq!(
        warnings,
        [
            "dropped `intent` from the LLM reply: expected a string or null, found a number",
            "dropped `domain_concepts` from the LLM reply: expected an array of strings, found a string",
            "dropped `parameters` from the LLM reply: expected an object, found an array",
            "dropped `target_apis[]` from the LLM reply: expected a string, found a number",
            "dropped `source_constraint` from the LLM reply: expected a string or null, found a boolean",
        ]
    );
}

/// Only the first unknown names get a "did you mean" (each scans the vocabulary): thousands of
/// made-up names cost milliseconds, and every one of them is still reported.
#[test]
fn suggestions_stop_after_the_first_unknown_names() {
    let names: Vec<String> = (0..40)
        .map(|i| format!("band_gap{}", (b'a' + (i % 26) as u8) as char).repeat(1 + i / 26))
        .collect();
    let got = validate(mini(), &u(json!({ "domain_concepts": names })));
    assert_eq!(got.len(), 40);
    let suggested = got.iter().filter(|n| n.did_you_mean.is_some()).count();
    assert_eq!(suggested, schemarouter::route::vocabulary::MAX_SUGGESTIONS);
    assert!(
        got[..16]
            .iter()
            .all(|n| n.did_you_mean.as_deref() == Some("band_gap")),
        "{got:?}"
    );
}

/// The shipped project's committed artifact (`compile --check` keeps it current).
fn shipped() -> &'static FrozenGraph {
    static G: OnceLock<FrozenGraph> = OnceLock::new();
    G.get_or_init(|| FrozenGraph::load(Path::new("build/graph.json")).unwrap())
}

fn refused(name: &str, value: serde_json::Value, expected: &str, reason: &str) -> NotUnderstood {
    NotUnderstood {
        kind: NameKind::ParameterValue,
        name: name.into(),
        did_you_mean: None,
        value: Some(value),
        expected: Some(expected.into()),
        reason: Some(reason.into()),
    }
}

/// Issue 38, part 3: a value the parameter it binds cannot take (its declared type, after the
/// binding's template; its bounds) is refused as a strict gateway refuses it: status
/// `not_understood`, no step, an entry naming the parameter, the value and the type expected,
/// its message leading the warnings. Never a plan that quietly leaves the value out.
#[test]
fn a_value_of_the_wrong_type_is_refused_naming_parameter_value_and_type() {
    let g = shipped();
    let opts = Options::default();
    let plan = route_checked(
        g,
        &u(
            json!({"intent": "literature_search", "domain_concepts": ["title"],
                  "parameters": {"max_results": "lots", "search_text": "perovskite"}}),
        ),
        &opts,
    );
    assert_eq!(plan.status, PlanStatus::NotUnderstood);
    assert!(plan.steps.is_empty(), "{:?}", plan.steps);
    let want = refused(
        "max_results",
        json!("lots"),
        "integer",
        "`lots` is not an integer for `per-page` of openalex/works",
    );
    assert_eq!(plan.not_understood, std::slice::from_ref(&want));
    assert_eq!(
        plan.warnings[0],
        "invalid value `lots` for parameter `max_results`: expected integer (`lots` is not an integer for `per-page` of openalex/works)"
    );
    assert_eq!(want.message(), plan.warnings[0]);

    // A text that reads as the declared type is typed, and planned.
    let plan = route_checked(
        g,
        &u(
            json!({"intent": "literature_search", "domain_concepts": ["title"],
                  "parameters": {"max_results": "20", "search_text": "perovskite"}}),
        ),
        &opts,
    );
    assert_eq!(plan.status, PlanStatus::Planned, "{:?}", plan.warnings);
    assert_eq!(plan.steps[0].params["per-page"], json!(20));

    // Out of the declared bounds, on the tool named.
    let plan = route_checked(
        g,
        &u(
            json!({"intent": "literature_search", "domain_concepts": ["title"],
                  "parameters": {"max_results": 500}, "target_apis": ["openalex"]}),
        ),
        &opts,
    );
    assert_eq!(plan.status, PlanStatus::NotUnderstood);
    assert!(plan.steps.is_empty());
    assert_eq!(
        plan.not_understood,
        [refused(
            "max_results",
            json!(500),
            "integer",
            "`per-page`: 500 is more than its maximum 200 of openalex/works"
        )]
    );

    // One item of a list that does not fit refuses the list (no step per value is planned
    // for the others).
    let plan = route_checked(
        g,
        &u(
            json!({"domain_concepts": ["title"], "target_apis": ["crossref"],
                  "parameters": {"max_results": [10, 2.5]}}),
        ),
        &opts,
    );
    assert_eq!(plan.status, PlanStatus::NotUnderstood);
    assert!(plan.steps.is_empty());
    assert_eq!(
        plan.not_understood,
        [refused(
            "max_results",
            json!([10, 2.5]),
            "integer",
            "`2.5` is not an integer for `rows` of crossref/works"
        )]
    );
}

/// A question no intent covers is planned from the ranked endpoints after Algorithm 1: the
/// steps planned there hold given values to the declared types too, and nothing is ranked in
/// place of a refused request.
#[test]
fn a_value_of_the_wrong_type_is_refused_on_the_ranked_path_too() {
    let g = shipped();
    let opts = Options::default();
    let q = "perovskite titles";
    let given = |v: serde_json::Value| {
        u(json!({"intent": null, "domain_concepts": ["title"],
                 "parameters": {"max_results": v, "search_text": "perovskite"}}))
    };
    let ok = schemarouter::route::route_question(g, q, &given(json!(5)), &opts);
    assert!(!ok.steps.is_empty(), "{ok:?}");
    assert!(ok.not_understood.is_empty(), "{:?}", ok.not_understood);
    let plan = schemarouter::route::route_question(g, q, &given(json!("lots")), &opts);
    assert_eq!(plan.status, PlanStatus::NotUnderstood);
    assert!(plan.steps.is_empty(), "{:?}", plan.steps);
    assert_eq!(plan.not_understood.len(), 1);
    let n = &plan.not_understood[0];
    assert_eq!(
        (
            n.kind,
            n.name.as_str(),
            n.value.as_ref(),
            n.expected.as_deref()
        ),
        (
            NameKind::ParameterValue,
            "max_results",
            Some(&json!("lots")),
            Some("integer")
        )
    );
}

/// Issue 38 (leftovers), part 3: a value is judged by the type of the parameter concept it
/// binds in the Understanding, not only by the parameter it lands in. `year_from` of `banana`
/// became `from_publication_date:banana-01-01`, a text the `string` parameter `filter` takes,
/// and was planned; a year is four digits (`year_from`, `year_to`; a concept a `kind: year`
/// recogniser feeds, `fiscal_year`), a concept whose recognisers read `value: integer` takes
/// whole numbers (`cid`, which lands in PubChem's `string` parameter `identifier`).
#[test]
fn a_value_is_held_to_the_type_of_the_parameter_concept_it_binds() {
    let g = shipped();
    let opts = Options::default();
    let lit = |params: serde_json::Value| {
        route_checked(
            g,
            &u(
                json!({"intent": "literature_search", "domain_concepts": ["title"], "parameters": params}),
            ),
            &opts,
        )
    };
    let plan = lit(json!({"year_from": "banana", "search_text": "perovskite"}));
    assert_eq!(plan.status, PlanStatus::NotUnderstood);
    assert!(plan.steps.is_empty(), "{:?}", plan.steps);
    let want = refused(
        "year_from",
        json!("banana"),
        "year",
        "`banana` is not a four-digit year, which the parameter concept `year_from` takes",
    );
    assert_eq!(plan.not_understood, std::slice::from_ref(&want));
    assert_eq!(
        plan.warnings[0],
        "invalid value `banana` for parameter `year_from`: expected year (`banana` is not a four-digit year, which the parameter concept `year_from` takes)"
    );

    // A year, as a number or as a text, is planned through the template.
    for year in [json!(2020), json!("2020")] {
        let plan = lit(json!({"year_from": year, "search_text": "perovskite"}));
        assert_eq!(plan.status, PlanStatus::Planned, "{:?}", plan.warnings);
        assert_eq!(
            (plan.steps[0].tool.as_str(), &plan.steps[0].params["filter"]),
            ("openalex", &json!("from_publication_date:2020-01-01"))
        );
    }

    // One item of a list that is no year refuses the list; so does a year of three digits or
    // a fraction.
    for (name, value, bad) in [
        ("year_to", json!([2020, 123]), "123"),
        ("year_to", json!(2020.5), "2020.5"),
        ("year_from", json!(true), "true"),
    ] {
        let plan = lit(json!({name: value.clone()}));
        assert_eq!(
            (plan.status, plan.steps.len(), plan.not_understood.clone()),
            (
                PlanStatus::NotUnderstood,
                0,
                vec![refused(
                    name,
                    value,
                    "year",
                    &format!(
                        "`{bad}` is not a four-digit year, which the parameter concept `{name}` takes"
                    )
                )]
            )
        );
    }

    // Declared by the project's recognisers: `fiscal_year` (kind `year`), `cid` (`value:
    // integer`); and the ranked path holds values to them too.
    let plan = route_checked(
        g,
        &u(json!({"intent": null, "domain_concepts": ["revenue"],
                  "parameters": {"corp_code": "00126380", "fiscal_year": "FY2021"}})),
        &opts,
    );
    assert_eq!(
        (plan.status, plan.steps.len(), plan.not_understood),
        (
            PlanStatus::NotUnderstood,
            0,
            vec![refused(
                "fiscal_year",
                json!("FY2021"),
                "year",
                "`FY2021` is not a four-digit year, which the parameter concept `fiscal_year` takes"
            )]
        )
    );
    let cid = |v: serde_json::Value| {
        u(
            json!({"intent": null, "domain_concepts": ["molecular_weight"], "parameters": {"cid": v}}),
        )
    };
    let plan = route_checked(g, &cid(json!("aspirin")), &opts);
    assert_eq!(
        (plan.status, plan.steps.len(), plan.not_understood),
        (
            PlanStatus::NotUnderstood,
            0,
            vec![refused(
                "cid",
                json!("aspirin"),
                "integer",
                "`aspirin` is not a whole number, which the parameter concept `cid` takes"
            )]
        )
    );
    let q = "molecular weight of aspirin";
    let plan = schemarouter::route::route_question(g, q, &cid(json!(2244)), &opts);
    assert_eq!(plan.status, PlanStatus::Planned, "{:?}", plan.warnings);
    assert_eq!(
        (
            plan.steps[0].tool.as_str(),
            &plan.steps[0].params["identifier"]
        ),
        ("pubchem", &json!("2244"))
    );
    let plan = schemarouter::route::route_question(g, q, &cid(json!("aspirin")), &opts);
    assert_eq!(
        (plan.status, plan.steps.len(), plan.not_understood.len()),
        (PlanStatus::NotUnderstood, 0, 1)
    );
}
