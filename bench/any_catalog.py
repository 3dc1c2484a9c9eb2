"""Summary table of `schemarouter eval --format json` on bench/any_catalog.yaml, any_catalog_2.yaml
or any_catalog_3.yaml (driven by bench/any_catalog.sh; by hand:
`python bench/any_catalog.py EVAL_JSON [BENCH_YAML]`).

Per router, over the positive questions: endpoint right (the planned (tool, endpoint) set equals
the gold one), field precision and recall (non-identifier fields, micro-averaged over positive
questions: a negative's plan does not count here), parameters right (gold steps that name
parameters, planned with every one of them equal to the gold value); over the negatives: right
when the plan is empty. The eval's own baselines are `rule-based` (tools whose id, title or name
the question contains: name-only matching) and `lexical-retrieval` (BM25 over tool and field
descriptions).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import catalog_bench as cb  # noqa: E402

LABELS = {
    "schemarouter": "schemarouter (route, core projection)",
    "rule-based": "rule-based (name-only baseline)",
    "lexical-retrieval": "lexical-retrieval (BM25 baseline)",
}


def summarise(router: dict, with_params: set) -> dict:
    pos = [q for q in router["queries"] if not q["negative"]]
    neg = [q for q in router["queries"] if q["negative"]]
    tp = sum(q["tp"] for q in pos)
    fp = sum(q["fp"] for q in pos)
    fn = sum(q["fn_"] for q in pos)
    pa = [q["param_accuracy"] for q in pos if q["id"] in with_params]
    return {
        "positives": len(pos),
        "negatives": len(neg),
        "endpoint_right": cb.mean(q["tool_exact"] for q in pos),
        "field_precision": tp / (tp + fp) if tp + fp else None,
        "field_recall": tp / (tp + fn) if tp + fn else None,
        "params_right": (sum(p["hit"] for p in pa) / sum(p["of"] for p in pa)) if sum(p["of"] for p in pa) else None,
        "negatives_right": cb.mean(q["tool_exact"] for q in neg),
        "no_plan_on_positives": cb.mean(q["steps"] == 0 for q in pos),
        "context_tokens_mean": router["summary"]["context_tokens_mean"],
    }


def main(argv: list[str]) -> None:
    report = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    bench_file = Path(argv[1]) if len(argv) > 1 else Path(__file__).with_name("any_catalog.yaml")
    bench = yaml.safe_load(bench_file.read_text(encoding="utf-8"))
    with_params = {q["id"] for q in bench["queries"] if any(s.get("params") for s in q.get("gold") or [])}
    rows = []
    for r in report["routers"]:
        s = summarise(r, with_params)
        rows.append([LABELS.get(r["router"], r["router"]), cb.pct(s["endpoint_right"]), cb.pct(s["field_precision"]),
                     cb.pct(s["field_recall"]), cb.pct(s["params_right"]), cb.pct(s["negatives_right"]),
                     cb.pct(s["no_plan_on_positives"]), f"{s['context_tokens_mean']:.0f}"])
    run = report["run"]
    n_pos = run["queries"] - run["negative_queries"]
    print(f"Imported catalogs ({run['artifact']}, `eval --from query`): {n_pos} questions, "
          f"{run['negative_queries']} negatives; parameters scored on the {len(with_params)} questions whose gold names some")
    if run["unknown_gold_references"]:
        print(f"WARNING: {len(run['unknown_gold_references'])} gold names unknown to the artifact: these scores do not measure routing")
    print()
    print(cb.md_table(["router", "endpoint right %", "field P %", "field R %", "params right %", "negatives right %",
                       "positives with no plan %", "context tokens"], rows))
    print()
    print("Targets (issue 36, on unseen catalogs): endpoint right >= 80, field R >= 85 at P >= 50, params right >= 80, negatives right >= 90.")


if __name__ == "__main__":
    main(sys.argv[1:])
