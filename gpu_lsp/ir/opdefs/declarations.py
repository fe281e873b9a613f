"""Every dialect's op definitions, in one tuple the table reads: Python modules' and data files'."""

from __future__ import annotations

from gpu_lsp.ir.opdefs import (
    amdgpu_ops,
    arith_ops,
    async_ops,
    builtin_ops,
    cf_ops,
    complex_ops,
    func_ops,
    index_ops,
    nvgpu_ops,
    nvvm_ops,
    rocdl_ops,
    tensor_ops,
    tosa_ops,
    transform_ops,
    ub_ops,
)
from gpu_lsp.ir.opdefs.built_in_data import DIALECTS, built_in_ops

ALL = (
    amdgpu_ops.OPS,
    arith_ops.OPS,
    async_ops.OPS,
    builtin_ops.OPS,
    cf_ops.OPS,
    complex_ops.OPS,
    func_ops.OPS,
    index_ops.OPS,
    nvgpu_ops.OPS,
    nvvm_ops.OPS,
    rocdl_ops.OPS,
    tensor_ops.OPS,
    tosa_ops.OPS,
    transform_ops.OPS,
    ub_ops.OPS,
    *(built_in_ops(dialect) for dialect in DIALECTS),
)
