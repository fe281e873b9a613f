"""Where every name is written: SSA values, blocks, symbols, aliases and op names, per document.

Like MLIR's AsmParserState, but built from the IR after parsing, so it covers
everything that parsed even when the document has errors. Occurrences are kept
per *unit* (an operation directly inside a module body, which has its own
anchor) relative to that anchor: after an incremental re-parse only the changed
unit is indexed again.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir.core import Block, Operation, OpResult, Value, source_range, source_start
from gpu_lsp.ir.symbols import is_symbol_table, symbol_name
from gpu_lsp.parser.api import Chunk, ParsedFile
from gpu_lsp.syntax.lexer import unquote_symbol
from gpu_lsp.syntax.names import STRING_LITERAL, SUFFIX_ID, SYMBOL_NAME
from gpu_lsp.text import TextRange

VALUE = "value"
BLOCK = "block"
SYMBOL = "symbol"
ALIAS = "alias"
OP = "op"

_ALIAS_USE = re.compile(rf"(?P<skip>{STRING_LITERAL}|//[^\n]*)|(?P<alias>[#!]{SUFFIX_ID})")
_SYMBOL_PART = re.compile(rf"@({SYMBOL_NAME})")


class Occurrence(NamedTuple):
    """A name written at `[start, end)`: what it is (`kind`), what it names, and whether it defines it."""

    start: int
    end: int
    kind: str
    target: Target
    is_def: bool = False

    @property
    def range(self) -> TextRange:
        return TextRange(self.start, self.end)


@dataclass(frozen=True, slots=True)
class SymbolUse:
    """One `@name` of a symbol reference `@a::@b`: the path up to this part and the op using it."""

    path: tuple[str, ...]
    owner: Operation


@dataclass(frozen=True, slots=True)
class AliasKey:
    """An alias (`#map`, `!tok`) of one chunk."""

    chunk: int
    name: str


TokenEnds = tuple[tuple[int, int], tuple[int, int]]
"""The (line, character) of the first and the last semantic token of a span of text."""

Target = Value | Block | Operation | SymbolUse | AliasKey
"""What an occurrence names: a value, a block, an op (its name, or a symbol it defines), a symbol use, an alias."""


def header_ranges(op: Operation) -> list[tuple[int, int]]:
    """The parts of an op's text outside its regions (absolute offsets)."""
    rng = op.range
    if rng is None:
        return []
    pos = rng.start
    out = []
    for region in op.regions:
        if region.span is None:
            continue
        r = region.span.range
        if r.start > pos:
            out.append((pos, r.start))
        pos = max(pos, r.end)
    if rng.end > pos:
        out.append((pos, rng.end))
    return out


def value_group(value: Value) -> list[Value]:
    """The values written under one name: `%x:2` defines `%x#0` and `%x#1`."""
    if isinstance(value, OpResult) and value.def_span is not None:
        span = value.def_span
        return [r for r in value.owner.results if r.def_span is span]
    return [value]


class UnitIndex:
    """Occurrences in one unit, relative to its anchor, sorted by start."""

    __slots__ = ("op", "starts", "occurrences", "children", "symbols", "tokens")

    def __init__(self, op: Operation, text: str, aliases: frozenset[str], chunk: int) -> None:
        self.op = op
        base = op.anchor.base
        occ: list[Occurrence] = []
        children: list[Operation] = []
        anchor = op.anchor
        stack = [op]
        add = occ.append
        while stack:
            cur = stack.pop()
            if cur is not op and cur.anchor is not anchor:
                children.append(cur)
                continue
            name_span = cur.name_span
            if name_span is not None:
                add(Occurrence(name_span.start, name_span.end, OP, cur))
            seen = None
            for result in cur.results:
                span = result.def_span
                if span is None or span is seen:
                    continue
                seen = span
                add(Occurrence(span.start, span.end, VALUE, result, True))
            for value, span in zip(cur.operands, cur.operand_spans):
                if span is not None:
                    add(Occurrence(span.start, span.end, VALUE, value))
            for block, span in zip(cur.successors, cur.successor_spans):
                if span is not None:
                    add(Occurrence(span.start, span.end, BLOCK, block))
            for region in cur.regions:
                for block in region.blocks:
                    if block.label_span is not None:
                        add(Occurrence(block.label_span.start, block.label_span.end, BLOCK, block, True))
                    for arg in block.arguments:
                        if arg.def_span is not None:
                            add(Occurrence(arg.def_span.start, arg.def_span.end, VALUE, arg, True))
                    stack.extend(block.operations)
            self._scan_header(cur, text, base, aliases, chunk, add)
        occ.sort(key=lambda o: o.start)
        self.occurrences = occ
        self.starts = [o.start for o in occ]
        self.children = children
        self.symbols = [o for o in occ if o.kind == SYMBOL]
        self.tokens: tuple[int, TokenEnds | None, str] | None = None  # the unit's encoded semantic tokens, as JSON (semantic_tokens.py)

    @staticmethod
    def _scan_header(cur: Operation, text: str, base: int, aliases: frozenset[str], chunk: int, add) -> None:
        """Symbols from the parser's source map; aliases (also inside types) from the op's text."""
        sym_span = cur.sym_span
        if sym_span is not None:
            add(Occurrence(sym_span.start, sym_span.end, SYMBOL, cur, True))
        for _, span in cur.symbol_spans:
            lo = span.anchor.base + span.start
            path: list[str] = []
            for part in _SYMBOL_PART.finditer(text, lo, span.anchor.base + span.end):
                path.append(unquote_symbol(part.group(1)))
                add(Occurrence(part.start() - base, part.end() - base, SYMBOL, SymbolUse(tuple(path), cur)))
        if not aliases:
            return
        for lo, hi in header_ranges(cur):
            for m in _ALIAS_USE.finditer(text, lo, hi):
                if m.lastgroup == "alias" and m.group() in aliases:
                    add(Occurrence(m.start() - base, m.end() - base, ALIAS, AliasKey(chunk, m.group())))


@dataclass(slots=True, eq=False)
class Unit:
    """A unit of the current version with its index and the unit around it. A leaf unit's
    index is built on first use (the first request on a large file indexes only what it looks
    at); unchanged units of the next version share it (`cell`: index or None, then the text
    (until the index is built), aliases and chunk to build it from, then the values derived from
    the unit, `unit_memo`)."""

    op: Operation
    cell: list
    chunk: int
    parent: Unit | None

    @property
    def range(self) -> TextRange:
        """The unit's absolute range (a unit is always an op read from the source)."""
        return source_range(self.op)

    @property
    def index(self) -> UnitIndex:
        cell = self.cell
        if cell[0] is None:
            cell[0] = UnitIndex(self.op, cell[1], cell[2], cell[3])
            # The index holds no text: a cell built at one version and shared by the next ones would
            # otherwise keep that version's whole text alive (one per version a unit is indexed at).
            cell[1] = None
        return cell[0]

    @property
    def holds_units(self) -> bool:
        """Whether ops of other units lie inside this one (a module's): its index's `children`,
        told without building the index where it is not built (the outline, the folding ranges,
        the code lenses and the inlay hints need no index of a leaf unit)."""
        index = self.cell[0]
        if index is not None:
            return bool(index.children)
        memo = self.cell[4]
        entry = memo.get(_HOLDS_UNITS)
        if entry is None or entry[0] is not self.op:
            entry = memo[_HOLDS_UNITS] = (self.op, _holds_other_anchors(self.op))
        return entry[1]


# The `Unit.cell` memo key of whether a unit holds other units.
_HOLDS_UNITS = "holds_units"


def _holds_other_anchors(op: Operation) -> bool:
    """Whether an op inside `op` has another anchor than it (the top of another unit, `UnitIndex.children`)."""
    anchor = op.anchor
    stack = [op]
    while stack:
        cur = stack.pop()
        if cur is not op and cur.anchor is not anchor:
            return True
        for region in cur.regions:
            for block in region.blocks:
                stack.extend(block.operations)
    return False


class DocumentIndex:
    """Every occurrence of one snapshot, with symbol tables and alias definitions."""

    def __init__(self, parsed: ParsedFile, previous: DocumentIndex | None = None) -> None:
        with paused_gc():  # millions of live IR objects: collections during the build cost more than it
            self._build(parsed, previous)

    def _build(self, parsed: ParsedFile, previous: DocumentIndex | None) -> None:
        self.parsed = parsed
        text = parsed.text
        reuse: dict[int, list] = {}
        if previous is not None:
            reuse = {id(u.op): u.cell for u in previous.units}
        self.units: list[Unit] = []
        self.alias_defs: list[Occurrence] = []
        self.alias_values: dict[AliasKey, object] = {}
        holding: list[bool] = []  # per unit, whether it holds units (a module's ops are units)
        for ci, chunk in enumerate(parsed.chunks):
            aliases = self._aliases(chunk, ci)
            pending: list[tuple[Operation, Unit | None]] = [(chunk.module, None)]
            while pending:
                op, parent = pending.pop()
                if op.span is None:
                    continue
                cell = reuse.get(id(op))
                # Containers are indexed again: their children may have been replaced.
                if cell is None or (cell[0] is not None and (cell[0].op is not op or cell[0].children)):
                    cell = [None, text, aliases, ci, {}]
                elif cell[0] is None:
                    cell[1:4] = [text, aliases, ci]  # not built yet: build it from this version
                unit = Unit(op, cell, ci, parent)
                self.units.append(unit)
                children = unit.index.children if is_symbol_table(op) else []
                holding.append(bool(children))
                pending.extend((child, unit) for child in children)
        keys = []
        for unit in self.units:
            span = unit.op.span  # not None: a unit is an op read from the source (above)
            assert span is not None
            keys.append((source_start(unit.op), span.start - span.end))  # longest first among equal starts
        order = sorted(range(len(keys)), key=keys.__getitem__)
        self.units = [self.units[i] for i in order]
        self._starts = [keys[i][0] for i in order]
        self._ends = [keys[i][0] - keys[i][1] for i in order]
        self._holding = [holding[i] for i in order]
        self._tables: dict[int, dict[str, Operation]] | None = None

    def spans(self) -> Iterator[tuple[Unit, int, int, bool]]:
        """Each unit with where it starts and ends and whether it holds units (`Unit.holds_units`), in order."""
        return zip(self.units, self._starts, self._ends, self._holding)

    def _aliases(self, chunk: Chunk, ci: int) -> frozenset[str]:
        ctx = chunk.context
        if ctx is None:
            return frozenset()
        names: dict[str, object] = {**ctx.type_aliases, **ctx.attr_aliases}
        if not names:
            return frozenset()
        for name, (start, end) in sorted(ctx.alias_defs.items(), key=lambda kv: kv[1]):
            if name in names:
                key = AliasKey(ci, name)
                self.alias_defs.append(Occurrence(start, end, ALIAS, key, True))
                self.alias_values[key] = names[name]
        return frozenset(names)

    # --- lookups -------------------------------------------------------------------------------

    def unit_at(self, offset: int) -> Unit | None:
        """The innermost unit whose range contains `offset`."""
        i = bisect_right(self._starts, offset) - 1
        if i < 0:
            return None
        unit: Unit | None = self.units[i]
        while unit is not None:
            rng = unit.range
            if rng.start <= offset <= rng.end:
                return unit
            unit = unit.parent
        return None

    def at(self, offset: int) -> Occurrence | None:
        """The occurrence under a cursor at `offset` (its end counts)."""
        for occ in self.alias_defs:
            if occ.start <= offset <= occ.end:
                return occ
        unit = self.unit_at(offset)
        if unit is None:
            return None
        base = unit.op.anchor.base
        rel = offset - base
        idx = unit.index
        i = bisect_right(idx.starts, rel) - 1
        if i < 0:
            return None
        occ = idx.occurrences[i]
        if occ.end < rel:
            return None
        return Occurrence(occ.start + base, occ.end + base, occ.kind, occ.target, occ.is_def)

    def all(self) -> Iterator[Occurrence]:
        """Every occurrence, unit by unit."""
        yield from self.alias_defs
        for unit in self.units:
            base = unit.op.anchor.base
            for occ in unit.index.occurrences:
                yield Occurrence(occ.start + base, occ.end + base, occ.kind, occ.target, occ.is_def)

    # --- symbols -------------------------------------------------------------------------------

    def symbol_table(self, op: Operation) -> dict[str, Operation]:
        """The symbols defined directly in a symbol-table op (module, gpu.module)."""
        if self._tables is None:
            self._tables = {}
        table = self._tables.get(id(op))
        if table is None:
            table = {}
            for region in op.regions:
                for block in region.blocks:
                    for child in block.operations:
                        name = symbol_name(child)
                        if name is not None:
                            table.setdefault(name, child)
            self._tables[id(op)] = table
        return table

    def resolve(self, path: tuple[str, ...], owner: Operation) -> Operation | None:
        """The op a symbol path names, looked up from the symbol tables around `owner`."""
        scope: Operation | None = owner
        while scope is not None:
            if is_symbol_table(scope) and scope is not owner:
                found = self._resolve_in(scope, path)
                if found is not None:
                    return found
            scope = scope.parent_op
        return None

    def _resolve_in(self, table_op: Operation, path: tuple[str, ...]) -> Operation | None:
        op = self.symbol_table(table_op).get(path[0])
        for part in path[1:]:
            if op is None:
                return None
            op = self.symbol_table(op).get(part)
        return op

    def target_of(self, occ: Occurrence) -> Target:
        """What an occurrence names: a symbol use resolves to its defining op (or stays a use)."""
        if occ.kind == SYMBOL and isinstance(occ.target, SymbolUse):
            found = self.resolve(occ.target.path, occ.target.owner)
            return found if found is not None else occ.target
        return occ.target

    def occurrences_of(self, target: Target, kind: str) -> list[Occurrence]:
        """Every occurrence naming `target` (definition included), in document order."""
        if kind == VALUE and isinstance(target, Value):
            return self._value_occurrences(target)
        if kind == BLOCK and isinstance(target, Block):
            return self._block_occurrences(target)
        if kind == ALIAS:
            return [o for o in self.all() if o.kind == ALIAS and o.target == target]
        if kind == SYMBOL:
            return self._symbol_occurrences(target)
        return []

    def _unit_of(self, op: Operation) -> Unit | None:
        rng = op.range
        if rng is None:
            return None
        return self.unit_at(rng.start)

    def _value_occurrences(self, value: Value) -> list[Occurrence]:
        ranges: list[tuple[int, int, bool]] = []
        if value.def_span is not None:
            r = value.def_span.range
            ranges.append((r.start, r.end, True))
        for use in value.uses:
            if use.span is not None:
                r = use.span.range
                ranges.append((r.start, r.end, False))
        ranges.sort()
        return [Occurrence(s, e, VALUE, value, d) for s, e, d in ranges]

    def _block_occurrences(self, block: Block) -> list[Occurrence]:
        out = []
        if block.label_span is not None:
            r = block.label_span.range
            out.append(Occurrence(r.start, r.end, BLOCK, block, True))
        for _, span in block.uses:
            if span is not None:
                r = span.range
                out.append(Occurrence(r.start, r.end, BLOCK, block))
        out.sort(key=lambda o: o.start)
        return out

    def symbol_occurrences(self) -> Iterator[Occurrence]:
        """Every symbol definition and use, unit by unit."""
        for unit in self.units:
            base = unit.op.anchor.base
            for occ in unit.index.symbols:
                yield Occurrence(occ.start + base, occ.end + base, occ.kind, occ.target, occ.is_def)

    def _symbol_occurrences(self, target: Target) -> list[Occurrence]:
        out = []
        for occ in self.symbol_occurrences():
            if occ.is_def:
                if occ.target is target:
                    out.append(occ)
                continue
            resolved = self.target_of(occ)
            if resolved is target or isinstance(target, SymbolUse) and isinstance(resolved, SymbolUse) and resolved.path == target.path:
                out.append(occ)
        return out

    def symbol_def(self, op: Operation) -> Occurrence | None:
        """Where a symbol op of an indexed unit writes its name (the parser's source map, which the
        unit's index reads too: no index is built)."""
        unit = self._unit_of(op)
        span = op.sym_span
        if unit is None or span is None or op.anchor is not unit.op.anchor:
            return None
        rng = span.range
        return Occurrence(rng.start, rng.end, SYMBOL, op, True)


def op_at(parsed: ParsedFile, offset: int) -> Operation | None:
    """The innermost operation whose range contains `offset`."""
    chunk = parsed.chunk_at(offset)
    op = chunk.module
    if op.range is None or not (op.range.start <= offset <= op.range.end):
        return None
    while True:
        inner = None
        for region in op.regions:
            for block in region.blocks:
                for child in block.operations:
                    rng = child.range
                    if rng is not None and rng.start <= offset <= rng.end:
                        inner = child
                        break
                if inner is not None:
                    break
            if inner is not None:
                break
        if inner is None:
            return None if op.facts.implicit else op
        op = inner


def unit_memo(unit: Unit, key: str, lines, build):
    """A value derived from a leaf unit, kept while the unit is unchanged.

    Returns `(value, offset_delta, line_delta)`: how far the unit moved since `build()` ran,
    in code points and in lines (`lines` is the snapshot's line table). The value is rebuilt
    when the unit's first line now starts at another column.
    """
    op = unit.op
    base = op.anchor.base
    line = lines.line_of(base)
    col = base - lines.starts[line]
    memo = unit.cell[4]
    entry = memo.get(key)
    # Each entry keeps its op: a cell is shared by the versions where the op is the same object.
    if entry is None or entry[0] is not op or entry[3] != col:
        entry = memo[key] = (op, base, line, col, build())
    return entry[4], base - entry[1], line - entry[2]


def document_index(snapshot) -> DocumentIndex:
    """The index of a snapshot, built once, reusing the unchanged units of the previous version's."""

    def build() -> DocumentIndex:
        return DocumentIndex(snapshot.parsed, snapshot.cache.pop("previous_index", None))

    return snapshot.cached("index", build)
