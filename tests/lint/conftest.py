"""Fixtures for the gpu-lint batch tests: the console script in a folder, files, fake rules, a fixed rule table."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from lintkit import FAKE_RULES, Result, fake_analyze, normalise

from gpu_lsp.cli import gpu_lint as gpu_lint_cli
from gpu_lsp.lint import check, rules


@pytest.fixture
def gpu_lint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Run the `gpu-lint ARGS` console script in `tmp_path` (or `cwd=`), with optional standard input bytes."""

    def run(*argv: str, cwd: Path | None = None, stdin: bytes | None = None) -> Result:
        out, err = io.StringIO(), io.StringIO()
        where = cwd or tmp_path
        with monkeypatch.context() as patch:
            patch.chdir(where)
            patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin or b"")))
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = gpu_lint_cli.main(list(argv))
        return Result(code, normalise(out.getvalue(), where), normalise(err.getvalue(), where))

    return run


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str | bytes], Path]:
    """Write a file below tmp_path (folders created), returning its path."""

    def put(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return put


@pytest.fixture
def fake_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Install `fake_analyze` (workers forked afterwards inherit it)."""
    real = check.analyze
    monkeypatch.setattr(check, "analyze", lambda text, **version: fake_analyze(text, partial(real, **version)))


@pytest.fixture(autouse=True)
def fixed_registry(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule metadata from FAKE_RULES, so that names, selectors and snapshots do not change as rules are
    added; a test marked `real_registry` sees the real one."""
    if request.node.get_closest_marker("real_registry") is None:
        monkeypatch.setattr(rules, "_registry", lambda: FAKE_RULES)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_registry: use the real rule registry, not tests/lint's fixed one")
