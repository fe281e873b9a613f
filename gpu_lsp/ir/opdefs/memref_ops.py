"""The memref dialect's op definitions (upstream MemRefOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import declare

# The attributes of memref.load and memref.store.
_ACCESS_ATTRS = 'DefaultValuedOptionalAttr<BoolAttr, "false">:$nontemporal, OptionalAttr<I64Attr>:$alignment'

OPS = (
    declare(
        "memref.load",
        "Loads an element from a memref.",
        ins="AnyMemRef:$memref, Variadic<Index>:$indices, " + _ACCESS_ATTRS,
        outs="AnyType:$result",
        types=("TypesMatchWith<memref, result, element>",),
        format="$memref `[` $indices `]` attr-dict `:` type($memref)",
    ),
    declare(
        "memref.store",
        "Stores an element into a memref.",
        ins="AnyType:$value, AnyMemRef:$memref, Variadic<Index>:$indices, " + _ACCESS_ATTRS,
        types=("TypesMatchWith<memref, value, element>",),
        format="$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)",
    ),
    declare(
        "memref.alloc",
        "Allocates a buffer on the heap.",
        ins="Variadic<Index>:$dynamicSizes, Variadic<Index>:$symbolOperands, OptionalAttr<I64Attr>:$alignment",
        outs="AnyMemRef:$memref",
        format="`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
    ),
    declare(
        "memref.alloca",
        "Allocates a buffer on the stack.",
        ins="Variadic<Index>:$dynamicSizes, Variadic<Index>:$symbolOperands, OptionalAttr<I64Attr>:$alignment",
        outs="AnyMemRef:$memref",
        format="`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
    ),
    declare("memref.dealloc", "Frees a buffer.", ins="AnyRankedOrUnrankedMemRef:$memref", format="$memref attr-dict `:` type($memref)"),
    declare(
        "memref.dim",
        "The size of one dimension of a memref.",
        traits="pure",
        ins="AnyNonZeroRankedOrUnrankedMemRef:$source, Index:$index",
        outs="Index:$result",
        format="attr-dict $source `,` $index `:` type($source)",
    ),
    declare(
        "memref.cast",
        "Casts between compatible memref types.",
        traits="pure",
        ins="AnyRankedOrUnrankedMemRef:$source",
        outs="AnyRankedOrUnrankedMemRef:$dest",
        format="$source attr-dict `:` type($source) `to` type($dest)",
    ),
    declare(
        "memref.memory_space_cast",
        "Changes the memory space of a memref.",
        traits="pure",
        ins="AnyRankedOrUnrankedMemRef:$source",
        outs="AnyRankedOrUnrankedMemRef:$dest",
        format="$source attr-dict `:` type($source) `to` type($dest)",
    ),
    declare(
        "memref.copy",
        "Copies one memref into another.",
        ins="AnyRankedOrUnrankedMemRef:$source, AnyRankedOrUnrankedMemRef:$target",
        format="$source `,` $target attr-dict `:` type($source) `to` type($target)",
    ),
    declare("memref.get_global", "The address of a memref.global.", traits="pure", syntax="%m = memref.get_global @name : memref<...>"),
    declare(
        "memref.global",
        "A global memref variable.",
        traits="symbol",
        syntax='memref.global ["private"] [constant] @name : memref<...> [= dense<...>]',
    ),
    declare(
        "memref.subview",
        "A strided view of a part of a memref.",
        ins=(
            "AnyMemRef:$source, Variadic<Index>:$offsets, Variadic<Index>:$sizes, Variadic<Index>:$strides, "
            "DenseI64ArrayAttr:$static_offsets, DenseI64ArrayAttr:$static_sizes, DenseI64ArrayAttr:$static_strides"
        ),
        outs="AnyMemRef:$result",
        regions="",
        traits="pure",
        syntax="%v = memref.subview %m[%o, 0] [%n, 4] [1, 1] : T to U",
    ),
    declare(
        "memref.view",
        "A typed view of a byte buffer at a byte offset.",
        traits="pure",
        syntax="%v = memref.view %buf[%off][%n] : memref<2048xi8> to memref<?x4xf32>",
    ),
    declare("memref.expand_shape", "Splits dimensions of a memref.", traits="pure", syntax="%r = memref.expand_shape %m [[0, 1]] : T into U"),
    declare("memref.collapse_shape", "Merges dimensions of a memref.", traits="pure", syntax="%r = memref.collapse_shape %m [[0, 1]] : T into U"),
    declare(
        "memref.reinterpret_cast",
        "A view of a memref's buffer with a new offset, sizes and strides.",
        ins=(
            "AnyRankedOrUnrankedMemRef:$source, Variadic<Index>:$offsets, Variadic<Index>:$sizes, Variadic<Index>:$strides, "
            "DenseI64ArrayAttr:$static_offsets, DenseI64ArrayAttr:$static_sizes, DenseI64ArrayAttr:$static_strides"
        ),
        outs="AnyMemRef:$result",
        regions="",
        traits="pure",
        syntax="%r = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 4], strides: [4, 1] : T to U",
    ),
    declare(
        "memref.reshape",
        "Reshapes a memref to a shape given as a memref.",
        traits="pure",
        syntax="%r = memref.reshape %m(%shape) : (T, memref<2xindex>) -> U",
    ),
    declare(
        "memref.rank",
        "The rank of a memref.",
        traits="pure",
        ins="AnyRankedOrUnrankedMemRef:$memref",
        outs="Index:$result",
        format="$memref attr-dict `:` type($memref)",
    ),
    declare("memref.realloc", "Grows or shrinks a 1-D buffer.", syntax="%r = memref.realloc %m [(%n)] : T to U"),
    declare(
        "memref.assume_alignment",
        "Asserts that a memref's buffer is aligned; returns the same memref.",
        traits="pure",
        syntax="%r = memref.assume_alignment %m, 16 : memref<...>",
    ),
    declare(
        "memref.extract_aligned_pointer_as_index",
        "The aligned pointer of a memref as an index.",
        traits="pure",
        syntax="%p = memref.extract_aligned_pointer_as_index %m : memref<...> -> index",
    ),
    declare(
        "memref.extract_strided_metadata",
        "The base buffer, offset, sizes and strides of a memref.",
        traits="pure",
        syntax=(
            "%base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<...> -> "
            "memref<f32>, index, index, index, index, index"
        ),
    ),
    declare(
        "memref.alloca_scope",
        "A region whose stack allocations are freed at its end.",
        traits="recursive_effects",
        implicit_terminator="memref.alloca_scope.return",
        syntax="%r = memref.alloca_scope [-> (T)] { ... memref.alloca_scope.return %v : T }",
    ),
    declare(
        "memref.alloca_scope.return",
        "Ends a memref.alloca_scope region.",
        traits="region_return return_like terminator",
        syntax="memref.alloca_scope.return [%v : T]",
    ),
    declare(
        "memref.atomic_yield",
        "Ends the region of memref.generic_atomic_rmw with the new value.",
        traits="region_return return_like terminator",
        syntax="memref.atomic_yield [%v : T]",
    ),
    declare(
        "memref.atomic_rmw",
        "Atomic read-modify-write of one element; returns the old value.",
        syntax="%old = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32",
    ),
    declare(
        "memref.generic_atomic_rmw",
        "Atomic read-modify-write of one element with the update computed by a region.",
        syntax="%old = memref.generic_atomic_rmw %m[%i] : memref<10xf32> { ^bb0(%cur: f32): ... memref.atomic_yield %new : f32 }",
    ),
    declare("memref.prefetch", "Prefetches a memref element into the cache.", syntax="memref.prefetch %m[%i], read, locality<3>, data : memref<...>"),
    declare("memref.transpose", "A memref operation (read loosely)."),
    declare("memref.dma_start", "A memref operation (read loosely)."),
    declare("memref.dma_wait", "A memref operation (read loosely)."),
    declare("memref.distinct_objects", "A memref operation (read loosely)."),
)
