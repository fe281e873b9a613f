"""The llvm, spirv and affine readers built on ir/opdefs/common_read.py's shared pieces read operands and types as upstream does."""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.parser.api import parse

LLVM = """\
llvm.func @f(%p: !llvm.ptr, %v: i32, %c: i1, %x: f32, %vec: vector<4xf32>, %i: i64) -> i32 {
  llvm.store %v, %p : i32, !llvm.ptr
  %a = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i32
  %s = llvm.cmpxchg %p, %v, %a acq_rel monotonic : !llvm.ptr, i32
  %g = llvm.getelementptr %p[%i, 1, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, array<4 x i32>)>
  %e = llvm.extractelement %vec[%i : i64] : vector<4xf32>
  %n = llvm.insertelement %x, %vec[%i : i64] : vector<4xf32>
  %sel = llvm.select %c, %v, %a : i1, i32
  %sum = llvm.add %sel, %v overflow<nsw> : i32
  %cmp = llvm.icmp "ult" %sum, %v : i32
  %z = llvm.zext %cmp : i1 to i32
  llvm.cond_br %c weights([3, 1]), ^b1(%z : i32), ^b2
^b1(%r: i32):
  llvm.return %r : i32
^b2:
  llvm.br ^b1(%v : i32)
}
"""

SPIRV = """\
spirv.module Logical GLSL450 {
  spirv.func @f(%a: i32, %b: i32, %c: i1, %x: f32) "None" {
    %s = spirv.IAdd %a, %b : i32
    %l = spirv.SLessThan %a, %s : i32
    %n = spirv.SNegate %s : i32
    %f = spirv.ConvertSToF %n : i32 to f32
    %k = spirv.Constant 7 : i32
    %sel = spirv.Select %c, %a, %k : i1, i32
    %v = spirv.CompositeConstruct %x, %f : (f32, f32) -> vector<2xf32>
    %w = spirv.CompositeInsert %x, %v[1 : i32] : f32 into vector<2xf32>
    %e = spirv.CompositeExtract %w[0 : i32] : vector<2xf32>
    spirv.BranchConditional %l [5, 10], ^b1, ^b2
  ^b1:
    spirv.Branch ^b2
  ^b2:
    spirv.Return
  }
}
"""

AFFINE = """\
func.func @f(%m: memref<8xf32>, %i: index, %x: f32, %v: vector<4xf32>) {
  affine.for %j = 0 to 8 {
    affine.store %x, %m[%j + symbol(%i)] : memref<8xf32>
    affine.vector_store %v, %m[%j] : memref<8xf32>, vector<4xf32>
    affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%j) {
      affine.yield
    }
    affine.yield
  }
  return
}
"""


def _signatures(text: str) -> list[tuple[str, list[str], list[str]]]:
    chunk = parse(text).chunks[0]
    assert chunk.diagnostics == []
    return [
        (op.name, [str(v.type) for v in op.operands], [str(r.type) for r in op.results])
        for op in chunk.module.walk()
        if op.name != "builtin.module"
    ]


@pytest.mark.parametrize("text", [LLVM, SPIRV, AFFINE], ids=["llvm", "spirv", "affine"])
def test_operands_and_types_are_upstreams(text: str) -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    result, diags = oracle._run(text, "builtin.module()", False)
    assert diags == []
    generic = str(result.module.operation.get_asm(print_generic_op_form=True))
    assert _signatures(text) == _signatures(generic)
