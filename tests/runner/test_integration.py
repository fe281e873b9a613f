"""Upstream's GPU integration programs (CUDA, ROCm, SYCL, Level Zero) print what their CHECK lines expect under the NumPy backend."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import SHARED

from gpu_lsp.runner import run_file

INTEGRATION = "upstream/mlir/test/Integration/GPU"
CORPORA = ("corpus", "corpus-extended")

# Programs that cannot run on the NumPy backend, with why and the diagnostic gpu-run gives instead.
EXCLUDED = {
    "ROCM/WMMA/wmma_f16_16_16_16_f16.mlir": (
        "AMD matrix cores (WMMA through gpu.subgroup_mma_*)",
        "'gpu.subgroup_mma_load_matrix' is not supported by the runner",
    ),
    "ROCM/WMMA/wmma_f32_16_16_16_f16.mlir": (
        "AMD matrix cores (WMMA through gpu.subgroup_mma_*)",
        "'gpu.subgroup_mma_load_matrix' is not supported by the runner",
    ),
    "ROCM/vector-transferops.mlir": (
        "AMD buffer instructions (amdgpu.raw_buffer_load/store)",
        "'amdgpu.raw_buffer_load' on vector<4xf32> values in a kernel is not supported by the runner",
    ),
    "ROCM/gpu-lower-to-rocdl-pipeline.mlir": (
        "AMD scheduling barrier (amdgpu.sched_barrier)",
        "'amdgpu.sched_barrier' is not supported by the runner",
    ),
    "ROCM/assert.mlir": (
        "written in gpu.printf's old syntax (no ',' before the arguments), which upstream MLIR rejects today",
        "custom op 'gpu.printf' expected ',' between the format string and the arguments",
    ),
}


def programs() -> dict[str, Path]:
    """Every integration program of the shared corpora, by its path under Integration/GPU."""
    found: dict[str, Path] = {}
    for corpus in CORPORA:
        folder = SHARED / corpus / INTEGRATION
        for path in sorted(folder.rglob("*.mlir")):
            found[path.relative_to(folder).as_posix()] = path
    return found


PROGRAMS = programs()
RUNNABLE = sorted(set(PROGRAMS) - set(EXCLUDED))


def filecheck() -> str:
    found = shutil.which("filecheck") or str(Path(sys.executable).with_name("filecheck"))
    if not Path(found).exists():
        pytest.fail("the `filecheck` program (PyPI package filecheck) is not installed", pytrace=False)
    return found


def collapse_spaces(text: str) -> str:
    """LLVM FileCheck's default: every run of horizontal whitespace counts as one space."""
    return re.sub(r"[ \t]+", " ", text)


def test_every_backend_folder_is_there() -> None:
    if not PROGRAMS:
        pytest.fail(f"no integration programs under ../shared/{{{','.join(CORPORA)}}}/{INTEGRATION}", pytrace=False)
    assert {name.split("/")[0] for name in PROGRAMS} == {"CUDA", "ROCM", "SYCL", "LevelZero"}
    assert set(EXCLUDED) <= set(PROGRAMS)
    assert len(RUNNABLE) == 16


@pytest.mark.parametrize("name", RUNNABLE)
def test_integration_program_passes_filecheck(name: str, tmp_path: Path) -> None:
    path = PROGRAMS[name]
    run = run_file(str(path), backend="numpy")
    assert run.exit_code == 0, run.stderr
    assert "warning" not in run.stderr, run.stderr
    checks = tmp_path / path.name
    checks.write_text(collapse_spaces(path.read_text(encoding="utf-8")), encoding="utf-8")
    check = subprocess.run(
        [filecheck(), str(checks)], input=collapse_spaces(run.stdout), capture_output=True, text=True, timeout=60
    )
    assert check.returncode == 0, f"FileCheck failed:\n{check.stderr}\n--- output ---\n{run.stdout}"


@pytest.mark.parametrize("name", sorted(EXCLUDED))
def test_excluded_program_gets_one_located_diagnostic(name: str) -> None:
    _reason, message = EXCLUDED[name]
    path = PROGRAMS[name]
    run = run_file(str(path), backend="numpy")
    assert run.exit_code == 1
    errors = [line for line in run.stderr.splitlines() if ": error: " in line]
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: ", errors[0]), run.stderr
    assert message in errors[0], run.stderr


def test_the_cli_runs_an_integration_program() -> None:
    path = PROGRAMS["CUDA/shuffle.mlir"]
    run = subprocess.run(
        [sys.executable, "-m", "gpu_lsp.cli.gpu_run", "--backend", "numpy", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    expected = run_file(str(path), backend="numpy").stdout
    assert without_addresses(run.stdout) == without_addresses(expected)


def without_addresses(text: str) -> str:
    return re.sub(r"base@ = 0x[0-9a-f]+", "base@ = ADDRESS", text)
