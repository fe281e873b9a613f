"""Where the open of a large document goes, phase by phase, in one process (prints figures).

The language server's open runs on two processes at once (`lsp/lint_child.py`): the worker
parses the text and runs every rule but the per-op lint-phase ones, while the server parses the
text for requests and runs those; then the server reads the worker's findings against its
own parse, applies suppressions, remembers each unit's diagnostics and writes their JSON. This
script runs the same calls one after another on the 100k-line inline file and times each
(wall and CPU time, so that a loaded machine shows as wall > CPU), with the collector paused
as the server and the worker pause it. `critical path`
is what the open waits for when each side has a core: the longer side plus what follows both.

    python benchmarks/open_phases.py [--lines 100000] [--runs 1] [--installed] [--ranges 1 2 8] [--rules 15]

`--ranges K...` measures instead the range workers of a K-way open (`lsp/range_lint.py`): the text
cut at top-level op boundaries into K contiguous ranges of about equal size, each parsed and linted
with every rule as a range worker does (the CPU ms of each, one after another in this process;
`critical` is the largest), then the K ranges in K worker processes at
once (wall ms from the first start to the last result, and each worker's CPU ms: on a machine
with fewer than K free cores the wall is larger than the critical range's CPU).

`--installed` imports the gpu_lsp installed for the interpreter (e.g. a venv with the compiled
wheel) instead of this checkout's. `--rules N` also lists the N rules that cost the most CPU,
each run alone over the whole file (less what building the rule contexts costs).
"""

from __future__ import annotations

import argparse
import gc
import pickle
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    """Wall and CPU milliseconds of named phases (the best of the runs)."""

    def __init__(self) -> None:
        self.best: dict[str, tuple[float, float]] = {}

    def time(self, name: str, fn: Callable[[], Any]) -> Any:
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall, cpu = (time.perf_counter() - w0) * 1e3, (time.process_time() - c0) * 1e3
        old = self.best.get(name)
        if old is None or wall < old[0]:
            self.best[name] = (wall, cpu)
        return out

    def wall(self, *names: str) -> float:
        return sum(self.best[n][0] for n in names)


def one_open(text: str, clock: Clock) -> None:
    """The open's calls, the worker's then the server's, each timed."""
    from gpu_lsp.analysis import RuleSteps, finish_lint, lint_findings, lint_phase_rule
    from gpu_lsp.gcpause import paused_gc
    from gpu_lsp.lsp import engine, lint_child
    from gpu_lsp.lsp.documents import Snapshot
    from gpu_lsp.lsp.lint_cache import IncrementalLinter, LintKey
    from gpu_lsp.lsp.positions import LineTable
    from gpu_lsp.lsp.publish import SeverityOverrides, diagnostics_json, publish_message
    from gpu_lsp.lsp.settings import EditorSettings

    settings = EditorSettings()
    gc.collect()
    with paused_gc():
        # The worker (lint_child._work).
        held: dict[str, Any] = {}
        sent = clock.time("worker: text to the worker (pickle)", lambda: pickle.loads(pickle.dumps(text, pickle.HIGHEST_PROTOCOL)))
        held["parsed"] = clock.time("worker: parse", lambda: engine.start_document(sent).result())
        held["found"] = clock.time("worker: rules but the per-op lint ones", lambda: lint_findings(held["parsed"], settings, lambda r: not lint_phase_rule(r)))
        encoded = lambda: pickle.dumps(lint_child.encode(held["parsed"], held["found"]), pickle.HIGHEST_PROTOCOL)  # noqa: E731
        data = clock.time("worker: encode + pickle", encoded)
        # The server.
        parsed = clock.time("server: parse", lambda: engine.start_document(text).result())
        share = clock.time("server: per-op lint rules", lambda: RuleSteps(parsed, settings, lint_phase_rule).finish())
        items = clock.time("server: unpickle", lambda: pickle.loads(data))
        decoded = clock.time("server: decode", lambda: lint_child.decode(parsed, items))
        assert decoded is not None, "the worker's parse is the server's"
        done = clock.time("server: suppressions, select, sort", lambda: finish_lint(parsed, decoded + share, settings))
        key = LintKey.of(settings)
        lint = clock.time("server: remember per unit", lambda: IncrementalLinter().full(parsed, settings, key, done))
        snap = Snapshot("file:///open.mlir", 1, text, LineTable.of(text), parsed, lint, "utf-16", key, True)
        clock.time("server: diagnostics JSON", lambda: publish_message(snap.uri, 1, diagnostics_json(snap, SeverityOverrides({}))))
        held.clear()
    gc.collect()


def lint_range(text: str, lo: int, hi: int) -> tuple[float, int]:
    """CPU ms of a range worker's work (`analysis.lint_range`: the units of `[lo, hi)` parsed and
    linted with every rule, the collector paused, as in a worker), and the findings."""
    from gpu_lsp.analysis import lint_range as lint
    from gpu_lsp.gcpause import paused_gc
    from gpu_lsp.parser.ranges import unit_starts

    start = time.process_time()
    starts = unit_starts(text) or [0]
    with paused_gc():
        found, _ = lint(text[:hi], [s for s in starts if s < hi], lo, hi, None, len(text))
    return (time.process_time() - start) * 1e3, len(found.found) + len(found.module_found)


def measure_ranges(text: str, counts: list[int]) -> None:
    """Print, for each K, each range's CPU ms one after another, then the K ranges in K processes at once."""
    import multiprocessing

    from gpu_lsp.parser.ranges import cuts, unit_starts

    starts = unit_starts(text) or [0]
    for k in counts:
        pieces = cuts(text, starts, k)
        alone = [lint_range(text, lo, hi) for lo, hi in pieces]
        cpu = [ms for ms, _ in alone]
        found = sum(n for _, n in alone)
        each = ", ".join(f"{ms:.0f}" for ms in cpu)
        print(f"  K={k}: ranges one after another: cpu ms {each}; total {sum(cpu):.0f}, critical {max(cpu):.0f}; {found} findings")
        with multiprocessing.get_context("forkserver").Pool(k) as pool:
            pool.map(abs, range(k))  # the workers started: time their work only
            start = time.perf_counter()
            together = pool.starmap(lint_range, [(text, lo, hi) for lo, hi in pieces], chunksize=1)
            wall = (time.perf_counter() - start) * 1e3
        print(f"        in {k} processes at once: wall {wall:.0f} ms; cpu ms {', '.join(f'{ms:.0f}' for ms, _ in together)}")


def costly_rules(text: str, count: int) -> list[tuple[float, str]]:
    """The `count` enabled rules that take the most CPU milliseconds, each run alone after a
    run of all (the contexts' cost, that of running no rule, taken off), most costly first."""
    from gpu_lsp.analysis import lint_findings
    from gpu_lsp.diagnostics.registry import Selection, load_rules
    from gpu_lsp.gcpause import paused_gc
    from gpu_lsp.lsp import engine
    from gpu_lsp.lsp.settings import EditorSettings

    settings = EditorSettings()
    selection = Selection.of(settings)
    codes = [r.code for r in load_rules().values() if r.check is not None and selection.enabled(r.code)]
    gc.collect()
    with paused_gc():
        parsed = engine.start_document(text).result()

        def cpu_ms(accept: Callable[[Any], bool]) -> float:
            c0 = time.process_time()
            lint_findings(parsed, settings, accept)
            return (time.process_time() - c0) * 1e3

        cpu_ms(lambda r: True)  # once for the caches and imports the first run of a rule fills
        contexts = min(cpu_ms(lambda r: False) for _ in range(2))
        costs = [(cpu_ms(lambda r, code=code: r.code == code) - contexts, code) for code in codes]
    gc.collect()
    return sorted(costs, reverse=True)[:count]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--installed", action="store_true", help="the installed gpu_lsp, not this checkout's")
    parser.add_argument("--ranges", type=int, nargs="+", help="measure K-way opens instead (each K given)")
    parser.add_argument("--rules", type=int, default=0, metavar="N", help="also list the N rules that cost the most CPU")
    args = parser.parse_args(argv)
    if not args.installed:
        sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from lsp_typing import generate

    import gpu_lsp.parser.builder as builder

    compiled = not builder.__file__.endswith(".py")
    with tempfile.TemporaryDirectory() as tmp:
        text = generate(args.lines, Path(tmp)).read_text()
    if args.ranges:
        print(f"{args.lines} lines, {'compiled' if compiled else 'pure'} build: K ranges parsed and linted")
        measure_ranges(text, args.ranges)
        return 0
    clock = Clock()
    for _ in range(args.runs):
        one_open(text, clock)
    print(f"{args.lines} lines, {'compiled' if compiled else 'pure'} build, best of {args.runs}: wall ms (cpu ms)")
    for name, (wall, cpu) in clock.best.items():
        print(f"  {name:<44} {wall:8.0f} ({cpu:.0f})")
    worker = clock.wall("worker: text to the worker (pickle)", "worker: parse", "worker: rules but the per-op lint ones", "worker: encode + pickle")
    server = clock.wall("server: parse", "server: per-op lint rules")
    after = clock.wall("server: unpickle", "server: decode", "server: suppressions, select, sort", "server: remember per unit", "server: diagnostics JSON")
    print(f"  worker {worker:.0f}, server before the worker's result {server:.0f}, after it {after:.0f}")
    print(f"  critical path (a core each): {max(worker, server) + after:.0f} ms; one core: {worker + server + after:.0f} ms")
    if args.rules:
        print(f"the {args.rules} costliest rules, each alone: cpu ms")
        for cost, code in costly_rules(text, args.rules):
            print(f"  {code:<8} {cost:8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
