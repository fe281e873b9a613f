"""Incremental linting for the editor: after an edit inside one unit, lint only that unit.

A unit is an operation directly inside a module body (a `func.func`, a `gpu.module`), the
same thing the incremental parser re-parses. After a full lint (`analysis.lint_parsed`)
the rule diagnostics are kept per unit (`Part`), with the unit's anchor base at the time.
When the next parse replaced some units but each keeps its interface (the symbols it
defines, with their types, and the symbols it uses), only the replaced units are linted
again, with the rules' view restricted to them; every other unit keeps its part, which
moves with its anchor (and keeps what was derived from it, such as its LSP form).

Rules that look across units can see something stale there (a module-level check, say),
so a quick result is marked incomplete and `Document.settle` replaces it with a full lint
once the editor is idle. Documents with suppression comments are always linted in full.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from typing import Any

from gpu_lsp.analysis import ALWAYS_REPORTED, lint_parsed
from gpu_lsp.diagnostics.context import OpIndex, RuleContext
from gpu_lsp.diagnostics.model import Diagnostic, Related
from gpu_lsp.diagnostics.mlir_versions import version_of
from gpu_lsp.diagnostics.registry import Selection, load_rules
from gpu_lsp.diagnostics.rule_engine import run_rules
from gpu_lsp.ir.core import Operation
from gpu_lsp.lsp.index import symbol_name
from gpu_lsp.parser.api import Chunk, ParsedFile

# Beyond this many replaced units, a full lint is as cheap.
MAX_CHANGED_UNITS = 4


def units_of(chunk: Chunk) -> list[Operation]:
    """The ops directly in the chunk's module body, in order."""
    module = chunk.module
    if not module.regions or not module.regions[0].blocks:
        return []
    return list(module.regions[0].blocks[0].operations)


def interface(unit: Operation) -> tuple:
    """What other units can see of a unit: symbols defined (with their types) and used."""
    defs = []
    uses = []
    for op in unit.walk():
        name = symbol_name(op)
        if name is not None:
            fn = op.properties.get("function_type")
            visibility = op.properties.get("sym_visibility")
            defs.append((op.name, name, str(fn) if fn is not None else "", str(visibility or ""), tuple(sorted(op.attributes))))
        for attr, _ in op.symbol_spans:
            uses.append(str(attr))
    return (tuple(defs), tuple(sorted(uses)))


def shift(d: Diagnostic, delta: int) -> Diagnostic:
    """`d` moved by `delta` code points (ranges, notes and fix edits)."""
    if not delta:
        return d
    related = tuple(Related(r.message, r.range.shifted(delta)) for r in d.related)
    fix = d.fix
    if fix is not None:
        fix = replace(fix, edits=tuple(replace(e, range=e.range.shifted(delta)) for e in fix.edits))
    return Diagnostic(d.code, d.message, d.range.shifted(delta), d.severity, fix, related, d.tags)


def _inside(d: Diagnostic, start: int, end: int) -> bool:
    ranges = [d.range, *(r.range for r in d.related)]
    if d.fix is not None:
        ranges.extend(e.range for e in d.fix.edits)
    return all(start <= r.start and r.end <= end for r in ranges)


class Part:
    """Diagnostics of one unit as linted when its anchor base was `base` (or, without a unit,
    diagnostics with current offsets). `derived` keeps what consumers computed from them."""

    __slots__ = ("op", "base", "start", "end", "interface", "items", "derived")

    def __init__(self, op: Operation | None, items: list[Diagnostic], interface_: tuple = ()) -> None:
        self.op = op
        self.items = items
        self.interface = interface_
        self.derived: dict[Any, Any] = {}
        if op is not None:
            rng = op.range
            self.base = op.anchor.base
            self.start, self.end = rng.start, rng.end
        else:
            self.base = self.start = self.end = 0

    @property
    def delta(self) -> int:
        """How far the unit moved since it was linted."""
        return self.op.anchor.base - self.base if self.op is not None else 0

    def current(self) -> list[Diagnostic]:
        delta = self.delta
        return [shift(d, delta) for d in self.items] if delta else list(self.items)


class LintResult:
    """The diagnostics of one version as parts; `diagnostics` materialises them, sorted."""

    def __init__(self, parts: list[Part], complete: bool) -> None:
        self.parts = parts
        self.complete = complete
        self._diagnostics: list[Diagnostic] | None = None

    @classmethod
    def of(cls, diagnostics: list[Diagnostic]) -> "LintResult":
        result = cls([Part(None, diagnostics)], True)
        result._diagnostics = diagnostics
        return result

    @property
    def diagnostics(self) -> list[Diagnostic]:
        if self._diagnostics is None:
            out: list[Diagnostic] = []
            for part in self.parts:
                out.extend(part.current())
            out.sort(key=Diagnostic.sort_key)
            self._diagnostics = out
        return self._diagnostics


class IncrementalLinter:
    """The lint results of one document, reused unit by unit across versions."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        # Per chunk: the unit parts, the rule diagnostics outside every unit, and where the
        # units started and ended in the text those diagnostics are in.
        self.chunks: list[tuple[list[Part], list[Diagnostic], list[int], list[int]]] | None = None

    def full(self, parsed: ParsedFile, settings: object | None, key: tuple) -> LintResult:
        """`lint_parsed`, remembering the rule diagnostics of each unit."""
        result = lint_parsed(parsed, settings)
        self.key = key
        self.chunks = None
        if _has_directives(parsed):
            return LintResult.of(result)
        remembered = self._remember(parsed, result)
        if remembered is None:
            return LintResult.of(result)
        self.chunks = remembered
        return self._result(parsed, remembered, True, _enabled(Selection.of(settings)))

    def quick(self, parsed: ParsedFile, settings: object | None, key: tuple) -> LintResult | None:
        """Lint only the replaced units; None when the edit needs a full lint."""
        if self.chunks is None or key != self.key or len(self.chunks) != len(parsed.chunks):
            return None
        if _has_directives(parsed):
            return None
        plans = []
        changed_total = 0
        for chunk, (parts, _, _, _) in zip(parsed.chunks, self.chunks):
            units = units_of(chunk)
            if len(units) != len(parts):
                return None
            changed = [i for i, (op, part) in enumerate(zip(units, parts)) if op is not part.op]
            changed_total += len(changed)
            if changed_total > MAX_CHANGED_UNITS:
                return None
            for i in changed:
                if units[i].span is None or interface(units[i]) != parts[i].interface:
                    return None
            plans.append((chunk, units, changed))
        selection = Selection.of(settings)
        rules = [r for r in load_rules().values() if r.check is not None and selection.enabled(r.code)]
        enabled = _enabled(selection)
        chunks = []
        for (chunk, units, changed), (old_parts, old_others, starts, ends) in zip(plans, self.chunks):
            parts = list(old_parts)
            for i in changed:
                op = units[i]
                rng = op.range
                found = [
                    d
                    for d in self._lint_unit(chunk, op, parsed.text, rules, version_of(settings))
                    if rng.start <= d.range.start <= rng.end and enabled(d.code)
                ]
                parts[i] = Part(op, found, interface(op))
            others = self._move(old_others, starts, ends, units)
            chunks.append((parts, others, *_bounds(units, others)))
        self.chunks = chunks
        return self._result(parsed, chunks, False, enabled)

    @staticmethod
    def _result(parsed: ParsedFile, chunks, complete: bool, enabled) -> LintResult:
        parts: list[Part] = []
        for chunk, (unit_parts, others, _, _) in zip(parsed.chunks, chunks):
            parts.extend(unit_parts)
            parts.append(Part(None, others + [d for d in chunk.diagnostics if enabled(d.code)]))
        return LintResult(parts, complete)

    @staticmethod
    def _lint_unit(chunk: Chunk, unit: Operation, text: str, rules: list, mlir_version: int) -> list[Diagnostic]:
        ctx = RuleContext(chunk, text, mlir_version)
        ctx.module = unit
        ctx.__dict__["index"] = OpIndex(unit)  # the rules' view: this unit only
        return run_rules(ctx, rules)

    @staticmethod
    def _move(others: list[Diagnostic], starts: list[int], ends: list[int], units: list[Operation]) -> list[Diagnostic]:
        """Diagnostics outside the units move with the unit that follows them."""
        out = []
        for d in others:
            i = bisect_right(starts, d.range.start)
            if i < len(units):
                delta = units[i].range.start - starts[i]
            elif units:
                delta = units[-1].range.end - ends[-1]
            else:
                delta = 0
            out.append(shift(d, delta))
        return out

    def _remember(self, parsed: ParsedFile, result: list[Diagnostic]):
        parser_diags = {id(d) for chunk in parsed.chunks for d in chunk.diagnostics}
        chunks = []
        for chunk in parsed.chunks:
            units = units_of(chunk)
            if any(op.span is None for op in units):
                return None
            chunks.append(([Part(op, [], interface(op)) for op in units], [], *_bounds(units, True)))
        for d in result:
            if id(d) in parser_diags:
                continue
            ci = _chunk_index(parsed, d.range.start)
            parts, others, starts, _ = chunks[ci]
            i = bisect_right(starts, d.range.start) - 1
            if i >= 0 and _inside(d, parts[i].start, parts[i].end):
                parts[i].items.append(d)
            else:
                others.append(d)
        return chunks


def _bounds(units: list[Operation], needed) -> tuple[list[int], list[int]]:
    """Where the units start and end (only kept while diagnostics outside them need it)."""
    if not needed:
        return [], []
    return [u.anchor.base + u.span.start for u in units], [u.anchor.base + u.span.end for u in units]


def _enabled(selection: Selection):
    return lambda code: code.startswith(ALWAYS_REPORTED) or selection.enabled(code)


def _chunk_index(parsed: ParsedFile, offset: int) -> int:
    for i, chunk in enumerate(parsed.chunks):
        if chunk.start <= offset <= chunk.end:
            return i
    return len(parsed.chunks) - 1


def _has_directives(parsed: ParsedFile) -> bool:
    return any("gpu-lint" in c.text for chunk in parsed.chunks for c in chunk.comments)
