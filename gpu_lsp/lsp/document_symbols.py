"""Document symbols (modules, gpu.modules, functions, launches, split chunks) and workspace symbols."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii as _string

from gpu_lsp.ir.core import Operation, span_range
from gpu_lsp.ir.opdefs import lookup
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.lsp.index import document_index, unit_memo
from gpu_lsp.lsp.ir_queries import function_inputs
from gpu_lsp.lsp.skeleton import Skeleton, TextView, argument_types, launch_label, skeleton
from gpu_lsp.text import TextRange

# Kinds, named like LSP's SymbolKind members (wire.py maps them).
MODULE = "Module"
NAMESPACE = "Namespace"
FUNCTION = "Function"
EVENT = "Event"
OBJECT = "Object"
# LSP's SymbolKind number of each kind.
SYMBOL_KINDS = {MODULE: 2, NAMESPACE: 3, FUNCTION: 12, OBJECT: 19, EVENT: 24}

_LAUNCHES = ("gpu.launch", "gpu.launch_func")
# What marks a function's header as a kernel's (`gpu.func @k(...) kernel`, `attributes {gpu.kernel}`).
_KERNEL_HEADER = re.compile(r"\)\s*kernel\b|gpu\.kernel")


@dataclass
class SymbolNode:
    """One entry of the outline."""

    name: str
    kind: str
    range: TextRange
    selection: TextRange
    detail: str = ""
    children: list[SymbolNode] = field(default_factory=list)


def document_symbols(snapshot: Snapshot) -> list[SymbolNode]:
    """The outline of a document; split files get one namespace per chunk."""
    return snapshot.cached("document_symbols", lambda: _build(snapshot))


def _build(snapshot: Snapshot) -> list[SymbolNode]:
    index = document_index(snapshot)
    text = _Text(snapshot, {id(u.op): u for u in index.units if not u.holds_units})
    chunks = snapshot.parsed.chunks
    out: list[SymbolNode] = []
    for i, chunk in enumerate(chunks):
        nodes: list[SymbolNode] = []
        for op in chunk.top_level:
            node = _node(op, text)
            if node is not None:
                nodes.append(node)
            elif op.name != "builtin.module":
                nodes.extend(_children(op, text))
        if len(chunks) > 1:
            rng = TextRange(chunk.start, chunk.end)
            first = TextRange(chunk.start, chunk.start)
            out.append(SymbolNode(f"<file-split-{i}>", NAMESPACE, rng, first, "// -----", nodes))
        else:
            out.extend(nodes)
    parsed_to = snapshot.parsed_to
    if parsed_to is not None:  # a document being opened: the rest from its text
        view = snapshot.cached("text_outline", lambda: TextView(parsed_to, text_outline))
        out.extend(n for n in view.complete(snapshot.text) if n.range.start >= parsed_to)
    return out


def text_outline(text: str, start: int, end: int) -> list[SymbolNode]:
    """The outline of `text[start:end]` from the text alone (`skeleton`), before it is parsed."""
    return [n for item in skeleton(text, start, end) for n in _text_nodes(item)]


def _text_nodes(item: Skeleton) -> list[SymbolNode]:
    """The outline of an op found in the text (`skeleton`): what `_build_node` makes of its IR."""
    if item.symbol is None:
        return _text_children(item)
    rng = TextRange(item.start, item.end)
    selection = TextRange(*item.symbol_span)
    if item.op in ("module", "builtin.module"):
        name = f"@{item.symbol}" if item.symbol else "module"
        return [SymbolNode(name, MODULE, rng, TextRange(*item.op_name), "builtin.module", _text_children(item))]
    spec = lookup(item.op)
    if item.op == "gpu.module":
        return [SymbolNode(item.symbol, MODULE, rng, selection, "gpu.module", _text_children(item))]
    if spec is not None and spec.has("function"):
        inputs = ", ".join(argument_types(item.header))
        kernel = " kernel" if _KERNEL_HEADER.search(item.header) else ""
        launches = [
            SymbolNode(launch_label(c), EVENT, TextRange(c.start, c.end), TextRange(*c.op_name), "async" if " async" in c.header else "")
            for c in _nested_launches(item)
        ]
        return [SymbolNode(item.symbol, FUNCTION, rng, selection, f"{item.op}{kernel} ({inputs})", launches)]
    if spec is not None and spec.has("symbol_table"):
        return [SymbolNode(item.symbol, NAMESPACE, rng, selection, item.op, _text_children(item))]
    return [SymbolNode(item.symbol, OBJECT, rng, selection, item.op)]


def _text_children(item: Skeleton) -> list[SymbolNode]:
    return [n for child in item.children for n in _text_nodes(child)]


def _nested_launches(item: Skeleton) -> list[Skeleton]:
    out = []
    for child in item.children:
        if child.symbol is None:
            out.append(child)
        out.extend(_nested_launches(child))
    return out


def _children(op: Operation, text: _Text) -> list[SymbolNode]:
    out = []
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                node = _node(child, text)
                if node is not None:
                    out.append(node)
    return out


class _Text:
    """The snapshot, and its leaf units by op (their outline is kept while they are unchanged)."""

    def __init__(self, snapshot: Snapshot, leaves: dict) -> None:
        self.snapshot = snapshot
        self.leaves = leaves


def _shifted(node: SymbolNode, delta: int) -> SymbolNode:
    return SymbolNode(
        node.name,
        node.kind,
        node.range.shifted(delta),
        node.selection.shifted(delta),
        node.detail,
        [_shifted(c, delta) for c in node.children],
    )


def _node(op: Operation, text: _Text) -> SymbolNode | None:
    unit = text.leaves.get(id(op))
    if unit is None:
        return _build_node(op, text)
    node, delta, _ = unit_memo(unit, "outline", text.snapshot.lines, lambda: _build_node(op, text))
    return _shifted(node, delta) if delta and node is not None else node


def _build_node(op: Operation, text: _Text) -> SymbolNode | None:
    rng = op.range
    if rng is None:
        return None
    name = symbol_name(op)
    spec = lookup(op.name)
    if op.name == "builtin.module":
        selection = op.name_range or TextRange(rng.start, rng.start)
        return SymbolNode(f"@{name}" if name else "module", MODULE, rng, selection, "builtin.module", _children(op, text))
    if name is None:
        return None
    # Where it writes its name (`DocumentIndex.symbol_def`, read off the parser's source map: no index built).
    selection = span_range(op.sym_span) or op.name_range or rng
    if op.name == "gpu.module":
        return SymbolNode(name, MODULE, rng, selection, "gpu.module", _children(op, text))
    if spec is not None and spec.has("function"):
        inputs = ", ".join(str(t) for t in function_inputs(op))
        kernel = " kernel" if "gpu.kernel" in op.attributes else ""
        return SymbolNode(name, FUNCTION, rng, selection, f"{op.name}{kernel} ({inputs})", _launches(op))
    if spec is not None and spec.has("symbol_table"):
        return SymbolNode(name, NAMESPACE, rng, selection, op.name, _children(op, text))
    return SymbolNode(name, OBJECT, rng, selection, op.name)


def _launches(func: Operation) -> list[SymbolNode]:
    out = []
    for op in func.nested():
        if op.name not in _LAUNCHES or op.range is None:
            continue
        selection = op.name_range or op.range
        if op.name == "gpu.launch_func":
            kernel = op.properties.get("kernel")
            label = f"gpu.launch_func {kernel}" if kernel is not None else "gpu.launch_func"
        else:
            label = "gpu.launch"
        detail = "async" if any(r.type.is_token for r in op.results) else ""
        out.append(SymbolNode(label, EVENT, op.range, selection, detail))
    return out


@dataclass(frozen=True)
class WorkspaceSymbol:
    name: str
    kind: str
    uri: str
    range: TextRange
    container: str
    snapshot: Snapshot


def _matches(query: str, name: str) -> bool:
    """Case-insensitive subsequence match, like most editors' symbol pickers."""
    if not query:
        return True
    it = iter(name.lower())
    return all(ch in it for ch in query.lower())


def workspace_symbols(snapshots: list[Snapshot], query: str, limit: int = 500) -> list[WorkspaceSymbol]:
    """Named symbols of the open documents whose name matches `query`."""
    out: list[WorkspaceSymbol] = []
    for snap in snapshots:
        stack = [(node, "") for node in reversed(document_symbols(snap))]
        while stack:
            node, container = stack.pop()
            if node.kind != EVENT and not node.name.startswith("<") and _matches(query, node.name):
                out.append(WorkspaceSymbol(node.name, node.kind, snap.uri, node.selection, container, snap))
                if len(out) >= limit:
                    return out
            inner = container if node.name.startswith("<") else node.name
            stack.extend((child, inner) for child in reversed(node.children))
    return out


def _range_json(position: Callable[[int], tuple[int, int]], rng: TextRange) -> str:
    (sl, sc), (el, ec) = position(rng.start), position(rng.end)
    return f'{{"start":{{"line":{sl},"character":{sc}}},"end":{{"line":{el},"character":{ec}}}}}'


def symbol_json(position: Callable[[int], tuple[int, int]], node: SymbolNode) -> str:
    """One `DocumentSymbol` with its children, as JSON text (`position`: a line table's locator): the
    outline of a large document holds thousands, written out directly at a quarter of the time of
    dicts given to `json.dumps`."""
    children = ",".join([symbol_json(position, child) for child in node.children])
    detail = f',"detail":{_string(node.detail)}' if node.detail else ""
    return (
        f'{{"name":{_string(node.name)},"kind":{SYMBOL_KINDS.get(node.kind, SYMBOL_KINDS[OBJECT])},'
        f'"range":{_range_json(position, node.range)},"selectionRange":{_range_json(position, node.selection)},'
        f'"children":[{children}]{detail}}}'
    )
