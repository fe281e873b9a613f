"""What the kernel checks decide per access, and the witness of a proven race or out-of-bounds access."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_lsp.diagnostics.sanitizer.accesses import Access

QUERY_MS = 200  # z3's time limit per query; an undecided query is never a warning
PROVEN, FOUND, UNDECIDED = "proven", "found", "undecided"


@dataclass(frozen=True)
class Witness:
    """Two threads (block and thread ids), the element they both touch, and the symbols it needs."""

    blocks: tuple[tuple[int, ...], tuple[int, ...]]
    threads: tuple[tuple[int, ...], tuple[int, ...]]
    element: tuple[int, ...]

    def thread(self, t: int) -> str:
        return f"thread ({', '.join(map(str, self.threads[t]))}) of block ({', '.join(map(str, self.blocks[t]))})"


@dataclass(frozen=True)
class Race:
    """Two accesses of one buffer, unordered, touching the same element, at least one writing."""

    first: Access
    second: Access
    witness: Witness


@dataclass(frozen=True)
class OutOfBounds:
    """An access whose index leaves the buffer's shape for some thread."""

    access: Access
    witness: Witness
