"""The first error of small invalid inputs is upstream's: same message, line and column as the oracle."""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.analysis import verify_chunk
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.parser.api import parse


def _in_func(body: str) -> str:
    return f"func.func @f(%m: memref<4x4xf32>, %i: index) {{\n{body}\n  return\n}}\n"


_LAUNCH_FUNC = """\
module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @k() kernel {{
      gpu.return
    }}
  }}
  func.func @f(%c: index) {{
    gpu.launch_func @m::@k blocks in {dims}
    return
  }}
}}
"""

CASES = {
    "integer out of range for i1": _in_func("  %c = arith.constant 8 : i1"),
    "integer out of range in a dictionary": _in_func("  %c = arith.constant {a = -129 : i8} 8 : i32"),
    "minus zero": _in_func("  %c = arith.constant {a = -0 : i8} 8 : i32"),
    "index beyond 63 bits": _in_func("  %c = arith.constant 9223372036854775808 : index"),
    "negative unsigned": _in_func("  %c = arith.constant {a = -1 : ui8} 8 : i32"),
    "decimal integer for a float": _in_func("  %c = arith.constant 0 : f32"),
    "float for an index, error at the next token": _in_func("  %c = arith.constant 0.0 : index"),
    "float for an integer in a generic op": _in_func('  %c = "arith.constant"() <{value = 1.5 : i32}> : () -> i32'),
    "dense literal of the wrong shape": _in_func("  %c = arith.constant dense<[1, 2]> : tensor<3xi32>"),
    "dense literal with ragged rows": _in_func("  %c = arith.constant dense<[[1, 2], [3]]> : tensor<2x2xi32>"),
    "memref.global literal of the wrong shape": 'memref.global "private" constant @g : memref<4x5xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>\n',
    "type alias defined twice": "!t = memref<4xf32>\n!t = memref<4xf32>\n",
    "attribute alias defined twice": "#m = affine_map<(d0) -> (d0)>\n#m = affine_map<(d0) -> (d0)>\n",
    "duplicate dictionary key": "func.func @f() attributes {a = 1, b = 2,\n    a = 3} {\n  return\n}\n",
    "a word after a complete op": _in_func("  %t = gpu.wait async async"),
    "a word after a complete op in a nested region": _in_func(
        "  scf.execute_region {\n    %t = gpu.wait async async\n    scf.yield\n  }"
    ),
    "a type of the llvm dialect used as an op": _in_func("  %p = llvm.ptr : !llvm.ptr"),
    "a bare unknown op at the top": "attributes {llvm.emit_c_interface} {\n  return\n}\n",
    "an unknown generic arith op": _in_func('  "arith.foo"() : () -> ()'),
    "a dialect without types": "func.func @f(%t: !memref.async.token) {\n  return\n}\n",
    "leadDimension of the wrong kind": _in_func(
        '  %a = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 4 : i32} : memref<4x4xf32> -> !gpu.mma_matrix<4x4xf32, "AOp">'
    ),
    "alignment not a power of two": _in_func("  %a = memref.alloca() {alignment = 7} : memref<4xf32>"),
    "transfer_read with one index for two dimensions": _in_func(
        "  %p = arith.constant 0.0 : f32\n  %v = vector.transfer_read %m[%i], %p : memref<4x4xf32>, vector<4xf32>"
    ),
    "get_global of a function": "func.func @g() {\n  return\n}\n" + _in_func("  %g = memref.get_global @g : memref<4xf32>"),
    "subview with too few offsets": _in_func(
        "  %s = memref.subview %m[%i][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: ?>>"
    ),
    "gpu.launch with two thread ids": _in_func(
        "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %i, %gy = %i, %gz = %i)\n"
        "             threads(%tx, %ty) in (%sx = %i, %sy = %i, %sz = %i) {\n    gpu.terminator\n  }"
    ),
    "gpu.launch with two block sizes": _in_func(
        "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %i, %gy = %i, %gz = %i)\n"
        "             threads(%tx, %ty, %tz) in (%sx = %i, %sy = %i) {\n    gpu.terminator\n  }"
    ),
    "gpu.launch depending on a token without async": _in_func(
        "  %t = gpu.wait async\n  gpu.launch [%t] blocks(%bx, %by, %bz) in (%gx = %i, %gy = %i, %gz = %i)\n"
        "             threads(%tx, %ty, %tz) in (%sx = %i, %sy = %i, %sz = %i) {\n    gpu.terminator\n  }"
    ),
    "gpu.launch named, depending on a token without async": _in_func(
        "  %t = gpu.wait async\n  %l = gpu.launch [%t] blocks(%bx, %by, %bz) in (%gx = %i, %gy = %i, %gz = %i)\n"
        "             threads(%tx, %ty, %tz) in (%sx = %i, %sy = %i, %sz = %i) {\n    gpu.terminator\n  }"
    ),
    "gpu.launch named without async": _in_func(
        "  %l = gpu.launch blocks(%bx, %by, %bz) in (%gx = %i, %gy = %i, %gz = %i)\n"
        "             threads(%tx, %ty, %tz) in (%sx = %i, %sy = %i, %sz = %i) {\n    gpu.terminator\n  }"
    ),
    "a bracket left open in gpu.launch's grid sizes": _in_func(
        "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %i, %gy = %i, %gz = %i\n"
        "             threads(%tx, %ty, %tz) in (%sx = %i, %sy = %i, %sz = %i) {\n    gpu.terminator\n  }"
    ),
    "a function's arguments named, then not": "llvm.func @f(%a: i64,\n  llvm.return\n}\n",
    "a function's arguments not named, then named": "func.func private @f(i64, %a: i64)\n",
    "a constant of a symbol reference": _in_func("  %c = arith.constant @k"),
    "a dense constant without its type": _in_func("  %c = arith.constant dense<1>"),
    "a spirv constant of a symbol reference, no type after it": _in_func("  %c = spirv.Constant @k"),
    "a function's result types written twice": "func.func @g(%a: f32)\n    -> (f32) {\n    -> (f32) {\n  return %a : f32\n}\n",
    "llvm.call with fewer operands than types": (
        "llvm.func @h(f32, f32) -> f32\nllvm.func @k(%a: f32) {\n  %0 = llvm.call @h(%a) : (f32, f32) -> f32\n  llvm.return\n}\n"
    ),
    "an indirect llvm.call with fewer operands than types": (
        "llvm.func @k(%a: f32, %f: !llvm.ptr) {\n  %0 = llvm.call %f(%a) : !llvm.ptr, (f32, f32) -> f32\n  llvm.return\n}\n"
    ),
    "llvm.getelementptr with fewer types than operands": (
        "llvm.func @k(%p: !llvm.ptr, %i: i64) {\n  %0 = llvm.getelementptr %p[%i] : (!llvm.ptr) -> !llvm.ptr, f32\n  llvm.return\n}\n"
    ),
    "llvm.call without its operand list": "llvm.func @h()\nllvm.func @k() {\n  llvm.call @h {\n  llvm.return\n}\n",
    "a result list with a type": _in_func("  %x: index = arith.constant 1 : index"),
    "a result list with a type after an op": _in_func("  %c = arith.constant 2 : index\n  %x: index = arith.constant 1 : index"),
    "a result list without =": _in_func("  %x, %y arith.constant 1 : index"),
    "a result list with a word for a name": _in_func("  %x, index = arith.constant 1 : index"),
    "a value alone, a comment after it": _in_func("  %x\n  // the op is missing"),
    "a result count of zero": _in_func("  %x:0 = arith.constant 1 : index"),
    "more successor operands than types": _in_func("  cf.br ^bb1(%i, %i : index)\n^bb1(%x: index, %y: index):"),
    "fewer results returned than types": "func.func @f(%a: i32) -> (i32, i32) {\n  return %a : i32, i32\n}\n",
    "operands directive with fewer types": _in_func(
        "  %v = arith.constant dense<1.0> : vector<2xf32>\n  %s = vector.shuffle %v, %v, %v [0] : vector<2xf32>, vector<2xf32>"
    ),
    "a variadic group with fewer types": _in_func("  %0:2 = memref.distinct_objects %m, %m : memref<4x4xf32>"),
    "an unknown op in a module body read as a region": "module { foo }\n",
    "an undotted op in an scf.for of a function (no inherited default dialect)": _in_func(
        "  scf.for %j = %i to %i step %i {\n    return\n  }"
    ),
    "gpu.launch_func with four grid sizes": _LAUNCH_FUNC.format(dims="(%c, %c, %c, %c) threads in (%c, %c, %c)"),
    "gpu.launch_func with two block sizes, `)` on the next line": _LAUNCH_FUNC.format(
        dims="(%c, %c, %c) threads in (%c, %c\n      )"
    ),
    "llvm.icmp with an unknown predicate": _in_func('  %b = llvm.icmp "foo" %i, %i : index'),
    "gpu.launch_func args without a comma": _LAUNCH_FUNC.format(dims="(%c, %c, %c) threads in (%c, %c, %c) args(%c : index %c : index)"),
    "warp_execute_on_lane_0 args without a comma": _in_func(
        "  gpu.warp_execute_on_lane_0(%i)[32] args(%i : index %i : index) {\n  ^bb0(%x: index, %y: index):\n  }"
    ),
    "an oilist clause written twice": _in_func("  amdgpu.memory_counter_wait load(1) ds(0) load(2)"),
    "two sizes in an MNK dimension list": _in_func(
        "  %v = arith.constant dense<0.0> : vector<4xf32>\n  %0 = amdgpu.mfma 16x16 %v * %v + %v blgp = none : vector<4xf32>, vector<4xf32>, vector<4xf32>"
    ),
    "an unknown case of an enum with a summary": _in_func("  %c = arith.constant 0 : i32\n  %0 = amdgpu.dpp %c %c row_swap : i32"),
    "a number for an enum with a summary": _in_func("  %c = arith.constant 0 : i32\n  %0 = amdgpu.dpp %c %c 5 : i32"),
    "an unknown flag of sched_barrier": _in_func("  amdgpu.sched_barrier allow = <valu|vmem>"),
    "more than the format holds between braces": _in_func(
        "  %v = arith.constant dense<1.0> : vector<4xf32>\n  %0 = nvgpu.rcp %v {rounding = approx, ftz, x} : vector<4xf32>"
    ),
    "a stripped dialect type left open": _in_func(
        "  %b = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>"
    ),
    # What follows a complete op is read as the next op, once the op's result count is checked.
    "an op without results named, then a stray token": _in_func("  %x = gpu.barrier 16"),
    "a stray value after a complete op": _in_func("  %c = arith.constant 1 : index %d"),
    "a stray value and a colon after a complete op": _in_func("  %c = arith.constant 1 : index %d : index"),
    "a stray value list after a complete op": _in_func("  %c = arith.constant 1 : index %d, 4"),
    "a stray symbol after a complete op": _in_func("  gpu.barrier @k"),
    "a stray value then `=` and no op name": _in_func("  %c = arith.constant 1 : index\n  %d = %c"),
    "a stray integer on the next line": _in_func("  %c = arith.constant 1 : index\n  5"),
    "a stray value alone on its line": _in_func("  %c = arith.constant 1 : index\n  %d\n"),
    "a stray value, its colon and a type on three lines": _in_func("  %c = arith.constant 1 : index\n  %d :\n  index"),
    "two results named, then a second stray result list": _in_func("  %x, %y = arith.constant 1 : index %z, %w = 3"),
    # Where an argument is defined, upstream's parser reads an operand.
    "a number for an induction variable": _in_func("  scf.for 100 = %i to %i step %i {\n  }"),
    "a number for an affine induction variable": _in_func("  affine.for 5 = 0 to 10 {\n  }"),
    "a number for a block id of gpu.launch": _in_func(
        "  gpu.launch blocks(%bx, 5, %bz) in (%gx = %i, %gy = %i, %gz = %i)\n"
        "             threads(%tx, %ty, %tz) in (%sx = %i, %sy = %i, %sz = %i) {\n    gpu.terminator\n  }"
    ),
    "a number for a workgroup attribution": "gpu.module @m {\n  gpu.func @k() workgroup(5 : memref<4xf32, 3>) {\n    gpu.return\n  }\n}\n",
    "a number for a block argument": _in_func("  cf.br ^bb1(%i : index)\n^bb1(5: index):"),
    # An enum case: a word upstream does not know, or no word at all.
    "a value for a dimension": _in_func("  %v = gpu.thread_id %i"),
    "a number for a dimension": _in_func("  %v = gpu.thread_id 5"),
    "no dimension, the next op's first word read instead": _in_func("  %v = gpu.thread_id"),
    # A function's inherent attributes, written where upstream does not take them.
    "a generic func.func whose function_type is no function type": (
        '"func.func"() <{function_type = f32, sym_name = "g"}> ({\n  "func.return"() : () -> ()\n}) : () -> ()\n'
    ),
    "a generic func.func without a function_type": '"func.func"() <{sym_name = "g"}> ({\n  "func.return"() : () -> ()\n}) : () -> ()\n',
    "function_type in a func.func's attribute dictionary": "func.func @g(%a: f32) attributes {function_type = f32} {\n  return\n}\n",
    "sym_name in a declaration's attribute dictionary": 'func.func private @g(%a: f32) attributes {sym_name = "h"}\n',
    "function_type in an llvm.func's attribute dictionary": "llvm.func @g(%a: f32) attributes {function_type = f32} {\n  llvm.return\n}\n",
    "function_type in a gpu.func's attribute dictionary": (
        "gpu.module @m {\n  gpu.func @g(%a: f32) attributes {function_type = f32} {\n    gpu.return\n  }\n}\n"
    ),
    # An undefined alias is reported just after it.
    "an undefined attribute alias": _in_func("  %x = arith.constant #zz"),
    "an undefined type alias": _in_func("  %x = arith.constant 0 : !zz"),
    "an undefined type alias in a signature": "func.func @g(%a: !zz) {\n  return\n}\n",
    "an undefined alias for a kernel": _LAUNCH_FUNC.format(dims="(%c, %c, %c) threads in (%c, %c, %c)").replace("@m::@k blocks", "#zz blocks"),
    "a kernel named by an alias, launched with an argument it does not take": "#k = @m::@k\n"
    + _LAUNCH_FUNC.format(dims="(%c, %c, %c) threads in (%c, %c, %c) args(%c : index)").replace("@m::@k blocks", "#k blocks"),
    # A name never defined is reported at the end of the chunk: a later function could define it.
    "a name never defined, then a syntax error in a later function": (
        "func.func @a() {\n  %x = arith.addi %nowhere, %nowhere : index\n  return\n}\n"
        "func.func @b() {\n  %c = arith.constant 1 : index 5\n  return\n}\n"
    ),
}


def _first_error(text: str) -> tuple[int, int, str] | None:
    chunk = parse(text).chunks[0]
    for d in verify_chunk(chunk, text=text):
        if d.severity == Severity.ERROR:
            return text.count("\n", 0, d.range.start) + 1, d.range.start - text.rfind("\n", 0, d.range.start), d.message
    return None


@pytest.mark.parametrize("name", list(CASES))
def test_first_error_is_upstreams(name: str) -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir (the oracle's MLIR) is not installed")
    text = CASES[name]
    theirs = [(line, col, message) for line, col, severity, message in oracle.verify(text) if severity == "error"]
    assert theirs, "the oracle accepts this input"
    assert _first_error(text) == theirs[0]


# Inputs upstream accepts that are written an unusual way.
ACCEPTED = {
    "a kernel named by an alias of its symbol": "#k = @m::@k\n"
    + _LAUNCH_FUNC.format(dims="(%c, %c, %c) threads in (%c, %c, %c)").replace("@m::@k blocks", "#k blocks"),
    "memory space 0 is the default one": "func.func @f(%a: memref<4xf32, 0>) -> memref<4xf32> {\n  return %a : memref<4xf32>\n}\n",
    "an identity layout is the default one": (
        "func.func @f(%a: memref<4x8xf32, affine_map<(i, j) -> (i, j)>>) -> memref<4x8xf32> {\n  return %a : memref<4x8xf32>\n}\n"
    ),
    "a strided layout's offset 0 is its default": (
        "func.func @f(%a: memref<4xf32, strided<[1], offset: 0>>) -> memref<4xf32, strided<[1]>> {\n"
        "  return %a : memref<4xf32, strided<[1]>>\n}\n"
    ),
    "layouts spelled without blanks are the same": (
        "func.func @f(%a: memref<4xf32, affine_map<(d0)->(d0)>>, %b: memref<4xf32, strided<[1],offset:0>>)\n"
        "    -> (memref<4xf32>, memref<4xf32, strided<[1]>>) {\n  return %a, %b : memref<4xf32>, memref<4xf32, strided<[1]>>\n}\n"
    ),
    "a typed integer memory space, 0 the default one": (
        "func.func @f(%a: memref<4xi32, 0 : i32>, %b: memref<4xi32, 1 : i32>) -> memref<4xi32> {\n  return %a : memref<4xi32>\n}\n"
    ),
    "gpu.kernel after the kernel keyword": "gpu.module @m {\n  gpu.func @g() kernel attributes {gpu.kernel} {\n    gpu.return\n  }\n}\n",
}


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_what_upstream_accepts_has_no_error(name: str) -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir (the oracle's MLIR) is not installed")
    text = ACCEPTED[name]
    assert [d for d in oracle.verify(text) if d[2] == "error"] == [], "the oracle rejects this input"
    assert _first_error(text) is None
