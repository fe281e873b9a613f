"""Refactorings at a position, as text edits: the passes applied to a buffer the user edits.

Plain functions (each parses the buffer afresh, rewrites the IR and returns the
minimal edits, see `edits.py`), declared as `RefactoringDef`s at the end of this
module and listed in `catalog.py`:

* `outline_launch`: the gpu.launch at the cursor (and the launches nested in it);
* `outline_function` / `outline_file`: every launch of the enclosing top-level
  op / of the buffer;
* `make_function_async`: `gpu-async-region` on the enclosing func.func;
* `legalize_for_lowering`: the fix-all of `legalize.py` over the buffer;
* `pass_refactoring(pass_def, ...)`: any registered pass, run on the op at the
  cursor it is anchored on.

Outlining first sinks index computations into the launches it outlines (as
upstream's tests run `-gpu-launch-sink-index-computations -gpu-kernel-outlining`),
so constants stay inside the kernel; `sink=False` turns that off. A rewrite
that cannot be done raises `RefactorError` with upstream's message.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from gpu_lsp.diagnostics.mlir_versions import NEWEST
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.types import UnknownType
from gpu_lsp.parser.api import Chunk, ParsedFile, parse
from gpu_lsp.passes.async_region import make_async_func
from gpu_lsp.passes.base import PassFailure
from gpu_lsp.passes.edits import ChunkBeforePass
from gpu_lsp.passes.legalize import legalize
from gpu_lsp.passes.outlining import outline_kernels
from gpu_lsp.passes.registration import PassDef, Refactoring, RefactoringDef, Site, top_level_at
from gpu_lsp.passes.rewriter import post_order
from gpu_lsp.passes.sink import sink_into_launch
from gpu_lsp.text import Edit

REWRITE = "refactor.rewrite"
FIX_ALL = "source.fixAll"

OUTLINE_LAUNCH = "gpu.outline-launch"
OUTLINE_FUNCTION = "gpu.outline-function"
OUTLINE_FILE = "gpu.outline-file"
ASYNC_FUNCTION = "gpu.async-function"
LEGALIZE = "gpu.legalize-for-lowering"

# A chunk whose only errors are unnamed async ops can still be legalized (that names them).
UNNAMED_ASYNC = "needs to be named when"

R = TypeVar("R")


class RefactorError(Exception):
    """The refactoring does not apply here, or its pass failed (message says why)."""


def _paused_gc(fn: Callable[..., R]) -> Callable[..., R]:
    @wraps(fn)
    def wrapper(*args: object, **kwargs: object) -> R:
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


def launch_at(chunk: Chunk, offset: int) -> Operation | None:
    """The innermost gpu.launch whose text contains `offset`."""
    best: Operation | None = None
    best_size = 0
    for op in chunk.module.walk():
        rng = op.range
        if op.name != "gpu.launch" or rng is None or not rng.start <= offset <= rng.end:
            continue
        if best is None or rng.end - rng.start < best_size:
            best, best_size = op, rng.end - rng.start
    return best


def site_at(parsed: ParsedFile, offset: int) -> Site:
    """The site of `offset` in a parse of its own (no index: launches are found by walking)."""
    return Site(
        parsed,
        offset,
        launch_at(parsed.chunk_at(offset), offset),
        lambda: any(_launches_in(c.module) for c in parsed.chunks),
    )


def _launches_in(op: Operation) -> list[Operation]:
    return [o for o in post_order(op) if o.name == "gpu.launch"]


# --- the rewrites ---------------------------------------------------------------------------


def _outline(text: str, chunk: Chunk, launches: list[Operation], sink: bool, data_layout: str) -> list[Edit]:
    for launch in launches:
        if any(isinstance(v.type, UnknownType) for op in launch.walk() for v in (*op.operands, *op.results)):
            raise RefactorError("the launch uses values whose type gpu-lsp cannot read (an op it does not know)")
    snap = ChunkBeforePass(text, chunk)
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
    return OUTLINE_LAUNCH_DEF.result(_outline(text, chunk, _launches_in(launch), sink, data_layout))


@_paused_gc
def outline_function(text: str, offset: int, split: bool = False, sink: bool = True, data_layout: str = "") -> Refactoring:
    """Outline every gpu.launch of the top-level op (function) at `offset`."""
    chunk = _usable_chunk(parse(text, split), offset)
    func = top_level_at(chunk, offset)
    launches = _launches_in(func) if func is not None else []
    if not launches:
        raise RefactorError("no gpu.launch in this function")
    return OUTLINE_FUNCTION_DEF.result(_outline(text, chunk, launches, sink, data_layout))


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
    return OUTLINE_FILE_DEF.result(edits)


@_paused_gc
def make_function_async(text: str, offset: int, split: bool = False) -> Refactoring:
    """`gpu-async-region` on the func.func at `offset`."""
    chunk = _usable_chunk(parse(text, split), offset)
    func = top_level_at(chunk, offset)
    if func is None or func.name != "func.func" or not func.regions or not func.regions[0].blocks:
        raise RefactorError("not inside a func.func with a body")
    if not any(o is not func and o.dialect == "gpu" for o in func.walk()):
        raise RefactorError("no GPU op in this function")
    snap = ChunkBeforePass(text, chunk)
    try:
        make_async_func(func)
    except PassFailure as exc:
        raise RefactorError(exc.diagnostics[0].message) from None
    for op in func.walk():
        if op.facts.unnamed_async is not None:  # `gpu.wait async` without a name: its token may now be used
            snap.force(op)
    edits = snap.edits()
    if not edits:
        raise RefactorError("the function's GPU ops are already asynchronous")
    return ASYNC_FUNCTION_DEF.result(edits)


@_paused_gc
def legalize_for_lowering(text: str, split: bool = False, mlir_version: int = NEWEST) -> Refactoring:
    """What gpu-to-llvm of `mlir_version` needs: join dependencies, async + wait, name tokens."""

    def rewrite(chunk: Chunk) -> list[Edit] | None:
        snap = ChunkBeforePass(text, chunk)
        result = legalize(chunk.module, mlir_version)
        for op in result.named:
            snap.force(op)
        return snap.edits() if result.changed else None

    edits = _per_chunk(text, split, rewrite, tolerate=UNNAMED_ASYNC)
    if not edits:
        raise RefactorError("nothing to legalize")
    return LEGALIZE_DEF.result(edits)


@_paused_gc
def run_pass_at(pass_def: PassDef, text: str, offset: int, split: bool = False) -> list[Edit]:
    """The edits of running `pass_def` on the op at `offset` it is anchored on (see `pass_target`)."""
    parsed = parse(text, split)
    chunk = _usable_chunk(parsed, offset)
    target = pass_target(pass_def, site_at(parsed, offset))
    if target is None:
        raise RefactorError(f"'{pass_def.name}' does not run here")
    snap = ChunkBeforePass(text, chunk)
    try:
        pass_def.run(target, {})
    except PassFailure as exc:
        raise RefactorError(exc.diagnostics[0].message) from None
    edits = snap.edits()
    if not edits:
        raise RefactorError(f"'{pass_def.name}' changes nothing here")
    return edits


def pass_target(pass_def: PassDef, site: Site) -> Operation | None:
    """The op a pass runs on at a site: the chunk's module for a pass on any op or on
    builtin.module, else the top-level op at the site when the pass is anchored on its name."""
    if pass_def.anchor in (None, "builtin.module"):
        return site.chunk.module
    top = site.top
    return top if top is not None and top.name == pass_def.anchor else None


def pass_refactoring(pass_def: PassDef, id: str, title: str, command: str | None = None) -> RefactoringDef:
    """A code action (and, with `command`, a server command) that runs a pass where it applies."""

    def run(text: str, offset: int, split: bool) -> Refactoring:
        return definition.result(run_pass_at(pass_def, text, offset, split))

    definition = RefactoringDef(id, title, REWRITE, lambda site: pass_target(pass_def, site) is not None, run, command)
    return definition


# --- the declarations (listed in catalog.py) -------------------------------------------------


def _async_function_applies(site: Site) -> bool:
    func = site.top
    return (
        func is not None
        and func.name == "func.func"
        and not site.top_has_launch
        and any(o.dialect == "gpu" for o in func.walk() if o is not func)
    )


OUTLINE_LAUNCH_DEF = RefactoringDef(
    OUTLINE_LAUNCH,
    "Outline this gpu.launch into a gpu.func",
    REWRITE,
    lambda site: site.launch is not None,
    outline_launch,
    command="gpuLsp.server.outlineKernel",
)
OUTLINE_FUNCTION_DEF = RefactoringDef(
    OUTLINE_FUNCTION,
    "Outline every gpu.launch in this function",
    REWRITE,
    lambda site: site.top_has_launch,
    outline_function,
)
OUTLINE_FILE_DEF = RefactoringDef(
    OUTLINE_FILE,
    "Outline every gpu.launch in this file",
    REWRITE,
    lambda site: site.file_has_launch(),
    lambda text, offset, split: outline_file(text, split),
)
ASYNC_FUNCTION_DEF = RefactoringDef(
    ASYNC_FUNCTION,
    "Make this function's GPU ops asynchronous",
    REWRITE,
    _async_function_applies,
    make_function_async,
    command="gpuLsp.server.makeAsync",
)
LEGALIZE_DEF = RefactoringDef(
    LEGALIZE,
    "Legalize GPU async tokens for lowering (gpu-to-llvm)",
    FIX_ALL,
    lambda site: True,
    lambda text, offset, split, mlir_version=NEWEST: legalize_for_lowering(text, split, mlir_version),
    tolerate=UNNAMED_ASYNC,
    versioned=True,
)
