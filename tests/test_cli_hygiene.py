"""Every console script: `--version`, `gpu-lsp --help`, and a quiet end when the reader closes the pipe."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_lsp import __version__
from gpu_lsp.cli.common import EXIT_BROKEN_PIPE
from gpu_lsp.diagnostics.mlir_versions import NEWEST

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = {
    "gpu-lint": "gpu_lsp.cli.gpu_lint",
    "gpu-opt": "gpu_lsp.cli.gpu_opt",
    "gpu-run": "gpu_lsp.cli.gpu_run",
    "gpu-lsp": "gpu_lsp",
}
ENV = dict(os.environ, PYTHONPATH=str(REPO))


def _run(module: str, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", module, *args], capture_output=True, text=True, timeout=60, env=ENV, cwd=REPO, **kwargs
    )


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_version(name: str) -> None:
    done = _run(SCRIPTS[name], "--version", stdin=subprocess.DEVNULL)
    # The build the tool runs (the checkout's sources, under `make test-compiled` too: ENV puts them first).
    probe = subprocess.run(
        [sys.executable, "-c", "import gpu_lsp; print(gpu_lsp.compiled())"], capture_output=True, text=True, timeout=60, env=ENV, cwd=REPO
    )
    build = "compiled" if probe.stdout.strip() == "True" else "pure Python"
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{name} {__version__} (MLIR up to LLVM {NEWEST}, {build})\n", "")


def test_gpu_lsp_help_prints_usage_instead_of_serving() -> None:
    done = _run("gpu_lsp", "--help", stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and done.stdout.startswith("usage: gpu-lsp") and "--version" in done.stdout


def test_gpu_lsp_rejects_unknown_options() -> None:
    done = _run("gpu_lsp", "--tcp", stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "unrecognized arguments: --tcp" in done.stderr


def test_a_closed_pipe_ends_quietly() -> None:
    """`gpu-lint --output-format json examples | head -1`: no traceback, the shell's SIGPIPE status."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gpu_lsp.cli.gpu_lint", "--output-format", "json", "--jobs", "1", "examples", "tests/fixtures"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        cwd=REPO,
    )
    assert proc.stdout.read(1) == b"["
    proc.stdout.close()  # the reader goes away before gpu-lint finished writing
    err = proc.stderr.read().decode()
    assert proc.wait(60) == EXIT_BROKEN_PIPE and "Traceback" not in err and err == "", err
