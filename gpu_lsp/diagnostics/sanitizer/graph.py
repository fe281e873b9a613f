"""The async dependency graph of host functions: GPU ops, token edges, buffer conflicts, streams, hazards."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.diagnostics.rules._util import at, value_name
from gpu_lsp.diagnostics.sanitizer.host import (
    DEVICE_CODE,
    FREE_IN_USE,
    FUNCTIONS,
    GPU_HOST_OPS,
    RACE,
    chunk_hazards,
    host_blocks,
)
from gpu_lsp.diagnostics.sanitizer.streams import StreamAssigner
from gpu_lsp.ir.attributes import SymbolRefAttr
from gpu_lsp.ir.core import Operation, OpResult
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.ir.views import async_dependencies, async_token
from gpu_lsp.parser.api import ParsedFile

SCHEMA_VERSION = 1
# Diagnostic codes drawn on the graph: async tokens (GPU2xx) and the sanitizer (GPU41x).
DRAWN = ("GPU2", "GPU41")


@dataclass
class GraphNode:
    """One GPU op of the function."""

    id: str
    op: Operation
    kind: str  # launch, copy, memset, alloc, dealloc, wait, join
    stream: int
    token: str | None
    label: str
    hazards: list[Diagnostic] = field(default_factory=list)


@dataclass
class Edge:
    source: str
    target: str
    kind: str  # token or conflict
    label: str


@dataclass
class AsyncGraph:
    function: str
    op: Operation
    nodes: list[GraphNode]
    edges: list[Edge]
    streams: int


def _kind(op: Operation) -> str:
    name = op.name
    if name == "gpu.wait":
        return "join" if async_token(op) is not None and len(async_dependencies(op)) > 1 else "wait"
    return {"gpu.memcpy": "copy", "gpu.memset": "memset", "gpu.alloc": "alloc", "gpu.dealloc": "dealloc"}.get(name, "launch")


def _label(op: Operation) -> str:
    token = async_token(op)
    head = f"{value_name(token)} = " if token is not None else ""
    detail = ""
    kernel = op.get_attr("kernel")
    if isinstance(kernel, SymbolRefAttr):
        detail = f" {kernel}"
    elif op.name in ("gpu.memcpy", "gpu.memset", "gpu.dealloc") and op.operands and not op.operands[-1].type.is_token:
        memrefs = [v for v in op.operands if not v.type.is_token][:2]
        detail = " " + ", ".join(value_name(v) for v in memrefs)
    elif op.name == "gpu.alloc" and op.results and not op.results[0].type.is_token:
        head = f"{value_name(op.results[0])}{', ' + value_name(token) if token is not None else ''} = "
    elif op.name == "gpu.wait":
        deps = async_dependencies(op)
        detail = (" async" if token is not None else "") + (f" [{', '.join(value_name(d) for d in deps)}]" if deps else "")
    return f"{head}{op.name}{detail}"


def _function_name(func: Operation) -> str:
    return symbol_name(func) or "<anonymous>"


def host_functions(ctx: RuleContext) -> list[Operation]:
    """Functions outside kernels and gpu.module that issue GPU work, in source order."""
    out = []
    for op in ctx.index.ops:
        if (
            op.name in FUNCTIONS
            and not any(a.name in DEVICE_CODE for a in op.ancestors())
            and any(n.name in GPU_HOST_OPS for block in host_blocks(op) for n in block.operations)
        ):
            out.append(op)
    return out


def issues_async_work(func: Operation) -> bool:
    """Whether a function's host code has an async GPU op (one that yields a token): what the graph draws."""
    return any(n.name in GPU_HOST_OPS and async_token(n) is not None for block in host_blocks(func) for n in block.operations)


def build(func: Operation, ctx: RuleContext, diagnostics: list[Diagnostic]) -> AsyncGraph:
    """The graph of one function; `diagnostics` are the file's, drawn on the ops they point at."""
    ops = [n for block in host_blocks(func) for n in block.operations if n.name in GPU_HOST_OPS]
    ops.sort(key=lambda o: at(o).start)
    nodes: list[GraphNode] = []
    by_op: dict[int, GraphNode] = {}
    edges: list[Edge] = []
    lanes = StreamAssigner()
    for i, op in enumerate(ops):
        token = async_token(op)
        deps = [d for d in async_dependencies(op) if isinstance(d, OpResult) and id(d.owner) in by_op]
        stream = lanes.assign(id(op), token is not None, [id(d.owner) for d in deps])
        node = GraphNode(f"n{i}", op, _kind(op), stream, value_name(token) if token is not None else None, _label(op))
        nodes.append(node)
        by_op[id(op)] = node
        for dep in deps:
            edges.append(Edge(by_op[id(dep.owner)].id, node.id, "token", value_name(dep)))
    for hazard in chunk_hazards(ctx):
        if hazard.kind in (RACE, FREE_IN_USE) and hazard.other is not None:
            a, b = by_op.get(id(hazard.other)), by_op.get(id(hazard.op))
            if a is not None and b is not None:
                edges.append(Edge(a.id, b.id, "conflict", value_name(hazard.buffer)))
    for node in nodes:
        rng = node.op.range
        if rng is None:
            continue
        for d in diagnostics:
            if d.code.startswith(DRAWN) and d.severity >= Severity.WARNING and rng.start <= d.range.start < rng.end:
                node.hazards.append(d)
    return AsyncGraph(_function_name(func), func, nodes, edges, lanes.count)


def build_graphs(parsed: ParsedFile, diagnostics: list[Diagnostic], function: str | None = None) -> list[AsyncGraph]:
    """The graph of every host function of a parsed file (or only of `function`)."""
    out = []
    for chunk in parsed.chunks:
        ctx = RuleContext(chunk, parsed.text)
        for func in host_functions(ctx):
            if function is None or _function_name(func) == function:
                out.append(build(func, ctx, diagnostics))
    return out


Position = Callable[[int], tuple[int, int]]


def to_json(graphs: list[AsyncGraph], position: Position) -> dict:
    """The graphs as the JSON document of docs/async-graph.schema.json; `position` maps an offset to
    a 0-based (line, character)."""

    def where(offset: int) -> dict:
        line, character = position(offset)
        return {"line": line, "character": character}

    def node(n: GraphNode) -> dict:
        rng = at(n.op)
        whole = n.op.range or rng
        return {
            "id": n.id,
            "op": n.op.name,
            "kind": n.kind,
            "label": n.label,
            "token": n.token,
            "stream": n.stream,
            "range": {"start": where(rng.start), "end": where(rng.end)},
            "opRange": {"start": where(whole.start), "end": where(whole.end)},
            "hazards": [{"code": d.code, "severity": d.severity.label, "message": d.message} for d in n.hazards],
        }

    return {
        "version": SCHEMA_VERSION,
        "functions": [
            {
                "name": g.function,
                "streams": g.streams,
                "nodes": [node(n) for n in g.nodes],
                "edges": [{"source": e.source, "target": e.target, "kind": e.kind, "label": e.label} for e in g.edges],
            }
            for g in graphs
        ],
    }
