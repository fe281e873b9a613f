"""The amdgpu dialect: the `custom<MNKDimensionList>` hook of its matrix ops (upstream AMDGPUDialect.cpp)."""

from __future__ import annotations

import re

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import IntegerAttr
from gpu_lsp.ir.opdefs.format import Directive, Var
from gpu_lsp.ir.opdefs.format_read import FormatState, custom_reader
from gpu_lsp.syntax.cursor import Cursor, OpState

# After the first size, the lexer reads `x16x32` as one word.
_REST = re.compile(r"(?:x\d+)+")


@custom_reader("MNKDimensionList")
def _mnk_dimension_list(c: Cursor, st: OpState, fs: FormatState, args: tuple[Directive, ...]) -> None:
    """custom<MNKDimensionList>($m, $n, $k): `16x16x32`, three i32 attributes."""
    names = [d.name for d in args if isinstance(d, Var)]
    sizes = [c.integer()]
    tok = c.peek()
    if c.is_token("BARE") and _REST.fullmatch(tok.value):
        c.next()
        sizes.extend(int(v) for v in tok.value[1:].split("x"))
    if len(sizes) != len(names):
        c.fail(f"expected {len(names)} dimensions in MNK dimension list")
    for name, size in zip(names, sizes):
        st.properties[name] = IntegerAttr(size, T.I32)
