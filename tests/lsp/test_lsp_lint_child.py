"""The open's full lint in a worker process: the same diagnostics as in process, requests answered
from the parse meanwhile, the in-process lint when the worker fails, and no fork of this
(threaded) process to start one."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from support.typing import generated

from gpu_lsp import analysis
from gpu_lsp.lsp import documents, engine, lint_child, worker_start
from gpu_lsp.lsp.documents import Document
from gpu_lsp.lsp.hover import hover
from gpu_lsp.lsp.settings import EditorSettings

pytestmark = pytest.mark.skipif(worker_start.context() is None, reason="the lint workers need a forkserver")

# The thread count of this process at each of its forks (a fork hook cannot be removed: it
# records into this list for the whole session).
FORKS: list[int] = []
os.register_at_fork(before=lambda: FORKS.append(threading.active_count()))


@pytest.fixture
def small_progressive(monkeypatch):
    monkeypatch.setattr(documents, "PROGRESSIVE_SIZE", 1000)


def _opened(text: str) -> Document:
    doc = Document("file:///large.mlir", text, 1)
    while not doc.analyse_step():
        pass
    return doc


def _linted_in_child(text: str, settings: EditorSettings) -> tuple[Document, lint_child.ChildLint]:
    """A document opened and parsed, its lint started in a child."""
    doc = _opened(text)
    child = doc.lint_in_child(settings)
    assert isinstance(child, lint_child.ChildLint)
    return doc, child


def test_the_child_lints_like_the_analysis_thread_and_requests_use_the_parse_meanwhile(small_progressive) -> None:
    text = generated("inline", 400)
    at = text.index("arith.constant 32")
    text = text[:at] + "@" + text[at:]  # a parse error: its diagnostic comes back as the parser's object
    settings = EditorSettings()
    doc = _opened(text)
    child = doc.lint_in_child(settings)
    assert child is not None and child.pid != os.getpid()
    last_launch = text.rindex("gpu.launch async") + 2
    partial = doc.partial_at(last_launch)
    assert partial is not None and "gpu.launch" in hover(partial, last_launch).markdown
    found = child.wait()
    parser_diagnostics = {id(d) for chunk in partial.parsed.chunks for d in chunk.diagnostics}
    assert parser_diagnostics & {id(d) for d in found}, "parser diagnostics come back as the parse's own objects"
    snap = doc.analysed(settings)
    assert doc.partial is None
    assert snap.complete and snap.diagnostics == engine.diagnose(engine.parse_document(text), settings)
    assert any(d.code == "GPU002" for d in snap.diagnostics)


def test_a_failing_child_leaves_the_lint_to_the_analysis_thread(small_progressive) -> None:
    text = generated("inline", 200)
    settings = EditorSettings()
    doc, child = _linted_in_child(text, settings)
    os.kill(child.pid, signal.SIGKILL)  # the worker dies before it answers
    assert child.wait() is None
    snap = doc.analysed(settings)
    assert snap.complete and snap.diagnostics == engine.diagnose(engine.parse_document(text), settings)


def test_an_edit_before_the_child_ends_is_linted_from_its_result(small_progressive) -> None:
    """The open's lint of the text opened is taken, and the edit is linted incrementally from it."""
    text = generated("inline", 200)
    settings = EditorSettings()
    doc, child = _linted_in_child(text, settings)
    at = text.index("arith.constant 32")
    doc.replace(at, at + len("arith.constant 32"), "arith.constant 64", 2)
    snap = doc.analysed(settings)
    assert snap.diagnostics == engine.diagnose(engine.parse_document(doc.text), settings)
    assert not snap.complete, "the quick lint of the edited function"
    assert child.wait() is not None, "not cancelled"


def test_a_whole_new_text_before_the_child_ends_drops_its_result(small_progressive) -> None:
    text = generated("inline", 200)
    settings = EditorSettings()
    doc, child = _linted_in_child(text, settings)
    doc.apply([(None, "\n" + text)], 2)
    snap = doc.analysed(settings)
    assert snap.complete and snap.diagnostics == engine.diagnose(engine.parse_document(doc.text), settings)
    assert child.wait() is None, "cancelled"


def _typed(text: str, settings: EditorSettings) -> Document:
    """A document analysed, then edited inside one function: its lint is a quick one."""
    doc = Document("file:///large.mlir", text, 1)
    doc.analysed(settings)
    at = text.index("arith.constant 32") + len("arith.constant 3")
    doc.replace(at, at + 1, "7", 2)
    assert not doc.analysed(settings).complete
    return doc


def test_the_idle_full_lint_runs_in_a_child(small_progressive) -> None:
    settings = EditorSettings()
    doc = _typed(generated("inline", 200), settings)
    child = doc.settle_in_child(settings)
    assert child is not None
    child.wait()
    doc.settle(settings, child)
    snap = doc.snapshot
    assert snap.complete and snap.diagnostics == engine.diagnose(engine.parse_document(doc.text), settings)


def test_an_idle_lint_child_of_an_older_text_settles_nothing(small_progressive) -> None:
    settings = EditorSettings()
    doc = _typed(generated("inline", 200), settings)
    child = doc.settle_in_child(settings)
    assert child is not None
    doc.replace(0, 0, "\n", 3)
    assert doc.settle(settings, child) is False and child.wait() is None
    assert not doc.analysed(settings).complete


def test_an_idle_lint_child_stopped_by_an_edit_settles_nothing_after_it(small_progressive) -> None:
    settings = EditorSettings()
    doc = _typed(generated("inline", 200), settings)
    child = doc.settle_in_child(settings)
    assert child is not None
    doc.replace(0, 0, "\n", 3)
    assert not doc.analysed(settings).complete  # the edit's analysis stops the child
    assert child.wait() is None
    assert doc.settle(settings, child) is False, "the new text is settled by the next idle moment, not in this thread now"
    assert not doc.snapshot.complete


def test_the_open_forks_a_child_that_parses_the_text_itself_and_lints_it(small_progressive, monkeypatch) -> None:
    monkeypatch.setattr(analysis, "STEP_BUDGET_S", 0.0)  # a slice of ops per step
    text = generated("inline", 400)
    at = text.index("arith.constant 32")
    text = text[:at] + "@" + text[at:]
    settings = EditorSettings()
    doc = Document("file:///large.mlir", text, 1)
    first = doc.open_in_child(settings)
    assert first is not None and first.pid != os.getpid()
    assert doc.open_in_child(settings) is None, "one child per open"
    while not doc.analyse_step():
        pass
    assert doc.lint_in_child(settings) is first, "the open's child is waited for, not a second one forked"
    steps = 1
    while not doc.share_step():  # the per-op lint-phase rules, which the child leaves to this process
        steps += 1
    assert steps > 5
    snap = doc.analysed(settings)
    assert snap.complete and snap.diagnostics == engine.diagnose(engine.parse_document(text), settings)
    own = {id(d) for chunk in snap.parsed.chunks for d in chunk.diagnostics}
    assert own & {id(d) for d in snap.diagnostics}, "the child's parser diagnostics are read as this parse's objects"


def test_a_child_whose_parse_differs_is_not_read() -> None:
    text = generated("inline", 40)
    broken = text.replace("arith.constant 32", "@arith.constant 32", 1)
    parsed = engine.parse_document(broken)
    encoded = lint_child.encode(parsed, engine.diagnose(parsed))
    assert lint_child.decode(engine.parse_document(broken), encoded) is not None
    assert lint_child.decode(engine.parse_document(text), encoded) is None


def test_workers_are_never_forked_from_this_threaded_process(small_progressive) -> None:
    worker_start.start_workers()
    text = generated("inline", 200)
    settings = EditorSettings()
    before = len(FORKS)
    results: list = []

    def open_it() -> None:  # the analysis thread's side, beside this thread and another one
        doc = Document("file:///large.mlir", text, 1)
        child = doc.open_in_child(settings)
        results.append(child)
        while not doc.analyse_step():
            pass
        doc.lint_in_child(settings)
        while not doc.share_step():
            pass
        results.append(doc.analysed(settings))

    thread = threading.Thread(target=open_it)
    thread.start()
    thread.join()
    child, snap = results
    assert child is not None and child.pid != os.getpid()
    assert FORKS[before:] == [], "no fork of this process: the worker comes from the forkserver"
    assert snap.complete and snap.diagnostics == engine.diagnose(engine.parse_document(text), settings)


def test_the_forkserver_starts_its_workers_warm() -> None:
    """The forkserver imports `lint_child_preload`, which does a worker's work on a small text
    once: a worker forked from it finds the rules imported (importing `lint_child` alone leaves them)."""
    import subprocess
    import sys

    assert "gpu_lsp.lsp.lint_child_preload" in worker_start.PRELOAD
    probe = "import sys, gpu_lsp.lsp.{}; print('gpu_lsp.diagnostics.rules.all' in sys.modules)"
    found = [
        subprocess.run([sys.executable, "-c", probe.format(name)], capture_output=True, text=True, check=True).stdout.strip()
        for name in ("lint_child", "lint_child_preload")
    ]
    assert found == ["False", "True"]


def test_a_worker_unpickles_what_it_is_fed_without_an_import() -> None:
    """What the server feeds a range worker (its text, its range, the editor's settings) unpickles
    in a process that imported what the forkserver preloads without importing anything more (an
    import there is paid by every worker of every open, before it parses)."""
    import pickle
    import subprocess
    import sys

    from gpu_lsp.lsp.settings import EditorSettings

    fed = pickle.dumps(("func.func @f() {\n  return\n}\n", [0], 0, 27, EditorSettings(), 27), pickle.HIGHEST_PROTOCOL)
    probe = (
        "import pickle, sys\n"
        + "".join(f"import {name}\n" for name in worker_start.PRELOAD)
        + "before = set(sys.modules)\npickle.loads(sys.stdin.buffer.read())\nprint(sorted(set(sys.modules) - before))"
    )
    imported = subprocess.run([sys.executable, "-c", probe], input=fed, capture_output=True, check=True).stdout.decode().strip()
    assert imported == "[]"


def test_workers_run_the_servers_gpu_lsp() -> None:
    """Python 3.11's forkserver ignores the sys.path it is given: `start_workers` tells it where this
    process's gpu_lsp is, so that a worker never runs another install's (e.g. an editable one of
    another checkout, while this one is run from its sources)."""
    import gpu_lsp

    worker_start.start_workers()
    probe = f"import sys, gpu_lsp; sys.exit(0 if gpu_lsp.__file__ == {gpu_lsp.__file__!r} else 3)"
    worker = worker_start.context().Process(target=exec, args=(probe,))  # type: ignore[union-attr]
    worker.start()
    worker.join(60)
    assert worker.exitcode == 0


def test_a_worker_whose_forkserver_could_not_preload_says_so(monkeypatch, caplog) -> None:
    monkeypatch.setattr(worker_start, "PRELOAD", ["gpu_lsp.lsp.lint_child", "gpu_lsp.no_such_module"])
    with caplog.at_level("WARNING", logger=worker_start.__name__):
        worker_start.warn_if_cold()
    assert "could not import gpu_lsp.no_such_module: each worker starts cold" in caplog.text
    caplog.clear()
    monkeypatch.setattr(worker_start, "PRELOAD", ["gpu_lsp.lsp.lint_child"])
    with caplog.at_level("WARNING", logger=worker_start.__name__):
        worker_start.warn_if_cold()
    assert caplog.text == ""
