"""Parser speed beside upstream MLIR's parse+verify on the same generated files.

Not a test: prints figures for the notes. Generates its inputs with
../shared/tools/gen_gpu_mlir.py and times the oracle through
../shared/tools/oracle.py (needs the `numba-cuda-mlir` package, a dev extra).

    .venv/bin/python benchmarks/parse.py [--runs 5]
"""

from __future__ import annotations

import argparse
import functools
import gc
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from gpu_lsp.parser.api import parse  # noqa: E402
from gpu_lsp.parser.incremental import reparse  # noqa: E402
from gpu_lsp.text import TextRange  # noqa: E402


def generate(lines: int, folder: Path) -> Path:
    out = folder / f"inline_{lines}.mlir"
    subprocess.run(
        [sys.executable, str(SHARED / "tools" / "gen_gpu_mlir.py"), "--lines", str(lines), "-o", str(out)],
        check=True,
        capture_output=True,
    )
    return out


def oracle_ms(path: Path, runs: int) -> float | None:
    proc = subprocess.run(
        [sys.executable, str(SHARED / "tools" / "oracle.py"), "time", str(path), "--runs", str(runs)],
        capture_output=True,
        text=True,
    )
    m = re.match(r"([\d.]+) ms", proc.stdout)
    return float(m.group(1)) if m else None


def median_ms(fn, runs: int) -> float:
    samples = []
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(samples)


def incremental_ms(text: str, edits: int) -> float:
    parsed = parse(text)
    rng = random.Random(5)
    samples = []
    for _ in range(edits):
        pos = text.index("gpu.thread_id x", rng.randrange(len(text) - 2000)) + len("gpu.thread_id ")
        new_char = "y" if text[pos] == "x" else "x"
        new_text = text[:pos] + new_char + text[pos + 1 :]
        t0 = time.perf_counter()
        parsed = reparse(parsed, new_text, TextRange(pos, pos + 1))
        samples.append((time.perf_counter() - t0) * 1e3)
        text = new_text
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    parse("func.func @warm() { return }")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lines in (1000, 10000, 100000):
            path = generate(lines, Path(tmp))
            text = path.read_text()
            runs = args.runs if lines < 100000 else max(1, args.runs // 2)
            ours = median_ms(functools.partial(parse, text), runs)
            theirs = oracle_ms(path, args.runs)
            results[lines] = ours
            ratio = f"{ours / theirs:.1f}x" if theirs else "n/a"
            print(f"{lines:>6} lines: gpu-lsp parse {ours:8.1f} ms | oracle parse+verify {theirs or float('nan'):7.1f} ms | ratio {ratio}")
            if lines == 100000:
                print(f"        incremental re-parse after a one-character edit in one function: {incremental_ms(text, 20):.1f} ms (median of 20)")
    print(f"linearity: 100k / 10k = {results[100000] / results[10000]:.1f}x (10x is linear)")


if __name__ == "__main__":
    main()
