"""What the kernel checks (GPU414, GPU416, GPU417) report on a suite kernel, timed, against its labels."""

from __future__ import annotations

import time
from dataclasses import dataclass

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.diagnostics.registry import load_rules
from gpu_lsp.diagnostics.rule_engine import run_rules
from gpu_lsp.diagnostics.rules.sanitize_kernel import is_checked_kernel
from gpu_lsp.diagnostics.sanitizer.kernel_checks import cached_verdicts
from gpu_lsp.diagnostics.sanitizer.witness import Race
from gpu_lsp.parser.api import parse
from sanitizer.suite_loader import SuiteKernel

# The hazard each rule reports, in the suite's verdict words.
HAZARDS = {"GPU414": "barrier-divergence", "GPU416": "race", "GPU417": "out-of-bounds"}


@dataclass(frozen=True)
class Findings:
    """The warnings of the kernel checks on one suite kernel, and the seconds they took."""

    kernel: SuiteKernel
    warnings: tuple[Diagnostic, ...]
    seconds: float

    @property
    def reported(self) -> frozenset[str]:
        return frozenset(HAZARDS[d.code] for d in self.warnings)

    @property
    def false_alarms(self) -> tuple[Diagnostic, ...]:
        """Warnings naming a hazard the kernel's labels do not have."""
        return tuple(d for d in self.warnings if HAZARDS[d.code] not in self.kernel.verdicts)


def findings(kernel: SuiteKernel) -> Findings:
    """Parse the kernel's file and run the three kernel checks on it, timing the checks."""
    rules = [r for code, r in load_rules().items() if code in HAZARDS]
    text = kernel.path.read_text()
    parsed = parse(text, split=True)
    start = time.perf_counter()
    found: list[Diagnostic] = []
    for chunk in parsed.chunks:
        found.extend(run_rules(RuleContext(chunk, text), rules))
    seconds = time.perf_counter() - start
    return Findings(kernel, tuple(d for d in found if d.code in HAZARDS and d.severity >= Severity.WARNING), seconds)


def races(kernel: SuiteKernel) -> list[Race]:
    """The races GPU416 reports on the kernel's file, with their witnesses and both accesses."""
    text = kernel.path.read_text()
    out: list[Race] = []
    for chunk in parse(text, split=True).chunks:
        ctx = RuleContext(chunk, text)
        for op in ctx.index.named("gpu.func", "gpu.launch"):
            if is_checked_kernel(op):
                out.extend(cached_verdicts(op, ctx).races)
    return out
