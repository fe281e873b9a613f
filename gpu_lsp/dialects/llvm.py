"""The llvm dialect: LLVM IR in MLIR (functions, globals, memory, arithmetic, casts, branches)."""

from __future__ import annotations

import re

from gpu_lsp.dialects.arith import read_modifiers
from gpu_lsp.dialects.cf import read_weights
from gpu_lsp.dialects.common import (
    element_type,
    read_signature,
    read_tolerant,
    shape_of,
    successor,
    typed_operand_list,
    unary_same_type,
)
from gpu_lsp.dialects.registry import op
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import StringAttr
from gpu_lsp.parser.cursor import SYMBOL_NAME, Cursor, OpState, Ref
from gpu_lsp.parser.types import TypeSyntaxError, parse_type

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


def split_top(text: str) -> list[str]:
    """Split at commas outside brackets."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def member_type(ty: T.Type | None, positions: list[int]) -> T.Type | None:
    """The type at `positions` inside an `!llvm.struct` / `!llvm.array` (extractvalue)."""
    for pos in positions:
        if not (isinstance(ty, T.DialectType) and ty.dialect == "llvm" and ty.body):
            return None
        body = ty.body
        if ty.name == "struct":
            if "(" not in body or ")" not in body:
                return None
            members = split_top(body[body.index("(") + 1 : body.rindex(")")])
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


@op(
    "llvm.func",
    "isolated symbol function",
    "An LLVM function (definition or declaration).",
    "llvm.func [linkage] [cconv] @name(%a: T, ...) [-> R] [attributes {...}] [{ ... }]",
)
def _func(c: Cursor, st: OpState) -> None:
    words = _skip_keywords(c)
    if words:
        st.extra["keywords"] = words
    st.properties["sym_name"] = StringAttr(c.symbol(SYMBOL_NAME).root)
    args, _, named = read_signature(c, st)
    while c.is_keyword("vscale_range") or c.is_keyword("comdat"):
        c.next()
        c.group("(")
    c.attr_dict_with_keyword(st)
    if c.is_region():
        if args and not named:
            c.fail("expected named arguments for a function with a body")
        st.add_region(c.region(), args)
    else:
        st.add_region(None, None)


@op("llvm.return", "terminator return_like pure", "Returns from an llvm.func.", "llvm.return [%v : T]")
def _return(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    typed_operand_list(c, st)


@op("llvm.call", "", "Calls a function directly by symbol or indirectly through a pointer.", "%r = llvm.call @f(%a) : (T) -> R")
def _call(c: Cursor, st: OpState) -> None:
    _skip_keywords(c)
    callee = None
    if c.is_symbol():
        st.properties["callee"] = c.symbol()
    else:
        callee = c.operand()
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
        c.fail(f"expected {len(refs)} operand types")
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.extend(([callee] if callee is not None else []) + refs)
    st.result_types.extend(t for t in fn.results if not (isinstance(t, T.DialectType) and t.dialect == "llvm" and t.name == "void"))


@op(
    "llvm.mlir.global",
    "symbol",
    "An LLVM global variable, with an initial value or an initializer region.",
    "llvm.mlir.global [linkage] [constant] @name([value]) [{attrs}] : T [{ ... }]",
)
def _global(c: Cursor, st: OpState) -> None:
    words = _skip_keywords(c)
    if words:
        st.extra["keywords"] = words
    st.properties["sym_name"] = StringAttr(c.symbol(SYMBOL_NAME).root)
    sub = c.group("(")
    if not sub.at_end:
        st.properties["value"] = sub.attr()
    sub.done()
    _skip_keywords(c)
    c.optional_attr_dict(st)
    if c.optional_punct(":"):
        st.properties["global_type"] = c.attr()
    if c.is_region():
        st.add_region(c.region())
    else:
        st.add_region(None)


@op("llvm.mlir.addressof", "pure", "The address of a global or function.", "%p = llvm.mlir.addressof @g : !llvm.ptr")
def _addressof(c: Cursor, st: OpState) -> None:
    st.properties["global_name"] = c.symbol()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@op("llvm.mlir.constant", "pure", "An LLVM constant.", "%c = llvm.mlir.constant(42 : i64) : i64")
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

    op(name, "pure", summary, f"%v = {name} : T")(parse)


_typed_nullary("llvm.mlir.undef", "An undefined value.")
_typed_nullary("llvm.mlir.poison", "A poison value.")
_typed_nullary("llvm.mlir.zero", "The zero value of a type (null for pointers).")
_typed_nullary("llvm.mlir.none", "The `none` token.")


# --- memory -----------------------------------------------------------------------------------


def _atomic_suffix(c: Cursor) -> None:
    """`atomic [syncscope("x")] ordering`, `invariant`, `invariant_group`."""
    _skip_keywords(c)


@op("llvm.load", "", "Loads a value through a pointer.", "%v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32")
def _load(c: Cursor, st: OpState) -> None:
    c.optional_keyword("volatile")
    ptr = c.operand()
    _atomic_suffix(c)
    c.optional_attr_dict(st)
    ptr.type = c.colon_type()
    st.refs.append(ptr)
    c.punct("->")
    st.result_types.append(c.type())


@op("llvm.store", "", "Stores a value through a pointer.", "llvm.store %v, %p : f32, !llvm.ptr")
def _store(c: Cursor, st: OpState) -> None:
    c.optional_keyword("volatile")
    value = c.operand()
    c.punct(",")
    ptr = c.operand()
    _atomic_suffix(c)
    c.optional_attr_dict(st)
    value.type = c.colon_type()
    c.punct(",")
    ptr.type = c.type()
    st.refs.extend([value, ptr])


@op(
    "llvm.getelementptr",
    "pure",
    "Address arithmetic: a pointer to an element of an aggregate.",
    "%q = llvm.getelementptr [inbounds] %p[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, f32",
)
def _gep(c: Cursor, st: OpState) -> None:
    _skip_keywords(c)
    base = c.operand()
    sub = c.group("[")
    indices: list[Ref] = []
    while not sub.at_end:
        if sub.is_operand():
            indices.append(sub.operand())
        else:
            sub.integer()
        if sub.at_end:
            break
        sub.punct(",")
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    c.punct(",")
    st.properties["elem_type"] = c.attr()
    refs = [base] + indices
    if len(fn.inputs) != len(refs):
        c.fail(f"expected {len(refs)} operand types")
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.extend(refs)
    st.result_types.extend(fn.results)


@op("llvm.alloca", "", "Allocates stack memory for N elements.", "%p = llvm.alloca %n x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr")
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
    sub = c.group("[")
    out = []
    while not sub.at_end:
        out.append(sub.integer())
        if sub.at_end:
            break
        sub.punct(",")
    return out


@op("llvm.extractvalue", "pure", "Extracts a member of a struct or array value.", "%v = llvm.extractvalue %s[0, 1] : !llvm.struct<(...)>")
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


@op("llvm.insertvalue", "pure", "Inserts a member into a struct or array value.", "%s2 = llvm.insertvalue %v, %s[0] : !llvm.struct<(...)>")
def _insertvalue(c: Cursor, st: OpState) -> None:
    value = c.operand()
    c.punct(",")
    agg = c.operand()
    positions = _positions(c)
    c.optional_attr_dict(st)
    agg.type = c.colon_type()
    value.type = member_type(agg.type, positions)
    st.refs.extend([value, agg])
    st.result_types.append(agg.type)


@op("llvm.extractelement", "pure", "Extracts an element of a vector.", "%e = llvm.extractelement %v[%i : i32] : vector<4xf32>")
def _extractelement(c: Cursor, st: OpState) -> None:
    vec = c.operand()
    sub = c.group("[")
    pos = sub.operand()
    pos.type = sub.colon_type()
    sub.done()
    c.optional_attr_dict(st)
    vec.type = c.colon_type()
    st.refs.extend([vec, pos])
    st.result_types.append(element_type(vec.type))


@op("llvm.insertelement", "pure", "Inserts an element into a vector.", "%v2 = llvm.insertelement %x, %v[%i : i32] : vector<4xf32>")
def _insertelement(c: Cursor, st: OpState) -> None:
    value = c.operand()
    c.punct(",")
    vec = c.operand()
    sub = c.group("[")
    pos = sub.operand()
    pos.type = sub.colon_type()
    sub.done()
    c.optional_attr_dict(st)
    vec.type = c.colon_type()
    value.type = element_type(vec.type)
    st.refs.extend([vec, value, pos])
    st.result_types.append(vec.type)


@op("llvm.shufflevector", "pure", "Picks elements of two vectors by a static mask.", "%r = llvm.shufflevector %a, %b [0, 1] : vector<2xf32>")
def _shufflevector(c: Cursor, st: OpState) -> None:
    a = c.operand()
    c.punct(",")
    b = c.operand()
    mask = c.attr()
    c.optional_attr_dict(st)
    a.type = b.type = c.colon_type()
    st.refs.extend([a, b])
    count = len(getattr(mask, "elements", getattr(mask, "values", ())))
    st.result_types.append(T.VectorType((count,), element_type(a.type)))


@op("llvm.atomicrmw", "", "Atomic read-modify-write through a pointer.", "%old = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i32")
def _atomicrmw(c: Cursor, st: OpState) -> None:
    c.optional_keyword("volatile")
    c.any_keyword()
    ptr = c.operand()
    c.punct(",")
    value = c.operand()
    _skip_keywords(c)
    c.optional_attr_dict(st)
    ptr.type = c.colon_type()
    c.punct(",")
    value.type = c.type()
    st.refs.extend([ptr, value])
    st.result_types.append(value.type)


@op(
    "llvm.cmpxchg",
    "",
    "Atomic compare-and-exchange; returns the old value and a success flag.",
    "%r = llvm.cmpxchg %p, %cmp, %new acq_rel monotonic : !llvm.ptr, i32",
)
def _cmpxchg(c: Cursor, st: OpState) -> None:
    _skip_keywords(c)
    ptr = c.operand()
    c.punct(",")
    cmp = c.operand()
    c.punct(",")
    new = c.operand()
    _skip_keywords(c)
    c.optional_attr_dict(st)
    ptr.type = c.colon_type()
    c.punct(",")
    cmp.type = new.type = c.type()
    st.refs.extend([ptr, cmp, new])
    try:
        st.result_types.append(parse_type(f"!llvm.struct<({cmp.type}, i1)>"))
    except TypeSyntaxError:
        st.result_types.append(T.UNKNOWN)


# --- control flow -----------------------------------------------------------------------------


@op("llvm.br", "terminator", "Jumps to a block.", "llvm.br ^bb1(%a : T)")
def _br(c: Cursor, st: OpState) -> None:
    successor(c, st)
    c.optional_attr_dict(st)


@op("llvm.cond_br", "terminator", "Jumps to one of two blocks depending on an i1 condition.", "llvm.cond_br %c, ^bb1(%a : T), ^bb2")
def _cond_br(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(T.I1))
    read_weights(c, st)
    c.punct(",")
    successor(c, st)
    c.punct(",")
    successor(c, st)
    c.optional_attr_dict(st)


@op("llvm.switch", "terminator", "Jumps to the block whose case value matches.", "llvm.switch %v : i32, ^default [ 1: ^bb1 ]")
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


@op("llvm.unreachable", "terminator", "Marks a point that control never reaches.", "llvm.unreachable")
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
        lhs = c.operand()
        c.punct(",")
        rhs = c.operand()
        read_modifiers(c, st)
        c.optional_attr_dict(st)
        lhs.type = rhs.type = c.colon_type()
        st.refs.extend([lhs, rhs])
        st.result_types.append(lhs.type)

    op(f"llvm.{name}", "pure", f"LLVM `{name}` instruction.", f"%r = llvm.{name} %a, %b : T")(parse)


for _n in INT_BINARY + FLOAT_BINARY:
    _binary(_n)


@op("llvm.fneg", "pure", "Float negation.", "%r = llvm.fneg %a : f32")
def _fneg(c: Cursor, st: OpState) -> None:
    unary_same_type(c, st)


@op("llvm.freeze", "pure", "Stops propagation of undef and poison.", "%r = llvm.freeze %a : T")
def _freeze(c: Cursor, st: OpState) -> None:
    unary_same_type(c, st)


def _cast(name: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        _skip_keywords(c)
        src = c.operand()
        read_modifiers(c, st)
        c.optional_attr_dict(st)
        src.type = c.colon_type()
        c.keyword("to")
        st.refs.append(src)
        st.result_types.append(c.type())

    op(f"llvm.{name}", "pure", f"LLVM `{name}` cast.", f"%r = llvm.{name} %a : T to U")(parse)


for _n in CASTS:
    _cast(_n)


def _cmp(name: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        pred = c.string()
        st.extra["predicate"] = pred
        lhs = c.operand()
        c.punct(",")
        rhs = c.operand()
        c.optional_attr_dict(st)
        lhs.type = rhs.type = c.colon_type()
        st.refs.extend([lhs, rhs])
        st.result_types.append(shape_of(lhs.type, T.I1))

    op(f"llvm.{name}", "pure", f"LLVM `{name}` comparison.", f'%b = llvm.{name} "slt" %a, %b : T')(parse)


_cmp("icmp")
_cmp("fcmp")


@op("llvm.select", "pure", "Chooses between two values by a condition.", "%r = llvm.select %c, %a, %b : i1, T")
def _select(c: Cursor, st: OpState) -> None:
    cond = c.operand()
    c.punct(",")
    a = c.operand()
    c.punct(",")
    b = c.operand()
    read_modifiers(c, st)
    c.optional_attr_dict(st)
    cond.type = c.colon_type()
    c.punct(",")
    a.type = b.type = c.type()
    st.refs.extend([cond, a, b])
    st.result_types.append(a.type)


# --- everything else: read loosely ------------------------------------------------------------

TOLERANT = (
    "llvm.fence", "llvm.inline_asm", "llvm.module_flags", "llvm.comdat", "llvm.comdat_selector",
    "llvm.mlir.alias", "llvm.mlir.global_ctors", "llvm.mlir.global_dtors", "llvm.mlir.ifunc",
    "llvm.linker_options", "llvm.named_metadata", "llvm.va_arg", "llvm.call_intrinsic",
    "llvm.invoke", "llvm.landingpad", "llvm.resume", "llvm.indirectbr", "llvm.blockaddress",
    "llvm.blocktag", "llvm.dso_local_equivalent",
)
INTRINSICS = (
    "abs", "acos", "asin", "assume", "atan", "atan2", "bitreverse", "bswap", "ceil", "copysign", "cos",
    "cosh", "ctlz", "ctpop", "cttz", "debugtrap", "exp", "exp10", "exp2", "expect", "fabs", "floor", "fma",
    "fmuladd", "frexp", "fshl", "fshr", "get.active.lane.mask", "is.fpclass", "ldexp", "lifetime.end",
    "lifetime.start", "llrint", "llround", "log", "log10", "log2", "lrint", "lround", "masked.compressstore",
    "masked.expandload", "masked.gather", "masked.load", "masked.scatter", "masked.store", "maximum", "maxnum",
    "memcpy", "memcpy.inline", "memmove", "memset", "memset.inline", "minimum", "minnum", "nearbyint", "pow",
    "powi", "prefetch", "ptrmask", "rint", "round", "roundeven", "sadd.sat", "sadd.with.overflow", "sin",
    "sincos", "sinh", "smax", "smin", "smul.with.overflow", "sqrt", "sshl.sat", "ssub.sat",
    "ssub.with.overflow", "stackrestore", "stacksave", "stepvector", "tan", "tanh", "threadlocal.address",
    "trap", "trunc", "uadd.sat", "uadd.with.overflow", "ubsantrap", "umax", "umin", "umul.with.overflow",
    "ushl.sat", "usub.sat", "usub.with.overflow", "vector.deinterleave2", "vector.extract", "vector.insert",
    "vector.interleave2", "vector.reduce.add", "vector.reduce.and", "vector.reduce.fadd",
    "vector.reduce.fmax", "vector.reduce.fmaximum", "vector.reduce.fmin", "vector.reduce.fminimum",
    "vector.reduce.fmul", "vector.reduce.mul", "vector.reduce.or", "vector.reduce.smax",
    "vector.reduce.smin", "vector.reduce.umax", "vector.reduce.umin", "vector.reduce.xor", "vscale",
)

for _name in TOLERANT:
    op(_name, "", "An LLVM dialect operation (read loosely).")(read_tolerant)
for _name in INTRINSICS:
    op(f"llvm.intr.{_name}", "", f"The LLVM intrinsic `llvm.{_name}`.")(read_tolerant)
