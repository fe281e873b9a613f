"""Bounded work per document: a huge one-line document is analysed up to a cut, with a notice,
and requests are answered; diagnostics per document are capped (adversarial suite, issue 29)."""

from __future__ import annotations

import time

from test_lsp_frames import INITIALIZE, RawServer

from gpu_lsp.lsp import publish
from gpu_lsp.lsp.bounded import LONG_LINE, MAX_ANALYSED, Oversized, cut_at
from gpu_lsp.lsp.documents import Document

OP = "%v = arith.addi %a, %b : i32 "


def test_cut_at_long_lines_and_the_size_limit() -> None:
    assert cut_at("a\n" * 1000) is None
    assert cut_at("short\n" + "x" * (LONG_LINE + 5) + "\nmore") == 6 + LONG_LINE
    assert cut_at(("y" * 1000 + "\n") * (MAX_ANALYSED // 1000 + 10)) == MAX_ANALYSED


def test_edits_apply_to_the_whole_text_and_the_store_sees_the_prefix() -> None:
    notices: list[str] = []
    oversized = Oversized()
    text = OP * (LONG_LINE // len(OP) * 3)
    view = oversized.open("file:///h.mlir", text, 1, "utf-16", notices.append)
    assert view == text[:LONG_LINE] and "only its first 50,000 characters are analysed" in notices[0]
    doc = Document("file:///h.mlir", view, 1)
    past = [((0, LONG_LINE + 100, 0, LONG_LINE + 100), "X")]
    assert oversized.change(doc, past, 2, notices.append) == []  # past the cut: nothing to re-analyse
    doc.apply([((0, 0, 0, 0), "// ")], 3)
    changes = oversized.change(Document("file:///h.mlir", view, 2), [((0, 0, 0, 0), "// ")], 3, notices.append)
    whole = oversized.whole_text("file:///h.mlir")
    assert whole is not None and whole.startswith("// ") and "X" in whole
    assert changes == [(None, whole[:LONG_LINE])]
    back = oversized.change(doc, [(None, "func.func @f() {\n  return\n}\n")], 4, notices.append)
    assert back == [(None, "func.func @f() {\n  return\n}\n")] and "analysed in full again" in notices[-1]
    assert oversized.whole_text("file:///h.mlir") is None


def test_a_paste_that_makes_a_document_huge_is_cut() -> None:
    notices: list[str] = []
    oversized = Oversized()
    doc = Document("file:///p.mlir", "func.func @f() {\n  return\n}\n", 1)
    changes = oversized.change(doc, [((0, 0, 0, 0), OP * 5000)], 2, notices.append)
    assert changes[0][0] is None and len(changes[0][1]) == LONG_LINE and len(notices) == 1


def test_published_diagnostics_are_capped(monkeypatch) -> None:
    text = "".join(f"func.func @f{i}(%m: memref<4xf32>) {{\n  gpu.wait [%t{i}]\n  return\n}}\n" for i in range(300))
    snap = Document("file:///c.mlir", text, 1).analysed()
    every = publish.diagnostics_json(snap, publish.SeverityOverrides({}))
    capped = publish.diagnostics_json(snap, publish.SeverityOverrides({}), limit=20)
    count = sum(item.count('"range"') for item in capped)
    assert sum(item.count('"range"') for item in every) > 100 and 20 <= count < 40


def test_a_huge_one_line_document_is_answered_with_a_notice() -> None:
    server = RawServer()
    try:
        server.send({"id": 1, "method": "initialize", "params": INITIALIZE})
        server.answer(1)
        server.send({"method": "initialized", "params": {}})
        uri = "file:///tmp/huge.mlir"
        text = OP * (3_000_000 // len(OP))
        started = time.monotonic()
        item = {"uri": uri, "languageId": "mlir", "version": 1, "text": text}
        server.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
        server.send({"id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}})
        seen: dict[str, dict] = {}
        while len(seen) < 3:
            message = server.messages.get(timeout=30)
            kind = "hover" if message.get("id") == 2 else message.get("method", "")
            if kind in ("hover", "window/showMessage", "textDocument/publishDiagnostics"):
                seen.setdefault(kind, message)
        assert "result" in seen["hover"]
        assert "only its first 50,000 characters are analysed" in seen["window/showMessage"]["params"]["message"]
        assert seen["textDocument/publishDiagnostics"]["params"]["diagnostics"]
        assert time.monotonic() - started < 20
        assert server.close() == 0
    finally:
        server.proc.kill()
        server.proc.wait()
