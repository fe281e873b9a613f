"""Fixtures for the gpu-lint batch tests: running the CLI in a folder, snapshots, fake fixable rules."""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from gpu_lsp import __version__
from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Severity
from gpu_lsp.diagnostics.registry import FixAvailability, Rule
from gpu_lsp.cli import gpu_lint as gpu_lint_cli
from gpu_lsp.lint import check, rules
from gpu_lsp.text import Edit, TextRange

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("GPU_LINT_UPDATE_SNAPSHOTS") == "1"

VALID = """\
func.func @ok(%n: index) {
  %t = gpu.wait async
  gpu.wait [%t]
  return
}
"""

# One parse error (GPU003: use of an undefined value) in an otherwise valid file.
BROKEN = """\
func.func @broken() {
  gpu.wait [%missing]
  return
}
"""


@dataclass
class Result:
    """What one gpu-lint run printed and returned."""

    code: int
    out: str
    err: str


def normalise(text: str, root: Path) -> str:
    """Make output independent of the temporary folder and the package version."""
    text = text.replace(root.resolve().as_uri(), "file://<ROOT>").replace(str(root.resolve()), "<ROOT>")
    return text.replace(f'"version": "{__version__}"', '"version": "<VERSION>"')


def assert_snapshot(name: str, text: str) -> None:
    """Compare with tests/lint/snapshots/NAME; GPU_LINT_UPDATE_SNAPSHOTS=1 rewrites it."""
    path = SNAPSHOTS / name
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"snapshot {name} was missing and has been written; check it and run again")
    assert text == path.read_text(encoding="utf-8"), f"snapshot {name} differs (GPU_LINT_UPDATE_SNAPSHOTS=1 to update)"


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


# ---------------------------------------------------------------------------
# Fake rules with fixes, so that fixing can be tested whatever rules exist.

TRAILING = re.compile(r"[ \t]+(?=\r?$)", re.MULTILINE)
TODO = re.compile(r"^[ \t]*// TODO.*\n", re.MULTILINE)
BREAK = re.compile(r"// BREAK\n")


def fake_analyze(text: str, real: Callable[[str], list[Diagnostic]]) -> list[Diagnostic]:
    """The real diagnostics plus: GPU390 trailing whitespace (safe fix), GPU391 a `// TODO` line
    (unsafe fix: delete it), GPU392 `// BREAK` (a safe fix that deletes the file's last `}`, so
    that the file no longer parses), GPU393 a line longer than 40 columns (display-only fix)."""
    out = list(real(text))
    for m in TRAILING.finditer(text):
        rng = TextRange(m.start(), m.end())
        out.append(
            Diagnostic(
                "GPU390",
                "Line has trailing whitespace",
                rng,
                Severity.WARNING,
                Fix("Remove trailing whitespace", (Edit(rng, ""),), Applicability.SAFE),
            )
        )
    for m in TODO.finditer(text):
        rng = TextRange(m.start(), m.end())
        out.append(
            Diagnostic(
                "GPU391",
                "Line has a `TODO` comment",
                rng,
                Severity.INFO,
                Fix("Delete the comment", (Edit(rng, ""),), Applicability.UNSAFE),
            )
        )
    for m in BREAK.finditer(text):
        brace = text.rfind("}")
        out.append(
            Diagnostic(
                "GPU392",
                "File has a `BREAK` marker",
                TextRange(m.start(), m.end() - 1),
                Severity.WARNING,
                Fix("Delete the last brace", (Edit(TextRange(brace, brace + 1), ""),), Applicability.SAFE),
            )
        )
    start = 0
    for line in text.split("\n"):
        if len(line) > 40:
            rng = TextRange(start + 40, start + len(line))
            out.append(
                Diagnostic(
                    "GPU393",
                    "Line is longer than 40 columns",
                    rng,
                    Severity.HINT,
                    Fix("Wrap the line", (Edit(TextRange(rng.start, rng.start), "\n"),), Applicability.DISPLAY_ONLY),
                )
            )
        start += len(line) + 1
    return out


@pytest.fixture
def fake_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Install `fake_analyze` (workers forked afterwards inherit it)."""
    real = check.analyze
    monkeypatch.setattr(check, "analyze", lambda text: fake_analyze(text, real))


def _rule(code: str, name: str, severity: Severity, fix: FixAvailability) -> Rule:
    words = name.replace("-", " ")
    return Rule(code, name, severity, f"## What it does\nChecks for {words}.\n\n## Why is this bad?\nIt is.", fix=fix)


FAKE_RULES = {
    rule.code: rule
    for rule in [
        _rule("GPU001", "unbalanced-bracket", Severity.ERROR, FixAvailability.NONE),
        _rule("GPU002", "custom-syntax", Severity.ERROR, FixAvailability.NONE),
        _rule("GPU003", "undefined-value", Severity.ERROR, FixAvailability.NONE),
        _rule("GPU006", "unknown-op", Severity.HINT, FixAvailability.NONE),
        _rule("GPU201", "redundant-join", Severity.WARNING, FixAvailability.SOMETIMES),
        _rule("GPU203", "unnamed-async-token", Severity.ERROR, FixAvailability.ALWAYS),
        _rule("GPU301", "wait-on-nothing", Severity.INFO, FixAvailability.NONE),
        _rule("GPU390", "trailing-whitespace", Severity.WARNING, FixAvailability.ALWAYS),
        _rule("GPU391", "todo-comment", Severity.INFO, FixAvailability.ALWAYS),
        _rule("GPU392", "break-marker", Severity.WARNING, FixAvailability.ALWAYS),
        _rule("GPU393", "long-line", Severity.HINT, FixAvailability.ALWAYS),
    ]
}


@pytest.fixture(autouse=True)
def fixed_registry(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule metadata from FAKE_RULES, so that names, selectors and snapshots do not change as rules are
    added; a test marked `real_registry` sees the real one."""
    if request.node.get_closest_marker("real_registry") is None:
        monkeypatch.setattr(rules, "_registry", lambda: FAKE_RULES)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_registry: use the real rule registry, not tests/lint's fixed one")
