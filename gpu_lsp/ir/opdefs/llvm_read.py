"""The llvm dialect: LLVM IR in MLIR (functions, globals, memory, arithmetic, casts, branches)."""

from __future__ import annotations

import re
from typing import NoReturn

from gpu_lsp.ir import types as T
from gpu_lsp.ir.brackets import split_commas
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.arith_read import read_modifiers
from gpu_lsp.ir.opdefs.cf_read import read_weights
from gpu_lsp.ir.opdefs.common_read import (
    attr_dict_after_reader,
    bind_colon_types,
    comma_operands,
    comma_separated,
    element_type,
    read_attrs_then_operands,
    read_branch,
    read_cond_branch,
    read_conversion,
    read_optional_body,
    read_select,
    read_signature,
    read_symbol_name,
    shape_of,
    successor,
    unary_same_type,
)
from gpu_lsp.syntax.cursor import Cursor, FormatError, OpState, Ref
from gpu_lsp.syntax.types import TypeSyntaxError, parse_type

_LLVM_TYPE_WORD = re.compile(r"(ptr|struct|array|void|func|vec|token|label|metadata|target|x86_amx|ppc_fp128)\b")


def llvm_type(text: str) -> T.Type | None:
    """A type written inside an LLVM type body, where `ptr` means `!llvm.ptr`."""
    text = text.strip()
    if _LLVM_TYPE_WORD.match(text):
        text = "!llvm." + text
    try:
        return parse_type(text)
    except ValueError:
        return None


def member_type(ty: T.Type | None, positions: list[int]) -> T.Type | None:
    """The type at `positions` inside an `!llvm.struct` / `!llvm.array` (extractvalue)."""
    for pos in positions:
        if not (isinstance(ty, T.DialectType) and ty.dialect == "llvm" and ty.body):
            return None
        body = ty.body
        if ty.name == "struct":
            if "(" not in body or ")" not in body:
                return None
            members = split_commas(body[body.index("(") + 1 : body.rindex(")")], drop_empty=True)
            if not 0 <= pos < len(members):
                return None
            ty = llvm_type(members[pos])
        elif ty.name == "array":
            _, _, elem = body.partition("x")
            ty = llvm_type(elem)
        else:
            return None
    return ty


def _skip_keywords(c: Cursor) -> list[str]:
    """Linkage, calling convention, ordering and similar leading or trailing keywords."""
    words = []
    while c.is_token("BARE"):
        words.append(c.next().value)
        if c.is_group("(") and words[-1] in ("cc", "syncscope", "vscale_range", "comdat", "alignment"):
            c.next()
    return words


# --- functions, globals and calls -------------------------------------------------------------


def _keywords_and_name(c: Cursor, st: OpState) -> None:
    """`[linkage and other keywords] @name` of llvm.func and llvm.mlir.global: the keywords are kept for the printer."""
    words = _skip_keywords(c)
    if words:
        writable_facts(st).keywords = tuple(words)
    read_symbol_name(c, st)


@reader("llvm.func")
def _func(c: Cursor, st: OpState) -> None:
    _keywords_and_name(c, st)
    args, _, named = read_signature(c, st)
    while c.is_keyword("vscale_range") or c.is_keyword("comdat"):
        c.next()
        c.group("(")
    attr_dict_after_reader(c, st)
    if c.is_region() and args and not named:
        c.fail("expected named arguments for a function with a body")
    read_optional_body(c, st, args)


reader("llvm.return")(read_attrs_then_operands)


def _miscounted(c: Cursor, operands: int, types: int) -> NoReturn:
    """Upstream's error where an op's operands and the types given for them differ in number (its
    `resolveOperands`), at the op's name."""
    c.fail_at_name(f"number of operands and types do not match: got {operands} operands and {types} types")


@reader("llvm.call")
def _call(c: Cursor, st: OpState) -> None:
    _skip_keywords(c)
    callee = None
    if c.is_symbol():
        st.properties["callee"] = c.symbol()
    else:
        callee = c.operand()
    if not c.is_group("("):
        c.expected_by_parser("'(' in operand list")  # upstream's parseOperandList
    sub = c.group("(")
    refs = sub.operand_list()
    sub.done()
    if c.optional_keyword("vararg"):
        c.group("(")
    if c.is_group("["):
        c.next()
    c.optional_attr_dict(st)
    c.punct(":")
    if callee is not None:
        callee.type = c.type()
        c.punct(",")
    fn = c.function_type()
    if len(fn.inputs) != len(refs):
        extra = 1 if callee is not None else 0  # an indirect call's callee and its type count too
        _miscounted(c, len(refs) + extra, len(fn.inputs) + extra)
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.extend(([callee] if callee is not None else []) + refs)
    st.result_types.extend(t for t in fn.results if not (isinstance(t, T.DialectType) and t.dialect == "llvm" and t.name == "void"))


@reader("llvm.mlir.global")
def _global(c: Cursor, st: OpState) -> None:
    _keywords_and_name(c, st)
    sub = c.group("(")
    if not sub.at_end:
        st.properties["value"] = sub.attr()
    sub.done()
    _skip_keywords(c)
    c.optional_attr_dict(st)
    if c.optional_punct(":"):
        st.properties["global_type"] = c.attr()
    read_optional_body(c, st, None)


@reader("llvm.mlir.addressof")
def _addressof(c: Cursor, st: OpState) -> None:
    st.properties["global_name"] = c.symbol()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@reader("llvm.mlir.constant")
def _constant(c: Cursor, st: OpState) -> None:
    sub = c.group("(")
    st.properties["value"] = sub.attr()
    sub.done()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


def _typed_nullary(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        c.optional_attr_dict(st)
        st.result_types.append(c.colon_type())

    reader(name)(parse)


_typed_nullary("llvm.mlir.none", "The `none` token.")


# --- memory -----------------------------------------------------------------------------------


def _atomic_suffix(c: Cursor) -> None:
    """`atomic [syncscope("x")] ordering`, `invariant`, `invariant_group`."""
    _skip_keywords(c)


@reader("llvm.load")
def _load(c: Cursor, st: OpState) -> None:
    c.optional_keyword("volatile")
    ptr = c.operand()
    _atomic_suffix(c)
    c.optional_attr_dict(st)
    ptr.type = c.colon_type()
    st.refs.append(ptr)
    c.punct("->")
    st.result_types.append(c.type())


@reader("llvm.store")
def _store(c: Cursor, st: OpState) -> None:
    c.optional_keyword("volatile")
    refs = comma_operands(c, 2)
    _atomic_suffix(c)
    c.optional_attr_dict(st)
    bind_colon_types(c, refs)
    st.refs.extend(refs)


def _gep_index(sub: Cursor) -> Ref | None:
    """An SSA index of a GEP, or None for a constant one."""
    if sub.is_operand():
        return sub.operand()
    sub.integer()
    return None


@reader("llvm.getelementptr")
def _gep(c: Cursor, st: OpState) -> None:
    while _skip_keywords(c) and c.optional_punct("|"):  # no-wrap flags: `inbounds|nuw`
        pass
    base = c.operand()
    indices = [ref for ref in comma_separated(c, "[", _gep_index) if ref is not None]
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    c.punct(",")
    st.properties["elem_type"] = c.attr()
    refs = [base] + indices
    if len(fn.inputs) != len(refs):
        _miscounted(c, len(refs), len(fn.inputs))
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.extend(refs)
    st.result_types.extend(fn.results)


@reader("llvm.alloca")
def _alloca(c: Cursor, st: OpState) -> None:
    c.optional_keyword("inalloca")
    size = c.operand()
    c.keyword("x")
    st.properties["elem_type"] = c.attr()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    if fn.inputs:
        size.type = fn.inputs[0]
    st.refs.append(size)
    st.result_types.extend(fn.results)


def _positions(c: Cursor) -> list[int]:
    return comma_separated(c, "[", Cursor.integer)


@reader("llvm.extractvalue")
def _extractvalue(c: Cursor, st: OpState) -> None:
    agg = c.operand()
    positions = _positions(c)
    c.optional_attr_dict(st)
    agg.type = c.colon_type()
    st.refs.append(agg)
    member = member_type(agg.type, positions)
    if member is None:
        c.fail(f"invalid position for type '{agg.type}'")
    st.result_types.append(member)


@reader("llvm.insertvalue")
def _insertvalue(c: Cursor, st: OpState) -> None:
    value, agg = comma_operands(c, 2)
    positions = _positions(c)
    c.optional_attr_dict(st)
    agg.type = c.colon_type()
    value.type = member_type(agg.type, positions)
    st.refs.extend([value, agg])
    st.result_types.append(agg.type)


def _vector_at_position(c: Cursor, st: OpState) -> tuple[Ref, Ref, T.Type]:
    """`%vec[%pos : T] attr-dict : vector-type`: the vector, the position and the vector's type."""
    vec = c.operand()
    sub = c.group("[")
    pos = sub.operand()
    pos.type = sub.colon_type()
    sub.done()
    c.optional_attr_dict(st)
    vec.type = ty = c.colon_type()
    return vec, pos, ty


@reader("llvm.extractelement")
def _extractelement(c: Cursor, st: OpState) -> None:
    vec, pos, ty = _vector_at_position(c, st)
    st.refs.extend([vec, pos])
    st.result_types.append(element_type(ty))


@reader("llvm.insertelement")
def _insertelement(c: Cursor, st: OpState) -> None:
    value = c.operand()
    c.punct(",")
    vec, pos, ty = _vector_at_position(c, st)
    value.type = element_type(ty)
    st.refs.extend([vec, value, pos])
    st.result_types.append(ty)


@reader("llvm.shufflevector")
def _shufflevector(c: Cursor, st: OpState) -> None:
    a, b = comma_operands(c, 2)
    mask = c.attr()
    c.optional_attr_dict(st)
    a.type = b.type = c.colon_type()
    st.refs.extend([a, b])
    count = len(getattr(mask, "elements", getattr(mask, "values", ())))
    st.result_types.append(T.VectorType((count,), element_type(a.type)))


@reader("llvm.atomicrmw")
def _atomicrmw(c: Cursor, st: OpState) -> None:
    c.optional_keyword("volatile")
    c.any_keyword()
    refs = comma_operands(c, 2)
    _skip_keywords(c)
    c.optional_attr_dict(st)
    value_type = bind_colon_types(c, refs)[1]
    st.refs.extend(refs)
    st.result_types.append(value_type)


@reader("llvm.cmpxchg")
def _cmpxchg(c: Cursor, st: OpState) -> None:
    _skip_keywords(c)
    ptr, cmp, new = refs = comma_operands(c, 3)
    _skip_keywords(c)
    c.optional_attr_dict(st)
    bind_colon_types(c, [ptr, cmp])
    new.type = cmp.type
    st.refs.extend(refs)
    try:
        st.result_types.append(parse_type(f"!llvm.struct<({cmp.type}, i1)>"))
    except TypeSyntaxError:
        st.result_types.append(T.UNKNOWN)


# --- control flow -----------------------------------------------------------------------------


reader("llvm.br")(read_branch)


@reader("llvm.cond_br")
def _cond_br(c: Cursor, st: OpState) -> None:
    read_cond_branch(c, st, read_weights)


@reader("llvm.switch")
def _switch(c: Cursor, st: OpState) -> None:
    flag = c.operand()
    flag.type = c.colon_type()
    st.refs.append(flag)
    c.punct(",")
    successor(c, st)
    if c.is_group("["):
        sub = c.group("[")
        while not sub.at_end:
            sub.integer()
            sub.punct(":")
            successor(sub, st)
            if sub.at_end:
                break
            sub.punct(",")
    c.optional_attr_dict(st)


@reader("llvm.unreachable")
def _unreachable(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)


# --- arithmetic, comparisons and casts ---------------------------------------------------------

INT_BINARY = ("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "and", "or", "xor", "shl", "lshr", "ashr")
FLOAT_BINARY = ("fadd", "fsub", "fmul", "fdiv", "frem")
CASTS = (
    "bitcast", "addrspacecast", "ptrtoint", "ptrtoaddr", "inttoptr", "sext", "zext", "trunc",
    "fptosi", "fptoui", "sitofp", "uitofp", "fpext", "fptrunc",
)


def _binary(name: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        _skip_keywords(c)
        lhs, rhs = comma_operands(c, 2)
        read_modifiers(c, st)
        c.optional_attr_dict(st)
        lhs.type = rhs.type = c.colon_type()
        st.refs.extend([lhs, rhs])
        st.result_types.append(lhs.type)

    reader(f"llvm.{name}")(parse)


for _n in INT_BINARY + FLOAT_BINARY:
    _binary(_n)


@reader("llvm.fneg")
def _fneg(c: Cursor, st: OpState) -> None:
    unary_same_type(c, st)


@reader("llvm.freeze")
def _freeze(c: Cursor, st: OpState) -> None:
    unary_same_type(c, st)


def _cast(name: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        _skip_keywords(c)
        read_conversion(c, st, read_modifiers)

    reader(f"llvm.{name}")(parse)


for _n in CASTS:
    _cast(_n)


def _cmp(name: str) -> None:
    predicates = ENUMS["Arith_CmpIPredicateAttr" if name == "icmp" else "Arith_CmpFPredicateAttr"]

    def parse(c: Cursor, st: OpState) -> None:
        start, end = c.here()
        pred = c.string()
        if pred not in predicates.cases:
            raise FormatError(f"'{pred}' is an incorrect value of the 'predicate' attribute", start, end, exact=True)
        # LLVM's ICmpPredicate / FCmpPredicate number their cases as arith's do
        st.properties["predicate"] = predicates.attribute(pred)
        lhs, rhs = comma_operands(c, 2)
        c.optional_attr_dict(st)
        lhs.type = rhs.type = c.colon_type()
        st.refs.extend([lhs, rhs])
        st.result_types.append(shape_of(lhs.type, T.I1))

    reader(f"llvm.{name}")(parse)


_cmp("icmp")
_cmp("fcmp")


@reader("llvm.select")
def _select(c: Cursor, st: OpState) -> None:
    read_select(c, st, read_modifiers)


# --- everything else: read loosely ------------------------------------------------------------
