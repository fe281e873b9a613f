"""What a rule sees of one chunk: its IR, an index of its ops, symbol tables and the source text."""

from __future__ import annotations

from bisect import bisect_right

from gpu_lsp.diagnostics.mlir_versions import NEWEST
from gpu_lsp.ir.core import Operation, source_range
from gpu_lsp.ir.opdefs import has_trait
from gpu_lsp.ir.symbols import SymbolTables, is_symbol_table
from gpu_lsp.ir.views import fresh_token_name
from gpu_lsp.parser.api import Chunk
from gpu_lsp.text import LineIndex, TextRange


def module_units(module: Operation) -> list[Operation]:
    """The ops of a module's body and, after a module among them (a `gpu.module`), the ops of its
    body, in order: the units, each with an anchor of its own (`parser/builder.py`)."""
    out: list[Operation] = []
    _add_units(module, out, {})
    return out


def _add_units(module: Operation, out: list[Operation], tables: dict[str, bool]) -> None:
    """`module_units` into `out`; `tables`: per op name, whether it is a symbol table (looked up once)."""
    if module.regions and module.regions[0].blocks:
        for op in module.regions[0].blocks[0].operations:
            out.append(op)
            table = tables.get(op.name)
            if table is None:
                table = tables[op.name] = is_symbol_table(op)
            if table:
                _add_units(op, out, tables)


def own_ops(unit: Operation) -> list[Operation]:
    """The ops of a unit but those of the units it holds (a module's ops are units of their own)."""
    return [unit] if is_symbol_table(unit) else list(unit.walk())


class OpIndex:
    """Every operation of a chunk in pre-order, and the same grouped by op name."""

    __slots__ = ("ops", "by_name")

    def __init__(self, root: Operation) -> None:
        ops: list[Operation] = []
        append = ops.append

        def visit(op: Operation) -> None:
            append(op)
            for region in op.regions:
                for block in region.blocks:
                    for child in block.operations:
                        visit(child)

        visit(root)
        by_name: dict[str, list[Operation]] = {}
        for op in ops:
            group = by_name.get(op.name)
            if group is None:
                by_name[op.name] = [op]
            else:
                group.append(op)
        self.ops = ops
        self.by_name = by_name

    def named(self, *names: str) -> list[Operation]:
        if len(names) == 1:
            return self.by_name.get(names[0], [])
        out: list[Operation] = []
        for name in names:
            out.extend(self.by_name.get(name, ()))
        return out


def report_undecided_of(settings: object | None) -> bool:
    """The `report_undecided` of any settings object (off when it has none)."""
    return getattr(settings, "report_undecided", False) is True


def _defined_names(root: Operation, nested: bool = True) -> set[str]:
    """The SSA names defined inside `root` (its results and block arguments, nested ones too), or
    only by the ops of its body."""
    names: set[str] = set()
    ops = root.walk() if nested else (op for region in root.regions for block in region.blocks for op in block.operations)
    for op in ops:
        for result in op.results:
            if result.name:
                names.add(result.name.split("#", 1)[0])
        if not nested:
            continue
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    if arg.name:
                        names.add(arg.name)
    return names


class RuleContext:
    """Per-chunk state shared by the rules of one run."""

    def __init__(
        self,
        chunk: Chunk,
        text: str | None = None,
        mlir_version: int = NEWEST,
        exhaustive: bool = True,
        report_undecided: bool = False,
        allow_unregistered: bool = True,
    ) -> None:
        self.chunk = chunk
        self.text = text
        self.mlir_version = mlir_version  # the LLVM major version the user compiles with
        # The linter reports every problem a verifier finds; mlir-opt (verify_chunk) stops at the first, like upstream.
        self.exhaustive = exhaustive
        self.report_undecided = report_undecided  # GPU416/GPU417 add an info per access the solver left undecided
        # mlir-opt's -allow-unregistered-dialect: gpu-lint and the editor accept other dialects (GPU149 is for gpu-opt)
        self.allow_unregistered = allow_unregistered
        self.module = chunk.module
        self.halted: set[int] = set()  # ops whose nested ops are not verified (MLIR stops there)
        self.cache: dict = {}  # per-chunk memo shared by rules (keyed by rule-chosen tuples)
        # Built on first use (plain attributes: functools.cached_property needs an instance
        # __dict__, which the mypyc-compiled class has not).
        self._index: OpIndex | None = None
        self._chunk_index: OpIndex | None = None
        self._symbols: SymbolTables | None = None
        self._lines: LineIndex | None = None
        self._names_near: dict[int, set[str]] = {}  # by the id of the isolated op around (0: the chunk)

    @property
    def index(self) -> OpIndex:
        """Every op of the rules' view: `module`, the chunk's or the one unit an incremental lint sets."""
        if self._index is None:
            self._index = OpIndex(self.module)
        return self._index

    def chunk_ops(self, name: str, mentioning: set[str]) -> list[Operation]:
        """The ops named `name` of the whole chunk, whatever the view, that may refer to a symbol
        named one of `mentioning` (what a check looks up across units: a kernel's launches). In one
        unit's view (an incremental lint), those of the units whose text spells one of the names
        (a reference spells its name), unless a reference may spell it otherwise (quoted, with
        escapes): then, as in the whole chunk's view, every one."""
        if self.module is self.chunk.module:
            return self.index.named(name)
        chunk, text = self.chunk, self.text
        if text is None or text.find('@"', chunk.start, chunk.end) >= 0:
            if self._chunk_index is None:
                self._chunk_index = OpIndex(chunk.module)
            return self._chunk_index.named(name)
        units = module_units(chunk.module)
        starts = [source_range(unit).start for unit in units]
        found: set[int] = set()
        for word in mentioning:
            at = text.find(word, chunk.start, chunk.end)
            while at >= 0:
                found.add(bisect_right(starts, at) - 1)
                at = text.find(word, at + 1, chunk.end)
        return [op for i in sorted(found) if i >= 0 for op in own_ops(units[i]) if op.name == name]

    @property
    def symbols(self) -> SymbolTables:
        if self._symbols is None:
            self._symbols = SymbolTables()
        return self._symbols

    @property
    def lines(self) -> LineIndex | None:
        if self._lines is None and self.text is not None:
            self._lines = LineIndex(self.text)
        return self._lines

    def names_near(self, op: Operation) -> set[str]:
        """The SSA names a value defined at `op` may not take: those of the isolated op around it (a
        function's names are its own: another function's do not clash) and those of the chunk's top
        level, with the names fixes reserved there. The same in a unit's view as in the chunk's."""
        scope = next((a for a in op.ancestors() if has_trait(a.name, "isolated") and a.parent_op is not None), None)
        key = id(scope) if scope is not None else 0
        names = self._names_near.get(key)
        if names is None:
            names = self._names_near[key] = _defined_names(scope if scope is not None else self.chunk.module)
            if scope is not None:
                names |= _defined_names(self.chunk.module, nested=False)
        return names

    def fresh_name(self, base: str, op: Operation) -> str:
        """`base`, or `base_0`, `base_1`, ... : the first of the names free at `op` (`names_near`); reserved."""
        names = self.names_near(op)
        candidate = base
        i = 0
        while candidate in names:
            candidate = f"{base}_{i}"
            i += 1
        names.add(candidate)
        return candidate

    def fresh_token(self, op: Operation) -> str:
        """A name for a new async token at `op` (`views.fresh_token_name`: `tN`) among the names free there; reserved."""
        names = self.names_near(op)
        name = fresh_token_name(names)
        names.add(name)
        return name

    def is_halted(self, op: Operation) -> bool:
        """Whether verification stopped at an ancestor of `op`."""
        if not self.halted:
            return False
        return any(id(a) in self.halted for a in op.ancestors())

    def indentation(self, offset: int) -> str:
        """The leading whitespace of the line holding `offset`."""
        text = self.text or ""
        start = text.rfind("\n", 0, offset) + 1
        end = start
        while end < len(text) and text[end] in " \t":
            end += 1
        return text[start:end]

    def line_start(self, offset: int) -> int:
        text = self.text or ""
        return text.rfind("\n", 0, offset) + 1

    def source(self, rng: TextRange) -> str:
        return (self.text or "")[rng.start : rng.end]
