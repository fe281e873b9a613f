"""Runs rules over one chunk: the verifier walk, per-op dispatch, and a GPU999 for a rule that raises."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Iterable

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.diagnostics.registry import ANY_OP, HOOKS, Phase, Rule, Stage, Violation
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import has_trait, installed_from, lookup
from gpu_lsp.text import TextRange

log = logging.getLogger(__name__)

INTERNAL_ERROR = "GPU999"


class _Runner:
    """Collects diagnostics; turns the first exception of each rule into one GPU999."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.out: list[Diagnostic] = []
        self.broken: set[str] = set()

    def run(self, rule: Rule, fn: Callable[..., Iterable[Violation]], *args) -> int:
        """Run one check; the number of error-severity diagnostics it produced."""
        if rule.code in self.broken:
            return 0
        try:
            return self._collect(rule, fn(*args))
        except Exception as exc:  # a broken rule must not take the others down
            self._broke(rule, exc)
        return 0

    def run_op(self, rule: Rule, fn: Callable[[Operation, RuleContext], Iterable[Violation]], op: Operation) -> int:
        """`run(rule, fn, op, ctx)` without packing the arguments (the verifier walk's call, once per check and op)."""
        if rule.code in self.broken:
            return 0
        try:
            return self._collect(rule, fn(op, self.ctx))
        except Exception as exc:
            self._broke(rule, exc)
        return 0

    def _broke(self, rule: Rule, exc: Exception) -> None:
        """One GPU999 for `rule`, which is not run again."""
        self.broken.add(rule.code)
        self.out.append(internal_error(rule, exc, self.ctx))

    def _collect(self, rule: Rule, found: Iterable[Violation]) -> int:
        """The diagnostics of what one check found; how many are errors (raises what the check raises)."""
        errors = 0
        if found:
            for v in found:
                d = Diagnostic(rule.code, v.message, v.range, v.severity or rule.severity, v.fix, v.related)
                if d.severity >= Severity.ERROR:
                    errors += 1
                self.out.append(d)
        return errors


def internal_error(rule: Rule, exc: BaseException, ctx: RuleContext) -> Diagnostic:
    """The GPU999 diagnostic standing for a rule that raised."""
    log.error("rule %s (%s) raised:\n%s", rule.code, rule.name, "".join(traceback.format_exception(exc)))
    where = ctx.chunk.start
    return Diagnostic(
        INTERNAL_ERROR,
        f"internal error in rule {rule.code} ({rule.name}): {type(exc).__name__}: {exc}",
        TextRange(where, where),
        Severity.WARNING,
    )


def run_rules(ctx: RuleContext, rules: Iterable[Rule], phases: Iterable[Phase] = tuple(Phase)) -> list[Diagnostic]:
    """Diagnostics of `rules` (those with a check) on the chunk of `ctx`, phase by phase."""
    runner = _Runner(ctx)
    active = [(r, check) for r in rules if (check := r.check) is not None]
    for phase in sorted(phases):
        batch = sorted(((r, check) for r, check in active if r.phase == phase), key=lambda pair: pair[0].code)
        if not batch:
            continue
        if phase == Phase.VERIFY:
            walked = [r for r, _ in batch if r.ops]
            if walked:
                _verifier_walk(runner, walked)
            for r, check in batch:
                if not r.ops:
                    runner.run(r, check, ctx)
            continue
        for r, check in batch:
            if r.ops:
                for op in checked_ops(ctx, r):
                    runner.run(r, check, op, ctx)
            else:
                runner.run(r, check, ctx)
    return runner.out


def run_check(ctx: RuleContext, rule: Rule, fn: Callable[..., Iterable[Violation]], *args) -> list[Diagnostic]:
    """The diagnostics of one check `fn(*args)` with `rule`'s code and severity (a GPU999 where it raises)."""
    runner = _Runner(ctx)
    runner.run(rule, fn, *args)
    return runner.out


def checked_ops(ctx: RuleContext, rule: Rule) -> list[Operation]:
    """The ops a per-op rule (one with `ops`) of a phase other than the verifier's checks, in
    `run_rules`' order: each is checked on its own, so they may be checked a slice at a time."""
    by_name = ctx.index.by_name
    out: list[Operation] = []
    names = list(rule.ops)
    if rule.declared is not None:
        names += [n for n in by_name if n not in rule.ops and _declares(rule, n)]
    fits: dict[str, bool] = {}  # per op name, whether it has the rule's traits
    for name in names:
        ops = ctx.index.ops if name == ANY_OP else by_name.get(name, ())
        if not rule.traits:
            out.extend(ops)
            continue
        for op in ops:
            fit = fits.get(op.name)
            if fit is None:
                fit = fits[op.name] = _fits(rule.traits, op.name)
            if fit:
                out.append(op)
    return out


def _declares(rule: Rule, name: str) -> bool:
    """Whether op `name`, declared by a project, passes the `declared` test of `rule`."""
    definition = lookup(name) if installed_from(name) is not None else None
    return definition is not None and rule.declared is not None and rule.declared(definition)


class OpSlices:
    """`run_rules(ctx, [rule])` for a per-op rule of the lint phase, a slice of ops per `step`
    (one GPU999 at most for a rule that raises, as in `run_rules`)."""

    def __init__(self, ctx: RuleContext, rule: Rule) -> None:
        self.ctx = ctx
        self.rule = rule
        self.ops = checked_ops(ctx, rule)
        self.next = 0
        self.runner = _Runner(ctx)

    def step(self, count: int) -> bool:
        """Check the next `count` ops; whether every op is checked."""
        check = self.rule.check
        if check is not None:
            for op in self.ops[self.next : self.next + count]:
                self.runner.run(self.rule, check, op, self.ctx)
        self.next += count
        return self.next >= len(self.ops)


def _fits(traits: tuple[str, ...], name: str) -> bool:
    """Whether an op named `name` has every trait in `traits` (a rule's narrowing of `ops=("*",)`)."""
    return all(has_trait(name, t) for t in traits)


def _declared_checks(rules: list[Rule], name: str) -> dict[Stage, list]:
    """By stage, the checks of the rules whose `declared` test an op a project declares passes."""
    out: dict[Stage, list] = {}
    for rule in rules:
        if rule.check is not None and _declares(rule, name):
            out.setdefault(rule.stage, []).append((rule, rule.check))
    return out


def _verifier_walk(runner: _Runner, rules: list[Rule]) -> None:
    """MLIR's verifier order: on entry the dialect attributes, the declared constraints, then the
    op's own verifier (a failure skips the nested ops); then the nested ops, then the region
    checks when everything inside verified.

    Checks registered for every op (`ops=("*",)`) run at the ATTRIBUTES stage only on ops with
    discardable attributes, and at the REGIONS stage only on ops with regions; a rule's
    `traits` narrow them further. The checks of an op name are listed once, on first meeting it.
    """
    by_code = {r.code: r for r in rules}
    tables: tuple[dict[str, list], ...] = tuple({} for _ in Stage)
    anys: tuple[list, ...] = tuple([] for _ in Stage)
    entries = [(r, r.check, r.ops, r.stage, r.traits) for r in rules]
    entries.extend((by_code[h.code], h.fn, h.ops, h.stage, ()) for h in HOOKS if h.code in by_code)
    for rule, fn, ops, stage, traits in entries:
        for name in ops:
            if name == ANY_OP:
                anys[stage].append((rule, fn, traits))
            else:
                tables[stage].setdefault(name, []).append((rule, fn))
    # Per op name: (entry checks of an op with discardable attributes, of one without, region checks).
    plans: dict[str, tuple[list, list, list, list]] = {}

    def plan(name: str) -> tuple[list, list, list, list]:
        def every(stage: Stage) -> list:
            return [(rule, fn) for rule, fn, traits in anys[stage] if not traits or _fits(traits, name)]

        declared = _declared_checks(rules, name)

        def own(stage: Stage) -> list:
            return tables[stage].get(name, []) + declared.get(stage, [])

        attributes = own(Stage.ATTRIBUTES)
        inside = own(Stage.INVARIANTS) + every(Stage.INVARIANTS) + own(Stage.ENTRANCE)
        entrance = every(Stage.ENTRANCE)
        found = plans[name] = (
            attributes + every(Stage.ATTRIBUTES) + inside + entrance,
            attributes + inside + entrance,
            own(Stage.REGIONS),
            every(Stage.REGIONS),
        )
        return found

    halted = runner.ctx.halted

    def visit_children(op: Operation) -> bool:
        failed = False
        for region in op.regions:
            for block in region.blocks:
                for child in block.operations:
                    if visit(child):
                        failed = True
        return failed

    def visit(op: Operation) -> bool:
        if not op.known:  # an op read without its syntax (after a parse error) is not verified
            if op.regions:
                visit_children(op)
            return False
        checks = plans.get(op.name) or plan(op.name)
        for rule, fn in checks[0] if op.attributes else checks[1]:
            if runner.run_op(rule, fn, op):
                halted.add(id(op))
                return True
        if not op.regions:
            return any(runner.run_op(rule, fn, op) for rule, fn in checks[2])
        if visit_children(op):
            return True
        # Region checks for every op only concern ops with regions, and come first: they stand for
        # upstream's checks on leaving each block (its terminator) and its region traits, which
        # run before the op's own `verifyRegions()`.
        return any(runner.run_op(rule, fn, op) for rule, fn in checks[3]) or any(runner.run_op(rule, fn, op) for rule, fn in checks[2])

    visit(runner.ctx.module)
