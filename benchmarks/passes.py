"""Outlining every launch of a generated file, end to end, beside upstream MLIR (not a test).

The input is ../shared/tools/gen_gpu_mlir.py's inline-mode file of about 10,000
lines (two gpu.launch per function). gpu-lsp's time covers what the editor
refactoring "outline every gpu.launch in this file" does: parse the buffer,
sink index computations and outline every launch (the passes), and turn the
result into text edits (snapshot, diff, printing the new ops) — the three parts
are also timed alone. The oracle (../shared/tools/oracle.py over
numba-cuda-mlir) runs the same pipeline on the same text in-process: parse
(with verification) and `gpu-launch-sink-index-computations,gpu-kernel-outlining`,
then, separately, printing the module. Medians of several runs after a warm-up,
in CPU time of this process (`--wall` for wall-clock time). Goal: gpu-lsp at most
20x the oracle.

    .venv/bin/python benchmarks/passes.py [--lines 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
GEN = SHARED / "tools" / "gen_gpu_mlir.py"
ORACLE = SHARED / "tools" / "oracle.py"
sys.path.insert(0, str(ROOT))

from gpu_lsp.parser.api import parse  # noqa: E402
from gpu_lsp.passes.edits import ChunkBeforePass  # noqa: E402
from gpu_lsp.passes.outlining import outline_kernels  # noqa: E402
from gpu_lsp.passes.refactor import outline_file  # noqa: E402
from gpu_lsp.passes.sink import sink_index_computations  # noqa: E402
from gpu_lsp.text import apply_edits  # noqa: E402

PIPELINE = "builtin.module(gpu-launch-sink-index-computations,gpu-kernel-outlining)"


CLOCK = time.process_time  # CPU time of this process: other processes on the machine do not count


def median_ms(fn, runs: int) -> tuple[float, object]:
    fn()  # warm-up (grammar caches, imports)
    samples = []
    result = None
    for _ in range(runs):
        gc.collect()
        start = CLOCK()
        result = fn()
        samples.append((CLOCK() - start) * 1e3)
    return statistics.median(samples), result


def ours(text: str, runs: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    figures["end to end (outline_file)"], refactoring = median_ms(lambda: outline_file(text), runs)
    figures["  parse"], _ = median_ms(lambda: parse(text), runs)

    def parse_and_pass():
        chunk = parse(text).chunks[0]
        sink_index_computations(chunk.module)
        outline_kernels(chunk.module)

    figures["  parse + passes"], _ = median_ms(parse_and_pass, runs)
    edits = list(refactoring.edits)
    new_text = apply_edits(text, edits)
    assert new_text.count("gpu.launch_func") == text.count("gpu.launch async"), "not every launch was outlined"
    figures["edits"] = len(edits)

    def snapshot_only():
        chunk = parse(text).chunks[0]
        return ChunkBeforePass(text, chunk)

    figures["  parse + snapshot"], _ = median_ms(snapshot_only, runs)
    return figures


def oracle(text: str, runs: int) -> dict[str, float] | None:
    if importlib.util.find_spec("numba_cuda_mlir") is None:
        return None
    spec = importlib.util.spec_from_file_location("_bench_oracle", ORACLE)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["_bench_oracle"] = mod
    spec.loader.exec_module(mod)
    backend = mod.load_backend("numba-cuda-mlir")
    o = mod.Oracle(backend, False, keep_op_notes=False)
    chunk = mod.Chunk(text, 0, 1, 0)
    figures: dict[str, float] = {}
    figures["parse + passes"], result = median_ms(lambda: o.run_chunk(chunk, PIPELINE), runs)
    assert result.ok, result.diags
    figures["print"], printed = median_ms(lambda: result.module.operation.get_asm(), runs)
    assert printed.count("gpu.launch_func") == text.count("gpu.launch async")
    figures["parse + passes + print"] = figures["parse + passes"] + figures["print"]
    return figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    args = ap.parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    text = subprocess.run(
        [sys.executable, str(GEN), "--mode", "inline", "--lines", str(args.lines)], check=True, capture_output=True, text=True
    ).stdout
    launches = text.count("gpu.launch async")
    print(f"input: {text.count(chr(10))} lines, {launches} gpu.launch ops; {'wall' if args.wall else 'CPU'} time")
    mine = ours(text, args.runs)
    theirs = oracle(text, args.runs)
    print("gpu-lsp:")
    for key, value in mine.items():
        print(f"  {key:32} {value:10.1f}" + ("" if key == "edits" else " ms"))
    if theirs is None:
        print("oracle: numba-cuda-mlir not installed")
        return 0
    print("oracle (upstream MLIR, in-process):")
    for key, value in theirs.items():
        print(f"  {key:32} {value:10.1f} ms")
    total = mine["end to end (outline_file)"]
    print(f"ratio end to end / oracle parse+passes+print: {total / theirs['parse + passes + print']:.1f}x")
    print(f"ratio end to end / oracle parse+passes:       {total / theirs['parse + passes']:.1f}x   (goal <= 20x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
