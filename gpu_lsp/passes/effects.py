"""Which dialects upstream mlir-opt registers: ops of any other dialect are unregistered ops."""

from __future__ import annotations

from gpu_lsp.diagnostics.mlir_versions import REGISTERED_DIALECTS
from gpu_lsp.ir.core import Operation


def is_registered(op: Operation) -> bool:
    """Whether upstream mlir-opt knows the op's dialect (else it is an unregistered op)."""
    return op.dialect in REGISTERED_DIALECTS
