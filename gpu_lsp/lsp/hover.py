"""Hover: op documentation from the registry, value types and definitions, token chains, symbols."""

from __future__ import annotations

from dataclasses import dataclass

from gpu_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Value
from gpu_lsp.ir.opdefs import installed_from, lookup
from gpu_lsp.ir.opdefs.opdef import ALLOC, FREE, READ, WRITE, OpDef
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.index import OP, SYMBOL, AliasKey, DocumentIndex, SymbolUse, document_index, value_group
from gpu_lsp.lsp.ir_queries import (
    block_name,
    kernel_of,
    kernel_params,
    launch_arg_role,
    op_title,
    signature_text,
    stream_of,
    value_owner_op,
    waits_on,
)
from gpu_lsp.lsp.kernel_hover import kernel_checks_doc
from gpu_lsp.lsp.type_hover import type_hover
from gpu_lsp.text import TextRange

_SHOWN_TRAITS = ("async", "isolated", "pure", "terminator", "symbol", "symbol_table", "function")
_MAX_LIST = 12
_EFFECT_VERBS = ((READ, "reads"), (WRITE, "writes"), (FREE, "frees"), (ALLOC, "allocates"))


@dataclass(frozen=True)
class HoverResult:
    """Markdown and the range it describes."""

    markdown: str
    range: TextRange


def hover(snapshot: Snapshot, offset: int) -> HoverResult | None:
    index = document_index(snapshot)
    occ = index.at(offset)
    if occ is None:
        written = type_hover(snapshot.text, offset)
        return None if written is None else HoverResult(*written)
    ctx = _Context(snapshot, index)
    target = occ.target
    if occ.kind == OP and isinstance(target, Operation):
        body = ctx.op_doc(target)
    elif isinstance(target, Value):
        body = ctx.value_doc(target, occ.is_def)
    elif isinstance(target, Block):
        body = ctx.block_doc(target)
    elif occ.kind == SYMBOL:
        body = ctx.symbol_doc(index.target_of(occ))
    elif isinstance(target, AliasKey):
        value = index.alias_values.get(target)
        body = f"```mlir\n{target.name} = {value}\n```\n\nAlias defined at the top of the {'file' if len(snapshot.parsed.chunks) == 1 else 'chunk'}."
    else:
        return None
    if not body:
        return None
    return HoverResult(body, occ.range)


def memory_line(spec: OpDef) -> str:
    """What a declaration says its op does to memory (`Memory: reads `$source`, writes `$target``), or ""."""
    targets = [(f"`${a.name}`", a.effects) for a in (spec.operands or ()) + (spec.results or ())]
    targets += [(f"operand #{i}", effects) for i, effects in spec.positional_effects]
    parts = [f"{verb} {name}" for effect, verb in _EFFECT_VERBS for name, effects in targets if effect in effects]
    source = spec.view_source
    if source is not None:
        parts.append(f"views `${source}`" if isinstance(source, str) else f"views operand #{source}")
    return "Memory: " + ", ".join(parts) if parts else ""


class _Context:
    def __init__(self, snapshot: Snapshot, index: DocumentIndex) -> None:
        self.snapshot = snapshot
        self.index = index
        self.text = snapshot.text

    def line(self, op_or_value) -> int:
        if isinstance(op_or_value, Operation):
            rng = op_or_value.name_range or op_or_value.range
        else:
            span = op_or_value.def_span
            rng = span.range if span is not None else None
        if rng is None:
            return 0
        return self.snapshot.lines.line_of(rng.start) + 1

    def where(self, op: Operation) -> str:
        return f"`{op_title(op)}` (line {self.line(op)})"

    # --- ops -----------------------------------------------------------------------------------

    def op_doc(self, op: Operation) -> str:
        spec = lookup(op.name)
        if spec is None:
            return (
                f"**{op.name}**\n\nNot an operation gpu-lsp knows: its operands and results are read "
                "without checking its syntax."
            )
        lines = [f"**{op.name}** — {spec.summary}" if spec.summary else f"**{op.name}**"]
        if spec.syntax:
            lines.append(f"```mlir\n{spec.syntax}\n```")
        traits = [t for t in _SHOWN_TRAITS if spec.has(t)]
        if traits:
            lines.append("Traits: " + ", ".join(f"`{t}`" for t in traits))
        memory = memory_line(spec)
        if memory:
            lines.append(memory)
        source = installed_from(op.name)
        if source is not None:
            lines.append(f"Declared by this project in `{source}` (`op-definitions`).")
        if not op.known and not op.generic:
            lines.append("⚠ This op did not match its custom syntax; only its names and regions were read.")
        if op.name == "gpu.launch_func":
            kernel = kernel_of(self.index, op)
            if kernel is not None:
                lines.append(f"Launches:\n```mlir\n{signature_text(kernel, self.text)}\n```")
        checks = kernel_checks_doc(self.snapshot, op, self.line)
        if checks:
            lines.append(checks)
        return "\n\n".join(lines)

    # --- values --------------------------------------------------------------------------------

    def value_doc(self, value: Value, is_def: bool) -> str:
        group = value_group(value) if is_def else [value]
        typed = ", ".join(f"{_value_name(v)} : {v.type}" for v in group)
        lines = [f"```mlir\n{typed}\n```"]
        lines.append(self.defined_by(value))
        users = value.users
        if users:
            shown = ", ".join(self.where(u) for u in users[:_MAX_LIST])
            more = f" and {len(users) - _MAX_LIST} more" if len(users) > _MAX_LIST else ""
            lines.append(f"Used by {len(users)} op{'s' if len(users) != 1 else ''}: {shown}{more}")
        elif value.def_span is not None:
            lines.append("Not used.")
        if value.type.is_token:
            lines.extend(self.token_doc(value))
        return "\n\n".join(line for line in lines if line)

    def defined_by(self, value: Value) -> str:
        if isinstance(value, OpResult):
            owner = value.owner
            if len(owner.results) > 1:
                return f"Result #{value.index} of {self.where(owner)}"
            return f"Result of {self.where(owner)}"
        if isinstance(value, BlockArgument):
            role = launch_arg_role(value)
            parent = value_owner_op(value)
            if role is not None and parent is not None:
                return f"The {role} of the {self.where(parent)}"
            block = value.owner
            region = block.parent
            entry = region is not None and region.blocks and region.blocks[0] is block
            if parent is not None and entry and parent.name in ("func.func", "gpu.func"):
                return f"Argument #{value.index} of {self.where(parent)}"
            where = self.where(parent) if parent is not None else "a region"
            return f"Argument #{value.index} of block `{block_name(block)}` in {where}"
        return "Not defined: this name has no definition in scope."

    def token_doc(self, value: Value) -> list[str]:
        out = []
        deps = waits_on(value)
        if deps:
            items = []
            for dep in deps[:_MAX_LIST]:
                owner = value_owner_op(dep)
                if isinstance(dep, OpResult):
                    items.append(f"- `{_value_name(dep)}` = {self.where(dep.owner)}")
                else:
                    items.append(f"- `{_value_name(dep)}` (argument of {self.where(owner) if owner else 'a block'})")
            if len(deps) > _MAX_LIST:
                items.append(f"- … and {len(deps) - _MAX_LIST} more")
            out.append("**Waits on** (transitively):\n" + "\n".join(items))
        elif isinstance(value, OpResult):
            out.append("**Waits on** nothing: it starts a new chain.")
        stream = stream_of(value)
        if stream.kind == "created" and stream.op is not None:
            number = f" (stream {stream.number} of its function)" if stream.number else ""
            out.append(
                f"**Stream after gpu-to-llvm**: the one created by `{_value_name(stream.value)}` = "
                f"{self.where(stream.op)}{number}"
            )
        elif stream.kind == "argument":
            out.append(f"**Stream after gpu-to-llvm**: the one passed in as `{_value_name(stream.value)}`")
        elif stream.op is not None:
            out.append(
                f"**Stream after gpu-to-llvm**: none — {self.where(stream.op)} has no async dependency, "
                "and gpu-to-llvm converts it only with exactly one."
            )
        return out

    # --- blocks and symbols ---------------------------------------------------------------------

    def block_doc(self, block: Block) -> str:
        parent = block.parent_op
        head = f"Block `{block_name(block)}`" + (f" of {self.where(parent)}" if parent is not None else "")
        lines = [head]
        if block.arguments:
            lines.append("Arguments: " + ", ".join(f"`{_value_name(a)} : {a.type}`" for a in block.arguments))
        preds = [op for op, _ in block.uses]
        if preds:
            lines.append("Predecessors: " + ", ".join(self.where(p) for p in preds[:_MAX_LIST]))
        term = block.terminator
        if term is not None and term.successors:
            lines.append("Successors: " + ", ".join(f"`{block_name(b)}`" for b in term.successors))
        return "\n\n".join(lines)

    def symbol_doc(self, target: object) -> str:
        if isinstance(target, SymbolUse):
            path = "::".join("@" + p for p in target.path)
            return f"`{path}` is not defined in this module."
        if not isinstance(target, Operation):
            return ""
        op = target
        lines = [f"```mlir\n{signature_text(op, self.text)}\n```"]
        parent = op.parent_op
        if parent is not None and symbol_name(parent) is not None:
            lines.append(f"In {self.where(parent)}")
        if op.name == "gpu.func":
            params = kernel_params(op)
            if "gpu.kernel" in op.attributes:
                launches = [
                    o for o in self.index.occurrences_of(op, SYMBOL) if not o.is_def
                ]
                if launches:
                    shown = ", ".join(str(self.snapshot.lines.line_of(o.start) + 1) for o in launches[:_MAX_LIST])
                    lines.append(f"Kernel launched {len(launches)} time{'s' if len(launches) != 1 else ''} (line{'s' if len(launches) != 1 else ''} {shown})")
                else:
                    lines.append("Kernel, never launched in this module.")
            if params:
                lines.append("Parameters: " + ", ".join(f"`{_value_name(p)} : {p.type}`" for p in params))
        elif op.name == "gpu.module":
            kernels = [
                child
                for region in op.regions
                for block in region.blocks
                for child in block.operations
                if child.name == "gpu.func"
            ]
            if kernels:
                lines.append("Functions: " + ", ".join(f"`@{symbol_name(k)}`" for k in kernels[:_MAX_LIST]))
        elif op.name == "func.func":
            uses = [o for o in self.index.occurrences_of(op, SYMBOL) if not o.is_def]
            if uses:
                lines.append(f"Referenced {len(uses)} time{'s' if len(uses) != 1 else ''}.")
        return "\n\n".join(lines)


def _value_name(value: Value) -> str:
    return f"%{value.name}" if value.name else "%<unnamed>"



