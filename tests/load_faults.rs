//! Fault kinds of issue 38 in load and lint, each over several shapes: keys set over a YAML
//! merge, unquoted YAML 1.1 booleans in string fields, number-like text values of text-typed
//! parameters, ids that differ only by a separator, the byte budget on YAML alias expansion (in
//! `check` and in `import`), and long enumerations.

use schemarouter::diagnostics::Diagnostic;
use schemarouter::lint::check_path;
use schemarouter::model::value::Scalar;

const INTENTS: &str = "domains:\n  - id: materials_property\ngroups:\n  - id: electronic\nintents:\n  - id: electronic_property\n    description: Band gaps.\n    domains: [materials_property]\n    required_groups: [electronic]\n";
const ALIASES: &str = "concepts:\n  - id: fermi_energy\n    unit: eV\n";

/// A tool file around the given endpoint parameters (YAML list items, indented six spaces).
fn tool(id: &str, parameters: &str) -> String {
    let parameters = match parameters {
        "" => "      []\n",
        p => p,
    };
    format!(
        "id: {id}\ntitle: T\ndomain: materials_property\nsource_type: calculated\nprovenance: {{publisher: P, citation: \"10.1000/x\"}}\nlicence: {{spdx: CC0-1.0}}\nendpoints:\n  - id: e\n    method: GET\n    url: https://t.example/e\n    parameters:\n{parameters}    fields:\n      - {{name: id, type: string, identifier: true}}\n      - {{name: efermi, type: number, unit: eV, groups: [electronic], concepts: [fermi_energy]}}\n"
    )
}

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        ("intents/base.yaml", INTENTS),
        ("aliases/base.yaml", ALIASES),
    ];
    for (name, text) in base.iter().chain(files) {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// `file:line:col code` of every finding with the given code, and its related places
/// (`file:line:col`).
fn findings(code: &str, files: &[(&str, &str)]) -> Vec<(String, Vec<String>)> {
    let dir = project(files);
    let c = check_path(dir.path()).unwrap();
    let at = |d: &Diagnostic| {
        let mut out = Vec::new();
        for l in &d.secondary {
            let f = c.project.sources.get(l.file);
            let (line, col) = f.line_col(l.span.start as usize);
            out.push(format!("{}:{line}:{col}", f.name));
        }
        out
    };
    c.diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| {
            let p = d.primary.as_ref().map(|l| {
                let f = c.project.sources.get(l.file);
                let (line, col) = f.line_col(l.span.start as usize);
                format!("{}:{line}:{col}", f.name)
            });
            (format!("{} {}", p.unwrap_or_default(), d.code), at(d))
        })
        .collect()
}

#[test]
fn a_key_set_over_a_merged_value_is_reported_with_both_places() {
    // A tool file: a parameter template merged, `type` overridden after the `<<`.
    let params =
        "      - &p\n        name: q\n        type: string\n      - <<: *p\n        name: r\n";
    assert_eq!(
        findings("SR015", &[("schemas/t.yaml", &tool("t", params))]),
        [(
            "schemas/t.yaml:16:9 SR015".to_string(),
            vec!["schemas/t.yaml:13:9".to_string()]
        )]
    );
    // An alias file: a key written before the `<<`, and a merge list (the earlier mapping
    // gives `unit`; the override names where that mapping writes it).
    let aliases = "concepts:\n  - &a {id: band_gap, unit: eV}\n  - &b {id: gap_b, unit: meV}\n  - id: gap_c\n    <<: [*a, *b]\n";
    let got = findings("SR015", &[("aliases/x.yaml", aliases)]);
    assert_eq!(
        got,
        [(
            "aliases/x.yaml:4:5 SR015".to_string(),
            vec!["aliases/x.yaml:2:9".to_string()]
        )]
    );
    // A chain: an anchored mapping that merges another; the override points at the first.
    let aliases = "concepts:\n  - &a {id: band_gap, unit: eV}\n  - &b\n    <<: *a\n    id: gap_b\n  - <<: *b\n    id: gap_c\n";
    let got = findings("SR015", &[("aliases/x.yaml", aliases)]);
    assert_eq!(
        got,
        [
            (
                "aliases/x.yaml:5:5 SR015".to_string(),
                vec!["aliases/x.yaml:2:9".to_string()]
            ),
            (
                "aliases/x.yaml:7:5 SR015".to_string(),
                vec!["aliases/x.yaml:5:5".to_string()]
            ),
        ]
    );
    // A merge that adds keys only, and a level set in [lint.rules], give no finding.
    let aliases =
        "concepts:\n  - &a {id: band_gap, unit: eV}\n  - <<: {unit: meV}\n    id: gap_b\n";
    assert_eq!(findings("SR015", &[("aliases/x.yaml", aliases)]), []);
    let aliases = "concepts:\n  - &a {id: band_gap, unit: eV}\n  - <<: *a\n    id: gap_b\n";
    assert_eq!(
        findings(
            "SR015",
            &[
                ("aliases/x.yaml", aliases),
                (
                    "schemarouter.toml",
                    "[lint.rules]\nmerge-override = \"off\"\n"
                ),
            ]
        ),
        []
    );
}

#[test]
fn unquoted_yaml11_booleans_in_string_fields_are_warned_about() {
    // A title, a description, a parameter's default and enum values, in several cases; quoted
    // spellings and other words are not.
    let params = "      - name: country\n        type: string\n        description: Off\n        default: NO\n        enum: [NO, 'no', \"Y\", n, Norway, yes]\n";
    let text = tool("t", params).replace("title: T", "title: On");
    let got: Vec<String> = findings("SR016", &[("schemas/t.yaml", &text)])
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    assert_eq!(
        got,
        [
            "schemas/t.yaml:2:8 SR016",
            "schemas/t.yaml:14:22 SR016",
            "schemas/t.yaml:15:18 SR016",
            "schemas/t.yaml:16:16 SR016",
            "schemas/t.yaml:16:31 SR016",
            "schemas/t.yaml:16:42 SR016",
        ]
    );
    // An alias file's text, and the same value in TOML (always quoted there): only YAML's.
    let aliases = "aliases:\n  - text: y\n    concept: fermi_energy\n";
    let got = findings("SR016", &[("aliases/x.yaml", aliases)]);
    assert_eq!(got[0].0, "aliases/x.yaml:2:11 SR016");
    let toml = "[[aliases]]\ntext = \"y\"\nconcept = \"fermi_energy\"\n";
    assert_eq!(findings("SR016", &[("aliases/x.toml", toml)]), []);
}

#[test]
fn number_like_values_of_text_parameters_keep_the_text_written() {
    let params = "      - name: mode\n        type: string\n        default: 0755\n        enum: [0755, 0x1F, 1.10, 1e3, 7, 2.5, abc]\n      - name: dates\n        type: date[]\n        enum: [2024, 2024-01]\n      - name: count\n        type: integer\n        default: 0x1F\n";
    let dir = project(&[("schemas/t.yaml", &tool("t", params))]);
    let c = check_path(dir.path()).unwrap();
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    let e = &c.project.tools[0].item.endpoints[0];
    let text =
        |v: &[&str]| -> Vec<Scalar> { v.iter().map(|s| Scalar::String(s.to_string())).collect() };
    let mode = &e.parameters[0];
    assert_eq!(
        mode.default.as_ref().unwrap().value,
        Scalar::String("0755".into())
    );
    let values: Vec<Scalar> = mode
        .enum_values
        .iter()
        .flatten()
        .map(|v| v.value.clone())
        .collect();
    assert_eq!(
        values,
        text(&["0755", "0x1F", "1.10", "1e3", "7", "2.5", "abc"])
    );
    let dates: Vec<Scalar> = e.parameters[1]
        .enum_values
        .iter()
        .flatten()
        .map(|v| v.value.clone())
        .collect();
    assert_eq!(dates, text(&["2024", "2024-01"]));
    // A number-typed parameter keeps its number (and its spelling).
    assert_eq!(
        e.parameters[2].default.as_ref().unwrap().value,
        Scalar::Spelled(Box::new(Scalar::Integer(31)), "0x1F".into())
    );
}

#[test]
fn ids_that_differ_only_by_a_separator_collide() {
    // Two tools (`.` vs `_`), two endpoints of one tool (`.` vs `-`).
    let got = findings(
        "SR102",
        &[
            ("schemas/a.yaml", &tool("mp.summary", "")),
            ("schemas/b.yaml", &tool("mp_summary", "")),
        ],
    );
    let codes: Vec<&str> = got.iter().map(|(a, _)| a.as_str()).collect();
    assert!(codes.contains(&"schemas/b.yaml:1:5 SR102"), "{got:?}");
    let hit = got
        .iter()
        .find(|(a, _)| a == "schemas/b.yaml:1:5 SR102")
        .unwrap();
    assert_eq!(hit.1, ["schemas/a.yaml:1:5"]);
    let t = tool("t", "").replace(
        "    fields:",
        "    fields:\n      - {name: x, type: string}\n  - id: e.v2\n    method: GET\n    url: https://t.example/v2\n    fields: [{name: id, type: string, identifier: true}]\n  - id: e-v2\n    method: GET\n    url: https://t.example/v2b\n    fields:",
    );
    let got = findings("SR102", &[("schemas/t.yaml", &t)]);
    let hit: Vec<_> = got.iter().filter(|(a, _)| a.ends_with("SR102")).collect();
    assert_eq!(hit.len(), 1, "{got:?}");
    assert_eq!(hit[0].0, "schemas/t.yaml:19:9 SR102");
    assert_eq!(hit[0].1, ["schemas/t.yaml:15:9"]);
}

#[test]
fn alias_expansion_past_the_byte_budget_is_a_finding_naming_the_anchor() {
    // A 1,000-byte anchored description used five times, against a 4,000-byte budget.
    let big = "x".repeat(1_000);
    let params = format!(
        "      - name: q\n        type: string\n        description: &big {big}\n{}",
        (0..5)
            .map(|i| format!(
                "      - name: p{i}\n        type: string\n        description: *big\n"
            ))
            .collect::<String>()
    );
    let dir = project(&[
        ("schemas/t.yaml", &tool("t", &params)),
        ("schemarouter.toml", "[limits]\nmax-file-bytes = 4000\n"),
    ]);
    let c = check_path(dir.path()).unwrap();
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.code == "SR009")
        .expect("a limit finding");
    assert_eq!(
        d.message,
        "input limit exceeded: the alias `*big` replays the anchor `&big` (1000 bytes of text); with it the file's aliases expand to 5000 bytes, more than the `max-file-bytes` limit of 4000 bytes"
    );
    let f = c.project.sources.get(d.primary.as_ref().unwrap().file);
    let span = d.primary.as_ref().unwrap().span;
    // The fifth use is the one that passes the budget.
    let fifth = f.text.match_indices("*big").nth(4).unwrap().0;
    assert_eq!(span.start as usize, fifth);
}

#[test]
fn import_of_a_yaml_document_whose_aliases_blow_up_is_refused_naming_the_anchor() {
    // A 1 MB anchored description replayed 100 times (100 MB, past the 64 MiB source limit).
    let big = "x".repeat(1_000_000);
    let props: String = (0..100)
        .map(|i| format!("        p{i}: {{type: string, description: *big}}\n"))
        .collect();
    let doc = format!(
        "openapi: 3.0.3\ninfo: {{title: B, version: '1', description: &big {big}}}\npaths:\n  /x:\n    get:\n      operationId: getX\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n{props}"
    ).replace("\\n", "\n");
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("api.yaml");
    std::fs::write(&src, doc).unwrap();
    let req = schemarouter::import::ImportRequest {
        kind: schemarouter::import::run::Kind::OpenApi,
        sources: vec![schemarouter::import::SourceSpec::File(src)],
        project: dir.path().join("project"),
        out: None,
        format: schemarouter::source::Format::Yaml,
        options: Default::default(),
        dry_run: true,
        timeout: std::time::Duration::from_secs(5),
        derive: false,
    };
    let findings = match schemarouter::import::run(&req) {
        Ok(o) => o.findings,
        Err(e) => panic!("{e:?}"),
    };
    let d = findings
        .iter()
        .find(|d| d.code == "SR009")
        .unwrap_or_else(|| panic!("{findings:?}"));
    assert!(
        d.message.starts_with(
            "input limit exceeded: the alias `*big` replays the anchor `&big` (1000000 bytes of text)"
        ),
        "{}",
        d.message
    );
    assert!(
        d.help
            .as_deref()
            .unwrap()
            .starts_with("import sources are read with built-in limits")
    );
    assert!(!dir.path().join("project").exists());
}

#[test]
fn a_long_enumeration_is_checked_for_repeats_by_value() {
    // 20,000 text values with two repeats; a number enumeration with repeats by value (`1` and
    // `1.0`, `0x1F` and `31`, `-0.0` and `0`). Each repeat is reported once, naming the first.
    let mut values: Vec<String> = (0..20_000).map(|i| format!("v{i}")).collect();
    values.extend(["v19999", "v5"].map(String::from));
    let params = format!(
        "      - name: q\n        type: string\n        enum: [{}]\n      - name: k\n        type: number\n        enum: [1, 0x1F, -0.0, 1.0, 31, 0, 2]\n",
        values.join(", ")
    );
    let dir = project(&[("schemas/t.yaml", &tool("t", &params))]);
    let c = check_path(dir.path()).unwrap();
    let got: Vec<&str> = c
        .diagnostics
        .iter()
        .filter(|d| d.code == "SR111")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        got,
        [
            "enum value `v19999` of parameter `q` of t/e is listed twice",
            "enum value `v5` of parameter `q` of t/e is listed twice",
            "enum value `1` of parameter `k` of t/e is listed twice",
            "enum value `31` of parameter `k` of t/e is listed twice",
            "enum value `0` of parameter `k` of t/e is listed twice",
        ]
    );
}

#[test]
fn a_finding_on_a_block_mapping_has_the_span_of_its_first_key_in_json_and_sarif() {
    use schemarouter::diagnostics::render::{OutputFormat, render};
    // A list item, a nested mapping, and a tool file's top mapping, each missing a key.
    let intents = "domains:\n  - id: materials_property\nintents:\n  - id: x\n    description: d\n    domains: [materials_property]\n";
    let tool = "title: T\ndomain: materials_property\nendpoints:\n  - id: e\n    method: GET\n    url: https://t.example/e\n    fields:\n      - {name: id, type: string, identifier: true}\n    records:\n      kind: list\n";
    let dir = project(&[("intents/x.yaml", intents), ("schemas/t.yaml", tool)]);
    let c = check_path(dir.path()).unwrap();
    let json = render(
        OutputFormat::Json,
        &c.diagnostics,
        &c.project.sources,
        false,
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let missing: Vec<(String, String, u64, u64)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "SR008")
        .map(|d| {
            let l = &d["location"];
            (
                d["message"].as_str().unwrap().to_string(),
                l["file"].as_str().unwrap().to_string(),
                l["line"].as_u64().unwrap(),
                l["length"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(!missing.is_empty());
    for (message, file, line, length) in &missing {
        assert!(*length > 0, "{message} at {file}:{line} has no length");
    }
    let intent = missing
        .iter()
        .find(|m| m.0 == "missing required key `required_groups`")
        .unwrap();
    assert_eq!(
        (intent.1.as_str(), intent.2, intent.3),
        ("intents/x.yaml", 4, 2)
    );
    let tool_id = missing
        .iter()
        .find(|m| m.0 == "missing required key `id`")
        .unwrap();
    // The top mapping's first key: `title`.
    assert_eq!(
        (tool_id.1.as_str(), tool_id.2, tool_id.3),
        ("schemas/t.yaml", 1, 5)
    );
    let sarif = render(
        OutputFormat::Sarif,
        &c.diagnostics,
        &c.project.sources,
        false,
    );
    let v: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    for r in v["runs"][0]["results"].as_array().unwrap() {
        if r["ruleId"] != "SR008" {
            continue;
        }
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert!(
            region["endColumn"].as_u64().unwrap() > region["startColumn"].as_u64().unwrap(),
            "{r}"
        );
    }
}
