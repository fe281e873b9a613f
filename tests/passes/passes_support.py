"""Helpers for the pass tests: IR equality up to value names, chunks, the oracle's output."""

from __future__ import annotations

import re

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.op_facts import OpFacts
from gpu_lsp.parser.api import parse

# `OpFacts` fields that only say how something was written.
_SYNTAX_ONLY = ("unnamed_async", "implicit", "aliases")  # where and how the source wrote it, not IR

# Attributes upstream always sets to a default that the syntax readers leave out
# when the text does (mlir-opt then prints them): compared as absent.
DEFAULTS = {("llvm.mlir.global", "addr_space"): "0 : i32"}


_FLOAT = re.compile(r"-?\d+\.\d*(?:[eE][+-]?\d+)?")


def _text(attr) -> str:
    """An attribute as the printer writes it, float literals of dense attributes as values.

    (`dense<[1.0]>` and `dense<[1.000000e+00]>` are the same attribute; the
    printer can only respell the first when it knows the element type.)
    """
    from gpu_lsp.ir.printer import Formatter

    try:
        text = Formatter(None).attr(attr)
    except Exception:  # an attribute kind the printer does not know: its own text
        text = str(attr)
    if text.startswith("dense<"):
        text = _FLOAT.sub(lambda m: repr(float(m.group())), text)
    return text


def _attrs(op: Operation, attrs: dict) -> tuple:
    return tuple(sorted((k, _text(v)) for k, v in attrs.items() if DEFAULTS.get((op.name, k)) != _text(v)))


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
    facts = tuple((k, str(getattr(op.facts, k))) for k in OpFacts.__slots__ if k not in _SYNTAX_ONLY)
    return (
        op.name,
        tuple(_value(v, values) for v in op.operands),
        tuple(str(r.type) for r in op.results),
        _attrs(op, op.attributes),
        _attrs(op, op.properties),
        facts,
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


def run(text: str, pipeline: str):
    """Parse one chunk and run a pipeline on it: (module, None) or (module, PassFailure)."""
    from gpu_lsp.passes.base import PassFailure
    from gpu_lsp.passes.pipeline import parse_pipeline, run_pipeline

    module, _ = module_of(text)
    try:
        run_pipeline(parse_pipeline(pipeline), module)
    except PassFailure as exc:
        return module, exc
    return module, None


def assert_same_ir(expected: Operation, actual: Operation, context: str = "") -> None:
    diff = first_difference(fingerprint(expected), fingerprint(actual))
    assert diff is None, f"{context}: IR differs at {diff}"


SINK = "builtin.module(gpu-launch-sink-index-computations)"
OUTLINE = "builtin.module(gpu-kernel-outlining)"
SINK_OUTLINE = "builtin.module(gpu-launch-sink-index-computations,gpu-kernel-outlining)"
OUTLINE_ASYNC = "builtin.module(gpu-kernel-outlining,func.func(gpu-async-region))"
ASYNC = "builtin.module(func.func(gpu-async-region))"
DL = "#dlti.dl_spec<#dlti.dl_entry<index,32:i32>>"
SINK_OUTLINE_DL = "builtin.module(gpu-launch-sink-index-computations,gpu-kernel-outlining{data-layout-str=" + DL + "})"
