"""`-gpu-async-region`: thread a `!gpu.async.token` through the GPU ops of each block.

Upstream's AsyncRegionRewriter.cpp, on one func.func, in three phases:

1. ThreadToken: blocks are visited post-order (nested blocks first) with one
   "current token". A gpu.launch is an error ("replace with gpu.launch_func
   first"). An existing gpu.wait gets the current token as a dependency and its
   own result (none when synchronous) becomes current. Any other async op gets a
   `gpu.wait async` first when there is no current token, then the current token
   as its first dependency, and a token result when it has none; that token
   becomes current. Before a terminator or an op with memory side effects the
   host synchronises with `gpu.wait [%current]` and the chain ends.
2. DeferWait: an async.execute whose token only feeds async.execute/async.await
   ops and whose body ends (last side-effecting op) in a synchronous gpu.wait
   drops that wait, yields its tokens as `!async.value<!gpu.async.token>`
   results instead, and each user waits for them: after an async.await through
   `async.await` of the values, in a user async.execute through new body
   operands; the tokens join the next async op, or a new gpu.wait.
3. SingleTokenUse: a token value result of async.execute used several times is
   yielded once per use.

Use-list order (which user comes first) follows MLIR's: newest use first, and
reversed by each replaceAllUsesWith onto a new op.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Block, Operation, Use, Value, erase_op
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.ir.traits import has_side_effects, implicit_terminator, is_terminator
from gpu_lsp.ir.views import async_dependencies, async_token, is_async_op
from gpu_lsp.passes.base import PassFailure, op_error
from gpu_lsp.passes.registration import gpu_pass
from gpu_lsp.passes.rewriter import (
    block_of,
    blocks_post_order,
    insert_after,
    insert_before,
    mlir_users,
    mlir_uses,
    new_op,
    region_post_order,
    reverse_use_order,
    touch,
    wait_op,
)


def async_value(ty: T.Type) -> T.Type:
    """`!async.value<T>`."""
    return T.DialectType("async", "value", str(ty))


def insert_operand(op: Operation, index: int, value: Value) -> None:
    """`op->insertOperands(index, {value})`, keeping every use's index right."""
    seen: set[int] = set()
    for operand in op.operands:
        if id(operand) in seen:
            continue
        seen.add(id(operand))
        for use in operand.uses:
            if use.owner is op and use.index >= index:
                use.index += 1
    op.operands.insert(index, value)
    op.operand_spans.insert(index, None)
    value.uses.append(Use(value, op, index, None))


def add_async_dependency(op: Operation, token: Value) -> None:
    """`AsyncOpInterface::addAsyncDependency`: prepend `token` unless it is already a dependency."""
    if any(dep is token for dep in async_dependencies(op)):
        return
    insert_operand(op, 0, token)
    touch(op)
    seg = op.properties.get("operandSegmentSizes")
    if isinstance(seg, DenseArrayAttr):
        values = list(seg.values)
        values[0] += 1
        op.properties["operandSegmentSizes"] = DenseArrayAttr(seg.element, tuple(values))


def _has_implicit_terminator(block: Block) -> bool:
    """The block's terminator is implicit and was left out of the text (e.g. scf.yield)."""
    owner = block.parent_op
    if owner is None or implicit_terminator(owner) is None:
        return False
    return not block.operations or not is_terminator(block.operations[-1])


class _ThreadToken:
    """Phase 1: the current token survives from one visited block to the next, as upstream."""

    def __init__(self) -> None:
        self.current: Value | None = None

    def block(self, block: Block) -> None:
        for op in list(block.operations):
            if op.parent is block:
                self.visit(op)
        if self.current is not None and _has_implicit_terminator(block):
            block.append(wait_op([self.current], False))
            self.current = None

    def visit(self, op: Operation) -> None:
        if op.name == "gpu.launch":
            raise PassFailure([op_error(op, "replace with gpu.launch_func first")])
        if op.name == "gpu.wait":
            if self.current is not None:
                add_async_dependency(op, self.current)
            self.current = async_token(op)
            return
        if is_async_op(op):
            self.rewrite_async_op(op)
            return
        if self.current is None:
            return
        if is_terminator(op) or has_side_effects(op):
            insert_before(wait_op([self.current], False, op.loc), op)
            self.current = None

    def rewrite_async_op(self, op: Operation) -> None:
        if self.current is None:
            wait = wait_op([], True, op.loc)
            insert_before(wait, op)
            self.current = wait.results[0]
        add_async_dependency(op, self.current)
        token = async_token(op)
        if token is not None:
            self.current = token
            return
        for result in op.results:
            reverse_use_order(result)
        if op.facts.unnamed_async is not None:
            writable_facts(op).unnamed_async = None
        touch(op)
        self.current = op.add_result(T.TOKEN)


def _all_users_execute_or_await(token: Value) -> bool:
    return bool(token.uses) and all(use.owner.name in ("async.execute", "async.await") for use in token.uses)


def _terminator_of(block: Block) -> Operation | None:
    return block.operations[-1] if block.operations and is_terminator(block.operations[-1]) else None


def add_execute_results(execute: Operation, values: list[Value]) -> None:
    """`addExecuteResults`, in place: yield `values` too, as `!async.value` results."""
    body = execute.regions[0].blocks[0]
    yield_op = _terminator_of(body)
    if yield_op is None or yield_op.name != "async.yield":
        yield_op = new_op("async.yield", loc=execute.loc)
        body.append(yield_op)
    for value in values:
        yield_op.add_operand(value)
    touch(yield_op)
    touch(execute)
    for result in execute.results:
        reverse_use_order(result)
    for value in values:
        execute.add_result(async_value(value.type))


class _DeferWait:
    """Phase 2: move trailing synchronous waits out of async.execute bodies."""

    def __init__(self) -> None:
        self.worklist: list[Operation] = []

    def examine(self, execute: Operation) -> None:
        if not _all_users_execute_or_await(execute.results[0]):
            return
        body = execute.regions[0].blocks[0]
        ops = body.operations
        if ops and is_terminator(ops[-1]):
            ops = ops[:-1]
        for op in reversed(ops):
            if op.name == "gpu.wait":
                if not op.results:
                    self.worklist.append(op)
                return
            if has_side_effects(op):
                return

    def run(self) -> None:
        i = 0
        while i < len(self.worklist):
            wait = self.worklist[i]
            i += 1
            execute = next((a for a in wait.ancestors() if a.name == "async.execute"), None)
            if execute is None or wait.parent is None:
                continue
            deps = list(wait.operands)
            erase_op(wait)
            add_execute_results(execute, deps)
            tokens = execute.results[len(execute.results) - len(deps) :] if deps else []
            for user in mlir_users(execute.results[0]):
                self.add_dependency_after(tokens, user)

    def add_dependency_after(self, async_tokens: Sequence[Value], user: Operation) -> None:
        tokens: list[Value] = []
        if user.name == "async.await":
            block = block_of(user)
            anchor = user
            for value in async_tokens:
                await_op = new_op("async.await", [value], [T.TOKEN], loc=user.loc)
                insert_after(await_op, anchor)
                anchor = await_op
                tokens.append(await_op.results[0])
            start = block.index_of(anchor) + 1
        elif user.name == "async.execute":
            block = user.regions[0].blocks[0]
            start = 0
            ndeps, noperands = user.facts.segments or (len(user.operands), 0)
            for value in async_tokens:
                user.add_operand(value)
                tokens.append(block.add_argument(T.TOKEN))
            writable_facts(user).segments = (ndeps, noperands + len(async_tokens))
            touch(user)
        else:
            return
        target = None
        for op in block.operations[start:]:
            if is_terminator(op) or has_side_effects(op):
                target = op
                break
        if target is not None and is_async_op(target):
            for token in tokens:
                add_async_dependency(target, token)
            return
        wait = wait_op(tokens, False, user.loc)
        if target is not None:
            insert_before(wait, target)
        else:
            block.append(wait)
        owner = block.parent_op
        last = target is None or block.operations[-1] is target
        if owner is not None and owner.name == "async.execute" and _all_users_execute_or_await(owner.results[0]) and last:
            self.worklist.append(wait)


def _single_token_use(execute: Operation) -> Operation:
    """Phase 3 for one async.execute."""
    indices = [
        result.index - 1
        for result in execute.results[1:]
        if len(result.uses) > 1 and result.type == async_value(T.TOKEN)
    ]
    for index in indices:
        result = execute.results[1 + index]
        count = len(result.uses) - 1
        yield_op = _terminator_of(execute.regions[0].blocks[0])
        if yield_op is None:  # a verified async.execute ends in async.yield
            break
        operand = yield_op.operands[index]
        add_execute_results(execute, [operand] * count)
        uses = mlir_uses(execute.results[1 + index])[1:]
        for use, new in zip(uses, execute.results[len(execute.results) - count :]):
            use.owner.set_operand(use.index, new)
    return execute


def make_async_func(func: Operation) -> None:
    """Run the pass on one func.func; raises PassFailure on a remaining gpu.launch."""
    with paused_gc():
        _make_async_func(func)


@gpu_pass("gpu-async-region", anchor="func.func")
def async_region_pass(func: Operation, options: dict[str, str]) -> None:
    """Thread a !gpu.async.token through the GPU ops of a func.func."""
    make_async_func(func)


def _make_async_func(func: Operation) -> None:
    thread = _ThreadToken()
    for block in blocks_post_order(func):
        thread.block(block)
    if not func.regions:
        return
    defer = _DeferWait()
    for op in region_post_order(func.regions[0]):
        if op.name == "async.execute":
            defer.examine(op)
    defer.run()
    for op in region_post_order(func.regions[0]):
        if op.name == "async.execute":
            _single_token_use(op)


def make_async(module: Operation, select=None) -> list[Operation]:
    """The pass nested on every func.func of `module` (`func.func(gpu-async-region)`).

    `select` limits it to some functions. Returns the functions it ran on. A
    failure in one function is raised after the others ran, like a pass manager
    running functions independently.
    """
    done = []
    failures = []
    for op in list(module.regions[0].blocks[0].operations) if module.regions and module.regions[0].blocks else []:
        if op.name != "func.func" or (select is not None and not select(op)):
            continue
        try:
            make_async_func(op)
        except PassFailure as exc:
            failures.extend(exc.diagnostics)
        done.append(op)
    if failures:
        raise PassFailure(failures)
    return done
