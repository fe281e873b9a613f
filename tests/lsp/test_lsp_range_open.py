"""The K-way open (`lsp/range_lint.py`): K range workers give exactly the diagnostics of the whole
file linted in one piece, their parser diagnostics are the server parse's own objects, and where the
ranges cannot stand for the file, the rules they cannot stand for run on the server's parse (the
whole-module ones where a symbol is referred to across ranges, the verifier's after a verifier error),
with the same result."""

from __future__ import annotations

import asyncio
import os
import signal
import tempfile
import threading
import time
from pathlib import Path

import pytest
from lsp_client import RecordingClient, change_document, k_way_client_fixture, open_document, wait_published
from lsprotocol import types
from support.typing import generated

from gpu_lsp.analysis import lint_range, merged_finished
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.diagnostics.registry import Phase, load_rules
from gpu_lsp.lsp import documents, engine, lint_child, range_lint, worker_start
from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.positions import UTF16, LineTable
from gpu_lsp.lsp.settings import EditorSettings
from gpu_lsp.parser.builder import UNDEFINED_VALUE
from gpu_lsp.parser.ranges import unit_starts

pytestmark = pytest.mark.skipif(worker_start.context() is None, reason="the range workers need a forkserver")

# Units that see each other across the ranges of a 3-way cut (the first unit calls the last one).
FIRST = """func.func @first(%a: memref<?xf32>) {
  func.call @last(%a) : (memref<?xf32>) -> ()
  return
}
"""
LAST = """func.func @last(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf32>
  return
}
"""
# A host launch of a kernel defined at the top (a verifier error at the top: `gpu.container_module`).
LAUNCH = """gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}
func.func @launcher() {
  %c1 = arith.constant 1 : index
  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}
"""


@pytest.fixture
def three_workers(monkeypatch):
    """Documents of a few hundred units opened by three range workers, whatever the cores."""
    monkeypatch.setattr(documents, "PROGRESSIVE_SIZE", 1000)
    monkeypatch.setattr(range_lint, "UNITS_PER_WORKER", 10)
    monkeypatch.setattr(range_lint, "usable_cores", lambda: 3)


def _text(extra: str = "") -> str:
    body = generated("inline", 2000)
    at = body.index("arith.constant 32")
    body = body[:at] + "@" + body[at:]  # a parse error
    undefined = body.index("%s = arith.addf %a, %b")
    body = body[:undefined] + body[undefined:].replace("%a, %b", "%a, %nowhere", 1)  # an undefined value
    suppressed = body.rindex("%t3 = gpu.launch async")
    body = body[:suppressed] + "// gpu-lint: ignore[GPU204]\n  " + body[suppressed:]  # a suppression comment
    return FIRST + body + extra + LAST


def _open(text: str, settings: EditorSettings) -> tuple[Document, object]:
    doc = Document("file:///large.mlir", text, 1)
    started = doc.open_in_child(settings)
    while not doc.analyse_step():
        pass
    assert doc.lint_in_child(settings) is started
    return doc, started


def test_three_range_workers_give_the_whole_files_diagnostics(three_workers) -> None:
    text = _text()
    settings = EditorSettings()
    doc, ranges = _open(text, settings)
    assert isinstance(ranges, range_lint.RangeLints) and len(ranges.pids) == 3 and os.getpid() not in ranges.pids
    parsed = doc.partial.parsed if doc.partial is not None else None
    assert parsed is not None
    found = ranges.wait(parsed)
    assert found is not None, "the ranges stand for the file"
    expected = engine.diagnose(engine.parse_document(text), settings)
    assert found == expected
    assert ranges.early() is None, "a call across ranges: the whole-module rules run on the server's parse"
    assert UNDEFINED_VALUE in {d.code for d in found} and len(parsed.diagnostics) > 1, "the parse error and the undefined value"
    assert len(engine.diagnose(engine.parse_document(text.replace("gpu-lint: ignore", "")), settings)) == len(found) + 1
    assert {id(d) for d in parsed.diagnostics} <= {id(d) for d in found}, "the parser's own objects"
    snap = doc.analysed(settings)
    assert snap.complete and snap.diagnostics == expected


def test_the_first_edit_after_a_range_open_is_linted_incrementally(three_workers) -> None:
    text = generated("inline", 2000)
    settings = EditorSettings()
    doc, ranges = _open(text, settings)
    assert isinstance(ranges, range_lint.RangeLints)
    assert doc.analysed(settings).complete
    at = text.index("arith.constant 32", text.index("func.func @fn20"))
    doc.replace(at, at + len("arith.constant 32"), "arith.constant 64", 2)
    assert not doc.analysed(settings).complete, "the quick lint of the edited function (the full one settles later)"


# Edits of `generated("inline", 2000)` inside @fn20: a constant, a syntax error, an op deleted.
EDITS = [("arith.constant 32", "arith.constant 64"), ("%tid = gpu.thread_id x", "%tid = @gpu.thread_id x"), ("%bid = gpu.block_id x", "")]


@pytest.mark.parametrize("old,new", EDITS, ids=["constant", "syntax-error", "op-deleted"])
def test_an_edit_during_the_open_is_linted_incrementally_once_the_open_is_finished(three_workers, monkeypatch, old: str, new: str) -> None:
    text = generated("inline", 2000)
    settings = EditorSettings()
    doc = Document("file:///large.mlir", text, 1)
    ranges = doc.open_in_child(settings)
    assert isinstance(ranges, range_lint.RangeLints)
    doc.analyse_step()
    at = text.index(old, text.index("func.func @fn20"))
    doc.replace(at, at + len(old), new, 2)

    def no_workers(*args, **kwargs):
        raise AssertionError("range workers for the edited text")

    monkeypatch.setattr(range_lint, "start", no_workers)
    while not doc.analyse_step():
        pass
    assert doc.lint_in_child(settings) is ranges, "the open's workers are waited for"
    snap = doc.analysed(settings)
    assert snap.text is doc.text and snap.version == 2
    assert not snap.complete, "the quick lint of the edited function (the full one settles later)"
    assert snap.diagnostics == engine.diagnose(engine.parse_document(doc.text), settings)


def test_the_open_views_give_nothing_of_an_edited_text_while_the_open_is_finished(three_workers) -> None:
    """A request during the finish waits for the analysis of the edited text (`analysed`): the open's
    views of the part parsed are of the text opened, never of the edited one (they looped on it)."""
    text = generated("inline", 2000)
    doc = Document("file:///large.mlir", text, 1)
    doc.open_in_child(EditorSettings())
    doc.analyse_step()
    doc.replace(0, 0, "\n", 2)
    answers: list = []

    def ask() -> None:
        answers.append(doc.opening_view())
        answers.append(doc.opening_at(40, 0))

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    asking.join(60)
    assert not asking.is_alive(), "a view of the part parsed never came back"
    assert answers == [None, None]


def test_a_whole_new_text_during_the_open_is_analysed_whole(three_workers) -> None:
    text = generated("inline", 2000)
    settings = EditorSettings()
    doc = Document("file:///large.mlir", text, 1)
    doc.open_in_child(settings)
    doc.analyse_step()
    doc.apply([(None, text.replace("arith.constant 32", "arith.constant 64"))], 2)
    doc.analyse_step()
    assert doc.partial is not None and doc.partial.text is doc.text, "nothing of the text opened is parsed on"
    snap = doc.analysed(settings)
    assert snap.text is doc.text and snap.complete
    assert snap.diagnostics == engine.diagnose(engine.parse_document(doc.text), settings)


def test_a_verifier_error_leaves_the_verifier_rules_to_the_servers_parse(three_workers) -> None:
    text = _text(LAUNCH + FIRST)  # a launch, and a symbol defined twice
    settings = EditorSettings()
    doc, ranges = _open(text, settings)
    assert isinstance(ranges, range_lint.RangeLints)
    expected = engine.diagnose(engine.parse_document(text), settings)
    assert ranges.wait(doc.partial.parsed if doc.partial is not None else None) == expected, "the verifier rules run on the server's parse"
    assert ranges.early() is None
    snap = doc.analysed(settings)
    assert snap.complete and snap.diagnostics == expected
    assert any(load_rules()[d.code].phase == Phase.VERIFY for d in expected), "a verifier error"


def test_the_worker_count_follows_the_cores_and_the_units() -> None:
    assert range_lint.worker_count(2500, cores=2) == 2
    assert range_lint.worker_count(2500, cores=16) == range_lint.MAX_WORKERS
    assert range_lint.worker_count(300, cores=16) == 1


def test_a_range_worker_stopped_before_its_text_comes_gives_nothing() -> None:
    """Range workers start before they are sent their text (`lint_child.spawn(fed=True)`): one
    stopped in between gives no result, and feeding it afterwards raises nothing."""
    child = lint_child.spawn(range_lint.work, (), fed=True)
    assert child is not None and child.alive
    child.cancel()
    assert child.pid is not None
    _wait_until_gone(child.pid)
    child.feed(b"the text")  # into a pipe nobody reads any more
    assert not child.alive and child.received() is None


def test_the_open_yields_to_its_range_workers_while_they_run(three_workers) -> None:
    text = _text()[len(FIRST) :]
    settings = EditorSettings()
    doc = Document("file:///large.mlir", text, 1)
    ranges = doc.open_in_child(settings)
    assert isinstance(ranges, range_lint.RangeLints) and ranges.crowded, "three workers, three cores"
    assert doc.workers_fill_cores()
    assert ranges.early() == engine.diagnose(engine.parse_document(text), settings), "the workers read the text they were fed"
    assert not ranges.running and not doc.workers_fill_cores(), "their results are in"


def test_a_k_way_open_takes_the_workers_started_ahead(three_workers) -> None:
    text = _text()[len(FIRST) :]
    settings = EditorSettings()
    ready = range_lint.prestart()
    assert len(ready) == 3 and range_lint.prestart() == ready, "as many as an open takes, once"
    ranges = range_lint.start(text, settings)
    assert ranges is not None and sorted(ranges.pids, key=str) == sorted(ready, key=str)
    assert ranges.early() == engine.diagnose(engine.parse_document(text), settings)
    again = range_lint.prestart()
    assert len(again) == 3 and not set(again) & set(ready)
    assert again[0] is not None
    os.kill(again[0], signal.SIGKILL)
    _wait_until_gone(again[0])
    ranges = range_lint.start(text, settings)
    assert ranges is not None and again[0] not in ranges.pids and set(again[1:]) <= set(ranges.pids), "a dead one is not taken"
    assert ranges.early() == engine.diagnose(engine.parse_document(text), settings)


def test_units_found_untrusted_after_the_feed_stop_the_workers(three_workers) -> None:
    """The bracket balance of the units is taken once the workers are fed: an op line written
    unindented inside a region (a segment start that is no unit start) stops them, and the open
    lints the text in one worker instead, with the same diagnostics."""
    text = _text().replace("  func.call @last", "func.call @last", 1)
    settings = EditorSettings()
    ready = range_lint.prestart()
    assert len(ready) == 3
    assert range_lint.start(text, settings) is None
    for pid in ready:
        assert pid is not None
        _wait_until_gone(pid)
    doc, started = _open(text, settings)
    assert isinstance(started, lint_child.ChildLint)
    assert doc.analysed(settings).diagnostics == engine.diagnose(engine.parse_document(text), settings)


def _wait_until_gone(pid: int) -> None:
    """Until the process `pid` has ended and its parent (the forkserver) has told its exit."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            time.sleep(0.5)
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} still runs")


def test_ranges_that_refer_to_nothing_beyond_them_give_the_diagnostics_before_any_parse(three_workers) -> None:
    text = _text()[len(FIRST) :]  # no call across ranges; the suppression comment, the parse error, the undefined value
    settings = EditorSettings()
    ranges = range_lint.start(text, settings)
    assert ranges is not None
    early = ranges.early()
    assert early == engine.diagnose(engine.parse_document(text), settings)
    assert UNDEFINED_VALUE in {d.code for d in early}


def test_each_ranges_findings_are_given_as_they_come(three_workers) -> None:
    """What the early publish builds the JSON of while the other workers run: each range's findings
    with its index, whose concatenation in range order is the merged list, object for object."""
    text = _text()[len(FIRST) :]
    ranges = range_lint.start(text, EditorSettings())
    assert ranges is not None
    parts: dict[int, list] = {}
    early = ranges.early(parts.__setitem__)
    assert early is not None and sorted(parts) == [0, 1, 2] and all(parts.values())
    assert [id(d) for i in sorted(parts) for d in parts[i]] == [id(d) for d in early]


def test_the_ranges_findings_are_merged_in_the_files_order_whatever_order_they_come_in() -> None:
    text = _text()[len(FIRST) :]
    starts = unit_starts(text)
    middle = starts[len(starts) // 2]
    parts = [lint_range(text, starts, 0, middle)[0], lint_range(text, starts, middle, len(text))[0]]
    merged = merged_finished(parts)
    assert merged is not None and len(merged) > 2
    assert merged == sorted(merged, key=Diagnostic.sort_key)
    assert merged_finished(parts[::-1]) == merged


def test_the_first_range_worker_to_end_is_received_first(three_workers) -> None:
    text = _text()[len(FIRST) :]
    ranges = range_lint.start(text, EditorSettings())
    assert ranges is not None
    children = ranges._children
    assert children[2].received() is not None  # the last range's result in first
    order: list[int] = []
    assert ranges.early(lambda index, found: order.append(index)) is not None
    assert order[0] == 2


def test_a_file_level_suppression_waits_for_the_parse(three_workers) -> None:
    text = "// gpu-lint: ignore-file[GPU204]\n" + _text()[len(FIRST) :]
    settings = EditorSettings()
    doc, ranges = _open(text, settings)
    assert isinstance(ranges, range_lint.RangeLints) and ranges.early() is None
    snap = doc.analysed(settings)
    assert snap.diagnostics == engine.diagnose(engine.parse_document(text), settings)
    assert "GPU204" not in {d.code for d in snap.diagnostics}


# A server whose large documents are opened by three range workers, and whose own parse stalls
# once the answers about the whole document are kept (it never parses the rest by itself: those
# of an edited text are never kept, so an edit lifts the stall). It writes the length of each text
# it starts range workers for to WORKERS_STARTED.
STALLED_URI = "file:///ranges/large.mlir"
WORKERS_STARTED = Path(tempfile.gettempdir()) / f"gpu-lsp-range-starts-{os.getpid()}.txt"
client = k_way_client_fixture(
    "file:///ranges",
    3,
    f"""
    import time
    from gpu_lsp.lsp import opening
    step, start = opening.open_step, range_lint.start

    def stalled(doc):
        if opening.only_parse_left(doc):
            time.sleep(0.01)
            return False
        return step(doc)

    def started(text, *args, **kwargs):
        with open({str(WORKERS_STARTED)!r}, "a") as out:
            out.write(str(len(text)) + "\\n")
        return start(text, *args, **kwargs)

    opening.open_step = stalled
    range_lint.start = started
    """,
)


@pytest.mark.asyncio
async def test_the_server_publishes_the_range_workers_diagnostics_before_its_own_parse(client: RecordingClient) -> None:
    text = _text()[len(FIRST) :]
    open_document(client, STALLED_URI, text)
    published = await wait_published(client, STALLED_URI, 1)
    expected = engine.diagnose(engine.parse_document(text), EditorSettings())
    lines = LineTable.of(text)
    got = [(d.code, d.range.start.line, d.range.start.character) for d in published.diagnostics]
    assert got == [(d.code, *lines.position(text, d.range.start, UTF16)) for d in expected]
    assert UNDEFINED_VALUE in {code for code, _, _ in got}


@pytest.mark.asyncio
async def test_an_edit_during_the_open_finishes_the_open_then_is_analysed_as_any_edit(client: RecordingClient) -> None:
    """An edit once the range workers published: the open of the text opened is finished (the server's
    parse of it, the workers' lint), and the edit is parsed and linted incrementally from it, with no
    range workers for the edited text (which would lint it all again while the server parses it)."""
    WORKERS_STARTED.unlink(missing_ok=True)
    text = _text()[len(FIRST) :]
    open_document(client, STALLED_URI, text)
    first = await wait_published(client, STALLED_URI, 1)
    at = text.index("%a, %nowhere")
    version = change_document(client, STALLED_URI, at, at + len("%a, %nowhere"), "%a, %b")  # the value is defined
    edited = client.texts[STALLED_URI]
    # The outline VS Code asks for again after an edit: answered once the edited text is analysed.
    outline = client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=STALLED_URI)))
    symbols = await asyncio.wait_for(outline, 60)
    published = await wait_published(client, STALLED_URI, version)
    assert WORKERS_STARTED.read_text().split() == [str(len(text))], "range workers for the text opened only"
    assert symbols and "fn0" in {s.name for s in symbols}
    expected = engine.diagnose(engine.parse_document(edited), EditorSettings())
    lines = LineTable.of(edited)
    got = [(d.code, d.message, d.range.start.line, d.range.start.character) for d in published.diagnostics]
    assert got == [(d.code, d.message, *lines.position(edited, d.range.start, UTF16)) for d in expected]
    assert len(got) == len(first.diagnostics) - 1, "the undefined value's diagnostic is gone"
