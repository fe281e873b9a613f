"""The `gpu-lsp/asyncGraph` request: the async dependency graph of an open document, as JSON."""

from __future__ import annotations

from gpu_lsp.lsp.documents import Snapshot
from gpu_lsp.sanitizer.graph import build_graphs, to_json


def async_graph_document(snap: Snapshot, function: str | None = None) -> dict:
    """docs/async-graph.schema.json's document for the snapshot, positions in the client's encoding."""
    graphs = build_graphs(snap.parsed, snap.diagnostics, function.lstrip("@") if function else None)
    return to_json(graphs, snap.position)
