"""Raw operations to IR: runs each op's custom syntax reader, falls back to an opaque op."""

from __future__ import annotations

import re
from typing import Final

import gpu_lsp.ir.opdefs.readers  # noqa: F401  (attaches the hand-written readers)
from gpu_lsp.diagnostics.model import Diagnostic, Related, Severity
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DictAttr, OpaqueAttr, StringAttr
from gpu_lsp.ir.core import Anchor, Block, Operation, Region, Span
from gpu_lsp.ir.op_facts import NO_FACTS, writable_facts
from gpu_lsp.ir.opdefs import OpDef, lookup, op_names
from gpu_lsp.ir.opdefs.defaults import default_attribute
from gpu_lsp.ir.opdefs.format import read_format
from gpu_lsp.syntax.cursor import ArgDef, BlockRef, Cursor, FormatError, OpState, ParseContext, Ref, symbol_ref
from gpu_lsp.syntax.lexer import unescape, wrong_token_offset
from gpu_lsp.syntax.raw import Group, RawAlias, RawBlock, RawOp, RawRegion
from gpu_lsp.syntax.tokens import Tok
from gpu_lsp.syntax.tolerant import read_tolerant
from gpu_lsp.text import TextRange

_RESULT_ENTRY: Final = re.compile(r"%([\w$.\-]+)(?:\s*:\s*(\d+))?")

# A leniency of this parser: undotted names of the ops of these dialects resolve wherever the
# default dialect is one of them (a module or function body), as MLIR's std and builtin ops did
# before the func dialect split. Upstream resolves an undotted name only in the default dialect
# of the enclosing op (`default_dialect=` on its definition, none for most ops: not inherited).
_UNPREFIXED_DIALECTS: Final = ("builtin", "func")
_UNPREFIXED_OPS: Final = {n.split(".", 1)[1]: n for n in op_names() if n.split(".", 1)[0] in _UNPREFIXED_DIALECTS}

# Diagnostic codes of the parser (documented in gpu_lsp/diagnostics/rules/syntax.py).
SYNTAX = "GPU001"
CUSTOM_SYNTAX = "GPU002"
# Dialects whose every upstream op is registered here: an op name they do not have is an
# error, as upstream (tests/parser/test_layout_free.py checks the list against upstream's).
COMPLETE_DIALECTS = frozenset(("gpu",))
UNDEFINED_VALUE = "GPU003"
REDEFINED_VALUE = "GPU004"
USE_TYPE_MISMATCH = "GPU005"
UNKNOWN_OP = "GPU006"
UNDEFINED_BLOCK = "GPU007"
RESULT_COUNT = "GPU008"


_RESULT_ENTRIES: Final[dict[str, tuple[tuple[str, int, int, int], ...]]] = {}


def _result_entries(text: str) -> tuple[tuple[str, int, int, int], ...]:
    """(name, count, start, end) of each entry of a result list's text, offsets in the text (cached)."""
    entries = _RESULT_ENTRIES.get(text)
    if entries is None:
        entries = tuple(
            (m.group(1), int(m.group(2)) if m.group(2) else 1, m.start(), m.end()) for m in _RESULT_ENTRY.finditer(text)
        )
        if len(_RESULT_ENTRIES) > 50000:
            _RESULT_ENTRIES.clear()
        _RESULT_ENTRIES[text] = entries
    return entries


# Token kinds whose text the cursor checks against upstream's gpu type/attribute parsers (which
# may report a diagnostic at the token): an op with such a token is never memoised.
_CHECKED_KINDS: Final = frozenset(("TYPE", "ATTR", "DICT", "PROPS"))
_MEMO_LIMIT: Final = 20000


def _shape(items: list, values: list[Tok], out: list) -> bool:
    """Append the op's item list to `out` with SSA names left out (their tokens go to `values`).

    False where a memo of the op's reading would be unsafe: a region, a location, or a token
    whose reading may report a diagnostic.
    """
    for item in items:
        if isinstance(item, Tok):
            kind = item.type
            if kind == "VALUE":
                values.append(item)
                out.append(kind)
                continue
            value = item.value
            if kind == "LOC" or (kind in _CHECKED_KINDS and ("gpu" in value or "nvvm" in value)):
                return False
            out.append(kind)
            out.append(value)
        elif isinstance(item, Group):
            out.append(item.open.value)
            if not _shape(item.items, values, out):
                return False
            out.append(item.close.value)
        else:
            return False
    return True


class _FormatMemo:
    """What reading an op by its format gave, for the next op written with the same tokens.

    `refs` holds, per operand, the index of its `%name` token among the op's and its type.
    """

    __slots__ = ("refs", "result_types", "attributes", "properties")

    def __init__(self, refs: list[tuple[int, T.Type | None]], state: OpState) -> None:
        self.refs = refs
        self.result_types = state.result_types
        self.attributes = state.attributes
        self.properties = state.properties

    def state(self, name: str, num_named: int, values: list[Tok]) -> OpState:
        state = OpState(name, num_named)
        state.refs = [Ref(values[k].value, values[k].start_pos, values[k].end_pos, ty) for k, ty in self.refs]
        state.result_types = list(self.result_types)
        state.attributes = dict(self.attributes)
        state.properties = dict(self.properties)
        return state


def _memo_of(state: OpState, values: list[Tok]) -> _FormatMemo | None:
    """A memo of a clean format reading whose operands are exactly its `%name` tokens, else None."""
    if state.regions or state.successors or state.facts is not NO_FACTS or state.loc is not None:
        return None
    index = {tok.start_pos: k for k, tok in enumerate(values)}
    refs: list[tuple[int, T.Type | None]] = []
    for ref in state.refs:
        k = index.get(ref.start)
        if k is None or values[k].end_pos != ref.end or values[k].value != ref.name:
            return None
        refs.append((k, ref.type))
    return _FormatMemo(refs, state)


class PendingOperands:
    """Operands and successors of one op, resolved once every name is known."""

    __slots__ = ("refs", "successors")

    def __init__(self, refs: list[Ref], successors: list[BlockRef]) -> None:
        self.refs = refs
        self.successors = successors


class Builder:
    """Builds operations for one chunk of text."""

    def __init__(self, ctx: ParseContext, diagnostics: list[Diagnostic]) -> None:
        self.ctx = ctx
        self.diagnostics = diagnostics
        ctx.diagnostics = diagnostics  # problems the cursor finds in gpu types and attributes
        self.anchor = Anchor(0)
        self.default_dialect = "builtin"  # the top level's, as upstream's parser starts
        self.memos: dict[tuple, _FormatMemo] = ctx.format_memos

    def error(self, code: str, message: str, start: int, end: int, severity: Severity = Severity.ERROR, related: tuple = ()) -> None:
        self.diagnostics.append(Diagnostic(code, message, TextRange(start, end), severity, related=related))

    def span(self, start: int, end: int) -> Span:
        return Span(self.anchor, start - self.anchor.base, end - self.anchor.base)

    # --- top level --------------------------------------------------------------------------

    def alias(self, raw: RawAlias) -> None:
        name = raw.name.value
        earlier = self.ctx.alias_defs.get(name)
        if earlier is not None and earlier[0] != raw.name.start_pos:
            kind = "type" if name.startswith("!") else "attribute"
            self.error(SYNTAX, f"redefinition of {kind} alias id '{name[1:]}'", raw.name.start_pos, raw.name.end_pos)
            return
        self.ctx.alias_defs[name] = (raw.name.start_pos, raw.name.start_pos + len(name))
        cursor = Cursor(self.ctx, raw.items, raw.items[-1].end_pos if raw.items else raw.name.end_pos, name)
        try:
            if name.startswith("!"):
                self.ctx.type_aliases[name] = cursor.type()
            else:
                self.ctx.attr_aliases[name] = cursor.attr()
            cursor.done()
        except FormatError as exc:
            self.error(SYNTAX, exc.message, exc.start, exc.end)

    def top_level_op(self, raw: RawOp) -> Operation:
        self.anchor = Anchor(raw.start_pos)
        return self.build(raw)

    # --- operations -------------------------------------------------------------------------

    def build(self, raw: RawOp) -> Operation:
        name_tok = raw.name
        written = name_tok.value
        generic = written.startswith('"')
        if generic:
            name = unescape(written[1:-1])
        elif "." not in written and self.default_dialect and lookup(f"{self.default_dialect}.{written}") is not None:
            name = f"{self.default_dialect}.{written}"
        elif self.default_dialect in _UNPREFIXED_DIALECTS:
            name = _UNPREFIXED_OPS.get(written, written)
        else:
            name = written
        results = self._result_names(raw.results) if raw.results is not None else []
        num_named = sum(entry[1] for entry in results) if results else 0
        spec = lookup(name)
        end_pos = raw.end_pos
        state = None
        symbol_uses = self.ctx.symbol_uses
        mark = len(symbol_uses)
        if generic:
            state = self._generic(raw, name, num_named)
        elif spec is not None and spec.reader is None and spec.format is not None:
            state = self._read_format(raw, spec, num_named, end_pos)
        elif spec is not None:
            state = OpState(name, num_named)
            cursor = Cursor(self.ctx, raw.items, end_pos, name)
            self.ctx.name_range = (name_tok.start_pos, name_tok.end_pos)
            try:
                (spec.reader or read_tolerant)(cursor, state)
                if not cursor.at_end and cursor.is_token("LOC"):
                    state.loc = cursor.optional_loc()
                cursor.done()
            except FormatError as exc:
                if not (exc.trailing and self._miscounted(raw, state.result_types, num_named)):
                    self._format_error(exc, name)
                state = None
        complete = spec is None and name.partition(".")[0] in COMPLETE_DIALECTS
        if complete:
            message = (
                f"unregistered operation '{name}' found in dialect ('{name.partition('.')[0]}') "
                "that does not allow unknown operations"
                if generic
                else f"custom op '{name}' is unknown"
            )
            self.error(CUSTOM_SYNTAX, message, name_tok.start_pos, name_tok.end_pos)
        if state is None:
            state = self._opaque(raw, name, num_named)
            if spec is None and not generic and not complete:
                self.error(
                    UNKNOWN_OP,
                    f"operation '{name}' is not known to gpu-lsp; its operands and results are read without checking",
                    name_tok.start_pos,
                    name_tok.end_pos,
                    Severity.HINT,
                )
            opaque = True
        else:
            opaque = False
        anchor = self.anchor
        base = anchor.base
        op = Operation(name, anchor)
        op.generic = generic
        op.known = spec is not None and not opaque
        op.span = Span(anchor, (raw.results or name_tok).start_pos - base, end_pos - base)
        op.name_span = Span(anchor, name_tok.start_pos - base, name_tok.end_pos - base)
        op.attributes = state.attributes
        op.properties = state.properties
        op.facts = state.facts
        marker = state.facts.unnamed_async
        if marker is not None:  # read as offsets in the text: kept from the anchor, to move with it
            state.facts.unnamed_async = (marker[0] - base, marker[1] - base)
        if state.loc is not None:
            op.loc = state.loc
        self._results(op, results, num_named, state, raw, opaque)
        if len(symbol_uses) > mark or opaque:
            self._symbols(op, symbol_uses[mark:], state.opaque_symbols if opaque else None)
            del symbol_uses[mark:]
        if state.regions:
            # A module's ops: units of their own where the module is one (it has its own anchor); those of
            # a module written inside another op keep that op's anchor, which moves them (`_shift_unit`).
            units = spec is not None and spec.has("symbol_table") and base == raw.start_pos
            outer_dialect, outer_region_dialect = self.default_dialect, self.ctx.region_dialect
            own_dialect = spec.default_dialect if spec is not None else None
            self.default_dialect = own_dialect or ""
            self.ctx.region_dialect = own_dialect or ""
            declared = spec is not None and not opaque
            no_terminator = declared and spec is not None and spec.has("no_terminator")
            needs_block = no_terminator or (declared and spec is not None and spec.has("single_block"))
            for index, (raw_region, args) in enumerate(state.regions):
                region = op.add_region(self.region(raw_region, args, units))
                if needs_block and not region.blocks and (index == 0 or no_terminator):
                    region.add_block()
            self.default_dialect, self.ctx.region_dialect = outer_dialect, outer_region_dialect
        if generic and op.known and spec is not None and spec.reader is not None:
            _recorded_defaults(op, spec)
        op.pending = PendingOperands(state.refs, state.successors)
        return op

    def _read_format(self, raw: RawOp, spec: OpDef, num_named: int, end_pos: int) -> OpState | None:
        """Read an op by its assembly format, or take the reading of an op written with the same tokens."""
        ctx = self.ctx
        name = spec.name
        values: list[Tok] = []
        key_parts: list = [name, num_named, len(ctx.type_aliases), len(ctx.attr_aliases)]
        key = tuple(key_parts) if _shape(raw.items, values, key_parts) else None
        if key is not None:
            memo = self.memos.get(key)
            if memo is not None:
                return memo.state(name, num_named, values)
        marks = (len(ctx.symbol_uses), len(ctx.alias_uses), len(self.diagnostics))
        state = OpState(name, num_named)
        cursor = Cursor(ctx, raw.items, end_pos, name)
        ctx.name_range = (raw.name.start_pos, raw.name.end_pos)
        try:
            read_format(cursor, state, spec)
            if not cursor.at_end and cursor.is_token("LOC"):
                state.loc = cursor.optional_loc()
            cursor.done()
        except FormatError as exc:
            if not (exc.trailing and self._miscounted(raw, state.result_types, num_named)):
                self._format_error(exc, name)
            return None
        if key is not None and marks == (len(ctx.symbol_uses), len(ctx.alias_uses), len(self.diagnostics)):
            memo = _memo_of(state, values)
            if memo is not None:
                if len(self.memos) >= _MEMO_LIMIT:
                    self.memos.clear()
                self.memos[key] = memo
                return memo.state(name, num_named, values)
        return state

    def _format_error(self, exc: FormatError, name: str) -> None:
        if exc.custom:
            self.error(CUSTOM_SYNTAX, f"custom op '{name}' {exc.message}", exc.start, exc.end)
        else:
            at = exc.start if exc.exact else wrong_token_offset(self.ctx.text, exc.start, self.ctx.start)
            self.error(CUSTOM_SYNTAX, exc.message, at, at if at != exc.start else exc.end)

    def _miscounted(self, raw: RawOp, types: list, num_named: int) -> bool:
        """Report a result list that names another count of results than the op has (upstream checks
        it once the op is read, before reading on); whether it did."""
        written = raw.results
        if written is None or not num_named or len(types) == num_named:
            return False
        if not types:
            self.error(RESULT_COUNT, "cannot name an operation with no results", written.start_pos, written.end_pos)
        else:
            message = f"operation defines {len(types)} results but was provided {num_named} to bind"
            self.error(RESULT_COUNT, message, written.start_pos, written.end_pos)
        return True

    def _symbols(self, op: Operation, uses: list, raw_symbols: list | None) -> None:
        """The op's `@symbol` references; the one naming `sym_name` is its definition."""
        if raw_symbols is not None:
            uses = [(symbol_ref(tok.value), tok.start_pos, tok.end_pos) for tok in raw_symbols]
        sym_name = op.properties.get("sym_name")
        for attr, start, end in uses:
            span = self.span(start, end)
            if op.sym_span is None and isinstance(sym_name, StringAttr) and not attr.nested and attr.root == sym_name.value:
                op.sym_span = span
            else:
                op.symbol_spans.append((attr, span))

    def _result_names(self, tok: Tok) -> list[tuple[str, int, int, int]]:
        """(name, count, start, end) of each entry of a result list (`%a, %b:2 =`)."""
        base = tok.start_pos
        relative = _result_entries(tok.value)
        for _, count, start, end in relative:
            if count == 0:  # `%x:0`: upstream's error at the count
                digits = tok.value[start:end].rpartition(":")[2].strip()
                self.error(SYNTAX, "expected named operation to have at least 1 result", base + end - len(digits), base + end)
        return [(name, count, base + start, base + end) for name, count, start, end in relative]

    def _results(
        self, op: Operation, names: list[tuple[str, int, int, int]], num_named: int, state: OpState, raw: RawOp, opaque: bool
    ) -> None:
        types = state.result_types
        if not opaque and names:
            self._miscounted(raw, types, num_named)
        if not names:
            for ty in types:
                op.add_result(ty)
            return
        i = 0
        anchor = self.anchor
        base = anchor.base
        for name, count, start, end in names:
            span = Span(anchor, start - base, end - base)
            if count == 1:
                op.add_result(types[i] if i < len(types) else T.UNKNOWN, name, span)
                i += 1
                continue
            for k in range(count):
                ty = types[i] if i < len(types) else T.UNKNOWN
                op.add_result(ty, name if count == 1 else f"{name}#{k}", span)
                i += 1
        for ty in types[i:]:
            op.add_result(ty)

    # --- regions ----------------------------------------------------------------------------

    def region(self, raw: RawRegion | None, args: list[ArgDef] | None, units: bool = False) -> Region:
        """Build a region; with `units`, each operation gets its own anchor (module bodies)."""
        region = Region()
        if raw is None:
            if args:
                block = region.add_block()
                for a in args:
                    self._block_arg(block, a)
            return region
        region.span = self.span(raw.start_pos, raw.end_pos)
        if not raw.blocks and args:
            block = region.add_block()
            for a in args:
                self._block_arg(block, a)
        for index, raw_block in enumerate(raw.blocks):
            block = region.add_block()
            if index == 0 and args:
                for a in args:
                    self._block_arg(block, a)
            if raw_block.label is not None:
                self._label(block, raw_block, raw_block.label)
            for raw_op in raw_block.ops:
                if units:
                    outer = self.anchor
                    self.anchor = Anchor(raw_op.start_pos)
                    block.append(self.build(raw_op))
                    self.anchor = outer
                else:
                    block.append(self.build(raw_op))
        return region

    def _block_arg(self, block: Block, a: ArgDef) -> None:
        arg = block.add_argument(a.type, a.name, self.span(a.start, a.end) if a.name else None)
        arg.loc = a.loc

    def _label(self, block: Block, raw: RawBlock, tok: Tok) -> None:
        block.label = tok.value
        block.label_span = self.span(tok.start_pos, tok.end_pos)
        if raw.bad is not None:
            bad = raw.bad
            self.error(SYNTAX, "expected ':' after block name", bad.start_pos, bad.end_pos)
        if raw.args is None:
            return
        cursor = Cursor(self.ctx, raw.args.items, raw.args.close.start_pos, "block")
        try:
            while not cursor.at_end:
                name = cursor.def_value()
                cursor.punct(":")
                ty = cursor.type()
                loc = cursor.optional_loc()
                self._block_arg(block, ArgDef(name.value[1:], name.start_pos, name.end_pos, ty, loc))
                if cursor.at_end:
                    break
                cursor.punct(",")
        except FormatError as exc:
            self.error(SYNTAX, exc.message, exc.start, exc.end)

    # --- generic and opaque forms -----------------------------------------------------------

    def _generic(self, raw: RawOp, name: str, num_named: int) -> OpState | None:
        """`"dialect.op"(%a) [^bb] <{props}> ({regions}) {attrs} : (T) -> R loc(...)`."""
        state = OpState(name, num_named)
        c = Cursor(self.ctx, raw.items, raw.end_pos, name)
        try:
            operands = c.group("(")
            refs = operands.operand_list()
            operands.done()
            if c.is_group("["):
                succ = c.group("[")
                while not succ.at_end:
                    state.successors.append(succ.block_ref())
                    if succ.is_group("("):
                        sub = succ.group("(")
                        extra = sub.operand_list()
                        if sub.optional_punct(":"):
                            sub.type_list()
                        sub.done()
                        facts = writable_facts(state)
                        facts.successor_operands = (*facts.successor_operands, len(extra))
                        refs.extend(extra)
                    if succ.at_end:
                        break
                    succ.punct(",")
            written_properties = c.is_token("PROPS")
            c.optional_prop_dict(state)
            if c.is_group("(") and not c.is_punct("->", 1):
                regions = c.group("(")
                while not regions.at_end:
                    state.add_region(regions.region())
                    if regions.at_end:
                        break
                    regions.punct(",")
            c.optional_attr_dict(state)
            c.punct(":")
            fn = c.function_type()
            state.loc = c.optional_loc()
            c.done()
        except FormatError as exc:
            self.error(CUSTOM_SYNTAX, exc.message, exc.start, exc.end)
            return None
        if len(fn.inputs) != len(refs):
            self.error(
                CUSTOM_SYNTAX,
                f"expected {len(refs)} operand type{'s' if len(refs) != 1 else ''} but had {len(fn.inputs)}",
                raw.name.start_pos,
                raw.end_pos,
            )
            return None
        for ref, ty in zip(refs, fn.inputs):
            ref.type = ty
        state.refs = refs
        state.result_types = list(fn.results)
        if not written_properties:
            _inherent_from_attributes(state, lookup(name))
        return state

    def _opaque(self, raw: RawOp, name: str, num_named: int) -> OpState:
        """Keep what can be known without the op's syntax: uses, regions, successors."""
        state = OpState(name, num_named)
        state.result_types = [T.UNKNOWN] * num_named
        symbols: list[Tok] = []

        def visit(items: list, signature: bool = False) -> None:
            for i, item in enumerate(items):
                if isinstance(item, Tok):
                    if item.type == "VALUE":
                        following = items[i + 1] if i + 1 < len(items) else None
                        if signature and isinstance(following, Tok) and following.type == "COLON":
                            continue  # `@f(%a: T)`: a function's argument, defined here
                        state.refs.append(Ref(item.value, item.start_pos, item.end_pos))
                    elif item.type == "SYMBOL":
                        symbols.append(item)
                    elif item.type == "BLOCK_REF":
                        state.successors.append(BlockRef(item.value, item.start_pos, item.end_pos))
                elif isinstance(item, Group):
                    before = items[i - 1] if i else None
                    visit(item.items, isinstance(before, Tok) and before.type == "SYMBOL")
                elif isinstance(item, RawRegion):
                    state.add_region(item)

        visit(raw.items)
        state.opaque_symbols = symbols
        return state


def _inherent_from_attributes(state: OpState, spec: OpDef | None) -> None:
    """A generic op written without `<{...}>` (upstream then reads its inherent attributes from the
    attr-dict): those its custom form's reader stores as properties move there, the declared ones
    of a declarative format, a symbol's `sym_name` and a function's `function_type` otherwise."""
    if spec is None:
        return
    names = set(spec.inherent) if spec.format is not None else set()
    if spec.has("symbol"):
        names.add("sym_name")
    if spec.has("function"):
        names.add("function_type")
    for name in names & state.attributes.keys():
        state.properties[name] = state.attributes.pop(name)


def _recorded_defaults(op: Operation, spec: OpDef) -> None:
    """A generic op whose custom form is read by hand: each DefaultValuedAttr it declares and the text
    leaves out takes its default, as the custom reader records it (gpu.func's and gpu.launch's
    `workgroup_attributions`), so that both forms read to the same IR."""
    for attr in spec.attributes:
        if attr.stored_default and attr.default is not None and op.get_attr(attr.name) is None:
            value = default_attribute(attr.constraint, attr.default)
            if value is not None:
                op.attributes[attr.name] = value


def dict_attr(attrs: dict[str, Attribute]) -> DictAttr:
    return DictAttr(tuple(attrs.items()))


__all__ = ["Builder", "PendingOperands", "OpaqueAttr", "Related"]
