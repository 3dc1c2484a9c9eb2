//! How imported tools are named, and which words of a question name them: three small OpenAPI
//! documents (a book catalog whose service name is its own content word, a podcast directory
//! whose brand is one word, a transit API served from a `digital` subdomain) imported with no
//! `--tool`, compiled, then routed as a new user does.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_schemarouter"))
}

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/names")
        .join(p)
}

/// The imported and compiled project, made once for every test of this file.
fn project() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let proj = dir.path().join("proj");
        for src in ["shelf-books.yaml", "podnotes.yaml", "metro-transit.yaml"] {
            let o = bin()
                .args(["import", "openapi"])
                .arg(fixture(src))
                .arg("--project")
                .arg(&proj)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        let o = bin().arg("compile").arg(&proj).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        dir
    })
    .path()
}

/// The tools the Understand step names for `q` (`target_apis`, without their endpoints).
fn named(q: &str) -> Vec<String> {
    let o = bin()
        .args(["route", "--json", "--artifact"])
        .arg(project().join("proj/build/graph.json"))
        .args(["--", q])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut out: Vec<String> = v["understanding"]["target_apis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().split('/').next().unwrap().to_string())
        .collect();
    out.dedup();
    out
}

/// The `names:` of an imported tool file (its block list, as the importer writes it).
fn names_of(tool: &str) -> Vec<String> {
    let text =
        std::fs::read_to_string(project().join(format!("proj/schemas/{tool}.yaml"))).unwrap();
    text.lines()
        .skip_while(|l| *l != "names:")
        .skip(1)
        .map_while(|l| l.strip_prefix("  - "))
        .map(|n| n.trim_matches(['"', '\'']).to_string())
        .collect()
}

#[test]
fn imported_tools_are_named_by_provider_and_title_not_by_hosting() {
    assert_eq!(names_of("tmc"), ["tmc.gov.uk", "Transit for Metro City"]);
    assert_eq!(names_of("podnotes"), ["podnotes.fm"]);
    assert_eq!(names_of("shelfapis_books"), ["shelfapis.com", "books"]);
}

#[test]
fn a_catalogs_own_content_word_does_not_name_it_but_its_full_name_does() {
    assert_eq!(named("newest books about rust"), Vec::<String>::new());
    assert_eq!(
        named("which books mention lighthouses"),
        Vec::<String>::new()
    );
    assert_eq!(
        named("newest rust books on shelfapis books"),
        ["shelfapis_books"]
    );
    assert_eq!(named("search volumes on books"), ["shelfapis_books"]);
}

#[test]
fn a_brand_written_apart_and_the_titles_leading_words_name_the_tool() {
    assert_eq!(named("best podcasts on pod notes"), ["podnotes"]);
    assert_eq!(named("best podcasts from podnotes"), ["podnotes"]);
    assert_eq!(
        named("line status of the victoria line from transit for metro city"),
        ["tmc"]
    );
    // The hosting subdomain is no name.
    assert_eq!(named("digital line status"), Vec::<String>::new());
}
