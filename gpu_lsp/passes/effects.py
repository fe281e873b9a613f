"""The op properties the passes ask MLIR about: terminators, memory effects, constants."""

from __future__ import annotations

from gpu_lsp.ir import opdefs
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import IntegerAttr
from gpu_lsp.ir.core import Operation, Value

# Ops with the RecursiveMemoryEffects trait: effect free when every nested op is.
RECURSIVE_EFFECTS = frozenset({
    "scf.for", "scf.if", "scf.while", "scf.parallel", "scf.forall", "scf.execute_region",
    "scf.index_switch", "scf.reduce", "async.execute", "gpu.launch", "affine.for", "affine.if",
    "affine.parallel", "memref.alloca_scope", "gpu.warp_execute_on_lane_0", "vector.mask",
})

# Ops with the ConstantLike trait (what `m_Constant()` matches).
CONSTANT_LIKE = frozenset({
    "arith.constant", "index.constant", "index.bool.constant", "func.constant",
    "llvm.mlir.constant", "llvm.mlir.zero", "llvm.mlir.undef", "llvm.mlir.poison",
    "complex.constant", "ub.poison", "spirv.Constant", "tosa.const",
})

# Ops whose blocks end in an implicit terminator the custom form may leave out.
IMPLICIT_TERMINATOR = frozenset({
    "scf.for", "scf.if", "scf.parallel", "scf.forall", "scf.execute_region", "async.execute",
    "affine.for", "affine.if", "affine.parallel", "memref.alloca_scope",
})

# Dialects upstream MLIR registers (mlir-opt); ops of any other dialect are unregistered.
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


def is_terminator(op: Operation) -> bool:
    """`op->mightHaveTrait<IsTerminator>()`: true for ops whose traits are unknown."""
    spec = opdefs.lookup(op.name)
    return spec.has("terminator") if spec is not None else True


def is_memory_effect_free(op: Operation) -> bool:
    """`isMemoryEffectFree`: pure ops, and recursive-effect ops whose nested ops all are."""
    if op.name in RECURSIVE_EFFECTS:
        return all(
            is_memory_effect_free(nested)
            for region in op.regions
            for block in region.blocks
            for nested in block.operations
        )
    spec = opdefs.lookup(op.name)
    return spec is not None and spec.has("pure")


def has_side_effects(op: Operation) -> bool:
    return not is_memory_effect_free(op)


def is_constant_like(op: Operation) -> bool:
    return op.name in CONSTANT_LIKE


def constant_int(value: Value) -> int | None:
    """`m_ConstantInt`: the integer a constant-like op defines `value` to be, else None."""
    op = value.defining_op
    if op is None or not is_constant_like(op):
        return None
    attr = op.properties.get("value") or op.attributes.get("value")
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, (T.IntegerType, T.IndexType)):
        return attr.value
    return None


def is_async_op(op: Operation) -> bool:
    """Implements gpu's AsyncOpInterface."""
    return opdefs.has_trait(op.name, "async")
