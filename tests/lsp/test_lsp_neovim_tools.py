"""Neovim against the real server: :GpuLitRun / :GpuLitUpdate (lit tests) and :GpuLspPipeline (the IR after each pass)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_samples import FAILING_CHUNK, LIT_RUN
from support import REPO

TEST = (
    LIT_RUN
    + """\
// CHECK-LABEL: func.func @launch
func.func @launch(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
// -----
"""
    + FAILING_CHUNK
)


def test_lit_and_pipeline_commands_in_neovim(tmp_path: Path) -> None:
    nvim = shutil.which(os.environ.get("NVIM", "nvim"))
    if nvim is None:
        if os.environ.get("GPU_LSP_REQUIRE_NVIM") == "1":
            pytest.fail("nvim is not installed (apt-get install -y neovim), and GPU_LSP_REQUIRE_NVIM=1")
        pytest.skip("nvim is not installed (apt-get install -y neovim)")
    test, out = tmp_path / "t.mlir", tmp_path / "out.json"
    test.write_text(TEST, encoding="utf-8")
    env = dict(os.environ, PLUGIN=str(REPO / "editors" / "neovim"), PY=sys.executable, TEST=str(test), OUT=str(out), LAUNCH="5", UPDATE="14")
    init = REPO / "editors" / "neovim" / "test" / "tools_init.lua"
    proc = subprocess.run([nvim, "--headless", "--clean", "-u", str(init)], env=env, timeout=240, capture_output=True, text=True)
    result = json.loads(out.read_text(encoding="utf-8"))
    assert proc.returncode == 0 and result.get("error") is None, (result, proc.stderr[-2000:])
    # lit: the failing CHECK line in the quickfix list and as a diagnostic; Update CHECK lines rewrites it
    assert result["lit"] == {"passed": 1, "failed": 1}
    [item] = result["quickfix"]
    assert item["lnum"] == 12 and item["text"].startswith("RUN 1, chunk 2: ") and "expected: arith.muli" in item["text"]
    [diagnostic] = result["diagnostics"]
    assert diagnostic["lnum"] == 11 and diagnostic["message"].startswith("RUN 1, chunk 2: Couldn't match")
    assert "// CHECK: arith.muli" not in result["updated"] and "// CHECK-LABEL: func.func @launch" in result["updated"]
    assert "// CHECK:         %[[VAL_0:.*]] = arith.addi %[[ARG0]], %[[ARG0]] : i32" in result["updated"]
    # the pipeline: three steps; two side by side in diff mode, then the next two; <CR> finds the source
    assert result["steps"] == ["input", "gpu-launch-sink-index-computations", "gpu-kernel-outlining"]
    assert [(w["name"], w["diff"]) for w in result["first"]] == [
        ("gpu-lsp-ir://1/gpu-launch-sink-index-computations", True),
        ("gpu-lsp-ir://0/input", True),
    ]
    assert [w["name"] for w in result["second"]] == ["gpu-lsp-ir://2/gpu-kernel-outlining", "gpu-lsp-ir://1/gpu-launch-sink-index-computations"]
    assert any("gpu.launch_func" in line for line in result["outlined"]) and any("gpu.module @launch_kernel" in line for line in result["outlined"])
    assert result["jumped"] == {"buffer": True, "line": 3}
    assert result["completion"] == ["gpu-launch-sink-index-computations,gpu-kernel-outlining"]
