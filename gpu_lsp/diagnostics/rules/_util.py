"""Helpers the rules share: where MLIR reports an op, how it quotes types, fix builders."""

from __future__ import annotations

from collections.abc import Sequence

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Applicability, Fix, Severity
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import ArrayAttr, Attribute, DialectAttr, DictAttr, TypeAttr
from gpu_lsp.ir.core import Operation, OpResult, Value
from gpu_lsp.ir.effects import view_source
from gpu_lsp.ir.views import async_token
from gpu_lsp.syntax import gpu_syntax
from gpu_lsp.text import Edit, TextRange


def at(op: Operation) -> TextRange:
    """Where MLIR reports a diagnostic on `op`: its location, the start of its name."""
    rng = op.name_range or op.range
    return rng if rng is not None else TextRange(0, 0)


def rejected_by_parser(attr: Attribute) -> bool:
    """Whether the parser rejected the value (or a value inside it): GPU122/GPU123 reported it, where upstream stops."""
    if isinstance(attr, ArrayAttr):
        return any(rejected_by_parser(a) for a in attr.elements)
    if isinstance(attr, DictAttr):
        return any(rejected_by_parser(a) for _, a in attr.entries)
    return isinstance(attr, (DialectAttr, TypeAttr)) and gpu_syntax.check(str(attr)) is not None


def parse_error_within(op: Operation, ctx: RuleContext) -> bool:
    """Whether the parser reported an error inside `op`'s text: what it read there is not what was
    meant (a body lost, a type rejected), and upstream stops at that error."""
    rng = op.range
    return rng is not None and any(
        d.severity >= Severity.ERROR and rng.start <= d.range.start < rng.end for d in ctx.chunk.diagnostics
    )


def op_error(op: Operation, message: str) -> str:
    """`emitOpError`: `'<op>' op <message>`."""
    return f"'{op.name}' op {message}"


def q(ty: T.Type) -> str:
    """A type as MLIR's diagnostics print it: in single quotes."""
    return f"'{ty}'"


def value_name(value: Value) -> str:
    """`%name` of a value as written, or a placeholder."""
    return f"%{value.name}" if value.name else "<<unnamed>>"


def use_range(op: Operation, index: int) -> TextRange:
    """Where operand `index` of `op` is written (the op's location when unknown)."""
    if index < len(op.operand_spans):
        span = op.operand_spans[index]
        if span is not None:
            return span.range
    return at(op)


def def_range(value: Value) -> TextRange | None:
    """Where a value is defined (its name in the result list or argument list)."""
    if value.def_span is not None:
        return value.def_span.range
    owner = value.defining_op
    return at(owner) if owner is not None else None


def element_type(ty: T.Type) -> T.Type:
    """`getElementTypeOrSelf`."""
    if isinstance(ty, (T.VectorType, T.TensorType, T.MemRefType, T.UnrankedTensorType, T.UnrankedMemRefType)):
        return ty.element
    return ty


def is_signless_int_or_float(ty: T.Type) -> bool:
    """ODS `AnyIntegerOrFloat` as upstream spells it: any integer (signless or not) or float."""
    return isinstance(ty, (T.IntegerType, T.FloatType))


def insert_line_before(ctx: RuleContext, op: Operation, line: str) -> Edit | None:
    """An edit inserting `line` (with the op's indentation) on its own line before `op`."""
    if ctx.text is None or op.range is None:
        return None
    start = ctx.line_start(op.range.start)
    indent = ctx.indentation(op.range.start)
    return Edit(TextRange(start, start), f"{indent}{line}\n")


def insert_line_after(ctx: RuleContext, op: Operation, line: str) -> Edit | None:
    """An edit inserting `line` (with the op's indentation) on its own line after `op`."""
    if ctx.text is None or op.range is None:
        return None
    text = ctx.text
    end = text.find("\n", op.range.end)
    end = len(text) if end < 0 else end
    indent = ctx.indentation(op.range.start)
    return Edit(TextRange(end, end), f"\n{indent}{line}")


def delete_op_line(ctx: RuleContext, op: Operation) -> Edit | None:
    """An edit removing `op` together with its line when the op is alone on it."""
    if ctx.text is None or op.range is None:
        return None
    text = ctx.text
    start, end = op.range.start, op.range.end
    line_start = ctx.line_start(start)
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if text[line_start:start].strip() == "" and text[end:line_end].strip() == "":
        return Edit(TextRange(line_start, min(line_end + 1, len(text))), "")
    return Edit(TextRange(start, end), "")


def fix(title: str, edits: Sequence[Edit | None], applicability: Applicability = Applicability.SAFE) -> Fix | None:
    """A Fix from edits, or None when one of them could not be built."""
    built = tuple(e for e in edits if e is not None)
    if not built or len(built) < len(edits):
        return None
    return Fix(title, built, applicability)


def wait_before(ctx: RuleContext, first: Operation, second: Operation) -> Fix | None:
    """An unsafe fix: a blocking `gpu.wait` on the (named) token of `first`, inserted before `second`."""
    token = async_token(first)
    if token is None or not token.name:
        return None
    name = value_name(token)
    return fix(f"Wait for `{name}` before `{second.name}`", [insert_line_before(ctx, second, f"gpu.wait [{name}]")], Applicability.UNSAFE)




def buffer_value(value: Value) -> Value:
    """The memref value a view of it was made from (through casts, subviews and views)."""
    for _ in range(16):
        source = view_source(value.owner) if isinstance(value, OpResult) else None
        if source is None:
            break
        value = source
    return value


def buffer_root(value: Value) -> int:
    """The identity of the buffer a memref value views (through casts, subviews and views)."""
    return id(buffer_value(value))


_MEMREF_TYPES = (T.MemRefType, T.UnrankedMemRefType)


def is_memref(value: Value) -> bool:
    return isinstance(value.type, _MEMREF_TYPES)


def captured_memrefs(op: Operation, ctx: RuleContext) -> tuple[list[Operation], list[Value]]:
    """The memref operands of the ops nested in `op` that no op nested in `op` defines (values
    captured from above, and block arguments), in pre-order, with the op using each (two
    parallel lists); cached per chunk."""
    key = ("captured_memrefs", id(op))
    found = ctx.cache.get(key)
    if found is None:
        nested = list(op.nested())
        inner: set[Value] = set()  # values hash by identity
        for n in nested:
            inner.update(n.results)
        users: list[Operation] = []
        values: list[Value] = []
        for n in nested:
            for v in n.operands:
                if v not in inner and isinstance(v.type, _MEMREF_TYPES):
                    users.append(n)
                    values.append(v)
        found = (users, values)
        ctx.cache[key] = found
    return found
