"""Incremental document sync and incremental analysis: always the result of a fresh analysis."""

from __future__ import annotations

import random

from lsp_samples import INLINE, OUTLINED

from gpu_lsp.lsp import engine
from gpu_lsp.lsp.documents import Document, DocumentStore
from gpu_lsp.lsp.index import document_index
from gpu_lsp.lsp.positions import LineTable


def _lsp_range(text: str, start: int, end: int) -> tuple[int, int, int, int]:
    table = LineTable.of(text)
    return (*table.position(text, start), *table.position(text, end))


def test_incremental_changes_apply_in_order() -> None:
    doc = Document("file:///a.mlir", "abc\ndef\n", 1)
    doc.apply([((0, 1, 0, 2), "XY"), ((1, 0, 1, 3), "")], 2)
    assert doc.text == "aXYc\n\n"
    assert doc.version == 2
    assert doc.lines.starts == LineTable.of(doc.text).starts


def test_a_full_change_replaces_the_text() -> None:
    doc = Document("file:///a.mlir", "abc", 1)
    doc.apply([(None, "x\ny")], 5)
    assert doc.text == "x\ny" and doc.version == 5 and doc.lines.starts == [0, 2]


def test_a_line_table_made_while_the_text_is_replaced_is_not_kept(monkeypatch) -> None:
    """The open's line table is made when first asked for, on whichever thread asks: one made of
    a text that a full change replaces meanwhile does not stand for the new text."""
    import threading

    from gpu_lsp.lsp import documents

    first, made = "a\nb\n", threading.Event()

    class SlowTables:
        """`LineTable` as documents.py makes tables, slow for the first text (the compiled build's
        own class cannot be patched)."""

        @staticmethod
        def of(text: str) -> LineTable:
            if text is first:
                made.set()
                threading.Event().wait(0.3)  # the full change comes meanwhile
            return LineTable.of(text)

    monkeypatch.setattr(documents, "LineTable", SlowTables)
    doc = Document("file:///a.mlir", first, 1)
    asked = threading.Thread(target=lambda: doc.lines)
    asked.start()
    made.wait(5)
    doc.apply([(None, "x\ny\nz\nw")], 2)
    asked.join()
    assert doc.lines.starts == [0, 2, 4, 6]


def test_utf16_ranges_are_converted() -> None:
    doc = Document("file:///a.mlir", "// 😀 %x\n", 1)
    doc.apply([((0, 6, 0, 8), "%yy")], 2)
    assert doc.text == "// 😀 %yy\n"


def test_analysis_is_cached_per_text() -> None:
    doc = Document("file:///a.mlir", OUTLINED, 1)
    first = doc.analysed()
    assert doc.analysed() is first
    assert not doc.dirty
    doc.apply([((0, 0, 0, 0), "// more\n")], 2)
    assert doc.dirty
    second = doc.analysed()
    assert second is not first and second.version == 2 and second.text.startswith("// more")


def _random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    start = rng.randrange(len(text) + 1)
    end = min(len(text), start + rng.choice((0, 0, 1, 2, 5)))
    new = rng.choice(["", "x", "%", "}", "{", "\n", " ", "(", "%t0", "gpu.wait async\n", "// c\n", "@"])
    return start, end, new


def test_random_edit_replay_ends_equal_to_a_fresh_analysis() -> None:
    rng = random.Random(1234)
    text = OUTLINED + "\n// -----\n" + INLINE
    doc = Document("file:///a.mlir", text, 0)
    doc.analysed()
    for version in range(1, 501):
        batch = []
        current = doc.text
        for _ in range(rng.choice((1, 1, 2))):
            start, end, new = _random_edit(rng, current)
            batch.append((_lsp_range(current, start, end), new))
            current = current[:start] + new + current[end:]
        doc.apply(batch, version)
        assert doc.text == current
        if rng.random() < 0.4:  # analyse sometimes, as a debounced server would
            snap = doc.analysed()
            document_index(snap)
    final = doc.analysed()
    fresh = engine.diagnose(engine.parse_document(doc.text))
    assert final.diagnostics == fresh
    assert final.lines.starts == LineTable.of(doc.text).starts


def test_index_is_rebuilt_only_for_changed_units() -> None:
    doc = Document("file:///a.mlir", OUTLINED, 1)
    first = document_index(doc.analysed())
    kernels = [u for u in first.units if u.op.name == "gpu.func"]
    start = doc.text.index("%c16 = arith.constant 16")
    doc.replace(start, start + 4, "%c17", 2)
    doc.replace(doc.text.index("%c16"), doc.text.index("%c16") + 4, "%c17", 3)
    second = document_index(doc.analysed())
    same = [u for u in second.units if u.op.name == "gpu.func"]
    assert kernels and [u.op for u in same] == [u.op for u in kernels]  # a module's ops are units of their own
    assert all(new.index is old.index for new, old in zip(same, kernels))


def test_store_open_get_close() -> None:
    store = DocumentStore()
    doc = store.open("file:///a.mlir", "x", 1)
    assert store.get("file:///a.mlir") is doc
    assert list(store) == [doc]
    assert store.close("file:///a.mlir") is doc and doc.closed
    assert store.get("file:///a.mlir") is None
