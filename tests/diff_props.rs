//! Property test of the schema diff: for random projects and random removals (with the new side's
//! files, keys and lists shuffled), every removed entity is reported — itself or through a
//! removed parent — and nothing else is; swapping the sides reports the same entities as added.

use proptest::prelude::*;
use schemarouter::diff::{self, Side};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// Sizes of a generated project.
#[derive(Clone, Debug)]
struct Shape {
    tools: usize,
    endpoints: usize,
    params: usize,
    fields: usize,
    groups: usize,
    concepts: usize,
    intents: usize,
    aliases: usize,
}

fn shape() -> impl Strategy<Value = Shape> {
    (
        1..=3usize,
        1..=2usize,
        0..=2usize,
        1..=3usize,
        1..=3usize,
        1..=3usize,
        1..=2usize,
        0..=3usize,
    )
        .prop_map(
            |(tools, endpoints, params, fields, groups, concepts, intents, aliases)| Shape {
                tools,
                endpoints,
                params,
                fields,
                groups,
                concepts,
                intents,
                aliases,
            },
        )
}

/// One removable entity: its path and the paths whose removal also covers it.
#[derive(Clone, Debug)]
struct Entity {
    path: String,
    covered_by: Vec<String>,
}

fn entities(s: &Shape) -> Vec<Entity> {
    let mut v = Vec::new();
    for t in 0..s.tools {
        let tp = format!("tool/t{t}");
        v.push(Entity {
            path: tp.clone(),
            covered_by: vec![],
        });
        for e in 0..s.endpoints {
            let ep = format!("{tp}/endpoint/e{e}");
            v.push(Entity {
                path: ep.clone(),
                covered_by: vec![tp.clone()],
            });
            for p in 0..s.params {
                v.push(Entity {
                    path: format!("{ep}/parameter/p{p}"),
                    covered_by: vec![tp.clone(), ep.clone()],
                });
            }
            for f in 0..s.fields {
                v.push(Entity {
                    path: format!("{ep}/field/f{f}"),
                    covered_by: vec![tp.clone(), ep.clone()],
                });
            }
        }
    }
    for g in 0..s.groups {
        v.push(Entity {
            path: format!("group/g{g}"),
            covered_by: vec![],
        });
    }
    for c in 0..s.concepts {
        v.push(Entity {
            path: format!("concept/c{c}"),
            covered_by: vec![],
        });
    }
    for i in 0..s.intents {
        v.push(Entity {
            path: format!("intent/i{i}"),
            covered_by: vec![],
        });
    }
    for a in 0..s.aliases {
        v.push(Entity {
            path: format!("alias/word{a}"),
            // An alias whose concept is removed goes with the concept.
            covered_by: vec![format!("concept/c{}", a % s.concepts)],
        });
    }
    v
}

/// A permutation of `0..n` from `seed` (identity when `seed` is 0).
fn order(n: usize, seed: u64, salt: &str) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    if seed != 0 {
        let key = |i: usize| {
            let mut h: u64 = 0xcbf29ce484222325 ^ seed;
            for b in salt.bytes().chain(i.to_le_bytes()) {
                h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
            }
            h
        };
        idx.sort_by_key(|i| key(*i));
    }
    idx
}

/// Turn `key: []` followed by items into `key:` (the empty form stays for empty lists).
fn lists(y: &str) -> String {
    let lines: Vec<&str> = y.lines().collect();
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        let next_is_item = lines
            .get(i + 1)
            .is_some_and(|n| n.trim_start().starts_with("- "));
        let indent = l.len() - l.trim_start().len();
        let next_indent = lines
            .get(i + 1)
            .map(|n| n.len() - n.trim_start().len())
            .unwrap_or(0);
        match l.strip_suffix(" []") {
            Some(head) if next_is_item && next_indent >= indent => {
                out.push_str(head);
            }
            _ => out.push_str(l),
        }
        out.push('\n');
    }
    out
}

/// Write the project, leaving out `removed` paths, with lists in the order of `seed`.
fn write(root: &Path, s: &Shape, removed: &BTreeSet<String>, seed: u64) {
    for d in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    let gone = |p: &str| removed.contains(p);
    for t in 0..s.tools {
        let tp = format!("tool/t{t}");
        if gone(&tp) {
            continue;
        }
        let mut y = String::new();
        if seed % 2 == 1 {
            let _ = writeln!(y, "domain: d0\ntitle: Tool {t}\nid: t{t}\nendpoints: []");
        } else {
            let _ = writeln!(y, "id: t{t}\ntitle: Tool {t}\ndomain: d0\nendpoints: []");
        }
        for e in order(s.endpoints, seed, &tp) {
            let ep = format!("{tp}/endpoint/e{e}");
            if gone(&ep) {
                continue;
            }
            let _ = writeln!(
                y,
                "  - id: e{e}\n    method: GET\n    url: https://t{t}.example/e{e}\n    parameters: []"
            );
            for p in order(s.params, seed, &ep) {
                if gone(&format!("{ep}/parameter/p{p}")) {
                    continue;
                }
                let _ = writeln!(y, "      - {{name: p{p}, type: string}}");
            }
            let _ = writeln!(y, "    fields: []");
            for f in order(s.fields, seed, &format!("{ep}/f")) {
                if gone(&format!("{ep}/field/f{f}")) {
                    continue;
                }
                let c = (t + e + f) % s.concepts;
                let g = (t + f) % s.groups;
                let _ = writeln!(
                    y,
                    "      - {{name: f{f}, type: number, unit: eV, groups: [g{g}], concepts: [c{c}]}}"
                );
            }
        }
        std::fs::write(root.join(format!("schemas/t{t}.yaml")), lists(&y)).unwrap();
    }
    let mut y = String::from("domains:\n  - id: d0\ngroups: []\n");
    for g in order(s.groups, seed, "groups") {
        if !gone(&format!("group/g{g}")) {
            let _ = writeln!(y, "  - id: g{g}");
        }
    }
    y.push_str("intents: []\n");
    for i in order(s.intents, seed, "intents") {
        if !gone(&format!("intent/i{i}")) {
            let _ = writeln!(
                y,
                "  - id: i{i}\n    description: Intent {i}.\n    domains: [d0]\n    required_groups: [g{}]",
                i % s.groups
            );
        }
    }
    std::fs::write(root.join("intents/registry.yaml"), lists(&y)).unwrap();
    let mut y = String::from("concepts: []\n");
    for c in order(s.concepts, seed, "concepts") {
        if !gone(&format!("concept/c{c}")) {
            let _ = writeln!(
                y,
                "  - id: c{c}\n    unit: eV\n    aliases: {{en: [concept {c} name]}}"
            );
        }
    }
    y.push_str("aliases: []\n");
    for a in order(s.aliases, seed, "aliases") {
        if !gone(&format!("alias/word{a}")) {
            let _ = writeln!(y, "  - {{text: word{a}, concept: c{}}}", a % s.concepts);
        }
    }
    std::fs::write(root.join("aliases/all.yaml"), lists(&y)).unwrap();
}

const REMOVALS: &[&str] = &[
    "tool-removed",
    "endpoint-removed",
    "parameter-removed",
    "field-removed",
    "group-removed",
    "concept-removed",
    "intent-removed",
    "alias-removed",
];

const ADDITIONS: &[&str] = &[
    "tool-added",
    "endpoint-added",
    "parameter-added",
    "field-added",
    "group-added",
    "concept-added",
    "intent-added",
    "alias-added",
];

fn check(
    report: &diff::Report,
    all: &[Entity],
    removed: &BTreeSet<String>,
    codes: &[&str],
) -> Result<(), TestCaseError> {
    let reported: BTreeSet<&str> = report
        .changes
        .iter()
        .filter(|c| codes.contains(&c.code))
        .map(|c| c.entity.as_str())
        .collect();
    for c in &report.changes {
        prop_assert!(
            codes.contains(&c.code),
            "unexpected change {} {}",
            c.code,
            c.entity
        );
        prop_assert!(
            removed.contains(&c.entity),
            "{} reported but not changed",
            c.entity
        );
    }
    for e in all.iter().filter(|e| removed.contains(&e.path)) {
        let covered = reported.contains(e.path.as_str())
            || e.covered_by.iter().any(|p| reported.contains(p.as_str()));
        prop_assert!(covered, "{} is not reported", e.path);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_removed_entity_is_reported(
        s in shape(),
        mask in proptest::collection::vec(proptest::bool::weighted(0.25), 64),
        seed in 0u64..1000,
    ) {
        let all = entities(&s);
        let removed: BTreeSet<String> = all
            .iter()
            .zip(mask.iter())
            .filter(|(_, m)| **m)
            .map(|(e, _)| e.path.clone())
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let (o, n) = (dir.path().join("old"), dir.path().join("new"));
        write(&o, &s, &BTreeSet::new(), 0);
        write(&n, &s, &removed, seed);
        let old = Side::from_project_dir(&o, "old", "").unwrap();
        let new = Side::from_project_dir(&n, "new", "").unwrap();
        check(&diff::diff(&old, &new), &all, &removed, REMOVALS)?;
        // The other way round, the same entities are additions.
        check(&diff::diff(&new, &old), &all, &removed, ADDITIONS)?;
        // Shuffling alone changes nothing.
        let shuffled = dir.path().join("shuffled");
        write(&shuffled, &s, &BTreeSet::new(), seed);
        let sh = Side::from_project_dir(&shuffled, "shuffled", "").unwrap();
        prop_assert!(diff::diff(&old, &sh).changes.is_empty());
    }
}
