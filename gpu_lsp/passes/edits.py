"""From a rewritten module to a minimal set of text edits on the buffer it was parsed from.

Take a `ChunkBeforePass` of a chunk before a pass rewrites its module in place; after
the pass, its `edits()` compares the IR with the recorded one by identity:

* an op that survived unchanged keeps its text (its regions are compared in turn);
* an op whose operands, results, attributes or successors changed is printed
  anew; when its regions and their block arguments are the same, only the text
  around its regions (header, between regions, trailer) is replaced and its
  regions are compared in turn, so their comments survive;
* ops removed from a block lose their lines, new ops are inserted after the
  previous surviving op (or before the next one) with the block's indentation;
* an op whose only change is an operand (a value replaced by another) keeps its
  text but for those uses;
* a new op that takes the place of removed ones takes over their result names;
* `gpu.container_module` on an implicit module wraps the chunk in
  `module attributes {gpu.container_module} { ... }`: two lines inserted, the lines between
  them unchanged (not re-indented);
* an op printed anew replaces only the tokens that differ from its text (`_add_tokens`), so a
  three-line `gpu.launch_func` that gains `async [%t0]` keeps its three lines.

Names: values that existed keep their source names; new values get fresh names
(a name the value carries, a token `%tN` (`views.fresh_token_name`), a printer hint such as `%c8`, or `%v`) made
unique within their isolated-from-above scope. Comments and formatting outside
the printed ops are untouched.
"""

from __future__ import annotations

import difflib
import re

from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir import opdefs
from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Region, Value
from gpu_lsp.ir.views import fresh_token_name
from gpu_lsp.parser.api import Chunk
from gpu_lsp.text import Edit, TextRange

MARKER = "gpu_lsp.edit_marker"
# The tokens `_add_tokens` compares: strings, comments, names of values/symbols/blocks/attributes, words, arrows,
# and single punctuation marks.
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|[%@^!#][\w$.#]*|[\w.$]+|->|::|\S')


def _regions_sig(op: Operation) -> tuple:
    return tuple(tuple((id(b), tuple(map(id, b.arguments))) for b in region.blocks) for region in op.regions)


def _sig(op: Operation) -> tuple:
    """What an op's own text shows (its regions' contents are compared separately)."""
    return (
        op.name,
        tuple(map(id, op.operands)),
        tuple(map(id, op.results)),
        op.attributes.copy(),
        op.properties.copy(),
        tuple(map(id, op.successors)),
        _regions_sig(op),
    )


def _base(name: str) -> str:
    return name.split("#", 1)[0]


def _is_isolated(op: Operation) -> bool:
    spec = opdefs.OPS.get(op.name)
    return spec is not None and "isolated" in spec.traits


def _scope_of(value: Value) -> Operation | None:
    """The nearest isolated-from-above op whose names `value` shares."""
    op: Operation | None = value.defining_op
    if isinstance(value, BlockArgument):
        region = value.owner.parent
        op = region.parent if region is not None else None
        if op is not None and _is_isolated(op):
            return op
    while op is not None:
        op = op.parent_op
        if op is not None and _is_isolated(op):
            return op
    return None


def _unique(name: str, taken: set[str]) -> str:
    """`name`, or the first free `name_N` (a number for a numeric name: `%7_0` is no SSA name)."""
    if name not in taken:
        return name
    if name.isdigit():
        k = int(name) + 1
        while str(k) in taken:
            k += 1
        return str(k)
    k = 0
    while f"{name}_{k}" in taken:
        k += 1
    return f"{name}_{k}"


class _BlockNames:
    """Block labels for the printer: source labels kept, new blocks `^bbN` unique in their region."""

    def __init__(self, snap: ChunkBeforePass) -> None:
        self.snap = snap
        self.names: dict[Block, str] = {}
        self.taken: dict[int, set[str]] = {}

    def get(self, block: Block, default: str = "") -> str:
        name = self.names.get(block)
        if name is not None:
            return name
        region = block.parent
        taken = self.taken.get(id(region))
        if taken is None:
            blocks = region.blocks if region is not None else [block]
            taken = {b.label for b in blocks if b in self.snap.blocks and b.label}
            self.taken[id(region)] = taken
        if block.label and (block in self.snap.blocks or block.label not in taken):
            name = block.label
        else:
            k = 0
            while f"^bb{k}" in taken:
                k += 1
            name = f"^bb{k}"
        taken.add(name)
        self.names[block] = name
        return name


_NO_SCOPE = object()


class _EditNames:
    """The names the printer uses (a printer.PrintNames), computed when first asked.

    Values that existed keep their source name; a new value gets a fresh name
    unique among the names of its isolated-from-above scope.
    """

    def __init__(self, snap: ChunkBeforePass) -> None:
        self.snap = snap
        self.values: dict[Value, str] = {}
        self.blocks = _BlockNames(snap)
        self.taken: dict[int, set[str]] = {}
        self.scopes: dict = {}  # block (or op, for its own region's arguments) -> scope

    def _taken(self, value: Value) -> set[str]:
        where = value.parent_block
        scope = self.scopes.get(where, _NO_SCOPE)
        if scope is _NO_SCOPE:
            scope = self.scopes[where] = _scope_of(value)
        key = id(scope)
        taken = self.taken.get(key)
        if taken is None:
            # Every name the source used stays taken: a removed op's result name may be inherited by the op
            # that replaces it (`_inherit_names`) after fresh names were chosen.
            taken = {_base(name) for name in self.snap.values.values() if name}
            root = scope if scope is not None else self.snap.module
            original = self.snap.values
            stack = [root]
            while stack:
                op = stack.pop()
                for region in op.regions:
                    for block in region.blocks:
                        for arg in block.arguments:
                            if arg.name and arg in original:
                                taken.add(_base(arg.name))
                        for nested in block.operations:
                            for result in nested.results:
                                if result.name and result in original:
                                    taken.add(_base(result.name))
                            if not _is_isolated(nested):
                                stack.append(nested)
            self.taken[key] = taken
        return taken

    def name(self, value: Value) -> str:
        name = self.values.get(value)
        if name is not None:
            return name
        if value.name and value in self.snap.values:
            name = value.name
        elif isinstance(value, BlockArgument):
            taken = self._taken(value)
            name = _fresh(value, taken)
            taken.add(name)
        elif isinstance(value, OpResult):
            self._name_results(value.owner)
            return self.values[value]
        else:
            raise TypeError(f"{value!r} is neither a block argument nor an op result")
        self.values[value] = name
        return name

    def _name_results(self, op: Operation) -> None:
        """Fresh names for an op's results: one group `%x:n` when they were `x#0, x#1, ...`."""
        results = op.results
        fresh = []
        for r in results:
            if r.name and r in self.snap.values:
                self.values[r] = r.name
            else:
                fresh.append(r)
        if not fresh:
            return
        taken = self._taken(fresh[0])
        bases = {_base(r.name) for r in results if r.name}
        if len(fresh) == len(results) > 1 and len(bases) == 1 and all(r.name and "#" in r.name for r in results):
            base = _unique(bases.pop(), taken)
            taken.add(base)
            for k, result in enumerate(results):
                self.values[result] = f"{base}#{k}"
            return
        for result in fresh:
            name = _fresh(result, taken)
            taken.add(name)
            self.values[result] = name

    def use(self, value: Value) -> str:
        return "%" + self.name(value)

    def result_groups(self, op: Operation) -> list[tuple[int, int]]:
        results = op.results
        if len(results) > 1:
            first = self.name(results[0])
            if "#" in first and all(self.name(r).startswith(_base(first) + "#") for r in results):
                return [(0, len(results))]
        return [(i, 1) for i in range(len(results))]

    def group_def(self, op: Operation, start: int, count: int) -> str:
        name = self.name(op.results[start])
        return f"%{_base(name)}:{count}" if count > 1 else f"%{name}"


def _fresh(value: Value, taken: set[str]) -> str:
    """A new value's name: a token `tN` (one scheme for every refactoring and fix), anything else after its hint."""
    if value.type == T.TOKEN and not value.name:
        return fresh_token_name(taken)
    return _unique(_hint(value), taken)


def _hint(value: Value) -> str:
    """The name a new value asks for: its own (copied ops keep theirs), a printer hint, or v."""
    if isinstance(value, BlockArgument):
        owner = value.owner.parent.parent if value.owner.parent is not None else None
        if owner is not None and opdefs.has_trait(owner.name, "function") and value.owner is owner.regions[0].blocks[0]:
            return f"arg{value.index}"
        return _base(value.name) if value.name else "arg"
    if value.name:
        return _base(value.name)
    from gpu_lsp.ir.printer import RESULT_NAMES

    if isinstance(value, OpResult):
        hook = RESULT_NAMES.get(value.owner.name)
        for index, name in hook(value.owner) if hook is not None else ():
            if index == value.index and name:
                return name
    return "v"


class ChunkBeforePass:
    """A chunk's IR before a pass: op texts, signatures, block contents, named values."""

    def __init__(self, text: str, chunk: Chunk) -> None:
        self.text = text
        self.chunk = chunk
        self.module = chunk.module
        self.implicit = chunk.implicit_module
        self.module_attrs = chunk.module.attributes.copy()
        self.ops: dict[Operation, tuple[TextRange | None, tuple]] = {}
        self.blocks: dict[Block, list[Operation]] = {}
        self.regions: dict[Region, TextRange | None] = {}
        self.values: dict[Value, str | None] = {}
        self.operand_spans: dict[Operation, list[TextRange | None]] = {}
        self.forced: set[Operation] = set()
        with paused_gc():
            self._record(chunk.module)

    def _record(self, op: Operation) -> None:
        self.ops[op] = (op.range, _sig(op))
        self.operand_spans[op] = [span.range if span is not None else None for span in op.operand_spans]
        for result in op.results:
            self.values[result] = result.name
        for region in op.regions:
            self.regions[region] = region.span.range if region.span is not None else None
            for block in region.blocks:
                self.blocks[block] = list(block.operations)
                for arg in block.arguments:
                    self.values[arg] = arg.name
                for nested in block.operations:
                    self._record(nested)

    def force(self, op: Operation) -> None:
        """Print `op` anew even when it did not change (e.g. to name its results)."""
        self.forced.add(op)

    def edits(self) -> list[Edit]:
        """The edits that turn the snapshot's text into the rewritten module."""
        import gpu_lsp.ir.printers  # noqa: F401  (registers the custom printers and name hints)

        with paused_gc():
            return _Differ(self).run()


class _Differ:
    def __init__(self, snap: ChunkBeforePass) -> None:
        self.snap = snap
        self.text = snap.text
        self.edits: list[Edit] = []
        self.names = _EditNames(snap)

    # --- text helpers -------------------------------------------------------------------------

    def _line_start(self, pos: int) -> int:
        return self.text.rfind("\n", 0, pos) + 1

    def _line_end(self, pos: int) -> int:
        end = self.text.find("\n", pos)
        return len(self.text) if end < 0 else end

    def _indent_at(self, pos: int) -> str:
        start = self._line_start(pos)
        line = self.text[start:pos]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def _print(self, op: Operation, indent: str) -> str:
        from gpu_lsp.ir.printer import Formatter, OpPrinter, default_dialect

        printer = OpPrinter(self.names, Formatter(None), False, self.text)
        printer.indent = len(indent)
        printer.dialects = ["builtin"] + [default_dialect(a) for a in reversed(list(op.ancestors()))]
        printer.op(op)
        return "".join(printer.out)

    def _add(self, start: int, end: int, text: str) -> None:
        if self.text[start:end] != text:
            self.edits.append(Edit(TextRange(start, end), text))

    # --- the comparison -----------------------------------------------------------------------

    def run(self) -> list[Edit]:
        snap = self.snap
        module = snap.module
        if snap.implicit:
            self._block(module.regions[0].blocks[0], None)
            if module.attributes != snap.module_attrs:
                self._wrap_module(module)
        else:
            self._op(module)
        return _merge(self.edits)

    def _changed(self, op: Operation) -> bool:
        old = self.snap.ops.get(op)
        if old is None or old[0] is None:
            return True
        if op in self.snap.forced:
            return True
        if any(self.snap.values.get(r, "") is None and r.uses for r in op.results):
            return True
        return old[1] != _sig(op)

    def _op(self, op: Operation) -> None:
        rng, old_sig = self.snap.ops[op]
        if rng is None:
            raise ValueError(f"{op.name}: only ops read from the source text are compared")
        if not self._changed(op) or self._operands_renamed(op, old_sig):
            for region in op.regions:
                for block in region.blocks:
                    self._block(block, region)
            return
        indent = self._indent_at(rng.start)
        if op.regions and _regions_sig(op) == old_sig[6] and self._around_regions(op, rng, indent):
            for region in op.regions:
                for block in region.blocks:
                    self._block(block, region)
            return
        self._add_tokens(rng.start, rng.end, self._print(op, indent))

    def _add_tokens(self, start: int, end: int, printed: str) -> None:
        """Turn `text[start:end]` into `printed` by replacing only the tokens that differ: the text's own layout
        (line breaks, alignment, comments) stays wherever the tokens around it are the same."""
        old = [(m.start(), m.end(), m.group()) for m in TOKEN.finditer(self.text[start:end])]
        new = [(m.start(), m.end(), m.group()) for m in TOKEN.finditer(printed)]
        generic = self.text[start : start + 1] == '"' or printed[:1] == '"' or " = \"" in printed[:200]
        if not old or not new or generic:  # the generic form is printed whole (its layout is the printer's)
            self._add(start, end, printed)
            return
        matcher = difflib.SequenceMatcher(None, [t for *_, t in old], [t for *_, t in new], autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            if i1 < i2:  # replace or delete a run of old tokens (with the space before it when only deleting)
                a = old[i1][0] if j1 < j2 or i1 == 0 else old[i1 - 1][1]
                b = old[i2 - 1][1] if j1 < j2 or i1 > 0 else old[i2][0] if i2 < len(old) else end - start
                text = printed[new[j1][0] : new[j2 - 1][1]] if j1 < j2 else ""
            elif i1 > 0:  # insert after an old token, with the printed space before the new ones
                a = b = old[i1 - 1][1]
                text = printed[new[j1 - 1][1] if j1 > 0 else 0 : new[j2 - 1][1]]
            else:  # insert before the first token
                a = b = old[0][0]
                text = printed[new[j1][0] : new[j2][0] if j2 < len(new) else len(printed)]
            self._add(start + a, start + b, text)

    def _operands_renamed(self, op: Operation, old_sig: tuple) -> bool:
        """When only operands changed (a value replaced by another), rewrite just those uses; False if not possible."""
        new_sig = _sig(op)
        if op in self.snap.forced or new_sig[0] != old_sig[0] or new_sig[2:] != old_sig[2:]:
            return False
        if len(new_sig[1]) != len(old_sig[1]):
            return False
        spans = self.snap.operand_spans.get(op, [])
        changed = [i for i, (old, new) in enumerate(zip(old_sig[1], new_sig[1])) if old != new]
        if any(i >= len(spans) or spans[i] is None for i in changed):
            return False
        for i in changed:
            span = spans[i]
            if span is not None:
                self._add(span.start, span.end, self.names.use(op.operands[i]))
        return True

    def _around_regions(self, op: Operation, rng: TextRange, indent: str) -> bool:
        """Replace the text before, between and after an op's regions; False if not possible."""
        spans = [span for r in op.regions if (span := self.snap.regions.get(r)) is not None]
        if len(spans) < len(op.regions) or any(not r.blocks for r in op.regions):
            return False
        saved = []
        for region in op.regions:
            saved.append((region.blocks, list(region.blocks[0].operations)))
            entry = region.blocks[0]
            marker = Operation(MARKER)
            marker.parent = entry
            entry.operations = [marker]
            region.blocks = [entry]
        try:
            printed = self._print(op, indent)
        finally:
            for region, (blocks, ops) in zip(op.regions, saved):
                region.blocks = blocks
                blocks[0].operations = ops
        pieces = []
        pos = 0
        for _ in op.regions:
            at = printed.find(f'"{MARKER}"', pos)
            if at < 0:
                return False
            open_ = printed.rfind("{", pos, at)
            close = printed.find("}", at)
            if open_ < 0 or close < 0:
                return False
            pieces.append((pos, open_))
            pos = close + 1
        if printed.find(f'"{MARKER}"', pos) >= 0:
            return False
        starts = [rng.start] + [s.end for s in spans]
        ends = [s.start for s in spans] + [rng.end]
        texts = [printed[a:b] for a, b in pieces] + [printed[pos:]]
        for start, end, text in zip(starts, ends, texts):
            self._add(start, end, text)
        return True

    def _block(self, block: Block, region: Region | None) -> None:
        old = self.snap.blocks.get(block, [])
        old_index = {op: i for i, op in enumerate(old)}
        survivors: list[Operation] = []
        last = -1
        for op in block.operations:
            i = old_index.get(op)
            if i is not None and i > last and self.snap.ops[op][0] is not None:
                survivors.append(op)
                last = i
        kept = set(survivors)
        indent = None
        for op in old:
            rng = self.snap.ops[op][0]
            if rng is not None:
                indent = self._indent_at(rng.start)
                break
        if indent is None:
            owner = block.parent_op
            rng = self.snap.ops.get(owner, (None,))[0] if owner is not None else None
            indent = (self._indent_at(rng.start) if rng is not None else "") + "  "
        # Walk the gaps between survivors (and before the first / after the last).
        new_ops = block.operations
        new_pos = 0
        old_pos = 0
        for survivor in survivors + [None]:
            inserted = []
            while new_pos < len(new_ops) and new_ops[new_pos] is not survivor:
                inserted.append(new_ops[new_pos])
                new_pos += 1
            deleted = []
            stop = old_index[survivor] if survivor is not None else len(old)
            while old_pos < stop:
                if old[old_pos] not in kept:
                    deleted.append(old[old_pos])
                old_pos += 1
            prev = self._prev_kept(old, stop, kept)
            self._gap(deleted, inserted, prev, survivor, indent, region)
            if survivor is not None:
                self._op(survivor)
                new_pos += 1
                old_pos += 1

    @staticmethod
    def _prev_kept(old: list[Operation], stop: int, kept: set) -> Operation | None:
        for k in range(stop - 1, -1, -1):
            if old[k] in kept:
                return old[k]
        return None

    def _inherit_names(self, deleted: list[Operation], inserted: list[Operation]) -> None:
        """A new op that takes the place of a removed one takes over the names of its results (same type, in order)."""
        free = [r for op in deleted for r in op.results if r.name and not r.uses and r in self.snap.values]
        for op in inserted:
            for result in op.results:
                if (result.name and result in self.snap.values) or result in self.names.values:
                    continue
                match = next((r for r in free if r.type == result.type), None)
                if match is not None and match.name:  # every free result has a name
                    free.remove(match)
                    self.names.values[result] = match.name

    def _gap(self, deleted, inserted, prev, nxt, indent: str, region: Region | None) -> None:
        self._inherit_names(deleted, inserted)
        texts = [self._print(op, indent) for op in inserted]
        ranges = [rng for op in deleted if (rng := self.snap.ops[op][0]) is not None]
        if ranges:
            if texts:
                self._add(ranges[0].start, ranges[-1].end, ("\n" + indent).join(texts))
                return
            for rng in ranges:
                self._delete(rng)
            return
        if not texts:
            return
        body = ("\n" + indent).join(texts)
        prev_rng = self.snap.ops[prev][0] if prev is not None else None  # a survivor: it has a range
        next_rng = self.snap.ops[nxt][0] if nxt is not None else None
        span = self.snap.regions.get(region) if region is not None else None
        if prev_rng is not None:
            end = self._line_end(prev_rng.end)
            self._insert(end, "\n" + indent + body)
        elif next_rng is not None:
            start = self._line_start(next_rng.start)
            self._insert(start, indent + body + "\n")
        elif span is not None:
            outer = indent[:-2] if len(indent) >= 2 else ""
            self._add(span.start, span.end, "{\n" + indent + body + "\n" + outer + "}")
        else:
            self._insert(len(self.text), "\n" + body + "\n")

    def _insert(self, pos: int, text: str) -> None:
        self.edits.append(Edit(TextRange(pos, pos), text))

    def _delete(self, rng: TextRange) -> None:
        start, end = rng.start, rng.end
        line_start = self._line_start(start)
        line_end = self._line_end(end)
        if not self.text[line_start:start].strip() and not self.text[end:line_end].strip():
            start = line_start
            end = min(line_end + 1, len(self.text))
        self.edits.append(Edit(TextRange(start, end), ""))

    def _wrap_module(self, module: Operation) -> None:
        """An implicit module that gained attributes: write it out around the chunk's ops."""
        ops = self.snap.blocks.get(module.regions[0].blocks[0], [])
        ranges = [rng for op in ops if (rng := self.snap.ops[op][0]) is not None]
        chunk = self.snap.chunk
        marker = Operation(MARKER)
        saved = module.regions[0].blocks[0].operations
        module.regions[0].blocks[0].operations = [marker]
        try:
            header = self._print(module, "")
        finally:
            module.regions[0].blocks[0].operations = saved
        head = header[: header.rfind("{", 0, header.find(f'"{MARKER}"')) + 1]
        if ranges:
            start = self._line_start(ranges[0].start)
            end = self._line_end(ranges[-1].end)
        else:
            start = end = chunk.end
        # The module's lines are inserted around the chunk's: the lines in between keep their indentation.
        self.edits.insert(0, Edit(TextRange(start, start), head + "\n"))  # before the first line's indentation
        self._insert(end, "\n}")


def _merge(edits: list[Edit]) -> list[Edit]:
    """Sort edits; inserts at the same position are joined in the order they were made."""
    order = {id(e): i for i, e in enumerate(edits)}
    edits = sorted(edits, key=lambda e: (e.range.start, e.range.end, order[id(e)]))
    out: list[Edit] = []
    for edit in edits:
        if out and edit.range.start == edit.range.end == out[-1].range.start == out[-1].range.end:
            out[-1] = Edit(out[-1].range, out[-1].new_text + edit.new_text)
        else:
            out.append(edit)
    return out


__all__ = ["ChunkBeforePass"]


def source_names(text: str, chunk: Chunk) -> _EditNames:
    """The names of a chunk's values and blocks as its source writes them (a printer.PrintNames)."""
    return _EditNames(ChunkBeforePass(text, chunk))
