"""Helpers for the gpu-lint batch tests: sample files, snapshots, fake rules with fixes, a fixed rule table."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpu_lsp import __version__
from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Severity
from gpu_lsp.diagnostics.registry import FixAvailability, Rule
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
