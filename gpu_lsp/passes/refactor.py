"""Refactorings at a position, as text edits: the passes applied to a buffer the user edits.

Plain functions for the server's code actions (each parses the buffer afresh,
rewrites the IR and returns the minimal edits, see `edits.py`):

* `outline_launch`: the gpu.launch at the cursor (and the launches nested in it);
* `outline_function` / `outline_file`: every launch of the enclosing top-level
  op / of the buffer;
* `make_function_async`: `gpu-async-region` on the enclosing func.func;
* `legalize_for_lowering`: the fix-all of `legalize.py` over the buffer.

Outlining first sinks index computations into the launches it outlines (as
upstream's tests run `-gpu-launch-sink-index-computations -gpu-kernel-outlining`),
so constants stay inside the kernel; `sink=False` turns that off. A rewrite
that cannot be done raises `RefactorError` with upstream's message.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir.core import Operation
from gpu_lsp.parser.api import Chunk, ParsedFile, parse
from gpu_lsp.passes.async_region import make_async_func
from gpu_lsp.passes.base import PassFailure
from gpu_lsp.passes.edits import Snapshot
from gpu_lsp.passes.ir import post_order
from gpu_lsp.passes.legalize import legalize
from gpu_lsp.passes.outlining import outline_kernels
from gpu_lsp.passes.sink import sink_into_launch
from gpu_lsp.text import Edit

REWRITE = "refactor.rewrite"
FIX_ALL = "source.fixAll"

OUTLINE_LAUNCH = "gpu.outline-launch"
OUTLINE_FUNCTION = "gpu.outline-function"
OUTLINE_FILE = "gpu.outline-file"
ASYNC_FUNCTION = "gpu.async-function"
LEGALIZE = "gpu.legalize-for-lowering"


class RefactorError(Exception):
    """The refactoring does not apply here, or its pass failed (message says why)."""


@dataclass(frozen=True)
class Refactoring:
    """A titled set of edits (an LSP code action with a workspace edit)."""

    id: str
    title: str
    kind: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class Available:
    """A refactoring that applies at a position, before its edits are computed."""

    id: str
    title: str
    kind: str


def _paused_gc(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with paused_gc():
            return fn(*args, **kwargs)

    return wrapper


# --- finding things -------------------------------------------------------------------------


def _usable_chunk(parsed: ParsedFile, offset: int) -> Chunk:
    chunk = parsed.chunk_at(offset)
    errors = [d for d in chunk.diagnostics if d.severity >= Severity.ERROR]
    if errors:
        raise RefactorError(f"the IR has errors ({errors[0].message}); fix them first")
    return chunk


def _contains(op: Operation, offset: int) -> bool:
    rng = op.range
    return rng is not None and rng.start <= offset <= rng.end


def launch_at(chunk: Chunk, offset: int) -> Operation | None:
    """The innermost gpu.launch whose text contains `offset`."""
    best = None
    for op in chunk.module.walk():
        if op.name == "gpu.launch" and _contains(op, offset):
            if best is None or op.range.end - op.range.start < best.range.end - best.range.start:
                best = op
    return best


def top_level_at(chunk: Chunk, offset: int) -> Operation | None:
    """The op directly in the module whose text contains `offset`."""
    body = chunk.module.regions[0].blocks[0] if chunk.module.regions and chunk.module.regions[0].blocks else None
    for op in body.operations if body is not None else []:
        if _contains(op, offset):
            return op
    return None


def _launches_in(op: Operation) -> list[Operation]:
    return [o for o in post_order(op) if o.name == "gpu.launch"]


# --- the rewrites ---------------------------------------------------------------------------


def _outline(text: str, chunk: Chunk, launches: list[Operation], sink: bool, data_layout: str) -> list[Edit]:
    snap = Snapshot(text, chunk)
    if sink:
        for launch in launches:
            sink_into_launch(launch)
    chosen = set(launches)
    try:
        outline_kernels(chunk.module, data_layout, select=lambda op: op in chosen)
    except PassFailure as exc:
        raise RefactorError(exc.diagnostics[0].message) from None
    return snap.edits()


@_paused_gc
def outline_launch(text: str, offset: int, split: bool = False, sink: bool = True, data_layout: str = "") -> Refactoring:
    """Outline the gpu.launch at `offset` into a gpu.func in a new gpu.module."""
    chunk = _usable_chunk(parse(text, split), offset)
    launch = launch_at(chunk, offset)
    if launch is None:
        raise RefactorError("no gpu.launch here")
    edits = _outline(text, chunk, _launches_in(launch), sink, data_layout)
    return Refactoring(OUTLINE_LAUNCH, "Outline this gpu.launch into a gpu.func", REWRITE, tuple(edits))


@_paused_gc
def outline_function(text: str, offset: int, split: bool = False, sink: bool = True, data_layout: str = "") -> Refactoring:
    """Outline every gpu.launch of the top-level op (function) at `offset`."""
    chunk = _usable_chunk(parse(text, split), offset)
    func = top_level_at(chunk, offset)
    launches = _launches_in(func) if func is not None else []
    if not launches:
        raise RefactorError("no gpu.launch in this function")
    edits = _outline(text, chunk, launches, sink, data_layout)
    return Refactoring(OUTLINE_FUNCTION, "Outline every gpu.launch in this function", REWRITE, tuple(edits))


UNNAMED_ASYNC = "needs to be named when"


def _per_chunk(
    text: str, split: bool, rewrite: Callable[[Chunk], list[Edit] | None], tolerate: str | None = None
) -> list[Edit]:
    """Run `rewrite` on every chunk without errors (but those whose message contains `tolerate`)."""
    parsed = parse(text, split)
    edits: list[Edit] = []
    for chunk in parsed.chunks:
        errors = [d for d in chunk.diagnostics if d.severity >= Severity.ERROR]
        if any(tolerate is None or tolerate not in d.message for d in errors):
            continue
        edits.extend(rewrite(chunk) or ())
    return edits


@_paused_gc
def outline_file(text: str, split: bool = False, sink: bool = True, data_layout: str = "") -> Refactoring:
    """Outline every gpu.launch of the buffer (`gpu-kernel-outlining` on each chunk)."""

    def rewrite(chunk: Chunk) -> list[Edit] | None:
        launches = _launches_in(chunk.module)
        return _outline(text, chunk, launches, sink, data_layout) if launches else None

    edits = _per_chunk(text, split, rewrite)
    if not edits:
        raise RefactorError("no gpu.launch to outline")
    return Refactoring(OUTLINE_FILE, "Outline every gpu.launch in this file", REWRITE, tuple(edits))


@_paused_gc
def make_function_async(text: str, offset: int, split: bool = False) -> Refactoring:
    """`gpu-async-region` on the func.func at `offset`."""
    chunk = _usable_chunk(parse(text, split), offset)
    func = top_level_at(chunk, offset)
    if func is None or func.name != "func.func" or not func.regions or not func.regions[0].blocks:
        raise RefactorError("not inside a func.func with a body")
    if not any(o is not func and o.dialect == "gpu" for o in func.walk()):
        raise RefactorError("no GPU op in this function")
    snap = Snapshot(text, chunk)
    try:
        make_async_func(func)
    except PassFailure as exc:
        raise RefactorError(exc.diagnostics[0].message) from None
    edits = snap.edits()
    if not edits:
        raise RefactorError("the function's GPU ops are already asynchronous")
    return Refactoring(ASYNC_FUNCTION, "Make this function's GPU ops asynchronous", REWRITE, tuple(edits))


@_paused_gc
def legalize_for_lowering(text: str, split: bool = False) -> Refactoring:
    """One token per async op for gpu-to-llvm: join dependencies, async + wait, name tokens."""

    def rewrite(chunk: Chunk) -> list[Edit] | None:
        snap = Snapshot(text, chunk)
        result = legalize(chunk.module)
        for op in result.named:
            snap.force(op)
        return snap.edits() if result.changed else None

    edits = _per_chunk(text, split, rewrite, tolerate=UNNAMED_ASYNC)
    if not edits:
        raise RefactorError("nothing to legalize")
    return Refactoring(LEGALIZE, "Legalize GPU async tokens for lowering (gpu-to-llvm)", FIX_ALL, tuple(edits))


# --- what applies where ---------------------------------------------------------------------


def available_at(text: str, offset: int, split: bool = False, parsed: ParsedFile | None = None) -> list[Available]:
    """The refactorings that may apply at `offset` (cheap: no rewrite).

    `parsed` may be the server's current parse of `text` (it is only read);
    `compute` always parses afresh, since the rewrites change the IR.
    """
    if parsed is None:
        parsed = parse(text, split)
    chunk = parsed.chunk_at(offset)
    legalize_item = Available(LEGALIZE, "Legalize GPU async tokens for lowering (gpu-to-llvm)", FIX_ALL)
    errors = [d for d in chunk.diagnostics if d.severity >= Severity.ERROR]
    if errors:
        return [legalize_item] if all(UNNAMED_ASYNC in d.message for d in errors) else []
    out: list[Available] = []
    if launch_at(chunk, offset) is not None:
        out.append(Available(OUTLINE_LAUNCH, "Outline this gpu.launch into a gpu.func", REWRITE))
    func = top_level_at(chunk, offset)
    if func is not None and _launches_in(func):
        out.append(Available(OUTLINE_FUNCTION, "Outline every gpu.launch in this function", REWRITE))
    if any(_launches_in(c.module) for c in parsed.chunks):
        out.append(Available(OUTLINE_FILE, "Outline every gpu.launch in this file", REWRITE))
    if func is not None and func.name == "func.func" and not _launches_in(func) and any(
        o.dialect == "gpu" for o in func.walk() if o is not func
    ):
        out.append(Available(ASYNC_FUNCTION, "Make this function's GPU ops asynchronous", REWRITE))
    out.append(legalize_item)
    return out


def compute(refactoring_id: str, text: str, offset: int, split: bool = False) -> Refactoring:
    """The edits of one refactoring (an id from `available_at`); raises RefactorError."""
    if refactoring_id == OUTLINE_LAUNCH:
        return outline_launch(text, offset, split)
    if refactoring_id == OUTLINE_FUNCTION:
        return outline_function(text, offset, split)
    if refactoring_id == OUTLINE_FILE:
        return outline_file(text, split)
    if refactoring_id == ASYNC_FUNCTION:
        return make_function_async(text, offset, split)
    if refactoring_id == LEGALIZE:
        return legalize_for_lowering(text, split)
    raise RefactorError(f"unknown refactoring '{refactoring_id}'")


def refactorings_at(text: str, offset: int, split: bool = False) -> list[Refactoring]:
    """Every refactoring that applies at `offset`, with its edits."""
    out = []
    for item in available_at(text, offset, split):
        try:
            out.append(compute(item.id, text, offset, split))
        except RefactorError:
            continue
    return out
