"""Refactorings at a position: what is offered where, and that their edits give the pass output."""

from __future__ import annotations

from pathlib import Path

import pytest
from passes_support import SINK_OUTLINE, assert_same_ir, run
from support import REPO

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.parser.api import parse
from gpu_lsp.passes import catalog
from gpu_lsp.passes import refactor as R
from gpu_lsp.passes.legalize import legalize
from gpu_lsp.passes.outlining import outline_kernels
from gpu_lsp.passes.sink import sink_into_launch
from gpu_lsp.text import apply_edits

FIXTURES = Path(__file__).resolve().parent / "fixtures"
COMMENTS = (FIXTURES / "comments.mlir").read_text()

TWO_FUNCS = """func.func @a(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    "first"(%bx) : (index) -> ()
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    "second"(%c1) : (index) -> ()
    gpu.terminator
  }
  return
}

func.func @b(%n: index) {
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c2) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c2, %sz = %c2) {
    "third"(%tx) : (index) -> ()
    gpu.terminator
  }
  return
}
"""


def apply(refactoring: R.Refactoring, text: str) -> str:
    new_text = apply_edits(text, list(refactoring.edits))
    errors = [d for d in parse(new_text).diagnostics if d.severity >= Severity.ERROR]
    assert not errors, ([d.message for d in errors], new_text)
    return new_text


def test_offered_refactorings():
    inside_launch = COMMENTS.index("%base = arith.muli")
    ids = [a.id for a in catalog.available_at(COMMENTS, inside_launch)]
    assert ids == [R.OUTLINE_LAUNCH, R.OUTLINE_FUNCTION, R.OUTLINE_FILE, R.LEGALIZE]
    in_empty = COMMENTS.index("// nothing GPU here")
    assert [a.id for a in catalog.available_at(COMMENTS, in_empty)] == [R.OUTLINE_FILE, R.LEGALIZE]
    async_ready = (REPO / "examples" / "outlined_module.mlir").read_text()
    inside = async_ready.index("gpu.launch_func async")
    assert R.ASYNC_FUNCTION in [a.id for a in catalog.available_at(async_ready, inside)]
    assert catalog.available_at("func.func @f( {", 3) == []


def test_outline_this_launch_only():
    offset = TWO_FUNCS.index('"second"')
    new_text = apply(R.outline_launch(TWO_FUNCS, offset), TWO_FUNCS)
    assert new_text.count("gpu.launch blocks") == 2 and new_text.count("gpu.launch_func") == 1
    expected, _ = run(TWO_FUNCS, "builtin.module()")
    (second,) = [op for op in expected.walk() if op.name == "gpu.launch"][1:2]
    sink_into_launch(second)
    outline_kernels(expected, select=lambda op: op is second)
    assert_same_ir(expected, parse(new_text).chunks[0].module, "outline one launch")
    assert '"first"(%bx)' in new_text and "@a_kernel::@a_kernel" in new_text


def test_outline_function_and_file():
    offset = TWO_FUNCS.index('"third"')
    new_text = apply(R.outline_function(TWO_FUNCS, offset), TWO_FUNCS)
    assert new_text.count("gpu.launch blocks") == 2 and "@b_kernel::@b_kernel" in new_text
    whole = apply(R.outline_file(TWO_FUNCS), TWO_FUNCS)
    expected, _ = run(TWO_FUNCS, SINK_OUTLINE)
    assert_same_ir(expected, parse(whole).chunks[0].module, "outline file")
    names = [line.split()[1] for line in whole.splitlines() if line.lstrip().startswith(("func.func", "gpu.module"))]
    assert names == ["@a(%n:", "@a_kernel", "@a_kernel_0", "@b(%n:", "@b_kernel"]


def test_outline_file_with_split_chunks():
    text = TWO_FUNCS + "\n// -----\n\n" + TWO_FUNCS.replace("@a", "@c").replace("@b", "@d")
    new_text = apply_edits(text, list(R.outline_file(text, split=True).edits))
    for piece in new_text.split("// -----"):
        assert piece.count("module attributes {gpu.container_module}") == 1
        assert "gpu.launch blocks" not in piece


def test_make_function_async():
    text = (REPO / "examples" / "outlined_module.mlir").read_text()
    synchronous = text.replace("%t6 = gpu.launch_func async [%t5]", "gpu.launch_func").replace("[%t6]", "[%t5]")
    offset = synchronous.index("@kernels::@saxpy")
    new_text = apply(R.make_function_async(synchronous, offset), synchronous)
    assert "= gpu.launch_func async [%t5] @kernels::@saxpy" in new_text
    expected, _ = run(synchronous, "builtin.module(func.func(gpu-async-region))")
    assert_same_ir(expected, parse(new_text).chunks[0].module, "async")


def test_make_function_async_needs_outlined_launches():
    with pytest.raises(R.RefactorError, match="replace with gpu.launch_func first"):
        R.make_function_async(TWO_FUNCS, TWO_FUNCS.index("%c1 = arith.constant"))


def test_legalize_fix_all():
    text = COMMENTS.replace("%t3 = gpu.wait async", "gpu.wait async")  # an unnamed token
    new_text = apply(R.legalize_for_lowering(text), text)
    assert "gpu.wait async [%t0, %t1]" in new_text  # the join
    # async + blocking wait, new tokens named %tN (the first free N), the op's own text kept but for the tokens
    assert "%t4 = gpu.memcpy async [%t2] %dx, %x : memref<?xf32>, memref<?xf32>  // trailing comment" in new_text
    assert "gpu.wait [%t4]" in new_text
    assert "\n  %t5 = gpu.wait async\n" in new_text  # the name
    expected, _ = run(COMMENTS, "builtin.module()")
    legalize(expected)
    assert_same_ir(expected, parse(new_text).chunks[0].module, "legalize")
    with pytest.raises(R.RefactorError):
        R.legalize_for_lowering(new_text)


def test_refactor_errors():
    with pytest.raises(R.RefactorError, match="no gpu.launch here"):
        R.outline_launch(TWO_FUNCS, 0)
    broken = TWO_FUNCS.replace('"third"(%tx)', '"third"(%undefined)')
    with pytest.raises(R.RefactorError, match="errors"):
        R.outline_launch(broken, broken.index('"third"'))
    unknown = TWO_FUNCS.replace('"third"(%tx) : (index) -> ()', '"third"() {s = @nowhere} : () -> ()')
    with pytest.raises(R.RefactorError, match="symbol 'nowhere' not found"):
        R.outline_launch(unknown, unknown.index('"third"'))


def test_refactorings_at_computes_every_offered_one():
    offset = COMMENTS.index("%base = arith.muli")
    done = catalog.refactorings_at(COMMENTS, offset)
    assert [r.id for r in done] == [R.OUTLINE_LAUNCH, R.OUTLINE_FUNCTION, R.OUTLINE_FILE, R.LEGALIZE]
    for refactoring in done:
        apply(refactoring, COMMENTS)


def test_legalize_follows_the_llvm_version() -> None:
    """At LLVM 23 gpu-to-llvm joins a launch_func's dependencies itself and GPU201 reports nothing: Legalize leaves
    them (issue 26: it joined them); at LLVM 22 it joins them as GPU201's fix does."""
    text = (
        "module attributes {gpu.container_module} {\n"
        "  gpu.module @k {\n    gpu.func @f() kernel {\n      gpu.return\n    }\n  }\n"
        "  func.func @main() {\n    %c1 = arith.constant 1 : index\n"
        "    %t0 = gpu.wait async\n    %t1 = gpu.wait async\n"
        "    %t2 = gpu.launch_func async [%t0, %t1] @k::@f\n        blocks in (%c1, %c1, %c1)\n        threads in (%c1, %c1, %c1)\n"
        "    gpu.wait [%t2]\n    return\n  }\n}\n"
    )
    with pytest.raises(R.RefactorError, match="nothing to legalize"):
        R.legalize_for_lowering(text)
    joined = apply(R.legalize_for_lowering(text, mlir_version=22), text)
    assert "    %t3 = gpu.wait async [%t0, %t1]\n    %t2 = gpu.launch_func async [%t3] @k::@f\n        blocks in (%c1, %c1, %c1)\n" in joined


def test_make_async_names_an_unnamed_async_op_it_uses() -> None:
    """Issue 26: on an unnamed `gpu.wait async` the rewrite used its token as an undeclared value."""
    text = (
        "func.func @f(%m: memref<4xf32>, %h: memref<4xf32>) {\n  gpu.wait async\n"
        "  gpu.memcpy %m, %h : memref<4xf32>, memref<4xf32>\n  return\n}\n"
    )
    new_text = apply(R.make_function_async(text, text.index("gpu.memcpy")), text)
    assert "  %t0 = gpu.wait async\n  %t1 = gpu.memcpy async [%t0] %m, %h" in new_text
    assert [d for d in parse(new_text).chunks[0].diagnostics if d.severity >= Severity.ERROR] == []
