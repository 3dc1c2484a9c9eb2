#!/usr/bin/env bash
# BFCL v4 against one pooled catalog (issue 36): the functions of `multiple`, `live_multiple`
# and `parallel_multiple` (1,021 distinct names) imported with `schemarouter import openai` into
# one project, every question of those sets asked against the whole pool (top-1 function,
# Recall@5, arguments against `possible_answer`), `irrelevance` and `live_irrelevance` as
# negatives; baselines (name-only matching, plain BM25) computed by bench/bfcl.py.
#
#   bench/bfcl.sh                 # all 2,577 questions
#   bench/bfcl.sh --limit 50      # the first 50 of each set (a quick look)
#
# Fetches `bfcl-eval` (Apache-2.0; its data ships inside the wheel) with pip into
# target/bench/venv; works in target/bench/bfcl; writes results.json and results.md there and
# prints the tables. SCHEMAROUTER=path/to/binary skips the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/catalog_env.sh
BFCL_VERSION=${BFCL_VERSION:-2026.3.23}
bench_setup
pip_fetch bfcl-eval "$BFCL_VERSION"
data=$(site_packages)/bfcl_eval/data
work=target/bench/bfcl
rm -rf "$work" && mkdir -p "$work"
"$py" bench/bfcl.py prepare "$data" "$work"
start=$(date +%s.%N)
"$bin" import openai "$work/bfcl_pool.json" --project "$work/project" --tool bfcl --message-format concise >"$work/import.log" 2>&1 \
  || { cat "$work/import.log"; exit 1; }
"$bin" compile "$work/project" --out "$work/project/build" >"$work/compile.log" 2>&1 \
  || { cat "$work/compile.log"; exit 1; }
end=$(date +%s.%N)
echo "import + compile: $(echo "$end - $start" | bc) s ($(tail -1 "$work/compile.log" | cut -c1-160))" >&2
"$py" bench/bfcl.py run "$work" "$bin" "$@"
