"""Neovim end to end: the plugin in headless Neovim against the real server (editors/neovim/test)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_samples import RUNNABLE
from support import REPO

from gpu_lsp.analysis import lint_text
from gpu_lsp.lint.config import settings_for_document

RUN_E2E = REPO / "editors" / "neovim" / "test" / "run_e2e.sh"
TWO_DEPS = REPO / "editors" / "vscode" / "test" / "fixtures" / "two_deps.mlir"

UNDEFINED = """\
func.func @f(%m: memref<4xf32>) {
  %t1 = gpu.dealloc async [%t9] %m : memref<4xf32>
  gpu.wait [%t1]
  return
}
"""


def _nvim() -> str:
    nvim = shutil.which(os.environ.get("NVIM", "nvim"))
    if nvim is None:
        if os.environ.get("GPU_LSP_REQUIRE_NVIM") == "1":
            pytest.fail("nvim is not installed (apt-get install -y neovim), and GPU_LSP_REQUIRE_NVIM=1")
        pytest.skip("nvim is not installed (apt-get install -y neovim)")
    return nvim


def _run(path: Path, tmp_path: Path, **extra: str) -> dict:
    out = tmp_path / "nvim-e2e.json"
    env = dict(os.environ, GPU_LSP_CMD=json.dumps([sys.executable, "-m", "gpu_lsp"]), GPU_LSP_OUT=str(out), NVIM=_nvim(), **extra)
    proc = subprocess.run(["sh", str(RUN_E2E), str(path)], env=env, capture_output=True, text=True, timeout=120)
    assert out.exists(), f"no result from Neovim (exit {proc.returncode}): {proc.stderr}"
    result = json.loads(out.read_text())
    assert proc.returncode == 0, f"Neovim e2e failed: {result.get('error')}\n{proc.stderr}"
    return result


def test_neovim_shows_diagnostics_and_applies_the_ignore_quick_fix(tmp_path: Path) -> None:
    path = tmp_path / "undefined.mlir"
    path.write_text(UNDEFINED)
    result = _run(path, tmp_path)
    [d] = result["diagnostics"]
    assert (d["code"], d["source"], d["lnum"], d["col"]) == ("GPU003", "gpu-lint", 1, 27)
    assert result["actions"] == ["Ignore GPU003 on this line"] and result["applied"] == result["actions"][0]
    assert result["buffer"][1] == "  // gpu-lint: ignore[GPU003]"
    assert result["diagnostics_after"] == []


def test_neovim_applies_the_fix_of_the_two_dependency_launch(tmp_path: Path) -> None:
    project = settings_for_document(TWO_DEPS)  # the fixture folder's gpu-lint.toml: mlir-version = 22
    fixes = [d for d in lint_text(TWO_DEPS.read_text(), settings=project) if d.fix is not None]
    assert [d.code for d in fixes] == ["GPU201"], "GPU201 reports the two-dependency gpu.launch_func with a fix"
    result = _run(TWO_DEPS, tmp_path)
    assert result["diagnostics"] and result["diagnostics"][0]["source"] == "gpu-lint"
    buffer = "\n".join(result["buffer"])
    assert "gpu.launch_func async [%t2, %t3]" not in buffer
    assert result["applied"] in result["actions"]


# RUNNABLE's @main (no arguments) next to a function gpu-run cannot enter (it takes arguments).
RUNNABLE_AND_NOT = RUNNABLE.rstrip().removesuffix("}") + """\
  func.func @with_args(%d: memref<4xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32>, %v : f32)
    return
  }
}
"""


def test_neovim_lens_rule_completion_and_a_run(tmp_path: Path) -> None:
    path = tmp_path / "run.mlir"
    path.write_text(RUNNABLE_AND_NOT)
    lines = RUNNABLE_AND_NOT.splitlines()
    launch = next(i for i, line in enumerate(lines) if "gpu.launch_func" in line)
    result = _run(path, tmp_path, GPU_LSP_E2E="features", GPU_LSP_LINE=str(launch + 1))
    main = next(i for i, line in enumerate(lines) if "@main" in line)
    # Run on @main only: @with_args launches a kernel too, but gpu-run cannot supply its arguments.
    # The graph lens only on @main as well: @with_args issues no async GPU work.
    assert result["lenses"] == [[main, "▶ Run on GPU", "main"], [main, "Show async graph", "main"]]
    assert result["omnifunc"] == "v:lua.vim.lsp.omnifunc"
    assert "launch_func" in " ".join(result["completion"]), result["completion"]
    run = result["run"]
    assert run[0].startswith("@main finished on numpy"), run
    assert run[1:] == ["", "stdout:", "2.5"], run
