"""The memref dialect's op definitions (upstream MemRefOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import op_class, returning
from gpu_lsp.ir.opdefs.model import OpDef, declare
from gpu_lsp.ir.opdefs.view_like import MIXED_OFFSETS_SIZES_STRIDES, sliced

# The attributes of memref.load and memref.store.
_ACCESS_ATTRS = 'DefaultValuedOptionalAttr<BoolAttr, "false">:$nontemporal, OptionalAttr<I64Attr>:$alignment'

_ALIGNMENT = "OptionalAttr<ConfinedAttr<I64Attr, [IntPositive, IntPowerOf2]>>:$alignment"
_alloc_like = op_class(  # AllocLikeOp (alloc, alloca)
    "memref",
    ins=f"Variadic<Index>:$dynamicSizes, Variadic<Index>:$symbolOperands, {_ALIGNMENT}",
    outs="AnyMemRef:$memref",
    format="`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
)
_cast = op_class(  # a pure cast of a memref to a compatible memref type
    "memref",
    traits="pure",
    ins="AnyRankedOrUnrankedMemRef:$source",
    outs="AnyRankedOrUnrankedMemRef:$dest",
    format="$source attr-dict `:` type($source) `to` type($dest)",
)

OPS: tuple[OpDef, ...] = (
    declare(
        "memref.load",
        "Loads an element from a memref.",
        ins="AnyMemRef:$memref, Variadic<Index>:$indices, " + _ACCESS_ATTRS,
        outs="AnyType:$result",
        types=("TypesMatchWith<\"result type matches element type of 'memref'\", memref, result, element>",),
        format="$memref `[` $indices `]` attr-dict `:` type($memref)",
        effects="MemRead:$memref",
    ),
    declare(
        "memref.store",
        "Stores an element into a memref.",
        ins="AnyType:$value, AnyMemRef:$memref, Variadic<Index>:$indices, " + _ACCESS_ATTRS,
        types=("TypesMatchWith<\"type of 'value' matches element type of 'memref'\", memref, value, element>",),
        format="$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)",
        effects="MemWrite:$memref",
    ),
    _alloc_like("alloc", "Allocates a buffer on the heap.", effects="MemAlloc:$memref"),
    _alloc_like("alloca", "Allocates a buffer on the stack.", effects="MemAlloc<AutomaticAllocationScopeResource>:$memref"),
    declare(
        "memref.dealloc", "Frees a buffer.", ins="AnyRankedOrUnrankedMemRef:$memref", format="$memref attr-dict `:` type($memref)", effects="MemFree:$memref"
    ),
    declare(
        "memref.dim",
        "The size of one dimension of a memref.",
        traits="pure",
        ins="AnyNonZeroRankedOrUnrankedMemRef:$source, Index:$index",
        outs="Index:$result",
        format="attr-dict $source `,` $index `:` type($source)",
    ),
    _cast("cast", "Casts between compatible memref types.", view="source"),
    _cast("memory_space_cast", "Changes the memory space of a memref.", view="source"),
    declare(
        "memref.copy",
        "Copies one memref into another.",
        ins="AnyRankedOrUnrankedMemRef:$source, AnyRankedOrUnrankedMemRef:$target",
        format="$source `,` $target attr-dict `:` type($source) `to` type($target)",
        effects="MemRead:$source, MemWrite:$target",
    ),
    declare(
        "memref.get_global",
        "The address of a memref.global.",
        traits="pure",
        ins="FlatSymbolRefAttr:$name",
        outs="AnyStaticShapeMemRef:$result",
        format="$name `:` type($result) attr-dict",
    ),
    declare(
        "memref.global",
        "A global memref variable.",
        traits="symbol",
        ins=(
            "SymbolNameAttr:$sym_name, OptionalAttr<StrAttr>:$sym_visibility, MemRefTypeAttr:$type, "
            "OptionalAttr<AnyAttr>:$initial_value, UnitAttr:$constant, " + _ALIGNMENT
        ),
        format="($sym_visibility^)? (`constant` $constant^)? $sym_name `:` custom<GlobalMemrefOpTypeAndInitialValue>($type, $initial_value) attr-dict",
    ),
    declare(
        "memref.subview",
        "A strided view of a part of a memref.",
        traits="pure",
        outs="AnyMemRef:$result",
        **sliced("AnyMemRef:$source", "$source", "type($source) `to` type($result)"),
        view="source",
    ),
    declare(
        "memref.view",
        "A typed view of a byte buffer at a byte offset.",
        traits="pure",
        ins="MemRefRankOf<[I8], [1]>:$source, Index:$byte_shift, Variadic<Index>:$sizes",
        outs="AnyMemRef:$result",
        format="$source `[` $byte_shift `]` `` `[` $sizes `]` attr-dict `:` type($source) `to` type(results)",
        view="source",
    ),
    declare(
        "memref.expand_shape",
        "Splits dimensions of a memref.",
        traits="pure",
        ins="AnyStridedMemRef:$src, IndexListArrayAttr:$reassociation, Variadic<Index>:$output_shape, DenseI64ArrayAttr:$static_output_shape",
        outs="AnyStridedMemRef:$result",
        format="$src $reassociation `output_shape` custom<DynamicIndexList>($output_shape, $static_output_shape) attr-dict `:` type($src) `into` "
        "type($result)",
        view="src",
    ),
    declare(
        "memref.collapse_shape",
        "Merges dimensions of a memref.",
        traits="pure",
        ins="AnyStridedMemRef:$src, IndexListArrayAttr:$reassociation",
        outs="AnyStridedMemRef:$result",
        format="$src $reassociation attr-dict `:` type($src) `into` type($result)",
        view="src",
    ),
    declare(
        "memref.reinterpret_cast",
        "A view of a memref's buffer with a new offset, sizes and strides.",
        traits="pure",
        ins="MemRefOf<[AnyType]>:$source, " + MIXED_OFFSETS_SIZES_STRIDES,
        outs="AnyMemRef:$result",
        format=(
            "$source `to` `offset` `` `:` custom<DynamicIndexList>($offsets, $static_offsets) `` `,` "
            "`sizes` `` `:` custom<DynamicIndexList>($sizes, $static_sizes) `` `,` "
            "`strides` `` `:` custom<DynamicIndexList>($strides, $static_strides) attr-dict `:` type($source) `to` type($result)"
        ),
        view="source",
    ),
    declare(
        "memref.reshape",
        "Reshapes a memref to a shape given as a memref.",
        traits="pure",
        ins="AnyRankedOrUnrankedMemRef:$source, MemRefRankOf<[AnySignlessInteger, Index], [1]>:$shape",
        outs="AnyRankedOrUnrankedMemRef:$result",
        format="$source `(` $shape `)` attr-dict `:` functional-type(operands, results)",
    ),
    declare(
        "memref.rank",
        "The rank of a memref.",
        traits="pure",
        ins="AnyRankedOrUnrankedMemRef:$memref",
        outs="Index:$result",
        format="$memref attr-dict `:` type($memref)",
    ),
    declare(
        "memref.realloc",
        "Grows or shrinks a 1-D buffer.",
        ins="MemRefRankOf<[AnyType], [1]>:$source, Optional<Index>:$dynamicResultSize, OptionalAttr<I64Attr>:$alignment",
        outs="MemRefRankOf<[AnyType], [1]>:$result",
        format="$source (`(` $dynamicResultSize^ `)`)? attr-dict `:` type($source) `to` type(results)",
        effects="MemFree:$source, MemAlloc:$result",
    ),
    declare(
        "memref.assume_alignment",
        "Asserts that a memref's buffer is aligned; returns the same memref.",
        traits="pure same_type",
        ins="AnyMemRef:$memref, ConfinedAttr<I32Attr, [IntPositive]>:$alignment",
        outs="AnyMemRef:$result",
        format="$memref `,` $alignment attr-dict `:` type($memref)",
        view="memref",
    ),
    declare(
        "memref.extract_aligned_pointer_as_index",
        "The aligned pointer of a memref as an index.",
        traits="pure",
        ins="AnyRankedOrUnrankedMemRef:$source",
        outs="Index:$aligned_pointer",
        format="$source `:` type($source) `->` type(results) attr-dict",
    ),
    declare(
        "memref.extract_strided_metadata",
        "The base buffer, offset, sizes and strides of a memref.",
        traits="pure",
        ins="AnyStridedMemRef:$source",
        outs="AnyStridedMemRefOfRank<0>:$base_buffer, Index:$offset, Variadic<Index>:$sizes, Variadic<Index>:$strides",
        format="$source `:` type($source) `->` type(results) attr-dict",
    ),
    declare(
        "memref.alloca_scope",
        "A region whose stack allocations are freed at its end.",
        traits="recursive_effects single_block",
        implicit_terminator="memref.alloca_scope.return",
        syntax="%r = memref.alloca_scope [-> (T)] { ... memref.alloca_scope.return %v : T }",
    ),
    returning("memref.alloca_scope.return", "Ends a memref.alloca_scope region.", "results", parents="memref.alloca_scope"),
    declare(
        "memref.atomic_yield",
        "Ends the region of memref.generic_atomic_rmw with the new value.",
        traits="pure region_return return_like terminator",
        parents="memref.generic_atomic_rmw",
        ins="AnyType:$result",
        format="$result attr-dict `:` type($result)",
    ),
    declare(
        "memref.atomic_rmw",
        "Atomic read-modify-write of one element; returns the old value.",
        ins=(
            "AtomicRMWKindAttr:$kind, AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$value, "
            "MemRefOf<[AnySignlessInteger, AnyFloat]>:$memref, Variadic<Index>:$indices"
        ),
        outs="AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$result",
        format="$kind $value `,` $memref `[` $indices `]` attr-dict `:` `(` type($value) `,` type($memref) `)` `->` type($result)",
        effects="MemRead:$memref, MemWrite:$memref",
    ),
    declare(
        "memref.generic_atomic_rmw",
        "Atomic read-modify-write of one element with the update computed by a region.",
        syntax="%old = memref.generic_atomic_rmw %m[%i] : memref<10xf32> { ^bb0(%cur: f32): ... memref.atomic_yield %new : f32 }",
        effects="MemRead:#0, MemWrite:#0",
    ),
    declare("memref.prefetch", "Prefetches a memref element into the cache.", syntax="memref.prefetch %m[%i], read, locality<3>, data : memref<...>"),
    declare("memref.transpose", "A memref operation (read loosely).", view="#0"),
    declare("memref.dma_start", "A memref operation (read loosely)."),
    declare(
        "memref.dma_wait",
        "Waits for the DMA transfers tagged by a tag memref element to complete.",
        ins="AnyMemRef:$tagMemRef, Variadic<Index>:$tagIndices, Index:$numElements",
        format="$tagMemRef `[` $tagIndices `]` `,` $numElements attr-dict `:` type($tagMemRef)",
    ),
    declare(
        "memref.distinct_objects",
        "Asserts that its memrefs do not alias; returns them unchanged.",
        traits="pure",
        ins="Variadic<AnyMemRef>:$operands",
        outs="Variadic<AnyMemRef>:$results",
        format="$operands attr-dict `:` type($operands)",
    ),
)
