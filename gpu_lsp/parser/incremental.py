"""Incremental re-parsing: after an edit, re-parse only the top-level operations it touches.

Two ways, both equal to a fresh parse of the new text (tested):

* `reparse` (on `parser.api.parse` results): when an edit falls strictly inside one
  isolated unit (an op directly in a module body, written or implicit, such as a
  `func.func` or a `gpu.module`) and the unit's new text still parses as exactly one
  operation with balanced brackets, only that unit is re-lexed, re-parsed and re-resolved;
  every later unit moves by the edit's length through its anchor. Otherwise the buffer is
  parsed anew.
* `parse_units` / `reparse_units` / `Progressive` (the editor's, error-tolerant): the text
  is cut into segments at top-level op starts, each parsed on its own, so a broken op
  never damages the rest of the file; an edit re-parses from the segment it falls in to
  the first unchanged segment boundary after it (see the section below). A segment that
  is one `gpu.module` written as a module is (`module_shell`) is cut the same way into its
  kernels (`Segment.inner`), so that a keystroke in a kernel re-parses that kernel.
"""

from __future__ import annotations

import re
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from gpu_lsp.diagnostics.model import MAX_DIAGNOSTICS, Diagnostic, Related
from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir.core import Block, Operation
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.ir.opdefs import lookup, op_names
from gpu_lsp.ir.symbols import is_symbol_table
from gpu_lsp.parser.api import Chunk, ParsedFile, budget_for, implicit_module, parse, parse_chunk, split_ranges, stopped, syntax_errors
from gpu_lsp.parser.builder import SYNTAX, Builder
from gpu_lsp.parser.module_shell import GPU_MODULE_LINE, MODULE_LINE, find_body, read_shell
from gpu_lsp.parser.resolve import Resolver
from gpu_lsp.syntax.cursor import ParseContext
from gpu_lsp.syntax.lexer import Comment, tokenize
from gpu_lsp.syntax.raw import RawAlias, RawOp
from gpu_lsp.syntax.structure import parse_structure
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
    return result[0]


def _chunks_only_shift(previous: ParsedFile, new_text: str, chunk_index: int, delta: int) -> bool:
    """Whether the edit leaves the `// -----` chunks as they were: the edited one grows by
    `delta`, the later ones move by it."""
    if not previous.split:
        return True
    expected = [
        (c.start, c.end + delta) if i == chunk_index else ((c.start + delta, c.end + delta) if i > chunk_index else (c.start, c.end))
        for i, c in enumerate(previous.chunks)
    ]
    return split_ranges(new_text) == expected


def _try_incremental(previous: ParsedFile, new_text: str, changed: TextRange, delta: int) -> tuple[ParsedFile, int] | None:
    """The parse of `new_text` with only the unit the edit falls in re-parsed (a top-level op, or
    an op of the body of a module among them), and the length of that unit before; None where
    the edit needs more."""
    start, end = changed.start, changed.end
    old_text = previous.text
    inserted = new_text[start : end + delta]
    if "// ---" in inserted or "// ---" in old_text[max(0, start - 8) : end + 8]:
        return None
    chunk_index = next((i for i, c in enumerate(previous.chunks) if c.start <= start and end <= c.end), None)
    if chunk_index is None:
        return None
    if not _chunks_only_shift(previous, new_text, chunk_index, delta):
        return None
    chunk = previous.chunks[chunk_index]
    if any(d.code == SYNTAX for d in chunk.diagnostics):
        return None  # a bracket-structure error is the chunk's, placed where upstream puts it
    container = _container(chunk)
    if container is None:
        return None
    unit = next((op for op in container.operations if (r := op.range) is not None and r.start < start and end < r.end), None)
    if unit is None or unit.results or not _isolated(unit) or unit.range is None:
        return None
    if any(op.results for op in container.operations):
        return None  # the unit sees the top-level values defined before it: resolve them all
    path = [container]  # the bodies holding the unit, outermost first: a module's op is a unit too
    while is_symbol_table(unit) and (body := _body_of(unit)) is not None and not any(op.results for op in body.operations):
        inner = next((op for op in body.operations if (r := op.range) is not None and r.start < start and end < r.end), None)
        if inner is None or not _isolated(inner):
            break
        path.append(body)
        unit = inner
    container = path[-1]
    ctx = chunk.context
    unit_range = unit.range
    if ctx is None or unit_range is None:
        return None
    u_start, u_end = unit_range.start, unit_range.end
    line_head = old_text[old_text.rfind("\n", 0, u_start) + 1 : u_start]
    if line_head.strip():
        return None
    new_end = u_end + delta
    lexed = tokenize(new_text, ctx.op_names, u_start, new_end)
    if lexed.errors:
        return None
    raw_items, errors = parse_structure(lexed.tokens)
    if errors or len(raw_items) != 1 or not isinstance(raw_items[0], RawOp) or raw_items[0].end_pos != new_end:
        return None
    ctx.text = new_text
    alias_mark = len(ctx.alias_uses)
    diagnostics: list[Diagnostic] = []
    builder = Builder(ctx, diagnostics)
    holder = container.parent_op
    builder.default_dialect = dialect = _default_dialect(holder.name) if holder is not None else ""
    outer_region_dialect, ctx.region_dialect = ctx.region_dialect, dialect
    new_op = builder.top_level_op(raw_items[0])
    ctx.region_dialect = outer_region_dialect
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
    moved: Operation = new_op
    for block in reversed(path):  # the ops after it in its body, and after each module holding it in theirs
        for later in block.operations[block.index_of(moved) + 1 :]:
            _shift_unit(later, delta)
        if block is not path[0]:
            module = block.parent_op
            assert module is not None, "a module's body is in it"
            _grow(module, delta)
            moved = module
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
    return ParsedFile(new_text, previous.chunks, previous.split), u_end - u_start


def _container(chunk: Chunk) -> Block | None:
    return _body_of(chunk.module)


def _body_of(module: Operation) -> Block | None:
    """The block of a module's body (None for an op read without one)."""
    if not module.regions or not module.regions[0].blocks:
        return None
    return module.regions[0].blocks[0]


def _isolated(op: Operation) -> bool:
    spec = lookup(op.name)
    return spec is not None and spec.has("isolated") and op.known


def _shift_unit(op: Operation, delta: int) -> None:
    op.anchor.base += delta
    if is_symbol_table(op):  # its ops have anchors of their own (`Builder.region`)
        for region in op.regions:
            for block in region.blocks:
                for child in block.operations:
                    if child.anchor is not op.anchor:
                        _shift_unit(child, delta)


def _grow_containers(chunk: Chunk, delta: int) -> None:
    _grow(chunk.module, delta)


def _grow(module: Operation, delta: int) -> None:
    """Make a module `delta` longer (an edit of its body)."""
    if module.span is not None:
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
    """Replace the unit's diagnostics; None when one crosses the unit's bounds, or is an empty range
    at its start (the op before may report there what it expected next: `func.func` and a line break)."""
    out = list(new)
    for d in old:
        ranges = [d.range] + [r.range for r in d.related]
        if any(r.start == r.end == u_start for r in ranges):
            return None
        inside = [u_start <= r.start and r.end <= u_end for r in ranges]
        if inside[0] and all(inside):
            continue
        if any(inside) or any(r.start < u_start < r.end or r.start < u_end < r.end for r in ranges):
            return None
        out.append(_shift_diag(d, delta, u_end))
    out.sort(key=Diagnostic.sort_key)
    return out


def _merge_comments(old: Sequence[Comment], new: list[Comment], u_start: int, u_end: int, delta: int) -> list[Comment]:
    out = [c for c in old if c.range.end <= u_start]
    out.extend(new)
    out.extend(Comment(c.text, c.range.shifted(delta)) for c in old if c.range.start >= u_end)
    return out


# --- error-tolerant analysis: top-level segments ------------------------------------------------
#
# The editor's parse cuts each chunk into segments at every line that starts, unindented, with
# the start of an operation (`func.func`, `"x.y"(`, `%r =`, `#alias =`). Valid IR is never
# split inside an op there unless the file nests unindented ops (a segment whose brackets do not
# balance); when the whole chunk balances but a segment does not, the layout is not trusted and
# the chunk is parsed as one piece. Otherwise each segment is lexed and parsed on its own, so an
# unbalanced brace or a stray character damages one segment and never the rest of the file.
# A segment boundary depends only on the text that follows it, which lets an edit re-parse
# from the segment it falls in up to the first unchanged boundary after it.

_OP_STARTS: Final = r"""(?:
        %[^\s=,:()\[\]{}<>]+(?::\d+)?(?:[ \t]*,[ \t]*%[^\s=,:()\[\]{}<>]+(?::\d+)?)*[ \t]*=(?!=)
      | "(?:[^"\\\n]|\\.)*"[ \t]*\(
      | [A-Za-z_][\w$]*(?:\.[\w$]+)+(?![\w$.])
      | module\b
      | [#!][\w$.-]+[ \t]*=(?!=)
    )"""
_OP_LINE: Final = re.compile("^" + _OP_STARTS, re.M | re.X)
# The rest of a string after its opening quote (up to the closing one, a line end or the end).
_STRING_REST: Final = re.compile(r'(?:[^"\\\n]|\\.)*"?')
# The start of a line whose first character may start an op (_OP_LINE's alternatives).
_LINE_START: Final = re.compile(r"\n(?=[%\"A-Za-z_#!])")
# The same two for the lines of a written module's body, per indentation (`module_shell.Body`).
_INDENTED: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {"": (_OP_LINE, _LINE_START)}


def _op_lines(indent: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(_OP_LINE, _LINE_START) for op lines indented by `indent`."""
    found = _INDENTED.get(indent)
    if found is None:
        if len(_INDENTED) > 16:
            _INDENTED.clear()
            _INDENTED[""] = (_OP_LINE, _LINE_START)
        lead = re.escape(indent)
        found = _INDENTED[indent] = (
            re.compile("^" + lead + _OP_STARTS, re.M | re.X),
            re.compile(r"\n(?=" + lead + r"[%\"A-Za-z_#!])"),
        )
    return found


@dataclass(frozen=True)
class _Level:
    """How the body of a written module is cut and read: the start of the module's line, the
    default dialect of the ops of its body, and the op lines that would end the segment the module
    is (an edit writing one there is no edit of its body alone)."""

    line: re.Pattern[str]
    dialect: str
    cuts: tuple[re.Pattern[str], ...]


def _default_dialect(name: str) -> str:
    """The default dialect of the ops of a module `name`'s body, from its declaration ("": none)."""
    spec = lookup(name)
    return (spec.default_dialect if spec is not None else None) or ""


# A chunk's written `builtin.module` (`_shelled`).
_TOP: Final = _Level(MODULE_LINE, _default_dialect("builtin.module"), (_OP_LINE,))
# What may come before the op of a segment: blank lines and comments.
_LEADING: Final = re.compile(r"(?:[ \t\r\n]+|//[^\n]*)*")
# A line of a module's body that its segments would not read as the module does: an alias
# definition (a top-level one in a segment), or a block label.
_UNNESTED_LINE: Final = re.compile(r"^[ \t]*(?:[#!][\w$.-]+[ \t]*=(?!=)|\^)", re.M)


# The default dialect of a `gpu.module`'s ops (none: its declaration names none).
_NESTED_DIALECT: Final = _default_dialect("gpu.module")


def _nested_level(outer_indent: str) -> _Level:
    """The level of a `gpu.module` in a segment of ops indented by `outer_indent` ("": the top level)."""
    cuts = (_OP_LINE, _op_lines(outer_indent)[0]) if outer_indent else (_OP_LINE,)
    return _Level(GPU_MODULE_LINE, _NESTED_DIALECT, cuts)


class Segment:
    """One independently parsed piece of a chunk and everything its parse produced. Its
    diagnostics, comments and alias uses keep the offsets of the parse (`origin` was the
    start then); `moved` says how far the segment has moved since."""

    __slots__ = (
        "start", "end", "origin", "ops", "diagnostics", "comments", "alias_uses", "aliases", "net", "defines", "sees_top", "indent", "inner",
    )

    def __init__(self, start: int, end: int, net: tuple[int, int, int]) -> None:
        self.start = start
        self.end = end
        self.origin = start
        self.net = net
        self.ops: list[Operation] = []
        self.diagnostics: list[Diagnostic] = []
        self.comments: list[Comment] = []
        self.alias_uses: list[tuple[str, int, int]] = []
        self.aliases = False
        self.defines = False
        self.sees_top = False
        # A written module's own text around its body (`module_shell`): its head (`module ... {`,
        # with the indentation of the body's ops) or its tail (`}`, with None); "" for a segment of ops.
        self.indent: str | None = ""
        # A segment that is one `gpu.module` read a kernel at a time (`_parse_nested`): the layout
        # of its body, as a written module's (its head, its body's segments, its tail); None otherwise.
        self.inner: list[Segment] | None = None

    @property
    def moved(self) -> int:
        return self.start - self.origin

    def shift(self, delta: int, ops: bool = True) -> None:
        """Move by `delta`; `ops=False` when the ops' anchors were moved already."""
        self.start += delta
        self.end += delta
        if ops:
            for op in self.ops:
                _shift_unit(op, delta)  # a module's ops have anchors of their own
        for part in self.inner or ():
            part.shift(delta, ops=False)  # its ops are the module's, moved above

    def current_diagnostics(self) -> list[Diagnostic]:
        moved = self.moved
        return [_shift_diag(d, moved) for d in self.diagnostics] if moved else self.diagnostics

    def current_alias_uses(self) -> list[tuple[str, int, int]]:
        moved = self.moved
        return [(n, s + moved, e + moved) for n, s, e in self.alias_uses] if moved else self.alias_uses


class Comments(Sequence):
    """The comments of a chunk's segments, moved to where the segments are now on first use
    (an edit only records how far each segment moved)."""

    def __init__(self, pieces: list[tuple[list[Comment], int]]) -> None:
        self._pieces = pieces
        self._items: list[Comment] | None = None

    def _all(self) -> list[Comment]:
        if self._items is None:
            self._items = [
                Comment(c.text, c.range.shifted(moved)) if moved else c for comments, moved in self._pieces for c in comments
            ]
            self._pieces = []
        return self._items

    def __getitem__(self, index):
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self):
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, Sequence)) else NotImplemented


def comments_of(segments: list[Segment]) -> Comments:
    """The comments of `segments`, each at its offset in the chunk."""
    return Comments([(seg.comments, seg.start - seg.origin) for seg in segments if seg.comments])


@dataclass
class SegmentedFile(ParsedFile):
    """A `ParsedFile` with, per chunk, its segments (None: parsed as one piece, not reusable)."""

    layout: list[list[Segment] | None] = field(default_factory=list)
    # After `reparse_units`: how many code points of the previous text it parsed anew (what of the
    # previous parse it dropped, for the collector).
    replaced: int = 0


def parse_units(text: str, split: bool = False) -> SegmentedFile:
    """Parse a buffer segment by segment (see above); never raises on user input."""
    ranges = split_ranges(text) if split else [(0, len(text))]
    pieces: list[tuple[Chunk, list[Segment] | None]] = []
    left = MAX_DIAGNOSTICS
    with paused_gc():
        for s, e in ranges:
            chunk, segments = _parse_chunk_units(text, s, e, budget_for(left))
            left = -1 if stopped(chunk.diagnostics) else left - len(chunk.diagnostics)
            pieces.append((chunk, segments))
    return SegmentedFile(text, [c for c, _ in pieces], split, [segs for _, segs in pieces])


def reparse_units(previous: SegmentedFile, new_text: str, changed: TextRange) -> SegmentedFile:
    """`parse_units(new_text)`, re-parsing only the segments an edit of `changed` (a range of the
    previous text) can have changed; consumes `previous`."""
    delta = len(new_text) - len(previous.text)
    with paused_gc():
        result = _reparse_units(previous, new_text, changed, delta)
    if result is None:
        result = parse_units(new_text, previous.split)
        result.replaced = len(previous.text)
    return result


def boundaries(text: str, start: int, end: int, indent: str = "") -> list[int]:
    """Where the segments of `text[start:end]` start: `start` and every op line indented by
    `indent` (unindented: a chunk's top level), a line looked at when its first character after
    the indentation may start an op."""
    out = [start]
    op_line, line_start = _op_lines(indent)
    match = op_line.match
    for m in line_start.finditer(text, start, end):
        at = m.end()
        if match(text, at, end) is not None:
            out.append(at)
    return out


def _net(text: str, start: int, end: int) -> tuple[int, int, int]:
    """How many more `{`, `(` and `[` than closing ones `text[start:end]` has, outside strings and
    comments (found with str.find, in order: a regular-expression search would try every position)."""
    count = text.count
    braces = count("{", start, end) - count("}", start, end)
    parens = count("(", start, end) - count(")", start, end)
    squares = count("[", start, end) - count("]", start, end)
    quote = text.find('"', start, end)
    comment = text.find("//", start, end)
    while quote >= 0 or comment >= 0:
        if quote >= 0 and (comment < 0 or quote < comment):
            rest = _STRING_REST.match(text, quote + 1, end)  # always matches
            noise, pos = quote, rest.end() if rest is not None else end
        else:
            line_end = text.find("\n", comment, end)
            noise, pos = comment, end if line_end < 0 else line_end
        braces -= count("{", noise, pos) - count("}", noise, pos)
        parens -= count("(", noise, pos) - count(")", noise, pos)
        squares -= count("[", noise, pos) - count("]", noise, pos)
        if 0 <= quote < pos:  # each is looked for again only once passed: not a scan per string
            quote = text.find('"', pos, end)
        if 0 <= comment < pos:
            comment = text.find("//", pos, end)
    return (braces, parens, squares)


def segments_of(text: str, starts: list[int], end: int, nets: list[tuple[int, int, int]] | None = None) -> list[Segment]:
    """The segments of `text` that begin at `starts` and run to the next start (the last to `end`),
    with their bracket balances (`nets`, when known already)."""
    ends = starts[1:] + [end]
    if nets is None:
        nets = [_net(text, s, e) for s, e in zip(starts, ends)]
    return [Segment(s, e, net) for s, e, net in zip(starts, ends, nets)]


# The scan of the last text cut whole into segments (`whole_segments`): the text object, its
# segment starts and each segment's bracket balance (the text is kept alive until another is
# scanned). The open of a large file scans its text on two threads at once (its parse, and the cut
# of its range workers, `ranges.unit_starts`).
_WHOLE_SCAN_LOCK: Final = threading.Lock()
_whole_scan: list[tuple[str, list[int], list[tuple[int, int, int]]]] = []


def whole_segments(text: str, starts: list[int] | None = None) -> list[Segment]:
    """`segments_of` the whole of `text` (new segments each call), the text scanned once for every
    caller that asks about the same text object; `starts`: its `boundaries`, found already."""
    with _WHOLE_SCAN_LOCK:
        if _whole_scan and _whole_scan[0][0] is text:
            return segments_of(text, _whole_scan[0][1], len(text), _whole_scan[0][2])
        segments = segments_of(text, boundaries(text, 0, len(text)) if starts is None else starts, len(text))
        _whole_scan[:] = [(text, [seg.start for seg in segments], [seg.net for seg in segments])]
        return segments


def segments_trusted(segments: list[Segment]) -> bool:
    """False when a segment is unbalanced although the whole chunk balances (unindented nesting)."""
    if all(s.net == (0, 0, 0) for s in segments):
        return True
    total = [0, 0, 0]
    for s in segments:
        for i in range(3):
            total[i] += s.net[i]
    return total != [0, 0, 0]


def _parse_chunk_units(text: str, start: int, end: int, budget: int = MAX_DIAGNOSTICS) -> tuple[Chunk, list[Segment] | None]:
    segments = segments_of(text, boundaries(text, start, end), end)
    trusted = segments_trusted(segments)
    shelled = _shelled(text, start, segments, budget) if trusted else None
    if shelled is not None:
        return _parse_shelled(shelled, start, end, budget)
    if not trusted or (len(segments) == 1 and not _may_nest(text, segments[0])):
        return parse_chunk(text, start, end, budget), None
    ctx = ParseContext(text, op_names(), start)
    for i, seg in enumerate(segments):
        if parse_segment(ctx, seg, budget_for(budget)):
            del segments[i + 1 :]  # the rest is left unread, and not reusable by an edit
            budget = -1
            break
        budget -= len(seg.diagnostics)
    ops = [op for seg in segments for op in seg.ops]
    local = _resolves_locally(segments)
    if local:
        for seg in segments:
            Resolver(seg.diagnostics).resolve_top(seg.ops)
    written = _written_module_chunk(start, end, segments, ctx)
    if written is not None:
        return written, None
    diagnostics = [d for seg in segments for d in seg.diagnostics]
    if not local:
        Resolver(diagnostics).resolve_top(ops)
    diagnostics.sort(key=Diagnostic.sort_key)
    ctx.alias_uses = [u for seg in segments for u in seg.alias_uses]
    chunk = Chunk(start, end, implicit_module(ops, start, end), diagnostics, comments_of(segments), True, ctx)
    return chunk, segments if local and budget >= 0 else None


@dataclass
class _Shelled:
    """A chunk that is one written module around indented ops (`module_shell`), its body cut into
    segments: the segments before the module (no op) and the module's head, read already (the
    module with an empty body), the body's segments, still to read, and the module's tail."""

    ctx: ParseContext
    module: Operation
    before: list[Segment]
    body: list[Segment]
    tail: Segment
    budget: int  # the syntax errors left to find

    def read(self, seg: Segment) -> bool:
        """Read one of the body's segments into the module (names resolved by the caller);
        whether lexing stopped in it (`parse_segment`)."""
        stopped_here = parse_segment(self.ctx, seg, budget_for(self.budget))
        self.budget = -1 if stopped_here else self.budget - len(seg.diagnostics)
        return stopped_here

    def chunk(self, start: int, end: int, layout: list[Segment]) -> Chunk:
        """The chunk of `[start, end)` once the body's segments of `layout` are read, their ops in the module."""
        block = _body_of(self.module)
        assert block is not None, "read_shell makes the module's body"
        block.operations = []
        for seg in layout:
            for op in seg.ops:
                block.append(op)
        return _module_chunk(start, end, self.module, layout, self.ctx)


def _shelled(text: str, start: int, segments: list[Segment], budget: int) -> _Shelled | None:
    """The chunk cut at its top level into `segments` (trusted) as one written module around
    indented ops (`module_shell.find_body`), the segments before it and its own text read;
    None where it is not one (or its body's cut is not trusted, or its head's text is no module)."""
    last = segments[-1]
    names = op_names()
    body = find_body(text, last.start, last.end, names)
    if body is None:
        return None
    cut = segments_of(text, boundaries(text, body.start, body.end, body.indent), body.end)
    if not segments_trusted(cut):
        return None
    ctx = ParseContext(text, names, start)
    before = [Segment(seg.start, seg.end, seg.net) for seg in segments[:-1]]  # the caller's are left unread
    for seg in before:
        if parse_segment(ctx, seg, budget_for(budget)) or seg.ops:
            return None
        budget -= len(seg.diagnostics)
    shell = read_shell(ctx, last.start, body, last.end, budget_for(budget))
    if shell is None:
        return None
    head = Segment(last.start, body.start, _net(text, last.start, body.start))
    head.indent = body.indent
    head.diagnostics, head.comments = shell.head
    tail = Segment(body.end, last.end, _net(text, body.end, last.end))
    tail.indent = None
    tail.diagnostics, tail.comments = shell.tail
    budget -= len(head.diagnostics) + len(tail.diagnostics)
    return _Shelled(ctx, shell.module, [*before, head], cut, tail, budget)


def _layout_trusted(layout: list[Segment]) -> bool:
    """Whether a fresh parse cuts the text as `layout` does (`segments_trusted`): its segments, or,
    for a written module's, the module's body and the segments around the whole module."""
    head = next((i for i, seg in enumerate(layout) if seg.indent), None)
    if head is None:
        return segments_trusted(layout)
    module = Segment(layout[head].start, layout[-1].end, _total_net(layout[head:]))
    return segments_trusted(layout[head + 1 : -1]) and segments_trusted([*layout[:head], module])


def _total_net(segments: list[Segment]) -> tuple[int, int, int]:
    return (sum(s.net[0] for s in segments), sum(s.net[1] for s in segments), sum(s.net[2] for s in segments))


def _defines_aliases(body: list[Segment]) -> bool:
    """Whether segments of a written module's body read an alias definition: a segment is lexed as
    a top level, where `#a = ...` defines one; in the module it is no definition (the chunk is read
    whole then)."""
    return any(seg.aliases for seg in body)


def _still_shelled(text: str, head: Segment, tail: Segment, start: int, new_end: int, delta: int, level: _Level) -> bool:
    """Whether the text, edited in `[start, new_end)` of a written module's body, is still that
    module around ops at the same indentation (`_shelled`'s cut): the same body (`find_body`),
    and no op line in the lines edited that would end the module's segment (unindented, or at the
    indentation of the ops around a nested module)."""
    lead = _LEADING.match(text, head.start)
    body = find_body(text, lead.end() if lead is not None else head.start, tail.end + delta, op_names(), level.line)
    if body is None or body.start != head.end or body.end != tail.start + delta or body.indent != head.indent:
        return False
    lines_start = text.rfind("\n", 0, start) + 1
    lines_end = text.find("\n", new_end)
    lines_end = body.end if lines_end < 0 else lines_end + 1
    return all(cut.search(text, lines_start, lines_end) is None for cut in level.cuts)


def _parse_shelled(shelled: _Shelled, start: int, end: int, budget: int) -> tuple[Chunk, list[Segment] | None]:
    """`_parse_chunk_units` of a chunk that is one written module around indented ops."""
    body = shelled.body
    for i, seg in enumerate(body):
        if shelled.read(seg):
            del body[i + 1 :]  # the rest is left unread, and not reusable by an edit
            break
    if _defines_aliases(body):
        return parse_chunk(shelled.ctx.text, start, end, budget), None
    local = _resolves_locally(body)
    if local:
        for seg in body:
            Resolver(seg.diagnostics).resolve_top(seg.ops)
    layout = [*shelled.before, *body, shelled.tail]
    chunk = shelled.chunk(start, end, layout)
    if not local:
        found: list[Diagnostic] = []
        Resolver(found).resolve_top([shelled.module])
        chunk.diagnostics = sorted(chunk.diagnostics + found, key=Diagnostic.sort_key)
    return chunk, layout if local and shelled.budget >= 0 else None


def _written_module_chunk(start: int, end: int, segments: list[Segment], ctx: ParseContext) -> Chunk | None:
    """`parse_chunk`'s chunk of `[start, end)` from its segments, parsed with `ctx` and their names
    resolved, where their one op is a written `builtin.module`: the chunk's module itself, not an
    op of an implicit one (nor are the segments reusable by an edit); None where it is not."""
    ops = [op for seg in segments for op in seg.ops]
    if len(ops) != 1 or ops[0].name != "builtin.module":
        return None
    module = ops[0]
    if module.parent is not None:  # in the implicit module of a progressive parse's steps
        module.parent.operations.remove(module)
        module.parent = None
    return _module_chunk(start, end, module, segments, ctx)


def _module_chunk(start: int, end: int, module: Operation, segments: list[Segment], ctx: ParseContext) -> Chunk:
    """The chunk of `[start, end)` whose module is the written `module`, from the segments read
    with `ctx` (their diagnostics, comments and alias uses; the aliases on the module, as `parse_chunk` puts them)."""
    if ctx.type_aliases or ctx.attr_aliases:
        writable_facts(module).aliases = {**ctx.type_aliases, **ctx.attr_aliases}
    ctx.alias_uses = [u for seg in segments for u in seg.alias_uses]
    diagnostics = sorted((d for seg in segments for d in seg.diagnostics), key=Diagnostic.sort_key)
    return Chunk(start, end, module, diagnostics, comments_of(segments), False, ctx)


def parse_segment(ctx: ParseContext, seg: Segment, budget: int = MAX_DIAGNOSTICS, dialect: str = "builtin") -> bool:
    """Lex, parse and build one segment of a module's body whose ops' default dialect is `dialect`
    (names are resolved by the caller); whether lexing stopped in it (`budget` syntax errors
    found). A `gpu.module` written as a module is (`module_shell`) is read a kernel at a time
    (`_parse_nested`)."""
    if dialect == _TOP.dialect:
        nested = _parse_nested(ctx, seg, budget)
        if nested is not None:
            return nested
    lexed = tokenize(ctx.text, ctx.op_names, seg.start, seg.end, budget=budget)
    diagnostics = seg.diagnostics
    diagnostics.extend(syntax_errors(lexed))
    raw_items, errors = parse_structure(lexed.tokens)
    for err in errors:
        diagnostics.append(Diagnostic(SYNTAX, err.message, err.range))
    mark = len(ctx.alias_uses)
    builder = Builder(ctx, diagnostics)
    builder.default_dialect = dialect
    outer_region_dialect, ctx.region_dialect = ctx.region_dialect, dialect
    for item in raw_items:
        if isinstance(item, RawAlias):
            builder.alias(item)
            seg.aliases = True
        elif isinstance(item, RawOp):
            seg.ops.append(builder.top_level_op(item))
    ctx.region_dialect = outer_region_dialect
    seg.alias_uses = ctx.alias_uses[mark:]
    del ctx.alias_uses[mark:]
    seg.comments = lexed.comments
    seg.defines = any(op.results for op in seg.ops)
    seg.sees_top = any(op.operands or not _isolated(op) for op in seg.ops)
    return lexed.stopped is not None and budget > 0


def _may_nest(text: str, seg: Segment) -> bool:
    """Whether the op of a segment (after blank lines and comments) is a `gpu.module` (`_parse_nested`)."""
    lead = _LEADING.match(text, seg.start, seg.end)
    return GPU_MODULE_LINE.match(text, lead.end() if lead is not None else seg.start, seg.end) is not None


def _parse_nested(ctx: ParseContext, seg: Segment, budget: int) -> bool | None:
    """`parse_segment` of a segment that is one `gpu.module` written as a module is (its region's
    `{` ending its line, its `}` alone on its last, its ops indented): its own text read as
    `read_shell` reads a module's, its body cut into segments (`seg.inner`, so that an edit
    re-parses only the kernels it touches), each resolved on its own where that is resolving the
    module (the caller's resolution leaves them as they are). None where the segment is no such
    module (it is read whole)."""
    text = ctx.text
    if not _may_nest(text, seg):
        return None
    lead = _LEADING.match(text, seg.start, seg.end)
    op_start = lead.end() if lead is not None else seg.start
    body = find_body(text, op_start, seg.end, ctx.op_names, GPU_MODULE_LINE)
    if body is None or _UNNESTED_LINE.search(text, body.start, body.end) is not None:
        return None
    inner = segments_of(text, boundaries(text, body.start, body.end, body.indent), body.end)
    if not segments_trusted(inner):
        return None
    mark = len(ctx.alias_uses)
    shell = read_shell(ctx, seg.start, body, seg.end, budget_for(budget), "gpu.module", op_start)
    if shell is None:
        del ctx.alias_uses[mark:]
        return None
    head = Segment(seg.start, body.start, _net(text, seg.start, body.start))
    head.indent = body.indent
    head.diagnostics, head.comments = shell.head
    head.alias_uses = ctx.alias_uses[mark:]
    del ctx.alias_uses[mark:]
    tail = Segment(body.end, seg.end, _net(text, body.end, seg.end))
    tail.indent = None
    tail.diagnostics, tail.comments = shell.tail
    left = budget - len(head.diagnostics) - len(tail.diagnostics)
    stopped_here = False
    for i, part in enumerate(inner):
        if parse_segment(ctx, part, budget_for(left), _NESTED_DIALECT):
            del inner[i + 1 :]  # the rest is left unread
            stopped_here = True
            break
        left -= len(part.diagnostics)
    local = _resolves_locally(inner)
    if local:
        for part in inner:
            Resolver(part.diagnostics).resolve_top(part.ops)
    block = _body_of(shell.module)
    assert block is not None, "read_shell makes the module's body"
    for part in inner:
        for op in part.ops:
            block.append(op)
    layout = [head, *inner, tail]
    seg.ops.append(shell.module)
    seg.diagnostics.extend(d for part in layout for d in part.diagnostics)
    seg.comments = [c for part in layout for c in part.comments]
    seg.alias_uses = [u for part in layout for u in part.alias_uses]
    seg.inner = layout if local and not stopped_here else None
    return stopped_here


def _resolves_locally(segments: list[Segment]) -> bool:
    """Whether resolving names segment by segment equals resolving the chunk at once: no
    top-level value, or the only ones are seen only by the segment that defines them."""
    defining = [i for i, s in enumerate(segments) if s.defines]
    if not defining:
        return True
    if len(defining) > 1:
        return False
    return all(i == defining[0] for i, s in enumerate(segments) if s.sees_top)


def _reparse_units(previous: SegmentedFile, new_text: str, changed: TextRange, delta: int) -> SegmentedFile | None:
    start, end = changed.start, changed.end
    chunk_index = next((i for i, c in enumerate(previous.chunks) if c.start <= start and end <= c.end), None)
    if chunk_index is None or len(previous.layout) != len(previous.chunks):
        return None
    if not _chunks_only_shift(previous, new_text, chunk_index, delta):
        return None
    chunk = previous.chunks[chunk_index]
    segments = previous.layout[chunk_index]
    if segments is None:
        if len(previous.chunks) == 1:
            plain = _try_incremental(previous, new_text, changed, delta)
            if plain is not None:
                return SegmentedFile(new_text, plain[0].chunks, plain[0].split, [None], plain[1])
        fresh, fresh_segments = _parse_chunk_units(new_text, chunk.start, chunk.end + delta)
        return _replace_chunk(previous, new_text, chunk_index, fresh, fresh_segments, delta)
    nested = _splice_nested(chunk, segments, new_text, start, end, delta)
    if nested is not None and nested >= 0:
        _shift_after(previous.chunks, previous.layout, chunk_index, new_text, delta)
        return SegmentedFile(new_text, previous.chunks, previous.split, previous.layout, nested)
    plan = _plan_splice(chunk, segments, new_text, start, end, delta) if nested is None else None  # -1: parsed anew
    if plan is None and nested is None and len(previous.chunks) == 1:  # a unit re-parsed whole, where the edit cuts it (a line at the top level's indentation)
        plain = _try_incremental(previous, new_text, changed, delta)
        if plain is not None:
            return SegmentedFile(new_text, plain[0].chunks, plain[0].split, [None], plain[1])
    spliced = _splice(chunk, plan, new_text, delta) if plan is not None else None
    if spliced is None or plan is None:
        fresh, fresh_segments = _parse_chunk_units(new_text, chunk.start, chunk.end + delta)
        return _replace_chunk(previous, new_text, chunk_index, fresh, fresh_segments, delta)
    previous.layout[chunk_index] = spliced
    _shift_after(previous.chunks, previous.layout, chunk_index, new_text, delta)
    return SegmentedFile(new_text, previous.chunks, previous.split, previous.layout, sum(s.end - s.start for s in plan.removed))


def _replace_chunk(
    previous: SegmentedFile, new_text: str, index: int, chunk: Chunk, segments: list[Segment] | None, delta: int
) -> SegmentedFile:
    chunks = list(previous.chunks)
    layout = list(previous.layout)
    replaced = chunks[index].end - chunks[index].start
    chunks[index] = chunk
    layout[index] = segments
    _shift_after(chunks, layout, index, new_text, delta)
    return SegmentedFile(new_text, chunks, previous.split, layout, replaced)


def _shift_after(chunks: list[Chunk], layout: list[list[Segment] | None], index: int, text: str, delta: int) -> None:
    """Move the chunks after `index` (and their segments) by `delta`; every chunk reads `text`."""
    for later_chunk, segments in zip(chunks[index + 1 :], layout[index + 1 :]):
        _shift_chunk(later_chunk, delta)
        for seg in segments or ():
            seg.shift(delta, ops=False)
    for c in chunks:
        if c.context is not None:
            c.context.text = text


@dataclass
class _Splice:
    """How an edit changes a chunk's segments (`_plan_splice`): the new layout, the segments in
    it to parse, those it drops, and those after the edit, to move."""

    result: list[Segment]
    fresh: list[Segment]
    removed: list[Segment]
    kept_after: list[Segment]
    shelled: bool  # the chunk is a written module around indented ops
    dialect: str  # the default dialect of the ops the fresh segments hold (`_Level`)


def _may_join_previous(text: str, seg_start: int, start: int, indent: str) -> bool:
    """Whether an edit at `start` may join the segment starting at `seg_start` to the one before:
    it is on that segment's first line, which no longer starts an op (the segment before ends
    where an op line starts; an edit after its first line leaves that line as it was)."""
    line_end = text.find("\n", seg_start)
    if 0 <= line_end < start:
        return False
    return _op_lines(indent)[0].match(text, seg_start) is None


def _plan_splice(
    chunk: Chunk, segments: list[Segment], text: str, start: int, end: int, delta: int, level: _Level = _TOP
) -> _Splice | None:
    """The segments an edit of [start, end) touches, to re-parse (nothing is changed yet); None
    when the chunk is not re-parsed a segment at a time (aliases involved, the layout no longer
    trusted, an edit of a written module's own text)."""
    lo, hi, indent, limit = 0, len(segments), "", chunk.end + delta
    head = next((i for i, seg in enumerate(segments) if seg.indent), None)
    if head is not None:  # a written module around indented ops (`_shelled`): the edit is in its body
        tail = segments[-1]
        if start < segments[head].end or end > tail.start or not _still_shelled(text, segments[head], tail, start, end + delta, delta, level):
            return None
        lo, hi, indent, limit = head + 1, len(segments) - 1, segments[head].indent or "", tail.start + delta
    run = segments[lo:hi]
    if not run:
        return None
    starts = [s.start for s in run]
    first = max(0, bisect_right(starts, start) - 1)
    if first > 0 and _may_join_previous(text, run[first].start, start, indent):
        first -= 1
    begin = run[first].start
    new_end = end + delta
    # The first old boundary at or after the edit that is still a boundary: everything from
    # there on is unchanged.
    resync = len(run)
    new_starts = [begin]
    old_by_new = {s.start + delta: i for i, s in enumerate(run[first + 1 :], first + 1) if s.start >= end}
    for m in _op_lines(indent)[0].finditer(text, begin, limit):
        pos = m.start()
        if pos <= begin:
            continue
        if pos >= new_end and pos in old_by_new:
            resync = old_by_new[pos]
            break
        new_starts.append(pos)
    stop = run[resync].start + delta if resync < len(run) else limit
    fresh = segments_of(text, new_starts, stop)
    removed = run[first:resync]
    kept_after = run[resync:] + segments[hi:]
    if any(s.aliases for s in removed) or any(s.aliases for s in kept_after):
        return None
    spliced = run[:first] + fresh + run[resync:]
    result = segments[:lo] + spliced + segments[hi:]
    if not _layout_trusted(result):
        return None
    if chunk.context is None or _container(chunk) is None:
        return None
    return _Splice(result, fresh, removed, kept_after, head is not None, level.dialect)


def _splice(chunk: Chunk, plan: _Splice, text: str, delta: int) -> list[Segment] | None:
    """Re-parse the segments of `plan`, in place; None when the chunk must be parsed anew after
    all (names resolved across segments, one written module left)."""
    ctx, block = chunk.context, _container(chunk)
    assert ctx is not None and block is not None, "checked by the plan"
    result, fresh, removed, kept_after = plan.result, plan.fresh, plan.removed, plan.kept_after
    ctx.text = text
    for seg in fresh:
        parse_segment(ctx, seg, dialect=plan.dialect)
    if not _resolves_locally(result) or (plan.shelled and _defines_aliases(fresh)):
        return None
    for seg in fresh:
        Resolver(seg.diagnostics).resolve_top(seg.ops)
    ops = [op for seg in result for op in seg.ops]
    for seg in kept_after:
        seg.shift(delta)
    if not plan.shelled and (
        (len(ops) == 1 and ops[0].name == "builtin.module")
        or (not any(seg.ops for seg in result[:-1]) and MODULE_LINE.match(text, result[-1].start))
    ):
        return None  # one written module (the chunk's module, or around indented ops): parsed anew
    for seg in removed:
        for op in seg.ops:
            op.parent = None
    block.operations = []
    for op in ops:
        block.append(op)
    chunk.end += delta
    _grow_containers(chunk, delta)
    diagnostics = [d for seg in result if seg.diagnostics for d in seg.current_diagnostics()]
    diagnostics.sort(key=Diagnostic.sort_key)
    chunk.diagnostics = diagnostics
    chunk.comments = comments_of(result)
    ctx.alias_uses = [u for seg in result if seg.alias_uses for u in seg.current_alias_uses()]
    return result


def _splice_nested(chunk: Chunk, segments: list[Segment], text: str, start: int, end: int, delta: int) -> int | None:
    """Re-parse, in place, only the kernels an edit of [start, end) touches where it falls inside the
    body of a `gpu.module` read a kernel at a time (`_parse_nested`), as `_splice` re-parses a
    chunk's segments; how many code points it re-parsed. None where the edit is not such an edit
    (nothing is changed), -1 where the chunk is to be parsed anew after all."""
    i = bisect_right([seg.start for seg in segments], start) - 1
    seg = segments[i] if i >= 0 else None
    if seg is None or seg.inner is None or end > seg.end or not seg.ops:
        return None
    head, tail, ctx = seg.inner[0], seg.inner[-1], chunk.context
    if start < head.end or end > tail.start or ctx is None:
        return None
    around = next((s.indent for s in segments if s.indent), "")  # the indentation of a written module's ops
    body = Chunk(seg.start, seg.end, seg.ops[0], [], [], False, ctx)  # the module's, as `_splice` takes a chunk
    plan = _plan_splice(body, seg.inner, text, start, end, delta, _nested_level(around or ""))
    if plan is None:
        return None
    whole = Segment(seg.start, seg.end + delta, _total_net(plan.result))  # the segment it is once edited
    if not _layout_trusted([*segments[:i], whole, *segments[i + 1 :]]):
        return None
    uses = ctx.alias_uses
    spliced = _splice(body, plan, text, delta)
    ctx.alias_uses = uses
    if spliced is None:
        return -1
    seg.inner = spliced
    seg.end += delta
    seg.net = whole.net
    seg.diagnostics = [d for p in spliced if p.diagnostics for d in p.current_diagnostics()]
    seg.comments = list(comments_of(spliced))
    seg.alias_uses = [u for p in spliced if p.alias_uses for u in p.current_alias_uses()]
    seg.origin = seg.start  # what it holds now has the current offsets
    for later in segments[i + 1 :]:
        later.shift(delta)
    chunk.end += delta
    _grow_containers(chunk, delta)
    chunk.diagnostics = sorted((d for s in segments if s.diagnostics for d in s.current_diagnostics()), key=Diagnostic.sort_key)
    chunk.comments = comments_of(segments)
    ctx.alias_uses = [u for s in segments if s.alias_uses for u in s.current_alias_uses()]
    return sum(p.end - p.start for p in plan.removed)


class Progressive:
    """`parse_units(text, split)` done a batch of segments at a time, so that an editor can
    answer requests on what is parsed while it opens a large file; the result is the same."""

    def __init__(self, text: str, split: bool = False) -> None:
        self.text = text
        self.split = split
        self._done: SegmentedFile | None = None
        self._next = 0
        ranges = split_ranges(text) if split else [(0, len(text))]
        segments: list[Segment] = []
        if ranges == [(0, len(text))]:
            segments = whole_segments(text)
        elif len(ranges) == 1:
            segments = segments_of(text, boundaries(text, *ranges[0]), ranges[0][1])
        trusted = bool(segments) and segments_trusted(segments)
        # A written module around indented ops: its body's segments are parsed a batch at a time.
        self._shelled = _shelled(text, 0, segments, MAX_DIAGNOSTICS) if trusted else None
        if self._shelled is None and (len(segments) < 2 or not trusted):
            self.segments_of: list[Segment] = []
            return
        self._diagnostics: list[Diagnostic] = []
        self.comments_of: list[tuple[list[Comment], int]] = []
        self._stopped = False  # at the cap of syntax errors: the segments after it are left unread
        start, end = ranges[0]
        if self._shelled is not None:
            self.segments_of = self._shelled.body
            self._ctx = self._shelled.ctx
            for seg in self._shelled.before:
                self._diagnostics.extend(seg.diagnostics)
                if seg.comments:
                    self.comments_of.append((seg.comments, 0))
            self._chunk = Chunk(start, end, self._shelled.module, [], Comments([]), False, self._ctx)
            return
        self.segments_of = segments
        self._ctx = ParseContext(text, op_names())
        self._chunk = Chunk(start, end, implicit_module([], start, end), [], Comments([]), True, self._ctx)

    @property
    def complete(self) -> bool:
        return self._done is not None

    @property
    def parsed_to(self) -> int:
        """Where the parsed part of the text ends."""
        if self._done is not None:
            return len(self.text)
        return self.segments_of[self._next - 1].end if self._next else 0

    def boundary_after(self, offset: int) -> int:
        """The end of the first top-level segment that ends at or after `offset` (the end of the
        text when there is none, or the text is not parsed a segment at a time)."""
        ends = [seg.end for seg in self.segments_of]
        i = bisect_left(ends, offset)
        return ends[i] if i < len(ends) else len(self.text)

    def step(self, count: int, budget_s: float | None = None, until: int | None = None) -> bool:
        """Parse up to `count` more segments, stopping after the first that ends `budget_s`
        seconds or more after the start, or that reaches offset `until`; whether the parse is
        complete."""
        if self._done is not None:
            return True
        if not self.segments_of:
            self._done = parse_units(self.text, self.split)
            return True
        block = _container(self._chunk)
        assert block is not None, "an implicit module has a body"
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        with paused_gc():
            for seg in self.segments_of[self._next : self._next + count]:
                if parse_segment(self._ctx, seg, budget_for(MAX_DIAGNOSTICS - len(self._diagnostics))):
                    del self.segments_of[self._next + 1 :]  # the rest is left unread
                    self._stopped = True
                Resolver(seg.diagnostics).resolve_top(seg.ops)
                for op in seg.ops:
                    block.append(op)
                self._diagnostics.extend(seg.diagnostics)
                if seg.comments:
                    self.comments_of.append((seg.comments, 0))
                self._next += 1
                if self._stopped or (deadline is not None and time.perf_counter() >= deadline) or (until is not None and seg.end >= until):
                    break
        if self._next == len(self.segments_of):
            self._finish()
            return True
        return False

    def partial(self) -> SegmentedFile:
        """What is parsed so far (its IR grows with the next steps), or the whole result."""
        if self._done is not None:
            return self._done
        chunk = self._chunk
        chunk.diagnostics = sorted(self._diagnostics, key=Diagnostic.sort_key)
        chunk.comments = Comments(list(self.comments_of))
        return SegmentedFile(self.text, [chunk], self.split, [None])

    def result(self) -> SegmentedFile:
        while not self.step(len(self.segments_of) or 1):
            pass
        assert self._done is not None, "a complete parse has its result"
        return self._done

    def _finish(self) -> None:
        segments = self.segments_of
        block = _container(self._chunk)
        assert block is not None, "an implicit module has a body"
        if not _resolves_locally(segments):
            self._done = parse_units(self.text, self.split)
            return
        shelled = self._shelled
        if shelled is not None and _defines_aliases(segments):
            self._done = parse_units(self.text, self.split)
            return
        if shelled is not None:
            layout = [*shelled.before, *segments, shelled.tail]
            chunk = shelled.chunk(self._chunk.start, self._chunk.end, layout)
            self._done = SegmentedFile(self.text, [chunk], self.split, [None if self._stopped else layout])
            return
        written = _written_module_chunk(self._chunk.start, self._chunk.end, segments, self._ctx)
        if written is not None:
            self._done = SegmentedFile(self.text, [written], self.split, [None])
            return
        chunk = self._chunk
        chunk.diagnostics = sorted((d for seg in segments for d in seg.diagnostics), key=Diagnostic.sort_key)
        chunk.comments = comments_of(segments)
        self._ctx.alias_uses = [u for seg in segments for u in seg.alias_uses]
        self._done = SegmentedFile(self.text, [chunk], self.split, [None if self._stopped else segments])
