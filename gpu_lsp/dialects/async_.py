"""The async dialect: asynchronous regions, tokens, values and groups (host-side concurrency)."""

from __future__ import annotations

from gpu_lsp.dialects.common import read_function_like, read_tolerant, typed_operand_list
from gpu_lsp.dialects.registry import op
from gpu_lsp.ir import types as T
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


@op(
    "async.execute",
    "single_block",
    "Runs a region asynchronously; returns a completion token and one !async.value per yielded value.",
    "%t, %v = async.execute [%dep] (%a as %x: !async.value<T>) -> !async.value<R> { ... async.yield %r : R }",
)
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


@op("async.yield", "terminator return_like", "Ends an async.execute region with its values.", "async.yield [%v : T]")
def _yield(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    typed_operand_list(c, st)


@op("async.await", "", "Blocks until a token or value is ready; yields the value's payload.", "[%r =] async.await %v : !async.value<T>")
def _await(c: Cursor, st: OpState) -> None:
    ref = c.operand()
    ref.type = c.colon_type()
    c.optional_attr_dict(st)
    st.refs.append(ref)
    if isinstance(ref.type, T.DialectType) and ref.type.name == "value":
        st.result_types.append(unwrapped(ref.type))


@op("async.create_group", "", "Creates a group of a given size for tokens and values.", "%g = async.create_group %size : !async.group")
def _create_group(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(T.INDEX))
    st.result_types.append(c.colon_type())
    c.optional_attr_dict(st)


@op("async.add_to_group", "", "Adds a token or value to a group; returns its rank.", "%i = async.add_to_group %t, %g : !async.token")
def _add_to_group(c: Cursor, st: OpState) -> None:
    ref = c.operand()
    c.punct(",")
    group = c.operand(ASYNC_GROUP)
    ref.type = c.colon_type()
    c.optional_attr_dict(st)
    st.refs.extend([ref, group])
    st.result_types.append(T.INDEX)


@op("async.await_all", "", "Blocks until every member of a group is ready.", "async.await_all %g")
def _await_all(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(ASYNC_GROUP))
    c.optional_attr_dict(st)


@op(
    "async.func",
    "isolated symbol function",
    "A function that runs asynchronously and returns tokens or values.",
    "async.func @f(%a: T) -> !async.value<R> { ... }",
)
def _func(c: Cursor, st: OpState) -> None:
    read_function_like(c, st)


@op("async.return", "terminator return_like", "Returns from an async.func.", "async.return [%v : T]")
def _return(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    typed_operand_list(c, st)


@op("async.call", "", "Calls an async.func.", "%r = async.call @f(%a) : (T) -> !async.value<R>")
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


RUNTIME = (
    "async.coro.begin", "async.coro.end", "async.coro.free", "async.coro.id", "async.coro.save",
    "async.coro.suspend", "async.runtime.add_ref", "async.runtime.add_to_group",
    "async.runtime.await", "async.runtime.await_and_resume", "async.runtime.create",
    "async.runtime.create_group", "async.runtime.drop_ref", "async.runtime.is_error",
    "async.runtime.load", "async.runtime.num_worker_threads", "async.runtime.resume",
    "async.runtime.set_available", "async.runtime.set_error", "async.runtime.store",
)

for _name in RUNTIME:
    op(_name, "", "An async runtime or coroutine operation (produced by async-to-async-runtime).")(read_tolerant)
