"""The JSON of the answers about a whole document (outline, folding ranges, semantic tokens,
code lenses), built as plain lists and dicts and encoded on the analysis thread: at 100k lines an
outline is ~7,500 symbols, which lsprotocol objects and their converter took ~0.3 s to build and
~0.3 s more to encode on the event loop, where every other message waited for them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gpu_lsp.lsp.actions import Lens
from gpu_lsp.lsp.document_symbols import OBJECT, SYMBOL_KINDS, SymbolNode, symbol_json
from gpu_lsp.lsp.documents import SYMBOL_JSON, Snapshot
from gpu_lsp.lsp.folding import Fold, folds_json
from gpu_lsp.text import TextRange


@dataclass(frozen=True)
class JsonText:
    """A result already encoded as JSON text (ASCII); the server writes it as it is."""

    text: str


def encode(value: object) -> JsonText:
    """`value` (lists, dicts, strings, numbers) as a `JsonText`."""
    return JsonText(json.dumps(value, separators=(",", ":")))


def _range(position: Callable[[int], tuple[int, int]], rng: TextRange) -> dict:
    start, end = position(rng.start), position(rng.end)
    return {"start": {"line": start[0], "character": start[1]}, "end": {"line": end[0], "character": end[1]}}


def _flat(snap: Snapshot, position: Callable[[int], tuple[int, int]], nodes: Iterable[SymbolNode], container: str | None, out: list[dict]) -> list[dict]:
    """`SymbolInformation` entries of `nodes` and their children, in order."""
    for node in nodes:
        entry = {
            "name": node.name,
            "kind": SYMBOL_KINDS.get(node.kind, SYMBOL_KINDS[OBJECT]),
            "location": {"uri": snap.uri, "range": _range(position, node.selection)},
        }
        if container is not None:
            entry["containerName"] = container
        out.append(entry)
        _flat(snap, position, node.children, node.name, out)
    return out


class SymbolJson:
    """The JSON of outline symbols by node (each kept with its node, so that its id is never
    reused), and how many of the text outline's nodes the open has encoded ahead."""

    def __init__(self) -> None:
        self.by_node: dict[int, tuple[SymbolNode, str]] = {}
        self.ahead = 0


def encode_symbols(snap: Snapshot, nodes: list[SymbolNode]) -> list[str]:
    """The JSON of each `DocumentSymbol`, kept for the snapshots of the same text while it is
    opened (`documents.CARRIED`)."""
    kept: dict[int, tuple[SymbolNode, str]] = snap.cached(SYMBOL_JSON, SymbolJson).by_node
    position = snap.locator()
    out = []
    for node in nodes:
        entry = kept.get(id(node))
        if entry is None or entry[0] is not node:
            entry = kept[id(node)] = (node, symbol_json(position, node))
        out.append(entry[1])
    return out


def encode_ahead(snap: Snapshot, nodes: list[SymbolNode], count: int) -> bool:
    """Encode the next `count` of `nodes` (the outline the open found in the text: the outline
    request then only joins their JSON); whether all of them are encoded."""
    kept: SymbolJson = snap.cached(SYMBOL_JSON, SymbolJson)
    if kept.ahead < len(nodes):
        encode_symbols(snap, nodes[kept.ahead : kept.ahead + count])
        kept.ahead = min(len(nodes), kept.ahead + count)
    return kept.ahead >= len(nodes)


def document_symbols(snap: Snapshot, nodes: list[SymbolNode], hierarchical: bool) -> JsonText:
    """`DocumentSymbol[]` (or flat `SymbolInformation[]` for clients without hierarchy)."""
    if hierarchical:
        return JsonText("[" + ",".join(encode_symbols(snap, nodes)) + "]")
    return encode(_flat(snap, snap.locator(), nodes, None, []))


def folding_ranges(folds: list[Fold]) -> JsonText:
    """`FoldingRange[]`."""
    return JsonText(folds_json(folds))


def semantic_tokens(data: list[int]) -> JsonText:
    """`SemanticTokens`."""
    return semantic_tokens_of([numbers(data)])


def numbers(data: list[int]) -> str:
    """The JSON of `data` without its brackets (a part of `semantic_tokens_of`)."""
    return ",".join(map(str, data))


def semantic_tokens_of(parts: list[str]) -> JsonText:
    """`SemanticTokens` whose data are the numbers of `parts` (`numbers`), in order."""
    return JsonText('{"data":[' + ",".join(part for part in parts if part) + "]}")


def code_lenses(snap: Snapshot, lenses: list[Lens]) -> JsonText:
    """`CodeLens[]`."""
    position = snap.locator()
    return encode(
        [
            {"range": _range(position, lens.range), "command": {"title": lens.title, "command": lens.command, "arguments": list(lens.arguments)}}
            for lens in lenses
        ]
    )
