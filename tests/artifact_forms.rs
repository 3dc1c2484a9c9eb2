//! Artifact format 2 (issue 14): the compact JSON, the indented JSON (`compile --pretty`, byte
//! for byte the layout of format 1) and the memory-mapped binary form carry the same routing
//! content, so every plan is identical whichever form `route` reads; on the shipped project and
//! on a generated inventory.

use schemarouter::artifact::{self, FrozenGraph, io};
use schemarouter::lint::check_path;
use schemarouter::route::analyzer::lexical::Lexical;
use schemarouter::route::{Options, route};
use schemarouter::synth::{GenConfig, generate};
use std::path::Path;

/// Every example query of every intent, with the plan each form gives (as JSON text).
fn plans(g: &FrozenGraph) -> Vec<String> {
    let lex = Lexical::new(g);
    let mut out = Vec::new();
    for i in &g.intents {
        for q in &i.examples {
            let u = lex.analyse(q).understanding;
            let plan = route(g, &u, &Options::default());
            out.push(serde_json::to_string(&plan).unwrap());
        }
    }
    out
}

/// Compile `root` both ways (borrowing and consuming the project), write the three forms and
/// check that they load to the same routing content and give the same plans.
fn same_plans_from_every_form(root: &Path, min_queries: usize) {
    let c = check_path(root).unwrap();
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    let borrowed = artifact::build::compile(&c.project, &c.index, &c.units);
    let mut g = artifact::build::compile_owned(c.project, c.index, &c.units);
    g.content_hash = io::json_content_hash(&g);
    assert_eq!(g, borrowed, "compile_owned and compile disagree");

    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("graph.json");
    let pretty = dir.path().join("pretty/graph.json");
    let bin = dir.path().join("graph.bin");
    std::fs::create_dir_all(pretty.parent().unwrap()).unwrap();
    io::write_json(&g, &json).unwrap();
    let mut f = std::fs::File::create(&pretty).unwrap();
    io::write_json_pretty_into(&g, &mut f).unwrap();
    drop(f);
    io::write_bin(&g, &bin).unwrap();

    let want = plans(&g);
    assert!(want.len() >= min_queries, "{} queries", want.len());
    let mut without_graph = g.clone();
    without_graph.graph = artifact::GraphData::default();
    for p in [&json, &pretty, &bin] {
        let loaded = io::load_routing(p).unwrap();
        assert_eq!(loaded, without_graph, "{}", p.display());
        assert_eq!(plans(&loaded), want, "{}", p.display());
        assert_eq!(io::load(p).unwrap(), g, "{}", p.display());
        // Read as `route` reads it: plans first (parsing only what they read), then all of it.
        let lazy = io::load_routing_lazy(p).unwrap();
        assert_eq!(
            artifact::reading(|| plans(&lazy)),
            Ok(want.clone()),
            "{}",
            p.display()
        );
        assert_eq!(lazy, without_graph, "{}", p.display());
    }
    // The bytes of each form do not depend on how they were produced.
    assert_eq!(std::fs::read(&json).unwrap(), io::to_json_bytes(&borrowed));
    assert_eq!(std::fs::read(&bin).unwrap(), io::to_bin_bytes(&borrowed));
    // A binary artifact loaded lazily gives the same plans before and after every tool was read.
    let lazy = io::load_routing(&bin).unwrap();
    let first = plans(&lazy);
    let _ = serde_json::to_vec(&lazy).unwrap();
    assert_eq!(plans(&lazy), first);
}

#[test]
fn shipped_project_plans_are_identical_from_json_pretty_json_and_binary() {
    same_plans_from_every_form(Path::new("."), 30);
}

#[test]
fn generated_inventory_plans_are_identical_from_json_pretty_json_and_binary() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = GenConfig {
        tools: 120,
        seed: 7,
        ..GenConfig::default()
    };
    generate(&cfg).write(dir.path()).unwrap();
    same_plans_from_every_form(dir.path(), 20);
}

/// On an inventory of some size (on the 17-endpoint shipped project the two forms are within 1%:
/// each of the search index's ~2,000 short posting lists costs the binary form a 16-byte entry).
#[test]
fn the_binary_form_is_smaller_than_the_json_form() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = GenConfig {
        tools: 200,
        seed: 3,
        ..GenConfig::default()
    };
    generate(&cfg).write(dir.path()).unwrap();
    let c = check_path(dir.path()).unwrap();
    let g = artifact::build::compile(&c.project, &c.index, &c.units);
    let bin = io::to_bin_bytes(&g);
    let json = io::to_json_bytes(&g);
    assert!(bin.len() < json.len(), "{} vs {}", bin.len(), json.len());
}

#[test]
fn empty_and_mislabelled_files_get_a_plain_error_and_help() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str, &str); 6] = [
        (
            "graph.bin",
            b"",
            "the artifact is malformed or truncated: the file is empty (0 bytes)",
            "pass a `graph.json` or `graph.bin` written by `schemarouter compile`; compile the project again if the file is stale or damaged",
        ),
        (
            "graph.json",
            b"",
            "the artifact is malformed or truncated: the file is empty (0 bytes)",
            "pass a `graph.json` or `graph.bin` written by `schemarouter compile`; compile the project again if the file is stale or damaged",
        ),
        // Read by content, not by name: JSON named `.bin` is read as JSON, and what is neither
        // form says so.
        (
            "other.bin",
            b"\x89PNG\r\n\x1a\n",
            "the artifact is malformed or truncated: not an artifact: it starts with neither `{` (graph.json) nor the binary magic (graph.bin)",
            "pass a `graph.json` or `graph.bin` written by `schemarouter compile`; compile the project again if the file is stale or damaged",
        ),
        (
            "other.bin",
            b"{\"format_version\": \"2\"}",
            "the artifact's `format_version` must be an integer, found the string `\"2\"`: the file was edited or damaged; recompile it with `schemarouter compile`",
            "pass a `graph.json` or `graph.bin` written by `schemarouter compile`; compile the project again if the file is stale or damaged",
        ),
        (
            "other.bin",
            b"{\"format_version\": 2.0}",
            "the artifact's `format_version` must be an integer, found the number `2.0`: the file was edited or damaged; recompile it with `schemarouter compile`",
            "pass a `graph.json` or `graph.bin` written by `schemarouter compile`; compile the project again if the file is stale or damaged",
        ),
        (
            "x.json",
            b"{}",
            "not a schemarouter artifact (no `format_version`); pass the `graph.json` or `graph.bin` written by `schemarouter compile`",
            "run `schemarouter compile` to write one (`build/graph.json` or `build/graph.bin`)",
        ),
    ];
    for (name, bytes, message, help) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let e = io::load_routing(&path).unwrap_err();
        assert_eq!(
            (e.to_string().as_str(), e.help()),
            (message, help),
            "{name}"
        );
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
            .args(["route", "--artifact"])
            .arg(&path)
            .arg("band gap of GaN")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("error: {}: {message}\nhelp: {help}\n", path.display())
        );
    }
}

/// Run the CLI.
fn schemarouter(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(args)
        .output()
        .unwrap()
}

/// Every command that reads an artifact file reads the compact JSON named `.bin`, `.BIN` or
/// with no extension as JSON, and the binary form named `.json` as binary, with the output
/// of the correctly named file.
#[test]
fn every_reader_chooses_the_form_by_content_not_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("graph.json");
    let bin = dir.path().join("graph.bin");
    let out = schemarouter(&[
        "compile",
        ".",
        "--out",
        dir.path().to_str().unwrap(),
        "--format",
        "both",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let copies = [
        ("renamed.bin", &json),
        ("renamed.BIN", &json),
        ("renamed", &json),
        ("binary.json", &bin),
    ];
    for (name, from) in copies {
        let to = dir.path().join(name);
        std::fs::copy(from, &to).unwrap();
        let (to, from) = (to.to_str().unwrap(), from.to_str().unwrap());
        for args in [
            vec!["route", "--json", "--artifact", "{}", "band gap of GaAs"],
            vec!["stats", "--format", "json", "--artifact", "{}"],
            vec!["graph", "--format", "dot", "--artifact", "{}"],
        ] {
            let run = |path: &str| {
                let args: Vec<&str> = args
                    .iter()
                    .map(|a| if *a == "{}" { path } else { a })
                    .collect();
                schemarouter(&args)
            };
            let (renamed, named) = (run(to), run(from));
            assert_eq!(
                renamed.status.code(),
                Some(0),
                "{name} {args:?}: {}",
                String::from_utf8_lossy(&renamed.stderr)
            );
            assert_eq!(renamed.stdout, named.stdout, "{name} {args:?}");
        }
        let diff = schemarouter(&["diff", from, to]);
        assert_eq!(diff.status.code(), Some(0), "{name}");
        assert_eq!(
            String::from_utf8_lossy(&diff.stdout).lines().nth(1),
            Some("No schema changes."),
            "{name}"
        );
    }
}

/// A hand-edited `graph.json` whose content hash was recomputed, with a key written twice in an
/// index map: every reader refuses it (exit 2), naming the map and the key, instead of routing
/// with the last entry or reporting no change.
#[test]
fn a_repeated_index_key_is_refused_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let json = std::fs::read_to_string("build/graph.json").unwrap();
    let key = "\"concept_postings\":{";
    let at = json.find(key).unwrap() + key.len();
    let bad = rehashed(format!(
        "{}\"band_gap\":[{{\"tool\":0,\"endpoint\":0,\"field\":0,\"kind\":\"exact\"}}],{}",
        &json[..at],
        &json[at..]
    ));
    // The position of the key written twice: its second spelling, the compiled one.
    let text = String::from_utf8(bad.clone()).unwrap();
    let second = at + 1 + text[at + 1..].find("\"band_gap\":").unwrap();
    let column = second + "\"band_gap\"".len();
    let path = dir.path().join("graph.json");
    std::fs::write(&path, &bad).unwrap();
    let p = path.to_str().unwrap();
    let g = io::load(Path::new("build/graph.json")).unwrap();
    assert!(g.index.concept_postings.get("band_gap").is_some());
    for args in [
        vec!["route", "--json", "--artifact", p, "band gap of GaAs"],
        vec!["stats", "--artifact", p],
        vec!["graph", "--format", "dot", "--artifact", p],
        vec!["diff", "build/graph.json", p],
    ] {
        let out = schemarouter(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(out.stdout, b"", "{args:?}");
        let want = format!(
            "error: {p}: the artifact is malformed or truncated: duplicate key `band_gap` in `index.concept_postings` at line 1 column {column}\nhelp: "
        );
        assert!(stderr.starts_with(&want), "{args:?}: {stderr}");
    }
}

/// JSON artifact text with its content hash recomputed, as a hand edit that re-hashes would.
fn rehashed(json: String) -> Vec<u8> {
    let mut bad = json.into_bytes();
    let key = b"\"content_hash\":\"";
    let h = bad.windows(key.len()).position(|w| w == key).unwrap() + key.len();
    bad[h..h + 64].fill(b'0');
    let hash = blake3::hash(&bad).to_hex().to_string();
    bad[h..h + 64].copy_from_slice(hash.as_bytes());
    bad
}

/// A compact `graph.json` edited by hand (valid JSON, the wrong type in one tool) and re-hashed:
/// `route` reads it lazily, and says so (exit 2, no plan) once routing has read that tool.
#[test]
fn route_reports_a_hand_edited_tool_after_reading_it_lazily() {
    let dir = tempfile::tempdir().unwrap();
    let json = std::fs::read_to_string("build/graph.json").unwrap();
    let g = io::load_routing(Path::new("build/graph.json")).unwrap();
    let id = &g.tools[0].id;
    let at = json.find(&format!("{{\"id\":\"{id}\",")).unwrap();
    let p = at + json[at..].find("\"priority\":").unwrap() + "\"priority\":".len();
    let end = p + json[p..].find(',').unwrap();
    let bad = rehashed(format!("{}\"high\"{}", &json[..p], &json[end..]));
    let path = dir.path().join("graph.json");
    std::fs::write(&path, &bad).unwrap();
    // Every tool is read by a query naming the tool; the first one is the edited one.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args(["route", "--json", "--artifact"])
        .arg(&path)
        .arg(format!("band gap of GaN from {}", g.tools[0].title))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(out.stdout, b"");
    // The error and its help line, nothing else (no panic message).
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    let first = stderr.lines().next().unwrap();
    let want = format!(
        "error: {}: the artifact is malformed or truncated: tools: element 0: invalid type: string \"high\", expected i64 at line 1 column ",
        path.display()
    );
    assert!(first.starts_with(&want), "{stderr}");
    // Loaded eagerly (as the servers and `eval` do), it is refused at once, at the same
    // position in the file.
    let e = io::load_routing(&path).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "the artifact is malformed or truncated: invalid type: string \"high\", expected i64"
        ),
        "{e}"
    );
    let column = e.rsplit(' ').next().unwrap();
    assert!(
        first.ends_with(&format!(" at line 1 column {column}")),
        "{first} / {e}"
    );
    // Through a pipe (not memory-mappable): the same refusal; the shipped artifact routes as
    // from the file.
    let from_pipe = |bytes: Vec<u8>| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
            .args([
                "route",
                "--json",
                "--artifact",
                "/dev/stdin",
                "band gap of GaN",
            ])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &bytes));
        let out = child.wait_with_output().unwrap();
        let _ = writer.join();
        (out.status.code(), out.stdout)
    };
    assert_eq!(from_pipe(bad.clone()), (Some(2), Vec::new()));
    let from_file = std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .args([
            "route",
            "--json",
            "--artifact",
            "build/graph.json",
            "band gap of GaN",
        ])
        .output()
        .unwrap();
    assert_eq!(from_file.status.code(), Some(0));
    assert_eq!(from_pipe(json.into_bytes()), (Some(0), from_file.stdout));
}

/// The last tool cut out of a re-hashed `graph.json`: the indices and intents still name it.
/// `route` and `eval` (which read lazily and eagerly) say so, exit 2, and print no plan.
#[test]
fn references_to_a_tool_that_is_not_there_end_route_and_eval_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let json = std::fs::read_to_string("build/graph.json").unwrap();
    let g = io::load_routing(Path::new("build/graph.json")).unwrap();
    let n = g.tools.len();
    let end = json.find("],\"intents\":[").unwrap();
    let last = json[..end]
        .rfind(&format!(",{{\"id\":\"{}\",", g.tools[n - 1].id))
        .unwrap();
    let cut = rehashed(format!("{}{}", &json[..last], &json[end..]));
    let path = dir.path().join("graph.json");
    std::fs::write(&path, &cut).unwrap();
    assert_eq!(io::load_routing(&path).unwrap().tools.len(), n - 1);
    let want = format!(
        "the artifact is malformed or truncated: a reference names tool {}, but the artifact has {} tools",
        n - 1,
        n - 1
    );
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_schemarouter"))
            .args(args)
            .arg("--artifact")
            .arg(&path)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.stdout,
        )
    };
    // The web search intent's candidates include the last tool.
    let (code, stderr, stdout) =
        run(&["route", "--json", "search the web for news about graphene"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty());
    assert_eq!(
        stderr.lines().next().unwrap(),
        format!("error: {}: {want}", path.display()),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    let (code, stderr, _) = run(&["eval", "--bench", "bench/dev.yaml", "--from", "query"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains(&format!("error: {want}\n")), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
