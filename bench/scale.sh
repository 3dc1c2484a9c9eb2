#!/usr/bin/env bash
# Whole-CLI scaling: check + compile over the shipped inventory and generated inventories of
# 1,000, 5,000 and 10,000 tools (about 30 fields each), with wall time and peak RSS from
# /usr/bin/time -v. Writes a markdown table to stdout (and bench/scale.md).
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

measure() { # label project
  local label=$1 project=$2 out="$work/out-$1"
  local fields
  /usr/bin/time -v "$bin" check "$project" --format concise >/dev/null 2>"$work/check.time" || true
  /usr/bin/time -v "$bin" compile "$project" --out "$out" >/dev/null 2>"$work/compile.time"
  fields=$(python3 -c "import json,sys; g=json.load(open('$out/graph.json')); print(sum(t['total_fields'] for t in g['tools']))")
  local tools
  tools=$(python3 -c "import json; print(len(json.load(open('$out/graph.json'))['tools']))")
  wall() { awk -F': ' '/Elapsed \(wall clock\)/ {split($2,a,":"); if (length(a)==3) print a[1]*3600+a[2]*60+a[3]; else print a[1]*60+a[2]}' "$1"; }
  rss() { awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$1"; }
  local cw ccw
  cw=$(wall "$work/check.time"); ccw=$(wall "$work/compile.time")
  local fps
  fps=$(python3 -c "print(f'{$fields/($ccw if $ccw>0 else 1e-3):,.0f}')")
  printf '| %s | %s | %s | %.2f | %s | %.2f | %s | %s |\n' "$label" "$tools" "$fields" "$cw" "$(rss "$work/check.time")" "$ccw" "$(rss "$work/compile.time")" "$fps"
}

{
  echo "| inventory | tools | fields | check wall (s) | check peak RSS (MiB) | check+compile wall (s) | compile peak RSS (MiB) | fields/s (compile) |"
  echo "|---|---|---|---|---|---|---|---|"
  measure shipped .
  for n in "${sizes[@]}"; do
    "$bin" gen --tools "$n" --seed 7 --out "$work/gen-$n" >/dev/null
    measure "gen-$n" "$work/gen-$n"
  done
} | tee bench/scale.md
