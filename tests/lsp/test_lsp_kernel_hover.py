"""Hover on a kernel lists which accesses the kernel checks prove race-free and in bounds."""

from __future__ import annotations

from lsp_samples import at, snapshot

from gpu_lsp.lsp.hover import hover

TEXT = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%buf: memref<64xf32>, %small: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %v = memref.load %buf[%tid] : memref<64xf32>
      memref.store %v, %buf[%tid] : memref<64xf32>
      memref.store %v, %small[%c0] : memref<16xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64xf32>, %b: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>, %b : memref<16xf32>)
    return
  }
}
"""


def test_kernel_hover_counts_proven_and_racing_accesses() -> None:
    result = hover(snapshot(TEXT), at(TEXT, "gpu.func", 1))
    assert result is not None
    md = result.markdown
    assert "Kernel checks (3 accesses" in md
    assert "- proven race-free: 2/3 (line 6, 7)" in md
    assert "- racing (GPU416): 1/3 (line 8)" in md
    assert "- proven in bounds: 3/3" in md


def test_hover_on_a_host_function_has_no_kernel_checks() -> None:
    result = hover(snapshot(TEXT), at(TEXT, "func.func", 1))
    assert result is not None and "Kernel checks" not in result.markdown
