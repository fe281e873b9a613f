"""One entry point for analysing a buffer: parse, then every check, per chunk."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from gpu_lsp.diagnostics import suppression
from gpu_lsp.diagnostics.context import OpIndex, RuleContext, report_undecided_of
from gpu_lsp.diagnostics.mlir_versions import NEWEST, REDUCTION_KINDS, version_of
from gpu_lsp.diagnostics.model import MAX_DIAGNOSTICS, Diagnostic, Severity, capped
from gpu_lsp.diagnostics.registry import Phase, Rule, Scope, Selection, always_reported, load_rules
from gpu_lsp.diagnostics.rule_engine import OpSlices, run_rules
from gpu_lsp.gcpause import paused_gc
from gpu_lsp.parser.api import CLOSED_HERE, Chunk, ParsedFile, parse
from gpu_lsp.parser.builder import SYNTAX, UNDEFINED_VALUE
from gpu_lsp.parser.ranges import RangeParse, parse_range, symbols_used
from gpu_lsp.text import LineIndex

# A `RuleSteps.step` checks this many ops between looks at the clock, until its budget is spent.
STEP_OPS = 200
STEP_BUDGET_S = 0.015


def _upstream_rules() -> list[Rule]:
    return [r for r in load_rules().values() if r.upstream and r.check is not None]


def verify_chunk(
    chunk: Chunk, allow_unregistered: bool = True, text: str | None = None, mlir_version: int = NEWEST
) -> list[Diagnostic]:
    """What `mlir-opt` would report for one chunk, sorted.

    Like mlir-opt, a chunk that fails to parse is not verified and only its first parse
    error is reported (plus gpu-lsp's hints). Otherwise every verifier error is reported,
    in MLIR's verification order: an op that fails its own checks is not looked into.
    Without `allow_unregistered` (mlir-opt's -allow-unregistered-dialect), an op, type or
    attribute of a dialect upstream's mlir-opt does not register is an error (GPU149).
    `text` (the whole buffer) lets fixes compute indentation; `mlir_version` is the LLVM major
    version whose syntax and messages apply.
    """
    rules = _upstream_rules()
    ctx = RuleContext(chunk, text, mlir_version, exhaustive=False, allow_unregistered=allow_unregistered)
    notes = [d for d in chunk.diagnostics if d.severity < Severity.ERROR]
    errors = [d for d in chunk.diagnostics if d.severity >= Severity.ERROR]
    errors.extend(d for d in run_rules(ctx, rules, (Phase.PARSE,)) if d.severity >= Severity.ERROR)
    if errors:
        errors.sort(key=lambda d: (_reported_at(chunk, d), d.sort_key()))
        first = errors[:1]
        for d in errors[1:]:  # the errors upstream emits along with the first one (gpu_syntax.py)
            if "cascade" not in d.tags:
                break
            first.append(d)
        return sorted(notes + first, key=Diagnostic.sort_key)
    out = notes + run_rules(ctx, rules, (Phase.VERIFY,))
    out.sort(key=Diagnostic.sort_key)
    return out


def _reported_at(chunk: Chunk, d: Diagnostic) -> int:
    """Where upstream's parser stands when it reports `d`: a name never defined at the chunk's end
    (a function's region, generic or custom, is no isolated name scope for the parser: a later op
    may still define it), so any parse error is met first; a bracket left open where it is closed
    (what the op's reader finds before it comes first); any other error where it is."""
    if d.code == UNDEFINED_VALUE:
        return chunk.end
    if d.code == SYNTAX and d.related and d.related[0].message == CLOSED_HERE:
        return d.related[0].range.start
    return d.range.start


def lint_chunk(chunk: Chunk, text: str | None = None, settings: object | None = None) -> list[Diagnostic]:
    """Every diagnostic of one chunk: the parser's, the verifier's and the linter's (no suppressions)."""
    selection = Selection.of(settings)
    rules = [r for r in load_rules().values() if r.check is not None and selection.enabled(r.code)]
    ctx = RuleContext(chunk, text, version_of(settings), report_undecided=report_undecided_of(settings))
    return list(chunk.diagnostics) + run_rules(ctx, rules)


def lint_parsed(parsed: ParsedFile, settings: object | None = None) -> list[Diagnostic]:
    """Every diagnostic of a parsed file after suppression comments and select/ignore, sorted.

    The cyclic collector is paused meanwhile: the rules make short-lived objects only, and a
    collection would scan the whole IR (a second or more at 100k lines).
    """
    with paused_gc():
        return finish_lint(parsed, lint_findings(parsed, settings), settings)


def lint_findings(parsed: ParsedFile, settings: object | None = None, rules: Callable[[Rule], bool] | None = None) -> list[Diagnostic]:
    """The parser's diagnostics and those of the enabled rules that `rules` accepts (every one
    by default), before suppressions and select/ignore.

    Rules of the lint phase are independent of each other, and a per-op one checks each op on
    its own (verifier rules are not: a failing op stops the verification of what it holds), so
    `finish_lint` of these findings for the other rules plus `RuleSteps(..., lint_phase_rule)`'s
    is `lint_parsed`."""
    chosen = _chosen_rules(settings, rules)
    with paused_gc():
        found: list[Diagnostic] = []
        for ctx in _contexts(parsed, settings):
            found.extend(ctx.chunk.diagnostics)
            found.extend(run_rules(ctx, chosen))
        return found


@dataclass(frozen=True)
class RangeLint:
    """What the lint of one range of top-level units finds (plain data, sent by a worker): the
    parser's diagnostics first (`parser` of them) and the findings of the rules that are not
    whole-module, then apart what the whole-module rules find in the range, with the range's
    parse facts that `merge_ranges` needs; all before suppressions and select/ignore."""

    found: list[Diagnostic]
    parser: int
    module_found: list[Diagnostic]
    exact: bool
    units: int
    defined: tuple[str, ...]
    used: frozenset[str]
    # Every diagnostic of the range after its suppressions and select/ignore, the whole-module rules'
    # included (what the file has there when they count, `merge_ranges`); None when a suppression
    # comment of the range may reach beyond it (`ignore-file`, or no op after it in the range).
    finished: list[Diagnostic] | None = None


def lint_range(
    text: str, starts: list[int], lo: int, hi: int, settings: object | None = None, length: int | None = None
) -> tuple[RangeLint, RangeParse]:
    """The lint of the top-level units of `text` starting in `[lo, hi)` (`parser/ranges.py`, which
    says what `length` is for), and their parse."""
    with paused_gc():
        part = parse_range(text, starts, lo, hi, length)
        ctx = RuleContext(part.chunk, text, version_of(settings), report_undecided=report_undecided_of(settings))
        chosen = _chosen_rules(settings, None)
        found = list(part.chunk.diagnostics) + run_rules(ctx, [r for r in chosen if not_whole_module(r)])
        module_found = run_rules(ctx, [r for r in chosen if not not_whole_module(r)])
        finished = _finish_range(text, part, found + module_found, settings)
    return RangeLint(found, len(part.chunk.diagnostics), module_found, part.exact, part.units, part.defined, symbols_used(ctx.index.ops), finished), part


def _finish_range(text: str, part: RangeParse, found: list[Diagnostic], settings: object | None) -> list[Diagnostic] | None:
    """`finish_lint` of a range's findings (`RangeLint.finished`), or None where its suppressions may reach beyond it."""
    parsed = ParsedFile(text, [part.chunk], False)
    if suppression.may_have_directives(parsed.comments):
        ops = [op for op in OpIndex(part.chunk.module).ops if op.span is not None and not op.facts.implicit]
        directives, _ = suppression.read_directives(text, parsed.comments, ops, LineIndex(text))
        if any(d.file_level or d.covers is None for d in directives):
            return None
    return finish_lint(parsed, found, settings)


def merged_finished(parts: list[RangeLint]) -> list[Diagnostic] | None:
    """Every diagnostic of the file that ranges cover, from the ranges' own finished lists (no
    parse of the whole file), where they are the file's (`merge_ranges` counts the whole-module
    rules' and no suppression reaches across ranges); None otherwise."""
    merged = merge_ranges(parts)
    if merged is None or not merged[1] or any(p.finished is None for p in parts):
        return None
    lists = [p.finished for p in parts if p.finished]
    out = [d for found in lists for d in found]
    # Each list is sorted (`finish_lint`): so is their concatenation where each ends before the next starts.
    if any(a[-1].sort_key() > b[0].sort_key() for a, b in zip(lists, lists[1:])):
        out.sort(key=Diagnostic.sort_key)
    return out if len(out) < MAX_DIAGNOSTICS else None


def range_findings(text: str, starts: list[int], lo: int, hi: int, settings: object | None = None) -> tuple[list[Diagnostic], RangeParse]:
    """The parser's diagnostics of the range `[lo, hi)` and what the rules that are not whole-module find in it."""
    lint, part = lint_range(text, starts, lo, hi, settings)
    return lint.found, part


def merge_ranges(parts: list[RangeLint]) -> tuple[list[Diagnostic], bool] | None:
    """The findings of ranges that cover a file, as `lint_findings` of the file's parse gives
    them, and whether they are all of them (False: some are to be found on the file's parse,
    `complete_ranges`); None when the ranges' parses are not the file's (it is to be linted whole).
    They are all where no symbol is referred to across ranges nor defined in two (the whole-module
    rules' count) and no verifier error may have stopped the verification of what holds it in the
    file (it does not in a range)."""
    if not all(p.exact for p in parts) or sum(p.units for p in parts) < 2 or sum(p.parser for p in parts) >= MAX_DIAGNOSTICS:
        return None
    found = [d for p in parts for d in p.found]
    if not _closed(parts):
        return found, False
    found += [d for p in parts for d in p.module_found]
    return found, not any(_stops_verification(d) for d in found)


def complete_ranges(parsed: ParsedFile, parts: list[RangeLint], settings: object | None = None) -> list[Diagnostic] | None:
    """`lint_findings` of `parsed` from ranges that cover it (their parser diagnostics `parsed`'s
    own), running on `parsed` only the rules the ranges cannot stand for: the whole-module ones
    where a symbol is referred to across ranges, and every verifier rule where a verifier error
    may stop the file's verification (the lint-phase rules are independent of it); None when the
    ranges' parses are not the file's."""
    merged = merge_ranges(parts)
    if merged is None:
        return None
    found, complete = merged
    if complete:
        return found
    module = [] if _closed(parts) else _run_on(parsed, settings, lambda rule: not not_whole_module(rule))
    if not any(_stops_verification(d) for d in found + module):
        return found + module
    kept = [d for d in found + module if _phase(d) is not Phase.VERIFY]
    return kept + _run_on(parsed, settings, lambda rule: rule.phase == Phase.VERIFY)


def _closed(parts: list[RangeLint]) -> bool:
    """Whether no symbol is referred to across the ranges nor defined in two of them."""
    owner: dict[str, int] = {}
    for i, p in enumerate(parts):
        if any(owner.setdefault(name, i) != i for name in p.defined):
            return False
    return all(owner.get(name, i) == i for i, p in enumerate(parts) for name in p.used)


def _run_on(parsed: ParsedFile, settings: object | None, rules: Callable[[Rule], bool]) -> list[Diagnostic]:
    """What the enabled rules that `rules` accepts find in `parsed` (not the parser's diagnostics)."""
    chosen = _chosen_rules(settings, rules)
    with paused_gc():
        return [d for ctx in _contexts(parsed, settings) for d in run_rules(ctx, chosen)]


def _phase(d: Diagnostic) -> Phase:
    rule = load_rules().get(d.code)
    return rule.phase if rule is not None else Phase.PARSE


def _stops_verification(d: Diagnostic) -> bool:
    return _phase(d) is Phase.VERIFY and d.severity >= Severity.ERROR


def not_whole_module(rule: Rule) -> bool:
    """Whether `rule` finds on a range of top-level ops what it finds there in the whole file."""
    return rule.scope is not Scope.MODULE


def lint_phase_rule(rule: Rule) -> bool:
    """Whether `rule` is a per-op rule of the lint phase (which `lint_findings` may split off,
    and `RuleSteps` runs a slice of ops at a time)."""
    return rule.phase == Phase.LINT and bool(rule.ops)


class RuleSteps:
    """The findings of the enabled rules that `rules` accepts (not the parser's), per-op rules
    of the lint phase only, a few ops at a time (`step`), so that the language server answers
    requests in between."""

    def __init__(self, parsed: ParsedFile, settings: object | None, rules: Callable[[Rule], bool]) -> None:
        self.parsed = parsed
        self._contexts = _contexts(parsed, settings)
        self._rules = _chosen_rules(settings, rules)
        assert all(lint_phase_rule(rule) for rule in self._rules), "per-op rules of the lint phase only"
        self._slices = [OpSlices(ctx, rule) for rule in self._rules for ctx in self._contexts]
        self._next = 0

    def step(self, budget_s: float | None = None) -> bool:
        """Check ops until `budget_s` (STEP_BUDGET_S) has passed; whether every rule has run on every op."""
        deadline = time.perf_counter() + (STEP_BUDGET_S if budget_s is None else budget_s)
        with paused_gc():
            while self._next < len(self._slices):
                if self._slices[self._next].step(STEP_OPS):
                    self._next += 1
                if time.perf_counter() >= deadline:
                    break
        return self._next >= len(self._slices)

    @property
    def found(self) -> list[Diagnostic]:
        """What the rules found so far."""
        return [d for piece in self._slices for d in piece.runner.out]

    def finish(self) -> list[Diagnostic]:
        """What every rule found (running those left)."""
        while not self.step():
            pass
        return self.found


def _chosen_rules(settings: object | None, rules: Callable[[Rule], bool] | None) -> list[Rule]:
    selection = Selection.of(settings)
    return [r for r in load_rules().values() if r.check is not None and selection.enabled(r.code) and (rules is None or rules(r))]


def _contexts(parsed: ParsedFile, settings: object | None) -> list[RuleContext]:
    version = version_of(settings)
    undecided = report_undecided_of(settings)
    return [RuleContext(chunk, parsed.text, version, report_undecided=undecided) for chunk in parsed.chunks]


def finish_lint(parsed: ParsedFile, found: list[Diagnostic], settings: object | None = None) -> list[Diagnostic]:
    """`found` (`lint_findings`) after suppression comments and select/ignore, sorted, at most
    `MAX_DIAGNOSTICS` of them (`model.capped`)."""
    selection = Selection.of(settings)
    version = version_of(settings)
    text = parsed.text
    with paused_gc():
        enabled = lambda code: always_reported(code) or selection.enabled(code)  # noqa: E731
        found = [d for d in _one_per_defect(found, text, version) if enabled(d.code)]
        directives: list[suppression.Directive] = []
        problems: list[Diagnostic] = []
        # The ops and the lines only place a suppression comment: taken only where one may be.
        if suppression.may_have_directives(parsed.comments):
            ops = [op for chunk in parsed.chunks for op in OpIndex(chunk.module).ops if op.span is not None and not op.facts.implicit]
            directives, problems = suppression.read_directives(text, parsed.comments, ops, LineIndex(text))
        kept = suppression.apply(found, directives)
        kept.extend(d for d in problems if enabled(d.code))
        kept.extend(suppression.unused(text, directives, enabled, load_rules().keys()))
        kept.sort(key=Diagnostic.sort_key)
        return capped(kept)


def _one_per_defect(found: list[Diagnostic], text: str, version: int) -> list[Diagnostic]:
    """Without the parser's `invalid op kind` errors (it reads the newest syntax) where GPU009 says it
    clearly, or where the word is right for `mlir-version` (e.g. `max` with LLVM 17)."""
    clearer = {d.range.start for d in found if d.code == "GPU009"}

    def replaced(d: Diagnostic) -> bool:
        if d.code != "GPU002" or not d.message.endswith("invalid op kind"):
            return False
        return d.range.start in clearer or text[d.range.start : d.range.end] in REDUCTION_KINDS.at(version)

    return [d for d in found if not replaced(d)]


def lint_text(text: str, path: str | None = None, settings: object | None = None) -> list[Diagnostic]:
    """Parse `text` (split at `// -----` like the language server) and lint it.

    `path` is accepted for per-file settings and messages; `settings` is anything with
    `select`/`ignore` code prefixes and an `mlir_version` (or None: every rule, the newest version).
    """
    del path
    with paused_gc():
        return lint_parsed(parse(text, split=True), settings)


def analyze_text(text: str, split: bool = False, settings: object | None = None) -> tuple[ParsedFile, list[Diagnostic]]:
    """Parse `text` and return the file with all its diagnostics (parser, verifier, linter), sorted.

    Suppression comments are applied; `settings` (select/ignore) may narrow the rules run.
    """
    with paused_gc():
        parsed = parse(text, split)
        return parsed, lint_parsed(parsed, settings)
