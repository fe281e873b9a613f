"""The full lint of a large document in a forked child process, so that the analysis thread
answers requests (and a second core works) while it runs.

The child is a `fork` of the server taken on the analysis thread, so it sees the parse as it
is (copy-on-write, nothing to send); it runs `analysis.lint_parsed` and sends the diagnostics
back pickled. Diagnostics the parser made are sent as their place in `chunk.diagnostics`, so
the server gets its own objects back (the incremental linter tells them by identity). Where
there is no `fork`, or the child fails or takes too long, the caller lints in process.

When a large document is opened, the child is forked before anything is parsed and parses the
text itself (`start_with_parse`): the server's parse and the child's parse and lint then run on
two cores at once (the server runs the per-op lint-phase rules meanwhile, `analysis.RuleSteps`). The
parse is deterministic, so the child's parser diagnostics have the same places in the server's
parse of the same text (checked by their count per chunk).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import pickle
import select
import signal
import threading
from collections.abc import Callable

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.parser.api import ParsedFile

log = logging.getLogger(__name__)

# A child still running after this long is killed (and the lint done in process).
TIMEOUT_S = 300.0


class ChildLint:
    """The lint of one parse running in a child process. Whoever starts one waits for it
    (`wait`, which also reaps the child); `cancel` may come from another thread meanwhile."""

    def __init__(self, pid: int, fd: int, parsed: ParsedFile | None) -> None:
        self.pid = pid
        self._fd = fd
        self._parsed = parsed
        self._waiting = threading.Lock()  # one collector at a time
        self._reaping = threading.Lock()  # no signal to a pid once reaped (it may be reused)
        self._reaped = False
        self._cancelled = False
        self._finished = False
        self._items: Encoded | None = None

    def wait(self, parsed: ParsedFile | None = None) -> list[Diagnostic] | None:
        """The diagnostics of `lint_parsed`, or None when the child failed or was cancelled;
        blocks until the child ends. They are read against `parsed`, by default the parse the
        child was forked with (a child that parsed the text itself needs the server's parse)."""
        with self._waiting:
            if not self._finished:
                self._items = self._collect()
                self._finished = True
        target = parsed if parsed is not None else self._parsed
        if self._items is None or target is None:
            return None
        return decode(target, self._items)

    def cancel(self) -> None:
        """Stop the child: its result is no longer wanted (`wait` then gives None)."""
        self._cancelled = True
        with self._reaping:
            if not self._reaped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)

    def _collect(self) -> Encoded | None:
        chunks: list[bytes] = []
        try:
            while True:
                ready, _, _ = select.select([self._fd], [], [], TIMEOUT_S)
                if not ready:
                    log.warning("the lint child %d timed out; linting in process", self.pid)
                    self.cancel()
                    break
                data = os.read(self._fd, 1 << 20)
                if not data:
                    break
                chunks.append(data)
        finally:
            os.close(self._fd)
            with self._reaping:
                _, status = os.waitpid(self.pid, 0)
                self._reaped = True
        if self._cancelled:
            return None
        if status != 0 or not chunks:
            log.warning("the lint child %d failed (status %d); linting in process", self.pid, status)
            return None
        return pickle.loads(b"".join(chunks))


# What a child sends: the number of parser diagnostics of each chunk, then the diagnostics.
Encoded = tuple[list[int], list[Diagnostic | tuple[int, int]]]


def encode(parsed: ParsedFile, found: list[Diagnostic]) -> Encoded:
    """`found` with each parser diagnostic replaced by (chunk index, index in its diagnostics)."""
    places = {id(d): (ci, j) for ci, chunk in enumerate(parsed.chunks) for j, d in enumerate(chunk.diagnostics)}
    return [len(chunk.diagnostics) for chunk in parsed.chunks], [places.get(id(d), d) for d in found]


def decode(parsed: ParsedFile, encoded: Encoded) -> list[Diagnostic] | None:
    """The inverse of `encode`, on the same parse or a parse of the same text; None when the
    parser diagnostics of `parsed` are not those the child had."""
    counts, items = encoded
    if counts != [len(chunk.diagnostics) for chunk in parsed.chunks]:
        log.warning("the lint child's parse differs from this one; linting in process")
        return None
    return [parsed.chunks[item[0]].diagnostics[item[1]] if isinstance(item, tuple) else item for item in items]


def start(parsed: ParsedFile, settings: object | None) -> ChildLint | None:
    """Fork a child that lints `parsed` with `settings`; None where there is no fork."""
    return _fork(lambda: parsed, lambda done: lint_parsed(done, settings), parsed)


def start_with_parse(
    text: str, parse: Callable[[str], ParsedFile], lint: Callable[[ParsedFile], list[Diagnostic]]
) -> ChildLint | None:
    """Fork a child that parses `text` with `parse` itself, then runs `lint` on it; None where
    there is no fork. Its diagnostics are read against the server's own `parse(text)` (`ChildLint.wait`)."""
    return _fork(lambda: parse(text), lint, None)


def _fork(
    parse: Callable[[], ParsedFile], lint: Callable[[ParsedFile], list[Diagnostic]], parsed: ParsedFile | None
) -> ChildLint | None:
    if not hasattr(os, "fork"):
        return None
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        log.exception("could not fork a lint child")
        return None
    if pid == 0:  # the child: lint, send, and leave without running the server's exit handlers
        status = 1
        try:
            # A short life: the collector would only scan the IR (a second at 100k lines, e.g.
            # while pickling the result); exiting frees everything.
            gc.disable()
            os.close(read_end)
            done = parse()
            payload = pickle.dumps(encode(done, lint(done)), pickle.HIGHEST_PROTOCOL)
            view = memoryview(payload)
            while view:
                view = view[os.write(write_end, view) :]
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return ChildLint(pid, read_end, parsed)
