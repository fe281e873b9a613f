"""The arith dialect's hand-written readers (select, constant) and the modifiers other dialects' readers share."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DialectAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import read_typed_constant
from gpu_lsp.syntax.cursor import Cursor, OpState

ROUNDING_MODES = frozenset(("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"))


def read_modifiers(c: Cursor, st: OpState) -> None:
    """`overflow<nsw, nuw>`, `fastmath<fast>`, `exact` and rounding-mode suffixes."""
    while True:
        if c.is_keyword("overflow") or c.is_keyword("fastmath"):
            word = c.next().value
            c.punct("<")
            flags = []
            while not c.is_punct(">"):
                flags.append(c.any_keyword().value)
                c.optional_punct(",")
            c.punct(">")
            st.properties["overflowFlags" if word == "overflow" else "fastmath"] = DialectAttr("arith", word, ", ".join(flags))
        elif c.is_keyword("exact"):
            c.next()
        elif c.is_token("BARE") and c.peek().value in ROUNDING_MODES:
            st.properties["roundingmode"] = DialectAttr("arith", "", f"rounding_mode {c.next().value}")
        else:
            return


@reader("arith.select")
def _select(c: Cursor, st: OpState) -> None:
    cond = c.operand()
    c.punct(",")
    a = c.operand()
    c.punct(",")
    b = c.operand()
    c.optional_attr_dict(st)
    types = c.colon_type_list()
    ty = types[-1]
    cond.type = types[0] if len(types) == 2 else T.I1
    a.type = b.type = ty
    st.refs.extend([cond, a, b])
    st.result_types.append(ty)


@reader("arith.constant")
def _constant(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    attr, ty = read_typed_constant(c)
    st.properties["value"] = attr
    st.result_types.append(ty)
