//! The dense search signal (`search::dense`): WordLlama's vectors reproduced, and a project
//! whose `[search] embeddings` names a local folder compiled and searched end to end.

use schemarouter::search::dense::{Embedder, vectors};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A safetensors file with one F32 tensor.
fn safetensors(name: &str, rows: usize, cols: usize, values: &[f32]) -> Vec<u8> {
    let data: Vec<u8> = values.iter().flat_map(|x| x.to_le_bytes()).collect();
    let header = format!(
        r#"{{"{name}":{{"dtype":"F32","shape":[{rows},{cols}],"data_offsets":[0,{}]}}}}"#,
        data.len()
    );
    let mut h = header.into_bytes();
    while h.len() % 8 != 0 {
        h.push(b' ');
    }
    let mut out = (h.len() as u64).to_le_bytes().to_vec();
    out.extend(h);
    out.extend(data);
    out
}

/// A two-dimensional model over a few lower-cased words: `car` and `vehicle` point one way,
/// `weather` and `forecast` the other; every other word is `[UNK]` (a zero row).
fn tiny_model(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("tokenizer.json"),
        r#"{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],
            "normalizer":{"type":"Lowercase"},"pre_tokenizer":{"type":"Whitespace"},
            "post_processor":null,"decoder":null,
            "model":{"type":"WordLevel","unk_token":"[UNK]",
              "vocab":{"[UNK]":0,"car":1,"vehicle":2,"weather":3,"forecast":4}}}"#,
    )
    .unwrap();
    let table = [0.0, 0.0, 1.0, 0.0, 0.9, 0.1, 0.0, 1.0, 0.1, 0.9];
    std::fs::write(
        dir.join("model.safetensors"),
        safetensors("embeddings", 5, 2, &table),
    )
    .unwrap();
}

/// A project of two MCP tools; `search` is appended to its `schemarouter.toml`.
fn project(dir: &Path, search: &str) {
    std::fs::create_dir_all(dir.join("schemas")).unwrap();
    std::fs::write(
        dir.join("schemarouter.toml"),
        format!("[project]\nname = \"dense\"\n\n[lint]\nprofile = \"minimal\"\n{search}"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("intents")).unwrap();
    std::fs::write(
        dir.join("intents/domains.yaml"),
        "domains:\n  - id: spots\n  - id: meteo\n",
    )
    .unwrap();
    for (id, ep, desc) in [
        ("spots", "find_vehicle_spot", "Find a spot for a vehicle"),
        ("meteo", "get_forecast", "Weather forecast for a city"),
    ] {
        std::fs::write(
            dir.join(format!("schemas/{id}.yaml")),
            format!(
                "id: {id}\ntitle: {id}\ndomain: {id}\nendpoints:\n  - id: {ep}\n    method: MCP\n    url: mcp://{id}/{ep}\n    mcp_tool: {ep}\n    description: {desc}\n    fields:\n      - {{name: result, type: any}}\n"
            ),
        )
        .unwrap();
    }
}

fn run(args: &[&str], env: Option<&Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_schemarouter"));
    c.args(args).env_remove("SCHEMAROUTER_EMBEDDINGS");
    if let Some(p) = env {
        c.env("SCHEMAROUTER_EMBEDDINGS", p);
    }
    c.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn compiled(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("build/graph.json")).unwrap()).unwrap()
}

fn search(dir: &Path, q: &str, env: Option<&Path>) -> (Value, String) {
    let art = dir.join("build/graph.json");
    let out = run(
        &[
            "search",
            "--artifact",
            art.to_str().unwrap(),
            "--json",
            "--",
            q,
        ],
        env,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    (
        serde_json::from_slice(&out.stdout).unwrap(),
        text(&out.stderr),
    )
}

fn project_with_model() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("p");
    project(&dir, "\n[search]\nembeddings = \"model\"\n");
    tiny_model(&dir.join("model"));
    let out = run(&["compile", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    (t, dir)
}

#[test]
fn compile_stores_one_quantised_vector_per_endpoint() {
    let (_t, dir) = project_with_model();
    let g = compiled(&dir);
    let sv = &g["index"]["search_vectors"];
    let model = sv["model"].as_str().unwrap();
    assert!(
        model.starts_with("model.safetensors + tokenizer.json (2 dimensions, blake3 "),
        "{model}"
    );
    assert_eq!(sv["dims"], 2);
    assert_eq!(sv["weight"], 2.5);
    // Tools by id: meteo ("get forecast. meteo. Weather forecast for a city": forecast twice,
    // weather once -> (0.2, 2.8)), then spots (vehicle twice -> (1.8, 0.2)); each scaled to
    // 127 and rounded.
    assert_eq!(sv["vectors"], "CX9/Dg==");
    assert_eq!(
        vectors::quantise(&[0.2, 2.8]),
        vec![9, 127],
        "the expected bytes"
    );
    // The same sources give the same bytes.
    let first = std::fs::read(dir.join("build/graph.json")).unwrap();
    let out = run(&["compile", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(first, std::fs::read(dir.join("build/graph.json")).unwrap());
}

#[test]
fn a_question_without_a_shared_word_is_found_by_its_meaning() {
    let (_t, dir) = project_with_model();
    let (v, stderr) = search(&dir, "where can I leave my car", None);
    assert_eq!(stderr, "");
    let hits = v["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 2);
    assert_eq!(hits[0]["endpoint"], "find_vehicle_spot");
    assert_eq!(hits[0]["matched"], serde_json::json!([]));
    assert_eq!(hits[0]["similarity"], 0.994);
    assert_eq!(hits[1]["endpoint"], "get_forecast");
    // A word both share: BM25F plus 2.5 x the best BM25F score x the cosine.
    let (v, _) = search(&dir, "forecast", None);
    let hits = v["hits"].as_array().unwrap();
    assert_eq!(hits[0]["endpoint"], "get_forecast");
    assert_eq!(hits[0]["matched"], serde_json::json!(["forecast"]));
    let sim = hits[0]["similarity"].as_f64().unwrap();
    assert!(sim > 0.99, "{sim}");
}

#[test]
fn missing_weights_at_query_time_leave_the_search_lexical_with_a_warning() {
    let (t, dir) = project_with_model();
    let moved = t.path().join("elsewhere");
    std::fs::rename(dir.join("model"), &moved).unwrap();
    let (v, stderr) = search(&dir, "where can I leave my car", None);
    assert_eq!(v["hits"], serde_json::json!([]));
    assert!(
        stderr.starts_with("warning: the dense weights cannot be loaded: ")
            && stderr.trim_end().ends_with("; search is lexical only"),
        "{stderr}"
    );
    let (v, _) = search(&dir, "forecast", None);
    assert_eq!(v["hits"][0]["endpoint"], "get_forecast");
    assert_eq!(v["hits"][0].get("similarity"), None);
    // The environment variable says where the folder is now.
    let (v, stderr) = search(&dir, "where can I leave my car", Some(&moved));
    assert_eq!(stderr, "");
    assert_eq!(v["hits"][0]["endpoint"], "find_vehicle_spot");
    // Other weights than the vectors were made with are not used.
    let other = t.path().join("other");
    tiny_model(&other);
    std::fs::write(
        other.join("model.safetensors"),
        safetensors(
            "embeddings",
            5,
            2,
            &[0.0, 0.0, 1.0, 0.0, 0.8, 0.2, 0.0, 1.0, 0.1, 0.9],
        ),
    )
    .unwrap();
    let (v, stderr) = search(&dir, "where can I leave my car", Some(&other));
    assert_eq!(v["hits"], serde_json::json!([]));
    assert!(
        stderr.contains(
            "but the artifact's vectors were made by `model.safetensors + tokenizer.json"
        ),
        "{stderr}"
    );
}

#[test]
fn a_project_without_the_setting_compiles_no_vectors() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("p");
    project(&dir, "");
    let out = run(&["compile", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(compiled(&dir)["index"].get("search_vectors"), None);
    let (v, stderr) = search(&dir, "where can I leave my car", None);
    assert_eq!(
        (v["hits"].clone(), stderr.as_str()),
        (serde_json::json!([]), "")
    );
}

#[test]
fn unusable_settings_stop_compile_with_their_place() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("p");
    project(&dir, "\n[search]\nembeddings = \"nowhere\"\n");
    let out = run(&["compile", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("schemarouter.toml:8:14: `[search] embeddings`: ")
            && err.contains("nowhere` is not a folder\nhelp: name a folder holding the weights"),
        "{err}"
    );
    assert!(!dir.join("build/graph.json").exists());
    project(
        &dir,
        "\n[search]\nembeddings = \"model\"\ndense-weight = -1\n",
    );
    tiny_model(&dir.join("model"));
    let out = run(&["compile", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "schemarouter.toml:9:16: `[search] dense-weight` is -1; it must be between 0 and 100"
        ),
        "{err}"
    );
}

/// WordLlama's own vectors (bench/dense/reference.py) reproduced from the wheel's folder, named
/// by `SCHEMAROUTER_TEST_WORDLLAMA` (CI fetches the wheel with pip; the weights are never
/// committed). Without it the test says so and passes only outside CI.
#[test]
#[ignore = "needs the wordllama wheel named by SCHEMAROUTER_TEST_WORDLLAMA (.ci/run): run with --include-ignored"]
fn wordllama_vectors_match_the_package() {
    let Some(folder) = std::env::var_os("SCHEMAROUTER_TEST_WORDLLAMA") else {
        assert!(
            std::env::var("CI").is_err(),
            "CI must set SCHEMAROUTER_TEST_WORDLLAMA to the wordllama wheel's folder"
        );
        eprintln!("skipped: SCHEMAROUTER_TEST_WORDLLAMA is not set");
        return;
    };
    let m = Embedder::load(Path::new(&folder)).unwrap();
    assert_eq!(m.dims(), 256);
    assert!(m.id().starts_with(
        "l2_supercat_256.safetensors + l2_supercat_tokenizer_config.json (256 dimensions, blake3 "
    ));
    let reference: Value = serde_json::from_str(include_str!("data/dense_reference.json")).unwrap();
    let mut embedded = Vec::new();
    for t in reference["texts"].as_array().unwrap() {
        let text = t["text"].as_str().unwrap();
        let ids: Vec<usize> = t["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(m.token_ids(text), ids, "{text}");
        let v = m.embed(text);
        for (i, want) in t["head"].as_array().unwrap().iter().enumerate() {
            let want = want.as_f64().unwrap();
            assert!(
                (v[i] as f64 - want).abs() < 2e-6,
                "{text}: component {i} is {}, WordLlama gives {want}",
                v[i]
            );
        }
        let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "{text}: {norm}");
        embedded.push(v);
    }
    for c in reference["cosines"].as_array().unwrap() {
        let (a, b) = (
            c["a"].as_u64().unwrap() as usize,
            c["b"].as_u64().unwrap() as usize,
        );
        let cos: f32 = embedded[a]
            .iter()
            .zip(&embedded[b])
            .map(|(x, y)| x * y)
            .sum();
        let want = c["cosine"].as_f64().unwrap();
        assert!((cos as f64 - want).abs() < 2e-6, "{a}/{b}: {cos} vs {want}");
    }
}
