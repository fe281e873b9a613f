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
