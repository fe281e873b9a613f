"""The arith dialect: constants, integer and float arithmetic, comparisons, casts, select."""

from __future__ import annotations

from gpu_lsp.dialects.common import shape_of
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DialectAttr, IntegerAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState

BINARY = {
    "addi": "Integer addition.", "subi": "Integer subtraction.", "muli": "Integer multiplication.",
    "divsi": "Signed integer division.", "divui": "Unsigned integer division.",
    "ceildivsi": "Signed division rounding up.", "ceildivui": "Unsigned division rounding up.",
    "floordivsi": "Signed division rounding down.", "remsi": "Signed remainder.", "remui": "Unsigned remainder.",
    "andi": "Bitwise and.", "ori": "Bitwise or.", "xori": "Bitwise xor.",
    "shli": "Shift left.", "shrsi": "Arithmetic shift right.", "shrui": "Logical shift right.",
    "maxsi": "Signed maximum.", "maxui": "Unsigned maximum.", "minsi": "Signed minimum.", "minui": "Unsigned minimum.",
    "addf": "Float addition.", "subf": "Float subtraction.", "mulf": "Float multiplication.", "divf": "Float division.",
    "remf": "Float remainder.", "maximumf": "Float maximum (NaN-propagating).", "minimumf": "Float minimum (NaN-propagating).",
    "maxnumf": "Float maximum (NaN-ignoring).", "minnumf": "Float minimum (NaN-ignoring).",
}

CASTS = {
    "index_cast": "Casts between index and integer types.", "index_castui": "Unsigned cast between index and integer types.",
    "extsi": "Sign extension.", "extui": "Zero extension.", "trunci": "Integer truncation.",
    "extf": "Float extension.", "truncf": "Float truncation.", "sitofp": "Signed integer to float.",
    "uitofp": "Unsigned integer to float.", "fptosi": "Float to signed integer.", "fptoui": "Float to unsigned integer.",
    "bitcast": "Reinterprets the bits of a value.",
    "convertf": "Converts between float types of the same width (f16 and bf16).",
}


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


def _binary(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        refs = c.operand_list()
        read_modifiers(c, st)
        c.optional_attr_dict(st)
        ty = c.colon_type()
        for r in refs:
            r.type = ty
        st.refs.extend(refs)
        st.result_types.append(ty)

    reader(f"arith.{name}")(parse)


for _n, _s in BINARY.items():
    _binary(_n, _s)


@reader("arith.negf")
def _negf(c: Cursor, st: OpState) -> None:
    ref = c.operand()
    read_modifiers(c, st)
    c.optional_attr_dict(st)
    ref.type = c.colon_type()
    st.refs.append(ref)
    st.result_types.append(ref.type)


def _cast(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        ref = c.operand()
        read_modifiers(c, st)
        c.optional_attr_dict(st)
        ref.type = c.colon_type()
        c.keyword("to")
        st.refs.append(ref)
        st.result_types.append(c.type())

    reader(f"arith.{name}")(parse)


for _n, _s in CASTS.items():
    _cast(_n, _s)

CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")


def _cmp(name: str, predicates: tuple[str, ...]) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        tok = c.peek()
        pred = c.next().value if c.is_token("BARE") or c.is_token("STRING") else None
        pred = pred.strip('"') if pred else None
        if pred not in predicates:
            c.fail(f"invalid predicate '{pred}'", tok)
        st.properties["predicate"] = IntegerAttr(predicates.index(pred), T.I64)
        st.extra["predicate"] = pred
        c.punct(",")
        refs = c.operand_list()
        read_modifiers(c, st)
        c.optional_attr_dict(st)
        ty = c.colon_type()
        for r in refs:
            r.type = ty
        st.refs.extend(refs)
        st.result_types.append(shape_of(ty, T.I1))

    reader(f"arith.{name}")(parse)


_cmp("cmpi", CMPI)
_cmp("cmpf", CMPF)


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
    attr = c.attr()
    ty = getattr(attr, "type", None)
    if ty is None:
        from gpu_lsp.ir.attributes import BoolAttr

        if isinstance(attr, BoolAttr):
            ty = T.I1
    if ty is None:
        c.fail("expected a typed constant")
    st.properties["value"] = attr
    st.result_types.append(ty)




@reader("arith.flush_denormals")
def _flush_denormals(c: Cursor, st: OpState) -> None:
    _negf(c, st)


@reader("arith.addui_extended")
def _addui_extended(c: Cursor, st: OpState) -> None:
    lhs = c.operand()
    c.punct(",")
    rhs = c.operand()
    c.optional_attr_dict(st)
    lhs.type = rhs.type = c.colon_type()
    c.punct(",")
    st.refs.extend([lhs, rhs])
    st.result_types.extend([lhs.type, c.type()])


def _mul_extended(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        lhs = c.operand()
        c.punct(",")
        rhs = c.operand()
        c.optional_attr_dict(st)
        lhs.type = rhs.type = c.colon_type()
        st.refs.extend([lhs, rhs])
        st.result_types.extend([lhs.type, lhs.type])

    reader(f"arith.{name}")(parse)


_mul_extended("mulsi_extended", "Signed multiplication giving the low and high halves.")
_mul_extended("mului_extended", "Unsigned multiplication giving the low and high halves.")


def _scaling(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        value = c.operand()
        c.punct(",")
        scale = c.operand()
        read_modifiers(c, st)
        c.optional_attr_dict(st)
        value.type = c.colon_type()
        c.punct(",")
        scale.type = c.type()
        c.keyword("to")
        st.refs.extend([value, scale])
        st.result_types.append(c.type())

    reader(f"arith.{name}")(parse)


_scaling("scaling_extf", "Extends a float and multiplies it by a scale.")
_scaling("scaling_truncf", "Divides a float by a scale and truncates it.")
