"""The xegpu dialect's op definitions (upstream XeGPUOps.td), in the form the oracle's MLIR (LLVM 23) reads.

Version facts: in 2025 upstream moved the block offsets from `create_nd_tdesc` (`%src[%i, 0]`) to
the ops that access memory (`load_nd %desc[%i, 0]`, `store_nd`, `prefetch_nd`), which now require
them; `shape :` and `strides :` name the operands a `create_nd_tdesc` of a dynamic source takes.
The gather/scatter `load`, `store` and `prefetch` take a 1D memref or pointer with `[offsets]`;
`create_tdesc` and `update_nd_offset` are gone from the oracle's MLIR and are not declared.
"""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import OpDef, declare

_HINTS = (
    "OptionalAttr<XeGPU_CacheHintAttr>:$l1_hint, OptionalAttr<XeGPU_CacheHintAttr>:$l2_hint, "
    "OptionalAttr<XeGPU_CacheHintAttr>:$l3_hint, OptionalAttr<DistributeLayoutAttr>:$layout"
)
_OFFSETS = "Variadic<Index>:$offsets, DenseI64ArrayAttr:$const_offsets"
# The gather/scatter ops (LLVM 23): a 1D memref or pointer, an offset per lane (or one index), a mask.
_SCATTERED = "AnyTypeOf<[XeGPU_OffsetType, Index]>:$offsets"
_MASK = "AnyTypeOf<[XeGPU_MaskType, I1]>:$mask, OptionalAttr<I64Attr>:$chunk_size"
_ELEMENTS = "AnyTypeOf<[XeGPU_ValueType, XeGPU_ScalarType]>"
# `%desc[0, %i]`, then ODS's prop-dict (a space, and `<{hints}>` when some are set).
_AT = "$TensorDesc `` custom<DynamicIndexList>($offsets, $const_offsets) prop-dict attr-dict"

OPS: tuple[OpDef, ...] = (
    declare(
        "xegpu.create_nd_tdesc",
        "Create nd-tensor descriptor operation",
        traits="pure",
        ins=(
            "XeGPU_BaseAddrType:$source, Variadic<Index>:$shape, Variadic<Index>:$strides, "
            "OptionalAttr<DenseI64ArrayAttr>:$const_shape, OptionalAttr<DenseI64ArrayAttr>:$const_strides"
        ),
        outs="XeGPU_TensorDesc:$TensorDesc",
        format=(
            "$source (`,` `shape` `:` custom<DynamicIndexList>($shape, $const_shape)^ "
            "`,` `strides` `:` custom<DynamicIndexList>($strides, $const_strides))? "
            "attr-dict `:` type($source) `->` qualified(type($TensorDesc))"
        ),
    ),
    declare(
        "xegpu.prefetch_nd",
        "prefetches a n-D block to cache",
        ins=f"XeGPU_TensorDesc:$TensorDesc, {_OFFSETS}, {_HINTS}",
        outs="",
        format=f"{_AT} `:` qualified(type($TensorDesc))",
    ),
    declare(
        "xegpu.load_nd",
        "loads a n-D block from memory (represented by TensorDesc)to registers (represented by vector)",
        ins=(
            f"XeGPU_TensorDesc:$TensorDesc, {_OFFSETS}, OptionalAttr<UnitAttr>:$packed, "
            f"OptionalAttr<DenseI64ArrayAttr>:$transpose, {_HINTS}"
        ),
        outs="XeGPU_ValueType:$value",
        format=f"{_AT} `:` qualified(type($TensorDesc)) `->` type($value)",
    ),
    declare(
        "xegpu.store_nd",
        "stores a n-D block register region back to memory, currently only supports 2D",
        ins=f"XeGPU_ValueType:$value, XeGPU_TensorDesc:$TensorDesc, {_OFFSETS}, {_HINTS}",
        outs="",
        format=f"$value `,` {_AT} `:` type($value) `,` qualified(type($TensorDesc))",
    ),
    declare(
        "xegpu.dpas",
        "It performs mma computation",
        traits="pure",
        ins=(
            "XeGPU_DpasOprType:$lhs, XeGPU_DpasOprType:$rhs, Optional<XeGPU_DpasResType>:$acc, "
            "OptionalAttr<DistributeLayoutAttr>:$layout_a, OptionalAttr<DistributeLayoutAttr>:$layout_b, "
            "OptionalAttr<DistributeLayoutAttr>:$layout_cd"
        ),
        outs="XeGPU_DpasResType:$result",
        format="$lhs `,` $rhs (`,` $acc^)? attr-dict `:` type($lhs)`,` type($rhs) (`,` type($acc)^)? `->` type($result)",
    ),
    declare(
        "xegpu.atomic_rmw",
        "Atomic read-modify-write operation on the TensorDesc.",
        ins="AtomicRMWKindAttr:$kind, XeGPU_TensorDesc:$tensorDesc, XeGPU_MaskType:$mask, XeGPU_ValueType:$value",
        outs="XeGPU_ValueType:$result",
        format=(
            "$kind $tensorDesc `,` $mask `,` $value attr-dict `:` qualified(type($tensorDesc)) `,` type($mask) `,` "
            "type($value) `->` type($result)"
        ),
    ),
    declare(
        "xegpu.fence",
        "It synchronizes memory accesses.",
        ins="XeGPU_MemorySpaceAttr:$memory_kind, XeGPU_FenceScopeAttr:$fence_scope",
        outs="",
        format="`memory_kind` `=` $memory_kind `,` `fence_scope` `=` $fence_scope attr-dict",
    ),
    declare(
        "xegpu.load",
        "load a set of scattered data points from memory.",
        ins=f"XeGPU_GatherScatterBaseAddrType:$source, {_SCATTERED}, {_MASK}, {_HINTS}",
        outs=f"{_ELEMENTS}:$value",
        format="$source `[` $offsets `]` `,` $mask prop-dict attr-dict `:` type(operands) `->` type($value)",
    ),
    declare(
        "xegpu.store",
        "store data to scattered memory locations.",
        ins=f"{_ELEMENTS}:$value, XeGPU_GatherScatterBaseAddrType:$dest, {_SCATTERED}, {_MASK}, {_HINTS}",
        outs="",
        format="$value `,` $dest `[` $offsets `]` `,` $mask prop-dict attr-dict `:` type(operands)",
    ),
    declare(
        "xegpu.prefetch",
        "prefetches a set of scattered data points to cache",
        ins=f"XeGPU_GatherScatterBaseAddrType:$source, {_SCATTERED}, OptionalAttr<I64Attr>:$offset_align_byte, {_HINTS}",
        outs="",
        format="$source `[` $offsets `]` prop-dict attr-dict `:` type(operands)",
    ),
)
