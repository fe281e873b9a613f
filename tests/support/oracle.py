"""Upstream MLIR as an oracle, through ../shared/tools/oracle.py and numba-cuda-mlir."""

from __future__ import annotations

import functools
import importlib.util
import stat
import sys
from pathlib import Path
from types import ModuleType

import pytest

from support import REPO, SHARED

ORACLE_PY = SHARED / "tools" / "oracle.py"

Diagnostic = tuple[int, int, str, str]  # (line, col, severity, message); 0, 0 when unlocated


def available() -> bool:
    """True when numba-cuda-mlir (the MLIR the oracle drives) is importable."""
    return importlib.util.find_spec("numba_cuda_mlir") is not None


def mlir_opt_standin(folder: Path) -> str:
    """An executable `mlir-opt` in `folder` that runs a pipeline through upstream MLIR and dumps the IR
    around each pass with MLIR's own printer (tests/support/mlir_opt_standin.py); skips the calling
    test when numba-cuda-mlir is not installed."""
    if not available():
        pytest.skip("numba-cuda-mlir is not installed (pip install -e '.[dev]')")
    script = REPO / "tests" / "support" / "mlir_opt_standin.py"
    path = folder / "mlir-opt"
    path.write_text(f"#!{sys.executable}\nimport runpy, sys\nsys.argv[1:1] = [{str(ORACLE_PY)!r}]\nrunpy.run_path({str(script)!r}, run_name='__main__')\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@functools.cache
def module() -> ModuleType:
    """shared/tools/oracle.py, loaded by path; fails the calling test when it is missing."""
    if not ORACLE_PY.is_file():
        pytest.fail(f"oracle not found at {ORACLE_PY} (../shared/tools/oracle.py beside the repo)",
                    pytrace=False)
    name = "_gpu_lsp_tests_oracle"
    spec = importlib.util.spec_from_file_location(name, ORACLE_PY)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up while the file executes
    spec.loader.exec_module(mod)
    return mod


@functools.cache
def backend():
    if not available():
        pytest.skip("numba-cuda-mlir is not installed (pip install -e '.[dev]')")
    backend = module().load_backend("numba-cuda-mlir")
    # One thread: MLIR's worker threads reporting diagnostics to the Python handler can
    # deadlock with the interpreter in a long test session.
    backend.threads = False
    return backend


def _run(text: str, pipeline: str | None, allow_unregistered: bool):
    o = module()
    oracle = o.Oracle(backend(), allow_unregistered, keep_op_notes=False)
    chunk = o.Chunk(text, 0, 1, 0)
    result = oracle.run_chunk(chunk, pipeline)
    diags: list[Diagnostic] = []
    for d in result.diags:
        for entry in (d, *d.notes):
            line, col, _ = entry.file_pos(chunk, oracle.buffer_name)
            diags.append((line, col, entry.severity, entry.message))
    return result, diags


def verify(text: str, allow_unregistered: bool = False) -> list[Diagnostic]:
    """Parse and verify one chunk; its diagnostics, notes included, in emission order."""
    return _run(text, None, allow_unregistered)[1]


def run_pass(
    text: str, pipeline: str, allow_unregistered: bool = False
) -> tuple[str | None, list[Diagnostic]]:
    """Run a pass pipeline (mlir-opt style names or a textual pipeline) on one chunk.

    Returns the printed module, or None when parsing or a pass failed, and the diagnostics.
    """
    result, diags = _run(text, pipeline, allow_unregistered)
    output = str(result.module.operation.get_asm()) if result.module is not None else None
    return output, diags
