//! Bad-input kinds of the loader: one case each, rendered without colour at a fixed width and
//! pinned as an insta snapshot in the top-level `snapshots/` folder, plus exact position checks.

use schemarouter::diagnostics::render::{OutputFormat, render};
use schemarouter::lint::check_path;
use std::path::Path;

/// A minimal valid base project (no findings) the cases add one file to.
const BASE_INTENTS: &str = "domains:\n  - id: materials_property\ngroups:\n  - id: electronic\nintents:\n  - id: electronic_property\n    description: Band gaps.\n    domains: [materials_property]\n    required_groups: [electronic]\n";
const BASE_TOOL: &str = "id: base_tool\ntitle: Base\ndomain: materials_property\nsource_type: calculated\nprovenance: {publisher: Base Lab, citation: \"10.1000/base\"}\nlicence: {spdx: CC0-1.0}\nendpoints:\n  - id: e\n    method: GET\n    url: https://base.example/e\n    fields:\n      - {name: id, type: string, identifier: true}\n      - {name: efermi, type: number, unit: eV, groups: [electronic], concepts: [fermi_energy]}\n";
const BASE_ALIASES: &str = "concepts:\n  - id: fermi_energy\n    unit: eV\n";

fn project(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    std::fs::write(dir.path().join("intents/base.yaml"), BASE_INTENTS).unwrap();
    std::fs::write(dir.path().join("schemas/base.yaml"), BASE_TOOL).unwrap();
    std::fs::write(dir.path().join("aliases/base.yaml"), BASE_ALIASES).unwrap();
    for (name, bytes) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    dir
}

fn human(root: &Path) -> String {
    let c = check_path(root).unwrap();
    render(
        OutputFormat::Human,
        &c.diagnostics,
        &c.project.sources,
        false,
    )
}

fn concise(root: &Path) -> String {
    let c = check_path(root).unwrap();
    render(
        OutputFormat::Concise,
        &c.diagnostics,
        &c.project.sources,
        false,
    )
}

fn snap(name: &str, files: &[(&str, &[u8])]) -> String {
    let dir = project(files);
    let out = human(dir.path());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(true);
    settings.bind(|| insta::assert_snapshot!(name, out));
    concise(dir.path())
}

#[test]
fn syntax_error_yaml() {
    let c = snap(
        "syntax_error_yaml",
        &[("intents/x.yaml", b"domains:\n  - id: [a\n")],
    );
    assert!(
        c.starts_with(
            "intents/x.yaml:2:9: error[SR001/parse-error] invalid YAML: unclosed bracket '[' (help"
        ),
        "{c}"
    );
}

#[test]
fn syntax_error_toml() {
    let c = snap(
        "syntax_error_toml",
        &[("intents/x.toml", b"[[domains]\nid = \"a\"\n")],
    );
    assert!(
        c.starts_with("intents/x.toml:1:11: error[SR001/parse-error]"),
        "{c}"
    );
}

#[test]
fn unknown_key_suggests() {
    let c = snap(
        "unknown_key",
        &[(
            "intents/x.yaml",
            b"domains:\n  - id: literature\n    descripton: papers\n",
        )],
    );
    assert_eq!(
        c.lines().next().unwrap(),
        "intents/x.yaml:3:5: error[SR006/unknown-key] unknown key `descripton` (help: did you mean `description`?)"
    );
}

#[test]
fn duplicate_key_yaml_points_at_both() {
    snap(
        "duplicate_key_yaml",
        &[("intents/x.yaml", b"domains:\n  - id: a\n    id: b\n")],
    );
    let dir = project(&[("intents/x.yaml", b"domains:\n  - id: a\n    id: b\n")]);
    let c = check_path(dir.path()).unwrap();
    let d = &c.diagnostics[0];
    assert_eq!(d.name, "duplicate-key");
    assert_eq!(d.secondary.len(), 1);
}

#[test]
fn a_duplicate_key_does_not_hide_the_files_other_findings() {
    // Two repeats, a repeated `<<` and an unknown key in one file: all four are reported (with
    // the `id` that overrides the merged one), and the file still takes part in the cross-file
    // checks (no checks-skipped note).
    let text = b"domains:\n  - &d {id: a, description: base}\n  - <<: *d\n    <<: *d\n    id: b\n    id: c\n    descripton: x\ngroups: []\ngroups: []\n";
    let c = concise(project(&[("intents/x.yaml", text)]).path());
    let lines: Vec<&str> = c.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "intents/x.yaml:4:5: error[SR005/duplicate-key] duplicate key `<<` (help: remove one of the two entries; a later key would silently replace the earlier one)",
            "intents/x.yaml:5:5: warning[SR015/merge-override] `id` overrides the value the `<<` merge gives it; the merged value is silently dropped (help: remove `id` from the merged mapping (so each value is written once), or write this mapping out without `<<`; to keep the override, set `merge-override = \"off\"` under [lint.rules] or add a suppression comment)",
            "intents/x.yaml:6:5: error[SR005/duplicate-key] duplicate key `id` (help: remove one of the two entries; a later key would silently replace the earlier one)",
            "intents/x.yaml:7:5: error[SR006/unknown-key] unknown key `descripton` (help: did you mean `description`?)",
            "intents/x.yaml:9:1: error[SR005/duplicate-key] duplicate key `groups` (help: remove one of the two entries; a later key would silently replace the earlier one)",
        ]
    );
    assert_eq!(lines.len(), 7, "{c}");
    // Duplicates alone leave the file loaded (first entry kept): the cross-file checks run and
    // find that no tool serves the intent.
    let text = b"domains:\n  - id: a\n    id: b\nintents:\n  - id: i\n    description: x\n    domains: [a]\n    required_groups: [nope]\n";
    let c = concise(project(&[("intents/x.yaml", text)]).path());
    assert!(!c.contains("checks-skipped"), "{c}");
    assert!(
        c.contains("intents/x.yaml:5:9: error[SR503/unsatisfiable-intent] no tool in domain(s) a provides any of the groups nope"),
        "{c}"
    );
}

#[test]
fn duplicate_key_toml() {
    let c = snap(
        "duplicate_key_toml",
        &[("intents/x.toml", b"[[domains]]\nid = \"a\"\nid = \"b\"\n")],
    );
    assert!(
        c.starts_with("intents/x.toml:3:1: error[SR005/duplicate-key] duplicate key `id`"),
        "{c}"
    );
}

#[test]
fn merge_never_hides_a_later_duplicate() {
    let c = snap(
        "merge_duplicate",
        &[(
            "intents/x.yaml",
            b"domains:\n  - &d {id: a, description: base}\n  - <<: *d\n    id: b\n    id: c\n",
        )],
    );
    // The first `id` overrides the merged one (a warning), the second repeats it (an error).
    let lines: Vec<&str> = c.lines().collect();
    assert!(
        lines[0].starts_with("intents/x.yaml:4:5: warning[SR015/merge-override]"),
        "{c}"
    );
    assert!(
        lines[1].starts_with("intents/x.yaml:5:5: error[SR005/duplicate-key]"),
        "{c}"
    );
}

#[test]
fn anchors_and_merges_work() {
    let dir = project(&[(
        "intents/x.yaml",
        b"domains:\n  - &d {id: a, description: shared}\n  - <<: *d\n    id: b\n",
    )]);
    let c = check_path(dir.path()).unwrap();
    // The merged `id` is overridden: reported (merge-override), the mapping's own value applies.
    let codes: Vec<_> = c.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["SR015"], "{:?}", c.diagnostics);
    let ids: Vec<_> = c
        .project
        .domains
        .iter()
        .map(|d| d.item.id.value.clone())
        .collect();
    assert_eq!(ids, ["materials_property", "a", "b"]);
    assert_eq!(
        c.project.domains[2]
            .item
            .description
            .as_ref()
            .unwrap()
            .value,
        "shared"
    );
}

/// Where a merged or aliased value is used, not where its anchor is written, is where a
/// finding about it is reported; the anchor is the related information (JSON `related`, a second
/// frame in human output).
#[test]
fn an_error_inside_a_merged_value_is_reported_where_the_merge_is_used() {
    // A parameter's mapping merged into a response field: `join` is a parameter key only.
    let tool = b"id: t\ntitle: T\ndomain: materials_property\nsource_type: calculated\nprovenance: {publisher: P, citation: \"10.1000/x\"}\nlicence: {spdx: CC0-1.0}\nendpoints:\n  - id: e\n    method: GET\n    url: https://t.example/e\n    parameters:\n      - &p\n        name: q\n        type: string\n        join: \",\"\n    fields:\n      - {name: id, type: string, identifier: true}\n      - <<: *p\n        name: echo\n";
    let c = snap("merged_value_error", &[("schemas/t.yaml", tool)]);
    assert_eq!(
        c.lines().next().unwrap(),
        "schemas/t.yaml:18:13: error[SR006/unknown-key] unknown key `join` (help: expected one of: name, type, unit, unit_as_published, identifier, groups, concepts, qualifiers, source_type, licence, encoding, missing_value, description, required, nullable, format)"
    );
    let dir = project(&[("schemas/t.yaml", tool)]);
    let checked = check_path(dir.path()).unwrap();
    let d = checked
        .diagnostics
        .iter()
        .find(|d| d.code == "SR006")
        .unwrap();
    assert_eq!(d.secondary.len(), 1);
    let text = &checked.project.sources.get(d.secondary[0].file).text;
    let s = d.secondary[0].span;
    assert_eq!(&text[s.start as usize..s.end as usize], "&p");
    assert_eq!(
        d.secondary[0].message,
        "the value comes from anchor `&p`, defined here"
    );
}

#[test]
fn a_lint_finding_on_an_aliased_value_names_the_anchor() {
    // A unit that does not parse, shared through an alias: reported at the alias.
    let tool = b"id: t\ntitle: T\ndomain: materials_property\nsource_type: calculated\nprovenance: {publisher: P, citation: \"10.1000/x\"}\nlicence: {spdx: CC0-1.0}\nendpoints:\n  - id: e\n    method: GET\n    url: https://t.example/e\n    fields:\n      - {name: id, type: string, identifier: true}\n      - {name: a, type: number, unit: &u eV/furlong, groups: [electronic]}\n      - {name: b, type: number, unit: *u, groups: [electronic]}\n";
    let dir = project(&[("schemas/t.yaml", tool)]);
    let checked = check_path(dir.path()).unwrap();
    let at_alias: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|d| {
            d.primary.as_ref().is_some_and(|p| {
                let t = &checked.project.sources.get(p.file).text;
                &t[p.span.start as usize..p.span.end as usize] == "*u"
            })
        })
        .collect();
    assert!(!at_alias.is_empty(), "{:?}", checked.diagnostics);
    for d in at_alias {
        assert_eq!(
            d.secondary.last().map(|l| l.message.as_str()),
            Some("the value comes from anchor `&u`, defined here"),
            "{d:?}"
        );
    }
}

#[test]
fn yaml11_boolean_is_not_a_boolean() {
    let c = snap(
        "yaml11_boolean",
        &[(
            "aliases/x.yaml",
            b"aliases:\n  - text: off\n    concept: bulk_modulus\n",
        )],
    );
    // `off` is a string here, kept as the alias text; the alias is dangling, not a type error.
    assert!(
        c.contains("alias `off` names undeclared concept `bulk_modulus`"),
        "{c}"
    );
    let c2 = snap(
        "yaml11_boolean_in_bool_field",
        &[(
            "schemas/t.yaml",
            b"id: t\ntitle: T\ndomain: materials_property\nlicence:\n  spdx: CC0-1.0\n  verified: off\nendpoints: []\n",
        )],
    );
    assert!(c2.starts_with("schemas/t.yaml:6:13: error[SR007/invalid-value] expected a boolean (true or false), found the string `off`"), "{c2}");
}

#[test]
fn numeric_looking_strings_stay_as_written() {
    let dir = project(&[(
        "intents/x.yaml",
        b"domains:\n  - id: 007\n    description: 1.10\n",
    )]);
    let c = check_path(dir.path()).unwrap();
    let d = &c.project.domains[1].item;
    assert_eq!(d.id.value, "007");
    assert_eq!(d.description.as_ref().unwrap().value, "1.10");
}

#[test]
fn alias_bomb_is_stopped() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let c = snap("alias_bomb", &[("intents/x.yaml", text.as_bytes())]);
    assert!(c.contains("error[SR009/limit-exceeded]"), "{c}");
}

#[test]
fn deep_nesting_is_stopped() {
    let text = format!("domains: {}{}\n", "[".repeat(3000), "]".repeat(3000));
    let c = concise(project(&[("intents/x.yaml", text.as_bytes())]).path());
    // The parser's own limit names its value and does not advise raising a setting.
    assert_eq!(
        c.lines().next().unwrap(),
        "intents/x.yaml:1:265: error[SR009/limit-exceeded] input limit exceeded: the file nests more than 255 levels deep (the YAML parser's nesting limit) (help: nest less deeply; this limit is built in and cannot be raised)"
    );
    let text = format!("domains = {}{}\n", "[".repeat(3000), "]".repeat(3000));
    let c = concise(project(&[("intents/x.toml", text.as_bytes())]).path());
    assert_eq!(
        c.lines().next().unwrap(),
        "intents/x.toml:1:91: error[SR009/limit-exceeded] input limit exceeded: the file nests deeper than the TOML parser's nesting limit (about 80 levels of tables, arrays and dotted keys) (help: nest less deeply; this limit is built in and cannot be raised)"
    );
}

#[test]
fn nesting_beyond_configured_depth() {
    let c = snap(
        "depth_limit",
        &[
            ("schemarouter.toml", b"[limits]\nmax-depth = 5\n"),
            (
                "intents/x.yaml",
                b"domains:\n  - id: a\n    description: {a: {b: c}}\n",
            ),
        ],
    );
    assert!(c.contains("intents/x.yaml:3:26: error[SR009/limit-exceeded] input limit exceeded: nesting depth 6 is deeper than the limit of 5"), "{c}");
}

#[test]
fn huge_file_is_refused() {
    let c = snap(
        "huge_file",
        &[
            ("schemarouter.toml", b"[limits]\nmax-file-bytes = 100\n"),
            ("intents/x.yaml", "domains:\n".repeat(20).as_bytes()),
        ],
    );
    assert!(
        c.contains("`intents/x.yaml` is 180 bytes, larger than the limit of 100 bytes"),
        "{c}"
    );
}

/// A string value or key longer than `max-scalar-bytes` (256 KiB by default) is refused at its
/// position, in YAML and TOML, in a value and a key; the limit is raised in schemarouter.toml.
/// (A one-letter title of 1 MB took `check` 4.3 s, 5 MB 33 s, in the exact token count of the
/// prompt it reaches.)
#[test]
fn a_scalar_beyond_the_limit_is_refused_at_its_position() {
    let long = "A".repeat(300_000);
    let tool = BASE_TOOL.replace("title: Base", &format!("title: {long}"));
    let c = snap_concise(&[("schemas/base.yaml", tool.as_bytes())]);
    assert!(
        c.starts_with("schemas/base.yaml:2:8: error[SR009/limit-exceeded] input limit exceeded: a string of 300000 bytes is longer than the limit of 262144 bytes (help: shorten the text, or raise `max-scalar-bytes` under [limits] in schemarouter.toml)"),
        "{}",
        &c[..c.len().min(400)]
    );
    // (YAML keys are at most 1,024 characters; a TOML key may be any length.)
    let key = format!("[[domains]]\nid = \"a\"\n\"{long}\" = 1\n");
    let c = snap_concise(&[("intents/x.toml", key.as_bytes())]);
    assert!(
        c.starts_with("intents/x.toml:3:1: error[SR009/limit-exceeded] input limit exceeded: a string of 300000 bytes is longer than the limit of 262144 bytes"),
        "{}",
        &c[..c.len().min(400)]
    );
    let toml = format!("[[domains]]\nid = \"a\"\ndescription = \"{long}\"\n");
    let c = snap_concise(&[("intents/x.toml", toml.as_bytes())]);
    assert!(
        c.starts_with("intents/x.toml:3:15: error[SR009/limit-exceeded] input limit exceeded: a string of 300000 bytes is longer than the limit of 262144 bytes"),
        "{}",
        &c[..c.len().min(400)]
    );
    // Raised: the same title loads.
    let c = snap_concise(&[
        ("schemas/base.yaml", tool.as_bytes()),
        (
            "schemarouter.toml",
            b"[limits]\nmax-scalar-bytes = 400000\n",
        ),
    ]);
    assert!(!c.contains("SR009"), "{}", &c[..c.len().min(400)]);
}

/// An `enum` longer than `max-enum-values` (10,000 by default) is an error at its key, with
/// the setting to raise in its help; the rest of the file is still read (no other finding);
/// raised, the same enum loads. (A 200,000-value enum had no finding, and made `route` ten
/// times slower.)
#[test]
fn an_enum_beyond_the_limit_is_refused_at_its_key() {
    let tool = |n: usize, flow: bool| {
        let values: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        let list = if flow {
            format!("[{}]", values.join(", "))
        } else {
            values
                .iter()
                .map(|v| format!("\n          - {v}"))
                .collect::<String>()
        };
        BASE_TOOL.replace(
            "    fields:\n",
            &format!(
                "    parameters:\n      - name: kind\n        type: string\n        enum: {list}\n    fields:\n"
            ),
        )
    };
    fn errors(c: &str) -> Vec<&str> {
        c.lines().filter(|l| l.contains("error[")).collect()
    }
    let c = snap_concise(&[("schemas/base.yaml", tool(10_001, false).as_bytes())]);
    assert_eq!(
        errors(&c),
        [
            "schemas/base.yaml:14:9: error[SR009/limit-exceeded] input limit exceeded: an enum of 10001 values is longer than the limit of 10000 values (help: declare the parameter without `enum` (its description can say what it takes), or raise `max-enum-values` under [limits] in schemarouter.toml)"
        ],
        "{c}"
    );
    // In flow form too; at the limit, no finding.
    let c = snap_concise(&[("schemas/base.yaml", tool(10_001, true).as_bytes())]);
    assert!(c.contains("schemas/base.yaml:14:9: error[SR009/limit-exceeded] input limit exceeded: an enum of 10001 values"), "{c}");
    let c = snap_concise(&[("schemas/base.yaml", tool(10_000, true).as_bytes())]);
    assert!(!c.contains("SR009"), "{c}");
    // Lowered and raised in schemarouter.toml.
    let c = snap_concise(&[
        ("schemas/base.yaml", tool(3, true).as_bytes()),
        ("schemarouter.toml", b"[limits]\nmax-enum-values = 2\n"),
    ]);
    assert!(c.contains("schemas/base.yaml:14:9: error[SR009/limit-exceeded] input limit exceeded: an enum of 3 values is longer than the limit of 2 values"), "{c}");
    let c = snap_concise(&[
        ("schemas/base.yaml", tool(10_001, true).as_bytes()),
        ("schemarouter.toml", b"[limits]\nmax-enum-values = 20000\n"),
    ]);
    assert!(!c.contains("SR009"), "{c}");
}

fn snap_concise(files: &[(&str, &[u8])]) -> String {
    concise(project(files).path())
}

#[test]
fn bom_is_accepted_and_columns_ignore_it() {
    let c = snap(
        "bom",
        &[(
            "intents/x.yaml",
            b"\xef\xbb\xbfdomains:\n  - id: a\n    bogus: 1\n",
        )],
    );
    assert!(
        c.starts_with("intents/x.yaml:3:5: error[SR006/unknown-key]"),
        "{c}"
    );
    let c = concise(project(&[("intents/x.yaml", b"\xef\xbb\xbfbogus: 1\n")]).path());
    assert!(
        c.starts_with("intents/x.yaml:1:1: error[SR006/unknown-key]"),
        "{c}"
    );
}

#[test]
fn crlf_reports_same_positions_as_lf() {
    let lf = concise(project(&[("intents/x.yaml", b"domains:\n  - id: a\n    bogus: 1\n")]).path());
    let crlf = concise(
        project(&[(
            "intents/x.yaml",
            b"domains:\r\n  - id: a\r\n    bogus: 1\r\n",
        )])
        .path(),
    );
    assert_eq!(lf, crlf);
    snap(
        "crlf",
        &[(
            "intents/x.toml",
            b"[[domains]]\r\nid = \"a\"\r\nbogus = 1\r\n",
        )],
    );
}

#[test]
fn multibyte_and_tabs_columns() {
    let c = concise(
        project(&[(
            "intents/x.yaml",
            "domains:\n  - {id: \"Å μ 한국\", bogus: 1}\n".as_bytes(),
        )])
        .path(),
    );
    // `bogus` starts after `  - {id: "Å μ 한국", ` = 19 characters.
    assert!(
        c.starts_with("intents/x.yaml:2:20: error[SR006/unknown-key]"),
        "{c}"
    );
    let c = concise(
        project(&[(
            "intents/x.toml",
            b"[[domains]]\n\tid = \"a\"\n\tbogus = 1\n",
        )])
        .path(),
    );
    assert!(
        c.starts_with("intents/x.toml:3:2: error[SR006/unknown-key]"),
        "{c}"
    );
}

#[test]
fn non_utf8_is_reported_at_the_bad_byte() {
    let c = snap(
        "non_utf8",
        &[("intents/x.yaml", b"domains:\n  - id: \xc5ngstr\xf6m\n")],
    );
    assert!(
        c.starts_with("intents/x.yaml:2:9: error[SR002/invalid-encoding]"),
        "{c}"
    );
}

#[test]
fn empty_and_comment_only_files() {
    let c = snap("empty_file", &[("intents/x.yaml", b"")]);
    assert!(c.contains("error[SR003/empty-file] file is empty"), "{c}");
    let c = snap(
        "comment_only_file",
        &[("intents/x.toml", b"# nothing yet\n")],
    );
    assert!(
        c.contains("error[SR003/empty-file] file has only comments"),
        "{c}"
    );
}

/// A file whose one value is a null (`null`, `~`, after comments too) is not empty: the
/// finding says what it holds, where, and what is expected.
#[test]
fn a_null_file_says_it_holds_a_null() {
    let c = snap("null_file", &[("intents/x.yaml", b"null\n")]);
    assert_eq!(
        c.lines().next().unwrap(),
        "intents/x.yaml:1:1: error[SR003/empty-file] file holds only a null, where a map of declarations is expected (help: write the declarations as a map of keys (as the other files of this folder do), or delete the file)"
    );
    for (text, col) in [
        (&b"~\n"[..], 1),
        (b"# a tool, one day\n\n  null # not yet\n", 3),
        (b"--- ~\n", 5),
        (b"Null", 1),
    ] {
        let dir = project(&[("schemas/x.yaml", text)]);
        let c = concise(dir.path());
        let first = c.lines().next().unwrap();
        let line = if col == 3 { 3 } else { 1 };
        assert!(
            first.starts_with(&format!(
                "schemas/x.yaml:{line}:{col}: error[SR003/empty-file] file holds only a null, where a map of declarations is expected"
            )),
            "{first}"
        );
    }
    // A document marker alone is still an empty file.
    let dir = project(&[("schemas/x.yaml", b"---\n")]);
    assert!(concise(dir.path()).contains("error[SR003/empty-file] file is empty"));
}

/// Every help line a TOML file can get speaks of TOML, not YAML: a quoted `"yes"` in a boolean
/// field, a boolean parameter's quoted default.
#[test]
fn toml_files_get_no_yaml_help() {
    let tool = "id = \"t\"\ntitle = \"T\"\ndomain = \"materials_property\"\nsource_type = \"calculated\"\n\n[provenance]\npublisher = \"P\"\ncitation = \"10.1000/p\"\n\n[licence]\nspdx = \"CC0-1.0\"\nverified = \"yes\"\n\n[[endpoints]]\nid = \"e\"\nmethod = \"GET\"\nurl = \"https://t.example/e\"\n\n[[endpoints.parameters]]\nname = \"q\"\ntype = \"boolean\"\nrequired = \"no\"\ndefault = \"off\"\n\n[[endpoints.fields]]\nname = \"id\"\ntype = \"string\"\nidentifier = true\n";
    let dir = project(&[("schemas/t.toml", tool.as_bytes())]);
    let c = concise(dir.path());
    assert!(!c.contains("YAML"), "{c}");
    assert!(
        c.contains("schemas/t.toml:12:12: error[SR007/invalid-value] expected a boolean (true or false), found the string `yes` (help: `yes` is a string here: a boolean is written `true` or `false`, without quotes; write `true`)"),
        "{c}"
    );
}

#[test]
fn second_yaml_document_is_an_error() {
    let c = snap(
        "multiple_documents",
        &[(
            "intents/x.yaml",
            b"domains:\n  - id: a\n---\ndomains:\n  - id: b\n",
        )],
    );
    assert!(
        c.starts_with("intents/x.yaml:3:1: error[SR004/multiple-documents]"),
        "{c}"
    );
}

#[test]
fn wrong_type_and_missing_key() {
    let c = snap(
        "wrong_type",
        &[("intents/x.yaml", b"domains:\n  - id: [a, b]\n")],
    );
    assert!(
        c.starts_with(
            "intents/x.yaml:2:9: error[SR007/invalid-value] expected a string, found a list"
        ),
        "{c}"
    );
    let c = snap(
        "missing_key",
        &[(
            "intents/x.yaml",
            b"intents:\n  - id: x\n    description: y\n    domains: [materials_property]\n",
        )],
    );
    assert!(
        c.contains("error[SR008/missing-key] missing required key `required_groups`"),
        "{c}"
    );
}

#[test]
fn a_bare_value_where_a_map_belongs_gets_the_map_to_write() {
    // `bind: [formula]` for `bind: [{concept: formula}]`: the help writes the map out.
    let tool = b"id: t\ntitle: T\ndomain: materials_property\nsource_type: calculated\nprovenance: {publisher: P, citation: \"10.1000/x\"}\nlicence: {spdx: CC0-1.0}\nendpoints:\n  - id: e\n    method: GET\n    url: https://t.example/e\n    parameters:\n      - name: q\n        type: string\n        bind: [formula]\n    fields:\n      - {name: id, type: string, identifier: true}\n";
    let dir = project(&[("schemas/t.yaml", tool)]);
    assert_eq!(
        concise(dir.path()).lines().next().unwrap(),
        "schemas/t.yaml:14:16: error[SR007/invalid-value] expected a map, found the string `formula` (help: write a map with keys concept, template, set: `{concept: formula}`)"
    );
}

#[test]
fn every_missing_key_is_reported_in_one_run() {
    let dir = project(&[
        (
            "schemas/t.yaml",
            b"id: x
endpoints:
  - id: e
    fields:
      - name: f
",
        ),
        ("schemas/u.toml", b"id = \"y\"\n[[endpoints]]\nid = \"e\"\n"),
    ]);
    let c = concise(dir.path());
    let errors: Vec<&str> = c.lines().filter(|l| l.contains("error[")).collect();
    assert_eq!(
        errors,
        [
            "schemas/t.yaml:1:1: error[SR008/missing-key] missing required key `domain` (help: add `domain` to this map)",
            "schemas/t.yaml:1:1: error[SR008/missing-key] missing required key `title` (help: add `title` to this map)",
            "schemas/t.yaml:3:5: error[SR008/missing-key] missing required key `method` (help: add `method` to this map)",
            "schemas/t.yaml:3:5: error[SR008/missing-key] missing required key `url` (help: add `url` to this map)",
            "schemas/t.yaml:5:9: error[SR008/missing-key] missing required key `type` (help: add `type` to this map)",
            "schemas/u.toml:1:1: error[SR008/missing-key] missing required key `domain` (help: add `domain` to this map)",
            "schemas/u.toml:1:1: error[SR008/missing-key] missing required key `title` (help: add `title` to this map)",
            "schemas/u.toml:2:1: error[SR008/missing-key] missing required key `method` (help: add `method` to this map)",
            "schemas/u.toml:2:1: error[SR008/missing-key] missing required key `url` (help: add `url` to this map)",
        ]
    );
}

#[test]
fn a_toml_body_in_a_yaml_file_gets_a_hint() {
    let dir = project(&[(
        "schemas/t.yaml",
        b"id = \"y\"\ntitle = \"Y\"\n[[endpoints]]\nid = \"e\"\n",
    )]);
    let c = concise(dir.path());
    assert_eq!(
        c.lines().next().unwrap(),
        "schemas/t.yaml:1:1: error[SR007/invalid-value] expected a map, found the string `id = \"y\" title = \"Y\" [[endpoints]] id = ` (help: this looks like TOML (`key = value`): give the file a `.toml` extension, or write it as YAML (`key: value`))"
    );
}

#[test]
fn other_files_are_noted_not_parsed() {
    let c = snap("ignored_file", &[("schemas/tool.json", b"{\"id\": \"x\"}")]);
    assert_eq!(
        c.lines().next().unwrap(),
        "schemas/tool.json:1:1: info[SR011/ignored-file] `schemas/tool.json` is not a .yaml, .yml or .toml file and was skipped (help: rename it with a declaration extension if it holds declarations)"
    );
}

#[test]
fn duplicate_and_colliding_ids() {
    let c = snap(
        "duplicate_ids",
        &[(
            "intents/x.yaml",
            b"groups:\n  - id: electronic\n  - id: Electronic-Structure\n  - id: electronic_structure\n",
        )],
    );
    assert!(
        c.contains("error[SR101/duplicate-id] duplicate group id `electronic`"),
        "{c}"
    );
    assert!(c.contains("error[SR102/id-collision] group id `electronic_structure` collides with `Electronic-Structure`"), "{c}");
}

#[test]
fn nfc_and_nfd_ids_collide() {
    let c = concise(
        project(&[(
            "intents/x.yaml",
            "domains:\n  - id: \u{00C5}ngstrom\n  - id: A\u{030A}ngstrom\n".as_bytes(),
        )])
        .path(),
    );
    assert!(c.contains("error[SR102/id-collision]"), "{c}");
}

#[test]
fn dangling_references() {
    let c = snap(
        "dangling_references",
        &[
            (
                "schemas/t.yaml",
                b"id: t\ntitle: T\ndomain: materials_propert\nendpoints:\n  - id: e\n    method: GET\n    url: https://t.example\n    fields:\n      - name: gap\n        type: number\n        groups: [electronik]\n        concepts: [band_gapp]\n",
            ),
            ("aliases/a.yaml", b"concepts:\n  - id: band_gap\n    unit: eV\naliases:\n  - text: K_VRH\n    concept: bulk_modulus\n  - text: gap\n    field: t/e/gapp\n"),
        ],
    );
    for needle in [
        "error[SR504/unknown-domain] tool `t` names unknown domain `materials_propert`",
        "error[SR103/dangling-reference] field `gap` references undeclared group `electronik`",
        "error[SR103/dangling-reference] field `gap` references undeclared concept `band_gapp`",
        "error[SR201/dangling-alias] alias `K_VRH` names undeclared concept `bulk_modulus`",
        "error[SR201/dangling-alias] alias `gap` names unknown field `t/e/gapp` (help: did you mean `t/e/gap`?)",
    ] {
        assert!(c.contains(needle), "missing {needle} in\n{c}");
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_among_the_declarations_is_skipped_not_read() {
    let dir = project(&[]);
    let fifo = dir.path().join("schemas/pipe.yaml");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let out = concise(dir.path());
    assert_eq!(
        out.lines().next().unwrap(),
        "schemas/pipe.yaml:1:1: info[SR011/ignored-file] `schemas/pipe.yaml` is not a regular file (a FIFO, socket or device) and was not read (help: declaration files are regular files; remove it or replace it with a copy of the file)"
    );
}

#[test]
fn control_characters_in_declarations_reach_the_terminal_escaped() {
    // An imported name is untrusted: ESC and BEL would retitle the window or clear the screen.
    let tool = BASE_TOOL.replace(
        "{name: id,",
        "{name: \"x\\e]0;owned\\a\\e[2J\", type: string}\n      - {name: id,",
    );
    let dir = project(&[("schemas/base.yaml", tool.as_bytes())]);
    let c = concise(dir.path());
    let h = human(dir.path());
    assert!(!c.contains('\u{1b}') && !c.contains('\u{7}'), "{c}");
    assert!(!h.contains('\u{1b}') && !h.contains('\u{7}'), "{h}");
    assert!(c.contains("x\\u{1b}]0;owned\\u{7}\\u{1b}[2J"), "{c}");
    assert_eq!(
        c.lines().next().unwrap(),
        "schemas/base.yaml:12:16: warning[SR013/control-character] this string holds the control character U+001B (help: remove it; control and bidirectional-override characters reach prompts, plans and exports as they are)"
    );
    let checked = check_path(dir.path()).unwrap();
    let g = render(
        OutputFormat::Github,
        &checked.diagnostics,
        &checked.project.sources,
        false,
    );
    assert!(!g.contains('\u{1b}') && !g.contains('\u{7}'), "{g}");
    assert!(g.contains("x\\u{1b}]0;owned\\u{7}\\u{1b}[2J"), "{g}");
}

#[cfg(unix)]
#[test]
fn a_link_into_another_declaration_folder_is_not_followed() {
    // Followed, it would read the intents as tools and mark `intents/` read before its turn.
    let dir = project(&[]);
    std::os::unix::fs::symlink("../intents", dir.path().join("schemas/more")).unwrap();
    std::os::unix::fs::symlink("../intents/base.yaml", dir.path().join("aliases/i.yaml")).unwrap();
    let out = concise(dir.path());
    assert_eq!(
        out,
        "<project>: info[SR011/ignored-file] symbolic link `aliases/i.yaml` leads into `intents`, the folder of the intent files, and was not followed (help: remove the link: `intents` is read on its own, as intent files)\n\
         <project>: info[SR011/ignored-file] symbolic link `schemas/more` leads into `intents`, the folder of the intent files, and was not followed (help: remove the link: `intents` is read on its own, as intent files)\n\
         Found 0 errors, 0 warnings, 2 infos.\n"
    );
}

#[cfg(unix)]
#[test]
fn a_link_to_a_folder_holding_declaration_folders_is_not_followed() {
    // `schemas/up -> ..` would read aliases/ and intents/ as tool files and then skip the real
    // folders as already read; `schemas/self -> .` is the folder itself.
    let dir = project(&[]);
    std::os::unix::fs::symlink("..", dir.path().join("schemas/up")).unwrap();
    std::os::unix::fs::symlink(".", dir.path().join("schemas/self")).unwrap();
    let out = concise(dir.path());
    assert_eq!(
        out,
        "<project>: info[SR011/ignored-file] symbolic link `schemas/self` leads back to the declaration folder `schemas`, and was not followed (help: remove the link: every declaration folder is read once, on its own)\n\
         <project>: info[SR011/ignored-file] symbolic link `schemas/up` leads to the project folder, which holds the declaration folder `schemas`, and was not followed (help: remove the link: every declaration folder is read once, on its own)\n\
         Found 0 errors, 0 warnings, 2 infos.\n"
    );
}

#[test]
fn a_missing_paths_folder_is_the_only_error_not_its_consequences() {
    let dir = project(&[("schemarouter.toml", b"[paths]\naliases = \"nope\"\n")]);
    let out = concise(dir.path());
    assert_eq!(
        out,
        "schemarouter.toml:2:11: error[SR010/io-error] folder `nope` named in [paths] does not exist (help: fix the path in schemarouter.toml (paths are relative to the project root))\n\
         <project>: info[SR012/checks-skipped] some declaration files could not be read; skipped: dangling-reference, dangling-alias, prompt-budget, unused-suppression (help: fix the errors above and run `schemarouter check` again for the full report)\n\
         Found 1 error, 0 warnings, 1 info.\n"
    );
}

#[test]
fn the_anchor_note_joins_a_label_already_at_the_anchor() {
    use schemarouter::diagnostics::{Diagnostic, Label, Severity};
    use schemarouter::load::{Loaded, yaml::AliasUse};
    use schemarouter::source::{FileId, Span};
    let file = FileId(0);
    let uses = [(
        file,
        AliasUse {
            at: Span::new(20, 22),
            anchor: "d".to_string(),
            value: Span::new(4, 6),
        },
    )];
    let mut d = Diagnostic::new("SR101", "duplicate-id", Severity::Error, "duplicate")
        .at(file, Span::new(20, 22), "declared again here")
        .also(file, Span::new(4, 6), "first declared here");
    let mut other = Diagnostic::new("SR101", "duplicate-id", Severity::Error, "duplicate").at(
        file,
        Span::new(20, 22),
        "",
    );
    for _ in 0..2 {
        Loaded::annotate_aliases(&uses, std::slice::from_mut(&mut d));
        Loaded::annotate_aliases(&uses, std::slice::from_mut(&mut other));
    }
    assert_eq!(
        d.secondary,
        [Label::new(
            file,
            Span::new(4, 6),
            "first declared here; the value comes from anchor `&d`, defined here"
        )]
    );
    assert_eq!(
        other.secondary,
        [Label::new(
            file,
            Span::new(4, 6),
            "the value comes from anchor `&d`, defined here"
        )]
    );
}

#[test]
fn one_rule_set_twice_by_code_and_name_is_reported() {
    // The entry by name applies, whatever the case of the code.
    let aliases = format!("{BASE_ALIASES}  - id: unused_concept\n    unit: eV\n");
    for code in ["SR205", "sr205"] {
        let config = format!("[lint.rules]\n{code} = \"off\"\norphan-concept = \"error\"\n");
        let dir = project(&[
            ("schemarouter.toml", config.as_bytes()),
            ("aliases/base.yaml", aliases.as_bytes()),
        ]);
        let out = concise(dir.path());
        let first = out.lines().next().unwrap();
        assert!(first.contains("error[SR205/orphan-concept]"), "{out}");
        assert_eq!(
            out.lines().nth(1).unwrap(),
            format!(
                "schemarouter.toml:2:1: warning[SR903/unknown-rule] rule `orphan-concept` is set twice in [lint.rules], as `{code}` and as `orphan-concept`; the entry `orphan-concept` applies (help: keep one entry for `orphan-concept`)"
            )
        );
    }
}

#[test]
fn a_rule_code_in_lower_case_is_the_rule() {
    let aliases = format!("{BASE_ALIASES}  - id: unused_concept\n    unit: eV\n");
    let dir = project(&[("aliases/base.yaml", aliases.as_bytes())]);
    assert!(concise(dir.path()).contains("SR205/orphan-concept"));
    let dir = project(&[
        ("schemarouter.toml", b"[lint.rules]\nsr205 = \"off\"\n"),
        ("aliases/base.yaml", aliases.as_bytes()),
    ]);
    assert_eq!(concise(dir.path()), "No problems found.\n");
}

#[test]
fn non_finite_numbers_are_wrong_typed_values_not_syntax_errors() {
    let tool = BASE_TOOL
        .replace("title: Base\n", "title: Base\npriority: .inf\n")
        .replace(
            "    fields:\n",
            "    parameters:\n      - {name: limit, type: number, default: .nan}\n    fields:\n",
        );
    let dir = project(&[("schemas/base.yaml", tool.as_bytes())]);
    assert_eq!(
        concise(dir.path()),
        "schemas/base.yaml:3:11: error[SR007/invalid-value] expected an integer, found the string `.inf` (help: `.inf` is not a finite number: write a finite number (in range; not NaN or infinity))\n\
         <project>: info[SR012/checks-skipped] some declaration files could not be read; skipped: orphan-concept, unreachable-group, empty-group, unsatisfiable-intent, prompt-budget, unused-suppression (help: fix the errors above and run `schemarouter check` again for the full report)\n\
         Found 1 error, 0 warnings, 1 info.\n"
    );
    let tool = tool.replace("priority: .inf\n", "");
    let dir = project(&[("schemas/base.yaml", tool.as_bytes())]);
    assert_eq!(
        concise(dir.path()),
        "schemas/base.yaml:12:46: error[SR110/invalid-parameter-value] default of parameter `limit` of base_tool/e: `.nan` is not a finite number (help: write a finite number (in range; not NaN or infinity), or change the parameter's type)\n\
         Found 1 error, 0 warnings, 0 infos.\n"
    );
}

#[test]
fn a_tab_in_the_indentation_is_pointed_at() {
    for (text, line) in [
        (
            "domains:\n  - id: a\n\tdescription: x\n",
            "intents/x.yaml:3:1",
        ),
        (
            "domains:\n  - id: a\n   \tdescription: x\n",
            "intents/x.yaml:3:4",
        ),
        // A block scalar's content line, and a line after one.
        (
            "domains:\n  - id: a\n    description: |\n\tline one\n",
            "intents/x.yaml:4:1",
        ),
        (
            "domains:\n  - id: a\n    description: |\n      line one\n\tline two\n",
            "intents/x.yaml:5:1",
        ),
        // Bare CR line ends.
        (
            "domains:\r  - id: a\r  \tdescription: x\r",
            "intents/x.yaml:3:3",
        ),
    ] {
        let c = concise(project(&[("intents/x.yaml", text.as_bytes())]).path());
        assert_eq!(
            c.lines().next().unwrap(),
            format!(
                "{line}: error[SR001/parse-error] invalid YAML: a tab in the indentation: YAML indents with spaces only (help: replace the tab with spaces)"
            ),
            "{text:?}"
        );
    }
}

#[test]
fn non_finite_toml_numbers_are_reported_like_yaml_ones() {
    let tool = "id = \"t\"\ntitle = \"T\"\ndomain = \"materials_property\"\nsource_type = \"calculated\"\nprovenance = {publisher = \"P\", citation = \"10.1000/x\"}\nlicence = {spdx = \"CC0-1.0\"}\n[[endpoints]]\nid = \"e\"\nmethod = \"GET\"\nurl = \"https://t.example/e\"\nparameters = [{name = \"a\", type = \"number\", default = nan}, {name = \"b\", type = \"number\", default = -inf}, {name = \"c\", type = \"number\", default = 1e999}, {name = \"d\", type = \"integer\", default = 99999999999999999999}]\nfields = [{name = \"id\", type = \"string\", identifier = true}]\n";
    let dir = project(&[("schemas/t.toml", tool.as_bytes())]);
    let out = concise(dir.path());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "schemas/t.toml:1:6: warning[SR505/unroutable-tool] tool `t` can only be reached by name: it provides none of the required groups of electronic_property (help: put its fields in the groups the intents of its domain require, or add an intent for its domain)",
            "schemas/t.toml:11:55: error[SR110/invalid-parameter-value] default of parameter `a` of t/e: `nan` is not a finite number (help: write a finite number (in range; not NaN or infinity), or change the parameter's type)",
            "schemas/t.toml:11:101: error[SR110/invalid-parameter-value] default of parameter `b` of t/e: `-inf` is not a finite number (help: write a finite number (in range; not NaN or infinity), or change the parameter's type)",
            "schemas/t.toml:11:148: error[SR110/invalid-parameter-value] default of parameter `c` of t/e: `1e999` is not a finite number (help: write a finite number (in range; not NaN or infinity), or change the parameter's type)",
            "schemas/t.toml:11:197: error[SR110/invalid-parameter-value] default of parameter `d` of t/e: the number `99999999999999999999` is not of type `integer` (help: the number is too large for an integer: write a whole number up to 9223372036854775807, or change the parameter's type to `number`)",
            "Found 4 errors, 1 warning, 0 infos.",
        ]
    );
}

/// A tool that declares no endpoint is no tool a plan can call: SR505 says so (not "can only
/// be reached by name").
#[test]
fn a_tool_without_endpoints_is_reported() {
    let tool = "id = \"t\"\ntitle = \"T\"\ndomain = \"materials_property\"\nsource_type = \"calculated\"\nprovenance = {publisher = \"P\", citation = \"10.1000/x\"}\nlicence = {spdx = \"CC0-1.0\"}\nendpoints = []\n";
    let dir = project(&[("schemas/t.toml", tool.as_bytes())]);
    let out = concise(dir.path());
    assert_eq!(
        out.lines().next().unwrap(),
        "schemas/t.toml:1:6: warning[SR505/unroutable-tool] tool `t` declares no endpoint: no plan can call it (help: declare its endpoints (`schemarouter import` writes them from an API description), or remove the file)"
    );
}

/// A default outside a string enum of number-like and boolean-like codes: the help writes the
/// values as the file must (`"1"`, quoted), so that following it loads.
#[test]
fn an_enum_s_values_in_a_help_line_are_written_to_load_as_strings() {
    let tool = "id: t\ntitle: T\ndomain: materials_property\nsource_type: calculated\nprovenance: {publisher: P, citation: 10.1000/x}\nlicence: {spdx: CC0-1.0}\nendpoints:\n  - id: e\n    method: GET\n    url: https://t.example/e\n    parameters:\n      - {name: federal, type: string, enum: [\"1\", \"0\", \"true\", \"false\"], default: maybe}\n      - {name: sort, type: string, enum: [asc, desc], default: ascc}\n    fields:\n      - {name: id, type: string, identifier: true}\n";
    let dir = project(&[("schemas/t.yaml", tool.as_bytes())]);
    let out = concise(dir.path());
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("SR110")).collect();
    assert_eq!(
        lines,
        [
            "schemas/t.yaml:12:83: error[SR110/invalid-parameter-value] default `maybe` of parameter `federal` of t/e is not one of its enum values (help: use one of `\"1\"`, `\"0\"`, `\"true\"`, `\"false\"`, or add the default to the enum)",
            "schemas/t.yaml:13:64: error[SR110/invalid-parameter-value] default `ascc` of parameter `sort` of t/e is not one of its enum values (help: did you mean `asc`?)",
        ]
    );
}

#[test]
fn one_code_written_in_two_cases_is_reported() {
    for config in [
        "[lint.rules]\nSR205 = \"off\"\nsr205 = \"error\"\n",
        "[lint.rules]\nsr205 = \"error\"\nSR205 = \"off\"\n",
    ] {
        let aliases = format!("{BASE_ALIASES}  - id: unused_concept\n    unit: eV\n");
        let dir = project(&[
            ("schemarouter.toml", config.as_bytes()),
            ("aliases/base.yaml", aliases.as_bytes()),
        ]);
        let out = concise(dir.path());
        let line = if config.starts_with("[lint.rules]\nSR") {
            3
        } else {
            2
        };
        assert_eq!(
            out,
            format!(
                "schemarouter.toml:{line}:1: warning[SR903/unknown-rule] rule `orphan-concept` is set twice in [lint.rules], as `SR205` and as `sr205`; the entry `SR205` applies (help: keep one entry for `orphan-concept`)\nFound 0 errors, 1 warning, 0 infos.\n"
            ),
            "{config}"
        );
    }
}

#[cfg(unix)]
#[test]
fn two_declaration_folders_that_are_one_folder_are_an_error() {
    let dir = project(&[]);
    std::fs::remove_dir_all(dir.path().join("aliases")).unwrap();
    std::os::unix::fs::symlink("schemas", dir.path().join("aliases")).unwrap();
    assert_eq!(
        concise(dir.path()),
        "<project>: error[SR010/io-error] `aliases` and `schemas` are the same folder (or one holds the other), so the tool files would be read as alias files too; `aliases` was not read (help: give the alias files a folder of their own (or point [paths] in schemarouter.toml at one))\n\
         <project>: info[SR012/checks-skipped] some declaration files could not be read; skipped: dangling-reference, dangling-alias, prompt-budget, unused-suppression (help: fix the errors above and run `schemarouter check` again for the full report)\n\
         Found 1 error, 0 warnings, 1 info.\n"
    );
}

#[test]
fn a_toml_table_header_beyond_the_nesting_limit_is_pointed_at() {
    let keys: Vec<String> = (0..90).map(|i| format!("k{i}")).collect();
    let text = format!("[[domains]]\nid = \"a\"\n\n[x.{}]\ny = 1\n", keys.join("."));
    let c = concise(project(&[("intents/x.toml", text.as_bytes())]).path());
    assert_eq!(
        c.lines().next().unwrap(),
        "intents/x.toml:4:1: error[SR009/limit-exceeded] input limit exceeded: the file nests deeper than the TOML parser's nesting limit (about 80 levels of tables, arrays and dotted keys) (help: nest less deeply; this limit is built in and cannot be raised)"
    );
}

#[test]
fn a_merge_value_that_is_not_a_mapping_does_not_hide_the_rest() {
    let text = b"domains:\n  - <<: 5\n    id: a\n  - id: b\n    id: c\n";
    let c = concise(project(&[("intents/x.yaml", text)]).path());
    let lines: Vec<&str> = c.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "intents/x.yaml:2:9: error[SR001/parse-error] invalid YAML: the value of a `<<` merge key must be a mapping or a list of mappings (help: fix the YAML syntax at this position)",
            "intents/x.yaml:5:5: error[SR005/duplicate-key] duplicate key `id` (help: remove one of the two entries; a later key would silently replace the earlier one)",
        ]
    );
}

/// An intent's `entities` name parameter concepts; one that names nothing would silently change
/// which intent a bare entity query ("graphene") picks.
#[test]
fn an_intent_entity_naming_no_concept_is_a_dangling_reference() {
    let dir = project(&[
        (
            "intents/x.yaml",
            b"intents:\n  - id: lookup\n    description: Look up.\n    domains: [materials_property]\n    required_groups: [electronic]\n    entities: [formla]\n",
        ),
        (
            "aliases/p.yaml",
            b"concepts:\n  - id: formula\n    kind: parameter\n",
        ),
    ]);
    let out = concise(dir.path());
    let found: Vec<&str> = out.lines().filter(|l| l.contains("SR103")).collect();
    assert_eq!(
        found,
        [
            "intents/x.yaml:6:16: error[SR103/dangling-reference] intent `lookup` references undeclared concept `formla` (help: did you mean `formula`? Otherwise declare concept `formla`)"
        ]
    );
}

/// Intents and aliases but no `schemas/` folder: one finding names the cause of the cascade.
#[test]
fn a_project_without_a_schemas_folder_is_told_so() {
    let dir = project(&[]);
    std::fs::remove_dir_all(dir.path().join("schemas")).unwrap();
    let out = concise(dir.path());
    let found: Vec<&str> = out.lines().filter(|l| l.contains("SR014")).collect();
    assert_eq!(
        found,
        [
            "<project>: warning[SR014/no-tools] the project declares no tools: there is no `schemas/` folder (help: declare tools under `schemas/` (`schemarouter schema tool` prints their JSON Schema), or import them with `schemarouter import openapi | mcp | openai`)"
        ]
    );
}

/// A TOML file saved as `.yaml` fails as YAML far below its first line; the help says what it is.
#[test]
fn a_toml_body_in_a_yaml_file_is_named_as_toml() {
    let dir = project(&[(
        "schemas/t.yaml",
        b"# A tool\nid = \"t\"\ntitle = \"T\"\ndomain = \"materials_property\"\n\n[[endpoints]]\nid = \"e\"\n# the call\nmethod = \"GET\"\n",
    )]);
    let out = concise(dir.path());
    let found: Vec<&str> = out.lines().filter(|l| l.contains("SR001")).collect();
    assert_eq!(
        found,
        [
            "schemas/t.yaml:9:1: error[SR001/parse-error] invalid YAML: did not find expected <document start> (help: this looks like TOML (line 2: `key = value`): give the file a `.toml` extension, or write it as YAML (`key: value`))"
        ]
    );
}

/// And a YAML file saved as `.toml`.
#[test]
fn a_yaml_body_in_a_toml_file_is_named_as_yaml() {
    let dir = project(&[(
        "schemas/t.toml",
        b"# A tool\nid: t\ntitle: T\ndomain: materials_property\nendpoints:\n  - id: e\n",
    )]);
    let out = concise(dir.path());
    let found: Vec<&str> = out.lines().filter(|l| l.contains("SR001")).collect();
    assert_eq!(found.len(), 1, "{out}");
    assert!(
        found[0].starts_with("schemas/t.toml:2:")
            && found[0].ends_with("(help: this looks like YAML (line 2: `key: value`): give the file a `.yaml` extension, or write it as TOML (`key = value`))"),
        "{out}"
    );
}

/// Every fault of `schemarouter.toml` is reported in one run, as for declaration files.
#[test]
fn every_fault_of_the_configuration_is_reported_at_once() {
    let dir = project(&[(
        "schemarouter.toml",
        b"[lint]\nselcet = [\"a\"]\n[limits]\nmax-depth = -1\nmax-file-bytes = \"big\"\n",
    )]);
    let out = concise(dir.path());
    let found: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("schemarouter.toml"))
        .collect();
    assert_eq!(
        found,
        [
            "schemarouter.toml:2:1: error[SR006/unknown-key] unknown key `selcet` (help: expected one of: profile, fail-level, exclude, rules, prompt-budget)",
            "schemarouter.toml:4:13: error[SR007/invalid-value] integer -1 is out of range (help: write a whole number from 0 to 4294967295)",
            "schemarouter.toml:5:18: error[SR007/invalid-value] expected an integer, found the string `big` (help: write a whole number, e.g. `10`)",
        ]
    );
}

/// Issue 38: an offset temperature scale is a unit (absolute values, converted with the offset;
/// see docs/units.md); a misspelled one is answered with the scale, never with `K`.
#[test]
fn an_offset_temperature_loads_and_a_misspelled_one_suggests_the_scale() {
    let dir = project(&[(
        "aliases/t.yaml",
        "concepts:\n  - id: fermi_energy_2\n    unit: degC\n  - id: t2\n    unit: Fahrenheight\n  - id: t3\n    unit: degreesF\n"
            .as_bytes(),
    )]);
    let out = concise(dir.path());
    let found: Vec<&str> = out.lines().filter(|l| l.contains("SR301")).collect();
    assert_eq!(
        found,
        [
            "aliases/t.yaml:5:11: error[SR301/invalid-unit] concept `t2` has invalid unit `Fahrenheight`: unknown unit symbol 'Fahrenheight' (help: did you mean `Fahrenheit`?)"
        ]
    );
}

/// `[units]` faults name the entry at fault with a help that fits it: an entry whose definition
/// is unknown (not the entry that uses it, which was called a circular definition), a built-in
/// unit declared again, a name with a digit.
#[test]
fn unit_extension_faults_name_the_entry_at_fault() {
    let finding = |units: &str| {
        let dir = project(&[(
            "schemarouter.toml",
            format!("[units]\n{units}\n").as_bytes(),
        )]);
        concise(dir.path())
            .lines()
            .find(|l| l.contains("[units]"))
            .unwrap_or_default()
            .split_once(": error")
            .map(|(_, rest)| rest.to_string())
            .unwrap_or_default()
    };
    assert_eq!(
        finding("foo = \"blorp\"\nbarx = \"2 foo\""),
        "[SR007/invalid-value] unit `foo` in [units] is not valid: unknown unit symbol 'blorp' (help: write the definition as `<number> <unit>`, e.g. `0.529177210903 Å`)"
    );
    assert_eq!(
        finding("eV = \"1.6e-19 J\""),
        "[SR007/invalid-value] unit `eV` in [units] is not valid: unit 'eV' would shadow the known unit 'eV'; choose another name (help: a built-in unit needs no entry: remove this one to use it, or give your unit another name)"
    );
    // A declaration that restates a built-in unit's size (a project written before `kcal`
    // was built in) loads without a finding.
    assert_eq!(finding("eV = \"1.602176634e-19 J\"\nkcal = \"4184 J\""), "");
    assert_eq!(
        finding("degC = \"1 K\"\nslope = \"1 °C/min\""),
        "[SR007/invalid-value] unit `degC` in [units] is not valid: unit 'degC' would shadow the known unit '°C'; choose another name (help: a built-in unit needs no entry: remove this one to use it, or give your unit another name)"
    );
    assert_eq!(
        finding("slope = \"1 °C/min\""),
        "[SR007/invalid-value] unit `slope` in [units] is not valid: an extension unit is a factor times known units, and an offset temperature scale has a zero point: define it from `K`, or from `delta_degC`/`delta_degF` for a degree size (help: `°C` and `°F` are built in and need no entry; define a unit of temperature from `K`, or a degree size from `delta_degC`/`delta_degF`, e.g. `rankine = \"1 delta_degF\"`)"
    );
    assert_eq!(
        finding("ry2 = \"2 J\""),
        "[SR007/invalid-value] unit `ry2` in [units] is not valid: invalid unit name 'ry2': use letters and '_' only (no digits, dots or operators) (help: name the unit with letters and `_` only, e.g. `bohr = \"0.529177210903 Å\"`)"
    );
}

#[test]
fn a_key_of_a_text_map_written_as_a_number_null_or_list_is_refused() {
    // Language codes are free text: `1`, `null` and `[a]` would become the languages "1",
    // "null" and "<complex key>".
    let aliases = format!(
        "{BASE_ALIASES}    aliases:\n      1: [one]\n      ~: [none]\n      true: [yes]\n      ? [a]\n      : [b]\n      \"2\": [two]\n"
    );
    let dir = project(&[("aliases/base.yaml", aliases.as_bytes())]);
    assert_eq!(
        concise(dir.path()),
        "aliases/base.yaml:5:7: error[SR007/invalid-value] a key here must be text, but `1` is read as a number (help: quote the key (`\"1\"`) if you mean the text)\n\
         aliases/base.yaml:6:7: error[SR007/invalid-value] a key here must be text, but `null` is read as null (help: quote the key (`\"null\"`) if you mean the text)\n\
         aliases/base.yaml:7:7: error[SR007/invalid-value] a key here must be text, but `true` is read as a boolean (help: quote the key (`\"true\"`) if you mean the text)\n\
         aliases/base.yaml:8:9: error[SR007/invalid-value] a key here must be text, not a list or map (help: write the key as text)\n\
         <project>: info[SR012/checks-skipped] some declaration files could not be read; skipped: dangling-reference, dangling-alias, prompt-budget, unused-suppression (help: fix the errors above and run `schemarouter check` again for the full report)\n\
         Found 4 errors, 0 warnings, 1 info.\n"
    );
}

#[test]
fn yaml_1_1_integers_and_tagged_floats_are_not_integers() {
    for (value, found) in [
        ("0b101", "the string `0b101`"),
        ("-0x1F", "the string `-0x1F`"),
        ("!!float 10", "the number `10`"),
    ] {
        // The span is the value's (after a tag).
        let column = if value.starts_with("!!") { 19 } else { 11 };
        let tool = BASE_TOOL.replace(
            "source_type: calculated\n",
            &format!("source_type: calculated\npriority: {value}\n"),
        );
        let dir = project(&[("schemas/base.yaml", tool.as_bytes())]);
        let out = concise(dir.path());
        assert!(
            out.starts_with(&format!(
                "schemas/base.yaml:5:{column}: error[SR007/invalid-value] expected an integer, found {found}"
            )),
            "{value}: {out}"
        );
    }
    let tool = BASE_TOOL.replace(
        "source_type: calculated\n",
        "source_type: calculated\npriority: 0x1F\n",
    );
    let dir = project(&[("schemas/base.yaml", tool.as_bytes())]);
    assert_eq!(concise(dir.path()), "No problems found.\n");
}

#[test]
fn a_line_feed_in_a_quoted_key_cannot_forge_an_output_line() {
    let tool = format!("{BASE_TOOL}\"x\\n::error file=evil.yaml,line=1::forged\": 1\n");
    let dir = project(&[("schemas/base.yaml", tool.as_bytes())]);
    let checked = check_path(dir.path()).unwrap();
    for format in [
        OutputFormat::Human,
        OutputFormat::Concise,
        OutputFormat::Github,
        OutputFormat::Json,
        OutputFormat::Sarif,
        OutputFormat::Gitlab,
        OutputFormat::Junit,
    ] {
        let out = render(
            format,
            &checked.diagnostics,
            &checked.project.sources,
            false,
        );
        // Neither a raw line feed nor one a JSON reader would decode (`\n` in the JSON text;
        // the human excerpt shows the file's own text, where `\n` is two characters).
        assert!(!out.contains("x\n::error"), "{format:?}: {out}");
        let json = matches!(
            format,
            OutputFormat::Json | OutputFormat::Sarif | OutputFormat::Gitlab
        );
        assert!(!json || !out.contains("x\\n::error"), "{format:?}: {out}");
        assert!(
            out.contains("u{a}::error file=evil.yaml"),
            "{format:?}: {out}"
        );
    }
}

#[test]
fn syntax_errors_point_at_their_cause() {
    for (text, expected) in [
        (
            "domains:\n  - id: a\n    description: \"x\\qy\"\n",
            "intents/x.yaml:3:20: error[SR001/parse-error] invalid YAML: unknown escape `\\q` in a double-quoted string",
        ),
        (
            "domains:\n  - id: a\n    description: abcdefghij klm \u{1b} esc\n",
            "intents/x.yaml:3:33: error[SR001/parse-error] invalid YAML: the control character U+001B is not allowed in YAML text (write it as an escape in a double-quoted string, or remove it)",
        ),
        (
            "domains:\n  - id: extra\n    description: [OQMD\n  - id: extra2\n",
            "intents/x.yaml:3:18: error[SR001/parse-error] invalid YAML: unclosed bracket `[`: the flow list it opens is not closed with `]` on its line, and the next line goes on as a block",
        ),
        (
            "domains:\n  - id: b\n    x: {k: 1\n    y: 2\n",
            "intents/x.yaml:3:8: error[SR001/parse-error] invalid YAML: unclosed bracket `{`: the flow mapping it opens is not closed with `}` on its line, and the next line goes on as a block",
        ),
        (
            "domains:\n  - id: \"open\n    description: plain\n  - id: c\n    description: \"x \\\"y\\\" z\" and more\n",
            "intents/x.yaml:2:9: error[SR001/parse-error] invalid YAML: the double-quoted string opened here is not closed on its line: it runs to the next `\"`, on line 5, where text follows it",
        ),
        (
            "domains:\n  - id: 'it''s\n    description: x\n  - id: 'd' e\n",
            "intents/x.yaml:2:9: error[SR001/parse-error] invalid YAML: the single-quoted string opened here is not closed on its line: it runs to the next `'`, on line 4, where text follows it",
        ),
    ] {
        let dir = project(&[("intents/x.yaml", text.as_bytes())]);
        let out = concise(dir.path());
        assert!(out.starts_with(expected), "{text:?}\n{out}");
    }
}

#[test]
fn an_invalid_byte_is_a_one_character_span() {
    let dir = project(&[("intents/x.yaml", b"domains:\n  - id: \xe6\x97\xa5\xff\n")]);
    let c = check_path(dir.path()).unwrap();
    let out = render(
        OutputFormat::Json,
        &c.diagnostics,
        &c.project.sources,
        false,
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "SR002")
        .unwrap_or_else(|| panic!("{out}"));
    let at = &d["location"];
    assert_eq!(
        (&at["line"], &at["column"], &at["end_column"], &at["length"]),
        (&2.into(), &10.into(), &11.into(), &3.into()),
        "{out}"
    );
}

#[test]
fn a_file_holding_one_bare_value_is_told_the_keys_of_its_map() {
    let dir = project(&[("aliases/x.yaml", b"hello\n")]);
    assert!(
        concise(dir.path()).starts_with(
            "aliases/x.yaml:1:1: error[SR007/invalid-value] expected a map, found the string `hello` (help: a declaration file is a map with the keys concepts, aliases, qualifiers, recognisers, cues)\n"
        ),
        "{}",
        concise(dir.path())
    );
}

/// Everyday units of public APIs load (nutrition, real estate, transport); a currency code is
/// answered with why no unit fits it, and an unknown unit with a help line that does not speak
/// of one domain's units.
#[test]
fn everyday_units_load_and_a_currency_or_unknown_unit_gets_a_neutral_help() {
    let dir = project(&[(
        "aliases/e.yaml",
        "concepts:\n  - id: calories\n    unit: kcal\n  - id: area\n    unit: ft^2\n  - id: weight\n    unit: lb\n  - id: speed\n    unit: mi/h\n  - id: price\n    unit: USD\n  - id: length\n    unit: furlong\n"
            .as_bytes(),
    )]);
    let out = concise(dir.path());
    let found: Vec<&str> = out.lines().filter(|l| l.contains("SR301")).collect();
    assert_eq!(
        found,
        [
            "aliases/e.yaml:11:11: error[SR301/invalid-unit] concept `price` has invalid unit `USD`: unknown unit symbol 'USD' (help: a currency converts by rates that change, not by a factor: leave `unit` out and name the currency in the field's description)",
            "aliases/e.yaml:13:11: error[SR301/invalid-unit] concept `length` has invalid unit `furlong`: unknown unit symbol 'furlong' (help: write the unit in the unit grammar (`km/h`, `kg`, `kcal`, `°C`, `W/(m·K)`), or declare it under `[units]` in schemarouter.toml as a factor of known units (`furlong = \"201.168 m\"`))",
        ]
    );
}
