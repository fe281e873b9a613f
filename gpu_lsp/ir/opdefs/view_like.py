"""Operands and format of upstream's OffsetSizeAndStrideOpInterface, shared by memref and tensor slices."""

from __future__ import annotations

from typing import TypedDict

# The offsets, sizes and strides of a slice or view, and how a format writes them.
MIXED_OFFSETS_SIZES_STRIDES = (
    "Variadic<Index>:$offsets, Variadic<Index>:$sizes, Variadic<Index>:$strides, "
    "DenseI64ArrayAttr:$static_offsets, DenseI64ArrayAttr:$static_sizes, DenseI64ArrayAttr:$static_strides"
)
SLICE_FORMAT = (
    "custom<DynamicIndexList>($offsets, $static_offsets) custom<DynamicIndexList>($sizes, $static_sizes) "
    "custom<DynamicIndexList>($strides, $static_strides)"
)


class Sliced(TypedDict):
    """The `ins` and `format` arguments of `declare` for a slice op."""

    ins: str
    format: str


def sliced(ins: str, written: str, types: str) -> Sliced:
    """`ins` and `format` of a slice op: its operands `ins` then the offsets, sizes and strides; its
    format writes `written` (the operands), the three lists right after them, then `:` and `types`."""
    return {
        "ins": f"{ins}, {MIXED_OFFSETS_SIZES_STRIDES}",
        "format": f"{written} `` {SLICE_FORMAT} attr-dict `:` {types}",
    }
