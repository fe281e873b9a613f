"""What a pass reports: diagnostics located in the source text, and failure."""

from __future__ import annotations

from dataclasses import dataclass, field

from gpu_lsp.diagnostics.model import Diagnostic, Related, Severity
from gpu_lsp.ir.core import Operation
from gpu_lsp.text import TextRange

# Diagnostic code of a pass error (GPU5xx: passes and refactorings).
PASS_ERROR = "GPU501"


@dataclass(frozen=True)
class PassDiagnostic:
    """A pass error or note as mlir-opt prints it: `message` at the op's location."""

    message: str
    range: TextRange | None
    severity: str = "error"
    notes: tuple[PassDiagnostic, ...] = field(default_factory=tuple)


class PassFailure(Exception):
    """A pass signalled failure (`signalPassFailure`); the IR may be partly rewritten."""

    def __init__(self, diagnostics: list[PassDiagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics) or "pass failed")
        self.diagnostics = diagnostics


def op_error(op: Operation, message: str, origin: dict | None = None) -> PassDiagnostic:
    """`emitOpError`: `'<op name>' op <message>` at the op (or the op it was cloned from)."""
    source = origin.get(op, op) if origin else op
    return PassDiagnostic(f"'{op.name}' op {message}", source.range)


def to_diagnostics(failure: PassFailure, fallback: TextRange) -> list[Diagnostic]:
    """The failure's diagnostics for front ends; unlocated ones go to `fallback`."""
    out = []
    for d in failure.diagnostics:
        related = tuple(Related(n.message, n.range or fallback) for n in d.notes)
        severity = Severity.ERROR if d.severity == "error" else Severity.WARNING
        out.append(Diagnostic(PASS_ERROR, d.message, d.range or fallback, severity, related=related))
    return out
