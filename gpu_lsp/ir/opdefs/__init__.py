"""Declarative op definitions (upstream's ODS in miniature): one home for every fact about an op."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.opdef import OpDef
from gpu_lsp.ir.opdefs.table import OPS, definition, has_trait, installed_from, lookup, op_names, printer, reader

__all__ = [
    "OPS", "OpDef", "definition", "has_trait", "installed_from", "lookup", "op_names", "printer", "reader",
]
