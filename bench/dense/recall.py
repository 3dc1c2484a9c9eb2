"""Recall@1/5/10 of `schemarouter search` with and without the dense signal (search::dense).

    python bench/dense/recall.py BINARY WEIGHTS lmb ANNOTATION.json ARTIFACT [--out CACHE.json]
    python bench/dense/recall.py BINARY WEIGHTS bfcl QUESTIONS.json ARTIFACT [--out CACHE.json]

ARTIFACT is compiled with `[search] embeddings` (so it holds `index.search_vectors`); WEIGHTS is
the weights folder (the `wordllama/` folder of PyPI's `wordllama` wheel). Every question is
searched twice with `--k 1000`: with SCHEMAROUTER_EMBEDDINGS=WEIGHTS (hybrid: each hit's
`similarity`) and with SCHEMAROUTER_EMBEDDINGS pointing nowhere (lexical, BM25F scores). From
the two the script recomputes the hybrid ranking for several weights λ (BM25F + λ · best BM25F
· cosine, over the lexical hits and the dense run's other hits), the dense-only ranking, and
reciprocal-rank fusion, and prints Recall@1/5/10 of each.

`lmb`: LiveMCPBench's annotation file (`Question`, `Annotator Metadata.Tools`), a hit is the
annotated tool when its `call` (or endpoint id) matches it letters and digits only, lower case;
questions cut at 2,000 characters as the published harness does. `bfcl`: `questions.json` of
`bench/bfcl.py prepare` (positives only), a hit is the gold function when its endpoint's url is
`function://NAME`.
"""

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

KS = [1, 5, 10]
LAMBDAS = [0, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0]


def norm(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


def questions(kind, path):
    if kind == "lmb":
        tasks = json.load(open(path))
        out = []
        for t in tasks:
            gold = {norm(re.sub(r"^\s*\d+\.\s*", "", l).strip())
                    for l in t["Annotator Metadata"]["Tools"].split("\n") if l.strip()}
            out.append((t["Question"][:2000], gold))
        return out
    qs = [q for q in json.load(open(path))["questions"] if q["gold"]]
    return [(q["question"], {g["function"] for g in q["gold"]}) for q in qs]


def key(kind, h):
    if kind == "lmb":
        return norm(h["call"] or h["endpoint"])
    url = h["url"]
    return url[len("function://"):] if url.startswith("function://") else url


def search(binary, artifact, q, weights):
    env = {"SCHEMAROUTER_EMBEDDINGS": weights, "PATH": "/usr/bin:/bin"}
    r = subprocess.run([binary, "search", "--artifact", artifact, "--k", "1000", "--json", "--", q],
                       capture_output=True, text=True, env=env)
    try:
        return json.loads(r.stdout)["hits"]
    except (ValueError, KeyError):
        return []


def recall(ranked, gold, k):
    return len(gold & set(ranked[:k])) / len(gold) if gold else 0.0


def rankings(kind, lex_hits, dense_hits):
    """Per method name: the ranked keys."""
    lex = {(h["tool"], h["endpoint"]): h["score"] for h in lex_hits}
    sim = {(h["tool"], h["endpoint"]): h.get("similarity", 0.0) for h in dense_hits}
    keys = {(h["tool"], h["endpoint"]): key(kind, h) for h in lex_hits + dense_hits}
    docs = sorted(set(lex) | set(sim))
    best = max(lex.values(), default=0.0) or 1.0
    out = {}
    for lam in LAMBDAS:
        s = {d: lex.get(d, 0.0) + lam * best * sim.get(d, 0.0) for d in docs}
        out[f"hybrid λ={lam}" if lam else "lexical (BM25F)"] = [
            keys[d] for d in sorted(docs, key=lambda d: (-s[d], d)) if lam or d in lex]
    out["dense only"] = [keys[d] for d in sorted(sim, key=lambda d: (-sim[d], d))]
    lr = {d: i for i, d in enumerate(sorted(lex, key=lambda d: (-lex[d], d)))}
    dr = {d: i for i, d in enumerate(sorted(sim, key=lambda d: (-sim[d], d)))}
    rrf = {d: (1 / (60 + lr[d]) if d in lr else 0) + (1 / (60 + dr[d]) if d in dr else 0) for d in docs}
    out["RRF (k=60)"] = [keys[d] for d in sorted(docs, key=lambda d: (-rrf[d], d))]
    return out


def main(argv):
    binary, weights, kind, qpath, artifact = argv[:5]
    cache = argv[argv.index("--out") + 1] if "--out" in argv else None
    qs = questions(kind, qpath)
    with ThreadPoolExecutor(2) as ex:
        lex = list(ex.map(lambda q: search(binary, artifact, q[0], "/nonexistent"), qs))
        dense = list(ex.map(lambda q: search(binary, artifact, q[0], weights), qs))
    if cache:
        json.dump({"lexical": lex, "dense": dense}, open(cache, "w"))
    totals = {}
    for (q, gold), l, d in zip(qs, lex, dense):
        for name, ranked in rankings(kind, l, d).items():
            t = totals.setdefault(name, [0.0] * len(KS))
            for i, k in enumerate(KS):
                t[i] += recall(ranked, gold, k)
    print(f"{kind}: {len(qs)} questions; Recall@{'/'.join(map(str, KS))}")
    for name, t in totals.items():
        print(f"  {name:18s} " + "  ".join(f"{x / len(qs):.3f}" for x in t))


if __name__ == "__main__":
    main(sys.argv[1:])
