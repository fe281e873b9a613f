"""Symbol tables: which op defines `@name` in a symbol-table op, and `@a::@b` resolution."""

from __future__ import annotations

from gpu_lsp.ir.attributes import StringAttr, SymbolRefAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import lookup


def symbol_name(op: Operation) -> str | None:
    """The `sym_name` an operation defines, or None."""
    attr = op.properties.get("sym_name")
    if attr is None:
        attr = op.attributes.get("sym_name")
    return attr.value if isinstance(attr, StringAttr) else None


def closest_module(op: Operation) -> Operation | None:
    """The innermost `builtin.module` around `op` (not `op` itself)."""
    for ancestor in op.ancestors():
        if ancestor.name == "builtin.module":
            return ancestor
    return None


def is_symbol_table(op: Operation) -> bool:
    """Whether `op` holds a symbol table (builtin.module, gpu.module, ...)."""
    spec = lookup(op.name)
    return spec is not None and spec.has("symbol_table")


class SymbolTable:
    """The symbols defined directly in one symbol-table operation's body, first definition wins."""

    __slots__ = ("op", "symbols")

    def __init__(self, op: Operation) -> None:
        self.op = op
        self.symbols: dict[str, Operation] = {}
        for region in op.regions[:1]:
            for block in region.blocks[:1]:
                for child in block.operations:
                    name = symbol_name(child)
                    if name is not None:
                        self.symbols.setdefault(name, child)

    def lookup(self, name: str) -> Operation | None:
        return self.symbols.get(name)


class SymbolTables:
    """A cache of symbol tables for one IR tree (MLIR's SymbolTableCollection)."""

    __slots__ = ("_tables",)

    def __init__(self) -> None:
        self._tables: dict[int, SymbolTable] = {}

    def table(self, op: Operation) -> SymbolTable:
        table = self._tables.get(id(op))
        if table is None:
            table = SymbolTable(op)
            self._tables[id(op)] = table
        return table

    def lookup_in(self, table_op: Operation, ref: SymbolRefAttr | str) -> Operation | None:
        """Resolve `ref` starting at `table_op`: the root in its table, each nested part in the previous result."""
        parts = (ref,) if isinstance(ref, str) else ref.parts
        current = table_op
        for i, part in enumerate(parts):
            if i and not is_symbol_table(current):
                return None
            found = self.table(current).lookup(part)
            if found is None:
                return None
            current = found
        return current

    def nearest_table(self, op: Operation) -> Operation | None:
        """The closest enclosing symbol-table operation of `op` (not `op` itself)."""
        for ancestor in op.ancestors():
            if is_symbol_table(ancestor):
                return ancestor
        return None

    def lookup_nearest(self, op: Operation, ref: SymbolRefAttr | str) -> Operation | None:
        """Resolve `ref` in the closest symbol table enclosing `op` (MLIR's lookupNearestSymbolFrom)."""
        table = self.nearest_table(op)
        return None if table is None else self.lookup_in(table, ref)


def format_symbol_ref(ref: SymbolRefAttr) -> str:
    """`@a::@b`, the way MLIR prints a symbol reference in messages."""
    return str(ref)
