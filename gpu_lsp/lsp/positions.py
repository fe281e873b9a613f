"""Line tables that follow edits, and code-point offsets <-> LSP (line, character) positions."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"

_NEWLINE = re.compile("\n")
LONG_LINES = 1_000  # characters per line on average from which `LineTable.of` finds line breaks by str.find


def _units(text: str, encoding: str) -> int:
    """Length of `text` in code units of `encoding`."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF16:
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


class LineTable:
    """Start offsets of the lines of one text; immutable, `edited` returns a new table."""

    __slots__ = ("starts", "length")

    def __init__(self, starts: list[int], length: int) -> None:
        self.starts = starts
        self.length = length

    @classmethod
    def of(cls, text: str) -> LineTable:
        starts = [0]
        if text.count("\n") * LONG_LINES > len(text):
            starts.extend(m.end() for m in _NEWLINE.finditer(text))
        else:  # few line breaks (a huge line): each found by str.find, not by a regex scan of the text
            at = text.find("\n")
            while at >= 0:
                at += 1
                starts.append(at)
                at = text.find("\n", at)
        return cls(starts, len(text))

    def edited(self, start: int, end: int, new_text: str) -> LineTable:
        """The table after replacing `[start, end)` of the old text by `new_text`."""
        starts = self.starts
        delta = len(new_text) - (end - start)
        lo = bisect_right(starts, start)
        hi = bisect_right(starts, end)
        added = [start + m.end() for m in _NEWLINE.finditer(new_text)]
        if delta:
            tail = [s + delta for s in starts[hi:]]
        else:
            tail = starts[hi:]
        return LineTable(starts[:lo] + added + tail, self.length + delta)

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        """0-based line of a code-point offset."""
        return bisect_right(self.starts, offset) - 1

    def line_start(self, line: int) -> int:
        return self.starts[max(0, min(line, len(self.starts) - 1))]

    def line_end(self, line: int) -> int:
        """Offset of the end of `line`, before its newline."""
        if line + 1 < len(self.starts):
            return self.starts[line + 1] - 1
        return self.length

    def position(self, text: str, offset: int, encoding: str = UTF16) -> tuple[int, int]:
        """LSP (line, character) of a code-point offset into `text`."""
        offset = max(0, min(offset, self.length))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        if encoding == UTF32 or text.isascii():  # one unit per character (`isascii` reads a flag of the string)
            return line, offset - start
        return line, _units(text[start:offset], encoding)

    def locator(self, text: str, encoding: str = UTF16) -> Callable[[int], tuple[int, int]]:
        """`position` in `text` as a function of the offset alone, for many offsets of one text
        (where every character is one unit: a line start's distance, without a slice)."""
        if encoding != UTF32 and not text.isascii():
            return lambda offset: self.position(text, offset, encoding)
        starts = self.starts
        length = self.length

        def position(offset: int) -> tuple[int, int]:
            offset = max(0, min(offset, length))
            line = bisect_right(starts, offset) - 1
            return line, offset - starts[line]

        return position

    def offset(self, text: str, line: int, character: int, encoding: str = UTF16) -> int:
        """Code-point offset of an LSP position, clamped to its line (and to the text)."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return self.length
        start = self.starts[line]
        end = self.line_end(line)
        character = max(0, character)
        if encoding == UTF32:
            return min(start + character, end)
        segment = text[start:end]
        if segment.isascii():
            return min(start + character, end)
        units = 0
        for i, ch in enumerate(segment):
            if units >= character:
                return start + i
            code = ord(ch)
            if encoding == UTF16:
                units += 2 if code > 0xFFFF else 1
            else:
                units += 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
        return end
