"""Neovim's :GpuLitRun fills the quickfix list with the failing chunks at their CHECK lines (headless nvim)."""

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


def test_gpu_lit_run_fills_the_quickfix_list(tmp_path: Path) -> None:
    nvim = shutil.which(os.environ.get("NVIM", "nvim"))
    if nvim is None:
        if os.environ.get("GPU_LSP_REQUIRE_NVIM") == "1":
            pytest.fail("nvim is not installed (apt-get install -y neovim), and GPU_LSP_REQUIRE_NVIM=1")
        pytest.skip("nvim is not installed (apt-get install -y neovim)")
    test, out = tmp_path / "t.mlir", tmp_path / "qf.json"
    test.write_text(TEST, encoding="utf-8")
    env = dict(os.environ, PLUGIN=str(REPO / "editors" / "neovim"), PY=sys.executable, TEST=str(test), OUT=str(out))
    init = REPO / "editors" / "neovim" / "test" / "lit_init.lua"
    subprocess.run([nvim, "--headless", "--clean", "-u", str(init)], env=env, timeout=120, check=True, capture_output=True)
    [item] = json.loads(out.read_text(encoding="utf-8"))
    assert item["lnum"] == 8
    assert item["text"].startswith(f"RUN 1, chunk 2: {test}:8: error:")
    assert "expected: arith.muli" in item["text"] and "closest output line" in item["text"]
