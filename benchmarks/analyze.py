"""Time parse + verify + every rule on a generated 10,000-line file, beside upstream MLIR's parse+verify.

Not a test. Run from the repository root:

    .venv/bin/python benchmarks/analyze.py [--lines 10000] [--runs 5]

The input is generated into benchmarks/_data/ (git-ignored) with ../shared/tools/gen_gpu_mlir.py.
The oracle figure comes from ../shared/tools/oracle.py (numba-cuda-mlir) when it is installed.
Targets: the rules together cost less than the parse; the whole stays within 25x of the oracle
(issue #11); the sanitizer rules (GPU41x) add at most 25% to the rest. The collector is paused
during each run, as `analysis.lint_text` (gpu-lint) pauses it.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATA = REPO / "benchmarks" / "_data"
sys.path.insert(0, str(REPO))

from gpu_lsp import analysis  # noqa: E402
from gpu_lsp.diagnostics import suppression  # noqa: E402
from gpu_lsp.diagnostics.context import RuleContext  # noqa: E402
from gpu_lsp.diagnostics.registry import Phase, load_rules  # noqa: E402
from gpu_lsp.diagnostics.rule_engine import run_rules  # noqa: E402
from gpu_lsp.gcpause import paused_gc  # noqa: E402
from gpu_lsp.parser.api import parse  # noqa: E402
from gpu_lsp.text import LineIndex  # noqa: E402

SANITIZER = "gpu_lsp.diagnostics.rules.sanitize_"


def generate(lines: int) -> Path:
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"inline_{lines}.mlir"
    if not path.exists():
        subprocess.run(
            [sys.executable, str(SHARED / "tools" / "gen_gpu_mlir.py"), "--lines", str(lines), "-o", str(path)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return path


def oracle_ms(path: Path, runs: int) -> tuple[float, float] | None:
    """The oracle's parse+verify: (median, best) of `runs` runs."""
    tool = SHARED / "tools" / "oracle.py"
    try:
        proc = subprocess.run(
            [sys.executable, str(tool), "time", str(path), "--runs", str(runs)],
            capture_output=True,
            text=True,
            timeout=600,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"([0-9.]+) ms parse\+verify .*?min ([0-9.]+)", proc.stdout)
    return (float(m.group(1)), float(m.group(2))) if m else None


def one_run(text: str) -> dict[str, float]:
    """One parse and lint, timed by part, with the collector paused as `analysis.lint_text` pauses it."""
    with paused_gc():
        return _timed_parts(text)


def _timed_parts(text: str) -> dict[str, float]:
    rules = [r for r in load_rules().values() if r.check is not None]
    upstream = [r for r in rules if r.upstream]
    sanitizer = [r for r in rules if r.module.startswith(SANITIZER)]
    lint_only = [r for r in rules if not r.upstream and r not in sanitizer]
    t0 = time.perf_counter()
    parsed = parse(text, split=True)
    t1 = time.perf_counter()
    contexts = [RuleContext(chunk, text) for chunk in parsed.chunks]
    found = []
    for ctx in contexts:
        found.extend(run_rules(ctx, upstream, (Phase.PARSE, Phase.VERIFY)))
    t2 = time.perf_counter()
    ops = []
    for ctx in contexts:
        found.extend(run_rules(ctx, lint_only))
        ops.extend(op for op in ctx.index.ops if op.span is not None)
    directives, _ = suppression.read_directives(text, parsed.comments, ops, LineIndex(text))
    suppression.apply(found, directives)
    t3 = time.perf_counter()
    for ctx in contexts:
        found.extend(run_rules(ctx, sanitizer))
    t4 = time.perf_counter()
    return {"parse": (t1 - t0) * 1e3, "verify": (t2 - t1) * 1e3, "lint": (t3 - t2) * 1e3, "sanitizer": (t4 - t3) * 1e3}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    path = generate(args.lines)
    text = path.read_text()
    analysis.lint_text(text)  # warm-up: imports, registry, grammar caches
    samples = [one_run(text) for _ in range(args.runs)]
    med = {k: statistics.median(s[k] for s in samples) for k in samples[0]}
    rules = med["verify"] + med["lint"] + med["sanitizer"]
    total = med["parse"] + rules
    rest = total - med["sanitizer"]
    t0 = time.perf_counter()
    found = analysis.lint_text(text)
    end_to_end = (time.perf_counter() - t0) * 1e3
    print(f"input: {path.relative_to(REPO)} ({len(text.splitlines())} lines, {len(found)} diagnostics)")
    print(f"parse            {med['parse']:8.1f} ms")
    print(f"verify (GPU0/1)  {med['verify']:8.1f} ms")
    print(f"lint (GPU2/3/9)  {med['lint']:8.1f} ms")
    print(f"sanitizer GPU41x {med['sanitizer']:8.1f} ms  (+{100 * med['sanitizer'] / rest:.1f}% on the rest; target 25%)")
    print(f"rules together   {rules:8.1f} ms  ({'less' if rules < med['parse'] else 'MORE'} than the parse: {rules / med['parse']:.2f}x)")
    print(f"total            {total:8.1f} ms  (lint_text end to end: {end_to_end:.1f} ms)")
    best = min(sum(s.values()) for s in samples)
    oracle = oracle_ms(path, args.runs)
    if oracle is None:
        print("oracle           n/a (numba-cuda-mlir not installed)")
    else:
        median, fastest = oracle
        ratio = total / median
        print(f"oracle           {median:8.1f} ms parse+verify (upstream MLIR; best {fastest:.1f} ms)")
        print(f"ratio            {ratio:8.1f}x the oracle, median to median ({'within' if ratio <= 25 else 'OVER'} the 25x target)")
        print(f"best of {args.runs}        {best / fastest:8.1f}x ({best:.1f} ms against {fastest:.1f} ms; lint_text: {end_to_end / median:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
