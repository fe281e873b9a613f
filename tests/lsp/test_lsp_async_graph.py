"""The `gpu-lsp/asyncGraph` request over stdio: the graph document of an open file, in the client's positions."""

from __future__ import annotations

import json

import jsonschema
import pytest
from lsp_client import (
    RecordingClient,
    client_fixture,
    position,
    raw_request,
    within,
)
from lsp_samples import INLINE, OUTLINED, at
from pygls.exceptions import JsonRpcException
from support import REPO

from gpu_lsp.lsp.commands import ASYNC_GRAPH

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCHEMA = json.loads((REPO / "docs" / "async-graph.schema.json").read_text())
A = "file:///work/a.mlir"
B = "file:///work/b.mlir"


client = client_fixture("file:///work", ((A, OUTLINED), (B, INLINE)))


def _plain(value):
    """A response (namedtuples from pygls) as plain JSON values."""
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


async def test_graph_of_an_open_document(client: RecordingClient) -> None:
    doc = _plain(await within(raw_request(client, ASYNC_GRAPH, {"textDocument": {"uri": A}})))
    jsonschema.validate(doc, SCHEMA)
    (fn,) = doc["functions"]
    launch = next(n for n in fn["nodes"] if n["op"] == "gpu.launch_func")
    start = position(OUTLINED, at(OUTLINED, "gpu.launch_func"))
    assert launch["range"]["start"] == {"line": start.line, "character": start.character}
    assert any(e["kind"] == "token" and e["target"] == launch["id"] for e in fn["edges"])


async def test_one_function_and_unknown_documents(client: RecordingClient) -> None:
    only = _plain(await within(raw_request(client, ASYNC_GRAPH, {"textDocument": {"uri": B}, "function": "@inline"})))
    assert [f["name"] for f in only["functions"]] == ["inline"]
    assert await within(raw_request(client, ASYNC_GRAPH, {"textDocument": {"uri": "file:///nope.mlir"}})) is None


async def test_html_and_dot_of_the_same_graph(client: RecordingClient) -> None:
    page = await within(raw_request(client, ASYNC_GRAPH, {"textDocument": {"uri": A}, "format": "html"}))
    assert page.startswith("<!DOCTYPE html>") and "default-src 'none'" in page
    dot = await within(raw_request(client, ASYNC_GRAPH, {"textDocument": {"uri": A}, "format": "dot"}))
    assert dot.startswith('digraph "async ') and "cluster_s0" in dot
    with pytest.raises(JsonRpcException):
        await within(raw_request(client, ASYNC_GRAPH, {"textDocument": {"uri": A}, "format": "png"}))
