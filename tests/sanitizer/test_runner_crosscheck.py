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
ERRORS = (
    ("already freed", LIFETIME),
    ("threads per block", LIMITS),
    ("a CUDA launch needs positive sizes", LIMITS),
    ("CUDA allows at most", LIMITS),
    ("from a kernel; register it", PLACEMENT),
    ("from the host; copy it back", PLACEMENT),
    ("is reached by only some threads", DIVERGENT),
)


def observed(program: Program) -> set[tuple[str, int]]:
    """(code, line) of each hazard the runner observes; line 0 where only the code is compared."""
    result = run_text(program.text, backend="numpy")
    lines = LineIndex(program.text)
    out: set[tuple[str, int]] = set()
    for w in result.warnings:
        if "a data race on a GPU" in w.message:
            code = LIFETIME if w.message.startswith("'gpu.dealloc'") else RACE
            out.add((code, lines.position(w.op.name_range.start)[0] + 1 if code == RACE else 0))
    if result.error is not None:
        code = next((c for text, c in ERRORS if text in result.error.message), None)
        assert code is not None, f"{program.story}: unexpected runner error {result.error.message}\n{program.text}"
        out.add((code, 0))
    return out


def reported(program: Program) -> set[tuple[str, int]]:
    lines = LineIndex(program.text)
    out: set[tuple[str, int]] = set()
    for d in lint_text(program.text):
        if d.code.startswith("GPU41"):
            out.add((d.code, lines.position(d.range.start)[0] + 1 if d.code == RACE else 0))
    return out


@pytest.fixture(scope="module")
def outcomes() -> list[tuple[Program, set, set]]:
    return [(p, observed(p), reported(p)) for p in generate(COUNT)]


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
