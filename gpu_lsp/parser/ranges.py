"""A range parse: the top-level ops of one contiguous range of a large file, parsed as the whole
file's parse parses them (absolute offsets, the alias definitions written before the range), so
that K processes may each parse and lint one range of the file at once (`lsp/range_lint.py`).

A file is cut into ranges only where the editor's parse takes it a top-level op at a time
(`incremental.Progressive`): one chunk (no `// -----` marker), at least two trusted segments. A
file that is one `module { ... }` is one unit, so it is not cut (its body's ops share the
module's symbol table and values: cutting there would need the module op in every range).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from gpu_lsp.diagnostics.model import MAX_DIAGNOSTICS, Diagnostic
from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir.attributes import SymbolRefAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import op_names
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.parser.api import SPLIT_MARKER, Chunk, budget_for, implicit_module
from gpu_lsp.parser.incremental import boundaries, comments_of, parse_segment, segments_of, segments_trusted, whole_segments
from gpu_lsp.parser.resolve import Resolver
from gpu_lsp.syntax.cursor import ParseContext

# A segment that defines an alias (`#name = ...`, `!name = ...`), after any comments.
_ALIAS_START: Final = re.compile(r"(?:\s|//[^\n]*)*[#!]")


@dataclass(frozen=True)
class RangeParse:
    """The parse of the top-level ops in one range: a chunk holding only them, which covers the range
    (what a rule that scans the chunk's text reads: each range its own part of the text) while its
    module spans the whole text, as the file's implicit module does; and whether the range parse is the file's
    (`exact`: no top-level op of the range defines a value another may see, no cap of syntax errors;
    the caller also checks that the file has more than one unit and stays under the cap in all)."""

    chunk: Chunk
    exact: bool
    units: int
    # The symbols its top-level ops define, in order (`symbols_used` gives those they refer to).
    defined: tuple[str, ...]


def unit_starts(text: str) -> list[int] | None:
    """Where the top-level units of `text` start, when it may be cut into ranges (see above); None otherwise."""
    starts = candidate_starts(text)
    return starts if starts is not None and starts_trusted(text, starts) else None


def candidate_starts(text: str) -> list[int] | None:
    """Where the top-level units of `text` start if its segments are trusted (`starts_trusted`:
    the bracket balance of each, a scan of the whole text that may come later); None where the text
    is not cut into ranges whatever the balances say."""
    if SPLIT_MARKER[:-2] in text:
        return None
    starts = boundaries(text, 0, len(text))
    return starts if len(starts) >= 2 else None


def starts_trusted(text: str, starts: list[int]) -> bool:
    """Whether the segments of `text` that begin at `starts` (`candidate_starts`) are its top-level units."""
    return segments_trusted(whole_segments(text, starts))


def cuts(text: str, starts: list[int], count: int) -> list[tuple[int, int]]:
    """`text` cut at unit starts into at most `count` contiguous ranges of about equal length."""
    edges = [0]
    for i in range(1, count):
        want = len(text) * i // count
        at = next((s for s in starts if s >= want and s > edges[-1]), None)
        if at is None:
            break
        edges.append(at)
    edges.append(len(text))
    return list(zip(edges, edges[1:]))


def parse_range(text: str, starts: list[int], lo: int, hi: int, length: int | None = None) -> RangeParse:
    """The units of `text` (starting at `starts`) that start in `[lo, hi)`, parsed after the alias
    definitions that come before `lo`; only the range's diagnostics and comments are kept. `text`
    may end at `hi` (`starts` then too): `length` is the whole text's."""
    end = len(text) if length is None else length
    # Their bracket balances are not read here: `unit_starts` checked them when it cut the file.
    segments = segments_of(text, starts, len(text), [(0, 0, 0)] * len(starts))
    ctx = ParseContext(text, op_names())
    found: list[Diagnostic] = []
    exact = True
    with paused_gc():
        for seg in segments:
            if seg.start >= lo:
                break
            if _ALIAS_START.match(text, seg.start, seg.end) is not None:
                parse_segment(ctx, seg, budget_for(MAX_DIAGNOSTICS))
        mine = [seg for seg in segments if lo <= seg.start < hi]
        for seg in mine:
            if parse_segment(ctx, seg, budget_for(MAX_DIAGNOSTICS - len(found))):
                exact = False
            Resolver(seg.diagnostics).resolve_top(seg.ops)
            found.extend(seg.diagnostics)
            exact = exact and not seg.defines
    ops = [op for seg in mine for op in seg.ops]
    found.sort(key=Diagnostic.sort_key)
    ctx.alias_uses = [u for seg in mine for u in seg.alias_uses]
    chunk = Chunk(lo, min(hi, end), implicit_module(ops, 0, end), found, comments_of(mine), True, ctx)
    defined = tuple(name for op in ops if (name := symbol_name(op)) is not None)
    return RangeParse(chunk, exact, len(ops), defined)


def symbols_used(ops: list[Operation]) -> frozenset[str]:
    """The first names of the symbols that `ops` refer to (every op of a range's chunk, `OpIndex.ops`)."""
    return frozenset(ref.root for op in ops for ref, _ in op.symbol_spans if isinstance(ref, SymbolRefAttr))
