"""Hand-written readers of the ops whose upstream parser is hand-written; importing this attaches them."""

from gpu_lsp.dialects import (
    affine,
    arith,
    async_,
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

READER_MODULES = (affine, arith, async_, builtin, cf, func, gpu, llvm, memref, nvvm, scf, spirv, transform, vector)
