"""LiveMCPBench tool retrieval over its 70 imported MCP servers (issue 36). Driven by
`bench/livemcp.sh`; by hand:

    python bench/livemcp.py prepare PACKAGE_DIR WORK_DIR   # servers -> tools/list files, tasks
    python bench/livemcp.py run WORK_DIR BINARY

`prepare` reads the package's server catalog
(`baseline/mcp_copilot/config/mcp_arg_Qwen3-Embedding-0.6B_qwen25_72b_int4_instruct.json`:
`server_name`, `server_description`, `tools[].name`, `tools[].description`, `tools[].parameter`
as name -> "(type) description" or "(Optional, type) description"; the embeddings are ignored)
and writes one MCP `tools/list` result per server under WORK_DIR/servers/ (`serverInfo.name`,
`instructions` = the server's description, each tool's `inputSchema` built from the parameter
strings: `any` gives no `type`, `Optional` leaves the parameter out of `required`), plus
`servers.tsv` (file, tool id) for the importer. Tool ids are the server names in snake case,
made unique (`Asset Price MCP` and `Asset_Price_MCP` are two servers).

It reads the 95 tasks (`baseline/annotation/*.json`: `Question`, `Annotator Metadata.Tools`,
a numbered list of tool names) into WORK_DIR/tasks.json.

`run` (after importing every server into one project and compiling) maps each annotated tool
name to the endpoints whose MCP tool name is that name, else the same name without case and
separators, else the start of exactly one tool's name (`trial_references` ->
`trial_references_getter`), and reports names that match nothing. It asks every task with `route --json --k 5`
(a step names an endpoint) and, when the build has it, `search --json --k 5`, and computes
Recall@5 of the annotated tools (a name counts as found when any endpoint it maps to is in the
top five), the share of tasks answered with no tool, and the same for plain BM25 and name-only
matching over the endpoints' names and descriptions (computed here). Writes results.json and
results.md into WORK_DIR and prints the table.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import catalog_bench as cb  # noqa: E402

CATALOG = "baseline/mcp_copilot/config/mcp_arg_Qwen3-Embedding-0.6B_qwen25_72b_int4_instruct.json"
ANNOTATIONS = "baseline/annotation"
K = 5
TYPES = {"string", "number", "integer", "boolean", "array", "object"}


def param_schema(text) -> tuple[dict, bool]:
    """`"(Optional, string) The period ..."` -> ({"type": "string", "description": ...}, required)."""
    m = re.match(r"^\(([^)]*)\)\s*(.*)$", str(text), re.S)
    if not m:
        return {"description": str(text)}, True
    parts = [p.strip() for p in m.group(1).split(",")]
    optional = any(p.lower() == "optional" for p in parts)
    ty = next((p.lower() for p in parts if p.lower() != "optional"), "any")
    schema = {"type": ty} if ty in TYPES else {}
    if m.group(2):
        schema["description"] = m.group(2).strip()
    return schema, not optional


def tool_id(name: str, taken: set) -> str:
    base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "server"
    tid, n = base, 2
    while tid in taken:
        tid, n = f"{base}_{n}", n + 1
    taken.add(tid)
    return tid


def prepare(pkg: Path, work: Path) -> None:
    servers = json.loads((pkg / CATALOG).read_text(encoding="utf-8"))
    out = work / "servers"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()
    taken: set = set()
    lines = []
    for s in servers:
        tid = tool_id(s["server_name"], taken)
        tools = []
        for t in s["tools"]:
            props, required = {}, []
            for pname, ptext in (t.get("parameter") or {}).items():
                schema, req = param_schema(ptext)
                props[pname] = schema
                if req:
                    required.append(pname)
            schema = {"type": "object", "properties": props}
            if required:
                schema["required"] = required
            tool = {"name": t["name"], "inputSchema": schema}
            if t.get("description"):
                tool["description"] = t["description"]
            tools.append(tool)
        listing = {"serverInfo": {"name": s["server_name"]}, "tools": tools}
        if s.get("server_description"):
            listing["instructions"] = s["server_description"]
        f = out / f"{tid}.json"
        f.write_text(json.dumps(listing, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        lines.append(f"{f.name}\t{tid}")
    (work / "servers.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    tasks = []
    for f in sorted((pkg / ANNOTATIONS).glob("*.json")):
        for t in json.loads(f.read_text(encoding="utf-8")):
            meta = t.get("Annotator Metadata") or {}
            names = []
            for line in str(meta.get("Tools", "")).splitlines():
                name = re.sub(r"^\s*\d+\s*[.)]\s*", "", line).strip().strip("`").strip()
                if name and name not in names:
                    names.append(name)
            tasks.append({"id": t["task_id"], "category": t.get("category"), "question": t["Question"], "tools": names})
    cb.write_json(work / "tasks.json", tasks)
    print(f"servers: {len(servers)} ({sum(len(s['tools']) for s in servers)} tools); tasks: {len(tasks)}")


def endpoints(project: Path) -> list[dict]:
    """Every imported endpoint: tool id, endpoint id, MCP tool name, description, text."""
    out = []
    for tool in cb.read_tools(project):
        for ep in tool.get("endpoints") or []:
            out.append({
                "tool": tool["id"],
                "endpoint": ep["id"],
                "call": ep.get("mcp_tool", ep["id"]),
                "text": f"{ep.get('mcp_tool', ep['id'])} {ep.get('description') or ''}",
            })
    return out


def gold_map(tasks: list[dict], eps: list[dict]) -> tuple[dict, dict]:
    """Annotated name -> set of (tool, endpoint) keys; and how each name matched."""
    exact, loose = {}, {}
    for e in eps:
        key = (e["tool"], e["endpoint"])
        exact.setdefault(e["call"], set()).add(key)
        loose.setdefault(cb.norm_name(e["call"]), set()).add(key)
    mapping, how = {}, {"exact": 0, "case_or_separators": 0, "prefix": [], "unmatched": []}
    for t in tasks:
        for n in t["tools"]:
            if n in mapping:
                continue
            if n in exact:
                mapping[n] = exact[n]
                how["exact"] += 1
            elif cb.norm_name(n) in loose:
                mapping[n] = loose[cb.norm_name(n)]
                how["case_or_separators"] += 1
            else:
                # The start of exactly one tool's name (`trial_references` for
                # `trial_references_getter`).
                starts = {k for ln, ks in loose.items() if cb.norm_name(n) and ln.startswith(cb.norm_name(n)) for k in ks}
                names = {e["call"] for e in eps if (e["tool"], e["endpoint"]) in starts}
                if len(names) == 1:
                    mapping[n] = starts
                    how["prefix"].append(f"{n} -> {names.pop()}")
                else:
                    mapping[n] = set()
                    how["unmatched"].append(n)
    return mapping, how


def score(tasks, ranked_of, mapping) -> dict:
    rec, none, found_any = [], [], []
    per_cat = {}
    for t in tasks:
        r = ranked_of(t)
        none.append(not r)
        gold = [mapping[n] for n in t["tools"] if mapping[n]]
        if not gold:
            continue
        rc = cb.recall_at([{k} for k in r], gold, K)
        rec.append(rc)
        found_any.append(rc > 0)
        per_cat.setdefault(t["category"], []).append(rc)
    return {
        "tasks": len(rec),
        "recall_at_5": cb.mean(rec),
        "tasks_with_no_tool": cb.mean(none),
        "tasks_with_some_annotated_tool_in_top_5": cb.mean(found_any),
        "per_category_recall_at_5": {c: cb.mean(v) for c, v in sorted(per_cat.items())},
    }


def run(work: Path, binary: Path) -> None:
    tasks = json.loads((work / "tasks.json").read_text(encoding="utf-8"))
    project = work / "project"
    eps = endpoints(project)
    mapping, how = gold_map(tasks, eps)
    sr = cb.Schemarouter(binary, project / "build" / "graph.json")
    results = {"servers": len({e["tool"] for e in eps}), "endpoints": len(eps), "tasks": len(tasks),
               "annotated_names": how,
               "k": K, "routers": {}}
    keys = [(e["tool"], e["endpoint"]) for e in eps]
    for label, ranker in [("name-only", cb.NameOnly([e["call"] for e in eps])), ("bm25", cb.Bm25([e["text"] for e in eps]))]:
        results["routers"][label] = score(tasks, lambda t: [keys[i] for i, _ in ranker.rank(t["question"], K)], mapping)

    t0 = time.time()
    route_out = dict(zip([t["id"] for t in tasks], cb.parallel_map(lambda t: sr.route(t["question"], K), tasks)))
    res = score(tasks, lambda t: [(s["tool"], s["endpoint"]) for s in cb.plan_steps(route_out[t["id"]])], mapping)
    res["status"] = dict(sorted(cb.Counter(cb.plan_status(o) for o in route_out.values()).items()))
    res["seconds_per_task"] = (time.time() - t0) / len(tasks) * 2
    results["routers"]["route --k 5"] = res

    if sr.has_search():
        t0 = time.time()
        search_out = dict(zip([t["id"] for t in tasks], cb.parallel_map(lambda t: sr.search(t["question"], K), tasks)))
        res = score(tasks, lambda t: [(h["tool"], h["endpoint"]) for h in cb.search_hits(search_out[t["id"]])], mapping)
        res["errors"] = sum(1 for o in search_out.values() if "error" in o)
        res["seconds_per_task"] = (time.time() - t0) / len(tasks) * 2
        results["routers"]["search --k 5"] = res
    else:
        results["routers"]["search --k 5"] = None

    cb.write_json(work / "results.json", results)
    md = tables(results)
    (work / "results.md").write_text(md + "\n", encoding="utf-8")
    print(md)


def tables(results: dict) -> str:
    rows = []
    for label in ["name-only", "bm25", "search --k 5", "route --k 5"]:
        x = results["routers"].get(label)
        if x is None:
            rows.append([label, "not in this build", "", ""])
            continue
        rows.append([label, cb.pct(x["recall_at_5"]), cb.pct(x["tasks_with_some_annotated_tool_in_top_5"]), cb.pct(x["tasks_with_no_tool"])])
    a = results["annotated_names"]
    n = a["exact"] + a["case_or_separators"] + len(a["prefix"]) + len(a["unmatched"])
    scored = next((x["tasks"] for x in results["routers"].values() if x), 0)
    lines = [
        f"LiveMCPBench: {results['servers']} servers, {results['endpoints']} endpoints imported; {scored} of {results['tasks']} tasks scored "
        f"(annotated tool names: {n}, {a['exact']} exact, {a['case_or_separators']} by case/separators, "
        f"{len(a['prefix'])} as the start of one tool's name ({', '.join(a['prefix']) or 'none'}), "
        f"{len(a['unmatched'])} unmatched: {', '.join(a['unmatched']) or 'none'})",
        "",
        cb.md_table(["router", "Recall@5 %", "tasks with an annotated tool in top 5 %", "tasks with no tool % (all tasks)"], rows),
        "",
        "Published Recall@5 on the same kind of task (issue 36): BM25 32, Qwen3-Embedding-8B 51, best 53.5.",
    ]
    r = results["routers"].get("route --k 5")
    if r:
        lines.append(f"- route status: {r['status']}")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    if len(argv) >= 3 and argv[0] == "prepare":
        prepare(Path(argv[1]), Path(argv[2]))
    elif len(argv) >= 3 and argv[0] == "run":
        run(Path(argv[1]), Path(argv[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
