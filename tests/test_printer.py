"""The printer: custom forms of the gpu dialect and friends, SSA names, generic form, source fallback.

Every expected text below was produced by upstream MLIR (`mlir-opt`'s printer,
through ../shared/tools/oracle.py); `test_cases_match_upstream` re-checks that
wherever the oracle is installed. Note the double and trailing spaces that
upstream's printers write (`gpu.launch_func  @k`, `gpu.wait `).
"""

from __future__ import annotations

import pytest
from support import oracle

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import FloatAttr, IntegerAttr, StringAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.floats import float_text
from gpu_lsp.ir.printer import escape_string, sanitize
from gpu_lsp.ir.printers import print_module, print_op
from gpu_lsp.parser.api import parse

CASES: dict[str, tuple[str, str]] = {
    "affine set comparisons": (
        r"""
#set = affine_set<(d0, d1)[s0] : (d0 - 1 == 0, s0 >= 0,  d1 - s0 >= 0 )>
func.func @f(%i: index, %j: index, %n: index) {
  affine.if #set(%i, %j)[%n] {
  }
  return
}
""",
        r"""
#set = affine_set<(d0, d1)[s0] : (d0 - 1 == 0, s0 >= 0, d1 - s0 >= 0)>
module {
  func.func @f(%arg0: index, %arg1: index, %arg2: index) {
    affine.if #set(%arg0, %arg1)[%arg2] {
    }
    return
  }
}
""",
    ),
    "symbol names": (
        r"""
func.func @"my-kernel"() {
  return
}
func.func @".x"() {
  call @"my-kernel"() : () -> ()
  return
}
""",
        r"""
module {
  func.func @"my-kernel"() {
    return
  }
  func.func @".x"() {
    call @"my-kernel"() : () -> ()
    return
  }
}
""",
    ),
    "arith": (
        r"""
func.func @consts(%a: i32, %x: f32) -> i1 {
  %c0 = arith.constant 0 : index
  %c0b = arith.constant 0 : index
  %c1 = arith.constant 1 : i32
  %m1 = arith.constant 255 : i8
  %t = arith.constant true
  %f = arith.constant false
  %h = arith.constant 0.5 : f16
  %pi = arith.constant 3.14159265 : f64
  %big = arith.constant 123456789.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %d = arith.constant dense<[1.0, 1.0, 1.0, 1.0]> : vector<4xf32>
  %d2 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %s = arith.addi %a, %c1 overflow<nsw> : i32
  %p = arith.mulf %x, %x fastmath<fast> : f32
  %q = arith.mulf %x, %x fastmath<none> : f32
  %cmp = arith.cmpi sge, %a, %c1 : i32
  %fc = arith.cmpf olt, %x, %x : f32
  %sel = arith.select %cmp, %a, %c1 : i32
  %idx = arith.index_cast %a : i32 to index
  %e = arith.extf %x : f32 to f64
  "test.op"() {z = 1 : i64, a = [1, 2.5, "s\n\"q\""], m = {b = 2 : i32, a = unit}, u} : () -> ()
  return %cmp : i1
}
""",
        r"""
module {
  func.func @consts(%arg0: i32, %arg1: f32) -> i1 {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %c-1_i8 = arith.constant -1 : i8
    %true = arith.constant true
    %false = arith.constant false
    %cst = arith.constant 5.000000e-01 : f16
    %cst_1 = arith.constant 3.1415926500000002 : f64
    %cst_2 = arith.constant 0x4CEB79A3 : f32
    %cst_3 = arith.constant 0x7FC00000 : f32
    %cst_4 = arith.constant dense<1.000000e+00> : vector<4xf32>
    %cst_5 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %0 = arith.addi %arg0, %c1_i32 overflow<nsw> : i32
    %1 = arith.mulf %arg1, %arg1 fastmath<fast> : f32
    %2 = arith.mulf %arg1, %arg1 : f32
    %3 = arith.cmpi sge, %arg0, %c1_i32 : i32
    %4 = arith.cmpf olt, %arg1, %arg1 : f32
    %5 = arith.select %3, %arg0, %c1_i32 : i32
    %6 = arith.index_cast %arg0 : i32 to index
    %7 = arith.extf %arg1 : f32 to f64
    "test.op"() {a = [1, 2.500000e+00, "s\0A\22q\22"], m = {a, b = 2 : i32}, u, z = 1 : i64} : () -> ()
    return %3 : i1
  }
}
""",
    ),
    "cfg": (
        r"""
func.func private @decl(i32 {llvm.noundef}, f32) -> (f32 {llvm.x})
func.func @cfg(%c: i1, %a: i32, %n: index, %m: memref<?xf32>) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  cf.br ^bb3(%x : i32)
^bb2:
  cf.br ^bb3(%a : i32)
^bb3(%y: i32):
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y) -> (i32) {
    %s = arith.addi %acc, %acc : i32
    scf.yield %s : i32
  }
  scf.if %c {
    %alloc = memref.alloc(%n) : memref<?xf32>
    memref.dealloc %alloc : memref<?xf32>
  } else {
    %dim = memref.dim %m, %c0 : memref<?xf32>
  }
  return %r : i32
^bb4:
  return %a : i32
}
""",
        r"""
module {
  func.func private @decl(i32 {llvm.noundef}, f32) -> (f32 {llvm.x})
  func.func @cfg(%arg0: i1, %arg1: i32, %arg2: index, %arg3: memref<?xf32>) -> i32 {
    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2
  ^bb1(%0: i32):  // pred: ^bb0
    cf.br ^bb3(%0 : i32)
  ^bb2:  // pred: ^bb0
    cf.br ^bb3(%arg1 : i32)
  ^bb3(%1: i32):  // 2 preds: ^bb1, ^bb2
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg4 = %c0 to %arg2 step %c1 {
      %3 = memref.load %arg3[%arg4] : memref<?xf32>
      memref.store %3, %arg3[%arg4] : memref<?xf32>
    }
    %2 = scf.for %arg4 = %c0 to %arg2 step %c1 iter_args(%arg5 = %1) -> (i32) {
      %3 = arith.addi %arg5, %arg5 : i32
      scf.yield %3 : i32
    }
    scf.if %arg0 {
      %alloc = memref.alloc(%arg2) : memref<?xf32>
      memref.dealloc %alloc : memref<?xf32>
    } else {
      %dim = memref.dim %arg3, %c0 : memref<?xf32>
    }
    return %2 : i32
  ^bb4:  // no predecessors
    return %arg1 : i32
  }
}
""",
    ),
    "device": (
        r"""
gpu.module @device {
  gpu.func @collectives(%f: f32, %i: i32, %v: vector<4xf32>, %n: index) kernel {
    %r0 = gpu.all_reduce add %f uniform {} : (f32) -> (f32)
    %r1 = gpu.all_reduce %f {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      gpu.yield %s : f32
    } : (f32) -> (f32)
    %r2 = gpu.subgroup_reduce maxnumf %f cluster(size = 8) : (f32) -> f32
    %r3 = gpu.subgroup_reduce add %v uniform cluster(size = 4, stride = 2) : (vector<4xf32>) -> vector<4xf32>
    %sh, %ok = gpu.shuffle xor %f, %i, %i : f32
    %sh2, %ok2 = gpu.shuffle idx %f, %i, %i : f32
    %ro, %rv = gpu.rotate %f, 1, 16 : f32
    %b0 = gpu.subgroup_broadcast %f, first_active_lane : f32
    %b1 = gpu.subgroup_broadcast %f, specific_lane %i : f32
    gpu.barrier
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    gpu.printf "value %f\n", %f : f32
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %sg = gpu.subgroup_id : index
    %ns = gpu.num_subgroups : index
    %ss = gpu.subgroup_size upper_bound 64 : index
    %gid = gpu.global_id z upper_bound 1024
    %w = gpu.warp_execute_on_lane_0(%n)[32] args(%v : vector<4xf32>) -> (vector<1xf32>) {
    ^bb0(%arg: vector<128xf32>):
      %e = vector.extract_strided_slice %arg {offsets = [0], sizes = [1], strides = [1]} : vector<128xf32> to vector<1xf32>
      gpu.yield %e : vector<1xf32>
    }
    gpu.return
  }
}
""",
        r"""
module {
  gpu.module @device {
    gpu.func @collectives(%arg0: f32, %arg1: i32, %arg2: vector<4xf32>, %arg3: index) kernel {
      %0 = gpu.all_reduce add %arg0 uniform {
      } : (f32) -> f32
      %1 = gpu.all_reduce  %arg0 {
      ^bb0(%arg4: f32, %arg5: f32):
        %11 = arith.addf %arg4, %arg5 : f32
        gpu.yield %11 : f32
      } : (f32) -> f32
      %2 = gpu.subgroup_reduce maxnumf %arg0 cluster(size = 8) : (f32) -> f32
      %3 = gpu.subgroup_reduce add %arg2 uniform cluster(size = 4, stride = 2) : (vector<4xf32>) -> vector<4xf32>
      %shuffleResult, %valid = gpu.shuffle xor %arg0, %arg1, %arg1 : f32
      %shuffleResult_0, %valid_1 = gpu.shuffle idx %arg0, %arg1, %arg1 : f32
      %rotateResult, %valid_2 = gpu.rotate %arg0, 1, 16 : f32
      %4 = gpu.subgroup_broadcast %arg0, first_active_lane : f32
      %5 = gpu.subgroup_broadcast %arg0, specific_lane %arg1 : f32
      gpu.barrier
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      gpu.printf "value %f\0A", %arg0 : f32
      %6 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %7 = gpu.subgroup_id : index
      %8 = gpu.num_subgroups : index
      %9 = gpu.subgroup_size upper_bound 64 : index
      %global_id_z = gpu.global_id z upper_bound 1024
      %10 = gpu.warp_execute_on_lane_0(%arg3)[32] args(%arg2 : vector<4xf32>) -> (vector<1xf32>) {
      ^bb0(%arg4: vector<128xf32>):
        %11 = vector.extract_strided_slice %arg4 {offsets = [0], sizes = [1], strides = [1]} : vector<128xf32> to vector<1xf32>
        gpu.yield %11 : vector<1xf32>
      }
      gpu.return
    }
  }
}
""",
    ),
    "host": (
        r"""
func.func @host(%n: index, %h: memref<?xf32>, %f: f32) {
  %t0 = gpu.wait async
  gpu.wait
  %t1 = gpu.wait async [%t0]
  %m, %t2 = gpu.alloc async [%t1] (%n) : memref<?xf32>
  %m2 = gpu.alloc host_shared (%n) : memref<?xf32>
  %t3 = gpu.memcpy async [%t2] %m, %h : memref<?xf32>, memref<?xf32>
  gpu.memcpy %m2, %h : memref<?xf32>, memref<?xf32>
  %t4 = gpu.memset async [%t3] %m, %f : memref<?xf32>, f32
  gpu.memset %m2, %f : memref<?xf32>, f32
  %t5 = gpu.dealloc async [%t4] %m : memref<?xf32>
  gpu.dealloc %m2 : memref<?xf32>
  gpu.wait [%t5]
  return
}
""",
        r"""
module {
  func.func @host(%arg0: index, %arg1: memref<?xf32>, %arg2: f32) {
    %0 = gpu.wait async
    gpu.wait 
    %1 = gpu.wait async [%0]
    %memref, %asyncToken = gpu.alloc async [%1] (%arg0) : memref<?xf32>
    %memref_0 = gpu.alloc  host_shared (%arg0) : memref<?xf32>
    %2 = gpu.memcpy async [%asyncToken] %memref, %arg1 : memref<?xf32>, memref<?xf32>
    gpu.memcpy  %memref_0, %arg1 : memref<?xf32>, memref<?xf32>
    %3 = gpu.memset async [%2] %memref, %arg2 : memref<?xf32>, f32
    gpu.memset  %memref_0, %arg2 : memref<?xf32>, f32
    %4 = gpu.dealloc async [%3] %memref : memref<?xf32>
    gpu.dealloc  %memref_0 : memref<?xf32>
    gpu.wait [%4]
    return
  }
}
""",
    ),
    "launch": (
        r"""
func.func @launch(%sz: index, %dsm: i32, %t0: !gpu.async.token) {
  %t = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz)
      threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sz2 = %sz)
      dynamic_shared_memory_size %dsm
      workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>)
      private(%p : memref<1xf32, #gpu.address_space<private>>) {
    %tid = gpu.thread_id x
    %tid2 = gpu.thread_id x
    %bid = gpu.block_id y
    %lane = gpu.lane_id
    gpu.terminator
  } {attr = "x"}
  gpu.launch clusters(%cx, %cy, %cz) in (%ccx = %sz, %ccy = %sz, %ccz = %sz)
      blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz)
      threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sz2 = %sz) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz)
      threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sz2 = %sz)
      module(@m) function(@k) {
    gpu.terminator
  }
  return
}
""",
        r"""
module {
  func.func @launch(%arg0: index, %arg1: i32, %arg2: !gpu.async.token) {
    %0 = gpu.launch async [%arg2] blocks(%arg3, %arg4, %arg5) in (%arg9 = %arg0, %arg10 = %arg0, %arg11 = %arg0) threads(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0) dynamic_shared_memory_size %arg1 workgroup(%arg15 : memref<32xf32, #gpu.address_space<workgroup>>) private(%arg16 : memref<1xf32, #gpu.address_space<private>>) {
      %thread_id_x = gpu.thread_id x
      %thread_id_x_0 = gpu.thread_id x
      %block_id_y = gpu.block_id y
      %1 = gpu.lane_id
      gpu.terminator
    } {attr = "x"}
    gpu.launch clusters(%arg15, %arg16, %arg17) in (%arg18 = %arg0, %arg19 = %arg0, %arg20 = %arg0) blocks(%arg3, %arg4, %arg5) in (%arg9 = %arg0, %arg10 = %arg0, %arg11 = %arg0) threads(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0) {
      gpu.terminator
    }
    gpu.launch blocks(%arg3, %arg4, %arg5) in (%arg9 = %arg0, %arg10 = %arg0, %arg11 = %arg0) threads(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0) module(@m) function(@k) {
      gpu.terminator
    }
    return
  }
}
""",  # noqa: E501 (upstream prints each op on one line; the expected text is verbatim)
    ),
    "launch_func": (
        r"""
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%f: f32, %m: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
    gpu.func @attributions(%f: f32) workgroup(%w : memref<32xf32, 3>) private(%p : memref<4xf32, 5>) {
      gpu.return
    }
    gpu.func @k2() kernel {
      gpu.return
    }
    gpu.func @dev(%f: f32) -> f32 {
      gpu.return %f : f32
    }
  }
  gpu.module @handled <#gpu.select_object<0 : i64>> {
  }
  func.func @host(%n: index, %i: i32, %f: f32, %m: memref<?xf32>, %stream: !llvm.ptr, %t0: !gpu.async.token) {
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%f : f32, %m : memref<?xf32>)
    gpu.launch_func @kernels::@k2 blocks in (%n, %n, %n) threads in (%n, %n, %n)
    %t = gpu.launch_func async [%t0] @kernels::@k clusters in (%n, %n, %n) blocks in (%n, %n, %n) threads in (%n, %n, %n)
        dynamic_shared_memory_size %i args(%f : f32, %m : memref<?xf32>)
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@k blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32 args(%f : f32, %m : memref<?xf32>)
    return
  }
}
""",
        r"""
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%arg0: f32, %arg1: memref<?xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
    gpu.func @attributions(%arg0: f32) workgroup(%arg1 : memref<32xf32, 3>) private(%arg2 : memref<4xf32, 5>) {
      gpu.return
    }
    gpu.func @k2() kernel {
      gpu.return
    }
    gpu.func @dev(%arg0: f32) -> f32 {
      gpu.return %arg0 : f32
    }
  }
  gpu.module @handled<#gpu.select_object<0 : i64>> {
  }
  func.func @host(%arg0: index, %arg1: i32, %arg2: f32, %arg3: memref<?xf32>, %arg4: !llvm.ptr, %arg5: !gpu.async.token) {
    gpu.launch_func  @kernels::@k blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)  args(%arg2 : f32, %arg3 : memref<?xf32>)
    gpu.launch_func  @kernels::@k2 blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)  
    %0 = gpu.launch_func async [%arg5] @kernels::@k clusters in (%arg0, %arg0, %arg0) blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)  dynamic_shared_memory_size %arg1 args(%arg2 : f32, %arg3 : memref<?xf32>)
    gpu.launch_func <%arg4 : !llvm.ptr> @kernels::@k blocks in (%arg1, %arg1, %arg1) threads in (%arg1, %arg1, %arg1) : i32 args(%arg2 : f32, %arg3 : memref<?xf32>)
    return
  }
}
""",  # noqa: E501 (upstream prints each op on one line; the expected text is verbatim)
    ),
}


def _printed(text: str, generic: bool = False) -> str:
    parsed = parse(text)
    chunk = parsed.chunks[0]
    assert not [d for d in chunk.diagnostics if d.severity >= 4], chunk.diagnostics
    return print_module(chunk.module, generic=generic, source=text)


@pytest.mark.parametrize("name", sorted(CASES))
def test_custom_forms(name: str) -> None:
    source, expected = CASES[name]
    assert _printed(source[1:]) == expected[1:]


@pytest.mark.parametrize("name", sorted(CASES))
def test_cases_match_upstream(name: str) -> None:
    """The expected texts are what upstream MLIR prints for the same input."""
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    source, expected = CASES[name]
    printed, diags = oracle.run_pass(source[1:], "builtin.module()", allow_unregistered=True)
    assert diags == []
    assert printed == expected[1:]


def test_printed_text_parses_back_to_the_same_text() -> None:
    for _source, expected in CASES.values():
        again = _printed(expected[1:])
        assert again == expected[1:]


GENERIC_SOURCE = """\
func.func @f(%n: index) {
  %t = gpu.wait async
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %c = arith.constant 1 : index
    gpu.terminator
  }
  %c0 = arith.constant 0 : index
  return
}
"""

GENERIC = """\
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "f"}> ({
  ^bb0(%arg0: index):
    %0 = "gpu.wait"() : () -> !gpu.async.token
    "gpu.launch"(%arg0, %arg0, %arg0, %arg0, %arg0, %arg0) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: index):
      %2 = "arith.constant"() <{value = 1 : index}> : () -> index
      "gpu.terminator"() : () -> ()
    }) : (index, index, index, index, index, index) -> ()
    %1 = "arith.constant"() <{value = 0 : index}> : () -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
"""  # noqa: E501 (upstream prints each op on one line; the expected text is verbatim)


def test_generic_form_numbers_values_uniquely() -> None:
    assert _printed(GENERIC_SOURCE, generic=True) == GENERIC


def test_generic_form_matches_upstream() -> None:
    if not oracle.available():
        pytest.skip("numba-cuda-mlir is not installed")
    result, diags = oracle._run(GENERIC_SOURCE, None, False)
    assert diags == []
    assert result.module.operation.get_asm(print_generic_op_form=True) == GENERIC


def test_print_op_names_values_from_the_top() -> None:
    text = CASES["host"][0][1:]
    module = parse(text).chunks[0].module
    func = module.regions[0].blocks[0].operations[0]
    memcpy = func.regions[0].blocks[0].operations[5]
    assert memcpy.name == "gpu.memcpy"
    assert print_op(memcpy) == "%2 = gpu.memcpy async [%asyncToken] %memref, %arg1 : memref<?xf32>, memref<?xf32>"


def test_print_op_in_local_scope_names_values_from_its_function() -> None:
    # MLIR's `useLocalScope` (its diagnostics print ops so): numbered from the closest op isolated from
    # above; from the top, the generic form's unique numbering gives the later function %arg0 first.
    text = "func.func @f(%a: index) {\n  %0 = arith.addi %a, %a : index\n  return\n}\nfunc.func @g(%b: index) {\n  return\n}\n"
    module = parse(text).chunks[0].module
    addi = module.regions[0].blocks[0].operations[0].regions[0].blocks[0].operations[0]
    local = '%0 = "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index'
    assert print_op(addi, generic=True, local_scope=True) == local
    assert print_op(addi, generic=True) == local.replace("%arg0", "%arg1")


def test_opaque_ops_print_their_source_with_new_names() -> None:
    text = """\
func.func @f(%a: i32) {
  %x, %y = foo.bar %a   {k = 1} : i32 -> (i32, i32)
  foo.baz(%x) ^bb1
^bb1:
  return
}
"""
    printed = _printed(text)
    assert printed == """\
module {
  func.func @f(%arg0: i32) {
    %0:2 = foo.bar %arg0   {k = 1} : i32 -> (i32, i32)
    foo.baz(%0#0) ^bb1
  ^bb1:  // pred: ^bb0
    return
  }
}
"""
    assert _printed(printed) == printed


def test_opaque_op_regions_are_printed_by_us() -> None:
    text = """\
func.func @f(%n: index) {
  foo.loop %i in %n {
    %c = arith.constant 2 : index
    "foo.use"(%i, %c) : (index, index) -> ()
  }
  return
}
"""
    assert _printed(text) == """\
module {
  func.func @f(%arg0: index) {
    foo.loop %arg1 in %arg0 {
      %c2 = arith.constant 2 : index
      "foo.use"(%arg1, %c2) : (index, index) -> ()
    }
    return
  }
}
"""


def test_ops_built_without_source_print_in_generic_form() -> None:
    module = Operation("builtin.module")
    block = module.add_region().add_block()
    op = Operation("test.op")
    op.properties["value"] = IntegerAttr(7, T.I32)
    op.attributes["name"] = StringAttr("x")
    op.add_result(T.F32)
    block.append(op)
    use = Operation("arith.addf")
    use.add_operand(op.results[0])
    use.add_operand(op.results[0])
    use.add_result(T.F32)
    block.append(use)
    assert print_module(module) == (
        "module {\n"
        '  %0 = "test.op"() <{value = 7 : i32}> {name = "x"} : () -> f32\n'
        "  %1 = arith.addf %0, %0 : f32\n"
        "}\n"
    )


def test_affine_maps_get_aliases() -> None:
    text = """\
func.func @f(%m: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>) {
  return
}
"""
    assert _printed(text) == """\
#map = affine_map<(d0, d1) -> (d1, d0)>
module {
  func.func @f(%arg0: memref<4x4xf32, #map>) {
    return
  }
}
"""


@pytest.mark.parametrize(
    "value, type_name, spelling, expected",
    [
        (0.1, "f64", None, "1.000000e-01"),
        (3.14159265, "f64", None, "3.1415926500000002"),
        (1.23456789e-10, "f64", None, "1.2345678900000001E-10"),
        (123456789.0, "f32", None, "0x4CEB79A3"),
        (0.3, "f32", None, "3.000000e-01"),
        (1.2345678901e20, "f64", None, "1.2345678901E+20"),
        (1234567.5, "f64", None, "1234567.5"),
        (0.000123456789, "f64", None, "1.23456789E-4"),
        (0.1, "f16", None, "9.997550e-02"),
        (0.1, "bf16", None, "1.000980e-01"),
        (-0.0, "f32", None, "-0.000000e+00"),
        (0.0, "f32", "0x7FC00000", "0x7FC00000"),
        (0.0, "f64", "0x7ff8000000000000", "0x7FF8000000000000"),
        (1.0e-7, "f64", None, "9.9999999999999995E-8"),
        (123.456789, "f32", None, "123.456787"),
        (1.0e100, "f64", None, "1.000000e+100"),
        (float("inf"), "f32", None, "0x7F800000"),
    ],
)
def test_floats_print_like_apfloat(value: float, type_name: str, spelling: str | None, expected: str) -> None:
    assert float_text(value, T.FloatType(type_name), spelling) == expected


def test_float_attribute_in_an_array_elides_f64() -> None:
    from gpu_lsp.ir.attributes import ArrayAttr
    from gpu_lsp.ir.printer import Formatter

    fmt = Formatter()
    attr = ArrayAttr((FloatAttr(2.5, T.F64), FloatAttr(2.5, T.F32), IntegerAttr(1, T.I64), IntegerAttr(255, T.I8)))
    assert fmt.attr(attr) == "[2.500000e+00, 2.500000e+00 : f32, 1, -1 : i8]"


def test_string_escapes_and_name_sanitizing() -> None:
    assert escape_string('a"b\\c\n\té') == '"a\\22b\\\\c\\0A\\09\\C3\\A9"'
    assert sanitize("c-1_i8") == "c-1_i8"
    assert sanitize("1st") == "_1st"
    assert sanitize("a b") == "a_b"


def test_locations_are_not_printed() -> None:
    text = """\
func.func @f(%a: i32) {
  %x = foo.bar %a : i32 loc(fused["a.mlir":1:2, "b(":3:4])
  %y = arith.addi %x, %x : i32 loc("a.mlir":3:4)
  foo.baz(%y) {s = "loc(x)"}
  return
}
"""
    assert _printed(text) == """\
module {
  func.func @f(%arg0: i32) {
    %0 = foo.bar %arg0 : i32
    %1 = arith.addi %0, %0 : i32
    foo.baz(%1) {s = "loc(x)"}
    return
  }
}
"""


def test_every_corpus_chunk_prints_even_with_errors() -> None:
    """Printing never raises, also for chunks with errors (partial IR) and without source text."""
    from support.corpus import corpus_files

    count = 0
    for path in corpus_files():
        text = path.read_text(encoding="utf-8")
        for chunk in parse(text, split=True).chunks:
            for generic in (False, True):
                for source in (text, None):
                    out = print_module(chunk.module, generic=generic, source=source)
                    assert out.endswith("\n")
            count += 1
    assert count > 100


def test_aliases_used_inside_types_survive_printing() -> None:
    """`!t` and `#s` used inside types: the printed module needs no alias definitions."""
    text = """\
!t = memref<4xf32>
#s = #gpu.address_space<workgroup>
func.func @f(%m: !t) -> !t {
  %a = memref.alloc() : memref<4xf32, #s>
  return %m : !t
}
"""
    parsed = parse(text)
    assert [d.message for d in parsed.diagnostics if d.severity == Severity.ERROR] == []
    printed = print_module(parsed.chunks[0].module, source=text)
    assert "memref<4xf32, #gpu.address_space<workgroup>>" in printed
    again = parse(printed)
    assert [d.message for d in again.diagnostics if d.severity == Severity.ERROR] == []
    if oracle.available():
        assert oracle.verify(printed) == []


ALIASED_SOURCE_OPS = """\
!t = memref<4xf32>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
#s = #gpu.address_space<workgroup>
func.func @f(%a: vector<4x8xf32>, %b: vector<8x4xf32>, %c: vector<4x4xf32>, %m: !t) -> vector<4x4xf32> {
  %r = vector.contract {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  %w = "foo.bar"(%m) {s = #s, str = "#lhs"} : (!t) -> f32
  return %r : vector<4x4xf32>
}
"""  # noqa: E501 (one op per line)

ALIASED_SOURCE_OPS_PRINTED = """\
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @f(%arg0: vector<4x8xf32>, %arg1: vector<8x4xf32>, %arg2: vector<4x4xf32>, %arg3: memref<4xf32>) -> vector<4x4xf32> {
    %0 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %arg0, %arg1, %arg2 : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
    %1 = "foo.bar"(%arg3) {s = #gpu.address_space<workgroup>, str = "#lhs"} : (memref<4xf32>) -> f32
    return %0 : vector<4x4xf32>
  }
}
"""  # noqa: E501 (upstream prints each op on one line)


def test_ops_printed_from_source_name_the_printers_aliases() -> None:
    """An op printed from its text (vector.contract, an unregistered op) names `#map`, not the source's `#lhs`."""
    parsed = parse(ALIASED_SOURCE_OPS)
    assert print_module(parsed.chunks[0].module, source=ALIASED_SOURCE_OPS) == ALIASED_SOURCE_OPS_PRINTED
    if oracle.available():
        printed, diags = oracle.run_pass(ALIASED_SOURCE_OPS, "builtin.module()", allow_unregistered=True)
        assert diags == []
        assert printed == ALIASED_SOURCE_OPS_PRINTED
