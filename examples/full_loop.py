"""The full loop without network: question -> route -> a recorded response per step -> extract
-> the reader context that would go to the model.

    python examples/full_loop.py ["question"]

Needs the wheel (`pip install target/wheels/schemarouter_rs-*.whl`, see the README) and the
shipped artifact (`build/graph.json`). The recorded responses are the test fixtures under
tests/fixtures/responses/ (one per shipped endpoint, in the providers' documented shapes); a
real agent would call `step["url"]` with `step["params"]` instead.
"""

import sys
from pathlib import Path

import schemarouter_rs as sr

ROOT = Path(__file__).resolve().parents[1]
RESPONSES = ROOT / "tests" / "fixtures" / "responses"


def recorded_response(step):
    """The recorded body of this step's endpoint (what the provider would answer)."""
    for ext in ("json", "xml"):
        path = RESPONSES / f"{step['tool']}.{step['endpoint']}.{ext}"
        if path.exists():
            return path.read_text(encoding="utf-8")
    raise SystemExit(f"no recorded response for {step['tool']}/{step['endpoint']}")


def main():
    question = sys.argv[1] if len(sys.argv) > 1 else "What is the band gap of LiFePO4 according to the Materials Project?"
    router = sr.Router.load(ROOT / "build" / "graph.json")
    routed = router.route(question)
    plan = routed["plan"]
    print(f"question: {question}")
    print(f"understanding: {routed['understanding']}")
    print(f"plan: {plan['status']}, {len(plan['steps'])} step(s)")
    for s in plan["steps"]:
        print(f"  {s['method']} {s['url']} {s['params']} -> {[f['name'] for f in s['fields']]}")
    if not plan["steps"]:
        return
    responses = [recorded_response(s) for s in plan["steps"]]
    x = router.extract(plan, responses)
    print(f"\nreader context ({x['context_tokens']} tokens):\n")
    print(x["context"], end="")
    for i in x["issues"]:
        print(f"\n[{i['kind']}] {i['tool']}/{i['endpoint']} {i.get('field') or ''}: {i['message']} ({i['count']} record(s))", end="")
    print()


if __name__ == "__main__":
    main()
