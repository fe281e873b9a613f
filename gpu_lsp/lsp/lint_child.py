"""The full lint of a large document in a forked child process, so that the analysis thread
answers requests (and a second core works) while it runs.

The child is a `fork` of the server taken on the analysis thread, so it sees the parse as it
is (copy-on-write, nothing to send); it runs `analysis.lint_parsed` and sends the diagnostics
back pickled. Diagnostics the parser made are sent as their place in `chunk.diagnostics`, so
the server gets its own objects back (the incremental linter tells them by identity). Where
there is no `fork`, or the child fails or takes too long, the caller lints in process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import select
import signal
import threading

from gpu_lsp.analysis import lint_parsed
from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.parser.api import ParsedFile

log = logging.getLogger(__name__)

# A child still running after this long is killed (and the lint done in process).
TIMEOUT_S = 300.0


class ChildLint:
    """The lint of one parse running in a child process. Whoever starts one waits for it
    (`wait`, which also reaps the child); `cancel` may come from another thread meanwhile."""

    def __init__(self, pid: int, fd: int, parsed: ParsedFile) -> None:
        self.pid = pid
        self._fd = fd
        self._parsed = parsed
        self._waiting = threading.Lock()  # one collector at a time
        self._reaping = threading.Lock()  # no signal to a pid once reaped (it may be reused)
        self._reaped = False
        self._cancelled = False
        self._finished = False
        self._result: list[Diagnostic] | None = None

    def wait(self) -> list[Diagnostic] | None:
        """The diagnostics of `lint_parsed`, or None when the child failed or was cancelled;
        blocks until the child ends."""
        with self._waiting:
            if not self._finished:
                self._result = self._collect()
                self._finished = True
            return self._result

    def cancel(self) -> None:
        """Stop the child: its result is no longer wanted (`wait` then gives None)."""
        self._cancelled = True
        with self._reaping:
            if not self._reaped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)

    def _collect(self) -> list[Diagnostic] | None:
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
        return decode(self._parsed, pickle.loads(b"".join(chunks)))


def encode(parsed: ParsedFile, found: list[Diagnostic]) -> list[Diagnostic | tuple[int, int]]:
    """`found` with each parser diagnostic replaced by (chunk index, index in its diagnostics)."""
    places = {id(d): (ci, j) for ci, chunk in enumerate(parsed.chunks) for j, d in enumerate(chunk.diagnostics)}
    return [places.get(id(d), d) for d in found]


def decode(parsed: ParsedFile, items: list[Diagnostic | tuple[int, int]]) -> list[Diagnostic]:
    """The inverse of `encode`, on the same parse."""
    return [parsed.chunks[item[0]].diagnostics[item[1]] if isinstance(item, tuple) else item for item in items]


def start(parsed: ParsedFile, settings: object | None) -> ChildLint | None:
    """Fork a child that lints `parsed` with `settings`; None where there is no fork."""
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
            os.close(read_end)
            payload = pickle.dumps(encode(parsed, lint_parsed(parsed, settings)), pickle.HIGHEST_PROTOCOL)
            view = memoryview(payload)
            while view:
                view = view[os.write(write_end, view) :]
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return ChildLint(pid, read_end, parsed)
