"""The async dialect: asynchronous regions, tokens, values and groups (host-side concurrency)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import read_function_like
from gpu_lsp.ir.opdefs.format_customs import unwrapped
from gpu_lsp.ir.opdefs.format_read import FormatState, infers_types
from gpu_lsp.syntax.cursor import ArgDef, Cursor, OpState, item_end, item_start

ASYNC_TOKEN = T.DialectType("async", "token")


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
            args.append(ArgDef(tok.value[1:], item_start(tok), item_end(tok), unwrapped(ref.type)))
            if sub.at_end:
                break
            sub.punct(",")
    st.refs.extend(deps + operands)
    st.result_types.append(ASYNC_TOKEN)
    if c.optional_punct("->"):
        st.result_types.extend(c.result_types())
    c.attr_dict_with_keyword(st)
    st.add_region(c.region(), args)
    writable_facts(st).segments = (len(deps), len(operands))


@reader("async.func")
def _func(c: Cursor, st: OpState) -> None:
    read_function_like(c, st)


@infers_types("async.runtime.load")
def _load_result(st: OpState, fs: FormatState) -> None:
    """The payload type of the `!async.value` storage (TypesMatchWith storage -> result)."""
    fs.types["result"] = [unwrapped(fs.types.get("storage", [T.UNKNOWN])[0])]


@infers_types("async.runtime.store")
def _store_value(st: OpState, fs: FormatState) -> None:
    """The stored value has the payload type of the `!async.value` storage."""
    fs.types["value"] = [unwrapped(fs.types.get("storage", [T.UNKNOWN])[0])]
