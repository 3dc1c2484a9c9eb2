//! `schemarouter graph --format cypher` loaded into real graph databases: Kuzu (PyPI `kuzu`,
//! `--dialect kuzu`) and FalkorDB (PyPI `falkordblite`, an embedded FalkorDB server,
//! `--dialect neo4j`), for the shipped project, a `gen` inventory and a fixture whose strings
//! hold quotes, backslashes, line breaks, control characters and non-ASCII text. Each script is
//! loaded unchanged by `tests/graphdb/load.py`, then queried; the answers are compared with exact
//! values and with the compiled artifact (tool count, per-label node counts, edge count, concept
//! aliases, a field's unit, published unit and factors, the candidate tools of every intent).
//!
//! `.ci/run` installs both packages into `.venv`. Without them the tests say so and pass, except
//! under `CI`, where a missing package is a failure.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The venv's python when it can import `module`; under CI its absence fails the test.
fn python_with(module: &str) -> Option<PathBuf> {
    let py = root().join(".venv/bin/python");
    let ok = Command::new(&py)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(py);
    }
    if std::env::var_os("CI").is_some() {
        panic!("python module `{module}` is not installed in .venv (.ci/run installs it)");
    }
    eprintln!(
        "skipped: python module `{module}` is not in .venv (run the install steps of .ci/run)"
    );
    None
}

#[derive(Clone, Copy)]
enum Db {
    Kuzu,
    Falkor,
}

impl Db {
    fn module(self) -> &'static str {
        match self {
            Db::Kuzu => "kuzu",
            Db::Falkor => "redislite.falkordb_client",
        }
    }
    fn engine(self) -> &'static str {
        match self {
            Db::Kuzu => "kuzu",
            Db::Falkor => "falkordb",
        }
    }
    fn dialect(self) -> &'static str {
        match self {
            Db::Kuzu => "kuzu",
            Db::Falkor => "neo4j",
        }
    }
}

fn schemarouter(args: &[&str], cwd: &Path) -> Vec<u8> {
    let o = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

/// Compile `project` into a temporary folder; returns the folder and the artifact JSON.
fn compile(project: &Path) -> (tempfile::TempDir, Value) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("build");
    schemarouter(
        &[
            "compile",
            project.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &root(),
    );
    let art: Value =
        serde_json::from_slice(&std::fs::read(out.join("graph.json")).unwrap()).unwrap();
    (dir, art)
}

/// The Cypher script of an artifact in the database's dialect (the same bytes twice).
fn script(dir: &Path, db: Db) -> PathBuf {
    let artifact = dir.join("build/graph.json");
    let args = [
        "graph",
        "--artifact",
        artifact.to_str().unwrap(),
        "--format",
        "cypher",
        "--dialect",
        db.dialect(),
    ];
    let text = schemarouter(&args, &root());
    assert_eq!(text, schemarouter(&args, &root()), "deterministic");
    let path = dir.join(format!("graph.{}.cypher", db.dialect()));
    std::fs::write(&path, &text).unwrap();
    path
}

/// Load the script into the database and run the queries: one list of rows per query.
fn load_and_query(py: &Path, db: Db, script: &Path, queries: &[String]) -> Vec<Vec<Vec<Value>>> {
    let qfile = script.with_extension("queries.json");
    std::fs::write(&qfile, serde_json::to_vec(queries).unwrap()).unwrap();
    let o = Command::new(py)
        .arg(root().join("tests/graphdb/load.py"))
        .arg(db.engine())
        .arg(script)
        .arg(&qfile)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{} load failed:\n{}",
        db.engine(),
        String::from_utf8_lossy(&o.stderr)
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    serde_json::from_value(v["results"].clone()).unwrap()
}

/// A single-value result.
fn one(rows: &[Vec<Value>]) -> &Value {
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].len(), 1, "{rows:?}");
    &rows[0][0]
}

fn count_per_kind(art: &Value) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for n in art["graph"]["nodes"].as_array().unwrap() {
        *m.entry(n["kind"].as_str().unwrap().to_string())
            .or_insert(0) += 1;
    }
    m
}

/// Tool ids of each intent's precomputed candidates (Algorithm 1, lines 3-5).
fn candidates(art: &Value) -> BTreeMap<String, Vec<String>> {
    let tools = art["tools"].as_array().unwrap();
    art["intents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let mut ids: Vec<String> = i["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let t = &tools[c.as_u64().unwrap() as usize];
                    format!("tool:{}", t["id"].as_str().unwrap())
                })
                .collect();
            ids.sort();
            (i["id"].as_str().unwrap().to_string(), ids)
        })
        .collect()
}

/// The tools that serve an intent, asked of the graph: same domain, and an endpoint with a
/// field in one of the intent's required groups.
fn serving_tools_query(intent: &str) -> String {
    format!(
        "MATCH (i:Intent {{id: 'intent:{intent}'}})-[:TARGETS_DOMAIN]->(:Domain)<-[:TARGETS_DOMAIN]-(t:Tool), \
         (i)-[:REQUIRES_GROUP]->(:FieldGroup)<-[:IN_GROUP]-(:ResponseField)<-[:RETURNS]-(:Endpoint)<-[:HAS_ENDPOINT]-(t) \
         RETURN DISTINCT t.id ORDER BY t.id"
    )
}

/// Node counts per label, the edge count and every intent's serving tools agree with the
/// artifact the script was exported from.
fn assert_matches_artifact(py: &Path, db: Db, dir: &Path, art: &Value) {
    let kinds = count_per_kind(art);
    let cands = candidates(art);
    let mut queries: Vec<String> = kinds
        .keys()
        .map(|k| format!("MATCH (n:{k}) RETURN count(n)"))
        .collect();
    queries.push("MATCH ()-[r]->() RETURN count(r)".into());
    queries.extend(cands.keys().map(|i| serving_tools_query(i)));
    let res = load_and_query(py, db, &script(dir, db), &queries);
    for (i, (kind, n)) in kinds.iter().enumerate() {
        assert_eq!(one(&res[i]), &json!(n), "{kind} nodes");
    }
    let edges = art["graph"]["edges"].as_array().unwrap().len();
    assert_eq!(one(&res[kinds.len()]), &json!(edges), "edges");
    for (j, (intent, tools)) in cands.iter().enumerate() {
        let got: Vec<&str> = res[kinds.len() + 1 + j]
            .iter()
            .map(|r| r[0].as_str().unwrap())
            .collect();
        assert_eq!(got, *tools, "tools serving {intent}");
    }
}

fn shipped(db: Db) {
    let Some(py) = python_with(db.module()) else {
        return;
    };
    let (dir, art) = compile(&root());
    assert_matches_artifact(&py, db, dir.path(), &art);
    let field = "field:materials_project/summary/weighted_surface_energy_EV_PER_ANG2";
    let published = "field:aflow/aflux/agl_thermal_conductivity_300K";
    let queries = [
        "MATCH (t:Tool) RETURN count(t)".to_string(),
        "MATCH (c:DomainConcept {id: 'concept:band_gap'}) RETURN c.aliases, c.unit".to_string(),
        format!(
            "MATCH (f:ResponseField {{id: '{field}'}})-[:MEASURED_IN]->(u:Unit) \
             RETURN u.label, u.dimension, u.si_unit, u.si_factor"
        ),
        format!(
            "MATCH (f:ResponseField {{id: '{field}'}})-[m:MAPS_TO_CONCEPT]->(c:DomainConcept) \
             RETURN c.id, c.unit, m.factor"
        ),
        format!(
            "MATCH (f:ResponseField {{id: '{published}'}})-[m:MEASURED_IN]->(u:Unit) \
             RETURN u.label, m.as_published, u.si_factor"
        ),
        format!(
            "MATCH (c:DomainConcept)-[a:ALIASED_AS]->(f:ResponseField {{id: '{field}'}}) \
             RETURN c.id, a.alias"
        ),
        serving_tools_query("mechanical_property"),
    ];
    let res = load_and_query(&py, db, &script(dir.path(), db), &queries);
    assert_eq!(one(&res[0]), &json!(16));
    let aliases = json!([
        "bandgap",
        "energy gap",
        "electronic band gap",
        "optical band gap",
        "gap energy",
        "band gaps",
        "밴드갭",
        "밴드 갭",
        "띠간격",
        "띠 간격",
        "에너지 갭",
        "Eg",
        "E_g",
        "Egap",
        "band gab",
        "bandgpa",
        "bnad gap",
        "badn gap"
    ]);
    assert_eq!(res[1], vec![vec![aliases, json!("eV")]]);
    assert_eq!(
        res[2],
        vec![vec![
            json!("eV/Å^2"),
            json!("energy per area"),
            json!("kg/s^2"),
            json!(16.02176634)
        ]]
    );
    assert_eq!(
        res[3],
        vec![vec![
            json!("concept:surface_energy"),
            json!("J/m^2"),
            json!(16.02176634)
        ]]
    );
    assert_eq!(
        res[4],
        vec![vec![json!("W/(m·K)"), json!("W/m*K"), json!(1.0)]]
    );
    assert_eq!(
        res[5],
        vec![vec![
            json!("concept:surface_energy"),
            json!("surface energy in eV/Å^2")
        ]]
    );
    let serving: Vec<&str> = res[6].iter().map(|r| r[0].as_str().unwrap()).collect();
    assert_eq!(
        serving,
        [
            "tool:aflow",
            "tool:jarvis_dft",
            "tool:lab_notebook",
            "tool:materials_project",
            "tool:nomad"
        ]
    );
}

#[test]
#[ignore = "needs .venv with kuzu (.ci/run): run with --include-ignored"]
fn shipped_project_loads_into_kuzu() {
    shipped(Db::Kuzu);
}

#[test]
#[ignore = "needs .venv with falkordblite (.ci/run): run with --include-ignored"]
fn shipped_project_loads_into_falkordb() {
    shipped(Db::Falkor);
}

fn generated(db: Db) {
    let Some(py) = python_with(db.module()) else {
        return;
    };
    let src = tempfile::tempdir().unwrap();
    let inv = src.path().join("inv");
    schemarouter(
        &[
            "gen",
            "--tools",
            "30",
            "--seed",
            "11",
            "--out",
            inv.to_str().unwrap(),
        ],
        &root(),
    );
    let (dir, art) = compile(&inv);
    assert_eq!(art["tools"].as_array().unwrap().len(), 30);
    assert_matches_artifact(&py, db, dir.path(), &art);
}

#[test]
#[ignore = "needs .venv with kuzu (.ci/run): run with --include-ignored"]
fn generated_inventory_loads_into_kuzu() {
    generated(Db::Kuzu);
}

#[test]
#[ignore = "needs .venv with falkordblite (.ci/run): run with --include-ignored"]
fn generated_inventory_loads_into_falkordb() {
    generated(Db::Falkor);
}

fn strings(db: Db) {
    let Some(py) = python_with(db.module()) else {
        return;
    };
    let (dir, art) = compile(&root().join("tests/fixtures/graph-strings"));
    assert_matches_artifact(&py, db, dir.path(), &art);
    let queries = [
        "MATCH (t:Tool) RETURN t.label".to_string(),
        "MATCH (e:Endpoint) RETURN e.url".to_string(),
        "MATCH (c:DomainConcept {id: 'concept:band_gap'}) RETURN c.aliases".to_string(),
        "MATCH (f:ResponseField)-[m:MAPS_TO_CONCEPT]->(:DomainConcept) RETURN f.label, m.factor ORDER BY f.label".to_string(),
        "MATCH (:ResponseField)-[m:MEASURED_IN]->(u:Unit) RETURN u.label, m.as_published, u.si_factor, u.si_unit ORDER BY u.label".to_string(),
    ];
    let res = load_and_query(&py, db, &script(dir.path(), db), &queries);
    // FalkorDB cannot hold a NUL, and reads no `\u` escape: it keeps the six characters.
    let nul = match db {
        Db::Kuzu => "\0",
        Db::Falkor => "\\u0000",
    };
    let title = format!(
        "It's \"MP\" \\ C:\\path\\ \n2nd line\r\n3rd\ttab \u{1} {nul} \u{2028} Å 😀 ; MATCH (n) DETACH DELETE n //"
    );
    assert_eq!(one(&res[0]), &json!(title));
    assert_eq!(
        one(&res[1]),
        &json!("https://api.materialsproject.org/materials/summary/?q='x'&r=\\y")
    );
    assert_eq!(
        one(&res[2]),
        &json!([
            "band gap",
            "bandgap",
            "energy gap",
            "Zeeman's \\gap",
            "밴드갭",
            "Eg"
        ])
    );
    assert_eq!(
        res[3],
        vec![
            vec![json!("band_gap"), json!(1.0)],
            vec![json!("gap_mev"), json!(0.001)]
        ]
    );
    assert_eq!(
        res[4],
        vec![
            vec![
                json!("eV"),
                json!("ev"),
                json!(1.602176634e-19),
                json!("m^2·kg/s^2")
            ],
            vec![
                json!("meV"),
                Value::Null,
                json!(1.602176634e-22),
                json!("m^2·kg/s^2")
            ]
        ]
    );
}

#[test]
#[ignore = "needs .venv with kuzu (.ci/run): run with --include-ignored"]
fn quotes_backslashes_line_breaks_and_unicode_survive_kuzu() {
    strings(Db::Kuzu);
}

#[test]
#[ignore = "needs .venv with falkordblite (.ci/run): run with --include-ignored"]
fn quotes_backslashes_line_breaks_and_unicode_survive_falkordb() {
    strings(Db::Falkor);
}

/// The same script from the project folder, from `graph.json` and from `graph.bin`.
#[test]
fn cypher_bytes_do_not_depend_on_the_artifact_form() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("build");
    let out = out.to_str().unwrap();
    schemarouter(&["compile", ".", "--out", out, "--format", "both"], &root());
    for dialect in ["neo4j", "kuzu"] {
        let cypher = ["--format", "cypher", "--dialect", dialect];
        let from_project = schemarouter(&[&["graph", "."], &cypher[..]].concat(), &root());
        for file in ["graph.json", "graph.bin"] {
            let artifact = format!("{out}/{file}");
            let args = [&["graph", "--artifact", &artifact], &cypher[..]].concat();
            assert!(
                schemarouter(&args, &root()) == from_project,
                "{dialect} {file}"
            );
        }
    }
}
