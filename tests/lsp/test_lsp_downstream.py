"""The language server and a project's `op-definitions`: its ops are known, hovered and checked; mistakes are reported."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsp_client import CONFIG, RecordingClient, open_document, position, wait_published, within
from lsp_samples import at, snapshot
from lsprotocol import types
from pytest_lsp import client_capabilities

from gpu_lsp.ir.opdefs import install, installed_from
from gpu_lsp.lint.op_definitions import load_op_definitions
from gpu_lsp.lsp.completion import complete
from gpu_lsp.lsp.settings import EditorSettings, for_document

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "downstream"


def _project(folder: Path) -> Path:
    for name in ("gpu-lint.toml", "scratch.ops.toml", "kernel.mlir"):
        shutil.copy(EXAMPLE / name, folder / name)
    return folder / "kernel.mlir"


def test_for_document_declares_the_projects_ops_and_reports_mistakes(tmp_path: Path) -> None:
    kernel = _project(tmp_path)
    definitions = str(tmp_path / "scratch.ops.toml")
    try:
        settings, problem = for_document(EditorSettings(), kernel.as_uri())
        assert problem is None and settings.op_definitions == (definitions,)
        assert installed_from("scratch.fma") == definitions
        Path(definitions).write_text('dialect = "scratch"\n[ops.fma]\nresults = "(outs F32:$r"\n[ops.x]\ntraits = ["Nope"]\n')
        _, problem = for_document(EditorSettings(), kernel.as_uri())
        assert problem is not None and problem.startswith(f"{definitions}:3:11: error: ") and problem.endswith("(and 1 more error: run gpu-lint)")
        assert installed_from("scratch.fma") is None
    finally:
        install(definitions, ())


def test_declared_ops_are_completed_with_their_summary_and_syntax() -> None:
    definitions = str(EXAMPLE / "scratch.ops.toml")
    text = "func.func @f() {\n  scratch.f\n  return\n}\n"
    try:
        assert load_op_definitions([definitions]) == []
        entries = {e.label: e for e in complete(snapshot(text), at(text, "scratch.f", 9))}
    finally:
        install(definitions, ())
    assert {"scratch.fma", "scratch.flush"} <= set(entries)
    fma = entries["scratch.fma"]
    assert (fma.detail, fma.documentation) == (
        "a * b + c, element-wise, on floats of one type.",
        "```mlir\n%result = scratch.fma %a, %b, %c : T\n```",
    )


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: RecordingClient):
    params = types.InitializeParams(capabilities=client_capabilities("visual-studio-code@v1.65.2"))
    await within(lsp_client.initialize_session(params))
    yield
    await within(lsp_client.shutdown_session())


@pytest.mark.asyncio(loop_scope="module")
async def test_the_server_checks_and_hovers_declared_ops(client: RecordingClient, tmp_path: Path) -> None:
    kernel = _project(tmp_path)
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
