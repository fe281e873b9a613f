"""The bufferization dialect: bufferization.alloc_tensor, whose upstream parser is hand-written; dealloc's result types."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.format_read import FormatState, infers_types
from gpu_lsp.syntax.cursor import Cursor, OpState


@reader("bufferization.alloc_tensor")
def _alloc_tensor(c: Cursor, st: OpState) -> None:
    """`(%d, ...) [copy(%t)] [size_hint = %n] {attrs} : tensor<...>`; the copy has the result's type."""
    sizes_group = c.group("(")
    sizes = sizes_group.operand_list(T.INDEX)
    sizes_group.done()
    copy = None
    if c.optional_keyword("copy"):
        copy_group = c.group("(")
        copy = copy_group.operand()
        copy_group.done()
    hint = None
    if c.optional_keyword("size_hint"):
        c.punct("=")
        hint = c.operand(T.INDEX)
    c.optional_attr_dict(st)
    ty = c.colon_type()
    if copy is not None:
        copy.type = ty
    st.refs.extend(sizes + [ref for ref in (copy, hint) if ref is not None])
    st.result_types.append(ty)
    st.properties["operandSegmentSizes"] = DenseArrayAttr(T.I32, (len(sizes), int(copy is not None), int(hint is not None)))
    if "memory_space" in st.attributes:
        st.properties["memory_space"] = st.attributes.pop("memory_space")


@infers_types("bufferization.dealloc")
def _dealloc_conditions(st: OpState, fs: FormatState) -> None:
    """One `i1` per retained memref (upstream's inferReturnTypes)."""
    fs.types["updatedConditions"] = [T.I1] * len(fs.operands.get("retained", []))
