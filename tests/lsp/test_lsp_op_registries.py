"""The server's op registries: each document parsed with its own configuration's `op-definitions`, read
again when a file changes (watched or saved); a broken file keeps its last good declarations."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_client import RecordingClient, client_fixture, open_document, position, wait_published, within
from lsprotocol import types

from gpu_lsp.ir.opdefs.registry import BUILT_IN, activate, registry_of
from gpu_lsp.lsp.documents import Document

# `t.op` takes a float in folder a and an integer in folder b.
OPS_A = """\
dialect = "t"
[ops.op]
summary = "Declared in a."
arguments = "(ins AnyFloat:$x)"
assemblyFormat = "$x attr-dict `:` type($x)"
[ops.other]
summary = "Declared beside it."
"""
OPS_B = OPS_A.replace("AnyFloat", "AnyInteger").replace("Declared in a.", "Declared in b.")
KERNEL = "func.func @f(%x: f32) {\n  t.op %x : f32\n  return\n}\n"


def _folder(root: Path, name: str, definitions: str) -> tuple[str, Path]:
    """A folder whose gpu-lint.toml names its own t.ops.toml; the URI of its kernel, and the definitions' path."""
    folder = root / name
    folder.mkdir()
    (folder / "gpu-lint.toml").write_text('op-definitions = ["t.ops.toml"]\n', encoding="utf-8")
    (folder / "t.ops.toml").write_text(definitions, encoding="utf-8")
    return (folder / "k.mlir").as_uri(), folder / "t.ops.toml"


def _codes(params: types.PublishDiagnosticsParams) -> list[tuple[str, str]]:
    return [(str(d.code), d.message) for d in params.diagnostics]


def _changed(client: RecordingClient, path: Path) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)])
    )


async def _hover(client: RecordingClient, uri: str) -> str:
    found = await within(
        client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position(KERNEL, KERNEL.index("t.op") + 1))
        )
    )
    return "" if found is None else found.contents.value


def test_a_document_is_parsed_again_with_its_new_registry() -> None:
    doc = Document("file:///k.mlir", KERNEL, 1)
    one, two = registry_of((("a.toml", OPS_A),)), registry_of((("b.toml", OPS_B),))
    try:
        doc.definitions = one
        first = doc.analysed()
        assert [d.code for d in first.diagnostics] == [] and first.definitions is one
        activate(two)  # another document's job ran in between: the document's own registry is used again
        assert doc.analysed() is first
        doc.definitions = two
        second = doc.analysed()
        assert second is not first and second.definitions is two and second.parsed is not first.parsed
        assert [d.code for d in second.diagnostics] == ["GPU141"]
    finally:
        activate(BUILT_IN)


client = client_fixture()


@pytest.mark.asyncio(loop_scope="module")
async def test_two_folders_declare_one_op_each_their_way(client: RecordingClient, tmp_path: Path) -> None:
    a, _ = _folder(tmp_path, "a", OPS_A)
    b, _ = _folder(tmp_path, "b", OPS_B)
    open_document(client, a, KERNEL)
    assert _codes(await within(wait_published(client, a, 1))) == []
    open_document(client, b, KERNEL)
    assert _codes(await within(wait_published(client, b, 1))) == [("GPU141", "'t.op' op operand #0 must be integer, but got 'f32'")]
    # Requests switch too: each document's hover shows its own declaration, in either order.
    assert "Declared in a." in await _hover(client, a) and "Declared in b." in await _hover(client, b)
    assert "Declared in a." in await _hover(client, a)
    assert not [p for p in client.published if p.uri.endswith("t.ops.toml") and p.diagnostics]  # no clash reported


@pytest.mark.asyncio(loop_scope="module")
async def test_an_op_removed_from_the_file_becomes_unknown_in_the_open_document(client: RecordingClient, tmp_path: Path) -> None:
    uri, definitions = _folder(tmp_path, "c", OPS_A)
    open_document(client, uri, KERNEL)
    assert _codes(await within(wait_published(client, uri, 1))) == []
    since = len(client.published)
    definitions.write_text(OPS_A.split("[ops.op]")[0] + '[ops.other]\nsummary = "Declared beside it."\n', encoding="utf-8")
    _changed(client, definitions)
    again = await within(wait_published(client, uri, 1, since=since))
    assert [code for code, _ in _codes(again)] == ["GPU006"] and "'t.op' is not known" in again.diagnostics[0].message
    since = len(client.published)
    definitions.write_text(OPS_B, encoding="utf-8")  # saved from the editor: the same
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=definitions.as_uri())))
    assert [code for code, _ in _codes(await within(wait_published(client, uri, 1, since=since)))] == ["GPU141"]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_broken_file_keeps_its_last_good_ops_and_is_reported(client: RecordingClient, tmp_path: Path) -> None:
    uri, definitions = _folder(tmp_path, "d", OPS_B)
    open_document(client, uri, KERNEL)
    assert [code for code, _ in _codes(await within(wait_published(client, uri, 1)))] == ["GPU141"]
    since = len(client.published)
    definitions.write_text(OPS_A.replace("[ops.other]", "[ops.other"), encoding="utf-8")
    _changed(client, definitions)
    reported = await within(wait_published(client, definitions.as_uri(), since=since))
    (error,) = reported.diagnostics
    assert (error.range.start.line, error.range.start.character, error.range.end.line) == (5, 10, 5)  # the end of `[ops.other`
    assert error.message.startswith("invalid TOML: Expected ']'") and error.severity == types.DiagnosticSeverity.Error
    again = await within(wait_published(client, uri, 1, since=since))
    assert [code for code, _ in _codes(again)] == ["GPU141"]  # b's declaration still, not a's nor none
    assert "Declared in b." in await _hover(client, uri)
    since = len(client.published)
    definitions.write_text(OPS_A, encoding="utf-8")
    _changed(client, definitions)
    assert list((await within(wait_published(client, definitions.as_uri(), since=since))).diagnostics) == []
    assert _codes(await within(wait_published(client, uri, 1, since=since))) == []
