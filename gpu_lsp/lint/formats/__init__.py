"""Report formats: each writes the reports of one run to a stream."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from gpu_lsp.lint.check import FileReport
from gpu_lsp.lint.formats import github, grouped, junit, sarif
from gpu_lsp.lint.formats.common import Context

Emitter = Callable[[TextIO, list[FileReport], Context], None]

FORMATS: dict[str, Emitter] = {
    "sarif": sarif.emit,
    "github": github.emit,
    "junit": junit.emit,
    "grouped": grouped.emit,
}
