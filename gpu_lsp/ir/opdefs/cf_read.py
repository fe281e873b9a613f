"""The cf dialect's custom directive (cf.switch's case list) and the branch weights llvm.cond_br shares."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.opdefs.cf_ops import case_values_attr
from gpu_lsp.ir.opdefs.format import Directive, Var
from gpu_lsp.ir.opdefs.format_read import FormatState, custom_reader
from gpu_lsp.syntax.cursor import Cursor, OpState, Ref


def read_weights(c: Cursor, st: OpState) -> None:
    """`weights([90, 10])` branch weights (cf.cond_br, llvm.cond_br)."""
    if c.optional_keyword("weights"):
        sub = c.group("(")
        st.properties["branch_weights"] = sub.attr()
        sub.done()


def _successor_operands(c: Cursor) -> list[Ref]:
    """`(%a, %b : T, U)` after a successor, or nothing."""
    if not c.is_group("("):
        return []
    sub = c.group("(")
    refs = sub.operand_list()
    types = sub.colon_type_list()
    if len(types) != len(refs):
        sub.fail(f"expected {len(refs)} types")
    for ref, ty in zip(refs, types):
        ref.type = ty
    sub.done()
    return refs


@custom_reader("SwitchOpCases")
def _switch_op_cases(c: Cursor, st: OpState, fs: FormatState, args: tuple[Directive, ...]) -> None:
    """`default: ^bb(%a : T), 42: ^bb2, ...`: the default and each case's successor and operands."""
    names = [d.name for d in args if isinstance(d, Var)]
    default, default_operands, values_name, destinations, case_operands = names
    flag = fs.types.get("flag", [T.UNKNOWN])[0]
    c.keyword("default")
    c.punct(":")
    fs.successors[default] = [c.block_ref()]
    fs.operands[default_operands] = _successor_operands(c)
    values: list[int] = []
    sizes: list[int] = []
    fs.successors[destinations] = []
    fs.operands[case_operands] = []
    while c.optional_punct(","):
        values.append(c.integer())
        c.punct(":")
        fs.successors[destinations].append(c.block_ref())
        refs = _successor_operands(c)
        fs.operands[case_operands].extend(refs)
        sizes.append(len(refs))
    for name in (default_operands, case_operands):
        fs.types[name] = [ref.type for ref in fs.operands[name] if ref.type is not None]
    if values:
        st.properties[values_name] = case_values_attr(values, flag)
    st.properties["case_operand_segments"] = DenseArrayAttr(T.I32, tuple(sizes))
