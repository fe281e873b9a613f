"""Typing that breaks and repairs a file: incremental analysis equals a fresh one, and an
unbalanced brace leaves the rest of the file analysed (documents directly, then a real client)."""

from __future__ import annotations

import asyncio
import random
import sys
import textwrap

import pytest
import pytest_lsp
from lsp_client import VSCODE, RecordingClient, change_document, client_fixture, make_client, open_document, position, wait_published, within
from lsprotocol import types
from pytest_lsp import ClientServerConfig, client_capabilities
from support.typing import generated, typing_edits

from gpu_lsp.lsp import engine
from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.settings import EditorSettings


@pytest.mark.parametrize("seed", [5, 6])
def test_every_version_while_typing_equals_a_fresh_analysis(seed: int) -> None:
    text = generated("inline", 500)
    doc = Document("file:///typed.mlir", text, 1)
    settings = EditorSettings()
    doc.analysed(settings)
    rng = random.Random(seed)
    quick = 0
    for version, (start, end, new) in enumerate(typing_edits(text, rng, 40), 2):
        doc.replace(start, end, new, version)
        snap = doc.analysed(settings)
        quick += not snap.complete
        fresh = engine.diagnose(engine.parse_document(doc.text), settings)
        assert _findings(snap.diagnostics) == _findings(fresh), f"version {version}"
    assert quick > 20, "most edits re-lint only what changed"
    doc.settle(settings)
    assert snap.complete and snap.diagnostics == engine.diagnose(engine.parse_document(doc.text), settings)


def _findings(diagnostics: list) -> list[tuple]:
    """Diagnostics without the SSA names their fixes introduce: the full lint keeps those
    unique across the chunk in rule order, a quick lint of one unit only within it, until
    the idle full lint (`settle`) replaces it."""
    return [(d.code, d.message, d.range, d.severity, d.related, d.tags, d.fix is not None) for d in diagnostics]


on_server_loop = pytest.mark.asyncio(loop_scope="module")
LARGE = "file:///work/large.mlir"
TYPED = "file:///work/typed.mlir"
FRESH = "file:///work/fresh.mlir"


client = client_fixture("file:///work")


def _items(params: types.PublishDiagnosticsParams) -> list[tuple]:
    return sorted((d.range.start.line, d.range.start.character, d.code, d.message) for d in params.diagnostics)


async def _settled(client: RecordingClient, uri: str, version: int) -> types.PublishDiagnosticsParams:
    """The diagnostics of `version` once the server has completed them (a quick lint is
    followed by a full one when the editor is idle)."""
    await wait_published(client, uri, version, timeout=60)
    await asyncio.sleep(3.0)  # the settle runs 0.75 s after the last publish
    return [p for p in client.published if p.uri == uri and p.version == version][-1]


@on_server_loop
async def test_a_typing_session_ends_with_the_diagnostics_of_a_fresh_open(client: RecordingClient) -> None:
    text = generated("inline", 1500)
    open_document(client, TYPED, text)
    await wait_published(client, TYPED, 1, timeout=60)
    rng = random.Random(21)
    version = 1
    for start, end, new in typing_edits(text, rng, 40):
        version = change_document(client, TYPED, start, end, new)
        if rng.random() < 0.3:  # sometimes the server keeps up, sometimes edits pile up
            await wait_published(client, TYPED, version, timeout=60)
    typed = await _settled(client, TYPED, version)
    open_document(client, FRESH, client.texts[TYPED])
    fresh = await _settled(client, FRESH, 1)
    assert _items(typed) == _items(fresh)


@on_server_loop
async def test_an_unbalanced_brace_at_the_top_leaves_the_rest_working(client: RecordingClient) -> None:
    text = generated("inline", 10_000)
    open_document(client, LARGE, text)
    clean = await wait_published(client, LARGE, 1, timeout=120)
    # Delete the closing brace of the first launch region of the first function.
    brace = text.index("\n  }\n") + 3
    version = change_document(client, LARGE, brace, brace + 1, "")
    broken = await wait_published(client, LARGE, version, timeout=60)
    broken_text = client.texts[LARGE]
    tail = broken_text.count("\n", 0, broken_text.index("// fn2:"))
    below = [item for item in _items(broken) if item[0] >= tail]
    assert below and below == [item for item in _items(clean) if item[0] >= tail]
    errors = [d for d in broken.diagnostics if d.severity == types.DiagnosticSeverity.Error]
    assert errors and all(d.range.start.line < tail for d in errors), "only the damaged function has errors"
    last_launch = broken_text.rindex("gpu.launch async")
    hover = await within(
        client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=LARGE), position=position(broken_text, last_launch + 2))
        ),
        60,
    )
    assert hover is not None and "gpu.launch" in hover.contents.value


# A server whose lint workers' results reach it 5 s late: the open's diagnostics cannot come before
# a request the open answers by itself, however soon or late the server reads it.
LATE_LINT = textwrap.dedent(
    """
    import sys, time
    from gpu_lsp.lsp import lint_child
    collect = lint_child.ChildLint._collect

    def late(self):
        time.sleep(5)
        return collect(self)

    lint_child.ChildLint._collect = late
    from gpu_lsp.__main__ import main
    sys.exit(main())
    """
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", LATE_LINT], client_factory=make_client))
async def late_lint_client(lsp_client: RecordingClient):
    params = types.InitializeParams(capabilities=client_capabilities(VSCODE), root_uri="file:///work")
    await within(lsp_client.initialize_session(params))
    yield
    await within(lsp_client.shutdown_session())


@pytest.mark.asyncio
async def test_the_outline_during_an_open_is_whole_and_the_views_are_refreshed_after_it(late_lint_client: RecordingClient) -> None:
    client = late_lint_client
    uri = "file:///work/opened.mlir"
    text = generated("inline", 6_000)  # over documents.PROGRESSIVE_SIZE: opened in steps
    open_document(client, uri, text)
    document = types.TextDocumentIdentifier(uri=uri)
    symbols = await within(client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=document)), 60)
    # Sent with the didOpen: answered from the outline the open keeps, before its diagnostics (a
    # later request may come after them in a fast build, so only this one is asserted).
    assert all(p.uri != uri for p in client.published), "answered during the open"
    tokens = await within(client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=document)), 60)
    assert len(symbols) == text.count("\nfunc.func @") + text.startswith("func.func @")
    assert symbols[-1].name == text[text.rindex("func.func @") + 11 :].split("(", 1)[0]
    assert tokens is not None and tokens.data
    await wait_published(client, uri, 1, timeout=120)
    for _ in range(200):
        if {types.WORKSPACE_SEMANTIC_TOKENS_REFRESH, types.WORKSPACE_CODE_LENS_REFRESH} <= set(client.refreshes):
            break
        await asyncio.sleep(0.05)
    assert {types.WORKSPACE_SEMANTIC_TOKENS_REFRESH, types.WORKSPACE_CODE_LENS_REFRESH} <= set(client.refreshes)


def test_a_large_document_opens_in_steps_and_answers_on_the_parsed_part(monkeypatch) -> None:
    from gpu_lsp.lsp import documents
    from gpu_lsp.lsp.hover import hover

    monkeypatch.setattr(documents, "PROGRESSIVE_SIZE", 1000)
    monkeypatch.setattr(documents, "STEP_SEGMENTS", 5)
    text = generated("inline", 800)
    doc = Document("file:///large.mlir", text, 1)
    settings = EditorSettings()
    assert doc.analyse_step() is False
    partial = doc.partial
    first_launch = text.index("gpu.launch async") + 2
    assert doc.partial_at(first_launch) is partial
    assert "gpu.launch" in hover(partial, first_launch).markdown
    assert doc.partial_at(text.rindex("gpu.launch async")) is None, "not parsed yet"
    # An edit while opening: the open starts again from the new text.
    at = text.index("arith.constant 32")
    doc.replace(at, at, "@", 2)
    steps = 1
    while not doc.analyse_step():
        steps += 1
    assert steps > 3
    snap = doc.analysed(settings)
    assert doc.partial is None and doc.partial_at(first_launch) is None
    assert snap.complete and snap.diagnostics == engine.diagnose(engine.parse_document(doc.text), settings)


def test_a_request_during_the_open_parses_only_as_far_as_its_position(monkeypatch) -> None:
    from gpu_lsp.lsp import documents
    from gpu_lsp.lsp.hover import hover

    monkeypatch.setattr(documents, "PROGRESSIVE_SIZE", 1000)
    monkeypatch.setattr(documents, "STEP_SEGMENTS", 2)
    text = generated("inline", 800)
    doc = Document("file:///large.mlir", text, 1)
    second = text.index("gpu.launch async", text.index("gpu.launch async") + 1) + 2
    line = text.count("\n", 0, second)
    partial = doc.opening_at(line, second - text.rindex("\n", 0, second) - 1)
    assert partial is not None and doc.snapshot is None, "answered before the open is analysed"
    assert "gpu.launch" in hover(partial, second).markdown
    assert doc.partial_at(text.rindex("gpu.launch async")) is None, "the rest is not parsed yet"
    doc.analysed(EditorSettings())
    assert doc.opening_at(line, 0) is None, "opened: requests use the analysed snapshot"
