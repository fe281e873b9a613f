"""textDocument/formatting and rangeFormatting: the formatter's edits (gpu_lsp/formatter, docs/formatter.md)."""

from __future__ import annotations

import difflib

from gpu_lsp.formatter.core import format_text
from gpu_lsp.text import Edit, TextRange, replacement


def formatting_edits(text: str, start_line: int | None = None, end_line: int | None = None) -> tuple[list[Edit], list[str]]:
    """The edits that format a document's text, or only its changed lines that meet [start_line,
    end_line] (0-based, inclusive), and what the formatter left as written."""
    result = format_text(text)
    if start_line is None or end_line is None:
        whole = replacement(text, result.text)
        return ([whole] if whole is not None else []), result.problems
    old = text.split("\n")
    new = result.text.split("\n")
    starts = [0]
    for line in old:
        starts.append(starts[-1] + len(line) + 1)
    size = len(text)
    edits = []
    hunks: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:  # line for line: each line is its own hunk
            hunks.extend((tag, i1 + k, i1 + k + 1, j1 + k, j1 + k + 1) for k in range(i2 - i1))
        else:
            hunks.append((tag, i1, i2, j1, j2))
    for kind, i1, i2, j1, j2 in hunks:
        if kind == "equal" or i1 > end_line or max(i2 - 1, i1) < start_line:
            continue
        lines = new[j1:j2]
        if i1 == i2:  # inserted before old line i1 (or after the last one)
            at = starts[i1] if i1 < len(old) else size
            edits.append(Edit(TextRange(at, at), "".join(x + "\n" for x in lines) if i1 < len(old) else "\n" + "\n".join(lines)))
        elif not lines:  # old lines i1..i2-1 deleted, with their newlines
            edits.append(Edit(TextRange(starts[i1], starts[i2]), "") if i2 < len(old) else Edit(TextRange(max(starts[i1] - 1, 0), size), ""))
        else:
            edits.append(Edit(TextRange(starts[i1], min(starts[i2] - 1, size)), "\n".join(lines)))
    return edits, result.problems
