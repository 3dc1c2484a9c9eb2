#!/usr/bin/env bash
# Load benchmark of `schemarouter serve` on loopback (bounded: a fixed request count, at most
# 120 s per run; the server is stopped with SIGTERM at the end). On the shipped artifact:
# 20,000 route requests at concurrency 32 over kept-alive connections, for an Understanding
# body and for a question body, each without and with a reload in the middle (the served file
# replaced by rename with an artifact that plans differently). Then at 10,000 tools (`gen`,
# compiled here): time to first answer after start, and the same load with an Understanding.
# Peak RSS is the server's VmHWM, its CPU time (user + system) from /proc/PID/stat over the
# measured requests. Prints a markdown table (and the load average before, on stderr).
#
#   bench/serve_load.sh [--no-10k]
#
# Client: bench/load-client (hyper HTTP/1.1 connections driven by one thread; a workspace member
# outside `default-members`, so `cargo test` does not build it).
set -euo pipefail
cd "$(dirname "$0")/.."
big=1
[ "${1:-}" = "--no-10k" ] && big=0
cargo build --release -q --bin schemarouter
cargo build --release -q -p schemarouter-load
bin=target/release/schemarouter
load=target/release/serve-load
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# A second artifact that plans differently: materials_project's priority changed.
mkdir -p "$work/b"
cp -r schemas intents aliases schemarouter.toml "$work/b/"
sed -i 's/^priority: 90$/priority: 91/' "$work/b/schemas/materials_project.yaml"
"$bin" compile "$work/b" --out "$work/b/build" >/dev/null 2>&1

echo '{"question": "What is the band gap of LiFePO4 according to the Materials Project?"}' > "$work/question.json"
echo '{"understanding": {"intent": "electronic_property", "domain_concepts": ["band_gap"], "parameters": {"formula": "LiFePO4"}, "target_apis": ["materials_project"], "source_constraint": null}}' > "$work/understanding.json"

runs=0
start_server() { # artifact-file -> sets $pid, $url and $log
  runs=$((runs + 1)); log="$work/server-$runs.log"
  "$bin" serve --artifact "$1" --bind 127.0.0.1:0 --watch-ms 20 2>"$log" &
  pid=$!
  for _ in $(seq 1 6000); do
    url=$(grep -o '"url":"[^"]*"' "$log" 2>/dev/null | head -1 | cut -d'"' -f4 || true)
    [ -n "$url" ] && return 0
    sleep 0.01
  done
  echo "server did not start" >&2; cat "$log" >&2; exit 1
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
stop_server() { # -> sets $rss (peak RSS, MiB)
  rss=$(awk '/VmHWM/ {printf "%.1f", $2/1024}' "/proc/$pid/status")
  kill -TERM "$pid"; wait "$pid" || true; pid=
}
row() { # label json rss cpu
  python3 - "$1" "$2" "$3" "$4" <<'EOF'
import json, sys
label, r, rss, cpu = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
hashes = ", ".join(f"{h}: {n}" for h, n in r["hashes"].items())
print(f"| {label} | {r['requests']:,} | {r['errors']} | {r['rps']:,.0f} | {r['p50_us']} | {r['p99_us']} | {r['max_us']:,} | {cpu} | {rss} | {hashes} |")
EOF
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "| run | requests | errors | routes/s | p50 (µs) | p99 (µs) | max (µs) | server CPU per request (µs) | server peak RSS (MiB) | answers per artifact hash |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for body in understanding question; do
  for reload in no yes; do
    cp build/graph.json "$work/graph.json"; cp build/intent_prompt.txt "$work/intent_prompt.txt"
    start_server "$work/graph.json"
    extra=()
    [ "$reload" = yes ] && extra=(--reload-at 10000 --artifact "$work/graph.json" --swap "$work/b/build/graph.json")
    # A short warm-up (connections, allocator), not counted.
    "$load" --url "$url" --body "$work/$body.json" --requests 2000 --concurrency 32 >/dev/null
    c0=$(cpu_ticks)
    r=$("$load" --url "$url" --body "$work/$body.json" --requests 20000 --concurrency 32 "${extra[@]}")
    cpu=$(( ($(cpu_ticks) - c0) * 1000000 / $(getconf CLK_TCK) / 20000 ))
    stop_server
    label="shipped, $body"; [ "$reload" = yes ] && label="$label, reload at 10,000"
    row "$label" "$r" "$rss" "$cpu"
  done
done

if [ "$big" = 1 ]; then
  "$bin" gen --tools 10000 --seed 7 --out "$work/gen" >/dev/null
  "$bin" compile "$work/gen" --out "$work/gen/build" --format both >/dev/null 2>&1
  # Understanding for the generated inventory: its first intent, no named tool.
  python3 - "$work/gen/build/graph.json" > "$work/gen-understanding.json" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))
i = g["intents"][0]
print(json.dumps({"understanding": {"intent": i["id"], "domain_concepts": [], "parameters": {}, "target_apis": [], "source_constraint": None}}))
EOF
  for fmt in bin json; do
    t0=$(date +%s.%N)
    start_server "$work/gen/build/graph.$fmt"
    first=$("$load" --url "$url" --body "$work/gen-understanding.json" --first-answer --max-seconds 60)
    t1=$(date +%s.%N)
    load_ms=$(grep -o '"load_ms":[0-9.]*' "$log" | head -1 | cut -d: -f2)
    c0=$(cpu_ticks)
    r=$("$load" --url "$url" --body "$work/gen-understanding.json" --requests 20000 --concurrency 32)
    cpu=$(( ($(cpu_ticks) - c0) * 1000000 / $(getconf CLK_TCK) / 20000 ))
    stop_server
    row "gen-10000 (graph.$fmt), understanding" "$r" "$rss" "$cpu"
    python3 -c "print(f'  time to first answer (graph.$fmt): {($t1-$t0)*1e3:,.0f} ms from start (artifact load {float($load_ms):,.0f} ms)')" >&2
  done
fi
