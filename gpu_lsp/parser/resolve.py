"""Name resolution: binds every `%use` and `^successor` to its definition, MLIR's scoping rules."""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Diagnostic, Related, Severity
from gpu_lsp.dialects.registry import lookup
from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Block, Operation, Region, Span, Value
from gpu_lsp.parser.builder import REDEFINED_VALUE, UNDEFINED_BLOCK, UNDEFINED_VALUE, USE_TYPE_MISMATCH
from gpu_lsp.text import TextRange


class UndefinedValue(Value):
    """Stands in for a `%name` that has no definition, so the op keeps its operand count."""

    __slots__ = ()


def _base_name(name: str) -> tuple[str, int]:
    if "#" in name:
        base, _, idx = name.partition("#")
        return base, int(idx)
    return name, 0


class Resolver:
    """Walks regions with a chain of scopes; isolated-from-above ops start a fresh chain."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics

    def error(self, code: str, message: str, rng: TextRange, related: tuple = ()) -> None:
        self.diagnostics.append(Diagnostic(code, message, rng, Severity.ERROR, related=related))

    def resolve_top(self, ops: list[Operation]) -> None:
        scope: dict[str, list[Value]] = {}
        self._define_ops(ops, [scope])
        for op in ops:
            self._resolve_op(op, [scope], {})

    def _define(self, name: str | None, value: Value, chain: list[dict]) -> None:
        if name is None:
            return
        base, idx = _base_name(name)
        for scope in chain:
            group = scope.get(base)
            if group is not None and scope is not chain[-1]:
                self._redefined(base, value, group)
                return
        scope = chain[-1]
        group = scope.get(base)
        if group is None:
            scope[base] = [value]
            return
        if idx == len(group) and "#" in name:
            group.append(value)
            return
        self._redefined(base, value, group)

    def _redefined(self, base: str, value: Value, group: list[Value]) -> None:
        if value.def_span is None:
            return
        prior = group[0].def_span
        related = (Related("previously defined here", prior.range),) if prior is not None else ()
        self.error(REDEFINED_VALUE, f"redefinition of SSA value '%{base}'", value.def_span.range, related)

    def _define_ops(self, ops: list[Operation], chain: list[dict]) -> None:
        for op in ops:
            for result in op.results:
                self._define(result.name, result, chain)

    def _define_region(self, region: Region, chain: list[dict]) -> dict[str, Block]:
        labels: dict[str, Block] = {}
        for block in region.blocks:
            if block.label is not None:
                if block.label in labels and block.label_span is not None:
                    self.error(UNDEFINED_BLOCK, f"redefinition of block '{block.label}'", block.label_span.range)
                labels.setdefault(block.label, block)
            for arg in block.arguments:
                self._define(arg.name, arg, chain)
            self._define_ops(block.operations, chain)
        return labels

    def _lookup(self, name: str, chain: list[dict]) -> Value | None:
        base, idx = _base_name(name)
        for scope in reversed(chain):
            group = scope.get(base)
            if group is not None:
                return group[idx] if idx < len(group) else None
        return None

    def _resolve_op(self, op: Operation, chain: list[dict], labels: dict[str, Block]) -> None:
        pending = op.pending
        op.pending = None
        spec = lookup(op.name)
        isolated = spec is not None and spec.has("isolated")
        deferred_defs: list = []
        if pending is not None:
            for ref in pending.refs:
                value = self._lookup(ref.name[1:], chain)
                span = Span(op.anchor, ref.start - op.anchor.base, ref.end - op.anchor.base)
                if value is None:
                    if not op.known and op.regions:
                        deferred_defs.append(ref)
                        continue
                    self.error(UNDEFINED_VALUE, "use of undeclared SSA value name", TextRange(ref.start, ref.end))
                    value = UndefinedValue(ref.type or T.UNKNOWN, ref.name[1:])
                elif (
                    ref.type is not None
                    and value.type != ref.type
                    and not isinstance(value.type, T.UnknownType)
                    and not isinstance(ref.type, T.UnknownType)
                ):
                    self.error(
                        USE_TYPE_MISMATCH,
                        f"use of value '{ref.name}' expects different type than prior uses: '{ref.type}' vs '{value.type}'",
                        TextRange(ref.start, ref.end),
                    )
                op.add_operand(value, span)
            for succ in pending.successors:
                block = labels.get(succ.name)
                if block is None:
                    self.error(UNDEFINED_BLOCK, "reference to an undefined block", TextRange(succ.start, succ.end))
                    continue
                op.successors.append(block)
                span = Span(op.anchor, succ.start - op.anchor.base, succ.end - op.anchor.base)
                op.successor_spans.append(span)
                block.uses.append((op, span))
        if not op.regions:
            return
        if deferred_defs and op.regions[0].blocks == []:
            op.regions[0].add_block()
        for ref in deferred_defs:
            entry = op.regions[0].blocks[0]
            entry.add_argument(T.UNKNOWN, ref.name[1:], Span(op.anchor, ref.start - op.anchor.base, ref.end - op.anchor.base))
        for region in op.regions:
            region_chain = [{}] if isolated else chain + [{}]
            region_labels = self._define_region(region, region_chain)
            for block in region.blocks:
                for nested in block.operations:
                    self._resolve_op(nested, region_chain, region_labels)
