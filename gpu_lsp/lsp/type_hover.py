"""Hover on a type or attribute as written (`memref<?xf32>`, `!gpu.async.token`, `#gpu.address_space<workgroup>`)."""

from __future__ import annotations

import re

from gpu_lsp.ir import types as T
from gpu_lsp.syntax.names import BARE_ID
from gpu_lsp.syntax.types import TypeSyntaxError, parse_type
from gpu_lsp.text import TextRange

# Where a type or attribute may start; a `<` right after one opens its body, read to the matching `>`.
_START = re.compile(
    rf"\b(?:memref|vector|tensor|complex|tuple)<|[!#]{BARE_ID}"
    r"|\b(?:[su]?i[0-9]+|bf16|tf32|f[0-9]+\w*|index)\b"
)
# What dialect types and attributes mean in GPU code (keys without the body).
_MEANINGS = {
    "!gpu.async.token": "A token for asynchronous GPU work: an op marked `async` returns one; later ops wait on it "
    "(`[%t]`) and `gpu.wait [%t]` blocks the host until it completes.",
    "!async.token": "A token of the async dialect: the completion of an `async.execute` region.",
    "!gpu.mma_matrix": "A matrix fragment held by the threads of a subgroup for `gpu.subgroup_mma_*` ops.",
    "#gpu.address_space": "A GPU memory space: `global` (device memory), `workgroup` (shared by the threads of a block) "
    "or `private` (per thread).",
    "#gpu.dimension": "One of the three dimensions (`x`, `y`, `z`) of a grid or block.",
    "#gpu.thread": "A mapping of a loop to thread ids of a block (`x`, `y`, `z`).",
    "#gpu.block": "A mapping of a loop to block ids of the grid (`x`, `y`, `z`).",
    "#gpu.warp": "A mapping of a loop to warps of a block.",
    "#gpu.object": "A compiled GPU binary for one target, in a `gpu.binary`.",
}
_SPACES = {"1": "global", "3": "workgroup (shared)", "5": "private"}


def _body_end(text: str, at: int) -> int:
    """The offset after the `>` matching the `<` at `at` (`->` inside does not close it); len(text) if none."""
    depth = 0
    i = at
    while i < len(text):
        ch = text[i]
        if ch == "<":
            depth += 1
        elif ch == ">" and text[i - 1] != "-":
            depth -= 1
            if depth == 0:
                return i + 1
        elif ch == "\n":
            break
        i += 1
    return len(text)


def spelled_at(text: str, offset: int) -> TextRange | None:
    """The attribute written around `offset` on its line (the innermost), else the outermost type."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    end = len(text) if end < 0 else end
    found: TextRange | None = None
    attribute: TextRange | None = None
    for m in _START.finditer(text, start, end):
        stop = m.end()
        if text.startswith("<", stop - 1) or text.startswith("<", stop):
            stop = _body_end(text, stop - 1 if text[stop - 1] == "<" else stop)
        if not m.start() <= offset < stop:
            continue
        span = TextRange(m.start(), min(stop, end))
        if text[m.start()] == "#":
            attribute = span
        elif found is None or m.start() < found.start:
            found = span
    return attribute or found


def describe(spelled: str) -> str | None:
    """What the type or attribute `spelled` is, as Markdown (None when it is neither)."""
    key = re.match(r"[!#][\w.$]+", spelled)
    if key is not None and key.group(0) in _MEANINGS:
        return _MEANINGS[key.group(0)]
    if spelled.startswith("#"):
        return None
    try:
        ty = parse_type(spelled)
    except TypeSyntaxError:
        return None
    return _type_meaning(ty)


def _shape(shape: tuple[int | None, ...]) -> str:
    dims = "x".join("?" if d is None else str(d) for d in shape) or "scalar"
    dynamic = sum(1 for d in shape if d is None)
    return f"shape `{dims}` (rank {len(shape)}" + (f", {dynamic} dynamic)" if dynamic else ")")


def _space(attr: object) -> str:
    text = str(getattr(attr, "value", attr)) if attr is not None else ""
    return _SPACES.get(text, f"`{attr}`") if attr is not None else "the default"


def _type_meaning(ty: T.Type) -> str | None:
    if isinstance(ty, T.MemRefType):
        layout = "identity layout" if ty.layout is None else f"layout `{ty.layout}`"
        return f"A memref (a buffer view) of `{ty.element}`: {_shape(ty.shape)}, {layout}, {_space(ty.memory_space)} memory space."
    if isinstance(ty, T.UnrankedMemRefType):
        return f"An unranked memref of `{ty.element}` (rank known at run time), {_space(ty.memory_space)} memory space."
    if isinstance(ty, T.VectorType):
        return f"A vector of `{ty.element}`: {_shape(tuple(ty.shape))}."
    if isinstance(ty, T.TensorType):
        return f"A tensor (a value, not memory) of `{ty.element}`: {_shape(ty.shape)}."
    if isinstance(ty, T.IndexType):
        return "`index`: the target's pointer-sized integer, used for sizes, ids and subscripts."
    if isinstance(ty, T.IntegerType):
        sign = {"": "signless", "s": "signed", "u": "unsigned"}.get(ty.signedness, ty.signedness)
        return f"A {ty.width}-bit {sign} integer."
    if isinstance(ty, T.FloatType):
        return f"A {ty.width}-bit floating-point type."
    if isinstance(ty, T.DialectType):
        return f"A type of the `{ty.dialect}` dialect."
    return None


def type_hover(text: str, offset: int) -> tuple[str, TextRange] | None:
    """The hover of the type or attribute at `offset`: Markdown and its range (None when there is none)."""
    where = spelled_at(text, offset)
    if where is None:
        return None
    spelled = text[where.start : where.end]
    meaning = describe(spelled)
    if meaning is None:
        return None
    return f"```mlir\n{spelled}\n```\n\n{meaning}", where
