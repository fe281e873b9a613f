"""The kernel checks (GPU414, GPU416, GPU417) over the labelled suite: recall, no false alarm, cost, witnesses the runner reproduces."""

from __future__ import annotations

import statistics

import pytest

from gpu_lsp.diagnostics.sanitizer.witness import Race
from gpu_lsp.runner.api import run_text
from gpu_lsp.runner.racecheck import Focus, run_racecheck
from gpu_lsp.text import LineIndex
from sanitizer.kernel_findings import Findings, findings, races
from sanitizer.suite_loader import SUITE, SuiteKernel, load_suite

KERNELS = load_suite()
RESULTS: list[Findings] = [findings(k) for k in KERNELS]
# Issue 24's target: 90% of the labelled races reported. Those missed are decided by values the
# model does not follow (the old values atomics return, data loaded from memory).
RACE_RECALL_FLOOR = 0.9


def _name(r: Findings) -> str:
    return str(r.kernel.path.relative_to(SUITE))


def _labelled(hazard: str) -> list[Findings]:
    return [r for r in RESULTS if hazard in r.kernel.verdicts]


def test_race_recall() -> None:
    races = _labelled("race")
    found = [r for r in races if "race" in r.reported]
    assert races and len(found) / len(races) >= RACE_RECALL_FLOOR, [_name(r) for r in races if r not in found]


@pytest.mark.parametrize("hazard", ["barrier-divergence", "out-of-bounds"])
def test_every_divergence_and_out_of_bounds_access_reported(hazard: str) -> None:
    labelled = _labelled(hazard)
    assert labelled and [_name(r) for r in labelled if hazard not in r.reported] == []


def test_no_false_alarm() -> None:
    """No warning names a hazard the kernel is not labelled with (none on a race-free kernel)."""
    alarms = [f"{_name(r)}: {d.code} {d.message}" for r in RESULTS for d in r.false_alarms]
    assert alarms == []


def test_time_per_kernel() -> None:
    """Median at most 100 ms, worst at most 2 s (the solver's time limits bound it)."""
    times = [r.seconds for r in RESULTS]
    assert statistics.median(times) <= 0.1 and max(times) <= 2.0, sorted(times)[-3:]


WARNED = [r for r in RESULTS if any(d.code == "GPU417" for d in r.warnings)]


@pytest.mark.parametrize("result", WARNED, ids=[_name(r) for r in WARNED])
def test_out_of_bounds_witness_faults_in_the_runner(result: Findings) -> None:
    """gpu-run (NumPy backend) faults with an out-of-bounds index on one of the ops GPU417 names
    (the runner stops at the first fault, so one witness per file is confirmed)."""
    text = result.kernel.path.read_text()
    run = run_text(text)
    assert run.error is not None and "out of bounds" in run.error.message, run.error
    assert run.error.op is not None and run.error.op.range is not None
    lines = LineIndex(text)
    warned = {lines.position(d.range.start)[0] for d in result.warnings if d.code == "GPU417"}
    assert lines.position(run.error.op.range.start)[0] in warned


RACY = [(k, found) for k in KERNELS if (found := races(k))]


def _sides(race: Race, lines: LineIndex) -> tuple[Focus, Focus]:
    """The two accesses of a GPU416 witness as racecheck names them (1-based op lines)."""
    a, b, w = race.first.op, race.second.op, race.witness
    assert a.range is not None and b.range is not None
    return (
        Focus(lines.position(a.range.start)[0] + 1, _triple(w.blocks[0]), _triple(w.threads[0])),
        Focus(lines.position(b.range.start)[0] + 1, _triple(w.blocks[1]), _triple(w.threads[1])),
    )


def _triple(ids: tuple[int, ...]) -> tuple[int, int, int]:
    return (ids + (0, 0, 0))[0], (ids + (0, 0, 0))[1], (ids + (0, 0, 0))[2]


@pytest.mark.parametrize("kernel, found", RACY, ids=[str(k.path.relative_to(SUITE)) for k, _ in RACY])
def test_race_witnesses_reproduced_by_racecheck(kernel: SuiteKernel, found: list[Race]) -> None:
    """gpu-run --racecheck, recording only the witnesses' accesses, reports each GPU416 witness
    exactly: the same two threads on the same two ops, on the same element. A run that faults
    first on an out-of-bounds index GPU417 reports confirms nothing more."""
    text = kernel.path.read_text()
    lines = LineIndex(text)
    sides = {race: _sides(race, lines) for race in found}
    run = run_racecheck(text, focus=frozenset(f for pair in sides.values() for f in pair))
    faulted = run.result.error is not None and "out of bounds" in run.result.error.message
    if faulted and not run.conflicts:
        op = run.result.error.op
        assert op is not None and op.range is not None
        warned = {lines.position(d.range.start)[0] for d in findings(kernel).warnings if d.code == "GPU417"}
        assert lines.position(op.range.start)[0] in warned
        return
    seen = {
        (frozenset({Focus(c.first.location[0], c.first.block, c.first.thread), Focus(c.second.location[0], c.second.block, c.second.thread)}), c.element)
        for c in run.conflicts
    }
    missed = [race.witness for race, pair in sides.items() if (frozenset(pair), race.witness.element) not in seen]
    assert missed == [], sorted(seen, key=str)[:5]


def test_a_witness_does_not_depend_on_what_was_checked_before() -> None:
    """The solver is shared within a launch and z3 keeps state: the witness must still be one (the least ids)."""
    racy = [r.kernel for r in RESULTS if any(d.code == "GPU416" for d in r.warnings)][:4]
    assert len(racy) >= 2
    forward = [findings(k).warnings for k in racy]
    backward = [findings(k).warnings for k in reversed(racy)][::-1]
    assert [[d.message for d in w] for w in forward] == [[d.message for d in w] for w in backward]
    assert forward == [r.warnings for r in RESULTS if r.kernel in racy]
