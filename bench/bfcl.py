"""BFCL v4 over one pooled catalog (issue 36). Driven by `bench/bfcl.sh`; run by hand:

    python bench/bfcl.py prepare DATA_DIR WORK_DIR      # pool the functions, write the questions
    python bench/bfcl.py run WORK_DIR BINARY [--limit N]

`prepare` pools the functions of `multiple`, `live_multiple` and `parallel_multiple` (one
definition per name: the first met in that file order) into one OpenAI Chat Completions tool
list, with BFCL's types cast to JSON Schema as BFCL's own OpenAI handler casts them (dict ->
object, float -> number, tuple -> array, any -> string, ...). Names are kept as BFCL spells
them: the handler's `.` -> `_` (an OpenAI API limit, not the importer's) would merge 8 pairs
such as `car.rental` / `car_rental` in the pool. It writes
every question of those sets (positives, with their `possible_answer`) and of `irrelevance` and
`live_irrelevance` (negatives) to `questions.json`.

`run` (after `schemarouter import openai` + `compile`) asks every question against the whole
pool with `route --json --k 5` and, when the build has it, `search --json --k 5`, and computes
the same measures for two baselines computed here (name-only matching, plain BM25 over names and
descriptions). Writes `results.json` and `results.md` into WORK_DIR and prints the tables.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import catalog_bench as cb  # noqa: E402

POSITIVE_SETS = ["multiple", "live_multiple", "parallel_multiple"]
NEGATIVE_SETS = ["irrelevance", "live_irrelevance"]
K = 5

# BFCL's GORILLA_TO_OPENAPI (bfcl_eval/constants/type_mappings.py, Apache-2.0).
GORILLA_TO_OPENAPI = {
    "integer": "integer", "number": "number", "float": "number", "string": "string",
    "boolean": "boolean", "bool": "boolean", "array": "array", "list": "array",
    "dict": "object", "object": "object", "tuple": "array", "any": "string",
    "byte": "integer", "short": "integer", "long": "integer", "double": "number",
    "char": "string", "ArrayList": "array", "Array": "array", "HashMap": "object",
    "Hashtable": "object", "Queue": "array", "Stack": "array", "Any": "string",
    "String": "string", "Bigint": "integer",
}


def openai_name(name: str) -> str:
    """The function's name in the pooled list (BFCL's own spelling)."""
    return name


def cast_types(properties: dict) -> dict:
    """BFCL's `_cast_to_openai_type` (bfcl_eval/model_handler/utils.py), recursively."""
    for key, value in properties.items():
        t = value.get("type")
        value["type"] = GORILLA_TO_OPENAPI.get(t, "string") if isinstance(t, str) else "string"
        if value["type"] in ("array", "object"):
            if isinstance(value.get("properties"), dict):
                value["properties"] = cast_types(value["properties"])
            elif isinstance(value.get("items"), dict):
                items = value["items"]
                items["type"] = GORILLA_TO_OPENAPI.get(items.get("type"), "string")
                if items["type"] == "array" and isinstance(items.get("items"), dict):
                    items["items"]["type"] = GORILLA_TO_OPENAPI.get(items["items"].get("type"), "string")
                elif items["type"] == "object" and isinstance(items.get("properties"), dict):
                    items["properties"] = cast_types(items["properties"])
    return properties


def to_tool(f: dict) -> dict:
    f = json.loads(json.dumps(f))
    params = f.get("parameters") or {"type": "dict", "properties": {}}
    params["type"] = "object"
    params["properties"] = cast_types(params.get("properties") or {})
    return {
        "type": "function",
        "function": {"name": openai_name(f["name"]), "description": f.get("description", ""), "parameters": params},
    }


def question_text(q: dict) -> str:
    """The user's words of the first turn (system messages left out)."""
    turn = q["question"][0]
    return "\n".join(m["content"] for m in turn if m.get("role") == "user" and m.get("content"))


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def prepare(data: Path, work: Path) -> None:
    work.mkdir(parents=True, exist_ok=True)
    pool: dict[str, dict] = {}
    variants: dict[str, set] = {}
    questions = []
    for s in POSITIVE_SETS:
        answers = {a["id"]: a for a in read_jsonl(data / "possible_answer" / f"BFCL_v4_{s}.json")}
        for q in read_jsonl(data / f"BFCL_v4_{s}.json"):
            for f in q["function"]:
                pool.setdefault(f["name"], f)
                variants.setdefault(f["name"], set()).add(json.dumps(f, sort_keys=True))
            gold = [
                {"function": name, "args": args}
                for call in answers[q["id"]]["ground_truth"]
                for name, args in call.items()
            ]
            questions.append({"id": q["id"], "set": s, "question": question_text(q), "gold": gold})
    for s in NEGATIVE_SETS:
        for q in read_jsonl(data / f"BFCL_v4_{s}.json"):
            questions.append({"id": q["id"], "set": s, "question": question_text(q), "gold": []})
    names = sorted(pool)
    tools = [to_tool(pool[n]) for n in names]
    (work / "bfcl_pool.json").write_text(json.dumps(tools, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    meta = {
        "functions": len(names),
        "functions_with_several_definitions": sum(1 for v in variants.values() if len(v) > 1),
        "questions": {s: sum(1 for q in questions if q["set"] == s) for s in POSITIVE_SETS + NEGATIVE_SETS},
    }
    cb.write_json(work / "questions.json", {"meta": meta, "questions": questions})
    print(f"pool: {len(tools)} functions ({meta['functions_with_several_definitions']} names defined "
          f"differently across questions: first definition kept); questions: {meta['questions']}")


# ---------------------------------------------------------------------------------------------
# Argument checking (after BFCL's ast_checker: strings compared without case, spaces and
# ",./-_*^"; numbers by value; lists element-wise; dicts key by key)


def std(s: str) -> str:
    import re

    return re.sub(r"[ ,./\-_*^]", "", s).lower().replace("'", '"')


def value_matches(value, possible: list) -> bool:
    for p in possible:
        if p == "":
            continue
        if same_value(value, p):
            return True
    return False


def same_value(v, p) -> bool:
    if isinstance(p, bool) or isinstance(v, bool):
        return v is p or (isinstance(v, str) and v.lower() == str(p).lower())
    if isinstance(p, (int, float)):
        if isinstance(v, str):
            try:
                v = float(v)
            except ValueError:
                return False
        return isinstance(v, (int, float)) and abs(float(v) - float(p)) < 1e-9
    if isinstance(p, str):
        return std(str(v)) == std(p)
    if isinstance(p, list):
        if isinstance(v, str):
            try:
                v = json.loads(v)
            except ValueError:
                v = [x.strip() for x in v.split(",")]
        return isinstance(v, list) and len(v) == len(p) and all(same_value(a, b) for a, b in zip(v, p))
    if isinstance(p, dict):
        # A dict possible answer holds, per key, a list of possible values ("" = may be left out).
        if isinstance(v, str):
            try:
                v = json.loads(v)
            except ValueError:
                return False
        if not isinstance(v, dict):
            return False
        for k, alts in p.items():
            alts = alts if isinstance(alts, list) else [alts]
            if k not in v:
                if "" not in alts:
                    return False
            elif not value_matches(v[k], alts):
                return False
        return True
    return v == p


def given_params(args: dict) -> dict:
    """The parameters the question gives: those whose possible answers do not allow leaving
    them out (`""`)."""
    return {k: v for k, v in args.items() if "" not in v}


# ---------------------------------------------------------------------------------------------
# Run


def endpoint_of_function(project: Path) -> tuple[dict, dict]:
    """Map each pooled function (OpenAI name) to its endpoint id, and the endpoint's declared
    parameter names, from the imported tool file (`url: function://NAME`)."""
    fn_to_ep, params = {}, {}
    for tool in cb.read_tools(project):
        for ep in tool.get("endpoints") or []:
            url = ep.get("url", "")
            if url.startswith("function://"):
                name = urllib.parse.unquote(url[len("function://"):])
                fn_to_ep[name] = ep["id"]
                params[ep["id"]] = {p["name"] for p in ep.get("parameters") or []}
    return fn_to_ep, params


def score_ranked(qs, ranked_of, fn_to_ep):
    """Top-1 and Recall@5 over positives. `ranked_of(q)` gives a list of endpoint ids."""
    top1, rec, none = [], [], []
    per_set = {}
    for q in qs:
        gold = {fn_to_ep.get(openai_name(g["function"]), "?" + g["function"]) for g in q["gold"]}
        r = ranked_of(q)
        t1 = bool(r) and r[0] in gold
        rc = cb.recall_at([{e} for e in r], [{g} for g in gold], K)
        top1.append(t1)
        rec.append(rc)
        none.append(not r)
        d = per_set.setdefault(q["set"], {"top1": [], "recall": []})
        d["top1"].append(t1)
        d["recall"].append(rc)
    return {
        "top1": cb.mean(top1),
        "recall_at_5": cb.mean(rec),
        "no_tool_on_positives": cb.mean(none),
        "per_set": {s: {"questions": len(d["top1"]), "top1": cb.mean(d["top1"]), "recall_at_5": cb.mean(d["recall"])} for s, d in per_set.items()},
    }


def score_negatives(qs, says_no_tool):
    res = [says_no_tool(q) for q in qs]
    per = {}
    for q, r in zip(qs, res):
        per.setdefault(q["set"], []).append(r)
    return {"right": cb.mean(res), "per_set": {s: cb.mean(v) for s, v in per.items()}}


def score_arguments(pos, route_out, fn_to_ep, ep_params):
    """Per gold call: the planned step for its function, and each given parameter's value."""
    given = right = 0
    calls_all_right = calls = 0
    on_found_given = on_found_right = 0
    not_declared = 0
    for q in pos:
        steps = cb.plan_steps(route_out[q["id"]])
        for g in q["gold"]:
            ep = fn_to_ep.get(openai_name(g["function"]))
            declared = ep_params.get(ep, set())
            gp = {k: v for k, v in given_params(g["args"]).items()}
            nd = [k for k in gp if k not in declared]
            not_declared += len(nd)
            gp = {k: v for k, v in gp.items() if k in declared}
            cands = [s for s in steps if s.get("endpoint") == ep]
            best = 0
            for s in cands:
                bound = s.get("params") or {}
                best = max(best, sum(1 for k, v in gp.items() if k in bound and value_matches(bound[k], v)))
            given += len(gp)
            right += best
            calls += 1
            calls_all_right += best == len(gp) and bool(cands)
            if cands:
                on_found_given += len(gp)
                on_found_right += best
    return {
        "given_parameters": given,
        "bound_right": right / given if given else None,
        "bound_right_when_function_planned": on_found_right / on_found_given if on_found_given else None,
        "calls_with_every_given_parameter_right": calls_all_right / calls if calls else None,
        "gold_parameters_not_declared_by_pooled_definition": not_declared,
    }


def run(work: Path, binary: Path, limit: int | None) -> None:
    data = json.loads((work / "questions.json").read_text(encoding="utf-8"))
    qs = data["questions"]
    if limit:
        qs = [q for s in POSITIVE_SETS + NEGATIVE_SETS for q in [x for x in qs if x["set"] == s][:limit]]
    pos = [q for q in qs if q["gold"]]
    neg = [q for q in qs if not q["gold"]]
    project = work / "project"
    fn_to_ep, ep_params = endpoint_of_function(project)
    sr = cb.Schemarouter(binary, project / "build" / "graph.json")
    results = {"meta": data["meta"], "k": K, "routers": {}}

    # Baselines over the imported endpoints (names and descriptions as the tool file has them).
    tools = cb.read_tools(project)
    eps = [ep for t in tools for ep in t.get("endpoints") or []]
    ids = [ep["id"] for ep in eps]
    bm25 = cb.Bm25([f"{ep['id']} {ep.get('description', '')}" for ep in eps])
    name_only = cb.NameOnly(ids)
    for label, ranker in [("name-only", name_only), ("bm25", bm25)]:
        ranked = {q["id"]: ranker.rank(q["question"], K) for q in qs}
        thr = cb.threshold_at_positive_quantile([r[0][1] if r else 0.0 for q in pos for r in [ranked[q["id"]]]])
        res = score_ranked(pos, lambda q: [ids[i] for i, _ in ranked[q["id"]]], fn_to_ep)
        res["negatives"] = score_negatives(neg, lambda q: not ranked[q["id"]] or ranked[q["id"]][0][1] < thr)
        res["negatives"]["rule"] = f"top score below {thr:.3f} (keeps 95% of positives)"
        results["routers"][label] = res

    t0 = time.time()
    route_out = dict(zip([q["id"] for q in qs], cb.parallel_map(lambda q: sr.route(q["question"], K), qs)))
    route_secs = time.time() - t0
    res = score_ranked(pos, lambda q: [s["endpoint"] for s in cb.plan_steps(route_out[q["id"]])], fn_to_ep)
    res["negatives"] = score_negatives(neg, lambda q: not cb.plan_steps(route_out[q["id"]]))
    res["negatives"]["rule"] = "route plans no step"
    res["arguments"] = score_arguments(pos, route_out, fn_to_ep, ep_params)
    res["status"] = dict(sorted(cb.Counter(cb.plan_status(o) for o in route_out.values()).items()))
    res["seconds_per_question"] = route_secs / len(qs) * 2  # two workers
    results["routers"]["route --k 5"] = res

    if sr.has_search():
        t0 = time.time()
        search_out = dict(zip([q["id"] for q in qs], cb.parallel_map(lambda q: sr.search(q["question"], K), qs)))
        search_secs = time.time() - t0
        hits = {i: cb.search_hits(o) for i, o in search_out.items()}
        res = score_ranked(pos, lambda q: [h["endpoint"] for h in hits[q["id"]]], fn_to_ep)
        declared = next((o.get("threshold") for o in search_out.values() if o.get("threshold") is not None), None)
        if declared is not None:
            thr, rule = float(declared), f"top score below the artifact's threshold {float(declared):.3f}"
        else:
            thr = cb.threshold_at_positive_quantile([h[0]["score"] if h else 0.0 for q in pos for h in [hits[q["id"]]]])
            rule = f"top score below {thr:.3f} (keeps 95% of positives; search reports no threshold)"
        res["negatives"] = score_negatives(neg, lambda q: not hits[q["id"]] or hits[q["id"]][0]["score"] < thr)
        res["negatives"]["rule"] = rule
        res["errors"] = sum(1 for o in search_out.values() if "error" in o)
        res["seconds_per_question"] = search_secs / len(qs) * 2
        results["routers"]["search --k 5"] = res
    else:
        results["routers"]["search --k 5"] = None

    results["route_examples"] = {
        q["id"]: {"question": q["question"][:200], "status": cb.plan_status(route_out[q["id"]]),
                  "steps": [{"endpoint": s.get("endpoint"), "params": s.get("params")} for s in cb.plan_steps(route_out[q["id"]])]}
        for q in (pos[:3] + neg[:2])
    }
    cb.write_json(work / "results.json", results)
    md = tables(results, len(pos), len(neg))
    (work / "results.md").write_text(md + "\n", encoding="utf-8")
    print(md)


def tables(results: dict, n_pos: int, n_neg: int) -> str:
    r = results["routers"]
    rows = []
    for label in ["name-only", "bm25", "search --k 5", "route --k 5"]:
        x = r.get(label)
        if x is None:
            rows.append([label, "not in this build", "", "", "", ""])
            continue
        args = x.get("arguments", {}).get("bound_right")
        rows.append([label, cb.pct(x["top1"]), cb.pct(x["recall_at_5"]), cb.pct(x["no_tool_on_positives"]),
                     cb.pct(args) if "arguments" in x else "n/a", cb.pct(x["negatives"]["right"])])
    head = ["router", "top-1 %", "Recall@5 %", "positives with no tool %", "given args bound right %", "negatives right %"]
    qn = results["meta"]["questions"]
    pos_sets = ", ".join(f"{s} {qn[s]}" for s in POSITIVE_SETS)
    neg_sets = ", ".join(f"{s} {qn[s]}" for s in NEGATIVE_SETS)
    out = [f"BFCL v4: {results['meta']['functions']} pooled functions; {n_pos} positive questions "
           f"({pos_sets}), {n_neg} negatives ({neg_sets})", "", cb.md_table(head, rows), ""]
    per = []
    for label in ["name-only", "bm25", "search --k 5", "route --k 5"]:
        x = r.get(label)
        if not x:
            continue
        per.append([label] + [f"{cb.pct(x['per_set'][s]['top1'])} / {cb.pct(x['per_set'][s]['recall_at_5'])}" if s in x["per_set"] else "n/a" for s in POSITIVE_SETS]
                   + [cb.pct(x["negatives"]["per_set"].get(s)) for s in NEGATIVE_SETS])
    out += [cb.md_table(["router"] + [f"{s} top-1 / R@5 %" for s in POSITIVE_SETS] + [f"{s} right %" for s in NEGATIVE_SETS], per), ""]
    notes = [f"- {label}: negatives: {r[label]['negatives']['rule']}" for label in r if r[label]]
    a = (r.get("route --k 5") or {}).get("arguments")
    if a:
        notes.append(f"- route arguments: {a['given_parameters']} given parameters (possible answers without \"\"), "
                     f"bound right {cb.pct(a['bound_right'])} % overall, {cb.pct(a['bound_right_when_function_planned'])} % where the gold function is planned; "
                     f"calls with every given parameter right {cb.pct(a['calls_with_every_given_parameter_right'])} %; "
                     f"{a['gold_parameters_not_declared_by_pooled_definition']} gold parameters not declared by the pooled definition left out")
        notes.append(f"- route status: {r['route --k 5']['status']}")
    return "\n".join(out + notes)


def main(argv: list[str]) -> None:
    if len(argv) >= 3 and argv[0] == "prepare":
        prepare(Path(argv[1]), Path(argv[2]))
    elif len(argv) >= 3 and argv[0] == "run":
        limit = int(argv[argv.index("--limit") + 1]) if "--limit" in argv else None
        run(Path(argv[1]), Path(argv[2]), limit)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
