"""A request during the open of a large document is answered before its analysis settles: in a
server whose open stops after its text views and a first step of the parse (it parses no further by
itself and publishes nothing), the outline, folding ranges, semantic tokens, code lenses and a
hover on the last launch are answered, from the part parsed and the text; the answers it keeps
(inlay hints of the first screen included) need no analysis thread."""

from __future__ import annotations

import asyncio
import re
import sys
import textwrap

import pytest
import pytest_lsp
from lsp_client import RecordingClient, client_fixture, make_client, within
from lsprotocol import types
from pytest_lsp import ClientServerConfig, client_capabilities
from support.typing import generated

from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.hints import inlay_hints

# The server, with documents of more than 1,000 characters opened progressively, and its open
# stalled after three steps (`opening.open_step` then only sleeps: the analysis never settles).
STALLED = textwrap.dedent(
    """
    import sys, time
    from gpu_lsp.lsp import documents, opening
    documents.PROGRESSIVE_SIZE = 1000
    documents.STEP_SEGMENTS = 2
    step, done = opening.open_step, []

    def stalled(doc):
        done.append(doc)
        if len(done) <= 3:
            return step(doc)
        time.sleep(0.01)
        return False

    opening.open_step = stalled
    from gpu_lsp.__main__ import main
    sys.exit(main())
    """
)
CONFIG = ClientServerConfig(server_command=[sys.executable, "-c", STALLED], client_factory=make_client)
URI = "file:///stalled/large.mlir"


client = client_fixture("file:///stalled", config=CONFIG, scope="function")


@pytest.mark.asyncio
async def test_requests_during_a_stalled_open_are_answered(client: RecordingClient) -> None:
    text = generated("inline", 600)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="mlir", version=1, text=text)))
    doc = types.TextDocumentIdentifier(uri=URI)
    symbols = await within(client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc)))
    assert [s.name for s in symbols] == re.findall(r"^func\.func @(\w+)", text, re.M), "every function, most from the text"
    folds = await within(client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc)))
    last_function = text[: text.rindex("func.func @")].count("\n")
    assert any(f.start_line == last_function for f in folds), "the regions of the part not parsed, from the text"
    tokens = await within(client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc)))
    assert tokens is not None and tokens.data
    first_screen = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=100, character=0))
    ranged = await within(client.text_document_semantic_tokens_range_async(types.SemanticTokensRangeParams(text_document=doc, range=first_screen)))
    assert ranged is not None and ranged.data and tokens.data[: len(ranged.data)] == ranged.data
    lenses = await within(client.text_document_code_lens_async(types.CodeLensParams(text_document=doc)))
    assert "fn0" in [lens.command.arguments[1] for lens in lenses if lens.command is not None and lens.command.arguments]
    launch = text.rindex("gpu.launch async") + 2
    line = text.count("\n", 0, launch)
    position = types.Position(line=line, character=launch - (text.rfind("\n", 0, launch) + 1))
    hover = await within(client.text_document_hover_async(types.HoverParams(text_document=doc, position=position)))
    assert hover is not None and "gpu.launch" in str(hover.contents)
    assert not [p for p in client.published if p.uri == URI], "the analysis has not settled"


# The same server, whose open holds the analysis thread for good once it has computed its answers
# about the whole document (and said so in a log message).
HELD = textwrap.dedent(
    """
    import sys, threading
    from gpu_lsp.lsp import ahead, documents, opening
    documents.PROGRESSIVE_SIZE = 1000
    documents.STEP_SEGMENTS = 2
    step, never = opening.open_step, threading.Event()

    def held(doc):
        if len(doc.kept_answers()) == len(ahead.AHEAD):
            from gpu_lsp.server import server

            server.send_raw('{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":3,"message":"answers kept"}}')
            never.wait()
        return step(doc)

    opening.open_step = held
    from gpu_lsp.__main__ import main
    sys.exit(main())
    """
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", HELD], client_factory=make_client))
async def held_client(lsp_client: RecordingClient):
    params = types.InitializeParams(capabilities=client_capabilities("visual-studio-code@v1.65.2"), root_uri="file:///stalled")
    await within(lsp_client.initialize_session(params))
    yield
    await within(lsp_client.shutdown_session())


async def _logged(client: RecordingClient, message: str) -> None:
    while not any(m.message == message for m in client.log_messages):
        await asyncio.sleep(0.05)


@pytest.mark.asyncio
async def test_the_answers_the_open_computed_ahead_need_no_analysis_thread(held_client: RecordingClient) -> None:
    client = held_client
    text = generated("inline", 600)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="mlir", version=1, text=text)))
    await within(_logged(client, "answers kept"))
    doc = types.TextDocumentIdentifier(uri=URI)
    symbols = await within(client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc)))
    assert [s.name for s in symbols] == re.findall(r"^func\.func @(\w+)", text, re.M)
    folds = await within(client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc)))
    last_function = text[: text.rindex("func.func @")].count("\n")
    assert any(f.start_line == last_function for f in folds)
    tokens = await within(client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc)))
    assert tokens is not None and tokens.data
    first_screen = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=100, character=0))
    ranged = await within(client.text_document_semantic_tokens_range_async(types.SemanticTokensRangeParams(text_document=doc, range=first_screen)))
    assert ranged is not None and ranged.data == tokens.data
    lenses = await within(client.text_document_code_lens_async(types.CodeLensParams(text_document=doc)))
    assert "fn0" in [lens.command.arguments[1] for lens in lenses if lens.command is not None and lens.command.arguments]
    hints = await within(client.text_document_inlay_hint_async(types.InlayHintParams(text_document=doc, range=first_screen)))
    analysed = Document(URI, text, 1).analysed()
    expected = inlay_hints(analysed, 0, analysed.offset(100, 0))
    assert expected and [(h.position.line, h.position.character, h.label) for h in hints] == [
        (*analysed.position(h.offset), h.label) for h in expected
    ], "the hints of the first screen"
