"""Upstream's CUDA integration tests print what their CHECK lines expect under `gpu-run --backend numpy`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.corpus import require_corpus

INTEGRATION = "upstream/mlir/test/Integration/GPU/CUDA"
EXPECTED = ["all-reduce-and.mlir", "printf.mlir", "shuffle.mlir", "two-modules.mlir"]


def filecheck() -> str:
    found = shutil.which("filecheck") or str(Path(sys.executable).with_name("filecheck"))
    if not Path(found).exists():
        pytest.fail("the `filecheck` program (PyPI package filecheck) is not installed", pytrace=False)
    return found


def integration_files() -> list[Path]:
    folder = require_corpus() / INTEGRATION
    files = sorted(folder.glob("*.mlir"))
    names = [f.name for f in files]
    missing = [n for n in EXPECTED if n not in names]
    if missing:
        pytest.fail(f"integration tests missing from {folder}: {', '.join(missing)}", pytrace=False)
    return files


def test_the_four_integration_tests_are_there() -> None:
    assert [f.name for f in integration_files()] == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_integration_test_passes_filecheck(name: str) -> None:
    path = require_corpus() / INTEGRATION / name
    if not path.exists():
        pytest.fail(f"{path} is missing", pytrace=False)
    run = subprocess.run(
        [sys.executable, "-m", "gpu_lsp.cli.gpu_run", "--backend", "numpy", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr, run.stderr
    check = subprocess.run([filecheck(), str(path)], input=run.stdout, capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, f"FileCheck failed:\n{check.stderr}\n--- output ---\n{run.stdout}"
