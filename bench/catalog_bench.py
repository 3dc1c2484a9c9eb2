"""Shared parts of the imported-catalog benchmarks (`bench/bfcl.py`, `bench/livemcp.py`).

- running `schemarouter` (import, compile, `route --json`, `search --json`) one process per
  question, on a small thread pool;
- reading the imported tool files back (which endpoint a source function or MCP tool became);
- the baselines computed here, never by the router: name-only matching and plain Okapi BM25
  over endpoint names and descriptions;
- ranking metrics (top-1, Recall@k) and markdown tables.

Standard library only, plus PyYAML to read the imported tool files.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

# ---------------------------------------------------------------------------------------------
# Running schemarouter


class Schemarouter:
    """The `schemarouter` binary and one compiled artifact."""

    def __init__(self, binary: Path, artifact: Path | None = None):
        self.binary = str(binary)
        self.artifact = str(artifact) if artifact else None
        self._has_search: bool | None = None

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        p = subprocess.run([self.binary, *args], capture_output=True, text=True)
        if check and p.returncode not in (0, 1):
            raise RuntimeError(f"schemarouter {' '.join(args[:3])} ... exit {p.returncode}: {p.stderr[-2000:]}")
        return p

    def has_search(self) -> bool:
        """Whether this build has the `search` command (issue 36)."""
        if self._has_search is None:
            p = subprocess.run([self.binary, "search", "--help"], capture_output=True, text=True)
            self._has_search = p.returncode == 0
        return self._has_search

    def _json(self, command: str, question: str, k: int) -> dict:
        """`COMMAND QUESTION --json --k K` on the artifact: its JSON, or `{"error": ...}` when the
        command fails."""
        p = subprocess.run(
            [self.binary, command, "--artifact", self.artifact, "--json", "--k", str(k), "--", question],
            capture_output=True,
            text=True,
        )
        try:
            return json.loads(p.stdout)
        except json.JSONDecodeError:
            return {"error": f"exit {p.returncode}: {p.stderr.strip()[-500:]}"}

    def route(self, question: str, k: int) -> dict:
        """`route QUESTION --json --k K`: the plan JSON, or `{"error": ...}`."""
        return self._json("route", question, k)

    def search(self, question: str, k: int) -> dict:
        """`search QUESTION --json --k K`: the hits JSON, or `{"error": ...}`."""
        return self._json("search", question, k)


def parallel_map(fn, items, workers: int = 2):
    """`fn` over `items` on `workers` threads (each call starts a process), results in order."""
    with ThreadPoolExecutor(max_workers=workers) as ex:
        return list(ex.map(fn, items))


def plan_steps(route_out: dict) -> list[dict]:
    """The steps of a `route --json` answer (`[]` when it planned nothing or failed)."""
    plan = route_out.get("plan") or {}
    return plan.get("steps") or []


def plan_status(route_out: dict) -> str:
    if "error" in route_out:
        return "error"
    return (route_out.get("plan") or {}).get("status") or "unknown"


def search_hits(search_out: dict) -> list[dict]:
    return search_out.get("hits") or []


# ---------------------------------------------------------------------------------------------
# Imported tool files


def read_tools(project: Path) -> list[dict]:
    """Every tool declaration under `project/schemas/` (YAML), in file-name order."""
    tools = []
    for f in sorted((project / "schemas").glob("*.yaml")):
        tools.append(yaml.safe_load(f.read_text(encoding="utf-8")))
    return tools


# ---------------------------------------------------------------------------------------------
# Text


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def tokens(text: str) -> list[str]:
    """Plain tokens: Unicode words, split at camelCase, `_`, `-`, `.`, lower-cased. No stemming
    and no stop words (the baselines are plain on purpose)."""
    out = []
    for w in _WORD.findall(text or ""):
        for part in _CAMEL.split(w):
            if part:
                out.append(part.lower())
    return out


def norm_name(name: str) -> str:
    """A name compared without case or separators (`get-weread-rank` = `getWereadRank`)."""
    return re.sub(r"[\W_]+", "", (name or "").lower())


# ---------------------------------------------------------------------------------------------
# Baselines


class Bm25:
    """Plain Okapi BM25 (k1 = 1.5, b = 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5))) over one
    text per document."""

    def __init__(self, docs: list[str], k1: float = 1.5, b: float = 0.75):
        self.k1, self.b = k1, b
        self.tf = [Counter(tokens(d)) for d in docs]
        self.len = [sum(t.values()) for t in self.tf]
        self.avg = (sum(self.len) / len(self.len)) if self.len else 0.0
        df = Counter()
        for t in self.tf:
            df.update(t.keys())
        n = len(docs)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}

    def scores(self, query: str) -> list[float]:
        q = [w for w in set(tokens(query)) if w in self.idf]
        out = []
        for tf, ln in zip(self.tf, self.len):
            s = 0.0
            norm = self.k1 * (1 - self.b + self.b * ln / self.avg) if self.avg else self.k1
            for w in q:
                f = tf.get(w)
                if f:
                    s += self.idf[w] * f * (self.k1 + 1) / (f + norm)
            out.append(s)
        return out

    def rank(self, query: str, k: int) -> list[tuple[int, float]]:
        """Top `k` documents with a positive score: (index, score), best first, ties by index."""
        s = self.scores(query)
        order = sorted((i for i in range(len(s)) if s[i] > 0), key=lambda i: (-s[i], i))
        return [(i, s[i]) for i in order[:k]]


class NameOnly:
    """Name-only matching: an endpoint scores the share of its name's words that the question
    contains (ties: more words matched, then catalog order); names with no word in the question
    are not ranked."""

    def __init__(self, names: list[str]):
        self.words = [set(tokens(n)) for n in names]

    def rank(self, query: str, k: int) -> list[tuple[int, float]]:
        q = set(tokens(query))
        scored = []
        for i, w in enumerate(self.words):
            hit = len(w & q)
            if hit:
                scored.append((-(hit / len(w)), -hit, i))
        scored.sort()
        return [(i, -s) for s, _, i in scored[:k]]


def threshold_at_positive_quantile(top_scores: list[float], keep: float = 0.95) -> float:
    """The score below which a ranker says "no tool", set on positive questions only: the
    threshold that keeps `keep` of them (their top score at or above it). Positives with no hit
    count as score 0."""
    s = sorted(top_scores)
    if not s:
        return 0.0
    i = min(len(s) - 1, max(0, int(math.floor((1 - keep) * len(s)))))
    return s[i]


# ---------------------------------------------------------------------------------------------
# Metrics and tables


def recall_at(ranked: list[set], gold: list[set], k: int) -> float:
    """Share of the gold items found in the first `k` ranked entries. `gold` is a list of
    alternatives per item (an annotated name may map to several endpoints); `ranked` is a list
    of sets of keys per rank position."""
    if not gold:
        return 0.0
    seen = set().union(*ranked[:k]) if ranked else set()
    return sum(1 for alts in gold if alts & seen) / len(gold)


def mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def pct(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{100 * x:.1f}"


def md_table(header: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def write_json(path: Path, data) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")
