"""Benchmark the CuPy backend against hand-written CuPy doing the same work (not a test).

The two kernels of `run_numpy.py` (imported from it, so they are the same programs), over
2^24 float32 elements, run by `gpu_lsp.runner.run_text(..., backend="cupy")`:

* elementwise: `y[i] = a * x[i] + y[i]` with a bounds guard (256 threads per block), against a
  `cupy.ElementwiseKernel` doing `y = a * x + y`;
* block reduction: each block of 256 threads sums its 256 elements with `gpu.all_reduce add`,
  against `cupy.sum(x.reshape(n // 256, 256), axis=1, out=out)`.

Kernel times are CUDA-event times. The runner's are its own (`RunResult.timings`: an event
pair recorded around each launch), taken from the second of the two launches in each program.
The hand-written launches are timed the same way, one launch between two events, after a
warm-up. Both therefore include the host's enqueue time of one launch when the GPU is idle;
the hand-written kernel's device time alone (several back-to-back launches between one pair,
divided) is printed beside them for context. Best and median of `--repeat` runs; the goal is
a ratio (runner / hand-written, best against best) within 1.2x.

Launch overhead per `gpu.launch_func`: a program launching a tiny kernel (1 block of 32
threads) N times from an `scf.for` loop; the host wall time of `run_text` for N launches minus
that for 1, divided by N - 1, i.e. everything the runner does per synchronous launch
(interpreting the op, a stream, marshalling, the launch, its event pair, the synchronisation).
Beside it: the median CUDA-event time the runner reports per tiny launch, and hand-written
CuPy's wall time per launch of the same kernel (`RawModule`), with and without a
synchronisation after each.

Results are checked: every program's output on the CuPy backend must equal, character for
character, its output on the NumPy backend and NumPy's values; at `--check-log2n` the
programs also print their whole result (`printMemrefF32`) for that comparison; the
hand-written kernels' results are compared with NumPy too. A mismatch exits with status 1.

Without a usable GPU (cupy missing, no driver, no device: the runner's own probe) it prints
one line and exits 0.

Usage: python benchmarks/run_cupy.py [--log2n 24] [--repeat 10] [--warmup 3]
                                     [--check-log2n 16] [--launches 1000]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time

import numpy as np
from run_numpy import ELEMENTWISE, REDUCTION

from gpu_lsp.runner import run_text
from gpu_lsp.runner.cupy_backend import probe

GOAL = 1.2

TINY = """
module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @tick(%x: memref<?xi32>) kernel {{
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      memref.store %v, %x[%tid] : memref<?xi32>
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant {launches} : index
    %x = gpu.alloc (%c32) : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {{
      gpu.launch_func @k::@tick blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%x : memref<?xi32>)
    }}
    gpu.dealloc %x : memref<?xi32>
    return
  }}
}}
"""

TINY_CUDA = 'extern "C" __global__ void tick(int* x) { x[threadIdx.x] = (int)threadIdx.x; }\n'


# `printMemref*` prints the buffer's address, which differs between backends.
ADDRESS = re.compile(r"base@ = 0x[0-9a-fA-F]+")


class Mismatch(Exception):
    pass


def stats(times: list[float]) -> tuple[float, float]:
    return min(times), statistics.median(times)


def print_everything(text: str) -> str:
    """The program with a `printMemrefF32` of its whole host result `%h` before `return`."""
    ret = "    return\n"
    if text.count(ret) != 1 or "%h = memref.alloc" not in text:
        raise Mismatch("the benchmark programs of run_numpy.py changed shape: no single `return` after `%h`")
    body = (
        "    %hall = memref.cast %h : memref<?xf32> to memref<*xf32>\n"
        "    call @printMemrefF32(%hall) : (memref<*xf32>) -> ()\n"
    )
    text = text.replace(ret, body + ret)
    end = text.rstrip().rindex("}")
    return text[:end] + "  func.func private @printMemrefF32(memref<*xf32>)\n" + text[end:]


def run(text: str, backend: str):
    result = run_text(text, backend=backend)
    if result.exit_code:
        raise Mismatch(f"the {backend} backend failed:\n{result.stderr}")
    if result.backend != backend:
        raise Mismatch(f"asked for the {backend} backend, ran on {result.backend}")
    return result


def same_output(what: str, text: str, expected: list[float] | None = None) -> str:
    """Run `text` on both backends; their outputs must be identical but for buffer addresses
    (and the probes NumPy's)."""
    want = ADDRESS.sub("base@ = <address>", run(text, "numpy").stdout)
    got = ADDRESS.sub("base@ = <address>", run(text, "cupy").stdout)
    if got != want:
        a, b = want.splitlines(), got.splitlines()
        for k, (x, y) in enumerate(zip(a, b)):
            if x != y:
                raise Mismatch(f"{what}: line {k + 1} differs: numpy backend {x[:200]!r}, cupy backend {y[:200]!r}")
        raise Mismatch(f"{what}: the numpy backend printed {len(a)} lines, the cupy backend {len(b)}")
    if expected is not None:
        printed = [float(v) for v in got.split()]
        if not np.allclose(printed, expected, rtol=1e-5):
            raise Mismatch(f"{what}: the program printed {printed}, NumPy says {expected}")
    return got


def runner_times(text: str, kernel: str, repeat: int, warmup: int) -> list[float]:
    """The runner's CUDA-event time of the last launch of `kernel`, one per run."""
    times = []
    for k in range(warmup + repeat):
        result = run(text, "cupy")
        mine = [t for name, t in result.timings if name == kernel]
        if not mine:
            raise Mismatch(f"the runner reported no time for kernel {kernel}: {result.timings}")
        if k >= warmup:
            times.append(mine[-1])
    return times


def event_times(cp, fn, repeat: int, warmup: int, per: int = 1) -> list[float]:
    """CUDA-event time of `per` back-to-back calls of `fn`, divided by `per`, `repeat` times."""
    for _ in range(warmup):
        fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(repeat):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        for _ in range(per):
            fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / 1e3 / per)
    return times


def wall_per_call(fn, calls: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, time.perf_counter() - t)
    return best / calls


def elementwise(cp, n: int, args) -> tuple[tuple, tuple, float]:
    blocks = n // 256
    probes = (12345 % n, n - 1)
    ref = np.ones(n, np.float32)
    for _ in range(2):
        ref = (np.float32(2.0) * np.arange(n, dtype=np.float32) + ref).astype(np.float32)
    text = ELEMENTWISE.format(n=n, blocks=blocks, probe0=probes[0], probe1=probes[1])
    same_output("elementwise", text, [float(ref[p]) for p in probes])
    rt = runner_times(text, "saxpy", args.repeat, args.warmup)

    saxpy = cp.ElementwiseKernel("float32 a, float32 x", "float32 y", "y = a * x + y", "bench_saxpy")
    a = np.float32(2.0)
    x = cp.arange(n, dtype=np.float32)
    y = cp.ones(n, dtype=np.float32)
    saxpy(a, x, y)
    saxpy(a, x, y)
    if not np.array_equal(cp.asnumpy(y), ref):
        raise Mismatch("elementwise: the hand-written ElementwiseKernel disagrees with NumPy")
    hw = event_times(cp, lambda: saxpy(a, x, y), args.repeat, args.warmup)
    device = event_times(cp, lambda: saxpy(a, x, y), args.repeat, 0, per=10)
    return stats(rt), stats(hw), min(device)


def reduction(cp, n: int, args) -> tuple[tuple, tuple, float]:
    blocks = n // 256
    xs = (np.arange(n) % 7).astype(np.float32)
    sums = xs.reshape(-1, 256).sum(axis=1)
    probes = (1, blocks - 1)
    text = REDUCTION.format(n=n, blocks=blocks, probe0=probes[0], probe1=probes[1])
    same_output("block reduction", text, [float(sums[p]) for p in probes])
    rt = runner_times(text, "blocksum", args.repeat, args.warmup)

    x = cp.asarray(xs).reshape(blocks, 256)
    out = cp.empty(blocks, dtype=np.float32)
    cp.sum(x, axis=1, out=out)
    if not np.array_equal(cp.asnumpy(out), sums):
        raise Mismatch("block reduction: cupy.sum disagrees with NumPy")
    hw = event_times(cp, lambda: cp.sum(x, axis=1, out=out), args.repeat, args.warmup)
    device = event_times(cp, lambda: cp.sum(x, axis=1, out=out), args.repeat, 0, per=10)
    return stats(rt), stats(hw), min(device)


def launch_overhead(cp, launches: int, repeat: int) -> dict[str, float]:
    """Seconds per launch: the runner's wall time and event time, hand-written CuPy's wall time."""
    few, many = TINY.format(launches=1), TINY.format(launches=launches)
    same_output("tiny launches", many)
    walls = {}
    for label, text in (("few", few), ("many", many)):
        run(text, "cupy")  # warm-up: compilation, first allocations
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            result = run(text, "cupy")
            best = min(best, time.perf_counter() - t)
        walls[label] = best
    events = [t for name, t in result.timings if name == "tick"]
    if len(events) != launches:
        raise Mismatch(f"tiny launches: {launches} launches, {len(events)} kernel times")

    kernel = cp.RawModule(code=TINY_CUDA).get_function("tick")
    buf = cp.cuda.alloc(32 * 4)
    ptr = np.uint64(int(buf.ptr))
    stream = cp.cuda.Stream(non_blocking=True)

    def launch() -> None:
        with stream:
            kernel((1, 1, 1), (32, 1, 1), (ptr,))

    def launch_sync() -> None:
        launch()
        stream.synchronize()

    calls = max(launches, 1)
    wall_per_call(launch_sync, 10, 1)
    hw_sync = wall_per_call(launch_sync, calls, repeat)
    hw_async = wall_per_call(launch, calls, repeat)
    stream.synchronize()
    return {
        "runner": (walls["many"] - walls["few"]) / max(launches - 1, 1),
        "runner_event": statistics.median(events),
        "cupy_sync": hw_sync,
        "cupy_async": hw_async,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log2n", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--check-log2n", type=int, default=16, help="size at which whole results are compared")
    parser.add_argument("--launches", type=int, default=1000, help="tiny launches for the launch overhead")
    args = parser.parse_args(argv)
    if args.log2n < 8 or args.check_log2n < 8:
        parser.error("--log2n and --check-log2n must be at least 8 (one block of 256)")

    reason = probe()
    if reason is not None:
        print(f"run_cupy: no GPU ({reason}); nothing measured")
        return 0
    import cupy as cp

    n = 1 << args.log2n
    try:
        m = 1 << args.check_log2n
        p = (0, m - 1)
        same_output(f"elementwise, whole result at 2^{args.check_log2n}", print_everything(ELEMENTWISE.format(n=m, blocks=m // 256, probe0=p[0], probe1=p[1])))
        p = (0, m // 256 - 1)
        reduction_text = REDUCTION.format(n=m, blocks=m // 256, probe0=p[0], probe1=p[1])
        same_output(f"block reduction, whole result at 2^{args.check_log2n}", print_everything(reduction_text))
        rows = [("elementwise saxpy", *elementwise(cp, n, args)), ("block reduction (all_reduce)", *reduction(cp, n, args))]
        over = launch_overhead(cp, args.launches, max(args.repeat // 2, 1))
    except Mismatch as exc:
        print(f"run_cupy: MISMATCH: {exc}")
        return 1

    properties = getattr(cp.cuda.runtime, "getDeviceProperties", None)  # the tests' stand-in has none
    name = properties(0)["name"] if properties is not None else "device 0"
    name = name.decode() if isinstance(name, bytes) else str(name)
    print(f"{name}; n = 2^{args.log2n} = {n} float32 elements, 256 threads per block")
    print("outputs: cupy backend == numpy backend == NumPy (whole results at "
          f"2^{args.check_log2n}, probes at 2^{args.log2n}); hand-written results == NumPy")
    print(f"CUDA-event times, one launch per event pair, {args.repeat} runs after {args.warmup} warm-ups (best / median)")
    print(f"{'kernel':30} {'cupy backend':>21} {'hand-written CuPy':>21} {'ratio':>7} {'hw device-only':>15}")
    worst = 0.0
    for label, (rb, rm), (hb, hm), dev in rows:
        ratio = rb / hb
        worst = max(worst, ratio)
        print(f"{label:30} {rb * 1e6:8.1f} / {rm * 1e6:7.1f} us {hb * 1e6:8.1f} / {hm * 1e6:7.1f} us {ratio:6.2f}x {dev * 1e6:12.1f} us")
    verdict = "met" if worst <= GOAL else "NOT met"
    print(f"goal: within {GOAL}x of hand-written CuPy: {verdict} (worst ratio {worst:.2f}x)")
    print(
        f"launch overhead per gpu.launch_func ({args.launches} launches of a 1x32-thread kernel from an scf.for): "
        f"{over['runner'] * 1e6:.1f} us host wall time per synchronous launch through the runner "
        f"(run_text time for {args.launches} launches minus 1, divided by {args.launches - 1}); "
        f"the runner's CUDA-event time per tiny kernel, median: {over['runner_event'] * 1e6:.1f} us; "
        f"hand-written CuPy RawModule launch + stream synchronize: {over['cupy_sync'] * 1e6:.1f} us wall, "
        f"launch alone (asynchronous): {over['cupy_async'] * 1e6:.1f} us wall"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
