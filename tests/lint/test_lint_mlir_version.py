"""`mlir-version` on the command line, in the configuration and in gpu-opt: the acceptance cases of issue #13."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_lsp.cli import gpu_opt

# One of each form: a launch with two dependencies (lowered since LLVM 23), copies, fills,
# allocations and frees with two (never), and a synchronous launch with a dependency (never).
FORMS = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index, %n: index, %h: memref<4xf32>, %d: memref<4xf32>, %v: f32) -> memref<?xf32> {
    %a = gpu.wait async
    %b = gpu.wait async
    %t1 = gpu.launch_func async [%a, %b] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %t2 = gpu.memcpy async [%t1, %b] %d, %h : memref<4xf32>, memref<4xf32>
    %t3 = gpu.memset async [%t2, %b] %d, %v : memref<4xf32>, f32
    %m, %t4 = gpu.alloc async [%t3, %b] (%n) : memref<?xf32>
    %t5 = gpu.dealloc async [%t4, %b] %d : memref<4xf32>
    gpu.launch_func [%t5] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return %m : memref<?xf32>
  }
}
"""


def _lowering(result) -> list[tuple[int, str, str]]:
    rows = json.loads(result.out)
    return [(r["location"]["row"], r["code"], r["message"].split("`")[1]) for r in rows if r["code"] in ("GPU201", "GPU202")]


@pytest.mark.real_registry
def test_version_23_and_22(gpu_lint, write) -> None:
    write("forms.mlir", FORMS)
    newest = _lowering(gpu_lint("--isolated", "--output-format", "json", "--mlir-version", "23", "forms.mlir"))
    assert newest == [
        (11, "GPU201", "gpu.memcpy"),
        (12, "GPU201", "gpu.memset"),
        (13, "GPU201", "gpu.alloc"),
        (14, "GPU201", "gpu.dealloc"),
        (15, "GPU202", "gpu.launch_func"),
    ]
    assert _lowering(gpu_lint("--isolated", "--output-format", "json", "forms.mlir")) == newest  # 23 is the default
    older = _lowering(gpu_lint("--isolated", "--output-format", "json", "--mlir-version", "22", "forms.mlir"))
    assert older == [(10, "GPU201", "gpu.launch_func"), *newest]


@pytest.mark.real_registry
def test_version_from_the_configuration_and_overridden_by_the_flag(gpu_lint, write) -> None:
    write("forms.mlir", FORMS)
    write("pyproject.toml", "[tool.gpu-lint]\nmlir-version = 22\n")
    assert (10, "GPU201", "gpu.launch_func") in _lowering(gpu_lint("--output-format", "json", "forms.mlir"))
    flagged = _lowering(gpu_lint("--output-format", "json", "--mlir-version", "23", "forms.mlir"))
    assert (10, "GPU201", "gpu.launch_func") not in flagged
    assert "mlir-version = 22" in gpu_lint("--show-settings").out


@pytest.mark.parametrize("value", ["24", "13", "x"])
def test_bad_versions_are_usage_errors(gpu_lint, write, value: str) -> None:
    result = gpu_lint("--mlir-version", value, ".")
    assert result.code == 2 and "--mlir-version" in result.err


def test_bad_version_in_the_configuration(gpu_lint, write) -> None:
    write("gpu-lint.toml", 'mlir-version = "22"\n')
    result = gpu_lint(".")
    assert result.code == 2
    assert "'mlir-version' must be an LLVM major version from 14 to 23 (got '22')" in result.err


def test_gpu_opt_takes_the_flag(tmp_path: Path) -> None:
    assert gpu_opt.parse_args(["--mlir-version", "22", "x.mlir"]).mlir_version == 22
    assert gpu_opt.parse_args(["-mlir-version=18"]).mlir_version == 18
    assert gpu_opt.parse_args([]).mlir_version == 23
    with pytest.raises(gpu_opt.UsageError, match="--mlir-version must be an LLVM major version"):
        gpu_opt.parse_args(["--mlir-version=99"])
