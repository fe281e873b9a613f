"""The builder's reuse of a format reading for ops written with the same tokens (builder._read_format)."""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.parser.api import parse

SAME_TOKENS = """\
func.func @f(%a: i32, %b: i32, %m: memref<4xf32>, %i: index) {
  %x = arith.addi %a, %b overflow<nsw> : i32
  %y = arith.addi %b, %x overflow<nsw> : i32
  %v = memref.load %m[%i] : memref<4xf32>
  %w = memref.load %m[%i] : memref<4xf32>
  return
}
"""


def _ops(text: str, name: str) -> list:
    parsed = parse(text)
    assert [d.message for d in parsed.diagnostics if d.severity == Severity.ERROR] == []
    return [op for op in parsed.chunks[0].module.walk() if op.name == name]


def test_ops_with_the_same_tokens_get_their_own_operands_and_ranges() -> None:
    first, second = _ops(SAME_TOKENS, "arith.addi")
    assert [v.name for v in first.operands] == ["a", "b"]
    assert [v.name for v in second.operands] == ["b", "x"]
    assert second.operands[1] is first.results[0]
    for op in (first, second):
        spans = [span.range for span in op.operand_spans if span is not None]
        assert [SAME_TOKENS[r.start : r.end] for r in spans] == [f"%{v.name}" for v in op.operands]
    assert first.operand_spans[0].range.start < second.operand_spans[0].range.start
    assert str(first.properties["overflowFlags"]) == str(second.properties["overflowFlags"])


def test_a_reused_reading_shares_no_mutable_container() -> None:
    first, second = _ops(SAME_TOKENS, "memref.load")
    assert first.attributes is not second.attributes
    assert first.properties is not second.properties
    assert first.results[0].type == second.results[0].type
    first.properties["test.mark"] = first.results[0].type
    assert "test.mark" not in second.properties


def test_symbol_uses_and_diagnostics_are_reported_for_every_op() -> None:
    text = """\
memref.global "private" @g : memref<4xf32>
func.func @f() {
  %a = memref.get_global @g : memref<4xf32>
  %b = memref.get_global @g : memref<4xf32>
  %c = arith.addi %a, %a : i32
  %d = arith.addi %b, %b : i32
  return
}
"""
    parsed = parse(text)
    gets = [op for op in parsed.chunks[0].module.walk() if op.name == "memref.get_global"]
    assert [[text[s.range.start : s.range.end] for _, s in op.symbol_spans] for op in gets] == [["@g"], ["@g"]]
    assert gets[0].symbol_spans[0][1].range != gets[1].symbol_spans[0][1].range
    mismatches = [d for d in parsed.diagnostics if "expects different type" in d.message]
    assert len({d.range.start for d in mismatches}) == 4


def test_a_progressive_parse_shares_its_readings_across_top_level_ops() -> None:
    from gpu_lsp.parser.incremental import Progressive

    second_function = SAME_TOKENS.replace("@f(", "@g(")
    text = SAME_TOKENS + second_function
    progressive = Progressive(text)
    assert progressive.step(1) is False  # the first function only
    readings = len(progressive._ctx.format_memos)
    assert readings > 0
    assert progressive.step(10) is True
    assert len(progressive._ctx.format_memos) == readings  # @g's ops were all read before, in @f
    reused = [op for op in progressive.result().chunks[0].module.walk() if op.name == "arith.addi"]
    fresh = [op for op in parse(text).chunks[0].module.walk() if op.name == "arith.addi"]
    assert [[v.name for v in op.operands] for op in reused] == [[v.name for v in op.operands] for op in fresh]
    assert [op.range for op in reused] == [op.range for op in fresh]
    assert reused[2].operands[0] is not reused[0].operands[0]  # @g's %b is its own argument
