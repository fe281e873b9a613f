"""On a GPU: the CuPy backend prints what the NumPy backend prints (skipped without a device)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import test_codegen
from helpers import printed_memrefs

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
    if "Memref" not in want.stdout:
        assert sorted(got.stdout.splitlines()) == sorted(want.stdout.splitlines())
        return
    a, b = printed_memrefs(want.stdout), printed_memrefs(got.stdout)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if x.dtype.kind == "i" and y.dtype.kind == "i":
            assert (x == y).all()
        else:
            np.testing.assert_allclose(y, x, rtol=1e-5, atol=1e-30)


def test_kernel_times_are_reported_with_cuda_events(tmp_path: Path) -> None:
    path = tmp_path / "cli.mlir"
    path.write_text(PROGRAMS["cli"])
    r = subprocess.run([sys.executable, "-m", "gpu_lsp.cli.gpu_run", "--backend", "cupy", "--time", str(path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "gpu-run: kernel inc (cupy): " in r.stderr
