"""Custom forms of the memref dialect (MemRefOps.td formats and result names)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import GENERIC_EXTRA, SOURCE_FORM, OpPrinter, result_names

_NAMES = {
    "memref.alloc": ("alloc",),
    "memref.alloca": ("alloca",),
    "memref.cast": ("cast",),
    "memref.dim": ("dim",),
    "memref.memory_space_cast": ("memspacecast",),
    "memref.subview": ("subview",),
    "memref.view": ("view",),
    "memref.expand_shape": ("expand_shape",),
    "memref.collapse_shape": ("collapse_shape",),
    "memref.reinterpret_cast": ("reinterpret_cast",),
    "memref.reshape": ("reshape",),
    "memref.extract_aligned_pointer_as_index": ("intptr",),
    "memref.assume_alignment": ("assume_align",),
    "memref.transpose": ("transpose",),
}


@result_names(*_NAMES)
def _names(op: Operation):
    return [(0, _NAMES[op.name][0])]


@result_names("memref.extract_strided_metadata")
def _metadata_names(op: Operation):
    n = len(op.results)
    rank = (n - 2) // 2
    names = [(0, "base_buffer"), (1, "offset")]
    if rank:
        names += [(2, "sizes"), (2 + rank, "strides")]
    return names


def _indexed(p: OpPrinter, memref, indices) -> str:
    return f"{p.value(memref)}[{p.values(indices)}]"


@printer("memref.alloca_scope")
def _alloca_scope(p: OpPrinter, op: Operation) -> None:
    p.write(" ")
    if op.results:
        p.write(" -> (" + p.value_types(op.results) + ")")
    p.write(" ")
    p.region(op.regions[0], terminators=bool(op.results))
    p.attr_dict(op)


@printer("memref.generic_atomic_rmw")
def _generic_atomic_rmw(p: OpPrinter, op: Operation) -> None:
    memref, *indices = op.operands
    p.write(f" {_indexed(p, memref, indices)} : {p.type(memref.type)} ")
    p.region(op.regions[0])
    p.attr_dict(op)


SOURCE_FORM.add("memref.prefetch")


def _alloc_generic(op: Operation, props: dict, attrs: dict) -> None:
    ty = op.results[0].type if op.results else None
    dynamic = getattr(ty, "num_dynamic_dims", len(op.operands))
    dynamic = min(dynamic, len(op.operands))
    props.setdefault("operandSegmentSizes", DenseArrayAttr(T.I32, (dynamic, len(op.operands) - dynamic)))


GENERIC_EXTRA["memref.alloc"] = _alloc_generic
GENERIC_EXTRA["memref.alloca"] = _alloc_generic
