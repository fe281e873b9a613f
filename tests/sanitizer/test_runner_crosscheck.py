"""The sanitizer (GPU41x) against gpu-run's NumPy backend on generated programs with and without hazards.

The runner executes each program and reports what it observes: races between GPU ops it
tracks with happens-before, frees and uses of freed memory, launch sizes a device rejects,
kernels touching host memory and the host touching device memory, collectives only part of a
block reaches. The static rules must report the same hazards, and nothing on programs the
runner finds clean. Uninitialized reads and leaks are not compared: the runner zero-fills
and does not track them (the generated programs never have them).
"""

from __future__ import annotations

from collections import Counter

import pytest

from gpu_lsp.analysis import lint_text
from gpu_lsp.runner import run_text
from gpu_lsp.text import LineIndex
from sanitizer.programs import Program, generate

COUNT = 240
RACE, LIFETIME, LIMITS, DIVERGENT, PLACEMENT = "GPU410", "GPU411", "GPU413", "GPU414", "GPU415"
HOST_CODES = frozenset(f"GPU41{i}" for i in range(6))
ERRORS = (
    ("already freed", LIFETIME),
    ("threads per block", LIMITS),
    ("a CUDA launch needs positive sizes", LIMITS),
    ("CUDA allows at most", LIMITS),
    ("from a kernel; register it", PLACEMENT),
    ("from the host; copy it back", PLACEMENT),
    ("is reached by only some threads", DIVERGENT),
)


def run_hazards(text: str) -> tuple[set[tuple[str, int]], str | None]:
    """(code, line) of each hazard the runner observes (line 0 where only the code is compared),
    and the message of an error that ended the run without being one of those hazards."""
    result = run_text(text, backend="numpy", timeout=30)
    lines = LineIndex(text)
    out: set[tuple[str, int]] = set()
    for w in result.warnings:
        if "a data race on a GPU" in w.message:
            code = LIFETIME if w.message.startswith("'gpu.dealloc'") else RACE
            out.add((code, lines.position(w.op.name_range.start)[0] + 1 if code == RACE else 0))
    other = None
    if result.error is not None:
        code = next((c for needle, c in ERRORS if needle in result.error.message), None)
        if code is None:
            other = result.error.message
        else:
            out.add((code, 0))
    elif result.exit_code != 0:
        other = result.stderr
    return out, other


def observed(program: Program) -> set[tuple[str, int]]:
    seen, other = run_hazards(program.text)
    assert other is None, f"{program.story}: unexpected runner error {other}\n{program.text}"
    return seen


def reported(text: str) -> set[tuple[str, int]]:
    """(code, line) of each GPU410-415 diagnostic, in the same form as `run_hazards` (the races and
    out-of-bounds accesses inside kernels, GPU416/417, are checked against `gpu-run --racecheck`
    in test_kernel_races.py)."""
    lines = LineIndex(text)
    out: set[tuple[str, int]] = set()
    for d in lint_text(text):
        if d.code in HOST_CODES:
            out.add((d.code, lines.position(d.range.start)[0] + 1 if d.code == RACE else 0))
    return out


@pytest.fixture(scope="module")
def outcomes() -> list[tuple[Program, set, set]]:
    return [(p, observed(p), reported(p.text)) for p in generate(COUNT)]


def test_static_rules_agree_with_the_runner(outcomes) -> None:
    disagreements = [
        f"{p.story}: runner {sorted(seen)}, gpu-lint {sorted(found)}\n{p.text}" for p, seen, found in outcomes if seen != found
    ]
    assert disagreements == [], disagreements[0]


def test_the_programs_cover_every_hazard_and_clean_code(outcomes) -> None:
    """Not vacuous: each compared rule fires on some programs, and many programs are clean."""
    fired = Counter(code for _, seen, _ in outcomes for code, _ in seen)
    clean = sum(1 for _, seen, _ in outcomes if not seen)
    assert len(outcomes) >= 200
    for code in (RACE, LIFETIME, LIMITS, DIVERGENT, PLACEMENT):
        assert fired[code] >= 5, (code, fired)
    assert clean >= 60, clean
