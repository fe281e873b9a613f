"""Host scf.for loops run as NumPy array operations when their iterations are independent, scalar otherwise."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import printed_memrefs, run, run_ok

from gpu_lsp.parser.api import parse
from gpu_lsp.runner.hostloop import plan_of

N = 1000


def program(body: str, n: int = N, elem: str = "f32", result: str = "") -> str:
    """A host @main: %x (n elements of `elem`, filled with x[i] = i) and the loop `body`; prints %x (and `result`)."""
    printer = "printMemrefF32" if elem == "f32" else "printMemrefI64"
    make = "%f = arith.sitofp %ii : i64 to f32" if elem == "f32" else "%f = arith.addi %ii, %ii : i64"
    fill = "" if elem == "f32" else "%z = arith.constant 0 : i64\n"
    return f"""
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {n} : index
  %x = memref.alloc (%n) : memref<?x{elem}>
  scf.for %i = %c0 to %n step %c1 {{
    %ii = arith.index_cast %i : index to i64
    {make if elem == "f32" else "%f = arith.subi %ii, %ii : i64"}
    {"" if elem == "f32" else "%g = arith.addi %f, %ii : i64"}
    memref.store {"%f" if elem == "f32" else "%g"}, %x[%i] : memref<?x{elem}>
  }}
{fill}{body}
  %u = memref.cast %x : memref<?x{elem}> to memref<*x{elem}>
  call @{printer}(%u) : (memref<*x{elem}>) -> ()
  call @printNewline() : () -> ()
  {result}
  return
}}
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printF32(f32)
func.func private @printI64(i64)
func.func private @printNewline()
"""


def loops(text: str) -> list:
    module = parse(text).chunks[0].module
    return [op for op in module.walk() if op.name == "scf.for"]


def test_elementwise_loop_and_sum_are_vectorised_and_exact() -> None:
    body = """
  %zero = arith.constant 0.0 : f32
  %tenth = arith.constant 0.1 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %tenth : f32
    memref.store %w, %x[%i] : memref<?xf32>
    %a = arith.addf %acc, %w : f32
    scf.yield %a : f32
  }"""
    text = program(body, result="call @printF32(%s) : (f32) -> ()")
    assert all(plan_of(loop) is not None for loop in loops(text))
    result = run_ok(text)
    x = np.arange(N, dtype=np.float32) * np.float32(0.1)
    acc = np.float32(0.0)
    for v in x:  # the scalar loop's order of float additions
        acc = np.float32(acc + v)
    assert printed_memrefs(result.stdout)[0].tolist() == pytest.approx(x.tolist(), rel=1e-6)
    assert result.stdout.splitlines()[-1] == f"{float(acc):g}"


def test_a_loop_carried_memory_dependence_runs_scalar() -> None:
    body = """
  %m = arith.subi %n, %c1 : index
  scf.for %i = %c0 to %m step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    %j = arith.addi %i, %c1 : index
    memref.store %v, %x[%j] : memref<?xf32>
  }"""
    result = run_ok(program(body))
    assert printed_memrefs(result.stdout)[0].tolist() == [0.0] * N


def test_a_recurrence_that_is_not_a_reduction_runs_scalar() -> None:
    body = """
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
    %v = memref.load %x[%i] : memref<?xi64>
    %d = arith.addi %acc, %acc : i64
    %a = arith.xori %d, %v : i64
    scf.yield %a : i64
  }"""
    text = program(body, elem="i64", result="call @printI64(%s) : (i64) -> ()")
    assert plan_of(loops(text)[1]) is None
    expected = 0
    for v in range(N):
        expected = ((2 * expected) ^ v) & (2**64 - 1)
    expected -= 2**64 if expected >= 2**63 else 0
    assert run_ok(text).stdout.splitlines()[-1] == str(expected)


@pytest.mark.parametrize(
    ("combine", "expected"),
    [("addi", sum(range(N))), ("maxsi", N - 1), ("minsi", 0), ("ori", 1023), ("muli", 0)],
)
def test_integer_reductions(combine: str, expected: int) -> None:
    body = f"""
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {{
    %v = memref.load %x[%i] : memref<?xi64>
    %a = arith.{combine} %v, %acc : i64
    scf.yield %a : i64
  }}"""
    text = program(body, elem="i64", result="call @printI64(%s) : (i64) -> ()")
    assert plan_of(loops(text)[1]) is not None
    assert run_ok(text).stdout.splitlines()[-1] == str(expected)


def test_a_strided_store_through_muli_of_the_induction_variable() -> None:
    body = """
  %c2 = arith.constant 2 : index
  %half = arith.constant 500 : index
  scf.for %i = %c0 to %half step %c1 {
    %j = arith.muli %i, %c2 : index
    %neg = arith.constant -1.0 : f32
    memref.store %neg, %x[%j] : memref<?xf32>
  }"""
    text = program(body)
    assert plan_of(loops(text)[1]) is not None
    got = printed_memrefs(run_ok(text).stdout)[0]
    assert got.tolist() == [-1.0 if i % 2 == 0 else float(i) for i in range(N)]


def test_masked_stores_under_scf_if() -> None:
    body = """
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.remui %i, %c3 : index
    %is0 = arith.cmpi eq, %r, %c0 : index
    scf.if %is0 {
      %neg = arith.constant -1.0 : f32
      memref.store %neg, %x[%i] : memref<?xf32>
    }
  }"""
    text = program(body)
    assert plan_of(loops(text)[1]) is not None
    got = printed_memrefs(run_ok(text).stdout)[0]
    assert got.tolist() == [-1.0 if i % 3 == 0 else float(i) for i in range(N)]


def test_out_of_bounds_in_a_vectorised_loop_gets_the_scalar_message() -> None:
    body = """
  %past = arith.constant 1001 : index
  scf.for %i = %c0 to %past step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
  }"""
    text = program(body)
    assert plan_of(loops(text)[1]) is not None
    result = run(text)
    assert result.exit_code == 1
    assert "error: 'memref.load' op index 1000 is out of bounds for dimension 0 of size 1000 (memref of" in result.stderr
    assert "thread" not in result.stderr


def test_use_after_free_in_a_vectorised_loop() -> None:
    body = """
  memref.dealloc %x : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
  }"""
    result = run(program(body))
    assert result.exit_code == 1
    assert "'memref.load' op reads the buffer allocated by 'memref.alloc' at test.mlir:6:3, which was already freed" in result.stderr


SCALAR_SEMANTICS = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 64 : index
  %out = memref.alloc (%n) : memref<?xi64>
  %seed = arith.constant 2147483000 : i32
  %k = arith.constant 977 : i32
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %seed) -> (i32) {
    %ii = arith.index_cast %i : index to i32
    %m = arith.muli %acc, %k : i32
    %s = arith.addi %m, %ii : i32
    %neg = arith.cmpi slt, %s, %ii : i32
    %big = arith.cmpi ugt, %s, %k : i32
    %both = arith.andi %neg, %big : i1
    %w = arith.extui %s : i32 to i64
    %v = arith.extsi %s : i32 to i64
    %pick = arith.select %both, %w, %v : i64
    %t = arith.trunci %pick : i64 to i16
    %t64 = arith.extsi %t : i16 to i64
    %r = arith.xori %pick, %t64 : i64
    memref.store %r, %out[%i] : memref<?xi64>
    %prev = memref.load %out[%i] : memref<?xi64>
    %back = arith.trunci %prev : i64 to i32
    scf.yield %back : i32
  }
  %u = memref.cast %out : memref<?xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}
func.func private @printMemrefI64(memref<*xi64>)
"""


def wrap(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def test_a_scalar_loop_keeps_twos_complement_semantics() -> None:
    expected = []
    acc = 2147483000
    for i in range(64):
        s = wrap(acc * 977 + i, 32)
        both = s < i and (s & 0xFFFFFFFF) > 977
        pick = (s & 0xFFFFFFFF) if both else s
        r = pick ^ wrap(pick, 16)
        expected.append(r)
        acc = wrap(r, 32)
    result = run_ok(SCALAR_SEMANTICS)
    assert plan_of(loops(SCALAR_SEMANTICS)[0]) is None  # a recurrence: runs iteration by iteration
    assert printed_memrefs(result.stdout)[0].tolist() == expected


def test_errors_in_a_scalar_loop_are_the_interpreters() -> None:
    text = SCALAR_SEMANTICS.replace("%prev = memref.load %out[%i]", "%j = arith.addi %i, %c1 : index\n    %prev = memref.load %out[%j]")
    result = run(text)
    assert result.exit_code == 1
    assert (
        "error: 'memref.load' op index 64 is out of bounds for dimension 0 of size 64 (memref of the buffer allocated by 'memref.alloc' at test.mlir:6:3)"
        in result.stderr
    )
