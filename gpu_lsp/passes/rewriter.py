"""IR helpers the passes share: MLIR-order walks, cloning, use lists, new-op builders."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gpu_lsp.ir import opdefs
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DenseArrayAttr, DialectAttr, IntegerAttr, StringAttr, SymbolRefAttr
from gpu_lsp.ir.core import Block, BlockArgument, Operation, Region, Use, Value
from gpu_lsp.ir.op_facts import NO_FACTS, OpFacts
from gpu_lsp.ir.symbols import is_symbol_table, symbol_name

# --- walks ----------------------------------------------------------------------------------


def post_order(op: Operation) -> Iterator[Operation]:
    """`op->walk(...)` in MLIR's default order: nested operations first, then `op`.

    The list of each block is copied before it is visited, so the callback may
    erase or insert operations next to the one it is given.
    """
    for region in list(op.regions):
        for block in list(region.blocks):
            for nested in list(block.operations):
                yield from post_order(nested)
    yield op


def region_post_order(region: Region) -> Iterator[Operation]:
    """`region.walk(...)`: every operation in `region`, nested ones first."""
    for block in list(region.blocks):
        for op in list(block.operations):
            yield from post_order(op)


def blocks_post_order(op: Operation) -> Iterator[Block]:
    """`op->walk(callback(Block *))`: the blocks nested in an op's blocks come first."""
    for region in list(op.regions):
        for block in list(region.blocks):
            for nested in list(block.operations):
                yield from blocks_post_order(nested)
            yield block


def value_region(value: Value) -> Region | None:
    """`Value::getParentRegion`."""
    block = value.owner if isinstance(value, BlockArgument) else value.parent_block
    return None if block is None else block.parent


def enclosing_regions(op: Operation) -> set[int]:
    """Ids of the regions that (transitively) contain `op`."""
    out: set[int] = set()
    block = op.parent
    while block is not None and block.parent is not None:
        region = block.parent
        out.add(id(region))
        owner = region.parent
        block = owner.parent if owner is not None else None
    return out


def used_values_defined_above(region: Region) -> list[Value]:
    """`getUsedValuesDefinedAbove`: operands used in `region` and defined outside it.

    In MLIR's order: a post-order walk of the region, operands left to right,
    each value once.
    """
    owner = region.parent
    above = enclosing_regions(owner) if owner is not None else set()
    seen: set[int] = set()
    out: list[Value] = []
    for op in region_post_order(region):
        for value in op.operands:
            parent = value_region(value)
            if parent is not None and id(parent) in above and id(value) not in seen:
                seen.add(id(value))
                out.append(value)
    return out


def is_inside(op: Operation, region: Region) -> bool:
    """True when `op` is nested (at any depth) in `region`."""
    block = op.parent
    while block is not None:
        if block.parent is region:
            return True
        owner = block.parent.parent if block.parent is not None else None
        block = owner.parent if owner is not None else None
    return False


def replace_uses_in_region(old: Value, new: Value, region: Region) -> None:
    """`replaceAllUsesInRegionWith`: only the uses nested in `region` change."""
    for use in list(old.uses):
        if is_inside(use.owner, region):
            use.owner.set_operand(use.index, new)


# --- use lists in MLIR's order --------------------------------------------------------------
#
# MLIR keeps a value's uses newest first; `Value.uses` here is oldest first. Passes
# whose result depends on the order of `getUses()` go through these helpers.


def mlir_uses(value: Value) -> list[Use]:
    """The uses of `value` in the order MLIR iterates them (newest first)."""
    return list(reversed(value.uses))


def mlir_users(value: Value) -> list[Operation]:
    """`value.getUsers()`: the owner of each use, MLIR's order, repeats included."""
    return [use.owner for use in mlir_uses(value)]


def reverse_use_order(value: Value) -> None:
    """The use-list effect of `replaceAllUsesWith` onto a fresh value, done in place."""
    value.uses.reverse()


# --- cloning --------------------------------------------------------------------------------


def clone_op(op: Operation, mapping: dict, origin: dict | None = None) -> Operation:
    """`Operation::clone(mapper)`: a deep copy whose operands go through `mapping`.

    Results, block arguments and blocks of the copy are added to `mapping`. The
    copy keeps the source ranges of the original (what it was written as), so
    that a printer may print it from its source text with the new names.
    Operands defined later in the same cloned region (forward references) are
    fixed by `remap_operands` afterwards. `origin` records copy -> original op,
    so that an error on a copy points at the text it came from.
    """
    new = Operation(op.name, op.anchor)
    new.generic = op.generic
    new.known = op.known
    new.loc = op.loc
    new.span = op.span
    new.attributes = dict(op.attributes)
    new.properties = dict(op.properties)
    new.facts = op.facts.for_clone()
    for value, span in zip(op.operands, op.operand_spans):
        new.add_operand(mapping.get(value, value), span)
    for result in op.results:
        mapping[result] = new.add_result(result.type, result.name, result.def_span)
    for region in op.regions:
        copy = new.add_region()
        copy.span = region.span
        clone_region_into(region, copy, mapping, origin)
    new.successors = [mapping.get(b, b) for b in op.successors]
    new.successor_spans = list(op.successor_spans)
    if origin is not None:
        origin[new] = origin.get(op, op)
    return new


def clone_region_into(src: Region, dst: Region, mapping: dict, origin: dict | None = None) -> list[Block]:
    """`Region::cloneInto`: append copies of `src`'s blocks to `dst`; returns them."""
    new_blocks = []
    for block in src.blocks:
        nb = Block()
        nb.label = block.label
        nb.label_span = block.label_span
        for arg in block.arguments:
            if arg not in mapping:
                copy = nb.add_argument(arg.type, arg.name, arg.def_span)
                copy.loc = arg.loc
                mapping[arg] = copy
        mapping[block] = nb
        new_blocks.append(nb)
    for block, nb in zip(src.blocks, new_blocks):
        for op in block.operations:
            nb.append(clone_op(op, mapping, origin))
    for nb in new_blocks:
        dst.add_block(nb)
        for op in nb.operations:
            remap_operands(op, mapping)
    return new_blocks


def remap_operands(op: Operation, mapping: dict) -> None:
    """Point operands and successors that `mapping` knows at their copies (forward refs)."""
    for nested in op.walk():
        for index, value in enumerate(nested.operands):
            mapped = mapping.get(value)
            if mapped is not None and mapped is not value:
                nested.set_operand(index, mapped)
        nested.successors = [mapping.get(b, b) for b in nested.successors]


def touch(op: Operation) -> None:
    """Mark an op changed in place: its source text no longer describes it."""
    op.span = None


def block_of(op: Operation) -> Block:
    """The block holding `op` (ValueError for a detached op)."""
    if op.parent is None:
        raise ValueError(f"{op.name} is not in a block")
    return op.parent


def insert_before(op: Operation, anchor: Operation) -> None:
    """Insert a detached `op` right before `anchor`."""
    block = block_of(anchor)
    block.insert(block.index_of(anchor), op)


def insert_after(op: Operation, anchor: Operation) -> None:
    """Insert a detached `op` right after `anchor`."""
    block = block_of(anchor)
    block.insert(block.index_of(anchor) + 1, op)


def drop_result(op: Operation, index: int) -> None:
    """Remove an unused result and renumber the rest."""
    del op.results[index]
    for k, result in enumerate(op.results):
        result.index = k


# --- symbols --------------------------------------------------------------------------------


def set_symbol_name(op: Operation, name: str) -> None:
    if "sym_name" in op.attributes and "sym_name" not in op.properties:
        op.attributes["sym_name"] = StringAttr(name)
    else:
        op.properties["sym_name"] = StringAttr(name)


def is_symbol(op: Operation) -> bool:
    """`isa<SymbolOpInterface>(op)`: a symbol op that has a name (an unnamed module is none)."""
    if symbol_name(op) is None:
        return False
    return op.name == "builtin.module" or opdefs.has_trait(op.name, "symbol")


def body_block(op: Operation) -> Block:
    """The single block of a symbol table op's body (created when missing)."""
    region = op.regions[0]
    return region.blocks[0] if region.blocks else region.add_block()


def lookup_symbol(table: Operation, name: str) -> Operation | None:
    """`SymbolTable::lookupSymbolIn(table, name)`: a direct child with that name."""
    if not table.regions or not table.regions[0].blocks:
        return None
    for op in table.regions[0].blocks[0].operations:
        if symbol_name(op) == name:
            return op
    return None


def lookup_symbol_ref(table: Operation, ref: SymbolRefAttr) -> Operation | None:
    """`SymbolTable::lookupSymbolIn(table, @a::@b)`: through nested symbol tables."""
    current = lookup_symbol(table, ref.root)
    for part in ref.nested:
        if current is None or not is_symbol_table(current):
            return None
        current = lookup_symbol(current, part)
    return current


def symbol_refs(attr: Attribute) -> Iterator[SymbolRefAttr]:
    """Symbol references in an attribute, pre-order, not looking inside a reference."""
    if isinstance(attr, SymbolRefAttr):
        yield attr
        return
    elements = getattr(attr, "elements", None)
    if elements is not None:
        for element in elements:
            yield from symbol_refs(element)
        return
    entries = getattr(attr, "entries", None)
    if entries is not None:
        for _, value in sorted(entries, key=lambda kv: kv[0]):
            yield from symbol_refs(value)


def op_symbol_refs(op: Operation) -> list[SymbolRefAttr]:
    """`walkSymbolRefs(op)`: the references in the op's attribute dictionary, sorted by name."""
    merged = dict(op.attributes)
    merged.update(op.properties)
    out: list[SymbolRefAttr] = []
    for name in sorted(merged):
        out.extend(symbol_refs(merged[name]))
    return out


# --- new operations -------------------------------------------------------------------------


def new_op(
    name: str,
    operands: Sequence[Value] = (),
    result_types: Sequence[T.Type] = (),
    properties: dict | None = None,
    attributes: dict | None = None,
    facts: OpFacts = NO_FACTS,
    loc: Attribute | None = None,
) -> Operation:
    """A detached operation as the op's syntax reader would have built it."""
    op = Operation(name)
    op.known = name in opdefs.OPS
    op.loc = loc
    for value in operands:
        op.add_operand(value)
    for ty in result_types:
        op.add_result(ty)
    op.properties = dict(properties or {})
    op.attributes = dict(attributes or {})
    op.facts = facts
    return op


def segments(*sizes: int) -> DenseArrayAttr:
    """An `operandSegmentSizes` property."""
    return DenseArrayAttr(T.I32, tuple(sizes))


def dimension_op(name: str, dim: str, loc: Attribute | None = None) -> Operation:
    """`gpu.block_id x` and friends."""
    return new_op(name, (), [T.INDEX], {"dimension": DialectAttr("gpu", "", f"dim {dim}")}, loc=loc)


def wait_op(deps: list[Value], is_async: bool, loc: Attribute | None = None) -> Operation:
    """`gpu.wait [async] [deps]`."""
    return new_op("gpu.wait", deps, [T.TOKEN] if is_async else [], loc=loc)


def i64(value: int) -> IntegerAttr:
    return IntegerAttr(value, T.I64)
