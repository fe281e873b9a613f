"""Every dialect's op definitions, in one tuple the table reads."""

from __future__ import annotations

from gpu_lsp.ir.opdefs import (
    affine_ops,
    arith_ops,
    async_ops,
    builtin_ops,
    cf_ops,
    func_ops,
    gpu_ops,
    index_ops,
    llvm_ops,
    math_ops,
    memref_ops,
    nvvm_ops,
    rocdl_ops,
    scf_ops,
    spirv_ops,
    tensor_ops,
    transform_ops,
    vector_ops,
)

ALL = (
    affine_ops.OPS,
    arith_ops.OPS,
    async_ops.OPS,
    builtin_ops.OPS,
    cf_ops.OPS,
    func_ops.OPS,
    gpu_ops.OPS,
    index_ops.OPS,
    llvm_ops.OPS,
    math_ops.OPS,
    memref_ops.OPS,
    nvvm_ops.OPS,
    rocdl_ops.OPS,
    scf_ops.OPS,
    spirv_ops.OPS,
    tensor_ops.OPS,
    transform_ops.OPS,
    vector_ops.OPS,
)
