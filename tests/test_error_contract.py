"""The error contract of the four tools (README, "Exit status"): every tool × every kind of bad input, bad option,
input/output failure and Ctrl-C ends in one line `...error: ...` and the documented status, never a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gpu_lsp import __main__ as gpu_lsp_main
from gpu_lsp.cli import gpu_lint, gpu_opt, gpu_run
from gpu_lsp.cli.common import EXIT_INTERRUPTED, EXIT_USAGE

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = str(REPO / "examples" / "async_pipeline.mlir")
# Each tool that reads one file, as its argument list before the file.
TOOLS: dict[str, tuple[Callable[[list[str]], int], list[str]]] = {
    "gpu-lint": (gpu_lint.main, []),
    "gpu-lint graph": (gpu_lint.main, ["graph"]),
    "gpu-lint format": (gpu_lint.main, ["format"]),
    "gpu-lint merge-sarif": (gpu_lint.main, ["merge-sarif"]),
    "gpu-opt": (gpu_opt.main, []),
    "gpu-opt --lit": (gpu_opt.main, ["--lit"]),
    "gpu-run": (gpu_run.main, ["--backend", "numpy"]),
}
BAD_INPUTS = {
    "missing": None,
    "latin-1": "// caf\u00e9\n".encode("latin-1"),
    "binary": b"\x7fELF\x00\x01\x02",
    "folder": "folder",
}
# What each tool says about each bad input (after `PROG: error: ` or `error: `).
SAYS = {
    "missing": ("No such file or directory", "no such file or folder"),
    "latin-1": ("invalid UTF-8 at byte 6",),
    "binary": ("binary file (contains NUL bytes)",),
    "folder": ("is a folder, not a file",),
}
BAD_OPTIONS = {
    "gpu-lint": ["--no-such-option", EXAMPLE],
    "gpu-lint rule": ["rule", "--no-such-option"],
    "gpu-lint graph": ["graph", "--format", "png", EXAMPLE],
    "gpu-lint format": ["format", "--no-such-option", EXAMPLE],
    "gpu-lint merge-sarif": ["merge-sarif", "--no-such-option", EXAMPLE],
    "gpu-opt": ["-gpu-kernel-outlining=foo=bar", EXAMPLE],
    "gpu-opt --lit": ["--lit", "--no-such-option", EXAMPLE],
    "gpu-run": ["--timeout", "0", EXAMPLE],
    "gpu-lsp": ["--tcp"],
}
MAINS: dict[str, Callable[[list[str]], int]] = {
    "gpu-lint": gpu_lint.main,
    "gpu-lint rule": gpu_lint.main,
    "gpu-lint graph": gpu_lint.main,
    "gpu-lint format": gpu_lint.main,
    "gpu-lint merge-sarif": gpu_lint.main,
    "gpu-opt": gpu_opt.main,
    "gpu-opt --lit": gpu_opt.main,
    "gpu-run": gpu_run.main,
    "gpu-lsp": gpu_lsp_main.main,
}
PROGS = ("", "gpu-lint", "gpu-lint graph", "gpu-lint format", "gpu-lint merge-sarif", "gpu-opt", "gpu-run", "gpu-lsp")


def _one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].split(": error: ")[0] in PROGS or lines[0].startswith("error: "), err
    return lines[0]


def _bad_input(tmp_path: Path, kind: str) -> str:
    path = tmp_path / f"{kind}.mlir"
    content = BAD_INPUTS[kind]
    if content == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    return str(path)


# A folder is what gpu-lint checks and formats (recursively), not bad input.
FOLDER_TOOLS = ("gpu-lint", "gpu-lint format")
CASES = [(tool, kind) for tool in sorted(TOOLS) for kind in sorted(BAD_INPUTS) if not (tool in FOLDER_TOOLS and kind == "folder")]


@pytest.mark.parametrize("tool, kind", CASES)
def test_bad_input(tool: str, kind: str, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    main, before = TOOLS[tool]
    status = main([*before, _bad_input(tmp_path, kind)])
    captured = capsys.readouterr()
    line = _one_error_line(captured.err)
    assert status == EXIT_USAGE and any(s in line for s in SAYS[kind]), line
    assert "All checks passed!" not in captured.out


@pytest.mark.parametrize("tool", sorted(BAD_OPTIONS))
def test_bad_option(tool: str, capsys) -> None:
    status = MAINS[tool](BAD_OPTIONS[tool])
    captured = capsys.readouterr()
    line = _one_error_line(captured.err)
    assert status == EXIT_USAGE and captured.out == "" and line.endswith("--help)"), line


@pytest.mark.parametrize(
    "tool, argv",
    [
        ("gpu-lint", ["-o", "/missing-folder/report.txt", EXAMPLE]),
        ("gpu-lint graph", ["graph", EXAMPLE, "-o", "/missing-folder/g.dot"]),
        ("gpu-opt", [EXAMPLE, "-o", "/missing-folder/out.mlir"]),
        ("gpu-run", ["--backend", "numpy", "--trace", "/missing-folder/t.json", EXAMPLE]),
    ],
)
def test_an_output_that_cannot_be_written(tool: str, argv: list[str], capsys) -> None:
    status = MAINS[tool](argv)
    line = _one_error_line(capsys.readouterr().err)
    assert status == EXIT_USAGE and "cannot write /missing-folder/" in line, line


def test_merged_sarif_that_cannot_be_written(tmp_path: Path, capsys) -> None:
    shard = str(tmp_path / "shard.sarif")
    assert gpu_lint.main([EXAMPLE, "--isolated", "--output-format", "sarif", "-o", shard]) in (0, 1)
    capsys.readouterr()
    status = gpu_lint.main(["merge-sarif", shard, "-o", "/missing-folder/merged.sarif"])
    line = _one_error_line(capsys.readouterr().err)
    assert (status, line) == (EXIT_USAGE, "gpu-lint merge-sarif: error: cannot write /missing-folder/merged.sarif: No such file or directory")


# Prints an empty line (the test's sign that it runs), then loops for ever.
ENDLESS = """\
func.func private @printNewline()
func.func @main() {
  call @printNewline() : () -> ()
  %t = arith.constant true
  scf.while : () -> () {
    scf.condition(%t)
  } do {
    scf.yield
  }
  return
}
"""


def _wait_until_busy(proc: subprocess.Popen, tool: str) -> None:
    """Until the tool runs its work (not still importing): gpu-run printed the program's first line, gpu-lint
    started its worker processes."""
    assert proc.stdout is not None
    if tool == "gpu-run":
        assert proc.stdout.readline() == "\n"
        return
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    deadline = time.monotonic() + 60
    while not children.read_text().split():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)


@pytest.mark.parametrize("tool", ["gpu-run", "gpu-lint"])
def test_ctrl_c_is_one_line_and_130(tool: str, tmp_path: Path) -> None:
    """SIGINT to a running tool: `PROG: error: interrupted`, exit status 130 (a shell's 128 + SIGINT)."""
    if tool == "gpu-run":
        (tmp_path / "endless.mlir").write_text(ENDLESS)
        argv = [sys.executable, "-m", "gpu_lsp.cli.gpu_run", "--backend", "numpy", "endless.mlir"]
    else:
        for i in range(200):
            (tmp_path / f"f{i:03}.mlir").write_text(Path(EXAMPLE).read_text())
        argv = [sys.executable, "-m", "gpu_lsp.cli.gpu_lint", "--jobs", "2", "."]
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    _wait_until_busy(proc, tool)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (EXIT_INTERRUPTED, f"{tool}: error: interrupted\n")
