"""Async tokens: happens-before between GPU operations, races, and tokens never waited on.

Each GPU operation is a node; its async dependencies are edges. A node is
complete for the host once the host waited for it (a blocking `gpu.wait`, or
a synchronous GPU op). Two nodes that touch the same buffer, one of them
writing, and neither ordered before the other, race on a GPU even though the
NumPy backend (which runs eagerly in program order) gives a tidy answer; so
do host accesses to a buffer that a not-yet-waited-for GPU op uses.
"""

from __future__ import annotations

import itertools

from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.errors import Warning_
from gpu_lsp.runner.memory import Buffer

_ids = itertools.count(1)


class Node:
    """One executed GPU operation."""

    __slots__ = ("id", "op", "ancestors", "buffers", "done")

    def __init__(self, op: Operation, deps: list[Node]) -> None:
        self.id = next(_ids)
        self.op = op
        anc: set[int] = set()
        for d in deps:
            anc.add(d.id)
            anc |= d.ancestors
        self.ancestors: frozenset[int] = frozenset(anc)
        self.buffers: dict[int, tuple[Buffer, bool]] = {}
        self.done = False


class Token:
    """A `!gpu.async.token` (or `!async.token`) value at run time."""

    __slots__ = ("node", "op", "consumed", "waited", "stream", "event")

    def __init__(self, node: Node | None, op: Operation) -> None:
        self.node = node
        self.op = op
        self.consumed = False
        self.waited = False
        self.stream = None  # backend stream the token's chain runs on
        self.event = None  # backend event recorded when the op finished

    def same_as(self, other) -> bool:
        return self is other


class Tracker:
    """Records GPU ops, host waits and accesses; collects warnings."""

    def __init__(self, where) -> None:
        self.where = where
        self.nodes: dict[int, Node] = {}
        self.pending: list[Node] = []
        self.tokens: list[Token] = []
        self.warnings: list[Warning_] = []
        self._reported: set[tuple] = set()

    # --- GPU operations ---------------------------------------------------------------------

    def begin(self, op: Operation, deps: list[Token]) -> Node:
        for t in deps:
            t.consumed = True
        node = Node(op, [t.node for t in deps if t.node is not None])
        self.nodes[node.id] = node
        return node

    def touch(self, node: Node, buf: Buffer, write: bool) -> None:
        prev = node.buffers.get(buf.id)
        node.buffers[buf.id] = (buf, write or (prev[1] if prev else False))
        for other in self.pending:
            if other is node or other.done or other.id in node.ancestors:
                continue
            seen = other.buffers.get(buf.id)
            if seen is None or not (write or seen[1]):
                continue
            key = ("race", other.id, node.id, buf.id)
            if key in self._reported:
                continue
            self._reported.add(key)
            self.warnings.append(
                Warning_(
                    f"'{node.op.name}' and '{other.op.name}' at {self.where(other.op)} both use "
                    f"{_buffer(buf, self.where)} without an async token ordering them: a data race on a GPU",
                    node.op,
                )
            )

    def end(self, node: Node, is_async: bool) -> None:
        self.pending.append(node)
        if not is_async:
            self.complete(node)

    def token(self, node: Node | None, op: Operation) -> Token:
        tok = Token(node, op)
        self.tokens.append(tok)
        return tok

    # --- host side ---------------------------------------------------------------------------

    def complete(self, node: Node) -> None:
        node.done = True
        for i in node.ancestors:
            self.nodes[i].done = True
        self.pending = [n for n in self.pending if not n.done]

    def host_wait(self, tokens: list[Token], op: Operation | None = None, started: float | None = None) -> None:
        """The host blocks until `tokens` complete (`op`, a blocking `gpu.wait` begun at perf_counter `started`)."""
        for t in tokens:
            t.consumed = True
            t.waited = True
            if t.node is not None:
                self.complete(t.node)

    def host_access(self, buf: Buffer, op: Operation, write: bool) -> None:
        for node in self.pending:
            if node.done:
                continue
            seen = node.buffers.get(buf.id)
            if seen is None or not (write or seen[1]):
                continue
            key = ("host", node.id, buf.id)
            if key in self._reported:
                continue
            self._reported.add(key)
            verb = "writes" if write else "reads"
            self.warnings.append(
                Warning_(
                    f"the host {verb} {_buffer(buf, self.where)} while '{node.op.name}' at {self.where(node.op)} "
                    "may still be using it: wait on its token first",
                    op,
                )
            )

    def finish(self) -> list[Warning_]:
        """Warnings for tokens never waited on nor used as a dependency."""
        for t in self.tokens:
            if not t.consumed and not t.waited:
                self.warnings.append(Warning_(f"the async token of '{t.op.name}' is never waited on", t.op))
        return self.warnings


def _buffer(buf: Buffer, where) -> str:
    if buf.op is None:
        return "a buffer"
    return f"the buffer of '{buf.op.name}' at {where(buf.op)}"
