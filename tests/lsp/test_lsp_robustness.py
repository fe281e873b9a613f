"""The server under stress: a 5 MB document, 500 random edits, a handler that raises."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys

import pytest
from lsp_client import RecordingClient, change_document, client_fixture, open_document, position, wait_published, within
from lsp_samples import INLINE, OUTLINED
from lsprotocol import types
from support import SHARED

from gpu_lsp.lsp import engine
from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.publish import diagnostic_dict

pytestmark = pytest.mark.asyncio(loop_scope="module")

GEN = SHARED / "tools" / "gen_gpu_mlir.py"


client = client_fixture("file:///work", editor="visual-studio-code")


def _key(d: dict) -> tuple:
    r = d["range"]
    return (r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"], d["code"], d["message"])


def _expected(uri: str, text: str, version: int) -> list[tuple]:
    """The diagnostics a fresh analysis of `text` gives, as the server would publish them."""
    snap = Document(uri, text, version).analysed()
    fresh = engine.diagnose(engine.parse_document(text))
    return sorted(_key(diagnostic_dict(snap, d)) for d in fresh)


def _got(params) -> list[tuple]:
    return sorted(
        (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.code, d.message)
        for d in params.diagnostics
    )


async def test_500_random_edits_end_equal_to_a_fresh_analysis(client: RecordingClient) -> None:
    uri = "file:///work/replay.mlir"
    open_document(client, uri, OUTLINED + "\n// -----\n" + INLINE)
    await within(wait_published(client, uri, 1))
    rng = random.Random(2024)
    pieces = ["", "x", "%", "}", "{", "\n", " ", "(", ")", "[", "%t0", "gpu.wait async\n", "// c\n", "@", "é", "😀"]
    version = 1
    for _ in range(500):
        text = client.texts[uri]
        start = rng.randrange(len(text) + 1)
        end = min(len(text), start + rng.choice((0, 0, 1, 3, 8)))
        version = change_document(client, uri, start, end, rng.choice(pieces))
    await within(wait_published(client, uri, version, timeout=60), 60)
    # A quick one-unit lint is completed by a full one once the document is idle.
    expected = _expected(uri, client.texts[uri], version)
    deadline = asyncio.get_running_loop().time() + 20
    while True:
        final = [p for p in client.published if p.uri == uri and p.version == version][-1]
        if _got(final) == expected or asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.1)
    assert _got(final) == expected
    # Still responsive.
    symbols = await within(client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))))
    assert symbols is not None
    published = [p.version for p in client.published if p.uri == uri]
    assert published == sorted(published), "never an older version after a newer one"


async def test_a_5_mb_document_opens_and_answers(client: RecordingClient) -> None:
    text = subprocess.run(
        [sys.executable, str(GEN), "--mode", "outlined", "--lines", "125000"], check=True, capture_output=True, text=True
    ).stdout
    assert len(text.encode()) >= 5_000_000
    uri = "file:///work/big.mlir"
    open_document(client, uri, text)
    published = await within(wait_published(client, uri, 1, timeout=120), 120)
    assert list(published.diagnostics) == []
    offset = text.index("= gpu.launch_func", len(text) // 2) + 2
    hover = await within(
        client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, offset + 3))),
        60,
    )
    assert hover is not None and "gpu.launch_func" in hover.contents.value
    start = text.index("= arith.constant", len(text) // 2) + 2
    version = change_document(client, uri, start, start + len("arith"), "arth")
    edited = await within(wait_published(client, uri, version, timeout=60), 60)
    assert [d.code for d in edited.diagnostics] == ["GPU006"]
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
