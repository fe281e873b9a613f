"""Why the kernel checks left an access undecided: the infos GPU416/GPU417 give when `report-undecided` is on."""

from __future__ import annotations

from gpu_lsp.diagnostics.sanitizer.accesses import Access
from gpu_lsp.diagnostics.sanitizer.verdicts import MAX_ACCESSES, Verdicts
from gpu_lsp.diagnostics.sanitizer.witness import UNDECIDED


def _sizes(sizes: tuple[int | None, ...]) -> str:
    return ", ".join("?" if s is None else str(s) for s in sizes)


def undecided_accesses(verdicts: Verdicts, bounds: bool) -> list[tuple[Access, str]]:
    """Each access (once per op) whose race (or, with `bounds`, bounds) check is undecided, and why."""
    out: list[tuple[Access, str]] = []
    seen: set[int] = set()
    states = verdicts.bounds_state if bounds else verdicts.race_state
    too_many = len(verdicts.model.accesses) > MAX_ACCESSES
    for access in verdicts.model.accesses:
        key = id(access.op)
        if key in seen or (bounds and access.op.name.startswith("vector.transfer")):
            continue
        seen.add(key)
        if too_many or states.get(key) == UNDECIDED:
            out.append((access, why(verdicts, access, bounds)))
    return out


def why(verdicts: Verdicts, access: Access, bounds: bool) -> str:
    """The first reason that applies, from the plainest to the solver's time limit."""
    launch, model = verdicts.launch, verdicts.model
    if len(model.accesses) > MAX_ACCESSES:
        return f"the kernel makes more than {MAX_ACCESSES} accesses, which are not analysed"
    if bounds and all(size is None for size in access.shape):
        return "the buffer's shape is dynamic"
    if not bounds and not model.complete:
        return "the kernel calls a function, or branches in a way, the model does not follow: it may touch the buffer"
    if None in launch.block or None in launch.grid:
        return (
            f"the launch size is not known (block ({_sizes(launch.block)}), grid ({_sizes(launch.grid)})): "
            "launch it with constant sizes, or give the kernel known_block_size / known_grid_size or its ids an upper_bound"
        )
    if not access.direct or access.offsets:
        return "the access goes through a view the model does not follow"
    return (
        "its index or path depends on a value the model does not follow (a loaded value, a parameter launched "
        "with different values), or the solver did not decide it within its time limit"
    )
