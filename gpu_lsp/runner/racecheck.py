"""`gpu-run --racecheck`: every thread's memory accesses in a kernel, and the pairs that race.

With `--racecheck` the NumPy backend records, for each load, store and `memref.atomic_rmw` a
kernel executes, which element of which buffer each active thread touches, how (read, write
or atomic), and in which barrier interval of its block. At the end of each launch two
accesses conflict when they come from two distinct threads, touch the same element of the
same buffer, at least one writes, they are not both atomic, and nothing orders them:

- a `gpu.barrier` orders the accesses of one block before it against those after it, for the
  address spaces its `memfence` names (all of them without `memfence`; none with `memfence []`);
- a barrier that only some threads of a block reach (under a condition that differs between
  them: undefined behaviour, GPU414) orders nothing in that block;
- barriers never order threads of different blocks, so two blocks conflict on global memory
  whatever barriers they pass; workgroup memory is per block, so blocks never share it;
- private memory (`memref.alloca`, private attributions) is per thread and never conflicts.

`gpu-run --racecheck` reports the first conflicting pair in compute-sanitizer racecheck's
terms ("Race reported between Write access at ... and Read access at ...", both threads,
the element and the memory space) on standard error and exits with 1.

Python API, for tests and tools:

    run_racecheck(text, *, filename="<stdin>", entry="main", args=None, timeout=None,
                  limit=MAX_CONFLICTS, focus=None) -> RacecheckRun

runs the program on the NumPy backend and returns `RacecheckRun(conflicts, result)`: every
conflicting pair found (up to `limit`, the earliest first), each a `Conflict(buffer, space,
element, first, second)` whose `Access(op_name, location, kind, block, thread)` halves give the
op, its `(line, column)`, `"read"`/`"write"`/`"atomic"`, and the block and thread ids; and the
`RunResult` of the run. Accesses recorded before a run error (say an out-of-bounds index)
are checked too. Recording is off unless asked for: normal runs pay one `None` test per access.
`focus`, a set of `Focus(line, block, thread)`, records only those accesses (the op on that
1-based line run by that thread): a long kernel's specific pair is then found past the
`limit` earliest conflicts, and faster.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpu_lsp.runner.access_log import MAX_CONFLICTS, Access, Conflict, Focus
from gpu_lsp.runner.api import RunResult, run_text

__all__ = ["MAX_CONFLICTS", "Access", "Conflict", "Focus", "RacecheckRun", "run_racecheck"]


@dataclass(frozen=True)
class RacecheckRun:
    """What `run_racecheck` found: the conflicting pairs, and the run itself."""

    conflicts: list[Conflict]
    result: RunResult


def run_racecheck(
    text: str,
    *,
    filename: str = "<stdin>",
    entry: str = "main",
    args: list[str] | None = None,
    timeout: float | None = None,
    limit: int = MAX_CONFLICTS,
    focus: frozenset[Focus] | None = None,
) -> RacecheckRun:
    """Run the program on the NumPy backend with racecheck on; every conflicting pair (up to `limit`, among the `focus` accesses) and the run."""
    result = run_text(
        text, filename=filename, entry=entry, args=args, timeout=timeout, backend="numpy", racecheck=limit, racecheck_focus=focus
    )
    return RacecheckRun(list(result.races), result)
