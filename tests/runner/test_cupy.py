"""On a GPU: the CuPy backend prints what the NumPy backend prints (skipped without a device)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import test_codegen
from helpers import assert_same_output

pytestmark = pytest.mark.gpu

PROGRAMS = test_codegen.programs()


def gpu_run(path: Path, backend: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpu_lsp.cli.gpu_run", "--backend", backend, "--timeout", "120", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_cupy_backend_matches_numpy_backend(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.mlir"
    path.write_text(PROGRAMS[name])
    want = gpu_run(path, "numpy")
    got = gpu_run(path, "cupy")
    assert want.returncode == 0, want.stderr
    assert got.returncode == 0, got.stderr
    assert got.stderr == want.stderr
    assert_same_output(want.stdout, got.stdout)


def test_kernel_times_are_reported_with_cuda_events(tmp_path: Path) -> None:
    path = tmp_path / "cli.mlir"
    path.write_text(PROGRAMS["cli"])
    r = subprocess.run([sys.executable, "-m", "gpu_lsp.cli.gpu_run", "--backend", "cupy", "--time", str(path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "gpu-run: kernel inc (cupy): " in r.stderr
