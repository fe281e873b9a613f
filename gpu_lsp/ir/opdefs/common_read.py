"""Syntax pieces shared by several dialects (signatures, same-type operand lists)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import ArrayAttr, Attribute, BoolAttr, DenseArrayAttr, DictAttr, StringAttr, TypeAttr
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.syntax.cursor import SYMBOL_NAME, ArgDef, Cursor, FormatError, OpState, Ref
from gpu_lsp.syntax.tokens import Tok

X = TypeVar("X")


def arg_def(tok: Tok, ty: T.Type, loc: Attribute | None = None) -> ArgDef:
    """The region argument a `%name` token defines."""
    return ArgDef(tok.value[1:], tok.start_pos, tok.end_pos, ty, loc)


def read_symbol_name(c: Cursor, st: OpState) -> None:
    """`@name` into the `sym_name` property."""
    sym = c.symbol(SYMBOL_NAME)
    st.properties["sym_name"] = StringAttr(sym.root)


def read_optional_body(c: Cursor, st: OpState, args: list[ArgDef] | None) -> None:
    """A function's body with its entry arguments, or an empty region for a declaration."""
    if c.is_region():
        st.add_region(c.region(), args)
    else:
        st.add_region(None, None)


def comma_separated(c: Cursor, opener: str, item: Callable[[Cursor], X]) -> list[X]:
    """`[a, b, ...]` / `(a, b, ...)`: the group opened by `opener`, one `item` read per entry."""
    sub = c.group(opener)
    out: list[X] = []
    while not sub.at_end:
        out.append(item(sub))
        if sub.at_end:
            break
        sub.punct(",")
    return out


# Literals that need their type written after them where none is known (`dense<1> : tensor<2xi32>`).
_TYPED_LITERALS = frozenset(("dense", "dense_resource", "sparse"))


def read_typed_constant(c: Cursor) -> tuple[Attribute, T.Type]:
    """A constant's value attribute and the type it carries (`true` / `false` are i1). Without one,
    upstream's errors: "expected ':'" just after a literal that needs its type, else "invalid kind of
    attribute specified" at the attribute."""
    start, end = c.here()
    first = c.peek()
    attr = c.attr()
    ty = getattr(attr, "type", None)
    if ty is None and isinstance(attr, BoolAttr):
        ty = T.I1
    if not isinstance(ty, T.Type):
        if isinstance(first, Tok) and first.value.partition("<")[0] in _TYPED_LITERALS:
            c.expected_by_parser("':'")
        raise FormatError("invalid kind of attribute specified", start, end)
    return attr, ty


def comma_operands(c: Cursor, count: int) -> list[Ref]:
    """`%a, %b, ...`: exactly `count` operands."""
    refs = [c.operand()]
    for _ in range(count - 1):
        c.punct(",")
        refs.append(c.operand())
    return refs


def bind_colon_types(c: Cursor, refs: list[Ref]) -> list[T.Type]:
    """`: T, U, ...`: a type for each of `refs`, in order; the types."""
    c.punct(":")
    types = []
    for i, ref in enumerate(refs):
        if i:
            c.punct(",")
        ref.type = ty = c.type()
        types.append(ty)
    return types


def read_typed_operands(c: Cursor) -> list[Ref]:
    """`%a, %b : T, U` or nothing: the operands, each with its type."""
    refs = c.operand_list()
    if refs:
        tys = c.colon_type_list()
        if len(tys) != len(refs):
            c.fail(f"expected {len(refs)} types")
        for r, t in zip(refs, tys):
            r.type = t
    return refs


def paren_typed_operands(c: Cursor, closing: str) -> list[Ref]:
    """`(%a : T, %b : U)`: operands each followed by its type; without a `,` upstream's parser expects `closing`."""
    sub = c.group("(")
    refs: list[Ref] = []
    while not sub.at_end:
        ref = sub.operand()
        sub.punct(":")
        ref.type = sub.type()
        refs.append(ref)
        if sub.at_end:
            break
        if not sub.is_punct(","):
            sub.expected_by_parser(closing)
        sub.punct(",")
    return refs


def read_visibility(c: Cursor, st: OpState) -> None:
    if c.is_token("STRING") or (c.is_token("BARE") and c.peek().value in ("private", "public", "nested")):
        tok = c.next()
        st.properties["sym_visibility"] = StringAttr(tok.value.strip('"'))


def read_signature(c: Cursor, st: OpState, allow_unnamed: bool = True) -> tuple[list[ArgDef], list[T.Type], bool]:
    """`(%a: T {attrs}, ...) -> R`: argument definitions, result types, whether args were named."""
    sub = c.group("(")
    args: list[ArgDef] = []
    arg_attrs: list[DictAttr] = []
    named = None
    while not sub.at_end:
        if sub.is_operand():
            if named is False:
                sub.fail("expected type instead of SSA identifier")
            named = True
            tok = sub.def_value()
            sub.punct(":")
            ty = sub.type()
            args.append(arg_def(tok, ty))
        else:
            if named is True:
                sub.expected("SSA identifier")
            if sub.is_punct("..."):
                break
            named = False
            start, end = sub.here()
            ty = sub.type()
            args.append(ArgDef(None, start, end, ty))
        attrs = DictAttr(())
        if sub.is_attr_dict():
            attrs = sub.parse_dict_text(sub.next())
        arg_attrs.append(attrs)
        args[-1].loc = sub.optional_loc()
        if sub.at_end:
            break
        sub.punct(",")
    results: list[T.Type] = []
    res_attrs: list[DictAttr] = []
    if c.optional_punct("->"):
        if c.is_group("(") and not c.is_punct("->", 1):
            rsub = c.group("(")
            while not rsub.at_end:
                results.append(rsub.type())
                res_attrs.append(rsub.parse_dict_text(rsub.next()) if rsub.is_attr_dict() else DictAttr(()))
                if rsub.at_end:
                    break
                rsub.punct(",")
        else:
            results.append(c.type())
            res_attrs.append(c.parse_dict_text(c.next()) if c.is_attr_dict() else DictAttr(()))
    st.properties["function_type"] = TypeAttr(T.FunctionType(tuple(a.type for a in args), tuple(results)))
    if any(a.entries for a in arg_attrs):
        st.properties["arg_attrs"] = ArrayAttr(tuple(arg_attrs))
    if any(a.entries for a in res_attrs):
        st.properties["res_attrs"] = ArrayAttr(tuple(res_attrs))
    return args, results, bool(named)


def read_function_like(c: Cursor, st: OpState, needs_names_for_body: bool = True) -> None:
    """`[visibility] @name(args) -> results [attributes {...}] [region]` (func.func, llvm.func)."""
    read_visibility(c, st)
    read_symbol_name(c, st)
    args, _, named = read_signature(c, st)
    at = c.here()
    written = c.attr_dict_entries_with_keyword()
    for inferred in ("sym_visibility", "sym_name", "function_type"):  # upstream's parseFunctionOp, in its order
        if any(key == inferred for key, _ in written):
            raise FormatError(f"'{inferred}' is an inferred attribute and should not be specified in the explicit attribute dictionary", *at)
    for key, value in written:
        st.attributes[key] = value
    if c.is_region() and args and not named and needs_names_for_body:
        raise FormatError("expected named arguments for a function with a body", *c.here())
    read_optional_body(c, st, args if named else [])
    st.loc = c.optional_loc()


def attr_dict_after_reader(c: Cursor, st: OpState) -> None:
    """`attributes {...}` after what the op's reader set: an inherent attribute it set (a property) is
    written there a second time, upstream's error at the op's name (the op's parser adds it to the same
    list; `gpu.kernel` after the `kernel` keyword is no error upstream)."""
    for key, value in c.attr_dict_entries_with_keyword():
        if key in st.properties:
            raise FormatError(f"attribute '{key}' occurs more than once in the attribute list", *c.ctx.name_range)
        st.attributes[key] = value


def same_type_operands(c: Cursor, st: OpState, count: int | None = None, results: int = 1) -> T.Type:
    """`%a, %b, ... attr-dict : T` where every operand and result has type T."""
    refs = c.operand_list()
    if count is not None and len(refs) != count:
        c.fail(f"expected {count} operands")
    c.optional_attr_dict(st)
    ty = c.colon_type()
    for r in refs:
        r.type = ty
    st.refs.extend(refs)
    st.result_types.extend([ty] * results)
    return ty


def shape_of(ty: T.Type, element: T.Type) -> T.Type:
    """`element` with the shape of `ty` (for vector/tensor-wise comparisons and casts)."""
    if isinstance(ty, T.VectorType):
        return T.VectorType(ty.shape, element, ty.scalable)
    if isinstance(ty, T.TensorType):
        return T.TensorType(ty.shape, element, ty.encoding)
    if isinstance(ty, T.UnrankedTensorType):
        return T.UnrankedTensorType(element)
    return element


def element_type(ty: T.Type) -> T.Type:
    """Element type of a shaped type, else the type itself."""
    if isinstance(ty, (T.VectorType, T.TensorType, T.MemRefType, T.UnrankedTensorType, T.UnrankedMemRefType, T.ComplexType)):
        return ty.element
    return ty


def read_element_access(c: Cursor, st: OpState, arrow: bool = False) -> None:
    """`%src[%i, ...] attr-dict : T` (one element of T), or with `arrow` `: T -> R`."""
    src = c.operand()
    idx = c.index_list()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    st.refs.extend([src] + idx)
    if arrow:
        c.punct("->")
        st.result_types.append(c.type())
    else:
        st.result_types.append(element_type(src.type))


def typed_operand_list(c: Cursor, st: OpState) -> list[Ref]:
    """`%a, %b : T, U` or nothing (`($values^ : type($values))?`), added to the op's operands."""
    refs = read_typed_operands(c)
    st.refs.extend(refs)
    return refs


def value_defs(c: Cursor, ty: T.Type | None = None) -> list[ArgDef]:
    """`(%i, %j, ...)`: names a region argument each (induction variables)."""
    return comma_separated(c, "(", lambda sub: arg_def(sub.def_value(), ty or T.INDEX))


def _assignment(sub: Cursor) -> tuple[ArgDef, Ref]:
    tok = sub.def_value()
    sub.punct("=")
    return arg_def(tok, T.UNKNOWN), sub.operand()


def assignment_list(c: Cursor) -> tuple[list[ArgDef], list[Ref]]:
    """`(%arg = %init, ...)`: region arguments and the operands they are bound to."""
    pairs = comma_separated(c, "(", _assignment)
    return [arg for arg, _ in pairs], [ref for _, ref in pairs]


def bind_types(c: Cursor, args: list[ArgDef], refs: list[Ref], types: list[T.Type]) -> None:
    """Give each `%arg = %init` pair its type from a type list of the same length."""
    if len(types) != len(refs):
        c.fail(f"expected as many types as operands ({len(refs)}), got {len(types)}")
    for a, r, t in zip(args, refs, types):
        a.type = t
        r.type = t


def loop_carried(c: Cursor, st: OpState, keyword: str) -> tuple[list[ArgDef], list[Ref]]:
    """`iter_args(%arg = %init, ...) -> (T, ...)` (or `shared_outs`): the region arguments, their
    operands and the op's result types, each pair typed by its result; nothing when `keyword` is absent."""
    if not c.optional_keyword(keyword):
        return [], []
    args, inits = assignment_list(c)
    c.punct("->")
    results = c.result_types()
    bind_types(c, args, inits, results)
    st.result_types.extend(results)
    return args, inits


def typed_arg_defs(c: Cursor, attrs: list[DictAttr] | None = None) -> list[ArgDef]:
    """`(%a : T {attrs}? loc(...)?, ...)`: named, typed region arguments (upstream's parseArgument with
    type and attributes); each argument's attribute dictionary is appended to `attrs` when given."""

    def item(sub: Cursor) -> ArgDef:
        tok = sub.def_value()
        sub.punct(":")
        ty = sub.type()
        found = sub.parse_dict_text(sub.next()) if sub.is_attr_dict() else DictAttr(())
        if attrs is not None:
            attrs.append(found)
        return arg_def(tok, ty, sub.optional_loc())

    return comma_separated(c, "(", item)


def successor(c: Cursor, st: OpState) -> None:
    """`^bb [(%a, ... : T, ...)]`: a successor and its operands."""
    st.successors.append(c.block_ref())
    count = 0
    if c.is_group("("):
        sub = c.group("(")
        refs = read_typed_operands(sub)
        sub.done()
        st.refs.extend(refs)
        count = len(refs)
    facts = writable_facts(st)
    facts.successor_operands = (*facts.successor_operands, count)


def read_conversion(c: Cursor, st: OpState, modifiers: Callable[[Cursor, OpState], None] | None = None) -> None:
    """`%a [modifiers] attr-dict : T to U` with result type U (casts)."""
    src = c.operand()
    if modifiers is not None:
        modifiers(c, st)
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("to")
    st.refs.append(src)
    st.result_types.append(c.type())


def read_select(c: Cursor, st: OpState, modifiers: Callable[[Cursor, OpState], None] | None = None) -> None:
    """`%cond, %a, %b [modifiers] attr-dict : C, T` with result type T (llvm.select, spirv.Select)."""
    cond, a, b = refs = comma_operands(c, 3)
    if modifiers is not None:
        modifiers(c, st)
    c.optional_attr_dict(st)
    b.type = ty = bind_colon_types(c, [cond, a])[1]
    st.refs.extend(refs)
    st.result_types.append(ty)


def read_attrs_then_operands(c: Cursor, st: OpState) -> None:
    """`attr-dict ($operands^ : type($operands))?` (llvm.return, affine.yield)."""
    c.optional_attr_dict(st)
    typed_operand_list(c, st)


def read_branch(c: Cursor, st: OpState) -> None:
    """`^dest [(%args : T)] attr-dict` (llvm.br, spirv.Branch)."""
    successor(c, st)
    c.optional_attr_dict(st)


def read_cond_branch(c: Cursor, st: OpState, weights: Callable[[Cursor, OpState], None]) -> None:
    """`%cond [weights] , ^then [(...)], ^else [(...)] attr-dict` (llvm.cond_br, spirv.BranchConditional)."""
    st.refs.append(c.operand(T.I1))
    weights(c, st)
    c.punct(",")
    successor(c, st)
    c.punct(",")
    successor(c, st)
    c.optional_attr_dict(st)


def unary_same_type(c: Cursor, st: OpState, modifiers=None) -> T.Type:
    """`%a [modifiers] attr-dict : T` with result type T."""
    ref = c.operand()
    if modifiers is not None:
        modifiers(c, st)
    c.optional_attr_dict(st)
    ref.type = c.colon_type()
    st.refs.append(ref)
    st.result_types.append(ref.type)
    return ref.type


def mixed_index_list(c: Cursor, opener: str = "[") -> tuple[list[Ref], list[int]]:
    """`[%a, 4, %b]`: the SSA index operands and the static positions (kDynamic where an SSA value stands)."""
    sub = c.group(opener)
    refs: list[Ref] = []
    statics: list[int] = []
    while not sub.at_end:
        if sub.is_operand():
            refs.append(sub.operand(T.INDEX))
            statics.append(T.STATIC_DYNAMIC)
        else:
            statics.append(sub.integer())
        if sub.at_end:
            break
        sub.punct(",")
    return refs, statics


def mixed_values(c: Cursor, opener: str = "[") -> tuple[list[Ref], DenseArrayAttr]:
    """`[%a, 4, %b]`: the SSA operands and the `static_*` array."""
    refs, statics = mixed_index_list(c, opener)
    return refs, DenseArrayAttr(T.I64, tuple(statics))


