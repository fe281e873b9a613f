"""The func dialect's hand-written reader: func.func (FunctionOpInterface's signature syntax)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import read_function_like
from gpu_lsp.syntax.cursor import Cursor, OpState


@reader("func.func")
def _func(c: Cursor, st: OpState) -> None:
    read_function_like(c, st)
