"""The bracket structure of type, attribute and ODS text: strings, matching brackets, top-level commas.

`<`, `(`, `[` and `{` nest; the `>` of an arrow `->` closes nothing; a `"` string (with `\\`
escapes) is skipped whole. The attribute checks (`syntax/gpu_syntax.py`), the canonical attribute forms,
the op model's ODS text, the llvm/spirv readers and outlining's data layout read through these.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

OPEN: Final = "<([{"
CLOSE: Final = {">": "<", ")": "(", "]": "[", "}": "{"}


def string_end(s: str, i: int) -> int:
    """`s[i]` is a `"`: the index after the closing quote (len(s) when unterminated)."""
    j = i + 1
    n = len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
        elif c == '"':
            return j + 1
        else:
            j += 1
    return n


def unquoted(s: str, lo: int, hi: int) -> Iterator[int]:
    """The indices of `s[lo:hi]` outside `"` strings, in order."""
    j = lo
    while j < hi:
        if s[j] == '"':
            j = string_end(s, j)
        else:
            yield j
            j += 1


def _walk(s: str, lo: int, hi: int, opener: str = "") -> tuple[list[int], int]:
    """Walks `s[lo:hi]`, inside `opener` when one is given: the commas met outside every bracket, and
    the index after the close of `opener` (after the text when none is given); -1 when a close
    mismatches or a bracket stays open. A close with nothing open is passed over."""
    stack = [opener] if opener else []
    commas: list[int] = []
    for j in unquoted(s, lo, hi):
        c = s[j]
        if c in OPEN:
            stack.append(c)
        elif c in CLOSE and not (c == ">" and j > 0 and s[j - 1] == "-") and stack:
            if stack.pop() != CLOSE[c]:
                return commas, -1
            if opener and not stack:
                return commas, j + 1
        elif c == "," and not stack:
            commas.append(j)
    return commas, -1 if stack else hi


def match_close(s: str, i: int, hi: int | None = None) -> int:
    """`s[i]` opens a bracket: the index after its matching close before `hi`; -1 if none or mismatched."""
    return _walk(s, i + 1, len(s) if hi is None else hi, s[i])[1]


def comma_ranges(s: str, lo: int, hi: int) -> list[tuple[int, int]] | None:
    """The `[start, end)` of each top-level comma-separated piece of `s[lo:hi]`, untrimmed; None when
    its brackets do not balance."""
    commas, end = _walk(s, lo, hi)
    if end < 0:
        return None
    starts = [lo, *(c + 1 for c in commas)]
    return list(zip(starts, [*commas, hi]))


def split_commas(text: str, drop_empty: bool = False) -> list[str]:
    """`text` split at its top-level commas, each piece stripped ([] for blank text, empty pieces
    dropped with `drop_empty`); text whose brackets do not balance is one piece."""
    if not text.strip():
        return []
    ranges = comma_ranges(text, 0, len(text)) or [(0, len(text))]
    pieces = [text[a:b].strip() for a, b in ranges]
    return [piece for piece in pieces if piece] if drop_empty else pieces
