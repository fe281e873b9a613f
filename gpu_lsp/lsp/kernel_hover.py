"""Hover on a kernel: which of its accesses the kernel checks (GPU416, GPU417) prove race-free and in bounds."""

from __future__ import annotations

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.rules.sanitize_kernel import is_checked_kernel
from gpu_lsp.diagnostics.sanitizer.kernel_checks import cached_verdicts
from gpu_lsp.diagnostics.sanitizer.witness import FOUND, PROVEN
from gpu_lsp.ir.core import Operation
from gpu_lsp.lsp.documents import Snapshot

_SHOWN = 8  # accesses listed by line at most, per group


def _context(snapshot: Snapshot, op: Operation) -> RuleContext | None:
    """The rule context of the chunk holding `op`, one per chunk and snapshot."""
    rng = op.range
    if rng is None:
        return None
    for i, chunk in enumerate(snapshot.parsed.chunks):
        if chunk.start <= rng.start < max(chunk.end, chunk.start + 1):
            key = f"kernel_hover.context.{i}"
            ctx = snapshot.cache.get(key)
            if ctx is None:
                ctx = snapshot.cache[key] = RuleContext(chunk, snapshot.text)
            return ctx
    return None


def kernel_checks_doc(snapshot: Snapshot, op: Operation, line_of) -> str:
    """Markdown on a kernel's accesses: proven race-free / in bounds, racing, out of bounds, undecided."""
    if op.name not in ("gpu.func", "gpu.launch") or not is_checked_kernel(op):
        return ""
    ctx = _context(snapshot, op)
    if ctx is None:
        return ""
    verdicts = cached_verdicts(op, ctx)
    accesses = verdicts.model.accesses
    if not accesses:
        return "Kernel checks: no load, store or atomic to check."
    total = len(accesses)
    lines = [f"Kernel checks ({total} accesses, {verdicts.seconds * 1e3:.0f} ms):"]
    for label, states, state in (
        ("proven race-free", verdicts.race_state, PROVEN),
        ("racing (GPU416)", verdicts.race_state, FOUND),
        ("proven in bounds", verdicts.bounds_state, PROVEN),
        ("out of bounds (GPU417)", verdicts.bounds_state, FOUND),
    ):
        picked = [a for a in accesses if states.get(id(a.op)) == state]
        lines.append(f"- {label}: {len(picked)}/{total}{_where(picked, line_of)}")
    open_races = [a for a in accesses if verdicts.race_state.get(id(a.op)) not in (PROVEN, FOUND)]
    open_bounds = [a for a in accesses if verdicts.bounds_state.get(id(a.op)) not in (PROVEN, FOUND)]
    if open_races or open_bounds:
        lines.append(f"- not decided: races {len(open_races)}{_where(open_races, line_of)}, "
                     f"bounds {len(open_bounds)}{_where(open_bounds, line_of)}")
    if not verdicts.model.complete:
        lines.append("- a call or region the model does not follow: no access is proven race-free")
    return "\n".join(lines)


def _where(accesses: list, line_of) -> str:
    if not accesses:
        return ""
    shown = ", ".join(str(line_of(a.op)) for a in accesses[:_SHOWN])
    more = f", +{len(accesses) - _SHOWN}" if len(accesses) > _SHOWN else ""
    return f" (line {shown}{more})"
