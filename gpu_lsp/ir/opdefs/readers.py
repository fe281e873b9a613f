"""Hand-written readers of the ops whose upstream parser is hand-written; importing this attaches them."""

from gpu_lsp.ir.opdefs import (
    affine_read,
    arith_read,
    async_read,
    bufferization_read,
    builtin_read,
    cf_read,
    func_read,
    gpu_read,
    llvm_read,
    memref_read,
    nvvm_read,
    scf_read,
    spirv_read,
    transform_read,
    vector_read,
)

READER_MODULES = (
    affine_read, arith_read, async_read, bufferization_read, builtin_read, cf_read, func_read, gpu_read,
    llvm_read, memref_read, nvvm_read, scf_read, spirv_read, transform_read, vector_read,
)
