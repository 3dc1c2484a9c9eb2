//! `schemarouter derive` and the derivation `import` runs, end to end on real catalogs (the MCP
//! reference servers' saved `tools/list` results and an OpenAPI document): the derived files load
//! and check without errors, derive twice gives the same bytes whatever the file names, a
//! person's edits are kept, and the lint profiles say what they should.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_schemarouter"))
}

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(p)
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], cwd: &Path) -> Run {
    let o = bin()
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// A project with the memory and time MCP servers and the petstore OpenAPI document imported.
fn imported(extra: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (kind, src) in [
        ("mcp", fixture("mcp/memory-tools-list.rpc.json")),
        ("mcp", fixture("mcp/time-tools-list.rpc.json")),
        ("openapi", fixture("import/petstore-3.0.yaml")),
    ] {
        let mut args = vec!["import", kind, src.to_str().unwrap(), "--project", "proj"];
        args.extend_from_slice(extra);
        let r = run(&args, dir.path());
        assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    }
    dir
}

/// Every file of a folder (relative path and bytes), sorted.
fn files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn codes(check_stdout: &str) -> Vec<String> {
    let mut v: Vec<String> = check_stdout
        .lines()
        .filter_map(|l| {
            let i = l.find("[SR")?;
            Some(l[i + 1..i + 6].to_string())
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn an_import_derives_a_layer_that_checks_clean() {
    let dir = imported(&[]);
    let proj = dir.path().join("proj");
    let aliases = std::fs::read_to_string(proj.join("aliases/derived.yaml")).unwrap();
    let intents = std::fs::read_to_string(proj.join("intents/derived.yaml")).unwrap();
    assert!(aliases.starts_with(
        "# yaml-language-server: $schema=../docs/schema/alias.schema.json\n# Derived by `schemarouter derive`"
    ));
    // Concepts shared across the tools, with aliases and the derived mark.
    assert!(aliases.contains("  - id: timezone\n"), "{aliases}");
    assert!(aliases.contains("derived: blake3:"), "{aliases}");
    // One intent per action and resource, with the catalog's summaries as examples.
    assert!(intents.contains("  - id: get_time\n"), "{intents}");
    assert!(intents.contains("  - id: list_pets\n"), "{intents}");
    assert!(
        intents.contains("      - Get current time in a specific"),
        "{intents}"
    );
    // The tool files carry the references; the petstore's `id` is an identifier.
    let pets = std::fs::read_to_string(proj.join("schemas/swagger_petstore.yaml")).unwrap();
    assert!(pets.contains("identifier: true"), "{pets}");
    assert!(pets.contains("groups:\n          - list_pets\n"), "{pets}");
    // A new project reports faults only: destructive endpoints, nothing a person fills in.
    assert!(
        std::fs::read_to_string(proj.join("schemarouter.toml"))
            .unwrap()
            .contains("profile = \"minimal\"")
    );
    let c = run(&["check", "proj", "--format", "concise"], dir.path());
    assert_eq!(c.code, 0, "{}{}", c.stdout, c.stderr);
    assert_eq!(codes(&c.stdout), ["SR508"], "{}", c.stdout);
    // The standard profile lists gaps, never errors, and no field is unreachable.
    let toml = proj.join("schemarouter.toml");
    std::fs::write(&toml, "[lint]\nprofile = \"standard\"\n").unwrap();
    let c = run(&["check", "proj", "--format", "concise"], dir.path());
    assert_eq!(c.code, 0, "{}{}", c.stdout, c.stderr);
    let std_codes = codes(&c.stdout);
    assert!(!std_codes.contains(&"SR506".to_string()), "{}", c.stdout);
    assert!(std_codes.contains(&"SR405".to_string()), "{}", c.stdout);
    // Strict names the derived entries no person took over.
    std::fs::write(&toml, "[lint]\nprofile = \"strict\"\n").unwrap();
    let c = run(&["check", "proj", "--format", "concise"], dir.path());
    assert!(
        codes(&c.stdout).contains(&"SR207".to_string()),
        "{}",
        c.stdout
    );
    // It compiles.
    let c = run(&["compile", "proj", "--out", "build"], dir.path());
    assert_eq!(c.code, 0, "{}{}", c.stdout, c.stderr);
}

#[test]
fn derive_twice_gives_the_same_bytes_whatever_the_file_names() {
    let dir = imported(&["--no-derive"]);
    let proj = dir.path().join("proj");
    assert!(!proj.join("aliases/derived.yaml").exists());
    let r = run(&["derive", "proj"], dir.path());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("new       proj/aliases/derived.yaml"),
        "{}",
        r.stdout
    );
    let first = files(&proj);
    let r = run(&["derive", "proj"], dir.path());
    assert_eq!(r.code, 0);
    assert!(
        r.stdout
            .contains("nothing to change: the derived layer is up to date"),
        "{}",
        r.stdout
    );
    assert_eq!(files(&proj), first);
    // The same tools under other file names derive the same layer.
    let other = tempfile::tempdir().unwrap();
    let imported = imported(&["--no-derive"]);
    let src = imported.path().join("proj");
    for (rel, bytes) in files(&src) {
        let rel = rel
            .replace("schemas/time_tools_list_rpc.yaml", "schemas/zz_time.yaml")
            .replace(
                "schemas/memory_tools_list_rpc.yaml",
                "schemas/aa_memory.yaml",
            );
        let to = other.path().join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, bytes).unwrap();
    }
    let r = run(&["derive", "."], other.path());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    for f in ["aliases/derived.yaml", "intents/derived.yaml"] {
        assert_eq!(
            std::fs::read(other.path().join(f)).unwrap(),
            std::fs::read(proj.join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn a_persons_edits_survive_derive_and_reimport() {
    let dir = imported(&[]);
    let proj = dir.path().join("proj");
    let path = proj.join("aliases/derived.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    // Edit one concept's aliases (its digest no longer matches) and take another over.
    let edited = text.replacen(
        "  - id: timezone\n",
        "  - id: timezone\n    dimension: none\n",
        1,
    );
    assert_ne!(edited, text);
    std::fs::write(&path, &edited).unwrap();
    let r = run(&["derive", "proj"], dir.path());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("kept as edited by a person: `timezone`"),
        "{}",
        r.stdout
    );
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.contains("  - id: timezone\n    dimension: none\n"),
        "{after}"
    );
    // A re-import keeps it too, and the project still checks without errors.
    let r = run(
        &[
            "import",
            "mcp",
            fixture("mcp/time-tools-list.rpc.json").to_str().unwrap(),
            "--project",
            "proj",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("  - id: timezone\n    dimension: none\n")
    );
    let c = run(&["check", "proj"], dir.path());
    assert_eq!(c.code, 0, "{}{}", c.stdout, c.stderr);
}

#[test]
fn a_dry_run_writes_nothing_and_hand_commented_tools_are_left_alone() {
    let dir = imported(&["--no-derive"]);
    let proj = dir.path().join("proj");
    let tool = proj.join("schemas/time_tools_list_rpc.yaml");
    let text = std::fs::read_to_string(&tool).unwrap();
    let commented = text.replacen("endpoints:\n", "# my own note\nendpoints:\n", 1);
    std::fs::write(&tool, &commented).unwrap();
    let before = files(&proj);
    let r = run(&["derive", "proj", "--dry-run"], dir.path());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("would add proj/aliases/derived.yaml"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("dry run: nothing was written"));
    assert!(
        r.stdout
            .contains("time_tools_list_rpc.yaml: not derived: line"),
        "{}",
        r.stdout
    );
    assert_eq!(files(&proj), before);
}

/// A derived concept a person deleted (one entry, or the whole `aliases/derived.yaml`) is
/// derived again, byte for byte, and the project checks clean; a person's own dangling
/// reference is left for `check` to report.
#[test]
fn derive_restores_deleted_derived_concepts() {
    let dir = imported(&[]);
    let root = dir.path().join("proj");
    let before = files(&root);
    let derived = root.join("aliases/derived.yaml");
    let text = std::fs::read_to_string(&derived).unwrap();
    let start = text.find("  - id: pet_name\n").unwrap();
    let end = start + text[start..].find("  - id: pet_tag\n").unwrap();
    std::fs::write(&derived, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let r = run(&["derive", "proj"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(files(&root), before);
    std::fs::remove_file(&derived).unwrap();
    let r = run(&["derive", "proj"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(files(&root), before);
    let r = run(&["check", "proj", "--format", "concise"], dir.path());
    assert!(r.code == 0 && !r.stdout.contains("error["), "{}", r.stdout);
    // A person's reference to nothing is not a derived entry: derive keeps it.
    let tool = root.join("schemas/swagger_petstore.yaml");
    let t = std::fs::read_to_string(&tool).unwrap();
    let edited = t.replacen(
        "          - pet_name\n",
        "          - pet_name\n          - pet_nmae\n",
        1,
    );
    assert_ne!(edited, t);
    std::fs::write(&tool, &edited).unwrap();
    let r = run(&["derive", "proj"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&tool).unwrap(), edited);
    let r = run(&["check", "proj", "--format", "concise"], dir.path());
    assert_eq!(r.code, 1, "{}", r.stdout);
    let errors: Vec<&str> = r.stdout.lines().filter(|l| l.contains("error[")).collect();
    assert_eq!(errors.len(), 1, "{}", r.stdout);
    assert!(
        errors[0].contains("undeclared concept `pet_nmae`"),
        "{}",
        r.stdout
    );
}

/// A person's parameter concept that takes the id of a derived response concept: derive
/// derives the fields' concept under a free id and leaves a project that checks clean.
#[test]
fn a_persons_parameter_concept_taking_a_derived_id_leaves_a_clean_project() {
    let dir = imported(&[]);
    let root = dir.path().join("proj");
    std::fs::write(
        root.join("aliases/mine.yaml"),
        "concepts:\n  - id: pet_name\n    kind: parameter\n",
    )
    .unwrap();
    let r = run(&["derive", "proj"], dir.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(&["check", "proj", "--format", "concise"], dir.path());
    assert!(r.code == 0 && !r.stdout.contains("error["), "{}", r.stdout);
    let derived = std::fs::read_to_string(root.join("aliases/derived.yaml")).unwrap();
    assert!(derived.contains("  - id: pet_name_2\n"), "{derived}");
    assert!(!derived.contains("  - id: pet_name\n"), "{derived}");
}

/// A field group's `core` naming an undeclared concept is SR103 in every profile; an edited
/// derived entry that keeps its `derived:` line is called edited under `strict`.
#[test]
fn group_core_references_and_edited_derived_entries_are_reported() {
    let dir = imported(&[]);
    let root = dir.path().join("proj");
    let intents = root.join("intents/derived.yaml");
    let text = std::fs::read_to_string(&intents).unwrap();
    let edited = text.replacen(
        "    core:\n      - time_difference\n",
        "    core:\n      - time_difference\n      - no_such_concept\n",
        1,
    );
    assert_ne!(edited, text);
    std::fs::write(&intents, &edited).unwrap();
    let line = edited[..edited.find("      - no_such_concept").unwrap()]
        .lines()
        .count()
        + 1;
    for profile in ["minimal", "standard", "strict"] {
        let cfg = root.join("schemarouter.toml");
        let c = std::fs::read_to_string(&cfg).unwrap();
        let c = ["minimal", "standard", "strict"].iter().fold(c, |c, p| {
            c.replace(&format!("\"{p}\""), &format!("\"{profile}\""))
        });
        std::fs::write(&cfg, c).unwrap();
        let r = run(&["check", "proj", "--format", "concise"], dir.path());
        assert_eq!(r.code, 1, "{profile}: {}", r.stdout);
        let expected = format!(
            "proj/intents/derived.yaml:{line}:9: error[SR103/dangling-reference] the `core` of field group `convert_time` references undeclared concept `no_such_concept` (help: declare concept `no_such_concept` (under `aliases/`), or remove the reference)"
        );
        assert!(
            r.stdout.lines().any(|l| l == expected),
            "{profile}: {}",
            r.stdout
        );
        if profile == "strict" {
            assert!(
                r.stdout.contains("field group `convert_time` was derived by `schemarouter derive` and edited since, but still carries its `derived:` line"),
                "{}",
                r.stdout
            );
        }
    }
}

/// A tool file cut short at a line boundary is still valid YAML: the derived intent whose
/// endpoints it lost says which tool's file to restore or re-import.
#[test]
fn a_tool_file_cut_short_is_named_by_the_derived_intent_it_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let src = fixture("import/petstore-3.0.yaml");
    let r = run(
        &[
            "import",
            "openapi",
            src.to_str().unwrap(),
            "--project",
            "proj",
        ],
        dir.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let file = dir.path().join("proj/schemas/swagger_petstore.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    // Cut right before the last endpoint's `fields:` (its response fields are lost).
    let cut = text.rfind("    fields:\n").unwrap();
    std::fs::write(&file, &text[..cut]).unwrap();
    let r = run(&["check", "proj", "--format", "concise"], dir.path());
    assert_eq!(r.code, 1);
    let sr503: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains("error[SR503"))
        .collect();
    assert_eq!(
        sr503,
        [
            "proj/intents/derived.yaml:23:9: error[SR503/unsatisfiable-intent] no tool in domain(s) swagger_petstore provides any of the groups get_pet that intent `get_pet` requires (help: this intent is derived (`derived:`) from endpoints that tool `swagger_petstore` (in the project's `schemas/swagger_petstore.yaml`) no longer declares: if a tool file lost endpoints (cut short, a bad merge), restore or re-import it; otherwise `schemarouter derive` updates the derived layer)"
        ]
    );
}
