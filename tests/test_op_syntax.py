"""Valid custom forms that gpu-lsp once rejected: read without an error and printed as mlir-opt prints them.

The expected texts of ORACLE_CASES are upstream MLIR's printing (the oracle, re-checked by
`test_oracle_prints_the_same` where it is installed). NEWER_CASES use syntax newer than the
oracle's MLIR (llvm-project PR #195692, named barriers and barrier scopes); their expected
texts are the CHECK lines of upstream's tests for that PR (Dialect/GPU/ops.mlir).
"""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir.printers import print_module
from gpu_lsp.parser.api import parse

_CONTAINER = """\
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: f32) kernel {
      gpu.return
    }
  }
  func.func @main(%arg0: index, %arg1: i32, %arg2: f32) {
%s
    return
  }
}
"""

ORACLE_CASES: dict[str, tuple[str, str]] = {
    "launch_func_cooperative": (
        "    gpu.launch_func @k::@f blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0) cooperative args(%arg2 : f32)",
        "    gpu.launch_func  @k::@f blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)  cooperative args(%arg2 : f32)",
    ),
    "launch_func_cooperative_with_args": (
        "    gpu.launch_func @k::@f blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)"
        " dynamic_shared_memory_size %arg1 cooperative args(%arg2 : f32) {foo}",
        "    gpu.launch_func  @k::@f blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)"
        "  dynamic_shared_memory_size %arg1 cooperative args(%arg2 : f32) {foo}",
    ),
    "launch_cooperative": (
        "    gpu.launch blocks(%bx, %by, %bz) in (%gx = %arg0, %gy = %arg0, %gz = %arg0)"
        " threads(%tx, %ty, %tz) in (%sx = %arg0, %sy = %arg0, %sz = %arg0)"
        " dynamic_shared_memory_size %arg1 module(@m) function(@g) cooperative {\n      gpu.terminator\n    } {foo}",
        "    gpu.launch blocks(%arg3, %arg4, %arg5) in (%arg9 = %arg0, %arg10 = %arg0, %arg11 = %arg0)"
        " threads(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0)"
        " dynamic_shared_memory_size %arg1 module(@m) function(@g) cooperative {\n      gpu.terminator\n    } {foo}",
    ),
    "launch_cooperative_workgroup": (
        "    gpu.launch blocks(%bx, %by, %bz) in (%gx = %arg0, %gy = %arg0, %gz = %arg0)"
        " threads(%tx, %ty, %tz) in (%sx = %arg0, %sy = %arg0, %sz = %arg0)"
        " cooperative workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {\n      gpu.terminator\n    }",
        "    gpu.launch blocks(%arg3, %arg4, %arg5) in (%arg9 = %arg0, %arg10 = %arg0, %arg11 = %arg0)"
        " threads(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0)"
        " cooperative workgroup(%arg15 : memref<4xf32, #gpu.address_space<workgroup>>) {\n      gpu.terminator\n    }",
    ),
    "scf_for_barrier_on_one_line": (
        "    scf.for %i = %arg0 to %arg0 step %arg0 { gpu.barrier }",
        "    scf.for %arg3 = %arg0 to %arg0 step %arg0 {\n      gpu.barrier\n    }",
    ),
}

# Whole modules: ops outside func.func.
ORACLE_MODULES: dict[str, tuple[str, str]] = {
    "spirv_ballot_result_type": (
        """\
spirv.module Logical GLSL450 {
  spirv.func @f(%e: i1) -> vector<4xi32> "None" {
    %0 = spirv.GroupNonUniformBallot <Subgroup> %e : vector<4xi32>
    spirv.ReturnValue %0 : vector<4xi32>
  }
}
""",
        """\
module {
  spirv.module Logical GLSL450 {
    spirv.func @f(%arg0: i1) -> vector<4xi32> "None" {
      %0 = spirv.GroupNonUniformBallot <Subgroup> %arg0 : vector<4xi32>
      spirv.ReturnValue %0 : vector<4xi32>
    }
  }
}
""",
    ),
    "llvm_gep_no_wrap_flags": (
        """\
llvm.func @g(%p: !llvm.ptr, %i: i64) -> !llvm.ptr {
  %0 = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %1 = llvm.getelementptr nusw %0[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.return %1 : !llvm.ptr
}
""",
        """\
module {
  llvm.func @g(%arg0: !llvm.ptr, %arg1: i64) -> !llvm.ptr {
    %0 = llvm.getelementptr inbounds|nuw %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %1 = llvm.getelementptr nusw %0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.return %1 : !llvm.ptr
  }
}
""",
    ),
}

NEWER_CASES: dict[str, tuple[str, str]] = {
    "named_barriers": (
        """\
func.func @f(%member_count: i32, %nb2: !gpu.named_barrier) {
  %nb = gpu.initialize_named_barrier %member_count : i32 -> !gpu.named_barrier
  gpu.barrier named(%nb : !gpu.named_barrier)
  gpu.barrier named(%nb2 : !gpu.named_barrier) memfence [#gpu.address_space<workgroup>]
  return
}
""",
        """\
module {
  func.func @f(%arg0: i32, %arg1: !gpu.named_barrier) {
    %0 = gpu.initialize_named_barrier %arg0 : i32 -> !gpu.named_barrier
    gpu.barrier named(%0 : !gpu.named_barrier)
    gpu.barrier named(%arg1 : !gpu.named_barrier) memfence [#gpu.address_space<workgroup>]
    return
  }
}
""",
    ),
    "barrier_scopes": (
        """\
func.func @f() {
  gpu.barrier scope <subgroup>
  gpu.barrier scope <workgroup>
  gpu.barrier memfence [#gpu.address_space<workgroup>] scope <subgroup>
  return
}
""",
        """\
module {
  func.func @f() {
    gpu.barrier scope <subgroup>
    gpu.barrier
    gpu.barrier memfence [#gpu.address_space<workgroup>] scope <subgroup>
    return
  }
}
""",
    ),
}


def _all_cases() -> dict[str, tuple[str, str]]:
    cases = {name: (_CONTAINER.replace("%s", src), _CONTAINER.replace("%s", out)) for name, (src, out) in ORACLE_CASES.items()}
    return cases | ORACLE_MODULES | NEWER_CASES


CASES = _all_cases()


def _printed(text: str) -> str:
    chunk = parse(text).chunks[0]
    return print_module(chunk.module, source=text)


@pytest.mark.parametrize("name", sorted(CASES))
def test_read_without_a_diagnostic_and_printed_as_upstream(name: str) -> None:
    source, expected = CASES[name]
    errors = [d for d in lint_text(source) if d.severity >= Severity.WARNING]
    assert errors == []
    assert _printed(source) == expected
    assert _printed(expected) == expected


@pytest.mark.parametrize("name", sorted(ORACLE_CASES) + sorted(ORACLE_MODULES))
def test_oracle_prints_the_same(name: str) -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    source, expected = CASES[name]
    printed, diags = oracle.run_pass(source, "builtin.module()")
    assert diags == []
    assert printed == expected


@pytest.mark.parametrize("op", ["scf.reduce", "scf.execute_region"])
def test_braces_after_a_region_first_op_are_a_region(op: str) -> None:
    """`scf.reduce {tag}` is a region holding an op `tag` (upstream's error), not an attribute dictionary."""
    source = f"func.func @f(%n: index) {{\n  scf.parallel (%i) = (%n) to (%n) step (%n) {{\n    {op} {{tag}}\n  }}\n  return\n}}\n"
    if op == "scf.execute_region":
        source = f"func.func @f() {{\n  {op} {{tag}}\n  return\n}}\n"
    line = source.splitlines().index(next(x for x in source.splitlines() if "{tag}" in x)) + 1
    column = source.splitlines()[line - 1].index("tag") + 1
    message = "Dialect `' not found for custom op 'tag'  (tried '.tag' as well)"
    errors = [d for d in lint_text(source) if d.severity == Severity.ERROR]
    assert [e.message for e in errors] == [message]
    if oracle.available():
        assert (line, column, "error", message) in oracle.verify(source)
