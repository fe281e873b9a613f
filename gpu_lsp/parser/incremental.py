"""Incremental re-parsing: after an edit inside one top-level operation, re-parse only it.

A unit is an operation directly inside a module body (written or implicit),
such as a `func.func` or a `gpu.module`. When an edit falls strictly inside one
isolated unit and the unit's new text still parses as exactly one operation
with balanced brackets, only that unit is re-lexed, re-parsed and re-resolved;
every later unit moves by the edit's length through its anchor. Otherwise the
buffer is parsed anew. Either way the result equals a full parse (tested).
"""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Diagnostic, Related
from gpu_lsp.dialects.registry import lookup
from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir.core import Block, Operation
from gpu_lsp.parser.api import Chunk, ParsedFile, parse, split_ranges
from gpu_lsp.parser.builder import SYNTAX, Builder
from gpu_lsp.parser.lexer import Comment, tokenize
from gpu_lsp.parser.resolve import Resolver
from gpu_lsp.parser.structure import RawOp, parse_structure
from gpu_lsp.text import TextRange


def reparse(previous: ParsedFile, new_text: str, changed: TextRange) -> ParsedFile:
    """Parse `new_text`, reusing `previous` (which is consumed) where the edit allows.

    `changed` is the replaced range in the previous text; the new text is the
    previous one with that range replaced.
    """
    delta = len(new_text) - len(previous.text)
    with paused_gc():
        result = _try_incremental(previous, new_text, changed, delta)
    if result is None:
        return parse(new_text, previous.split)
    return result


def _try_incremental(previous: ParsedFile, new_text: str, changed: TextRange, delta: int) -> ParsedFile | None:
    start, end = changed.start, changed.end
    old_text = previous.text
    inserted = new_text[start : end + delta]
    if "// ---" in inserted or "// ---" in old_text[max(0, start - 8) : end + 8]:
        return None
    chunk_index = next((i for i, c in enumerate(previous.chunks) if c.start <= start and end <= c.end), None)
    if chunk_index is None:
        return None
    if previous.split:
        expected = [
            (c.start, c.end + delta) if i == chunk_index else ((c.start + delta, c.end + delta) if i > chunk_index else (c.start, c.end))
            for i, c in enumerate(previous.chunks)
        ]
        if split_ranges(new_text) != expected:
            return None
    chunk = previous.chunks[chunk_index]
    if any(d.code == SYNTAX for d in chunk.diagnostics):
        return None  # a bracket-structure error is the chunk's, placed where upstream puts it
    container = _container(chunk)
    if container is None:
        return None
    unit = next((op for op in container.operations if op.range.start < start and end < op.range.end), None)
    if unit is None or unit.results or not _isolated(unit):
        return None
    if any(op.results for op in container.operations):
        return None  # the unit sees the top-level values defined before it: resolve them all
    u_start, u_end = unit.range.start, unit.range.end
    line_head = old_text[old_text.rfind("\n", 0, u_start) + 1 : u_start]
    if line_head.strip():
        return None
    new_end = u_end + delta
    lexed = tokenize(new_text, chunk.context.op_names, u_start, new_end)
    if lexed.errors:
        return None
    raw_items, errors = parse_structure(lexed.tokens)
    if errors or len(raw_items) != 1 or not isinstance(raw_items[0], RawOp) or raw_items[0].end_pos != new_end:
        return None
    ctx = chunk.context
    ctx.text = new_text
    alias_mark = len(ctx.alias_uses)
    diagnostics: list[Diagnostic] = []
    new_op = Builder(ctx, diagnostics).top_level_op(raw_items[0])
    if new_op.results or not _isolated(new_op):
        return None
    Resolver(diagnostics).resolve_top([new_op])
    merged = _merge_diagnostics(chunk.diagnostics, diagnostics, u_start, u_end, delta)
    if merged is None:
        return None
    index = container.index_of(unit)
    container.operations[index] = new_op
    new_op.parent = container
    unit.parent = None
    for later in container.operations[index + 1 :]:
        _shift_unit(later, delta)
    _grow_containers(chunk, delta)
    chunk.diagnostics = merged
    chunk.comments = _merge_comments(chunk.comments, lexed.comments, u_start, u_end, delta)
    fresh = ctx.alias_uses[alias_mark:]
    old_uses = ctx.alias_uses[:alias_mark]
    ctx.alias_uses = (
        [u for u in old_uses if u[2] <= u_start]
        + fresh
        + [(n, s + delta, e + delta) for n, s, e in old_uses if s >= u_end]
    )
    chunk.end += delta
    for later_chunk in previous.chunks[chunk_index + 1 :]:
        _shift_chunk(later_chunk, delta)
    return ParsedFile(new_text, previous.chunks, previous.split)


def _container(chunk: Chunk) -> Block | None:
    module = chunk.module
    if not module.regions or not module.regions[0].blocks:
        return None
    return module.regions[0].blocks[0]


def _isolated(op: Operation) -> bool:
    spec = lookup(op.name)
    return spec is not None and spec.has("isolated") and op.known


def _shift_unit(op: Operation, delta: int) -> None:
    op.anchor.base += delta
    if op.name == "builtin.module":
        for region in op.regions:
            for block in region.blocks:
                for child in block.operations:
                    if child.anchor is not op.anchor:
                        _shift_unit(child, delta)


def _grow_containers(chunk: Chunk, delta: int) -> None:
    module = chunk.module
    module.span.end += delta
    region = module.regions[0]
    if region.span is not None:
        region.span.end += delta


def _shift_chunk(chunk: Chunk, delta: int) -> None:
    chunk.start += delta
    chunk.end += delta
    module = chunk.module
    _shift_unit(module, delta)
    chunk.diagnostics = [_shift_diag(d, delta) for d in chunk.diagnostics]
    ctx = chunk.context
    if ctx is not None:
        ctx.alias_uses = [(n, s + delta, e + delta) for n, s, e in ctx.alias_uses]
        ctx.alias_defs = {n: (s + delta, e + delta) for n, (s, e) in ctx.alias_defs.items()}
    chunk.comments = [Comment(c.text, c.range.shifted(delta)) for c in chunk.comments]


def _shift_diag(d: Diagnostic, delta: int, after: int = -1) -> Diagnostic:
    """Move the ranges of `d` that start at or after `after` by `delta`."""

    def move(rng: TextRange) -> TextRange:
        return rng.shifted(delta) if rng.start >= after else rng

    related = tuple(Related(r.message, move(r.range)) for r in d.related)
    return Diagnostic(d.code, d.message, move(d.range), d.severity, d.fix, related, d.tags)


def _merge_diagnostics(
    old: list[Diagnostic], new: list[Diagnostic], u_start: int, u_end: int, delta: int
) -> list[Diagnostic] | None:
    """Replace the unit's diagnostics; None when one crosses the unit's bounds."""
    out = list(new)
    for d in old:
        ranges = [d.range] + [r.range for r in d.related]
        inside = [u_start <= r.start and r.end <= u_end for r in ranges]
        if inside[0] and all(inside):
            continue
        if any(inside) or any(r.start < u_start < r.end or r.start < u_end < r.end for r in ranges):
            return None
        out.append(_shift_diag(d, delta, u_end))
    out.sort(key=Diagnostic.sort_key)
    return out


def _merge_comments(old: list[Comment], new: list[Comment], u_start: int, u_end: int, delta: int) -> list[Comment]:
    out = [c for c in old if c.range.end <= u_start]
    out.extend(new)
    out.extend(Comment(c.text, c.range.shifted(delta)) for c in old if c.range.start >= u_end)
    return out
