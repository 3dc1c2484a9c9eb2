#!/usr/bin/env bash
# The steps of the schemarouter GitHub Action (action.yml at the repository root), one mode per
# step. The action passes its inputs as environment variables, as GitHub runs a composite step:
#
#   SR_PATH        project folder, relative to the repository root (default `.`)
#   SR_BIN         the schemarouter binary (default: `schemarouter` on PATH)
#   SR_FAIL_LEVEL  `check --fail-level` (error | warning | info; empty: the project's setting)
#   SR_BASELINE    `check --baseline FILE` (empty: none)
#   SR_SARIF       where the SARIF log is written (default `schemarouter.sarif`)
#   SR_FAIL_ON     `diff --fail-on` (breaking | dangerous | none; default breaking)
#   SR_BASE_SHA    the pull request's base commit (empty outside pull requests: no diff)
#   GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH, RUNNER_TEMP: set by GitHub.
#
# Modes:
#   install  build schemarouter from the action's own checkout unless SR_BIN or PATH has one
#   check    `check` with GitHub annotations, then the SARIF log for code scanning; records
#            `check-exit` and `sarif` in GITHUB_OUTPUT and never fails the step itself
#   diff     `diff git:BASE[:PATH] PATH` with annotations (`::error` only for changes that fail
#            the gate) and a Markdown table in the job summary; records `diff-exit`
#   gate     exits 1 when check or diff failed (CHECK_EXIT / DIFF_EXIT from the steps above)
set -uo pipefail

mode="${1:-}"
path="${SR_PATH:-.}"
bin="${SR_BIN:-schemarouter}"
output="${GITHUB_OUTPUT:-/dev/null}"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"

case "$mode" in
install)
  if [ -n "${SR_BIN:-}" ] || command -v schemarouter >/dev/null 2>&1; then
    echo "schemarouter: using $(command -v "$bin")"
    exit 0
  fi
  root="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/schemarouter"
  cargo install --locked --root "$root" --path "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}" || exit 2
  echo "$root/bin" >>"${GITHUB_PATH:-/dev/null}"
  ;;
check)
  args=(check "$path")
  [ -n "${SR_FAIL_LEVEL:-}" ] && args+=(--fail-level "$SR_FAIL_LEVEL")
  [ -n "${SR_BASELINE:-}" ] && args+=(--baseline "$SR_BASELINE")
  "$bin" "${args[@]}" --format github
  code=$?
  sarif="${SR_SARIF:-schemarouter.sarif}"
  # The SARIF log holds every finding the gate reports (the same arguments); its exit code is
  # the one above.
  "$bin" "${args[@]}" --format sarif >"$sarif" 2>/dev/null
  sarif_code=$?
  if [ "$sarif_code" -gt 1 ]; then
    echo "::error title=schemarouter::check could not write the SARIF log (exit $sarif_code)"
    code=2
  fi
  {
    echo "### schemarouter check"
    echo
    echo '```'
    "$bin" "${args[@]}" --statistics 2>/dev/null
    echo '```'
  } >>"$summary"
  echo "check-exit=$code" >>"$output"
  echo "sarif=$sarif" >>"$output"
  ;;
diff)
  if [ -z "${SR_BASE_SHA:-}" ]; then
    echo "schemarouter: not a pull request; no diff"
    echo "diff-exit=0" >>"$output"
    exit 0
  fi
  # The base commit may be missing from a shallow checkout.
  if ! git cat-file -e "${SR_BASE_SHA}^{commit}" 2>/dev/null; then
    git fetch --no-tags --depth=1 origin "$SR_BASE_SHA" || { echo "diff-exit=2" >>"$output"; exit 0; }
  fi
  old="git:$SR_BASE_SHA"
  [ "$path" != "." ] && old="git:$SR_BASE_SHA:$path"
  "$bin" diff "$old" "$path" --format github --fail-on "${SR_FAIL_ON:-breaking}"
  code=$?
  "$bin" diff "$old" "$path" --format markdown --fail-on "${SR_FAIL_ON:-breaking}" >>"$summary" 2>/dev/null
  echo "diff-exit=$code" >>"$output"
  ;;
gate)
  check="${CHECK_EXIT:-0}"
  diff="${DIFF_EXIT:-0}"
  echo "schemarouter: check exit $check, diff exit $diff"
  if [ "$check" != 0 ] || [ "$diff" != 0 ]; then
    exit 1
  fi
  ;;
*)
  echo "usage: $0 install|check|diff|gate" >&2
  exit 2
  ;;
esac
