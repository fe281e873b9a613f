"""Custom forms of the vector dialect (VectorOps.td formats, transfer ops' printers)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import ArrayAttr, BoolAttr, DenseArrayAttr, OpaqueAttr
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import GENERIC_EXTRA, GENERIC_FROM_SOURCE, OpPrinter, result_names


def _rank(ty: T.Type) -> int:
    return len(getattr(ty, "shape", ()))


def _transfer_attrs(p: OpPrinter, op: Operation) -> None:
    elided = []
    in_bounds = op.get_attr("in_bounds")
    if isinstance(in_bounds, ArrayAttr) and not any(isinstance(b, BoolAttr) and b.value for b in in_bounds.elements):
        elided.append("in_bounds")
    p.attr_dict(op, elided)


def _transfer_operands(p: OpPrinter, op: Operation, base_at: int) -> Value:
    """The operands of a transfer op from its base on (`%base[%i, %j], %pad, %mask`); returns the base."""
    base = op.operands[base_at]
    n = _rank(base.type)
    idx, rest = op.operands[base_at + 1 : base_at + 1 + n], op.operands[base_at + 1 + n :]
    p.write(f"{p.value(base)}[{p.values(idx)}]")
    if rest:
        p.write(", " + p.values(rest))
    _transfer_attrs(p, op)
    return base


@printer("vector.transfer_read")
def _transfer_read(p: OpPrinter, op: Operation) -> None:
    p.write(" ")
    base = _transfer_operands(p, op, 0)
    p.write(f" : {p.type(base.type)}, {p.value_types(op.results)}")


@printer("vector.transfer_write")
def _transfer_write(p: OpPrinter, op: Operation) -> None:
    value = op.operands[0]
    p.write(f" {p.value(value)}, ")
    base = _transfer_operands(p, op, 1)
    p.write(f" : {p.type(value.type)}, {p.type(base.type)}")


@result_names("vector.vscale")
def _vscale_names(op: Operation):
    return [(0, "vscale")]


@result_names("vector.deinterleave")
def _deinterleave_names(op: Operation):
    return [(0, "res1"), (1, "res2")]


GENERIC_FROM_SOURCE.update(("vector.contract", "vector.mask", "vector.outerproduct", "vector.print"))


def _minor_identity(source: T.Type, vector: T.Type) -> OpaqueAttr:
    n, k = _rank(source), _rank(vector)
    dims = ", ".join(f"d{i}" for i in range(n))
    results = ", ".join(f"d{i}" for i in range(n - k, n))
    return OpaqueAttr(f"affine_map<({dims}) -> ({results})>", "affine_map")


def _read_segments(op: Operation, props: dict, attrs: dict) -> None:
    n = _rank(op.operands[0].type)
    rest = len(op.operands) - 1 - n
    props.setdefault("operandSegmentSizes", DenseArrayAttr(T.I32, (1, n, min(rest, 1), max(rest - 1, 0))))
    if "permutation_map" not in props and "permutation_map" not in attrs and op.results:
        props["permutation_map"] = _minor_identity(op.operands[0].type, op.results[0].type)


def _write_segments(op: Operation, props: dict, attrs: dict) -> None:
    n = _rank(op.operands[1].type)
    rest = len(op.operands) - 2 - n
    props.setdefault("operandSegmentSizes", DenseArrayAttr(T.I32, (1, 1, n, rest)))
    if "permutation_map" not in props and "permutation_map" not in attrs:
        props["permutation_map"] = _minor_identity(op.operands[1].type, op.operands[0].type)


GENERIC_EXTRA["vector.transfer_read"] = _read_segments
GENERIC_EXTRA["vector.transfer_write"] = _write_segments


@printer("vector.mask")
def _mask(p: OpPrinter, op: Operation) -> None:
    """MaskOp::print: the masked op inline (the terminator it implies is left out)."""
    p.write(" " + p.values(op.operands) + " { ")
    blocks = op.regions[0].blocks if op.regions else []
    if blocks and blocks[0].operations:
        p.op(blocks[0].operations[0])
    p.write(" }")
    p.attr_dict(op)
    p.write(" : " + p.type(op.operands[0].type))
    if op.results:
        p.write(" -> " + p.value_types(op.results))
