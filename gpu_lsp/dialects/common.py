"""Syntax pieces shared by several dialects (signatures, same-type operand lists)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import ArrayAttr, DictAttr, StringAttr, TypeAttr
from gpu_lsp.parser.cursor import ArgDef, Cursor, FormatError, OpState


def read_symbol_name(c: Cursor, st: OpState) -> None:
    """`@name` into the `sym_name` property."""
    sym = c.symbol()
    st.properties["sym_name"] = StringAttr(sym.root)


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
                sub.fail("expected a type")
            named = True
            tok = sub.def_value()
            sub.punct(":")
            ty = sub.type()
            args.append(ArgDef(tok.value[1:], tok.start_pos, tok.end_pos, ty))
        else:
            if named is True:
                sub.expected("SSA value")
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
    c.attr_dict_with_keyword(st)
    if c.is_region():
        if args and not named and needs_names_for_body:
            raise FormatError("expected named arguments for a function with a body", *c.here())
        st.add_region(c.region(), args if named else [])
    else:
        st.add_region(None, None)
    st.extra["loc"] = c.optional_loc()


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
