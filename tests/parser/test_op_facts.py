"""`op.facts`: a typed record shared while empty, and the facts that moved to properties and views."""

from __future__ import annotations

import pytest

from gpu_lsp.ir.op_facts import NO_FACTS, OpFacts, writable_facts
from gpu_lsp.ir.printers import print_op
from gpu_lsp.ir.views import LaunchView, attribution_counts, unnamed_async_range
from gpu_lsp.parser.api import parse
from gpu_lsp.passes.rewriter import clone_op


def _ops(text: str) -> dict:
    chunk = parse(text).chunks[0]
    assert chunk.diagnostics == []
    return {op.name: op for op in chunk.module.walk()}


def test_a_misspelled_field_raises() -> None:
    facts = OpFacts()
    with pytest.raises(AttributeError):
        facts.atributions = (1, 0)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        facts.atributions  # type: ignore[attr-defined]  # noqa: B018


def test_ops_without_facts_share_one_record_that_cannot_be_written() -> None:
    ops = _ops("func.func @f() {\n  return\n}\n")
    assert ops["func.func"].facts is NO_FACTS and ops["func.return"].facts is NO_FACTS
    with pytest.raises(AttributeError, match="writable_facts"):
        ops["func.func"].facts.implicit = True
    assert NO_FACTS.implicit is False
    writable_facts(ops["func.func"]).implicit = True
    assert ops["func.func"].facts.implicit and ops["func.return"].facts is NO_FACTS and not NO_FACTS.implicit


def test_the_reader_records_facts_and_a_clone_gets_its_own_copy_without_positions() -> None:
    text = (
        "gpu.module @m {\n"
        "  gpu.func @k() workgroup(%w : memref<4xf32, 3>) private(%p : memref<1xf32, 5>, %q : memref<1xf32, 5>) kernel {\n"
        "    gpu.return\n"
        "  }\n"
        "}\n"
        "func.func @f(%t: !gpu.async.token) {\n"
        "  gpu.wait async [%t]\n"
        "  return\n"
        "}\n"
    )
    chunk = parse(text).chunks[0]
    ops = {op.name: op for op in chunk.module.walk()}
    assert chunk.module.facts.implicit
    assert attribution_counts(ops["gpu.func"]) == (1, 2)
    wait = ops["gpu.wait"]
    marker = unnamed_async_range(wait)
    assert marker is not None and text[marker.start : marker.end] == "async"
    copy = clone_op(wait, {})
    assert copy.facts is not wait.facts and copy.facts.unnamed_async is None
    kernel = clone_op(ops["gpu.func"], {})
    writable_facts(kernel).implicit = True
    assert not ops["gpu.func"].facts.implicit and attribution_counts(kernel) == (1, 2)


def test_llvm_compare_predicates_are_the_upstream_property() -> None:
    text = 'func.func @f(%a: i32, %x: f32) {\n  %0 = llvm.icmp "slt" %a, %a : i32\n  %1 = llvm.fcmp "olt" %x, %x : f32\n  return\n}\n'
    ops = _ops(text)
    # mlir-opt --mlir-print-op-generic: <{predicate = 2 : i64}> and <{..., predicate = 4 : i64}>
    assert "<{predicate = 2 : i64}>" in print_op(ops["llvm.icmp"], generic=True)
    assert "predicate = 4 : i64" in print_op(ops["llvm.fcmp"], generic=True)


def test_launch_clusters_come_from_the_operand_segments() -> None:
    def launch(clusters: str) -> LaunchView:
        text = (
            "func.func @f(%c: index) {\n"
            f"  gpu.launch {clusters}blocks(%bx, %by, %bz) in (%gx = %c, %gy = %c, %gz = %c)"
            " threads(%tx, %ty, %tz) in (%sx = %c, %sy = %c, %sz = %c) {\n"
            "    gpu.terminator\n"
            "  }\n"
            "  return\n"
            "}\n"
        )
        return LaunchView(_ops(text)["gpu.launch"])

    assert launch("clusters(%cx, %cy, %cz) in (%nx = %c, %ny = %c, %nz = %c) ").has_clusters
    assert not launch("").has_clusters
