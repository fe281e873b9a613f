"""The index dialect: arithmetic on `index` values with target-independent width."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import BoolAttr, DialectAttr, IntegerAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState

BINARY = {
    "add": "Addition.", "sub": "Subtraction.", "mul": "Multiplication.",
    "divs": "Signed division.", "divu": "Unsigned division.",
    "ceildivs": "Signed division rounding up.", "ceildivu": "Unsigned division rounding up.",
    "floordivs": "Signed division rounding down.", "rems": "Signed remainder.", "remu": "Unsigned remainder.",
    "maxs": "Signed maximum.", "maxu": "Unsigned maximum.", "mins": "Signed minimum.", "minu": "Unsigned minimum.",
    "shl": "Shift left.", "shrs": "Arithmetic shift right.", "shru": "Logical shift right.",
    "and": "Bitwise and.", "or": "Bitwise or.", "xor": "Bitwise xor.",
}
PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def _binary(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        lhs = c.operand(T.INDEX)
        c.punct(",")
        rhs = c.operand(T.INDEX)
        c.optional_attr_dict(st)
        st.refs.extend([lhs, rhs])
        st.result_types.append(T.INDEX)

    reader(f"index.{name}")(parse)


for _n, _s in BINARY.items():
    _binary(_n, _s)


@reader("index.constant")
def _constant(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    st.properties["value"] = IntegerAttr(c.integer(), T.INDEX)
    st.result_types.append(T.INDEX)


@reader("index.bool.constant")
def _bool_constant(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    tok = c.any_keyword()
    if tok.value not in ("true", "false"):
        c.fail("expected 'true' or 'false'", tok)
    st.properties["value"] = BoolAttr(tok.value == "true")
    st.result_types.append(T.I1)


@reader("index.cmp")
def _cmp(c: Cursor, st: OpState) -> None:
    tok = c.any_keyword()
    if tok.value not in PREDICATES:
        c.fail(f"invalid predicate '{tok.value}'", tok)
    st.properties["pred"] = DialectAttr("index", "", f"cmp_predicate {tok.value}")
    sub = c.group("(")
    lhs = sub.operand(T.INDEX)
    sub.punct(",")
    rhs = sub.operand(T.INDEX)
    sub.done()
    c.optional_attr_dict(st)
    st.refs.extend([lhs, rhs])
    st.result_types.append(T.I1)


def _cast(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        ref = c.operand()
        c.optional_attr_dict(st)
        ref.type = c.colon_type()
        c.keyword("to")
        st.refs.append(ref)
        st.result_types.append(c.type())

    reader(f"index.{name}")(parse)


_cast("casts", "Signed cast between index and an integer type.")
_cast("castu", "Unsigned cast between index and an integer type.")


@reader("index.sizeof")
def _sizeof(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    st.result_types.append(T.INDEX)
