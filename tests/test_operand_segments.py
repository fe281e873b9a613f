"""Operands and results split over an op's declared args (ODS's segment accessors)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.opdef import OPTIONAL, SINGLE, VARIADIC, Arg
from gpu_lsp.ir.opdefs.segments import declared_sizes, split

SINGLES = (Arg("a", "AnyType"), Arg("b", "AnyType"))
MIDDLE = (Arg("first", "AnyType"), Arg("rest", "AnyType", VARIADIC), Arg("last", "AnyType", SINGLE))
TWO_FLEXIBLE = (Arg("x", "AnyType", OPTIONAL), Arg("y", "AnyType", VARIADIC))


def test_single_args_take_one_item_each_and_need_the_exact_count() -> None:
    assert split(SINGLES, [1, 2], None) == {"a": [1], "b": [2]}
    assert split(SINGLES, [1], None) is None
    assert split(SINGLES, [1, 2, 3], None) is None


def test_the_one_flexible_arg_takes_what_the_single_ones_leave() -> None:
    assert split(MIDDLE, [1, 2, 3, 4], None) == {"first": [1], "rest": [2, 3], "last": [4]}
    assert split(MIDDLE, [1, 4], None) == {"first": [1], "rest": [], "last": [4]}
    assert declared_sizes(MIDDLE, 5) == (1, 3, 1)
    assert split(MIDDLE, [1], None) is None


def test_several_flexible_args_need_segment_sizes() -> None:
    assert declared_sizes(TWO_FLEXIBLE, 2) is None
    assert split(TWO_FLEXIBLE, [1, 2, 3], None) is None
    assert split(TWO_FLEXIBLE, [1, 2, 3], (1, 2)) == {"x": [1], "y": [2, 3]}
    assert split(TWO_FLEXIBLE, [1, 2, 3], (0, 3)) == {"x": [], "y": [1, 2, 3]}


def test_segment_sizes_that_do_not_fit_are_refused() -> None:
    assert split(TWO_FLEXIBLE, [1, 2, 3], (1, 1)) is None
    assert split(TWO_FLEXIBLE, [1, 2, 3], (1, 1, 1)) is None
    assert split(TWO_FLEXIBLE, [1, 2, 3], (-1, 4)) is None
