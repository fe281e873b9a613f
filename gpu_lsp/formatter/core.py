"""Format MLIR text: every op printed by the printer, with the source's comments, names and layout.

The file is cut at its `// -----` markers (kept as written). In each chunk:

* every top-level op is printed as mlir-opt prints it, with the source's SSA value and
  block names and the source's affine map aliases;
* comments keep their place: a comment between the ops of a block is written before the
  op it precedes (or after the block's last op) at that op's indentation, one at the end
  of an op's line stays there; a top-level op with a comment elsewhere inside it (in its
  attribute dictionary, say) is kept as written;
* at the top level, blank lines between ops and comments are kept (one at most), and text
  that is neither (alias definitions) is kept as written;
* a chunk with a parse error is kept as written, and said so;
* the result is checked: each top-level op of the formatted chunk, parsed again, must print
  to the generic form of the op it came from, and keep every dotted name the source wrote
  (an attribute such as `llvm.align` the IR does not hold would vanish unseen otherwise);
  one that does not (an op the printer cannot show exactly) is kept as written, and said
  so; where the difference lies in nested ops, only those are kept as written.

Formatting a formatted file changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir.attributes import OpaqueAttr
from gpu_lsp.ir.core import Block, Operation
from gpu_lsp.ir.opdefs import op_names
from gpu_lsp.ir.printer import INDENT, Aliases, Formatter, OpPrinter, default_dialect
from gpu_lsp.parser.api import Chunk, parse, parse_chunk
from gpu_lsp.passes.edits import source_names
from gpu_lsp.syntax.lexer import Comment
from gpu_lsp.text import TextRange


@dataclass
class Formatted:
    """The formatted text and what was left as written, and why."""

    text: str
    problems: list[str] = field(default_factory=list)


class _Printer(OpPrinter):
    """OpPrinter that writes the source's comments between the ops of each block."""

    def __init__(self, chunk: Chunk, text: str, comments: Sequence[Comment], as_written: frozenset[int] = frozenset()) -> None:
        aliases = Aliases()
        context = chunk.context
        for name, attr in (context.attr_aliases.items() if context is not None else ()):
            if isinstance(attr, OpaqueAttr) and attr.kind in ("affine_map", "affine_set") and attr.text not in aliases.names:
                aliases.names[attr.text] = name
                aliases.order.append(attr.text)
        super().__init__(source_names(text, chunk), Formatter(aliases), False, text)
        self.text = text
        self.comments = comments
        self.written = 0  # how many of `comments` were written
        self.as_written = as_written  # offsets of the nested ops kept as written

    def op(self, op: Operation) -> None:
        rng = op.range
        if rng is None or rng.start not in self.as_written or op.parent_op is None:
            super().op(op)
            return
        self.out.append(self.text[rng.start : rng.end])
        self.written += len(self._comments_in(rng.start, rng.end))

    def _pred_comment(self, block: Block, preds: dict | None) -> str:
        return ""  # the source's own comments stay; generated ones would be added again each time

    def _comments_in(self, start: int, end: int) -> list[Comment]:
        return [c for c in self.comments if start <= c.range.start and c.range.end <= end]

    def _same_line(self, end: int, comment: Comment) -> bool:
        return "\n" not in self.text[end : comment.range.start]

    def block(self, block: Block, header: bool, terminators: bool = True, preds: dict | None = None) -> None:
        region = block.parent
        span = region.span.range if region is not None and region.span is not None else None
        if span is None:
            super().block(block, header, terminators, preds)
            return
        blocks = region.blocks if region is not None else []
        index = next(i for i, b in enumerate(blocks) if b is block)
        after = blocks[index + 1].label_span if index + 1 < len(blocks) else None
        bound = after.range.start if after is not None else span.end
        start = block.label_span.range.end if block.label_span is not None else span.start + 1
        w = self.out.append
        if header:
            w(" " * self.indent + self.block_name(block))
            if block.arguments:
                w("(" + ", ".join(f"{self.names.use(a)}: {self.fmt.type(a.type)}" for a in block.arguments) + ")")
            w(":")
            label_end = start
            if block.label_span is not None:
                line_end = self.text.find("\n", label_end)
                trailing = self._comments_in(label_end, line_end if line_end >= 0 else bound)
                for c in trailing:
                    w("  " + c.text.rstrip())
                    self.written += 1
                    start = c.range.end
            w("\n")
        self.indent += INDENT
        pad = " " * self.indent
        for op in block.operations:
            rng = op.range
            if rng is None:
                continue
            for c in self._comments_in(start, rng.start):
                w(pad + c.text.rstrip() + "\n")
                self.written += 1
            w(pad)
            self.op(op)
            start = rng.end
            line_end = self.text.find("\n", start)
            for c in self._comments_in(start, line_end if 0 <= line_end < bound else bound):
                w("  " + c.text.rstrip())
                self.written += 1
                start = c.range.end
            w("\n")
        for c in self._comments_in(start, bound):
            w(pad + c.text.rstrip() + "\n")
            self.written += 1
        self.indent -= INDENT


def _print_top(chunk: Chunk, text: str, op: Operation, comments: Sequence[Comment], as_written: frozenset[int]) -> str | None:
    """A top-level op printed with its comments; None when one of them has no place."""
    rng = op.range
    assert rng is not None
    inside = [c for c in comments if rng.start <= c.range.start < rng.end]
    written = _STRING.sub('""', text[rng.start : rng.end]).split("\n")
    if sum("//" in line for line in written) != len(inside):  # a comment the parser read as part of a token
        return None
    p = _Printer(chunk, text, inside, as_written)
    p.dialects = ["builtin"] + [default_dialect(a) for a in reversed(list(op.ancestors()))]
    try:
        p.op(op)
    except Exception:  # a printer that cannot show this op: keep it as written
        return None
    if p.written != len(inside):
        return None
    return "".join(p.out)


def _items(chunk: Chunk, text: str, start: int, end: int) -> list[tuple[TextRange, str]]:
    """The chunk's top-level ops, comments and other text, in order: (range, kind)."""
    items: list[tuple[TextRange, str]] = []
    ops = [op for op in chunk.top_level if op.range is not None]
    for op in ops:
        assert op.range is not None
        items.append((op.range, "op"))
    for c in chunk.comments:
        if not any(op.range is not None and op.range.start <= c.range.start < op.range.end for op in ops):
            items.append((c.range, "comment"))
    items.sort(key=lambda item: item[0].start)
    out: list[tuple[TextRange, str]] = []
    pos = start
    for rng, kind in items + [(TextRange(end, end), "end")]:
        gap = text[pos : rng.start]
        if gap.strip():
            lead = len(gap) - len(gap.lstrip())
            out.append((TextRange(pos + lead, pos + len(gap.rstrip())), "text"))
        if kind != "end":
            out.append((rng, kind))
            pos = max(pos, rng.end)
    return out


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_DOTTED = re.compile(r"(?<![\w.$#!%@^-])[A-Za-z_][\w$]*(?:\.[\w$]+)+")


def _dotted(text: str) -> set[str]:
    """The dotted names an op's text writes outside strings and comments, op names left out."""
    code = "\n".join(line.split("//", 1)[0] for line in _STRING.sub('""', text).split("\n"))
    return set(_DOTTED.findall(code)) - op_names()


def _generic(ops: list[Operation], source: str) -> list[str]:
    from gpu_lsp.ir.printers import print_op

    return [print_op(op, generic=True, source=source) for op in ops]


class _Shape(Exception):
    """The formatted op does not have the regions, blocks and ops of the one it came from."""


_NAME = re.compile(r"[%^][\w$.-]+")


def _differing_nested(op: Operation, new_op: Operation, text: str, formatted: str) -> list[Operation]:
    """The ops nested in `op` whose own generic form (names aside) differs from their formatted
    counterpart's while their nested ops' do not: those to keep as written. Empty when the two
    trees differ in shape or only `op` itself differs."""
    found: list[Operation] = []

    def differs(a: Operation, b: Operation) -> bool:
        if len(a.regions) != len(b.regions):
            raise _Shape
        inner = False
        for ra, rb in zip(a.regions, b.regions):
            if len(ra.blocks) != len(rb.blocks):
                raise _Shape
            for ba, bb in zip(ra.blocks, rb.blocks):
                if len(ba.operations) != len(bb.operations):
                    raise _Shape
                for oa, ob in zip(ba.operations, bb.operations):
                    inner = differs(oa, ob) or inner
        if inner:
            return True
        old, new = _generic([a], text)[0], _generic([b], formatted)[0]
        if _NAME.sub("%", old) == _NAME.sub("%", new):
            return False
        found.append(a)
        return True

    try:
        differs(op, new_op)
    except _Shape:
        return []
    if op in found or any(o.range is None for o in found):
        return []
    return found


def format_chunk(chunk: Chunk, text: str, start: int, end: int, first: bool) -> tuple[str, list[str]]:
    """One chunk's text formatted, and the top-level ops kept as written, with why."""
    kept: dict[int, str] = {}
    formatted = _format_chunk(chunk, text, start, end, first, kept)
    if formatted == text[start:end]:  # already formatted: nothing to check
        return formatted, _reasons(text, kept)
    ops = [op for op in chunk.top_level if op.range is not None]
    failed = _check(ops, text, formatted, kept, nested=True)
    if failed is None:
        return text[start:end], ["the formatted chunk does not parse the same; it is left as written"]
    nested: dict[int, str] = {}
    for inner in failed.values():
        nested.update((o.range.start, f"'{o.name}' would not print the same; it is left as written") for o in inner if o.range is not None)
    if nested:  # formatted again keeping those nested ops as written, and checked again
        formatted = _format_chunk(chunk, text, start, end, first, kept, frozenset(nested))
        if _check(ops, text, formatted, kept, nested=False) is None:
            return text[start:end], ["the formatted chunk does not parse the same; it is left as written"]
        whole = [op.range for op in ops if op.range is not None and op.range.start in kept]
        nested = {at: why for at, why in nested.items() if not any(r.start < at < r.end for r in whole)}
    if kept and len(kept) > sum(1 for reason in kept.values() if "comment" in reason):
        formatted = _format_chunk(chunk, text, start, end, first, kept, frozenset(nested))
    return formatted, _reasons(text, kept | nested)


def _check(ops: list[Operation], text: str, formatted: str, kept: dict[int, str], nested: bool) -> dict[int, list[Operation]] | None:
    """Adds to `kept` the top-level ops whose formatted text is not the same IR; with `nested`, a
    top-level op whose difference lies in nested ops is left out and returned with them instead
    (offset -> ops). None when the formatted chunk does not parse the same."""
    again = parse_chunk(formatted, 0, len(formatted))
    after = [op for op in again.top_level if op.range is not None]
    if any(d.severity >= Severity.ERROR for d in again.diagnostics) or len(after) != len(ops):
        return None
    failed: dict[int, list[Operation]] = {}
    for op, new_op, old, new in zip(ops, after, _generic(ops, text), _generic(after, formatted)):
        if op.range is None or new_op.range is None or op.range.start in kept:
            continue
        lost = _dotted(text[op.range.start : op.range.end]) - _dotted(formatted[new_op.range.start : new_op.range.end])
        if old != new or lost:
            inner = _differing_nested(op, new_op, text, formatted) if nested else []
            if inner:
                failed[op.range.start] = inner
                continue
            what = f" (it would drop {', '.join(sorted(lost))})" if lost else ""
            kept[op.range.start] = f"'{op.name}' would not print the same{what}; it is left as written"
    return failed


def _reasons(text: str, kept: dict[int, str]) -> list[str]:
    return [f"line {text.count(chr(10), 0, at) + 1}: {why}" for at, why in sorted(kept.items())]


def _format_chunk(
    chunk: Chunk, text: str, start: int, end: int, first: bool, kept: dict[int, str], nested: frozenset[int] = frozenset()
) -> str:
    """One chunk's text formatted; the top-level ops at the offsets in `kept` are left as written
    (and those that had to be are added to it), and so are the nested ops at the offsets in `nested`."""
    ops = {op.range.start: op for op in chunk.top_level if op.range is not None}
    out: list[str] = []
    pos = start
    if not first:
        newline = text.find("\n", start, end)
        pos = end if newline < 0 else newline + 1
        out.append(text[start:pos])
    comments = sorted(chunk.comments, key=lambda c: c.range.start)
    previous: str | None = None
    for rng, kind in _items(chunk, text, pos, end):
        if rng.start < pos:
            continue
        gap = text[pos : rng.start]
        newlines = gap.count("\n")
        if previous is not None and newlines == 0 and kind == "comment":
            out.append(" " + text[rng.start : rng.end].rstrip())
            pos = rng.end
            continue
        if previous is not None:
            out.append("\n")
        if (previous is not None and newlines >= 2) or (previous is None and not first and newlines >= 1):
            out.append("\n")
        if kind == "op":
            printed = None if rng.start in kept else _print_top(chunk, text, ops[rng.start], comments, nested)
            if printed is None:
                kept.setdefault(rng.start, "an op with a comment inside it is left as written")
                printed = text[rng.start : rng.end]
            out.append(printed)
        else:
            out.append(text[rng.start : rng.end].rstrip())
        previous = kind
        pos = rng.end
    tail = text[pos:end]
    if previous is not None:
        out.append("\n")
        if end < len(text) and tail.count("\n") >= 2:
            out.append("\n")
    elif not first:
        out.append(tail.lstrip(" \t"))
    return "".join(out)


def format_text(text: str) -> Formatted:
    """`text` formatted; chunks with parse errors are kept as written (see `problems`)."""
    import gpu_lsp.ir.printers  # noqa: F401  (registers the custom printers and name hints)

    parsed = parse(text, split=True)
    out: list[str] = []
    problems: list[str] = []
    pos = 0
    for index, chunk in enumerate(parsed.chunks):
        out.append(text[pos : chunk.start])  # the `// -----` marker before the chunk
        line = text.count("\n", 0, chunk.start) + 1
        if any(d.severity >= Severity.ERROR for d in chunk.diagnostics):
            problems.append(f"line {line}: the chunk has errors; it is left as written")
            out.append(text[chunk.start : chunk.end])
        else:
            formatted, kept = format_chunk(chunk, text, chunk.start, chunk.end, index == 0)
            problems.extend(kept)
            out.append(formatted)
        pos = chunk.end
    out.append(text[pos:])
    return Formatted("".join(out), problems)
