"""The async dialect: asynchronous regions, tokens, values and groups (host-side concurrency)."""

from __future__ import annotations

from gpu_lsp.dialects.common import read_function_like, typed_operand_list
from gpu_lsp.ir import types as T
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import ArgDef, Cursor, OpState
from gpu_lsp.parser.types import TypeSyntaxError, parse_type

ASYNC_TOKEN = T.DialectType("async", "token")
ASYNC_GROUP = T.DialectType("async", "group")


def unwrapped(ty: T.Type) -> T.Type:
    """`T` for `!async.value<T>`; unknown for anything else."""
    if isinstance(ty, T.DialectType) and ty.dialect == "async" and ty.name == "value" and ty.body:
        try:
            return parse_type(ty.body)
        except TypeSyntaxError:
            return T.UNKNOWN
    return T.UNKNOWN


@reader("async.execute")
def _execute(c: Cursor, st: OpState) -> None:
    deps = []
    if c.is_group("["):
        sub = c.group("[")
        deps = sub.operand_list(ASYNC_TOKEN)
        sub.done()
    operands = []
    args: list[ArgDef] = []
    if c.is_group("("):
        sub = c.group("(")
        while not sub.at_end:
            ref = sub.operand()
            sub.keyword("as")
            tok = sub.def_value()
            ref.type = sub.colon_type()
            operands.append(ref)
            args.append(ArgDef(tok.value[1:], tok.start_pos, tok.end_pos, unwrapped(ref.type)))
            if sub.at_end:
                break
            sub.punct(",")
    st.refs.extend(deps + operands)
    st.result_types.append(ASYNC_TOKEN)
    if c.optional_punct("->"):
        st.result_types.extend(c.result_types())
    c.attr_dict_with_keyword(st)
    st.add_region(c.region(), args)
    st.extra["segments"] = (len(deps), len(operands))


@reader("async.yield")
def _yield(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    typed_operand_list(c, st)


@reader("async.await")
def _await(c: Cursor, st: OpState) -> None:
    ref = c.operand()
    ref.type = c.colon_type()
    c.optional_attr_dict(st)
    st.refs.append(ref)
    if isinstance(ref.type, T.DialectType) and ref.type.name == "value":
        st.result_types.append(unwrapped(ref.type))


@reader("async.create_group")
def _create_group(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(T.INDEX))
    st.result_types.append(c.colon_type())
    c.optional_attr_dict(st)


@reader("async.add_to_group")
def _add_to_group(c: Cursor, st: OpState) -> None:
    ref = c.operand()
    c.punct(",")
    group = c.operand(ASYNC_GROUP)
    ref.type = c.colon_type()
    c.optional_attr_dict(st)
    st.refs.extend([ref, group])
    st.result_types.append(T.INDEX)


@reader("async.await_all")
def _await_all(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(ASYNC_GROUP))
    c.optional_attr_dict(st)


@reader("async.func")
def _func(c: Cursor, st: OpState) -> None:
    read_function_like(c, st)


@reader("async.return")
def _return(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    typed_operand_list(c, st)


@reader("async.call")
def _call(c: Cursor, st: OpState) -> None:
    st.properties["callee"] = c.symbol()
    sub = c.group("(")
    refs = sub.operand_list()
    sub.done()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.extend(refs)
    st.result_types.extend(fn.results)

