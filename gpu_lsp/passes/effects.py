"""Which dialects upstream mlir-opt registers: ops of any other dialect are unregistered ops."""

from __future__ import annotations

from gpu_lsp.ir.core import Operation

REGISTERED_DIALECTS = frozenset({
    "builtin", "func", "arith", "gpu", "memref", "scf", "cf", "math", "index", "async", "vector",
    "llvm", "nvvm", "rocdl", "spirv", "affine", "tensor", "linalg", "transform", "complex", "ub",
    "dlti", "bufferization", "shape", "tosa", "emitc", "amdgpu", "nvgpu", "omp", "acc",
    "sparse_tensor", "quant", "x86vector", "arm_neon", "arm_sve", "arm_sme", "amx", "irdl", "pdl",
    "pdl_interp", "ptr", "mpi", "shard", "mesh", "xegpu", "xevm", "smt", "ml_program", "polynomial",
})


def is_registered(op: Operation) -> bool:
    """Whether upstream mlir-opt knows the op's dialect (else it is an unregistered op)."""
    return op.dialect in REGISTERED_DIALECTS
