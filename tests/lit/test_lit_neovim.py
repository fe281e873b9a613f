"""Neovim's :GpuLitRun and :GpuLitUpdate against the real server (headless nvim)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import REPO

TEST = """\
// RUN: mlir-opt %s -split-input-file | FileCheck %s
// CHECK-LABEL: func.func @one
func.func @one() {
  return
}
// -----
// CHECK-LABEL: func.func @two
// CHECK: arith.muli
func.func @two(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
"""


def test_gpu_lit_run_and_update_in_neovim(tmp_path: Path) -> None:
    nvim = shutil.which(os.environ.get("NVIM", "nvim"))
    if nvim is None:
        if os.environ.get("GPU_LSP_REQUIRE_NVIM") == "1":
            pytest.fail("nvim is not installed (apt-get install -y neovim), and GPU_LSP_REQUIRE_NVIM=1")
        pytest.skip("nvim is not installed (apt-get install -y neovim)")
    test, out = tmp_path / "t.mlir", tmp_path / "out.json"
    test.write_text(TEST, encoding="utf-8")
    env = dict(os.environ, PLUGIN=str(REPO / "editors" / "neovim"), PY=sys.executable, TEST=str(test), OUT=str(out), LINE="10")
    init = REPO / "editors" / "neovim" / "test" / "lit_init.lua"
    proc = subprocess.run([nvim, "--headless", "--clean", "-u", str(init)], env=env, timeout=180, capture_output=True, text=True)
    result = json.loads(out.read_text(encoding="utf-8"))
    assert proc.returncode == 0 and result.get("error") is None, (result, proc.stderr[-2000:])
    assert result["first"] == {"passed": 1, "failed": 1}
    [item] = result["quickfix"]
    assert item["lnum"] == 8 and item["text"].startswith("RUN 1, chunk 2: ") and "expected: arith.muli" in item["text"]
    [diagnostic] = result["diagnostics"]
    assert diagnostic["lnum"] == 7 and diagnostic["message"].startswith("RUN 1, chunk 2: Couldn't match")
    buffer = result["buffer"]
    assert "// CHECK: arith.muli" not in buffer and "// CHECK-LABEL: func.func @one" in buffer
    assert "// CHECK:         %[[VAL_0:.*]] = arith.addi %[[ARG0]], %[[ARG0]] : i32" in buffer
