#!/usr/bin/env python3
"""Latency of `schemarouter lsp`: time from a `textDocument/didChange` to the
`textDocument/publishDiagnostics` of that version (p50, p95 and max over the edits, with the
machine's load average before and after), on the shipped project and on a generated
1,000-tool project (`schemarouter gen`). A benchmark, not a test: it prints the figures.

    cargo build --release && python3 bench/lsp_latency.py [--bin target/release/schemarouter] [--runs 30]

Each run types one character into a tool file (alternately inserting and deleting a space at
the end of its first line, so that the findings stay the same) and waits for the diagnostics
of the new version. Plain JSON-RPC over the server's stdio; no dependency beyond Python 3.
Targets (issue 39): < 50 ms shipped, < 300 ms at 1,000 tools.
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


class Client:
    """A minimal LSP client over a child process's stdio."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == self.next_id and "method" not in m:
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_diagnostics(self, uri, version):
        while True:
            m = self.read()
            p = m.get("params") or {}
            if m.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri and p.get("version") == version:
                return p["diagnostics"]

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.wait(timeout=30)


def measure(binary, project, file, runs):
    uri = file.resolve().as_uri()
    text = file.read_text(encoding="utf-8")
    first_line = text.split("\n", 1)[0]
    c = Client([binary, "lsp"])
    c.request("initialize", {"processId": None, "rootUri": project.resolve().as_uri(), "capabilities": {}})
    c.notify("initialized", {})
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    found = len(c.wait_diagnostics(uri, 1))
    times = []
    for i in range(runs):
        version = i + 2
        at = {"line": 0, "character": len(first_line.encode("utf-16-le")) // 2}
        if i % 2 == 0:
            change = {"range": {"start": at, "end": at}, "text": " "}
        else:
            end = dict(at, character=at["character"] + 1)
            change = {"range": {"start": at, "end": end}, "text": ""}
        start = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        c.wait_diagnostics(uri, version)
        times.append((time.perf_counter() - start) * 1000)
    c.close()
    times.sort()
    return {
        "findings in file": found,
        "p50 ms": round(statistics.median(times), 1),
        "p95 ms": round(percentile(times, 95), 1),
        "max ms": round(times[-1], 1),
    }


def percentile(sorted_times, q):
    """The q-th percentile of sorted values, linearly interpolated (numpy's default)."""
    at = (len(sorted_times) - 1) * q / 100
    lo = int(at)
    hi = min(lo + 1, len(sorted_times) - 1)
    return sorted_times[lo] + (sorted_times[hi] - sorted_times[lo]) * (at - lo)


def load_average():
    """The 1-minute load average and the number of CPUs, for the report."""
    try:
        import os

        return f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    except OSError:
        return "load average unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target/release/schemarouter"))
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--tools", type=int, default=1000)
    args = ap.parse_args()
    print(f"before: {load_average()}")
    rows = [("shipped (16 tools)", measure(args.bin, ROOT, ROOT / "schemas/aflow.yaml", args.runs))]
    with tempfile.TemporaryDirectory() as tmp:
        gen = pathlib.Path(tmp) / "gen"
        subprocess.run([args.bin, "gen", "--tools", str(args.tools), "--seed", "1", "--out", str(gen)], check=True, stdout=subprocess.DEVNULL)
        config = gen / "schemarouter.toml"
        if not config.exists():
            config.write_text('[project]\nname = "gen"\nversion = "0.0.0"\n')
        tool = sorted((gen / "schemas").rglob("*.yaml"))[0]
        rows.append((f"generated ({args.tools} tools)", measure(args.bin, gen, tool, args.runs)))
    print(f"after: {load_average()}; {args.runs} edits per project")
    print("| project | findings in the file | p50 (ms) | p95 (ms) | max (ms) |")
    print("|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['findings in file']} | {r['p50 ms']} | {r['p95 ms']} | {r['max ms']} |")


if __name__ == "__main__":
    main()
