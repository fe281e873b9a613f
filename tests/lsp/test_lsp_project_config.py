"""The language server reads gpu-lint's configuration files: nearest per document, watched, under the editor's settings."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_client import RecordingClient, client_fixture, open_document, wait_published, within
from lsprotocol import types

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.lsp.settings import EditorSettings, for_document

# GPU206 (a warning): the token of the copy is never used.
UNCONSUMED = """\
func.func @main(%h: memref<4xf32>, %d: memref<4xf32>) {
  %a = gpu.wait async
  %t = gpu.memcpy async [%a] %d, %h : memref<4xf32>, memref<4xf32>
  return
}
"""


def test_for_document_layers_the_editor_over_the_project(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.gpu-lint]\nignore = ["GPU206"]\nmlir-version = 22\n[tool.gpu-lint.severity]\nGPU2 = "error"\n'
        '[tool.gpu-lint.per-file-ignores]\n"gen/**" = ["GPU3"]\n'
    )
    uri = (tmp_path / "gen" / "k.mlir").as_uri()
    settings, problem = for_document(EditorSettings(), uri)
    assert problem is None
    assert ("GPU206" in settings.ignore, "GPU3" in settings.ignore, settings.mlir_version) == (True, True, 22)
    assert settings.severity == {"GPU2": Severity.ERROR}
    editor = EditorSettings(ignore=("GPU1",), severity={"GPU2": Severity.HINT}, mlir_version=23)
    layered, _ = for_document(editor, uri)
    assert "GPU206" in layered.ignore and "GPU1" in layered.ignore
    assert (layered.severity["GPU2"], layered.mlir_version) == (Severity.HINT, 23)
    assert for_document(EditorSettings(), "untitled:Untitled-1") == (EditorSettings(), None)
    (tmp_path / "pyproject.toml").write_text('[tool.gpu-lint]\nignore = ["GPU2O"]\n')
    _, bad = for_document(EditorSettings(), uri)
    assert bad is not None and "GPU2O" in bad


client = client_fixture()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_project_ignore_takes_effect_and_edits_are_watched(client: RecordingClient, tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.gpu-lint]\nignore = ["GPU206"]\n')
    uri = (tmp_path / "k.mlir").as_uri()
    open_document(client, uri, UNCONSUMED)
    first = await within(wait_published(client, uri, 1))
    assert [d.code for d in first.diagnostics] == []
    # The watcher is registered by a request of its own, which may reach the client after the diagnostics.
    for _ in range(200):
        if any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in client.registrations):
            break
        await asyncio.sleep(0.05)
    assert any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in client.registrations)
    since = len(client.published)
    config.write_text("[tool.gpu-lint]\nignore = []\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)])
    )
    second = await within(wait_published(client, uri, 1, since=since))
    assert [d.code for d in second.diagnostics] == ["GPU206"]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_broken_configuration_is_shown_once_and_the_editor_settings_apply(client: RecordingClient, tmp_path: Path) -> None:
    (tmp_path / "gpu-lint.toml").write_text('ignore = ["GPU2O"]\n')
    uri = (tmp_path / "k.mlir").as_uri()
    open_document(client, uri, UNCONSUMED)
    published = await within(wait_published(client, uri, 1))
    assert [d.code for d in published.diagnostics] == ["GPU206"]
    shown = [m.message for m in client.messages if "GPU2O" in m.message]
    assert len(shown) == 1 and "gpu-lint.toml: 'ignore': invalid rule selector 'GPU2O'" in shown[0]
