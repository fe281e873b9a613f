"""Whitespace-only reformattings of MLIR text (seeded), and a layout-independent IR dump."""

from __future__ import annotations

import random
import re

from gpu_lsp.ir.core import Operation, Region

# Strings, comments and file metadata are copied as they are; the rest is cut at the
# places where a line break is legal MLIR whitespace.
_OPAQUE = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|\{-#.*?#-\}', re.S)
_BREAK_AFTER = re.compile(r"(?<![=:])([,=(\[{])(?![=:])|(?<=[^\s])[ \t]+(?=[^\s/])")
_BREAK_BEFORE = re.compile(r"(?<![:\s])(?=:(?!:))(?<!:)|(?=->)")


def _cut_points(segment: str) -> list[tuple[int, bool]]:
    """Offsets in a segment where whitespace may be replaced or inserted (True: replace the run)."""
    points: list[tuple[int, bool]] = []
    for m in _BREAK_AFTER.finditer(segment):
        if m.group(1):
            points.append((m.end(), False))
        else:
            points.append((m.start(), True))
    for m in _BREAK_BEFORE.finditer(segment):
        points.append((m.start(), False))
    return points


def reflow(text: str, rng: random.Random, rate: float = 0.5) -> str:
    """`text` with line breaks (and indentation) put at a random share of its legal break points."""
    out: list[str] = []
    pos = 0
    segments: list[tuple[str, bool]] = []
    for m in _OPAQUE.finditer(text):
        segments.append((text[pos : m.start()], True))
        segments.append((m.group(), False))
        pos = m.end()
    segments.append((text[pos:], True))
    for segment, free in segments:
        if not free:
            out.append(segment)
            continue
        points = sorted(p for p in _cut_points(segment) if rng.random() < rate)
        last = 0
        for at, replace in points:
            if at < last:
                continue
            out.append(segment[last:at])
            out.append("\n" + " " * rng.randrange(0, 9))
            last = at
            if replace:
                while last < len(segment) and segment[last] in " \t":
                    last += 1
        out.append(segment[last:])
    return "".join(out)


def shape_op(op: Operation) -> tuple:
    """An op without its source ranges: what must not change when only whitespace does."""
    return (
        op.name,
        op.known,
        tuple((v.name, str(v.type)) for v in op.operands),
        tuple((r.name, str(r.type)) for r in op.results),
        tuple(sorted((k, str(v)) for k, v in op.attributes.items())),
        tuple(sorted((k, str(v)) for k, v in op.properties.items())),
        tuple(shape_region(r) for r in op.regions),
        tuple(b.label for b in op.successors),
    )


def shape_region(region: Region) -> tuple:
    return tuple(
        (block.label, tuple((a.name, str(a.type)) for a in block.arguments), tuple(shape_op(o) for o in block.operations))
        for block in region.blocks
    )
