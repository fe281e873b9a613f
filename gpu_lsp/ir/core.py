"""The IR: operations, regions, blocks and values with def-use chains and source ranges."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gpu_lsp.ir.attributes import Attribute
from gpu_lsp.ir.op_facts import NO_FACTS, OpFacts
from gpu_lsp.ir.types import Type
from gpu_lsp.text import TextRange


class Anchor:
    """The base offset shared by every range of one top-level operation.

    Ranges are stored relative to their anchor so that an edit before a
    top-level operation moves the whole operation by changing one number.
    """

    __slots__ = ("base",)

    def __init__(self, base: int = 0) -> None:
        self.base = base


class Span:
    """A range relative to an anchor."""

    __slots__ = ("anchor", "start", "end")

    def __init__(self, anchor: Anchor, start: int, end: int) -> None:
        self.anchor = anchor
        self.start = start
        self.end = end

    @property
    def range(self) -> TextRange:
        base = self.anchor.base
        return TextRange(base + self.start, base + self.end)


def span_range(span: Span | None) -> TextRange | None:
    """The absolute range of a span, or None."""
    return None if span is None else span.range


def source_range(op: Operation) -> TextRange:
    """The absolute range of an op read from source text (ValueError for one built by a pass)."""
    if op.span is None:
        raise ValueError(f"{op.name} has no source range")
    return op.span.range


def source_start(op: Operation, missing: int = -1) -> int:
    """Where an op read from source text starts (`source_range(op).start`, without a range
    object: a hot path over thousands of units); `missing` for one built by a pass."""
    span = op.span
    return span.anchor.base + span.start if span is not None else missing


class Use:
    """One use of a value: operand `index` of `owner`, written at `span`."""

    __slots__ = ("value", "owner", "index", "span")

    def __init__(self, value: Value, owner: Operation, index: int, span: Span | None) -> None:
        self.value = value
        self.owner = owner
        self.index = index
        self.span = span


class Value:
    """An SSA value: an operation result or a block argument."""

    __slots__ = ("type", "name", "uses", "def_span", "__weakref__")

    def __init__(self, type: Type, name: str | None = None, def_span: Span | None = None) -> None:
        self.type = type
        self.name = name
        self.uses: list[Use] = []
        self.def_span = def_span

    @property
    def users(self) -> list[Operation]:
        """Distinct operations using this value, in use order."""
        seen: dict[int, Operation] = {}
        for use in self.uses:
            seen.setdefault(id(use.owner), use.owner)
        return list(seen.values())

    def replace_all_uses_with(self, other: Value) -> None:
        """Point every use of this value at `other`."""
        for use in list(self.uses):
            use.owner.set_operand(use.index, other)

    @property
    def defining_op(self) -> Operation | None:
        return None

    @property
    def parent_block(self) -> Block | None:
        return None


class OpResult(Value):
    """Result `index` of operation `owner`."""

    __slots__ = ("owner", "index")

    def __init__(self, owner: Operation, index: int, type: Type, name: str | None = None, def_span: Span | None = None) -> None:
        super().__init__(type, name, def_span)
        self.owner = owner
        self.index = index

    @property
    def defining_op(self) -> Operation:
        return self.owner

    @property
    def parent_block(self) -> Block | None:
        return self.owner.parent

    def __repr__(self) -> str:
        return f"<OpResult {self.name or '?'}#{self.index} of {self.owner.name}>"


class BlockArgument(Value):
    """Argument `index` of block `owner`."""

    __slots__ = ("owner", "index", "loc")

    def __init__(self, owner: Block, index: int, type: Type, name: str | None = None, def_span: Span | None = None) -> None:
        super().__init__(type, name, def_span)
        self.owner = owner
        self.index = index
        self.loc: Attribute | None = None

    @property
    def parent_block(self) -> Block:
        return self.owner

    def __repr__(self) -> str:
        return f"<BlockArgument {self.name or '?'}#{self.index}>"


class Block:
    """A list of operations with typed arguments, inside a region."""

    __slots__ = ("arguments", "operations", "parent", "label", "label_span", "uses")

    def __init__(self) -> None:
        self.arguments: list[BlockArgument] = []
        self.operations: list[Operation] = []
        self.parent: Region | None = None
        self.label: str | None = None
        self.label_span: Span | None = None
        self.uses: list[tuple[Operation, Span | None]] = []

    def add_argument(self, type: Type, name: str | None = None, def_span: Span | None = None) -> BlockArgument:
        arg = BlockArgument(self, len(self.arguments), type, name, def_span)
        self.arguments.append(arg)
        return arg

    def append(self, op: Operation) -> None:
        op.parent = self
        self.operations.append(op)

    def insert(self, index: int, op: Operation) -> None:
        op.parent = self
        self.operations.insert(index, op)

    def index_of(self, op: Operation) -> int:
        for i, candidate in enumerate(self.operations):
            if candidate is op:
                return i
        raise ValueError("operation not in block")

    @property
    def terminator(self) -> Operation | None:
        return self.operations[-1] if self.operations else None

    @property
    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent is not None else None

    def __repr__(self) -> str:
        return f"<Block {self.label or ''} ({len(self.operations)} ops)>"


class Region:
    """A list of blocks owned by an operation."""

    __slots__ = ("blocks", "parent", "span")

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        self.span: Span | None = None

    def add_block(self, block: Block | None = None) -> Block:
        block = block or Block()
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry(self) -> Block | None:
        return self.blocks[0] if self.blocks else None

    @property
    def empty(self) -> bool:
        return not self.blocks


class Operation:
    """An MLIR operation with operands, results, attributes, regions and successors."""

    __slots__ = (
        "name",
        "operands",
        "results",
        "attributes",
        "properties",
        "regions",
        "successors",
        "parent",
        "loc",
        "span",
        "name_span",
        "operand_spans",
        "successor_spans",
        "anchor",
        "generic",
        "known",
        "facts",
        "pending",
        "symbol_spans",
        "sym_span",
    )

    def __init__(self, name: str, anchor: Anchor | None = None) -> None:
        self.name = name
        self.operands: list[Value] = []
        self.results: list[OpResult] = []
        self.attributes: dict[str, Attribute] = {}
        self.properties: dict[str, Attribute] = {}
        self.regions: list[Region] = []
        self.successors: list[Block] = []
        self.parent: Block | None = None
        self.loc: Attribute | None = None
        self.anchor = anchor or Anchor()
        self.span: Span | None = None
        self.name_span: Span | None = None
        self.operand_spans: list[Span | None] = []
        self.successor_spans: list[Span | None] = []
        self.generic = False
        self.known = True
        self.facts: OpFacts = NO_FACTS
        self.pending: Any = None  # the parser's operands and successors until names are resolved
        self.symbol_spans: list[tuple[Attribute, Span]] = []
        self.sym_span: Span | None = None

    # --- construction -------------------------------------------------------------------

    def add_operand(self, value: Value, span: Span | None = None) -> None:
        index = len(self.operands)
        self.operands.append(value)
        self.operand_spans.append(span)
        value.uses.append(Use(value, self, index, span))

    def set_operand(self, index: int, value: Value) -> None:
        old = self.operands[index]
        span = None
        for i, use in enumerate(old.uses):
            if use.owner is self and use.index == index:
                span = use.span
                del old.uses[i]
                break
        self.operands[index] = value
        value.uses.append(Use(value, self, index, span))

    def drop_operand_uses(self) -> None:
        for value in self.operands:
            value.uses = [u for u in value.uses if u.owner is not self]

    def set_operands(self, values: list[Value]) -> None:
        self.drop_operand_uses()
        self.operands = []
        self.operand_spans = []
        for v in values:
            self.add_operand(v)

    def add_result(self, type: Type, name: str | None = None, def_span: Span | None = None) -> OpResult:
        result = OpResult(self, len(self.results), type, name, def_span)
        self.results.append(result)
        return result

    def add_region(self, region: Region | None = None) -> Region:
        region = region or Region()
        region.parent = self
        self.regions.append(region)
        return region

    # --- queries --------------------------------------------------------------------------

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0] if "." in self.name else ""

    @property
    def range(self) -> TextRange | None:
        return span_range(self.span)

    @property
    def name_range(self) -> TextRange | None:
        return span_range(self.name_span)

    @property
    def parent_op(self) -> Operation | None:
        block = self.parent
        if block is None or block.parent is None:
            return None
        return block.parent.parent

    def ancestors(self) -> Iterator[Operation]:
        """Enclosing operations, innermost first."""
        op = self.parent_op
        while op is not None:
            yield op
            op = op.parent_op

    def get_attr(self, name: str) -> Attribute | None:
        value = self.properties.get(name)
        return value if value is not None else self.attributes.get(name)

    def walk(self) -> Iterator[Operation]:
        """This operation and every nested one, pre-order."""
        stack = [self]
        while stack:
            op = stack.pop()
            yield op
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    stack.extend(reversed(block.operations))

    def nested(self) -> Iterator[Operation]:
        """Every operation nested in this one's regions, pre-order."""
        it = self.walk()
        next(it)
        yield from it

    def is_ancestor_of(self, other: Operation) -> bool:
        op = other.parent_op
        while op is not None:
            if op is self:
                return True
            op = op.parent_op
        return False

    def __repr__(self) -> str:
        return f"<Operation {self.name}>"


def erase_op(op: Operation) -> None:
    """Remove `op` from its block and drop the uses it makes."""
    for nested in op.walk():
        nested.drop_operand_uses()
    if op.parent is not None:
        op.parent.operations.remove(op)
        op.parent = None
