"""The vector dialect's op definitions (upstream VectorOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.arith_ops import FASTMATH, FASTMATH_FORMAT
from gpu_lsp.ir.opdefs.families import returning
from gpu_lsp.ir.opdefs.model import OpDef, declare

_KIND = "Vector_CombiningKindAttr:$kind"

OPS: tuple[OpDef, ...] = (
    declare(
        "vector.broadcast",
        "Broadcasts a scalar or vector to a vector of higher rank.",
        traits="pure",
        ins="AnyType:$source",
        outs="AnyVectorOfAnyRank:$vector",
        types=('PredOpTrait<"source operand and result have same element type", TCresVTEtIsSameAsOpBase<0, 0>>',),
        format="$source attr-dict `:` type($source) `to` type($vector)",
    ),
    declare(
        "vector.extract",
        "Extracts an element or a sub-vector at static or dynamic positions.",
        traits="pure",
        ins="AnyVectorOfAnyRank:$vector, Variadic<Index>:$dynamic_position, DenseI64ArrayAttr:$static_position",
        outs="AnyType:$result",
        types=('PredOpTrait<"operand and result have same element type", TCresVTEtIsSameAsOpBase<0, 0>>',),
        format="$vector `` custom<DynamicIndexList>($dynamic_position, $static_position) attr-dict `:` type($result) `from` type($vector)",
    ),
    declare(
        "vector.insert",
        "Inserts an element or a sub-vector at static or dynamic positions.",
        traits="pure",
        ins="AnyType:$valueToStore, AnyVectorOfAnyRank:$dest, Variadic<Index>:$dynamic_position, DenseI64ArrayAttr:$static_position",
        outs="AnyVectorOfAnyRank:$result",
        types=("AllTypesMatch<dest, result>",),
        format="$valueToStore `,` $dest custom<DynamicIndexList>($dynamic_position, $static_position) attr-dict `:` type($valueToStore) `into` type($dest)",
    ),
    declare(
        "vector.scalable.extract",
        "Extracts a fixed-length vector from a scalable one.",
        traits="pure",
        ins="ScalableVectorOfRank<[1]>:$source, I64Attr:$pos",
        outs="VectorOfRank<[1]>:$res",
        format="$source `[` $pos `]` attr-dict `:` type($res) `from` type($source)",
    ),
    declare(
        "vector.scalable.insert",
        "Inserts a fixed-length vector into a scalable one.",
        traits="pure",
        ins="VectorOfRank<[1]>:$valueToStore, ScalableVectorOfRank<[1]>:$dest, I64Attr:$pos",
        outs="ScalableVectorOfRank<[1]>:$result",
        types=("AllTypesMatch<dest, result>",),
        format="$valueToStore `,` $dest `[` $pos `]` attr-dict `:` type($valueToStore) `into` type($dest)",
    ),
    declare(
        "vector.load",
        "Loads a vector from a memref at the given indices.",
        ins="AnyMemRef:$base, Variadic<Index>:$indices, DefaultValuedOptionalAttr<BoolAttr, \"false\">:$nontemporal",
        outs="AnyVectorOfAnyRank:$result",
        format="$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)",
        effects="MemRead:$base",
    ),
    declare(
        "vector.store",
        "Stores a vector into a memref at the given indices.",
        ins="AnyVectorOfAnyRank:$valueToStore, AnyMemRef:$base, Variadic<Index>:$indices, DefaultValuedOptionalAttr<BoolAttr, \"false\">:$nontemporal",
        format="$valueToStore `,` $base `[` $indices `]` attr-dict `:` type($base) `,` type($valueToStore)",
        effects="MemWrite:$base",
    ),
    declare(
        "vector.maskedload",
        "Loads the enabled lanes of a vector; the others come from a pass-through vector.",
        ins="AnyMemRef:$base, Variadic<Index>:$indices, VectorOfNonZeroRankOf<[I1]>:$mask, AnyVectorOfNonZeroRank:$pass_thru",
        outs="AnyVectorOfNonZeroRank:$result",
        format="$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) `,` type($mask) `,` type($pass_thru) `into` type($result)",
        effects="MemRead:$base",
    ),
    declare(
        "vector.expandload",
        "Loads consecutive elements into the enabled lanes of a vector.",
        ins="AnyMemRef:$base, Variadic<Index>:$indices, FixedVectorOfNonZeroRankOf<[I1]>:$mask, AnyVectorOfNonZeroRank:$pass_thru",
        outs="AnyVectorOfNonZeroRank:$result",
        format="$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) `,` type($mask) `,` type($pass_thru) `into` type($result)",
        effects="MemRead:$base",
    ),
    declare(
        "vector.maskedstore",
        "Stores the enabled lanes of a vector.",
        ins="AnyMemRef:$base, Variadic<Index>:$indices, VectorOfNonZeroRankOf<[I1]>:$mask, AnyVectorOfNonZeroRank:$valueToStore",
        format="$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` type($base) `,` type($mask) `,` type($valueToStore)",
        effects="MemWrite:$base",
    ),
    declare(
        "vector.compressstore",
        "Stores the enabled lanes of a vector consecutively.",
        ins="AnyMemRef:$base, Variadic<Index>:$indices, FixedVectorOfNonZeroRankOf<[I1]>:$mask, AnyVectorOfNonZeroRank:$valueToStore",
        format="$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` type($base) `,` type($mask) `,` type($valueToStore)",
        effects="MemWrite:$base",
    ),
    declare(
        "vector.transfer_read",
        "Reads a vector from a memref or tensor slice, with padding and an optional mask.",
        syntax="%v = vector.transfer_read %m[%i, %j], %pad [, %mask] {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>",
        effects="MemRead:#0",
    ),
    declare(
        "vector.transfer_write",
        "Writes a vector to a memref or tensor slice, with an optional mask; returns the new tensor for tensors.",
        syntax="[%t =] vector.transfer_write %v, %m[%i] [, %mask] {in_bounds = [true]} : vector<4xf32>, memref<?xf32>",
        effects="MemWrite:#1",
    ),
    declare(
        "vector.reduction",
        "Reduces a 1-D vector to a scalar, optionally with an accumulator.",
        traits="pure",
        ins=f"{_KIND}, VectorOfAnyRankOf<[AnyNonZeroBitwidthType]>:$vector, Optional<AnyType>:$acc, {FASTMATH}",
        outs="AnyType:$dest",
        types=('TypesMatchWith<"dest and acc have the same type", dest, acc>',),
        format=f"$kind `,` $vector (`,` $acc^)? {FASTMATH_FORMAT} attr-dict `:` type($vector) `into` type($dest)",
        syntax='%r = vector.reduction <add>, %v [, %acc] [fastmath<fast>] : vector<16xf32> into f32',
    ),
    declare(
        "vector.multi_reduction",
        "Reduces a vector along some dimensions into an accumulator.",
        traits="pure",
        ins=f"{_KIND}, AnyVectorOfNonZeroRank:$source, AnyType:$acc, DenseI64ArrayAttr:$reduction_dims",
        outs="AnyType:$dest",
        types=("AllTypesMatch<dest, acc>",),
        format="$kind `,` $source `,` $acc attr-dict $reduction_dims `:` type($source) `to` type($dest)",
        syntax='%r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>',
    ),
    declare(
        "vector.scan",
        "Inclusive or exclusive scan of a vector along one dimension.",
        traits="pure",
        ins=f"{_KIND}, AnyVectorOfNonZeroRank:$source, AnyVectorOfAnyRank:$initial_value, I64Attr:$reduction_dim, BoolAttr:$inclusive",
        outs="AnyVectorOfNonZeroRank:$dest, AnyVectorOfAnyRank:$accumulated_value",
        types=("AllTypesMatch<source, dest>", "AllTypesMatch<initial_value, accumulated_value>"),
        format="$kind `,` $source `,` $initial_value attr-dict `:` type($source) `,` type($initial_value)",
        syntax='%r, %acc = vector.scan <add>, %v, %init {reduction_dim = 1 : i64, inclusive = true} : vector<4x8xf32>, vector<4xf32>',
    ),
    declare(
        "vector.contract",
        "Generalised contraction (matmul, dot product) of two vectors into an accumulator.",
        traits="pure",
        syntax=(
            "%r = vector.contract {indexing_maps = [...], iterator_types = [...]} %a, %b, %acc : vector<4x8xf32>, "
            "vector<8x16xf32> into vector<4x16xf32>"
        ),
    ),
    declare(
        "vector.shape_cast",
        "Reshapes a vector keeping its elements in order.",
        traits="pure",
        ins="AnyVectorOfAnyRank:$source",
        outs="AnyVectorOfAnyRank:$result",
        format="$source attr-dict `:` type($source) `to` type($result)",
    ),
    declare(
        "vector.bitcast",
        "Reinterprets the bits of a vector with another element type.",
        traits="pure",
        ins="AnyVectorOfAnyRank:$source",
        outs="AnyVectorOfAnyRank:$result",
        types=("AllRanksMatch<source, result>",),
        format="$source attr-dict `:` type($source) `to` type($result)",
    ),
    declare(
        "vector.type_cast",
        "Views a memref of scalars as a memref of one vector.",
        traits="pure",
        ins="StaticShapeMemRefOf<[AnyType]>:$memref",
        outs="AnyMemRef:$result",
        format="$memref attr-dict `:` type($memref) `to` type($result)",
    ),
    declare(
        "vector.extract_strided_slice",
        "Extracts a strided slice of a vector ({offsets, sizes, strides}).",
        traits="pure",
        ins="AnyVectorOfNonZeroRank:$vector, I64ArrayAttr:$offsets, I64ArrayAttr:$sizes, I64ArrayAttr:$strides",
        outs="AnyVectorOfNonZeroRank:$result",
        format="$vector attr-dict `:` type($vector) `to` type(results)",
    ),
    declare(
        "vector.transpose",
        "Permutes the dimensions of a vector.",
        traits="pure",
        ins="AnyVectorOfAnyRank:$vector, DenseI64ArrayAttr:$permutation",
        outs="AnyVectorOfAnyRank:$result",
        format="$vector `,` $permutation attr-dict `:` type($vector) `to` type($result)",
    ),
    declare(
        "vector.insert_strided_slice",
        "Inserts a vector into a strided slice of another.",
        traits="pure",
        ins="AnyVectorOfNonZeroRank:$valueToStore, AnyVectorOfNonZeroRank:$dest, I64ArrayAttr:$offsets, I64ArrayAttr:$strides",
        outs="AnyVectorOfNonZeroRank:$result",
        types=("AllTypesMatch<dest, result>",),
        format="$valueToStore `,` $dest attr-dict `:` type($valueToStore) `into` type($dest)",
    ),
    declare(
        "vector.fma",
        "Fused multiply-add on vectors.",
        traits="pure",
        ins="VectorOfAnyRankOf<[AnyFloat]>:$lhs, VectorOfAnyRankOf<[AnyFloat]>:$rhs, VectorOfAnyRankOf<[AnyFloat]>:$acc",
        outs="VectorOfAnyRankOf<[AnyFloat]>:$result",
        types=("AllTypesMatch<lhs, rhs, acc, result>",),
        format="$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs)",
    ),
    declare(
        "vector.from_elements",
        "Builds a vector from scalars.",
        traits="pure",
        ins="Variadic<AnyType>:$elements",
        outs="AnyFixedVectorOfAnyRank:$dest",
        types=("TypesMatchWith<\"shaped type 'dest' matches 'elements' element count and types\", dest, elements, element_count>",),
        format="$elements attr-dict `:` type($dest)",
    ),
    declare(
        "vector.to_elements",
        "Splits a vector into its scalar elements.",
        traits="pure",
        ins="AnyVectorOfAnyRank:$source",
        outs="Variadic<AnyType>:$elements",
        format="$source attr-dict `:` type($source)",
    ),
    declare(
        "vector.step",
        "The vector [0, 1, ..., N-1].",
        traits="pure",
        outs="VectorOfRankAndType<[1], [Index]>:$result",
        format="attr-dict `:` type($result)",
    ),
    declare(
        "vector.vscale",
        "The runtime multiple of scalable vector lengths.",
        traits="pure",
        outs="Index:$res",
        format="attr-dict",
    ),
    declare(
        "vector.constant_mask",
        "A mask with a static leading region set.",
        traits="pure",
        ins="DenseI64ArrayAttr:$mask_dim_sizes",
        outs="VectorOfAnyRankOf<[I1]>:$result",
        format="$mask_dim_sizes attr-dict `:` type(results)",
    ),
    declare(
        "vector.create_mask",
        "A mask with a dynamic leading region set.",
        traits="pure",
        ins="Variadic<Index>:$operands",
        outs="VectorOfAnyRankOf<[I1]>:$result",
        format="$operands attr-dict `:` type(results)",
    ),
    declare(
        "vector.print",
        "Prints a value, a string or punctuation (for tests and debugging).",
        syntax='vector.print %v : vector<4xf32> | vector.print str "text"',
    ),
    declare(
        "vector.mask",
        "Applies a mask to the single maskable operation in its region.",
        traits="recursive_effects",
        syntax="%r = vector.mask %m [, %pass] { vector.transfer_read ... } : vector<16xi1> [-> vector<16xf32>]",
    ),
    returning("vector.yield", "Ends the region of vector.mask.", parents="vector.mask"),
    declare(
        "vector.gather",
        "Gathers elements from memory at base + index vector, for the enabled lanes.",
        ins=(
            "TensorOrMemRef<[AnyType]>:$base, Variadic<Index>:$offsets, VectorOfNonZeroRankOf<[AnyInteger, Index]>:$indices, "
            "VectorOfNonZeroRankOf<[I1]>:$mask, AnyVectorOfNonZeroRank:$pass_thru, OptionalAttr<I64Attr>:$alignment"
        ),
        outs="AnyVectorOfNonZeroRank:$result",
        format=(
            "$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) `,` "
            "type($indices)  `,` type($mask) `,` type($pass_thru) `into` type($result)"
        ),
    ),
    declare(
        "vector.scatter",
        "Scatters the enabled lanes of a vector to memory at base + index vector.",
        ins=(
            "TensorOrMemRef<[AnyType]>:$base, Variadic<Index>:$offsets, VectorOfNonZeroRankOf<[AnyInteger, Index]>:$indices, "
            "VectorOfNonZeroRankOf<[I1]>:$mask, AnyVectorOfNonZeroRank:$valueToStore, OptionalAttr<I64Attr>:$alignment"
        ),
        outs="Optional<AnyRankedTensor>:$result",
        format=(
            "$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` type($base) `,` "
            "type($indices)  `,` type($mask) `,` type($valueToStore) (`->` type($result)^)?"
        ),
    ),
    declare(
        "vector.outerproduct",
        "Outer product of two vectors (or AXPY with a scalar), plus an optional accumulator.",
        traits="pure",
        syntax="%r = vector.outerproduct %a, %b [, %acc] : vector<4xf32>, vector<8xf32>",
    ),
    declare(
        "vector.shuffle",
        "Picks elements of two vectors by a static mask.",
        traits="pure",
        ins="AnyFixedVectorOfAnyRank:$v1, AnyFixedVectorOfAnyRank:$v2, DenseI64ArrayAttr:$mask",
        outs="AnyVectorOfNonZeroRank:$vector",
        format="operands $mask attr-dict `:` type(operands)",
        syntax='%r = vector.shuffle %a, %b [0, 3] : vector<2xf32>, vector<2xf32>',
    ),
    declare(
        "vector.interleave",
        "Interleaves two vectors lane by lane.",
        traits="pure",
        ins="AnyVectorOfNonZeroRank:$lhs, AnyVectorOfNonZeroRank:$rhs",
        outs="AnyVectorOfNonZeroRank:$result",
        types=("AllTypesMatch<lhs, rhs>",),
        format="$lhs `,` $rhs  attr-dict `:` type($lhs) `->` type($result)",
    ),
    declare(
        "vector.deinterleave",
        "Splits a vector into its even and odd lanes.",
        traits="pure",
        ins="AnyVectorOfNonZeroRank:$source",
        outs="AnyVectorOfNonZeroRank:$res1, AnyVectorOfNonZeroRank:$res2",
        types=("AllTypesMatch<res1, res2>",),
        format="$source attr-dict `:` type($source) `->` type($res1)",
    ),
)
