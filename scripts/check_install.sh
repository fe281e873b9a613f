#!/usr/bin/env bash
# Checks the documented install of the server from a checkout: `pip install .` into a
# fresh venv (a wheel built and installed with its dependencies) gives working tools, compiled
# by mypyc where a C compiler is found (setup.py), and a language server that answers `initialize`.
#
#   scripts/check_install.sh [python3] [venv]
#
# The venv is a throw-away one, or `venv` (made anew and kept: scripts/test_compiled.sh tests it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python=${1:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu-lsp-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
venv=${2:-$tmp/venv}
case $venv in /*) ;; *) venv=$PWD/$venv ;; esac

# The documented command: `python -m pip install .` in the checkout, into a new venv.
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check .
bin="$venv/bin"

# Run from outside the checkout so only the installed package can be imported.
cd "$tmp"
"$bin/python" -c 'import gpu_lsp, sys; assert "site-packages" in gpu_lsp.__file__, gpu_lsp.__file__'
if command -v cc >/dev/null 2>&1 && [ "${GPU_LSP_PURE:-0}" = 0 ]; then
  "$bin/python" -c 'import gpu_lsp; assert gpu_lsp.compiled(), "a C compiler is here, yet pip install . built pure Python"'
fi
for tool in gpu-lint gpu-opt gpu-run gpu-lsp; do
  test -x "$bin/$tool" || { echo "check_install: $tool was not installed" >&2; exit 1; }
done
# The grammars and rule docs are package data: linting a file needs them (LLVM 22 still
# rejects the two-dependency launch of mistakes.mlir: GPU201).
status=0
"$bin/gpu-lint" --mlir-version 22 "$OLDPWD/examples/mistakes.mlir" >"$tmp/lint.txt" || status=$?
if [ "$status" -ne 1 ] || ! grep -q GPU201 "$tmp/lint.txt"; then
  echo "check_install: gpu-lint --mlir-version 22 on examples/mistakes.mlir: exit $status, expected 1 with GPU201" >&2
  cat "$tmp/lint.txt" >&2
  exit 1
fi
"$bin/gpu-run" --backend numpy "$OLDPWD/editors/vscode/test/fixtures/two_deps.mlir"
# The server: initialize over stdio, then shutdown and exit.
"$bin/python" - "$bin/gpu-lsp" <<'EOF'
import json, subprocess, sys

def frame(obj):
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body

messages = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
    {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
    {"jsonrpc": "2.0", "method": "exit"},
]
proc = subprocess.run([sys.argv[1]], input=b"".join(map(frame, messages)), capture_output=True, timeout=60)
out = proc.stdout.decode()
assert proc.returncode == 0, (proc.returncode, proc.stderr.decode()[-2000:])
assert '"serverInfo"' in out and '"name": "gpu-lsp"' in out.replace('":"', '": "'), out[:2000]
EOF
echo "check_install: pip install . into a fresh venv works; gpu-lint, gpu-opt, gpu-run and gpu-lsp work ($("$bin/gpu-lint" --version))"
