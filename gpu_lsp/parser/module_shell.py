"""A chunk that is one written `builtin.module` around indented ops (what `mlir-opt` prints, and
every file after kernel outlining): where its body lies, so that the body is cut into segments as
a chunk's top level is (`incremental.py`), and the module itself read from its own text around
them (its `module ... {` line and its closing `}`), as the whole chunk's parse reads it. A
`gpu.module` written so is read the same way inside its segment."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeVar

from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.ir.core import Operation
from gpu_lsp.parser.api import syntax_errors
from gpu_lsp.parser.builder import SYNTAX, Builder
from gpu_lsp.syntax.cursor import ParseContext
from gpu_lsp.syntax.lexer import Comment, LexError, tokenize
from gpu_lsp.syntax.raw import RawOp
from gpu_lsp.syntax.structure import parse_structure
from gpu_lsp.text import TextRange

# The start of a written module's line (a top-level segment starts with it).
MODULE_LINE: Final = re.compile(r"(?:builtin\.)?module\b")
# The start of a `gpu.module`'s line, its body read the same way inside a segment (`incremental.py`).
GPU_MODULE_LINE: Final = re.compile(r"gpu\.module\b")
# The line closing the module: its `}` alone, indented or not (a location or a comment after it: no shell).
_CLOSING_LINE: Final = re.compile(r"[ \t]*\}[ \t]*\r?$", re.M)
# The rest of a line that holds nothing or a comment: after the region's `{`, and the body's lines before its first op.
_BLANK_OR_COMMENT: Final = re.compile(r"[ \t]*(?://[^\n]*)?\r?\n")
_INDENT: Final = re.compile(r"[ \t]+")
T = TypeVar("T", Diagnostic, Comment)
# The lines the module's header may take before its region's `{`.
HEADER_LINES: Final = 64


@dataclass(frozen=True)
class Body:
    """Where a written module's body lies: after the `{` of its region, up to the `}` closing it,
    its ops indented by `indent`."""

    start: int
    end: int
    indent: str


def find_body(text: str, start: int, end: int, op_names: frozenset[str], line: re.Pattern[str] = MODULE_LINE) -> Body | None:
    """The body of the module written at `start` (its line starts with `line`) whose text (a
    segment: its brackets balance) ends at `end`, where its region's `{` ends its header's last
    line, its `}` is alone on the last line that is not blank or a comment, and its first op is
    indented; None otherwise."""
    if line.match(text, start, end) is None:
        return None
    opening = _region_brace(text, start, end, op_names)
    if opening is None:
        return None
    rest = _BLANK_OR_COMMENT.match(text, opening, end)
    if rest is None:
        return None
    closing = _closing_brace(text, rest.end(), end)
    if closing is None:
        return None
    pos = rest.end()
    while (blank := _BLANK_OR_COMMENT.match(text, pos, closing)) is not None:
        pos = blank.end()
    indent = _INDENT.match(text, pos, closing)
    if indent is None:
        return None
    return Body(opening, closing, indent.group())


def _region_brace(text: str, start: int, end: int, op_names: frozenset[str]) -> int | None:
    """Where the `{` opening the module's region ends (lexed a line at a time: an attribute
    dictionary is a token of its own), within HEADER_LINES lines."""
    line_end = start
    for _ in range(HEADER_LINES):
        line_end = text.find("\n", line_end + 1, end)
        if line_end < 0:
            return None
        lexed = tokenize(text, op_names, start, line_end)
        brace = next((tok for tok in lexed.tokens if tok.type == "LBRACE"), None)
        if brace is not None:
            return brace.end_pos
    return None


def _closing_brace(text: str, start: int, end: int) -> int | None:
    """The `}` alone on the last line of `text[start:end]` that is not blank or a comment."""
    pos = end
    while pos > start:
        line_start = text.rfind("\n", start, pos - 1) + 1
        line = text[line_start:pos].strip()
        if line and not line.startswith("//"):
            closing = _CLOSING_LINE.match(text, line_start, pos)
            return line_start if closing is not None and line_start >= start else None
        pos = line_start
    return None


@dataclass
class Shell:
    """The module read from its own text: its line up to its region's `{` (the head) and from
    its closing `}` on (the tail), lexed together as one op with an empty body."""

    module: Operation
    head: tuple[list[Diagnostic], list[Comment]]
    tail: tuple[list[Diagnostic], list[Comment]]


def read_shell(
    ctx: ParseContext, start: int, body: Body, end: int, budget: int, name: str = "builtin.module", op_start: int | None = None
) -> Shell | None:
    """The module `name` written at `op_start` (by default `start`, where its head's text starts: what
    is before the module is blank or comments) with its body left out (`find_body`), built with `ctx`;
    its diagnostics and comments apart for its head and its tail. None where its text is no such module."""
    text = ctx.text
    head, tail = text[start : body.start], text[body.end : end]
    split = len(head)
    lexed = tokenize(head + tail, ctx.op_names, 0, split + len(tail), budget=budget)

    def at(pos: int, is_end: bool) -> int:
        """Where an offset of the head and tail lexed together is in the text (an end at the split: the head's)."""
        inside_head = pos <= split if is_end else pos < split
        return start + pos if inside_head else body.end + pos - split

    for tok in lexed.tokens:
        empty = tok.start_pos == tok.end_pos
        tok.start_pos, tok.end_pos = at(tok.start_pos, False), at(tok.end_pos, not empty)
    lexed.errors[:] = [
        LexError(e.message, _moved(e.range, at), at(e.noticed, False) if e.noticed is not None else None) for e in lexed.errors
    ]
    lexed.comments[:] = [Comment(c.text, _moved(c.range, at)) for c in lexed.comments]
    if lexed.stopped is not None:
        lexed.stopped = at(lexed.stopped, False)
    diagnostics = syntax_errors(lexed)
    raw_items, errors = parse_structure(lexed.tokens)
    diagnostics.extend(Diagnostic(SYNTAX, err.message, err.range) for err in errors)
    first = start if op_start is None else op_start
    if len(raw_items) != 1 or not isinstance(raw_items[0], RawOp) or raw_items[0].start_pos != first:
        return None
    module = Builder(ctx, diagnostics).top_level_op(raw_items[0])
    if module.name != name or not module.regions or not module.regions[0].blocks:
        return None
    diags_head, diags_tail = _apart(diagnostics, body.end)
    comments_head, comments_tail = _apart(lexed.comments, body.end)
    return Shell(module, (diags_head, comments_head), (diags_tail, comments_tail))


def _apart(items: list[T], tail_start: int) -> tuple[list[T], list[T]]:
    """`items` (each with a `range`) of the head, and those of the tail (at or after `tail_start`)."""
    return [i for i in items if i.range.start < tail_start], [i for i in items if i.range.start >= tail_start]


def _moved(rng: TextRange, at: Callable[[int, bool], int]) -> TextRange:
    """`rng` of the head and tail lexed together, put back where they are in the text (`at`)."""
    empty = rng.start == rng.end
    return TextRange(at(rng.start, False), at(rng.end, not empty))
