"""Incremental linting for the editor: after an edit inside one unit, lint only that unit.

A unit is an operation directly inside a module body (a `func.func`, a `gpu.module`, and the
ops of a `gpu.module`'s body, its kernels: `context.module_units`), the same thing the
incremental parser re-parses. After a full lint (`analysis.lint_parsed`) the rule diagnostics
are kept per unit (`Part`), with the unit's anchor base at the time; a module's part keeps what
lies before its first op (its head). A finding whose ranges lie in several units (a symbol
defined twice: the second definition, and a note at the first) is kept with each range moving
with its unit (`Spanning`) while those units are kept and, for a check of a whole module, no
unit in that module is linted again; any other finding outside the units is the chunk's.
Units are matched by identity, so an edit may replace, add or remove units (the error-tolerant
parse splits a damaged op). The new units are linted again, with the rules' view restricted
to each; when the interfaces (the symbols defined, with their types, and the symbols used)
of the replaced units differ from those of the new ones, so are the units that use a symbol
whose definition changed (the callers of a function, the launches of a kernel, also those naming it
through an attribute alias), unless a symbol is defined twice in a module that holds a new unit
(GPU121 checks a module once its ops verified), a new unit is in a module whose own checks failed
(its ops were not verified), or a new unit shares SSA values with other units (the body of a
function whose first line was deleted: linted alone, its uses would lack their definitions).
In a container module a unit's launches are also checked against their kernels (GPU105, a
check of the module: the unit's view leaves it out); an error of it stops the module's
verification, so it means a full lint.
Every other unit keeps its part, which moves with its anchor (and keeps what was derived from
it, such as its LSP form).

Rules that look across units can see something stale there (a module-level check, say),
so a quick result is marked incomplete and `Document.settle` replaces it with a full lint
once the editor is idle. Documents with suppression comments are always linted in full.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import repeat
from typing import Any

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.diagnostics.context import RuleContext, module_units, own_ops, report_undecided_of
from gpu_lsp.diagnostics.mlir_versions import version_of
from gpu_lsp.diagnostics.model import MAX_DIAGNOSTICS, Diagnostic, Related, Severity, TextRange
from gpu_lsp.diagnostics.registry import ANY_OP, Selection, always_reported, load_rules
from gpu_lsp.diagnostics.rule_engine import run_check, run_rules
from gpu_lsp.diagnostics.rules.verify_launch import KERNEL_REFERENCE, is_container_module, kernel_references
from gpu_lsp.diagnostics.suppression import may_have_directives
from gpu_lsp.ir.attributes import SymbolRefAttr
from gpu_lsp.ir.core import BlockArgument, Operation, OpResult, source_range, source_start
from gpu_lsp.ir.opdefs import has_trait
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.parser.api import Chunk, ParsedFile

# Beyond this many replaced units, a full lint is as cheap.
MAX_CHANGED_UNITS = 4


def units_of(chunk: Chunk) -> list[Operation]:
    """The units of the chunk's module (`context.module_units`)."""
    return module_units(chunk.module)


def _own_end(units: list[Operation], i: int) -> int:
    """Where what unit `i` holds of its own ends: the start of its first op that is a unit (a module's
    head: what follows moves with its ops), or its end."""
    return source_range(units[i + 1]).start if _holds_units(units, i) else source_range(units[i]).end


class UnitTexts:
    """Where each unit's own text lies (from its start to `_own_end`), to tell which unit holds a range."""

    __slots__ = ("units", "starts", "ends")

    def __init__(self, units: list[Operation]) -> None:
        self.units = units
        self.starts = [source_start(u) for u in units]
        self.ends = [_own_end(units, i) for i in range(len(units))]

    def holding(self, start: int, end: int) -> int:
        """The index of the unit whose own text holds `[start, end]`, or -1."""
        i = bisect_right(self.starts, start) - 1
        return i if i >= 0 and end <= self.ends[i] else -1


def interface(unit: Operation) -> tuple:
    """What other units can see of a unit: symbols defined (with their types) and used (a module's
    own: its ops are units with interfaces of their own)."""
    defs = []
    uses = []
    for op in own_ops(unit):
        name = symbol_name(op)
        if name is not None:
            fn = op.properties.get("function_type")
            visibility = op.properties.get("sym_visibility")
            defs.append((op.name, name, str(fn) if fn is not None else "", str(visibility or ""), tuple(sorted(op.attributes))))
        for attr, _ in op.symbol_spans:
            uses.append(str(attr))
        uses.extend(str(attr) for attr in _unwritten_refs(op))
    return (tuple(defs), tuple(sorted(uses)))


def _unwritten_refs(op: Operation) -> list[SymbolRefAttr]:
    """The symbol references among the op's properties and attributes that are not written in its
    text (read through an alias: `gpu.launch_func #k`, `#k = @kernels::@k`)."""
    found = [v for v in (*op.properties.values(), *op.attributes.values()) if isinstance(v, SymbolRefAttr)]
    if not found:
        return []
    written = {attr for attr, _ in op.symbol_spans}
    return [attr for attr in found if attr not in written]


def shift(d: Diagnostic, delta: int) -> Diagnostic:
    """`d` moved by `delta` code points (ranges, notes and fix edits)."""
    return _moved(d, repeat(delta)) if delta else d


def _ranges(d: Diagnostic) -> list[TextRange]:
    """The ranges of a finding: its own, its notes', its fix edits'."""
    ranges = [d.range, *(r.range for r in d.related)]
    if d.fix is not None:
        ranges.extend(e.range for e in d.fix.edits)
    return ranges


def _inside(d: Diagnostic, start: int, end: int) -> bool:
    return all(start <= r.start and r.end <= end for r in _ranges(d))


def _moved(d: Diagnostic, deltas: Iterable[int]) -> Diagnostic:
    """`d` with each of its ranges (in `_ranges`' order) moved by the next of `deltas`."""
    moves = iter(deltas)
    rng = d.range.shifted(next(moves))
    related = tuple(Related(r.message, r.range.shifted(next(moves))) for r in d.related)
    fix = d.fix
    if fix is not None:
        fix = replace(fix, edits=tuple(replace(e, range=e.range.shifted(next(moves))) for e in fix.edits))
    return Diagnostic(d.code, d.message, rng, d.severity, fix, related, d.tags)


@dataclass(frozen=True)
class Spanning:
    """A finding whose ranges lie in several units: each range moves with its unit."""

    diagnostic: Diagnostic
    pieces: tuple[tuple[Operation, int], ...]  # per range (`_ranges`), its unit and the unit's anchor base then
    scope: Operation  # the innermost op holding all those units (or one of them)
    by_holder: bool  # found by a check of an op that may hold those units (a module's), not of an op in the first

    def current(self) -> Diagnostic:
        deltas = [op.anchor.base - base for op, base in self.pieces]
        return _moved(self.diagnostic, deltas) if any(deltas) else self.diagnostic

    def fate(self, live: set[int], relinted: list[Operation]) -> bool | None:
        """After an edit: True to keep it, False when the lint of its unit (or of what replaced
        it) finds it again, None when it may have changed otherwise. `live`: the ids of the units
        kept; `relinted`: the units linted again."""
        main = self.pieces[0][0]
        if not self.by_holder and (id(main) not in live or any(op is main for op in relinted)):
            return False  # what replaced its unit (linted again) or its unit's lint
        if any(id(op) not in live for op, _ in self.pieces):
            return None  # a unit it lies in was parsed again: its ranges there may have moved
        if self.by_holder and any(_within(op, self.scope) for op in relinted):
            return None  # the check of the holder sees what changed in it
        return True


def _within(op: Operation, holder: Operation) -> bool:
    """Whether `op` is `holder` or inside it."""
    return op is holder or any(a is holder for a in op.ancestors())


def _spanning(d: Diagnostic, texts: UnitTexts) -> Spanning | None:
    """`d` as a finding of several units (each of its ranges in one unit's own text), or None."""
    ops = []
    for r in _ranges(d):
        i = texts.holding(r.start, r.end)
        if i < 0:
            return None
        ops.append(texts.units[i])
    chains = [[op, *op.ancestors()] for op in ops]
    holders = [{id(a) for a in chain} for chain in chains[1:]]
    scope = next(a for a in chains[0] if all(id(a) in held for held in holders))
    rule = load_rules().get(d.code)
    by_holder = rule is None or any(name == ANY_OP or has_trait(name, "symbol_table") for name in rule.ops)
    return Spanning(d, tuple((op, op.anchor.base) for op in ops), scope, by_holder)


class Part:
    """Diagnostics of one unit as linted when its anchor base was `base` (or, without a unit,
    diagnostics with current offsets). `derived` keeps what consumers computed from them.
    The unit's `interface` is computed when an edit first asks for it: a replaced unit is
    detached from the IR, never changed, so it still tells what it was."""

    __slots__ = ("op", "base", "start", "end", "_interface", "items", "derived")

    def __init__(self, op: Operation | None, items: list[Diagnostic], interface_: tuple | None = None) -> None:
        self.op = op
        self.items = items
        self._interface = interface_
        self.derived: dict[Any, Any] = {}
        if op is not None:
            rng = source_range(op)
            self.base = op.anchor.base
            self.start, self.end = rng.start, rng.end
        else:
            self.base = self.start = self.end = 0

    @property
    def interface(self) -> tuple:
        if self._interface is None:
            self._interface = interface(self.op) if self.op is not None else ()
        return self._interface

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
    def of(cls, diagnostics: list[Diagnostic]) -> LintResult:
        result = cls([Part(None, diagnostics)], True)
        result._diagnostics = diagnostics
        return result

    @property
    def diagnostics(self) -> list[Diagnostic]:
        if self._diagnostics is None:
            out: list[Diagnostic] = []
            for part in self.parts:
                if part.items:
                    out.extend(part.current())
            out.sort(key=Diagnostic.sort_key)
            self._diagnostics = out
        return self._diagnostics


ChunkParts = tuple[list[Part], list[tuple[Diagnostic, Operation | None, int]], list[Spanning]]
"""Per chunk: the unit parts; the rule diagnostics outside every unit (or reaching out of their
unit into no other), each with the unit after it (it moves with that unit while no unit changes)
and that unit's anchor base at the time; the findings of several units."""


@dataclass(frozen=True)
class LintKey:
    """What of the settings the diagnostics depend on: two lints with equal keys find the same."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    mlir_version: int | None = None
    report_undecided: bool = False
    op_sources: tuple[tuple[str, str], ...] = ()  # the op-definitions texts the parse and the lint declare

    @classmethod
    def of(cls, settings: object | None) -> LintKey:
        """The key of `settings` (anything with `select`/`ignore`/`mlir_version`/`report_undecided`; None: the defaults)."""
        if settings is None:
            return cls()
        return cls(
            tuple(getattr(settings, "select", ()) or ()),
            tuple(getattr(settings, "ignore", ()) or ()),
            getattr(settings, "mlir_version", None),
            bool(getattr(settings, "report_undecided", False)),
            tuple(getattr(settings, "op_sources", ()) or ()),
        )


class IncrementalLinter:
    """The lint results of one document, reused unit by unit across versions."""

    def __init__(self) -> None:
        self.key: LintKey | None = None
        self.chunks: list[ChunkParts] | None = None

    def full(self, parsed: ParsedFile, settings: object | None, key: LintKey, found: list[Diagnostic] | None = None) -> LintResult:
        """`lint_parsed` (or `found`, its result computed elsewhere), remembering the rule
        diagnostics of each unit."""
        result = found if found is not None else lint_parsed(parsed, settings)
        self.key = key
        self.chunks = None
        if len(result) >= MAX_DIAGNOSTICS or may_have_directives(c for chunk in parsed.chunks for c in chunk.comments):
            return LintResult.of(result)  # at the cap (`model.capped`), what is kept is not per unit
        if any(d.code == KERNEL_REFERENCE for d in result):
            return LintResult.of(result)  # the module was not verified further: no unit's part is its own
        remembered = self._remember(parsed, result)
        if remembered is None:
            return LintResult.of(result)
        self.chunks = remembered
        return self._result(parsed, remembered, True, _enabled(Selection.of(settings)))

    def quick(self, parsed: ParsedFile, settings: object | None, key: LintKey) -> LintResult | None:
        """Lint only the replaced units and the units that use a symbol whose definition
        changed; None when the edit needs a full lint."""
        if self.chunks is None or key != self.key or len(self.chunks) != len(parsed.chunks):
            return None
        plans: list[tuple[Chunk, list[Operation], list[Part | None], set[int], list[Spanning]]] = []
        changed_total = 0
        for chunk, (parts, others, spanning) in zip(parsed.chunks, self.chunks):
            units = units_of(chunk)
            by_op = {id(part.op): part for part in parts}
            reused = [by_op.get(id(op)) for op in units]
            fresh = [i for i, part in enumerate(reused) if part is None]
            if not fresh and len(units) == len(parts):
                plans.append((chunk, units, reused, set(), list(spanning)))
                continue
            if any(units[i].span is None for i in fresh) or _directives_near(parsed.text, units, fresh):
                return None
            if _in_failed_module(units, reused, fresh) or any(_shares_values(units[i]) for i in fresh):
                return None
            if others:  # a finding outside the units (at a module's end, say) may change
                return None
            kept = {id(part) for part in reused if part is not None}
            before = sorted(part.interface for part in parts if id(part) not in kept)
            faces = {i: interface(units[i]) for i in fresh}
            after = sorted(faces.values())
            relint = set(fresh)
            if before != after:
                if _defined_twice(units, [units[i] for i in fresh]):
                    return None
                changed = _defined(before) ^ _defined(after)
                names = {entry[1] for entry in changed}
                relint.update(
                    i
                    for i in _mentioning(parsed.text, units, names | _aliases_naming(chunk, names))
                    if (part := reused[i]) is not None and _uses(part.interface, changed)
                )
            changed_total += len(relint)
            if changed_total > MAX_CHANGED_UNITS or any(_holds_units(units, i) for i in relint):
                return None  # a module to lint again is linted whole (its view holds its ops: their findings too)
            kept_spanning = _kept(spanning, units, reused, relint)
            if kept_spanning is None:
                return None
            plans.append((chunk, units, reused, relint, kept_spanning))
        selection = Selection.of(settings)
        rules = [r for r in load_rules().values() if r.check is not None and selection.enabled(r.code)]
        enabled = _enabled(selection)
        chunks = []
        for (chunk, units, reused, relint, kept_spanning), (_, others, _) in zip(plans, self.chunks):
            slots: list[Part | None] = list(reused)
            texts: UnitTexts | None = None  # made for a finding outside its unit only (O(units))
            for i in relint:
                op = units[i]
                rng = source_range(op)
                linted = [
                    d
                    for d in self._lint_unit(chunk, op, parsed.text, rules, version_of(settings), report_undecided_of(settings))
                    if rng.start <= d.range.start <= rng.end and enabled(d.code)
                ]
                if any(d.code == KERNEL_REFERENCE for d in linted):
                    return None  # its error stops the verification of the whole module
                found = []
                for d in linted:
                    across = None
                    if not _inside(d, rng.start, rng.end):
                        texts = texts or UnitTexts(units)
                        across = _spanning(d, texts)
                    if across is not None:
                        kept_spanning.append(across)
                    else:
                        found.append(d)
                slots[i] = Part(op, found, faces.get(i))
            filled = [part for part in slots if part is not None]
            assert len(filled) == len(slots), "every unit not reused is re-linted"
            chunks.append((filled, others, kept_spanning))
        self.chunks = chunks
        return self._result(parsed, chunks, False, enabled)

    @staticmethod
    def _result(parsed: ParsedFile, chunks, complete: bool, enabled) -> LintResult:
        parts: list[Part] = []
        for chunk, (unit_parts, others, spanning) in zip(parsed.chunks, chunks):
            parts.extend(unit_parts)
            moved = [shift(d, op.anchor.base - base) if op is not None else d for d, op, base in others]
            moved += [entry.current() for entry in spanning]
            parts.append(Part(None, moved + [d for d in chunk.diagnostics if enabled(d.code)]))
        return LintResult(parts, complete)

    @staticmethod
    def _lint_unit(chunk: Chunk, unit: Operation, text: str, rules: list, mlir_version: int, report_undecided: bool) -> list[Diagnostic]:
        ctx = RuleContext(chunk, text, mlir_version, report_undecided=report_undecided)
        ctx.module = unit  # the rules' view: this unit only (the index is built from it)
        found = run_rules(ctx, rules)
        reference = next((rule for rule in rules if rule.code == KERNEL_REFERENCE), None)
        if reference is not None and is_container_module(chunk.module):
            # GPU105 checks the module (which the view leaves out) at the launches of its functions
            found += run_check(ctx, reference, kernel_references, chunk.module, ctx)
        return found

    def _remember(self, parsed: ParsedFile, result: list[Diagnostic]) -> list[ChunkParts] | None:
        parser_diags = {id(d) for chunk in parsed.chunks for d in chunk.diagnostics}
        chunks: list[ChunkParts] = []
        chunk_texts = []
        for chunk in parsed.chunks:
            units = units_of(chunk)
            if any(op.span is None for op in units):
                return None
            chunk_texts.append(UnitTexts(units))
            chunks.append(([Part(op, []) for op in units], [], []))
        for d in result:
            if id(d) in parser_diags:
                continue
            ci = _chunk_index(parsed, d.range.start)
            parts, others, spanning = chunks[ci]
            texts = chunk_texts[ci]
            i = bisect_right(texts.starts, d.range.start) - 1
            if i >= 0 and _inside(d, parts[i].start, texts.ends[i]):
                parts[i].items.append(d)
            elif (across := _spanning(d, texts)) is not None:
                spanning.append(across)
            else:
                follower = parts[i + 1].op if i + 1 < len(parts) else (parts[-1].op if parts else None)
                others.append((d, follower, follower.anchor.base if follower is not None else 0))
        return chunks


def _holds_units(units: list[Operation], i: int) -> bool:
    """Whether unit `i` is a module holding units (they follow it)."""
    return i + 1 < len(units) and units[i + 1].parent_op is units[i]


def _in_failed_module(units: list[Operation], reused: list[Part | None], fresh: list[int]) -> bool:
    """Whether a new unit is in a module (a unit kept) that holds an error of its own: the module's
    verification stopped there, and did not look into its ops (the unit's own lint would)."""
    for i in fresh:
        for holder in units[i].ancestors():
            j = bisect_left(units, source_start(holder), 0, i, key=source_start)
            part = reused[j] if j < i and units[j] is holder else None
            if part is not None and any(d.severity >= Severity.ERROR for d in part.items):
                return True
    return False


def _shares_values(unit: Operation) -> bool:
    """Whether a unit defines values (a top-level op's results) or uses one defined outside it (the
    body of a function whose head was deleted): linted alone it would see a use without its definition
    (GPU117's dominance), and the units sharing it would need linting again."""
    if unit.results:
        return True
    ops = list(unit.walk())
    inside = {id(op) for op in ops}
    for op in ops:
        for value in op.operands:
            if isinstance(value, OpResult):
                owner: Operation | None = value.owner
            elif isinstance(value, BlockArgument):
                owner = value.owner.parent_op
            else:
                continue  # never defined (the parser reports it)
            if owner is None or id(owner) not in inside:
                return True
    return False


def _defined_twice(units: list[Operation], fresh: list[Operation]) -> bool:
    """Whether a symbol is defined twice in a module that holds one of the `fresh` units: GPU121 is
    a check of a whole module, which an error in it may have kept from reporting it before the
    edit (a module whose ops fail is not checked further)."""
    holders = {id(a) for op in fresh for a in op.ancestors()}
    seen: set[tuple[int, str]] = set()
    for unit in units:
        holder = unit.parent_op
        if holder is None or id(holder) not in holders:
            continue
        name = symbol_name(unit)
        if name is not None:
            if (id(holder), name) in seen:
                return True
            seen.add((id(holder), name))
    return False


def _kept(spanning: list[Spanning], units: list[Operation], reused: list[Part | None], relint: set[int]) -> list[Spanning] | None:
    """The findings of several units that an edit keeps (`Spanning.fate`); None when one may have changed."""
    if not spanning:
        return []
    live = {id(op) for op, part in zip(units, reused) if part is not None}
    relinted = [units[i] for i in relint]
    out = []
    for entry in spanning:
        fate = entry.fate(live, relinted)
        if fate is None:
            return None
        if fate:
            out.append(entry)
    return out


def _defined(faces: list[tuple]) -> set[tuple]:
    """The symbol definitions of these interfaces (op, name, type, visibility, attributes)."""
    return {entry for defs, _ in faces for entry in defs}


def _uses(face: tuple, changed: set[tuple]) -> bool:
    """Whether a unit with interface `face` uses a symbol among the changed definitions."""
    names = {entry[1] for entry in changed}
    return any(part.lstrip("@") in names for use in face[1] for part in use.split("::"))


def _aliases_naming(chunk: Chunk, names: set[str]) -> set[str]:
    """The attribute aliases of the chunk that stand for a reference to one of these symbols
    (`#k = @kernels::@k`): a unit may use the symbol by writing the alias only."""
    aliases = chunk.context.attr_aliases if chunk.context is not None else {}
    return {alias for alias, attr in aliases.items() if isinstance(attr, SymbolRefAttr) and not names.isdisjoint(attr.parts)}


def _mentioning(text: str, units: list[Operation], names: set[str]) -> list[int]:
    """The indices of the units whose text holds one of `names` (only those can use one of
    these symbols: a symbol reference spells its name, quoted or not), so that an edit never
    computes the interface of every unit. Every unit when a name would need escapes."""
    if any('"' in name or "\\" in name for name in names):
        return list(range(len(units)))
    found: set[int] = set()
    for name in names:
        at = text.find(name)
        while at >= 0:
            i = bisect_right(units, at, key=source_start) - 1  # a few looks per name, not one per unit
            if i >= 0:
                found.add(i)
            at = text.find(name, at + 1)
    return sorted(found)


def _enabled(selection: Selection):
    return lambda code: always_reported(code) or selection.enabled(code)


def _chunk_index(parsed: ParsedFile, offset: int) -> int:
    for i, chunk in enumerate(parsed.chunks):
        if chunk.start <= offset <= chunk.end:
            return i
    return len(parsed.chunks) - 1


def _directives_near(text: str, units: list[Operation], fresh: list[int]) -> bool:
    """Whether the text of the new units, or between them and their neighbours, may hold a
    suppression comment (the last full lint saw none elsewhere)."""
    for i in fresh:
        start = _before(units, i)
        end = source_range(units[i + 1]).start if i + 1 < len(units) else len(text)
        if "gpu-lint" in text[start:end]:
            return True
    return False


def _before(units: list[Operation], i: int) -> int:
    """Where the text before unit `i` starts: the end of the unit before, or the start of the module
    that holds it when it is its first op (0 for the first unit)."""
    if i == 0:
        return 0
    before = source_range(units[i - 1])
    return before.start if _holds_units(units, i - 1) else before.end
