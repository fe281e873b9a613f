"""Op traits asked of IR by the verifier, the passes and the runner: terminators, memory effects, constants."""

from __future__ import annotations

from gpu_lsp.ir import opdefs
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import IntegerAttr
from gpu_lsp.ir.core import Operation, Value

# Terminators that hand their operands to the parent op or the caller (the region_return trait).
REGION_RETURNS = frozenset(name for name in opdefs.op_names() if opdefs.has_trait(name, "region_return"))


def is_terminator(op: Operation) -> bool:
    """`op->mightHaveTrait<IsTerminator>()`: true for ops whose traits are unknown."""
    spec = opdefs.lookup(op.name)
    return spec.has("terminator") if spec is not None else True


def implicit_terminator(op: Operation) -> str | None:
    """The terminator the custom form of `op` may leave out of its blocks (SingleBlockImplicitTerminator)."""
    spec = opdefs.lookup(op.name)
    return spec.implicit_terminator if spec is not None else None


def is_memory_effect_free(op: Operation) -> bool:
    """`isMemoryEffectFree`: pure ops, and recursive-effect ops whose nested ops all are."""
    spec = opdefs.lookup(op.name)
    if spec is None:
        return False
    if spec.has("recursive_effects"):
        return all(
            is_memory_effect_free(nested)
            for region in op.regions
            for block in region.blocks
            for nested in block.operations
        )
    return spec.has("pure")


def has_side_effects(op: Operation) -> bool:
    return not is_memory_effect_free(op)


def is_constant_like(op: Operation) -> bool:
    """The ConstantLike trait (what `m_Constant()` matches)."""
    return opdefs.has_trait(op.name, "constant_like")


def constant_int(value: Value) -> int | None:
    """`m_ConstantInt`: the integer a constant-like op defines `value` to be, else None."""
    op = value.defining_op
    if op is None or not is_constant_like(op):
        return None
    attr = op.properties.get("value") or op.attributes.get("value")
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, (T.IntegerType, T.IndexType)):
        return attr.value
    return None
