"""Recall, false alarms and time per kernel of the kernel checks (GPU414, GPU416, GPU417) over the labelled suite.

Not a test. Run from the repository root:

    .venv/bin/python benchmarks/sanitizer.py [--verbose]

Reads `tests/sanitizer/suite/` through its loader. Recall is per hazard: the labelled races,
barrier divergences and out-of-bounds accesses the matching rule reports. A false alarm is a
warning naming a hazard the kernel is not labelled with (any warning on a race-free kernel).
The time per kernel is the three rules on the kernel's file after the parse; targets (issue 24):
recall >= 90% for races and 100% for divergences, no false alarm, median <= 100 ms, worst <= 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from sanitizer.kernel_findings import HAZARDS, Findings, findings  # noqa: E402
from sanitizer.suite_loader import SUITE, load_suite  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--verbose", action="store_true", help="list each missed hazard and false alarm")
    args = ap.parse_args()
    kernels = load_suite()
    if not kernels:
        print("no suite kernels found")
        return 1
    findings(kernels[0])  # warm-up: imports, registry, the solver
    results: list[Findings] = [findings(k) for k in kernels]
    for hazard in HAZARDS.values():
        labelled = [r for r in results if hazard in r.kernel.verdicts]
        hit = [r for r in labelled if hazard in r.reported]
        share = 100 * len(hit) / len(labelled) if labelled else 100.0
        print(f"{hazard:20} {len(hit):3}/{len(labelled):3} reported ({share:.0f}%)")
        if args.verbose:
            for r in labelled:
                if r not in hit:
                    print(f"  missed: {r.kernel.path.relative_to(SUITE)}")
    alarms = [(r, d) for r in results for d in r.false_alarms]
    free = [r for r in results if "race-free" in r.kernel.verdicts]
    print(f"false alarms         {len(alarms)} (race-free kernels with a warning: {sum(1 for r in free if r.warnings)}/{len(free)})")
    if args.verbose:
        for r, d in alarms:
            print(f"  {r.kernel.path.relative_to(SUITE)}: {d.code} {d.message}")
    times = sorted(r.seconds * 1e3 for r in results)
    worst = max(results, key=lambda r: r.seconds)
    print(f"time per kernel      median {statistics.median(times):.1f} ms, worst {times[-1]:.1f} ms "
          f"({worst.kernel.path.relative_to(SUITE)}), {len(results)} kernels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
