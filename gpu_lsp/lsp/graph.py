"""The `gpu-lsp/asyncGraph` request: the async dependency graph of an open document (JSON, HTML or DOT)."""

from __future__ import annotations

from gpu_lsp.diagnostics.sanitizer.graph import build_graphs, to_json
from gpu_lsp.diagnostics.sanitizer.render import to_dot, to_html
from gpu_lsp.lsp.documents import Snapshot

FORMATS = ("json", "html", "dot")


def async_graph(snap: Snapshot, function: str | None = None, fmt: str = "json") -> dict | str:
    """docs/async-graph.schema.json's document (positions in the client's encoding), or the page or
    DOT source of the same graphs."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    graphs = build_graphs(snap.parsed, snap.diagnostics, function.lstrip("@") if function else None)
    if fmt == "dot":
        return to_dot(graphs)
    document = to_json(graphs, snap.position)
    return document if fmt == "json" else to_html(graphs, document, f"async graph of {snap.uri.rsplit('/', 1)[-1]}")
