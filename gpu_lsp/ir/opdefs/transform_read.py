"""The transform dialect: transform scripts (sequences, matchers, pattern application, GPU mapping)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import read_function_like
from gpu_lsp.syntax.cursor import Cursor, OpState

# Transform ops registered upstream (core, structured, GPU, vector, memref, tensor, loop, ... extensions).
# Their syntax is read loosely: operands, regions, and result types from the trailing
# `: (T, ...) -> R` (nearly every transform op prints a functional type).

@reader("transform.named_sequence")
def _named_sequence(c: Cursor, st: OpState) -> None:
    read_function_like(c, st)
