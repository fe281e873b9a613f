"""Name resolution: binds every `%use` and `^successor` to its definition, with MLIR's name scopes.

Like MLIR's OperationParser, names are defined in source order. An op's results are
defined after its regions; a region opens a name scope whose names are dropped when it
ends (so the same name may be defined again after it). Isolated-from-above regions see
the outer names too: upstream's parser binds them and its verifier rejects the use. A
use before its definition is a forward reference, bound when the name is defined later;
one never defined is "use of undeclared SSA value name", reported when the isolated op
around the use ends (so each function resolves on its own, as incremental parsing needs).
"""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Diagnostic, Related, Severity
from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Block, Operation, Region, Span, Value
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.ir.opdefs import lookup
from gpu_lsp.parser.builder import REDEFINED_VALUE, UNDEFINED_BLOCK, UNDEFINED_VALUE, USE_TYPE_MISMATCH, PendingOperands
from gpu_lsp.syntax.cursor import Ref
from gpu_lsp.text import TextRange


class UndefinedValue(Value):
    """Stands in for a `%name` that has no definition, so the op keeps its operand count."""

    __slots__ = ()


def _mistyped(op: Operation, index: int) -> None:
    """Record that operand `index` of `op` was used with another type than its definition's."""
    facts = writable_facts(op)
    facts.mistyped = facts.mistyped | {index}


def _base_name(name: str) -> tuple[str, int]:
    if "#" in name:
        base, _, idx = name.partition("#")
        return base, int(idx)
    return name, 0


class _Forward:
    """A use of a name not defined yet: its placeholder value and where it was written."""

    __slots__ = ("value", "range")

    def __init__(self, value: UndefinedValue, rng: TextRange) -> None:
        self.value = value
        self.range = rng


class _Scope:
    """The names in scope: values by name, open forward references, and the nested region levels."""

    __slots__ = ("values", "forward", "levels")

    def __init__(self) -> None:
        self.values: dict[str, list[Value | None]] = {}
        self.forward: dict[tuple[str, int], _Forward] = {}
        self.levels: list[list[str]] = [[]]


class Resolver:
    """Binds names walking the IR in source order, one name scope level per open region."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics

    def error(self, code: str, message: str, rng: TextRange, related: tuple = ()) -> None:
        self.diagnostics.append(Diagnostic(code, message, rng, Severity.ERROR, related=related))

    def resolve_top(self, ops: list[Operation]) -> None:
        scope = _Scope()
        for op in ops:
            self._resolve_op(op, scope, {})
        self._close(scope)

    def _close(self, scope: _Scope, keep: set | frozenset = frozenset()) -> None:
        """Report the forward references still open, except those in `keep`."""
        for key in [k for k in scope.forward if k not in keep]:
            self.error(UNDEFINED_VALUE, "use of undeclared SSA value name", scope.forward.pop(key).range)

    def _define(self, value: Value, scope: _Scope, entry_arg: bool = False) -> None:
        name = value.name
        if name is None:
            return
        base, idx = _base_name(name) if "#" in name else (name, 0)
        group = scope.values.get(base)
        if group is None:
            group = scope.values[base] = [None] * (idx + 1)
            scope.levels[-1].append(base)
        while len(group) <= idx:
            group.append(None)
        prior = group[idx]
        if entry_arg and prior is None and value.def_span is not None:
            forward = scope.forward.pop((base, idx), None)
            if forward is not None:  # upstream's isDefined counts forward references
                self.error(
                    REDEFINED_VALUE,
                    f"region entry argument '%{base}' is already in use",
                    value.def_span.range,
                    (Related("previously referenced here", forward.range),),
                )
                return
        if prior is not None and value.def_span is not None:
            note = "previously referenced here" if entry_arg else "previously defined here"
            related = (Related(note, prior.def_span.range),) if prior.def_span is not None else ()
            message = (
                f"region entry argument '%{base}' is already in use"
                if entry_arg
                else f"redefinition of SSA value '%{base}'"
            )
            self.error(REDEFINED_VALUE, message, value.def_span.range, related)
            return
        group[idx] = value
        if not scope.forward:
            return
        forward = scope.forward.pop((base, idx), None)
        if forward is None:
            return
        placeholder = forward.value
        if (
            placeholder.type != value.type
            and not isinstance(placeholder.type, T.UnknownType)
            and not isinstance(value.type, T.UnknownType)
            and value.def_span is not None
        ):
            self.error(
                USE_TYPE_MISMATCH,
                f"definition of SSA value '%{base}#{idx}' has type '{value.type}'",
                value.def_span.range,
                (Related(f"previously used here with type '{placeholder.type}'", forward.range),),
            )
            for use in placeholder.uses:
                _mistyped(use.owner, use.index)
        placeholder.replace_all_uses_with(value)

    def _lookup(self, name: str, scope: _Scope) -> Value | None:
        base, idx = _base_name(name)
        group = scope.values.get(base)
        if group is None or idx >= len(group):
            return None
        return group[idx]

    def _use(self, op: Operation, ref: Ref, scope: _Scope) -> Value:
        name = ref.name[1:]
        if "#" in name:
            value = self._lookup(name, scope)
        else:
            group = scope.values.get(name)
            value = group[0] if group else None
        if value is not None:
            if (
                ref.type is not None
                and value.type is not ref.type
                and value.type != ref.type
                and not isinstance(value.type, T.UnknownType)
                and not isinstance(ref.type, T.UnknownType)
            ):
                self.error(
                    USE_TYPE_MISMATCH,
                    f"use of value '%{_base_name(name)[0]}' expects different type than prior uses: "
                    f"'{ref.type}' vs '{value.type}'",
                    TextRange(ref.start, ref.end),
                    (Related("prior use here", value.def_span.range),) if value.def_span is not None else (),
                )
                _mistyped(op, len(op.operands))
            return value
        key = _base_name(name)
        forward = scope.forward.get(key)
        if forward is None:
            forward = scope.forward[key] = _Forward(UndefinedValue(ref.type or T.UNKNOWN, name), TextRange(ref.start, ref.end))
        if ref.type is T.NULL:  # resolved with no type (gpu.launch without `async`): nothing to check it against
            _mistyped(op, len(op.operands))
        return forward.value

    def _resolve_op(self, op: Operation, scope: _Scope, labels: dict[str, Block]) -> None:
        pending: PendingOperands | None = op.pending  # typed: the compiled build reads its fields directly
        if pending is None:
            return  # resolved already, with its regions (a module's ops read a segment at a time)
        op.pending = None
        deferred_defs: list[Ref] = []
        anchor = op.anchor
        base = anchor.base
        opaque_with_regions = not op.known and bool(op.regions)
        for ref in pending.refs:
            if opaque_with_regions and self._lookup(ref.name[1:], scope) is None:
                deferred_defs.append(ref)
                continue
            op.add_operand(self._use(op, ref, scope), Span(anchor, ref.start - base, ref.end - base))
        for succ in pending.successors:
            block = labels.get(succ.name)
            if block is None:
                self.error(UNDEFINED_BLOCK, "reference to an undefined block", TextRange(succ.start, succ.end))
                continue
            op.successors.append(block)
            span = Span(op.anchor, succ.start - op.anchor.base, succ.end - op.anchor.base)
            op.successor_spans.append(span)
            block.uses.append((op, span))
        if op.regions:
            if deferred_defs and op.regions[0].blocks == []:
                op.regions[0].add_block()
            for ref in deferred_defs:
                entry = op.regions[0].blocks[0]
                entry.add_argument(T.UNKNOWN, ref.name[1:], Span(op.anchor, ref.start - op.anchor.base, ref.end - op.anchor.base))
            spec = lookup(op.name)
            open_before = set(scope.forward) if spec is not None and spec.has("isolated") else None
            for region in op.regions:
                scope.levels.append([])
                self._resolve_region(region, scope)
                for defined in scope.levels.pop():
                    del scope.values[defined]
            if open_before is not None:
                self._close(scope, open_before)
        for result in op.results:
            self._define(result, scope)

    def _resolve_region(self, region: Region, scope: _Scope) -> None:
        labels: dict[str, Block] = {}
        for block in region.blocks:
            if block.label is not None:
                if block.label in labels and block.label_span is not None:
                    self.error(UNDEFINED_BLOCK, f"redefinition of block '{block.label}'", block.label_span.range)
                labels.setdefault(block.label, block)
        for i, block in enumerate(region.blocks):
            for arg in block.arguments:
                self._define(arg, scope, entry_arg=i == 0 and block.label is None)
            for nested in block.operations:
                self._resolve_op(nested, scope, labels)
