"""Diagnostics, fixes and their severities: the currency every front end speaks."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from gpu_lsp.text import Edit, TextRange


class Severity(enum.IntEnum):
    """Ordered so that a larger value is more severe."""

    HINT = 1
    INFO = 2
    WARNING = 3
    ERROR = 4

    @property
    def label(self) -> str:
        return self.name.lower()


class Applicability(enum.IntEnum):
    """How safe it is to apply a fix without looking (ruff's model)."""

    DISPLAY_ONLY = 1
    UNSAFE = 2
    SAFE = 3


@dataclass(frozen=True)
class Fix:
    """Text edits that resolve a diagnostic."""

    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE


@dataclass(frozen=True)
class Related:
    """A note attached to a diagnostic (MLIR's `note:`)."""

    message: str
    range: TextRange


@dataclass(frozen=True)
class Diagnostic:
    """One finding: code, message, range, severity, an optional fix and notes."""

    code: str
    message: str
    range: TextRange
    severity: Severity = Severity.ERROR
    fix: Fix | None = None
    related: tuple[Related, ...] = field(default_factory=tuple)
    tags: tuple[str, ...] = ()

    def sort_key(self) -> tuple:
        return (self.range.start, self.range.end, self.code, self.message)


# The most diagnostics reported for one file, by gpu-lint and the language server alike. The
# parser also stops reading a file at this many syntax errors (`parser/lexer.py`): the work on
# a file of garbage is bounded, not only what is shown of it.
MAX_DIAGNOSTICS = 10_000
# The tag of the one notice that says where the analysis or the report stopped.
STOPPED = "stopped"
_CAP_CODE = "GPU001"  # the parser's code: always reported, never suppressed


def stop_notice(at: int) -> Diagnostic:
    """The notice where the parser stopped reading a file (its syntax errors reached the cap)."""
    message = f"too many problems: the analysis stopped here after {MAX_DIAGNOSTICS:,} syntax errors; the rest of the file is not checked"
    return Diagnostic(_CAP_CODE, message, TextRange(at, at), tags=(STOPPED,))


def capped(found: list[Diagnostic]) -> list[Diagnostic]:
    """The sorted `found`, at most `MAX_DIAGNOSTICS` of them: when some are left out, the last
    one kept is a notice (the parser's, or one saying that the report stopped)."""
    if len(found) <= MAX_DIAGNOSTICS:
        return found
    notice = next((d for d in found if STOPPED in d.tags), None)
    rest = [d for d in found if d is not notice]
    kept = rest[: MAX_DIAGNOSTICS - 1]
    if notice is None:
        at = rest[MAX_DIAGNOSTICS - 1].range.start
        message = f"too many problems: only the first {MAX_DIAGNOSTICS - 1:,} diagnostics of the file are reported"
        notice = Diagnostic(_CAP_CODE, message, TextRange(at, at), Severity.WARNING, tags=(STOPPED,))
    kept.append(notice)
    kept.sort(key=Diagnostic.sort_key)
    return kept
