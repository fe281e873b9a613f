"""Hand-written readers of the ops whose upstream parser is hand-written; importing this attaches them."""

from gpu_lsp.dialects import (
    affine,
    amdgpu,
    arith,
    async_,
    bufferization,
    builtin,
    cf,
    func,
    gpu,
    llvm,
    memref,
    nvvm,
    scf,
    spirv,
    transform,
    vector,
)

READER_MODULES = (affine, amdgpu, arith, async_, bufferization, builtin, cf, func, gpu, llvm, memref, nvvm, scf, spirv, transform, vector)
