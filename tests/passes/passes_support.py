"""Helpers for the pass tests: IR equality up to value names, chunks, the oracle's output."""

from __future__ import annotations

from gpu_lsp.ir.core import Block, Operation
from gpu_lsp.parser.api import parse

# `extra` entries that only say how something was written.
_SYNTAX_ONLY = ("unnamed_async", "loc", "implicit")


def _number(op: Operation, values: dict, blocks: dict) -> None:
    for region in op.regions:
        for block in region.blocks:
            blocks[id(block)] = len(blocks)
            for arg in block.arguments:
                values[id(arg)] = len(values)
            for nested in block.operations:
                for result in nested.results:
                    values[id(result)] = len(values)
                _number(nested, values, blocks)


def _value(v, values: dict):
    n = values.get(id(v))
    return n if n is not None else ("outside", v.name, str(v.type))


def _op(op: Operation, values: dict, blocks: dict) -> tuple:
    extra = tuple(sorted((k, str(v)) for k, v in op.extra.items() if k not in _SYNTAX_ONLY))
    return (
        op.name,
        tuple(_value(v, values) for v in op.operands),
        tuple(str(r.type) for r in op.results),
        tuple(sorted((k, str(v)) for k, v in op.attributes.items())),
        tuple(sorted((k, str(v)) for k, v in op.properties.items())),
        extra,
        tuple(
            tuple(
                (tuple(str(a.type) for a in block.arguments), tuple(_op(o, values, blocks) for o in block.operations))
                for block in region.blocks
            )
            for region in op.regions
        ),
        tuple(blocks.get(id(b), ("outside", b.label)) for b in op.successors),
    )


def fingerprint(op: Operation) -> tuple:
    """A canonical form of `op` and everything nested: equal iff the IR is equal up to names."""
    values: dict = {}
    blocks: dict = {}
    for result in op.results:
        values[id(result)] = len(values)
    _number(op, values, blocks)
    return _op(op, values, blocks)


def first_difference(a: tuple, b: tuple, path: str = "") -> str | None:
    """Where two fingerprints differ first (for assertion messages)."""
    if type(a) is not type(b) or not isinstance(a, tuple):
        return None if a == b else f"{path}: {a!r} != {b!r}"
    if len(a) != len(b):
        return f"{path}: length {len(a)} != {len(b)}: {a!r:.300} vs {b!r:.300}"
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            label = x[0] if isinstance(x, tuple) and x and isinstance(x[0], str) else i
            return first_difference(x, y, f"{path}/{label}")
    return None


def module_of(text: str):
    """Parse one chunk; return its module and diagnostics."""
    chunk = parse(text).chunks[0]
    return chunk.module, chunk.diagnostics
