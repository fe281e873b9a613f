"""Apply fixes to a text in rounds until nothing changes, never making it parse worse or gain errors."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from gpu_lsp.diagnostics.model import Applicability, Diagnostic, Fix, Severity
from gpu_lsp.text import Edit, apply_edits

MAX_ROUNDS = 10

Analyze = Callable[[str], list[Diagnostic]]
Choose = Callable[[list[Diagnostic]], list[Diagnostic]]


@dataclass
class FixOutcome:
    """The fixed text, its diagnostics (as `choose` reports them) and what was applied."""

    text: str
    diagnostics: list[Diagnostic]
    applied: Counter[str] = field(default_factory=Counter)
    severities: Counter[Severity] = field(default_factory=Counter)
    titles: list[tuple[str, str]] = field(default_factory=list)
    rounds: int = 0
    converged: bool = True


def _key(diagnostic: Diagnostic) -> tuple:
    fix = diagnostic.fix
    assert fix is not None
    return (diagnostic.code, fix.title, tuple((e.range.start, e.range.end, e.new_text) for e in fix.edits))


def _touches(a: Edit, b: Edit) -> bool:
    return a.range.start <= b.range.end and b.range.start <= a.range.end


def select_fixes(diagnostics: list[Diagnostic], level: Applicability, rejected: set[tuple]) -> list[Diagnostic]:
    """Fixable diagnostics at `level` or safer, in position order, skipping any whose edits touch an earlier chosen one.

    A skipped fix is not lost: the next round sees it again on the updated text (ruff's rule).
    """
    chosen: list[Diagnostic] = []
    taken: list[Edit] = []
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        fix = diagnostic.fix
        if fix is None or not fix.edits or fix.applicability < level or _key(diagnostic) in rejected:
            continue
        if any(_touches(edit, other) for edit in fix.edits for other in taken):
            continue
        chosen.append(diagnostic)
        taken.extend(fix.edits)
    return chosen


def _errors(diagnostics: list[Diagnostic]) -> tuple[int, int]:
    """(syntax errors, all errors) as the parser and rules report them, before any settings."""
    errors = [d for d in diagnostics if d.severity >= Severity.ERROR]
    return sum(1 for d in errors if d.code.startswith("GPU0")), len(errors)


def _worse(after: list[Diagnostic], before: list[Diagnostic]) -> bool:
    syntax_after, all_after = _errors(after)
    syntax_before, all_before = _errors(before)
    return syntax_after > syntax_before or all_after > all_before


def _apply(text: str, fixes: list[Fix]) -> str | None:
    try:
        return apply_edits(text, [edit for fix in fixes for edit in fix.edits])
    except ValueError:
        return None


def fix_text(
    text: str,
    analyze: Analyze,
    choose: Choose,
    level: Applicability = Applicability.SAFE,
    max_rounds: int = MAX_ROUNDS,
) -> FixOutcome:
    """Fix `text` round by round.

    Parameters
    ----------
    text: the source.
    analyze: every diagnostic of a text, before settings (used to judge a round: no new parse
        error and no more errors than before, or the round's fixes are rejected one by one).
    choose: the diagnostics the user asked for (selection, severities); only their fixes apply.
    level: the least safe applicability applied (SAFE, or UNSAFE with --unsafe-fixes).
    max_rounds: the bound on rounds; `converged` is False when it was reached with fixes left.

    Returns
    -------
    The outcome: final text, its chosen diagnostics, applied counts by code and fix titles.
    """
    raw = analyze(text)
    outcome = FixOutcome(text, choose(raw))
    rejected: set[tuple] = set()
    seen = {text}
    while True:
        fixable = select_fixes(outcome.diagnostics, level, rejected)
        if not fixable:
            return outcome
        if outcome.rounds >= max_rounds:
            outcome.converged = False
            return outcome
        outcome.rounds += 1
        accepted, new_text, new_raw = _round(text, raw, fixable, analyze, rejected)
        if not accepted:
            continue
        if new_text in seen:
            outcome.converged = False
            return outcome
        seen.add(new_text)
        for diagnostic in accepted:
            assert diagnostic.fix is not None
            outcome.applied[diagnostic.code] += 1
            outcome.severities[diagnostic.severity] += 1
            outcome.titles.append((diagnostic.code, diagnostic.fix.title))
        text, raw = new_text, new_raw
        rejected.clear()
        outcome.text, outcome.diagnostics = text, choose(raw)


def _round(
    text: str, raw: list[Diagnostic], fixable: list[Diagnostic], analyze: Analyze, rejected: set[tuple]
) -> tuple[list[Diagnostic], str, list[Diagnostic]]:
    """Apply the round's fixes together; if that makes things worse, keep them one at a time while they do not."""
    together = _apply(text, [d.fix for d in fixable if d.fix])
    if together is not None and together != text:
        after = analyze(together)
        if not _worse(after, raw):
            return fixable, together, after
    accepted: list[Diagnostic] = []
    best_text, best_raw = text, raw
    for diagnostic in fixable:
        trial = _apply(text, [d.fix for d in (*accepted, diagnostic) if d.fix])
        trial_raw = analyze(trial) if trial is not None and trial != best_text else None
        if trial is None or trial_raw is None or _worse(trial_raw, raw):
            rejected.add(_key(diagnostic))
            continue
        accepted.append(diagnostic)
        best_text, best_raw = trial, trial_raw
    return accepted, best_text, best_raw
