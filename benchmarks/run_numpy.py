"""Benchmark the NumPy backend against hand-written NumPy doing the same work (not a test).

Two kernels over 2^24 float32 elements, each launched from an MLIR program run by
`gpu_lsp.runner.run_text(..., backend="numpy")`:

* elementwise: `y[i] = a * x[i] + y[i]` with a bounds guard (256 threads per block);
* block reduction: each block of 256 threads sums its 256 elements with `gpu.all_reduce add`
  and thread 0 stores the sum;

and one host-loop program over 2^20 elements: an `scf.for` filling `x[i] = i % 7`, a copy to
the device, one kernel doubling every element, a copy back and an `scf.for` summing the
elements through `iter_args`.

The kernel time is the backend's own time for the launch (`RunResult.timings`), taken from
the second of two launches so that page faults of fresh buffers are not counted. The
NumPy time is the best of several runs of the same computation on warm arrays. The goal
is a ratio within 3x. The host-loop program is timed whole (`run_text`: parsing, checks,
both loops, the launch and the copies) against NumPy doing the same from scratch; the goals
are at most 1 s and at most 10x.

Usage: python benchmarks/run_numpy.py [--log2n 24] [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from gpu_lsp.runner import run_text

ELEMENTWISE = """
module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @init(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {{
      %i = gpu.global_id x
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {{
        %ii = arith.index_cast %i : index to i32
        %f = arith.sitofp %ii : i32 to f32
        memref.store %f, %x[%i] : memref<?xf32>
        %one = arith.constant 1.0 : f32
        memref.store %one, %y[%i] : memref<?xf32>
      }}
      gpu.return
    }}
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {{
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t = arith.muli %bid, %bdim : index
      %i = arith.addi %t, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {{
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xv : f32
        %r = arith.addf %ax, %yv : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %n = arith.constant {n} : index
    %nb = arith.constant {blocks} : index
    %c256 = arith.constant 256 : index
    %x = gpu.alloc (%n) : memref<?xf32>
    %y = gpu.alloc (%n) : memref<?xf32>
    %a = arith.constant 2.0 : f32
    gpu.launch_func @k::@init blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>, %n : index)
    gpu.launch_func @k::@saxpy blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>, %n : index)
    gpu.launch_func @k::@saxpy blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>, %n : index)
    %h = memref.alloc (%n) : memref<?xf32>
    gpu.memcpy %h, %y : memref<?xf32>, memref<?xf32>
    %i0 = arith.constant {probe0} : index
    %i1 = arith.constant {probe1} : index
    %v0 = memref.load %h[%i0] : memref<?xf32>
    %v1 = memref.load %h[%i1] : memref<?xf32>
    call @printF32(%v0) : (f32) -> ()
    call @printNewline() : () -> ()
    call @printF32(%v1) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }}
  func.func private @printF32(f32)
  func.func private @printNewline()
}}
"""

REDUCTION = """
module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @init(%x: memref<?xf32>) kernel {{
      %i = gpu.global_id x
      %c7 = arith.constant 7 : index
      %m = arith.remui %i, %c7 : index
      %ii = arith.index_cast %m : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<?xf32>
      gpu.return
    }}
    gpu.func @blocksum(%x: memref<?xf32>, %out: memref<?xf32>) kernel {{
      %bid = gpu.block_id x
      %i = gpu.global_id x
      %tid = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %s = gpu.all_reduce add %v uniform {{}} : (f32) -> (f32)
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {{
        memref.store %s, %out[%bid] : memref<?xf32>
      }}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %n = arith.constant {n} : index
    %nb = arith.constant {blocks} : index
    %c256 = arith.constant 256 : index
    %x = gpu.alloc (%n) : memref<?xf32>
    %out = gpu.alloc (%nb) : memref<?xf32>
    gpu.launch_func @k::@init blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @k::@blocksum blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %out : memref<?xf32>)
    gpu.launch_func @k::@blocksum blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %out : memref<?xf32>)
    %h = memref.alloc (%nb) : memref<?xf32>
    gpu.memcpy %h, %out : memref<?xf32>, memref<?xf32>
    %u = memref.cast %h : memref<?xf32> to memref<*xf32>
    %i0 = arith.constant {probe0} : index
    %i1 = arith.constant {probe1} : index
    %v0 = memref.load %h[%i0] : memref<?xf32>
    %v1 = memref.load %h[%i1] : memref<?xf32>
    call @printF32(%v0) : (f32) -> ()
    call @printNewline() : () -> ()
    call @printF32(%v1) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }}
  func.func private @printF32(f32)
  func.func private @printNewline()
}}
"""


HOST_LOOPS = """
module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @double(%x: memref<?xf32>, %n: index) kernel {{
      %i = gpu.global_id x
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {{
        %v = memref.load %x[%i] : memref<?xf32>
        %r = arith.addf %v, %v : f32
        memref.store %r, %x[%i] : memref<?xf32>
      }}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant {n} : index
    %nb = arith.constant {blocks} : index
    %h = memref.alloc (%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {{
      %m = arith.remui %i, %c7 : index
      %mi = arith.index_cast %m : index to i32
      %f = arith.sitofp %mi : i32 to f32
      memref.store %f, %h[%i] : memref<?xf32>
    }}
    %d = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %d, %h : memref<?xf32>, memref<?xf32>
    gpu.launch_func @k::@double blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1) args(%d : memref<?xf32>, %n : index)
    gpu.memcpy %h, %d : memref<?xf32>, memref<?xf32>
    %zero = arith.constant 0.0 : f32
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {{
      %v = memref.load %h[%i] : memref<?xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }}
    call @printF32(%s) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }}
  func.func private @printF32(f32)
  func.func private @printNewline()
}}
"""


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def runner_time(text: str, kernel: str, repeat: int, expected: list[float]) -> float:
    """Best kernel time over `repeat` runs; checks the values the program prints."""
    times = []
    for _ in range(repeat):
        result = run_text(text, backend="numpy")
        if result.exit_code:
            sys.exit(result.stderr)
        printed = [float(v) for v in result.stdout.split()]
        if not np.allclose(printed, expected, rtol=1e-5):
            sys.exit(f"{kernel}: the program printed {printed}, NumPy says {expected}")
        times.append([t for name, t in result.timings if name == kernel][-1])
    return min(times)


def program_time(text: str, repeat: int, expected: float) -> float:
    """Best wall time of `run_text` on the whole program; checks the value it prints."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        result = run_text(text, backend="numpy")
        times.append(time.perf_counter() - t)
        if result.exit_code:
            sys.exit(result.stderr)
        if not np.isclose(float(result.stdout), expected, rtol=1e-6):
            sys.exit(f"host loops: the program printed {result.stdout.strip()}, NumPy says {expected}")
    return min(times)


def host_loops_numpy(n: int) -> float:
    x = (np.arange(n) % 7).astype(np.float32)
    d = x.copy()
    np.add(d, d, out=d)
    x[:] = d
    return float(x.sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log2n", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--host-log2n", type=int, default=20)
    args = parser.parse_args()
    n = 1 << args.log2n
    blocks = n // 256

    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    a = np.float32(2.0)
    tmp = np.empty_like(y)

    def saxpy_numpy():
        np.multiply(x, a, out=tmp)
        np.add(tmp, y, out=y)

    def blocksum_numpy():
        return x.reshape(-1, 256).sum(axis=1)

    rows = []
    probes = (12345 % n, n - 1)
    ref = np.ones(n, np.float32)
    for _ in range(2):
        ref = (np.float32(2.0) * np.arange(n, dtype=np.float32) + ref).astype(np.float32)
    t_np = best(saxpy_numpy, args.repeat)
    t_rt = runner_time(ELEMENTWISE.format(n=n, blocks=blocks, probe0=probes[0], probe1=probes[1]), "saxpy", args.repeat, [float(ref[p]) for p in probes])
    rows.append(("elementwise saxpy", t_rt, t_np))
    x = (np.arange(n) % 7).astype(np.float32)
    sums = blocksum_numpy()
    t_np = best(blocksum_numpy, args.repeat)
    bprobes = (1, blocks - 1)
    t_rt = runner_time(REDUCTION.format(n=n, blocks=blocks, probe0=bprobes[0], probe1=bprobes[1]), "blocksum", args.repeat, [float(sums[p]) for p in bprobes])
    rows.append(("block reduction (all_reduce)", t_rt, t_np))

    hn = 1 << args.host_log2n
    t_np = best(lambda: host_loops_numpy(hn), args.repeat)
    host = HOST_LOOPS.format(n=hn, blocks=(hn + 255) // 256)
    t_rt = program_time(host, args.repeat, host_loops_numpy(hn))

    print(f"n = 2^{args.log2n} = {n} float32 elements, 256 threads per block, best of {args.repeat}")
    print(f"{'kernel':32} {'numpy backend':>14} {'hand-written':>14} {'ratio':>7}")
    for name, t_rt_k, t_np_k in rows:
        print(f"{name:32} {t_rt_k * 1e3:11.2f} ms {t_np_k * 1e3:11.2f} ms {t_rt_k / t_np_k:6.2f}x")
    print(f"{'host loops, 2^' + str(args.host_log2n) + ' (whole run)':32} {t_rt * 1e3:11.2f} ms {t_np * 1e3:11.2f} ms {t_rt / t_np:6.2f}x")


if __name__ == "__main__":
    main()
