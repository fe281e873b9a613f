"""Go to definition, find references, document highlight and rename, over the document index."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpu_lsp.ir.attributes import SymbolRefAttr
from gpu_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Region, Value
from gpu_lsp.ir.printer import keyword_or_string
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.index import ALIAS, BLOCK, OP, SYMBOL, VALUE, AliasKey, Target, document_index, value_group
from gpu_lsp.syntax.names import SUFFIX_ID, WORD_ID
from gpu_lsp.text import Edit, TextRange

_SUFFIX_ID = re.compile(SUFFIX_ID)
_WORD_ID = re.compile(WORD_ID)


class RenameError(Exception):
    """A rename that cannot be done; the message says why."""


@dataclass(frozen=True)
class Highlight:
    range: TextRange
    write: bool


def definition(snapshot: Snapshot, offset: int) -> list[TextRange]:
    """Where the name under the cursor is defined (for an op name: the callee or kernel)."""
    index = document_index(snapshot)
    occ = index.at(offset)
    if occ is None:
        return []
    target = occ.target
    if isinstance(target, Value):
        span = target.def_span
        return [span.range] if span is not None else []
    if isinstance(target, Block):
        return [target.label_span.range] if target.label_span is not None else []
    if occ.kind == SYMBOL:
        resolved = index.target_of(occ)
        if isinstance(resolved, Operation):
            d = index.symbol_def(resolved)
            return [d.range] if d is not None else []
        return []
    if occ.kind == ALIAS:
        return [o.range for o in index.alias_defs if o.target == target]
    if occ.kind == OP and isinstance(target, Operation):
        for key in ("kernel", "callee"):
            ref = target.properties.get(key)
            if isinstance(ref, SymbolRefAttr):
                callee = index.resolve(ref.parts, target)
                if callee is not None:
                    d = index.symbol_def(callee)
                    return [d.range] if d is not None else []
    return []


def _targets(snapshot: Snapshot, offset: int) -> tuple[str, Target] | None:
    index = document_index(snapshot)
    occ = index.at(offset)
    if occ is None or occ.kind == OP:
        return None
    return occ.kind, index.target_of(occ)


def references(snapshot: Snapshot, offset: int, include_declaration: bool = True) -> list[TextRange]:
    """Every place the name under the cursor is written (kernel -> its launches, too)."""
    found = _targets(snapshot, offset)
    if found is None:
        return []
    kind, target = found
    occs = document_index(snapshot).occurrences_of(target, kind)
    return [o.range for o in occs if include_declaration or not o.is_def]


def highlights(snapshot: Snapshot, offset: int) -> list[Highlight]:
    """The occurrences of the name under the cursor, definitions marked as writes."""
    found = _targets(snapshot, offset)
    if found is None:
        return []
    kind, target = found
    return [Highlight(o.range, o.is_def) for o in document_index(snapshot).occurrences_of(target, kind)]


# --- rename ----------------------------------------------------------------------------------


def prepare_rename(snapshot: Snapshot, offset: int) -> tuple[TextRange, str]:
    """The range and current name of what would be renamed; RenameError when nothing can be."""
    index = document_index(snapshot)
    occ = index.at(offset)
    if occ is None or occ.kind == OP:
        raise RenameError("nothing to rename here: place the cursor on a %value, ^block, @symbol or alias")
    text = snapshot.text
    target = occ.target
    if isinstance(target, Value):
        base = _base_name(target)
        if base is None or target.def_span is None:
            raise RenameError("this value has no definition to rename")
        return TextRange(occ.start + 1, occ.start + 1 + len(base)), base
    if isinstance(target, Block):
        if target.label_span is None:
            raise RenameError("this block has no label")
        return TextRange(occ.start + 1, occ.end), text[occ.start + 1 : occ.end]
    if occ.kind == SYMBOL:
        resolved = index.target_of(occ)
        if not isinstance(resolved, Operation):
            raise RenameError(f"{text[occ.start:occ.end]} is not defined in this module")
        return TextRange(occ.start + 1, occ.end), symbol_name(resolved) or ""
    if not isinstance(target, AliasKey):
        raise RenameError("nothing to rename here: place the cursor on a %value, ^block, @symbol or alias")
    return TextRange(occ.start + 1, occ.end), target.name[1:]


def rename(snapshot: Snapshot, offset: int, new_name: str) -> list[Edit]:
    """Edits that rename the value, block, symbol or alias under the cursor everywhere."""
    index = document_index(snapshot)
    occ = index.at(offset)
    if occ is None or occ.kind == OP:
        raise RenameError("nothing to rename here: place the cursor on a %value, ^block, @symbol or alias")
    new_name = new_name.strip()
    target = occ.target
    if isinstance(target, Value):
        return _rename_value(snapshot, target, new_name.lstrip("%"))
    if isinstance(target, Block):
        return _rename_block(snapshot, target, new_name.lstrip("^"))
    if occ.kind == SYMBOL:
        resolved = index.target_of(occ)
        if not isinstance(resolved, Operation):
            raise RenameError(f"{snapshot.text[occ.start:occ.end]} is not defined in this module")
        return _rename_symbol(snapshot, resolved, new_name.lstrip("@"))
    if not isinstance(target, AliasKey):
        raise RenameError("nothing to rename here: place the cursor on a %value, ^block, @symbol or alias")
    return _rename_alias(snapshot, target, new_name.lstrip("#!"))


def _base_name(value: Value) -> str | None:
    if value.name is None:
        return None
    return value.name.partition("#")[0]


def _rename_value(snapshot: Snapshot, value: Value, new: str) -> list[Edit]:
    if not _SUFFIX_ID.fullmatch(new):
        raise RenameError(f"'%{new}' is not a valid SSA value name")
    base = _base_name(value)
    if base is None or value.def_span is None:
        raise RenameError("this value has no definition to rename")
    if new == base:
        return []
    if new in _visible_names(value):
        raise RenameError(f"'%{new}' is already defined in this scope")
    index = document_index(snapshot)
    edits: dict[int, Edit] = {}
    for member in value_group(value):
        for o in index.occurrences_of(member, VALUE):
            edits[o.start] = Edit(TextRange(o.start + 1, o.start + 1 + len(base)), new)
    return [edits[k] for k in sorted(edits)]


def _scope_region(value: Value) -> Region | None:
    if isinstance(value, OpResult):
        block = value.owner.parent
        return block.parent if block is not None else None
    if isinstance(value, BlockArgument):
        return value.owner.parent
    return None


def _names_in(region: Region, deep: bool) -> set[str]:
    """Value names defined directly in `region` (and, when deep, in every nested region)."""
    out: set[str] = set()

    def add(v: Value) -> None:
        if v.name:
            out.add(v.name.partition("#")[0])

    for block in region.blocks:
        for arg in block.arguments:
            add(arg)
        for op in block.operations:
            for r in op.results:
                add(r)
            if not deep:
                continue
            for nested in op.walk():
                if nested is not op:
                    for r in nested.results:
                        add(r)
                for nested_region in nested.regions:
                    for b in nested_region.blocks:
                        for arg in b.arguments:
                            add(arg)
    return out


def _visible_names(value: Value) -> set[str]:
    """Names a new name would clash with: the value's scope, nested and enclosing regions."""
    from gpu_lsp.ir.opdefs import has_trait

    region = _scope_region(value)
    if region is None:
        return set()
    names = _names_in(region, deep=True)
    op = region.parent
    while op is not None and not has_trait(op.name, "isolated"):
        block = op.parent
        if block is None or block.parent is None:
            break
        names |= _names_in(block.parent, deep=False)
        op = block.parent.parent
    return names


def _rename_block(snapshot: Snapshot, block: Block, new: str) -> list[Edit]:
    if not _SUFFIX_ID.fullmatch(new):
        raise RenameError(f"'^{new}' is not a valid block name")
    if block.label_span is None or block.label is None:
        raise RenameError("this block has no label")
    if new == block.label[1:]:
        return []
    region = block.parent
    if region is not None and any(b.label == "^" + new for b in region.blocks):
        raise RenameError(f"'^{new}' is already a block of this region")
    occs = document_index(snapshot).occurrences_of(block, BLOCK)
    return [Edit(TextRange(o.start + 1, o.end), new) for o in occs]


def _rename_symbol(snapshot: Snapshot, op: Operation, new: str) -> list[Edit]:
    if new.startswith('"') and new.endswith('"') and len(new) >= 2:
        new = new[1:-1]
    if not new:
        raise RenameError("a symbol name cannot be empty")
    if new == symbol_name(op):
        return []
    index = document_index(snapshot)
    parent = op.parent_op
    if parent is not None and new in index.symbol_table(parent):
        raise RenameError(f"'@{new}' is already defined in {parent.name}")
    written = keyword_or_string(new)
    return [Edit(TextRange(o.start + 1, o.end), written) for o in index.occurrences_of(op, SYMBOL)]


def _rename_alias(snapshot: Snapshot, key: AliasKey, new: str) -> list[Edit]:
    if not _WORD_ID.fullmatch(new):
        raise RenameError(f"'{key.name[0]}{new}' is not a valid alias name")
    index = document_index(snapshot)
    if AliasKey(key.chunk, key.name[0] + new) in index.alias_values:
        raise RenameError(f"'{key.name[0]}{new}' is already an alias")
    return [Edit(TextRange(o.start + 1, o.end), new) for o in index.occurrences_of(key, ALIAS)]

