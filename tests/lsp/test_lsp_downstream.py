"""The language server and a project's `op-definitions`: its ops are known, hovered and checked; mistakes are reported."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lsp_client import RecordingClient, client_fixture, open_document, position, wait_published, within
from lsp_samples import at, snapshot
from lsprotocol import types

from gpu_lsp.ir.opdefs import installed_from
from gpu_lsp.lint.op_definitions import use_op_definitions
from gpu_lsp.lsp import engine, lint_child, worker_start
from gpu_lsp.lsp.completion import complete
from gpu_lsp.lsp.definition_diagnostics import use_definitions
from gpu_lsp.lsp.settings import EditorSettings, for_document

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "downstream"


def _project(folder: Path) -> Path:
    for name in ("gpu-lint.toml", "scratch.ops.toml", "kernel.mlir"):
        shutil.copy(EXAMPLE / name, folder / name)
    return folder / "kernel.mlir"


def test_the_projects_files_are_declared_and_their_errors_published_on_them(tmp_path: Path) -> None:
    kernel = _project(tmp_path)
    definitions = tmp_path / "scratch.ops.toml"
    settings, problem = for_document(EditorSettings(), kernel.as_uri())
    assert problem is None and settings.op_definitions == (str(definitions),)
    published: dict[str, tuple[str, ...]] = {}
    try:
        used, _, messages = use_definitions(settings, published)
        assert messages == []  # no errors: nothing to say
        assert installed_from("scratch.fma") == str(definitions) and used.op_sources == ((str(definitions), definitions.read_text(encoding="utf-8")),)
        definitions.write_text('dialect = "scratch"\n[ops.fma]\ntraits = ["Pure", "Nope"]\n', encoding="utf-8")
        _, _, (message,) = use_definitions(settings, published)
        (diagnostic,) = json.loads(message)["params"]["diagnostics"]
        assert diagnostic["range"] == {"start": {"line": 2, "character": 19}, "end": {"line": 2, "character": 23}}
        assert diagnostic["message"].startswith("unknown trait 'Nope'") and diagnostic["severity"] == 1
        assert installed_from("scratch.fma") is None and installed_from("scratch.yield") is None
        shutil.copy(EXAMPLE / "scratch.ops.toml", definitions)
        _, _, (cleared,) = use_definitions(settings, published)
        assert json.loads(cleared)["params"] == {"uri": definitions.as_uri(), "version": None, "diagnostics": []}
    finally:
        use_op_definitions(())


def test_declared_ops_are_completed_with_their_summary_and_syntax() -> None:
    definitions = str(EXAMPLE / "scratch.ops.toml")
    text = "func.func @f() {\n  scratch.f\n  return\n}\n"
    try:
        assert use_op_definitions([definitions]) == []
        entries = {e.label: e for e in complete(snapshot(text), at(text, "scratch.f", 9))}
    finally:
        use_op_definitions(())
    assert {"scratch.fma", "scratch.flush"} <= set(entries)
    fma = entries["scratch.fma"]
    assert (fma.detail, fma.documentation) == (
        "a * b + c, element-wise, on floats of one type.",
        "```mlir\n%result = scratch.fma %a, %b, %c : T\n```",
    )


@pytest.mark.skipif(worker_start.context() is None, reason="the lint workers need a forkserver")
def test_a_lint_worker_declares_the_projects_ops_itself(tmp_path: Path) -> None:
    kernel = _project(tmp_path)
    text = kernel.read_text(encoding="utf-8").replace("    gpu.return\n", "    scratch.yield\n    gpu.return\n")
    settings, _ = for_document(EditorSettings(), kernel.as_uri())
    try:
        settings, _, _ = use_definitions(settings, {})
        assert settings.op_sources != ()
        parsed = engine.parse_document(text)
        use_op_definitions(())  # the worker declares the ops of the settings' sources itself
        child = lint_child.start(text, settings, parsed)
        assert child is not None
        found = child.wait()
    finally:
        use_op_definitions(())
    assert found is not None
    assert [(d.code, d.message) for d in found] == [("GPU102", "'scratch.yield' op expects parent op 'scratch.for_each_lane'")]


client = client_fixture()


@pytest.mark.asyncio(loop_scope="module")
async def test_the_server_checks_and_hovers_declared_ops(client: RecordingClient, tmp_path: Path) -> None:
    kernel = _project(tmp_path)
    with (tmp_path / "scratch.ops.toml").open("a", encoding="utf-8") as definitions:
        definitions.write('\n[ops.bad]\ntraits = ["Nope"]\n')
    text = kernel.read_text(encoding="utf-8").replace("    gpu.return\n", "    scratch.yield\n    gpu.return\n")
    uri = kernel.as_uri()
    open_document(client, uri, text)
    published = await within(wait_published(client, uri, 1))
    assert [(d.code, d.message) for d in published.diagnostics] == [
        ("GPU102", "'scratch.yield' op expects parent op 'scratch.for_each_lane'")
    ]
    hover = await within(
        client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, at(text, "scratch.fma", 2)))
        )
    )
    assert hover is not None
    assert "**scratch.fma** — a * b + c, element-wise, on floats of one type." in hover.contents.value
    assert "%result = scratch.fma %a, %b, %c : T" in hover.contents.value
    assert f"Declared by this project in `{tmp_path / 'scratch.ops.toml'}`" in hover.contents.value
    definitions = (tmp_path / "scratch.ops.toml").as_uri()
    (errors,) = [p.diagnostics for p in client.published if p.uri == definitions]
    assert [(d.range.start.line, d.range.start.character, d.message.split(" (")[0]) for d in errors] == [
        (38, 11, "unknown trait 'Nope'")
    ]
