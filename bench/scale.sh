#!/usr/bin/env bash
# Whole-CLI scaling: check (concise and human output) and check + compile over the shipped
# inventory and generated inventories of 1,000, 5,000 and 10,000 tools (about 30 fields each),
# with wall time, user time and peak RSS from /usr/bin/time -v; the artifact sizes (compact graph.json, graph.bin and its routing section);
# and `route` as a whole process from graph.bin and from graph.json (median of 5 runs each, one
# of the inventory's example queries). Writes a markdown table to stdout (and bench/scale.md).
#
#   bench/scale.sh [SIZES...]      default: 1000 5000 10000
#
# Needs a release build (built here) and GNU time (/usr/bin/time; Debian package `time`).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1000 5000 10000)
cargo build --release -q
bin=target/release/schemarouter
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

measure() { # label project
  local label=$1 project=$2 out="$work/out-$1"
  local fields
  /usr/bin/time -v "$bin" check "$project" --format concise >/dev/null 2>"$work/check.time" || true
  /usr/bin/time -v "$bin" check "$project" --format human >/dev/null 2>"$work/human.time" || true
  /usr/bin/time -v "$bin" compile "$project" --out "$out" >/dev/null 2>"$work/compile.time"
  # The binary form too (not timed; `compile --format both` writes both).
  "$bin" compile "$project" --out "$out" --format both >/dev/null 2>&1
  read -r tools fields query < <(python3 -c "
import json
g = json.load(open('$out/graph.json'))
q = next(e for i in g['intents'] for e in i.get('examples', []))
print(len(g['tools']), sum(t['total_fields'] for t in g['tools']), q)")
  wall() { awk -F': ' '/Elapsed \(wall clock\)/ {split($2,a,":"); if (length(a)==3) print a[1]*3600+a[2]*60+a[3]; else print a[1]*60+a[2]}' "$1"; }
  rss() { awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$1"; }
  user() { awk -F': ' '/User time \(seconds\)/ {printf "%.2f", $2}' "$1"; }
  local cw hw ccw
  cw=$(wall "$work/check.time"); hw=$(wall "$work/human.time"); ccw=$(wall "$work/compile.time")
  local fps
  fps=$(python3 -c "print(f'{$fields/($ccw if $ccw>0 else 1e-3):,.0f}')")
  local json_mb bin_mb routing_mb
  json_mb=$(python3 -c "import os; print(f'{os.path.getsize(\"$out/graph.json\")/1e6:.1f}')")
  bin_mb=$(python3 -c "import os; print(f'{os.path.getsize(\"$out/graph.bin\")/1e6:.1f}')")
  routing_mb=$(python3 -c "
import struct
h = open('$out/graph.bin', 'rb').read(24)
print(f'{struct.unpack(\"<Q\", h[8:16])[0]/1e6:.1f}')")
  route_ms() { # artifact
    for _ in 1 2 3 4 5; do
      local t0 t1
      t0=$(date +%s%N)
      "$bin" route --artifact "$1" "$query" >/dev/null 2>&1
      t1=$(date +%s%N)
      echo $(( (t1 - t0) / 1000 ))
    done | median | awk '{printf "%.0f", $1/1000}'
  }
  printf '| %s | %s | %s | %.2f | %s | %s | %.2f | %s | %.2f | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$tools" "$fields" "$cw" "$(user "$work/check.time")" "$(rss "$work/check.time")" "$hw" "$(user "$work/human.time")" "$ccw" "$(user "$work/compile.time")" "$(rss "$work/compile.time")" "$fps" "$json_mb" "$bin_mb" "$routing_mb" "$(route_ms "$out/graph.bin")" "$(route_ms "$out/graph.json")"
}

{
  echo "| inventory | tools | fields | check concise wall (s) | user (s) | peak RSS (MiB) | check human wall (s) | user (s) | check+compile wall (s) | user (s) | peak RSS (MiB) | fields/s (compile) | graph.json (MB) | graph.bin (MB) | routing section (MB) | route from bin (ms) | route from JSON (ms) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  measure shipped .
  for n in "${sizes[@]}"; do
    "$bin" gen --tools "$n" --seed 7 --out "$work/gen-$n" >/dev/null
    measure "gen-$n" "$work/gen-$n"
    rm -rf "$work/gen-$n" "$work/out-gen-$n"
  done
} | tee bench/scale.md
