//! File paths in `check` output when the project is checked from another folder, as CI does
//! from the repository root (`schemarouter check path/to/project`): the CI formats (GitHub
//! annotations, SARIF, GitLab Code Quality, JUnit) name files relative to the current folder with
//! `/` separators (absolute when the project lies outside it), human and concise output under
//! the path as typed, JSON relative to the project root. The project is the `multi-finding`
//! fixture copied into a subfolder of a temporary folder, which is the current folder.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_schemarouter");

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// A temporary "repository" with the fixture at `rel` inside it.
fn repo(rel: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        Path::new("tests/fixtures/multi-finding"),
        &dir.path().join(rel),
    );
    dir
}

/// `schemarouter check <path> --format <format>` run in `cwd`; stdout (exit code 1: the fixture
/// has errors).
fn check(cwd: &Path, path: &str, format: &str) -> String {
    let out = Command::new(BIN)
        .current_dir(cwd)
        .args(["check", path, "--format", format])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The files of the fixture's findings in output order (sorted by project-relative name), and
/// the file of the one related location (SR201's field in schemas/mp.yaml).
const FILES: [&str; 7] = [
    "aliases/concepts.yaml",
    "intents/registry.yaml",
    "schemarouter.toml",
    "schemas/mp.yaml",
    "schemas/notes.txt",
    "schemas/oqmd.toml",
    "schemas/oqmd.toml",
];

fn under(prefix: &str) -> Vec<String> {
    FILES.iter().map(|f| format!("{prefix}{f}")).collect()
}

fn github_files(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| {
            let rest = &l[l.find("file=")? + 5..];
            Some(rest[..rest.find(',')?].to_string())
        })
        .collect()
}

fn sarif_uris(out: &str) -> (Vec<String>, Vec<String>) {
    let v: Value = serde_json::from_str(out).unwrap();
    let mut primary = Vec::new();
    let mut related = Vec::new();
    for r in v["runs"][0]["results"].as_array().unwrap() {
        for (key, list) in [
            ("locations", &mut primary),
            ("relatedLocations", &mut related),
        ] {
            if let Some(locs) = r[key].as_array() {
                for l in locs {
                    list.push(
                        l["physicalLocation"]["artifactLocation"]["uri"]
                            .as_str()
                            .unwrap()
                            .to_string(),
                    );
                }
            }
        }
        // No base ids: relative URIs are taken from the repository root as they are.
        assert!(!out.contains("uriBaseId"));
    }
    (primary, related)
}

fn gitlab_paths(out: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(out).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|i| i["location"]["path"].as_str().unwrap().to_string())
        .collect()
}

fn junit_suites(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix("<testsuite name=\"")?;
            Some(rest[..rest.find('"')?].to_string())
        })
        .collect()
}

/// The file of each finding line (`FILE:LINE:COL: ...`), without the project-wide finding
/// (`<project>: ...`) and the summary line.
fn concise_files(out: &str) -> Vec<String> {
    // The findings end at the blank line before the per-rule summary.
    out.lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with("<project>") && !l.starts_with("Found "))
        .filter_map(|l| Some(l[..l.find(':')?].to_string()))
        .collect()
}

#[test]
fn ci_formats_name_files_relative_to_the_current_folder() {
    let repo = repo("path/to/project");
    let root = repo.path();
    let expected = under("path/to/project/");

    assert_eq!(
        github_files(&check(root, "path/to/project", "github")),
        expected
    );
    let gh = check(root, "path/to/project", "github");
    assert_eq!(
        gh.lines().next().unwrap(),
        "::error file=path/to/project/aliases/concepts.yaml,line=12,col=55,endLine=12,endColumn=92,title=SR201 dangling-alias::alias `밴드갭 폭` names field `materials_project/summary/material_id`, which does not carry concept `band_gap`%0Apath/to/project/schemas/mp.yaml:28:15: the field%0Ahelp: add `band_gap` to the field's concepts in materials_project, or drop `concept:` from the alias"
    );

    let (primary, related) = sarif_uris(&check(root, "path/to/project", "sarif"));
    // The project-wide finding (checks skipped) points at the configuration file.
    let mut with_project = expected.clone();
    with_project.push("path/to/project/schemarouter.toml".to_string());
    assert_eq!(primary, with_project);
    assert_eq!(related, ["path/to/project/schemas/mp.yaml"]);

    let mut gl = expected.clone();
    gl.push("path/to/project/schemarouter.toml".into()); // the project-wide finding: the config file
    assert_eq!(gitlab_paths(&check(root, "path/to/project", "gitlab")), gl);

    let mut suites = expected.clone();
    suites.dedup();
    suites.push("&lt;project&gt;".into()); // the project-wide finding
    assert_eq!(
        junit_suites(&check(root, "path/to/project", "junit")),
        suites
    );
    let junit = check(root, "path/to/project", "junit");
    assert!(
        junit.contains("\nrelated: path/to/project/schemas/mp.yaml:28:15: the field\n"),
        "{junit}"
    );

    // The same with the path typed as `./path/to/project/`.
    assert_eq!(
        github_files(&check(root, "./path/to/project/", "github")),
        expected
    );
    let (primary, _) = sarif_uris(&check(root, "./path/to/project/", "sarif"));
    assert_eq!(primary, with_project);
}

#[test]
fn gitlab_names_the_configuration_file_for_project_wide_findings() {
    // A project-wide finding points at the project's configuration file (as in SARIF).
    let repo = repo("p");
    let out = Command::new(BIN)
        .current_dir(repo.path().join("p"))
        .args(["check", "--format", "gitlab"])
        .output()
        .unwrap();
    let paths = gitlab_paths(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(paths.last().unwrap(), "schemarouter.toml");
    assert_eq!(paths[0], "aliases/concepts.yaml");
}

#[test]
fn human_and_concise_show_the_path_as_typed() {
    let repo = repo("path/to/project");
    let root = repo.path();
    assert_eq!(
        concise_files(&check(root, "path/to/project", "concise")),
        under("path/to/project/")
    );
    let concise = check(root, "./path/to/project/", "concise");
    assert_eq!(
        concise.lines().next().unwrap(),
        "path/to/project/aliases/concepts.yaml:12:55: error[SR201/dangling-alias] alias `밴드갭 폭` names field `materials_project/summary/material_id`, which does not carry concept `band_gap` (help: add `band_gap` to the field's concepts in materials_project, or drop `concept:` from the alias)"
    );
    let human = check(root, "path/to/project", "human");
    assert!(
        human.contains("╭─[path/to/project/aliases/concepts.yaml:12:55]"),
        "{human}"
    );
    assert!(
        human.contains("╭─[path/to/project/schemas/mp.yaml:28:15]"),
        "{human}"
    );
    // From a sibling folder: `../path/to/project/...`, as typed.
    let sibling = root.join("other");
    std::fs::create_dir(&sibling).unwrap();
    assert_eq!(
        concise_files(&check(&sibling, "../path/to/project", "concise")),
        under("../path/to/project/")
    );
    // JSON stays relative to the project root.
    let v: Value = serde_json::from_str(&check(root, "path/to/project", "json")).unwrap();
    assert_eq!(
        v["diagnostics"][0]["location"]["file"],
        "aliases/concepts.yaml"
    );
}

#[test]
fn a_project_outside_the_current_folder_gets_absolute_paths() {
    let repo = repo("path/to/project");
    let root = repo.path();
    let sibling = root.join("other");
    std::fs::create_dir(&sibling).unwrap();
    // The current folder as the process sees it (symbolic links resolved).
    let base = format!(
        "{}/path/to/project/",
        root.canonicalize().unwrap().to_str().unwrap()
    );
    let expected = under(&base);
    assert_eq!(
        github_files(&check(&sibling, "../path/to/project", "github")),
        expected
    );
    let gl = gitlab_paths(&check(&sibling, "../path/to/project", "gitlab"));
    assert_eq!(gl[0], expected[0]);
    assert_eq!(gl.last().unwrap(), &format!("{base}schemarouter.toml"));
    let (primary, _) = sarif_uris(&check(&sibling, "../path/to/project", "sarif"));
    if cfg!(unix) {
        assert_eq!(primary[0], format!("file://{}", expected[0]));
    }
}

#[test]
fn sarif_uris_are_percent_encoded_and_checking_the_current_folder_changes_nothing() {
    let repo = repo("apps/schema project");
    let root = repo.path();
    let (primary, _) = sarif_uris(&check(root, "apps/schema project", "sarif"));
    assert_eq!(primary[0], "apps/schema%20project/aliases/concepts.yaml");
    assert_eq!(
        github_files(&check(root, "apps/schema project", "github"))[0],
        "apps/schema project/aliases/concepts.yaml"
    );
    // Run inside the project: the names are the project-relative ones, as before.
    let project = root.join("apps/schema project");
    assert_eq!(github_files(&check(&project, ".", "github")), under(""));
    assert_eq!(concise_files(&check(&project, ".", "concise")), under(""));
}
