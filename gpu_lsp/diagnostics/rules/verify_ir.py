"""GPU101, GPU102, GPU117-GPU119, GPU121, GPU124: the generic IR checks of MLIR's verifier
(counts, parents, dominance, terminators, symbol uses, symbol tables and declarations)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Stage, Violation, rule
from gpu_lsp.diagnostics.rules._util import at, op_error, parse_error_within
from gpu_lsp.ir.attributes import StringAttr, SymbolRefAttr
from gpu_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Region, Value
from gpu_lsp.ir.opdefs import OpDef, definition, has_trait, lookup, op_names
from gpu_lsp.ir.opdefs.model import SINGLE, Arg
from gpu_lsp.ir.operands import segment_sizes
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.parser.resolve import UndefinedValue


def _counted(d: OpDef) -> bool:
    """Ops whose definitions declare their operands, results or regions (ODS's count traits)."""
    return d.operands is not None or d.results is not None or d.regions is not None


def _parented(d: OpDef) -> bool:
    """Ops with a HasParent trait."""
    return bool(d.parents)

_SINGLE_WORDS = {"operand": "requires a single operand", "result": "requires one result", "region": "requires one region"}


def _count_message(what: str, declared: tuple[Arg, ...] | None, found: int) -> str | None:
    """ODS's NOperands/AtLeastNOperands (and results, regions) message, or None when `found` fits."""
    if declared is None:
        return None
    fixed = sum(arg.kind == SINGLE for arg in declared)
    if len(declared) > fixed:
        return None if found >= fixed else f"expected {fixed} or more {what}s, but found {found}"
    if found == fixed:
        return None
    if fixed == 0:
        return f"requires zero {what}s"
    if fixed == 1:
        return _SINGLE_WORDS[what]
    return f"expected {fixed} {what}s, but found {found}"


def _count_error(op: Operation, definition: OpDef) -> str | None:
    """ODS's region, result and operand count traits, in the order upstream verifies them."""
    return (
        _count_message("region", definition.regions, len(op.regions))
        or _count_message("result", definition.results, len(op.results))
        or _count_message("operand", definition.operands, len(op.operands))
    )


def _parent_error(op: Operation, definition: OpDef) -> str | None:
    """HasParent: upstream checks it after the counts, before the attributes."""
    expected = definition.parents
    parent = op.parent_op
    if not expected or (parent is not None and parent.name in expected):
        return None
    which = f"'{expected[0]}'" if len(expected) == 1 else "to be one of '" + ", ".join(expected) + "'"
    return f"expects parent op {which}"


def _invariant_error(op: Operation, definition: OpDef) -> str | None:
    """The generated verifier's checks: operand segment sizes, then required attributes."""
    if definition.has("attr_sized_operands"):
        sizes = segment_sizes(op)
        total = sum(sizes) if sizes is not None else 0
        if total != len(op.operands):
            return (
                f"operand count ({len(op.operands)}) does not match with the total size ({total}) "
                "specified in attribute 'operandSegmentSizes'"
            )
    missing = next((a.name for a in definition.attributes if not a.optional and op.get_attr(a.name) is None), None)
    return f"requires attribute '{missing}'" if missing is not None else None


@rule("GPU101", "wrong-operand-count", Severity.ERROR, declared=_counted, upstream=True, stage=Stage.INVARIANTS)
def wrong_operand_count(op: Operation, ctx: RuleContext) -> Iterable[Violation]:
    """
    ## What it does
    Checks the structure ODS generates for each gpu op written in generic form: the number
    of operands and results, the required attributes, and that `operandSegmentSizes`
    adds up to the number of operands.

    ## Why is this bad?
    Upstream's verifier rejects the op (e.g. `'gpu.launch' op expected 6 or more operands,
    but found 5` or `'gpu.launch_func' op requires attribute 'kernel'`). Generic form is
    usually produced by tools; a wrong count means a tool or a hand edit broke the op.

    ## Example
    ```mlir
    "gpu.launch_func"(%c1, %c1, %c1, %c1, %c1)
        {operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>}
        : (index, index, index, index, index) -> ()
    ```
    Use instead: the custom form, which cannot get the counts wrong:
    ```mlir
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [MLIR Operation Definition Specification: traits](https://mlir.llvm.org/docs/DefiningDialects/Operations/)
    """
    if not op.generic:
        return ()  # a tuple, not a generator: the check runs for every declared op
    spec = definition(op.name)
    message = _count_error(op, spec)
    if message is None and _parent_error(op, spec) is None:
        message = _invariant_error(op, spec)
    return (Violation(op_error(op, message), at(op)),) if message is not None else ()


@rule("GPU102", "invalid-parent-op", Severity.ERROR, declared=_parented, upstream=True, stage=Stage.INVARIANTS)
def invalid_parent_op(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that gpu ops with a required parent are nested directly in it: `gpu.func` in a
    `gpu.module`, `gpu.return` in a `gpu.func`, `gpu.terminator` in a `gpu.launch`.

    ## Why is this bad?
    Upstream's verifier rejects it (`'gpu.func' op expects parent op 'gpu.module'`).
    A `gpu.func` outside a `gpu.module` is never compiled for the device.

    ## Example
    ```mlir
    module @kernels {
      gpu.func @k() kernel {
        gpu.return
      }
    }
    ```
    Use instead:
    ```mlir
    gpu.module @kernels {
      gpu.func @k() kernel {
        gpu.return
      }
    }
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.func`](https://mlir.llvm.org/docs/Dialects/GPU/#gpufunc-gpugpufuncop)
    """
    spec = definition(op.name)
    message = _parent_error(op, spec)
    if message is not None and not (op.generic and _count_error(op, spec) is not None):
        yield Violation(op_error(op, message), at(op))


# --- dominance ----------------------------------------------------------------------------------


def _is_proper_ancestor(outer: Region, inner: Region) -> bool:
    op = inner.parent
    while op is not None:
        block = op.parent
        if block is None or block.parent is None:
            return False
        region = block.parent
        if region is outer:
            return True
        op = region.parent
    return False


def _relation(user_block: Block, def_block: Block) -> str:
    r1, r2 = user_block.parent, def_block.parent
    if r1 is r2:
        return "the same region"
    if r1 is not None and r2 is not None and _is_proper_ancestor(r2, r1):
        return "a parent region"
    if r1 is not None and r2 is not None and _is_proper_ancestor(r1, r2):
        return "a child region"
    return ""


def _dominance_violation(user: Operation, index: int, value: Value) -> Violation:
    message = f"operand #{index} does not dominate this use"
    user_block = user.parent
    if isinstance(value, OpResult):
        owner = value.owner
        if owner.parent is user_block:
            where = " (op in the same block)"
        else:
            rel = _relation(user_block, owner.parent) if user_block is not None and owner.parent is not None else ""
            where = f" (op in {rel})" if rel else " (op is neither in a parent nor in a child region)"
        note = Related("operand defined here" + where, at(owner))
    else:
        assert isinstance(value, BlockArgument)
        block = value.owner
        region = block.parent
        index_in_region = region.blocks.index(block) if region is not None else 0
        rel = _relation(user_block, block) if user_block is not None else ""
        where = f" in {rel}" if rel else " neither in a parent nor in a child region"
        parent_op = block.parent_op
        loc = at(parent_op) if parent_op is not None else at(user)
        note = Related(f"operand defined as a block argument (block #{index_in_region}{where})", loc)
    return Violation(message, at(user), related=(note,))


def _dominators(region: Region) -> dict[int, list[Block]] | None:
    """Dominator-tree children of each reachable block (keyed by id), entry first; None if trivial."""
    blocks = region.blocks
    if len(blocks) <= 1:
        return None
    entry = blocks[0]
    succs: dict[int, list[Block]] = {}
    for block in blocks:
        term = block.operations[-1] if block.operations else None
        succs[id(block)] = list(term.successors) if term is not None else []
    order: list[Block] = []
    seen = {id(entry)}
    stack = [(entry, iter(succs[id(entry)]))]
    while stack:
        block, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            order.append(block)
            stack.pop()
        elif id(nxt) not in seen and id(nxt) in succs:
            seen.add(id(nxt))
            stack.append((nxt, iter(succs[id(nxt)])))
    order.reverse()  # reverse post-order
    rpo = {id(b): i for i, b in enumerate(order)}
    preds: dict[int, list[Block]] = {id(b): [] for b in order}
    for b in order:
        for s in succs[id(b)]:
            if id(s) in preds:
                preds[id(s)].append(b)
    idom: dict[int, Block] = {id(entry): entry}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            new = None
            for p in preds[id(b)]:
                if id(p) not in idom:
                    continue
                if new is None:
                    new = p
                    continue
                a, c = p, new
                while a is not c:
                    while rpo[id(a)] > rpo[id(c)]:
                        a = idom[id(a)]
                    while rpo[id(c)] > rpo[id(a)]:
                        c = idom[id(c)]
                new = a
            if new is not None and idom.get(id(b)) is not new:
                idom[id(b)] = new
                changed = True
    children: dict[int, list[Block]] = {id(b): [] for b in order}
    for b in order[1:]:
        parent = idom.get(id(b))
        if parent is not None:
            children[id(parent)].append(b)
    return children


class _DominanceChecker:
    """Walks regions in dominance order with the set of values visible at each point (values
    are hashed by identity)."""

    def __init__(self) -> None:
        self.out: list[Violation] = []

    def region(self, region: Region, visible: set, graph: bool) -> None:
        if not region.blocks:
            return
        if graph:
            added: list[Value] = []
            for block in region.blocks:
                added.extend(block.arguments)
                for op in block.operations:
                    added.extend(op.results)
            visible.update(added)
            for block in region.blocks:
                for op in block.operations:
                    if op.regions:
                        self.nested(op, visible)
            visible.difference_update(added)
            return
        self.block(region.blocks[0], visible, _dominators(region))

    def block(self, block: Block, visible: set, children: dict[int, list[Block]] | None) -> None:
        added: list[Value] = list(block.arguments)
        visible.update(added)
        out = self.out
        for op in block.operations:
            operands = op.operands
            if operands:
                for value in operands:
                    if value not in visible:
                        for i, v in enumerate(operands):
                            if v not in visible and not isinstance(v, UndefinedValue):
                                out.append(_dominance_violation(op, i, v))
                        break
            if op.regions:
                self.nested(op, visible)
            results = op.results
            if results:
                added.extend(results)
                visible.update(results)
        if children is not None:
            for child in children.get(id(block), ()):
                self.block(child, visible, children)
        visible.difference_update(added)

    def nested(self, op: Operation, visible: set) -> None:
        """The regions of `op` (a use across an isolated op is GPU125's, not a dominance error)."""
        spec = lookup(op.name)
        if spec is None or not op.known:
            return
        graph = spec.has("graph")
        for region in op.regions:
            self.region(region, visible, graph)


@rule("GPU117", "operand-does-not-dominate", Severity.ERROR, upstream=True)
def operand_does_not_dominate(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks SSA dominance: every use of a value must come after its definition in the same
    block, in a block the definition's block dominates, or in a region nested below the
    definition. Reports upstream's `operand #N does not dominate this use` with a note
    saying where the value is defined.

    ## Why is this bad?
    Upstream's verifier rejects the IR. A common case is a value defined after the
    `gpu.launch` or `scf.for` whose body uses it, or in only one branch of a conditional.

    ## Example
    ```mlir
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %t0 = gpu.wait async
    ```
    Use instead:
    ```mlir
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```

    ## Fix safety
    There is no fix: moving a definition can change what it computes.

    ## References
    - [MLIR Language Reference: Dominance](https://mlir.llvm.org/docs/LangRef/#value-scoping)
    """
    checker = _DominanceChecker()
    module = ctx.module
    if module.regions:
        checker.nested(module, set())
    yield from checker.out


# --- terminators --------------------------------------------------------------------------------


def _generic_text(op: Operation) -> str:
    """`op` as upstream's diagnostics print an op of IR that fails to verify: generic, numbered
    from its closest op isolated from above, on a line of its own when it takes several."""
    try:
        from gpu_lsp.ir.printers import print_op

        text = print_op(op, generic=True, local_scope=True)
    except Exception:  # the printer is optional here: fall back to the op name
        return f'"{op.name}"(...)'
    return "\n" + text if "\n" in text else text


@rule("GPU118", "missing-terminator", Severity.ERROR, ops=("*",), upstream=True, stage=Stage.REGIONS)
def missing_terminator(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that every block that needs a terminator ends with one: each block of a
    function (`func.func`, `gpu.func`, ...), of a `gpu.launch` body, and of any region with
    several blocks. Reports upstream's `block with no terminator, has <op>` or
    `empty block: expect at least a terminator`.

    ## Why is this bad?
    Upstream's verifier rejects the IR. Control flow must say where it goes at the end of
    every block: `gpu.return` in a `gpu.func`, `gpu.terminator` in a `gpu.launch`.

    ## Example
    ```mlir
    gpu.func @k(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
    }
    ```
    Use instead:
    ```mlir
    gpu.func @k(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      gpu.return
    }
    ```

    ## Fix safety
    There is no fix: the right terminator depends on the intended control flow.

    ## References
    - [MLIR Language Reference: Blocks](https://mlir.llvm.org/docs/LangRef/#blocks)
    """
    if not op.regions:
        return
    spec = lookup(op.name)
    if spec is None or not op.known or spec.has("no_terminator") or spec.has("graph"):
        return
    always = spec.has("function") or op.name == "gpu.launch"
    for region in op.regions:
        if len(region.blocks) <= 1 and not always:
            continue
        for block in region.blocks:
            if not block.operations:
                yield Violation("empty block: expect at least a terminator", at(op))
                return
            last = block.operations[-1]
            last_spec = lookup(last.name)
            if last_spec is None or not last.known or last_spec.has("terminator"):
                continue
            yield Violation(f"block with no terminator, has {_generic_text(last)}", at(last))
            return


# --- symbol uses --------------------------------------------------------------------------------


@rule("GPU119", "unresolved-symbol", Severity.ERROR, ops=("func.call",), upstream=True, whole_module=True)
def unresolved_symbol(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that `func.call` names a `func.func` of the closest enclosing symbol table.

    ## Why is this bad?
    Upstream's verifier rejects the call (`'func.call' op 'f' does not reference a valid
    function`). Inside a `gpu.module` the closest symbol table is the `gpu.module`: a
    kernel cannot call a host function of the outer module.

    ## Example
    ```mlir
    func.func @host() {
      func.call @missing() : () -> ()
      return
    }
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [MLIR Symbols and Symbol Tables](https://mlir.llvm.org/docs/SymbolsAndSymbolTables/)
    """
    callee = op.get_attr("callee")
    if not isinstance(callee, SymbolRefAttr) or callee.nested:
        return
    target = ctx.symbols.lookup_nearest(op, callee)
    if target is None or target.name != "func.func":
        yield Violation(op_error(op, f"'{callee.root}' does not reference a valid function"), at(op))


# --- symbol tables ------------------------------------------------------------------------------

SYMBOL_TABLE_OPS = tuple(sorted(n for n in op_names() if has_trait(n, "symbol_table")))


@rule("GPU121", "redefined-symbol", Severity.ERROR, ops=SYMBOL_TABLE_OPS, upstream=True, stage=Stage.REGIONS, whole_module=True)
def redefined_symbol(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that the operations directly in a symbol table (`builtin.module`, `gpu.module`,
    `spirv.module`) define each symbol name once: two `func.func @f`, a `gpu.func @k`
    next to an `llvm.func @k`, a `gpu.module @m` next to a `gpu.binary @m`. Reports
    upstream's `redefinition of symbol named 'f'` on the second definition, with the note
    `see existing symbol definition here` on the first.

    ## Why is this bad?
    Upstream's verifier rejects the module (the `SymbolTable` trait). A symbol reference
    such as `@kernels::@k` or `func.call @f` could not tell which definition it means.
    Like upstream, only the first redefinition of each table is reported, after the ops
    inside the table verified.

    ## Example
    ```mlir
    gpu.module @kernels {
      gpu.func @k() kernel {
        gpu.return
      }
      gpu.func @k() kernel {
        gpu.return
      }
    }
    ```
    Use instead: rename one of them (and the `gpu.launch_func` that launches it).

    ## Fix safety
    There is no fix: only the author knows which definition is meant.

    ## References
    - [MLIR Symbols and Symbol Tables](https://mlir.llvm.org/docs/SymbolsAndSymbolTables/)
    """
    if len(op.regions) != 1:
        return
    seen: dict[str, Operation] = {}
    for block in op.regions[0].blocks:
        for child in block.operations:
            name = symbol_name(child)
            if name is None:
                continue
            first = seen.setdefault(name, child)
            if first is not child:
                note = Related("see existing symbol definition here", at(first))
                yield Violation(f"redefinition of symbol named '{name}'", at(child), related=(note,))
                return


_EMPTY_BODY = re.compile(r"\{\s*\}\s*$")


@rule("GPU124", "public-symbol-declaration", Severity.ERROR, ops=("func.func",), upstream=True)
def public_symbol_declaration(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that a `func.func` without a body (a declaration of a function defined elsewhere,
    such as a runtime helper) is `private` (or `nested`): upstream's `symbol declaration
    cannot have public visibility`.

    ## Why is this bad?
    Upstream's verifier rejects the op (SymbolOpInterface). A public symbol must be defined in
    the module; a declaration only names something the linker resolves later.

    ## Example
    ```mlir
    func.func @printMemrefF32(memref<*xf32>)
    ```
    Use instead:
    ```mlir
    func.func private @printMemrefF32(memref<*xf32>)
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [MLIR Symbols and Symbol Tables: visibility](https://mlir.llvm.org/docs/SymbolsAndSymbolTables/#symbol-visibility)
    """
    if not op.regions or op.regions[0].blocks or parse_error_within(op, ctx):
        return
    visibility = op.properties.get("sym_visibility")
    if isinstance(visibility, StringAttr) and visibility.value in ("private", "nested"):
        return
    rng = op.range
    if rng is None or ctx.text is None or _EMPTY_BODY.search(ctx.text, rng.start, rng.end):
        return  # `{}`: an empty body, which upstream's parser rejects first
    yield Violation(op_error(op, "symbol declaration cannot have public visibility"), at(op))
