"""The full lint of a large document in a worker process, so that the analysis thread answers
requests (and a second core works) while it runs.

Workers come from multiprocessing's forkserver: a process the server starts (`worker_start.py`,
before it starts a thread), which imports the analysis once and forks a worker per lint. The
server itself never forks: it runs pygls's reader thread and the analysis thread, and a lock
one of them held at a fork would stay held in the child. A worker gets the text and the
settings (pickled), parses the text itself, lints it and sends the diagnostics back pickled;
the parser's own diagnostics come back as their place in the worker's parse and are read as
the equal objects of the server's parse of the same text (the incremental linter tells them by
identity). Where there is no forkserver, or the worker fails or takes too long, the caller
lints in process.

The open's worker (`leaves_per_op_rules`) runs every rule but the per-op ones of the lint
phase, which the server runs meanwhile on its own parse (`analysis.RuleSteps`), so that the
server's parse and the worker's parse and lint run on two cores at once.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing.connection
import pickle
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from gpu_lsp.analysis import lint_findings, lint_parsed, lint_phase_rule
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.ir.opdefs.registry import activate, registry_of
from gpu_lsp.lsp import engine
from gpu_lsp.lsp.trace import mark
from gpu_lsp.lsp.worker_start import context, warn_if_cold
from gpu_lsp.parser.api import ParsedFile

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

# A worker still running after this long is killed (and the lint done in process).
TIMEOUT_S = 300.0


class ChildLint:
    """The lint of one text running in a worker process. Whoever starts one waits for it
    (`wait`, which also reaps it); `cancel` may come from another thread meanwhile."""

    def __init__(self, process: BaseProcess, conn: Connection, parsed: ParsedFile | None, feeding: Connection | None = None) -> None:
        self._process = process
        self._conn = conn
        self._feeding = feeding
        self._parsed = parsed
        self._waiting = threading.Lock()  # one collector at a time
        self._cancelled = False
        self._finished = False
        self._items: Any = None

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def wait(self, parsed: ParsedFile | None = None) -> list[Diagnostic] | None:
        """The worker's diagnostics read against `parsed` (by default the parse given at the
        start), or None when it failed or was cancelled, or when `parsed` is missing; blocks until
        the worker ends."""
        items = self.received()
        target = parsed if parsed is not None else self._parsed
        if items is None or target is None:
            return None
        return decode(target, items)

    def feed(self, data: bytes) -> None:
        """Send `data` to a worker started `fed` (`spawn`), once; a worker that has ended meanwhile
        gets nothing (its result is then None)."""
        feeding, self._feeding = self._feeding, None
        if feeding is None:
            return
        with contextlib.suppress(OSError):
            feeding.send_bytes(data)
        feeding.close()

    @property
    def alive(self) -> bool:
        """Whether the worker runs (or waits to be fed) and is not cancelled."""
        return not self._cancelled and self._process.exitcode is None

    @property
    def finished(self) -> bool:
        """Whether what the worker sent is received (`received` returns at once)."""
        return self._finished

    def received(self) -> Any:
        """What the worker sent (unpickled), or None when it failed or was cancelled; blocks until it ends."""
        with self._waiting:
            if not self._finished:
                self._items = self._collect()
                self._finished = True
                mark("server: worker result received")
        return self._items

    def cancel(self) -> None:
        """Stop the worker: its result is no longer wanted (`wait` then gives None)."""
        self._cancelled = True
        with contextlib.suppress(OSError, ValueError):
            if self._process.exitcode is None:
                self._process.kill()

    def _collect(self) -> Any:
        data = None
        try:
            if self._conn.poll(TIMEOUT_S):
                data = self._conn.recv_bytes()
            else:
                log.warning("the lint worker %s timed out; linting in process", self.pid)
                self.cancel()
        except (EOFError, OSError):
            data = None
        finally:
            self._conn.close()
        if self._cancelled or data is None:
            self._process.join()
            if not self._cancelled:
                log.warning("the lint worker %s failed (exit code %s); linting in process", self.pid, self._process.exitcode)
            return None
        # A whole message: what the worker had to send. Its end is not waited for (the kernel freeing
        # a worker's heap took 25-40 ms at 100k lines); multiprocessing reaps it at the next start.
        return pickle.loads(data)


def first_done(children: list[ChildLint]) -> ChildLint:
    """The first of `children` whose result is received or whose worker has sent it or ended
    (`received` then returns at once), waiting for one; the first of them where their pipes
    cannot be waited on (one received meanwhile by another thread)."""
    for child in children:
        if child.finished:
            return child
    try:
        ready = multiprocessing.connection.wait([child._conn for child in children], TIMEOUT_S)
    except (OSError, ValueError):
        ready = []
    return next((child for child in children if child._conn in ready), children[0])


# What a worker sends: its parser diagnostics, then its findings with each parser diagnostic
# replaced by its index among them.
Encoded = tuple[list[Diagnostic], list[Diagnostic | int]]


def encode(parsed: ParsedFile, found: list[Diagnostic]) -> Encoded:
    """`found` with each parser diagnostic of `parsed` replaced by its index among them."""
    own = [d for chunk in parsed.chunks for d in chunk.diagnostics]
    places = {id(d): i for i, d in enumerate(own)}
    return own, [places.get(id(d), d) for d in found]


def decode(parsed: ParsedFile, encoded: Encoded) -> list[Diagnostic] | None:
    """The inverse of `encode` on a parse of the same text: each parser diagnostic is the equal
    one of `parsed`; None when the parser diagnostics of `parsed` are not those the worker had."""
    theirs, items = encoded
    pool: dict[tuple, list[Diagnostic]] = {}
    mine = [d for chunk in parsed.chunks for d in chunk.diagnostics]
    for d in mine:
        pool.setdefault(d.sort_key(), []).append(d)
    matched: list[Diagnostic] = []
    for d in theirs:
        same = [m for m in pool.get(d.sort_key(), ()) if m == d]
        if not same:
            break
        pool[d.sort_key()].remove(same[0])
        matched.append(same[0])
    if len(matched) != len(theirs) or len(mine) != len(theirs):
        log.warning("the lint worker's parse differs from this one; linting in process")
        return None
    return [matched[item] if isinstance(item, int) else item for item in items]


def start(text: str, settings: object | None, parsed: ParsedFile | None = None, leaves_per_op_rules: bool = False) -> ChildLint | None:
    """Start a worker that parses `text` and lints it with `settings` (all the rules, or all
    but the per-op lint-phase ones); its diagnostics are read against `parsed` (or the parse
    given to `wait`). None where there are no workers."""
    return spawn(_work, (text, settings, leaves_per_op_rules), parsed)


def spawn(work: Callable[..., None], arguments: tuple, parsed: ParsedFile | None = None, fed: bool = False) -> ChildLint | None:
    """A worker running `work(its end of the pipe, *arguments)`, which sends its result pickled;
    None where there are no workers or it could not start. With `fed`, `work` gets after its end
    of the pipe the reading end of a second one, which the caller feeds (`ChildLint.feed`): a large
    argument sent that way, once every worker has started, does not hold up their starts (a
    start waits for the worker to read what it is given)."""
    ctx = context()
    if ctx is None:
        return None
    receive, send = ctx.Pipe(duplex=False)
    feed_receive, feed_send = ctx.Pipe(duplex=False) if fed else (None, None)
    if feed_send is not None:
        _widen(feed_send)
    given = (send,) if feed_receive is None else (send, feed_receive)
    process = ctx.Process(target=work, args=(*given, *arguments), daemon=True)  # type: ignore[attr-defined]
    mark("worker: start requested")
    try:
        process.start()
        mark("worker: started" if fed else "worker: started (its text sent)")
    except (OSError, pickle.PicklingError):
        log.exception("could not start a lint worker")
        for end in (receive, send, feed_receive, feed_send):
            if end is not None:
                end.close()
        return None
    for end in given:
        end.close()
    return ChildLint(process, receive, parsed, feed_send)


# The buffer asked for a feeding pipe (Linux's most for an unprivileged process): a text is then
# written a few calls at a time, each of which waits for the GIL again after it (64 KB at a time,
# a 4 MB text waited 30-50 ms for it while the analysis thread ran).
FEED_PIPE_BYTES = 1 << 20


def _widen(conn: Connection) -> None:
    """Ask for a larger buffer for the pipe of `conn` where the system has the call; as it is otherwise."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if set_size is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(conn.fileno(), set_size, FEED_PIPE_BYTES)


def _work(send: Connection, text: str, settings: object | None, leaves_per_op_rules: bool) -> None:
    """The worker: parse, lint, send."""
    # A short life: the collector would only scan the IR (a second at 100k lines, e.g. while
    # pickling the result); exiting frees everything.
    gc.disable()
    mark("worker: running")
    warn_if_cold()
    data = pickle.dumps(lint(text, settings, leaves_per_op_rules), pickle.HIGHEST_PROTOCOL)
    mark("worker: result pickled")
    send.send_bytes(data)
    send.close()
    mark("worker: result sent")


def lint(text: str, settings: object | None, leaves_per_op_rules: bool) -> Encoded:
    """What a worker sends for `text` (`encode`): its parse as the open's, linted with `settings`."""
    activate(registry_of(getattr(settings, "op_sources", ())))  # a fresh process: the server's registry of the project's ops
    parsed = engine.start_document(text).result()
    mark("worker: parsed")
    if leaves_per_op_rules:
        found = lint_findings(parsed, settings, lambda rule: not lint_phase_rule(rule))
    else:
        found = lint_parsed(parsed, settings)
    mark("worker: rules run")
    return encode(parsed, found)
