"""gpu-lint over a tree of 1,000 generated files: files per second for one process and for the pool.

Not a test: prints figures for the notes. Generates its inputs with
../shared/tools/gen_gpu_mlir.py (about 100 lines a file, inline and outlined
shapes, 10 folders of 100 files) in a temporary folder and runs the real
command line, start-up included, once with `--jobs 1` and once with the
default pool (one worker per core). Goal: the pool at least 1.6x faster than
one process on a 2-core machine, and the whole tree in under 30 s.

    .venv/bin/python benchmarks/lint_tree.py [--files 1000] [--runs 3]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT.parent / "shared" / "tools" / "gen_gpu_mlir.py"
COMMAND = [sys.executable, "-c", "import sys; from gpu_lsp.cli.gpu_lint import main; sys.exit(main())"]
SHAPES = (
    ["--mode", "inline", "--funcs", "2"],
    ["--mode", "inline", "--funcs", "3"],
    ["--mode", "outlined", "--funcs", "2"],
    ["--mode", "outlined", "--funcs", "3"],
)


def generate_tree(folder: Path, files: int) -> int:
    """Write `files` generated files under `folder`; returns the total line count."""
    shapes = [
        subprocess.run([sys.executable, str(GENERATOR), *shape], check=True, capture_output=True, text=True).stdout
        for shape in SHAPES
    ]
    lines = 0
    for i in range(files):
        text = shapes[i % len(shapes)]
        sub = folder / f"part{i % 10}"
        sub.mkdir(exist_ok=True)
        (sub / f"file{i:04}.mlir").write_text(text, encoding="utf-8")
        lines += text.count("\n")
    return lines


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_run(folder: Path, jobs: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (workers included) of one run over the tree."""
    cpu = _cpu()
    start = time.perf_counter()
    proc = subprocess.run(
        [*COMMAND, str(folder), "--isolated", "--no-cache", *jobs],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"gpu-lint failed ({proc.returncode}): {proc.stderr}")
    return elapsed, _cpu() - cpu


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def parallelism(workers: int = 2, n: int = 10_000_000) -> float:
    """How much faster `workers` processes finish pure-Python busy work than one process does, now.

    On an idle 2-core machine this is about 2; when other programs keep the cores busy it
    drops towards 1, and no pool can beat it: the lint pool's speed-up is to be read against it.
    """
    start = time.perf_counter()
    for _ in range(workers):
        _burn(n)
    serial = time.perf_counter() - start
    context = multiprocessing.get_context("fork")
    start = time.perf_counter()
    with context.Pool(workers) as pool:
        pool.map(_burn, [n] * workers)
    return serial / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3, help="runs of each variant (median and best reported)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gpu-lint-tree-") as tmp:
        folder = Path(tmp)
        lines = generate_tree(folder, args.files)
        print(
            f"tree: {args.files} files, {lines} lines ({lines / args.files:.0f} lines a file), {os.cpu_count()} cores"
        )
        median, best = {}, {}
        variants = (("one process", ["--jobs", "1"]), ("pool", []))
        samples: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in variants}
        control = []
        for _ in range(args.runs):  # interleaved, so that a busy moment hits both variants alike
            control.append(parallelism())
            for label, jobs in variants:
                samples[label].append(time_run(folder, jobs))
        for label, _ in variants:
            walls = [w for w, _ in samples[label]]
            median[label], best[label] = statistics.median(walls), min(walls)
            runs = ", ".join(f"{w:.2f} s wall / {c:.2f} s cpu" for w, c in samples[label])
            print(
                f"{label:12} median {median[label]:6.2f} s = {args.files / median[label]:6.1f} files/s, "
                f"best {best[label]:6.2f} s = {args.files / best[label]:6.1f} files/s  ({runs})"
            )
    print(
        f"pool speed-up: {median['one process'] / median['pool']:.2f}x on medians, "
        f"{best['one process'] / best['pool']:.2f}x on best runs (goal >= 1.6x); "
        f"pool wall time {median['pool']:.2f} s (goal < 30 s)"
    )
    print(
        f"control: 2 processes of busy work ran {statistics.median(control):.2f}x faster than one "
        f"(runs: {', '.join(f'{c:.2f}' for c in control)}; about 2 on an idle 2-core machine)"
    )
    load = os.getloadavg()[0]
    if load > 1.5:
        print(f"note: load average {load:.1f}: other processes share the cores, figures are pessimistic")


if __name__ == "__main__":
    main()
