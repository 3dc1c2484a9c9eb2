//! Lint profiles (`[lint] profile`): which rules run in `minimal`, `standard` and `strict`, and
//! per-rule levels in `[lint.rules]` overriding the profile either way.

use schemarouter::lint::RULES;
use schemarouter::model::Profile;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped project's declaration files.
fn shipped() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for kind in ["schemas", "intents", "aliases"] {
        for e in std::fs::read_dir(root().join(kind)).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".yaml") || name.ends_with(".toml") {
                files.push((
                    format!("{kind}/{name}"),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    files.sort();
    files
}

/// (code, severity) of every finding of the shipped project under this configuration.
fn findings(config: &str) -> Vec<(&'static str, &'static str)> {
    let files = shipped();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let checked =
        schemarouter::lint::check_loaded(schemarouter::load::load_sources(Some(config), &refs));
    let mut v: Vec<_> = checked
        .diagnostics
        .iter()
        .map(|d| (d.code, d.severity.as_str()))
        .collect();
    v.dedup();
    v
}

#[test]
fn profiles_choose_the_rules_and_rule_levels_override_them() {
    // The shipped project's findings are gaps (standard rules): convertible units, unverified
    // licences.
    let standard = findings("[lint]\nprompt-budget = 700\n");
    let set = |v: Vec<(&'static str, &'static str)>| -> BTreeSet<_> { v.into_iter().collect() };
    assert_eq!(
        set(standard.clone()),
        set(vec![("SR303", "info"), ("SR403", "warning")])
    );
    assert_eq!(
        set(findings(
            "[lint]\nprofile = \"standard\"\nprompt-budget = 700\n"
        )),
        set(standard.clone())
    );
    // Minimal: faults only, none here.
    assert_eq!(
        findings("[lint]\nprofile = \"minimal\"\nprompt-budget = 700\n"),
        []
    );
    // A level set for a rule runs it whatever the profile ...
    assert_eq!(
        set(findings(
            "[lint]\nprofile = \"minimal\"\nprompt-budget = 700\n[lint.rules]\nunverified-licence = \"error\"\n"
        )),
        set(vec![("SR403", "error")])
    );
    // ... by code too, and `off` turns a rule of the profile off.
    assert_eq!(
        set(findings(
            "[lint]\nprofile = \"strict\"\nprompt-budget = 700\n[lint.rules]\nSR303 = \"off\"\n"
        )),
        set(vec![("SR403", "warning")])
    );
}

#[test]
fn every_rule_names_its_profiles_in_the_table_and_the_docs() {
    let docs = std::fs::read_to_string(root().join("docs/rules.md")).unwrap();
    for e in RULES {
        let profiles = e.profiles();
        assert_eq!(profiles.last(), Some(&"strict"), "{}", e.code);
        assert_eq!(profiles.first(), Some(&e.profile.as_str()), "{}", e.code);
        assert!(
            docs.contains(&format!("| {} | [`{}`](#{}) |", e.code, e.name, e.name)),
            "{}",
            e.code
        );
        let section = &docs[docs.find(&format!("<a id=\"{}\"></a>", e.name)).unwrap()..];
        let end = section[1..].find("<a id=").map_or(section.len(), |i| i + 1);
        assert!(
            section[..end].contains(&format!("Profiles: {}.", profiles.join(", "))),
            "{}",
            e.code
        );
    }
    // The gaps a person fills over months are not in `minimal`.
    for name in [
        "missing-unit",
        "missing-licence",
        "missing-identifier",
        "unreachable-field",
    ] {
        let e = schemarouter::lint::registry::find(name).unwrap();
        assert_eq!(e.profile, Profile::Standard, "{name}");
    }
    let table = std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .arg("rules")
        .output()
        .unwrap();
    let table = String::from_utf8(table.stdout).unwrap();
    assert!(
        table.starts_with(
            "CODE    NAME                          CATEGORY      LEVEL     PROFILE   SUMMARY\n"
        ),
        "{table}"
    );
    assert!(
        table.contains("SR207   derived-entry                 alias         warning   strict    "),
        "{table}"
    );
}
