"""Operands and results split over an op's declared args (ODS's segment accessors)."""

from __future__ import annotations

import gc
import weakref

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs.opdef import OPTIONAL, SINGLE, VARIADIC, Arg, ArgLayout, OpDef
from gpu_lsp.ir.opdefs.segments import declared_sizes, result_groups, split

SINGLES = ArgLayout((Arg("a", "AnyType"), Arg("b", "AnyType")))
MIDDLE = ArgLayout((Arg("first", "AnyType"), Arg("rest", "AnyType", VARIADIC), Arg("last", "AnyType", SINGLE)))
TWO_FLEXIBLE = ArgLayout((Arg("x", "AnyType", OPTIONAL), Arg("y", "AnyType", VARIADIC)))


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


def test_a_declarations_layout_is_computed_once_on_it_and_goes_with_it() -> None:
    definition = OpDef("test.split", results=(Arg("head", "AnyType"), Arg("tail", "AnyType", VARIADIC)))
    op = Operation("test.split")
    results = [op.add_result(T.I32) for _ in range(3)]
    assert result_groups(definition, op) == {"head": results[:1], "tail": results[1:]}
    assert definition.result_layout is definition.result_layout and definition.operand_layout is None
    # Nothing outside the declaration keeps what was derived from it (a project's declarations are
    # replaced when its definition file changes).
    declared = weakref.ref(definition.results[0])
    del definition
    gc.collect()
    assert declared() is None
