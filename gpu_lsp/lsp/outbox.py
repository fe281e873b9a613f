"""The messages to the client, written by a thread of their own: the event loop hands a message
over and goes on reading requests, however slowly the client reads (a 100k-line outline is ~2 MB,
some thirty pipe buffers, which a blocking write on the event loop waited for: 0.1-0.7 s measured
under load, every other request waiting behind it)."""

from __future__ import annotations

import logging
import queue
import threading
from typing import BinaryIO, Protocol

log = logging.getLogger(__name__)


class Stream(Protocol):
    def write(self, data: bytes) -> int: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...


class Outbox:
    """A binary stream whose writes are queued and written, in order, by one thread (started by
    the first write: after the worker processes' forkserver, which must start before any thread)."""

    def __init__(self, stream: Stream | BinaryIO) -> None:
        self.stream = stream
        self._queue: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self._pending = 0
        self._idle = threading.Condition()
        self._thread: threading.Thread | None = None
        self.failed = False

    def write(self, data: bytes) -> int:
        with self._idle:
            self._pending += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="gpu-lsp-outbox", daemon=True)
                self._thread.start()
        self._queue.put(bytes(data))
        return len(data)

    def flush(self) -> None:
        """Nothing to do: each message is flushed once written (`drain` waits for them)."""

    def drain(self, timeout: float) -> bool:
        """Wait until every message queued is written (at most `timeout` seconds); whether they are."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def close(self) -> None:
        self.drain(5.0)
        self.stream.close()

    def _run(self) -> None:
        while True:
            data = self._queue.get()
            try:
                if not self.failed:
                    self.stream.write(data)
                    self.stream.flush()
            except (OSError, ValueError) as exc:  # the client is gone: what is left is dropped
                self.failed = True
                log.warning("could not write to the client: %s", exc)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()
