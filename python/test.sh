#!/usr/bin/env bash
# The Python package's tests: build the wheel with maturin (`--profile dev`, overriding the `wheel`
# profile python/pyproject.toml names: the dev profile `cargo test` has already
# built the shared crates in; without it maturin builds a wheel to ship), install it into a fresh
# virtual environment with pytest, and run python/tests. Used by the README and by .ci/run.
# VENV overrides where the environment goes (default target/py-venv, rebuilt each run).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-$PWD/target/py-venv}"
rm -rf "$VENV" target/wheels
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check maturin pytest jsonschema blake3
"$VENV/bin/maturin" build --quiet --profile dev -m python/Cargo.toml --out target/wheels
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-index --find-links target/wheels schemarouter-rs
"$VENV/bin/python" -m pytest -q python/tests
