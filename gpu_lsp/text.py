"""Text positions: code-point ranges, line tables and edits."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple


class TextRange(NamedTuple):
    """A half-open range of code-point offsets into a buffer.

    A named tuple: made for every op, span and diagnostic read (a frozen dataclass set each field
    through `object.__setattr__`, three times the cost), and pickled small between processes."""

    start: int
    end: int

    def contains(self, offset: int) -> bool:
        """True when `offset` lies inside the range (the end counts, for cursors)."""
        return self.start <= offset <= self.end

    def shifted(self, delta: int) -> TextRange:
        """The same range moved by `delta` code points."""
        return TextRange(self.start + delta, self.end + delta)


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text in `range` by `new_text`."""

    range: TextRange
    new_text: str


class LineIndex:
    """Maps offsets to 0-based (line, column) pairs and back."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        # Each line starts one past the end of the previous one (its length plus the newline).
        lines = text.split("\n")
        lines.pop()
        self.starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))

    def position(self, offset: int) -> tuple[int, int]:
        """0-based (line, column) of a code-point offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]

    def offset(self, line: int, column: int) -> int:
        """Code-point offset of a 0-based (line, column), clamped to the buffer."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start = self.starts[line]
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return min(start + max(column, 0), end)

    def line_text(self, line: int) -> str:
        """The text of a 0-based line without its newline."""
        start = self.starts[line]
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return self.text[start:end]


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits to `text` (in any order)."""
    out = []
    pos = 0
    for edit in sorted(edits, key=lambda e: (e.range.start, e.range.end)):
        if edit.range.start < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos : edit.range.start])
        out.append(edit.new_text)
        pos = edit.range.end
    out.append(text[pos:])
    return "".join(out)


def replacement(old: str, new: str) -> Edit | None:
    """One edit turning `old` into `new`: what lies between their common prefix and suffix (None: equal)."""
    if old == new:
        return None
    size = min(len(old), len(new))
    head = 0
    while head < size and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < size - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return Edit(TextRange(head, len(old) - tail), new[head : len(new) - tail])
