"""`:GpuLspGraph` in headless Neovim against the real server: the summary buffer and the page."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from support import REPO
from test_lsp_neovim import _nvim

INIT = REPO / "editors" / "neovim" / "test" / "graph_init.lua"
RACE = REPO / "tests" / "fixtures" / "rules" / "GPU410.mlir"


def test_graph_command_shows_streams_conflicts_and_writes_the_page(tmp_path: Path) -> None:
    source = tmp_path / "race.mlir"
    source.write_text(RACE.read_text().split("// -----\n")[3])
    out = tmp_path / "graph.json"
    env = dict(os.environ, GPU_LSP_CMD=json.dumps([sys.executable, "-m", "gpu_lsp"]), GPU_LSP_OUT=str(out))
    proc = subprocess.run([_nvim(), "--headless", "--clean", "-u", str(INIT), str(source)], env=env, capture_output=True, text=True, timeout=120, check=False)
    result = json.loads(out.read_text())
    assert proc.returncode == 0, result
    assert result["summary"] == [
        "@main: 2 stream(s), 5 op(s)",
        "  host: gpu.wait [%t2, %t3]",
        "  stream 0: %t0 = gpu.wait async -> %t1 = gpu.launch_func @kernels::@fill [GPU207] -> %t3 = gpu.memcpy %h, %v [GPU410]",
        "  stream 1: %t2 = gpu.launch_func @kernels::@fill [GPU410]",
        "  conflict on %a: %t1 = gpu.launch_func @kernels::@fill <-> %t2 = gpu.launch_func @kernels::@fill",
        "  conflict on %a: %t2 = gpu.launch_func @kernels::@fill <-> %t3 = gpu.memcpy %h, %v",
    ]
    assert result["page_head"] == "<!DOCTYPE html>"


TWO_FUNCTIONS = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%buf: memref<4xf32>, %v: f32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %buf[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %v = arith.constant 2.5 : f32
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>, %v : f32)
    %t3 = gpu.dealloc async [%t2] %d : memref<4xf32>
    gpu.wait [%t3]
    return
  }
  func.func @other(%d: memref<4xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32>, %v : f32)
    gpu.wait [%t1]
    return
  }
}
"""


def test_graph_lens_runs_the_plugin_command_for_its_function(tmp_path: Path) -> None:
    """The server's "Show async graph" lens, run as a user does (`vim.lsp.codelens.run()`, picking it
    next to "Run on GPU" on @main), executes the plugin's own command: the graph of @main only."""
    source = tmp_path / "two.mlir"
    source.write_text(TWO_FUNCTIONS)
    out = tmp_path / "graph.json"
    env = dict(os.environ, GPU_LSP_CMD=json.dumps([sys.executable, "-m", "gpu_lsp"]), GPU_LSP_OUT=str(out), GPU_LSP_VIA_LENS="1")
    proc = subprocess.run([_nvim(), "--headless", "--clean", "-u", str(INIT), str(source)], env=env, capture_output=True, text=True, timeout=120, check=False)
    result = json.loads(out.read_text())
    assert proc.returncode == 0, result
    assert result["lenses"] == ["▶ Run on GPU", "Show async graph"]
    # @main only: @other (a lens of its own) is not drawn.
    assert result["summary"] == [
        "@main: 1 stream(s), 5 op(s)",
        "  host: gpu.wait [%t3]",
        "  stream 0: %t0 = gpu.wait async -> %d, %t1 = gpu.alloc -> %t2 = gpu.launch_func @kernels::@fill -> %t3 = gpu.dealloc %d",
    ]
    assert result["page_head"] == "<!DOCTYPE html>"
