"""The parser's entry points: text (optionally `// -----` split) to IR plus diagnostics."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gpu_lsp.diagnostics.model import MAX_DIAGNOSTICS, STOPPED, Diagnostic, Related, stop_notice
from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir.core import Anchor, Operation, Span
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.ir.opdefs import op_names
from gpu_lsp.parser.builder import SYNTAX, Builder
from gpu_lsp.parser.resolve import Resolver
from gpu_lsp.syntax.cursor import ParseContext
from gpu_lsp.syntax.lexer import Comment, LexResult, tokenize
from gpu_lsp.syntax.raw import RawAlias, RawOp
from gpu_lsp.syntax.structure import parse_structure
from gpu_lsp.text import TextRange

SPLIT_MARKER = "// -----"


@dataclass
class Chunk:
    """One `// -----` piece of a file: its IR, diagnostics and comments."""

    start: int
    end: int
    module: Operation
    diagnostics: list[Diagnostic] = field(default_factory=list)
    comments: Sequence[Comment] = field(default_factory=list)
    implicit_module: bool = True
    context: ParseContext | None = None

    @property
    def top_level(self) -> list[Operation]:
        """Operations written at the top of the chunk (inside an implicit module)."""
        if self.implicit_module:
            return list(self.module.regions[0].blocks[0].operations)
        return [self.module]


@dataclass
class ParsedFile:
    """A whole buffer: its chunks in order."""

    text: str
    chunks: list[Chunk]
    split: bool

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for chunk in self.chunks for d in chunk.diagnostics]

    @property
    def comments(self) -> list[Comment]:
        return [c for chunk in self.chunks for c in chunk.comments]

    def chunk_at(self, offset: int) -> Chunk:
        for chunk in self.chunks:
            if chunk.start <= offset <= chunk.end:
                return chunk
        return self.chunks[-1]


def split_ranges(text: str) -> list[tuple[int, int]]:
    """Chunk ranges like `mlir-opt -split-input-file`: a chunk starts right after a marker."""
    probe = SPLIT_MARKER[:-2]
    pieces: list[tuple[int, int]] = []
    raw: list[tuple[int, int]] = []
    start = 0
    while True:
        pos = text.find(probe, start)
        if pos < 0:
            raw.append((start, len(text)))
            break
        raw.append((start, pos))
        start = pos + len(probe)
    prev: tuple[int, int] | None = None
    for s, e in raw:
        if prev is None:
            prev = (s, e)
            continue
        if text.startswith("--", s) and e - s > 2 and text[s + 2] != "0":
            pieces.append(prev)
            prev = (s + 2, e)
        else:
            prev = (prev[0], e)
    if prev is not None:
        pieces.append(prev)
    return pieces


def parse(text: str, split: bool = False) -> ParsedFile:
    """Parse a buffer; never raises on user input. Once `MAX_DIAGNOSTICS` syntax errors are
    found, the rest of the buffer is left unread (`syntax_errors`)."""
    ranges = split_ranges(text) if split else [(0, len(text))]
    chunks: list[Chunk] = []
    left = MAX_DIAGNOSTICS
    with paused_gc():
        for s, e in ranges:
            chunk = parse_chunk(text, s, e, budget_for(left))
            left = -1 if stopped(chunk.diagnostics) else left - len(chunk.diagnostics)
            chunks.append(chunk)
    return ParsedFile(text, chunks, split)


def budget_for(left: int) -> int:
    """The lexer's budget for the next piece of a buffer, `left` diagnostics before the cap (-1:
    the parser stopped already, the rest is left unread): at least one error, then the notice."""
    return 0 if left < 0 else max(left, 1)


def stopped(found: list[Diagnostic]) -> bool:
    """Whether the parser stopped in the piece that found `found` (its notice is the last one)."""
    return any(STOPPED in d.tags for d in found)


# The note of a bracket left open: where it is closed (the next op, or the `}` around it), where
# upstream's parser, reading on, has found it missing (`analysis.verify_chunk` orders by it).
CLOSED_HERE = "still open here"


def syntax_errors(lexed: LexResult) -> list[Diagnostic]:
    """The lexer's errors as diagnostics, and the notice where it stopped when its budget ran out
    (a chunk given no budget is left unread without one)."""
    found = [
        Diagnostic(SYNTAX, err.message, err.range, related=(Related(CLOSED_HERE, TextRange(err.noticed, err.noticed)),))
        if err.noticed is not None
        else Diagnostic(SYNTAX, err.message, err.range)
        for err in lexed.errors
    ]
    if lexed.stopped is not None and found:
        found.append(stop_notice(lexed.stopped))
    return found


def parse_chunk(text: str, start: int, end: int, budget: int = MAX_DIAGNOSTICS) -> Chunk:
    """Parse `text[start:end]` into one module; ranges stay in whole-buffer offsets. Lexing
    stops once `budget` syntax errors are found."""
    names = op_names()
    lexed = tokenize(text, names, start, end, budget=budget)
    diagnostics = syntax_errors(lexed)
    raw_items, errors = parse_structure(lexed.tokens)
    for err in errors:
        diagnostics.append(Diagnostic(SYNTAX, err.message, err.range))
    ctx = ParseContext(text, names, start)
    builder = Builder(ctx, diagnostics)
    ops: list[Operation] = []
    for item in raw_items:
        if isinstance(item, RawAlias):
            builder.alias(item)
        elif isinstance(item, RawOp):
            ops.append(builder.top_level_op(item))
    if len(ops) == 1 and ops[0].name == "builtin.module":
        module = ops[0]
        implicit = False
    else:
        module = implicit_module(ops, start, end)
        implicit = True
    Resolver(diagnostics).resolve_top(ops)
    diagnostics.sort(key=Diagnostic.sort_key)
    if ctx.type_aliases or ctx.attr_aliases:
        writable_facts(module).aliases = {**ctx.type_aliases, **ctx.attr_aliases}
    return Chunk(start, end, module, diagnostics, lexed.comments, implicit, ctx)


def implicit_module(ops: list[Operation], start: int, end: int) -> Operation:
    """The `builtin.module` MLIR wraps around top-level operations."""
    module = Operation("builtin.module", Anchor(start))
    module.span = Span(module.anchor, 0, end - start)
    writable_facts(module).implicit = True
    block = module.add_region().add_block()
    for op in ops:
        block.append(op)
    return module


def module_range(chunk: Chunk) -> TextRange:
    return TextRange(chunk.start, chunk.end)
