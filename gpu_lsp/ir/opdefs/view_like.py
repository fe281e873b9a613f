"""Operands and format of upstream's OffsetSizeAndStrideOpInterface, shared by memref and tensor slices."""

from __future__ import annotations

# The offsets, sizes and strides of a slice or view, and how a format writes them.
MIXED_OFFSETS_SIZES_STRIDES = (
    "Variadic<Index>:$offsets, Variadic<Index>:$sizes, Variadic<Index>:$strides, "
    "DenseI64ArrayAttr:$static_offsets, DenseI64ArrayAttr:$static_sizes, DenseI64ArrayAttr:$static_strides"
)
SLICE_FORMAT = (
    "custom<DynamicIndexList>($offsets, $static_offsets) custom<DynamicIndexList>($sizes, $static_sizes) "
    "custom<DynamicIndexList>($strides, $static_strides)"
)
