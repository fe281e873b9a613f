"""The bufferization dialect's op definitions (upstream BufferizationOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import OpDef, declare

# `restrict` and `writable` as to_tensor and materialize_in_destination write them.
_RESTRICT_WRITABLE = "(`restrict` $restrict^)? (`writable` $writable^)?"

OPS: tuple[OpDef, ...] = (
    # Upstream parses and prints alloc_tensor by hand (hasCustomAssemblyFormat): read loosely.
    declare(
        "bufferization.alloc_tensor",
        "A tensor that bufferizes to a new allocation, optionally a copy of another tensor.",
        ins="Variadic<Index>:$dynamic_sizes, Optional<AnyTensor>:$copy, Optional<Index>:$size_hint, OptionalAttr<AnyAttr>:$memory_space",
        outs="AnyTensor:$result",
        syntax="%t = bufferization.alloc_tensor(%d, ...) [copy(%c)] [size_hint=%n] : tensor<...>",
    ),
    declare(
        "bufferization.clone",
        "A copy of a memref in a new buffer (which may alias the source).",
        ins="AnyRankedOrUnrankedMemRef:$input",
        outs="AnyRankedOrUnrankedMemRef:$output",
        format="$input attr-dict `:` type($input) `to` type($output)",
    ),
    declare(
        "bufferization.materialize_in_destination",
        "Makes a tensor's data materialize in a destination tensor or buffer.",
        ins="AnyTensor:$source, AnyShaped:$dest, UnitAttr:$restrict, UnitAttr:$writable",
        outs="Optional<AnyTensor>:$result",
        format=f"$source `in` {_RESTRICT_WRITABLE} $dest attr-dict `:` functional-type(operands, results)",
    ),
    declare(
        "bufferization.dealloc_tensor",
        "Releases the storage of a tensor.",
        ins="AnyTensor:$tensor",
        outs="",
        format="$tensor attr-dict `:` type($tensor)",
    ),
    declare(
        "bufferization.to_tensor",
        "A tensor whose contents are a buffer's.",
        ins="Bufferization_BufferLikeTypeInterface:$buffer, UnitAttr:$restrict, UnitAttr:$writable",
        outs="Bufferization_TensorLikeTypeInterface:$result",
        format=f"$buffer {_RESTRICT_WRITABLE} attr-dict `:` type($buffer) `to` type($result)",
    ),
    declare(
        "bufferization.to_buffer",
        "The future buffer of a tensor.",
        traits="pure",
        ins="Bufferization_TensorLikeTypeInterface:$tensor, UnitAttr:$read_only",
        outs="Bufferization_BufferLikeTypeInterface:$buffer",
        format="$tensor (`read_only` $read_only^)? attr-dict `:` type($tensor) `to` type($buffer)",
    ),
    declare(
        "bufferization.dealloc",
        "Frees the given memrefs, under conditions, unless a retained memref aliases them.",
        ins="Variadic<AnyRankedOrUnrankedMemRef>:$memrefs, Variadic<I1>:$conditions, Variadic<AnyRankedOrUnrankedMemRef>:$retained",
        outs="Variadic<I1>:$updatedConditions",
        format=(
            "(` ``(` $memrefs^ `:` type($memrefs) `)` `if` ` ` `(` $conditions `)` )? "
            "(`retain` ` ` `(` $retained^ `:` type($retained) `)` )? attr-dict"
        ),
    ),
)
