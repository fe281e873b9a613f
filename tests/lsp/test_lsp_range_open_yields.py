"""A K-way open whose range workers fill the cores: once the answers about the whole document are
kept, the server's own parse waits for the workers rather than taking cores from them."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from lsp_client import RecordingClient, open_document, patched_client_fixture, wait_published
from support.typing import generated

from gpu_lsp.lsp import engine, worker_start
from gpu_lsp.lsp.settings import EditorSettings

pytestmark = pytest.mark.skipif(worker_start.context() is None, reason="the range workers need a forkserver")

# Where the server below writes a line for each step of its own parse taken while its range
# workers fill the cores and only that parse is left of the open.
STEPS = Path(tempfile.gettempdir()) / f"gpu-lsp-crowded-steps-{os.getpid()}.txt"
URI = "file:///yields/large.mlir"
client = patched_client_fixture(
    "file:///yields",
    f"""
    from gpu_lsp.lsp import documents, opening, range_lint
    documents.PROGRESSIVE_SIZE = 1000
    range_lint.UNITS_PER_WORKER = 10
    range_lint.usable_cores = lambda: 2
    step = documents.Document.analyse_step

    def logged(doc):
        if doc.workers_fill_cores() and opening.only_parse_left(doc):
            with open({str(STEPS)!r}, "a") as out:
                out.write("step\\n")
        return step(doc)

    documents.Document.analyse_step = logged
    """,
)


@pytest.mark.asyncio
async def test_the_open_parses_nothing_while_its_range_workers_fill_the_cores(client: RecordingClient) -> None:
    STEPS.unlink(missing_ok=True)
    text = generated("inline", 20000)
    open_document(client, URI, text)
    published = await wait_published(client, URI, 1)
    steps = STEPS.read_text().count("step") if STEPS.exists() else 0
    STEPS.unlink(missing_ok=True)
    assert len(published.diagnostics) == len(engine.diagnose(engine.parse_document(text), EditorSettings()))
    assert steps == 0, f"{steps} steps of the server's parse while its workers filled the cores"
