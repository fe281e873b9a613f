"""The tensor dialect's op definitions (upstream TensorOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import OpDef, declare
from gpu_lsp.ir.opdefs.view_like import sliced

OPS: tuple[OpDef, ...] = (
    declare(
        "tensor.empty",
        "A tensor of a given shape with unspecified contents.",
        traits="pure",
        ins="Variadic<Index>:$dynamicSizes",
        outs="AnyRankedTensor:$result",
        format="`(`$dynamicSizes`)` attr-dict `:` type($result)",
    ),
    declare(
        "tensor.extract",
        "Reads one element of a tensor.",
        traits="pure",
        ins="AnyRankedTensor:$tensor, Variadic<Index>:$indices",
        outs="AnyType:$result",
        types=('TypesMatchWith<"result type matches element type of tensor", tensor, result, element>',),
        format="$tensor `[` $indices `]` attr-dict `:` type($tensor)",
    ),
    declare(
        "tensor.insert",
        "A tensor with one element replaced.",
        traits="pure",
        ins="AnyType:$scalar, AnyRankedTensor:$dest, Variadic<Index>:$indices",
        outs="AnyRankedTensor:$result",
        types=(
            'TypesMatchWith<"result type matches type of dest", dest, result>',
            'TypesMatchWith<"scalar type matches element type of dest", dest, scalar, element>',
        ),
        format="$scalar `into` $dest `[` $indices `]` attr-dict `:` type($dest)",
    ),
    declare(
        "tensor.dim",
        "The size of one dimension of a tensor.",
        traits="pure",
        ins="AnyNonZeroRankedOrUnrankedTensor:$source, Index:$index",
        outs="Index:$result",
        format="attr-dict $source `,` $index `:` type($source)",
    ),
    declare(
        "tensor.rank",
        "The rank of a tensor.",
        traits="pure",
        ins="AnyTensor:$tensor",
        outs="Index:$result",
        format="$tensor attr-dict `:` type($tensor)",
    ),
    declare(
        "tensor.cast",
        "Casts between compatible tensor types.",
        traits="pure",
        ins="AnyTensor:$source",
        outs="AnyTensor:$dest",
        format="$source attr-dict `:` type($source) `to` type($dest)",
    ),
    declare(
        "tensor.bitcast",
        "Reinterprets the element type of a tensor.",
        traits="pure",
        ins="AnyTensor:$source",
        outs="AnyTensor:$dest",
        format="$source attr-dict `:` type($source) `to` type($dest)",
    ),
    declare(
        "tensor.expand_shape",
        "Splits dimensions of a tensor.",
        traits="pure",
        ins="AnyTensor:$src, IndexListArrayAttr:$reassociation, Variadic<Index>:$output_shape, DenseI64ArrayAttr:$static_output_shape",
        outs="AnyTensor:$result",
        format="$src $reassociation `output_shape` custom<DynamicIndexList>($output_shape, $static_output_shape) attr-dict `:` type($src) `into` "
        "type($result)",
    ),
    declare(
        "tensor.collapse_shape",
        "Merges dimensions of a tensor.",
        traits="pure",
        ins="AnyTensor:$src, IndexListArrayAttr:$reassociation",
        outs="AnyTensor:$result",
        format="$src $reassociation attr-dict `:` type($src) `into` type($result)",
    ),
    declare(
        "tensor.from_elements",
        "Builds a tensor from scalars.",
        traits="pure",
        ins="Variadic<AnyType>:$elements",
        outs="AnyStaticShapeTensor:$result",
        types=('TypesMatchWith<"operand types match result element type", result, elements, element_count>',),
        format="$elements attr-dict `:` type($result)",
    ),
    declare(
        "tensor.splat",
        "A tensor with every element equal to a scalar.",
        traits="pure",
        ins="AnyType:$input, Variadic<Index>:$dynamicSizes",
        outs="AnyRankedTensor:$aggregate",
        types=('TypesMatchWith<"operand type matches element type of result", aggregate, input, element>',),
        format="$input (`[` $dynamicSizes^ `]`)? attr-dict `:` type($aggregate)",
    ),
    declare(
        "tensor.generate",
        "A tensor whose elements are computed by a region.",
        traits="pure",
        ins="Variadic<Index>:$dynamicExtents",
        outs="AnyRankedTensor:$result",
        regions="SizedRegion<1>:$body",
        format="$dynamicExtents $body attr-dict `:` type($result)",
    ),
    declare(
        "tensor.yield",
        "Yields an element from tensor.generate or tensor.pad.",
        traits="pure region_return terminator",
        parents="tensor.generate tensor.pad",
        ins="AnyType:$value",
        format="$value attr-dict `:` type($value)",
    ),
    declare(
        "tensor.pad",
        "Pads a tensor with values computed by a region.",
        traits="pure single_block",
        implicit_terminator="tensor.yield",
        ins=(
            "AnyRankedTensor:$source, Variadic<Index>:$low, Variadic<Index>:$high, DenseI64ArrayAttr:$static_low, "
            "DenseI64ArrayAttr:$static_high, UnitAttr:$nofold"
        ),
        outs="AnyRankedTensor:$result",
        regions="SizedRegion<1>:$region",
        format=(
            "$source (`nofold` $nofold^)? `low` `` custom<DynamicIndexList>($low, $static_low) "
            "`high` `` custom<DynamicIndexList>($high, $static_high) $region attr-dict `:` type($source) `to` type($result)"
        ),
    ),
    declare(
        "tensor.extract_slice",
        "A slice of a tensor.",
        traits="pure",
        outs="AnyRankedTensor:$result",
        **sliced("AnyRankedTensor:$source", "$source", "type($source) `to` type($result)"),
    ),
    declare(
        "tensor.insert_slice",
        "A tensor with a slice replaced.",
        traits="pure",
        outs="AnyRankedTensor:$result",
        types=('TypesMatchWith<"expected result type to match dest type", dest, result>',),
        **sliced("AnyRankedTensor:$source, AnyRankedTensor:$dest", "$source `into` $dest", "type($source) `into` type($dest)"),
    ),
    declare(
        "tensor.parallel_insert_slice",
        "Inserts a slice into a shared output of scf.forall.",
        parents="scf.forall.in_parallel",
        **sliced("AnyRankedTensor:$source, AnyRankedTensor:$dest", "$source `into` $dest", "type($source) `into` type($dest)"),
    ),
    declare(
        "tensor.reshape",
        "Reshapes a tensor to a shape given as a tensor.",
        traits="pure",
        ins="AnyTensor:$source, TensorRankOf<[AnySignlessInteger, Index], [1]>:$shape",
        outs="AnyTensor:$result",
        format="$source `(` $shape `)` attr-dict `:` functional-type(operands, results)",
    ),
    declare(
        "tensor.concat",
        "Concatenates tensors along a dimension.",
        traits="pure",
        ins="I64Attr:$dim, Variadic<AnyRankedTensor>:$inputs",
        outs="AnyRankedTensor:$result",
        format="`dim` `(` $dim `)` $inputs attr-dict `:` functional-type(operands, results)",
    ),
    declare(
        "tensor.gather",
        "Gathers slices of a tensor at the coordinates an index tensor lists.",
        traits="pure",
        ins="AnyRankedTensor:$source, RankedTensorOf<[AnySignlessIntegerOrIndex]>:$indices, DenseI64ArrayAttr:$gather_dims, UnitAttr:$unique",
        outs="AnyRankedTensor:$result",
        format="$source `[` $indices `]` `gather_dims` `(` $gather_dims `)` (`unique` $unique^)? attr-dict `:` functional-type(operands, results)",
    ),
    declare(
        "tensor.scatter",
        "Scatters slices into a tensor at the coordinates an index tensor lists.",
        traits="pure",
        ins=(
            "AnyRankedTensor:$source, AnyRankedTensor:$dest, RankedTensorOf<[AnySignlessIntegerOrIndex]>:$indices, "
            "DenseI64ArrayAttr:$scatter_dims, UnitAttr:$unique"
        ),
        outs="AnyRankedTensor:$result",
        format=(
            "$source `into` $dest `[` $indices `]` `scatter_dims` `(` $scatter_dims `)` (`unique` $unique^)? attr-dict `:` "
            "functional-type(operands, results)"
        ),
    ),
)
