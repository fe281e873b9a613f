#!/bin/sh
# Runs the headless Neovim end-to-end check against the real server and prints its JSON.
#
#   editors/neovim/test/run_e2e.sh [file.mlir]
#
# Environment: GPU_LSP_CMD (JSON array; default [".venv/bin/python", "-m", "gpu_lsp"] in the
# repository root), GPU_LSP_OUT (default: a temporary file), NVIM (default: nvim).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
file=${1:-"$repo/editors/vscode/test/fixtures/two_deps.mlir"}
: "${GPU_LSP_CMD:=[\"$repo/.venv/bin/python\", \"-m\", \"gpu_lsp\"]}"
out=${GPU_LSP_OUT:-$(mktemp "${TMPDIR:-/tmp}/gpu-lsp-nvim-e2e.XXXXXX")}
export GPU_LSP_CMD GPU_LSP_OUT="$out"
cd "$repo"
status=0
"${NVIM:-nvim}" --headless --clean -u "$here/e2e_init.lua" "$file" || status=$?
cat "$out"
echo
exit "$status"
