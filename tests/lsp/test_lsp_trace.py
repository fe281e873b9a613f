"""The opt-in timeline of an open (`lsp/trace.py`): one line per mark when a file is named, nothing otherwise."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpu_lsp.lsp import trace


def test_a_mark_appends_a_timed_line_of_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "trace.txt"
    monkeypatch.setattr(trace, "_PATH", str(path))
    trace.mark("server: parsed")
    trace.mark("worker: running")
    lines = [line.split(" ", 5) for line in path.read_text().splitlines()]
    assert [(pid, event) for _, pid, _, _, _, event in lines] == [(str(os.getpid()), "server: parsed"), (str(os.getpid()), "worker: running")]
    assert float(lines[0][0]) <= float(lines[1][0])
    assert float(lines[0][2]) <= float(lines[1][2])  # the process's CPU time


def test_marks_write_nothing_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace, "_PATH", None)
    monkeypatch.chdir(tmp_path)
    trace.mark("server: parsed")
    assert not trace.enabled() and list(tmp_path.iterdir()) == []
