"""The open of a large document in K worker processes at once: its top-level units cut into K
ranges (`parser/ranges.py`), each parsed and linted with every rule by one worker
(`analysis.lint_range`), whose findings come back as plain data. The server merges them
(`analysis.complete_ranges`: the whole-module rules' count where no symbol is referred to across
ranges, and the verifier rules' where no verifier error is found; the others run on the server's parse), reads the parser's diagnostics as those of its own
parse (`lint_child.decode`: the incremental linter tells them by identity) and applies the
suppressions. Where the workers' own findings are the file's (`RangeLints.early`), they are
published before the server's parse, which waits for the workers when they fill the cores. Where
the ranges cannot stand for the file, `wait` gives None and the document is linted in process.
Workers come from the forkserver, as `lint_child`'s do; the server starts some ahead (`prestart`),
which wait for a range to lint, so that an open does not wait for forks.
"""

from __future__ import annotations

import gc
import os
import pickle
import threading
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import replace
from multiprocessing.connection import Connection

from gpu_lsp.analysis import RangeLint, complete_ranges, finish_lint, lint_range, merged_finished
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.ir.opdefs.registry import activate, registry_of
from gpu_lsp.lsp import lint_child
from gpu_lsp.lsp.trace import mark
from gpu_lsp.lsp.worker_start import warn_if_cold
from gpu_lsp.parser.api import ParsedFile
from gpu_lsp.parser.ranges import candidate_starts, cuts, starts_trusted

# A worker per this many top-level units at least (fewer units: a worker's start costs more than
# it saves), and at most this many workers.
UNITS_PER_WORKER = 200
MAX_WORKERS = 8


# Range workers started ahead, waiting to be fed a range (`prestart`): the next K-way open takes
# them rather than starting its workers one after another (the forkserver's fork, then the worker's
# start: 20-50 ms each under load).
_ready: list[lint_child.ChildLint] = []
_ready_lock = threading.Lock()
_prestarting = threading.Lock()


def usable_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def worker_count(units: int, cores: int | None = None) -> int:
    """How many range workers open a file of `units` top-level units (1: none, `lint_child`'s open)."""
    return max(1, min(usable_cores() if cores is None else cores, units // UNITS_PER_WORKER, MAX_WORKERS))


class RangeLints:
    """The lint of one text's ranges running in worker processes (the interface of a `ChildLint`)."""

    def __init__(self, children: list[lint_child.ChildLint], settings: object | None, text: str) -> None:
        self._children = children
        self._settings = settings
        self.text = text
        # Whether the workers fill the cores: the server's own parse then waits for them (`early`).
        self.crowded = usable_cores() <= len(children) + 1

    @property
    def pids(self) -> list[int | None]:
        return [child.pid for child in self._children]

    @property
    def running(self) -> bool:
        """Whether some worker's result is still to be received."""
        return not all(child.finished for child in self._children)

    def wait(self, parsed: ParsedFile | None = None) -> list[Diagnostic] | None:
        """Every diagnostic of the text, read against `parsed` (the server's parse of it) after
        suppressions and select/ignore; None when a worker failed or was cancelled, when `parsed` is
        missing or its parser diagnostics are not the workers', or when the ranges' parses are not
        the file's (`analysis.complete_ranges`). Blocks until every worker ends."""
        received = [child.received() for child in self._children]
        if parsed is None or any(not isinstance(part, RangeLint) for part in received):
            return None
        parts = _read_against(parsed, received)
        found = complete_ranges(parsed, parts, self._settings) if parts is not None else None
        if found is None:
            return None
        mark("server: ranges merged")
        return finish_lint(parsed, found, self._settings)

    def early(self, each: Callable[[int, list[Diagnostic]], None] | None = None) -> list[Diagnostic] | None:
        """Every diagnostic of the text from the workers' findings alone, before this process has
        parsed it (`analysis.merged_finished`), waiting for them; None where that needs the parse
        (`wait` then gives them). They are not the parse's objects: for a first publish only.
        `each` is given each range's index and own finished findings as they come, while the
        other workers run."""
        pending = list(self._children)
        while pending:
            child = lint_child.first_done(pending)
            pending.remove(child)
            part = child.received()
            if each is not None and isinstance(part, RangeLint) and part.finished is not None:
                each(self._children.index(child), part.finished)
        received = [child.received() for child in self._children]
        if any(not isinstance(part, RangeLint) for part in received):
            return None
        found = merged_finished(received)
        mark("server: ranges merged without the parse" if found is not None else "server: ranges need the parse")
        return found

    def cancel(self) -> None:
        """Stop every worker (`wait` then gives None)."""
        for child in self._children:
            child.cancel()


def start(text: str, settings: object | None, cores: int | None = None) -> RangeLints | None:
    """Start the range workers of `text`'s open (`worker_count` of them); None where the text is
    not cut into ranges (one `// -----` chunk or unit, too few units for two workers, units that
    are not trusted: the workers started are stopped) or there are no workers."""
    cores = usable_cores() if cores is None else cores
    starts = candidate_starts(text) if cores >= 2 else None
    if starts is None:
        return None
    count = worker_count(len(starts), cores)
    if count < 2:
        return None
    ranges = cuts(text, starts, count)
    children = _take(len(ranges))
    while len(children) < len(ranges):
        child = lint_child.spawn(work, (), fed=True)
        if child is None:
            for started in children:
                started.cancel()
            return None
        children.append(child)
    # Once all have started: a worker gets the text up to its range's end only (the offsets stay those of the text).
    for child, (lo, hi) in zip(children, ranges, strict=True):
        child.feed(pickle.dumps((text[:hi], starts[: bisect_left(starts, hi)], lo, hi, settings, len(text)), pickle.HIGHEST_PROTOCOL))
    mark("worker: texts sent")
    # The bracket balance of every unit (a scan of the whole text that this process's parse reads
    # too) is taken while the workers parse: where the cut does not hold, they are stopped.
    if not starts_trusted(text, starts):
        for child in children:
            child.cancel()
        mark("worker: units not trusted, workers stopped")
        return None
    return RangeLints(children, settings, text)


def prestart(cores: int | None = None) -> list[int | None]:
    """Start range workers that wait for a range until as many are ready as a K-way open on
    `cores` takes at most (none on one core); the pids of those ready. A call while another runs
    returns at once (with none)."""
    want = min(usable_cores() if cores is None else cores, MAX_WORKERS)
    if want < 2 or not _prestarting.acquire(blocking=False):
        return []
    try:
        while True:
            with _ready_lock:
                _ready[:] = [child for child in _ready if child.alive]
                if len(_ready) >= want:
                    return [child.pid for child in _ready]
            child = lint_child.spawn(work, (), fed=True)
            if child is None:
                return [ready.pid for ready in _ready]
            with _ready_lock:
                _ready.append(child)
    finally:
        _prestarting.release()


def _take(count: int) -> list[lint_child.ChildLint]:
    """Up to `count` of the workers `prestart` made ready, alive."""
    with _ready_lock:
        alive = [child for child in _ready if child.alive]
        _ready[:] = alive[count:]
    if alive:
        mark(f"worker: {min(count, len(alive))} taken ready")
    return alive[:count]


def _read_against(parsed: ParsedFile, parts: list[RangeLint]) -> list[RangeLint] | None:
    """`parts` with their parser diagnostics replaced by the equal ones of `parsed`; None when those differ."""
    theirs = [d for part in parts for d in part.found[: part.parser]]
    mine = lint_child.decode(parsed, (theirs, list(range(len(theirs)))))
    if mine is None:
        return None
    out: list[RangeLint] = []
    at = 0
    for part in parts:
        out.append(replace(part, found=[*mine[at : at + part.parser], *part.found[part.parser :]]))
        at += part.parser
    return out


def work(send: Connection, fed: Connection) -> None:
    """A range worker: read its text, range and settings (`fed`), parse and lint the range, send the findings."""
    gc.disable()  # a short life, as `lint_child`'s workers
    mark("range worker: running")
    try:
        text, starts, lo, hi, settings, length = pickle.loads(fed.recv_bytes())
    except EOFError:  # started ahead (`prestart`), never fed: the server has ended
        return
    fed.close()
    mark("range worker: text read")
    warn_if_cold()
    activate(registry_of(getattr(settings, "op_sources", ())))
    found, _ = lint_range(text, starts, lo, hi, settings, length)
    mark("range worker: parsed and linted")
    send.send_bytes(pickle.dumps(found, pickle.HIGHEST_PROTOCOL))
    send.close()
