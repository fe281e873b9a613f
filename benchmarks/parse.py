"""Parser speed beside upstream MLIR's parse+verify on the same generated files.

Not a test: prints figures for the notes. Generates its inputs with
../shared/tools/gen_gpu_mlir.py and times the oracle through
../shared/tools/oracle.py (needs the `numba-cuda-mlir` package, a dev extra).
Both sides are the best of `--runs` (the least disturbed run on a shared machine);
`--phases` adds the time of each phase of our parse (lexing, structure, building the
IR with the ops' readers, name resolution; the rest is the collector's pass over the new
IR and the chunk's bookkeeping; the IR's teardown is in no figure). For the open of the
language server, both its processes, and the compiled build, see `open_phases.py`.

    .venv/bin/python benchmarks/parse.py [--runs 5] [--phases]
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

from gpu_lsp.gcpause import paused_gc  # noqa: E402
from gpu_lsp.ir.opdefs import op_names  # noqa: E402
from gpu_lsp.parser.api import parse  # noqa: E402
from gpu_lsp.parser.builder import Builder  # noqa: E402
from gpu_lsp.parser.incremental import reparse  # noqa: E402
from gpu_lsp.parser.resolve import Resolver  # noqa: E402
from gpu_lsp.syntax.cursor import ParseContext  # noqa: E402
from gpu_lsp.syntax.lexer import tokenize  # noqa: E402
from gpu_lsp.syntax.raw import RawOp  # noqa: E402
from gpu_lsp.syntax.structure import parse_structure  # noqa: E402
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
    """The oracle's best parse+verify time of `runs`."""
    proc = subprocess.run(
        [sys.executable, str(SHARED / "tools" / "oracle.py"), "time", str(path), "--runs", str(runs)],
        capture_output=True,
        text=True,
    )
    m = re.search(r"min ([\d.]+)", proc.stdout) or re.match(r"([\d.]+) ms", proc.stdout)
    return float(m.group(1)) if m else None


def best_ms(fn, runs: int) -> float:
    """The best time of `fn()` over `runs`, without the teardown of what it returns (the IR)."""
    samples = []
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        samples.append((time.perf_counter() - t0) * 1e3)
        del out
    return min(samples)


def phases_ms(text: str, runs: int) -> dict[str, float]:
    """Best time of each phase of parse_chunk over `runs`."""
    best: dict[str, float] = {}
    for _ in range(runs):
        gc.collect()
        with paused_gc():
            names = op_names()
            t0 = time.perf_counter()
            lexed = tokenize(text, names)
            t1 = time.perf_counter()
            raw, _ = parse_structure(lexed.tokens)
            t2 = time.perf_counter()
            builder = Builder(ParseContext(text, names), [])
            ops = [builder.top_level_op(item) for item in raw if isinstance(item, RawOp)]
            t3 = time.perf_counter()
            Resolver([]).resolve_top(ops)
            t4 = time.perf_counter()
        for phase, ms in (("lex", t1 - t0), ("structure", t2 - t1), ("build", t3 - t2), ("resolve", t4 - t3)):
            best[phase] = min(best.get(phase, float("inf")), ms * 1e3)
        del lexed, raw, ops, builder
    return best


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
    ap.add_argument("--phases", action="store_true", help="also time each phase of the parse")
    args = ap.parse_args()
    parse("func.func @warm() { return }")
    print(f"best of {args.runs} runs each (gpu-lsp at 100k lines: best of {max(1, args.runs // 2)})")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lines in (1000, 10000, 100000):
            path = generate(lines, Path(tmp))
            text = path.read_text()
            runs = args.runs if lines < 100000 else max(1, args.runs // 2)
            ours = best_ms(functools.partial(parse, text), runs)
            theirs = oracle_ms(path, args.runs)
            results[lines] = ours
            ratio = f"{ours / theirs:.1f}x" if theirs else "n/a"
            print(f"{lines:>6} lines: gpu-lsp parse {ours:8.1f} ms | oracle parse+verify {theirs or float('nan'):7.1f} ms | ratio {ratio}")
            if args.phases:
                phases = phases_ms(text, runs)
                print("        phases: " + ", ".join(f"{k} {v:.0f} ms" for k, v in phases.items()) + f", rest {ours - sum(phases.values()):.0f} ms")
            if lines == 100000:
                print(f"        incremental re-parse after a one-character edit in one function: {incremental_ms(text, 20):.1f} ms (median of 20)")
    print(f"linearity: 100k / 10k = {results[100000] / results[10000]:.1f}x (10x is linear)")


if __name__ == "__main__":
    main()
