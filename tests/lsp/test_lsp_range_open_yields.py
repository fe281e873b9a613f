"""A K-way open's own parse gives way to its range workers: it starts once they have their text
(cutting and pickling it, and parsing the first screens, would otherwise share the GIL), and once
the answers about the whole document are kept it waits for the workers while they fill the cores."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from lsp_client import RecordingClient, k_way_client_fixture, open_document, wait_published
from support.typing import generated

from gpu_lsp.lsp import engine, worker_start
from gpu_lsp.lsp.settings import EditorSettings

pytestmark = pytest.mark.skipif(worker_start.context() is None, reason="the range workers need a forkserver")

# Where the server below writes, in order, "fed <length>" once the range workers of an open of a
# text of that length have their text, and "step <length>" for each step of the parse of one
# (then "crowded-step <length>" for one taken while its workers fill the cores and only the parse is left).
EVENTS = Path(tempfile.gettempdir()) / f"gpu-lsp-open-order-{os.getpid()}.txt"
client = k_way_client_fixture(
    "file:///yields",
    2,
    f"""
    from gpu_lsp.lsp import opening
    start, step = range_lint.start, documents.Document.analyse_step

    def log(event, text):
        with open({str(EVENTS)!r}, "a") as out:
            out.write(event + " " + str(len(text)) + "\\n")

    def started(text, *args, **kwargs):
        ranges = start(text, *args, **kwargs)
        log("fed" if ranges is not None else "not-cut", text)
        return ranges

    def logged(doc):
        log("step", doc.text)
        if doc.workers_fill_cores() and opening.only_parse_left(doc):
            log("crowded-step", doc.text)
        return step(doc)

    range_lint.start = started
    documents.Document.analyse_step = logged
    """,
)


def _events(text: str) -> list[str]:
    """The events of the open of `text`, in order (and the log emptied)."""
    found = [line.split()[0] for line in EVENTS.read_text().splitlines() if line.endswith(f" {len(text)}")]
    EVENTS.unlink(missing_ok=True)
    return found


@pytest.mark.asyncio
async def test_the_open_parses_nothing_while_its_range_workers_fill_the_cores(client: RecordingClient) -> None:
    EVENTS.unlink(missing_ok=True)
    text = generated("inline", 20000)
    open_document(client, "file:///yields/large.mlir", text)
    published = await wait_published(client, "file:///yields/large.mlir", 1)
    events = _events(text)
    assert len(published.diagnostics) == len(engine.diagnose(engine.parse_document(text), EditorSettings()))
    assert "fed" in events
    crowded = events.count("crowded-step")
    assert crowded == 0, f"{crowded} steps of the server's parse while its workers filled the cores"


@pytest.mark.asyncio
async def test_the_open_parses_once_its_range_workers_have_their_text(client: RecordingClient) -> None:
    EVENTS.unlink(missing_ok=True)
    # A first open waits for the forkserver's preload (the server's first seconds): the second is timed.
    open_document(client, "file:///yields/first.mlir", generated("inline", 15000))
    await wait_published(client, "file:///yields/first.mlir", 1)
    text = generated("inline", 60000)  # its cut and pickling take long enough to lose any race with the parse
    open_document(client, "file:///yields/large.mlir", text)
    await wait_published(client, "file:///yields/large.mlir", 1)
    events = _events(text)
    assert "fed" in events and "step" in events
    assert events.index("fed") < events.index("step"), f"the parse started before the workers were fed: {events[:5]}"
