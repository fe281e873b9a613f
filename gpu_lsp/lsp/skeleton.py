"""What the text alone tells about a part of a document not parsed yet: its braces, the symbols
its ops define and its launches, so that the open of a large document answers the outline and
the folding ranges of the whole text before the parse reaches its end."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpu_lsp.ir.opdefs import lookup
from gpu_lsp.syntax.lexer import unquote_symbol
from gpu_lsp.syntax.names import STRING_BODY, SYMBOL_NAME, SYMBOL_REF

# What hides a brace or a symbol: a comment, a string literal (its closing quote, when it has
# one, in group 1: a string may end in an escaped quote and still be open).
_HIDING = re.compile(rf'//|"{STRING_BODY}(")?')
# An op that may define a symbol, at the start of a line: (results =) name (visibility) @symbol.
_DEFINITION = re.compile(rf'[ \t]*(?:%[^\n=]*=[ \t]*)?([a-z_][\w.]*)[ \t]+(?:(?:private|public|nested)[ \t]+)?@({SYMBOL_NAME})')
# A module without a symbol, at the start of a line.
_MODULE = re.compile(r"[ \t]*((?:builtin\.)?module)\b(?![ \t]*@)")
_LAUNCH = re.compile(r"[ \t]*(?:%[^\n=]*=[ \t]*)?(gpu\.launch(?:_func)?)\b([^\n]*)")
_SYMBOL_REF = re.compile(SYMBOL_REF)


@dataclass
class Skeleton:
    """An op found in the text: its name, its symbol (None for a launch, "" for a module without
    one), where it starts, its name and symbol, where it ends, the rest of its first line, and
    what it holds."""

    op: str
    symbol: str | None
    start: int
    op_name: tuple[int, int]
    symbol_span: tuple[int, int]
    end: int
    header: str
    children: list[Skeleton] = field(default_factory=list)


def _hidden(text: str, at: int) -> bool:
    """Whether `text[at]` is in a comment or a string literal."""
    line_start = text.rfind("\n", 0, at) + 1
    if text.find('"', line_start, at) < 0 and text.find("//", line_start, at) < 0:
        return False
    # A comment, or a string that `at` is in (not closed before it).
    return any(m.group() == "//" or m.group(1) is None for m in _HIDING.finditer(text, line_start, at))


def _found(text: str, what: str, start: int, end: int) -> list[int]:
    """Where `what` occurs in `text[start:end]` outside comments and strings."""
    out = []
    at = text.find(what, start, end)
    while at >= 0:
        if not _hidden(text, at):
            out.append(at)
        at = text.find(what, at + 1, end)
    return out


# The last `brace_pairs` found (text, start, end, pairs): the open's two text views (the outline's
# and the folding ranges') ask for those of the same slice one after the other.
_last_pairs: list[tuple[str, int, int, dict[int, int]]] = []


def brace_pairs(text: str, start: int, end: int) -> dict[int, int]:
    """The offset of each `{` in `text[start:end]` (outside comments and strings) and of its `}`
    (not to be changed: the next call about the same slice returns it again)."""
    if _last_pairs and _last_pairs[0][0] is text and _last_pairs[0][1:3] == (start, end):
        return _last_pairs[0][3]
    pairs = _brace_pairs(text, start, end)
    _last_pairs[:] = [(text, start, end, pairs)]
    return pairs


def _brace_pairs(text: str, start: int, end: int) -> dict[int, int]:
    events = sorted([(at, True) for at in _found(text, "{", start, end)] + [(at, False) for at in _found(text, "}", start, end)])
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for at, opens in events:
        if opens:
            stack.append(at)
        elif stack:
            pairs[stack.pop()] = at
    return pairs


def _line_starts(text: str, ats: list[int]) -> list[int]:
    """The start of the line of each offset, each line once, in order."""
    return sorted({text.rfind("\n", 0, at) + 1 for at in ats})


def _end_of(text: str, at: int, line_end: int, pairs: dict[int, int]) -> int:
    """Where the op starting at `at` ends: after the `}` of a region opened at the end of its
    line, else at the end of its line (trailing blanks left out)."""
    brace = text.rfind("{", at, line_end)
    if brace >= 0 and not text[brace + 1 : line_end].strip() and brace in pairs:
        return pairs[brace] + 1
    return len(text[at:line_end].rstrip()) + at


def _defines_symbol(op: str) -> bool:
    if op in ("module", "builtin.module"):
        return True
    spec = lookup(op)
    return spec is not None and (spec.has("symbol") or spec.has("function") or spec.has("symbol_table"))


def skeleton(text: str, start: int, end: int) -> list[Skeleton]:
    """The ops of `text[start:end]` that define a symbol, the modules and the launches, nested
    as in the text."""
    pairs = brace_pairs(text, start, end)
    found: list[Skeleton] = []
    for line in _line_starts(text, _found(text, "@", start, end)):
        m = _DEFINITION.match(text, max(line, start), end)
        if m is not None and _defines_symbol(m.group(1)):
            name = unquote_symbol(m.group(2))
            line_end = text.find("\n", m.end(), end)
            header = text[m.end(2) : end if line_end < 0 else line_end]
            found.append(_item(text, end, pairs, m, name, (m.start(2) - 1, m.end(2)), header))
    for line in _line_starts(text, _found(text, "module", start, end)):
        m = _MODULE.match(text, max(line, start), end)
        if m is not None:
            found.append(_item(text, end, pairs, m, "", m.span(1), ""))
    for line in _line_starts(text, _found(text, "gpu.launch", start, end)):
        m = _LAUNCH.match(text, max(line, start), end)
        if m is not None:
            found.append(_item(text, end, pairs, m, None, m.span(1), m.group(2)))
    found.sort(key=_outer_first)
    top: list[Skeleton] = []
    open_: list[Skeleton] = []
    for item in found:
        while open_ and open_[-1].end <= item.start:
            open_.pop()
        (open_[-1].children if open_ else top).append(item)
        open_.append(item)
    return top


def _item(text: str, end: int, pairs: dict[int, int], m: re.Match, symbol: str | None, symbol_span: tuple[int, int], header: str) -> Skeleton:
    """The op whose first line `m` matched (its name in group 1), found in `text[:end]`."""
    at = m.start() + len(m.group()) - len(m.group().lstrip())
    line_end = text.find("\n", m.end(), end)
    line_end = end if line_end < 0 else line_end
    return Skeleton(m.group(1), symbol, at, m.span(1), symbol_span, _end_of(text, at, line_end, pairs), header)


def _outer_first(item: Skeleton) -> tuple[int, int]:
    """The order of ops found in a text: by start, an op before those it holds."""
    return item.start, -item.end


def launch_label(item: Skeleton) -> str:
    """How the outline names a launch: `gpu.launch`, or `gpu.launch_func @module::@kernel`."""
    if item.op == "gpu.launch_func":
        ref = _SYMBOL_REF.search(item.header)
        return f"gpu.launch_func {ref.group()}" if ref is not None else "gpu.launch_func"
    return "gpu.launch"


def argument_types(header: str) -> list[str]:
    """The types of a function header's arguments: `(%a: T, %b: U) ...` -> [T, U] (a type
    holds no `%`, so each argument starts at one)."""
    if not header.startswith("(%"):
        return []
    parts = header[2:].split(", %")
    depth = 0
    last = parts[-1]
    for i, c in enumerate(last):  # the last one ends at the `)` that closes the list
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            if depth == 0:
                parts[-1] = last[:i]
                break
            depth -= 1
    return [part.partition(":")[2].split(" {", 1)[0].split(" loc(", 1)[0].strip() for part in parts]


class TextView:
    """What `build(text, start, end)` finds in a text from an offset on, built a slice at a time
    (`extend`) while the document is opened: `found` covers `[start, end)`."""

    def __init__(self, start: int, build: Callable[[str, int, int], list[Any]]) -> None:
        self.start = start
        self.end = start
        self.build = build
        self.found: list[Any] = []

    def extend(self, text: str, to: int) -> None:
        """Cover the text up to `to` (where a top-level op starts, or its end)."""
        if to > self.end:
            self.found.extend(self.build(text, self.end, to))
            self.end = to

    def complete(self, text: str) -> list[Any]:
        """What is found from `start` to the end of `text`."""
        self.extend(text, len(text))
        return self.found


def brace_list(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """`brace_pairs` as a list, in the order of the `{`."""
    return sorted(brace_pairs(text, start, end).items())
