"""pytest over the built wheel: every function on the shipped artifact, every error type,
concurrent use from threads, and projection of the recorded provider responses (whose reader
context must equal the Rust snapshots under snapshots/)."""

import json
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import schemarouter_rs as sr

ROOT = Path(__file__).resolve().parents[2]
ARTIFACT = ROOT / "build" / "graph.json"
RESPONSES = ROOT / "tests" / "fixtures" / "responses"
QUESTION = "What is the band gap of LiFePO4 according to the Materials Project?"
UNDERSTANDING = {
    "intent": "electronic_property",
    "domain_concepts": ["band_gap"],
    "parameters": {"formula": "LiFePO4"},
    "target_apis": ["materials_project"],
    "source_constraint": None,
}


@pytest.fixture(scope="module")
def router():
    return sr.Router.load(ARTIFACT)


@pytest.fixture(scope="module")
def graph():
    return json.loads(ARTIFACT.read_text(encoding="utf-8"))


def test_artifact_info_prompt_and_intents(router, graph):
    info = router.artifact_info
    assert {k: info[k] for k in ("project", "tools", "endpoints", "fields", "concepts", "intents")} == {
        "project": "materials-16",
        "tools": 16,
        "endpoints": 17,
        "fields": 398,
        "concepts": 192,
        "intents": 13,
    }
    assert info["content_hash"] == graph["content_hash"]
    assert info["routing_fingerprint"] == graph["routing_fingerprint"]
    assert info["path"] == str(ARTIFACT)
    assert router.prompt == (ROOT / "build" / "intent_prompt.txt").read_text(encoding="utf-8")
    ids = [i["id"] for i in router.intents]
    assert ids == sorted(i["id"] for i in graph["intents"])
    assert router.intents[0].keys() == {"id", "description", "domains", "required_groups", "examples"}
    assert repr(router) == f"Router(\"{ARTIFACT}\": materials-16 1.0.0, 16 tools)"


def test_route_question(router):
    out = router.route(QUESTION)
    assert out["understanding"] == UNDERSTANDING
    plan = out["plan"]
    assert plan["status"] == "planned"
    assert [(s["tool"], s["endpoint"], s["records"]) for s in plan["steps"]] == [
        ("materials_project", "summary", "data[]")
    ]
    # The default `core` projection: band_gap is matched, so no group safety net is added.
    assert [f["name"] for f in plan["steps"][0]["fields"]] == ["band_gap", "material_id"]
    meta = plan["steps"][0]["fields"][0]["meta"]
    assert (meta["unit"], meta["source_type"], meta["licence"]["spdx"]) == ("eV", "calculated", "CC-BY-4.0")
    assert plan["routing_fingerprint"] == router.artifact_info["routing_fingerprint"]


def test_search_ranks_endpoints_as_the_cli_does(router, graph):
    import subprocess

    out = router.search("crystal structure cif files", k=3)
    assert out["query"] == "crystal structure cif files"
    assert out["artifact_hash"] == graph["content_hash"]
    assert [(h["rank"], h["tool"], h["endpoint"]) for h in out["hits"]] == [
        (1, "cod", "result"),
        (2, "jarvis_dft", "dft_3d"),
        (3, "materials_project", "summary"),
    ]
    assert out["hits"][0]["matched"] == ["crystal", "structure", "cif", "files"]
    assert all(h["call"] is None for h in out["hits"])
    binary = ROOT / "target" / "debug" / "schemarouter"
    if binary.exists():
        cli = subprocess.run(
            [binary, "search", "--json", "--k", "3", "--artifact", ARTIFACT, "crystal structure cif files"],
            capture_output=True, check=True,
        )
        assert json.loads(cli.stdout) == out
    with pytest.raises(sr.RouteError, match="the query is empty"):
        router.search("  ")
    with pytest.raises(sr.RouteError, match="k must be an integer from 1 to 1000, not 0"):
        router.search("band gap", k=0)
    assert router.search("zzzz qqqq")["hits"] == []


def test_route_understanding_matches_route(router):
    plan = router.route_understanding(UNDERSTANDING)
    assert plan == router.route(QUESTION)["plan"]
    recall = router.route_understanding(UNDERSTANDING, projection="recall")
    assert [f["name"] for f in recall["steps"][0]["fields"]] == [
        "band_gap",
        "efermi",
        "is_gap_direct",
        "is_metal",
        "material_id",
        "weighted_work_function",
    ]
    assert router.route_understanding(UNDERSTANDING, projection="core") == plan
    minimal = router.route_understanding(UNDERSTANDING, projection="minimal")
    assert [f["name"] for f in minimal["steps"][0]["fields"]] == ["band_gap", "material_id"]
    every = router.route_understanding(UNDERSTANDING, projection="all")
    assert len(every["steps"][0]["fields"]) == 46
    two = router.route_understanding({"intent": "electronic_property", "domain_concepts": ["band_gap"]}, k=2)
    assert len(two["steps"]) == 2
    assert router.route_understanding({})["status"] == "no_suitable_tool"


def test_route_errors(router):
    with pytest.raises(sr.RouteError) as e:
        router.route_understanding({"intnet": "electronic_property"})
    assert e.value.message.startswith("not a valid Understanding: unknown field `intnet`")
    assert (e.value.file, e.value.line, e.value.column) == (None, None, None)
    with pytest.raises(sr.RouteError, match="unknown projection `best`"):
        router.route(QUESTION, projection="best")
    for k, shown in [(0, "0"), (-1, "-1"), (2**70, str(2**70)), (1001, "1001"),
                     (True, "a boolean"), ("2", "str"), (1.5, "float")]:
        with pytest.raises(sr.RouteError) as e:
            router.route(QUESTION, k=k)
        assert e.value.message.startswith("k must be an integer from 1 to 1000"), e.value.message
        assert shown in e.value.message
    assert router.route(QUESTION, k=None) == router.route(QUESTION)
    # A string where a list belongs is refused, not read as a list of characters.
    with pytest.raises(sr.RouteError) as e:
        router.route_understanding(
            {"intent": "electronic_property", "domain_concepts": ["band_gap"],
             "excluded_apis": "materials_project"})
    assert "expected a sequence" in e.value.message, e.value.message
    # NaN is no JSON value: refused, not bound as nothing.
    for bad in [float("nan"), float("inf"), [1.0, float("-inf")]]:
        with pytest.raises(sr.RouteError, match="parameter `formula` is NaN or infinite"):
            router.route_understanding(
                {"intent": "electronic_property", "parameters": {"formula": bad}})
    # One question of at most 10,000 characters, as the CLI takes.
    with pytest.raises(sr.RouteError, match="at most 10000 characters"):
        router.route("band gap of GaN " * 700)
    assert issubclass(sr.RouteError, sr.SchemaRouterError)


def test_data_nested_too_deep_is_refused_not_a_crash(router):
    deep = []
    inner = deep
    for _ in range(4000):
        inner.append([])
        inner = inner[0]
    plan = router.route(QUESTION)
    with pytest.raises(sr.ExtractError, match="nests deeper than 128 levels"):
        router.extract(plan, [deep])
    with pytest.raises(sr.ExtractError, match="nests deeper than 128 levels"):
        router.extract({"plan": deep}, [{}])
    with pytest.raises(sr.RouteError, match="nests deeper than 128 levels"):
        router.route_understanding({"intent": "electronic_property", "parameters": {"formula": deep}})
    # In a thread with a small stack too.
    errors = []

    def small():
        try:
            router.extract(plan, [deep])
        except sr.ExtractError as e:
            errors.append(e.message)

    old = threading.stack_size(256 * 1024)
    try:
        t = threading.Thread(target=small)
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    assert errors and "nests deeper than 128 levels" in errors[0]


def test_an_artifact_whose_references_point_nowhere_raises_route_error(tmp_path, graph):
    # The last tool cut out and the file re-hashed, as a hand edit would: the web search intent
    # still names the tool. The call raises; the router goes on answering the rest.
    import blake3

    text = ARTIFACT.read_text(encoding="utf-8")
    last = graph["tools"][-1]["id"]
    end = text.index('],"intents":[')
    cut = text.rindex(',{"id":"%s",' % last, 0, end)
    bad = bytearray((text[:cut] + text[end:]).encode("utf-8"))
    key = b'"content_hash":"'
    at = bad.index(key) + len(key)
    bad[at : at + 64] = b"0" * 64
    bad[at : at + 64] = blake3.blake3(bytes(bad)).hexdigest().encode("ascii")
    path = tmp_path / "graph.json"
    path.write_bytes(bytes(bad))
    r = sr.Router.load(path)
    n = len(graph["tools"]) - 1
    with pytest.raises(sr.RouteError) as e:
        r.route("search the web for news about graphene")
    assert e.value.message == (
        "the artifact cannot be read: a reference names tool %d, but the artifact has %d tools" % (n, n)
    )
    assert r.route("band gap of GaN")["plan"]["steps"]


def test_load_errors(tmp_path):
    with pytest.raises(sr.LoadError) as e:
        sr.Router.load(tmp_path / "missing.json")
    assert e.value.file == str(tmp_path / "missing.json")
    assert e.value.message.startswith("cannot read: ")
    bad = tmp_path / "graph.json"
    text = ARTIFACT.read_text(encoding="utf-8").replace('"materials-16"', '"materials-17"', 1)
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(sr.ArtifactError) as e:
        sr.Router.load(bad)
    assert "content hash" in e.value.message
    bad.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(sr.ArtifactError):
        sr.Router.load(bad)
    for cls in (sr.LoadError, sr.ArtifactError, sr.ExtractError, sr.CompileError):
        assert issubclass(cls, sr.SchemaRouterError)


def test_binary_artifact(tmp_path):
    import subprocess

    exe = shutil.which("schemarouter") or str(ROOT / "target" / "debug" / "schemarouter")
    if not Path(exe).exists():
        pytest.skip("the schemarouter CLI is not built")
    subprocess.run([exe, "compile", str(ROOT), "--out", str(tmp_path), "--format", "bin"], check=True, capture_output=True)
    r = sr.Router.load(tmp_path / "graph.bin")
    assert r.route_understanding(UNDERSTANDING) == sr.Router.load(ARTIFACT).route_understanding(UNDERSTANDING)


def all_fields_plan(graph, tool, endpoint):
    t = next(t for t in graph["tools"] if t["id"] == tool)
    e = next(e for e in t["endpoints"] if e["id"] == endpoint)
    return {
        "status": "planned",
        "routing_fingerprint": graph["routing_fingerprint"],
        "steps": [
            {
                "tool": tool,
                "endpoint": endpoint,
                "method": e["method"],
                "url": e["url"],
                "params": {},
                "fields": [
                    {"name": f["name"], "identifier": f.get("identifier", False), "reasons": [{"kind": "all_fields"}]}
                    for f in e["fields"]
                ],
                "score": 0,
                "why": "",
            }
        ],
    }


def snapshot_context(name):
    """The reader context in the Rust snapshot of this fixture."""
    text = (ROOT / "snapshots" / f"extract__extract_{name}.snap").read_text(encoding="utf-8")
    body = text.split("\n---\n", 1)[1]
    context, rest = body.split("--- ", 1)
    return context, int(rest.split(" ", 1)[0])


def endpoints(graph):
    return [(t["id"], e["id"]) for t in graph["tools"] for e in t["endpoints"]]


def test_extract_every_fixture_matches_the_rust_snapshots(router, graph):
    assert len(endpoints(graph)) == 17
    for tool, endpoint in endpoints(graph):
        name = f"{tool}.{endpoint}"
        path = next(RESPONSES.glob(f"{name}.*"))
        x = router.extract(all_fields_plan(graph, tool, endpoint), [path.read_text(encoding="utf-8")])
        assert (x["context"], x["context_tokens"]) == snapshot_context(name), name
        assert x["steps"][0]["records"], name


def test_extract_inputs_dict_text_bytes_and_route_output(router):
    # The recall projection plans the whole field groups, so the response's gaps show as issues
    # (the default `core` projection plans only the band gap and identifiers: no issues).
    assert router.extract(router.route(QUESTION), [
        (RESPONSES / "materials_project.summary.json").read_text(encoding="utf-8")
    ])["issues"] == []
    routed = router.route(QUESTION, projection="recall")
    path = RESPONSES / "materials_project.summary.json"
    text = path.read_text(encoding="utf-8")
    as_text = router.extract(routed, [text])
    assert router.extract(routed["plan"], [json.loads(text)]) == as_text
    assert router.extract(json.dumps(routed), (path.read_bytes(),)) == as_text
    step = as_text["steps"][0]
    assert [r["values"]["band_gap"] for r in step["records"]] == [3.7016, 3.2101]
    assert [(i["field"], i["kind"], i.get("records", [])) for i in as_text["issues"]] == [
        ("efermi", "missing", ["data[1]"]),
        ("weighted_work_function", "missing", []),
    ]
    assert as_text["context"].splitlines()[:4] == [
        "[materials_project/summary] 2 records",
        "record 1",
        "material_id = mp-19017",
        "band_gap = 3.7016 eV",
    ]
    assert as_text["context_tokens"] == 198
    uncounted = router.extract(routed, [text], count_tokens=False)
    assert "context_tokens" not in uncounted
    assert uncounted["context"] == as_text["context"]
    src = step["source"]
    assert (src["title"], src["source_type"], src["licence"]["spdx"]) == ("Materials Project", "calculated", "CC-BY-4.0")


def test_extract_xml_and_conversion(router, graph):
    x = router.extract(all_fields_plan(graph, "arxiv", "query"), [(RESPONSES / "arxiv.query.xml").read_bytes()])
    assert x["steps"][0]["format"] == "xml"
    assert x["steps"][0]["envelope"]["opensearch:totalResults"] == 4817
    nomad = router.extract(
        all_fields_plan(graph, "nomad", "entries_query"),
        [json.loads((RESPONSES / "nomad.entries_query.json").read_text(encoding="utf-8"))],
    )
    first = nomad["steps"][0]["records"][0]
    key = "results.properties.structures.structure_conventional.cell_volume"
    assert (first["values"][key], first["canonical"][key]) == (4.6011e-29, 46.011)
    info = next(f for f in nomad["steps"][0]["fields"] if f["name"] == key)
    assert (info["unit"], info["canonical_unit"]) == ("m^3", "Å^3")


def test_extract_errors(router):
    routed = router.route(QUESTION)
    with pytest.raises(sr.ExtractError) as e:
        router.extract(routed, ['{\n  "data": [1,\n  }'])
    assert (e.value.file, e.value.line, e.value.column) == ("response 1", 3, 3)
    assert e.value.message == "invalid JSON: expected value (responses must be JSON or XML documents)"
    with pytest.raises(sr.ExtractError) as e:
        router.extract(routed, [])
    assert e.value.message.startswith("the plan has 1 step(s) but 0 response(s) were given")
    with pytest.raises(sr.ExtractError, match="one response per plan step"):
        router.extract(routed, "{}")
    with pytest.raises(sr.ExtractError, match="not a plan"):
        router.extract({"steps": 3}, [])
    with pytest.raises(sr.ExtractError) as e:
        router.extract(routed, ["<feed><entry></feed>"])
    assert e.value.message.startswith("invalid XML: ")
    with pytest.raises(sr.ExtractError, match="not UTF-8"):
        router.extract(routed, [b"\xff\xfe"])


def test_check_and_compile(tmp_path):
    diags = sr.check(ROOT)
    assert sum(d["severity"] == "error" for d in diags) == 0
    assert sum(d["severity"] == "warning" for d in diags) == 3
    bad = sr.check(ROOT / "tests" / "fixtures" / "invalid-basic")
    assert [(d["code"], d["location"]["line"]) for d in bad if d["severity"] == "error"] == [("SR103", 5), ("SR006", 19)]
    summary = sr.compile(ROOT, tmp_path / "out")
    assert summary["content_hash"] == json.loads(ARTIFACT.read_text(encoding="utf-8"))["content_hash"]
    assert (tmp_path / "out" / "graph.json").read_bytes() == ARTIFACT.read_bytes()
    assert (summary["tools"], summary["fields"]) == (16, 398)
    with pytest.raises(sr.CompileError) as e:
        sr.compile(ROOT / "tests" / "fixtures" / "invalid-basic", tmp_path / "bad")
    assert (e.value.file, e.value.line, e.value.column) == ("intents/extra.yaml", 5, 23)
    assert e.value.message.startswith("refusing to compile: 2 error(s); first: SR103 dangling-reference")
    assert len(e.value.diagnostics) == len(bad)
    assert not (tmp_path / "bad" / "graph.json").exists()
    with pytest.raises(sr.LoadError):
        sr.check(tmp_path / "no-such-project")


def test_compile_write_failures_name_out(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(sr.LoadError) as e:
        sr.compile(ROOT, blocker / "out")
    assert e.value.file == str(blocker / "out")
    assert e.value.message.startswith(f"cannot create `{blocker / 'out'}`")
    with pytest.raises(sr.LoadError, match="`out` is empty"):
        sr.compile(ROOT, "")


def test_threads_compiling_into_one_folder_each_write_whole_files(tmp_path):
    # Each write has its own temporary file: threads of one process wrote the same one.
    out = tmp_path / "shared"
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda _: sr.compile(ROOT, out), range(12)))
    assert len({r["content_hash"] for r in results}) == 1
    assert (out / "graph.json").read_bytes() == ARTIFACT.read_bytes()
    assert sorted(p.name for p in out.iterdir()) == ["graph.json", "intent_prompt.txt"]


def test_threads_share_one_router(router):
    expected_route = router.route(QUESTION)
    expected_plan = router.route_understanding(UNDERSTANDING)
    response = (RESPONSES / "materials_project.summary.json").read_text(encoding="utf-8")
    expected_x = router.extract(expected_route, [response])
    barrier = threading.Barrier(8)

    def work(i):
        barrier.wait()
        for _ in range(50):
            assert router.route(QUESTION) == expected_route
            assert router.route_understanding(UNDERSTANDING) == expected_plan
            assert router.extract(expected_route, [response]) == expected_x
        return i

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert sorted(pool.map(work, range(8))) == list(range(8))


def test_results_follow_the_published_json_schemas(router):
    jsonschema = pytest.importorskip("jsonschema")
    plan_schema = json.loads((ROOT / "docs" / "schema" / "plan.schema.json").read_text(encoding="utf-8"))
    u_schema = json.loads((ROOT / "docs" / "schema" / "understanding.schema.json").read_text(encoding="utf-8"))
    out = router.route(QUESTION, k=2, projection="all")
    jsonschema.validate(out["plan"], plan_schema)
    jsonschema.validate(out["understanding"], u_schema)
    jsonschema.validate(router.route_understanding({}), plan_schema)
