#!/usr/bin/env bash
# The test suite against the compiled build: `pip install .` into .venv-compiled (checked by
# scripts/check_install.sh; mypyc compiles the hot modules, setup.py), the dev extra beside it,
# then pytest from outside the checkout, so that the installed, compiled package is the one imported
# (PYTHONSAFEPATH: the servers and tools the tests start import it too).
#
#   scripts/test_compiled.sh [python3] [pytest arguments...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python=${1:-python3}
shift || true
venv=$PWD/.venv-compiled
scripts/check_install.sh "$python" "$venv"
PYTHONSAFEPATH=1 "$venv/bin/python" -c 'import gpu_lsp; assert gpu_lsp.compiled(), "the build is not compiled (no C compiler?)"'
"$venv/bin/python" - <<'PY' >"$venv/dev-requirements.txt"
import tomllib
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["dev"]))
PY
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$venv/dev-requirements.txt"
repo=$PWD
cd "$(mktemp -d "${TMPDIR:-/tmp}/gpu-lsp-compiled.XXXXXX")"
PYTHONSAFEPATH=1 "$venv/bin/python" -m pytest -p no:cacheprovider --rootdir="$repo" -c "$repo/pyproject.toml" "$repo/tests" "$@"
