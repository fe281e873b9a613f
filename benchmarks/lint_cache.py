"""gpu-lint's cache over a tree of 1,000 generated files: a cold run, then a warm one over the unchanged tree.

Not a test: prints figures for the notes. Generates its inputs with
../shared/tools/gen_gpu_mlir.py (200 and 300 lines, inline and outlined shapes,
each file made unique by a comment line) under benchmarks/_data/lint_cache/,
then runs the real command line (start-up included) with an empty cache folder
(cold: every file analysed and stored) and again (warm: every file read from
the cache). Goal: the warm run at most 10% of the cold one. For scale it also
times the floor a warm run cannot beat: `gpu-lint --version` (start-up) and
reading and hashing the tree in this process, and the package fingerprint.

    .venv/bin/python benchmarks/lint_cache.py [--files 1000] [--no-cache-run]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "_data" / "lint_cache"
GENERATOR = ROOT.parent / "shared" / "tools" / "gen_gpu_mlir.py"
COMMAND = [sys.executable, "-c", "import sys; from gpu_lsp.cli.gpu_lint import main; sys.exit(main())"]
SHAPES = (
    ["--mode", "inline", "--lines", "200"],
    ["--mode", "inline", "--lines", "300"],
    ["--mode", "outlined", "--lines", "200"],
    ["--mode", "outlined", "--lines", "300"],
)


def generate_tree(folder: Path, files: int) -> int:
    """Write `files` distinct generated files in 10 folders below `folder`; returns the total line count."""
    shapes = [
        subprocess.run([sys.executable, str(GENERATOR), *shape], check=True, capture_output=True, text=True).stdout
        for shape in SHAPES
    ]
    shutil.rmtree(folder, ignore_errors=True)
    lines = 0
    for i in range(files):
        text = f"// generated file {i}\n" + shapes[i % len(shapes)]
        sub = folder / f"part{i % 10}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"file{i:04}.mlir").write_text(text, encoding="utf-8")
        lines += text.count("\n")
    return lines


def timed(*argv: str) -> float:
    """Wall seconds of one gpu-lint run in the data folder (exit 0 or 1 expected)."""
    start = time.perf_counter()
    proc = subprocess.run([*COMMAND, *argv], cwd=DATA, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"gpu-lint failed ({proc.returncode}): {proc.stderr}")
    return elapsed


def hash_tree(folder: Path) -> float:
    """Seconds to read and hash every file of the tree in this process."""
    start = time.perf_counter()
    for path in sorted(folder.rglob("*.mlir")):
        hashlib.sha256(path.read_bytes()).hexdigest()
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--no-cache-run", action="store_true", help="also time a run with --no-cache (the cost of writing)")
    args = ap.parse_args()
    tree, cache = DATA / "tree", DATA / "cache"
    lines = generate_tree(tree, args.files)
    shutil.rmtree(cache, ignore_errors=True)
    print(f"tree: {args.files} files, {lines} lines ({lines / args.files:.0f} lines a file), {os.cpu_count()} cores")
    options = ["tree", "--isolated", "--cache-dir", str(cache)]
    if args.no_cache_run:
        print(f"no cache : {timed(*options, '--no-cache'):7.2f} s")
    cold = timed(*options)
    warm = timed(*options)
    print(f"cold     : {cold:7.2f} s (every file analysed and stored)")
    print(f"warm     : {warm:7.2f} s (every file read from the cache)")
    print(f"warm/cold: {warm / cold:7.1%} (goal <= 10%)")
    start = time.perf_counter()
    subprocess.run([*COMMAND, "--version"], check=True, capture_output=True)
    startup = time.perf_counter() - start
    from gpu_lsp.lint.cache import package_fingerprint

    start = time.perf_counter()
    package_fingerprint()
    fingerprint = time.perf_counter() - start
    print(
        f"floor    : start-up {startup:.2f} s, reading and hashing the tree {hash_tree(tree):.3f} s, "
        f"package fingerprint {fingerprint * 1000:.1f} ms"
    )
    load = os.getloadavg()[0]
    if load > 1.5:
        print(f"note: load average {load:.1f}: other processes share the cores, figures are noisy")


if __name__ == "__main__":
    main()
