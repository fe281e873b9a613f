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
