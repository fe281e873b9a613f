"""Kernel semantics on the NumPy backend: divergent control flow, collectives, memory spaces, ids."""

from __future__ import annotations

import numpy as np
from helpers import printed_memrefs, run, run_ok

HOST_TAIL = """
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
"""


def launch_and_print(kernel: str, rows: int, n: int, blocks: int = 1, elem: str = "i32", dsm: int | None = None, extra_args: str = "") -> str:
    """A program launching @k::@f with an output memref<rows x (blocks*n) x elem> and printing it."""
    total = blocks * n
    printer = "printMemrefI32" if elem == "i32" else "printMemrefF32"
    dsm_text = " dynamic_shared_memory_size %dsm" if dsm is not None else ""
    dsm_def = f"    %dsm = arith.constant {dsm} : i32\n" if dsm is not None else ""
    return f"""
module attributes {{gpu.container_module}} {{
  gpu.module @k {{
{kernel}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %cb = arith.constant {blocks} : index
    %cn = arith.constant {n} : index
{dsm_def}    %out = memref.alloc () : memref<{rows}x{total}x{elem}>
    %u = memref.cast %out : memref<{rows}x{total}x{elem}> to memref<*x{elem}>
    gpu.host_register %u : memref<*x{elem}>
    gpu.launch_func @k::@f blocks in (%cb, %c1, %c1) threads in (%cn, %c1, %c1){dsm_text} args(%out : memref<{rows}x{total}x{elem}>{extra_args})
    call @{printer}(%u) : (memref<*x{elem}>) -> ()
    return
  }}
{HOST_TAIL}
}}
"""


CONTROL_FLOW = """
    func.func @square_plus_one(%x: i32) -> i32 {
      %m = arith.muli %x, %x : i32
      %c1 = arith.constant 1 : i32
      %r = arith.addi %m, %c1 : i32
      return %r : i32
    }
    gpu.func @f(%out: memref<7x64xi32>) kernel {
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      %i2 = arith.constant 2 : i32
      %i3 = arith.constant 3 : i32
      %i100 = arith.constant 100 : i32
      // row 0: scf.if with results on a divergent condition
      %m3 = arith.remsi %t, %i3 : i32
      %isz = arith.cmpi eq, %m3, %i0 : i32
      %r0 = scf.if %isz -> (i32) {
        %d = arith.muli %t, %i2 : i32
        scf.yield %d : i32
      } else {
        %e = arith.addi %t, %i100 : i32
        scf.yield %e : i32
      }
      memref.store %r0, %out[%c0, %tid] : memref<7x64xi32>
      // row 1: scf.for with a per-thread trip count and an iter_arg
      %ub = arith.remui %tid, %c5 : index
      %ub1 = arith.addi %ub, %c1 : index
      %r1 = scf.for %k = %c0 to %ub1 step %c1 iter_args(%acc = %i0) -> (i32) {
        %ki = arith.index_cast %k : index to i32
        %p = arith.muli %ki, %t : i32
        %s = arith.addi %acc, %p : i32
        scf.yield %s : i32
      }
      memref.store %r1, %out[%c1, %tid] : memref<7x64xi32>
      // row 2: scf.while, Collatz steps of t + 1
      %start = arith.addi %t, %i1 : i32
      %r2:2 = scf.while (%x = %start, %n = %i0) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi ne, %x, %i1 : i32
        scf.condition(%more) %x, %n : i32, i32
      } do {
      ^bb0(%y: i32, %m: i32):
        %odd = arith.andi %y, %i1 : i32
        %isodd = arith.cmpi eq, %odd, %i1 : i32
        %nx = scf.if %isodd -> (i32) {
          %t3 = arith.muli %y, %i3 : i32
          %t31 = arith.addi %t3, %i1 : i32
          scf.yield %t31 : i32
        } else {
          %h = arith.divui %y, %i2 : i32
          scf.yield %h : i32
        }
        %m1 = arith.addi %m, %i1 : i32
        scf.yield %nx, %m1 : i32, i32
      }
      memref.store %r2#1, %out[%c2, %tid] : memref<7x64xi32>
      // row 3: an unstructured loop (cf) with block arguments: prod_{k < t % 6} (k + 2)
      %lim6 = arith.remui %tid, %c6 : index
      %r3 = scf.execute_region -> i32 {
        cf.br ^head(%c0, %i1 : index, i32)
      ^head(%k: index, %x: i32):
        %go = arith.cmpi ult, %k, %lim6 : index
        cf.cond_br %go, ^body, ^done(%x : i32)
      ^body:
        %ki = arith.index_cast %k : index to i32
        %k2 = arith.addi %ki, %i2 : i32
        %nx = arith.muli %x, %k2 : i32
        %k1 = arith.addi %k, %c1 : index
        cf.br ^head(%k1, %nx : index, i32)
      ^done(%res: i32):
        scf.yield %res : i32
      }
      memref.store %r3, %out[%c3, %tid] : memref<7x64xi32>
      // row 4: scf.index_switch
      %sel = arith.remui %tid, %c4 : index
      %r4 = scf.index_switch %sel -> i32
      case 0 {
        scf.yield %i100 : i32
      }
      case 2 {
        %n2 = arith.subi %i0, %t : i32
        scf.yield %n2 : i32
      }
      default {
        scf.yield %t : i32
      }
      memref.store %r4, %out[%c4, %tid] : memref<7x64xi32>
      // row 5: a call to a device function
      %r5 = func.call @square_plus_one(%t) : (i32) -> i32
      memref.store %r5, %out[%c5, %tid] : memref<7x64xi32>
      // row 6: cf.switch
      %flag = arith.remsi %t, %i3 : i32
      %r6 = scf.execute_region -> i32 {
        cf.switch %flag : i32, [
          default: ^other(%t : i32),
          1: ^one
        ]
      ^one:
        %neg = arith.subi %i0, %i1 : i32
        scf.yield %neg : i32
      ^other(%v: i32):
        %v7 = arith.muli %v, %i3 : i32
        scf.yield %v7 : i32
      }
      memref.store %r6, %out[%c6, %tid] : memref<7x64xi32>
      gpu.return
    }
"""


def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = 3 * n + 1 if n % 2 else n // 2
        steps += 1
    return steps


def test_divergent_control_flow() -> None:
    got = printed_memrefs(run_ok(launch_and_print(CONTROL_FLOW, 7, 64)).stdout)[0]
    t = np.arange(64)
    assert got[0].tolist() == [x * 2 if x % 3 == 0 else x + 100 for x in t]
    assert got[1].tolist() == [sum(k * x for k in range(x % 5 + 1)) for x in t]
    assert got[2].tolist() == [collatz(x + 1) for x in t]
    assert got[3].tolist() == [int(np.prod([k + 2 for k in range(x % 6)])) for x in t]
    assert got[4].tolist() == [100 if x % 4 == 0 else (-x if x % 4 == 2 else x) for x in t]
    assert got[5].tolist() == [x * x + 1 for x in t]
    assert got[6].tolist() == [-1 if x % 3 == 1 else 3 * x for x in t]


COLLECTIVES = """
    gpu.func @f(%out: memref<14x192xi32>) workgroup(%sh: memref<64xi32, #gpu.address_space<workgroup>>)
        private(%pv: memref<2xi32, #gpu.address_space<private>>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %gid = gpu.global_id x
      %t = arith.index_cast %tid : index to i32
      %g = arith.index_cast %gid : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i1 = arith.constant 1 : i32
      %i3 = arith.constant 3 : i32
      %i7 = arith.constant 7 : i32
      %i16 = arith.constant 16 : i32
      %i32 = arith.constant 32 : i32
      %i5 = arith.constant 5 : i32
      %v = arith.muli %g, %i7 : i32
      %vm = arith.remsi %v, %i16 : i32
      %sum = gpu.all_reduce add %vm uniform {} : (i32) -> (i32)
      %max = gpu.all_reduce maxsi %vm {} : (i32) -> (i32)
      %or = gpu.all_reduce or %vm {} : (i32) -> (i32)
      %custom = gpu.all_reduce %vm {
      ^bb0(%a: i32, %b: i32):
        %m = arith.minsi %a, %b : i32
        gpu.yield %m : i32
      } : (i32) -> (i32)
      %ssum = gpu.subgroup_reduce add %vm : (i32) -> i32
      %c4sum = gpu.subgroup_reduce add %vm cluster(size = 4) : (i32) -> i32
      %c4s2 = gpu.subgroup_reduce maxsi %vm cluster(size = 4, stride = 2) : (i32) -> i32
      %x1, %ok1 = gpu.shuffle xor %g, %i5, %i32 : i32
      %x2, %ok2 = gpu.shuffle down %g, %i3, %i16 : i32
      %x3, %ok3 = gpu.shuffle up %g, %i3, %i32 : i32
      %x4, %ok4 = gpu.shuffle idx %g, %i7, %i32 : i32
      %lane = gpu.lane_id
      %sg = gpu.subgroup_id : index
      %l = arith.index_cast %lane : index to i32
      %s = arith.index_cast %sg : index to i32
      %ls = arith.muli %s, %i16 : i32
      %ids = arith.addi %ls, %l : i32
      // shared memory: reverse within the block
      memref.store %g, %sh[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c63 = arith.constant 63 : index
      %rt = arith.subi %c63, %tid : index
      %rev = memref.load %sh[%rt] : memref<64xi32, #gpu.address_space<workgroup>>
      // private memory
      memref.store %t, %pv[%c0] : memref<2xi32, #gpu.address_space<private>>
      memref.store %i3, %pv[%c1] : memref<2xi32, #gpu.address_space<private>>
      %p0 = memref.load %pv[%c0] : memref<2xi32, #gpu.address_space<private>>
      %p1 = memref.load %pv[%c1] : memref<2xi32, #gpu.address_space<private>>
      %pp = arith.muli %p0, %p1 : i32
      %bx = gpu.block_dim x
      %gx = gpu.grid_dim x
      %bg = arith.muli %bx, %gx : index
      %bgi = arith.index_cast %bg : index to i32
      %vals = arith.constant 0 : i32
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k3 = arith.constant 3 : index
      %k4 = arith.constant 4 : index
      %k5 = arith.constant 5 : index
      %k6 = arith.constant 6 : index
      %k7 = arith.constant 7 : index
      %k8 = arith.constant 8 : index
      %k9 = arith.constant 9 : index
      %k10 = arith.constant 10 : index
      %k11 = arith.constant 11 : index
      %k12 = arith.constant 12 : index
      %k13 = arith.constant 13 : index
      memref.store %sum, %out[%k0, %gid] : memref<14x192xi32>
      memref.store %max, %out[%k1, %gid] : memref<14x192xi32>
      memref.store %or, %out[%k2, %gid] : memref<14x192xi32>
      memref.store %custom, %out[%k3, %gid] : memref<14x192xi32>
      memref.store %ssum, %out[%k4, %gid] : memref<14x192xi32>
      memref.store %c4sum, %out[%k5, %gid] : memref<14x192xi32>
      memref.store %c4s2, %out[%k6, %gid] : memref<14x192xi32>
      memref.store %x1, %out[%k7, %gid] : memref<14x192xi32>
      %v2 = arith.extui %ok2 : i1 to i32
      %x2v = arith.muli %x2, %v2 : i32
      memref.store %x2v, %out[%k8, %gid] : memref<14x192xi32>
      %v3 = arith.extui %ok3 : i1 to i32
      %x3v = arith.addi %x3, %v3 : i32
      memref.store %x3v, %out[%k9, %gid] : memref<14x192xi32>
      memref.store %x4, %out[%k10, %gid] : memref<14x192xi32>
      memref.store %ids, %out[%k11, %gid] : memref<14x192xi32>
      memref.store %rev, %out[%k12, %gid] : memref<14x192xi32>
      %ppb = arith.addi %pp, %bgi : i32
      memref.store %ppb, %out[%k13, %gid] : memref<14x192xi32>
      gpu.return
    }
"""


def test_collectives_shuffles_and_memory_spaces() -> None:
    got = printed_memrefs(run_ok(launch_and_print(COLLECTIVES, 14, 64, blocks=3)).stdout)[0]
    g = np.arange(192)
    t = g % 64
    vm = (g * 7) % 16
    blocks = vm.reshape(3, 64)
    warps = vm.reshape(6, 32)
    assert got[0].tolist() == np.repeat(blocks.sum(1), 64).tolist()
    assert got[1].tolist() == np.repeat(blocks.max(1), 64).tolist()
    assert got[2].tolist() == np.repeat(np.bitwise_or.reduce(blocks, 1), 64).tolist()
    assert got[3].tolist() == np.repeat(blocks.min(1), 64).tolist()
    assert got[4].tolist() == np.repeat(warps.sum(1), 32).tolist()
    assert got[5].tolist() == np.repeat(vm.reshape(-1, 4).sum(1), 4).tolist()
    c4s2 = []
    for x in g:
        lane = x % 32
        base = x - lane + (lane // 8) * 8 + lane % 2
        c4s2.append(max(vm[base + 2 * k] for k in range(4)))
    assert got[6].tolist() == c4s2
    lane = g % 32
    warp0 = g - lane
    assert got[7].tolist() == (warp0 + (lane ^ 5)).tolist()
    down_ok = lane + 3 <= 15
    assert got[8].tolist() == np.where(down_ok, g + 3, 0).tolist()
    up_ok = lane - 3 >= 0
    assert got[9].tolist() == np.where(up_ok, g - 3 + 1, g).tolist()
    assert got[10].tolist() == (warp0 + 7).tolist()
    assert got[11].tolist() == ((t // 32) * 16 + t % 32).tolist()
    assert got[12].tolist() == ((g // 64) * 64 + 63 - t).tolist()
    assert got[13].tolist() == (t * 3 + 192).tolist()


DYNAMIC_SHARED = """
    gpu.func @f(%out: memref<1x96xf32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %gid = gpu.global_id x
      %buf = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c64 = arith.constant 64 : index
      %n = arith.constant 32 : index
      %view = memref.view %buf[%c64][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      %g = arith.index_cast %gid : index to i32
      %f = arith.sitofp %g : i32 to f32
      memref.store %f, %view[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c31 = arith.constant 31 : index
      %other = arith.subi %c31, %tid : index
      %o = memref.load %view[%other] : memref<?xf32, #gpu.address_space<workgroup>>
      %half = arith.constant 0.5 : f32
      %r = arith.mulf %o, %half : f32
      %c0 = arith.constant 0 : index
      memref.store %r, %out[%c0, %gid] : memref<1x96xf32>
      gpu.return
    }
"""


def test_dynamic_shared_memory_view() -> None:
    got = printed_memrefs(run_ok(launch_and_print(DYNAMIC_SHARED, 1, 32, blocks=3, elem="f32", dsm=64 + 128)).stdout)[0]
    g = np.arange(96)
    assert got[0].tolist() == (((g // 32) * 32 + 31 - g % 32) * 0.5).tolist()


ATOMICS = """
    gpu.func @f(%out: memref<1x4xi32>, %acc: memref<2xf32>) kernel {
      %gid = gpu.global_id x
      %g = arith.index_cast %gid : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %slot = arith.remui %gid, %c4 : index
      %old = memref.atomic_rmw addi %g, %out[%c0, %slot] : (i32, memref<1x4xi32>) -> i32
      %f = arith.sitofp %g : i32 to f32
      %o2 = memref.atomic_rmw addf %f, %acc[%c0] : (f32, memref<2xf32>) -> f32
      %o3 = memref.atomic_rmw maximumf %f, %acc[%c1] : (f32, memref<2xf32>) -> f32
      gpu.return
    }
"""


def test_atomics() -> None:
    text = launch_and_print(ATOMICS, 1, 4, blocks=1, extra_args=", %acc : memref<2xf32>")
    text = text.replace("memref<1x4xi32>", "memref<1x4xi32>")
    text = text.replace("threads in (%cn, %c1, %c1)", "threads in (%c100, %c1, %c1)")
    alloc_acc = "    %c100 = arith.constant 100 : index\n    %acc = gpu.alloc host_shared () : memref<2xf32>\n"
    text = text.replace("    %out = memref.alloc", alloc_acc + "    %out = memref.alloc")
    print_i32 = "    call @printMemrefI32(%u) : (memref<*xi32>) -> ()"
    print_acc = "\n    %ua = memref.cast %acc : memref<2xf32> to memref<*xf32>\n    call @printMemrefF32(%ua) : (memref<*xf32>) -> ()"
    text = text.replace(print_i32, print_i32 + print_acc)
    out = printed_memrefs(run_ok(text).stdout)
    g = np.arange(100)
    assert out[0][0].tolist() == [int(g[g % 4 == k].sum()) for k in range(4)]
    assert out[1].tolist() == [float(g.sum()), 99.0]


GRID_2D = """
    gpu.func @f(%out: memref<4x24x10xi32>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %gx = gpu.global_id x
      %gy = gpu.global_id y
      %rowb = arith.muli %by, %dy : index
      %row = arith.addi %rowb, %ty : index
      %colb = arith.muli %bx, %dx : index
      %col = arith.addi %colb, %tx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c24 = arith.constant 24 : index
      %c10 = arith.constant 10 : index
      %inr = arith.cmpi ult, %row, %c24 : index
      %inc = arith.cmpi ult, %col, %c10 : index
      %in = arith.andi %inr, %inc : i1
      scf.if %in {
        %r = arith.index_cast %row : index to i32
        %c = arith.index_cast %col : index to i32
        %k = arith.constant 100 : i32
        %rk = arith.muli %r, %k : i32
        %v = arith.addi %rk, %c : i32
        memref.store %v, %out[%c0, %row, %col] : memref<4x24x10xi32>
        %lt = gpu.lane_id
        %l = arith.index_cast %lt : index to i32
        memref.store %l, %out[%c1, %row, %col] : memref<4x24x10xi32>
        %b = arith.index_cast %by : index to i32
        memref.store %b, %out[%c2, %gy, %gx] : memref<4x24x10xi32>
        %ss = gpu.subgroup_id : index
        %s = arith.index_cast %ss : index to i32
        memref.store %s, %out[%c3, %row, %col] : memref<4x24x10xi32>
      }
      gpu.return
    }
"""


def test_two_dimensional_grid_and_guards() -> None:
    text = f"""
module attributes {{gpu.container_module}} {{
  gpu.module @k {{
{GRID_2D}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c6 = arith.constant 6 : index
    %out = memref.alloc () : memref<4x24x10xi32>
    %u = memref.cast %out : memref<4x24x10xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    gpu.launch_func @k::@f blocks in (%c2, %c3, %c1) threads in (%c6, %c8, %c1) args(%out : memref<4x24x10xi32>)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }}
{HOST_TAIL}
}}
"""
    got = printed_memrefs(run_ok(text).stdout)[0]
    r, c = np.meshgrid(np.arange(24), np.arange(10), indexing="ij")
    assert (got[0] == r * 100 + c).all()
    linear = (r % 8) * 6 + (c % 6)
    assert (got[1] == linear % 32).all()
    assert (got[2] == r // 8).all()
    assert (got[3] == linear // 32).all()


def test_gpu_launch_body_runs_as_a_kernel_with_captured_values() -> None:
    text = """
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %scale = arith.constant 3 : i32
  %out = memref.alloc () : memref<32xi32>
  %u = memref.cast %out : memref<32xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %b = arith.muli %bx, %sx : index
    %i = arith.addi %b, %tx : index
    %ii = arith.index_cast %i : index to i32
    %gxi = arith.index_cast %gx : index to i32
    %v = arith.muli %ii, %scale : i32
    %w = arith.addi %v, %gxi : i32
    memref.store %w, %out[%i] : memref<32xi32>
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
"""
    got = printed_memrefs(run_ok(text).stdout)[0]
    assert got.tolist() == (np.arange(32) * 3 + 4).tolist()


def test_printf_formats_like_vprintf() -> None:
    text = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %h = arith.constant 0.25 : f64
      %neg = arith.constant -1 : i8
      %big = arith.constant 123456789012 : i64
      gpu.printf "t=%d f=%.2f h=%g i8=%d %u x=%x lld=%lld|%5d|%-4d|%%\\n", %ti, %f, %h, %neg, %ti, %ti, %big, %ti, %ti
          : i32, f32, f64, i8, i32, i32, i64, i32, i32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1)
    return
  }
}
"""
    out = run_ok(text).stdout.splitlines()
    assert out == [
        f"t={t} f={t:.2f} h=0.25 i8=255 {t} x={t:x} lld=123456789012|{t:5d}|{t:<4d}|%" for t in range(3)
    ]


def test_uniform_branch_with_barrier_in_both_arms() -> None:
    text = launch_and_print(
        """
    gpu.func @f(%out: memref<1x64xi32>) workgroup(%sh: memref<32xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %gid = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c31 = arith.constant 31 : index
      %odd = arith.andi %bid, %c1 : index
      %isodd = arith.cmpi eq, %odd, %c1 : index
      %g = arith.index_cast %gid : index to i32
      memref.store %g, %sh[%tid] : memref<32xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = scf.if %isodd -> (i32) {
        %o = arith.subi %c31, %tid : index
        %v = memref.load %sh[%o] : memref<32xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        scf.yield %v : i32
      } else {
        %v = memref.load %sh[%c0] : memref<32xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        scf.yield %v : i32
      }
      memref.store %r, %out[%c0, %gid] : memref<1x64xi32>
      gpu.return
    }
""",
        1,
        32,
        blocks=2,
    )
    got = printed_memrefs(run_ok(text).stdout)[0][0]
    assert got.tolist() == [0] * 32 + [32 + 31 - t for t in range(32)]


def test_all_reduce_in_divergent_code_is_an_error() -> None:
    text = launch_and_print(
        """
    gpu.func @f(%out: memref<1x32xi32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %lo = arith.cmpi ult, %tid, %c16 : index
      scf.if %lo {
        %one = arith.constant 1 : i32
        %s = gpu.all_reduce add %one {} : (i32) -> (i32)
        memref.store %s, %out[%c0, %tid] : memref<1x32xi32>
      }
      gpu.return
    }
""",
        1,
        32,
    )
    result = run(text)
    assert result.exit_code == 1
    assert "'gpu.all_reduce' op is reached by only some threads of a block" in result.stderr
    assert "test.mlir:12:9: error:" in result.stderr


HALF = """
    gpu.func @f(%out: memref<1x64xf32>, %x: memref<64xf16>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%tid] : memref<64xf16>
      %two = arith.constant 2.0 : f16
      %one = arith.constant 1.5 : f16
      %m = arith.mulf %v, %two : f16
      %a = arith.addf %m, %one : f16
      %w = arith.constant 32 : i32
      %o = arith.constant 1 : i32
      %s, %ok = gpu.shuffle xor %a, %o, %w : f16
      %mx = arith.maximumf %s, %a : f16
      %e = arith.extf %mx : f16 to f32
      memref.store %mx, %x[%tid] : memref<64xf16>
      memref.store %e, %out[%c0, %tid] : memref<1x64xf32>
      gpu.return
    }
"""


def half_program() -> str:
    text = launch_and_print(HALF, 1, 64, elem="f32", extra_args=", %x : memref<64xf16>")
    init = """    %x = gpu.alloc host_shared () : memref<64xf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f16
      %q = arith.constant 0.1 : f16
      %g = arith.mulf %f, %q : f16
      memref.store %g, %x[%i] : memref<64xf16>
    }
"""
    return text.replace("    %out = memref.alloc", init + "    %out = memref.alloc")


def test_f16_arithmetic_and_shuffle() -> None:
    got = printed_memrefs(run_ok(half_program()).stdout)[0][0]
    x = (np.arange(64).astype(np.float16) * np.float16(0.1)).astype(np.float16)
    a = (x * np.float16(2.0) + np.float16(1.5)).astype(np.float16)
    s = a[np.arange(64) ^ 1]
    want = np.maximum(s, a).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-5)  # printed with 6 significant digits


TILED_MATMUL = """
    gpu.func @f(%out: memref<1x1xf32>, %A: memref<48x32xf32>, %B: memref<32x40xf32>, %C: memref<48x40xf32>)
        workgroup(%ta: memref<8x8xf32, #gpu.address_space<workgroup>>, %tb: memref<8x8xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %rb = arith.muli %by, %c8 : index
      %row = arith.addi %rb, %ty : index
      %cb = arith.muli %bx, %c8 : index
      %col = arith.addi %cb, %tx : index
      %zero = arith.constant 0.0 : f32
      %acc = scf.for %k0 = %c0 to %c32 step %c8 iter_args(%s = %zero) -> (f32) {
        %ka = arith.addi %k0, %tx : index
        %a = memref.load %A[%row, %ka] : memref<48x32xf32>
        memref.store %a, %ta[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
        %kb = arith.addi %k0, %ty : index
        %b = memref.load %B[%kb, %col] : memref<32x40xf32>
        memref.store %b, %tb[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c8 step %c1 iter_args(%p = %s) -> (f32) {
          %x = memref.load %ta[%ty, %k] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tb[%k, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %xy = arith.mulf %x, %y : f32
          %q = arith.addf %p, %xy : f32
          scf.yield %q : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %acc, %C[%row, %col] : memref<48x40xf32>
      gpu.return
    }
"""


def matmul_program() -> str:
    text = launch_and_print(TILED_MATMUL, 1, 1, elem="f32", extra_args=", %A : memref<48x32xf32>, %B : memref<32x40xf32>, %C : memref<48x40xf32>")
    text = text.replace("threads in (%cn, %c1, %c1)", "threads in (%c8, %c8, %c1)").replace("blocks in (%cb, %c1, %c1)", "blocks in (%c5, %c6, %c1)")
    init = """    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c40 = arith.constant 40 : index
    %c48 = arith.constant 48 : index
    %A = gpu.alloc host_shared () : memref<48x32xf32>
    %B = gpu.alloc host_shared () : memref<32x40xf32>
    %C = gpu.alloc host_shared () : memref<48x40xf32>
    scf.for %i = %c0 to %c48 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %s = arith.addi %i, %j : index
        %m = arith.remui %s, %c5 : index
        %mi = arith.index_cast %m : index to i32
        %f = arith.sitofp %mi : i32 to f32
        memref.store %f, %A[%i, %j] : memref<48x32xf32>
      }
    }
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c40 step %c1 {
        %p = arith.muli %i, %j : index
        %m = arith.remui %p, %c6 : index
        %mi = arith.index_cast %m : index to i32
        %f = arith.sitofp %mi : i32 to f32
        memref.store %f, %B[%i, %j] : memref<32x40xf32>
      }
    }
"""
    text = text.replace("    %out = memref.alloc", init + "    %out = memref.alloc")
    return text.replace(
        "    call @printMemrefF32(%u) : (memref<*xf32>) -> ()",
        "    %uc = memref.cast %C : memref<48x40xf32> to memref<*xf32>\n    call @printMemrefF32(%uc) : (memref<*xf32>) -> ()",
    )


def test_tiled_matmul_with_shared_memory_and_barriers() -> None:
    got = printed_memrefs(run_ok(matmul_program()).stdout)[0]
    i, j = np.meshgrid(np.arange(48), np.arange(32), indexing="ij")
    a = ((i + j) % 5).astype(np.float32)
    k, n = np.meshgrid(np.arange(32), np.arange(40), indexing="ij")
    b = ((k * n) % 6).astype(np.float32)
    assert (got == a @ b).all()


def test_cluster_ids() -> None:
    text = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%out: memref<4x8xi32>) kernel {
      %b = gpu.block_id x
      %cid = gpu.cluster_id x
      %cbid = gpu.cluster_block_id x
      %cdim = gpu.cluster_dim x
      %cdb = gpu.cluster_dim_blocks x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %v0 = arith.index_cast %cid : index to i32
      %v1 = arith.index_cast %cbid : index to i32
      %v2 = arith.index_cast %cdim : index to i32
      %v3 = arith.index_cast %cdb : index to i32
      memref.store %v0, %out[%c0, %b] : memref<4x8xi32>
      memref.store %v1, %out[%c1, %b] : memref<4x8xi32>
      memref.store %v2, %out[%c2, %b] : memref<4x8xi32>
      memref.store %v3, %out[%c3, %b] : memref<4x8xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc () : memref<4x8xi32>
    %u = memref.cast %out : memref<4x8xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    gpu.launch_func @k::@f clusters in (%c2, %c1, %c1) blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4x8xi32>)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
"""
    got = printed_memrefs(run_ok(text).stdout)[0]
    b = np.arange(8)
    assert got.tolist() == [(b // 2).tolist(), (b % 2).tolist(), [4] * 8, [2] * 8]
