"""What every report format shares: 1-based positions, severity names, the summary line."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Severity
from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.discovery import Problem
from gpu_lsp.text import LineIndex, TextRange


@dataclass(frozen=True)
class Position:
    """A 1-based line and column (columns count code points, like ruff's)."""

    row: int
    column: int


@dataclass
class Context:
    """What a format may need besides the reports: problems, the fix level, where paths are relative to, rule links."""

    problems: list[Problem] = field(default_factory=list)
    fix_level: Applicability = Applicability.SAFE
    cwd: Path = field(default_factory=Path.cwd)
    fixing: bool = False
    docs_url: str = ""  # the `docs-url` setting: base of the rule links (none when empty)


class Positions:
    """Converts a report's offsets to 1-based positions (one line table per file)."""

    def __init__(self, text: str) -> None:
        self.index = LineIndex(text)

    def at(self, offset: int) -> Position:
        line, column = self.index.position(offset)
        return Position(line + 1, column + 1)

    def span(self, rng: TextRange) -> tuple[Position, Position]:
        return self.at(rng.start), self.at(rng.end)


def located(reports: list[FileReport]) -> Iterator[tuple[FileReport, Diagnostic, Positions]]:
    """Every diagnostic with its report and the report's position converter, in report order."""
    for report in reports:
        if not report.diagnostics:
            continue
        positions = Positions(report.text or "")
        for diagnostic in report.diagnostics:
            yield report, diagnostic, positions


def fix_applies(diagnostic: Diagnostic, level: Applicability) -> bool:
    """Whether `--fix` (at `level`) would apply the diagnostic's fix."""
    return diagnostic.fix is not None and bool(diagnostic.fix.edits) and diagnostic.fix.applicability >= level


def all_problems(reports: list[FileReport], context: Context) -> list[Problem]:
    """Discovery problems, then each file's, in report order."""
    return [*context.problems, *(r.problem for r in reports if r.problem is not None)]


_PLURALS = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "info", Severity.HINT: "hints"}


def by_severity(diagnostics: Iterable[Diagnostic]) -> str:
    """`1 error, 6 warnings, 2 hints`: the counts per severity, most severe first (empty when none)."""
    return severity_counts(Counter(d.severity for d in diagnostics))


def severity_counts(counts: Counter[Severity]) -> str:
    """`1 error, 6 warnings, 2 hints` from counts per severity, most severe first (empty when none)."""
    return ", ".join(
        f"{counts[s]} {s.label if counts[s] == 1 else _PLURALS[s]}" for s in sorted(counts, reverse=True)
    )


def fix_count(counts: Counter[Severity]) -> str:
    """What fixes applied to: `3 diagnostics (1 error, 1 warning, 1 hint)`, `1 error`."""
    total = sum(counts.values())
    if len(counts) == 1:
        return severity_counts(counts)
    return f"{total} diagnostic{'s' if total != 1 else ''} ({severity_counts(counts)})"


def summary(reports: list[FileReport], context: Context) -> str:
    """The closing lines: `Found 7 diagnostics: 1 error, 6 warnings.` (with what was fixed) and how many `--fix` would fix."""
    remaining = [d for r in reports for d in r.diagnostics]
    fixed = sum(sum(r.applied.values()) for r in reports)
    found = len(remaining) + fixed
    if found == 0:
        # A file that could not be checked is an error line of its own, never "passed".
        failed = any(p.level == "error" for p in all_problems(reports, context))
        return "" if failed else "All checks passed!\n"
    noun = "diagnostic" if found == 1 else "diagnostics"
    counts = by_severity(remaining)
    if fixed:
        rest = f"{len(remaining)} remaining: {counts}" if remaining else "0 remaining"
        lines = [f"Found {found} {noun} ({fixed} fixed, {rest})."]
    else:
        lines = [f"Found {found} {noun}: {counts}."]
    fixable = sum(1 for r in reports for d in r.diagnostics if fix_applies(d, context.fix_level))
    if fixable and not context.fixing:
        lines.append(f"[*] {fixable} fixable with the `--fix` option.")
    if not context.fixing and context.fix_level is Applicability.SAFE:
        unsafe = sum(
            1
            for r in reports
            for d in r.diagnostics
            if fix_applies(d, Applicability.UNSAFE) and not fix_applies(d, Applicability.SAFE)
        )
        if unsafe:
            lines.append(
                f"{unsafe} hidden fix{'es' if unsafe > 1 else ''} can be enabled with the `--unsafe-fixes` option."
            )
    return "\n".join(lines) + "\n"
