"""Bounded work per document: a huge one-line document is analysed up to a cut, with a notice,
and requests are answered; the parser stops on a file of garbage and diagnostics per document
are capped, in gpu-lint and the server alike (adversarial suite, issue 29)."""

from __future__ import annotations

import json
import random
import string

import pytest
from support.typing import generated
from test_lsp_frames import INITIALIZE, RawServer

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.model import MAX_DIAGNOSTICS, STOPPED, Diagnostic, capped
from gpu_lsp.lsp import documents, engine, publish
from gpu_lsp.lsp.bounded import LONG_LINE, MAX_ANALYSED, Oversized, cut_at, local_view, reaches_the_cap
from gpu_lsp.lsp.documents import PROGRESSIVE_SIZE, TEXT_VIEWS, Document, Phase, stopped_early
from gpu_lsp.lsp.gate import Parked
from gpu_lsp.lsp.hover import hover
from gpu_lsp.lsp.opening import open_step
from gpu_lsp.parser.api import parse
from gpu_lsp.text import TextRange

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


def test_a_hover_in_a_huge_line_reads_the_ops_around_it_before_the_analysis() -> None:
    text = "".join(f"%v{i} = arith.addi %a, %b : i32 " for i in range(3000))[:LONG_LINE]
    for character in (1, 9, 30_003):
        doc = Document("file:///h.mlir", text, 1)
        local = local_view(doc, 0, character)
        assert local is not None and len(local.text) < 5_000 + character
        near = hover(local, local.offset(0, character))
        full = doc.analysed()
        whole = hover(full, full.offset(0, character))
        assert near is not None and whole is not None
        assert (near.markdown, near.range) == (whole.markdown, whole.range)
        assert local_view(doc, 0, character) is None  # analysed: the snapshot answers
    assert local_view(Document("file:///s.mlir", OP * 10, 1), 0, 3) is None  # a short line


def test_positions_past_the_cut_are_beyond_it() -> None:
    oversized = Oversized()
    for text, line in ((OP * (LONG_LINE // len(OP) * 3), 0), ("short\n" + "x" * (LONG_LINE * 2) + "\nmore\n", 1)):
        view = oversized.open("file:///h.mlir", text, 1, "utf-16", lambda _: None)
        doc = Document("file:///h.mlir", view, 1)
        # the cut line keeps its first LONG_LINE characters
        assert not oversized.beyond_cut(doc, line, LONG_LINE - 1) and not oversized.beyond_cut(doc, 0, 3)
        assert oversized.beyond_cut(doc, line, LONG_LINE) and oversized.beyond_cut(doc, line, 10**7)
        assert oversized.beyond_cut(doc, line + 1, 0)
    assert not Oversized().beyond_cut(Document("file:///s.mlir", OP, 1), 5, 0)  # analysed in full


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
        item = {"uri": uri, "languageId": "mlir", "version": 1, "text": text}
        server.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
        for msg_id, character in ((2, 1), (3, 1_000_000)):
            position = {"line": 0, "character": character}
            server.send({"id": msg_id, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": position}})
        seen: dict[str, dict] = {}
        while len(seen) < 4:
            message = server.messages.get(timeout=30)
            kind = "hover" if message.get("id") == 2 else "hover past the cut" if message.get("id") == 3 else message.get("method", "")
            if kind in ("hover", "hover past the cut", "window/showMessage", "textDocument/publishDiagnostics"):
                seen.setdefault(kind, message)
        assert seen["hover"]["result"]["contents"]  # answered from the ops around the position
        assert seen["hover past the cut"]["result"] is None  # not from the end of the analysed part
        assert "only its first 50,000 characters are analysed" in seen["window/showMessage"]["params"]["message"]
        published = seen["textDocument/publishDiagnostics"]["params"]["diagnostics"]
        assert published and all(d["range"]["end"]["character"] <= LONG_LINE for d in published)  # the cut part only
        assert server.close() == 0
    finally:
        server.proc.kill()
        server.proc.wait()


def random_text(size: int, seed: int = 29) -> str:
    """`size` characters of random printable text (line breaks included)."""
    rng = random.Random(seed)
    return "".join(rng.choice(string.printable) for _ in range(size))


def random_bytes(size: int, encoding: str) -> str:
    """`size` random bytes decoded as `encoding` (invalid UTF-8 replaced)."""
    rng = random.Random(7)
    return rng.randbytes(size).decode(encoding, "replace")


def notices(found: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in found if STOPPED in d.tags]


def test_the_cap_keeps_the_first_diagnostics_and_a_notice() -> None:
    many = [Diagnostic("GPU003", f"d{i}", TextRange(i, i + 1)) for i in range(MAX_DIAGNOSTICS + 5)]
    kept = capped(many)
    assert len(kept) == MAX_DIAGNOSTICS and kept[:-1] == many[: MAX_DIAGNOSTICS - 1]
    assert notices(kept) == [kept[-1]] and "only the first 9,999" in kept[-1].message
    assert kept[-1].range.start == many[MAX_DIAGNOSTICS - 1].range.start
    assert capped(many[:MAX_DIAGNOSTICS]) == many[:MAX_DIAGNOSTICS]


def test_the_parser_stops_reading_garbage_at_the_cap_in_gpu_lint_and_the_server_alike() -> None:
    text = random_text(600_000)
    whole = parse(text, split=True)
    own = [d for chunk in whole.chunks for d in chunk.diagnostics]
    [notice] = notices(own)
    assert MAX_DIAGNOSTICS <= len(own) < 2 * MAX_DIAGNOSTICS
    assert "the analysis stopped here after 10,000 syntax errors" in notice.message
    assert 0 < notice.range.start < len(text) // 2  # the rest of the text is left unread
    assert max(d.range.end for d in own) <= notice.range.start + 1
    # The server's open (a segment at a time: every diagnostic of the segments before counts) stops too.
    progressive = engine.start_document(text).result()
    [early] = notices([d for chunk in progressive.chunks for d in chunk.diagnostics])
    assert 0 < early.range.start <= notice.range.start
    for parsed, stop in ((whole, notice), (progressive, early)):
        reported = engine.diagnose(parsed)
        assert len(reported) <= MAX_DIAGNOSTICS and stop in reported
    assert len(lint_text(text)) == MAX_DIAGNOSTICS


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("{" * 1_000_000, id="only-braces"),
        pytest.param("(" * 1_000_000, id="only-parens"),
        pytest.param("func.func @f() {\n" + "scf.execute_region {\n" * 100_000 + "}\n" * 100_000 + "return\n}\n", id="nested-100k"),
        pytest.param(random_bytes(1_000_000, "latin-1"), id="random-bytes-latin-1"),
        pytest.param(random_bytes(1_000_000, "utf-8"), id="random-bytes-utf-8"),
    ],
)
def test_pathological_files_are_linted_with_capped_diagnostics(text: str) -> None:
    found = lint_text(text)  # no crash, no RecursionError (the time each takes: benchmarks/huge_document.py)
    assert 1 <= len(found) <= MAX_DIAGNOSTICS


def test_large_texts_are_parked_out_of_the_message_pygls_decodes() -> None:
    parked = Parked()
    text = "x" * 2_000_000
    opened = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///a.mlir", "text": text}}}
    body = parked.park(opened)
    placeholder = json.loads(body)["params"]["textDocument"]["text"]
    assert len(body) < 300 and placeholder != text
    assert parked.take(placeholder) == text and parked.take(placeholder) == ""  # taken once
    changed = {"method": "textDocument/didChange", "params": {"contentChanges": [{"text": "a"}, {"range": None, "text": "b"}]}}
    first, second = (change["text"] for change in json.loads(parked.park(changed))["params"]["contentChanges"])
    assert (parked.take(first), parked.take(second)) == ("a", "b")
    assert parked.take("an ordinary text") == "an ordinary text"
    assert Parked().take(placeholder) == placeholder  # another process's key names nothing here


def test_a_file_of_random_text_gets_capped_diagnostics_and_its_requests_are_answered() -> None:
    server = RawServer()
    try:
        server.send({"id": 1, "method": "initialize", "params": INITIALIZE})
        server.answer(1)
        server.send({"method": "initialized", "params": {}})
        uri = "file:///tmp/random.mlir"
        item = {"uri": uri, "languageId": "mlir", "version": 1, "text": random_text(1_000_000)}
        server.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
        server.send({"id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}}})
        seen: dict[str, dict] = {}
        while len(seen) < 2:
            message = server.messages.get(timeout=60)
            kind = "hover" if message.get("id") == 2 else message.get("method", "")
            if kind in ("hover", "textDocument/publishDiagnostics"):
                seen.setdefault(kind, message)
        assert "error" not in seen["hover"] and "result" in seen["hover"]
        published = seen["textDocument/publishDiagnostics"]["params"]["diagnostics"]
        [stop] = [d for d in published if d["message"].startswith("too many problems: the analysis stopped here")]
        assert len(published) <= MAX_DIAGNOSTICS
        last = max((d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in published)
        assert last == (stop["range"]["start"]["line"], stop["range"]["start"]["character"])  # nothing past the stop
        assert server.close() == 0
    finally:
        server.proc.kill()
        server.proc.wait()


def test_the_open_of_a_file_of_garbage_is_its_parse_alone_up_to_the_cap() -> None:
    text = random_text(2 * PROGRESSIVE_SIZE + 600_000)
    doc = Document("file:///r.mlir", text, 1)
    steps = 0
    while True:
        steps += 1
        done = open_step(doc)
        snap = doc.partial
        assert snap is None or not any(view in snap.cache for view in TEXT_VIEWS)  # no text views of the garbage
        assert doc.kept_answers() == []  # nor answers computed ahead from them
        if done:
            break
        assert snap is not None and reaches_the_cap(snap)
        request = doc.opening_at(0, 2)  # a request meanwhile: the part parsed answers it
        assert request is not None and doc.phase is Phase.OPENING
    [stop] = notices(doc.analysed().lint.diagnostics)
    assert stop.range.start < len(text) // 2  # the rest is left unread
    assert steps < 100


def test_a_parse_stopped_early_is_linted_here_not_in_a_child() -> None:
    doc = Document("file:///r.mlir", random_text(2 * PROGRESSIVE_SIZE), 1)
    child = doc.open_in_child()
    while not doc.analyse_step():
        pass
    assert doc.lint_in_child() is None
    assert child is None or child.wait() is None  # the open's child was stopped
    snap = doc.analysed()
    assert stopped_early(snap.parsed) and len(notices(snap.lint.diagnostics)) == 1
    assert len(snap.lint.diagnostics) == MAX_DIAGNOSTICS
    assert not stopped_early(Document("file:///v.mlir", OP * 10, 1).analysed().parsed)


def test_the_open_of_a_large_valid_document_still_builds_its_text_views(monkeypatch) -> None:
    monkeypatch.setattr(documents, "PROGRESSIVE_SIZE", 1000)
    monkeypatch.setattr(documents, "STEP_SEGMENTS", 2)
    doc = Document("file:///large.mlir", generated("inline", 600), 1)
    while doc.partial is None or not all(view in doc.partial.cache for view in TEXT_VIEWS):
        assert not open_step(doc), "the text views come before the end of the parse"
        assert doc.partial is not None and not reaches_the_cap(doc.partial)
