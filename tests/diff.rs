//! Schema diff: one fixture pair per change code (edits of `tests/fixtures/diff/base` listed in
//! `tests/fixtures/diff/cases.toml`) with its expected class and an insta snapshot of the human
//! output; identity and reordering give no changes; several changes on one entity are all
//! reported; acceptances; artifacts compare like projects; JSON, Markdown, GitHub and JUnit
//! snapshots of a pull-request-sized diff with plan impact.

use schemarouter::artifact::io;
use schemarouter::diff::render::{DiffFormat, RenderOptions, render};
use schemarouter::diff::{self, Class, FailOn, Report, Side, codes, plans};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff")
}

fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
}

#[derive(Debug, Deserialize)]
struct Cases {
    case: Vec<Case>,
}

#[derive(Debug, Deserialize)]
struct Case {
    name: Option<String>,
    code: String,
    class: String,
    #[serde(default)]
    also: Vec<String>,
    #[serde(default)]
    edit: Vec<Edit>,
}

#[derive(Debug, Deserialize)]
struct Edit {
    #[serde(default)]
    side: Option<String>,
    file: String,
    find: Option<String>,
    replace: Option<String>,
    content: Option<String>,
    #[serde(default)]
    delete: bool,
}

fn apply(root: &Path, e: &Edit) {
    let p = root.join(&e.file);
    if e.delete {
        std::fs::remove_file(&p).unwrap();
    } else if let Some(c) = &e.content {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, c).unwrap();
    } else {
        let find = e
            .find
            .as_deref()
            .expect("edit needs find, content or delete");
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(
            text.matches(find).count(),
            1,
            "`{find}` must occur once in {}",
            e.file
        );
        std::fs::write(
            &p,
            text.replacen(find, e.replace.as_deref().unwrap_or(""), 1),
        )
        .unwrap();
    }
}

fn side(root: &Path, label: &str) -> Side {
    Side::from_project_dir(root, label, "").unwrap_or_else(|e| panic!("{e}: {}", e.details))
}

/// Copies of the base with `old_edits` / `new_edits` applied.
fn pair(old_edits: &[&Edit], new_edits: &[&Edit]) -> (tempfile::TempDir, Side, Side) {
    let dir = tempfile::tempdir().unwrap();
    let (o, n) = (dir.path().join("old"), dir.path().join("new"));
    copy_dir(&fixtures().join("base"), &o);
    copy_dir(&fixtures().join("base"), &n);
    for e in old_edits {
        apply(&o, e);
    }
    for e in new_edits {
        apply(&n, e);
    }
    let (so, sn) = (side(&o, "old"), side(&n, "new"));
    (dir, so, sn)
}

fn edit(file: &str, find: &str, replace: &str) -> Edit {
    Edit {
        side: None,
        file: file.into(),
        find: Some(find.into()),
        replace: Some(replace.into()),
        content: None,
        delete: false,
    }
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(true);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

fn human(r: &Report) -> String {
    render(DiffFormat::Human, r, RenderOptions::default())
}

fn load_cases() -> Vec<Case> {
    let text = std::fs::read_to_string(fixtures().join("cases.toml")).unwrap();
    toml::from_str::<Cases>(&text).unwrap().case
}

#[test]
fn every_code_has_a_fixture_case() {
    let cases = load_cases();
    let covered: BTreeSet<&str> = cases.iter().map(|c| c.code.as_str()).collect();
    let all: BTreeSet<&str> = codes::ALL.iter().map(|e| e.code).collect();
    let missing: Vec<_> = all.difference(&covered).collect();
    let unknown: Vec<_> = covered.difference(&all).collect();
    assert!(missing.is_empty(), "codes without a case: {missing:?}");
    assert!(unknown.is_empty(), "cases with unknown codes: {unknown:?}");
}

#[test]
fn each_change_code_is_detected_and_classified() {
    for case in load_cases() {
        let name = case.name.clone().unwrap_or_else(|| case.code.clone());
        let olds: Vec<&Edit> = case
            .edit
            .iter()
            .filter(|e| e.side.as_deref() == Some("old"))
            .collect();
        let news: Vec<&Edit> = case
            .edit
            .iter()
            .filter(|e| e.side.as_deref() != Some("old"))
            .collect();
        let (_dir, old, new) = pair(&olds, &news);
        let report = diff::diff(&old, &new);
        let got: BTreeSet<&str> = report.changes.iter().map(|c| c.code).collect();
        let mut want: BTreeSet<&str> = case.also.iter().map(String::as_str).collect();
        want.insert(&case.code);
        assert_eq!(got, want, "case `{name}`:\n{}", human(&report));
        let main = report.changes.iter().find(|c| c.code == case.code).unwrap();
        assert_eq!(main.class.as_str(), case.class, "case `{name}`");
        assert_eq!(
            codes::find(&case.code).unwrap().class,
            main.class,
            "case `{name}`"
        );
        // Fingerprints are stable: the same diff again gives the same ones.
        let again = diff::diff(&old, &new);
        assert_eq!(report, again);
        snapshot(&format!("case_{}", name.replace('-', "_")), &human(&report));
    }
}

#[test]
fn identical_sides_have_no_changes() {
    let base = fixtures().join("base");
    let a = side(&base, "a");
    let b = side(&base, "b");
    let r = diff::diff(&a, &b);
    assert!(r.changes.is_empty(), "{}", human(&r));
    assert!(!r.fails(FailOn::Dangerous));
}

#[test]
fn reordering_files_keys_and_lists_is_not_a_change() {
    let a = side(&fixtures().join("base"), "base");
    let b = side(&fixtures().join("reordered"), "reordered");
    assert!(!b.graph.tools.is_empty() && !b.graph.concepts.is_empty());
    let r = diff::diff(&a, &b);
    assert!(r.changes.is_empty(), "{}", human(&r));
    let r = diff::diff(&b, &a);
    assert!(r.changes.is_empty(), "{}", human(&r));
}

#[test]
fn several_changes_on_one_field_are_all_reported() {
    let e = edit(
        "schemas/alpha.yaml",
        "        unit: eV\n        groups: [electronic]\n        concepts: [band_gap]\n        qualifiers: {method: GGA}\n        description: Band gap (GGA).\n",
        "        unit: meV\n        concepts: [band_gap]\n        qualifiers: {method: GGA}\n        description: Band gap in meV.\n",
    );
    let (_d, old, new) = pair(&[], &[&e]);
    let r = diff::diff(&old, &new);
    let got: Vec<(&str, Class)> = r.changes.iter().map(|c| (c.code, c.class)).collect();
    assert_eq!(
        got,
        vec![
            ("unit-rescaled", Class::Breaking),
            ("field-group-removed", Class::Dangerous),
            ("description-changed", Class::Safe),
        ]
    );
    assert!(
        r.changes
            .iter()
            .all(|c| c.entity == "tool/alpha/endpoint/summary/field/band_gap")
    );
    let unit = &r.changes[0];
    assert_eq!(unit.factor, Some(1000.0));
    assert!(unit.message.contains("factor of 1000"), "{}", unit.message);
    let loc = unit.new_location.as_ref().unwrap();
    assert_eq!((loc.file.as_str(), loc.line), ("schemas/alpha.yaml", 49));
}

#[test]
fn renamed_field_is_one_change_and_other_edits_still_show() {
    let e = edit(
        "schemas/alpha.yaml",
        "      - name: efermi\n        type: number\n        unit: eV\n",
        "      - name: fermi_level\n        type: number\n        unit: eV\n        description: Fermi level.\n",
    );
    let (_d, old, new) = pair(&[], &[&e]);
    let r = diff::diff(&old, &new);
    let got: Vec<(&str, &str)> = r
        .changes
        .iter()
        .map(|c| (c.code, c.entity.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("field-renamed", "tool/alpha/endpoint/summary/field/efermi"),
            (
                "description-changed",
                "tool/alpha/endpoint/summary/field/fermi_level"
            ),
        ]
    );
    let c = &r.changes[0];
    assert!(c.message.contains("`efermi`") && c.message.contains("`fermi_level`"));
    assert_eq!(c.old_location.as_ref().unwrap().line, 54);
    assert_eq!(c.new_location.as_ref().unwrap().line, 54);
}

#[test]
fn removals_point_at_the_surviving_parent_on_the_new_side() {
    let e = edit(
        "schemas/alpha.yaml",
        "      - name: nsites\n        type: integer\n",
        "",
    );
    let (_d, old, new) = pair(&[], &[&e]);
    let r = diff::diff(&old, &new);
    let c = &r.changes[0];
    assert_eq!(c.code, "field-removed");
    let o = c.old_location.as_ref().unwrap();
    assert_eq!(
        (o.file.as_str(), o.line, o.column),
        ("schemas/alpha.yaml", 73, 15)
    );
    // The endpoint `summary` on the new side.
    let n = c.new_location.as_ref().unwrap();
    assert_eq!(
        (n.file.as_str(), n.line, n.column),
        ("schemas/alpha.yaml", 14, 9)
    );
}

#[test]
fn acceptances_silence_changes_and_unmatched_ones_are_reported() {
    let removal = edit(
        "schemas/alpha.yaml",
        "      - name: nsites\n        type: integer\n",
        "",
    );
    let (_d, old, new) = pair(&[], &[&removal]);
    let r = diff::diff(&old, &new);
    assert!(r.fails(FailOn::Breaking));
    let fp = r.changes[0].fingerprint.clone();
    let accept = edit(
        "schemarouter.toml",
        "version = \"1.0.0\"\n",
        &format!(
            "version = \"1.0.0\"\n\n[diff]\naccept = [\n  {{ fingerprint = \"{fp}\", reason = \"nsites moved to the structure endpoint\" }},\n  {{ fingerprint = \"0000000000000000\", reason = \"stale\" }},\n]\n"
        ),
    );
    let (_d2, old, new) = pair(&[], &[&removal, &accept]);
    let r = diff::diff(&old, &new);
    assert_eq!(
        r.changes[0].accepted.as_deref(),
        Some("nsites moved to the structure endpoint")
    );
    assert!(!r.fails(FailOn::Breaking));
    assert!(!r.fails(FailOn::Dangerous));
    assert_eq!(r.counts().accepted, 1);
    assert_eq!(r.unmatched_acceptances.len(), 1);
    let u = &r.unmatched_acceptances[0];
    assert_eq!(u.fingerprint, "0000000000000000");
    assert_eq!(u.location.as_ref().unwrap().file, "schemarouter.toml");
    let text = human(&r);
    assert!(
        text.contains("0000000000000000 (schemarouter.toml:"),
        "{text}"
    );
    // Acceptances on the OLD side do not count.
    let (_d3, old, new) = pair(&[&accept], &[&removal]);
    assert!(diff::diff(&old, &new).fails(FailOn::Breaking));
    // A fingerprint in capitals is the same fingerprint; one that is no fingerprint is named so.
    let loud = edit(
        "schemarouter.toml",
        "version = \"1.0.0\"\n",
        &format!(
            "version = \"1.0.0\"\n\n[diff]\naccept = [\n  {{ fingerprint = \"{}\", reason = \"moved\" }},\n  {{ fingerprint = \"xyz\", reason = \"typo\" }},\n]\n",
            fp.to_ascii_uppercase()
        ),
    );
    let (_d4, old, new) = pair(&[], &[&removal, &loud]);
    let r = diff::diff(&old, &new);
    assert_eq!(r.changes[0].accepted.as_deref(), Some("moved"));
    assert_eq!(r.unmatched_acceptances.len(), 1);
    let text = human(&r);
    assert!(
        text.contains("`[diff] accept` entry xyz (schemarouter.toml:9:19) is no change fingerprint (16 hexadecimal digits, as `schemarouter diff` prints them), so it matches no change (reason: typo)"),
        "{text}"
    );
}

#[test]
fn gate_levels() {
    let e = edit("schemas/alpha.yaml", "priority: 50", "priority: 60");
    let (_d, old, new) = pair(&[], &[&e]);
    let r = diff::diff(&old, &new);
    assert!(!r.fails(FailOn::Breaking));
    assert!(r.fails(FailOn::Dangerous));
    assert!(!r.fails(FailOn::None));
}

/// The pull-request-sized pair under `tests/fixtures/diff/pr`.
fn pr() -> (Side, Side) {
    let root = fixtures().join("pr");
    (
        side(&root.join("old"), "old"),
        side(&root.join("new"), "new"),
    )
}

fn pr_report() -> Report {
    let (old, new) = pr();
    let inputs = plans::read_plans(&fixtures().join("pr/plans.json")).unwrap();
    diff::diff_with_plans(&old, &new, &inputs)
}

#[test]
fn pull_request_outputs() {
    let r = pr_report();
    let opts = RenderOptions {
        fail_on: FailOn::Breaking,
        color: false,
    };
    for (name, format) in [
        ("pr_human", DiffFormat::Human),
        ("pr_json", DiffFormat::Json),
        ("pr_markdown", DiffFormat::Markdown),
        ("pr_github", DiffFormat::Github),
        ("pr_junit", DiffFormat::Junit),
    ] {
        snapshot(name, &render(format, &r, opts));
    }
    let json: serde_json::Value =
        serde_json::from_str(&render(DiffFormat::Json, &r, opts)).unwrap();
    assert_eq!(json["failed"], true);
    assert!(
        !r.plan_impact.as_ref().unwrap().changed.is_empty(),
        "{}",
        human(&r)
    );
}

#[test]
fn outputs_are_deterministic() {
    let a = pr_report();
    let b = pr_report();
    for f in [DiffFormat::Json, DiffFormat::Markdown, DiffFormat::Junit] {
        assert_eq!(
            render(f, &a, RenderOptions::default()),
            render(f, &b, RenderOptions::default())
        );
    }
}

#[test]
fn artifacts_compare_like_projects() {
    let (old, new) = pr();
    let dir = tempfile::tempdir().unwrap();
    let (oa, na) = (dir.path().join("old.json"), dir.path().join("new.bin"));
    std::fs::write(&oa, io::to_json_bytes(&old.graph)).unwrap();
    std::fs::write(&na, io::to_bin_bytes(&new.graph)).unwrap();
    let ao = Side::from_artifact(&oa, "old.json").unwrap();
    let an = Side::from_artifact(&na, "new.bin").unwrap();
    let from_projects = diff::diff(&old, &new);
    let from_artifacts = diff::diff(&ao, &an);
    let key = |r: &Report| {
        r.changes
            .iter()
            .map(|c| (c.code, c.entity.clone(), c.fingerprint.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(key(&from_projects), key(&from_artifacts));
    assert!(
        from_artifacts
            .changes
            .iter()
            .all(|c| c.old_location.is_none())
    );
    // Mixed: an artifact against a project.
    let mixed = diff::diff(&ao, &new);
    assert_eq!(key(&from_projects), key(&mixed));
    // An artifact against itself.
    assert!(diff::diff(&ao, &ao).changes.is_empty());
}

#[test]
fn bare_cr_and_crlf_files_give_the_same_lines_and_columns() {
    // The same removal, with the new side's file saved with LF, CRLF and bare-CR line ends: the
    // locations on both sides are those of the LF file.
    let removal = edit(
        "schemas/alpha.yaml",
        "      - name: nsites\n        type: integer\n",
        "",
    );
    let (_d, old, new) = pair(&[], &[&removal]);
    let want = diff::diff(&old, &new);
    let loc = |r: &Report| {
        let c = &r.changes[0];
        let (o, n) = (
            c.old_location.clone().unwrap(),
            c.new_location.clone().unwrap(),
        );
        (c.code, o.line, o.column, n.line, n.column, n.end_line)
    };
    assert_eq!(loc(&want), ("field-removed", 73, 15, 14, 9, loc(&want).5));
    for eol in ["\r\n", "\r"] {
        let dir = tempfile::tempdir().unwrap();
        let (o, n) = (dir.path().join("old"), dir.path().join("new"));
        copy_dir(&fixtures().join("base"), &o);
        copy_dir(&fixtures().join("base"), &n);
        apply(&n, &removal);
        for root in [&o, &n] {
            let p = root.join("schemas/alpha.yaml");
            let text = std::fs::read_to_string(&p).unwrap();
            std::fs::write(&p, text.replace('\n', eol)).unwrap();
        }
        let got = diff::diff(&side(&o, "old"), &side(&n, "new"));
        assert_eq!(got.changes.len(), want.changes.len(), "{eol:?}");
        assert_eq!(loc(&got), loc(&want), "{eol:?}");
        assert_eq!(got.changes[0].fingerprint, want.changes[0].fingerprint);
    }
}

fn write(file: &str, content: &str) -> Edit {
    Edit {
        side: None,
        file: file.into(),
        find: None,
        replace: None,
        content: Some(content.into()),
        delete: false,
    }
}

fn codes_and_entities(r: &Report) -> Vec<(&str, &str)> {
    r.changes
        .iter()
        .map(|c| (c.code, c.entity.as_str()))
        .collect()
}

/// Group `electronic` renamed to `electronic_structure` in its members and its intent.
fn group_rename_members() -> Vec<Edit> {
    vec![
        edit(
            "intents/registry.yaml",
            "required_groups: [electronic]",
            "required_groups: [electronic_structure]",
        ),
        edit(
            "schemas/alpha.yaml",
            "        groups: [electronic]\n        concepts: [band_gap]",
            "        groups: [electronic_structure]\n        concepts: [band_gap]",
        ),
        edit(
            "schemas/alpha.yaml",
            "        groups: [electronic]\n        concepts: [fermi_energy]",
            "        groups: [electronic_structure]\n        concepts: [fermi_energy]",
        ),
    ]
}

const FERMI: &str = "  - id: fermi_energy\n    unit: eV\n    aliases:\n      en: [fermi level]\n";
const STABILITY: &str = "  - id: thermodynamic_stability\n    description: Formation energies.\n    domains: [materials_property]\n    required_groups: [thermodynamic]\n";
const BEF: &str = "  - id: electronic\n    description: Electronic structure.\n";

/// One rename shape: name, edits of the new side, expected (code, entity) pairs.
type Shape = (&'static str, Vec<Edit>, Vec<(&'static str, &'static str)>);

/// Each shape of a rename, for each kind: (name, edits of the new side, expected codes and
/// entities). Pure renames are the `cases.toml` cases.
fn rename_shapes() -> Vec<Shape> {
    let mut out = group_rename_shapes();
    out.extend(concept_rename_shapes());
    out.extend(intent_rename_shapes());
    out
}

/// The shapes of a field-group rename.
fn group_rename_shapes() -> Vec<Shape> {
    let mut out = Vec::new();
    // Group: rename with a description edit and a new member.
    let mut e = group_rename_members();
    e.push(edit(
        "intents/registry.yaml",
        BEF,
        "  - id: electronic_structure\n    description: Electronic structure of crystals.\n",
    ));
    e.push(edit(
        "schemas/alpha.yaml",
        "      - name: nsites\n        type: integer\n",
        "      - name: nsites\n        type: integer\n        groups: [electronic_structure]\n",
    ));
    out.push((
        "group_rename_with_edits",
        e,
        vec![
            ("group-renamed", "group/electronic"),
            ("description-changed", "group/electronic_structure"),
            (
                "field-group-added",
                "tool/alpha/endpoint/summary/field/nsites",
            ),
        ],
    ));
    // Group: two equally good candidates claim no rename.
    out.push((
        "group_rename_ambiguous",
        vec![
            edit(
                "intents/registry.yaml",
                BEF,
                "  - id: electronic_a\n    description: A.\n  - id: electronic_b\n    description: B.\n",
            ),
            edit(
                "intents/registry.yaml",
                "required_groups: [electronic]",
                "required_groups: [electronic_a, electronic_b]",
            ),
            edit(
                "schemas/alpha.yaml",
                "        groups: [electronic]\n        concepts: [band_gap]",
                "        groups: [electronic_a, electronic_b]\n        concepts: [band_gap]",
            ),
            edit(
                "schemas/alpha.yaml",
                "        groups: [electronic]\n        concepts: [fermi_energy]",
                "        groups: [electronic_a, electronic_b]\n        concepts: [fermi_energy]",
            ),
        ],
        vec![
            ("group-removed", "group/electronic"),
            ("intent-groups-changed", "intent/electronic_property"),
            ("field-group-removed", "tool/alpha/endpoint/summary/field/band_gap"),
            ("field-group-removed", "tool/alpha/endpoint/summary/field/efermi"),
            ("group-added", "group/electronic_a"),
            ("group-added", "group/electronic_b"),
            ("field-group-added", "tool/alpha/endpoint/summary/field/band_gap"),
            ("field-group-added", "tool/alpha/endpoint/summary/field/band_gap"),
            ("field-group-added", "tool/alpha/endpoint/summary/field/efermi"),
            ("field-group-added", "tool/alpha/endpoint/summary/field/efermi"),
        ],
    ));
    // Group: renamed and moved to another file.
    let mut e = group_rename_members();
    e.push(edit("intents/registry.yaml", BEF, ""));
    e.push(write(
        "intents/extra.yaml",
        "groups:\n  - id: electronic_structure\n    description: Electronic structure.\n",
    ));
    out.push((
        "group_rename_across_files",
        e,
        vec![("group-renamed", "group/electronic")],
    ));
    out
}

/// The shapes of a concept rename.
#[allow(clippy::vec_init_then_push)] // one commented push per shape
fn concept_rename_shapes() -> Vec<Shape> {
    let mut out = Vec::new();
    // Concept: rename with a new alias and a description.
    out.push((
        "concept_rename_with_edits",
        vec![
            edit(
                "aliases/concepts.yaml",
                FERMI,
                "  - id: e_fermi\n    unit: eV\n    aliases:\n      en: [fermi level]\n      sym: [E_F]\n    description: Fermi energy.\n",
            ),
            edit(
                "schemas/alpha.yaml",
                "concepts: [fermi_energy]",
                "concepts: [e_fermi]",
            ),
        ],
        vec![
            ("concept-renamed", "concept/fermi_energy"),
            ("alias-added", "alias/e_f"),
            ("description-changed", "concept/e_fermi"),
        ],
    ));
    // Concept: a parameter concept renamed; its binding follows.
    out.push((
        "concept_rename_parameter",
        vec![
            edit(
                "aliases/concepts.yaml",
                "  - id: formula\n    kind: parameter\n",
                "  - id: composition\n    kind: parameter\n",
            ),
            edit(
                "schemas/alpha.yaml",
                "          - concept: formula\n",
                "          - concept: composition\n",
            ),
        ],
        vec![("concept-renamed", "concept/formula")],
    ));
    // Concept: renamed, old id kept as an alias, stand-alone aliases (one also naming a field)
    // re-pointed along: one change.
    out.push((
        "concept_rename_old_id_kept_with_field_alias",
        vec![
            edit(
                "aliases/concepts.yaml",
                "  - id: formation_energy\n    unit: eV/atom\n    aliases:\n      en: [formation enthalpy]\n",
                "  - id: e_formation\n    unit: eV/atom\n    aliases:\n      en: [formation enthalpy, formation energy]\n",
            ),
            edit(
                "aliases/concepts.yaml",
                "concept: formation_energy, field:",
                "concept: e_formation, field:",
            ),
            edit(
                "schemas/alpha.yaml",
                "concepts: [formation_energy]",
                "concepts: [e_formation]",
            ),
        ],
        vec![("concept-renamed-old-id-kept", "concept/formation_energy")],
    ));
    // Concept: two equally good candidates claim no rename.
    out.push((
        "concept_rename_ambiguous",
        vec![
            edit(
                "aliases/concepts.yaml",
                FERMI,
                "  - id: ef_a\n    unit: eV\n  - id: ef_b\n    unit: eV\n",
            ),
            edit(
                "schemas/alpha.yaml",
                "concepts: [fermi_energy]",
                "concepts: [ef_a, ef_b]",
            ),
        ],
        vec![
            ("concept-removed", "concept/fermi_energy"),
            (
                "field-concept-removed",
                "tool/alpha/endpoint/summary/field/efermi",
            ),
            ("concept-added", "concept/ef_a"),
            ("concept-added", "concept/ef_b"),
            (
                "field-concept-added",
                "tool/alpha/endpoint/summary/field/efermi",
            ),
            (
                "field-concept-added",
                "tool/alpha/endpoint/summary/field/efermi",
            ),
        ],
    ));
    // Concept: renamed and moved to another file.
    out.push((
        "concept_rename_across_files",
        vec![
            edit("aliases/concepts.yaml", FERMI, ""),
            write(
                "aliases/extra.yaml",
                "concepts:\n  - id: e_fermi\n    unit: eV\n    aliases:\n      en: [fermi level]\n",
            ),
            edit(
                "schemas/alpha.yaml",
                "concepts: [fermi_energy]",
                "concepts: [e_fermi]",
            ),
        ],
        vec![("concept-renamed", "concept/fermi_energy")],
    ));
    out
}

/// The shapes of an intent rename.
#[allow(clippy::vec_init_then_push)] // one commented push per shape
fn intent_rename_shapes() -> Vec<Shape> {
    let mut out = Vec::new();
    // Intent: rename with a new description and one example replaced.
    out.push((
        "intent_rename_with_edits",
        vec![edit(
            "intents/registry.yaml",
            "  - id: electronic_property\n    description: Band gaps and Fermi levels.\n    domains: [materials_property]\n    required_groups: [electronic]\n    examples:\n      - What is the band gap of GaAs?\n      - Fermi level of Si\n",
            "  - id: electronic_structure_lookup\n    description: Band gaps, Fermi levels and other electronic properties.\n    domains: [materials_property]\n    required_groups: [electronic]\n    examples:\n      - What is the band gap of GaAs?\n      - Fermi level of silicon\n",
        )],
        vec![
            ("intent-renamed", "intent/electronic_property"),
            ("description-changed", "intent/electronic_structure_lookup"),
            ("examples-changed", "intent/electronic_structure_lookup"),
        ],
    ));
    // Intent: two equally good candidates claim no rename.
    out.push((
        "intent_rename_ambiguous",
        vec![edit(
            "intents/registry.yaml",
            STABILITY,
            "  - id: stability_a\n    description: Formation energies.\n    domains: [materials_property]\n    required_groups: [thermodynamic]\n  - id: stability_b\n    description: Hull distances.\n    domains: [materials_property]\n    required_groups: [thermodynamic]\n",
        )],
        vec![
            ("intent-removed", "intent/thermodynamic_stability"),
            ("intent-added", "intent/stability_a"),
            ("intent-added", "intent/stability_b"),
        ],
    ));
    // Intent: same groups but another domain is not the same intent.
    out.push((
        "intent_rename_other_domain",
        vec![edit(
            "intents/registry.yaml",
            STABILITY,
            "  - id: phase_stability\n    description: Formation energies.\n    domains: [crystal_structure]\n    required_groups: [thermodynamic]\n",
        )],
        vec![
            ("intent-removed", "intent/thermodynamic_stability"),
            ("intent-added", "intent/phase_stability"),
        ],
    ));
    // Intent: renamed and moved to another file.
    out.push((
        "intent_rename_across_files",
        vec![
            edit("intents/registry.yaml", STABILITY, ""),
            write(
                "intents/extra.yaml",
                "intents:\n  - id: phase_stability\n    description: Formation energies.\n    domains: [materials_property]\n    required_groups: [thermodynamic]\n",
            ),
        ],
        vec![("intent-renamed", "intent/thermodynamic_stability")],
    ));
    out
}

#[test]
fn renames_in_several_shapes() {
    let mut failures = Vec::new();
    for (name, edits, want) in rename_shapes() {
        let refs: Vec<&Edit> = edits.iter().collect();
        let (_d, old, new) = pair(&[], &refs);
        let r = diff::diff(&old, &new);
        if codes_and_entities(&r) != want {
            failures.push(format!(
                "{name}: got {:?}\n{}",
                codes_and_entities(&r),
                human(&r)
            ));
            continue;
        }
        snapshot(&format!("rename_{name}"), &human(&r));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn renames_across_files_point_at_both_files() {
    for (name, edits, _) in rename_shapes()
        .into_iter()
        .filter(|(n, _, _)| n.ends_with("across_files"))
    {
        let refs: Vec<&Edit> = edits.iter().collect();
        let (_d, old, new) = pair(&[], &refs);
        let r = diff::diff(&old, &new);
        let c = &r.changes[0];
        let (o, n) = (
            c.old_location.as_ref().unwrap(),
            c.new_location.as_ref().unwrap(),
        );
        assert_ne!(o.file, n.file, "{name}");
        assert!(n.file.ends_with("extra.yaml"), "{name}: {n}");
        assert_eq!(n.line, 2, "{name}: {n}");
    }
}

/// A concept, the group of its fields and an intent requiring that group renamed at once: three
/// rename changes, in every output format, with the plan impact of understandings naming the old
/// and the new ids.
#[test]
fn renames_together_in_every_format_with_plan_impact() {
    let mut e = group_rename_members();
    e.push(edit(
        "intents/registry.yaml",
        BEF,
        "  - id: electronic_structure\n    description: Electronic structure.\n",
    ));
    e.push(edit(
        "intents/registry.yaml",
        "  - id: electronic_property\n",
        "  - id: electronic_lookup\n",
    ));
    e.push(edit(
        "aliases/concepts.yaml",
        FERMI,
        "  - id: e_fermi\n    unit: eV\n    aliases:\n      en: [fermi level]\n",
    ));
    e.push(edit(
        "schemas/alpha.yaml",
        "        groups: [electronic_structure]\n        concepts: [fermi_energy]",
        "        groups: [electronic_structure]\n        concepts: [e_fermi]",
    ));
    let refs: Vec<&Edit> = e.iter().collect();
    let (_d, old, new) = pair(&[], &refs);
    let inputs = plans::parse_plans(
        r#"[
          {"id": "old-ids", "understanding": {"intent": "electronic_property", "domain_concepts": ["fermi_energy"], "parameters": {"formula": "Si"}}},
          {"id": "alias", "understanding": {"intent": "electronic_property", "domain_concepts": ["fermi level"], "parameters": {"formula": "Si"}}},
          {"id": "new-ids", "understanding": {"intent": "electronic_lookup", "domain_concepts": ["e_fermi"], "parameters": {"formula": "Si"}}}
        ]"#,
    )
    .unwrap();
    let r = diff::diff_with_plans(&old, &new, &inputs);
    assert_eq!(
        codes_and_entities(&r),
        vec![
            ("concept-renamed", "concept/fermi_energy"),
            ("intent-renamed", "intent/electronic_property"),
            ("group-renamed", "group/electronic"),
        ]
    );
    let impact = r.plan_impact.as_ref().unwrap();
    let changed: Vec<&str> = impact.changed.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        changed,
        vec!["old-ids", "alias", "new-ids"],
        "{}",
        human(&r)
    );
    let opts = RenderOptions {
        fail_on: FailOn::Breaking,
        color: false,
    };
    for (name, format) in [
        ("renames_human", DiffFormat::Human),
        ("renames_json", DiffFormat::Json),
        ("renames_markdown", DiffFormat::Markdown),
        ("renames_github", DiffFormat::Github),
        ("renames_junit", DiffFormat::Junit),
    ] {
        snapshot(name, &render(format, &r, opts));
    }
}

/// A concept renamed with its old id kept as an alias: understandings naming the old id plan the
/// same on both sides (dangerous); without the alias they are not understood (breaking). Renames
/// are found between artifacts too.
#[test]
fn renamed_concept_plan_impact_depends_on_the_kept_alias() {
    let inputs = plans::parse_plans(
        r#"[{"id": "q", "understanding": {"intent": "electronic_property", "domain_concepts": ["fermi_energy"], "parameters": {"formula": "Si"}}}]"#,
    )
    .unwrap();
    let rename = |aliases: &str| {
        vec![
            edit(
                "aliases/concepts.yaml",
                FERMI,
                &format!("  - id: e_fermi\n    unit: eV\n    aliases:\n      en: [{aliases}]\n"),
            ),
            edit(
                "schemas/alpha.yaml",
                "concepts: [fermi_energy]",
                "concepts: [e_fermi]",
            ),
        ]
    };
    let mut summaries = Vec::new();
    for aliases in ["fermi level, fermi_energy", "fermi level"] {
        let edits = rename(aliases);
        let refs: Vec<&Edit> = edits.iter().collect();
        let (_d, old, new) = pair(&[], &refs);
        let r = diff::diff_with_plans(&old, &new, &inputs);
        let impact = r.plan_impact.as_ref().unwrap();
        summaries.push((
            r.changes
                .iter()
                .map(|c| (c.code, c.class))
                .collect::<Vec<_>>(),
            impact
                .changed
                .iter()
                .map(|c| c.summary())
                .collect::<Vec<_>>(),
        ));
        // The same renames between compiled artifacts (no locations).
        let dir = tempfile::tempdir().unwrap();
        let (oa, na) = (dir.path().join("old.json"), dir.path().join("new.json"));
        std::fs::write(&oa, io::to_json_bytes(&old.graph)).unwrap();
        std::fs::write(&na, io::to_json_bytes(&new.graph)).unwrap();
        let ao = Side::from_artifact(&oa, "old.json").unwrap();
        let an = Side::from_artifact(&na, "new.json").unwrap();
        let fp = |r: &Report| {
            r.changes
                .iter()
                .map(|c| c.fingerprint.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(fp(&diff::diff(&ao, &an)), fp(&r));
    }
    assert_eq!(
        summaries,
        vec![
            (
                vec![("concept-renamed-old-id-kept", Class::Dangerous)],
                vec![]
            ),
            (
                vec![("concept-renamed", Class::Breaking)],
                vec!["status planned -> not_understood; +field alpha/summary/band_gap".to_string()]
            ),
        ]
    );
}

/// A side that declares one tool twice is refused: which copy would be compared depends on
/// file order, so a breaking change in the second copy could pass as "no changes".
#[test]
fn a_side_that_repeats_a_tool_id_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let n = dir.path().join("new");
    copy_dir(&fixtures().join("base"), &n);
    let alpha = std::fs::read_to_string(n.join("schemas/alpha.yaml")).unwrap();
    std::fs::write(
        n.join("schemas/zz_copy.yaml"),
        alpha.replace("unit: eV", "unit: meV"),
    )
    .unwrap();
    let Err(e) = Side::from_project_dir(&n, "new", "") else {
        panic!("a side with a repeated tool id was compared");
    };
    assert_eq!(
        e.message,
        "new: 1 declaration(s) repeat an id, so which one is compared would depend on file order"
    );
    assert!(
        e.details.starts_with("schemas/zz_copy.yaml:")
            && e.details
                .contains("error[SR101/duplicate-id] duplicate tool id `alpha`"),
        "{}",
        e.details
    );
}
