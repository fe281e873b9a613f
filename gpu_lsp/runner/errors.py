"""Runtime errors of the runner, each naming the op and its source location."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.ir.core import Operation
from gpu_lsp.text import LineIndex, TextRange

# Diagnostic codes of the runner (GPU4xx: execution).
RUN_ERROR = "GPU401"
UNSUPPORTED = "GPU402"
RUN_WARNING = "GPU403"


class RunError(Exception):
    """A program fault or a limit hit while running; `op` is where it happened."""

    code = RUN_ERROR

    def __init__(self, message: str, op: Operation | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.op = op


class Unsupported(RunError):
    """An op (or a form of an op) the runner cannot execute faithfully."""

    code = UNSUPPORTED


class RunTimeout(RunError):
    """The program ran past its time limit."""


class MemoryLimit(RunError):
    """An allocation would exceed the memory cap."""


class NoDevice(Exception):
    """No usable GPU: the message is one line saying why (cupy missing, no driver, no device)."""


@dataclass(frozen=True)
class Warning_:
    """A runtime warning (e.g. a token never waited on), attached to an op."""

    message: str
    op: Operation | None = None


class Locator:
    """Turns ops into `file:line:col` strings and diagnostics for one source buffer."""

    def __init__(self, text: str, filename: str = "<stdin>") -> None:
        self.text = text
        self.filename = filename
        self.lines = LineIndex(text)

    def range_of(self, op: Operation | None) -> TextRange:
        if op is None or op.range is None:
            return TextRange(0, 0)
        start = op.range.start
        # A result list `%a, %b = ` precedes the op name; MLIR points at the op's start.
        return TextRange(start, op.name_range.end if op.name_range is not None else start)

    def line_col(self, op: Operation | None) -> tuple[int, int]:
        """1-based line and column of the op's start."""
        line, col = self.lines.position(self.range_of(op).start)
        return line + 1, col + 1

    def where(self, op: Operation | None) -> str:
        if op is None:
            return self.filename
        line, col = self.line_col(op)
        return f"{self.filename}:{line}:{col}"

    def format(self, severity: str, message: str, op: Operation | None) -> str:
        """`file:line:col: error: message` followed by the source line and a caret."""
        head = f"{self.where(op)}: {severity}: {message}"
        if op is None or op.range is None:
            return head
        line, col = self.line_col(op)
        source = self.lines.line_text(line - 1)
        return f"{head}\n{source}\n{' ' * (col - 1)}^"

    def diagnostic(self, error: RunError) -> Diagnostic:
        return Diagnostic(error.code, error.message, self.range_of(error.op), Severity.ERROR)

    def warning_diagnostic(self, warning: Warning_) -> Diagnostic:
        return Diagnostic(RUN_WARNING, warning.message, self.range_of(warning.op), Severity.WARNING)
