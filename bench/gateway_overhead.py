"""Gateway overhead above the upstream's own time, over N loopback calls (default 1,000).

    python3 bench/gateway_overhead.py [BIN] [N] [list] [rt]

BIN defaults to target/release/schemarouter (build it first: `cargo build --release`). Compiles
tests/fixtures/gateway-http, starts tests/gateway/fault_server.py and `schemarouter gateway
--transport http` on loopback, warms up with 50 calls, then sends N `POST /v1/call` of
`fault_details/material` (a small JSON record; path parameter, projection, token counting) one
after another on one kept-alive connection. With `list`, the calls are of `faults/materials`
instead (7 records of 40 fields, 20 KB, about 8,300 tokens, with the API key from the
configuration): projection and token counting of a list-style response.

Per call (Python's garbage collector off during the timed loop, so that the client's own pauses
are not counted):
- total: the client's time from sending the request to having the whole answer;
- upstream: the upstream time the gateway reports (`calls[0].upstream_ms`, from sending the
  upstream request to having its whole body, reqwest on a pooled connection);
- overhead = total - upstream: routing the request, the boundary checks, building the upstream
  request, parsing and projecting the response, counting tokens, serialising the answer, and
  both HTTP hops' loopback time;
- in gateway: the gateway's own time for the request (its `Server-Timing: gateway;dur=` header,
  from the request's arrival in the handler to the answer's bytes) minus the upstream time: what
  the gateway's code costs, without either loopback hop or the client;
- direct: the same upstream request sent by this client itself on its own kept-alive connection
  right after each gateway call, measured the same way as total: the upstream's own round trip
  seen from the client, the baseline for total.

With `rt`, the gateway, the upstream and this client run at real-time priority (`chrt -f 1`,
SCHED_FIFO; needs the privilege), so that other processes on a shared machine do not preempt
them: the tail that remains is the gateway's own. The load average (`/proc/loadavg`) is printed
before and after. Prints p50/p90/p99/max in milliseconds. Bounded: N calls, each with the
gateway's 10 s timeout; every process started is stopped at the end.
"""

import gc
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/schemarouter")
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
LIST = "list" in sys.argv[3:]
RT = "rt" in sys.argv[3:]
PRIO = ["chrt", "-f", "1"] if RT else []


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    work = tempfile.mkdtemp()
    subprocess.run([BIN, "compile", os.path.join(ROOT, "tests/fixtures/gateway-http"), "--out", work],
                   check=True, capture_output=True)
    if RT:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    server = subprocess.Popen(PRIO + [sys.executable, os.path.join(ROOT, "tests/gateway/fault_server.py"), "bench-key"],
                              stdout=subprocess.PIPE)
    port = int(server.stdout.readline())
    config = os.path.join(work, "gateway.toml")
    with open(config, "w") as f:
        f.write(f'[upstreams.faults]\nbase_url = "http://127.0.0.1:{port}"\n'
                'auth = { kind = "query", name = "api_key", env = "BENCH_KEY" }\n')
    gw = subprocess.Popen(PRIO + [BIN, "gateway", "--transport", "http", "--bind", "127.0.0.1:0",
                           "--artifact", os.path.join(work, "graph.json"), "--config", config,
                           "--upstream", f"fault_details=http://127.0.0.1:{port}"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env=dict(os.environ, BENCH_KEY="bench-key"))
    try:
        url = json.loads(gw.stderr.readline())["url"]
        host, gport = url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(gport))
        direct_conn = http.client.HTTPConnection("127.0.0.1", port)
        if LIST:
            call = {"tool": "faults", "endpoint": "materials", "arguments": {"formula": "GaN"}}
            direct_path = "/v1/materials?formula=GaN&api_key=bench-key"
        else:
            call = {"tool": "fault_details", "endpoint": "material", "arguments": {"material_id": "mp-149"}}
            direct_path = "/v1/materials/mp-149"
        body = json.dumps(call).encode()
        headers = {"Content-Type": "application/json"}
        total, upstream, inside, direct = [], [], [], []
        load_before = load()
        gc.collect()
        gc.disable()
        for i in range(50 + N):
            t0 = time.perf_counter()
            conn.request("POST", "/v1/call", body, headers)
            resp = conn.getresponse()
            data = resp.read()
            t1 = time.perf_counter()
            direct_conn.request("GET", direct_path)
            dresp = direct_conn.getresponse()
            ddata = dresp.read()
            t2 = time.perf_counter()
            assert resp.status == 200, data
            assert dresp.status == 200, ddata
            if i >= 50:
                a = json.loads(data)
                total.append((t1 - t0) * 1e3)
                up = a["calls"][0]["upstream_ms"]
                upstream.append(up)
                timing = resp.getheader("Server-Timing") or ""
                dur = [float(p.split("dur=")[1]) for p in timing.split(",") if p.strip().startswith("gateway;")]
                if dur:
                    inside.append(dur[0] - up)
                direct.append((t2 - t1) * 1e3)
        gc.enable()
        over = [t - u for t, u in zip(total, upstream)]
        print(f"{N} calls of {call['tool']}/{call['endpoint']} through {BIN}{' (rt)' if RT else ''}; "
              f"load average {load_before} before, {load()} after")
        print("| ms | p50 | p90 | p99 | max |")
        print("|---|---|---|---|---|")
        rows = [("gateway overhead", over), ("in gateway", inside), ("upstream (gateway-measured)", upstream),
                ("total (client)", total), ("direct upstream (client)", direct)]
        for name, xs in rows:
            if xs:
                print(f"| {name} | {pct(xs, 50):.3f} | {pct(xs, 90):.3f} | {pct(xs, 99):.3f} | {max(xs):.3f} |")
    finally:
        gw.terminate()
        server.terminate()
        gw.wait(10)
        server.wait(10)


main()
