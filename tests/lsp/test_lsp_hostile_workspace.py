"""No code from the workspace runs: a repository holding its own `gpu_lsp/`, `json.py`,
`pygls/` and `lark.py` is opened in headless Neovim and the server's Run and lit children start in it;
nothing of it is imported and diagnostics still work (adversarial suite, issue 29)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import REPO

from gpu_lsp.lsp import lit
from gpu_lsp.lsp.commands import run_in_child

E2E_INIT = REPO / "editors" / "neovim" / "test" / "e2e_init.lua"

UNDEFINED = """\
func.func @f(%m: memref<4xf32>) {
  %t1 = gpu.dealloc async [%t9] %m : memref<4xf32>
  gpu.wait [%t1]
  return
}
"""

PRINTS = """\
func.func @main() {
  %f = arith.constant 1.5 : f32
  func.call @printF32(%f) : (f32) -> ()
  return
}
func.func private @printF32(f32)
"""

LIT_TEST = """\
// RUN: mlir-opt %s | FileCheck %s
// CHECK: gpu.wait
func.func @f() {
  gpu.wait
  return
}
"""


def hostile_workspace(root: Path) -> Path:
    """A folder whose modules shadow the server's and its dependencies'; each writes a marker when imported."""
    marker = root / "IMPORTED"
    payload = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    for module in ("gpu_lsp/__init__.py", "json.py", "pygls/__init__.py", "lark.py", "lsprotocol.py", "numpy.py"):
        path = root / module
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(payload)
    return marker


def test_neovim_in_a_hostile_workspace_imports_nothing_from_it(tmp_path: Path) -> None:
    nvim = shutil.which(os.environ.get("NVIM", "nvim"))
    if nvim is None:
        if os.environ.get("GPU_LSP_REQUIRE_NVIM") == "1":
            pytest.fail("nvim is not installed (apt-get install -y neovim), and GPU_LSP_REQUIRE_NVIM=1")
        pytest.skip("nvim is not installed (apt-get install -y neovim)")
    workspace = tmp_path / "repo"
    marker = hostile_workspace(workspace)
    (workspace / ".git").mkdir()
    source = workspace / "k.mlir"
    source.write_text(UNDEFINED)
    out = tmp_path / "nvim.json"
    env = dict(os.environ, GPU_LSP_CMD=json.dumps([sys.executable, "-m", "gpu_lsp"]), GPU_LSP_OUT=str(out))
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-u", str(E2E_INIT), "k.mlir"],
        cwd=workspace, env=env, capture_output=True, text=True, timeout=120,
    )
    assert out.exists(), f"no result from Neovim (exit {proc.returncode}): {proc.stderr}"
    result = json.loads(out.read_text())
    assert not marker.exists(), f"workspace code ran: {marker.read_text()}"
    assert [d["code"] for d in result["diagnostics"]] == ["GPU003"], result


async def test_the_run_child_starts_outside_the_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = hostile_workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = await run_in_child(PRINTS, "main", "numpy", 60)
    assert result["ok"] and result["stdout"] == "1.5", result
    assert not marker.exists(), f"workspace code ran: {marker.read_text()}"


async def test_the_lit_child_starts_outside_the_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = hostile_workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    rows = lit.parse_rows(*await lit.run_child(lit.child_args("k.mlir", None) + ["--json"], LIT_TEST, 60, 2**30))
    assert [row["passed"] for row in rows] == [True], rows
    assert not marker.exists(), f"workspace code ran: {marker.read_text()}"


def test_the_lint_workers_forkserver_starts_outside_the_workspace(tmp_path: Path) -> None:
    """A server started in a workspace by a client that sets no PYTHONSAFEPATH (a console script:
    its sys.path starts with its own folder) still imports nothing of the workspace in its workers."""
    workspace = tmp_path / "repo"
    marker = hostile_workspace(workspace)
    driver = tmp_path / "server.py"
    driver.write_text(
        "import multiprocessing, os\n"
        "from gpu_lsp.lsp import lint_child, worker_start  # noqa: F401\n"
        "if __name__ == '__main__':\n"
        "    worker_start.start_workers()\n"
        "    worker = multiprocessing.get_context('forkserver').Process(target=os.getpid)\n"
        "    worker.start()\n"
        "    worker.join()\n"
        "    print(worker.exitcode, os.getcwd())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    proc = subprocess.run([sys.executable, str(driver)], cwd=workspace, env=env, capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["0", str(workspace)], proc.stderr
    assert not marker.exists(), f"workspace code ran: {marker.read_text()}"
