"""A K-way open feeds its range workers their text before the server's own parse starts: both
would otherwise cut and pickle the text and parse its first part at once, under the GIL."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from lsp_client import RecordingClient, open_document, patched_client_fixture, wait_published
from support.typing import generated

from gpu_lsp.lsp import worker_start

pytestmark = pytest.mark.skipif(worker_start.context() is None, reason="the range workers need a forkserver")

# Where the server below writes, in order, "fed <length>" once the range workers of an open of a
# text of that length have their text, and "step <length>" for each step of the parse of one.
EVENTS = Path(tempfile.gettempdir()) / f"gpu-lsp-open-order-{os.getpid()}.txt"
URI = "file:///fed/large.mlir"
client = patched_client_fixture(
    "file:///fed",
    f"""
    from gpu_lsp.lsp import documents, range_lint
    documents.PROGRESSIVE_SIZE = 1000
    range_lint.UNITS_PER_WORKER = 10
    range_lint.usable_cores = lambda: 2
    start, step = range_lint.start, documents.Document.analyse_step

    def log(event):
        with open({str(EVENTS)!r}, "a") as out:
            out.write(event + "\\n")

    def started(text, *args, **kwargs):
        ranges = start(text, *args, **kwargs)
        log(("fed " if ranges is not None else "not-cut ") + str(len(text)))
        return ranges

    def logged(doc):
        log("step " + str(len(doc.text)))
        return step(doc)

    range_lint.start = started
    documents.Document.analyse_step = logged
    """,
)


@pytest.mark.asyncio
async def test_the_open_parses_once_its_range_workers_have_their_text(client: RecordingClient) -> None:
    EVENTS.unlink(missing_ok=True)
    # A first open waits for the forkserver's preload (the server's first seconds): the second is timed.
    open_document(client, "file:///fed/first.mlir", generated("inline", 15000))
    await wait_published(client, "file:///fed/first.mlir", 1)
    text = generated("inline", 20000)
    open_document(client, URI, text)
    await wait_published(client, URI, 1)
    events = [line.split()[0] for line in EVENTS.read_text().splitlines() if line.endswith(f" {len(text)}")]
    EVENTS.unlink(missing_ok=True)
    assert "fed" in events and "step" in events
    assert events.index("fed") < events.index("step"), f"the parse started before the workers were fed: {events[:5]}"
