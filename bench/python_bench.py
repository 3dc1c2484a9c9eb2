"""Python-side timings on the shipped artifact (benchmarks, not tests):

    python bench/python_bench.py

- `route_understanding` (Algorithm 1 plus conversion of the plan to Python objects),
- `route` (the lexical Understand step, Algorithm 1, conversion),
- `extract` of a 1 MB Materials Project response (JSON text in, structured result and reader
  context out), without and with the token count, and of the same response passed as a dict.

Each figure is the median over repeats of the mean time per call (timeit).
"""

import json
import statistics
import timeit
from pathlib import Path

import schemarouter_rs as sr

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "What is the band gap of LiFePO4 according to the Materials Project?"
UNDERSTANDING = {
    "intent": "electronic_property",
    "domain_concepts": ["band_gap"],
    "parameters": {"formula": "LiFePO4"},
    "target_apis": ["materials_project"],
    "source_constraint": None,
}


def median_per_call(fn, number, repeat=15):
    return statistics.median(t / number for t in timeit.repeat(fn, number=number, repeat=repeat))


def one_megabyte_response():
    base = json.loads((ROOT / "tests/fixtures/responses/materials_project.summary.json").read_text(encoding="utf-8"))
    records = []
    i = 0
    while True:
        r = dict(base["data"][i % 2])
        r["material_id"] = f"mp-{100000 + i}"
        records.append(r)
        i += 1
        if i % 100 == 0 and len(json.dumps({"data": records})) >= 1_000_000:
            break
    doc = {"data": records, "meta": base["meta"]}
    return json.dumps(doc), doc, len(records)


def main():
    router = sr.Router.load(ROOT / "build" / "graph.json")
    ru = median_per_call(lambda: router.route_understanding(UNDERSTANDING), 2000)
    rq = median_per_call(lambda: router.route(QUESTION), 1000)
    plan = router.route(QUESTION)["plan"]
    text, doc, n = one_megabyte_response()
    ex = median_per_call(lambda: router.extract(plan, [text], count_tokens=False), 20)
    ext = median_per_call(lambda: router.extract(plan, [text]), 20)
    exd = median_per_call(lambda: router.extract(plan, [doc], count_tokens=False), 20)
    x = router.extract(plan, [text])
    print(f"route_understanding: {ru * 1e6:.1f} µs per call (median)")
    print(f"route (lexical Understand): {rq * 1e6:.1f} µs per call (median)")
    print(f"extract, {len(text) / 1e6:.2f} MB JSON text, {n} records: {ex * 1e3:.2f} ms per call (median)")
    print(f"  the same, counting the reader context's tokens: {ext * 1e3:.2f} ms per call (median)")
    print(f"extract, the same response as a dict: {exd * 1e3:.2f} ms per call (median)")
    print(f"  reader context of that response: {x['context_tokens']} tokens, {len(x['issues'])} issue kinds")


if __name__ == "__main__":
    main()
