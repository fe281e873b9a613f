"""The JSON of the whole-document answers (`wire`): what lsprotocol reads back is the features'
result in the client's positions; the outline the open encodes ahead is the one a request would
encode; the outbox writes every message, in order, without waiting for the client."""

from __future__ import annotations

import json
import threading

import pytest
from lsprotocol import types
from pygls.protocol import default_converter
from support.typing import generated

from gpu_lsp.lsp import documents, opening, wire
from gpu_lsp.lsp.actions import code_lenses
from gpu_lsp.lsp.ahead import FROM_TEXT
from gpu_lsp.lsp.document_symbols import SYMBOL_KINDS, SymbolNode, document_symbols
from gpu_lsp.lsp.documents import Document, Snapshot
from gpu_lsp.lsp.folding import folding_ranges
from gpu_lsp.lsp.opening import open_step
from gpu_lsp.lsp.outbox import Outbox
from gpu_lsp.text import TextRange

CONVERTER = default_converter()
# Before the first function: characters of two UTF-16 units (and one) that move every position after them.
WIDE = "// 🚀 héllo\n"


def _range(snap: Snapshot, rng: TextRange) -> types.Range:
    (sl, sc), (el, ec) = snap.position(rng.start), snap.position(rng.end)
    return types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec))


def _expected(snap: Snapshot, node: SymbolNode) -> tuple:
    return (node.name, SYMBOL_KINDS[node.kind], _range(snap, node.range), _range(snap, node.selection), node.detail or None,
            [_expected(snap, child) for child in node.children])


def _read(symbol: types.DocumentSymbol) -> tuple:
    return (symbol.name, symbol.kind, symbol.range, symbol.selection_range, symbol.detail, [_read(c) for c in symbol.children or []])


@pytest.mark.parametrize("prefix", ["", WIDE])
def test_the_outline_reads_back_as_the_features_symbols(prefix: str) -> None:
    snap = Document("file:///a.mlir", prefix + generated("inline", 200), 1).analysed()
    nodes = document_symbols(snap)
    assert nodes and any(node.children for node in nodes)
    read = CONVERTER.structure(json.loads(wire.document_symbols(snap, nodes, True).text), list[types.DocumentSymbol])
    assert [_read(symbol) for symbol in read] == [_expected(snap, node) for node in nodes]
    flat = CONVERTER.structure(json.loads(wire.document_symbols(snap, nodes, False).text), list[types.SymbolInformation])
    launch = nodes[0].children[0]
    assert [s.name for s in flat][:2] == [nodes[0].name, launch.name]
    assert flat[1].container_name == nodes[0].name and flat[0].container_name is None
    assert flat[1].location == types.Location(uri=snap.uri, range=_range(snap, launch.selection))


def test_folding_ranges_and_code_lenses_read_back() -> None:
    snap = Document("file:///a.mlir", WIDE + generated("outlined", 200), 1).analysed()
    folds = folding_ranges(snap)
    read = CONVERTER.structure(json.loads(wire.folding_ranges(folds).text), list[types.FoldingRange])
    assert [(f.start_line, f.end_line, f.kind) for f in read] == [(f.start_line, f.end_line, f.kind) for f in folds]
    assert any(f.kind == types.FoldingRangeKind.Comment for f in read)
    lenses = code_lenses(snap)
    assert lenses
    read_lenses = CONVERTER.structure(json.loads(wire.code_lenses(snap, lenses).text), list[types.CodeLens])
    assert all(c.command is not None for c in read_lenses)
    assert [(c.range, c.command.title, tuple(c.command.arguments or ())) for c in read_lenses if c.command is not None] == [
        (_range(snap, lens.range), lens.title, tuple(lens.arguments)) for lens in lenses
    ]
    assert wire.code_lenses(snap, lenses).text.isascii()


def test_the_open_encodes_the_outline_ahead(monkeypatch) -> None:
    monkeypatch.setattr(documents, "PROGRESSIVE_SIZE", 1000)
    monkeypatch.setattr(documents, "STEP_SEGMENTS", 2)
    doc = Document("file:///large.mlir", generated("inline", 600), 1)
    monkeypatch.setattr(opening, "SLICE_SYMBOLS", 3)
    while (view := doc.partial) is None or view.cache.get(documents.SYMBOL_JSON) is None:
        assert not open_step(doc), "the outline is encoded before the parse ends"
    found = view.cache["text_outline"].found
    slices = 1
    while not wire.encode_ahead(view, found, 0):
        assert doc.partial is view, "the parse waits for the outline's JSON"
        assert not open_step(doc)
        slices += 1
    assert len(found) > 6 and slices == -(-len(found) // 3), "three functions per step"
    for _ in FROM_TEXT:  # the answers that take the text views, one per step
        assert not open_step(doc) and doc.partial is view
    open_step(doc)  # a step of the parse: the next partial snapshot keeps what was encoded
    later = doc.opening_view()
    assert later is not None and later is not view and 0 < later.parsed_to < len(later.text)
    kept = later.cache[documents.SYMBOL_JSON]
    assert kept is view.cache[documents.SYMBOL_JSON] and all(id(node) in kept.by_node for node in found)
    nodes = document_symbols(later)
    ahead = wire.document_symbols(later, nodes, True).text
    later.cache.pop(documents.SYMBOL_JSON)
    assert ahead == wire.document_symbols(later, nodes, True).text


class _Held:
    """A stream that writes nothing until released (a client that does not read)."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self.data: list[bytes] = []
        self.flushes = 0

    def write(self, data: bytes) -> int:
        self.released.wait(10)
        self.data.append(data)
        return len(data)

    def flush(self) -> None:
        self.flushes += 1

    def close(self) -> None:
        pass


def test_the_outbox_writes_in_order_without_waiting_for_the_client() -> None:
    stream = _Held()
    outbox = Outbox(stream)
    for i in range(3):
        assert outbox.write(b"message %d" % i) == len(b"message 0")
    assert not outbox.drain(0.05), "the client reads nothing yet: the writes wait in the outbox"
    stream.released.set()
    assert outbox.drain(10)
    assert stream.data == [b"message 0", b"message 1", b"message 2"] and stream.flushes == 3
