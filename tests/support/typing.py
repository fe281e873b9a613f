"""Edits a person makes while typing MLIR: they break the file and repair it again."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator

from gpu_lsp.parser.incremental import boundaries
from support import SHARED

GEN = SHARED / "tools" / "gen_gpu_mlir.py"

PASTED = """func.func @pasted(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf32>
  return
}
"""


def generated(mode: str, lines: int) -> str:
    """A valid file from ../shared/tools/gen_gpu_mlir.py."""
    out = subprocess.run(
        [sys.executable, str(GEN), "--mode", mode, "--lines", str(lines)], check=True, capture_output=True, text=True
    )
    return out.stdout


def typing_edits(text: str, rng: random.Random, count: int) -> Iterator[tuple[int, int, str]]:
    """Stray characters, braces and whole lines deleted, functions pasted, and each of those
    undone again later, as (start, end, new text) against the text so far."""
    undo: list[tuple[int, str, str]] = []
    for _ in range(count):
        kind = rng.choice(("stray", "brace", "line", "paste", "undo", "undo"))
        if kind == "undo" and undo:
            pos, old, new = undo.pop()
            if text[pos : pos + len(new)] == new:
                yield pos, pos + len(new), old
                text = text[:pos] + old + text[pos + len(new) :]
            continue
        if kind == "stray":
            pos = rng.randrange(len(text))
            old, new = "", rng.choice(["@", "%", "}", "{", "x", "(", ":", '"'])
        elif kind == "brace":
            braces = [i for i, ch in enumerate(text) if ch in "{}"]
            if not braces:
                continue
            pos = rng.choice(braces)
            old, new = text[pos], ""
        elif kind == "line":
            pos = text.rfind("\n", 0, rng.randrange(len(text))) + 1
            old, new = text[pos : text.find("\n", pos) + 1], ""
        else:
            pos = rng.choice(boundaries(text, 0, len(text)))
            old, new = "", PASTED
        undo.append((pos, old, new))
        yield pos, pos + len(old), new
        text = text[:pos] + new + text[pos + len(old) :]
