//! Offset temperature scales end to end (issue 38, item 6): `°C`, `degF` and friends load in
//! YAML and TOML, convert with their offset in the projection, the reader context and range
//! binding; and every help line of the unit rules, followed, gives a project that loads.

use schemarouter::artifact::{self, FrozenGraph};
use schemarouter::diagnostics::Diagnostic;
use schemarouter::extract;
use schemarouter::lint::{Checked, check_loaded, check_path};
use schemarouter::load::load_sources;
use schemarouter::route::analyzer::Analyzer;
use schemarouter::route::analyzer::lexical::Lexical;
use schemarouter::route::{Options, Plan, route};
use serde_json::json;
use std::path::Path;
use std::sync::OnceLock;

const FIXTURE: &str = "tests/fixtures/temperature";

fn graph() -> &'static FrozenGraph {
    static G: OnceLock<FrozenGraph> = OnceLock::new();
    G.get_or_init(|| {
        let c = check_path(Path::new(FIXTURE)).unwrap();
        assert!(!c.has_errors(), "{:?}", c.diagnostics);
        artifact::build::compile(&c.project, &c.index, &c.units)
    })
}

fn plan(q: &str) -> Plan {
    let g = graph();
    let a = Lexical::new(g).understand(q).unwrap();
    route(g, &a.understanding, &Options::default())
}

fn params(p: &Plan) -> (String, serde_json::Value) {
    (
        p.steps[0].tool.clone(),
        serde_json::to_value(&p.steps[0].params).unwrap(),
    )
}

/// The fixture (a YAML tool in °C and degC, a TOML tool in degF, concepts in K and by dimension)
/// loads with no error or warning; the conversions are named as infos with their offsets.
#[test]
fn offset_scales_load_in_yaml_and_toml() {
    let c = check_path(Path::new(FIXTURE)).unwrap();
    let got: Vec<(&str, &str)> = c
        .diagnostics
        .iter()
        .map(|d| (d.code, d.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "SR303",
                "field `melting_point` of chemdb is in °C, concept `melting_point` is in K: x °C = x +273.15 K"
            ),
            (
                "SR303",
                "field `melting_point` of fdb is in °F, concept `melting_point` is in K: x °F = x ×0.555555555555556 +255.3722222222 K"
            ),
        ]
    );
}

/// Range bounds are converted with the offset: kelvin and Fahrenheit bounds against a °C
/// parameter, kelvin against a °F one; the degree sign is read glued, spaced and as ℃.
#[test]
fn range_bounds_convert_with_the_offset() {
    let cases = [
        (
            "compounds with a melting point between 300 and 400 K",
            "chemdb",
            json!({"melting_point_min": 26.85, "melting_point_max": 126.85}),
        ),
        (
            "melting point above 212 °F",
            "chemdb",
            json!({"melting_point_min": 100}),
        ),
        (
            "melting point of at least 50 ℃",
            "chemdb",
            json!({"melting_point_min": 50}),
        ),
        (
            "melting point between 20 and 30 °C",
            "chemdb",
            json!({"melting_point_min": 20, "melting_point_max": 30}),
        ),
        (
            "melting point 20-30°C",
            "chemdb",
            json!({"melting_point_min": 20, "melting_point_max": 30}),
        ),
        (
            "melting point below 100°C",
            "chemdb",
            json!({"melting_point_max": 100}),
        ),
        (
            "fahrenheit db melting point above 300 K",
            "fdb",
            json!({"min_melting_point": 80.33}),
        ),
    ];
    for (q, tool, want) in cases {
        assert_eq!(params(&plan(q)), (tool.to_string(), want), "{q}");
    }
}

/// The plan's field metadata carries factor and offset; the explanation and the reader
/// context state them, and extract converts each value as an absolute temperature.
#[test]
fn projection_and_reader_context_convert_with_the_offset() {
    let p = plan("melting point of compounds from Chem DB");
    let f = p.steps[0]
        .fields
        .iter()
        .find(|f| f.name == "melting_point")
        .unwrap();
    let m = f.meta.as_ref().unwrap();
    assert_eq!(
        (
            m.unit.as_deref(),
            m.factor_to_canonical,
            m.offset_to_canonical,
            m.canonical_unit.as_deref()
        ),
        (Some("°C"), Some(1.0), Some(273.15), Some("K"))
    );
    let text = schemarouter::route::explain::explain(&p);
    assert!(
        text.contains("melting_point  <- concept melting_point (exact)  [°C, +273.15 -> K,"),
        "{text}"
    );
    let response = extract::parse_response(
        r#"[{"id": "a", "melting_point": 25}, {"id": "b", "melting_point": -273.15}]"#,
        None,
    )
    .unwrap();
    let x = extract::extract(graph(), &p, &[response]).unwrap();
    let info = x.steps[0]
        .fields
        .iter()
        .find(|f| f.name == "melting_point")
        .unwrap();
    assert_eq!(
        (info.factor_to_canonical, info.offset_to_canonical),
        (Some(1.0), Some(273.15))
    );
    assert!(
        x.context.contains("melting_point = 25 °C = 298.15 K\n"),
        "{}",
        x.context
    );
    assert!(
        x.context.contains("melting_point = -273.15 °C = 0.0 K\n"),
        "{}",
        x.context
    );
    // The Fahrenheit tool: 32 °F is 273.15 K.
    let p = plan("melting point from Fahrenheit DB");
    assert_eq!(p.steps[0].tool, "fdb");
    let response =
        extract::parse_response(r#"[{"name": "ice", "melting_point": 32}]"#, None).unwrap();
    let x = extract::extract(graph(), &p, &[response]).unwrap();
    assert!(
        x.context.contains("melting_point = 32 °F = 273.15 K\n"),
        "{}",
        x.context
    );
}

// ---------------------------------------------------------------------------------------------
// Every help line of the unit rules, followed, loads.

/// How a help line is followed.
#[derive(Clone, Copy, Debug)]
enum Follow {
    /// Replace the finding's primary span with the help's first `code` text ("did you mean
    /// `eV`?", "write `kJ/(mol·atom)` ...").
    Replace,
    /// "add `unit: X`": a `unit` key after the line of the primary span, indented as that
    /// line's key (YAML block mappings and TOML tables).
    AddUnit,
}

/// The first text between backticks of `help`.
fn first_code(help: &str) -> &str {
    help.split('`')
        .nth(1)
        .expect("help names a text in backticks")
}

fn follow(c: &Checked, d: &Diagnostic, how: Follow, files: &mut [(String, String)]) {
    let label = d.primary.as_ref().unwrap();
    let source = c.project.sources.get(label.file);
    let (_, text) = files
        .iter_mut()
        .find(|(name, _)| *name == source.name)
        .unwrap();
    let (start, end) = (label.span.start as usize, label.span.end as usize);
    let help = d.help.as_deref().unwrap();
    match how {
        Follow::Replace => {
            // A span over a whole quoted TOML string keeps its quotes.
            let quoted = text[start..end].starts_with('"') && text[start..end].ends_with('"');
            let new = if quoted {
                format!("\"{}\"", first_code(help))
            } else {
                first_code(help).to_string()
            };
            text.replace_range(start..end, &new)
        }
        Follow::AddUnit => {
            let code = first_code(help);
            let unit = code.strip_prefix("unit: ").expect("add `unit: X`");
            let line_start = text[..start].rfind('\n').map_or(0, |k| k + 1);
            let line_end = text[start..].find('\n').map_or(text.len(), |k| start + k);
            let line = &text[line_start..line_end];
            let key_at = line.find(|ch: char| ch.is_alphanumeric()).unwrap();
            let indent = " ".repeat(key_at);
            let new = if source.name.ends_with(".toml") {
                format!("\n{indent}unit = \"{unit}\"")
            } else {
                format!("\n{indent}unit: {unit}")
            };
            text.insert_str(line_end, &new);
        }
    }
}

fn check(files: &[(String, String)]) -> Checked {
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    check_loaded(load_sources(None, &refs))
}

const TOOL_YAML: &str = "id: t
title: T
domain: chemistry
endpoints:
  - id: e
    method: GET
    url: https://t.example/e
    fields:
      - name: id
        type: string
        identifier: true
      - name: value
        type: number
        FIELD
        groups: [g]
        concepts: [c]
";

const TOOL_TOML: &str = "id = \"t\"
title = \"T\"
domain = \"chemistry\"

[[endpoints]]
id = \"e\"
method = \"GET\"
url = \"https://t.example/e\"

[[endpoints.fields]]
name = \"id\"
type = \"string\"
identifier = true

[[endpoints.fields]]
name = \"value\"
type = \"number\"
FIELD
groups = [\"g\"]
concepts = [\"c\"]
";

const INTENTS: &str = "domains:
  - id: chemistry
groups:
  - id: g
intents:
  - id: i
    description: Values.
    domains: [chemistry]
    required_groups: [g]
";

/// A project: the concept `c` declared with `concept` (YAML lines), the tool's field `value`
/// with `field` (a line in the tool's format; empty for none).
fn project(concept: &str, field: &str, toml: bool) -> Vec<(String, String)> {
    let (name, tool) = if toml {
        ("schemas/t.toml", TOOL_TOML)
    } else {
        ("schemas/t.yaml", TOOL_YAML)
    };
    let tool = if field.is_empty() {
        tool.lines()
            .filter(|l| l.trim() != "FIELD")
            .map(|l| format!("{l}\n"))
            .collect()
    } else {
        tool.replace("FIELD", field)
    };
    vec![
        (
            "aliases/a.yaml".to_string(),
            format!("concepts:\n  - id: c\n{concept}"),
        ),
        ("intents/registry.yaml".to_string(), INTENTS.to_string()),
        (name.to_string(), tool),
    ]
}

#[test]
fn every_unit_help_followed_loads() {
    // (rule, concept lines, field line in YAML, field line in TOML, how the help is followed)
    let cases: &[(&str, &str, &str, &str, Follow)] = &[
        // An offset scale misspelled, in a field and in a concept.
        (
            "SR301",
            "    unit: K\n",
            "unit: degc",
            "unit = \"degc\"",
            Follow::Replace,
        ),
        (
            "SR301",
            "    unit: celsuis\n",
            "unit: °C",
            "unit = \"°C\"",
            Follow::Replace,
        ),
        (
            "SR301",
            "    unit: eV\n",
            "unit: ev",
            "unit = \"ev\"",
            Follow::Replace,
        ),
        (
            "SR301",
            "    unit: K\n",
            "unit: Farenheit",
            "unit = \"Farenheit\"",
            Follow::Replace,
        ),
        (
            "SR301",
            "    dimension: temprature\n",
            "unit: °F",
            "unit = \"°F\"",
            Follow::Replace,
        ),
        (
            "SR301",
            "    unit: K\n",
            "unit_as_published: degreeC\n        unit: °C",
            "unit_as_published = \"degreeC\"\nunit = \"°C\"",
            Follow::Replace,
        ),
        // No unit on a field of a dimensional concept: by dimension, by an offset unit, by an
        // SI unit.
        (
            "SR304",
            "    dimension: temperature\n",
            "",
            "",
            Follow::AddUnit,
        ),
        ("SR304", "    unit: °C\n", "", "", Follow::AddUnit),
        ("SR304", "    unit: degF\n", "", "", Follow::AddUnit),
        (
            "SR304",
            "    dimension: energy_per_atom\n",
            "",
            "",
            Follow::AddUnit,
        ),
        ("SR304", "    unit: GPa\n", "", "", Follow::AddUnit),
        // A published unit with no declared one.
        (
            "SR306",
            "    unit: K\n",
            "unit_as_published: degrees Celsius",
            "unit_as_published = \"degrees Celsius\"",
            Follow::AddUnit,
        ),
        (
            "SR306",
            "    unit: K\n",
            "unit_as_published: kelvin",
            "unit_as_published = \"kelvin\"",
            Follow::AddUnit,
        ),
        // Per mole without a basis.
        (
            "SR307",
            "    unit: kJ/mol\n",
            "unit: kJ/mol",
            "unit = \"kJ/mol\"",
            Follow::Replace,
        ),
        (
            "SR307",
            "    dimension: molar_energy\n",
            "unit: kJ/(mol·atom)",
            "unit = \"kJ/(mol·atom)\"",
            Follow::Replace,
        ),
    ];
    for &(rule, concept, yaml, toml, how) in cases {
        for is_toml in [false, true] {
            let field = if is_toml { toml } else { yaml };
            let mut files = project(concept, field, is_toml);
            let before = check(&files);
            let found: Vec<&Diagnostic> = before
                .diagnostics
                .iter()
                .filter(|d| d.code == rule)
                .collect();
            assert!(
                !found.is_empty(),
                "{rule} {concept:?} {field:?}: no finding; got {:?}",
                before.diagnostics
            );
            // Follow every finding of the rule, last first (spans stay valid).
            let mut found = found;
            found.sort_by_key(|d| std::cmp::Reverse(d.primary.as_ref().unwrap().span.start));
            for d in found {
                follow(&before, d, how, &mut files);
            }
            let after = check(&files);
            let left: Vec<(&str, &str)> = after
                .diagnostics
                .iter()
                .filter(|d| {
                    d.code == rule || d.severity == schemarouter::diagnostics::Severity::Error
                })
                .map(|d| (d.code, d.message.as_str()))
                .collect();
            assert!(
                left.is_empty(),
                "{rule} {concept:?} {field:?} (toml: {is_toml}): after following the help:\n{}\nstill: {left:?}",
                files.last().unwrap().1
            );
        }
    }
}
