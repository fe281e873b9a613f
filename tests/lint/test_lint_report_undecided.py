"""`report-undecided`: an info per kernel access GPU416/GPU417 cannot decide, off by default (issue #24)."""

from __future__ import annotations

import json

import pytest

# No launch site and no known sizes: whether the threads race on %buf or index past 64 depends on the block size.
KERNEL = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%buf: memref<64xf32>) kernel {
      %f = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      memref.store %f, %buf[%tid] : memref<64xf32>
      gpu.return
    }
  }
}
"""


def _infos(result) -> list[tuple[int, str, str]]:
    rows = json.loads(result.out)
    return [(r["location"]["row"], r["code"], r["message"]) for r in rows if r["code"] in ("GPU416", "GPU417")]


@pytest.mark.real_registry
def test_undecided_accesses_are_silent_by_default_and_infos_on_request(gpu_lint, write) -> None:
    write("k.mlir", KERNEL)
    assert _infos(gpu_lint("--isolated", "--output-format", "json", "k.mlir")) == []
    found = _infos(gpu_lint("--isolated", "--output-format", "json", "--report-undecided", "k.mlir"))
    assert [(row, code) for row, code, _ in found] == [(6, "GPU416"), (6, "GPU417")]
    assert all("undecided" in m and "the launch size is not known (block (?, ?, ?), grid (?, ?, ?))" in m for _, _, m in found)
    rows = json.loads(gpu_lint("--isolated", "--output-format", "json", "--report-undecided", "k.mlir").out)
    assert {r["severity"] for r in rows if r["code"] in ("GPU416", "GPU417")} == {"info"}


@pytest.mark.real_registry
def test_report_undecided_from_the_configuration(gpu_lint, write) -> None:
    write("k.mlir", KERNEL)
    write("pyproject.toml", "[tool.gpu-lint]\nreport-undecided = true\n")
    assert [code for _, code, _ in _infos(gpu_lint("--output-format", "json", "k.mlir"))] == ["GPU416", "GPU417"]
    write("pyproject.toml", "[tool.gpu-lint]\nreport-undecided = 1\n")
    bad = gpu_lint("--output-format", "json", "k.mlir")
    assert bad.code == 2 and "'report-undecided' must be" in bad.err
