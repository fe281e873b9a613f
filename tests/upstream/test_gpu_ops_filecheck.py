"""Upstream's Dialect/GPU/ops.mlir: every RUN line (print, print twice, generic form read back) passes its whole-file FileCheck with gpu-opt."""

from __future__ import annotations

import os
import subprocess

import pytest
from chunks import CORPUS, GPU_OPT, REPO, command_for, run_lines
from support.corpus import require_corpus

OPS = CORPUS / "ops.mlir"


def _runs() -> list[str]:
    return run_lines(OPS.read_text(encoding="utf-8")) if OPS.is_file() else []


@pytest.mark.parametrize("index", range(3))
def test_run_line_passes_filecheck(index: int) -> None:
    require_corpus()
    runs = _runs()
    assert len(runs) == 3, runs
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = command_for(runs[index], str(OPS), GPU_OPT)
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
