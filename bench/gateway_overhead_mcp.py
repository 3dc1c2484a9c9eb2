"""Gateway overhead above the upstream's own time on the MCP path, over N calls (default 1,000).

    python3 bench/gateway_overhead_mcp.py [BIN] [N] [list]

BIN defaults to target/release/schemarouter. Imports an MCP upstream live (`schemarouter import
mcp --command ...`), compiles it, starts `schemarouter gateway` on stdio and drives it with a
minimal JSON-RPC client written here (one JSON message a line on the gateway's stdin and
stdout; no SDK, so the client adds almost nothing to the time measured). After `initialize`
and 50 warm-up calls, N `tools/call` of the gateway's `call` tool one after another. Per call:
the client's time from writing the request to having read the whole answer, and the upstream
time the gateway reports (`calls[0].upstream_ms`: from sending the upstream `tools/call` on the
gateway's shared connection to having its result). Overhead = the difference: parsing the
agent's request, the boundary checks, the upstream JSON-RPC framing on both sides, projecting
the result, counting tokens, serialising the answer.

Upstream: tests/gateway/flaky_mcp.py's `echo` (the official Python SDK; a small structured
result), or with `list` @modelcontextprotocol/server-memory's `read_graph` over 40 entities of
8 observations each (a list-style result of about 30 KB; `fields: ["entities[].name"]`), from
tests/mcp/node_modules (installed by .ci/run). Prints p50/p90/p99/max in milliseconds. Every
process started is stopped at the end.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/schemarouter")
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
LIST = len(sys.argv) > 3 and sys.argv[3] == "list"
PY = os.path.join(ROOT, ".venv/bin/python")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class Rpc:
    def __init__(self, proc):
        self.proc, self.next_id = proc, 0

    def send(self, method, params, notify=False):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if not notify:
            self.next_id += 1
            msg["id"] = self.next_id
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()
        if notify:
            return None
        while True:
            line = self.proc.stdout.readline()
            assert line, "the gateway closed its stdout"
            m = json.loads(line)
            if m.get("id") == self.next_id:
                assert "error" not in m, m
                return m["result"]


def main():
    work = tempfile.mkdtemp()
    if LIST:
        command = os.path.join(ROOT, "tests/mcp/node_modules/.bin/mcp-server-memory")
        tool, endpoint, args, fields = "memory_server", "read_graph", {}, ["entities[].name"]
    else:
        command = f"{PY} {os.path.join(ROOT, 'tests/gateway/flaky_mcp.py')}"
        tool, endpoint, args, fields = "flaky", "echo", {"text": "hello"}, None
    subprocess.run([BIN, "import", "mcp", "--command", command, "--project", "proj", "--timeout", "60"],
                   cwd=work, check=True, capture_output=True)
    # The artifact inside the project: the gateway reads the recorded server commands there.
    subprocess.run([BIN, "compile", "proj", "--out", "proj/build"], cwd=work, check=True, capture_output=True)
    # server-memory gets MEMORY_FILE_PATH through the configuration's `env` (a child inherits
    # only a few variables of the gateway's environment).
    env = dict(os.environ, MEMORY_FILE_PATH=os.path.join(work, "memory.jsonl"))
    config = os.path.join(work, "gateway.toml")
    with open(config, "w") as f:
        if LIST:
            f.write('[upstreams.memory_server]\nenv = { MEMORY_FILE_PATH = "${MEMORY_FILE_PATH}" }\n')
    gw = subprocess.Popen([BIN, "gateway", "--artifact", os.path.join(work, "proj/build/graph.json"),
                           "--config", config],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    try:
        rpc = Rpc(gw)
        rpc.send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "bench", "version": "0"}})
        rpc.send("notifications/initialized", {}, notify=True)
        if LIST:
            entities = [{"name": f"Entity {i}", "entityType": "element",
                         "observations": [f"observation {k} of entity {i}, recorded with care" for k in range(8)]}
                        for i in range(40)]
            rpc.send("tools/call", {"name": "call", "arguments": {
                "tool": tool, "endpoint": "create_entities", "arguments": {"entities": entities}}})
        call = {"tool": tool, "endpoint": endpoint, "arguments": args}
        if fields:
            call["fields"] = fields
        total, upstream, tokens = [], [], None
        for i in range(50 + N):
            t0 = time.perf_counter()
            r = rpc.send("tools/call", {"name": "call", "arguments": call})
            t1 = time.perf_counter()
            assert not r.get("isError"), r
            if i >= 50:
                c = r["structuredContent"]["calls"][0]
                total.append((t1 - t0) * 1e3)
                upstream.append(c["upstream_ms"])
                tokens = (c["raw_bytes"], c["raw_tokens"], c["delivered_tokens"])
        over = [t - u for t, u in zip(total, upstream)]
        print(f"{N} MCP calls of {tool}/{endpoint} through {BIN} (stdio); raw {tokens[0]} bytes, "
              f"{tokens[1]} tokens; delivered {tokens[2]} tokens")
        print("| ms | p50 | p90 | p99 | max |")
        print("|---|---|---|---|---|")
        for name, xs in [("gateway overhead", over), ("upstream", upstream), ("total (client)", total)]:
            print(f"| {name} | {pct(xs, 50):.3f} | {pct(xs, 90):.3f} | {pct(xs, 99):.3f} | {max(xs):.3f} |")
    finally:
        gw.stdin.close()
        gw.terminate()
        try:
            gw.wait(10)
        except subprocess.TimeoutExpired:
            gw.kill()
            gw.wait()


main()
