"""Layout-free parsing: newlines are whitespace, and names are scoped as MLIR scopes them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.reflow import shape_op

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.parser.api import parse

# The snippets of issue #11 (each accepted by upstream MLIR).
SNIPPETS = {
    "dictionary over several lines": """\
module attributes {
  gpu.container_module,
  test.attr = 1 : i32
} {
}
""",
    "results on one line, the op on the next": """\
func.func @g(%lb: index, %ub: index, %s: index, %c0: i32) -> (i32, i32) {
  %a, %b =
    scf.for %i = %lb to %ub step %s iter_args(%x = %c0, %y = %c0) -> (i32, i32) {
      scf.yield %x, %y : i32, i32
    }
  return %a, %b : i32, i32
}
""",
    "operands continued on the next line": """\
func.func @h(%m: memref<4x4xf32>, %i: index, %j: index) -> f32 {
  %v = memref.load %m[%i,
                      %j] : memref<4x4xf32>
  return %v : f32
}
""",
    "a name reused after the region that defined it": """\
func.func @f(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %n {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  %v = memref.load %m[%c0] : memref<?xf32>
  return
}
""",
    "a region argument named like the op's own result": """\
func.func @k(%s: !gpu.async.token, %c1: index) {
  %name = gpu.launch async [%s] blocks(%a, %name, %b) in (%x = %c1, %y = %c1, %z = %c1)
      threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    gpu.terminator
  }
  return
}
""",
}


def _errors(text: str) -> list[tuple[str, int, int]]:
    """(message, line, column) of each error, 1-based like mlir-opt."""
    out = []
    for d in parse(text).diagnostics:
        if d.severity == Severity.ERROR:
            line = text.count("\n", 0, d.range.start) + 1
            out.append((d.message, line, d.range.start - text.rfind("\n", 0, d.range.start)))
    return out


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_issue_snippets_parse(name: str) -> None:
    assert _errors(SNIPPETS[name]) == []


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_one_line_and_one_token_per_line_give_the_same_ir(name: str) -> None:
    text = SNIPPETS[name]
    base = shape_op(parse(text).chunks[0].module)
    flat = re.sub(r"\s+", " ", text)
    tall = re.sub(r"\s+", "\n", text)
    for variant in (flat, tall):
        assert _errors(variant) == []
        assert shape_op(parse(variant).chunks[0].module) == base


def test_op_boundaries_do_not_depend_on_lines() -> None:
    text = "func.func @f(%a: i32) { %b = arith.addi %a, %a : i32 %c = arith.muli %b, %b : i32 return }"
    ops = [op.name for op in parse(text).chunks[0].module.walk()]
    assert ops == ["builtin.module", "func.func", "arith.addi", "arith.muli", "func.return"]
    assert _errors(text) == []


def test_block_labels_and_successors_on_one_line() -> None:
    text = "func.func @f(%c: i1, %a: i32) { cf.cond_br %c, ^bb1(%a : i32), ^bb2 ^bb1(%x: i32): cf.br ^bb2 ^bb2: return }"
    parsed = parse(text)
    assert _errors(text) == []
    body = parsed.chunks[0].module.regions[0].blocks[0].operations[0].regions[0]
    assert [b.label for b in body.blocks] == [None, "^bb1", "^bb2"]
    assert [str(a.type) for a in body.blocks[1].arguments] == ["i32"]


# Messages and positions are upstream MLIR's (checked with ../shared/tools/oracle.py).
SCOPING = [
    (
        "redefinition inside a nested region",
        """\
func.func @a(%n: index) {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %n {
    %c0 = arith.constant 1 : index
  }
  return
}
""",
        [("redefinition of SSA value '%c0'", 4, 5)],
    ),
    (
        "region entry argument already in use",
        """\
func.func @b(%n: index) {
  %c0 = arith.constant 0 : index
  scf.for %c0 = %c0 to %n step %n {
  }
  return
}
""",
        [("region entry argument '%c0' is already in use", 3, 11)],
    ),
    (
        "an isolated region does not hide outer names from the parser",
        """\
%c0 = arith.constant 0 : index
func.func @f() {
  %c0 = arith.constant 1 : index
  return
}
""",
        [("redefinition of SSA value '%c0'", 3, 3)],
    ),
    (
        "a use never defined",
        """\
func.func @d(%n: index) {
  %c0 = arith.addi %n, %zz : index
  return
}
""",
        [("use of undeclared SSA value name", 2, 24)],
    ),
]


@pytest.mark.parametrize("text,expected", [(t, e) for _, t, e in SCOPING], ids=[n for n, _, _ in SCOPING])
def test_scoping_errors_are_upstreams(text: str, expected: list) -> None:
    assert _errors(text) == expected


def test_forward_reference_from_a_nested_region_binds_to_the_later_definition() -> None:
    text = """\
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %n {
    %y = arith.addi %later, %i : index
  }
  %later = arith.constant 1 : index
  return
}
"""
    parsed = parse(text)
    assert [d.message for d in parsed.diagnostics if d.code in ("GPU003", "GPU004")] == []
    ops = {op.name: op for op in parsed.chunks[0].module.walk()}
    later = [op for op in parsed.chunks[0].module.walk() if op.results and op.results[0].name == "later"][0]
    assert ops["arith.addi"].operands[0] is later.results[0]


def test_every_upstream_gpu_op_is_registered_so_unknown_gpu_ops_are_errors() -> None:
    """COMPLETE_DIALECTS holds only dialects whose every upstream op is registered here."""
    from support import oracle

    from gpu_lsp.ir.opdefs import op_names
    from gpu_lsp.parser.builder import COMPLETE_DIALECTS

    if not oracle.available():
        pytest.skip("numba-cuda-mlir (the oracle's MLIR) is not installed")
    import numba_cuda_mlir

    generated = Path(numba_cuda_mlir.__file__).parent / "_mlir" / "dialects"
    for dialect in COMPLETE_DIALECTS:
        upstream = set(re.findall(r'OPERATION_NAME = "([\w.]+)"', (generated / f"_{dialect}_ops_gen.py").read_text()))
        ours = {n for n in op_names() if n.startswith(dialect + ".")}
        assert len(upstream) > 50 and upstream <= ours, sorted(upstream - ours)
    assert _errors("func.func @f() {\n  gpu.foo\n  return\n}\n") == [("custom op 'gpu.foo' is unknown", 2, 3)]
