//! Parameters bound by the shape of a value on an imported catalog nobody annotated: a street
//! address whole (its house number no `zipCode`), a team code by its description's examples, a
//! date in words in the form the description shows, and a required `format` enum's JSON form.
//! The catalog: `any-catalog/homes-and-games.yaml` and the transit and jokes documents beside the code-host, weather and petstore
//! documents (so that the "no tool" decision sees a catalog of some size).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_schemarouter"))
}

/// The imported and compiled project, made once for every test of this file.
fn artifact() -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let proj = dir.path().join("proj");
        for src in [
            "any-catalog/homes-and-games.yaml",
            "any-catalog/code-host.yaml",
            "any-catalog/weather.yaml",
            "import/petstore-3.0.yaml",
            "any-catalog/outbreaks.yaml",
            "any-catalog/checks-and-words.yaml",
            "any-catalog/transit.yaml",
            "any-catalog/jokes.yaml",
        ] {
            let o = bin()
                .args(["import", "openapi"])
                .arg(
                    Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("tests/fixtures")
                        .join(src),
                )
                .arg("--project")
                .arg(&proj)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        let o = bin().arg("compile").arg(&proj).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        dir
    });
    dir.path().join("proj/build/graph.json")
}

/// `route QUESTION --json`: the plan.
fn plan(q: &str) -> Value {
    let o = bin()
        .arg("route")
        .arg("--artifact")
        .arg(artifact())
        .arg("--json")
        .arg("--")
        .arg(q)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["plan"].clone()
}

/// `route QUESTION`: the plan's status, its steps' (endpoint, params), and its warnings.
fn route(q: &str) -> (String, Vec<(String, Value)>, Vec<String>) {
    let plan = &plan(q);
    let steps = plan["steps"]
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
    let warnings = plan["warnings"]
        .as_array()
        .map(|w| w.iter().map(|x| x.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    (
        plan["status"].as_str().unwrap().to_string(),
        steps,
        warnings,
    )
}

#[test]
fn values_are_bound_by_their_shape() {
    for (q, endpoint, params) in [
        (
            "what is the rent estimate for 12 oak street, denver, co 80203",
            "get_rent_estimate",
            serde_json::json!({"address": "12 oak street, denver, co 80203"}),
        ),
        (
            "rental listings in denver with 4 bedrooms",
            "search_listings",
            serde_json::json!({"bedrooms": 4, "city": "denver"}),
        ),
        (
            "who is on the BKN roster",
            "get_players_by_team",
            serde_json::json!({"format": "JSON", "team": "BKN"}),
        ),
        (
            "final scores of the games on december 25, 2023",
            "get_scores_by_date",
            serde_json::json!({"date": "2023-DEC-25", "format": "JSON"}),
        ),
    ] {
        let (status, steps, _) = route(q);
        assert_eq!(status, "planned", "{q}");
        assert_eq!(steps, [(endpoint.to_string(), params)], "{q}");
    }
}

/// A value of a kind no parameter's name says goes where the parameter's description names its
/// kind ("Specifies the email address to validate" for `query`); a telephone number is one
/// value, in its E.164 form; currencies named in words become their ISO 4217 codes, each at its
/// end ("from euros to Japanese yen").
#[test]
fn values_go_where_descriptions_name_their_kind() {
    for (q, endpoint, params) in [
        (
            "Is the email address jane.doe@example.com deliverable?",
            "email_validation",
            serde_json::json!({"query": "jane.doe@example.com"}),
        ),
        (
            "Is +44 20 7946 0958 a valid phone number, and which carrier is it on?",
            "phone_number_validation",
            serde_json::json!({"query": "+442079460958"}),
        ),
        (
            "What is the exchange rate from euros to Japanese yen?",
            "get_pair_rate",
            serde_json::json!({"base_code": "EUR", "target_code": "JPY"}),
        ),
        (
            "exchange rate of Swiss francs into pounds sterling",
            "get_pair_rate",
            serde_json::json!({"base_code": "CHF", "target_code": "GBP"}),
        ),
    ] {
        let (_, steps, _) = route(q);
        assert_eq!(steps, [(endpoint.to_string(), params)], "{q}");
    }
}

/// A question that names currencies is about currencies, though it writes no word the catalog
/// indexes ("How much is 250 euros in yen?"): it reaches the exchange-rate endpoint, not the unit
/// converter its verb shares, codes written beside an amount ("100 USD") included; one that names
/// two units of one dimension is about units ("5 pounds to kilograms"), spelled as the
/// parameter's examples spell them (`lb`, `kg`). An amount the pair endpoint does not take leaves
/// the plan `partial`.
#[test]
fn named_currencies_and_units_say_what_a_question_is_about() {
    for (q, status, endpoint, params) in [
        (
            "How much is 250 euros in yen?",
            "planned",
            "get_pair_rate",
            serde_json::json!({"base_code": "EUR", "target_code": "JPY"}),
        ),
        (
            "What's 40 quid in Swedish crowns?",
            "planned",
            "get_pair_rate",
            serde_json::json!({"base_code": "GBP", "target_code": "SEK"}),
        ),
        (
            "Convert 250 euros to Japanese yen",
            "partial",
            "get_pair_rate",
            serde_json::json!({"base_code": "EUR", "target_code": "JPY"}),
        ),
        (
            "Convert 100 USD to EUR",
            "partial",
            "get_pair_rate",
            serde_json::json!({"base_code": "USD", "target_code": "EUR"}),
        ),
        (
            "Convert 5 pounds to kilograms",
            "planned",
            "convert_units",
            serde_json::json!({"value": 5, "from": "lb", "to": "kg"}),
        ),
    ] {
        let (got, steps, _) = route(q);
        assert_eq!(got, status, "{q}");
        assert_eq!(steps, [(endpoint.to_string(), params)], "{q}");
    }
}

/// An endpoint that names things (`/books`, `listBooks`) does not do the action of the verb they
/// share a stem with: "Book me a flight" gets no plan from a book search, which "find books"
/// still reaches.
#[test]
fn a_plural_noun_is_not_the_action_of_its_verb() {
    let (status, steps, _) = route("Book me a flight to Tokyo");
    assert_eq!((status.as_str(), steps.len()), ("no_suitable_tool", 0));
    let (status, steps, _) = route("Find books by Ursula Le Guin");
    assert_eq!(status, "planned");
    assert_eq!(steps[0].0, "list_books");
    // A noun made from the verb names what the action gives: `translations` translate.
    let (status, steps, _) = route("Translate 'hello' into French");
    assert_ne!(status, "no_suitable_tool");
    assert_eq!(steps[0].0, "get_translations");
}

/// A request made with a verb whose noun the catalog uses ("Define" for `definitions`,
/// "pronounce" for `pronunciations`) reaches the endpoint that returns that noun.
#[test]
fn a_verb_finds_the_field_named_by_its_noun() {
    for q in [
        "Define the word serendipity",
        "How do you pronounce quinoa?",
    ] {
        let (status, steps, _) = route(q);
        assert_eq!(status, "planned", "{q}");
        assert_eq!(steps.len(), 1, "{q}");
        assert_eq!(steps[0].0, "get_entry", "{q}");
    }
}

#[test]
fn a_required_enum_left_open_takes_its_json_form_and_says_so() {
    let (_, _, warnings) = route("who is on the BKN roster");
    assert_eq!(
        warnings,
        [
            "`get_players_by_team/format`: required parameter `format` not given by the request; set to \"JSON\", the JSON form it offers"
        ]
    );
}

/// A document that names no server: its `{base_url}` placeholder is the deployment's (the
/// gateway's `base_url`), never a parameter the question misses; and a deepObject filter
/// (`reported[gte]=...`) takes no plain date, which the gateway would refuse: the plan is
/// `partial`, saying a value of the question stayed unbound.
#[test]
fn the_server_placeholder_and_object_filters_are_not_the_question_s() {
    let (status, steps, _) = route("confirmed cases in chile reported on 2021-02-03");
    assert_eq!(
        (status.as_str(), steps),
        (
            "partial",
            vec![(
                "get_country_cases".to_string(),
                serde_json::json!({"country": "chile"})
            )]
        )
    );
}

/// A string parameter declared `format: string` (as the jokes API writes every one) is free
/// text: a search takes the question's topic, also when the question names the tool; an
/// endpoint keyed by an id the question does not give is not the one meant. Numbers go to the bound of the range their words
/// say, whichever order the question writes them in.
#[test]
fn topics_go_to_free_text_and_numbers_to_their_bound() {
    for (q, endpoint, params) in [
        (
            "Search for a joke about cats",
            "search_jokes",
            serde_json::json!({"query": "cats"}),
        ),
        // The tool named: the search Algorithm 1 chose takes the topic too.
        (
            "Find jokes about cats",
            "search_jokes",
            serde_json::json!({"query": "cats"}),
        ),
        // A key the document leaves optional but the description names ("with a given `id`")
        // is the one the endpoint needs: with no id given, the search answers.
        (
            "jokes about cats",
            "search_jokes",
            serde_json::json!({"query": "cats"}),
        ),
        (
            "Get joke 4f3a",
            "get_joke",
            serde_json::json!({"id": "4f3a"}),
        ),
        (
            "What is the fare from zone 1 to zone 2?",
            "fare_estimate_get_fare_estimate_by_zone",
            serde_json::json!({"minZone": 1, "maxZone": 2}),
        ),
        (
            "fare to zone 3 from zone 1",
            "fare_estimate_get_fare_estimate_by_zone",
            serde_json::json!({"minZone": 1, "maxZone": 3}),
        ),
        (
            "How much is a ticket between zone 1 and zone 2?",
            "fare_estimate_get_fare_estimate_by_zone",
            serde_json::json!({"minZone": 1, "maxZone": 2}),
        ),
    ] {
        let (_, steps, _) = route(q);
        assert_eq!(steps, [(endpoint.to_string(), params)], "{q}");
    }
}

/// The words that label a value ("stop 1071", "route type 0") say which record, not which
/// field: the departures the question asks for are projected, not the stops and routes.
#[test]
fn the_label_of_a_value_names_no_field() {
    let plan = plan("Departures from stop 1071 on route type 0");
    let step = &plan["steps"][0];
    assert_eq!(step["endpoint"], "departures_get_for_stop");
    assert_eq!(
        step["params"],
        serde_json::json!({"route_type": 0, "stop_id": 1071})
    );
    let fields: Vec<&str> = step["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert!(
        fields.iter().all(|f| f.starts_with("departures[].")),
        "{fields:?}"
    );
}
