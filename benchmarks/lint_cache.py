"""gpu-lint's cache over a tree of 1,000 generated files: the second run of an unchanged tree
beside the first (goal: at most 10% of it). Prints figures.

The tree is lint_tree.py's (about 100 lines a file, four shapes), each file made unique by a
comment naming it, so that the first run finds nothing in the cache. Each run is the real
command line, start-up and the default pool included, with `--cache-dir` in the temporary
folder: a cold run (empty cache) then a warm one, `--runs` times.

    .venv/bin/python benchmarks/lint_cache.py [--files 1000] [--runs 2]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from lint_tree import COMMAND, ROOT, generate_tree


def time_run(folder: Path, cache: Path) -> float:
    """Wall seconds of one gpu-lint run over the tree."""
    start = time.perf_counter()
    proc = subprocess.run(
        [*COMMAND, str(folder), "--isolated", "--cache-dir", str(cache)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"gpu-lint failed ({proc.returncode}): {proc.stderr}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=2, help="cold + warm pairs (median reported)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gpu-lint-cache-") as tmp:
        folder = Path(tmp) / "tree"
        folder.mkdir()
        generate_tree(folder, args.files)
        for i, path in enumerate(sorted(folder.rglob("*.mlir"))):
            path.write_text(f"// file {i}\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
        cache = Path(tmp) / "cache"
        cold, warm = [], []
        for _ in range(args.runs):
            shutil.rmtree(cache, ignore_errors=True)
            cold.append(time_run(folder, cache))
            warm.append(time_run(folder, cache))
        entries = sum(1 for p in cache.rglob("*") if p.is_file() and p.name != ".gitignore")
    c, w = statistics.median(cold), statistics.median(warm)
    print(f"tree: {args.files} files; cache: {entries} entries")
    print(f"first run (empty cache)  median {c:6.2f} s  ({', '.join(f'{x:.2f}' for x in cold)})")
    print(f"second run (unchanged)   median {w:6.2f} s  ({', '.join(f'{x:.2f}' for x in warm)})")
    print(f"second / first: {100 * w / c:.1f}% (goal <= 10%)")
    load = os.getloadavg()[0]
    if load > 1.5:
        print(f"note: load average {load:.1f}: other processes share the cores")


if __name__ == "__main__":
    main()
